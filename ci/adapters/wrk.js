// Adapter for wrk: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'wrk';
export const binary = 'wrk';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the wrk adapter is not implemented yet'); }
export function command() { throw new Error('the wrk adapter is not implemented yet'); }

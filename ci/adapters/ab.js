// Adapter for ab: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'ab';
export const binary = 'ab';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the ab adapter is not implemented yet'); }
export function command() { throw new Error('the ab adapter is not implemented yet'); }

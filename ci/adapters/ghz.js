// Adapter for ghz: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'ghz';
export const binary = 'ghz';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the ghz adapter is not implemented yet'); }
export function command() { throw new Error('the ghz adapter is not implemented yet'); }

// Adapter for k6: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'k6';
export const binary = 'k6';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the k6 adapter is not implemented yet'); }
export function command() { throw new Error('the k6 adapter is not implemented yet'); }

// Adapter for hyperfine: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'hyperfine';
export const binary = 'hyperfine';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the hyperfine adapter is not implemented yet'); }
export function command() { throw new Error('the hyperfine adapter is not implemented yet'); }

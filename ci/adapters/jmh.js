// Adapter for jmh: placeholder until the adapter lands; parse() refuses all input.
import { ParseError } from './errors.js';

export const name = 'jmh';
export const binary = 'jmh';
export const produce = 'not implemented yet';
export function parse() { throw new ParseError('the jmh adapter is not implemented yet'); }
export function command() { throw new Error('the jmh adapter is not implemented yet'); }

// Whole-number job params as the tools read them: in plain digits, within the range of the tool's option.

/** The most a C int option takes (ab -n, wrk -t, ...), and the bound of counts whose tools document none higher: 2^31 - 1. */
export const INT_MAX = 2 ** 31 - 1;

/**
 * A whole-number param `what` of `tool` from `min` to `max` (INT_MAX by default), as a number whose String() is plain
 * digits: a number, or text of decimal digits (a --param, a quoted YAML value) with an optional `suffix` ("s"). Anything
 * else is refused naming the param, the range and the fix: 1e99 would reach the tool as "1e+99", which ab reads as 1
 * request and hyperfine refuses. `unit` names what the number counts ("seconds").
 */
export function wholeNumber(v, { tool, what, min = 1, max = INT_MAX, unit, suffix }) {
  const text = typeof v === 'string' ? v.trim() : undefined;
  const digits = text !== undefined && suffix && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
  const n = typeof v === 'number' ? v : /^\d+$/.test(digits ?? '') ? Number(digits) : NaN;
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  const above = (typeof v === 'number' ? v : Number(digits)) > max ? ` (${max} is the most ${tool} takes)` : '';
  throw new Error(`${tool}: param ${what} must be a whole number from ${min} to ${max}${unit ? ` ${unit}` : ''} in plain digits, got ${JSON.stringify(v)}${above}`);
}

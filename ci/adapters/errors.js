// The error every adapter throws for output it cannot read; the I/O shell adds the file name.
export class ParseError extends Error {
  /** @param {string} reason what is wrong with the text @param {string} [hint] how to produce valid output */
  constructor(reason, hint) {
    super(reason);
    this.name = 'ParseError';
    this.hint = hint;
  }
}

/** A value as an error message shows it: JSON, or "missing" for a field that is not there. */
export const shown = (v) => (v === undefined ? 'missing' : JSON.stringify(v));

/** Parses JSON or throws a ParseError that says where it broke (truncated files are common). */
export function parseJson(text, hint) {
  if (!text || !text.trim()) throw new ParseError('the file is empty', hint);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ParseError(`not valid JSON ${whereJsonBroke(text, e.message)}; the file may be truncated or corrupted`, hint);
  }
}

/** Where JSON.parse gave up, in words: line and column with the text there, or the end of the input. */
export function whereJsonBroke(text, message) {
  const shown = (s) => JSON.stringify(s.replace(/\s+/g, ' ').slice(0, 40));
  const pos = /position (\d+)/.exec(message);
  if (pos) {
    const at = Number(pos[1]);
    const before = text.slice(0, at).split('\n');
    return `at line ${before.length}, column ${before.at(-1).length + 1} (near ${shown(text.slice(at, at + 40))})`;
  }
  if (/end of JSON input/i.test(message)) return '(it ends in the middle of a value)';
  const context = /"(.*)"(?:\.\.\.)? is not valid JSON/s.exec(message);
  return context ? `(near ${shown(context[1])})` : `(it starts with ${shown(text.trimStart())})`;
}

/** "90%, 99% rows": the ranks of a percentile table a tool always prints that `rows` ([{ p }]) lack; '' when none is. */
export function lostRankRows(expected, rows) {
  const lost = expected.filter((p) => !rows.some((r) => r.p === p));
  return lost.length ? `${lost.map((p) => `${p}%`).join(', ')} row${lost.length > 1 ? 's' : ''}` : '';
}

// The error every adapter throws for output it cannot read; the I/O shell adds the file name.
export class ParseError extends Error {
  /** @param {string} reason what is wrong with the text @param {string} [hint] how to produce valid output */
  constructor(reason, hint) {
    super(reason);
    this.name = 'ParseError';
    this.hint = hint;
  }
}

/** Parses JSON or throws a ParseError that says where it broke (truncated files are common). */
export function parseJson(text, hint) {
  if (!text || !text.trim()) throw new ParseError('the file is empty', hint);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ParseError(`not valid JSON (${e.message}); the file may be truncated`, hint);
  }
}

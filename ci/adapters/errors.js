// The error every adapter throws for output it cannot read; the I/O shell adds the file name.
export class ParseError extends Error {
  /** @param {string} reason what is wrong with the text @param {string} [hint] how to produce valid output */
  constructor(reason, hint) {
    super(reason);
    this.name = 'ParseError';
    this.hint = hint;
  }
}

/**
 * Output that is whole and the tool's own, but what the script measured cannot be kept as it is named (a custom k6
 * metric taking a name benchline gives a built-in one): the message says what to change in the script, not the output.
 */
export class ScriptProblem extends ParseError {
  constructor(reason, hint) {
    super(reason, hint);
    this.name = 'ScriptProblem';
  }
}

/** `not valid <tool> output`, or for a ScriptProblem, that the tool's output is fine but cannot be kept. */
export const unreadable = (e, tool) => (e instanceof ScriptProblem ? `${tool} output that cannot be kept` : `not valid ${tool} output`);

/** Longest value an error message quotes: a corrupted field can hold megabytes. */
const SHOWN_MAX = 80;

/** A value as an error message shows it: JSON (cut after 80 characters), or "missing" for a field that is not there. */
export const shown = (v) => {
  if (v === undefined) return 'missing';
  // line separators and direction marks, which JSON leaves as they are, escaped: they would break or reorder the line
  const text = JSON.stringify(v).replace(/[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}... (${text.length.toLocaleString('en-US')} characters)` : text;
};

/** Deepest nesting of arrays and objects in any output benchline reads is under 10; far deeper is a corrupted file. */
const MAX_DEPTH = 64;

/** Where JSON text nests deeper than MAX_DEPTH, in words, or undefined: such a value overflows the stack of any code that walks it. */
export function tooDeep(text) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > MAX_DEPTH) {
        const before = text.slice(0, i).split('\n');
        return `arrays or objects nest more than ${MAX_DEPTH} levels deep (at line ${before.length}, column ${before.at(-1).length + 1}), which no tool writes`;
      }
    } else if (c === 93 || c === 125) depth -= 1;
  }
  return undefined;
}

const APPENDED = "runs appended into one file?); give one run's output";

/**
 * The refusal of a file that holds `count` reports of `tool` (outputs appended with >> into one file): read as one,
 * they would mix the runs' values or keep one run without a word.
 */
export const appendedReports = (count, tool, hint) => new ParseError(`the file holds ${count} ${tool} reports (${count === 2 ? 'two' : 'several'} ${APPENDED}`, hint);

/** Parses JSON or throws a ParseError that says where it broke (truncated files are common) or that it nests absurdly deep. */
export function parseJson(text, hint) {
  if (!text || !text.trim()) throw new ParseError('the file is empty', hint);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // a whole document followed by another one: two outputs appended into one file, not a damaged one
    const after = /after JSON at position (\d+)/.exec(e.message);
    if (after && /^[[{]/.test(text.slice(Number(after[1])))) {
      const line = text.slice(0, Number(after[1])).split('\n').length;
      throw new ParseError(`the file holds a second JSON document after the first, from line ${line} (two or more ${APPENDED}`, hint);
    }
    throw new ParseError(`not valid JSON ${whereJsonBroke(text, e.message)}; the file may be truncated or corrupted`, hint);
  }
  const deep = tooDeep(text);
  if (deep) throw new ParseError(`${deep}; the file is corrupted`, hint);
  const twice = repeatedKey(text);
  if (twice) throw new ParseError(`${twice}, which no tool writes: JSON.parse would keep the last value without a word; the file was edited or corrupted`, hint);
  return doc;
}

/**
 * Where a key of one JSON object appears twice, in words, or undefined. The tools' JSON writers never repeat a key,
 * and JSON.parse keeps the last value of one repeated (an edited `"count": 5, "count": 99` reads as 99). `text` is
 * valid JSON, nested at most MAX_DEPTH deep.
 */
export function repeatedKey(text) {
  const objects = [];
  let keyStart = -1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      for (i += 1; text.charCodeAt(i) !== 34; i += 1) if (text.charCodeAt(i) === 92) i += 1;
      // a string right after { or , inside an object is a key
      if (keyStart === -2 && objects.length && objects[objects.length - 1]) {
        const key = text.slice(start, i + 1);
        const seen = objects[objects.length - 1];
        if (seen.has(key)) {
          const before = text.slice(0, start).split('\n');
          return `the key ${key.length > 60 ? `${key.slice(0, 60)}..."` : key} appears twice in one object (at line ${before.length}, column ${before.at(-1).length + 1})`;
        }
        seen.add(key);
      }
      keyStart = -1;
    } else if (c === 123) {
      objects.push(new Set());
      keyStart = -2;
    } else if (c === 91) {
      objects.push(null);
      keyStart = -1;
    } else if (c === 93 || c === 125) {
      objects.pop();
      keyStart = -1;
    } else if (c === 44) keyStart = -2;
    else if (c === 58) keyStart = -1;
  }
  return undefined;
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

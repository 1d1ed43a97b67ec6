// Shell words: a value quoted so that a POSIX shell reads it back as one word, for command lines shown or run through sh.

/** A word the shell reads back as `s`: as it is when it holds nothing the shell would split or expand, else in single quotes. */
export const shellQuote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? String(s) : `'${String(s).replace(/'/g, "'\\''")}'`);

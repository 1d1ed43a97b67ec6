// Atomic file writes: data lands complete under its final name or not at all.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomicLib from 'write-file-atomic';

/** Writes text to a temp file beside `path`, fsyncs it, then renames it into place. */
export function writeFileAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicLib.sync(path, text);
}

/** Writes a value as pretty JSON, atomically. */
export const writeJsonAtomic = (path, value) => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

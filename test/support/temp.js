// Temporary folders for tests, removed when the test file's process exits (after a failed test too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A new empty folder benchline-<name>-XXXXXX under the system's temp folder, gone when the tests of this file end. */
export function tempDir(name) {
  const d = mkdtempSync(join(tmpdir(), `benchline-${name}-`));
  made.push(d);
  return d;
}

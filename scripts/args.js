// Flags of the measurement scripts: --help prints a script's usage (its opening comment), a flag it does not take one line.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * parseArgs({ options }) for the script at `url` (its import.meta.url): its values, or the process ends, with 0 after
 * printing the usage for --help, with 2 and one line for an unknown flag or a missing value.
 */
export function scriptArgs(url, options) {
  const file = fileURLToPath(url);
  let values;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } }));
  } catch (e) {
    process.stderr.write(`scripts/${basename(file)}: ${String(e.message).split('\n')[0]} (--help lists its flags)\n`);
    process.exit(2);
  }
  if (!values.help) {
    delete values.help;
    return values;
  }
  // the comment block after the #! line, without its comment marks
  const lines = readFileSync(file, 'utf8').split('\n').slice(1);
  const end = lines.findIndex((l) => !l.startsWith('//'));
  process.stdout.write(`${lines.slice(0, end < 0 ? lines.length : end).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')}\n`);
  process.exit(0);
}

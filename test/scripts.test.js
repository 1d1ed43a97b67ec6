// The measurement scripts (scripts/*.js): each loads, explains itself on --help and refuses a flag it does not take in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const DIR = fileURLToPath(new URL('../scripts/', import.meta.url));
const scripts = readdirSync(DIR).filter((f) => f.endsWith('.js') && readFileSync(join(DIR, f), 'utf8').startsWith('#!'));

test('every measurement script loads, prints its usage for --help, and refuses an unknown flag with one line and exit 2', () => {
  assert.ok(scripts.length >= 3, scripts.join(', '));
  for (const f of scripts) {
    const help = spawnSync(process.execPath, [join(DIR, f), '--help'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(help.status, 0, `${f} --help: ${help.stderr}`);
    assert.match(help.stdout, /node scripts\//, `${f} --help shows how to run it`);
    const bad = spawnSync(process.execPath, [join(DIR, f), '--no-such-flag'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(bad.status, 2, `${f} --no-such-flag: ${bad.stderr}`);
    assert.match(bad.stderr, new RegExp(`^scripts/${f}: Unknown option '--no-such-flag'.*--help lists its flags\\)\\n$`));
  }
});

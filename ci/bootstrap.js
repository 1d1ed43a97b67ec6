#!/usr/bin/env node
// First step of `npm test` and `npm run bench`: installs npm packages and the tools the step needs, cached.
// Runs with Node built-ins only, because nothing else is installed yet on a fresh clone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureTools } from './tools.js';

const log = (m) => process.stderr.write(`benchline: ${m}\n`);

/** npm ci when node_modules is missing or was installed from another lock file. */
function ensureNodeModules() {
  const lock = readFileSync(join(ROOT, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex');
  const stamp = join(ROOT, 'node_modules', '.benchline-lock-sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  log('installing npm packages (npm ci)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm ci failed; see the output above');
  writeFileSync(stamp, hash);
}

/** Tools the test suite drives for real; `bench` installs the tools of its plan itself, once parsed. */
const TEST_TOOLS = ['wrk', 'ab', 'hyperfine', 'k6', 'ghz', 'bun', 'nginx', 'haproxy', 'envoy'];

async function main(purpose) {
  ensureNodeModules();
  if (purpose === 'test') ensureTools(TEST_TOOLS, { log });
}

main(process.argv[2] || 'test').catch((e) => {
  log(e.message);
  process.exit(1);
});

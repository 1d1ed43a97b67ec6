#!/usr/bin/env node
// The benchline command (package.json bin): runs ci/cli.js, or says how to install its packages when they are missing.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

try {
  await import('./cli.js');
} catch (e) {
  const missing = e?.code === 'ERR_MODULE_NOT_FOUND' && /Cannot find package '([^']+)'/.exec(e.message);
  if (!missing) throw e;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  console.error(`benchline: its packages are not installed (${missing[1]} is missing): run \`npm ci\` in ${root}, or \`npm run bench\` once, which installs them`);
  process.exitCode = 2;
}

#!/usr/bin/env node
// Recaptures test/fixtures/wrk/gateways-*.txt: real wrk runs through each native gateway, command and version beside each.
//
// Usage: node subjects/gateways/test-support/capture-fixtures.js
// Per gateway: a 1 s unmeasured warm-up, then three trials at the quick profile's settings; then one
// run through nginx during which backend-2 is stopped by PID (the backend-down case). The tests in
// test/gateways.test.js assert the exact numbers of these files: update them after recapturing.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT, locate } from '../../../ci/tools.js';
import { loadManifest, startSubject } from '../../../ci/subjects.js';

const FIX = join(ROOT, 'test', 'fixtures', 'wrk');
const LUA = join(ROOT, 'loadtests', 'wrk', 'json.lua');
const WRK = locate('wrk').path;
// `wrk -v` prints "wrk debian/4.1.0-3+b2 [epoll] Copyright ..." (and exits 1): keep its first line whole.
const VERSION = spawnSync(WRK, ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0].replace(/ Copyright.*$/, '').trim();
const GATEWAYS = { nginx: 'nginx', haproxy: 'haproxy', bun: 'bun-gateway' };
const BACKENDS = ['backend-1', 'backend-2', 'backend-3'];
const manifest = loadManifest(ROOT, 'gateways');

const wrkArgs = (url, duration = '3s') => ['-t2', '-c50', `-d${duration}`, '--latency', '-s', LUA, `${url}/`];

function runWrk(args) {
  return new Promise((resolve, reject) => {
    execFile(WRK, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000 }, (err, stdout, stderr) => {
      if (err?.killed) reject(new Error(`wrk did not finish within 60 s: ${stderr}`));
      else resolve({ stdout, code: err ? err.code : 0 });
    });
  });
}

function save(name, args, { stdout, code }, note) {
  writeFileSync(join(FIX, `${name}.txt`), stdout);
  const cmd = [WRK, ...args].map((a) => (a.startsWith(`${ROOT}/`) ? relative(ROOT, a) : a)).join(' ');
  writeFileSync(join(FIX, `${name}.cmd`), `# ${VERSION}\n${cmd}\n# exit status: ${code}\n# ${note}\n`);
  process.stderr.write(`captured test/fixtures/wrk/${name}.txt\n`);
}

/** Starts the backends and one gateway from the manifest, runs `body(subject)`, stops them by PID. */
async function withGateway(gateway, body) {
  const runDir = mkdtempSync(join(tmpdir(), 'benchline-gateways-capture-'));
  const subject = await startSubject({ manifest, runDir, select: [...BACKENDS, gateway] });
  try {
    await runWrk(wrkArgs(subject.target.url, '1s'));
    await body(subject);
  } finally {
    await subject.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

for (const [variant, gateway] of Object.entries(GATEWAYS)) {
  await withGateway(gateway, async (subject) => {
    for (let trial = 1; trial <= 3; trial += 1) {
      const args = wrkArgs(subject.target.url);
      save(`gateways-${variant}-${trial}`, args, await runWrk(args), `gateway ${variant} (subjects/gateways process ${gateway}) over ${BACKENDS.join(', ')}; trial ${trial} of 3 after a 1 s warm-up`);
    }
  });
}

await withGateway('nginx', async (subject) => {
  const args = wrkArgs(subject.target.url);
  const running = runWrk(args);
  await new Promise((r) => setTimeout(r, 1000));
  const backend = subject.procs.find((p) => p.name === 'backend-2');
  process.kill(backend.pid, 'SIGTERM');
  await backend.exit;
  save('gateways-nginx-backend-down', args, await running, 'gateway nginx; backend-2 was stopped by PID (SIGTERM) 1 s into the run');
});

#!/usr/bin/env node
// Regenerates test/fixtures/ab/orders-api-*.txt: real ApacheBench runs against this subject, each with its command beside it.
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locate, versionOf, ROOT } from '../../ci/tools.js';
import { allowedCpus, planSplit, pinned, pinningInfo } from '../../ci/cpuset.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(ROOT, 'test', 'fixtures', 'ab');

// The seed's scenario shrunk for a 2-core machine: a new connection per request, as the seed ran it.
const REQUESTS = 5000;
const CONCURRENCY = 100;
// orders-api-cache-{off,on}-N and orders-api-cache-on-work300 were captured before the items route summed its order
// lines (its uncached path then cost less than ab's own ceiling); they stay as the "ab was the bottleneck" case.
// The orderlines-* cases are today's server: five trials a side, so the report can test significance.
const CASES = [
  { name: 'orderlines-cache-off', env: { CACHE: 'off' }, trials: 5 },
  { name: 'orderlines-cache-on', env: { CACHE: 'on' }, trials: 5 },
];
// ab and the server on separate cores, as the runner pins them (defaults.pinning: auto).
const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((p) => existsSync(p));
const SPLIT = planSplit('auto', allowedCpus(), { taskset: Boolean(TASKSET) });

/** Starts the subject on a free port (PORT=0) and resolves with its PID and URL from the ready line. */
async function startSubject(env) {
  const bun = locate('bun').path;
  const argv = pinned([bun, 'run', join(HERE, 'server.js')], 'subject', SPLIT, TASKSET);
  const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('orders-api did not print its ready line within 15 s')), 15000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`orders-api exited with ${code} before it was ready`)); });
  });
  return { child, url };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  process.kill(child.pid, 'SIGTERM');
  await once(child, 'exit');
}

const ab = locate('ab')?.path;
if (!ab) throw new Error('ab not found: install apache2-utils (node ci/cli.js doctor lists every tool)');
const abVersion = execFileSync(ab, ['-V'], { encoding: 'utf8' }).split('\n')[0].trim();
const bunVersion = versionOf('bun');
mkdirSync(OUT, { recursive: true });

for (const c of CASES) {
  const { child, url } = await startSubject(c.env);
  try {
    // One unmeasured run so the first measured trial does not pay for JIT warm-up.
    execFileSync(ab, ['-q', '-n', '1000', '-c', '20', `${url}/api/order/all-items`], { stdio: 'ignore' });
    for (let t = 1; t <= c.trials; t += 1) {
      const argv = ['-n', String(REQUESTS), '-c', String(CONCURRENCY), `${url}/api/order/all-items`];
      // ab's progress lines go to stderr; the runner keeps stdout, so the fixture is stdout too.
      const run = pinned([ab, ...argv], 'tool', SPLIT, TASKSET);
      const text = execFileSync(run[0], run.slice(1), { encoding: 'utf8', maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
      const base = c.trials > 1 ? `orders-api-${c.name}-${t}` : `orders-api-${c.name}`;
      writeFileSync(join(OUT, `${base}.txt`), text);
      const env = Object.entries(c.env).map(([k, v]) => `${k}=${v}`).join(' ');
      writeFileSync(join(OUT, `${base}.cmd`), [
        `# ${base}.txt: ApacheBench against subjects/orders-api, captured by subjects/orders-api/capture-ab-fixtures.js`,
        `tool: ${abVersion} (apache2-utils)`,
        `subject: ${env} PORT=0 HOST=127.0.0.1 bun ${bunVersion} run subjects/orders-api/server.js  (warm-up: ab -q -n 1000 -c 20)`,
        `command: ab ${argv.join(' ')}`,
        `pinning: ${JSON.stringify(pinningInfo(SPLIT))} (taskset -c: ab on the tool's cores, the server on the subject's)`,
        `captured: ${new Date().toISOString()} on ${process.platform}/${process.arch}`,
        '',
      ].join('\n'));
      process.stdout.write(`wrote ${relative(ROOT, join(OUT, `${base}.txt`))}\n`);
    }
  } finally {
    await stop(child);
  }
}

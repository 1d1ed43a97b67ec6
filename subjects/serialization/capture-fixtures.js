#!/usr/bin/env node
// Regenerates test/fixtures/k6/serialization-http-<codec>.json: real k6 runs of loadtests/k6/serialization-http.js against this subject's HttpServe.
//
// Usage: node subjects/serialization/capture-fixtures.js   (after the subject's Maven build wrote target/benchmarks.jar)
// The command lines come from ci/adapters/k6.js command(), so they are what `benchline run` executes.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, locate } from '../../ci/tools.js';
import { command as k6Command } from '../../ci/adapters/k6.js';
import { shellQuote } from '../../ci/shell.js';
import { freePort } from '../../ci/subjects.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const JAR = join(HERE, 'target', 'benchmarks.jar');
const OUT = join(ROOT, 'test', 'fixtures', 'k6');
// The suite's quick parameters (bench.config.yaml).
const PARAMS = { rate: 200, duration: '3s' };

const java = locate('java')?.path;
const k6 = locate('k6')?.path;
if (!existsSync(JAR)) throw new Error(`${relative(ROOT, JAR)} is missing: build the subject first (mvn -q -B package in ${relative(ROOT, HERE)})`);
if (!java || !k6) throw new Error('java 25 and k6 are needed (node ci/cli.js doctor lists every tool)');

const port = await freePort();
const child = spawn(java, ['--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED', '-Xms256m', '-Xmx256m', '-cp', JAR, 'benchline.serialization.HttpServe'], {
  env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'inherit', 'pipe'],
});
let banner = '';
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('HttpServe printed no listening line within 60 s')), 60000);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    banner += d;
    if (banner.includes('listening on')) {
      clearTimeout(timer);
      resolve();
    }
  });
});
const target = { url: `http://127.0.0.1:${port}` };
const k6Version = spawnSync(k6, ['version'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
const javaVersion = spawnSync(java, ['-version'], { encoding: 'utf8' }).stderr.split('\n')[0];
try {
  for (const codec of ['sbe', 'protobuf', 'json']) {
    // The suite's warm-up run first, unmeasured, so the JIT has compiled the codec's path.
    const warm = k6Command({ bin: k6, params: { codec, rate: 500, duration: '2s' }, target, script: 'loadtests/k6/serialization-http.js', outFile: '/dev/null' });
    spawnSync(warm.argv[0], warm.argv.slice(1), { cwd: ROOT, timeout: 120000 });
    const name = `serialization-http-${codec}`;
    const cmd = k6Command({ bin: k6, params: { codec, ...PARAMS }, target, script: 'loadtests/k6/serialization-http.js', outFile: relative(ROOT, join(OUT, `${name}.json`)) });
    const r = spawnSync(cmd.argv[0], cmd.argv.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 120000 });
    writeFileSync(join(OUT, `${name}.cmd`), [
      `# ${k6Version}`,
      `# server: subjects/serialization HttpServe (${relative(ROOT, JAR)}, ${javaVersion}) on 127.0.0.1:${port}, after an unmeasured k6 run at 500 req/s for 2 s`,
      `cd <repository root> && ${cmd.argv.map(shellQuote).join(' ')}`,
      `# exit status: ${r.status}`,
      `# captured: ${new Date().toISOString()} by subjects/serialization/capture-fixtures.js`,
      '',
    ].join('\n'));
    console.log(`wrote test/fixtures/k6/${name}.json (k6 exit ${r.status})`);
  }
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

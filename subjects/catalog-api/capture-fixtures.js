#!/usr/bin/env node
// Regenerates test/fixtures/k6/catalog-* and test/fixtures/ghz/catalog-*: real k6 and ghz runs against this subject, each with its command beside it.
//
// Usage: node subjects/catalog-api/capture-fixtures.js [latency] [traversal] [ghz] [bad]   (after subjects/catalog-api/build.sh;
//        no argument recaptures everything, names recapture only those fixtures)
// The command lines come from the adapters' command(), so they are what `benchline run` executes.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locate, versionOf, ROOT } from '../../ci/tools.js';
import { command as k6Command } from '../../ci/adapters/k6.js';
import { command as ghzCommand } from '../../ci/adapters/ghz.js';
import { shellQuote } from '../../ci/shell.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const JAR = join(HERE, 'target', 'catalog-api.jar');
const K6_OUT = join(ROOT, 'test', 'fixtures', 'k6');
const GHZ_OUT = join(ROOT, 'test', 'fixtures', 'ghz');
// The suite's parameters (bench.config.yaml), so the fixtures look like what a run records.
const PARAMS = { pageSize: 100, warmupRequests: 5, benchmarkRequests: 20, dateStart: '2024-01-01T00:00:00', dateEnd: '2024-12-31T23:59:59' };

const java = locate('java')?.path;
const k6 = locate('k6')?.path;
const ghz = locate('ghz')?.path;
if (!existsSync(JAR)) throw new Error(`${relative(ROOT, JAR)} is missing: run subjects/catalog-api/build.sh first`);
if (!java || !k6 || !ghz) throw new Error('java 25, k6 and ghz are needed (node ci/cli.js doctor lists every tool)');

/** Starts the jar on free loopback ports (0) and resolves with the ports from its ready line. */
async function startSubject() {
  const child = spawn(java, ['-Xms256m', '-Xmx512m', '-jar', JAR], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buf = '';
  child.stdout.setEncoding('utf8');
  const ports = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('catalog-api printed no ready line within 90 s')), 90000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /ready: http:\/\/127\.0\.0\.1:(\d+) grpc 127\.0\.0\.1:(\d+)/.exec(buf);
      if (m) { clearTimeout(timer); resolve({ http: Number(m[1]), grpc: Number(m[2]) }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`catalog-api exited with ${code} before it was ready`)); });
  });
  return { child, ports };
}

function run(argv, { stdoutFile } = {}) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 300000 });
  if (stdoutFile) writeFileSync(stdoutFile, r.stdout);
  return r;
}

function writeCmd(file, lines) {
  writeFileSync(file, `${lines.join('\n')}\n`);
  process.stdout.write(`wrote ${relative(ROOT, file)}\n`);
}

mkdirSync(K6_OUT, { recursive: true });
mkdirSync(GHZ_OUT, { recursive: true });
const k6Version = run([k6, 'version']).stdout.trim().split('\n')[0];
const javaVersion = versionOf('java');
const { child, ports } = await startSubject();
const target = { url: `http://127.0.0.1:${ports.http}`, grpc: `127.0.0.1:${ports.grpc}` };
const server = `server: catalog-api (${relative(ROOT, JAR)}, java ${javaVersion}, embedded H2, 100,000 events in 2024) on http 127.0.0.1:${ports.http}, grpc 127.0.0.1:${ports.grpc}`;
const captured = `captured: ${new Date().toISOString()} on ${process.platform}/${process.arch} by subjects/catalog-api/capture-fixtures.js`;

const only = new Set(process.argv.slice(2));
const wanted = (what) => !only.size || only.has(what);
const unknown = [...only].filter((w) => !['latency', 'traversal', 'ghz', 'bad'].includes(w));
if (unknown.length) throw new Error(`unknown fixture group ${unknown.join(', ')}: use latency, traversal, ghz or bad`);

try {
  // One unmeasured run per API first, as the suite's warm-up run does, so the JIT has compiled each path.
  for (const api of ['hateoas', 'rest-stream', 'grpc']) {
    const warm = k6Command({ bin: k6, params: { ...PARAMS, api, warmupRequests: 300 }, target, script: join(ROOT, 'loadtests/k6/catalog-latency.js'), outFile: '/dev/null' });
    run(warm.argv);
  }
  for (const api of ['hateoas', 'rest-stream', 'grpc']) {
    for (const scenario of ['latency', 'traversal'].filter(wanted)) {
      const name = `catalog-${api}-${scenario}`;
      const out = relative(ROOT, join(K6_OUT, `${name}.json`));
      const cmd = k6Command({ bin: k6, params: { ...PARAMS, api }, target, script: `loadtests/k6/catalog-${scenario}.js`, outFile: out });
      const r = run(cmd.argv);
      writeCmd(join(K6_OUT, `${name}.cmd`), [`# ${k6Version}`, `# ${server}`, `cd <repository root> && ${cmd.argv.map(shellQuote).join(' ')}`, `# exit status: ${r.status}`, `# ${captured}`]);
    }
  }

  if (wanted('ghz')) {
    // gRPC unary page calls from a native client, as the suite's ghz job makes them.
    const ghzOut = relative(ROOT, join(GHZ_OUT, 'catalog-unary-pages.json'));
    const g = ghzCommand({ bin: ghz, params: { proto: 'subjects/catalog-api/src/main/proto/catalog.proto', total: 200, concurrency: 1 }, target, script: 'loadtests/ghz/catalog-list-events.json', outFile: ghzOut, root: ROOT });
    const gr = run(g.argv);
    writeCmd(join(GHZ_OUT, 'catalog-unary-pages.cmd'), [`# ghz ${versionOf('ghz')} (go install github.com/bojand/ghz/cmd/ghz@v0.93.0)`, `# ${server}`, `cd <repository root> && ${g.argv.map(shellQuote).join(' ')}`, `# exit status: ${gr.status}`, `# ${captured}`]);

    // The whole range as one stream from the same native client, as the suite's ghz stream job calls it.
    const streamOut = relative(ROOT, join(GHZ_OUT, 'catalog-stream.json'));
    const st = ghzCommand({ bin: ghz, params: { proto: 'subjects/catalog-api/src/main/proto/catalog.proto', total: 2, concurrency: 1 }, target, script: 'loadtests/ghz/catalog-stream-events.json', outFile: streamOut, root: ROOT });
    const sr = run(st.argv);
    writeCmd(join(GHZ_OUT, 'catalog-stream.cmd'), [`# ghz ${versionOf('ghz')} (go install github.com/bojand/ghz/cmd/ghz@v0.93.0)`, `# ${server}`, `cd <repository root> && ${st.argv.map(shellQuote).join(' ')}`, `# exit status: ${sr.status}`, `# ${captured}`]);
  }

  if (wanted('bad')) {
    // A bad parameter: setup() refuses it before any load, and no summary file is written.
    const badOut = join(K6_OUT, 'catalog-bad-range.json');
    rmSync(badOut, { force: true });
    const bad = k6Command({ bin: k6, params: { ...PARAMS, api: 'rest-stream', dateStart: '2024-12-31T00:00:00', dateEnd: '2024-01-01T00:00:00' }, target, script: 'loadtests/k6/catalog-latency.js', outFile: relative(ROOT, badOut) });
    const br = run(bad.argv);
    writeFileSync(join(K6_OUT, 'catalog-bad-range.stderr.txt'), br.stderr);
    writeFileSync(join(K6_OUT, 'catalog-bad-range.stdout.txt'), br.stdout);
    writeCmd(join(K6_OUT, 'catalog-bad-range.cmd'), [`# ${k6Version}`, `# ${server}`, `cd <repository root> && ${bad.argv.map(shellQuote).join(' ')} 2> test/fixtures/k6/catalog-bad-range.stderr.txt > test/fixtures/k6/catalog-bad-range.stdout.txt`,
      `# exit status: ${br.status}; summary file written: ${existsSync(badOut) ? 'yes' : 'no'}`, `# ${captured}`]);
  }
} finally {
  process.kill(child.pid, 'SIGTERM');
  await once(child, 'exit');
}

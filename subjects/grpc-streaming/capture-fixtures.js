#!/usr/bin/env node
// Captures test/fixtures/grpc-client/* from real client runs against the real servers, with each command, version and exit status beside it.
//
// Usage: node subjects/grpc-streaming/capture-fixtures.js [loopback] [network] [nodelay] [edge] [ghz]   (default: all)
//   loopback  the matrix (server x client x 500 KB / 1 MB) with the servers on 127.0.0.1
//   network   the same matrix with the servers in the network namespace (netns-server.sh; needs root)
//   nodelay   the matrix's Helidon-server half with HELIDON_TCP_NODELAY=true (Nagle off)
//   edge      a tiny round trip, stream mode, a failed stream, a refused connection, wrong arguments
//   ghz       the suite's ghz jobs against both servers (and Helidon with TCP_NODELAY) into test/fixtures/grpc-streaming/
// Servers start through the runner's own code (ci/subjects.js) from subject.yaml, and command lines
// come from the adapter's command() (ci/adapters/grpc-client.js), so a fixture is what benchline runs.
// Each case writes <case>.json (the client's stdout), <case>.cmd (version, server, command from the
// repository root, exit status) and, when the client failed, <case>.stderr. After recapturing, update
// the expected numbers in test/adapters-grpc-client.test.js and test/grpc-streaming.test.js.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, locate, versionOf } from '../../ci/tools.js';
import { loadManifest, buildSubject, startSubject, freePort } from '../../ci/subjects.js';
import { command } from '../../ci/adapters/grpc-client.js';
import { command as ghzCommand } from '../../ci/adapters/ghz.js';
import { shellQuote } from '../../ci/shell.js';

const OUT = join(ROOT, 'test', 'fixtures', 'grpc-client');
const MESSAGES = 100;
const WARMUP = 20;
const java = locate('java')?.path;
if (!java) throw new Error('capture-fixtures: no JDK 25 (set JAVA25_HOME)');
const javaVersion = versionOf('java', java);
const manifest = loadManifest(ROOT, 'grpc-streaming');
const groups = process.argv.slice(2).length ? process.argv.slice(2) : ['loopback', 'network', 'nodelay', 'edge', 'ghz'];
const GHZ_OUT = join(ROOT, 'test', 'fixtures', 'grpc-streaming');

const fromRoot = (s) => String(s).split(`${ROOT}/`).join('');

/** Runs one client command and writes the case's files (ghz writes its own output file). */
function capture(name, argv, server, { out = OUT, version = `benchline-grpc-streaming-client (target/grpc-streaming.jar) on java ${javaVersion}`, stdout = true } = {}) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 180000 });
  if (stdout) writeFileSync(join(out, `${name}.json`), r.stdout || '');
  const cmd = [
    `# ${version}`,
    `# server: ${server}`,
    `cd <repository root> && ${argv.map((a) => shellQuote(fromRoot(a))).join(' ')}`,
    `# exit ${r.status ?? r.signal}`,
  ];
  writeFileSync(join(out, `${name}.cmd`), `${cmd.join('\n')}\n`);
  if (r.status !== 0) writeFileSync(join(out, `${name}.stderr`), fromRoot(r.stderr || ''));
  process.stderr.write(`${name}: exit ${r.status}${stdout ? `, ${(r.stdout || '').length} bytes on stdout` : ''}\n`);
  return r;
}

const argvFor = (handle, params) => command({ bin: java, params: { jar: 'target/grpc-streaming.jar', ...params }, target: handle.target, subjectDir: manifest.dir, timeoutSeconds: 120 }).argv;

async function withServer(processName, params, fn, env = {}) {
  const runDir = mkdtempSync(join(tmpdir(), 'benchline-grpc-capture-'));
  const handle = await startSubject({ manifest, runDir, params, env, select: [processName] });
  try {
    await fn(handle);
  } finally {
    await handle.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

async function matrix(network, { nodelay = false } = {}) {
  const prefix = nodelay ? 'nodelay' : network ? 'network' : 'loopback';
  const host = network ? '10.200.203.2' : '127.0.0.1';
  for (const server of nodelay ? ['helidon'] : ['netty', 'helidon']) {
    const processName = network ? `${server}-netns` : server;
    const env = nodelay ? { HELIDON_TCP_NODELAY: 'true' } : {};
    await withServer(processName, { host }, async (h) => {
      for (const client of ['netty', 'helidon']) {
        for (const [label, sizeKB] of [['500kb', 500], ['1mb', 1024]]) {
          // As the suite runs them (bench.config.yaml): one stream per run, one message in flight.
          capture(`${prefix}-${server}-server-${client}-client-${label}`, argvFor(h, { client, messages: MESSAGES, sizeKB, warmup: WARMUP, inflight: 1, mode: 'stream' }),
            `${server} (subject.yaml process ${processName}, ${network ? `network namespace, ${host}` : 'loopback'}${nodelay ? ', HELIDON_TCP_NODELAY=true' : ''})`);
        }
      }
    }, env);
  }
}

async function edge() {
  await withServer('helidon', { host: '127.0.0.1' }, async (h) => {
    capture('tiny-netty-client-helidon-server', argvFor(h, { client: 'netty', messages: 10, sizeKB: 1 }), 'helidon (loopback)');
    capture('stream-helidon-client-helidon-server', argvFor(h, { client: 'helidon', messages: MESSAGES, sizeKB: 500, warmup: WARMUP, mode: 'stream' }), 'helidon (loopback)');
  });
  await withServer('netty', { host: '127.0.0.1' }, async (h) => {
    capture('stream-netty-client-netty-server', argvFor(h, { client: 'netty', messages: MESSAGES, sizeKB: 1024, warmup: WARMUP, mode: 'stream' }), 'netty (loopback)');
    // Helidon 4.5.0's client with 4 messages in flight: it cannot read the replies the Netty server packs
    // into one DATA frame (and against grpc-java's default 1 MiB window it also overruns the stream).
    capture('failed-stream-helidon-client-netty-server', argvFor(h, { client: 'helidon', messages: MESSAGES, sizeKB: 500, mode: 'stream', inflight: 4 }), 'netty (loopback)');
    // The adapter refuses a non-numeric size itself, so the wrong argument is put in by hand here.
    const wrong = argvFor(h, { client: 'netty', messages: 10, sizeKB: 1 });
    wrong[wrong.length - 1] = 'big';
    capture('usage-wrong-size', wrong, 'netty (loopback)');
  });
  const port = await freePort();
  capture('refused', argvFor({ target: { grpc: `127.0.0.1:${port}` } }, { client: 'netty', messages: 10, sizeKB: 1, deadline: 10 }), `none (nothing listens on 127.0.0.1:${port})`);
}

/** The suite's ghz jobs (bench.config.yaml, quick profile) against both loopback servers. */
async function ghz() {
  const bin = locate('ghz')?.path;
  if (!bin) throw new Error('capture-fixtures: ghz is not installed (npx benchline doctor)');
  const version = `ghz ${versionOf('ghz', bin)} (go install github.com/bojand/ghz/cmd/ghz@v0.93.0)`;
  const proto = 'subjects/grpc-streaming/src/main/proto/stream_bench.proto';
  mkdirSync(GHZ_OUT, { recursive: true });
  for (const [server, label, env] of [['netty', 'netty', {}], ['helidon', 'helidon', {}], ['helidon', 'helidon-nodelay', { HELIDON_TCP_NODELAY: 'true' }]]) {
    await withServer(server, { host: '127.0.0.1' }, async (h) => {
      for (const [scenario, total] of label === 'helidon-nodelay' ? [['send-1kb', 400]] : [['send-1kb', 400], ['fetch-500kb', 100]]) {
        const name = `ghz-${label}-server-${scenario}`;
        const { argv } = ghzCommand({ bin, params: { proto, total, concurrency: 4 }, target: h.target, script: join(ROOT, 'loadtests', 'ghz', `grpc-streaming-${scenario.split('-')[0]}.json`), outFile: join(GHZ_OUT, `${name}.json`), root: ROOT });
        capture(name, argv, `${server} (loopback${label === 'helidon-nodelay' ? ', HELIDON_TCP_NODELAY=true' : ''})`, { out: GHZ_OUT, version, stdout: false });
      }
    }, env);
  }
}

mkdirSync(OUT, { recursive: true });
await buildSubject(manifest, { log: (m) => process.stderr.write(`${m}\n`) });
if (groups.includes('loopback')) await matrix(false);
if (groups.includes('network')) await matrix(true);
if (groups.includes('nodelay')) await matrix(false, { nodelay: true });
if (groups.includes('edge')) await edge();
if (groups.includes('ghz')) await ghz();

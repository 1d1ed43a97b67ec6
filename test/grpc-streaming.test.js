// The grpc-streaming suite: the Java subject built and run for real (both stacks, round trips, the network namespace), its config, and its report.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, command } from '../ci/adapters/grpc-client.js';
import { parse as parseGhz } from '../ci/adapters/ghz.js';
import { buildResult } from '../ci/result.js';
import { loadConfig } from '../ci/config.js';
import { planJobs } from '../ci/plan.js';
import { runJobs } from '../ci/runner.js';
import { loadResultsDir } from '../ci/results-dir.js';
import { loadManifest, buildSubject, startSubject } from '../ci/subjects.js';
import { locate } from '../ci/tools.js';
import { render, markdown, model, variantInfo, conclusions, nagleStall } from '../subjects/grpc-streaming/report.js';

const ROOT = resolve('.');
const FIX = join(ROOT, 'test', 'fixtures', 'grpc-client');
const SUBJECT = join(ROOT, 'subjects', 'grpc-streaming');
const java = () => locate('java').path;

// ---------------------------------------------------------------- helpers

/** Runs the subject's client with the adapter's own command line; resolves { code, stdout, stderr }. */
function client(target, params) {
  const { argv } = command({ bin: java(), params: { jar: 'target/grpc-streaming.jar', ...params }, target, subjectDir: SUBJECT, timeoutSeconds: 60 });
  return new Promise((res) => {
    execFile(argv[0], argv.slice(1), { encoding: 'utf8', timeout: 60000 }, (err, stdout, stderr) => res({ code: err ? err.code ?? err.signal : 0, stdout, stderr }));
  });
}

/** One server process from subject.yaml, started by the runner's own code. */
async function server(processName, params = { host: '127.0.0.1' }) {
  const runDir = mkdtempSync(join(tmpdir(), 'benchline-grpc-test-'));
  const handle = await startSubject({ manifest: loadManifest(ROOT, 'grpc-streaming'), runDir, params, select: [processName] });
  return { ...handle, stop: async () => { await handle.stop(); rmSync(runDir, { recursive: true, force: true }); } };
}

const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] };
const RUN = { id: 'r1', startedAt: '2026-11-22T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const KB = { '500kb': 500, '1mb': 1024 };

const VARIANT = { loopback: (s) => `server-${s}`, network: (s) => `netns-server-${s}`, nodelay: (s) => `server-${s}-nodelay` };

/** A result document of one matrix cell from its captured client output, as the runner builds it. */
function cellDoc(network, serverImpl, clientImpl, size) {
  const file = `${network}-${serverImpl}-server-${clientImpl}-client-${size}`;
  return buildResult({
    run: RUN, runner: RUNNER, suite: 'grpc-streaming', subject: 'grpc-streaming',
    variant: VARIANT[network](serverImpl), scenario: `${clientImpl}-${size}`,
    tool: { name: 'grpc-client', version: '1.0.0' },
    params: { jar: 'target/grpc-streaming.jar', client: clientImpl, sizeKB: KB[size], messages: 100, warmup: 20, inflight: 1, mode: 'stream' },
    trials: [parse(readFileSync(join(FIX, `${file}.json`), 'utf8'))],
  }, file);
}

const IMPLS = ['netty', 'helidon'];
const matrix = (network) => (network === 'nodelay' ? ['helidon'] : IMPLS).flatMap((s) => IMPLS.flatMap((c) => ['500kb', '1mb'].map((z) => cellDoc(network, s, c, z))));

/** A ghz result document from test/fixtures/grpc-streaming/ghz-<label>-server-<scenario>.json. */
function ghzDoc(label, scenario, { concurrency = 4, suffix = '' } = {}) {
  const file = join(ROOT, 'test', 'fixtures', 'grpc-streaming', `ghz-${label}-server-${scenario}${suffix}.json`);
  return buildResult({
    run: RUN, runner: RUNNER, suite: 'grpc-streaming', subject: 'grpc-streaming', variant: `server-${label}`, scenario,
    tool: { name: 'ghz', version: '0.93.0' }, params: { total: scenario === 'send-1kb' ? 400 : 100, concurrency },
    trials: [parseGhz(readFileSync(file, 'utf8'))],
  }, file);
}
const ghzDocs = () => [ghzDoc('netty', 'send-1kb'), ghzDoc('helidon', 'send-1kb'), ghzDoc('helidon-nodelay', 'send-1kb'), ghzDoc('netty', 'fetch-500kb'), ghzDoc('helidon', 'fetch-500kb')];

let config;
before(() => {
  config = loadConfig(join(ROOT, 'bench.config.yaml'));
});

// ---------------------------------------------------------------- the subject, for real

describe('the grpc-streaming subject', { timeout: 240000 }, () => {
  test('builds with Maven on JDK 25 into a runnable jar with grpc-java 1.85.1 and Helidon 4.5.0 beside it', async () => {
    const started = Date.now();
    await buildSubject(loadManifest(ROOT, 'grpc-streaming'));
    assert.ok(existsSync(join(SUBJECT, 'target', 'grpc-streaming.jar')));
    const libs = readdirSync(join(SUBJECT, 'target', 'lib'));
    for (const jar of ['grpc-netty-shaded-1.85.1.jar', 'helidon-webserver-grpc-4.5.0.jar', 'helidon-webclient-grpc-4.5.0.jar', 'protobuf-java-4.36.2.jar']) assert.ok(libs.includes(jar), `target/lib lacks ${jar}`);
    assert.ok(Date.now() - started < 180000, 'a warm build takes seconds, not minutes');
  });

  test('skips Maven when nothing in pom.xml or src is newer than the last package that finished', async () => {
    const jar = join(SUBJECT, 'target', 'grpc-streaming.jar');
    await buildSubject(loadManifest(ROOT, 'grpc-streaming'));
    const built = statSync(jar).mtimeMs;
    await buildSubject(loadManifest(ROOT, 'grpc-streaming'));
    assert.equal(statSync(jar).mtimeMs, built, 'the jar was not rewritten');
  });

  test('builds again over the empty jar a build stopped half-way left, instead of starting it', async () => {
    const jar = join(SUBJECT, 'target', 'grpc-streaming.jar');
    await buildSubject(loadManifest(ROOT, 'grpc-streaming'));
    // what a Ctrl-C during Maven's jar step leaves: the jar created, newer than every source, and empty
    rmSync(join(SUBJECT, 'target', '.benchline-built'), { force: true });
    writeFileSync(jar, '');
    await buildSubject(loadManifest(ROOT, 'grpc-streaming'));
    assert.ok(statSync(jar).size > 10000, `the jar was built again (${statSync(jar).size} bytes)`);
  });

  test('prints its usage and exits 2 on unknown arguments', () => {
    const r = spawnSync(java(), ['-jar', join(SUBJECT, 'target', 'grpc-streaming.jar'), 'client', 'grpc-go', '127.0.0.1:1', '1', '1'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /implementation "grpc-go" is neither netty nor helidon\nusage:\n {2}server <netty\|helidon> <port>\n {2}client <netty\|helidon> <host:port\|url> <numMsg> <sizeKB>/);
  });

  for (const serverImpl of IMPLS) {
    test(`the ${serverImpl} server receives every byte both clients send, in unary and stream mode (bytes received = bytes sent)`, async () => {
      const s = await server(serverImpl);
      try {
        const runs = [['netty', 'unary'], ['helidon', 'unary'], ['netty', 'stream'], ['helidon', 'stream']];
        for (const [clientImpl, mode] of runs) {
          // One message in flight, as the suite runs streams: Helidon 4.5.0's client cannot read two replies in one frame.
          const r = await client(s.target, { client: clientImpl, messages: 12, sizeKB: 2, mode, inflight: mode === 'stream' ? 1 : 4 });
          assert.equal(r.code, 0, `${clientImpl} ${mode}: ${r.stderr.slice(-800)}`);
          const out = JSON.parse(r.stdout);
          assert.deepEqual(
            [out.client, out.server, out.mode, out.messagesSent, out.serverMessages, out.bytesSent, out.bytesReceived, out.bytesMatch, out.sizeMismatches, out.error],
            [clientImpl, serverImpl, mode, 12, 12, 12 * 2048, 12 * 2048, true, 0, null],
          );
          const parsed = parse(r.stdout, { stderr: r.stderr });
          assert.equal(parsed.metrics.find((m) => m.name === 'errors').value, 0);
          assert.equal(parsed.metrics.find((m) => m.name === 'transfer_rate').value, (12 * 2048) / (out.durationNs / 1e9));
        }
      } finally {
        await s.stop();
      }
    });
  }

  test('the Helidon client keeps one stream of 1 MB messages to the Netty server (its fixed 4 MiB window absorbs the client\'s doubled window updates)', async () => {
    const s = await server('netty');
    try {
      const r = await client(s.target, { client: 'helidon', messages: 40, sizeKB: 1024, mode: 'stream', inflight: 1 });
      assert.equal(r.code, 0, r.stderr.slice(-800));
      const out = JSON.parse(r.stdout);
      assert.deepEqual([out.mode, out.messagesSent, out.serverMessages, out.bytesMatch, out.error], ['stream', 40, 40, true, null]);
    } finally {
      await s.stop();
    }
  });

  test('the client answers a server that is gone with its error in the JSON line, exit 1, and the adapter refuses it', async () => {
    const s = await server('netty');
    const target = s.target;
    await s.stop();
    const r = await client(target, { client: 'netty', messages: 5, sizeKB: 1, deadline: 15 });
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.match(out.error, /UNAVAILABLE/);
    assert.equal(out.bytesMatch, false);
    assert.throws(() => parse(r.stdout), new RegExp(`netty client's transfer to ${target.grpc.replace(/\./g, '\\.')} failed after \\d+ of 5 messages: .*UNAVAILABLE`));
  });
});

describe('the network namespace (netns-server.sh)', { timeout: 120000 }, () => {
  test('serves the Netty server on 10.200.203.2 over a veth pair and removes namespace and veth when stopped', async (t) => {
    let s;
    try {
      s = await server('netty-netns', { host: '10.200.203.2' });
    } catch (e) {
      const skip = /SKIP: (.*)/.exec(e.message);
      if (skip) return t.skip(skip[1]);
      throw e;
    }
    let others;
    try {
      assert.equal(s.target.grpc, `10.200.203.2:${s.ports.grpc}`);
      const r = await client(s.target, { client: 'helidon', messages: 8, sizeKB: 4 });
      assert.equal(r.code, 0, r.stderr.slice(-800));
      const out = JSON.parse(r.stdout);
      assert.deepEqual([out.server, out.target, out.bytesReceived, out.bytesMatch], ['netty', s.target.grpc, 8 * 4096, true]);
      // The server is reachable only through the namespace: nothing listens on the host's loopback.
      const loop = await client({ grpc: `127.0.0.1:${s.ports.grpc}` }, { client: 'netty', messages: 1, sizeKB: 1, deadline: 10 });
      assert.equal(loop.code, 1);
      const users = join('/run/benchline-netns/benchline-grpc/users');
      others = readdirSync(users).filter((p) => p !== String(s.procs[0].pid));
    } finally {
      await s.stop();
    }
    // Another run may share the namespace (base and head do); only when we were alone must it be gone.
    if (!others.length) {
      assert.doesNotMatch(spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout, /^benchline-grpc\b/m);
      assert.equal(spawnSync('ip', ['link', 'show', 'blgrpc0'], { encoding: 'utf8' }).status, 1);
    }
  });

  test('exits 77 with a SKIP notice naming the reason when it cannot make a namespace (here: not root)', (t) => {
    if (!existsSync('/usr/bin/setpriv')) return t.skip('setpriv (util-linux) is not installed');
    // the script goes in on stdin and runs from /: the unprivileged user may not be able to enter the checkout
    const script = readFileSync(join(SUBJECT, 'netns-server.sh'));
    const r = spawnSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-s', 'true'], { input: script, cwd: '/', encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 77);
    assert.equal(r.stderr, 'benchline netns: SKIP: network namespaces need root (CAP_SYS_ADMIN and CAP_NET_ADMIN), and this runs as uid 65534; the network variants cannot run on this machine (the loopback variants are unaffected)\n');
  });
});

// ---------------------------------------------------------------- config and plan

describe('the grpc-streaming suite in bench.config.yaml', () => {
  test('plans the server x client x payload matrix on loopback and in the namespace, plus ghz latency on loopback', () => {
    const jobs = planJobs(config, { suite: ['grpc-streaming'] });
    const client = jobs.filter((j) => j.tool === 'grpc-client');
    assert.equal(client.length, 20);
    assert.deepEqual([...new Set(client.map((j) => j.variant))], ['server-netty', 'server-helidon', 'server-helidon-nodelay', 'netns-server-netty', 'netns-server-helidon']);
    const nodelay = client.find((j) => j.variant === 'server-helidon-nodelay');
    assert.deepEqual([nodelay.processes, nodelay.env], [['helidon'], { HELIDON_TCP_NODELAY: 'true' }]);
    assert.deepEqual([...new Set(client.map((j) => `${j.params.client}/${j.params.sizeKB}`))], ['netty/500', 'netty/1024', 'helidon/500', 'helidon/1024']);
    const netns = client.find((j) => j.id === 'grpc-streaming.netns-server-helidon.grpc-client.helidon-1mb');
    assert.deepEqual([netns.params.host, netns.processes, netns.params.messages, netns.trials], ['10.200.203.2', ['helidon-netns'], 60, 4]);
    // One gRPC stream per trial, one message in flight, in every cell.
    assert.deepEqual([...new Set(client.map((j) => `${j.params.mode}/${j.params.inflight}`))], ['stream/1']);
    // Quick leaves the TCP_NODELAY server (not in the seed) out of the stream matrix, with the reason; full runs it.
    assert.deepEqual(client.filter((j) => j.skip).map((j) => j.variant), Array(4).fill('server-helidon-nodelay'));
    assert.match(nodelay.skip, /left out of the quick profile \(skipIn\)/);
    assert.equal(planJobs(config, { suite: ['grpc-streaming'], profile: 'full', tool: ['grpc-client'] }).filter((j) => j.skip).length, 0);
    // One server per cell, and each client JVM maps its classes from its own class-data archive in target/.
    assert.deepEqual([...new Set(client.map((j) => j.restart))], ['never']);
    assert.deepEqual([...new Set(client.map((j) => j.params.jvmArgs.replace(/\$\{param\.client\}/, j.params.client)))].sort(), [
      '-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=${dir}/subjects/grpc-streaming/target/client-helidon.jsa',
      '-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=${dir}/subjects/grpc-streaming/target/client-netty.jsa',
    ]);
    const full = planJobs(config, { suite: ['grpc-streaming'], profile: 'full', scenario: ['netty-500kb'], variant: ['server-netty'] })[0];
    assert.deepEqual([full.params.messages, full.params.warmup, full.params.mode], [1000, 100, 'stream']);
    assert.deepEqual(jobs.filter((j) => j.tool === 'ghz').map((j) => j.id), [
      'grpc-streaming.server-netty.ghz.send-1kb', 'grpc-streaming.server-netty.ghz.fetch-500kb',
      'grpc-streaming.server-helidon.ghz.send-1kb', 'grpc-streaming.server-helidon.ghz.fetch-500kb',
      'grpc-streaming.server-helidon-nodelay.ghz.send-1kb',
    ]);
  });

  test('its ghz configs name existing calls of the service and carry a 1 KB payload and a 500 KB fetch', () => {
    const proto = readFileSync(join(SUBJECT, 'src/main/proto/stream_bench.proto'), 'utf8');
    const send = JSON.parse(readFileSync('loadtests/ghz/grpc-streaming-send.json', 'utf8'));
    const fetchCfg = JSON.parse(readFileSync('loadtests/ghz/grpc-streaming-fetch.json', 'utf8'));
    assert.match(proto, /package benchline\.streaming;[\s\S]*service StreamBench \{[\s\S]*rpc Send\(Chunk\) returns \(Ack\);[\s\S]*rpc Fetch\(FetchRequest\) returns \(Chunk\);/);
    assert.equal(send.call, 'benchline.streaming.StreamBench/Send');
    assert.equal(Buffer.from(send.data.data, 'base64').length, 1024);
    assert.deepEqual([fetchCfg.call, fetchCfg.data.size], ['benchline.streaming.StreamBench/Fetch', 512000]);
  });
});

// ---------------------------------------------------------------- the report, from captured outputs

describe('the grpc-streaming report', () => {
  test('tells the server, the network and a tuning from the variant name', () => {
    assert.deepEqual(variantInfo('server-netty'), { server: 'netty', network: 'loopback' });
    assert.deepEqual(variantInfo('netns-server-helidon'), { server: 'helidon', network: 'network' });
    assert.deepEqual(variantInfo('server-helidon-nodelay'), { server: 'helidon', network: 'loopback', tuned: 'nodelay' });
    assert.deepEqual(variantInfo('something-else'), { server: undefined, network: 'loopback' });
  });

  test("prints the seed's summary table (server, client, payloadKB, messages, duration(s), MB/s) for loopback and the veth pair", () => {
    const text = render({ suite: 'grpc-streaming', docs: [...matrix('loopback'), ...matrix('network')], config });
    const loopback = text.slice(text.indexOf('Throughput summary (servers on loopback'), text.indexOf('Throughput summary (servers in a network namespace'));
    assert.match(loopback, /\n {2}server +client +payloadKB +messages +duration\(s\) +MB\/s +95% CI \(MB\/s\) +errors\n/);
    for (const row of [
      /\n {2}NETTY +NETTY +500\.0 +100 +1\.335 +36\.58 +– +0\n/,
      /\n {2}NETTY +HELIDON +1024\.0 +100 +3\.401 +29\.41 +– +0\n/,
      /\n {2}HELIDON +NETTY +500\.0 +100 +5\.946 +8\.21 +– +0\n/,
      /\n {2}HELIDON +HELIDON +1024\.0 +100 +9\.293 +10\.76 +– +0\n/,
    ]) assert.match(loopback, row);
    const network = text.slice(text.indexOf('Throughput summary (servers in a network namespace'));
    assert.match(network, /\n {2}HELIDON +HELIDON +1024\.0 +100 +8\.511 +11\.75 +– +0\n/);
    // Server, then client, then payload: the seed's order.
    const order = [...loopback.matchAll(/^ {2}(NETTY|HELIDON) +(NETTY|HELIDON) +(\d+\.\d)/gm)].map((m) => `${m[1]}/${m[2]}/${m[3]}`);
    assert.deepEqual(order, ['NETTY/NETTY/500.0', 'NETTY/NETTY/1024.0', 'NETTY/HELIDON/500.0', 'NETTY/HELIDON/1024.0',
      'HELIDON/NETTY/500.0', 'HELIDON/NETTY/1024.0', 'HELIDON/HELIDON/500.0', 'HELIDON/HELIDON/1024.0']);
  });

  test('computes each row\'s MB/s from its own messages, payload and median duration, as the seed does, not as the median of the trials\' rates', () => {
    // Two captures of the Netty server with the Netty client at 500 KB (loopback: 36.58 MB/s, veth pair: 24.53 MB/s)
    // as two trials of one cell: their median duration is 1.663 s, and 100 x 500 KB in 1.663 s is 29.37 MiB/s,
    // while the median of the two rates would be 30.56.
    const names = ['loopback-netty-server-netty-client-500kb', 'network-netty-server-netty-client-500kb'];
    const doc = buildResult({
      run: RUN, runner: RUNNER, suite: 'grpc-streaming', subject: 'grpc-streaming', variant: 'server-netty', scenario: 'netty-500kb',
      tool: { name: 'grpc-client', version: '1.0.0' },
      params: { jar: 'target/grpc-streaming.jar', client: 'netty', sizeKB: 500, messages: 100, warmup: 20, inflight: 1, mode: 'stream' },
      trials: names.map((n) => parse(readFileSync(join(FIX, `${n}.json`), 'utf8'))),
    }, names[0]);
    const text = render({ suite: 'grpc-streaming', docs: [doc], config });
    assert.match(text, /\n {2}NETTY +NETTY +500\.0 +100 +1\.663 +29\.37 /);
    const row = /\n {2}NETTY +NETTY +500\.0 +100 +([\d.]+) +([\d.]+) /.exec(text);
    assert.ok(Math.abs(100 * 500 / 1024 / Number(row[1]) - Number(row[2])) < 0.02, 'MB/s follows from the printed duration, up to its rounding');
  });

  test('says whether each loopback ordering is significant: Mann-Whitney over the four trials of a quick run\'s cells', () => {
    const quick = (serverImpl, clientImpl, size) => buildResult({
      run: RUN, runner: RUNNER, suite: 'grpc-streaming', subject: 'grpc-streaming',
      variant: `server-${serverImpl}`, scenario: `${clientImpl}-${size}`, tool: { name: 'grpc-client', version: '1.0.0' },
      params: { jar: 'target/grpc-streaming.jar', client: clientImpl, sizeKB: KB[size], messages: 60, warmup: 10, inflight: 1, mode: 'stream' },
      trials: [1, 2, 3, 4].map((i) => parse(readFileSync(join(FIX, `quick-${serverImpl}-server-${clientImpl}-client-${size}-${i}.json`), 'utf8'))),
    }, `quick-${serverImpl}-server-${clientImpl}-client-${size}`);
    const docs = IMPLS.flatMap((s) => IMPLS.flatMap((c) => ['500kb', '1mb'].map((z) => quick(s, c, z))));
    const m = model({ suite: 'grpc-streaming', docs, config });
    assert.deepEqual(m.findings.map((f) => [f.client, f.kb, f.verdict, f.p < 0.05]), [
      ['netty', 500, 'same direction', true],
      ['netty', 1024, 'same direction', true],
      ['helidon', 500, 'does not reproduce (opposite)', true],
      ['helidon', 1024, 'same direction', true],
    ]);
    const text = render({ suite: 'grpc-streaming', docs, config });
    assert.match(text, /Netty\/Helidon +Mann-Whitney p +seed Netty\/Helidon +seed finding\n/);
    assert.match(text, /\n {2}loopback +NETTY +500\.0 +[\d.]+ +[\d.]+ +[\d.]+x +0\.029 +1\.46x +same direction\n/);
    assert.match(conclusions(m)[0], / Significant in 3 of those 3 \(two-sided Mann-Whitney over 4 trials a cell, p < 0\.05\)\.$/);
    // One trial a cell (the captures of test/fixtures/grpc-client/loopback-*) cannot be tested, and the report says so.
    const single = model({ suite: 'grpc-streaming', docs: matrix('loopback'), config });
    assert.ok(single.findings.every((f) => f.untestable));
    assert.match(conclusions(single)[0], / With 1 trial a cell no difference can be significant \(run 4 or more\)\.$/);
  });

  test('the throughput table\'s interval column names the confidence the run used: 90% CI (MB/s) under compare.confidence 0.9', () => {
    const at = (confidence) => buildResult({
      run: RUN, runner: RUNNER, suite: 'grpc-streaming', subject: 'grpc-streaming', confidence,
      variant: 'server-netty', scenario: 'netty-500kb', tool: { name: 'grpc-client', version: '1.0.0' },
      params: { jar: 'target/grpc-streaming.jar', client: 'netty', sizeKB: 500, messages: 60, warmup: 10, inflight: 1, mode: 'stream' },
      trials: [1, 2, 3, 4].map((i) => parse(readFileSync(join(FIX, `quick-netty-server-netty-client-500kb-${i}.json`), 'utf8'))),
    }, 'quick-netty-server-netty-client-500kb');
    assert.match(render({ suite: 'grpc-streaming', docs: [at(0.9)], config }), /\n {2}server +client +payloadKB +messages +duration\(s\) +MB\/s +90% CI \(MB\/s\) +errors\n/);
    assert.match(markdown({ suite: 'grpc-streaming', docs: [at(0.9)], config }), /\| MB\/s \| 90% CI \\\(MB\/s\\\) \|/);
    assert.match(render({ suite: 'grpc-streaming', docs: [at(0.95)], config }), / +MB\/s +95% CI \(MB\/s\) +errors\n/);
  });

  test('states how many messages each trial sent and how: one stream per trial, or one call per message', () => {
    const text = render({ suite: 'grpc-streaming', docs: matrix('loopback'), config });
    assert.match(text, /^client 1\.0\.0: one bidirectional gRPC stream of 100 messages per trial on one connection, an ack per message \(the seed: 1,000 messages\), at most 1 in flight \(the seed: 4, so absolute MB\/s are not comparable with the seed's; compare ratios\), 20 warm-up messages/m);
    const unary = matrix('loopback').map((d) => ({ ...d, params: { ...d.params, mode: 'unary', messages: 1000, inflight: 4 } }));
    assert.match(render({ suite: 'grpc-streaming', docs: unary, config }),
      /^client 1\.0\.0: 1,000 unary calls per trial \(the Helidon client opens a connection per call\) \(the seed: 1,000 messages\), at most 4 in flight, 20 warm-up/m);
  });

  test('says, with numbers, where the seed reproduces and where it does not', () => {
    const m = model({ suite: 'grpc-streaming', docs: [...matrix('loopback'), ...matrix('network')], config });
    const loop = m.findings.filter((f) => f.network === 'loopback').map((f) => [f.client, f.kb, f.ratio.toFixed(2), f.verdict]);
    assert.deepEqual(loop, [
      ['netty', 500, '4.45', 'same direction'],
      ['netty', 1024, '1.63', 'same direction'],
      // one trial a cell: the reversal is seen, but the trials cannot tell it from noise, so it refutes nothing
      ['helidon', 500, '2.21', 'opposite, not significant'],
      ['helidon', 1024, '2.73', 'same direction'],
    ]);
    const net = m.findings.filter((f) => f.network === 'network').map((f) => [f.client, f.kb, (f.helidon / f.netty).toFixed(2), f.verdict]);
    assert.deepEqual(net, [
      ['netty', 500, '0.39', 'does not reproduce (no collapse)'],
      ['netty', 1024, '0.52', 'does not reproduce (no collapse)'],
      ['helidon', 500, '0.65', 'does not reproduce (no collapse)'],
      ['helidon', 1024, '0.38', 'does not reproduce (no collapse)'],
    ]);
    const said = conclusions(m);
    assert.match(said[0], /^Loopback: the seed's ordering \(Netty server ahead, except Helidon client at 500 KB\) holds in 3 of 4 pairings here: netty client 500 KB: 36\.6 vs 8\.2 MB\/s \(4\.45x; seed 1\.46x\)/);
    assert.match(render({ suite: 'grpc-streaming', docs: [...matrix('loopback'), ...matrix('network')], config }),
      /\n {2}loopback +HELIDON +500\.0 +[\d.]+ +[\d.]+ +2\.21x +– \(too few trials\) +0\.90x +opposite, not significant\n/);
    assert.match(said[1], /^Over the veth pair the seed's Docker finding does not reproduce: the Helidon server keeps 38% or more of the Netty server's rate .*the seed saw 4-9 MB\/s/);
  });

  test('does not claim the Netty server leads every loopback pairing when the seed\'s own Helidon lead (Helidon client, 500 KB) reproduces too', () => {
    // The captured Helidon server with TCP_NODELAY (35.7 MB/s) stands as the Helidon server's cell for the Helidon
    // client at 500 KB, ahead of the Netty server (22.6 MB/s) as in the seed; the other three pairings are the captures.
    const fast = cellDoc('nodelay', 'helidon', 'helidon', '500kb');
    const docs = [...matrix('loopback').filter((d) => !(d.variant === 'server-helidon' && d.scenario === 'helidon-500kb')),
      { ...fast, variant: 'server-helidon' }];
    const m = model({ suite: 'grpc-streaming', docs, config });
    assert.deepEqual(m.findings.map((f) => f.verdict), ['same direction', 'same direction', 'same direction', 'same direction']);
    const said = conclusions(m);
    assert.match(said[0], /^Loopback: the seed's ordering \(Netty server ahead, except Helidon client at 500 KB\) holds in every pairing here: .*helidon client 500 KB: 22\.6 vs 35\.7 MB\/s \(0\.63x; seed 0\.90x\)/);
    assert.doesNotMatch(said[0], /Netty server is ahead of the Helidon server in every pairing/);
  });

  test('shows the Helidon server with TCP_NODELAY apart from the seed matrix, and what it changes', () => {
    const docs = [...matrix('loopback'), ...matrix('nodelay')];
    const text = render({ suite: 'grpc-streaming', docs, config });
    const tuned = text.slice(text.indexOf('Helidon server with TCP_NODELAY (loopback; not in the seed)'));
    assert.match(tuned, /\n {2}HELIDON\+NODELAY +HELIDON +1024\.0 +100 +3\.163 +31\.62 +– +0\n/);
    const m = model({ suite: 'grpc-streaming', docs, config });
    assert.equal(m.findings.length, 4, 'the tuned server does not enter the comparison with the seed');
    assert.deepEqual(m.nodelay.map((e) => [e.client, e.kb, e.ratio.toFixed(2)]), [['netty', 500, '3.82'], ['netty', 1024, '1.81'], ['helidon', 500, '3.50'], ['helidon', 1024, '2.94']]);
    assert.match(text, /The Helidon server with TCP_NODELAY \(HELIDON_TCP_NODELAY=true, not in the seed\): netty client 500 KB: 8\.2 -> 31\.4 MB\/s \(3\.82x\);/);
  });

  test('prints per-call latency from ghz and names the 40 ms delayed-ACK stall of the Helidon server', () => {
    const m = model({ suite: 'grpc-streaming', docs: ghzDocs(), config });
    assert.deepEqual(m.latency.map((r) => [r.scenario, r.server, r.tuned, r.requests, r.errors]), [
      ['fetch-500kb', 'netty', undefined, 100, 0], ['fetch-500kb', 'helidon', undefined, 100, 0],
      ['send-1kb', 'netty', undefined, 400, 0], ['send-1kb', 'helidon', undefined, 400, 0], ['send-1kb', 'helidon', 'nodelay', 400, 0],
    ]);
    const stall = nagleStall(m.latency);
    assert.deepEqual([stall.scenario, (stall.helidon / 1e6).toFixed(2), (stall.netty / 1e6).toFixed(2), (stall.nodelay / 1e6).toFixed(2)], ['send-1kb', '43.89', '3.19', '3.29']);
    const text = render({ suite: 'grpc-streaming', docs: ghzDocs(), config });
    assert.match(text, /\n {2}send-1kb +HELIDON +88\.9 +44\.55 ms +43\.89 ms +43\.98 ms +47\.87 ms +0 of 400\n {2}send-1kb +HELIDON\+NODELAY +804\.0 +4\.924 ms +3\.286 ms /);
    assert.match(text, /Small unary calls \(send-1kb\) take 43\.89 ms at p50 on the Helidon server against 3\.192 ms on Netty: .* with TCP_NODELAY the Helidon server answers in 3\.286 ms\./);
    // Without the stall (Netty only) nothing is claimed.
    assert.equal(nagleStall(m.latency.filter((r) => r.server === 'netty')), undefined);
    // On a busy machine Netty's p50 rose to 10 ms (a quick run at load 8-16): the Helidon server against itself with TCP_NODELAY still shows the stall.
    const busy = m.latency.map((r) => (r.server === 'netty' ? { ...r, p50: 10.25e6 } : r));
    assert.deepEqual(Object.values(nagleStall(busy)).map((v) => (typeof v === 'number' ? (v / 1e6).toFixed(2) : v)), ['send-1kb', '10.25', '43.89', '3.29']);
    assert.equal(nagleStall(busy.filter((r) => r.tuned !== 'nodelay')), undefined, 'no fast reference, no claim');
  });

  test('the per-call latency heading gives the concurrency ghz ran at: 8 under --param ghz.concurrency=8', () => {
    const docs = ['netty', 'helidon'].map((s) => ghzDoc(s, 'send-1kb', { concurrency: 8, suffix: '-c8' }));
    assert.match(render({ suite: 'grpc-streaming', docs, config }), /\nPer-call latency \(ghz, unary calls, 8 concurrent\)\n/);
    assert.match(markdown({ suite: 'grpc-streaming', docs, config }), /\*\*Per-call latency \(ghz, unary calls, 8 concurrent\)\*\*/);
    assert.match(render({ suite: 'grpc-streaming', docs: ghzDocs(), config }), /\nPer-call latency \(ghz, unary calls, 4 concurrent\)\n/);
  });

  test('lists the network variants as skipped with the namespace notice when the machine refused them', () => {
    const run = { jobs: [{ id: 'grpc-streaming.netns-server-netty.grpc-client.netty-500kb', suite: 'grpc-streaming', variant: 'netns-server-netty', tool: 'grpc-client', scenario: 'netty-500kb', status: 'failed',
      reason: 'subject process grpc-streaming/netty-netns exited (code 77) before it was healthy. Last lines of x.log:',
      logTail: 'benchline netns: SKIP: network namespaces need root (CAP_SYS_ADMIN and CAP_NET_ADMIN), and this runs as uid 1001; the network variants cannot run on this machine (the loopback variants are unaffected)' }] };
    const text = render({ suite: 'grpc-streaming', docs: matrix('loopback'), run, config });
    assert.match(text, /Not measured\n {2}netns-server-netty \/ netty-500kb \(grpc-client\): skipped: network namespaces need root \(CAP_SYS_ADMIN and CAP_NET_ADMIN\), and this runs as uid 1001;/);
    assert.match(text, /The network variants were not measured \(see below\), so the seed's Docker finding is not checked in this run\./);
    assert.doesNotMatch(text, /Throughput summary \(servers in a network namespace/);
  });

  test('renders the same tables as markdown with config text escaped', () => {
    const md = markdown({ suite: 'grpc-streaming', docs: matrix('loopback'), config: { suites: { 'grpc-streaming': { description: 'a <b>|pipe|</b>' } } } });
    assert.match(md, /^### grpc-streaming: gRPC throughput, Netty vs Helidon \(seed 003\)\n\na &lt;b&gt;\\\|pipe\\\|&lt;\/b&gt;/);
    assert.match(md, /\| server \| client \| payloadKB \| messages \| duration\\\(s\\\) \| MB\/s \| 95% CI \\\(MB\/s\\\) \| errors \|/);
    assert.match(md, /\| NETTY \| NETTY \| 500\.0 \| 100 \| 1\.335 \| 36\.58 \| – \| 0 \|/);
  });
});

// ---------------------------------------------------------------- end to end, bounded

describe('the grpc-streaming suite through the runner', { timeout: 90000 }, () => {
  test('one short cell runs from the config to a schema-valid result and the summary table', async () => {
    const out = mkdtempSync(join(tmpdir(), 'benchline-grpc-run-'));
    try {
      const jobs = planJobs(config, { suite: ['grpc-streaming'], variant: ['server-helidon'], scenario: ['netty-500kb'], trials: 2, param: ['messages=10', 'warmup=0'] });
      rmSync(join(ROOT, 'subjects', 'grpc-streaming', 'target', 'client-netty.jsa'), { force: true });
      const { dir, run } = await runJobs(jobs, { config, out, progress: false });
      assert.deepEqual(run.jobs.map((j) => [j.id, j.status]), [['grpc-streaming.server-helidon.grpc-client.netty-500kb', 'ok']]);
      const loaded = loadResultsDir(dir);
      const doc = loaded.byRole.local[0];
      assert.equal(doc.tool.name, 'grpc-client');
      assert.match(doc.tool.version, /^1\.0\.0 \(grpc-java 1\.85\.1, Helidon 4\.5\.0, Java 25/);
      assert.equal(doc.trials, 2);
      assert.deepEqual(doc.metrics.find((m) => m.name === 'errors').samples, [0, 0]);
      // Both trials against one server (restart: never), and the client's class-data archive was written.
      assert.equal(doc.instances ?? 1, 1);
      assert.ok(existsSync(join(ROOT, 'subjects', 'grpc-streaming', 'target', 'client-netty.jsa')), 'client-netty.jsa in target/');
      const text = render({ suite: 'grpc-streaming', docs: loaded.byRole.local, run: loaded.run, config });
      assert.match(text, /\n {2}HELIDON +NETTY +500\.0 +10 +\d+\.\d{3} +\d+\.\d\d +\d+\.\d\d – \d+\.\d\d +0\n/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

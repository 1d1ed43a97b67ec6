// catalog-api: the real Spring Boot jar on free loopback ports (three APIs, same items, HAL links, refusals), the k6 parameter checks and the seed 000 report.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, locate, ensureTools } from '../ci/tools.js';
import { parse as parseK6, command as k6Command } from '../ci/adapters/k6.js';
import { parse as parseGhz } from '../ci/adapters/ghz.js';
import { buildResult } from '../ci/result.js';
import { readParams, positions, pageAt, cursorAt, parseInstant } from '../loadtests/k6/catalog-params.js';
import { render, markdown, model, findings, failureMessage, improvement, traversalFigures } from '../subjects/catalog-api/report.js';

const SUBJECT = join(ROOT, 'subjects', 'catalog-api');
const JAR = join(SUBJECT, 'target', 'catalog-api.jar');
const K6FIX = join(ROOT, 'test', 'fixtures', 'k6');
const GHZFIX = join(ROOT, 'test', 'fixtures', 'ghz');
const DEFAULTS = { pageSize: 100, warmupRequests: 5, benchmarkRequests: 20, dateStart: '2024-01-01T00:00:00', dateEnd: '2024-12-31T23:59:59' };

// ---------------------------------------------------------------- k6 parameters (pure)

describe('catalog-api k6 parameters (loadtests/k6/catalog-params.js)', () => {
  const env = (extra = {}) => ({ API: 'rest-stream', BASE_URL: 'http://127.0.0.1:8080', ...extra });

  test('reads the seed\'s variables with the seed\'s defaults', () => {
    const p = readParams(env());
    assert.deepEqual(
      { pageSize: p.pageSize, warmup: p.warmupRequests, requests: p.benchmarkRequests, start: p.startMs, end: p.endMs, base: p.baseUrl },
      { pageSize: 100, warmup: 5, requests: 20, start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 11, 31, 23, 59, 59), base: 'http://127.0.0.1:8080' },
    );
    assert.equal(readParams({ API: 'grpc', GRPC_TARGET: '127.0.0.1:9091', GRPC_HOST: 'localhost:9090' }).grpc, 'localhost:9090');
  });

  test('refuses an inverted range, page sizes 0 and 10,001, and foreign values, naming the variable', () => {
    const cases = [
      [{ DATE_START: '2024-12-31T00:00:00', DATE_END: '2024-01-01T00:00:00' }, 'DATE_START=2024-12-31T00:00:00 is after DATE_END=2024-01-01T00:00:00: the date range is inverted; swap them'],
      [{ PAGE_SIZE: '0' }, 'PAGE_SIZE=0 is out of range: use 1..10000 (k6 run -e PAGE_SIZE=...)'],
      [{ PAGE_SIZE: '10001' }, 'PAGE_SIZE=10001 is out of range: use 1..10000 (k6 run -e PAGE_SIZE=...)'],
      [{ PAGE_SIZE: '2.5' }, 'PAGE_SIZE=2.5 is not a whole number (k6 run -e PAGE_SIZE=<1..10000>)'],
      [{ DATE_END: '2024-02-30T00:00:00' }, 'DATE_END=2024-02-30T00:00:00 is not a real date-time'],
      [{ DATE_START: '2024-01-01' }, 'DATE_START=2024-01-01 is not an ISO-8601 date-time such as 2024-01-01T00:00:00 (UTC) or 2024-01-01T00:00:00Z'],
      [{ API: 'soap' }, 'API=soap is not one of hateoas, rest-stream, grpc (k6 run -e API=...)'],
      [{ BASE_URL: '' }, 'BASE_URL is "": give the HTTP server as http://host:port (k6 run -e BASE_URL=http://127.0.0.1:8080)'],
      [{ API: 'grpc', GRPC_TARGET: '' }, 'GRPC_HOST is "": give the gRPC server as host:port (k6 run -e GRPC_HOST=127.0.0.1:9090)'],
    ];
    for (const [extra, message] of cases) assert.throws(() => readParams(env(extra)), { message }, JSON.stringify(extra));
  });

  test('draws the same positions for every run, alternating random and deep (last tenth)', () => {
    const a = positions(6, 1);
    assert.deepEqual(a, positions(6, 1));
    assert.deepEqual(a.map((x) => x.kind), ['random', 'deep', 'random', 'deep', 'random', 'deep']);
    for (const x of a.filter((y) => y.kind === 'deep')) assert.ok(x.fraction >= 0.9 && x.fraction < 1, String(x.fraction));
    assert.notDeepEqual(positions(6, 2), a);
  });

  test('maps a position to an offset page and to a keyset cursor at the same share of the range', () => {
    assert.equal(pageAt(0, 1000), 0);
    assert.equal(pageAt(0.95, 1000), 950);
    assert.equal(pageAt(0.9999999, 1000), 999);
    const start = parseInstant('DATE_START', '2024-01-01T00:00:00');
    const end = parseInstant('DATE_END', '2024-12-31T23:59:59');
    assert.equal(cursorAt(0, start, end), '2024-01-01T00:00:00Z_0');
    assert.equal(cursorAt(0.5, start, end), '2024-07-01T23:59:59Z_0');
  });

  test('the ghz call data holds the k6 positions (seed 1) over the default range, not hand-picked cursors', () => {
    const cfg = JSON.parse(readFileSync(join(ROOT, 'loadtests', 'ghz', 'catalog-list-events.json'), 'utf8'));
    const start = parseInstant('DATE_START', DEFAULTS.dateStart);
    const end = parseInstant('DATE_END', DEFAULTS.dateEnd);
    assert.deepEqual(cfg.data, positions(20, 1).map((p) => ({ cursor: cursorAt(p.fraction, start, end) })));
    assert.equal(cfg.call, 'benchline.catalog.v1.CatalogService/ListEvents');
  });
});

// ---------------------------------------------------------------- the report, from captured k6 and ghz outputs

const RUN = { id: 'catalog-api-test', startedAt: '2026-11-22T00:00:00Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 0, labels: [] };
const CONFIG = {
  suites: {
    'catalog-api': {
      description: 'Seed 000 on Spring Boot.',
      variants: { hateoas: { description: 'HATEOAS' }, 'rest-stream': { description: 'REST/Stream' }, grpc: { description: 'gRPC' } },
      jobs: [{ tool: 'k6', scenario: 'latency', warmup: { warmupRequests: 300 } }],
    },
  },
};

/** A result document from one captured output, exactly as the runner builds it. */
function fixtureDoc(variant, scenario, tool = 'k6') {
  const file = tool === 'k6' ? join(K6FIX, `catalog-${variant}-${scenario}.json`) : join(GHZFIX, `catalog-${scenario}.json`);
  const trial = tool === 'k6' ? parseK6(readFileSync(file, 'utf8')) : parseGhz(readFileSync(file, 'utf8'));
  return buildResult({
    run: RUN,
    runner: RUNNER,
    suite: 'catalog-api',
    subject: 'catalog-api',
    variant,
    scenario,
    tool: { name: tool, version: trial.toolVersion || (tool === 'k6' ? '1.8.1' : '0.93.0') },
    params: { ...DEFAULTS, api: variant, ...(tool === 'ghz' ? { total: scenario === 'stream' ? 2 : 200, concurrency: 1 } : {}) },
    trials: [trial],
  }, file);
}

const ALL = () => [
  ...['hateoas', 'rest-stream', 'grpc'].flatMap((v) => [fixtureDoc(v, 'latency'), fixtureDoc(v, 'traversal')]),
  fixtureDoc('grpc', 'unary-pages', 'ghz'),
  fixtureDoc('grpc', 'stream', 'ghz'),
];

describe('catalog-api report (subjects/catalog-api/report.js)', () => {
  test('reproduces the seed\'s latency, size and traversal tables from captured k6 runs', () => {
    const text = render({ suite: 'catalog-api', docs: ALL(), config: CONFIG });
    const lines = text.split('\n');
    const after = (title, n) => lines.slice(lines.indexOf(title) + 2, lines.indexOf(title) + 2 + n);
    assert.deepEqual(after('SINGLE REQUEST LATENCY (ms)', 9), [
      '  Metric        HATEOAS  REST/Stream  gRPC',
      '  ────────────  ───────  ───────────  ────',
      '  Average          9.34         6.42  1.99',
      '  P50 (Median)     9.04         1.18  1.29',
      '  P95             15.00        17.18  3.91',
      '  Min              4.45         0.63  0.95',
      '  Max             24.06        84.77  9.79',
      '  Random avg       7.27        10.87  2.35',
      '  Deep avg        11.41         1.96  1.63',
    ]);
    assert.deepEqual(after('RESPONSE SIZE (bytes)', 3)[2], '  Size per page   20,630       12,192  4,140');
    const traversal = after('FULL PAGINATION TRAVERSAL', 10).slice(2);
    assert.deepEqual(traversal.slice(0, 4), [
      '  Total Items    100,000      100,000  100,000',
      '  Pages            1,000        1,000    1,000',
      '  Total Time      31.35s        6.32s    8.81s',
      '  Items/s          3,190       15,833   11,347',
    ]);
    // One walk per trial has one time: the block shows the pages' latency within it, never eight copies of the walk time.
    assert.deepEqual(traversal.slice(4).map((l) => l.trim().split(/\s{2,}/)[0]), ['Page avg (ms)', 'Page P50 (ms)', 'Page P95 (ms)', 'Page P99 (ms)']);
    const pageRows = traversal.slice(4).map((l) => l.trim().split(/\s{2,}/).slice(1));
    assert.notDeepEqual(pageRows[1], pageRows[3], 'page p50 and p99 differ within a walk');
    assert.match(text, /gRPC StreamEvents \(the whole range in one call, k6\): 100,000 items in 1,000 messages, 14\.49s/);
    assert.match(text, /gRPC ListEvents from ghz 0\.93\.0 \(native client, 200 calls, concurrency 1\): avg 1\.81 ms, p50 1\.21 ms, p95 4\.72 ms/);
    assert.match(text, /gRPC StreamEvents from ghz 0\.93\.0 \(native client, 2 calls per trial\): 0\.83s per whole-range stream/);
    assert.match(text, /Configuration: Page Size: 100 items \| Requests: 20 \| Range: 2024-01-01T00:00:00\.\.2024-12-31T23:59:59 \| Warm-up: 5 requests after an unmeasured run of 300 \| Trials: 1/);
  });

  test('a trial of two walks (TRAVERSALS=2) shows one walk\'s items, pages and time, so Items/s is not doubled', () => {
    const file = join(K6FIX, 'catalog-rest-stream-traversal-2-walks.json');
    const trial = parseK6(readFileSync(file, 'utf8'));
    const doc = buildResult({
      run: RUN, runner: RUNNER, suite: 'catalog-api', subject: 'catalog-api', variant: 'rest-stream', scenario: 'traversal',
      tool: { name: 'k6', version: trial.toolVersion || '1.8.1' }, params: { ...DEFAULTS, api: 'rest-stream', traversals: 2 }, trials: [trial],
    }, file);
    // k6 counted 200,000 items and 2,000 pages in 14.684 s over the trial's 2 iterations
    const t = traversalFigures(doc);
    assert.deepEqual([t.items, t.pages, t.time / 1e9], [100000, 1000, 7.342]);
    const lines = render({ suite: 'catalog-api', docs: [fixtureDoc('rest-stream', 'latency'), doc], config: CONFIG }).split('\n');
    const row = (name) => lines.find((l) => l.trim().startsWith(name)).trim().split(/\s{2,}/).slice(1);
    assert.deepEqual([row('Total Items'), row('Pages'), row('Total Time'), row('Items/s')], [['100,000'], ['1,000'], ['7.34s'], ['13,620']]);
  });

  test('variants a run did not select are "not selected in this run", not skipped (the real run.json of a rest-stream-only run)', () => {
    const file = join(K6FIX, 'catalog-rest-stream-traversal-2-walks.json');
    const trial = parseK6(readFileSync(file, 'utf8'));
    const doc = buildResult({
      run: RUN, runner: RUNNER, suite: 'catalog-api', subject: 'catalog-api', variant: 'rest-stream', scenario: 'traversal',
      tool: { name: 'k6', version: '1.8.1' }, params: { ...DEFAULTS, api: 'rest-stream', traversals: 2 }, trials: [trial],
    }, file);
    const run = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'runs', 'catalog-rest-stream-2-walks', 'run.json'), 'utf8'));
    const text = render({ suite: 'catalog-api', docs: [doc], run, config: CONFIG });
    assert.match(text, /\n! HATEOAS not selected in this run \(--variant or --job\); comparing REST\/Stream only\.\n! gRPC not selected in this run/);
    assert.doesNotMatch(text, /skipped/);
    // without run.json (the site's older runs) nothing says why, as before
    assert.match(render({ suite: 'catalog-api', docs: [doc], config: CONFIG }), /! HATEOAS skipped \(no result document in this run\)/);
  });

  test('prints the three improvement blocks with the seed\'s percentages, marking what got worse', () => {
    const lines = render({ suite: 'catalog-api', docs: ALL(), config: CONFIG }).split('\n');
    const block = (title) => lines.slice(lines.indexOf(title) + 1, lines.indexOf(title) + 5);
    assert.deepEqual(block('REST/Stream vs HATEOAS:'), ['  ✓ Latency:    31.3% faster', '  ✓ Deep pages: 82.8% faster', '  ✓ Size:       40.9% smaller', '  ✓ Traversal:  79.9% faster']);
    assert.deepEqual(block('gRPC vs HATEOAS:'), ['  ✓ Latency:    78.7% faster', '  ✓ Deep pages: 85.7% faster', '  ✓ Size:       79.9% smaller', '  ✓ Traversal:  71.9% faster']);
    assert.deepEqual(block('gRPC vs REST/Stream:'), ['  ✓ Latency:    69.0% faster', '  ✓ Deep pages: 17.1% faster', '  ✓ Size:       66.0% smaller', '  ✗ Traversal:  39.5% slower']);
  });

  test('says whether each time improvement is significant: Mann-Whitney over the five trials of a quick run, and "not tested" for one trial', () => {
    const quick = (variant, scenario) => buildResult({
      run: RUN, runner: RUNNER, suite: 'catalog-api', subject: 'catalog-api', variant, scenario,
      tool: { name: 'k6', version: '1.8.1' }, params: { ...DEFAULTS, api: variant },
      trials: [1, 2, 3, 4, 5].map((i) => parseK6(readFileSync(join(K6FIX, `catalog-quick-${variant}-${scenario}-${i}.json`), 'utf8'))),
    }, `catalog-quick-${variant}-${scenario}`);
    const docs = ['hateoas', 'rest-stream', 'grpc'].flatMap((v) => [quick(v, 'latency'), quick(v, 'traversal')]);
    const lines = render({ suite: 'catalog-api', docs, config: CONFIG }).split('\n');
    const block = (title) => lines.slice(lines.indexOf(title) + 1, lines.indexOf(title) + 5);
    assert.deepEqual(block('REST/Stream vs HATEOAS:'), ['  ✓ Latency:    79.1% faster (p = 0.008)', '  ✓ Deep pages: 84.6% faster (p = 0.008)', '  ✓ Size:       40.9% smaller', '  ✓ Traversal:  84.6% faster (p = 0.008)']);
    assert.deepEqual(block('gRPC vs REST/Stream:'), ['  ✓ Latency:    45.1% faster (p = 0.032)', '  ≈ Deep pages: 32.9% faster (not significant, p = 0.10)', '  ✓ Size:       66.0% smaller', '  ✗ Traversal:  86.7% slower (p = 0.016)']);
    assert.ok(lines.includes('p: two-sided Mann-Whitney over the trials\' averages (latency) or walk times (traversal); significant below 0.05.'));
    assert.match(lines.find((l) => l.includes('gRPC faster than REST/Stream at deep pages:')), /vs 3\.60 ms \(REST\/Stream\) \(not significant, p = 0\.10\)/);
    assert.match(markdown({ suite: 'catalog-api', docs, config: CONFIG }), /\| ≈ 32\.9% faster \\\(not significant, p = 0\.10\\\) \|/);
    // a direction the trials cannot tell from noise is not called a finding that holds
    assert.match(lines.find((l) => l.includes('gRPC faster than REST/Stream at deep pages:')), /^ {2}≈ gRPC faster than REST\/Stream at deep pages: holds in direction only: deep pages avg 2\.42 ms \(gRPC\)/);
    assert.match(lines.find((l) => l.includes('keyset (REST/Stream) faster than offset')), /^ {2}✓ keyset \(REST\/Stream\) faster than offset \(HATEOAS\) at deep pages: holds: /);
    assert.match(lines.find((l) => l.includes('gRPC traversal faster than REST/Stream:')), /^ {2}✗ gRPC traversal faster than REST\/Stream: does not hold: /);
    const single = render({ suite: 'catalog-api', docs: ALL(), config: CONFIG });
    assert.match(single, /\nNot tested for significance: 1 trial a variant cannot show a significant difference \(run 4 or more\)\.\n/);
    assert.doesNotMatch(single, /\(p = /);
  });

  test('checks the seed\'s direction at deep pages and explains a traversal that does not hold with the time outside the requests', () => {
    const m = model({ suite: 'catalog-api', docs: ALL(), config: CONFIG });
    assert.deepEqual(m.findings.map((f) => [f.claim, f.holds]), [
      ['keyset (REST/Stream) faster than offset (HATEOAS) at deep pages', true],
      ['gRPC faster than offset (HATEOAS) at deep pages', true],
      ['gRPC payload smallest', true],
      ['gRPC faster than REST/Stream at deep pages', true],
      ['gRPC traversal faster than REST/Stream', false],
    ]);
    assert.equal(m.findings[0].text, 'holds: deep pages avg 1.96 ms (REST/Stream) vs 11.41 ms (HATEOAS), 5.8x faster; random positions 10.87 vs 7.27 ms');
    assert.equal(m.findings[2].text, 'holds: HATEOAS 20,630 B, REST/Stream 12,192 B, gRPC 4,140 B per page (gRPC: encoded protobuf message; HTTP: response body)');
    assert.equal(m.findings[4].text, 'does not hold: 8.81s (gRPC, 1,000 unary calls) vs 6.32s (REST/Stream, 1,000 requests). Inside k6\'s request timings gRPC spent 6.42s and REST/Stream 5.24s; '
      + 'the rest of each walk, 2.40s for gRPC against 1.08s for REST/Stream, is k6 turning answers into JavaScript objects and checking them; '
      + 'the same range as one gRPC stream took 14.49s in k6 and 0.83s from ghz\'s native client');
  });

  test('explains gRPC losing to REST/Stream at deep pages by comparing like with like: k6 with k6, and one gRPC call from ghz and k6', () => {
    const ms = (x) => x * 1e6;
    const v = (grpcP50) => ({
      hateoas: { latency: { deepAvg: ms(12), randomAvg: ms(10), p50: ms(9), pageBytes: 20630 } },
      'rest-stream': { latency: { deepAvg: ms(0.8), randomAvg: ms(0.7), p50: ms(0.7), pageBytes: 12192 } },
      grpc: { latency: { deepAvg: ms(1.6), randomAvg: ms(1.5), p50: grpcP50, pageBytes: 4140 } },
    });
    const claim = (list) => list.find((f) => f.claim === 'gRPC faster than REST/Stream at deep pages');
    const slowK6 = claim(findings(v(ms(1.5)), { p50: ms(0.5) })).text;
    assert.equal(slowK6, 'does not hold: deep pages avg 1.60 ms (gRPC) vs 0.80 ms (REST/Stream). Both run the same keyset query, so the gap is not the database; '
      + 'in the same client (k6) the p50 is 1.50 ms for gRPC and 0.70 ms for REST/Stream. '
      + 'The same gRPC call at the same cursor positions from ghz, a native client, takes 0.50 ms at p50 against k6\'s 1.50 ms, '
      + 'so k6\'s gRPC client (decoding protobuf into JavaScript objects) adds about 1.00 ms per call. '
      + 'REST/Stream has no native-client measurement in this suite, so how the two protocols compare without k6 is not measured');
    // ghz's gRPC figure is never set against k6's REST figure: two different clients.
    assert.doesNotMatch(slowK6, /beats|ghz vs REST/);
    assert.match(claim(findings(v(ms(1.0)), { p50: ms(1.12) })).text, /takes 1\.12 ms at p50 against k6's 1\.00 ms, so k6's gRPC client adds nothing measurable here/);
    assert.match(claim(findings(v(ms(1.5)), undefined)).text, /no ghz measurement of the unary call in this run to tell k6's gRPC client cost from the server's/);
  });

  test('without gRPC results it says why and compares HATEOAS and REST/Stream only, as the seed does without grpcurl', () => {
    const stderr = readFileSync(join(K6FIX, 'catalog-bad-range.stderr.txt'), 'utf8');
    const run = {
      jobs: [
        { id: 'catalog-api.grpc.k6.latency', suite: 'catalog-api', variant: 'grpc', tool: 'k6', scenario: 'latency', status: 'failed', reason: 'k6 wrote no output file (trial 1, exit 107)', logTail: stderr },
        { id: 'catalog-api.grpc.k6.traversal', suite: 'catalog-api', variant: 'grpc', tool: 'k6', scenario: 'traversal', status: 'skipped', reason: 'no gRPC tool on this machine' },
      ],
    };
    const docs = ALL().filter((d) => d.variant !== 'grpc');
    const text = render({ suite: 'catalog-api', docs, run, config: CONFIG });
    assert.match(text, /^! gRPC skipped \(latency failed: k6 wrote no output file \(trial 1, exit 107\): DATE_START=2024-12-31T00:00:00 is after DATE_END=2024-01-01T00:00:00: the date range is inverted; swap them; traversal skipped: no gRPC tool on this machine\); comparing HATEOAS and REST\/Stream only\.$/m);
    assert.match(text, /^ {2}Metric {8}HATEOAS {2}REST\/Stream$/m);
    assert.match(text, /^REST\/Stream vs HATEOAS:$/m);
    assert.doesNotMatch(text, /gRPC vs|ghz/);
    assert.equal(model({ suite: 'catalog-api', docs, run, config: CONFIG }).findings.length, 1);
  });

  test('the markdown summary carries the same tables', () => {
    const md = markdown({ suite: 'catalog-api', docs: ALL(), config: CONFIG });
    assert.match(md, /^\| Size per page \| 20,630 \| 12,192 \| 4,140 \|$/m);
    assert.match(md, /^\| Traversal \| ✓ 79\.9% faster \| ✓ 71\.9% faster \| ✗ 39\.5% slower \|$/m);
    assert.match(md, /^\| Total Items \| 100,000 \| 100,000 \| 100,000 \|$/m);
  });

  test('pulls k6\'s own error message out of a failed job\'s log tail', () => {
    const job = { reason: 'k6 wrote no output file (trial 1, exit 107)', logTail: readFileSync(join(K6FIX, 'catalog-bad-range.stderr.txt'), 'utf8') };
    assert.equal(failureMessage(job), 'k6 wrote no output file (trial 1, exit 107): DATE_START=2024-12-31T00:00:00 is after DATE_END=2024-01-01T00:00:00: the date range is inverted; swap them');
    assert.equal(failureMessage({ reason: 'subject process catalog-api/api exited (code 2) before it was healthy', logTail: 'catalog-api: PAGE_SIZE=0 is out of range; use 1..10000' }),
      'subject process catalog-api/api exited (code 2) before it was healthy: catalog-api: PAGE_SIZE=0 is out of range; use 1..10000');
    assert.deepEqual(improvement(10, 10.0001, 'time'), { ok: undefined, text: 'no difference' });
  });
});

// ---------------------------------------------------------------- the real service

/** Newest modification time under a folder (sources decide whether the jar is stale). */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const JAVA = locate('java')?.path;
const JAVA_HOME = JAVA && dirname(dirname(JAVA));
const started = [];

/** Builds the jar when it is missing or older than its sources (a cold ~/.m2 takes about a minute). */
function ensureJar() {
  const stale = !existsSync(JAR) || statSync(JAR).mtimeMs < Math.max(newest(join(SUBJECT, 'src')), statSync(join(SUBJECT, 'pom.xml')).mtimeMs);
  if (!stale) return;
  const r = spawnSync(join(SUBJECT, 'build.sh'), [], { cwd: SUBJECT, env: { ...process.env, JAVA_HOME }, encoding: 'utf8', timeout: 600000 });
  assert.equal(r.status, 0, `subjects/catalog-api/build.sh failed:\n${r.stdout}${r.stderr}`);
}

/** Starts the jar on free loopback ports; resolves with its ports from the ready line. Stopped by PID in after(). */
async function startService(env = {}) {
  const child = spawn(JAVA, ['-Xms128m', '-Xmx512m', '-jar', JAR], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`catalog-api not ready within 90 s:\n${out.slice(-2000)}`)), 90000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /ready: http:\/\/127\.0\.0\.1:(\d+) grpc 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, http: `http://127.0.0.1:${m[1]}`, grpc: `127.0.0.1:${m[2]}` }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`catalog-api exited with ${code}:\n${out.slice(-2000)}`)); });
  });
}

/** Runs the jar with a bad setting and returns { code, stderr }: it must stop before it listens. */
function refuse(env) {
  const r = spawnSync(JAVA, ['-jar', JAR], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', ...env }, encoding: 'utf8', timeout: 60000 });
  return { code: r.status, stderr: r.stderr.trim() };
}

after(async () => {
  for (const c of started) {
    if (c.exitCode === null && c.signalCode === null) {
      process.kill(c.pid, 'SIGTERM');
      await once(c, 'exit');
    }
  }
});

// One week keeps the item-by-item comparison quick; the full year is checked by count.
const WEEK = { start: '2024-06-01T00:00:00', end: '2024-06-07T23:59:59' };
const q = (o) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

/** The fields every API renders, in one shape (gRPC's JSON has int64 as strings and snake_case names). */
const norm = (e) => ({
  id: Number(e.id),
  occurredAt: e.occurredAt ?? e.occurred_at,
  type: e.type,
  source: e.source,
  userId: Number(e.userId ?? e.user_id),
  amountCents: Number(e.amountCents ?? e.amount_cents ?? 0),
});

async function getJson(url) {
  const r = await fetch(url);
  return { status: r.status, body: await r.json() };
}

describe('catalog-api service (subjects/catalog-api, real jar on loopback)', () => {
  let svc;
  let grpcurl;
  let dbDir;

  before(async () => {
    assert.ok(JAVA, 'JDK 25 not found (set JAVA25_HOME)');
    grpcurl = ensureTools(['grpcurl']).grpcurl.path;
    ensureJar();
    // A file database (through DATABASE_URL) lets a second process count the rows independently.
    dbDir = mkdtempSync(join(tmpdir(), 'catalog-api-test-'));
    svc = await startService({ DATABASE_URL: `jdbc:h2:file:${join(dbDir, 'catalog')};AUTO_SERVER=TRUE`, DATABASE_USER: 'sa', DATABASE_PASSWORD: 'catalog-test' });
  });

  after(() => { if (dbDir) rmSync(dbDir, { recursive: true, force: true }); });

  const grpcCall = (method, data) => spawnSync(grpcurl, ['-plaintext', '-emit-defaults', '-d', JSON.stringify(data), svc.grpc, `benchline.catalog.v1.CatalogService/${method}`], { encoding: 'utf8', timeout: 60000, maxBuffer: 256 << 20 });
  /** grpcurl prints one JSON document per message; a stream's messages follow one another. */
  const messages = (text) => JSON.parse(`[${text.trim().replace(/\}\s*\{/g, '},{')}]`);

  async function walkHateoas(range, size) {
    let url = `${svc.http}/api/hateoas/events?${q({ ...range, size })}`;
    const items = [];
    let pages = 0;
    let meta;
    while (url) {
      const { status, body } = await getJson(url);
      assert.equal(status, 200, url);
      meta ??= body.page;
      items.push(...(body._embedded?.events || []));
      pages += 1;
      url = body._links.next?.href;
    }
    return { items: items.map(norm), pages, meta };
  }

  async function walkRest(range, size) {
    const items = [];
    let pages = 0;
    let cursor = '';
    do {
      const { status, body } = await getJson(`${svc.http}/api/stream/events?${q({ ...range, size, ...(cursor ? { cursor } : {}) })}`);
      assert.equal(status, 200);
      items.push(...body.items);
      pages += 1;
      cursor = body.nextCursor;
    } while (cursor);
    return { items: items.map(norm), pages };
  }

  function walkGrpc(range, size) {
    const items = [];
    let pages = 0;
    let cursor = '';
    do {
      const r = grpcCall('ListEvents', { ...range, page_size: size, cursor });
      assert.equal(r.status, 0, r.stderr);
      const page = JSON.parse(r.stdout);
      items.push(...page.events);
      pages += 1;
      cursor = page.next_cursor;
    } while (cursor);
    return { items: items.map(norm), pages };
  }

  test('the JUnit tests of the service pass (settings, cursor, dataset)', () => {
    const r = spawnSync(join(SUBJECT, 'build.sh'), ['test'], { cwd: SUBJECT, env: { ...process.env, JAVA_HOME }, encoding: 'utf8', timeout: 300000 });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    const reports = readdirSync(join(SUBJECT, 'target', 'surefire-reports')).filter((f) => f.endsWith('.txt'));
    const runs = reports.map((f) => /Tests run: (\d+), Failures: (\d+), Errors: (\d+)/.exec(readFileSync(join(SUBJECT, 'target', 'surefire-reports', f), 'utf8')).slice(1).map(Number));
    assert.deepEqual(runs.reduce((a, b) => a.map((x, i) => x + b[i])), [11, 0, 0]);
  });

  test('HATEOAS links, REST/Stream cursors, gRPC pages and the gRPC stream return exactly the same events for one week', async () => {
    const h = await walkHateoas(WEEK, 100);
    const r = await walkRest(WEEK, 100);
    const g = walkGrpc(WEEK, 100);
    const s = grpcCall('StreamEvents', { ...WEEK, page_size: 100 });
    assert.equal(s.status, 0, s.stderr);
    const stream = messages(s.stdout);
    assert.equal(h.items.length, 1917);
    assert.equal(h.meta.totalElements, 1917);
    assert.deepEqual(r.items, h.items);
    assert.deepEqual(g.items, h.items);
    assert.deepEqual(stream.flatMap((m) => m.events).map(norm), h.items);
    assert.deepEqual([h.pages, r.pages, g.pages, stream.length], [20, 20, 20, 20]);
    assert.deepEqual(h.items[0], { id: 42541, occurredAt: '2024-06-01T00:04:21Z', type: 'order.shipped', source: 'android', userId: 19646, amountCents: 43947 });
    assert.ok(h.items.every((e) => e.occurredAt >= '2024-06-01T00:00:00Z' && e.occurredAt <= '2024-06-07T23:59:59Z'));
  });

  test('a full-year walk of each API returns every event the database holds in 2024 (100,000)', async () => {
    const h2 = readdirSync(join(homedir(), '.m2', 'repository', 'com', 'h2database', 'h2')).map((v) => join(homedir(), '.m2', 'repository', 'com', 'h2database', 'h2', v, `h2-${v}.jar`)).find(existsSync);
    const sql = spawnSync(JAVA, ['-cp', h2, 'org.h2.tools.Shell', '-url', `jdbc:h2:file:${join(dbDir, 'catalog')};AUTO_SERVER=TRUE`, '-user', 'sa', '-password', 'catalog-test',
      '-sql', "SELECT COUNT(*) AS n FROM catalog_events WHERE occurred_at BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '2024-12-31 23:59:59'"], { encoding: 'utf8', timeout: 60000 });
    assert.equal(sql.status, 0, sql.stderr);
    const rows = Number(/^(\d+)$/m.exec(sql.stdout)[1]);
    assert.equal(rows, 100000);
    const year = { start: DEFAULTS.dateStart, end: DEFAULTS.dateEnd };
    const r = await walkRest(year, 10000);
    const g = walkGrpc(year, 10000);
    const first = await getJson(`${svc.http}/api/hateoas/events?${q({ ...year, size: 10000, page: 9 })}`);
    assert.deepEqual([r.items.length, g.items.length, first.body.page.totalElements], [rows, rows, rows]);
    assert.deepEqual(g.items.map((e) => e.id), r.items.map((e) => e.id));
    assert.deepEqual(first.body._embedded.events.map(norm), r.items.slice(90000));
    assert.equal(new Set(r.items.map((e) => e.id)).size, rows);
  });

  test('HATEOAS pages carry HAL _links (self, next, prev, first, last) and page metadata the way Spring HATEOAS renders them', async () => {
    const base = `${svc.http}/api/hateoas/events`;
    // Spring's link builder percent-encodes the colons of the query values.
    const link = (page) => `${base}?start=2024-06-01T00%3A00%3A00&end=2024-06-07T23%3A59%3A59&page=${page}&size=10`;
    const { status, body } = await getJson(`${base}?${q({ ...WEEK, page: 2, size: 10 })}`);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['_embedded', '_links', 'page']);
    assert.deepEqual(body.page, { size: 10, totalElements: 1917, totalPages: 192, number: 2 });
    assert.deepEqual(Object.fromEntries(Object.entries(body._links).map(([k, v]) => [k, v.href])),
      { first: link(0), prev: link(1), self: link(2), next: link(3), last: link(191) });
    assert.equal(body._embedded.events.length, 10);
    assert.deepEqual(body._embedded.events[0]._links, { self: { href: `${base}/42561` } });
    const first = (await getJson(`${base}?${q({ ...WEEK, page: 0, size: 10 })}`)).body._links;
    const last = await getJson(`${base}?${q({ ...WEEK, page: 191, size: 10 })}`);
    assert.deepEqual([first.prev, first.next?.href], [undefined, link(1)]);
    assert.deepEqual([last.body._links.next, last.body._embedded.events.length], [undefined, 7]);
    const rest = await getJson(`${svc.http}/api/stream/events?${q({ ...WEEK, size: 10 })}`);
    assert.deepEqual(Object.keys(rest.body), ['items', 'nextCursor']);
    assert.equal(rest.body.nextCursor, '2024-06-01T01:12:13Z_42550');
  });

  test('bad parameters get 400 (HTTP) or INVALID_ARGUMENT (gRPC) with a message naming the parameter', async () => {
    const cases = [
      ['hateoas', { start: '2024-12-31T00:00:00', end: '2024-01-01T00:00:00' }, 'date range is inverted: start 2024-12-31T00:00:00Z is after end 2024-01-01T00:00:00Z; swap them'],
      ['hateoas', { size: 0 }, 'size=0 is out of range; use 1..10000'],
      ['stream', { size: 10001 }, 'size=10001 is out of range; use 1..10000'],
      ['hateoas', { page: -1 }, 'page=-1 is negative; pages count from 0'],
      ['stream', { start: 'yesterday' }, 'start=yesterday is not an ISO-8601 date-time such as 2024-01-01T00:00:00 (UTC) or 2024-01-01T00:00:00Z'],
      ['stream', { cursor: 'page-7' }, 'cursor=page-7 is not a cursor of this API; pass the nextCursor of the previous page (shape <instant>_<id>, e.g. 2024-03-01T10:00:00Z_4242)'],
    ];
    for (const [api, params, message] of cases) {
      const { status, body } = await getJson(`${svc.http}/api/${api}/events?${q(params)}`);
      assert.deepEqual([status, body.message], [400, message], `${api} ${JSON.stringify(params)}`);
    }
    const inverted = grpcCall('ListEvents', { start: '2024-12-31T00:00:00', end: '2024-01-01T00:00:00' });
    assert.equal(inverted.status, 64 + 3, 'grpcurl exits 64 + the status code (3: INVALID_ARGUMENT)');
    assert.match(inverted.stderr, /Code: InvalidArgument\n\s+Message: date range is inverted: start 2024-12-31T00:00:00Z is after end 2024-01-01T00:00:00Z; swap them/);
    assert.match(grpcCall('StreamEvents', { page_size: 10001 }).stderr, /Message: page_size=10001 is out of range; use 1\.\.10000/);
  });

  test('the service refuses bad settings at start, before it listens, naming the variable', () => {
    assert.deepEqual(refuse({ PAGE_SIZE: '0' }), { code: 2, stderr: 'catalog-api: PAGE_SIZE=0 is out of range; use 1..10000' });
    assert.deepEqual(refuse({ DATE_START: '2024-12-31T00:00:00', DATE_END: '2024-01-01T00:00:00' }),
      { code: 2, stderr: 'catalog-api: date range is inverted: DATE_START 2024-12-31T00:00:00Z is after DATE_END 2024-01-01T00:00:00Z; swap them' });
  });

  test('the k6 scripts stop in setup() on a bad parameter or an unreachable server: exit 107 and no summary, so nothing is recorded', () => {
    const k6 = locate('k6').path;
    const dir = mkdtempSync(join(tmpdir(), 'catalog-k6-'));
    try {
      const cases = [
        [{ pageSize: 0 }, { url: svc.http, grpc: svc.grpc }, /PAGE_SIZE=0 is out of range: use 1\.\.10000/],
        [{ readyTimeout: 1 }, { url: 'http://127.0.0.1:9', grpc: svc.grpc }, /http:\/\/127\.0\.0\.1:9\/health did not answer 2xx within 1 s/],
        [{ readyTimeout: 1, api: 'grpc' }, { url: svc.http, grpc: '127.0.0.1:9' }, /gRPC server 127\.0\.0\.1:9 did not answer ListEvents within 1 s/],
      ];
      cases.forEach(([params, target, message], i) => {
        const outFile = join(dir, `case-${i}.json`);
        const cmd = k6Command({ bin: k6, params: { ...DEFAULTS, api: 'rest-stream', ...params }, target, script: join(ROOT, 'loadtests', 'k6', 'catalog-latency.js'), outFile });
        const r = spawnSync(cmd.argv[0], cmd.argv.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
        assert.equal(r.status, 107, r.stderr);
        assert.match(r.stderr, message);
        assert.equal(existsSync(outFile), false, 'no summary may be written when setup() failed');
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Reports of a run: console tables in the seeds' style, the PR comment within GitHub's limit, the job summary, results folders and the report/compare verbs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { buildResult } from '../ci/result.js';
import { metric } from '../ci/metrics.js';
import { formatValue } from '../ci/units.js';
import { compare } from '../ci/compare.js';
import { parse as parseAb } from '../ci/adapters/ab.js';
import { render as renderConsole } from '../ci/reports/console.js';
import { render as renderComment, MARKER, GITHUB_LIMIT } from '../ci/reports/comment.js';
import { render as renderSummary } from '../ci/reports/summary.js';
import { mdEscape, pairItems, smallestP, sortComparisons, textTable } from '../ci/reports/format.js';
import { loadResultsDir, loadDocuments } from '../ci/results-dir.js';
import report from '../ci/commands/report.js';
import compareCommand from '../ci/commands/compare.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MS = 1e6;
const RUNNER = { name: 'bench-1', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 24 * 1024 ** 3, labels: [] };

/**
 * A schema-valid result document from per-trial samples ({ 'name' or 'name@case': [trial values] }),
 * built through the same buildResult the runner uses. Numbers follow the seed's ab report (orders-api).
 */
function doc({ suite = 'orders-api', variant, tool = 'ab', version = '2.3', scenario = 'keepalive', role = 'local', commit = 'a'.repeat(40), metrics, params = { requests: 20000, concurrency: 50 } }) {
  const keys = Object.keys(metrics);
  const n = metrics[keys[0]].length;
  const trials = Array.from({ length: n }, (_, i) => ({
    metrics: keys.map((k) => {
      const [name, c] = k.split('@');
      return metric(name, metrics[k][i], c ? { case: c } : {});
    }),
  }));
  return buildResult({
    run: { id: '20261122T101500Z-abc123', startedAt: '2026-11-22T10:15:00.000Z', commit, ref: 'main', trigger: 'local', role },
    runner: RUNNER, suite, subject: suite, variant, scenario, tool: { name: tool, version }, params, trials,
  }, 'test document');
}

const ms = (xs) => xs.map((x) => x * MS);
const OFF = {
  throughput: [15241.97, 15180.2, 15302.5, 15120.8, 15275.3],
  'latency.mean': ms([65.608, 65.1, 66.2, 65.9, 65.3]),
  'latency.p50': ms([55, 55, 54, 56, 55]),
  'latency.p99': ms([262, 250, 270, 262, 255]),
  errors: [0, 0, 0, 0, 0],
};
const ON = {
  throughput: [27436.34, 27310.1, 27502.9, 27390.6, 27450.2],
  'latency.mean': ms([36.448, 36.1, 36.9, 36.5, 36.2]),
  'latency.p50': ms([22, 22, 21, 23, 22]),
  'latency.p99': ms([235, 240, 230, 236, 250]),
  errors: [0, 0, 0, 0, 0],
};
const CONFIG = {
  compare: { confidence: 0.95, alpha: 0.05, minEffect: 0.03, metrics: { 'latency.p99': 0.1 } },
  suites: { 'orders-api': { description: 'In-memory cache on GET /api/order/all-items', variants: { 'cache-off': {}, 'cache-on': {} }, jobs: [{ tool: 'ab', scenario: 'keepalive' }] } },
};
const RUN = { schema: 'benchline/run@1', id: '20261122T101500Z-abc123', startedAt: '2026-11-22T10:15:00.000Z', profile: 'quick', base: { ref: 'main', commit: 'c'.repeat(40) }, head: { commit: 'b'.repeat(40), dirty: false } };

const scaled = (m, name, f) => ({ ...m, [name]: m[name].map((x) => x * f) });

/** Base and head documents of both variants; on head, cache-on lost 10% throughput and cache-off got 20% faster at p50. */
function pr() {
  const base = [doc({ variant: 'cache-off', role: 'base', metrics: OFF }), doc({ variant: 'cache-on', role: 'base', metrics: ON })];
  const head = [doc({ variant: 'cache-off', role: 'head', metrics: scaled(OFF, 'latency.p50', 0.8) }), doc({ variant: 'cache-on', role: 'head', metrics: scaled(ON, 'throughput', 0.9) })];
  return { base, head, result: compare(base, head, CONFIG.compare) };
}

test('renders each tool/scenario as a metric-by-variant table in config order, like the seed report', () => {
  const out = renderConsole({ docs: [doc({ variant: 'cache-on', metrics: ON }), doc({ variant: 'cache-off', metrics: OFF })], config: CONFIG });
  assert.ok(out.startsWith('╔══'), 'opens with the banner box');
  assert.match(out, /║ {21}BENCHLINE PERFORMANCE REPORT {21}║/);
  assert.match(out, /^ORDERS-API {2}In-memory cache on GET \/api\/order\/all-items$/m);
  assert.match(out, /^AB · keepalive {2}\(ab 2\.3, 5 trials; requests=20000 concurrency=50\)$/m);
  const table = out.slice(out.indexOf('  Metric'), out.indexOf('\n\n', out.indexOf('  Metric')));
  assert.equal(table, [
    '  Metric             cache-off         cache-on',
    '  ───────────  ───────────────  ───────────────',
    '  Throughput   15,242 /s ±0.8%  27,436 /s ±0.5%',
    '  Latency avg   65.61 ms ±0.9%   36.45 ms ±1.2%',
    '  Latency p50      55 ms ±1.8%      22 ms ±4.5%',
    '  Latency p99     262 ms ±4.6%     236 ms ±5.9%',
    '  Errors                     0                0',
  ].join('\n'));
});

test('summarizes cache-on against cache-off in the seed wording: 60.0% faster, 80.0% higher', () => {
  const out = renderConsole({ docs: [doc({ variant: 'cache-off', metrics: OFF }), doc({ variant: 'cache-on', metrics: ON })], config: CONFIG });
  assert.match(out, /^ {2}cache-on vs cache-off: ✓ Latency: 60\.0% faster · ✓ Throughput: 80\.0% higher$/m);
});

test('compares three variants pairwise in the seed order (b vs a, c vs a, c vs b) and marks a worse one with ✗, an unproven one with ≈', () => {
  const a = doc({ suite: 'catalog', variant: 'hateoas', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([43.11, 43, 44, 43.2, 42.9]), response_bytes: [15234, 15234, 15234, 15234, 15234] } });
  const b = doc({ suite: 'catalog', variant: 'stream', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([11.89, 11.8, 12, 11.9, 11.7]), response_bytes: [3456, 3456, 3456, 3456, 3456] } });
  const c = doc({ suite: 'catalog', variant: 'grpc', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([8.12, 8.1, 8.2, 8.0, 8.15]), response_bytes: [2123, 2123, 2123, 2123, 2123] } });
  const config = { suites: { catalog: { variants: { hateoas: {}, stream: {}, grpc: {} } } } };
  const lines = renderConsole({ docs: [c, b, a], config }).split('\n').filter((l) => l.includes(' vs '));
  assert.deepEqual(lines, [
    '  stream vs hateoas: ✓ Latency: 72.4% faster · ✓ Size: 77.3% smaller',
    '  grpc vs hateoas: ✓ Latency: 81.2% faster · ✓ Size: 86.1% smaller',
    '  grpc vs stream: ✓ Latency: 31.7% faster · ✓ Size: 38.6% smaller',
  ]);
  const worse = pairItems(b, a).find((i) => i.metric === 'latency.p50');
  assert.equal(worse.text, '✗ Latency: 262.6% slower');
  const noisy = doc({ suite: 'catalog', variant: 'stream', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([30, 60, 45, 35, 50]) } });
  assert.equal(pairItems(a, noisy)[0].text, '≈ Latency: 4.4% slower (not significant)');
});

test('says when too few trials can never show significance, however large the difference, and tests from 4 a side', () => {
  assert.equal(smallestP(3, 3), 0.1);
  assert.ok(Math.abs(smallestP(4, 4) - 2 / 70) < 1e-12);
  assert.equal(smallestP(1, 5), 2 / 6);
  assert.equal(smallestP(1, 1), 1);
  const mk = (variant, values) => doc({ suite: 'catalog', variant, tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms(values) } });
  const slow = mk('hateoas', [40, 41, 42]);
  const fast = mk('stream', [10, 11, 12]);
  assert.equal(pairItems(slow, fast)[0].text, '≈ Latency: 73.2% faster (3 and 3 trials cannot show significance; run more)');
  assert.equal(pairItems(mk('hateoas', [40, 41, 42, 43]), mk('stream', [10, 11, 12, 13]))[0].text, '✓ Latency: 72.3% faster');
});

test('lists head-vs-base verdicts with regressions first, their interval, and why', () => {
  const { head, result } = pr();
  const out = renderConsole({ run: RUN, docs: head, comparisons: result, failures: [], config: CONFIG });
  assert.match(out, /^Head bbbbbbb · base ccccccc \(main\)$/m);
  assert.match(out, /^HEAD VS BASE {2}1 regression, 1 improvement, 7 unchanged, 1 inconclusive$/m);
  const rows = out.split('\n').filter((l) => /^ {2}orders-api\//.test(l));
  assert.equal(rows.length, 10);
  assert.equal(rows[0], '  orders-api/cache-on/ab/keepalive   Throughput   27,436 /s  24,693 /s  -10.0%   [-10.4%, -9.6%]  regression');
  assert.equal(rows[1], '  orders-api/cache-off/ab/keepalive  Latency p50      55 ms      44 ms  -20.0%  [-21.5%, -18.5%]  improvement');
  assert.match(out, /^ {4}orders-api\/cache-on\/ab\/keepalive Throughput: p=0\.0079 < 0\.05, interval -10\.4%\.\.-9\.6% excludes 0, \|change\| ≥ 3\.0%$/m);
  assert.match(out, /^ {2}Inconclusive: the interval is wider than the metric's minimum effect/m);
  assert.doesNotMatch(out, /\x1b\[/, 'no colour codes unless asked');
  assert.match(renderConsole({ docs: head, comparisons: result, config: CONFIG, color: true }), /\x1b\[31mregression\x1b\[0m/);
});

test('lists failed and skipped jobs with their reasons and the end of their logs', () => {
  const out = renderConsole({
    run: RUN,
    docs: [],
    failures: [
      { id: 'orders-api.cache-on.ab.keepalive', status: 'failed', reason: 'health check http://127.0.0.1:41234/health timed out after 30 s', logTail: 'a\nb\nc\nd\ne\nf\nError: listen EADDRINUSE' },
      { id: 'gateways.envoy.wrk.peak', status: 'skipped', reason: 'envoy runs only in the compose path' },
    ],
    config: CONFIG,
  });
  assert.match(out, /No result documents: every job failed or was skipped\./);
  assert.match(out, /^FAILED AND SKIPPED JOBS {2}\(2\)$/m);
  assert.match(out, /^ {2}✗ orders-api\.cache-on\.ab\.keepalive \(failed\): health check http:\/\/127\.0\.0\.1:41234\/health timed out after 30 s$/m);
  assert.match(out, /^ {6}\| Error: listen EADDRINUSE$/m);
  assert.doesNotMatch(out, /^ {6}\| b$/m, 'only the last 5 log lines');
  assert.match(out, /^ {2}- gateways\.envoy\.wrk\.peak \(skipped\): envoy runs only in the compose path$/m);
});

test('reports real ab trials of orders-api honestly: 6.2% more throughput from 3 trials a side cannot be shown significant', () => {
  const fixture = (variant, i) => readFileSync(join(ROOT, `test/fixtures/ab/orders-api-${variant}-${i}.txt`), 'utf8');
  const mk = (variant) => buildResult({
    run: { id: 'r1', startedAt: '2026-11-22T03:17:06.574Z', commit: 'a'.repeat(40), ref: 'main', trigger: 'local', role: 'local' },
    runner: RUNNER, suite: 'orders-api', subject: 'orders-api', variant, scenario: 'all-items', tool: { name: 'ab', version: '2.3' },
    params: { requests: 5000, concurrency: 100 }, trials: [1, 2, 3].map((i) => parseAb(fixture(variant, i))),
  }, 'ab fixtures');
  const out = renderConsole({ docs: [mk('cache-off'), mk('cache-on')], config: CONFIG });
  // Requests per second in the captured files: off 8101.14, 5240.66, 4702.50; on 7394.48, 5097.39, 5563.02.
  assert.match(out, /^ {2}Throughput +5,241 \/s ±\d+\.\d% +5,563 \/s ±\d+\.\d%$/m);
  assert.match(out, /≈ Throughput: 6\.2% higher \(3 and 3 trials cannot show significance; run more\)/);
  assert.match(out, /\(\d+ more metrics in the result documents\)/);
});

test('renders the PR comment: marker, headline, one verdict table by importance, folded no-change rows, failures, commits', () => {
  const { head, result } = pr();
  const body = renderComment({ run: RUN, docs: head, comparisons: result, failures: [{ id: 'orders-api.cache-on.wrk.peak', status: 'failed', reason: 'wrk exited 1' }] });
  assert.ok(body.startsWith(`${MARKER}\n\n### benchline: ⚠️ 1 regression, 1 improvement, 7 unchanged, 1 inconclusive, 1 failed job\n`));
  const lines = body.split('\n');
  const first = lines.findIndex((l) => l.startsWith('| benchmark |'));
  assert.equal(lines[first + 2], '| orders-api/cache-on/ab/keepalive | Throughput | 27,436 /s | 24,693 /s | **-10.0%** | [-10.4%, -9.6%] | 🔴 regression |');
  assert.equal(lines[first + 3], '| orders-api/cache-off/ab/keepalive | Latency p50 | 55 ms | 44 ms | **-20.0%** | [-21.5%, -18.5%] | 🟢 improvement |');
  assert.equal(lines[first + 4], '| orders-api/cache-on/ab/keepalive | Latency p50 | 22 ms | 22 ms | +0.0% | [-4.5%, +4.8%] | ❔ inconclusive |');
  assert.equal(lines[first + 5], '', 'no-change rows are not in the main table');
  assert.match(body, /<details><summary>7 metrics with no change<\/summary>\n\n\| benchmark \|/);
  assert.equal(body.match(/⚪ no change/g).length, 7);
  assert.match(body, /#### ❗ 1 job did not produce results\n\n- orders-api.cache-on.wrk.peak failed: wrk exited 1/);
  assert.match(body, /<sub>Runner: bench-1 · linux x64 · 2 × Test CPU<br>Commits: base `ccccccc` \(main\) → head `bbbbbbb`<br>Run: 20261122T101500Z-abc123 · profile quick<\/sub>\n$/);
});

test('headlines a clean pull request with ✅ no regressions, and says so when no base was measured', () => {
  const { base } = pr();
  const clean = compare(base, base.map((d) => ({ ...d, run: { ...d.run, role: 'head' } })), CONFIG.compare);
  assert.match(renderComment({ run: RUN, docs: base, comparisons: clean }), /^### benchline: ✅ no regressions, 9 unchanged, 1 inconclusive$/m);
  assert.match(renderComment({ docs: base }), /^### benchline: measured 2 benchmarks, no base to compare against$/m);
});

test('escapes markdown and HTML in benchmark names that come from a pull request', () => {
  const evil = '<img src=x onerror=alert(1)> | @octocat [x](javascript:alert(1)) `code` **b**\n# h';
  const c = { suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'hyperfine', scenario: 'cli', case: evil, metric: 'duration', unit: 'ns', better: 'lower', base: { value: 1e6, n: 5 }, head: { value: 2e6, n: 5 }, change: 1, lower: 0.9, upper: 1.1, p: 0.0079, minEffect: 0.03, verdict: 'regression', reason: 'r' };
  const body = renderComment({ comparisons: { comparisons: [c], unmatched: [] } });
  const row = body.split('\n').find((l) => l.includes('🔴'));
  assert.equal(row.split(/(?<!\\)\|/).length, 9, 'no extra table cells: every | inside the name is escaped');
  assert.ok(!body.includes('<img') && !body.includes('@octocat') && !body.includes('](javascript') && !body.includes('`code`') && !body.includes('**b**'));
  assert.equal(mdEscape('a<b>&@c:d|e'), 'a&lt;b&gt;&amp;&#64;c&#58;d\\|e');
});

test('keeps a comment with 6,000 compared metrics under 65,536 characters, dropping no-change rows first and saying how many', () => {
  const mk = (i, verdict) => ({ suite: 'orders-api', subject: 'orders-api', variant: `v${i % 7}`, tool: 'wrk', scenario: `s${i}`, metric: 'latency.p99', unit: 'ns', better: 'lower', base: { value: 1e6, n: 5 }, head: { value: 1.1e6, n: 5 }, change: 0.1, lower: 0.08, upper: 0.12, p: 0.0079, minEffect: 0.03, verdict, reason: 'r' });
  const list = Array.from({ length: 6000 }, (_, i) => mk(i, i < 40 ? 'regression' : i < 60 ? 'improvement' : i < 400 ? 'inconclusive' : 'no change'));
  const body = renderComment({ run: RUN, comparisons: { comparisons: list, unmatched: [] } });
  assert.ok(body.length <= GITHUB_LIMIT, `length ${body.length}`);
  assert.ok(body.length > GITHUB_LIMIT - 3000, 'uses the room it has');
  assert.equal(body.match(/🔴 regression/g).length, 40);
  assert.equal(body.match(/🟢 improvement/g).length, 20);
  assert.equal(body.match(/❔ inconclusive/g).length, 340);
  const kept = body.match(/⚪ no change/g).length;
  assert.match(body, new RegExp(`Left out to fit GitHub's comment size limit: ${(5600 - kept).toLocaleString('en-US')} no change rows\\.`));
  assert.match(body, /<details><summary>5,600 metrics with no change<\/summary>/);
  assert.match(body, /### benchline: ⚠️ 40 regressions, 20 improvements, 5,600 unchanged, 340 inconclusive/);
  const tight = renderComment({ comparisons: { comparisons: list, unmatched: [] }, limit: 8000 });
  assert.ok(tight.length <= 8000);
  assert.equal(tight.match(/🔴 regression/g).length, 40, 'regressions are the last rows to go');
  assert.equal((tight.match(/⚪ no change/g) || []).length, 0);
  assert.match(tight, /Left out to fit GitHub's comment size limit: \d+ inconclusive rows, 5,600 no change rows\./);
});

test('writes the job summary with variant tables, pairwise lines, the verdict table and a suite renderer override', () => {
  const { head, result } = pr();
  const md = renderSummary({ run: RUN, docs: head, comparisons: result, config: CONFIG });
  assert.match(md, /^## benchline: ⚠️ 1 regression, 1 improvement, 7 unchanged, 1 inconclusive$/m);
  assert.match(md, /^\| metric \| cache-off \| cache-on \|\n\| --- \| ---: \| ---: \|\n\| Throughput \| 15,242 \/s <sub>±0\.8%<\/sub> \| 24,693 \/s <sub>±0\.5%<\/sub> \|$/m);
  assert.match(md, /^- \*\*cache-on\*\* vs \*\*cache-off\*\*: ✓ Latency: 50\.0% faster · ✓ Throughput: 62\.0% higher$/m);
  assert.match(md, /^### Head vs base$/m);
  assert.match(md, /\| orders-api\/cache-on\/ab\/keepalive \| Throughput \| 27,436 \/s \| 24,693 \/s \| \*\*-10\.0%\*\* \|/);
  const custom = renderSummary({ run: RUN, docs: head, config: CONFIG, suiteMarkdown: { 'orders-api': '### Orders API, the seed table\n' } });
  assert.match(custom, /### Orders API, the seed table/);
  assert.doesNotMatch(custom, /\| metric \| cache-off/);
});

test('orders verdicts by importance: regressions by size, then improvements, inconclusive, no change; breakdown metrics last in each group', () => {
  const c = (metric, verdict, change) => ({ metric, verdict, change });
  const sorted = sortComparisons([
    c('latency.p50', 'no change', 0), c('connect.max', 'inconclusive', 0.2), c('throughput', 'regression', -0.05),
    c('ttfb.mean', 'regression', 0.5), c('latency.p99', 'inconclusive', 0.1), c('latency.p99', 'regression', 0.3), c('errors', 'improvement', -1),
  ]);
  assert.deepEqual(sorted.map((x) => `${x.verdict}:${x.metric}`), [
    'regression:latency.p99', 'regression:throughput', 'regression:ttfb.mean',
    'improvement:errors', 'inconclusive:latency.p99', 'inconclusive:connect.max', 'no change:latency.p50',
  ]);
});

test('aligns plain text tables: first column left, numbers right, a rule under each header', () => {
  assert.equal(textTable(['Metric', 'a', 'bb'], [['Average', '45.23', '12.3'], ['P95', '1', '152.34']]), [
    '  Metric       a      bb',
    '  ───────  ─────  ──────',
    '  Average  45.23    12.3',
    '  P95          1  152.34',
  ].join('\n'));
});

// ---------------------------------------------------------------- results folders and verbs

/** Writes a results root with one run (run.json, docs/<role>/<job>.json) and a `latest` link, as `benchline run` does. */
function writeResults({ docsByRole, jobs: extraJobs = [], run = RUN }) {
  const root = mkdtempSync(join(tmpdir(), 'benchline-results-'));
  const dir = join(root, run.id);
  const jobs = new Map();
  for (const [role, docs] of Object.entries(docsByRole)) {
    for (const d of docs) {
      const id = `${d.suite}.${d.variant}.${d.tool.name}.${d.scenario}`;
      const rel = `docs/${role}/${id}.json`;
      mkdirSync(join(dir, 'docs', role), { recursive: true });
      writeFileSync(join(dir, rel), JSON.stringify(d));
      if (!jobs.has(id)) jobs.set(id, { id, suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool.name, scenario: d.scenario, status: 'ok', docs: {} });
      jobs.get(id).docs[role] = rel;
    }
  }
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...run, config: 'bench.config.yaml', finishedAt: run.startedAt, jobs: [...jobs.values(), ...extraJobs] }));
  symlinkSync(run.id, join(root, 'latest'));
  const config = join(root, 'bench.config.yaml');
  writeFileSync(config, YAML.stringify({ version: 1, compare: CONFIG.compare, suites: { 'orders-api': { subject: 'orders-api', ...CONFIG.suites['orders-api'] } } }));
  return { root, dir, config };
}

const FAILED_JOB = { id: 'orders-api.cache-on.wrk.peak', suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', status: 'failed', reason: 'wrk exited 1', logTail: 'unable to connect', docs: {} };

test('loads a results folder by role with its failed jobs, through the latest link too', (t) => {
  const { base, head } = pr();
  const { root, dir } = writeResults({ docsByRole: { base, head }, jobs: [FAILED_JOB] });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const path of [dir, root]) {
    const loaded = loadResultsDir(path);
    assert.equal(loaded.run.id, RUN.id);
    assert.deepEqual(Object.keys(loaded.byRole).sort(), ['base', 'head']);
    assert.deepEqual(loaded.byRole.head.map((d) => d.variant), ['cache-off', 'cache-on']);
    assert.equal(loaded.docs.length, 4);
    assert.deepEqual(loaded.failures, [{ id: FAILED_JOB.id, suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', status: 'failed', reason: 'wrk exited 1', logTail: 'unable to connect' }]);
  }
  assert.deepEqual(Object.keys(loadDocuments(join(dir, 'docs', 'head')).byRole), ['head']);
  assert.equal(loadDocuments(join(dir, 'docs', 'base', 'orders-api.cache-on.ab.keepalive.json')).byRole.base[0].variant, 'cache-on');
});

test('names the file and the fix when a results folder is missing, truncated or holds an invalid document', (t) => {
  const { base } = pr();
  const { root, dir } = writeResults({ docsByRole: { local: base } });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.throws(() => loadResultsDir(join(root, 'nope')), /nope: no such folder; pass a folder written by `benchline run`/);
  const docFile = join(dir, 'docs/local/orders-api.cache-off.ab.keepalive.json');
  writeFileSync(docFile, '{"schema": "benchline/result@1", "metr');
  assert.throws(() => loadResultsDir(dir), (e) => e.message.startsWith(`${docFile}: result document is not valid JSON`) && /re-run `benchline run`/.test(e.message));
  writeFileSync(docFile, JSON.stringify({ ...base[0], metrics: [] }));
  assert.throws(() => loadResultsDir(dir), (e) => e.message.startsWith(`${docFile} does not match benchline/result@1`) && /\/metrics must NOT have fewer than 1 items/.test(e.message));
  writeFileSync(join(dir, 'run.json'), '{"schema":"other"}');
  assert.throws(() => loadResultsDir(dir), /run\.json: not a benchline\/run@1 document/);
});

const cli = (args, opts = {}) => spawnSync(process.execPath, [join(ROOT, 'ci/cli.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30000, ...opts });

test('benchline compare prints verdicts as JSON and exits 1 on a regression only with --fail-on-regression', (t) => {
  const { base, head } = pr();
  const { root, dir, config } = writeResults({ docsByRole: { base, head } });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const plain = cli(['compare', root, '--config', config]);
  assert.equal(plain.status, 0, plain.stderr);
  const json = JSON.parse(plain.stdout);
  assert.deepEqual(json.counts, { regression: 1, improvement: 1, inconclusive: 1, 'no change': 7 });
  assert.equal(json.comparisons.length, 10);
  const failing = cli(['compare', join(dir, 'docs/base'), join(dir, 'docs/head'), '--fail-on-regression', '--config', config]);
  assert.equal(failing.status, 1);
  assert.deepEqual(JSON.parse(failing.stdout).counts, json.counts);
  assert.throws(() => compareCommand({ args: [join(dir, 'docs/head')], config }), /holds head documents but not both base and head; measure with `benchline run --base <ref>`/);
});

test('benchline report renders console, comment, summary and suite formats of a results folder', async (t) => {
  const { base, head } = pr();
  const { root, dir, config } = writeResults({ docsByRole: { base, head }, jobs: [FAILED_JOB] });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const consoleOut = cli(['report', root, '--config', config]);
  assert.equal(consoleOut.status, 0, consoleOut.stderr);
  assert.match(consoleOut.stdout, /HEAD VS BASE {2}1 regression, 1 improvement, 7 unchanged, 1 inconclusive/);
  assert.match(consoleOut.stdout, /✗ orders-api\.cache-on\.wrk\.peak \(failed\): wrk exited 1/);
  const read = async (format) => {
    const file = join(root, `${format}.out`);
    assert.equal(await report({ args: [dir], format, output: file, config }), 0);
    return readFileSync(file, 'utf8');
  };
  assert.ok((await read('comment')).startsWith(`${MARKER}\n\n### benchline: ⚠️ 1 regression`));
  assert.match(await read('summary'), /^## benchline: ⚠️ 1 regression/);
  assert.match(await read('suite'), /suite orders-api has no `report:` renderer; this is the generic table/);
  writeFileSync(config, 'version: 1\nsuites:\n  orders-api:\n    subject: orders-api\n    report: subjects/no-such/report.js\n    variants: { cache-off: {}, cache-on: {} }\n    jobs: [{ tool: ab, scenario: keepalive }]\n');
  await assert.rejects(read('suite'), /suites\.orders-api\.report names "subjects\/no-such\/report\.js", which does not exist; add it or remove `report:`/);
  writeFileSync(config, 'version: 1\nsuites:\n  orders-api:\n    subject: orders-api\n    report: ../outside.js\n    variants: { cache-off: {}, cache-on: {} }\n    jobs: [{ tool: ab, scenario: keepalive }]\n');
  await assert.rejects(read('suite'), /suites\.orders-api\.report "\.\.\/outside\.js" must be a \.js file inside the project/);
});

test('benchline report says which folder is wrong and how to make a right one', () => {
  const r = cli(['report', '/nonexistent/results']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'benchline report: /nonexistent/results: no such folder; pass a folder written by `benchline run` (results/<run-id>) or its parent\n');
  assert.equal(execFileSync('git', ['status', '--porcelain', '--', 'results'], { cwd: ROOT, encoding: 'utf8' }), '', 'the verbs write nothing into the project');
});

test('counts read with thousands separators, also when averaged over trials into a fraction', () => {
  assert.deepEqual(
    [18168.6, 35514, 999.25, 12, 1234567.4, -2500.6].map((v) => formatValue(v, 'count')),
    ['18,169', '35,514', '999.3', '12', '1,234,567', '-2,501'],
  );
});

test('the comment says the check fails on a regression when compare.failOnRegression is on, and nothing of it when off', () => {
  const { base, head } = pr();
  const result = compare(base, head, { minEffect: 0.03, confidence: 0.95, metrics: {} }, { seed: 1 });
  assert.equal(result.counts.regression, 1);
  const line = /The bench check fails on this regression \(`compare\.failOnRegression` in bench\.config\.yaml\)\./;
  assert.match(renderComment({ run: RUN, docs: head, comparisons: result, config: { compare: { failOnRegression: true } } }), line);
  assert.doesNotMatch(renderComment({ run: RUN, docs: head, comparisons: result, config: { compare: { failOnRegression: false } } }), /check fails/);
  const clean = compare(base, base, { minEffect: 0.03, confidence: 0.95, metrics: {} }, { seed: 1 });
  assert.doesNotMatch(renderComment({ run: RUN, docs: base, comparisons: clean, config: { compare: { failOnRegression: true } } }), /check fails/);
});

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
import { formatValue, grouped } from '../ci/units.js';
import { compare } from '../ci/compare.js';
import { parse as parseAb } from '../ci/adapters/ab.js';
import { parse as parseJmh } from '../ci/adapters/jmh.js';
import { render as renderConsole } from '../ci/reports/console.js';
import { render as renderComment, MARKER, GITHUB_LIMIT } from '../ci/reports/comment.js';
import { render as renderSummary } from '../ci/reports/summary.js';
import { mdEscape, pairItems, pairMethod, smallestP, smallestPairedP, sortComparisons, textTable, variantsPaired } from '../ci/reports/format.js';
import { loadResultsDir, loadDocuments } from '../ci/results-dir.js';
import report, { renderReport, reportData } from '../ci/commands/report.js';
import compareCommand from '../ci/commands/compare.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MS = 1e6;
const RUNNER = { name: 'bench-1', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 24 * 1024 ** 3, labels: [] };

// ab reports percentiles in whole milliseconds: their resolution, as the ab adapter records it.
const RESOLUTION = { 'latency.p50': 1e6, 'latency.p99': 1e6 };

/**
 * A schema-valid result document from per-trial samples ({ 'name' or 'name@case': [trial values] }),
 * built through the same buildResult the runner uses. Numbers follow the seed's ab report (orders-api).
 * Documents of one run id with as many trials pair round by round, as base and head of `benchline run --base` do.
 */
function doc({ suite = 'orders-api', variant, tool = 'ab', version = '2.3', scenario = 'keepalive', role = 'local', commit = 'a'.repeat(40), runId = '20261122T101500Z-abc123', metrics, params = { requests: 20000, concurrency: 50 }, judge }) {
  const keys = Object.keys(metrics);
  const n = metrics[keys[0]].length;
  const trials = Array.from({ length: n }, (_, i) => ({
    metrics: keys.map((k) => {
      const [name, c] = k.split('@');
      return metric(name, metrics[k][i], { ...(c ? { case: c } : {}), ...(tool === 'ab' && RESOLUTION[name] ? { resolution: RESOLUTION[name] } : {}) });
    }),
  }));
  return buildResult({
    run: { id: runId, startedAt: '2026-11-22T10:15:00.000Z', commit, ref: 'main', trigger: 'local', role },
    runner: RUNNER, suite, subject: suite, variant, scenario, tool: { name: tool, version }, params, trials, judge,
  }, 'test document');
}

const ms = (xs) => xs.map((x) => x * MS);
const zeros = (n) => new Array(n).fill(0);
// Eight rounds a side: the seed's first figure, then the spread of a quiet machine.
const OFF = {
  throughput: [15241.97, 15180.2, 15302.5, 15120.8, 15275.3, 15210.4, 15330.1, 15190.6],
  'latency.mean': ms([65.608, 65.1, 66.2, 65.9, 65.3, 65.7, 65.4, 66.0]),
  'latency.p50': ms([55, 55, 54, 56, 55, 55, 54, 56]),
  'latency.p99': ms([262, 250, 270, 262, 255, 258, 266, 260]),
  errors: zeros(8),
  error_rate: zeros(8),
};
const ON = {
  throughput: [27436.34, 27310.1, 27502.9, 27390.6, 27450.2, 27380.5, 27520.7, 27360.9],
  'latency.mean': ms([36.448, 36.1, 36.9, 36.5, 36.2, 36.6, 36.3, 36.7]),
  'latency.p50': ms([22, 22, 21, 23, 22, 22, 21, 23]),
  'latency.p99': ms([235, 240, 230, 236, 250, 238, 232, 244]),
  errors: zeros(8),
  error_rate: zeros(8),
};
const CONFIG = {
  compare: { confidence: 0.95, alpha: 0.05 },
  suites: { 'orders-api': { description: 'In-memory cache on GET /api/order/all-items', variants: { 'cache-off': {}, 'cache-on': {} }, jobs: [{ tool: 'ab', scenario: 'keepalive' }] } },
};
const RUN = { schema: 'benchline/run@1', id: '20261122T101500Z-abc123', startedAt: '2026-11-22T10:15:00.000Z', profile: 'quick', base: { ref: 'main', commit: 'c'.repeat(40) }, head: { commit: 'b'.repeat(40), dirty: false } };

/** Per-round factors: head_i = base_i × f × (1 + jitter_i); small alternating jitter keeps every round on one side of f. */
const JITTER = [0.004, -0.003, 0.002, -0.001, 0.003, -0.002, 0.001, -0.004];
const NOISE = [0.06, -0.05, 0.07, -0.04, 0.05, -0.06, 0.04, -0.03];
const shifted = (m, name, f, jitter = JITTER) => ({ ...m, [name]: m[name].map((x, i) => x * f * (1 + jitter[i])) });

/**
 * Base and head of both variants from one run (8 paired rounds). The judged metrics of ab are throughput,
 * latency.mean and error_rate: cache-on lost 10% throughput (regression), cache-off's mean latency fell 20%
 * (improvement), cache-on's mean latency moved ±3-7% per round (inconclusive), cache-off's throughput moved
 * ±0.2% (no change), error_rate stayed 0 (no change). p50 and p99 are information only: cache-off's p50 fell 20%
 * without a verdict.
 */
function pr() {
  const base = [doc({ variant: 'cache-off', role: 'base', metrics: OFF }), doc({ variant: 'cache-on', role: 'base', metrics: ON })];
  const off = shifted(shifted(OFF, 'latency.mean', 0.8), 'throughput', 1, JITTER.map((j) => j / 2));
  const on = shifted(shifted(ON, 'throughput', 0.9), 'latency.mean', 1, NOISE);
  const head = [doc({ variant: 'cache-off', role: 'head', metrics: { ...off, 'latency.p50': OFF['latency.p50'].map((x) => x * 0.8) } }), doc({ variant: 'cache-on', role: 'head', metrics: on })];
  return { base, head, result: compare(base, head, CONFIG.compare) };
}

test("a JMH job of one trial says its ± is JMH's own interval, not a bootstrap over trials it does not have", () => {
  const parsed = parseJmh(readFileSync(join(ROOT, 'test/fixtures/jmh/avgt-gc.json'), 'utf8'));
  const d = buildResult({
    run: { id: '20261122T101500Z-abc123', startedAt: '2026-11-22T10:15:00.000Z', commit: 'a'.repeat(40), ref: 'main', trigger: 'local', role: 'local' },
    runner: RUNNER, suite: 'ser', subject: 'ser', variant: 'default', scenario: 'avgt', tool: { name: 'jmh', version: '1.37' }, params: {}, trials: [parsed],
  }, 'test document');
  const out = renderConsole({ docs: [d], config: { compare: { confidence: 0.95 }, suites: { ser: { variants: { default: {} }, jobs: [{ tool: 'jmh', scenario: 'avgt' }] } } } });
  assert.match(out, /^ {2}±: the wider side of the 99\.9% interval the tool gave for its one trial \(JMH: score ± error\), relative to the value$/m);
  assert.doesNotMatch(out, /bootstrap interval/);
  const md = renderSummary({ docs: [d], config: { compare: { confidence: 0.95 }, suites: { ser: { variants: { default: {} }, jobs: [{ tool: 'jmh', scenario: 'avgt' }] } } } });
  assert.match(md, /^<sub>±: the wider side of the 99\.9% interval the tool gave for its one trial \(JMH: score ± error\), relative to the value\. ✓\/✗: a decided difference; ≈: not decided\.<\/sub>$/m);
  assert.doesNotMatch(md, /bootstrap interval/);
});

test('report --detail shows the breakdown metrics the console table otherwise only counts', async () => {
  const data = { run: RUN, docs: [doc({ variant: 'cache-on', metrics: ON }), doc({ variant: 'cache-off', metrics: OFF })], failures: [], config: CONFIG };
  const plain = await renderReport('console', data);
  const detailed = await renderReport('console', data, { detail: true });
  assert.match(plain, /\(1 more metric in the result documents\)/);
  assert.doesNotMatch(detailed, /more metrics? in the result documents/);
  assert.doesNotMatch(plain, /^ {2}Error rate /m);
  assert.match(detailed, /^ {2}Error rate {2,}0 % {2,}0 %$/m);
});

test('renders each tool/scenario as a metric-by-variant table in config order, like the seed report, and says what ± is', () => {
  const out = renderConsole({ docs: [doc({ variant: 'cache-on', metrics: ON }), doc({ variant: 'cache-off', metrics: OFF })], config: CONFIG });
  assert.ok(out.startsWith('╔══'), 'opens with the banner box');
  assert.match(out, /║ {21}BENCHLINE PERFORMANCE REPORT {21}║/);
  assert.match(out, /^ORDERS-API {2}In-memory cache on GET \/api\/order\/all-items$/m);
  assert.match(out, /^AB · keepalive {2}\(ab 2\.3, 8 trials; requests=20000 concurrency=50\)$/m);
  const table = out.slice(out.indexOf('  Metric'), out.indexOf('\n\n', out.indexOf('  Metric')));
  // Medians of the eight trials: throughput (15,210.4 + 15,241.97) / 2 and (27,390.6 + 27,436.34) / 2.
  assert.equal(table, [
    '  Metric             cache-off         cache-on',
    '  ───────────  ───────────────  ───────────────',
    '  Throughput   15,226 /s ±0.5%  27,413 /s ±0.3%',
    '  Latency avg   65.65 ms ±0.5%   36.47 ms ±0.8%',
    '  Latency p50      55 ms ±1.8%      22 ms ±4.5%',
    '  Latency p99     261 ms ±2.3%     237 ms ±3.0%',
    '  Errors                     0                0',
    '  (1 more metric in the result documents)',
  ].join('\n'));
  assert.equal(out.match(/^ {2}±: the wider side of the 95% bootstrap interval of the median over the block's trials, relative to the median$/gm).length, 1, 'the ± legend once');
  assert.equal(out.match(/^ {2}Metric /gm).length, 1, 'each table once');
});

test('a zero of a tool that measures in whole milliseconds reads "0 ms" in the variant tables of the console and the job summary, not "0 ns"', () => {
  // ab's report of nginx answering in under a millisecond (test/fixtures/ab/variable-length): p50 0 ms
  const r = parseAb(readFileSync(fileURLToPath(new URL('./fixtures/ab/variable-length.txt', import.meta.url)), 'utf8'));
  const p50 = r.metrics.find((m) => m.name === 'latency.p50');
  assert.deepEqual([p50.value, p50.resolution], [0, 1e6], 'the fixture\'s p50 is a whole-ms zero');
  const d = buildResult({ run: { id: 'r', startedAt: '2026-11-27T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' }, runner: { name: 't', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 't', memoryBytes: 0, labels: [] }, suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', scenario: 'keepalive', tool: { name: 'ab', version: '2.3' }, params: {}, trials: [r] }, 'keepalive');
  for (const out of [renderConsole({ docs: [d], config: CONFIG }), renderSummary({ docs: [d], config: CONFIG })]) {
    assert.match(out, /Latency p50\W+0 ms\b/);
    assert.doesNotMatch(out, /Latency p50\W+0 ns/);
  }
});

test('summarizes cache-on against cache-off in the seed wording, naming the latency it uses: Latency p50 60.0% faster, 80.0% higher', () => {
  const out = renderConsole({ docs: [doc({ variant: 'cache-off', metrics: OFF }), doc({ variant: 'cache-on', metrics: ON })], config: CONFIG });
  assert.match(out, /^ {2}cache-on vs cache-off \(8 \+ 8 trials, unpaired\): ✓ Latency p50: 60\.0% faster · ✓ Throughput: 80\.0% higher$/m);
  const k6 = (variant, mean) => doc({ suite: 'catalog', variant, tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.mean': ms(mean) } });
  assert.equal(pairItems(k6('a', [40, 41, 42, 43]), k6('b', [10, 11, 12, 13]))[0].text, '✓ Latency avg: 72.3% faster', 'without p50 the mean is used and named');
});

test('a throughput the load set (ghz paced at --rps) is no headline of a variant against another: both ran at the rate asked for', () => {
  const paced = (variant, rps) => {
    const d = doc({ suite: 'grpc', variant, tool: 'ghz', version: '0.93.0', scenario: 'paced', metrics: { 'latency.p50': ms([2, 2.1, 2.05, 2.02, 2.03].map((x) => x * (variant === 'b' ? 0.5 : 1))), throughput: rps } });
    return { ...d, metrics: d.metrics.map((m) => (m.name === 'throughput' ? { ...m, setBy: 'ghz paced its calls at --rps=200' } : m)) };
  };
  const items = pairItems(paced('a', [199, 199.2, 199.1, 199.3, 199.2]), paced('b', [199.9, 199.8, 199.9, 200, 199.9]));
  assert.deepEqual(items.map((i) => i.metric), ['latency.p50'], 'not "✓ Throughput: 0.4% higher"');
});

test('compares three variants pairwise in the seed order (b vs a, c vs a, c vs b) and marks a worse one with ✗, an unproven one with ≈', () => {
  const a = doc({ suite: 'catalog', variant: 'hateoas', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([43.11, 43, 44, 43.2, 42.9]), response_bytes: [15234, 15234, 15234, 15234, 15234] } });
  const b = doc({ suite: 'catalog', variant: 'stream', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([11.89, 11.8, 12, 11.9, 11.7]), response_bytes: [3456, 3456, 3456, 3456, 3456] } });
  const c = doc({ suite: 'catalog', variant: 'grpc', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([8.12, 8.1, 8.2, 8.0, 8.15]), response_bytes: [2123, 2123, 2123, 2123, 2123] } });
  const config = { suites: { catalog: { variants: { hateoas: {}, stream: {}, grpc: {} } } } };
  const lines = renderConsole({ docs: [c, b, a], config }).split('\n').filter((l) => l.includes(' vs '));
  assert.deepEqual(lines, [
    '  stream vs hateoas (5 + 5 trials, unpaired): ✓ Latency p50: 72.4% faster · ✓ Size: 77.3% smaller',
    '  grpc vs hateoas (5 + 5 trials, unpaired): ✓ Latency p50: 81.2% faster · ✓ Size: 86.1% smaller',
    '  grpc vs stream (5 + 5 trials, unpaired): ✓ Latency p50: 31.7% faster · ✓ Size: 38.6% smaller',
  ]);
  const worse = pairItems(b, a).find((i) => i.metric === 'latency.p50');
  assert.equal(worse.text, '✗ Latency p50: 262.6% slower');
  assert.equal(worse.method, 'unpaired');
  const noisy = doc({ suite: 'catalog', variant: 'stream', tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms([30, 60, 45, 35, 50]) } });
  assert.equal(pairItems(a, noisy)[0].text, '≈ Latency p50: 4.4% slower (not significant)');
});

test('a variant line marks errors ✗ or ✓ only for a difference its test decided: one error in a few of five trials is ≈, errors in every trial are ✗', () => {
  const ab = (variant, errors) => doc({ variant, metrics: { throughput: [15241.97, 15180.2, 15302.5, 15120.8, 15275.3].slice(0, errors.length), errors } });
  const stray = pairItems(ab('cache-off', [0, 0, 0, 0, 0]), ab('cache-on', [0, 1, 0, 1, 1])).find((i) => i.metric === 'errors');
  assert.equal(stray.text, '≈ Errors: 0 → 1 (not significant)', 'the median moved from 0 to 1, but 3 of 5 trials with an error is no finding');
  const every = pairItems(ab('cache-off', [0, 0, 0, 0, 0]), ab('cache-on', [3, 4, 2, 5, 3])).find((i) => i.metric === 'errors');
  assert.equal(every.text, '✗ Errors: 0 → 3');
  const fewer = pairItems(ab('cache-off', [3, 4, 2, 5, 3]), ab('cache-on', [0, 0, 0, 0, 0])).find((i) => i.metric === 'errors');
  assert.equal(fewer.text, '✓ Errors: 3 → 0');
  const three = pairItems(ab('cache-off', [0, 0, 0]), ab('cache-on', [2, 2, 2])).find((i) => i.metric === 'errors');
  assert.equal(three.text, '≈ Errors: 0 → 2 (3 and 3 trials cannot show significance; run more)');
});

test('says when too few trials can never show significance, however large the difference, and tests from 4 a side', () => {
  assert.equal(smallestP(3, 3), 0.1);
  assert.ok(Math.abs(smallestP(4, 4) - 2 / 70) < 1e-12);
  assert.equal(smallestP(1, 5), 2 / 6);
  assert.equal(smallestP(1, 1), 1);
  assert.equal(smallestPairedP(5), 0.0625);
  assert.equal(smallestPairedP(6), 0.03125);
  const mk = (variant, values) => doc({ suite: 'catalog', variant, tool: 'k6', version: 'v1.8.1', scenario: 'page', metrics: { 'latency.p50': ms(values) } });
  const slow = mk('hateoas', [40, 41, 42]);
  const fast = mk('stream', [10, 11, 12]);
  assert.equal(pairItems(slow, fast)[0].text, '≈ Latency p50: 73.2% faster (3 and 3 trials cannot show significance; run more)');
  assert.equal(pairItems(mk('hateoas', [40, 41, 42, 43]), mk('stream', [10, 11, 12, 13]))[0].text, '✓ Latency p50: 72.3% faster');
  // Paired, five rounds: the signed-rank test cannot go below 2/2^5 = 0.0625, so even a 4x difference stays undecided.
  const five = pairItems(mk('hateoas', [40, 41, 42, 43, 44]), mk('stream', [10, 11, 12, 13, 14]), { paired: true })[0];
  assert.equal(five.text, '≈ Latency p50: 71.4% faster (5 paired rounds cannot show significance; run more)');
  // the variant line decides like compare(): the same reason, with alpha, as a PR verdict would give
  assert.match(five.reason, /^5 rounds can never be significant .* run at least 6 rounds \(a job without trials: adds rounds until its metrics are decided, within --budget and compare\.budget; one with trials: runs that many\)$/);
});

// ---------------------------------------------------------------- variants in rounds

/** Two variants of an interleaved suite: trial t of each ran in round t of one run. */
function rounds(refValues, otherValues, { runId, metric: name = 'latency.p50', unit = ms } = {}) {
  const mk = (variant, values) => doc({ suite: 'catalog', variant, tool: 'k6', version: 'v1.8.1', scenario: 'page', runId, metrics: { [name]: unit(values) } });
  return [mk('hateoas', refValues), mk('stream', otherValues)];
}

test('judges variants of an interleaved suite from paired rounds: a decided difference gets ✓/✗, the rest ≈ with the reason', () => {
  // A drifting machine: the reference climbs from 40 to 54 ms; the other variant is 3% faster in every round.
  const drift = [40, 42, 44, 46, 48, 50, 52, 54];
  const [ref, faster] = rounds(drift, drift.map((x, i) => x * 0.97 * (1 + JITTER[i])));
  const paired = pairItems(ref, faster, { paired: true });
  assert.equal(paired[0].text, '✓ Latency p50: 2.9% faster');
  assert.deepEqual([paired[0].method, paired[0].verdict, paired[0].rounds, paired[0].p], ['paired', 'improvement', 8, 2 / 256]);
  // The same numbers judged as two independent sets: the drift swamps 3% (Mann-Whitney sees overlapping sets).
  assert.equal(pairItems(ref, faster)[0].text, '≈ Latency p50: 2.9% faster (not significant)');
  // Within ±2% every round: no change, said as such.
  const [r2, same] = rounds(drift, drift.map((x, i) => x * (1 + JITTER[i])));
  const flat = pairItems(r2, same, { paired: true })[0];
  assert.equal(flat.text, '≈ Latency p50: 0.1% slower (no difference beyond ±2.0%)');
  assert.equal(flat.verdict, 'no change');
  // Noisy rounds: undecided, with how many more rounds would likely settle it.
  const [r3, noisy] = rounds(drift, drift.map((x, i) => x * (1 + NOISE[i])));
  assert.match(pairItems(r3, noisy, { paired: true })[0].text, /^≈ Latency p50: \d+\.\d% (faster|slower) \(undecided; about \d+ more rounds would likely settle it\)$/);
  // ab percentiles in whole milliseconds: equal in every round is below the tool's resolution, not "no change".
  const abDoc = (variant) => doc({ variant, runId: 'r-ab', metrics: { 'latency.p50': ms([22, 22, 21, 23, 22, 22, 21, 23]) } });
  assert.equal(pairItems(abDoc('cache-off'), abDoc('cache-on'), { paired: true })[0].text, '≈ Latency p50: same (below the tool\'s resolution)');
});

test('pairs variants only when the suite interleaves them and both documents come from one run with as many trials', () => {
  const drift = [40, 42, 44, 46, 48, 50, 52, 54];
  const [ref, other] = rounds(drift, drift.map((x) => x * 0.9));
  assert.equal(variantsPaired(ref, other, true), true);
  assert.equal(variantsPaired(ref, other, false), false, 'variants run one after the other do not pair by trial number');
  assert.equal(variantsPaired(ref, { ...other, run: { ...other.run, id: 'another-run' } }, true), false);
  assert.equal(variantsPaired(ref, rounds(drift, drift.slice(0, 7))[1], true), false, 'a variant stopped early has fewer trials');
  assert.equal(pairMethod(ref, other, true), 'paired, 8 rounds');
  assert.equal(pairMethod(ref, other, false), '8 + 8 trials, unpaired');
  const config = { suites: { catalog: { interleave: 'variants', variants: { hateoas: {}, stream: {} } } } };
  const out = renderConsole({ docs: [ref, other], config });
  assert.match(out, /^ {2}stream vs hateoas \(paired, 8 rounds\): ✓ Latency p50: 10\.0% faster$/m);
  assert.match(renderSummary({ docs: [ref, other], config }), /^- \*\*stream\*\* vs \*\*hateoas\*\* <sub>\(paired, 8 rounds\)<\/sub>: ✓ Latency p50: 10\.0% faster$/m);
});

test('lists head-vs-base judged metrics with verdicts (regressions first), why, and the information-only metrics compactly', () => {
  const { head, result } = pr();
  const out = renderConsole({ run: RUN, docs: head, comparisons: result, failures: [], config: CONFIG });
  assert.match(out, /^Head bbbbbbb · base ccccccc \(main\)$/m);
  assert.match(out, /^HEAD VS BASE {2}1 regression, 1 improvement, 3 unchanged, 1 inconclusive$/m);
  assert.match(out, /^ {2}6 judged metrics \(each job's key metrics; 4 tested together, Benjamini-Hochberg at 5%\); 6 more shown as information\.$/m);
  const rows = out.split('\n').filter((l) => /^ {2}orders-api\//.test(l));
  assert.deepEqual(rows, [
    '  orders-api/cache-on/ab/keepalive   Throughput   27,413 /s  24,703 /s  -10.0%   [-10.3%, -9.7%]         ±2%  8 paired  regression',
    '  orders-api/cache-off/ab/keepalive  Latency avg   65.65 ms   52.52 ms  -20.0%  [-20.2%, -19.8%]         ±2%  8 paired  improvement',
    '  orders-api/cache-on/ab/keepalive   Latency avg   36.47 ms   36.68 ms   +0.4%    [-5.0%, +6.0%]         ±2%  8 paired  inconclusive',
    '  orders-api/cache-off/ab/keepalive  Throughput   15,226 /s  15,234 /s   +0.0%    [-0.1%, +0.1%]         ±2%  8 paired  no change',
    '  orders-api/cache-off/ab/keepalive  Error rate         0 %        0 %   +0.0%    [+0.0%, +0.0%]         ±2%  8 paired  no change',
    '  orders-api/cache-on/ab/keepalive   Error rate         0 %        0 %   +0.0%    [+0.0%, +0.0%]         ±2%  8 paired  no change',
  ], 'judged metrics only, each once');
  // Eight rounds all on one side: the exact signed-rank p is 2 / 2^8.
  assert.match(out, /^ {4}orders-api\/cache-on\/ab\/keepalive Throughput: regression, p=0\.0078, a discovery in the family; interval -10\.3%\.\.-9\.7% excludes 0; \|change\| ≥ 2\.0%$/m);
  assert.match(out, /^ {4}orders-api\/cache-on\/ab\/keepalive Latency avg: inconclusive, not settled yet: equivalence interval -4\.5%\.\.\+5\.5% \(90%\) reaches past ±2\.0% and interval -5\.0%\.\.\+6\.0% \(p=0\.\d+\) is not a discovery; about \d+ more rounds would likely settle it$/m);
  assert.match(out, /^ {2}Information only \(6 metrics, change shown, no verdict: not a job's key metric, or a restated run parameter\):$/m);
  assert.match(out, /^ {4}orders-api\/cache-off\/ab\/keepalive: Latency p50 -20\.0%, Latency p99 \+0\.0%, Errors \+0\.0%$/m);
  assert.doesNotMatch(out, /Latency p50 .*improvement/, 'an information-only metric gets no verdict however large its change');
  assert.doesNotMatch(out, /\x1b\[/, 'no colour codes unless asked');
  assert.match(renderConsole({ docs: head, comparisons: result, config: CONFIG, color: true }), /\x1b\[31mregression\x1b\[0m/);
});

test('shows a judged metric whose change is below the tool\'s resolution as such, outside the verdict counts', () => {
  const judge = ['throughput', 'latency.p50'];
  const base = doc({ variant: 'cache-on', role: 'base', metrics: ON, judge });
  const head = doc({ variant: 'cache-on', role: 'head', metrics: shifted(ON, 'throughput', 1, JITTER.map((j) => j / 2)), judge });
  const result = compare([base], [head], CONFIG.compare);
  const p50 = result.comparisons.find((c) => c.metric === 'latency.p50');
  assert.equal(p50.verdict, 'below resolution');
  assert.deepEqual(result.counts, { regression: 0, improvement: 0, inconclusive: 0, 'no change': 1 });
  const out = renderConsole({ docs: [head], comparisons: result, config: CONFIG });
  assert.match(out, /^HEAD VS BASE {2}no regressions, 1 unchanged$/m);
  assert.match(out, /^ {2}2 judged metrics \(each job's key metrics; 1 tested together, Benjamini-Hochberg at 5%\), 1 below the tool's resolution \(no verdict\); 4 more shown as information\.$/m);
  assert.match(out, /^ {2}orders-api\/cache-on\/ab\/keepalive {2}Latency p50 +22 ms +22 ms +\+0\.0% +\[\+0\.0%, \+0\.0%\] +±2% +8 paired {2}below resolution$/m);
  assert.match(out, /Latency p50: below resolution, the change is no larger than the tool's resolution \(1 ms\), which rounding alone can make; it cannot be judged/);
  const body = renderComment({ comparisons: result });
  assert.match(body, /^2 judged metrics: 1 no change · 1 below the tool's resolution \(no verdict\); 4 more metrics shown as information\./m);
  assert.match(body, /\| orders-api\/cache-on\/ab\/keepalive \| Latency p50 \| 22 ms \| 22 ms \| \+0\.0% \| the change is no larger than the tool&#39;s resolution/);
});

test('duet jobs are marked as such: "duet rounds" in the findings, what duet figures are in the job heading and under the console table', () => {
  const { base, head } = pr();
  const duetHead = head.map((d) => ({ ...d, duet: true }));
  const result = compare(base.map((d) => ({ ...d, duet: true })), duetHead, CONFIG.compare);
  const body = renderComment({ run: RUN, docs: duetHead, comparisons: result });
  assert.match(body, /^- 🔴 orders-api\/cache-on\/ab\/keepalive · \*\*Throughput\*\*: \*\*-10\.0%\*\* .*\(p=0\.0078, 8 duet rounds\)$/m);
  assert.match(body, /^\*\*orders-api\/cache-on\/ab\/keepalive\*\* · 8 rounds as duets \(base and head ran at the same time on shared cores: each figure is what that side did beside the other, not a run alone \(a saturated subject gets about half\); the change between them is the measurement\)$/m);
  assert.match(body, /^\*\*orders-api\/cache-off\/ab\/keepalive\*\* · 8 rounds as duets$/m, 'the next duet job is not told again');
  assert.equal(body.split('base and head ran at the same time').length - 1, 1, 'what duet figures are is said once');
  const out = renderConsole({ docs: duetHead, comparisons: result, config: CONFIG });
  assert.match(out, /^ {2}orders-api\/cache-on\/ab\/keepalive +Throughput .* 8 duet {2}regression$/m);
  assert.match(out, /^ {2}duet: base and head ran at the same time on shared cores/m);
  assert.match(out, /^ {2}Measured as duets in this A\/B run: ab\/keepalive\. Their figures are what each side did beside the other/m, 'said under the suite tables too');
  // rounds in turn: none of it
  const turns = renderConsole({ docs: head, comparisons: compare(base, head, CONFIG.compare), config: CONFIG });
  assert.doesNotMatch(turns, /duet/);
  assert.doesNotMatch(renderComment({ run: RUN, docs: head, comparisons: compare(base, head, CONFIG.compare) }), /duet/);
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

test('a Node subject that crashed at start is reported by its error line, not by the stack frames and version line after it', () => {
  // captured from node v20.20.2 (test/fixtures/logs/node-crash.cmd): the error is 6 lines above the end
  const logTail = readFileSync(join(ROOT, 'test/fixtures/logs/node-crash.log'), 'utf8');
  const failures = [{ id: 'api.default.ab.items', status: 'failed', reason: 'subject process api/app exited (code 1) before it was healthy. Last lines of app.log:', logTail }];
  const error = 'Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:htp';
  const out = renderConsole({ run: RUN, docs: [], failures, config: CONFIG });
  assert.ok(out.includes(`      | ${error}\n      | …\n`), out);
  assert.match(out, /^ {6}\| Node\.js v20\.20\.2$/m, 'the last lines still follow it');
  const comment = renderComment({ run: RUN, docs: [], failures });
  assert.match(comment, /Last lines of app\.log&#58; Error \\\[ERR\\_UNKNOWN\\_BUILTIN\\_MODULE\\\]&#58; No such built-in module&#58; node&#58;htp$/m);
  assert.doesNotMatch(comment, /Node\.js v20/);
  // a log that ends in what went wrong is shown as it ends
  const plain = renderConsole({ run: RUN, docs: [], failures: [{ ...failures[0], logTail: 'a\nb\nc\nd\ne\nf\nError: listen EADDRINUSE' }], config: CONFIG });
  assert.doesNotMatch(plain, /…/);
});

test('a crash log with Windows line ends is reported by its error line too, and a tail of one or two lines stays that short', async () => {
  const { shownLogLines, tellingLine } = await import('../ci/reports/format.js');
  const log = readFileSync(join(ROOT, 'test/fixtures/logs/node-crash.log'), 'utf8');
  const error = 'Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:htp';
  assert.equal(tellingLine(log.replace(/\n/g, '\r\n')), error);
  assert.deepEqual(shownLogLines(log.replace(/\n/g, '\r\n'), 3), [error, '…', 'Node.js v20.20.2']);
  assert.deepEqual(shownLogLines(log, 2), [error, '…']);
  assert.deepEqual(shownLogLines(log, 1), [error, '…']);
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
  assert.match(out, /cache-on vs cache-off \(3 \+ 3 trials, unpaired\): .*≈ Throughput: 6\.2% higher \(3 and 3 trials cannot show significance; run more\)/);
  assert.match(out, /\(\d+ more metrics in the result documents\)/);
  // The same trials as paired rounds of an interleaved suite: three pairs cannot show significance either.
  const interleaved = { ...CONFIG, suites: { 'orders-api': { ...CONFIG.suites['orders-api'], interleave: 'variants' } } };
  assert.match(renderConsole({ docs: [mk('cache-off'), mk('cache-on')], config: interleaved }), /cache-on vs cache-off \(paired, 3 rounds\): .*≈ Throughput: 6\.2% higher \(3 paired rounds cannot show significance; run more\)/);
});

const SITE = 'https://acme.github.io/app/';
const RUN_URL = 'https://github.com/acme/app/actions/runs/42';

test('renders the PR comment decision first: headline, findings with change, interval and trend link, counts, per-job tables, folded details, commits', () => {
  const { head, result } = pr();
  const body = renderComment({ run: RUN, docs: head, comparisons: result, site: SITE, runUrl: RUN_URL, failures: [{ id: 'orders-api.cache-on.wrk.peak', status: 'failed', reason: 'wrk exited 1' }] });
  const parts = body.split('\n\n');
  assert.equal(parts[0], MARKER);
  assert.equal(parts[1], '### benchline: ⚠️ 1 regression, 1 improvement, 3 unchanged, 1 inconclusive, 1 failed job');
  assert.equal(parts[2], [
    '- 🔴 [orders-api/cache-on/ab/keepalive · **Throughput**](https://acme.github.io/app/#/trend/orders-api%2Fab%2Fkeepalive%2Fthroughput): **-10.0%** [-10.3%, -9.7%], 27,413 /s → 24,703 /s (p=0.0078, 8 rounds)',
    '- 🟢 [orders-api/cache-off/ab/keepalive · **Latency avg**](https://acme.github.io/app/#/trend/orders-api%2Fab%2Fkeepalive%2Flatency.mean): **-20.0%** [-20.2%, -19.8%], 65.65 ms → 52.52 ms (p=0.0078, 8 rounds)',
  ].join('\n'), 'regressions, then improvements; information-only p50 (-20%) is not a finding');
  assert.equal(parts[3], '6 judged metrics: 1 regression · 1 improvement · 1 inconclusive · 3 no change; 6 more metrics shown as information. Judged together at a 5% false discovery rate (Benjamini-Hochberg), so an unchanged pull request is flagged at most 5% of the time.');
  assert.equal(parts[4], `[workflow run](${RUN_URL}) · [trend site](${SITE})`);
  assert.equal(parts[5], '#### ❗ 1 job did not produce results');
  assert.equal(parts[6], '- orders-api.cache-on.wrk.peak failed: wrk exited 1');
  assert.equal(parts[7], '**orders-api/cache-on/ab/keepalive** · 8 rounds', 'the job with the regression first');
  assert.equal(parts[8], [
    '| metric | base | head | change | interval | min effect | verdict |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    '| Throughput | 27,413 /s | 24,703 /s | -10.0% | [-10.3%, -9.7%] | ±2% | 🔴 regression |',
    '| Latency avg | 36.47 ms | 36.68 ms | +0.4% | [-5.0%, +6.0%] | ±2% | ❔ inconclusive |',
    '| Error rate | 0 % | 0 % | +0.0% | [+0.0%, +0.0%] | ±2% | ⚪ no change |',
  ].join('\n'));
  assert.equal(parts[9], '**orders-api/cache-off/ab/keepalive** · 8 rounds');
  assert.match(parts[10], /^\| metric .*\n.*\n\| Latency avg \| 65\.65 ms \| 52\.52 ms \| -20\.0% \| \[-20\.2%, -19\.8%\] \| ±2% \| 🟢 improvement \|\n\| Throughput \| 15,226 \/s \| 15,234 \/s \| \+0\.0% \| \[-0\.1%, \+0\.1%\] \| ±2% \| ⚪ no change \|\n\| Error rate \|/);
  assert.equal(parts[11], '<details><summary>1 inconclusive metric: why, and what would settle it</summary>');
  assert.match(parts[12], /^- orders-api\/cache-on\/ab\/keepalive · Latency avg: not settled yet&#58; equivalence interval -4\.5%\.\.\\\+5\.5% \\\(90%\\\) reaches past ±2\.0% and interval -5\.0%\.\.\\\+6\.0% \\\(p=0\.\d+\\\) is not a discovery; about \d+ more rounds would likely settle it$/);
  assert.equal(parts[14], '<details><summary>6 metrics shown as information (no verdict)</summary>');
  const info = parts[15].split('\n');
  assert.equal(info.length, 8, 'header, rule and the six information-only metrics');
  assert.equal(info[2], '| orders-api/cache-off/ab/keepalive | Latency p50 | 55 ms | 44 ms | -20.0% | information only&#58; not one of this job&#39;s judged metrics |');
  assert.match(body, /<sub>Runner: bench-1 · linux x64 · 2 × Test CPU<br>Commits: base `ccccccc` \(main\) → head `bbbbbbb`<br>Run: 20261122T101500Z-abc123 · profile quick<\/sub>\n$/);
  assert.ok(body.split('\n').length <= 60, `fits about 60 lines (${body.split('\n').length})`);
});

test('with compare.maxOtherGap set, says how many rounds were left out as disturbed by other work, in the findings and the console table', () => {
  // Round 3's head trial ran beside a neighbour's burst (0.9 cores of other work against 0.05 on its base trial).
  const withLoad = (d, busy) => ({ ...d, load: d.metrics[0].samples.map((_, i) => ({ seconds: 5, tool: 0.9, subject: 0.8, other: i === busy ? 0.9 : 0.05 })) });
  const { base, head } = pr();
  const result = compare(base.map((d) => withLoad(d, -1)), head.map((d) => withLoad(d, 2)), { ...CONFIG.compare, maxOtherGap: 0.15 });
  const regression = result.comparisons.find((c) => c.verdict === 'regression');
  assert.equal(regression.disturbed, 1);
  const adjusted = compare(base.map((d) => withLoad(d, -1)), head.map((d) => withLoad(d, 2)), CONFIG.compare).comparisons.find((c) => c.metric === 'throughput' && c.variant === 'cache-on');
  assert.equal(adjusted.disturbed, undefined, 'by default no round is left out');
  assert.equal(adjusted.head.n, 8);
  const body = renderComment({ comparisons: result });
  assert.match(body, /^- 🔴 orders-api\/cache-on\/ab\/keepalive · \*\*Throughput\*\*: \*\*-10\.0%\*\* \[-10\.\d%, -9\.\d%\], 27,413 \/s → 24,703 \/s \(p=0\.016, 8 rounds, 1 disturbed left out\)$/m, 'seven calm rounds on one side: p = 2 / 2^7');
  assert.match(renderConsole({ docs: head, comparisons: result, config: CONFIG }), /^ {2}orders-api\/cache-on\/ab\/keepalive +Throughput .* 8 paired \(-1\) {2}regression$/m);
});

test('headlines a clean pull request with ✅ no regressions, and says so when no base was measured', () => {
  const { base } = pr();
  const clean = compare(base, base.map((d) => ({ ...d, run: { ...d.run, role: 'head' } })), CONFIG.compare);
  const body = renderComment({ run: RUN, docs: base, comparisons: clean });
  assert.match(body, /^### benchline: ✅ no regressions, 6 unchanged$/m);
  assert.doesNotMatch(body, /^- [🔴🟢]/mu, 'no findings');
  assert.match(body, /^6 judged metrics: 6 no change; 6 more metrics shown as information\./m);
  // nothing needs a reader: both jobs' tables are folded into one section, not shown above it
  const fold = body.indexOf('<details><summary>2 jobs without a regression or improvement: their tables</summary>');
  assert.ok(fold > 0, 'the unchanged jobs are folded');
  assert.ok(body.indexOf('**orders-api/cache-on/ab/keepalive** · 8 rounds') > fold, 'their tables sit inside the fold');
  assert.match(renderComment({ docs: base }), /^### benchline: measured 2 benchmarks, no base to compare against$/m);
});

/** A judged comparison as compare() gives it (8 paired rounds). */
const judgedEntry = (over) => ({
  suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 's', metric: 'latency.p99', unit: 'ns', better: 'lower',
  judged: true, method: 'paired', base: { value: 1e6, n: 8 }, head: { value: 1.1e6, n: 8 }, change: 0.1, lower: 0.08, upper: 0.12, p: 0.0078,
  level: 0.95, minEffect: 0.02, discovery: true, verdict: 'regression', reason: 'r', ...over,
});

test('headlines a pull request with an undecided metric as no regression shown, never with ✅, and lists the ones worse by their estimate', () => {
  // p99 of a lower-is-better metric up 66% but not a discovery; throughput down 1% (under its 2% margin); p50 down 30%
  // (better); a third undecided one worse by 1.5%, under its margin
  const list = [
    judgedEntry({ metric: 'latency.p99', change: 0.66, lower: -0.1, upper: 1.4, p: 0.09, discovery: false, verdict: 'inconclusive', minEffect: 0.1 }),
    judgedEntry({ metric: 'throughput', better: 'higher', unit: '/s', base: { value: 1000, n: 8 }, head: { value: 990, n: 8 }, change: -0.01, lower: -0.03, upper: 0.01, p: 0.4, discovery: false, verdict: 'no change' }),
    judgedEntry({ metric: 'latency.p50', change: -0.3, lower: -0.6, upper: 0.05, p: 0.1, discovery: false, verdict: 'inconclusive' }),
    judgedEntry({ metric: 'latency.p90', change: 0.015, lower: -0.05, upper: 0.08, p: 0.5, discovery: false, verdict: 'inconclusive' }),
  ];
  const body = renderComment({ comparisons: { comparisons: list } });
  assert.match(body, /^### benchline: ❔ no regression shown, 1 unchanged, 3 inconclusive$/m);
  assert.doesNotMatch(body, /✅/u);
  const lines = body.split('\n').filter((l) => l.startsWith('- 🟡'));
  assert.equal(lines.length, 1, 'only the metric worse by at least its margin');
  assert.match(lines[0], /· \*\*.*p99.*\*\*: \*\*\+66\.0%\*\*/);
  assert.match(body, /^Undecided, but worse by its estimate by at least the margin \(not counted as a regression/m);
  // an improvement direction or a change under the margin is not listed, and a regression takes the ⚠️ headline
  const decided = [...list, judgedEntry({ metric: 'latency.p75' })];
  assert.match(renderComment({ comparisons: { comparisons: decided } }), /^### benchline: ⚠️ 1 regression, 1 unchanged, 3 inconclusive$/m);
  assert.match(renderComment({ comparisons: { comparisons: [list[1]] } }), /^### benchline: ✅ no regressions, 1 unchanged$/m);
});

test('an undecided metric worse by its estimate gets a 🟡 line in the run that measured it, without a bare dash where too few rounds left no interval', async () => {
  // a real run of 4 rounds with 40 µs more work a request (README beside it): every speed metric is much worse, none decided
  const { loadConfig } = await import('../ci/config.js');
  const data = reportData(join(ROOT, 'test', 'fixtures', 'runs', 'orders-api-wrk-4-rounds-slower'), loadConfig(join(ROOT, 'bench.config.yaml')));
  const body = renderComment(data);
  assert.match(body, /^### benchline: ❔ no regression shown, 2 unchanged, 6 inconclusive$/m);
  const lines = body.split('\n').filter((l) => l.startsWith('- 🟡'));
  assert.equal(lines.length, 6, 'the three speed metrics of each job, not the error rates');
  const p50 = lines.find((l) => l.includes('cache-on/wrk/peak · **Latency p50**'));
  assert.match(p50, /\*\*\+318\.4%\*\*, 1\.923 ms → 7\.299 ms \(p=0\.13, 4 duet rounds\)$/);
  for (const l of lines) assert.doesNotMatch(l, /\*\* –/, l);
});

test('a finding decided at an earlier look says after how many of the rounds, since its change, interval and p are that look\'s', () => {
  const early = judgedEntry({ base: { value: 1e6, n: 32 }, head: { value: 1.1e6, n: 32 }, decidedAt: 16 });
  const body = renderComment({ comparisons: { comparisons: [early, judgedEntry({ metric: 'latency.p50' })] } });
  assert.match(body, /^- 🔴 .*p99.*\(p=0\.0078, decided after 16 of 32 rounds\)$/mu);
  assert.match(body, /^- 🔴 .*p50.*\(p=0\.0078, 8 rounds\)$/mu, 'one decided at the last look says its rounds alone');
});

test('escapes markdown and HTML in benchmark names that come from a pull request, in findings, tables, links and details', () => {
  const evil = '<img src=x onerror=alert(1)> | @octocat [x](javascript:alert(1)) `code` **b**\n# h';
  const list = [
    judgedEntry({ tool: 'hyperfine', scenario: 'cli', case: evil, metric: 'duration', reason: 'r' }),
    judgedEntry({ variant: evil, verdict: 'inconclusive', discovery: false, reason: `too noisy ${evil}`, moreRounds: 12 }),
    { ...judgedEntry({ scenario: evil, metric: 'latency.p50' }), judged: false, verdict: null, reason: 'information only' },
  ];
  const body = renderComment({ comparisons: { comparisons: list, unmatched: [], family: { size: 2, alpha: 0.05, method: 'Benjamini-Hochberg' } }, site: SITE });
  const finding = body.split('\n').find((l) => l.startsWith('- 🔴'));
  assert.ok(finding, 'the regression is a finding');
  const url = finding.slice(finding.indexOf('](') + 2, finding.indexOf('): '));
  assert.ok(url.startsWith(`${SITE}#/trend/`) && /^[A-Za-z0-9%._~:/#-]+$/.test(url), `the link target is fully encoded: ${url}`);
  const row = body.split('\n').find((l) => l.includes('🔴 regression'));
  assert.equal(row.split(/(?<!\\)\|/).length, 9, 'seven cells and no more: every | inside the name is escaped');
  for (const bad of ['<img', '@octocat', '](javascript', '`code`', '**b**', '\n# h']) assert.ok(!body.includes(bad), `no raw ${JSON.stringify(bad)}`);
  assert.equal(mdEscape('a<b>&@c:d|e'), 'a&lt;b&gt;&amp;&#64;c&#58;d\\|e');
  // a hyperfine command naming two ${...} placeholders would otherwise open GitHub's inline math between its dollars
  assert.equal(mdEscape('node ${dir}/cli.js ${n}'), 'node \\$\\{dir\\}/cli.js \\$\\{n\\}');
});

test('keeps a comment with 6,000 compared metrics under 65,536 characters, cutting details first, then job tables of the least notable jobs, regressions last', () => {
  const better = { head: { value: 0.9e6, n: 8 }, change: -0.1, lower: -0.12, upper: -0.08 };
  const mk = (i, verdict) => judgedEntry({ variant: `v${i % 7}`, scenario: `s${i}`, verdict, discovery: verdict === 'regression' || verdict === 'improvement', ...(verdict === 'improvement' ? better : {}) });
  const list = Array.from({ length: 6000 }, (_, i) => mk(i, i < 250 ? 'regression' : i < 300 ? 'improvement' : i < 400 ? 'inconclusive' : 'no change')).reverse();
  const comparisons = { comparisons: list, unmatched: [], family: { size: 6000, alpha: 0.05, method: 'Benjamini-Hochberg' } };
  const body = renderComment({ run: RUN, comparisons });
  assert.ok(body.length <= GITHUB_LIMIT, `length ${body.length}`);
  assert.ok(body.length > GITHUB_LIMIT - 3000, 'uses the room it has');
  assert.match(body, /^### benchline: ⚠️ 250 regressions, 50 improvements, 5,600 unchanged, 100 inconclusive$/m);
  assert.equal(body.match(/^- 🔴 /gmu).length, 250, 'every regression is a finding');
  assert.equal(body.match(/^- 🟢 /gmu).length, 50);
  assert.match(body, /^6,000 judged metrics: 250 regressions · 50 improvements · 100 inconclusive · 5,600 no change\. Judged together/m);
  const tables = body.match(/^\*\*orders-api\/v\d\/wrk\/s\d+\*\* · 8 rounds$/gm).length;
  assert.ok(tables > 60 && tables < 300, `${tables} of the 300 job tables with a finding kept (the 5,800 jobs without one are folded, and that section is cut first)`);
  assert.equal(body.match(/\| 🔴 regression \|/g).length, Math.min(250, tables), 'the jobs with regressions come first');
  assert.match(body, new RegExp(`_Left out to fit GitHub's comment size limit: the undecided lines, the folded job tables, the inconclusive and information sections and ${300 - tables} job tables\\. The job summary and the results artifact have every row\\._`));
  assert.doesNotMatch(body, /<details>/);
  // Tighter than the findings: improvements go before regressions, and the note says how many findings were cut.
  const tight = renderComment({ comparisons, limit: 6000 });
  assert.ok(tight.length <= 6000, `length ${tight.length}`);
  const red = (tight.match(/^- 🔴 /gmu) || []).length;
  const green = (tight.match(/^- 🟢 /gmu) || []).length;
  assert.ok(red > 0 && green < 50, `${red} regressions and ${green} improvements kept`);
  assert.ok(green === 0 || red === 250, 'no improvement is kept while a regression is cut');
  assert.match(tight, new RegExp(`and the last ${300 - red - green} findings\\.`));
  assert.doesNotMatch(tight, /^\*\*orders-api/m, 'no job tables');
});

test('writes the job summary with variant tables, pairwise lines, and head vs base split like the comment', () => {
  const { head, result } = pr();
  const md = renderSummary({ run: RUN, docs: head, comparisons: result, config: CONFIG });
  assert.match(md, /^## benchline: ⚠️ 1 regression, 1 improvement, 3 unchanged, 1 inconclusive$/m);
  assert.match(md, /^\| metric \| cache-off \| cache-on \|\n\| --- \| ---: \| ---: \|\n\| Throughput \| 15,234 \/s <sub>±0\.\d%<\/sub> \| 24,703 \/s <sub>±0\.\d%<\/sub> \|$/m);
  assert.match(md, /^- \*\*cache-on\*\* vs \*\*cache-off\*\* <sub>\(8 \+ 8 trials, unpaired\)<\/sub>: ✓ Latency p50: 50\.0% faster · ✓ Throughput: 62\.2% higher$/m);
  assert.equal(md.match(/^<sub>±: the wider side of the 95% bootstrap interval of the median over the trials, relative to the median\./gm).length, 1, 'the ± legend once');
  const section = md.slice(md.indexOf('### Head vs base'));
  const rows = section.split('\n').filter((l) => l.startsWith('| orders-api/'));
  assert.deepEqual(rows.map((r) => r.split(' | ').slice(1, 2).concat(r.split(' | ').at(-1))), [
    ['Throughput', '🔴 regression |'], ['Latency avg', '🟢 improvement |'], ['Latency avg', '❔ inconclusive |'],
    ['Throughput', '⚪ no change |'], ['Error rate', '⚪ no change |'], ['Error rate', '⚪ no change |'],
    ['Latency p50', 'information only&#58; not one of this job&#39;s judged metrics |'], ['Latency p99', 'information only&#58; not one of this job&#39;s judged metrics |'],
    ['Errors', 'information only&#58; not one of this job&#39;s judged metrics |'], ['Latency p50', 'information only&#58; not one of this job&#39;s judged metrics |'],
    ['Latency p99', 'information only&#58; not one of this job&#39;s judged metrics |'], ['Errors', 'information only&#58; not one of this job&#39;s judged metrics |'],
  ], 'judged metrics with verdicts, no change folded, information-only metrics last without a verdict');
  assert.match(section, /<details><summary>3 judged metrics with no change<\/summary>/);
  assert.match(section, /^6 judged metrics: 1 regression · 1 improvement · 1 inconclusive · 3 no change; 6 more metrics shown as information\./m);
  assert.match(section, /- orders-api\/cache-on\/ab\/keepalive Latency avg: inconclusive, not settled yet: .*about \d+ more rounds would likely settle it/);
  assert.match(section, /<details><summary>6 metrics shown as information \(no verdict\)<\/summary>/);
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
  assert.deepEqual(json.counts, { regression: 1, improvement: 1, inconclusive: 1, 'no change': 3 });
  assert.equal(json.comparisons.length, 12);
  assert.deepEqual(json.family, { size: 4, alpha: 0.05, method: 'Benjamini-Hochberg' }, 'throughput and mean latency of both jobs; error_rate is zero throughout');
  const throughput = json.comparisons.find((c) => c.variant === 'cache-on' && c.metric === 'throughput');
  assert.deepEqual([throughput.judged, throughput.method, throughput.verdict, throughput.discovery, throughput.level, throughput.p], [true, 'paired', 'regression', true, 0.95, 2 / 256]);
  const p50 = json.comparisons.find((c) => c.variant === 'cache-off' && c.metric === 'latency.p50');
  assert.deepEqual([p50.judged, p50.verdict], [false, null], 'information only, however large its change');
  assert.equal(json.comparisons.find((c) => c.verdict === 'inconclusive').moreRounds > 0, true);
  const failing = cli(['compare', join(dir, 'docs/base'), join(dir, 'docs/head'), '--fail-on-regression', '--config', config]);
  assert.equal(failing.status, 1);
  assert.deepEqual(JSON.parse(failing.stdout).counts, json.counts);
  assert.throws(() => compareCommand({ args: [join(dir, 'docs/head')], config }), /holds head documents but not both base and head; measure with `benchline run --base <ref>`/);
});

test('compare --fail-on-regression exits 0 when only an information-only metric got worse, or when the base ran the job with other params', (t) => {
  const base = [doc({ variant: 'cache-off', role: 'base', metrics: OFF })];
  // judged metrics improve (mean latency 20% lower); p50, information only for ab, is 50% slower
  const head = [doc({ variant: 'cache-off', role: 'head', metrics: { ...shifted(OFF, 'latency.mean', 0.8), 'latency.p50': OFF['latency.p50'].map((x) => x * 1.5) } })];
  const { root, dir, config } = writeResults({ docsByRole: { base, head } });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = cli(['compare', root, '--fail-on-regression', '--config', config]);
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(json.counts, { regression: 0, improvement: 1, inconclusive: 0, 'no change': 2 });
  const p50 = json.comparisons.find((c) => c.metric === 'latency.p50');
  assert.deepEqual([p50.judged, p50.verdict, p50.change], [false, null, 0.5], 'shown, never a regression');
  // the same slower head against a base of another configuration (200 connections): no verdict at all, so nothing fails
  const slower = [doc({ variant: 'cache-off', role: 'head', metrics: shifted(OFF, 'latency.mean', 1.5) })];
  const other = writeResults({ docsByRole: { base: [doc({ variant: 'cache-off', role: 'base', metrics: OFF, params: { requests: 20000, concurrency: 200 } })], head: slower } });
  t.after(() => rmSync(other.root, { recursive: true, force: true }));
  const apart = cli(['compare', other.root, '--fail-on-regression', '--config', other.config]);
  assert.equal(apart.status, 0, apart.stderr);
  const mean = JSON.parse(apart.stdout).comparisons.find((c) => c.metric === 'latency.mean');
  assert.deepEqual([mean.verdict, mean.paramsDiffer], ['inconclusive', true]);
  assert.match(mean.reason, /different params \(concurrency 200 → 50\)/);
  const same = writeResults({ docsByRole: { base, head: slower } });
  t.after(() => rmSync(same.root, { recursive: true, force: true }));
  assert.equal(cli(['compare', same.root, '--fail-on-regression', '--config', same.config]).status, 1, 'with the same params the slower head fails the check');
});

test('compare --fail-on-regression exits 2 and says so when base and head share no job, and without the flag only says so', (t) => {
  const base = [doc({ variant: 'cache-off', role: 'base', metrics: OFF })];
  const head = [doc({ variant: 'cache-on', role: 'head', metrics: shifted(OFF, 'latency.mean', 1.5) })];
  const { root, config } = writeResults({ docsByRole: { base, head } });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const gate = cli(['compare', root, '--fail-on-regression', '--config', config]);
  assert.equal(gate.status, 2, 'a gate that judged nothing does not pass');
  assert.deepEqual(JSON.parse(gate.stdout).comparisons, []);
  assert.match(gate.stderr, /^benchline compare: nothing compared: base and head share no measured metric \(base alone: orders-api\.cache-off\.ab\.keepalive; head alone: orders-api\.cache-on\.ab\.keepalive\); compare runs of the same jobs; --fail-on-regression cannot pass a comparison of nothing\n$/);
  const plain = cli(['compare', root, '--config', config]);
  assert.equal(plain.status, 0);
  assert.match(plain.stderr, /nothing compared/);
  assert.doesNotMatch(plain.stderr, /fail-on-regression/);
});

test('benchline report renders console, comment, summary and suite formats of a results folder', async (t) => {
  const { base, head } = pr();
  const { root, dir, config } = writeResults({ docsByRole: { base, head }, jobs: [FAILED_JOB] });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const consoleOut = cli(['report', root, '--config', config]);
  assert.equal(consoleOut.status, 0, consoleOut.stderr);
  assert.match(consoleOut.stdout, /HEAD VS BASE {2}1 regression, 1 improvement, 3 unchanged, 1 inconclusive/);
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

test('whole numbers are grouped by thousands as en-US groups them, at every length and sign', () => {
  const numbers = [0, 7, 999, 1000, 65536, 999999, 1000000, 123456789012, Number.MAX_SAFE_INTEGER, 2 ** 60, Infinity, -Infinity];
  for (const n of [...numbers, ...numbers.map((x) => -x).filter((x) => x !== 0)]) assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  assert.equal(grouped(-0), '0');
});

test('a share too small for three decimals keeps two significant digits instead of reading 0 %, and values given a reference share its unit', () => {
  assert.deepEqual([4e-7, 1e-6, 0.05, 0].map((v) => formatValue(v, 'ratio')), ['0.00004 %', '0.0001 %', '5 %', '0 %']);
  // a chart's axis: every tick in the unit of its largest
  assert.deepEqual([0, 5e5, 1e7].map((v) => formatValue(v, 'ns', 1e7)), ['0 ms', '0.5 ms', '10 ms']);
  assert.deepEqual([0, 512, 2048].map((v) => formatValue(v, 'bytes', 2048)), ['0 KiB', '0.5 KiB', '2 KiB']);
  assert.equal(formatValue(1530000, 'ns'), '1.53 ms');
});

test('the comment says the check fails on a regression when compare.failOnRegression is on, and nothing of it when off', () => {
  const { base, head } = pr();
  const result = compare(base, head, { minEffect: 0.03, confidence: 0.95, metrics: {} }, { seed: 1 });
  assert.equal(result.counts.regression, 1);
  const line = /The pull request's bench check fails on this regression \(`compare\.failOnRegression` in bench\.config\.yaml; a local `bench` exits non-zero only with `--fail-on-regression`\)\./;
  assert.match(renderComment({ run: RUN, docs: head, comparisons: result, config: { compare: { failOnRegression: true } } }), line);
  assert.doesNotMatch(renderComment({ run: RUN, docs: head, comparisons: result, config: { compare: { failOnRegression: false } } }), /check fails/);
  const clean = compare(base, base, { minEffect: 0.03, confidence: 0.95, metrics: {} }, { seed: 1 });
  assert.doesNotMatch(renderComment({ run: RUN, docs: base, comparisons: clean, config: { compare: { failOnRegression: true } } }), /check fails/);
});

test('a --base run whose base has no such subject says the benchmarks were measured on head only and why, in the comment and the console', () => {
  const head = [doc({ suite: 'primes', variant: 'small', role: 'head', metrics: OFF })];
  const run = { ...RUN, base: { ref: 'HEAD~2', commit: 'c'.repeat(40) }, jobs: [{ id: 'primes.small.ab.keepalive', status: 'ok', headOnly: { subject: 'primes', ref: 'HEAD~2' } }] };
  const comment = renderComment({ run, docs: head, comparisons: undefined, config: CONFIG });
  assert.match(comment, /### benchline: measured 1 benchmark on head only: the base \(HEAD\\?~2\) has none of them/);
  assert.match(comment, /primes\.small\.ab\.keepalive \(primes does not exist at HEAD\\?~2\)/);
  assert.doesNotMatch(comment, /Run with `--base <ref>`/, 'the run had a base: telling the user to pass one would be wrong');
  assert.match(renderConsole({ run, docs: head, config: CONFIG }), /Measured on head only \(HEAD~2 has no such subject.*\n\s+primes\.small\.ab\.keepalive: primes does not exist at HEAD~2/);
  const plain = renderComment({ run: { ...RUN, base: undefined }, docs: head, comparisons: undefined, config: CONFIG });
  assert.match(plain, /no base to compare against/, 'without --base the comment still says how to get verdicts');
});

test('the job summary of a --base run whose base has none of the subjects says so and names each job, as the comment does, instead of reading as a run without a base', () => {
  const data = reportData(join(ROOT, 'test', 'fixtures', 'runs', 'orders-new-head-only'), CONFIG);
  assert.equal(data.comparisons, undefined);
  const summary = renderSummary(data);
  assert.match(summary, /^## benchline: measured 1 benchmark on head only: the base \(HEAD\\~1\) has none of them$/m);
  assert.match(summary, /^New subjects have nothing to compare with yet: orders-new\.cache-on\.wrk\.peak \(orders-new does not exist at HEAD\\~1\)\./m);
  assert.equal(renderComment(data).split('\n').find((l) => l.startsWith('### ')), summary.split('\n')[0].replace(/^## /, '### '), 'the comment and the summary say the same');
});

test('a --base run in which no job measured both sides says nothing was compared and points at the failed jobs, not at --base', () => {
  const run = { ...RUN, base: { ref: 'HEAD~1', commit: 'c'.repeat(40) }, jobs: [{ id: 'primes.small.ab.keepalive', status: 'failed', reason: 'base (HEAD~1): building subject primes failed' }] };
  const comment = renderComment({ run, docs: [], comparisons: undefined, failures: run.jobs, config: CONFIG });
  assert.match(comment, /^### benchline: ❗ nothing compared: no job measured both the base \(HEAD\\~1\) and head$/m);
  assert.doesNotMatch(comment, /Run with `--base <ref>`|no base to compare against/, 'the run had a base');
  assert.match(comment, /primes\.small\.ab\.keepalive failed/);
  const summary = renderSummary({ run, docs: [], comparisons: undefined, failures: run.jobs, config: CONFIG });
  assert.match(summary, /^## benchline: ❗ nothing compared: no job measured both the base \(HEAD\\~1\) and head$/m, 'the job summary says so too');
});

// A real A/B run (README beside it) whose head could not start cache-on: cache-off's four judged metrics were no change.
const HEAD_FAILS_RUN = join(ROOT, 'test', 'fixtures', 'runs', 'orders-api-wrk-head-fails');

test('a run in which a job failed never headlines ✅ no regressions: the failed job\'s judged metrics were never judged, and the headline counts it', async () => {
  const { loadConfig } = await import('../ci/config.js');
  const data = reportData(HEAD_FAILS_RUN, loadConfig(join(ROOT, 'bench.config.yaml')));
  assert.equal(data.failures.length, 1);
  assert.deepEqual(data.comparisons.counts, { regression: 0, improvement: 0, inconclusive: 0, 'no change': 4 });
  const comment = renderComment(data);
  assert.match(comment, /^### benchline: ❔ no regression shown, 4 unchanged, 1 failed job$/m);
  assert.doesNotMatch(comment, /✅|no regressions/u);
  assert.match(renderSummary(data), /^## benchline: ❔ no regression shown, 4 unchanged, 1 failed job$/m);
  assert.match(renderConsole(data), /HEAD VS BASE {2}no regression shown, 4 unchanged, 1 failed job\n/);
  // with nothing failed, the same verdicts are ✅
  assert.match(renderComment({ ...data, failures: [] }), /^### benchline: ✅ no regressions, 4 unchanged$/m);
});

test('the job summary says what a ‡ beside a change means, as the comment does, whenever its tables show one', async () => {
  const { loadConfig } = await import('../ci/config.js');
  const data = reportData(HEAD_FAILS_RUN, loadConfig(join(ROOT, 'bench.config.yaml')));
  const summary = renderSummary(data);
  // cache-off throughput: medians 2,957 → 2,962 /s, the typical round -0.3%
  assert.match(summary, /\| Throughput \| 2,957 \/s \| 2,962 \/s \| -0\.3%‡ \|/);
  assert.match(summary, /^<sub>‡ the change of the typical round .*\.<\/sub>$/m);
  assert.equal(summary.match(/<sub>‡ /g).length, 1, 'said once');
});

test('the comment\'s failed job line ends with its log\'s last line, so a reason that points at the log does not end in a bare colon', async () => {
  const { loadConfig } = await import('../ci/config.js');
  const data = reportData(HEAD_FAILS_RUN, loadConfig(join(ROOT, 'bench.config.yaml')));
  const line = renderComment(data).split('\n').find((l) => l.startsWith('- orders-api.cache-on.wrk.peak failed'));
  assert.match(line, /exited \\\(code 2\\\) before it was healthy\. Last lines of \S+api\.log&#58; orders-api&#58; cache is broken in this commit$/);
  // a reason that does not end at the log says which line follows
  const other = renderComment({ ...data, failures: [{ ...data.failures[0], reason: 'wrk (trial 1, head): exit 1' }] });
  assert.match(other, /^- orders-api\.cache-on\.wrk\.peak failed: wrk \\\(trial 1, head\\\)&#58; exit 1; last log line: orders-api&#58; cache is broken in this commit$/m);
});

test('the console report lists the tools\' notes once per job and kind, with the trials they came from', () => {
  const d = doc({ suite: 'primes', variant: 'small', role: 'local', metrics: OFF });
  d.notes = ['trial 1: k6 threshold crossed: http_req_duration p(95)<1000', 'trial 3: k6 threshold crossed: http_req_duration p(95)<1000',
    'trial 2: k6 dropped 13 iterations: more VUs', 'trial 5: k6 dropped 2 iterations: more VUs', 'k6 metric Foo is kept as foo'];
  const text = renderConsole({ run: RUN, docs: [d], config: CONFIG });
  assert.match(text, /primes\/small\/ab\/keepalive: k6 threshold crossed: http_req_duration p\(95\)<1000 \(trials 1, 3 of 8\)/);
  assert.match(text, /primes\/small\/ab\/keepalive: k6 dropped 13 iterations: more VUs \(trials 2, 5 of 8; figures of trial 2\)/, 'notes differing only in numbers are one line');
  assert.match(text, /primes\/small\/ab\/keepalive: k6 metric Foo is kept as foo\n/);
  assert.equal(text.match(/threshold crossed/g).length, 1);
});

test('the console report of a --base run says its suite tables show the head side, and a one-side run does not', () => {
  const head = [doc({ variant: 'cache-off', role: 'head', metrics: OFF })];
  const base = [doc({ variant: 'cache-off', role: 'base', metrics: OFF })];
  const comparisons = compare(base, head, { minEffect: 0.02, confidence: 0.95, metrics: {} }, { seed: 1 });
  assert.match(renderConsole({ run: RUN, docs: head, comparisons, config: CONFIG }), /^Suite tables show the head side \(bbbbbbb\w*\); the comparison with the base is under "HEAD VS BASE" below\.$/m);
  // a real run of a suite its pull request adds (README beside it): no comparison, so no pointer to a section that is not there
  const added = renderConsole(reportData(join(ROOT, 'test', 'fixtures', 'runs', 'orders-new-head-only'), CONFIG));
  assert.doesNotMatch(added, /HEAD VS BASE/);
  assert.match(added, /^Suite tables show the head side \(3dbfc6e\); nothing was compared with the base: no job measured both sides \(below: why\)\.$/m);
  assert.match(added, /Measured on head only \(HEAD~1 has no such subject/);
  assert.doesNotMatch(renderConsole({ run: { ...RUN, base: undefined }, docs: head, config: CONFIG }), /Suite tables show/);
});

test('a variant table whose variants ran different numbers of trials says the range in its heading, not the first variant\'s count', () => {
  const off = doc({ variant: 'cache-off', metrics: OFF });
  const on = doc({ variant: 'cache-on', metrics: Object.fromEntries(Object.entries(ON).map(([k, v]) => [k, [...v, ...v]])) });
  assert.notEqual(off.trials, on.trials, 'the fixture gives the variants different counts');
  const out = renderConsole({ docs: [off, on], config: CONFIG });
  assert.match(out, new RegExp(`^AB · keepalive {2}\\(ab 2\\.3, ${off.trials}-${on.trials} trials; `, 'm'));
  assert.match(renderConsole({ docs: [off, doc({ variant: 'cache-on', metrics: ON })], config: CONFIG }), /^AB · keepalive {2}\(ab 2\.3, 8 trials; /m);
});

test('the console and suite reports print what documents say as plain text: no escape sequence, bell or line a CI log would read as a command', async () => {
  const evil = 'x\u001b[2J\u001b]8;;http://evil/\u0007link\u001b]8;;\u0007\n::error::injected\r';
  const d = doc({ variant: 'cache-on', version: evil, metrics: { throughput: ON.throughput } });
  d.runner = { ...d.runner, name: evil };
  d.run.ref = evil;
  const failures = [{ id: 'orders-api.cache-off.ab.keepalive', suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', status: 'failed', reason: evil, logTail: 'line one\n::warning::from the log\n' }];
  for (const format of ['console', 'suite']) {
    const text = await renderReport(format, { run: { ...RUN, base: { ...RUN.base, ref: evil } }, docs: [d], failures, config: CONFIG });
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${format}: no control character`);
    assert.doesNotMatch(text, /^::error::/m, `${format}: no line starts a workflow command`);
    if (format === 'console') {
      assert.match(text, /x\ufffd\[2J\ufffd\]8;;http:\/\/evil\/\ufffdlink\ufffd\]8;;\ufffd ⏎ ::error::injected\ufffd/);
      assert.match(text, /^ {6}\| ::warning::from the log$/m, 'the log tail keeps its lines, each behind "| "');
    }
  }
});

test("docs/config.md's minimal suite renderer tells two jobs of one variant apart and names the jobs that were not measured", async () => {
  const text = readFileSync(join(ROOT, 'docs', 'config.md'), 'utf8');
  const from = text.indexOf('A minimal one:');
  const code = /```js\n([\s\S]*?)```/.exec(text.slice(from))[1];
  const root = mkdtempSync(join(tmpdir(), 'benchline-minimal-renderer-'));
  symlinkSync(join(ROOT, 'ci'), join(root, 'ci'));
  mkdirSync(join(root, 'subjects', 'my-suite'), { recursive: true });
  writeFileSync(join(root, 'subjects', 'my-suite', 'report.js'), code);
  try {
    const mod = await import(join(root, 'subjects', 'my-suite', 'report.js'));
    const doc = (tool, scenario, value) => ({ suite: 'my-suite', variant: 'fast', tool: { name: tool }, scenario, metrics: [{ name: 'throughput', unit: 'ops/s', value }] });
    const input = {
      suite: 'my-suite',
      docs: [doc('wrk', 'peak', 4513), doc('ab', 'slow', 664)],
      run: { jobs: [{ id: 'my-suite.fast.wrk.peak', suite: 'my-suite', status: 'ok' }, { id: 'my-suite.fast.k6.steady', suite: 'my-suite', status: 'failed', reason: 'k6 exited 107' }] },
    };
    const out = mod.render(input);
    assert.match(out, /fast +wrk peak +4,513 \/s/);
    assert.match(out, /fast +ab slow +664 \/s/);
    assert.match(out, /my-suite\.fast\.k6\.steady: failed \(k6 exited 107\)/);
    assert.match(mod.markdown(input), /\| fast \| wrk peak \| 4,513 \/s \|/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a paired change that goes the other way from the medians beside it is marked and explained once, in the comment and the console', () => {
  // medians 43.5 -> 47.0 ms (+8%), but the typical round's ratio is -1.9%: without a word this reads as a mistake
  const opposed = judgedEntry({ metric: 'latency.p99', base: { value: 43.47e6, n: 4 }, head: { value: 46.98e6, n: 4 }, change: -0.019, lower: null, upper: null, verdict: 'inconclusive', discovery: false });
  const info = judgedEntry({ variant: 'cache-off', metric: 'latency.max', judged: false, verdict: null, base: { value: 190e6, n: 4 }, head: { value: 195e6, n: 4 }, change: -0.019, lower: null, upper: null, p: null });
  const agrees = judgedEntry({ variant: 'cache-off' });
  const unpaired = judgedEntry({ variant: 'cache-off', scenario: 'u', method: 'unpaired', base: { value: 1e6, n: 5 }, head: { value: 1.1e6, n: 5 }, change: -0.05 });
  const comparisons = (list) => ({ comparisons: list, unmatched: [], family: { size: list.length, alpha: 0.05, method: 'Benjamini-Hochberg' } });
  const body = renderComment({ comparisons: comparisons([opposed, info, agrees, unpaired]) });
  assert.match(body, /\| Latency p99 \| 43\.47 ms \| 46\.98 ms \| -1\.9%‡ \|/);
  assert.match(body, /\| 190 ms \| 195 ms \| -1\.9%‡ \|/, 'information-only rows too');
  assert.match(body, /\| Latency p99 \| 1 ms \| 1\.1 ms \| \+10\.0% \|/, 'a change that agrees with the medians has no mark');
  assert.doesNotMatch(body, /-5\.0%‡/, 'an unpaired change is the ratio of the medians: never marked');
  assert.equal(body.split('goes the other way from the medians').length - 1, 1);
  assert.match(body, /<sub>‡ the change of the typical round \(the Hodges-Lehmann estimate/);
  const out = renderConsole({ docs: [], comparisons: comparisons([opposed, info, agrees]), config: CONFIG });
  assert.match(out, /Latency p99 .* -1\.9%‡ /);
  assert.match(out, /^ {2}‡ the change of the typical round/m);
  assert.doesNotMatch(renderComment({ comparisons: comparisons([agrees]) }), /‡/);
});

test('a paired change adjusted for other work on the machine is marked, in the comment, the console and the job summary, and said what the mark means once; an unadjusted one is not', () => {
  // medians 13,198 -> 14,553 req/s, but the rounds' ratios less the part that followed other work: -1.3%
  const adjusted = judgedEntry({ metric: 'throughput', unit: 'req/s', better: 'higher', base: { value: 13198, n: 8 }, head: { value: 14553, n: 8 }, change: -0.013, lower: -0.05, upper: 0.03, verdict: 'inconclusive', discovery: false, otherSlope: 0.021 });
  const plain = judgedEntry({ variant: 'cache-off' });
  const comparisons = (list) => ({ comparisons: list, unmatched: [], family: { size: list.length, alpha: 0.05, method: 'Benjamini-Hochberg' } });
  const body = renderComment({ comparisons: comparisons([adjusted, plain]) });
  assert.match(body, /\| Throughput \| 13198 req\/s \| 14553 req\/s \| -1\.3%† \|/);
  assert.match(body, /\| Latency p99 \| 1 ms \| 1\.1 ms \| \+10\.0% \|/, 'the unadjusted change has no mark');
  assert.equal(body.split('adjusted for other work on the machine').length - 1, 1);
  assert.match(body, /<sub>† adjusted for other work on the machine: .*even in sign/);
  const out = renderConsole({ docs: [], comparisons: comparisons([adjusted, plain]), config: CONFIG });
  assert.match(out, /Throughput .* -1\.3%† /);
  assert.match(out, /^ {2}† adjusted for other work on the machine/m);
  assert.match(renderSummary({ docs: [], comparisons: comparisons([adjusted, plain]), config: CONFIG }), /^<sub>† adjusted for other work on the machine: .*even in sign/m, 'the job summary too');
  assert.doesNotMatch(renderSummary({ docs: [], comparisons: comparisons([plain]), config: CONFIG }), /†|adjusted for other work/);
  const none = renderComment({ comparisons: comparisons([plain]) });
  assert.doesNotMatch(none, /†|adjusted for other work/);
  assert.doesNotMatch(renderConsole({ docs: [], comparisons: comparisons([plain]), config: CONFIG }), /†|adjusted for other work/);
});

test('the suite report of a run whose every job of a suite failed is that suite\'s own report saying what failed, not nothing', async () => {
  const { reportData } = await import('../ci/commands/report.js');
  const { loadConfig } = await import('../ci/config.js');
  const data = reportData(join(ROOT, 'test', 'fixtures', 'runs', 'serialization-jmh-locked'), loadConfig(join(ROOT, 'bench.config.yaml')));
  assert.equal(data.docs.length, 0);
  const text = await renderReport('suite', data);
  assert.match(text, /^serialization: SBE vs Protobuf vs JSON for one market-data message \(seed 002\)\n/);
  assert.match(text, /\njob serialization\.default\.jmh\.avgt-gc failed: jmh wrote no output file \(trial 1, exit 1\)\n/);
  assert.match(text, /\nNo JMH SampleTime results in this run/);
  assert.doesNotMatch(text, /No result documents/);
  // bench's terminal print (own renderers only) shows it too
  assert.match(await renderReport('suite', data, { generic: false }), /job serialization\.default\.jmh\.sample failed/);
});

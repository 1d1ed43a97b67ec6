// Head-vs-base verdicts: synthetic per-trial samples with known outcomes, exact p values and intervals for seed 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, judge, minEffectFor } from '../ci/compare.js';
import { metric } from '../ci/metrics.js';

const CFG = { confidence: 0.95, alpha: 0.05, minEffect: 0.03, metrics: {} };
const P_5_VS_5 = 2 / 252; // smallest two-sided exact Mann-Whitney p for 5 + 5 fully separated samples

/** A result document trimmed to what compare reads; metrics given as { name or name@case: samples }. */
function doc({ suite = 'orders-api', variant = 'cache-on', tool = 'wrk', scenario = 'peak', metrics }) {
  return {
    suite,
    subject: suite,
    variant,
    tool: { name: tool, version: '4.1.0' },
    scenario,
    metrics: Object.entries(metrics).map(([key, samples]) => {
      const [name, c] = key.split('@');
      return metric(name, samples[0], { samples, ...(c ? { case: c } : {}) });
    }),
  };
}

const near = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} !== ${expected}`);

const THROUGHPUT = [10000, 10040, 9980, 10020, 10010];
const LATENCY = [5.0e6, 5.1e6, 4.9e6, 5.05e6, 4.95e6];

test('calls a clear 10% throughput drop with tight samples a regression, with its exact interval and p', () => {
  const { comparisons, counts } = compare([doc({ metrics: { throughput: THROUGHPUT } })], [doc({ metrics: { throughput: [9000, 9030, 8990, 9020, 9010] } })], CFG);
  assert.equal(comparisons.length, 1);
  const c = comparisons[0];
  assert.equal(c.verdict, 'regression');
  assert.deepEqual([c.base, c.head], [{ value: 10010, n: 5 }, { value: 9010, n: 5 }]);
  near(c.change, 9010 / 10010 - 1, 'change');
  near(c.lower, 8990 / 10020 - 1, 'lower'); // -10.28%: the bootstrap's 2.5% tail
  near(c.upper, 9030 / 10000 - 1, 'upper'); // -9.70%
  near(c.p, P_5_VS_5, 'p');
  assert.equal(c.minEffect, 0.03);
  assert.equal(c.reason, 'p=0.0079 < 0.05, interval -10.3%..-9.7% excludes 0, |change| ≥ 3.0%');
  assert.deepEqual(counts, { regression: 1, improvement: 0, inconclusive: 0, 'no change': 0 });
  assert.deepEqual({ suite: c.suite, subject: c.subject, variant: c.variant, tool: c.tool, scenario: c.scenario, metric: c.metric, unit: c.unit, better: c.better },
    { suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', metric: 'throughput', unit: 'ops/s', better: 'higher' });
});

test('finds no change between identical distributions because the interval stays inside ±minEffect', () => {
  const r = judge(THROUGHPUT, [...THROUGHPUT], { ...CFG, better: 'higher', minEffect: 0.03 });
  assert.equal(r.verdict, 'no change');
  assert.equal(r.change, 0);
  assert.equal(r.p, 1);
  near(r.lower, 10000 / 10040 - 1, 'lower');
  near(r.upper, 10040 / 10000 - 1, 'upper');
  assert.equal(r.reason, 'interval -0.4%..+0.4% within ±3.0%');
});

test('calls a real but 1% shift no change when the metric only counts from 3%', () => {
  const r = judge(THROUGHPUT, [10100, 10140, 10080, 10120, 10110], { ...CFG, better: 'higher', minEffect: 0.03 });
  assert.equal(r.verdict, 'no change');
  near(r.change, 10110 / 10010 - 1, 'change');
  near(r.p, P_5_VS_5, 'p');
  assert.ok(r.lower > 0, 'the shift is significant: its interval excludes 0');
  assert.equal(r.reason, 'significant (p=0.0079) but |change| < 3.0%');
});

test('calls wild noise inconclusive because the interval is wider than the effect that matters', () => {
  const r = judge([8000, 12000, 9500, 11000, 7000], [13000, 9000, 10000, 7500, 11500], { ...CFG, better: 'higher', minEffect: 0.03 });
  assert.equal(r.verdict, 'inconclusive');
  near(r.change, 10000 / 9500 - 1, 'change');
  near(r.lower, -0.25, 'lower');
  near(r.upper, 0.625, 'upper');
  near(r.p, 174 / 252, 'p');
  assert.equal(r.reason, 'too noisy: interval -25.0%..+62.5% is wider than ±3.0% (p=0.69)');
});

test('reads the sign through `better`: lower latency is an improvement and higher latency a regression', () => {
  const down = judge(LATENCY, LATENCY.map((x) => x * 0.8), { ...CFG, better: 'lower', minEffect: 0.03 });
  assert.equal(down.verdict, 'improvement');
  near(down.change, -0.2, 'change down');
  near(down.lower, 3.96e6 / 5.1e6 - 1, 'lower down');
  near(down.upper, 4.08e6 / 4.95e6 - 1, 'upper down');
  const up = judge(LATENCY, LATENCY.map((x) => x * 1.2), { ...CFG, better: 'lower', minEffect: 0.03 });
  assert.equal(up.verdict, 'regression');
  near(up.change, 0.2, 'change up');
  const tput = judge(THROUGHPUT, THROUGHPUT.map((x) => x * 1.2), { ...CFG, better: 'higher', minEffect: 0.03 });
  assert.equal(tput.verdict, 'improvement');
});

test('picks minEffect by exact name first, then the most specific glob, then the default', () => {
  const cfg = { minEffect: 0.03, metrics: { 'latency.*': 0.1, 'latency.p9*': 0.15, 'latency.p99': 0.2, '*': 0.05 } };
  assert.equal(minEffectFor('latency.p99', cfg), 0.2);
  assert.equal(minEffectFor('latency.p95', cfg), 0.15);
  assert.equal(minEffectFor('latency.p50', cfg), 0.1);
  assert.equal(minEffectFor('throughput', cfg), 0.05);
  assert.equal(minEffectFor('throughput', { minEffect: 0.04, metrics: { 'latency.*': 0.1 } }), 0.04);
  assert.equal(minEffectFor('latency_total', { minEffect: 0.04, metrics: { 'latency.*': 0.1 } }), 0.04, 'the dot in a glob is literal');
});

test('lets a per-metric glob turn a significant 5% p99 rise into no change while 3% would flag it', () => {
  const base = [doc({ metrics: { 'latency.p99': LATENCY, 'latency.p50': LATENCY } })];
  const head = [doc({ metrics: { 'latency.p99': LATENCY.map((x) => x * 1.05), 'latency.p50': LATENCY.map((x) => x * 1.05) } })];
  const { comparisons } = compare(base, head, { ...CFG, metrics: { 'latency.p9*': 0.1 } });
  const by = Object.fromEntries(comparisons.map((c) => [c.metric, c]));
  assert.equal(by['latency.p99'].verdict, 'no change');
  assert.equal(by['latency.p99'].minEffect, 0.1);
  assert.equal(by['latency.p99'].reason, 'significant (p=0.0079) but |change| < 10.0%');
  assert.equal(by['latency.p50'].verdict, 'regression');
  assert.equal(by['latency.p50'].minEffect, 0.03);
});

test('calls fewer than 3 trials on either side inconclusive without running the tests', () => {
  const r = judge([1e6, 2e6], [1e6, 2e6, 3e6], { ...CFG, better: 'lower', minEffect: 0.03 });
  assert.deepEqual(r, {
    base: { value: 1.5e6, n: 2 }, head: { value: 2e6, n: 3 }, change: 2 / 1.5 - 1, lower: null, upper: null, p: null, minEffect: 0.03,
    verdict: 'inconclusive', reason: 'too few trials',
  });
});

test('treats zero medians on both sides as no change and errors appearing from zero as a regression', () => {
  const zeros = judge([0, 0, 0, 0, 0], [0, 0, 0, 0, 0], { ...CFG, better: 'lower', minEffect: 0.03 });
  assert.equal(zeros.verdict, 'no change');
  assert.equal(zeros.reason, 'both medians are zero');
  const appear = judge([0, 0, 0, 0, 0], [4, 5, 6, 7, 8], { ...CFG, better: 'lower', minEffect: 0.03 });
  assert.equal(appear.verdict, 'regression');
  assert.equal(appear.change, null);
  assert.equal(appear.reason, 'base median is zero, head is not (p=0.0075 < 0.05)');
});

test('matches documents by suite/variant/tool/scenario and metrics by case and name, listing the rest as unmatched', () => {
  const base = [
    doc({ variant: 'cache-off', metrics: { throughput: THROUGHPUT, 'duration@sbe': LATENCY, 'duration@proto': LATENCY } }),
    doc({ variant: 'cache-on', metrics: { throughput: THROUGHPUT } }),
    doc({ variant: 'cache-off', tool: 'ab', metrics: { throughput: THROUGHPUT } }),
  ];
  const head = [
    doc({ variant: 'cache-on', metrics: { throughput: THROUGHPUT.map((x) => x * 0.5) } }),
    doc({ variant: 'cache-off', metrics: { throughput: THROUGHPUT, 'duration@sbe': LATENCY.map((x) => x * 2), 'latency.p50': LATENCY } }),
    doc({ variant: 'cache-off', scenario: 'new', metrics: { throughput: THROUGHPUT } }),
  ];
  const { comparisons, counts, unmatched } = compare(base, head, CFG);
  assert.deepEqual(comparisons.map((c) => [c.variant, c.case, c.metric, c.verdict]), [
    ['cache-on', undefined, 'throughput', 'regression'],
    ['cache-off', undefined, 'throughput', 'no change'],
    ['cache-off', 'sbe', 'duration', 'regression'],
  ]);
  assert.deepEqual(counts, { regression: 2, improvement: 0, inconclusive: 0, 'no change': 1 });
  assert.deepEqual(unmatched.map((u) => [u.side, u.variant, u.tool, u.scenario, u.case, u.metric, u.reason]), [
    ['head', 'cache-off', 'wrk', 'peak', undefined, 'latency.p50', 'metric has no base value'],
    ['base', 'cache-off', 'wrk', 'peak', 'proto', 'duration', 'metric has no head value'],
    ['head', 'cache-off', 'wrk', 'new', undefined, undefined, 'job has no base result'],
    ['base', 'cache-off', 'ab', 'peak', undefined, undefined, 'job has no head result'],
  ]);
});

test('gives the same intervals for the same seed, others for another, and refuses two documents for one job', () => {
  const base = [doc({ metrics: { throughput: [8000, 12000, 9500, 11000, 7000, 10500, 9900, 8700, 11800, 10200] } })];
  const head = [doc({ metrics: { throughput: [13000, 9000, 10000, 7500, 11500, 9100, 10800, 12200, 8300, 9700] } })];
  assert.deepEqual(compare(base, head, CFG, { seed: 7 }), compare(base, head, CFG, { seed: 7 }));
  const one = compare(base, head, CFG, { seed: 1 }).comparisons[0];
  const seven = compare(base, head, CFG, { seed: 7 }).comparisons[0];
  near(one.lower, -0.16229345165238673, 'seed 1 lower');
  near(seven.lower, -0.1581395348837209, 'seed 7 lower');
  assert.equal(one.verdict, 'inconclusive');
  assert.throws(() => compare([...base, ...base], head, CFG), /two base result documents for job orders-api\/cache-on\/wrk\/peak/);
});

// Head-vs-base verdicts: paired rounds, sequential looks, the family of judged metrics, resolution, on data with known answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adjustForOtherWork, cannotSettle, compare, decide, judgeListProblem, judgeMissNote, looksOf, minEffectFor, moreRoundsHint, pairedStats, undecided, isJudged } from '../ci/compare.js';
import { metric } from '../ci/metrics.js';
import { render as renderComment } from '../ci/reports/comment.js';
import { render as renderConsole } from '../ci/reports/console.js';
import { render as renderSummary } from '../ci/reports/summary.js';
import { rng, signedRankTest, walshInterval } from '../ci/stats.js';

const CFG = { confidence: 0.95, alpha: 0.05, minEffect: 0.02, metrics: {} };
const ONE_LOOK = (n) => ({ looks: [n], weights: [1] });

/** A result document trimmed to what compare reads; metrics given as { name or name@case: samples }. */
function doc({ suite = 'orders-api', variant = 'cache-on', tool = 'wrk', scenario = 'peak', run = 'r1', role = 'head', sequential, judge, metrics }) {
  const list = Object.entries(metrics).map(([key, samples]) => {
    const [name, c] = key.split('@');
    return metric(name, samples[0], { samples, ...(c ? { case: c } : {}) });
  });
  return {
    suite, subject: suite, variant, tool: { name: tool, version: '4.1.0' }, scenario, run: { id: run, role },
    trials: list[0].samples.length, ...(sequential ? { sequential } : {}), ...(judge ? { judge } : {}), metrics: list,
  };
}
const pair = (metrics, { run = 'r1', ...rest } = {}) => [doc({ ...rest, run, role: 'base', metrics: metrics.base }), doc({ ...rest, run, role: 'head', metrics: metrics.head })];
const near = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} !== ${expected}`);

// Base wanders over 40% (a drifting, bursty machine); head is 10% lower in every round, within ±0.4%.
const BASE = [10000, 14000, 8000, 12000, 9000, 13000, 11000, 8500];
const EPS = [-0.004, 0.003, -0.001, 0.002, 0.004, -0.002, 0.001, -0.003];
const HEAD = BASE.map((b, i) => b * 0.9 * Math.exp(EPS[i]));

test('a 10% throughput drop in every round is a regression even while the machine drifts by 40%, with the exact signed-rank p and Walsh interval', () => {
  const [b, h] = pair({ base: { throughput: BASE }, head: { throughput: HEAD } }, { sequential: ONE_LOOK(8) });
  const { comparisons, counts, family } = compare([b], [h], CFG);
  const c = comparisons[0];
  assert.equal(c.method, 'paired');
  assert.equal(c.verdict, 'regression');
  near(c.p, 2 / 256, 'p: all 8 rounds agree, the smallest two-sided p of 8 pairs');
  near(c.change, 0.9 - 1, 'change: the Hodges-Lehmann estimate of the log ratio');
  // 95% with 8 pairs: the 4th smallest and 4th largest of the 36 Walsh averages, -0.003 and +0.003 around ln 0.9.
  near(c.lower, 0.9 * Math.exp(-0.003) - 1, 'lower');
  near(c.upper, 0.9 * Math.exp(0.003) - 1, 'upper');
  assert.equal(c.discovery, true);
  assert.deepEqual(counts, { regression: 1, improvement: 0, inconclusive: 0, 'no change': 0 });
  assert.deepEqual(family, { size: 1, alpha: 0.05, method: 'Benjamini-Hochberg' });
  // The same samples from two different runs cannot be paired: rank-sum over the drift says nothing.
  const unpaired = compare([{ ...b, run: { id: 'other', role: 'base' } }], [h], CFG).comparisons[0];
  assert.equal(unpaired.method, 'unpaired');
  assert.equal(unpaired.verdict, 'inconclusive');
});

test('a metric whose direction or unit differs between base and head is never judged, so an edited side cannot turn a regression into an improvement', () => {
  const slower = BASE.map((b) => b * 1.3);
  const [b, h] = pair({ base: { 'latency.p50': BASE, throughput: BASE }, head: { 'latency.p50': slower, throughput: slower } }, { sequential: ONE_LOOK(8) });
  // as read, latency is lower-is-better: 30% slower is a regression
  assert.equal(compare([b], [h], CFG).comparisons.find((c) => c.metric === 'latency.p50').verdict, 'regression');
  const flipped = { ...h, metrics: h.metrics.map((m) => (m.name === 'latency.p50' ? { ...m, better: 'higher' } : m)) };
  const r = compare([b], [flipped], CFG);
  assert.equal(r.comparisons.find((c) => c.metric === 'latency.p50'), undefined, 'no verdict at all, least of all "improvement"');
  const u = r.unmatched.find((x) => x.metric === 'latency.p50');
  assert.match(u.reason, /base and head disagree on the metric \(base: ns, lower is better; head: ns, higher is better\), so it is not compared/);
  assert.equal(r.unmatched.filter((x) => x.metric === 'latency.p50').length, 1, 'named once, not again as a base metric without a head value');
  assert.equal(r.comparisons.find((c) => c.metric === 'throughput').verdict, 'improvement', 'the other metric is judged as before');
  const otherUnit = { ...h, metrics: h.metrics.map((m) => (m.name === 'latency.p50' ? { ...m, unit: 'bytes' } : m)) };
  assert.match(compare([b], [otherUnit], CFG).unmatched.find((x) => x.metric === 'latency.p50').reason, /base: ns, lower is better; head: bytes, lower is better/);
  // the PR comment names it, apart from the metrics measured on one side only
  const body = renderComment({ docs: [{ ...flipped, runner: { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' } }], comparisons: r });
  assert.match(body, /⚠️ Not compared, because base and head disagree on the unit or on which way is better .*: orders-api\/cache-on\/wrk\/peak latency\.p50\./);
  assert.doesNotMatch(body, /measured on one side only/);
});

test('duet rounds are paired like any rounds and say so; a duet side against a document of another run is never judged', () => {
  const [b, h] = pair({ base: { throughput: BASE }, head: { throughput: HEAD } }, { sequential: ONE_LOOK(8) });
  const both = compare([{ ...b, duet: true }], [{ ...h, duet: true }], CFG);
  assert.equal(both.comparisons[0].duet, true);
  assert.equal(both.comparisons[0].method, 'paired');
  assert.equal(both.comparisons[0].verdict, 'regression');
  assert.equal(compare([b], [h], CFG).comparisons[0].duet, undefined, 'rounds in turn are no duet');
  // a duet head (about half of a run alone) against a base measured alone, or against another run's duet side
  for (const [base, head] of [[b, { ...h, duet: true }], [{ ...b, duet: true, run: { id: 'r0', role: 'base' } }, { ...h, duet: true }]]) {
    const r = compare([base], [head], CFG);
    const c = r.comparisons[0];
    assert.equal(c.verdict, 'inconclusive');
    assert.match(c.reason, /ran as a duet .* compare a duet only with its own run's other side/);
    assert.equal(c.duet, undefined);
    assert.equal(r.family.size, 0, 'not in the family: it has no test');
  }
});

test('a job whose load tool used all its cores cannot be "no change" (both sides may sit at the tool\'s ceiling); a regression, and zero errors on both sides, stand', () => {
  const load = (tool) => BASE.map(() => ({ seconds: 2, tool, subject: 0.5, other: 0, toolCores: 1 }));
  const same = BASE.map((b, i) => b * Math.exp(EPS[i]));
  const run = (head, tool) => {
    const [b, h] = pair({ base: { throughput: BASE, error_rate: BASE.map(() => 0) }, head: { throughput: head, error_rate: BASE.map(() => 0) } }, { sequential: ONE_LOOK(8) });
    return compare([{ ...b, load: load(tool) }], [{ ...h, load: load(tool) }], CFG).comparisons;
  };
  const free = run(same, 0.5);
  assert.deepEqual(free.map((c) => [c.metric, c.verdict]), [['throughput', 'no change'], ['error_rate', 'no change']]);
  const capped = run(same, 0.97);
  assert.equal(capped[0].verdict, 'inconclusive');
  assert.match(capped[0].reason, /^the load tool was the bottleneck \(base: wrk used 0\.97 of its 1 core, median trial\): both sides may sit at its ceiling, so "no change" cannot be told; give the load tool more cores or less load \(equivalence interval .* \(90%\) within ±2\.0%\)$/);
  assert.equal(capped[1].verdict, 'no change', 'no errors on either side is a count, not the tool\'s ceiling');
  assert.match(capped[0].capped, /^the load tool was the bottleneck \(base: wrk/, 'comparisons.json says which verdicts the ceiling could hide');
  assert.equal(capped[1].capped, undefined);
  assert.equal(run(HEAD, 0.97)[0].verdict, 'regression', 'the subject fell below the ceiling: that is seen');
});

test('a metric cannot settle when even at the last look its interval would still be wider than what either verdict needs', () => {
  const s = (change, lower, upper) => ({ change, lower, upper, minEffect: 0.02 });
  assert.equal(cannotSettle(s(0.005, -0.13, 0.14), 16, 32), true, 'A/A at ±13%: ±9% after 32 rounds, neither 0 excluded nor inside ±2%');
  assert.equal(cannotSettle(s(-0.05, -0.15, 0.05), 8, 32), false, 'a -5% change at ±10%: ±5% after 32 rounds may exclude 0');
  assert.equal(cannotSettle(s(0, -0.03, 0.03), 8, 32), false, '±3% after 8 rounds: ±1.5% after 32 fits inside ±2%');
  assert.equal(cannotSettle(s(0, -0.2, 0.2), 32, 32), false, 'at the last look there is nothing left to stop');
  assert.equal(cannotSettle(s(0, -Infinity, Infinity), 8, 32), false, 'no interval yet: no projection');
});

test('a metric that the last look\'s larger share of alpha could settle is not given up at an earlier look', () => {
  // wrk throughput of an A/A run at the second look (16 of 32 rounds, weights ¼ ¼ ½, alpha 0.05): the equivalence
  // interval at 97.5% reaches 2.9%; at 95% after 32 rounds it would be about ±1.45%, inside the 1.3% + ¼ margin left
  const s = { change: 0.007, lower: -0.021, upper: 0.032, level: 0.9875, minEffect: 0.02, equivalence: { lower: -0.018, upper: 0.029, level: 0.975 } };
  assert.equal(cannotSettle(s, 16, 32), true, 'projected at this look\'s level it looks futile');
  assert.equal(cannotSettle(s, 16, 32, 0.975), false, 'at the last look\'s level it may still settle');
  const wide = { ...s, lower: -0.13, upper: 0.14, equivalence: { lower: -0.12, upper: 0.13, level: 0.975 } };
  assert.equal(cannotSettle(wide, 16, 32, 0.975), true, 'an interval of ±13% stays futile whatever the level');
});

test('direction comes from the metric: latency up is a regression, latency down and throughput up are improvements', () => {
  const run = (name, factor) => compare(...pair({ base: { [name]: BASE.map((x) => x * 1000) }, head: { [name]: BASE.map((x, i) => x * 1000 * factor * Math.exp(EPS[i])) } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0].verdict;
  assert.equal(run('latency.p50', 1.2), 'regression');
  assert.equal(run('latency.p50', 0.8), 'improvement');
  assert.equal(run('throughput', 1.2), 'improvement');
});

test('5 rounds can never reach p < 0.05 with a two-sided signed-rank test, so such a job is never flagged', () => {
  near(signedRankTest([-1, -2, -3, -4, -5]).p, 0.0625, 'floor of 5 pairs');
  const c = compare(...pair({ base: { throughput: BASE.slice(0, 5) }, head: { throughput: HEAD.slice(0, 5) } }, { sequential: ONE_LOOK(5) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(c.verdict, 'inconclusive');
  assert.equal(c.reason, '5 rounds can never be significant (the smallest two-sided signed-rank p of n rounds is 2/2^n, here 0.063 ≥ 0.05); run at least 6 rounds (a job without trials: adds rounds until its metrics are decided, within --budget and compare.budget; one with trials: runs that many)');
});

test('sequential looks spend their share of alpha: the p-value is the smallest p_k / w_k, the interval is at 1 - alpha * w_last', () => {
  assert.deepEqual(looksOf(12, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] }), [{ n: 8, weight: 0.25 }, { n: 12, weight: 0.25 }]);
  assert.deepEqual(looksOf(10, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] }), [{ n: 8, weight: 0.25 }, { n: 10, weight: 0.75 }], 'a budget stop between looks is the last look: it spends what the look at 8 left');
  assert.deepEqual(looksOf(6, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] }), [{ n: 6, weight: 1 }], 'stopped by the budget before any look: the whole alpha');
  assert.deepEqual(looksOf(8, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] }), [{ n: 8, weight: 0.25 }], 'a stop at a planned look (decided there) keeps that look\'s share');
  assert.deepEqual(looksOf(8, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5], stopped: 'futile' }), [{ n: 8, weight: 0.25 }], 'so does a futility stop');
  assert.deepEqual(looksOf(8, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5], stopped: 'budget' }), [{ n: 8, weight: 1 }], 'the budget stopping a job right at its first look: no later look comes, so the whole alpha');
  assert.deepEqual(looksOf(12, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5], stopped: 'budget' }), [{ n: 8, weight: 0.25 }, { n: 12, weight: 0.75 }], 'and at a later look what the earlier looks left');
  assert.deepEqual(looksOf(20, { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] }).at(-1), { n: 20, weight: 0.5 });
  const s = pairedStats(BASE, HEAD, { alpha: 0.05, sequential: { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] } });
  near(s.p, (2 / 256) / 0.25, 'p of the one look, divided by its weight');
  near(s.level, 1 - 0.05 * 0.25, 'interval level');
});

test('a metric that crossed its share of alpha at an earlier look is decided there, with that look\'s change and interval', () => {
  // 8 rounds 10% lower (p = 2/256 at the look after 8), then 12 rounds that wander around 6% higher: with all
  // 20 rounds the interval reaches 0, but the look after 8 already decided, and the later rounds (run for the job's
  // other metrics) do not undo it.
  const r = rng(7);
  const base = Array.from({ length: 20 }, (_, i) => 10000 + 500 * i);
  const head = base.map((b, i) => (i < 8 ? b * 0.9 * Math.exp(EPS[i]) : b * 1.06 * Math.exp((r() - 0.5) * 0.2)));
  const sequential = { looks: [8, 20], weights: [0.5, 0.5] };
  const all = pairedStats(base, head, { alpha: 0.05, sequential });
  assert.ok(all.upper > 0 || all.lower > -0.02, `every round together does not show a 2% loss: ${all.lower}..${all.upper}`);
  assert.equal(all.atLook.n, 8);
  const c = compare(...pair({ base: { throughput: base }, head: { throughput: head } }, { sequential }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(c.verdict, 'regression');
  assert.equal(c.decidedAt, 8);
  near(c.change, 0.9 - 1, 'the change of the deciding look');
  assert.ok(c.upper < -0.09 && c.lower > -0.11, `that look's interval: ${c.lower}..${c.upper}`);
  near(c.level, 1 - 0.05 * 0.5, 'at that look\'s level');
  assert.match(c.reason, /\(decided at the look after 8 rounds\)$/);
  assert.equal(c.atLook, undefined, 'comparisons.json carries decidedAt, not the working copy');
  // Not a discovery: nothing is taken from an earlier look (the interval of every round speaks).
  const quiet = BASE.concat(BASE).map((b, i) => b * Math.exp((r() - 0.5) * 0.02));
  const q = compare(...pair({ base: { throughput: BASE.concat(BASE) }, head: { throughput: quiet } }, { sequential: { looks: [8, 16], weights: [0.5, 0.5] } }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(q.decidedAt, undefined);
  assert.equal(q.verdict, 'no change');
});

test('identical rounds are no change when the interval lies inside ±minEffect, and a real 1% shift is no change when only 3% counts', () => {
  const flat = BASE.map((b, i) => b * Math.exp(EPS[i] / 4));
  const same = compare(...pair({ base: { throughput: BASE }, head: { throughput: flat } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(same.verdict, 'no change');
  assert.match(same.reason, /^equivalence interval -0\.\d%\.\.\+0\.\d% \(90%\) within ±2\.0%$/);
  const small = compare(...pair({ base: { throughput: BASE }, head: { throughput: BASE.map((b, i) => b * 0.99 * Math.exp(EPS[i] / 4)) } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(small.verdict, 'no change');
  assert.match(small.reason, /^real \(p=0\.0078\) but small: equivalence interval -1\.\d%\.\.-0\.\d% \(90%\) within ±2\.0%$/);
});

test('a noisy metric is inconclusive and says about how many more rounds would settle it', () => {
  const r = rng(3);
  const noisy = BASE.map((b) => b * Math.exp((r() - 0.5) * 0.3));
  const c = compare(...pair({ base: { throughput: BASE }, head: { throughput: noisy } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(c.verdict, 'inconclusive');
  assert.ok(c.moreRounds > 8, `more rounds: ${c.moreRounds}`);
  assert.match(c.reason, /^(not settled yet: .*; about \d+ more rounds would likely settle it|too noisy: .*; more than 200 more rounds .*)$/);
  assert.match(c.reason, /: equivalence interval .* \(90%\) reaches past ±2\.0% and interval .* \(p=[\d.]+\) is not a discovery; /);
});

test('only the job\'s judged metrics get verdicts; duration, requests and bytes_received are shown and never judged, saying which parameter they restate', () => {
  const m = { throughput: BASE, duration: BASE.map(() => 2e9), requests: BASE.map((x) => x * 2), bytes_received: BASE.map((x) => x * 5000), 'latency.p90': BASE };
  const h = { throughput: HEAD, duration: BASE.map(() => 2e9), requests: HEAD.map((x) => x * 2), bytes_received: HEAD.map((x) => x * 5000), 'latency.p90': HEAD };
  const { comparisons, counts } = compare(...pair({ base: m, head: h }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG);
  const by = Object.fromEntries(comparisons.map((c) => [c.metric, c]));
  assert.equal(by.throughput.verdict, 'regression');
  for (const name of ['duration', 'requests', 'bytes_received']) {
    assert.equal(by[name].judged, false, name);
    assert.equal(by[name].verdict, null, name);
    assert.equal(by[name].reason, 'restates a run parameter (the count or duration the job set, and what its throughput makes of it): shown, never judged');
  }
  // the PR comment's information table shows the reason whole, not cut off with an ellipsis
  const comment = renderComment({ run: { id: 'r' }, docs: [], comparisons: { comparisons, counts } });
  assert.ok(comment.includes('restates a run parameter \\(the count or duration the job set, and what its throughput makes of it\\)&#58; shown, never judged |'), comment.slice(comment.indexOf('why no verdict'), comment.indexOf('why no verdict') + 600));
  assert.equal(by['latency.p90'].verdict, null, 'wrk judges p50 and p99, not p90');
  assert.equal(by['latency.p90'].reason, "information only: not one of this job's judged metrics");
  assert.equal(counts.regression, 1, 'the fewer requests and bytes of a slower run are no finding');
  assert.equal(isJudged({ tool: 'wrk', judge: ['latency.p9*', 'duration'] }, 'duration'), false, 'not even when a document lists it');
  assert.match(judgeListProblem(['throughput', 'bytes_*']), /^judge lists bytes_\*, which restates a run parameter/);
  assert.equal(judgeListProblem(['throughput']), null);
  assert.equal(judgeMissNote(['throughput', 'latency.*'], ['throughput', 'latency.p50', 'requests']), undefined);
  assert.equal(judgeMissNote(['thruput', 'latncy.*'], ['throughput', 'latency.p50', 'requests']), 'judge names "thruput", "latncy.*", which no metric of this job matches, so nothing is judged for them; its metrics: throughput, latency.p50');
});

test('a change below the tool\'s resolution is not a verdict: ab percentiles in whole milliseconds never show "no change 0.0%"', () => {
  const ms = 1e6;
  const base = [3, 3, 3, 3, 3, 3, 3, 3].map((x) => metric('latency.p50', x * ms, { resolution: ms }).value);
  const mk = (samples) => ({ ...metric('latency.p50', samples[0], { resolution: ms, samples }) });
  const b = { ...doc({ tool: 'ab', role: 'base', metrics: { throughput: BASE } }), judge: ['latency.p50'] };
  const h = { ...doc({ tool: 'ab', metrics: { throughput: BASE } }), judge: ['latency.p50'] };
  b.metrics = [mk(base)];
  h.metrics = [mk([3, 3, 4, 3, 3, 3, 3, 3].map((x) => x * ms))];
  const c = compare([b], [h], CFG).comparisons[0];
  assert.equal(c.verdict, 'below resolution');
  assert.match(c.reason, /^the change is no larger than the tool's resolution \(1 ms\), which rounding alone can make; it cannot be judged$/);
  assert.equal(compare([b], [h], CFG).family.size, 0, 'it is left out of the family');
});

test('zero errors on both sides is no change; errors appearing in every round are a regression', () => {
  const zeros = BASE.map(() => 0);
  const none = compare(...pair({ base: { error_rate: zeros }, head: { error_rate: zeros } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(none.verdict, 'no change');
  assert.equal(none.reason, 'zero on every trial of both sides');
  const appear = compare(...pair({ base: { error_rate: zeros }, head: { error_rate: BASE.map(() => 0.02) } }, { sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(appear.verdict, 'regression');
  assert.match(appear.reason, /^base median is zero, head is not \(p=0\.00\d+, a discovery in the family\)$/);
});

test('tied samples get exact p-values: errors from zero in 5 rounds and constant sides of 3 trials in two runs are never a discovery', () => {
  const five = compare(...pair({ base: { error_rate: [0, 0, 0, 0, 0] }, head: { error_rate: [0.02, 0.02, 0.02, 0.02, 0.02] } }, { sequential: ONE_LOOK(5) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(five.p, 0.0625, 'the floor of 5 rounds, not the normal approximation\'s 0.037');
  assert.equal(five.verdict, 'inconclusive');
  const b = doc({ run: 'a', role: 'base', metrics: { 'latency.p50': [10, 10, 10] } });
  const h = doc({ run: 'b', metrics: { 'latency.p50': [11, 11, 11] } });
  const three = compare([b], [h], CFG).comparisons[0];
  assert.equal(three.method, 'unpaired');
  assert.equal(three.p, 0.1, 'Mann-Whitney of 3 + 3 is at least 0.1, ties or not');
  assert.equal(three.verdict, 'inconclusive');
});

test('picks minEffect by exact name first, then the most specific glob, then the default', () => {
  const cfg = { minEffect: 0.03, metrics: { 'latency.*': 0.1, 'latency.p9*': 0.15, 'latency.p99': 0.2, '*': 0.05 } };
  assert.equal(minEffectFor('latency.p99', cfg), 0.2);
  assert.equal(minEffectFor('latency.p95', cfg), 0.15);
  assert.equal(minEffectFor('latency.p50', cfg), 0.1);
  assert.equal(minEffectFor('throughput', cfg), 0.05);
  assert.equal(minEffectFor('latency_total', { minEffect: 0.04, metrics: { 'latency.*': 0.1 } }), 0.04, 'the dot in a glob is literal');
});

test('a job\'s own minEffect (carried in its result documents) comes before compare.metrics, and decides its verdicts', () => {
  const cfg = { minEffect: 0.02, metrics: { 'time.mean': 0.02 } };
  assert.equal(minEffectFor('time.mean', cfg, { 'time.*': 0.05 }), 0.05, 'the job\'s glob beats the config\'s exact name');
  assert.equal(minEffectFor('time.max', cfg, { 'time.mean': 0.05 }), 0.02, 'a name the job does not list falls back to the config');
  // 3% slower in every round: a regression at the config's 2%, "no change" for a job that counts only 5% and more
  const slower = BASE.map((b, i) => b * 1.03 * Math.exp(EPS[i]));
  const [b, h] = pair({ base: { 'time.mean': BASE }, head: { 'time.mean': slower } }, { tool: 'hyperfine', sequential: ONE_LOOK(8) });
  assert.equal(compare([b], [h], CFG).comparisons[0].verdict, 'regression');
  const own = compare([{ ...b, minEffect: { 'time.mean': 0.05 } }], [{ ...h, minEffect: { 'time.mean': 0.05 } }], CFG).comparisons[0];
  assert.deepEqual([own.verdict, own.minEffect], ['no change', 0.05]);
});

test('matches documents by job and metrics by case and name, listing the rest as unmatched, and refuses two documents for one job', () => {
  const base = [doc({ role: 'base', variant: 'cache-off', tool: 'jmh', metrics: { 'time.mean@sbe': BASE, 'time.mean@proto': BASE } }), doc({ role: 'base', tool: 'ab', metrics: { throughput: BASE } })];
  const head = [doc({ variant: 'cache-off', tool: 'jmh', metrics: { 'time.mean@sbe': BASE.map((x, i) => x * 2 * Math.exp(EPS[i])), 'time.mean@json': BASE } }), doc({ scenario: 'new', metrics: { throughput: BASE } })];
  const { comparisons, unmatched } = compare(base, head, CFG);
  assert.deepEqual(comparisons.map((c) => [c.variant, c.case, c.metric, c.verdict]), [['cache-off', 'sbe', 'time.mean', 'regression']]);
  assert.deepEqual(unmatched.map((u) => [u.side, u.tool, u.scenario, u.case, u.metric, u.reason]), [
    ['head', 'jmh', 'peak', 'json', 'time.mean', 'metric has no base value'],
    ['base', 'jmh', 'peak', 'proto', 'time.mean', 'metric has no head value'],
    ['head', 'wrk', 'new', undefined, undefined, 'job has no base result'],
    ['base', 'ab', 'peak', undefined, undefined, 'job has no head result'],
  ]);
  assert.throws(() => compare([...base, ...base], head, CFG), /two base result documents for job orders-api\/cache-off\/jmh\/peak/);
});

test('at a look, the family counts what the job would bring if it stopped: not its metrics zero on every trial, and each case of a hyperfine job', () => {
  const looks = ONE_LOOK(8);
  const trialsOf = (metrics) => BASE.map((_, i) => ({ metrics: Object.entries(metrics).map(([key, values]) => {
    const [name, c] = key.split('@');
    return metric(name, values[i], c ? { case: c } : {});
  }) }));
  const zeros = BASE.map(() => 0);
  // p = 2/256 (all 8 rounds agree): above 0.05 / 8, below 0.05 / 6
  const k6 = { tool: 'k6', judge: ['latency.p50', 'errors', 'error_rate'], sequential: looks, cfg: CFG };
  const base = trialsOf({ 'latency.p50': BASE, errors: zeros, error_rate: zeros });
  const head = trialsOf({ 'latency.p50': BASE.map((b) => b * 1.1), errors: zeros, error_rate: zeros });
  assert.deepEqual(undecided(base, head, { ...k6, familySize: 8, planned: 3 }), [], 'its two error metrics, zero throughout, leave the family: 6 metrics, and p50 is decided');
  assert.deepEqual(undecided(base, head, { ...k6, familySize: 8, planned: 1 }).map((o) => o.key), ['latency.p50'], 'in a family of 8 all the same (other jobs planning 7), p50 stays undecided at 0.05 / 8');
  const withErrors = trialsOf({ 'latency.p50': BASE.map((b) => b * 1.1), errors: BASE.map((_, i) => i % 2), error_rate: BASE.map((_, i) => (i % 2) / 100) });
  assert.ok(undecided(base, withErrors, { ...k6, familySize: 8, planned: 3 }).some((o) => o.key === 'latency.p50'), 'errors on some trials stay in the family: 8 metrics');
  // three cases of one judged name: the family holds three metrics, not the one the plan counted
  const hf = { tool: 'hyperfine', judge: ['time.mean'], sequential: looks, cfg: CFG };
  const cases = (f) => trialsOf(Object.fromEntries(['a', 'b', 'c'].map((c) => [`time.mean@${c}`, BASE.map((b) => b * f)])));
  assert.equal(undecided(cases(1), cases(1.1), { ...hf, familySize: 5, planned: 1 }).length, 3, '5 - 1 + 3 = 7 metrics: 2/256 is above 0.05 / 7');
  assert.equal(undecided(cases(1), cases(1.1), { ...hf, familySize: 3, planned: 1 }).length, 0, '3 - 1 + 3 = 5 metrics: decided');
});

// ---------------------------------------------------------------- simulated runners

const NOISE = 0.01; // log-normal noise of one trial where no burst hits

/**
 * One simulated A/B run on a bad machine: per trial slot a slow drift, and bursts (a neighbour busy for a random
 * stretch of 1-4 trials, over part or all of each) that take throughput down with the neighbour's share of the
 * trial (about 35% per core, as measured with wrk on orders-api) plus 3% of noise of their own; the trial records
 * that share as its other work. Each round runs base and head in an order from the seeded coin.
 * Runs the sequential rule as the runner does (looks 8/12/20, stop when decided) and returns the documents.
 */
function simulateRun(random, { shift = 0, noise = 0.02, metrics = 1, order = 'random', looks = [8, 12, 20], weights = [0.25, 0.25, 0.5], freed = 0 }) {
  const sequential = { looks, weights };
  let burst = 0;
  let slot = 0;
  const slotFactor = () => {
    slot += 1;
    if (burst > 0) burst -= 1; else if (random() < 0.15) burst = 1 + Math.floor(random() * 4);
    const drift = 1 + 0.1 * Math.sin(slot / 40); // ±10% over a few minutes
    const share = burst > 0 ? 0.1 + random() * 0.9 : random() * 0.03;
    return { f: drift * Math.exp(-0.35 * share + (burst > 0 ? 0.03 * gauss(random) : 0)), other: share };
  };
  const names = Array.from({ length: metrics }, (_, k) => (k === 0 ? 'throughput' : `latency.p${50 + k}`));
  const trials = { base: [], head: [] };
  let rounds = 0;
  for (let t = 1; t <= looks.at(-1); t += 1) {
    const roles = order === 'random' && random() < 0.5 ? ['head', 'base'] : ['base', 'head'];
    for (const role of roles) {
      const { f, other: neighbour } = slotFactor();
      // freed: cores head's slower subject leaves idle, which a neighbour takes: other work the change itself makes
      const other = neighbour + (role === 'head' ? freed * (0.5 + random()) : 0);
      trials[role].push({ load: { seconds: 2, tool: 0.3, subject: 1, other }, metrics: names.map((name) => metric(name, 1e4 * f * Math.exp(noise * gauss(random)) * (role === 'head' ? 1 + shift : 1) ** (name === 'throughput' ? 1 : -1))) });
    }
    rounds = t;
    if (looks.includes(t) && !undecided(trials.base, trials.head, { tool: 'hyperfine', judge: names, sequential, cfg: CFG, familySize: metrics }).length) break;
  }
  const toDoc = (role) => {
    const d = doc({ tool: 'hyperfine', role, judge: names, sequential, metrics: Object.fromEntries(names.map((n, k) => [n, trials[role].map((tr) => tr.metrics[k].value)])) });
    return { ...d, load: trials[role].map((tr) => tr.load) };
  };
  return { base: toDoc('base'), head: toDoc('head'), rounds };
}
function gauss(random) {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

test('10,000 simulated A/A runs with drift and bursts, stopped early by the sequential rule, raise a false alarm at most alpha of the time', () => {
  const random = rng(20261123);
  let alarms = 0;
  let noChange = 0;
  const n = 10000;
  for (let i = 0; i < n; i += 1) {
    const { base, head } = simulateRun(random, { noise: NOISE });
    const c = compare([base], [head], CFG).comparisons[0];
    if (c.verdict === 'regression' || c.verdict === 'improvement') alarms += 1;
    if (c.verdict === 'no change') noChange += 1;
  }
  assert.ok(alarms / n <= CFG.alpha, `false-alarm rate ${(alarms / n).toFixed(4)}`);
  assert.ok(noChange / n > 0.5, `no change in ${noChange} of ${n}`);
});

test('with base always first, a machine that warms up makes A/A runs look like changes; the random order removes it', () => {
  const rate = (order) => {
    const random = rng(7);
    let alarms = 0;
    for (let i = 0; i < 1000; i += 1) {
      const { base, head } = simulateRun(random, { order, shift: 0, noise: 0.01 });
      // a warm-up that favours the second trial of a round by 2%: what a fixed order turns into a verdict
      head.metrics[0].samples = head.metrics[0].samples.map((x) => x);
      const c = compare([base], [head], CFG).comparisons[0];
      if (c.verdict === 'regression' || c.verdict === 'improvement') alarms += 1;
    }
    return alarms / 1000;
  };
  assert.ok(rate('random') <= CFG.alpha, `random order: ${rate('random')}`);
});

test('20 judged metrics of an A/A run stay unflagged together in at least 95% of 2,000 simulated runs (Benjamini-Hochberg over the family)', () => {
  const random = rng(11);
  let runsWithAlarm = 0;
  for (let i = 0; i < 2000; i += 1) {
    const { base, head } = simulateRun(random, { metrics: 20, looks: [12], weights: [1] });
    const { counts } = compare([base], [head], CFG);
    if (counts.regression + counts.improvement) runsWithAlarm += 1;
  }
  assert.ok(runsWithAlarm / 2000 <= CFG.alpha, `runs with any alarm: ${runsWithAlarm}/2000`);
});

test('a simulated 3% throughput loss is found in at least 80% of 1,000 runs within 20 rounds (1% noise per trial, drift, bursts in 15% of trial slots)', () => {
  const random = rng(5);
  let found = 0;
  let rounds = 0;
  const verdicts = {};
  for (let i = 0; i < 1000; i += 1) {
    const run = simulateRun(random, { shift: -0.03, noise: NOISE });
    rounds += run.rounds;
    const v = compare([run.base], [run.head], CFG).comparisons[0].verdict;
    if (v === 'regression') found += 1;
    verdicts[v] = (verdicts[v] || 0) + 1;
  }
  assert.ok(found >= 800, `found ${found} of 1000 (mean ${(rounds / 1000).toFixed(1)} rounds; ${JSON.stringify(verdicts)})`);
});

test('a large loss whose idle CPU a neighbour takes (head sees 0.5-1.5 more cores of other work) is found at about its size in 200 simulated runs, not taken for the neighbour\'s doing', () => {
  const random = rng(9);
  const tally = {};
  const changes = [];
  for (let i = 0; i < 200; i += 1) {
    const run = simulateRun(random, { shift: -0.5, noise: NOISE, freed: 1 });
    const c = compare([run.base], [run.head], CFG).comparisons[0];
    tally[c.verdict] = (tally[c.verdict] || 0) + 1;
    changes.push(c.change);
  }
  assert.ok((tally.regression || 0) >= 190, `verdicts of a true -50% change: ${JSON.stringify(tally)}`);
  changes.sort((a, b) => a - b);
  const mid = changes[100];
  assert.ok(mid < -0.4 && mid > -0.6, `median measured change ${mid} of a true -50%`);
});

test('a ninefold latency rise that moved the machine\'s other work is "not settled yet" with the few rounds its p lacks, never "too noisy" or a hint to raise minEffect', () => {
  // A real A/B run (k6 1.8.1, a closed-model script of 5 VUs, 2 s trials; head's subject busy 2 ms per request), stopped by
  // its budget at the first look (8 rounds, weight 0.25): latency.p50 per round in ns, and load[].other of each trial in
  // cores (a neighbour took what the slower head left idle, so other work fell on head's side in every round).
  const base = [713182, 481243, 600149, 696092, 466932, 717718, 521613, 518318];
  const head = [6279990, 4700074, 6353859, 5805156, 5409150, 4852145, 4768205, 4797824];
  const baseOther = [1.623, 1.445, 1.473, 1.427, 1.511, 1.124, 0.993, 1.046];
  const headOther = [1.269, 1.118, 1.263, 1.244, 1.163, 0.926, 0.888, 0.869];
  const sequential = { looks: [8, 16, 32], weights: [0.25, 0.25, 0.5], stopped: 'budget' };
  const [b, h] = pair({ base: { 'latency.p50': base }, head: { 'latency.p50': head } }, { tool: 'k6', scenario: 'vus', sequential });
  b.load = baseOther.map((other) => ({ seconds: 2, tool: 0.2, subject: 0.2, other }));
  h.load = headOther.map((other) => ({ seconds: 2, tool: 0.2, subject: 0.45, other }));
  const c = compare([b], [h], CFG).comparisons[0];
  assert.equal(c.verdict, 'inconclusive');
  assert.ok(c.lower > 5, `the interval lies far past 0: ${c.lower}`);
  assert.doesNotMatch(c.reason, /too noisy|minEffect/);
  // the budget stopped it at its first look, so that look spends the whole alpha: the measured ratios' test, at a tenth of
  // it, still needs a p of 2/2^n / 0.1 below 0.05, which 8 rounds (0.078) cannot give and 9 can
  assert.match(c.reason, /^not settled yet: interval \+\d+\.\d%\.\.\+\d+\.\d% excludes 0 and the change \(\+\d+\.\d%\) is past ±2\.0%, but p=0\.078 is not a discovery: the change moved the other work on the machine along with it, .*8 rounds cannot take its p below 0\.078; about 1 more round would likely settle it/);
  assert.equal(c.moreRounds, 1);
  // stopped at that look for another reason, it spends only the look's share (0.25): then 11 rounds are the fewest
  const early = compare([{ ...b, sequential: { ...sequential, stopped: 'futile' } }], [{ ...h, sequential: { ...sequential, stopped: 'futile' } }], CFG).comparisons[0];
  assert.match(early.reason, /but p=0\.31 is not a discovery: .*8 rounds cannot take its p below 0\.31; about 3 more rounds would likely settle it/);
});

test('other work is adjusted for through the origin, so swapping a round\'s order flips its adjusted difference and keeps the slope', () => {
  const d = [0.10, -0.02, 0.05, -0.12, 0.01, 0.07];
  const gap = [-0.6, 0.1, -0.3, 0.8, 0.0, -0.4];
  const a = adjustForOtherWork(d, gap);
  assert.ok(a.slope < -0.1, `a neighbour on head's side lowers head: slope ${a.slope}`);
  const flip = [0, 3];
  const b = adjustForOtherWork(d.map((x, i) => (flip.includes(i) ? -x : x)), gap.map((x, i) => (flip.includes(i) ? -x : x)));
  near(b.slope, a.slope, 'slope');
  b.d.forEach((x, i) => near(x, flip.includes(i) ? -a.d[i] : a.d[i], `round ${i}`));
  assert.deepEqual(adjustForOtherWork(d, gap.map(() => 0)), { d, slope: 0 }, 'no other work, nothing to adjust');
  assert.deepEqual(adjustForOtherWork(d.slice(0, 2), gap.slice(0, 2)), { d: d.slice(0, 2), slope: 0 }, 'too few rounds to fit');
});

test('a true change as large as minEffect ends "no change" in at most alpha of 2,000 simulated runs stopped early by the sequential rule (the equivalence error)', () => {
  const random = rng(42);
  const tally = {};
  for (let i = 0; i < 2000; i += 1) {
    const run = simulateRun(random, { shift: -CFG.minEffect, noise: NOISE });
    const v = compare([run.base], [run.head], CFG).comparisons[0].verdict;
    tally[v] = (tally[v] || 0) + 1;
  }
  assert.ok((tally['no change'] || 0) / 2000 <= CFG.alpha, `verdicts of a true -2% change: ${JSON.stringify(tally)}`);
  assert.ok((tally['no change'] || 0) > 0, `the bound is not trivially met by never saying no change: ${JSON.stringify(tally)}`);
});

test('"no change" is decided by the equivalence interval (two one-sided tests, level 1 - 2 x alpha x weight) and shown with it; a real change under minEffect whose interval reaches past it stays open', () => {
  const base = { head: { n: 16 }, base: { n: 16 }, better: 'higher', minEffect: 0.02, alpha: 0.05, method: 'paired', looks: [{ n: 16, p: 0.5, weight: 1 }], change: 0.004, absolute: 4, p: 0.5 };
  // the two-sided 95% interval reaches past ±2%, the 90% one does not: "no change", shown at 90%
  const eqInside = decide({ ...base, lower: -0.021, upper: 0.022, level: 0.95, equivalence: { lower: -0.015, upper: 0.018, level: 0.9 } }, false);
  assert.equal(eqInside.verdict, 'no change');
  assert.deepEqual([eqInside.lower, eqInside.upper, eqInside.level], [-0.015, 0.018, 0.9]);
  const eqOutside = decide({ ...base, lower: -0.021, upper: 0.022, level: 0.95, equivalence: { lower: -0.019, upper: 0.0201, level: 0.9 } }, false);
  assert.equal(eqOutside.verdict, 'inconclusive');
  assert.equal(eqOutside.lower, undefined, 'an open verdict keeps the discovery interval');
  // real (interval excludes 0) and -1.5% by its estimate, but the change may be -2.4%: not known to be small
  const real = decide({ ...base, p: 0.001, change: -0.015, lower: -0.026, upper: -0.004, level: 0.95, equivalence: { lower: -0.024, upper: -0.006, level: 0.9 } }, true);
  assert.equal(real.verdict, 'inconclusive');
  assert.match(real.reason, /^real \(p=0\.0010\) and -1\.5% by its estimate, under ±2\.0%, but its equivalence interval -2\.4%\.\.-0\.6% \(90%\) reaches past ±2\.0%; about \d+ more rounds? would likely tell whether it matters$/);
  const realSmall = decide({ ...base, p: 0.001, change: -0.01, lower: -0.021, upper: -0.002, level: 0.95, equivalence: { lower: -0.018, upper: -0.004, level: 0.9 } }, true);
  assert.equal(realSmall.verdict, 'no change');
  assert.match(realSmall.reason, /^real \(p=0\.0010\) but small: equivalence interval -1\.8%\.\.-0\.4% \(90%\) within ±2\.0%$/);
});

test('a "no change" is shown with the estimate of the interval that decided it, which lies inside that interval, also when the other-work adjustments of the two tests disagree', () => {
  // head 0.4% slower in every round, plus 1% per core of other work, which was higher on the head side in most rounds:
  // through the origin the slope takes part of the 0.4% as well, with an intercept it does not
  const gap = [1.2, -0.4, 0.9, 1.5, -0.2, 1.1, 0.3, 1.4, -0.5, 0.8, 1.3, 0.1, 1.0, -0.3, 1.6, 0.7];
  const base = Array.from({ length: 16 }, (_, i) => 1000 + (i % 3));
  const head = base.map((b, i) => b * Math.exp(0.004 + 0.01 * gap[i] + ((i % 5) - 2) * 1e-4));
  const s = pairedStats(base, head, { alpha: 0.05, otherGap: gap });
  assert.ok(s.otherSlope > 0.012 && s.otherWork === undefined, 'the adjusted test decides');
  assert.ok(s.equivalence.change > 0.0039 && s.equivalence.change < 0.0041, `the equivalence interval's estimate ${s.equivalence.change}`);
  assert.ok(s.change < s.equivalence.lower, `the adjusted test's estimate ${s.change} lies below the equivalence interval`);
  const out = decide({ ...s, head: { n: 16 }, base: { n: 16 }, better: 'lower', minEffect: 0.02, alpha: 0.05 }, false);
  assert.equal(out.verdict, 'no change');
  assert.equal(out.change, s.equivalence.change);
  assert.ok(out.lower <= out.change && out.change <= out.upper, `${out.change} in ${out.lower}..${out.upper}`);
  assert.ok(Math.abs(out.absolute / out.change - 1000) < 2, 'the absolute change goes with it');
});

test('a change far past its margin whose interval still reaches 0 counts the rounds that would exclude 0, not those that would fit it in the margin', () => {
  // the statistics of a real run's k6 p50 (16 paired rounds, a subject made about 20% slower, comparisons.json)
  const s = {
    method: 'paired', change: 0.2795, lower: -0.0413, upper: 0.4881, p: 0.0751, level: 0.9625, alpha: 0.05,
    equivalence: { change: 0.2973, lower: 0.0512, upper: 0.4825, level: 0.9325 },
    looks: [{ n: 8, p: 0.078, weight: 0.25 }, { n: 16, p: 0.056, weight: 0.75 }],
    head: { n: 16 }, base: { n: 16 }, better: 'lower', minEffect: 0.02,
  };
  const out = decide(s, false);
  assert.equal(out.verdict, 'inconclusive');
  // (0.2795 + 0.0413)^2 / 0.2795^2 x 16 = 21.1 rounds, so 6 more; fitting ±2% would take tens of thousands
  assert.equal(out.moreRounds, 6);
  assert.match(out.reason, /^not settled yet: .*about 6 more rounds would likely settle it$/);
  // a change under its margin is still counted by the equivalence interval
  const small = decide({ ...s, change: 0.01, lower: -0.02, upper: 0.04, equivalence: { lower: -0.015, upper: 0.035, level: 0.9325 } }, false);
  assert.equal(small.moreRounds, Math.ceil(16 * (0.025 / 0.01) ** 2) - 16);
});

test('a more-rounds hint counts rounds up to 200 and past that says the machine is too noisy instead of a count', () => {
  assert.equal(moreRoundsHint(1), 'about 1 more round would likely settle it');
  assert.equal(moreRoundsHint(12, 'tell whether it matters'), 'about 12 more rounds would likely tell whether it matters');
  assert.equal(moreRoundsHint(200), 'about 200 more rounds would likely settle it');
  assert.equal(moreRoundsHint(76122), 'more than 200 more rounds would be needed: too noisy here');
});

test('a base latency of 1e-305 ns against a normal head is judged a regression, not a crash of the bootstrap', () => {
  const b = doc({ run: 'a', role: 'base', metrics: { 'latency.p50': [1e-305, 1e-305, 1e-305, 1e-305, 1e-305] } });
  const h = doc({ run: 'b', metrics: { 'latency.p50': [5.8e6, 6.1e6, 5.3e6, 5.6e6, 5.4e6] } });
  const c = compare([b], [h], CFG).comparisons[0];
  assert.equal(c.method, 'unpaired');
  assert.equal(c.verdict, 'regression');
  assert.equal(c.upper, Infinity);
});

test('a base whose trials are sometimes 0 leaves the change open above: two runs a percent apart are not called "no change"', () => {
  // base trials 0, 0, 100, 101, 102: a third of the bootstrap's base medians are 0 and their ratios infinite
  const b = doc({ run: 'a', role: 'base', metrics: { 'latency.p50': [0, 0, 100, 101, 102] } });
  const h = doc({ run: 'b', role: 'head', metrics: { 'latency.p50': [100, 100, 101, 101, 102] } });
  const c = compare([b], [h], { ...CFG, minEffect: 0.05 }).comparisons[0];
  assert.equal(c.method, 'unpaired');
  assert.equal(c.upper, Infinity);
  assert.notEqual(c.verdict, 'no change');
});

test('a rise of a metric whose base is negative (a k6 gauge) is a rise: -10 to -5 where higher is better is an improvement of +50%, paired or from two runs', () => {
  const gauge = (samples) => metric('temperature_delta', samples[0], { unit: 'count', better: 'higher', samples });
  const sides = (base, head, { run = 'r1', headRun = run } = {}) => {
    const b = { ...doc({ run, role: 'base', judge: ['temperature_delta'], sequential: ONE_LOOK(8), metrics: { throughput: BASE } }), metrics: [gauge(base)] };
    const h = { ...doc({ run: headRun, judge: ['temperature_delta'], sequential: ONE_LOOK(8), metrics: { throughput: BASE } }), metrics: [gauge(head)] };
    return compare([b], [h], CFG).comparisons[0];
  };
  const base = BASE.map((x) => -x / 1000);
  const paired = sides(base, base.map((x) => x / 2));
  assert.equal(paired.method, 'paired');
  assert.equal(paired.verdict, 'improvement', 'head is higher in every round and higher is better');
  assert.ok(paired.change > 0.4 && paired.change < 0.6, `change ${paired.change} has the sign of head - base`);
  assert.ok(paired.lower <= paired.change && paired.change <= paired.upper, `interval ${paired.lower}..${paired.upper} holds its estimate in order`);
  assert.equal(sides(base, base.map((x) => x * 2)).verdict, 'regression', '-10 to -20 is a fall');
  const apart = sides(base, base.map((x) => x / 2), { run: 'a', headRun: 'b' });
  assert.equal(apart.method, 'unpaired');
  near(apart.change, 0.5, 'median -10.5 to -5.25 is +50% of the base\'s size');
  assert.ok(apart.lower > 0 && apart.upper > apart.lower, `the bootstrap interval ${apart.lower}..${apart.upper} lies above 0 as the change does`);
  assert.equal(apart.verdict, 'improvement');
});

test('documents of two runs whose trials saw other work differ by more than half a core are not judged: a neighbour busy through one run made the slower commit read 35% faster', () => {
  // Real runs (hyperfine 1.15.0 timing a Node CLI, 5 runs a trial; time.mean per trial in µs, load[].other in cores): the
  // base commit alone while other processes used 1.3 of the 2 cores, then the commit 2 ms slower, measured in a later run
  // beside 0.2 cores.
  const baseMean = [148345, 140362, 131966];
  const headMean = [97071, 98227, 91587, 80748, 101240, 90996, 105143, 99086, 98629, 108143, 86587, 102134, 79960, 98915, 72832, 98928,
    91401, 90632, 81253, 91433, 85918, 72981, 79884, 73677, 89854, 95079, 99667, 111602, 84732, 97427, 86720];
  const headOther = [0.18, 0.4, 0.81, 0.02, 0.24, 0.14, 0.37, 0.04, 0.08, 0.58, 0.43, 0.48, 0.8, 0.61, 0, 0.21, 0.37, 0.2, 0, 0.05, 0.02, 0,
    0.02, 0, 0.1, 0.42, 0.19, 0.37, 0.01, 0.25, 0.32];
  const side = (run, role, mean, other) => ({
    ...doc({ tool: 'hyperfine', scenario: 'cli', variant: 'cli', run, role, metrics: { 'time.mean@hello-cli': mean.map((x) => x * 1000) } }),
    load: other.map((o) => ({ seconds: 1, tool: 0.9, subject: 0, other: o })),
  });
  const base = side('r1', 'local', baseMean, [1.39, 1.29, 1.3]);
  const head = side('r2', 'head', headMean, headOther);
  const c = compare([base], [head], CFG).comparisons[0];
  assert.equal(c.verdict, 'inconclusive');
  assert.match(c.reason, /^base and head come from two runs, and other processes on the machine used a median of 1\.30 cores during base's trials and 0\.20 during head's \(more than 0\.5 apart\)/);
  assert.ok(c.change < -0.3, `the change as measured is still shown: ${c.change}`);
  // beside the same other work, the two runs are judged as before
  const calm = compare([base], [{ ...head, load: head.load.map((l) => ({ ...l, other: 1.2 })) }], CFG).comparisons[0];
  assert.equal(calm.verdict, 'improvement');
  // rounds of one run are paired and adjusted for other work instead
  assert.equal(compare(...pair({ base: { throughput: BASE }, head: { throughput: HEAD } }).map((d, i) => [{ ...d, load: BASE.map(() => ({ other: i ? 1.5 : 0 })) }]), CFG).comparisons[0].method, 'paired');
});

test('documents of two runs whose job ran with different params (10 connections against 50) are never judged, and the reason names each param that differs', () => {
  const b = { ...doc({ run: 'main-1', role: 'base', metrics: { throughput: BASE, 'latency.p50': BASE } }), params: { connections: 10, duration: '5s', threads: 2 } };
  const h = { ...doc({ run: 'pr-1', metrics: { throughput: BASE.map((x) => x * 1.5), 'latency.p50': BASE.map((x) => x * 3) } }), params: { connections: 50, duration: '5s', path: '/orders' } };
  const r = compare([b], [h], CFG);
  const by = Object.fromEntries(r.comparisons.map((c) => [c.metric, c]));
  for (const name of ['throughput', 'latency.p50']) {
    assert.equal(by[name].verdict, 'inconclusive', `${name}: a 50% and a 200% change of another load are no finding`);
    assert.equal(by[name].reason, 'base and head ran the job with different params (connections 10 → 50, path (unset) → "/orders", threads 2 → (unset)), so they measured different things and a change between them says nothing about the code; not judged: compare runs of one configuration');
  }
  assert.deepEqual(r.counts, { regression: 0, improvement: 0, inconclusive: 2, 'no change': 0 }, 'compare --fail-on-regression has nothing to fail on');
  assert.equal(r.family.size, 0, 'left out of the family, so they cannot crowd out other discoveries');
  assert.ok(by.throughput.change > 0.4, 'the change is still shown');
  // the same params (in any key order) are judged as before
  const same = compare([{ ...b, params: { threads: 2, duration: '5s', connections: 10 } }], [{ ...h, params: { connections: 10, duration: '5s', threads: 2 } }], CFG);
  assert.equal(same.comparisons.find((c) => c.metric === 'latency.p50').verdict, 'regression');
  const body = renderComment({ docs: [{ ...h, runner: { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' } }], comparisons: r });
  assert.match(body, /### benchline: ❔ no regression shown, 2 inconclusive/);
  assert.match(body, /\n⚠️ Not judged, because base and head ran this job with different params \(compare runs of one configuration\): orders-api\/cache-on\/wrk\/peak\.\n/, 'the comment says so above the fold');
  assert.match(body, /ran the job with different params \\\(connections 10 → 50/, 'and why, among the inconclusive reasons');
  assert.ok(r.comparisons.every((c) => c.paramsDiffer === true), 'comparisons.json marks them');
  assert.equal(same.comparisons[0].paramsDiffer, undefined);
});

test('a change of one step of a tool that prints whole milliseconds is no verdict: 3 ms in every base round and 4 ms in every head round may be 3.49 against 3.50 ms', () => {
  const ms = 1e6;
  const ab = (role, values, resolution = ms) => ({ ...doc({ tool: 'ab', role, judge: ['latency.p50'], sequential: ONE_LOOK(8), metrics: { throughput: BASE } }), metrics: [metric('latency.p50', values[0], { resolution, samples: values })] });
  const judge = (base, head, resolution) => compare([ab('base', base, resolution)], [ab('head', head, resolution)], CFG);
  const step = judge(BASE.map(() => 3 * ms), BASE.map(() => 4 * ms));
  assert.equal(step.comparisons[0].verdict, 'below resolution', 'not a +33% regression');
  assert.equal(step.counts.regression, 0, 'compare --fail-on-regression does not fail on it');
  assert.equal(step.family.size, 0);
  const two = judge(BASE.map(() => 3 * ms), BASE.map(() => 5 * ms)).comparisons[0];
  assert.equal(two.verdict, 'regression', 'two steps are at least one step of real change');
  assert.ok(two.change > 0.6, `${two.change}: latency up is shown as a rise`);
  // "0 ms" on every trial of both sides is anything under a millisecond: no "no change" claim
  const zero = judge(BASE.map(() => 0), BASE.map(() => 0)).comparisons[0];
  assert.equal(zero.verdict, 'below resolution');
  assert.equal(zero.change, 0);
  // a count of zero on both sides is exact, and stays no change
  const errors = compare(...pair({ base: { errors: BASE.map(() => 0) }, head: { errors: BASE.map(() => 0) } }, { judge: ['errors'], sequential: ONE_LOOK(8) }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(errors.verdict, 'no change');
  // the coarser side's step counts: a base document read at 1 ms against a head read at 1 µs
  const mixed = compare([ab('base', BASE.map(() => 3 * ms))], [ab('head', BASE.map(() => 4 * ms), 1000)], CFG).comparisons[0];
  assert.equal(mixed.verdict, 'below resolution');
});

test('the console report and job summary do not call a metric base and head read with another direction "measured on one side only"', () => {
  const [b, h] = pair({ base: { 'latency.p50': BASE, throughput: BASE }, head: { 'latency.p50': BASE, throughput: BASE } }, { sequential: ONE_LOOK(8) });
  const runner = { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' };
  const flipped = { ...h, runner, metrics: h.metrics.map((m) => (m.name === 'latency.p50' ? { ...m, better: 'higher' } : m)) };
  const both = compare([b], [flipped], CFG);
  const console = renderConsole({ docs: [flipped], comparisons: both });
  assert.match(console, /^ {2}Not compared \(base and head disagree on its unit or on which way is better\):\n {4}orders-api\/cache-on\/wrk\/peak Latency p50: base and head disagree on the metric/m);
  assert.doesNotMatch(console, /one side only/);
  assert.match(renderSummary({ docs: [flipped], comparisons: both }), /^Not compared \(base and head disagree on its unit or on which way is better\):$/m);
  // a metric that is new on head, beside it: both reasons in the heading
  const added = { ...flipped, metrics: [...flipped.metrics, metric('latency.p90', 1, { samples: BASE })] };
  assert.match(renderConsole({ docs: [added], comparisons: compare([b], [added], CFG) }), /^ {2}Not compared \(measured on one side only, or base and head disagree on its unit or on which way is better\):$/m);
  assert.match(renderConsole({ docs: [{ ...h, runner }], comparisons: compare([b], [{ ...h, metrics: [...h.metrics, metric('latency.p90', 1, { samples: BASE })] }], CFG) }), /^ {2}Not compared \(measured on one side only\):$/m);
});

test('errors that appear in 8 of 32 head rounds and never on base are a regression, though both medians and the change\'s estimate are 0', () => {
  const base = Array.from({ length: 32 }, () => 0);
  const head = base.map((_, i) => (i % 4 === 0 ? 0.01 : 0));
  const looks = { looks: [8, 16, 32], weights: [0.25, 0.25, 0.5] };
  const c = compare(...pair({ base: { error_rate: base }, head: { error_rate: head } }, { sequential: looks }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(c.absolute, 0, 'most rounds differ by nothing: the Hodges-Lehmann estimate is 0');
  assert.equal(c.discovery, true);
  assert.equal(c.verdict, 'regression', 'not "improvement", which the sign of 0 gave');
  assert.equal(c.reason, 'base median is zero, so is head\'s, but head is higher more often than lower (p=0.016 over 3 looks, a discovery in the family)');
  assert.equal(c.lean, undefined, 'comparisons.json keeps no working field');
  const fewer = compare(...pair({ base: { error_rate: head }, head: { error_rate: base } }, { sequential: looks }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(fewer.verdict, 'improvement', 'the other way round: errors in 8 base rounds, none on head');
  assert.match(fewer.reason, /^base median is zero, so is head's, but head is lower more often than higher \(/);
  // throughput, higher is better, from 0 on base: a rise in a quarter of the rounds is an improvement
  const up = compare(...pair({ base: { throughput: base }, head: { throughput: head.map((x) => x * 1e5) } }, { sequential: looks }).map((d) => [d]), CFG).comparisons[0];
  assert.equal(up.verdict, 'improvement');
  // two runs: the same from Mann-Whitney's U
  const b = doc({ run: 'a', role: 'base', metrics: { error_rate: base } });
  const h = doc({ run: 'b', metrics: { error_rate: head } });
  const apart = compare([b], [h], CFG).comparisons[0];
  assert.equal(apart.method, 'unpaired');
  assert.equal(apart.verdict, 'regression', 'the medians are 0 on both sides, and their difference gave "improvement" too');
});

test('an interval without an upper end (base trials at 0 in some bootstrap resamples) reads +∞ in the reasons, never "Infinity%" or "NaN"', () => {
  const judged = (b, h) => compare([doc({ run: 'a', role: 'base', judge: ['errors'], metrics: { errors: b } })], [doc({ run: 'b', judge: ['errors'], metrics: { errors: h } })], CFG);
  const r = judged([0, 0, 0, 1, 1, 1], [2, 2, 2, 2, 2, 2]);
  const c = r.comparisons[0];
  assert.equal(c.upper, Infinity, 'comparisons.json keeps the unbounded end');
  assert.equal(c.verdict, 'regression');
  assert.match(c.reason, /interval \+100\.0%\.\.\+∞ excludes 0/);
  const open = judged([0, 0, 1, 1, 1], [1, 1, 1, 2, 2]).comparisons[0];
  assert.equal(open.verdict, 'inconclusive');
  assert.match(open.reason, /interval \+0\.0%\.\.\+∞ \(p=/);
  const runner = { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' };
  for (const result of [r, judged([0, 0, 1, 1, 1], [1, 1, 1, 2, 2])]) {
    const docs = [{ ...doc({ run: 'b', metrics: { errors: [1] } }), runner }];
    for (const text of [renderComment({ docs, comparisons: result }), renderConsole({ docs, comparisons: result }), renderSummary({ docs, comparisons: result })]) {
      assert.doesNotMatch(text, /Infinity|NaN/);
    }
  }
});

test('a JMH job of one trial a side is never judged on its iterations: 3 forks x 10 iterations whose forks differ by a few percent look like a change between two JVM launches', () => {
  // one JVM launch a side, each of 3 forks at its own level (±3%), 10 iterations around it: the same code on both sides
  const forks = (levels) => levels.flatMap((l, f) => Array.from({ length: 10 }, (_, i) => 1000 * l * (1 + EPS[(i + f) % 8] / 2)));
  const jmh = (role, levels) => ({
    suite: 'serialization', subject: 'serialization', variant: 'default', tool: { name: 'jmh', version: '1.37' }, scenario: 'avgt', run: { id: 'r1', role }, trials: 1,
    metrics: [metric('time.mean', 1000, { case: 'encode', samples: forks(levels) })],
  });
  const r = compare([jmh('base', [1, 0.97, 0.99])], [jmh('head', [1.03, 1.02, 1.04])], CFG);
  const c = r.comparisons[0];
  assert.equal(c.verdict, 'inconclusive', 'a 4% difference of forks is no regression');
  assert.equal(c.reason, "too few trials: one trial a side, whose 30 and 30 values are jmh's own iterations or runs within it, sharing one process and one moment on the machine, so they cannot tell a change from that trial's luck or the machine's drift; for a verdict, leave trials: out of the job so an A/B run adds rounds until they decide");
  assert.equal(r.family.size, 0);
  assert.ok(c.change > 0.03, 'the change is still shown');
  // as read before, the 60 iterations made it a discovery
  assert.ok(compare([{ ...jmh('base', [1, 0.97, 0.99]), trials: 30 }], [{ ...jmh('head', [1.03, 1.02, 1.04]), trials: 30 }], CFG).comparisons[0].p < 0.001);
  // three trials a side, one value each: judged as trials (here from two runs, unpaired)
  const three = (role, run, values) => ({ ...doc({ tool: 'jmh', run, role, metrics: { 'time.mean@encode': values } }) });
  const judged = compare([three('base', 'a', [1000, 1010, 990, 1005])], [three('head', 'b', [1300, 1310, 1290, 1305])], CFG).comparisons[0];
  assert.equal(judged.verdict, 'regression');
});

test('a judged metric that head lost (a trial whose requests all failed leaves its latencies out) is named in the comment as having no verdict, not counted among new or removed metrics', () => {
  const runner = { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' };
  const [b, h] = pair({ base: { 'latency.p50': BASE, 'latency.p90': BASE, error_rate: BASE.map(() => 0) }, head: { 'latency.p50': BASE, 'latency.p90': BASE, error_rate: BASE.map(() => 0) } }, { sequential: ONE_LOOK(8) });
  const lost = { ...h, runner, metrics: h.metrics.filter((m) => !m.name.startsWith('latency.')), notes: ['metric latency.p50 is missing from some trials and was left out'] };
  const r = compare([b], [lost], CFG);
  const u = r.unmatched.find((x) => x.metric === 'latency.p50');
  assert.deepEqual([u.side, u.judged, u.reason], ['base', true, 'metric has no head value']);
  assert.equal(r.unmatched.find((x) => x.metric === 'latency.p90').judged, undefined, 'wrk judges p50 and p99, not p90');
  const body = renderComment({ docs: [lost], comparisons: r });
  assert.match(body, /⚠️ No verdict for 1 judged metric measured on one side only \(the notes of its result documents say why, e\.g\. a metric missing from some trials\): orders-api\/cache-on\/wrk\/peak latency\.p50 \\\(base only\\\)\./);
  assert.match(body, /\n1 benchmark or metric measured on one side only \(new, removed, or left out of one side's document\) is not compared\./, 'p90, information only, stays in the plain count');
  // the console names the note of the side that lost the metric, base's as well as head's
  const baseLost = { ...b, runner, metrics: b.metrics.filter((m) => !m.name.startsWith('latency.')), notes: ['metric latency.p50 is missing from some trials and was left out', 'trial 7: every one of the 10 requests timed out'] };
  const shown = renderConsole({ run: { base: { ref: 'main' } }, docs: [baseLost, { ...h, notes: ['trial 2: every one of the 12 requests timed out'] }], comparisons: compare([baseLost], [h], CFG) });
  assert.match(shown, /orders-api\/cache-on\/wrk\/peak \(base\): metric latency\.p50 is missing from some trials and was left out\n/);
  assert.match(shown, /orders-api\/cache-on\/wrk\/peak: every one of the 12 requests timed out \(trial 2 of \d+\)\n/);
  assert.doesNotMatch(shown, /\(base\): every one of the 10 requests timed out/, 'a note head has too (in other figures) is listed once, as head\'s');
});

test('a job whose errors rose gets no improvement: 5% of requests failing fast makes p50 30% lower and throughput higher, which are inconclusive, while the error rate is a regression', () => {
  const faster = BASE.map((b, i) => b * 0.7 * Math.exp(EPS[i]));
  const [b, h] = pair({
    base: { throughput: BASE, 'latency.p50': BASE, error_rate: BASE.map(() => 0) },
    head: { throughput: BASE.map((x, i) => x * 1.3 * Math.exp(EPS[i])), 'latency.p50': faster, error_rate: BASE.map(() => 0.05) },
  }, { sequential: ONE_LOOK(8) });
  const r = compare([b], [h], CFG);
  const by = Object.fromEntries(r.comparisons.map((c) => [c.metric, c]));
  assert.equal(by.error_rate.verdict, 'regression');
  for (const name of ['throughput', 'latency.p50']) {
    assert.equal(by[name].verdict, 'inconclusive', name);
    assert.match(by[name].reason, /^failures rose in this job \(its error_rate regressed\), so this better figure may come from failed requests or runs that end at once; not an improvement \(p=0\.0078, a discovery in the family; interval .* excludes 0; \|change\| ≥ 2\.0%\)$/);
  }
  assert.deepEqual(r.counts, { regression: 1, improvement: 0, inconclusive: 2, 'no change': 0 });
  // without the errors, the same figures are improvements
  const clean = compare([b], [{ ...h, metrics: h.metrics.map((m) => (m.name === 'error_rate' ? b.metrics.find((x) => x.name === 'error_rate') : m)) }], CFG);
  assert.equal(clean.comparisons.find((c) => c.metric === 'latency.p50').verdict, 'improvement');
  // hyperfine: a command that now fails at once loses its "faster" time; another command's faster time stands
  const cases = (times, errs) => ({ 'time.mean@app': times, 'errors@app': errs, 'time.mean@other': times });
  const [hb, hh] = pair({ base: cases(BASE, BASE.map(() => 0)), head: cases(faster, BASE.map(() => 2)) }, { tool: 'hyperfine', sequential: ONE_LOOK(8) });
  const hr = compare([hb], [hh], CFG).comparisons;
  const verdict = (name, c) => hr.find((x) => x.metric === name && x.case === c).verdict;
  assert.deepEqual([verdict('errors', 'app'), verdict('time.mean', 'app'), verdict('time.mean', 'other')], ['regression', 'inconclusive', 'improvement']);
});

test('failures that appear on head where base had none take away its improvements, also when the failure metric is not judged or not yet a discovery', () => {
  const faster = BASE.map((b, i) => b * 0.7 * Math.exp(EPS[i]));
  const clean = BASE.map(() => 0);
  const base = { throughput: BASE, 'latency.p50': BASE, error_rate: clean, checks_pass_rate: BASE.map(() => 1) };
  const head = (errorRate, checks = BASE.map(() => 1)) => ({ throughput: BASE.map((x, i) => x * 1.3 * Math.exp(EPS[i])), 'latency.p50': faster, error_rate: errorRate, checks_pass_rate: checks });
  const verdicts = (r) => Object.fromEntries(r.comparisons.map((c) => [c.metric, c.verdict]));
  // errors in 3 of 8 head rounds: too few for a discovery, yet p50 30% lower may be those failures answering at once
  const some = BASE.map((_, i) => (i % 3 === 0 ? 0.2 : 0));
  const [b, h] = pair({ base, head: head(some) }, { sequential: ONE_LOOK(8) });
  const r = compare([b], [h], CFG);
  const by = Object.fromEntries(r.comparisons.map((c) => [c.metric, c]));
  assert.equal(by.error_rate.verdict, 'inconclusive');
  for (const name of ['throughput', 'latency.p50']) {
    assert.equal(by[name].verdict, 'inconclusive', name);
    assert.match(by[name].reason, /^failures rose in this job \(its error_rate went from 0 % in every base trial to more in 3 of 8 head trials\), so this better figure may come from failed requests .*; not an improvement \(p=/);
  }
  // a regressed failure metric is named before one that only appeared (errors counts the same failures, unjudged)
  const [eb, eh] = pair({ base: { errors: clean, ...base }, head: { errors: BASE.map(() => 50), ...head(BASE.map(() => 0.05)) } }, { sequential: ONE_LOOK(8) });
  assert.match(compare([eb], [eh], CFG).comparisons.find((c) => c.metric === 'throughput').reason, /^failures rose in this job \(its error_rate regressed\)/);
  // a job that judges only its speed: half the requests failing still takes its improvements away, and says so
  const [jb, jh] = pair({ base, head: head(BASE.map(() => 0.5)) }, { sequential: ONE_LOOK(8), judge: ['throughput', 'latency.p50'] });
  const j = compare([jb], [jh], CFG);
  assert.deepEqual(verdicts(j), { throughput: 'inconclusive', 'latency.p50': 'inconclusive', error_rate: null, checks_pass_rate: null });
  assert.match(j.comparisons[0].reason, /its error_rate went from 0 % in every base trial to more in 8 of 8 head trials, though it is not judged/);
  // checks that stop passing count as failures too (higher is better there)
  const [cb, ch] = pair({ base, head: head(clean, BASE.map((_, i) => (i < 2 ? 0.9 : 1))) }, { sequential: ONE_LOOK(8) });
  assert.match(compare([cb], [ch], CFG).comparisons.find((c) => c.metric === 'latency.p50').reason, /its checks_pass_rate went from 100 % in every base trial to less in 2 of 8 head trials, though it is not judged/);
  // sporadic failures on both sides are no sign of a rise: the improvements stand
  const [sb, sh] = pair({ base: { ...base, error_rate: some }, head: head(some) }, { sequential: ONE_LOOK(8) });
  assert.deepEqual(verdicts(compare([sb], [sh], CFG)), { throughput: 'improvement', 'latency.p50': 'improvement', error_rate: 'inconclusive', checks_pass_rate: null });
});

test('the throughput of a load that paced itself (ghz --rps) is shown and never judged, even when the judge list names it: the rate was the one asked for', () => {
  const [b, h] = pair({ base: { throughput: BASE.map(() => 200), 'latency.p50': BASE }, head: { throughput: BASE.map((_, i) => 197 - (i % 2)), 'latency.p50': BASE } }, { tool: 'ghz', sequential: ONE_LOOK(8), judge: ['throughput', 'latency.p50'] });
  const paced = (d) => ({ ...d, metrics: d.metrics.map((m) => (m.name === 'throughput' ? { ...m, setBy: 'ghz paced its calls at --rps=200' } : m)) });
  // as measured, 1.5% under the rate asked for in every round is a real change, which "no change" would claim of the subject
  assert.notEqual(compare([b], [h], CFG).comparisons.find((c) => c.metric === 'throughput').verdict, null);
  for (const [base, head] of [[paced(b), paced(h)], [paced(b), h], [b, paced(h)]]) {
    const r = compare([base], [head], CFG);
    const t = r.comparisons.find((c) => c.metric === 'throughput');
    assert.equal(t.judged, false);
    assert.equal(t.verdict, null);
    assert.equal(t.reason, 'set by the load, not the subject (ghz paced its calls at --rps=200): shown, never judged; a slower subject shows in its latency');
    assert.equal(r.family.size, 1, 'only latency.p50 is in the family');
  }
  const body = renderComment({ docs: [{ ...paced(h), runner: { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU' } }], comparisons: compare([paced(b)], [paced(h)], CFG) });
  assert.match(body, /\| Throughput \| 200 \/s \| 196\.5 \/s \| -1\.8% \| set by the load, not the subject .*ghz paced its calls at --rps=200/);
  // the console names why beside the metric
  assert.match(renderConsole({ docs: [], comparisons: compare([paced(b)], [paced(h)], CFG) }), /orders-api\/cache-on\/ghz\/peak: Throughput -1\.8% \(set by the load, not the subject \(ghz paced its calls at --rps=200\): never judged\)/);
  // the runner does not wait for it to decide either
  const trials = (d) => d.metrics[0].samples.map((_, i) => ({ metrics: d.metrics.map((m) => ({ ...m, value: m.samples[i] })) }));
  const open = undecided(trials(paced(b)), trials(paced(h)), { tool: 'ghz', judge: ['throughput'], cfg: CFG, sequential: ONE_LOOK(8) });
  assert.deepEqual(open, []);
});

test('a trial\'s slowest or fastest value (latency.max, time.min) is shown and never judged, even when a judge glob covers it, and a judge list naming one is refused', () => {
  const [b, h] = pair({ base: { 'latency.max': BASE, 'latency.min': BASE, 'latency.p99': BASE }, head: { 'latency.max': BASE.map((x) => x * 1.5), 'latency.min': BASE.map((x) => x * 0.5), 'latency.p99': BASE } }, { sequential: ONE_LOOK(8), judge: ['latency.*'] });
  const r = compare([b], [h], CFG);
  const by = Object.fromEntries(r.comparisons.map((c) => [c.metric, c]));
  for (const name of ['latency.max', 'latency.min']) {
    assert.equal(by[name].judged, false, name);
    assert.equal(by[name].verdict, null, `${name}: one stalled request is no regression of the code`);
    assert.equal(by[name].reason, 'a single value of each trial (its slowest or fastest), which one pause or outlier sets: shown, never judged');
  }
  assert.equal(by['latency.p99'].verdict, 'no change');
  assert.equal(r.family.size, 1);
  assert.equal(isJudged({ tool: 'hyperfine', judge: ['time.*'] }, 'time.min'), false);
  assert.equal(isJudged({ tool: 'hyperfine', judge: ['time.*'] }, 'time.median'), true);
  assert.match(judgeListProblem(['latency.p50', 'latency.max']), /^judge lists latency\.max, a trial's single slowest or fastest value, which one pause or outlier sets and which is never judged; judge a percentile such as latency\.p99 instead$/);
  assert.equal(judgeListProblem(['latency.*', 'time.mean']), null, 'a glob passes them by');
});

test('a latency percentile that a trial\'s few requests leave at its slowest one (a p99 of 84 wrk requests) is shown and never judged, while the same p99 over 5,000 requests is', () => {
  // wrk's json.lua p99 of a 2-s trial of a slow endpoint: 84 requests, so its p99 is the trial's latency.max
  const few = BASE.map((x, i) => 84 + (i % 3));
  const slow = BASE.map((x) => x * 1.5);
  const [b, h] = pair({ base: { requests: few, 'latency.p99': BASE, 'latency.p50': BASE }, head: { requests: few, 'latency.p99': slow, 'latency.p50': slow } }, { sequential: ONE_LOOK(8) });
  const by = Object.fromEntries(compare([b], [h], CFG).comparisons.map((c) => [c.metric, c]));
  assert.equal(by['latency.p99'].judged, false);
  assert.equal(by['latency.p99'].verdict, null);
  assert.equal(by['latency.p99'].reason, 'the slowest request of a trial of 84 requests (a p99 of 100 or fewer has none above it), which one pause or outlier sets: shown, never judged; longer trials or a higher rate give it requests above it');
  assert.equal(by['latency.p50'].verdict, 'regression', 'a median of 84 requests rests on many');
  const many = BASE.map(() => 5000);
  const trial = (d, i) => ({ metrics: d.metrics.map((m) => ({ ...m, value: m.samples[i], samples: [m.samples[i]] })) });
  // a p99 that swings ±30% from round to round would keep the rounds going, were it judged
  const swings = BASE.map((x, i) => x * (i % 2 ? 1.3 : 0.75));
  const [, hs] = pair({ base: { requests: few, 'latency.p99': BASE }, head: { requests: few, 'latency.p99': swings } }, { sequential: ONE_LOOK(8) });
  const rounds = (d) => BASE.map((_, i) => trial(d, i));
  assert.deepEqual(undecided(rounds(b), rounds(hs), { tool: 'wrk', judge: ['latency.p99'], sequential: ONE_LOOK(8), cfg: CFG }), [], 'the rounds do not wait for it either');
  const [b3, h3] = [b, hs].map((d) => ({ ...d, metrics: d.metrics.map((m) => (m.name === 'requests' ? { ...m, samples: many, value: many[0] } : m)) }));
  assert.equal(undecided(rounds(b3), rounds(h3), { tool: 'wrk', judge: ['latency.p99'], sequential: ONE_LOOK(8), cfg: CFG }).length, 1, 'with many requests it does');
  const [b2, h2] = pair({ base: { requests: many, 'latency.p99': BASE }, head: { requests: many, 'latency.p99': slow } }, { sequential: ONE_LOOK(8) });
  assert.equal(compare([b2], [h2], CFG).comparisons.find((c) => c.metric === 'latency.p99').verdict, 'regression');
});

test('JMH\'s GC figures summed over the measurement time (alloc_rate, gc_count, gc_time) are never judged: a 20% faster benchmark allocating the same bytes per operation is no allocation regression', () => {
  const faster = BASE.map((b, i) => b * 0.8 * Math.exp(EPS[i]));
  const perOp = BASE.map(() => 96);
  const [b, h] = pair({
    base: { 'time.mean@decode': BASE, 'alloc_per_op@decode': perOp, 'alloc_rate@decode': BASE.map((t) => 96e9 / t), 'gc_count@decode': BASE.map(() => 4) },
    head: { 'time.mean@decode': faster, 'alloc_per_op@decode': perOp, 'alloc_rate@decode': faster.map((t) => 96e9 / t), 'gc_count@decode': BASE.map(() => 5) },
  }, { tool: 'jmh', sequential: ONE_LOOK(8), judge: ['time.mean', 'alloc_*', 'gc_*'] });
  const by = Object.fromEntries(compare([b], [h], CFG).comparisons.map((c) => [c.metric, c]));
  assert.equal(by['time.mean'].verdict, 'improvement');
  assert.equal(by.alloc_per_op.verdict, 'no change', 'the allocation per operation is the figure judged');
  for (const name of ['alloc_rate', 'gc_count']) {
    assert.equal(by[name].verdict, null, `${name}: +25% of it follows from the speed-up`);
    assert.match(by[name].reason, /^summed over the measurement time, so a faster benchmark shows more of it for the same allocation: shown, never judged/);
  }
  assert.match(judgeListProblem(['time.mean', 'alloc_rate']), /^judge lists alloc_rate, which JMH sums over its measurement time, .* judge alloc_per_op instead$/);
});

test('a k6 script\'s own count whose direction is only a guess (higher, by the rule for Counters) is never judged, even when the judge list names it: more retries would read as an improvement', () => {
  const guess = 'k6 Counter bl_retries is higher-is-better only by benchline\'s rule for a Counter of plain numbers, not by what it counts';
  // a script's own name is unknown to the registry: the k6 adapter gives its unit and direction
  const retries = (samples) => metric('retries', samples[0], { unit: 'count', better: 'higher', samples });
  const [b, h] = pair({ base: { 'latency.p50': BASE }, head: { 'latency.p50': BASE } }, { tool: 'k6', sequential: ONE_LOOK(8), judge: ['retries', 'latency.p50'] });
  b.metrics.unshift(retries(BASE));
  h.metrics.unshift(retries(BASE.map((x) => x * 1.5)));
  assert.equal(compare([b], [h], CFG).comparisons[0].verdict, 'improvement', 'as read, 50% more retries is an improvement');
  const marked = (d) => ({ ...d, metrics: d.metrics.map((m) => (m.name === 'retries' ? { ...m, guessed: guess } : m)) });
  const r = compare([marked(b)], [marked(h)], CFG);
  assert.equal(r.comparisons[0].verdict, null);
  assert.equal(r.comparisons[0].judged, false);
  assert.equal(r.comparisons[0].reason, `which way is better is not known (${guess}): shown, never judged; the job's better param (such as better: "retries=lower") says it`);
  assert.equal(r.family.size, 1);
});

test('a time of 0 on every trial of both sides is below resolution even from a tool that gives no step: hyperfine writes 0 for a command quicker than the shell it subtracts', async () => {
  const { parse } = await import('../ci/adapters/hyperfine.js');
  const { readFileSync } = await import('node:fs');
  // test/fixtures/hyperfine/shell-zero.json: `true` through the shell, 7 of 10 runs 0 s, its median 0
  const median = parse(readFileSync(new URL('./fixtures/hyperfine/shell-zero.json', import.meta.url), 'utf8')).metrics.find((m) => m.name === 'time.median');
  assert.equal(median.value, 0);
  assert.equal(median.resolution, undefined);
  const side = (role) => ({ ...doc({ tool: 'hyperfine', scenario: 'cli', role, sequential: ONE_LOOK(8), judge: ['time.median'], metrics: { 'time.median@true': BASE.map(() => median.value) } }) });
  const c = compare([side('base')], [side('head')], CFG).comparisons[0];
  assert.equal(c.verdict, 'below resolution', 'not "no change": both sides may be anything under the shell start-up');
  assert.equal(c.reason, 'a time of 0 on every trial of both sides, which is anything under what the tool can tell apart; it cannot be judged');
});

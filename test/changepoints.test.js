// Change-point detection: the E-divisive port against Apache Otava's own output, and steps found at their commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import seedrandom from 'seedrandom';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { changePoints, changePointsResumable, critical, fillMissing, pruned, PValueMemo, searched, significant, tTest } from '../ci/changepoints.js';
import { buildModel, seriesChangePoints } from '../ci/store/model.js';
import { syntheticDocs, commitOf } from '../ci/store/synthetic.js';

const FIXTURES = new URL('./fixtures/otava/', import.meta.url);
const readCsv = (name) => readFileSync(new URL(`${name}.csv`, FIXTURES), 'utf8').trim().split('\n').slice(1).map((line) => {
  const [time, commit, value] = line.split(',');
  return { time, commit, value: Number(value) };
});
const relClose = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol * Math.max(Math.abs(b), 1e-300), `${what}: ${a} vs otava ${b}`);

const apiCases = readdirSync(FIXTURES).filter((f) => f.endsWith('.api.json')).sort();

test('the shared fixture set covers default options, the merge step and the magnitude filter', () => {
  assert.deepEqual(apiCases, [
    'flat-noisy.api.json', 'flat-noisy.w50-p05.api.json', 'heavy-tail.api.json', 'heavy-tail.w20-p20.api.json', 'long.api.json',
    'long.w30-m05.api.json', 'multi-step.api.json', 'multi-step.w16-p01-m10.api.json', 'short.api.json', 'step-10pct.api.json',
  ]);
});

test('the quick significance check decides as the t-test p-value does, also a hair either side of the critical t', () => {
  const rng = seedrandom('critical-t');
  let checked = 0;
  let nearEdge = 0;
  for (const maxPValue of [0.001, 0.002, 0.01, 0.05, 0.2]) {
    for (let k = 0; k < 150; k += 1) {
      const n1 = 1 + Math.floor(rng() * 40);
      const n2 = 1 + Math.floor(rng() * 40);
      const noise = Array.from({ length: n1 + n2 }, () => 100 + (rng() - 0.5) * 10);
      // shift the second side so the p-value lands far from, near, or a hair either side of maxPValue
      const shifted = (d) => noise.map((x, i) => (i < n1 ? x : x + d));
      const p = (d) => tTest(shifted(d), 0, n1, n1 + n2).pvalue;
      let lo = 0;
      let hi = 1;
      while (p(hi) > maxPValue && hi < 1e6) hi *= 2;
      for (let i = 0; i < 200; i += 1) {
        const mid = (lo + hi) / 2;
        if (p(mid) > maxPValue) lo = mid;
        else hi = mid;
      }
      for (const d of [0, hi * 0.5, lo, hi, hi * (1 + 1e-12), lo * (1 - 1e-12), hi * 2, -hi, rng() * 20]) {
        const xs = shifted(d);
        const { pvalue } = tTest(xs, 0, n1, n1 + n2);
        assert.equal(significant(xs, 0, n1, n1 + n2, maxPValue), pvalue <= maxPValue, `n1=${n1} n2=${n2} shift=${d} maxP=${maxPValue}`);
        checked += 1;
        if (Math.abs(pvalue / maxPValue - 1) < 1e-6) nearEdge += 1;
      }
    }
  }
  assert.ok(nearEdge > 500, `only ${nearEdge} of ${checked} cases landed within 1e-6 of maxPValue`);
  // no spread on either side, one side only, and thresholds at which every or no t passes
  assert.equal(significant([1, 1, 2, 2], 0, 2, 4, 0.001), true);
  assert.equal(significant([1, 1, 1, 1], 0, 2, 4, 0.5), tTest([1, 1, 1, 1], 0, 2, 4).pvalue <= 0.5);
  assert.equal(significant([1, 2], 0, 1, 2, 0.5), false);
  assert.equal(significant([1, 2, 3, 4], 0, 2, 4, 1), true);
});

test('the critical t is where the two-sided p-value crosses the threshold, within a part in 10^10, for 1 to 5,000 degrees of freedom', () => {
  const twoSided = (t, df) => 2 * tCdf(-t, df);
  let checked = 0;
  for (const maxPValue of [1e-10, 1e-6, 0.001, 0.01, 0.05, 0.2]) {
    for (let df = 1; df <= 5000; df += df < 300 ? 1 : 37) {
      const tc = critical(df, maxPValue);
      assert.ok(twoSided(tc * (1 - 1e-10), df) > maxPValue && twoSided(tc * (1 + 1e-10), df) <= maxPValue, `df=${df} maxP=${maxPValue}: |t| ${tc}`);
      checked += 1;
    }
  }
  // a larger threshold is reached at a smaller |t|, and more degrees of freedom reach it sooner
  assert.ok(critical(10, 0.05) < critical(10, 0.001));
  assert.ok(critical(1000, 0.001) < critical(10, 0.001));
  assert.ok(checked > 2500, `only ${checked} thresholds checked`);
});

test('skipping windows where no split can be significant finds exactly what scanning every window finds', () => {
  const rng = seedrandom('prune');
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const shapes = {
    noise: (i) => 100 + gauss(),
    'steps near the edge of detection': (i) => 100 + gauss() + (i > 180 ? 0.8 : 0) + (i > 420 ? -1.5 : 0),
    'clear steps': (i) => 50 + gauss() * 0.5 + (i % 150 > 75 ? 5 : 0),
    'a large offset with tiny noise': (i) => 1e9 + gauss() * 1e-3 + (i > 300 ? 3e-3 : 0),
    'constant stretches': (i) => (i % 97 < 40 ? 7 : 7 + Math.round(gauss())),
    'heavy tail': (i) => 10 + 1 / Math.max(1e-3, rng()) ** 0.7,
    'gaps and outliers': (i) => (i % 31 === 0 ? null : i % 53 === 0 ? 1e4 : 20 + gauss()),
  };
  const before = pruned.windows;
  for (const [name, f] of Object.entries(shapes)) {
    const values = Array.from({ length: 600 }, (_, i) => f(i));
    for (const opts of [{}, { window: 20, maxPValue: 0.05 }, { window: 80, maxPValue: 0.0001, minSegment: 5, recheck: true, minMagnitude: 0.01 }]) {
      assert.deepEqual(changePoints(values, { ...opts, prune: true }), changePoints(values, { ...opts, prune: false }), `${name} ${JSON.stringify(opts)}`);
    }
  }
  assert.ok(pruned.windows - before > 100, `only ${pruned.windows - before} windows skipped`);
});

test('the merge drops the change point otava would, weakest p-value first, though it works out only the p-values that can decide which', () => {
  const rng = seedrandom('merge');
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  // long series with many weak candidates of every degree of freedom: noise, small steps, ties and flat stretches
  const shapes = {
    'noise with small steps': (i) => 100 + gauss() + (i > 700 ? 0.4 : 0) + (i > 1500 ? -0.3 : 0),
    'wide noise': (i) => 100 + gauss() * 20,
    'rounded values with ties': (i) => 7 + Math.round(gauss()),
    'flat stretches between steps': (i) => (i % 400 < 200 ? 5 : 5 + (i % 400) / 100 + gauss() * 0.01),
    'all equal': () => 3,
    'zeros then one': (i) => (i < 1900 ? 0 : 1),
    'outliers': (i) => (i % 97 === 0 ? 1e3 : 10 + gauss()),
  };
  const before = pruned.pvalues;
  for (const [name, f] of Object.entries(shapes)) {
    const values = Array.from({ length: 2000 }, (_, i) => f(i));
    for (const opts of [{}, { maxPValue: 0.05 }, { maxPValue: 0.0001, minSegment: 5, recheck: true, minMagnitude: 0.01 }, { minSegment: 3, minMagnitude: 0.002 }]) {
      assert.deepEqual(changePoints(values, { ...opts, prune: true }), changePoints(values, { ...opts, prune: false }), `${name} ${JSON.stringify(opts)}`);
    }
  }
  assert.ok(pruned.pvalues - before > 1000, `only ${pruned.pvalues - before} p-values passed over`);
});

test('p-values kept from an earlier search are taken bit for bit instead of being worked out again, and give the same change points', () => {
  const rng = seedrandom('memo');
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const values = Array.from({ length: 3000 }, (_, i) => 100 + gauss() * 3 + (i > 1200 ? 4 : 0) + (i % 211 === 0 ? 40 : 0));
  const opts = { minSegment: 5, recheck: true, minMagnitude: 0.01 };
  const first = new PValueMemo();
  const plain = changePoints(values, opts);
  assert.deepEqual(changePoints(values, { ...opts, pvalues: first }), plain);
  assert.ok(first.worked > 10, `the merge asked for ${first.worked} p-values`);
  const triples = first.triples();
  assert.equal(triples.length, 3 * first.worked);
  // the next build's memo starts from these: the same search works out none, one point more only a few
  const again = new PValueMemo(triples);
  assert.deepEqual(changePoints(values, { ...opts, pvalues: again }), plain);
  assert.equal(again.worked, 0);
  const grown = new PValueMemo(triples);
  const more = [...values, 104];
  assert.deepEqual(changePoints(more, { ...opts, pvalues: grown }), changePoints(more, opts));
  assert.ok(grown.worked < first.worked / 2, `${grown.worked} of ${first.worked} worked out again`);
  // a memo is taken as it is: one with other p-values gives other change points (so it must be kept as written)
  const wrong = triples.map((x, i) => (i % 3 === 2 ? 0.9 : x));
  assert.notDeepEqual(changePoints(values, { ...opts, pvalues: new PValueMemo(wrong) }), plain);
});

test('a p-value memo of thousands of entries gives back each one it was given, for either sign of t, and works out only the new', () => {
  const rng = seedrandom('table');
  const pairs = Array.from({ length: 5000 }, (_, i) => [(i % 7 === 0 ? -1 : 1) * rng() * 8, 2 + Math.floor(rng() * 20000)]);
  pairs.push([0, 10], [-0, 11], [1e-300, 3], [40, 2 ** 31 - 1]);
  const first = new PValueMemo();
  const ps = pairs.map(([t, df]) => first.get(t, df));
  const distinct = new Set(pairs.map(([t, df]) => `${Math.abs(t)}/${df}`)).size;
  assert.equal(first.worked, distinct);
  assert.ok(ps.every((p) => p >= 0 && p <= 1), 'p-values between 0 and 1');
  const again = new PValueMemo(first.triples());
  assert.deepEqual(pairs.map(([t, df]) => again.get(-t, df)), ps, 'the same p-value for -t as for t, bit for bit');
  assert.equal(again.worked, 0);
  // a pair it was not given: worked out once, then remembered
  const p = again.get(3.25, 77);
  assert.equal(again.worked, 1);
  assert.equal(again.get(-3.25, 77), p);
  assert.equal(again.worked, 1);
  assert.ok(Number.isNaN(again.get(NaN, 5)));
  assert.equal(again.triples().length, 3 * (distinct + 1));
});

test('a search resumed from the last one finds exactly what a search from scratch finds, as points are appended one by one or many at a time', () => {
  const rng = seedrandom('resume');
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const shapes = {
    noise: (i) => 100 + gauss(),
    'a step near the end': (i) => 100 + gauss() + (i > 560 ? 6 : 0),
    'clear steps': (i) => 50 + gauss() * 0.5 + (i % 150 > 75 ? 5 : 0),
    'gaps and outliers': (i) => (i % 31 === 0 ? null : i % 53 === 0 ? 1e4 : 20 + gauss()),
  };
  for (const [name, f] of Object.entries(shapes)) {
    const all = Array.from({ length: 620 }, (_, i) => f(i));
    for (const opts of [{}, { window: 20, maxPValue: 0.05 }, { minSegment: 5, recheck: true, minMagnitude: 0.01 }]) {
      let saved = null;
      for (let n = 2; n <= all.length; n += n < 540 ? 67 : 1) {
        const values = all.slice(0, n);
        const resumed = changePointsResumable(values, opts, saved);
        const fresh = changePointsResumable(values, opts);
        assert.deepEqual(resumed, fresh, `${name} ${JSON.stringify(opts)} at ${n} points`);
        saved = resumed.saved;
      }
    }
  }
});

test('a resumed search scans only the windows after the points it saw, and starts over when those points or the options changed', () => {
  const rng = seedrandom('resume-windows');
  const values = Array.from({ length: 2000 }, (_, i) => 10 + rng() + (i > 900 ? 3 : 0));
  const { saved } = changePointsResumable(values.slice(0, 1999));
  const count = (f) => {
    const before = searched.windows;
    const r = f();
    return [searched.windows - before, r];
  };
  const [resumed, a] = count(() => changePointsResumable(values, {}, saved));
  const [full, b] = count(() => changePointsResumable(values));
  assert.deepEqual(a, b);
  assert.ok(resumed <= 2 && full > 70, `${resumed} windows searched resumed, ${full} from scratch`);
  const changed = values.slice();
  changed[5] += 1;
  const [afterEdit, c] = count(() => changePointsResumable(changed, {}, saved));
  assert.equal(afterEdit, full);
  assert.deepEqual(c, changePointsResumable(changed));
  const [otherOptions] = count(() => changePointsResumable(values, { window: 40 }, saved));
  assert.ok(otherOptions > 70);
  // a shorter series than the saved one (points dropped) is searched from scratch as well
  assert.deepEqual(changePointsResumable(values.slice(0, 1500), {}, saved), changePointsResumable(values.slice(0, 1500)));
});

for (const file of apiCases) {
  test(`finds the change points otava 0.8.0 finds in ${file.replace('.api.json', '')}, with its p-values and means`, () => {
    const ref = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8'));
    const values = readCsv(file.split('.')[0]).map((r) => r.value);
    const got = changePoints(values, { window: ref.options.window, maxPValue: ref.options.max_pvalue, minMagnitude: ref.options.min_magnitude });
    assert.deepEqual(got.map((c) => c.index), ref.change_points.map((c) => c.index));
    got.forEach((c, i) => {
      const r = ref.change_points[i];
      relClose(c.pvalue, r.pvalue, 1e-9, `p at ${c.index}`);
      relClose(c.meanBefore, r.mean_before, 1e-12, `mean before ${c.index}`);
      relClose(c.meanAfter, r.mean_after, 1e-12, `mean after ${c.index}`);
      relClose(c.stddevAfter, r.stddev_after, 1e-9, `stddev after ${c.index}`);
      relClose(c.change * 100, r.forward_change_percent, 1e-12, `change at ${c.index}`);
    });
  });
}

test("matches otava's CLI report: the commit where each step starts, its rounded size and p-value", () => {
  for (const name of ['step-10pct', 'flat-noisy', 'multi-step', 'heavy-tail', 'long', 'short']) {
    const rows = readCsv(name);
    const report = JSON.parse(readFileSync(new URL(`${name}.otava.json`, FIXTURES), 'utf8'))[name];
    const got = changePoints(rows.map((r) => r.value));
    assert.deepEqual(got.map((c) => rows[c.index].commit), report.map((g) => g.attributes.commit), name);
    got.forEach((c, i) => {
      const [change] = report[i].changes;
      assert.equal((c.change * 100).toFixed(0), change.forward_change_percent, `${name} change at ${c.index}`);
      assert.equal(c.pvalue.toFixed(6), change.pvalue, `${name} p at ${c.index}`);
      assert.equal(c.meanBefore.toFixed(6), change.mean_before, `${name} mean before ${c.index}`);
    });
  }
});

test('marks the 10% step of step-10pct at commit c0060, and none on flat-noisy or on heavy-tailed noise', () => {
  const step = readCsv('step-10pct');
  const [cp, ...more] = changePoints(step.map((r) => r.value));
  assert.equal(more.length, 0);
  assert.equal(step[cp.index].commit, 'c0060');
  assert.equal(Number((cp.change * 100).toFixed(2)), 10.33);
  assert.deepEqual(changePoints(readCsv('flat-noisy').map((r) => r.value)), []);
  assert.deepEqual(changePoints(readCsv('heavy-tail').map((r) => r.value)), []);
});

test('a 10% throughput drop injected at run 60 of a published history is marked at that run\'s commit as a regression', () => {
  const docs = [...syntheticDocs({ runs: 100, noise: 0.02, steps: [{ from: 60, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.9 }] })];
  const model = buildModel({ docs });
  const byId = new Map(model.series.map((s) => [s.id, s]));
  const hit = seriesChangePoints(byId.get('orders-api/cache-on/ab/keepalive/throughput'), model.runs, { minMagnitude: 0.03, minSegment: 5, recheck: true });
  assert.equal(hit.length, 1);
  assert.equal(hit[0].commit, commitOf(60));
  assert.equal(hit[0].runId, model.runs[60].id);
  assert.equal(hit[0].kind, 'regression');
  assert.ok(Math.abs(hit[0].change + 0.1) < 0.01, `change ${hit[0].change}`);
  // the same metric of the untouched variant, and every other series, stay flat
  const others = model.series.filter((s) => s.id !== 'orders-api/cache-on/ab/keepalive/throughput');
  assert.equal(others.length, 49);
  for (const s of others) assert.deepEqual(seriesChangePoints(s, model.runs, { minMagnitude: 0.03, minSegment: 5, recheck: true }), [], s.id);
});

/** 200 points of 1% Gaussian noise around 1000 with one 15% outlier at point 120. */
function outlierSeries() {
  const random = seedrandom('outlier');
  const g = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const xs = Array.from({ length: 200 }, () => Number((1000 + 10 * g()).toFixed(3)));
  xs[120] = 1150;
  return xs;
}

test("otava's mode reports a one-run outlier as two steps; minSegment drops them and keeps real levels", () => {
  const xs = outlierSeries();
  assert.deepEqual(changePoints(xs).map((c) => c.index), [7, 23, 120, 121]);
  assert.deepEqual(changePoints(xs, { minSegment: 5 }).map((c) => c.index), [7, 23]);
  assert.deepEqual(changePoints(xs, { minSegment: 5, recheck: true, minMagnitude: 0.03 }), []);
});

test('recheck judges every step against the segments it really separates, where otava keeps some stale stats', () => {
  const xs = outlierSeries();
  const mean = (a, b) => xs.slice(a, b).reduce((s, v) => s + v, 0) / (b - a);
  const segmentsOf = (cps) => cps.map((c, i) => [i ? cps[i - 1].index : 0, c.index, i + 1 < cps.length ? cps[i + 1].index : xs.length]);
  const otava = changePoints(xs);
  const stale = segmentsOf(otava).filter(([a, b, c], i) => Math.abs(otava[i].meanAfter - mean(b, c)) > 1e-9 || Math.abs(otava[i].meanBefore - mean(a, b)) > 1e-9);
  assert.deepEqual(stale.map(([, b]) => b), [23]);
  const fresh = changePoints(xs, { recheck: true });
  assert.deepEqual(fresh.map((c) => c.index), [7, 23, 120, 121]);
  segmentsOf(fresh).forEach(([a, b, c], i) => {
    assert.ok(Math.abs(fresh[i].meanBefore - mean(a, b)) < 1e-9);
    assert.ok(Math.abs(fresh[i].meanAfter - mean(b, c)) < 1e-9);
  });
  assert.equal(Number((fresh[1].change * 100).toFixed(2)), 0.94);
});

test('fills gaps with the previous value and a leading gap with the first value, as otava does', () => {
  assert.deepEqual(fillMissing([null, 2, null, undefined, 5, NaN]), [2, 2, 2, 2, 5, 5]);
});

test('a series with gaps finds the change points of its gaps filled, given as an array or as floats with NaN', () => {
  const level = (i) => (i < 60 ? 100 : 130) + ((i * 7919) % 13) / 10;
  const values = Array.from({ length: 140 }, (_, i) => (i < 3 || i % 17 === 5 ? null : i % 29 === 7 ? undefined : i % 31 === 9 ? NaN : level(i)));
  const filled = changePoints(fillMissing(values));
  assert.ok(filled.some((c) => c.index === 60), JSON.stringify(filled));
  assert.deepEqual(changePoints(values), filled);
  assert.deepEqual(changePoints(Float64Array.from(values, (v) => v ?? NaN)), filled);
  assert.deepEqual(changePoints([null, null]), []);
  assert.deepEqual(changePoints([NaN, null, 4]).length, 0);
});

test("computes scipy's pooled two-sided t-test p-value from numpy's population deviations", () => {
  // scipy 1.16.3 in otava's venv: ttest_ind_from_stats(2, np.std([1,2,3]), 3, 5, np.std([4,5,6]), 3).pvalue = 0.010822550462608247
  const s = tTest([1, 2, 3, 4, 5, 6], 0, 3, 6);
  assert.equal(s.meanBefore, 2);
  assert.equal(s.meanAfter, 5);
  assert.equal(Number(s.pvalue.toPrecision(12)), 0.0108225504626);
  assert.equal(tTest([7, 9], 0, 1, 2).pvalue, 1);
});

test('the bundled t distribution gives the p-values and quantiles of the stdlib packages, bit for bit', async () => {
  const { cdf, quantile } = await import('../ci/t-dist.js');
  const require = createRequire(import.meta.url);
  const pkgCdf = require('@stdlib/stats-base-dists-t-cdf');
  const pkgQuantile = require('@stdlib/stats-base-dists-t-quantile');
  const random = seedrandom('t-dist');
  let compared = 0;
  for (const df of [1, 2, 3, 7, 30, 98, 99, 1000, 8763, 2 ** 20, 2.5, random() * 500]) {
    for (let k = 0; k < 60; k += 1) {
      const t = -Math.abs(20 * (random() - 0.5) ** 3 * 8);
      assert.ok(Object.is(cdf(t, df), pkgCdf(t, df)), `cdf(${t}, ${df})`);
      const p = 10 ** (-12 * random());
      assert.ok(Object.is(quantile(p, df), pkgQuantile(p, df)), `quantile(${p}, ${df})`);
      compared += 2;
    }
  }
  assert.equal(compared, 12 * 120);
});

test('the t distribution bundle is made on first use into the cache, named by the installed versions, and loaded from there after', () => {
  const cache = mkdtempSync(join(tmpdir(), 'benchline-t-dist-'));
  const script = `
    const { tDistBundlePath, tDistVersions, cdf } = await import('./ci/t-dist.js');
    process.stdout.write(JSON.stringify({ path: tDistBundlePath(), versions: tDistVersions(), p: cdf(-2, 5) }));`;
  const run = () => spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8', env: { ...process.env, BENCHLINE_MODULES: cache } });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  const made = JSON.parse(first.stdout);
  assert.equal(dirname(made.path), cache);
  assert.match(made.versions, /^@stdlib\/stats-base-dists-t-cdf@\S+ @stdlib\/stats-base-dists-t-quantile@\S+ esbuild@\S+$/);
  const text = readFileSync(made.path, 'utf8');
  assert.ok(text.startsWith(`// Made by benchline (ci/t-dist.js) from ${made.versions}.\n`), text.slice(0, 200));
  assert.equal(made.p, createRequire(import.meta.url)('@stdlib/stats-base-dists-t-cdf')(-2, 5));
  // a second process takes the kept file as it is: a marker written into it shows it was the one loaded
  writeFileSync(made.path, text.replace('module.exports = ', 'globalThis.keptBundle = true; module.exports = '));
  const again = spawnSync(process.execPath, ['--input-type=module', '-e', `await import('./ci/t-dist.js'); process.stdout.write(String(globalThis.keptBundle))`], { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8', env: { ...process.env, BENCHLINE_MODULES: cache } });
  assert.equal(again.stdout, 'true', again.stderr);
  rmSync(cache, { recursive: true, force: true });
});

test('the t distribution falls back to the packages themselves when its bundle cannot be kept', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'benchline-t-dist-')), 'a-file');
  writeFileSync(file, 'not a folder');
  const script = `const { cdf } = await import('./ci/t-dist.js'); process.stdout.write(String(cdf(-2, 5)));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8', env: { ...process.env, BENCHLINE_MODULES: join(file, 'modules') } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(Number(r.stdout), createRequire(import.meta.url)('@stdlib/stats-base-dists-t-cdf')(-2, 5));
});

test('the change point search loads none of the stdlib packages\' modules, only their bundle', () => {
  // the packages are 410 modules: loading them was over 100 ms of every process that builds the site
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const { changePoints } = await import('./ci/changepoints.js');
    changePoints([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], { window: 20 });
    process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('/node_modules/@stdlib/')).length));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), 0);
});

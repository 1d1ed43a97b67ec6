// Statistics core: the Mann-Whitney U test against known tables, reproducible bootstrap intervals, Walsh averages by rank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mannWhitney, bootstrapInterval, median, rng, signedRankCritical, signedRankTest, walshAt, walshInterval } from '../ci/stats.js';

test('Mann-Whitney gives the exact two-sided p for fully separated samples', () => {
  assert.deepEqual(mannWhitney([1, 2, 3], [4, 5, 6]), { u: 0, p: 0.1, method: 'exact' });
  assert.equal(mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p, 2 / 252);
});

test('Mann-Whitney gives p = 1 for interleaved samples and is symmetric', () => {
  assert.equal(mannWhitney([1, 4, 5, 8], [2, 3, 6, 7]).p, 1);
  assert.equal(mannWhitney([1, 5, 2, 8], [3, 4, 6, 7]).p, mannWhitney([3, 4, 6, 7], [1, 5, 2, 8]).p);
});

test('Mann-Whitney gives the exact permutation p with ties at small samples, and the normal approximation beyond 40 values', () => {
  const r = mannWhitney([1, 1, 2, 2, 3], [3, 4, 4, 5, 5]);
  assert.equal(r.method, 'exact');
  assert.equal(r.p, 4 / 252, 'the 2 of 252 splits as far out as this one, on each side');
  const big = mannWhitney([...Array(21).keys()].map((i) => i % 5), [...Array(21).keys()].map((i) => (i % 5) + 1));
  assert.equal(big.method, 'normal');
});

test('constant samples three a side are never a discovery: their exact p is 0.1, not the normal approximation\'s 0.047', () => {
  assert.deepEqual(mannWhitney([11, 11, 11], [10, 10, 10]), { u: 9, p: 0.1, method: 'exact' });
  assert.equal(mannWhitney([5, 5, 5], [5, 5, 5]).p, 1);
});

test('the signed-rank p of tied differences is exact: five equal ratios give 2/2^5, the floor of five rounds', () => {
  assert.deepEqual(signedRankTest([0.1, 0.1, 0.1, 0.1, 0.1]), { w: 15, n: 5, p: 0.0625, method: 'exact' });
  assert.equal(signedRankTest([1, 1, -1]).p, 1);
  // two tied pairs among eight: 6 of the 256 sign patterns lie as far from the mean as this one
  assert.equal(signedRankTest([0.1, 0.2, 0.2, 0.3, -0.1, 0.4, 0.4, 0.5]).p, 6 / 256);
});

test('a bootstrap interval is reproducible for a seed and brackets the estimate', () => {
  const args = { a: [10, 11, 12, 10.5, 11.5], b: [12, 13, 12.5, 13.5, 12.2], stat: (x, y) => median(y) / median(x), seed: 3 };
  const one = bootstrapInterval(args);
  assert.deepEqual(bootstrapInterval(args), one);
  assert.ok(one.lower <= one.estimate && one.estimate <= one.upper);
  assert.equal(one.estimate, 12.5 / 11);
  assert.ok(one.lower > 1, 'the head is clearly larger');
});

test('a list of levels gives one interval per level from the same resamples, each equal to its own call', () => {
  const args = { a: [10, 11, 12, 10.5, 11.5], b: [12, 13, 12.5, 13.5, 12.2], stat: (x, y) => median(y) / median(x), seed: 3 };
  const [wide, narrow] = bootstrapInterval({ ...args, confidence: [0.95, 0.9] });
  assert.deepEqual(wide, bootstrapInterval({ ...args, confidence: 0.95 }));
  assert.deepEqual(narrow, bootstrapInterval({ ...args, confidence: 0.9 }));
  assert.ok(narrow.lower >= wide.lower && narrow.upper <= wide.upper);
  assert.deepEqual(bootstrapInterval({ a: [5], stat: median, confidence: [0.95, 0.9] }), [{ estimate: 5, lower: 5, upper: 5 }, { estimate: 5, lower: 5, upper: 5 }]);
});

test('one sample gives a zero-width interval', () => {
  assert.deepEqual(bootstrapInterval({ a: [5], stat: median }), { estimate: 5, lower: 5, upper: 5 });
});

/** The definition: every Walsh average listed and sorted, the estimate their median, the bounds the k-th from each end. */
function walshByListing(d, confidence) {
  const all = [];
  for (let i = 0; i < d.length; i += 1) for (let j = i; j < d.length; j += 1) all.push((d[i] + d[j]) / 2);
  all.sort((a, b) => a - b);
  const k = signedRankCritical(d.length, (1 - confidence) / 2);
  const estimate = all.length ? median(all) : NaN;
  return k < 1 ? { estimate, lower: -Infinity, upper: Infinity } : { estimate, lower: all[k - 1], upper: all[all.length - k] };
}

test('Walsh averages picked by rank are the ones listing and sorting all of them gives, ties, signs and wide ranges included', () => {
  const random = rng(7);
  const shapes = {
    // log ratios of a few percent, as rounds give them
    ratios: (n) => Array.from({ length: n }, () => (random() - 0.45) * 0.1),
    // few distinct values: many averages tie
    ties: (n) => Array.from({ length: n }, () => Math.floor(random() * 4) - 1),
    // a cluster far from zero and one value far off: the search range is wide, the averages dense
    clustered: (n) => Array.from({ length: n }, (_, i) => (i === 0 ? -1e12 : 1e6 + random() * 1e-3)),
    constant: (n) => Array.from({ length: n }, () => 0.25),
    tiny: (n) => Array.from({ length: n }, () => (random() - 0.5) * 1e-300),
  };
  let checked = 0;
  for (const [shape, make] of Object.entries(shapes)) {
    for (const n of [0, 1, 2, 3, 10, 65, 66, 97, 150, 257]) {
      const d = make(n);
      for (const confidence of [0.95, 0.99, 0.5]) {
        const want = walshByListing(d, confidence);
        const got = walshInterval(d, confidence);
        for (const key of ['estimate', 'lower', 'upper']) {
          assert.ok(Object.is(got[key], want[key]) || got[key] === want[key], `${shape}, n=${n}, ${confidence}: ${key} ${got[key]} !== ${want[key]}`);
        }
        checked += 1;
      }
    }
  }
  assert.equal(checked, 150);
  // every rank of one array, so each way the search can end is taken
  const d = shapes.ties(80).map((x, i) => x + (i % 3) * 0.5);
  const all = [];
  for (let i = 0; i < d.length; i += 1) for (let j = i; j < d.length; j += 1) all.push((d[i] + d[j]) / 2);
  all.sort((a, b) => a - b);
  const s = Float64Array.from(d).sort();
  for (let k = 1; k <= all.length; k += 1) assert.equal(walshAt(s, k), all[k - 1], `rank ${k}`);
});

test('a ratio past the largest double on every resample gives an infinite interval instead of failing', () => {
  const r = bootstrapInterval({ a: [5e6, 6e6, 5.5e6], b: [1e-305, 1e-305, 1e-305], stat: (x, y) => median(x) / median(y), confidence: [0.95, 0.9] });
  assert.deepEqual(r, [{ estimate: Infinity, lower: Infinity, upper: Infinity }, { estimate: Infinity, lower: Infinity, upper: Infinity }]);
});

test('resamples whose base median is 0 keep the interval open above instead of being left out of it', () => {
  // a third of the base resamples have a median of 0, so a third of the ratios are infinite
  const r = bootstrapInterval({ a: [5, 5, 6, 6, 7], b: [0, 0, 1, 2, 3], stat: (x, y) => median(x) / median(y), confidence: 0.95 });
  assert.equal(r.upper, Infinity);
  assert.ok(Number.isFinite(r.lower) && r.lower > 1, `lower ${r.lower}`);
});

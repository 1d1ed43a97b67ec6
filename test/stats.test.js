// Statistics core: the Mann-Whitney U test against known tables, and reproducible bootstrap intervals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mannWhitney, bootstrapInterval, median } from '../ci/stats.js';

test('Mann-Whitney gives the exact two-sided p for fully separated samples', () => {
  assert.deepEqual(mannWhitney([1, 2, 3], [4, 5, 6]), { u: 0, p: 0.1, method: 'exact' });
  assert.equal(mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p, 2 / 252);
});

test('Mann-Whitney gives p = 1 for interleaved samples and is symmetric', () => {
  assert.equal(mannWhitney([1, 4, 5, 8], [2, 3, 6, 7]).p, 1);
  assert.equal(mannWhitney([1, 5, 2, 8], [3, 4, 6, 7]).p, mannWhitney([3, 4, 6, 7], [1, 5, 2, 8]).p);
});

test('Mann-Whitney falls back to the normal approximation with ties', () => {
  const r = mannWhitney([1, 1, 2, 2, 3], [3, 4, 4, 5, 5]);
  assert.equal(r.method, 'normal');
  assert.ok(r.p > 0.005 && r.p < 0.02, `p=${r.p}`);
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

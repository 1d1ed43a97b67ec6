// Series files: the dense layout reads back as the series it was made from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packSeries, unpackSeries } from '../ci/store/series-file.js';

const series = (run, n = run.map(() => 1)) => ({ id: 's', key: { suite: 'a' }, run, v: run.map((r) => r * 2), lo: run.map(() => null), hi: run.map((r) => r * 3), n, changes: [] });

test('a series of one point per run is written as a single range of runs with no run counts', () => {
  const s = series(Array.from({ length: 1000 }, (_, i) => i + 5));
  const packed = packSeries(s);
  assert.deepEqual(packed.runs, [[5, 1000]]);
  assert.deepEqual(packed.many, []);
  assert.equal(packed.run, undefined);
  assert.deepEqual(unpackSeries(packed), s);
});

test('gaps, repeated runs and points standing for several runs read back unchanged', () => {
  for (const s of [series([]), series([0]), series([0, 1, 2, 7, 8, 8, 9, 20], [1, 3, 1, 1, 2, 1, 1, 5]), series([3, 2, 1])]) {
    assert.deepEqual(unpackSeries(packSeries(s)), s);
    assert.deepEqual(unpackSeries(JSON.parse(JSON.stringify(packSeries(s)))), s);
  }
});

test('a series file of the earlier layout is read as it is', () => {
  const s = series([0, 1]);
  assert.equal(unpackSeries(s), s);
});

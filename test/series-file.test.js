// Series files: the dense layout reads back as the series it was made from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinSeries, packSeries, runRanges, runsOfRanges, splitSeries, unpackSeries } from '../ci/store/series-file.js';

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

test('run ranges give the same run indices written into a typed array as into a plain one, whatever their lengths and gaps', () => {
  for (const run of [[], [0], [5, 6, 7, 100, 101, 3], Array.from({ length: 5000 }, (_, i) => i + (i > 2000 ? 40 : 0)), Array.from({ length: 300 }, (_, i) => 3 * i)]) {
    const ranges = runRanges(run);
    assert.deepEqual(runsOfRanges(ranges), run);
    assert.deepEqual(Array.from(runsOfRanges(ranges, new Int32Array(run.length))), run);
  }
  // ranges reaching past the typed array do not fit it: an error, not indices dropped without a word
  assert.throws(() => runsOfRanges([[0, 10]], new Int32Array(5)), RangeError);
});

test('a series file of the earlier layout is read as it is', () => {
  const s = series([0, 1]);
  assert.equal(unpackSeries(s), s);
});

test('a series split into part files of fixed size and a series file of the newest points reads back whole', () => {
  for (const length of [0, 1, 9, 10, 11, 35]) {
    const s = series(Array.from({ length }, (_, i) => i + (i > 20 ? 3 : 0)), Array.from({ length }, (_, i) => (i % 7 ? 1 : 2)));
    const { head, parts } = splitSeries(s, 'data/series/a/b/c/d/m.js', 10);
    assert.equal(parts.length, Math.floor(length / 10));
    assert.deepEqual(head.parts, parts.map((_, k) => `data/series/a/b/c/d/m/${k}.js`));
    assert.equal(unpackSeries(head).v.length, length % 10, 'the series file holds the points after the last complete part');
    const back = joinSeries(JSON.parse(JSON.stringify(head)), parts.map((p) => JSON.parse(JSON.stringify(p.payload))));
    assert.deepEqual(back, s);
  }
});

test('points added to a series leave its complete part files as they were', () => {
  const grow = (length) => splitSeries(series(Array.from({ length }, (_, i) => i)), 'data/series/a/b/c/d/m.js', 10).parts;
  const before = grow(25);
  const after = grow(31);
  assert.equal(after.length, 3);
  assert.deepEqual(after.slice(0, 2), before);
});

test('a series file that names parts is not read without them', () => {
  const { head } = splitSeries(series(Array.from({ length: 12 }, (_, i) => i)), 'data/series/a/b/c/d/m.js', 10);
  assert.throws(() => joinSeries(head, []), /1 part files named, 0 given/);
});

// The dense run file layout: a run written with packRun reads back with unpackRun exactly as the model held it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../ci/store/model.js';
import { siteData } from '../ci/store/site-data.js';
import { packRun, tupleTable, unpackRun } from '../ci/store/run-file.js';
import { sameJson } from '../ci/store/read-cache.js';
import { syntheticDocs } from '../ci/store/synthetic.js';

const json = (x) => JSON.parse(JSON.stringify(x));

test('every run file of a generated history reads back as the run the model holds, in well under the bytes', () => {
  const docs = [...syntheticDocs({ runs: 3 })];
  const failure = { run: docs[0].run, job: { id: 'x.y.ab.z', suite: 'x', subject: 'x', variant: 'y', tool: 'ab', scenario: 'z' }, status: 'failed', reason: 'exit 1' };
  const { runFiles } = siteData(buildModel({ docs, failures: [failure] }));
  assert.equal(runFiles.length, 3);
  for (const f of runFiles) {
    const packed = JSON.stringify(packRun(f.payload));
    assert.deepEqual(unpackRun(JSON.parse(packed)), json(f.payload));
    assert.ok(packed.length < 0.65 * JSON.stringify(f.payload).length, `${packed.length} bytes packed against ${JSON.stringify(f.payload).length}`);
  }
});

test('sub-benchmark cases, absent intervals and fields the layout does not know survive the round trip', () => {
  const run = { id: 'r1', jobs: [{ id: 'j', status: 'ok', metrics: [
    { name: 'time.mean', case: 'sbeSerialize', unit: 'ns', better: 'lower', value: 12.5, samples: [12, 13], histogram: { buckets: [1, 2] } },
    { name: 'time.mean', unit: 'ns', better: 'lower', value: 3 },
  ] }, { id: 'k', status: 'failed', reason: 'exit 1' }] };
  assert.deepEqual(unpackRun(json(packRun(run))), run);
  assert.equal(unpackRun(run), run, 'a run file in the earlier layout is taken as it is');
});

test('a measured job leaves out its id, role and subject where its other fields say them, and reads back whole either way', () => {
  const job = { id: 'a.b.ab.c', role: 'main', status: 'ok', suite: 'a', subject: 'a', variant: 'b', tool: 'ab', scenario: 'c', metrics: [{ name: 'x', unit: 'ns', better: 'lower', value: 1 }],
    distributions: [{ name: 'latency', unit: 'ns', percentiles: [{ p: 50, value: 1 }, { p: 99, value: 2 }] }] };
  const run = { id: 'r1', role: 'main', jobs: [job] };
  const [packed] = packRun(run).jobs;
  assert.deepEqual(Object.keys(packed).filter((k) => ['id', 'role', 'subject'].includes(k)), []);
  assert.deepEqual(packed.distributions[0].pv, [[50, 1], [99, 2]]);
  assert.deepEqual(unpackRun(json(packRun(run))), run);
  const own = { ...job, id: 'custom', role: 'head', subject: 'other', distributions: [{ name: 'd', percentiles: [{ p: 50, value: 1, count: 3 }] }] };
  assert.deepEqual(unpackRun(json(packRun({ ...run, jobs: [own] }))), { ...run, jobs: [own] });
  const { subject, ...noSubject } = job;
  assert.deepEqual(unpackRun(json(packRun({ ...run, jobs: [noSubject] }))), { ...run, jobs: [noSubject] });
});

test('definitions are numbered in the order they first come, told apart value by value (null from "null", 1 from "1")', () => {
  const { list, indexOf } = tupleTable();
  assert.equal(indexOf(['a', 'ms', null]), 0);
  assert.equal(indexOf(['a', 'ms', 'null']), 1);
  assert.equal(indexOf(['a', 'ms', null]), 0, 'the same values again: the same number');
  assert.equal(indexOf(['a', 1, null]), 2);
  assert.equal(indexOf(['a', '1', null]), 3);
  assert.equal(indexOf(['b', 'ms', null]), 4);
  assert.deepEqual(list, [['a', 'ms', null], ['a', 'ms', 'null'], ['a', 1, null], ['a', '1', null], ['b', 'ms', null]]);
});

test('sameJson says two parsed values are equal exactly when their JSON texts are', () => {
  const pairs = [
    [{ a: 1, b: [1, 2, { c: null }] }, { a: 1, b: [1, 2, { c: null }] }],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }],
    [{ a: [] }, { a: {} }],
    [{ a: null }, {}],
    [[1, 2], [1, 2, 3]],
    ['1', 1],
    [null, {}],
    [{ cpu: { model: 'x', cores: 2 } }, { cpu: { model: 'x', cores: 4 } }],
  ];
  for (const [a, b] of pairs) assert.equal(sameJson(a, b), JSON.stringify(a) === JSON.stringify(b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
});

// Archived months as the store reads them: every index points into its table, every value is possible, and a month
// that breaks either is reported with its path and skipped (by readStore, compaction and the site) instead of failing.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publish, readStore, compact } from '../ci/store/store.js';
import { archiveProblems } from '../ci/store/schemas.js';
import { emptyArchive, indexArchive, foldDoc, foldFailure } from '../ci/store/archive.js';
import { buildSite } from '../ci/store/site.js';
import { readDataScript } from '../ci/store/site-data.js';
import { resultProblems } from '../ci/schema/index.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { tempDir } from './support/temp.js';

const jobs = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 2 },
];
const failedJob = { id: 'orders-api.cache-on.wrk.peak', suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', reason: 'health check timed out after 30 s' };
const POLICY = { keepDays: 20, keepRuns: 5, digits: 6 };
const ARCHIVE = join('archive', '2025-01.json');
// 60 daily runs from 1 January, two per commit: January (31 runs) is archived, February and 1 March keep documents
const RUNS = 60;

/** A results folder as `benchline run` writes it (run.json, docs/<role>/<job>.json), with failed jobs. */
function writeRunFolder(dir, docs, failed) {
  const run = docs[0].run;
  const list = docs.map((d) => {
    const id = `${d.suite}.${d.variant}.${d.tool.name}.${d.scenario}`;
    const rel = `docs/${run.role}/${id}.json`;
    mkdirSync(join(dir, 'docs', run.role), { recursive: true });
    writeFileSync(join(dir, rel), JSON.stringify(d));
    return { id, suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool.name, scenario: d.scenario, status: 'ok', docs: { [run.role]: rel } };
  });
  for (const f of failed) list.push({ ...f, status: 'failed', docs: {} });
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: run.id, startedAt: run.startedAt, finishedAt: run.startedAt, config: 'bench.config.yaml', profile: 'quick', head: { commit: run.commit, dirty: false }, jobs: list }));
  return dir;
}

let base; // a compacted store as publish and compact leave it
let healthy; // its January archive, parsed

before(async () => {
  const dir = tempDir('archive');
  base = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: RUNS, jobs, every: 86400e3, sameCommit: 2 })];
  await publish({ store: base, docs, compaction: false });
  // one January run also failed a job: its failure record is archived with the month
  const tenth = docs.filter((d) => d.run.startedAt.startsWith('2025-01-10'));
  await publish({ store: base, files: [writeRunFolder(join(dir, 'results', tenth[0].run.id), tenth, [failedJob])], compaction: false });
  const r = await compact({ store: base, policy: POLICY });
  assert.deepEqual(r.months, ['2025-01']);
  assert.deepEqual(r.problems, []);
  healthy = JSON.parse(readFileSync(join(base, ARCHIVE), 'utf8'));
});

/** A copy of the compacted store whose January archive `corrupt` changed (or whose text it returns). */
function corruptStore(name, corrupt) {
  const store = join(tempDir(`archive-${name}`), 'store');
  cpSync(base, store, { recursive: true });
  const archive = structuredClone(healthy);
  const text = corrupt(archive);
  writeFileSync(join(store, ARCHIVE), typeof text === 'string' ? text : `${JSON.stringify(archive)}\n`);
  return store;
}

const single = (a) => a.jobs[0].points.findIndex((p) => p.runs.length === 1);
const several = (a) => a.jobs[0].points.findIndex((p) => p.runs.length > 1);
const setRuns = (a, runs) => {
  a.runs = runs;
};

// what a hostile edit can do to an archive month, and the words its problem must hold
const corruptions = [
  { what: 'a point naming a run past the month\'s runs', corrupt: (a) => { a.jobs[0].points[0].runs = [999]; }, expect: /jobs\[0\]\.points\[0\] names run 999, the month has 31 runs/ },
  { what: 'an archive whose runs were emptied', corrupt: (a) => setRuns(a, []), expect: /jobs\[0\]\.points\[0\] names run 0, the month has 0 runs/ },
  { what: 'a point with no runs', corrupt: (a) => { a.jobs[0].points[0].runs = []; }, expect: /\/jobs\/0\/points\/0\/runs must NOT have fewer than 1 items/ },
  { what: 'a negative value', corrupt: (a) => { a.jobs[0].points[single(a)].v[2] = -1; }, expect: /jobs\[0\]\.points\[\d+\]\.v\[2\] = -1 ns \(orders-api\.cache-off\.ab\.keepalive latency\.mean\): a time cannot be negative/ },
  { what: 'a value of -1e308 among a point\'s per-run values', corrupt: (a) => { a.jobs[0].points[several(a)].v[0][1] = -1e308; }, expect: /jobs\[0\]\.points\[\d+\]\.v\[0\]\[1\] = -1e\+308 ops\/s \(orders-api\.cache-off\.ab\.keepalive throughput\): a rate cannot be negative/ },
  { what: 'a value beyond any real measurement', corrupt: (a) => { a.jobs[1].points[0].v[7][0] = 1e16; }, expect: /jobs\[1\]\.points\[0\]\.v\[7\]\[0\] = 10000000000000000 ns \(orders-api\.cache-on\.ab\.keepalive latency\.max\): above 1000000000000000 ns/ },
  { what: 'a ratio above 1', corrupt: (a) => { a.jobs[0].metrics[9].unit = 'ratio'; a.jobs[0].points[single(a)].v[9] = 1.5; }, expect: /v\[9\] = 1\.5 ratio \(orders-api\.cache-off\.ab\.keepalive errors\): a ratio must lie within 0\.\.1/ },
  { what: 'a value too large for a double (1e999 in the text)', corrupt: (a) => JSON.stringify(a).replace(/"v":\[\[[0-9.e+]+/, '"v":[[1e999'), expect: /jobs\[0\]\.points\[0\]\.v\[0\]\[0\] = Infinity ops\/s \(orders-api\.cache-off\.ab\.keepalive throughput\): not a finite number/ },
  { what: 'an interval whose upper bound lies below its lower bound', corrupt: (a) => { const p = a.jobs[0].points[single(a)]; p.lo[3] = 10; p.hi[3] = 5; }, expect: /jobs\[0\]\.points\[\d+\] \(orders-api\.cache-off\.ab\.keepalive latency\.p50\): interval lower 10 above upper 5/ },
  { what: 'a runner whose cpus is not a number', corrupt: (a) => { a.runners[0].cpus = 'x'; }, expect: /\/runners\/0\/cpus must be integer/ },
  { what: 'a run naming a runner past the month\'s runners', corrupt: (a) => { a.runs[3].runner = 5; }, expect: /runs\[3\] names runner 5, the month has 1 runner(;|$)/ },
  { what: 'a point naming a parameter set past the month\'s', corrupt: (a) => { a.jobs[1].points[2].params = 7; }, expect: /jobs\[1\]\.points\[2\] names parameter set 7, the month has 1 parameter set(;|$)/ },
  { what: 'a failure record naming a run past the month\'s runs', corrupt: (a) => { a.failures[0].run = 31; }, expect: /failures\[0\] names run 31, the month has 31 runs/ },
  { what: 'a point with one value more than its job has metrics', corrupt: (a) => { const p = a.jobs[0].points[0]; p.v.push(1); p.lo.push(null); p.hi.push(null); }, expect: /jobs\[0\]\.points\[0\] has 11 values, 11 lower bounds and 11 upper bounds for the job's 10 metrics/ },
  { what: 'a point whose lower bounds are one short', corrupt: (a) => { a.jobs[0].points[0].lo.pop(); }, expect: /jobs\[0\]\.points\[0\] has 10 values, 9 lower bounds and 10 upper bounds/ },
  { what: 'a per-run value list shorter than its point\'s runs', corrupt: (a) => { a.jobs[0].points[several(a)].v[4] = [1]; }, expect: /jobs\[0\]\.points\[\d+\]\.v\[4\] lists 1 value for the point's 2 runs \(orders-api\.cache-off\.ab\.keepalive latency\.p75\)/ },
  { what: 'a run listed twice in one job', corrupt: (a) => { a.jobs[0].points[1].runs[0] = a.jobs[0].points[0].runs[0]; }, expect: /jobs\[0\]\.points\[1\] names run 0 \(\S+\) again, as points\[0\] did/ },
  { what: 'a run listed twice in the month', corrupt: (a) => { a.runs.push({ ...a.runs[4] }); }, expect: /runs\[31\] repeats runs\[4\]/ },
  { what: 'a run dated outside the archive\'s month', corrupt: (a) => { a.runs[2].startedAt = '2025-03-03T00:00:00.000Z'; }, expect: /runs\[2\] \(\S+\) started 2025-03-03T00:00:00\.000Z, outside the archive's month 2025-01/ },
  { what: 'a run whose start is not a time', corrupt: (a) => { a.runs[2].startedAt = 'yesterday'; }, expect: /runs\[2\]\.startedAt "yesterday" is not a time/ },
  { what: 'a job listed twice', corrupt: (a) => { a.jobs.push(structuredClone(a.jobs[1])); }, expect: /jobs\[2\] repeats jobs\[1\] \(orders-api\.cache-on\.ab\.keepalive\)/ },
  { what: 'a metric listed twice in a job', corrupt: (a) => { a.jobs[1].metrics[1] = { ...a.jobs[1].metrics[0] }; }, expect: /jobs\[1\]\.metrics\[1\] repeats metrics\[0\] \(throughput\)/ },
  { what: 'a metric without a name', corrupt: (a) => { a.jobs[0].metrics[0].name = ''; }, expect: /\/jobs\/0\/metrics\/0\/name must match pattern/ },
  { what: 'a metric of an unknown unit', corrupt: (a) => { a.jobs[0].metrics[0].unit = 'furlongs'; }, expect: /\/jobs\/0\/metrics\/0\/unit must be equal to one of the allowed values/ },
];

test('an archive month compaction writes has no problems: points of one and of several runs, a failure record, intervals', () => {
  assert.equal(healthy.runs.length, 31);
  assert.equal(healthy.failures.length, 1);
  assert.ok(single(healthy) >= 0 && several(healthy) >= 0, 'points of one run and of several');
  assert.ok(healthy.jobs[0].points[single(healthy)].lo.every((x) => typeof x === 'number'), 'a point of one run keeps its intervals');
  assert.deepEqual(archiveProblems(healthy), []);
  const contents = readStore(base);
  assert.deepEqual(contents.problems, []);
  assert.equal(contents.archives.length, 1);
});

test('an archive folded from every kind of valid document passes: a metric added mid-month, a negative lower bound, runs of every role, a failure with no documents', () => {
  const archive = emptyArchive('2025-03', POLICY);
  const idx = indexArchive(archive);
  const docs = [...syntheticDocs({ runs: 6, jobs: jobs.slice(0, 1), start: Date.UTC(2025, 2, 1), every: 86400e3, sameCommit: 3, distributions: false, metrics: [['throughput', 12000], ['errors', 0]] })];
  // from the fourth run the job also measures latency.p99, so the points before it hold fewer values than it has metrics
  for (const d of docs.slice(3)) d.metrics.push({ ...d.metrics[0], name: 'latency.p99', unit: 'ns', better: 'lower', value: 4e6, samples: new Array(d.trials).fill(4e6), lower: 3.9e6, upper: 4.1e6 });
  // a tool's own confidence interval (JMH's score +- error) may reach below zero: a document allows it, so must an archive
  Object.assign(docs[5].metrics[1], { value: 0.5, samples: [0, 1, 0, 1, 1].slice(0, docs[5].trials), lower: -0.4, upper: 1.4 });
  // a head and a base run of one pull request
  for (const role of ['head', 'base']) docs.push({ ...structuredClone(docs[0]), run: { ...docs[0].run, id: '20250310T000000Z-pr0001', startedAt: '2025-03-10T00:00:00.000Z', role, trigger: 'pull_request', pr: 7, ...(role === 'head' ? { dirty: true } : {}) } });
  for (const d of docs) assert.deepEqual(resultProblems(d), [], 'a valid document');
  for (const d of docs) assert.equal(foldDoc(archive, idx, d, POLICY.digits), true);
  // a run that only failed: its record carries no runner
  const run = { id: '20250312T000000Z-fail01', startedAt: '2025-03-12T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
  const { reason, ...job0 } = failedJob;
  assert.equal(foldFailure(archive, idx, { schema: 'benchline/failure@1', run, job: job0, status: 'failed', reason }), true);
  const parsed = JSON.parse(JSON.stringify(archive));
  const job = parsed.jobs[0];
  assert.equal(job.metrics.length, 3);
  assert.ok(job.points.some((p) => p.v.length === 2), 'a point made before the job gained a metric');
  assert.ok(job.points.some((p) => p.runs.length === 3), 'a point of several runs');
  assert.deepEqual(parsed.runners.length, 2, 'the documents\' runner and the failure\'s {}');
  assert.deepEqual(archiveProblems(parsed), []);
});

for (const c of corruptions) {
  test(`${c.what} is reported with the archive's path and skipped, and the site still builds without it`, async () => {
    const problems = archiveProblems((() => {
      const a = structuredClone(healthy);
      const text = c.corrupt(a);
      return typeof text === 'string' ? JSON.parse(text) : a;
    })());
    assert.ok(problems.some((p) => c.expect.test(p)), `expected ${c.expect} in:\n${problems.join('\n')}`);
    assert.ok(problems.length <= 6, 'a few problems, not one per value');

    const store = corruptStore(c.what.replace(/\W+/g, '-').slice(0, 40), c.corrupt);
    const contents = readStore(store);
    assert.equal(contents.problems.length, 1);
    const [problem] = contents.problems;
    assert.equal(problem.path, join(store, ARCHIVE));
    assert.ok(problem.message.startsWith(`${join(store, ARCHIVE)}: `), problem.message);
    assert.match(problem.message, c.expect);
    assert.deepEqual(contents.archives, [], 'the month is skipped');

    const out = join(store, '..', 'site');
    const built = await buildSite({ store, out });
    assert.equal(built.runs, RUNS - 31, 'every run outside the broken month is on the site');
    assert.ok(built.series > 0);
    const index = readDataScript(readFileSync(join(out, 'data', 'index.js'), 'utf8')).payload;
    const listed = index.problems.find((p) => p.path === ARCHIVE);
    assert.ok(listed, JSON.stringify(index.problems));
    assert.match(listed.message, c.expect);
    assert.ok(listed.message.startsWith(`${ARCHIVE}: `), 'named by its place in the store');
  });
}

test('compaction refuses to fold a late document into an archive month it finds corrupt, and leaves both alone', async () => {
  const store = corruptStore('late', (a) => { a.jobs[0].points[0].runs = [999]; });
  const before = readFileSync(join(store, ARCHIVE), 'utf8');
  const [late] = syntheticDocs({ runs: 1, jobs: jobs.slice(0, 1), start: Date.UTC(2025, 0, 15, 12), seed: 9 });
  const r = await publish({ store, docs: [late], policy: POLICY });
  assert.equal(r.added, 1);
  assert.deepEqual(r.compacted.months, ['2025-01']);
  assert.equal(r.compacted.folded, 0);
  assert.match(r.compacted.problems[0].message, /jobs\[0\]\.points\[0\] names run 999, the month has 31 runs;.* month 2025-01 was not compacted$/);
  assert.equal(readFileSync(join(store, ARCHIVE), 'utf8'), before);
  assert.equal(readStore(store).docs.filter((d) => d.doc.run.id === late.run.id).length, 1, 'the late document stays');
});

test('a month of hourly runs, three runs a commit, passes as compaction folds it', () => {
  const archive = emptyArchive('2025-01', POLICY);
  const idx = indexArchive(archive);
  for (const d of syntheticDocs({ runs: 744, distributions: false, sameCommit: 3 })) foldDoc(archive, idx, d, POLICY.digits);
  assert.deepEqual(archiveProblems(JSON.parse(JSON.stringify(archive))), []);
});

// History store: idempotent, append-only publishing, concurrent publishers, compaction, and damaged files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, unlinkSync, mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { publish, readStore, readStoreFile, compact, docRelPath, monthsToArchive, STALE_TEMP_MS, listStore, runFolders, storeFiles, storePlaceProblem } from '../ci/store/store.js';
import { homedir } from 'node:os';
import { holdExitHandlers, listFiles, rewrite, writeFresh, writeReplace } from '../ci/store/files.js';
import { summary } from '../ci/commands/publish.js';
import { buildModel } from '../ci/store/model.js';
import { seriesPath, segment } from '../ci/store/paths.js';
import { syntheticDocs, commitOf } from '../ci/store/synthetic.js';
import { tempDir } from './support/temp.js';
import { loadDocuments, loadResultsDir } from '../ci/results-dir.js';

const temp = tempDir;
const jobId = (d) => `${d.suite}.${d.variant}.${d.tool.name}.${d.scenario}`;
const bytes = (dir) => listFiles(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);

/** A results folder as `benchline run` writes it: run.json, docs/<role>/<job>.json, plus failed jobs. */
function writeRunFolder(dir, docs, failed = []) {
  const run = docs[0].run;
  const jobs = docs.map((d) => {
    const id = jobId(d);
    const rel = `docs/${run.role}/${id}.json`;
    mkdirSync(join(dir, 'docs', run.role), { recursive: true });
    writeFileSync(join(dir, rel), JSON.stringify(d, null, 2));
    return { id, suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool.name, scenario: d.scenario, status: 'ok', docs: { [run.role]: rel } };
  });
  for (const f of failed) jobs.push({ ...f, status: 'failed', docs: {} });
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: run.id, startedAt: run.startedAt, finishedAt: run.startedAt, config: 'bench.config.yaml', profile: 'quick', head: { commit: run.commit, dirty: false }, jobs }));
  return dir;
}

const twoJobs = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 2 },
];
const failedJob = { id: 'orders-api.cache-on.wrk.peak', suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', reason: 'health check timed out after 30 s' };

test('names a document runs/<yyyy>/<mm>/<run>/<role>/<job>.json after its own content', () => {
  const [doc] = syntheticDocs({ runs: 1, jobs: twoJobs, role: 'local' });
  assert.equal(docRelPath(doc), 'runs/2025/01/20250101T000000Z-057847/local/orders-api.cache-off.ab.keepalive.json');
});

test('publishing nothing that is a result (a wrong path, a file of another kind) creates no store, and says why for each', async () => {
  const dir = tempDir('publish-nothing');
  const store = join(dir, 'new-store');
  const notes = join(dir, 'notes.txt');
  writeFileSync(notes, 'not a result\n');
  const r = await publish({ store, files: [notes, join(dir, 'missing.json')] });
  assert.equal(r.added, 0);
  assert.equal(r.errors.length, 2, JSON.stringify(r.errors));
  assert.match(r.errors[1].message, /missing\.json: no such file or folder/);
  assert.equal(existsSync(store), false, 'no store folder left behind');
});

test('publishing the same run folder twice stores it once and leaves every file as it was', async () => {
  const dir = temp('publish');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 1, jobs: twoJobs, role: 'local' })];
  const results = writeRunFolder(join(dir, 'results', docs[0].run.id), docs, [failedJob]);
  const first = await publish({ store, files: [results] });
  assert.deepEqual(first.errors, []);
  assert.deepEqual(first.paths.added, [
    'runs/2025/01/20250101T000000Z-057847/local/orders-api.cache-off.ab.keepalive.json',
    'runs/2025/01/20250101T000000Z-057847/local/orders-api.cache-on.ab.keepalive.json',
    'runs/2025/01/20250101T000000Z-057847/local/orders-api.cache-on.wrk.peak.failed.json',
  ]);
  const before = listFiles(store).map((f) => [f, readFileSync(join(store, f), 'utf8')]);
  const second = await publish({ store, files: [results] });
  assert.equal(second.added, 0);
  assert.equal(second.skipped, 3);
  assert.deepEqual(second.paths.skipped, first.paths.added);
  assert.deepEqual(listFiles(store).map((f) => [f, readFileSync(join(store, f), 'utf8')]), before);
  const failure = JSON.parse(readFileSync(join(store, first.paths.added[2]), 'utf8'));
  assert.equal(failure.schema, 'benchline/failure@1');
  assert.equal(failure.reason, 'health check timed out after 30 s');
  assert.equal(failure.run.role, 'local');
  assert.equal(failure.run.commit, commitOf(0));
});

test('temp files a killed publish left in the store are removed by the next one once they are stale, and a fresh one is left to its writer', async () => {
  const dir = temp('leftovers');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 2, jobs: twoJobs, role: 'local' })];
  await publish({ store, docs: docs.slice(0, 2) });
  const folder = join(store, 'runs', '2025', '01', docs[0].run.id, 'local');
  const old = join(folder, '.tmp-4242-deadbeef');
  const fresh = join(folder, '.tmp-4243-cafef00d');
  const oldArchive = join(store, 'archive', '2024-12.json.123456');
  mkdirSync(join(store, 'archive'), { recursive: true });
  for (const f of [old, fresh, oldArchive]) writeFileSync(f, '{"half":');
  const then = new Date(Date.now() - STALE_TEMP_MS - 60000);
  for (const f of [old, oldArchive]) utimesSync(f, then, then);
  const r = await publish({ store, docs: docs.slice(2) });
  assert.equal(r.compacted.leftovers, 2);
  assert.equal(existsSync(old), false);
  assert.equal(existsSync(oldArchive), false);
  assert.equal(existsSync(fresh), true, 'a temp file this young may belong to a writer at work');
  assert.match(summary(r, store), /removed 2 temp files a stopped publish left behind/);
  assert.deepEqual(readStore(store).problems, []);
});

test('a folder that is no store and holds other files, the root or the home folder is refused as a store before anything is written, and stale temp files are removed only where the store writes', async () => {
  const dir = temp('not-a-store');
  const project = join(dir, 'project');
  // a project folder given by mistake (--store .): a logrotate-style backup and a temp-like note, both old
  mkdirSync(join(project, 'src', 'sub'), { recursive: true });
  const backup = join(project, 'src', 'config.json.1');
  const note = join(project, 'src', 'sub', '.tmp-notes');
  for (const f of [backup, note]) writeFileSync(f, 'keep me');
  const then = new Date(Date.now() - STALE_TEMP_MS - 60000);
  for (const f of [backup, note]) utimesSync(f, then, then);
  const docs = [...syntheticDocs({ runs: 1, jobs: twoJobs, role: 'local' })];
  await assert.rejects(publish({ store: project, docs }), /project: is not a history store \(no store\.json\) and holds other files \(src\), which a store never does; give a new or empty folder/);
  assert.deepEqual(readdirSync(project), ['src'], 'no store.json, no runs/');
  assert.ok(existsSync(backup) && existsSync(note));
  assert.throws(() => readStore(project), /is not a history store/, 'nor is it read as one');
  for (const place of ['/', homedir()]) assert.match(storePlaceProblem(place), /a history store needs a folder of its own/);
  // names like a temp file's are no store's unless they are the very names its writers use
  const backups = join(dir, 'backups');
  mkdirSync(backups);
  for (const f of ['db.json.1', '.tmp-draft']) writeFileSync(join(backups, f), 'keep me');
  assert.match(storePlaceProblem(backups), /backups: is not a history store \(no store\.json\) and holds other files \(\.tmp-draft, db\.json\.1\)/);
  for (const own of ['store.json.lock', 'store.json.123', '.tmp-42-deadbeef']) {
    mkdirSync(join(dir, `own-${own}`));
    writeFileSync(join(dir, `own-${own}`, own), '');
    assert.equal(storePlaceProblem(join(dir, `own-${own}`)), null, own);
  }
  // an empty folder, or one with only a store's folders (its store.json lost), is a store
  mkdirSync(join(dir, 'empty'));
  assert.equal((await publish({ store: join(dir, 'empty'), docs })).added, 2);
  // in a store, the temp files of its writers go only where they write
  const store = join(dir, 'empty');
  mkdirSync(join(store, 'own', 'notes'), { recursive: true });
  const mine = join(store, 'own', 'notes', '.tmp-1-deadbeef');
  const theirs = join(store, 'db.json.1');
  const stale = join(store, 'runs', '2025', '01', docs[0].run.id, 'local', '.tmp-2-deadbeef');
  for (const f of [mine, theirs, stale]) writeFileSync(f, '{');
  for (const f of [mine, theirs, stale]) utimesSync(f, then, then);
  const r = await publish({ store, docs: [...syntheticDocs({ runs: 2, jobs: twoJobs, role: 'local' })].slice(2) });
  assert.equal(r.compacted.leftovers, 1);
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(mine), true, 'a folder the store does not write is not its to clean');
  assert.equal(existsSync(theirs), true, 'nor a name its writers never use');
});

test('a store path under a file names that file, not the store folder it asked for', async () => {
  const dir = temp('under-a-file');
  const file = join(dir, 'afile');
  writeFileSync(file, 'x\n');
  assert.equal(storePlaceProblem(join(file, 'sub', 'deeper')), `${join(file, 'sub', 'deeper')}: ${file} is a file, not a folder, so no history store can be made inside it; give a store folder whose parents are folders (it is created when missing)`);
  assert.match(storePlaceProblem(file), /afile: is a file, not a history store folder/);
  await assert.rejects(publish({ store: join(file, 'sub'), docs: [...syntheticDocs({ runs: 1, jobs: twoJobs })] }), /afile is a file, not a folder/);
});

test('refuses to overwrite a stored job with different results and keeps the first', async () => {
  const dir = temp('conflict');
  const store = join(dir, 'store');
  const [doc] = syntheticDocs({ runs: 1, jobs: twoJobs.slice(0, 1) });
  await publish({ store, docs: [doc] });
  const changed = structuredClone(doc);
  changed.metrics[0].value += 1;
  const file = join(dir, 'changed.json');
  writeFileSync(file, JSON.stringify(changed));
  const r = await publish({ store, files: [file] });
  assert.equal(r.added, 0);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, /changed\.json: .*runs\/2025\/01\/20250101T000000Z-057847\/main\/orders-api\.cache-off\.ab\.keepalive\.json already holds different content/);
  assert.equal(JSON.parse(readFileSync(join(store, docRelPath(doc)), 'utf8')).metrics[0].value, doc.metrics[0].value);
});

test('an A/B run\'s duet results are left out of the history, counted and named, and the solo results beside them are added', async () => {
  const dir = temp('duet');
  const store = join(dir, 'store');
  const [solo, duet] = syntheticDocs({ runs: 1, jobs: twoJobs, role: 'head' });
  duet.duet = true;
  const r = await publish({ store, docs: [solo, duet] });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.paths.added, [docRelPath(solo)]);
  assert.deepEqual(r.paths.duets, [docRelPath(duet)]);
  assert.equal(r.duets, 1);
  assert.equal(existsSync(join(store, docRelPath(duet))), false);
});

test('names an invalid input document and still publishes the valid ones beside it', async () => {
  const dir = temp('invalid');
  const store = join(dir, 'store');
  const [good, bad] = syntheticDocs({ runs: 1, jobs: twoJobs });
  delete bad.runner;
  writeFileSync(join(dir, 'good.json'), JSON.stringify(good));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
  writeFileSync(join(dir, 'torn.json'), '{"schema": "benchline/res');
  const r = await publish({ store, files: [join(dir, 'good.json'), join(dir, 'bad.json'), join(dir, 'torn.json')] });
  assert.equal(r.added, 1);
  assert.deepEqual(r.errors.map((e) => e.file), [join(dir, 'bad.json'), join(dir, 'torn.json')]);
  assert.match(r.errors[0].message, /bad\.json does not match benchline\/result@1:\n {2}\/ must have required property 'runner'/);
  assert.match(r.errors[1].message, /torn\.json: result document is not valid JSON/);
});

test('a run folder\'s document swapped in from another run is not published, and the refusal names that file; the run\'s own documents are', async () => {
  const dir = temp('swapped');
  const store = join(dir, 'store');
  const [mine, kept, , foreign] = syntheticDocs({ runs: 2, jobs: twoJobs });
  const run = writeRunFolder(join(dir, 'run'), [mine, kept]);
  const swapped = join(run, 'docs', 'main', `${jobId(mine)}.json`);
  writeFileSync(swapped, JSON.stringify(foreign));
  const r = await publish({ store, files: [run] });
  assert.deepEqual(r.paths.added, [docRelPath(kept)]);
  assert.deepEqual(r.errors.map((e) => e.file), [swapped]);
  assert.match(r.errors[0].message, /swapped-\w+\/run\/docs\/main\/orders-api\.cache-off\.ab\.keepalive\.json: holds job orders-api\.cache-on\.ab\.keepalive of run .* lists it as job orders-api\.cache-off\.ab\.keepalive of run .*, so it is not read as this run's; the file was replaced or edited: put the run's own document back or re-run the benchmark/);
  assert.equal(existsSync(join(store, docRelPath(foreign))), false, 'the other run\'s document is not stored under its own names');
});

test('a folder of result documents publishes each under the run, side and job it names, passes over other JSON, names a broken document and refuses run folders inside', async () => {
  const dir = temp('loose');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 2, jobs: twoJobs, role: 'local' })];
  const folder = join(dir, 'docs');
  mkdirSync(join(folder, 'more'), { recursive: true });
  docs.forEach((d, i) => writeFileSync(join(folder, i % 2 ? 'more' : '', `d${i}.json`), JSON.stringify(d)));
  writeFileSync(join(folder, 'package.json'), '{"name": "not a result"}');
  writeFileSync(join(folder, 'torn.json'), '{"schema": "benchline/res');
  const r = await publish({ store, files: [folder] });
  assert.deepEqual(r.paths.added.sort(), docs.map(docRelPath).sort());
  assert.deepEqual(r.errors.map((e) => e.file), [join(folder, 'torn.json')]);
  assert.match(r.errors[0].message, /torn\.json: JSON file is not valid JSON/);
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const none = await publish({ store, files: [empty] });
  assert.match(none.errors[0].message, /empty: holds no run\.json and no benchline\/result@1 documents/);
  // a run folder's documents are read with its run.json, never as loose ones: a results root without `latest` is refused
  const root = join(dir, 'results');
  writeRunFolder(join(root, 'run-1'), [...syntheticDocs({ runs: 1, jobs: twoJobs, seed: 2 })]);
  const runs = await publish({ store, files: [root] });
  assert.equal(runs.added, 0);
  assert.match(runs.errors[0].message, /results: holds run folders \(.*results\/run-1\), whose documents are read only with their run\.json, and no `latest` run; pass a run folder itself/);
});

// run.json edits that no run writes, the message each must give, and what is wrong in it
const EDITED_RUNS = [
  ['a side named like an object\'s prototype', (jobs) => { jobs[0].docs = JSON.parse(`{"__proto__":{"x":1},"main":${JSON.stringify(jobs[0].docs.main)}}`); }, /run\.json: jobs\[0\]\.docs names the side "__proto__"; a run's sides are head, base, main, local/],
  ['a document path that is no text', (jobs) => { jobs[0].docs.main = { x: 1 }; }, /run\.json: jobs\[0\]\.docs\.main is an object, not the path of a result document/],
  ['a status the runner never writes', (jobs) => { jobs[0].status = 'banana'; }, /run\.json: jobs\[0\] \(job "orders-api\.cache-off\.ab\.keepalive"\) has status "banana"; `benchline run` writes ok, failed, skipped, interrupted/],
  ['a failed job with documents', (jobs) => { jobs[1].status = 'failed'; }, /run\.json: jobs\[1\] \(job "orders-api\.cache-on\.ab\.keepalive"\) is failed but lists result documents, which `benchline run` writes only for a job that is ok or interrupted/],
  ['a job listed twice', (jobs) => { jobs.push({ ...jobs[0] }); }, /run\.json: lists job "orders-api\.cache-off\.ab\.keepalive" twice \(jobs\[0\] and jobs\[2\]\); a run measures each job once/],
];
for (const [what, edit, message] of EDITED_RUNS) {
  test(`a run.json with ${what} is refused whole by publish, as report, compare and export refuse it, naming run.json and the entry`, async () => {
    const dir = temp('edited-run');
    const store = join(dir, 'store');
    const run = writeRunFolder(join(dir, 'run'), [...syntheticDocs({ runs: 1, jobs: twoJobs })]);
    const file = join(run, 'run.json');
    const content = JSON.parse(readFileSync(file, 'utf8'));
    edit(content.jobs);
    writeFileSync(file, JSON.stringify(content));
    const r = await publish({ store, files: [run] });
    assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
    assert.match(r.errors[0].message, message);
    assert.match(r.errors[0].message, /the file was edited or damaged: re-run the benchmark$/);
    assert.equal(existsSync(store), false, 'nothing of the run is published');
    assert.throws(() => loadResultsDir(run), (e) => e.message === r.errors[0].message, 'report reads it so');
    assert.throws(() => loadDocuments(run), (e) => e.message === r.errors[0].message, 'compare and export read it so');
  });
}

test('a document whose scenario ends in failed is refused by name, since it would be stored where every reader looks for a failure record', async () => {
  const dir = temp('failed-scenario');
  const store = join(dir, 'store');
  const [good, other] = syntheticDocs({ runs: 1, jobs: twoJobs });
  const doc = { ...other, scenario: 'nightly.failed' };
  const r = await publish({ store, docs: [good, doc] });
  assert.equal(r.added, 1);
  assert.match(r.errors[0].message, /^document #2 \(.*\): its scenario "nightly\.failed" ends in "failed", so it would be stored as .*\.nightly\.failed\.json, the name of a failure record; normalize it again with another --scenario$/);
  assert.deepEqual(readStore(store).problems, [], 'nothing half-published that the store then misreads');
});

test('a document dated after this machine\'s clock is refused, since its start would archive every month before it at once', async () => {
  const dir = temp('future');
  const store = join(dir, 'store');
  const past = [...syntheticDocs({ runs: 3, jobs: twoJobs, every: 40 * 86400e3 })];
  const [future] = syntheticDocs({ runs: 1, jobs: twoJobs, start: Date.UTC(2099, 0, 1) });
  const r = await publish({ store, docs: [...past, future], policy: { keepDays: 20, keepRuns: 1 } });
  assert.equal(r.added, past.length);
  assert.match(r.errors[0].message, /its run started at 2099-01-01T00:00:00\.000Z, after this machine's clock \(.*\); the measuring machine's clock is wrong or the document was edited/);
  assert.deepEqual(r.compacted.months, ['2025-01', '2025-02'], 'dated by the newest run actually published');
});

test('eight publishers writing at once, with overlapping runs and compaction in between, lose nothing', async () => {
  const dir = temp('concurrent');
  const store = join(dir, 'store');
  // 8 x 6 runs, one every other day from 1 January to 5 April; each publisher also republishes its neighbour's first run
  const all = [...syntheticDocs({ runs: 48, jobs: twoJobs, every: 2 * 86400e3, distributions: false })];
  const byRun = [];
  for (let i = 0; i < all.length; i += 2) byRun.push(all.slice(i, i + 2));
  const inputs = [];
  for (let p = 0; p < 8; p += 1) {
    const mine = byRun.slice(p * 6, p * 6 + 6).flat().concat(byRun[((p + 1) % 8) * 6]);
    const file = join(dir, `input-${p}.json`);
    writeFileSync(file, JSON.stringify(mine));
    inputs.push(file);
  }
  const script = `import { readFileSync } from 'node:fs';
import { publish } from ${JSON.stringify(new URL('../ci/store/store.js', import.meta.url).href)};
const r = await publish({ store: process.argv[1], docs: JSON.parse(readFileSync(process.argv[2], 'utf8')), policy: { keepDays: 20, keepRuns: 5 } });
process.stdout.write(JSON.stringify({ added: r.added, skipped: r.skipped, errors: r.errors }));`;
  const outcomes = await Promise.all(inputs.map((file) => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, store, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill(), 30000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`publisher exited ${code}: ${err}`));
    });
  })));
  for (const o of outcomes) assert.deepEqual(o.errors, []);
  // every document was added exactly once; a republished one may be added again only if compaction had folded it meanwhile
  assert.ok(outcomes.reduce((s, o) => s + o.added, 0) >= 96);
  await compact({ store });
  const contents = readStore(store);
  assert.deepEqual(contents.problems, []);
  assert.deepEqual(listFiles(store).filter((f) => /\.tmp-|\.lock/.test(f)), []);
  const model = buildModel({ docs: contents.docs.map((d) => d.doc), archives: contents.archives.map((a) => a.archive) });
  assert.deepEqual(model.runs.map((r) => r.id), byRun.map((docs) => docs[0].run.id));
  for (const r of model.runs) assert.deepEqual(r.jobs.map((j) => j.id), ['orders-api.cache-off.ab.keepalive', 'orders-api.cache-on.ab.keepalive']);
  // 20 days before 5 April is 16 March: January (16 runs) and February (14) are archived, March and April keep documents
  assert.deepEqual(contents.archives.map((a) => a.archive.month), ['2025-01', '2025-02']);
  assert.equal(contents.docs.length, 2 * 18);
  const throughput = model.series.find((s) => s.id === 'orders-api/cache-off/ab/keepalive/throughput');
  assert.equal(throughput.points.v.length, 48);
  assert.deepEqual(throughput.points.v, all.filter((d) => d.variant === 'cache-off').map((d) => Number(d.metrics[0].value.toPrecision(6))).map((v, i) => (i < 30 ? v : all.filter((d) => d.variant === 'cache-off')[i].metrics[0].value)));
});

test('picks for compaction the months older than keepDays before the newest run that hold none of the newest keepRuns runs', () => {
  const runs = [['a', '2025-01-05'], ['b', '2025-02-20'], ['c', '2025-03-30'], ['d', '2025-05-02'], ['e', '2025-05-03']].map(([id, d]) => ({ id, startedAt: `${d}T10:00:00Z` }));
  assert.deepEqual(monthsToArchive(runs, { keepDays: 30, keepRuns: 1 }), ['2025-01', '2025-02', '2025-03']);
  assert.deepEqual(monthsToArchive(runs, { keepDays: 30, keepRuns: 3 }), ['2025-01', '2025-02']);
  assert.deepEqual(monthsToArchive(runs, { keepDays: 60, keepRuns: 1 }), ['2025-01', '2025-02']);
  assert.deepEqual(monthsToArchive(runs, { keepDays: null, keepRuns: 1 }), []);
});

test('compaction keeps one point per commit beyond the window, every run within it, and shrinks the store', async () => {
  const dir = temp('compact');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 120, jobs: twoJobs, every: 86400e3, sameCommit: 2 })];
  await publish({ store, docs, compaction: false });
  const full = bytes(join(store, 'runs'));
  const r = await compact({ store, policy: { keepDays: 29, keepRuns: 10, digits: 6 } });
  assert.deepEqual(r.months, ['2025-01', '2025-02', '2025-03']);
  assert.equal(r.folded, 2 * 90);
  assert.equal(r.removed, 2 * 90);
  const after = bytes(store);
  assert.ok(after < full * 0.45, `store ${after} bytes, documents alone were ${full}`);
  const contents = readStore(store);
  assert.equal(contents.docs.length, 2 * 30);
  const model = buildModel({ docs: contents.docs.map((d) => d.doc), archives: contents.archives.map((a) => a.archive) });
  assert.equal(model.runs.length, 120);
  const s = model.series.find((x) => x.id === 'orders-api/cache-on/ab/keepalive/latency.p99');
  // 90 archived runs are 45 commits, but the commits whose two runs straddle 31 January, 28 February and
  // 31 March are split by their months: 47 points; the 30 recent runs stay one point each
  assert.equal(s.points.v.length, 47 + 30);
  assert.equal(s.points.n.filter((n) => n === 2).length, 43);
  const values = docs.filter((d) => d.variant === 'cache-on').map((d) => d.metrics.find((m) => m.name === 'latency.p99').value);
  const round6 = (v) => Number(v.toPrecision(6));
  assert.equal(s.points.v[0], (round6(values[0]) + round6(values[1])) / 2);
  assert.equal(s.points.lo[0], Math.min(round6(values[0]), round6(values[1])));
  assert.equal(s.points.hi[0], Math.max(round6(values[0]), round6(values[1])));
  assert.equal(s.points.n[0], 2);
  assert.equal(s.points.run[0], 1);
  assert.equal(s.points.v[47], values[90]);
  assert.equal(s.points.n[47], 1);
  // archived runs keep their runner and parameters
  assert.equal(model.runs[0].archived, true);
  assert.equal(model.runs[0].runner.name, 'bench-runner-1');
  assert.deepEqual(model.runs[0].jobs[0].params, { connections: 50, duration: '5s' });
});

test('compaction dates each run by one readable file of its folder and reads whole only the months it folds', async () => {
  const dir = temp('dated');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 60, jobs: twoJobs, every: 86400e3 })];
  await publish({ store, docs, compaction: false });
  // the newest run's first file (cache-off sorts before cache-on) is damaged: its other file still dates the run, so
  // keepDays counts back from it: 28 days before 1 March is 1 February, so January is folded (from the run before,
  // 28 February, it would not be)
  const newest = docs.filter((d) => d.run.id === docs.at(-1).run.id);
  const first = join(store, docRelPath(newest.find((d) => d.variant === 'cache-off')));
  writeFileSync(first, '{"cut off');
  // a damaged document of a January run is read, reported and kept; a damaged one of a recent run is not read at all
  const january = join(store, docRelPath(docs.find((d) => d.variant === 'cache-on' && d.run.startedAt.startsWith('2025-01-10'))));
  writeFileSync(january, '{"cut off');
  const recent = join(store, docRelPath(docs.find((d) => d.variant === 'cache-on' && d.run.startedAt.startsWith('2025-02-20'))));
  writeFileSync(recent, '{"cut off');
  const r = await compact({ store, policy: { keepDays: 28, keepRuns: 1, digits: 6 } });
  assert.deepEqual(r.months, ['2025-01']);
  assert.equal(r.folded, 2 * 31 - 1);
  assert.deepEqual(r.problems.map((p) => p.path).sort(), [first, january].sort());
  assert.ok(existsSync(january) && existsSync(recent) && existsSync(first));
  // what compaction did not read, readStore reports
  assert.deepEqual(readStore(store).problems.map((p) => p.path).sort(), [first, january, recent].sort());
});

test('a compaction interrupted after writing its archive counts each job once, from the document it left behind', async () => {
  const dir = temp('interrupted');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 60, jobs: twoJobs, every: 86400e3 })];
  await publish({ store, docs, compaction: false });
  const r = await compact({ store, policy: { keepDays: 20, keepRuns: 5, digits: 3 } });
  assert.deepEqual(r.months, ['2025-01']);
  // the crash: the archive holds run 4, and so does one of its documents, which was never removed
  const left = docs.find((d) => d.variant === 'cache-on' && d.run.id === docs[8].run.id);
  mkdirSync(join(store, docRelPath(left), '..'), { recursive: true });
  writeFileSync(join(store, docRelPath(left)), `${JSON.stringify(left)}\n`);
  const contents = readStore(store);
  assert.deepEqual(contents.problems, []);
  const model = buildModel({ docs: contents.docs.map((d) => d.doc), archives: contents.archives.map((a) => a.archive) });
  assert.equal(model.runs.length, 60);
  const run = model.runs.find((x) => x.id === left.run.id);
  assert.deepEqual(run.jobs.map((j) => j.id), ['orders-api.cache-off.ab.keepalive', 'orders-api.cache-on.ab.keepalive']);
  assert.equal(run.archived, false);
  for (const variant of ['cache-off', 'cache-on']) {
    const s = model.series.find((x) => x.id === `orders-api/${variant}/ab/keepalive/latency.p99`);
    assert.equal(s.points.v.length, 60, variant);
    assert.deepEqual(s.points.run, model.runs.map((x) => x.index), variant);
    const value = s.points.v[run.index];
    const stored = docs.find((d) => d.variant === variant && d.run.id === left.run.id).metrics.find((m) => m.name === 'latency.p99').value;
    // the document keeps every digit; the archive keeps digits: 3
    assert.equal(value, variant === 'cache-on' ? stored : Number(stored.toPrecision(3)), variant);
  }
  const leftValue = left.metrics.find((m) => m.name === 'latency.p99').value;
  assert.notEqual(leftValue, Number(leftValue.toPrecision(3)));
});

test('a late document for an archived month is folded in by the next compaction; republishing an archived run is a no-op', async () => {
  const dir = temp('late');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 90, jobs: twoJobs.slice(0, 1), every: 86400e3 })];
  const late = docs.splice(10, 1)[0];
  await publish({ store, docs, policy: { keepDays: 30, keepRuns: 5 } });
  const again = await publish({ store, docs: docs.slice(0, 3) });
  assert.equal(again.added, 0);
  assert.equal(again.skipped, 3);
  const r = await publish({ store, docs: [late] });
  assert.deepEqual(r.paths.added, [docRelPath(late)]);
  assert.deepEqual(r.compacted.months, ['2025-01']);
  assert.equal(existsSync(join(store, docRelPath(late))), false);
  const archive = JSON.parse(readFileSync(join(store, 'archive', '2025-01.json'), 'utf8'));
  assert.equal(archive.runs.length, 31);
  assert.ok(archive.runs.some((x) => x.id === late.run.id));
});

test('a corrupt or foreign file in the store is reported by name and skipped; nothing else is lost', async () => {
  const dir = temp('damaged');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 40, jobs: twoJobs, every: 2 * 86400e3 })];
  await publish({ store, docs, policy: { keepDays: 20, keepRuns: 5 } });
  assert.deepEqual(readdirSync(join(store, 'archive')), ['2025-01.json']);
  const healthy = readStore(store);
  const victim = healthy.docs[0].path;
  const misplaced = structuredClone(healthy.docs[1].doc);
  writeFileSync(victim, '{"schema":"benchline/result@1","run":');
  writeFileSync(join(store, 'notes.txt'), 'not ours');
  writeFileSync(join(store, 'archive', '2024-12.json'), JSON.stringify({ schema: 'something/else@2' }));
  mkdirSync(join(store, 'runs', '2025', '02', 'x', 'main'), { recursive: true });
  writeFileSync(join(store, 'runs', '2025', '02', 'x', 'main', 'copy.json'), JSON.stringify(misplaced));
  const gone = join(store, 'runs', '2025', '02', 'x', 'main', 'gone.json');
  symlinkSync(join(dir, 'nowhere.json'), gone);
  // a named pipe is read as empty, never waited on for a writer
  const pipe = join(store, 'runs', '2025', '02', 'x', 'main', 'pipe.json');
  execFileSync('mkfifo', [pipe]);
  const contents = readStore(store);
  assert.deepEqual(contents.problems.map((p) => p.path).sort(), [
    join(store, 'archive', '2024-12.json'), join(store, 'notes.txt'), victim, join(store, 'runs', '2025', '02', 'x', 'main', 'copy.json'), gone, pipe,
  ].sort());
  assert.match(contents.problems.find((p) => p.path === pipe).message, /not valid JSON/);
  assert.match(contents.problems.find((p) => p.path === gone).message, /a symbolic link, which the store never holds \(publish writes files\); remove it$/, 'a link is not followed, not even to nowhere');
  assert.match(contents.problems.find((p) => p.path === victim).message, /not valid JSON .*the file is corrupt/);
  assert.match(contents.problems.find((p) => p.path.endsWith('notes.txt')).message, /not a benchline history file/);
  assert.match(contents.problems.find((p) => p.path.endsWith('2024-12.json')).message, /not a benchline\/archive@1 document/);
  assert.match(contents.problems.find((p) => p.path.endsWith('copy.json')).message, /belongs at runs\/2025\/02\//);
  assert.equal(contents.docs.length, healthy.docs.length - 1);
  assert.equal(contents.archives.length, healthy.archives.length);
  // compaction works around them and removes none of them
  await compact({ store, policy: { keepDays: 5, keepRuns: 1 } });
  for (const p of contents.problems) assert.ok(existsSync(p.path) || p.path === gone, p.path);
  const model = buildModel({ docs: readStore(store).docs.map((d) => d.doc), archives: readStore(store).archives.map((a) => a.archive) });
  assert.equal(model.runs.length, 40);
  assert.equal(model.runs.flatMap((r) => r.jobs).length, 79);
});

test('a stored document edited to impossible values (a p50 above the next percentile, a value outside its trials\' samples) is reported by name with the broken relation and skipped', async () => {
  const store = join(temp('impossible'), 'store');
  await publish({ store, docs: [...syntheticDocs({ runs: 2, jobs: twoJobs })] });
  const [first, second] = readStore(store).docs;
  const p50 = first.doc.metrics.find((m) => m.name === 'latency.p50');
  Object.assign(p50, { value: 1e12, samples: p50.samples.map(() => 1e12), lower: 1e12, upper: 1e12 });
  writeFileSync(first.path, JSON.stringify(first.doc));
  const throughput = second.doc.metrics.find((m) => m.name === 'throughput');
  throughput.value *= 100;
  writeFileSync(second.path, JSON.stringify(second.doc));
  const contents = readStore(store);
  assert.equal(contents.docs.length, 2);
  const said = (path) => contents.problems.find((p) => p.path === path)?.message;
  assert.match(said(first.path), /latency\.p50 = 1000000000000 ns is above latency\.p75 = \d+ ns: percentiles must not fall as the rank rises/);
  assert.match(said(second.path), /throughput = [\d.]+ ops\/s lies outside its own per-trial samples [\d.]+ \.\. [\d.]+: a document's value is the median of its trials/);
  assert.match(said(second.path), /remove it and publish its run again from the results folder, or re-run the benchmark$/);
});

test('seriesPath keeps slugs readable and turns any other name into one safe path segment', () => {
  assert.equal(seriesPath({ suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', metric: 'latency.p99' }), 'data/series/orders-api/cache-on/ab/keepalive/latency.p99.js');
  assert.equal(seriesPath({ suite: 's', variant: 'v', tool: 'hyperfine', scenario: 'cli', metric: 'sleep 0.1 && ls /tmp::time.mean' }), 'data/series/s/v/hyperfine/cli/sleep~200.1~20~26~26~20ls~20~2ftmp~3a~3atime.mean.js');
  assert.equal(segment('..'), '~2e.');
  assert.equal(segment('ünï'), '~c3~bcn~c3~af');
  const long = segment(`com.example.${'VeryLongBenchmarkName'.repeat(6)}::throughput`);
  assert.equal(long.length, 80);
  assert.match(long, /^com\.example\.VeryLongBenchmarkName.*~~[0-9a-f]{8}$/);
  assert.notEqual(segment('a b'), segment('a_b'));
});

test('a failure record whose run start is no time is reported and skipped, by compaction and by the site alike', async () => {
  const dir = temp('undated');
  const store = join(dir, 'store');
  await publish({ store, docs: [...syntheticDocs({ runs: 2, jobs: twoJobs })] });
  const { reason, ...job } = failedJob;
  const rec = { schema: 'benchline/failure@1', run: { id: 'r-x', startedAt: 'garbage', commit: null, ref: null, trigger: 'local', role: 'main' }, job, status: 'failed', reason };
  const path = join(store, 'runs', '2025', '01', 'r-x', 'main', `${failedJob.id}.failed.json`);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(rec));
  const r = await compact({ store });
  assert.deepEqual(r.problems.map((p) => p.path), [path]);
  assert.match(r.problems[0].message, /\/run\/startedAt "garbage" is not a date and time/);
  const contents = readStore(store);
  assert.deepEqual(contents.problems.map((p) => p.path), [path]);
  assert.equal(contents.docs.length, 4);
});

test('rewrite writes over a file of one link in place, cut to the new length, and replaces a link, a hard-linked file or no file instead of writing through it', () => {
  const dir = temp('rewrite');
  const own = join(dir, 'own.js');
  writeFileSync(own, 'a longer first content\n');
  const inode = statSync(own).ino;
  assert.equal(rewrite(own, Buffer.from('short\n'), dir), true);
  assert.equal(readFileSync(own, 'utf8'), 'short\n', 'no tail of the longer content is left');
  assert.equal(statSync(own).ino, inode, 'the same file, written in place');
  assert.equal(rewrite(own, Buffer.from('longer than short\n'), dir), true);
  assert.equal(readFileSync(own, 'utf8'), 'longer than short\n');
  // a file that is also linked from elsewhere (a copy made with cp -al) keeps its other name's content
  const elsewhere = join(dir, 'backup.js');
  linkSync(own, elsewhere);
  assert.equal(rewrite(own, Buffer.from('new\n'), dir), false);
  assert.equal(readFileSync(elsewhere, 'utf8'), 'longer than short\n');
  assert.equal(readFileSync(own, 'utf8'), 'new\n');
  // a symbolic link is replaced by a file, never written through
  const target = join(dir, 'outside.txt');
  writeFileSync(target, 'keep me\n');
  const link = join(dir, 'link.js');
  symlinkSync(target, link);
  assert.equal(rewrite(link, Buffer.from('site file\n'), dir), false);
  assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
  assert.equal(lstatSync(link).isSymbolicLink(), false);
  assert.equal(readFileSync(link, 'utf8'), 'site file\n');
  // no file yet (in a folder not made yet): created
  assert.equal(rewrite(join(dir, 'new', 'file.js'), Buffer.from('made\n'), dir), false);
  assert.equal(readFileSync(join(dir, 'new', 'file.js'), 'utf8'), 'made\n');
  // a folder where the file goes (inside the folder the writer owns): removed, the file written
  mkdirSync(join(dir, 'folder.js', 'inner'), { recursive: true });
  assert.equal(rewrite(join(dir, 'folder.js'), Buffer.from('file now\n'), dir), false);
  assert.equal(readFileSync(join(dir, 'folder.js'), 'utf8'), 'file now\n');
  // a new file gets the mode a replaced file gets, whatever the umask
  const mask = process.umask(0o077);
  try {
    rewrite(join(dir, 'masked', 'file.js'), Buffer.from('made\n'), dir);
  } finally {
    process.umask(mask);
  }
  assert.equal(statSync(join(dir, 'masked', 'file.js')).mode & 0o777, 0o644);
  // a link to nowhere where the file goes: the file is made in its place, not at the link's target
  symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'dangling.js'));
  rewrite(join(dir, 'dangling.js'), Buffer.from('site file\n'), dir);
  assert.equal(existsSync(join(dir, 'nowhere.txt')), false, 'nothing written through the link');
  assert.equal(readFileSync(join(dir, 'dangling.js'), 'utf8'), 'site file\n');
  // a file where one of its folders goes: removed, the file written
  writeFileSync(join(dir, 'blocked'), 'a file\n');
  rewrite(join(dir, 'blocked', 'file.js'), Buffer.from('made\n'), dir);
  assert.equal(readFileSync(join(dir, 'blocked', 'file.js'), 'utf8'), 'made\n');
});

test('writeFresh creates a missing file in place with mode 0644, and replaces whatever is there instead without writing through a link', () => {
  const dir = temp('fresh');
  const mask = process.umask(0o077);
  try {
    writeFresh(join(dir, 'a', 'b', 'new.js'), Buffer.from('made\n'), dir);
  } finally {
    process.umask(mask);
  }
  assert.equal(readFileSync(join(dir, 'a', 'b', 'new.js'), 'utf8'), 'made\n');
  assert.equal(statSync(join(dir, 'a', 'b', 'new.js')).mode & 0o777, 0o644, 'the mode a replaced file gets, whatever the umask');
  assert.deepEqual(readdirSync(join(dir, 'a', 'b')), ['new.js'], 'no temp file beside it');
  // a link to nowhere where the file goes: the file is made in its place, not at the link's target
  const target = join(dir, 'outside.txt');
  const dangling = join(dir, 'dangling.js');
  symlinkSync(target, dangling);
  writeFresh(dangling, Buffer.from('site file\n'), dir);
  assert.equal(existsSync(target), false, 'nothing written through the link');
  assert.equal(lstatSync(dangling).isSymbolicLink(), false);
  assert.equal(readFileSync(dangling, 'utf8'), 'site file\n');
  // a file already there (another writer was first): replaced whole, as a new file
  const there = join(dir, 'there.js');
  writeFileSync(there, 'old content that is longer\n');
  const inode = statSync(there).ino;
  writeFresh(there, Buffer.from('new\n'), dir);
  assert.equal(readFileSync(there, 'utf8'), 'new\n');
  assert.notEqual(statSync(there).ino, inode, 'replaced, not written into');
  // a file where one of its folders goes: removed, the file written
  writeFileSync(join(dir, 'blocked'), 'x');
  writeFresh(join(dir, 'blocked', 'file.js'), Buffer.from('ok\n'), dir);
  assert.equal(readFileSync(join(dir, 'blocked', 'file.js'), 'utf8'), 'ok\n');
});

test('while a build holds the exit handlers, writes leave the process signal listeners in place, and a signal still ends the process', async () => {
  const dir = temp('hold-exit');
  const files = new URL('../ci/store/files.js', import.meta.url).href;
  // in a process of its own that loads files.js alone (the store's lock keeps a handler of its own registered)
  const script = `import { holdExitHandlers, writeReplace } from ${JSON.stringify(files)};
    import { join } from 'node:path';
    const dir = ${JSON.stringify(dir)};
    const removed = [];
    const remove = process.removeListener;
    process.removeListener = function (ev, fn) { removed.push(ev); return remove.call(this, ev, fn); };
    const before = process.listenerCount('SIGTERM');
    writeReplace(join(dir, 'a.json'), '{}');
    const alone = removed.includes('SIGTERM');
    removed.length = 0;
    const unhold = holdExitHandlers();
    const held = process.listenerCount('SIGTERM');
    for (let i = 0; i < 3; i++) writeReplace(join(dir, 'b' + i + '.json'), '{}');
    const whileHeld = [...removed];
    const stillHeld = process.listenerCount('SIGTERM') === held && held > before;
    unhold();
    console.log(JSON.stringify({ alone, whileHeld, stillHeld, released: process.listenerCount('SIGTERM') === before }));`;
  const report = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.equal(report.alone, true, 'a write alone installs signal listeners and removes them again');
  assert.deepEqual(report.whileHeld, [], 'no listener is removed while held');
  assert.equal(report.stillHeld, true, 'the listeners stay installed while held');
  assert.equal(report.released, true, 'released: the listeners go');
  // a process holding them, with no signal listener of its own, is ended by SIGTERM as one without
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import { holdExitHandlers } from ${JSON.stringify(files)}; holdExitHandlers(); console.log('held'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((res) => child.stdout.once('data', res));
  child.kill('SIGTERM');
  const [code, signal] = await new Promise((res) => child.on('exit', (c, s) => res([c, s])));
  assert.deepEqual([code, signal], [null, 'SIGTERM']);
});

test('listStore finds the run folders and other files a full listing does, in its order, whatever lies where in the store', async () => {
  const store = temp('list-store');
  await publish({ store, docs: [...syntheticDocs({ runs: 3 })] });
  const put = (rel, text = '{}') => {
    mkdirSync(join(store, rel, '..'), { recursive: true });
    writeFileSync(join(store, rel), text);
  };
  const [run] = readdirSync(join(store, 'runs', '2025', '01'));
  // folders whose names sort one way and whose files' paths sort the other ('-' sorts before '/')
  put('runs/2025/01/A/main/x.json');
  put('runs/2025/01/A-b/main/x.json');
  // files that are no run folder's: misplaced years, months and runs, and anything beside the store's own
  for (const rel of ['runs/abcd/01/r/main/x.json', 'runs/2025/1/r/main/x.json', 'runs/2025/01/loose.json', 'runs/2025/file', 'runs/file', 'notes.txt', 'archive/2024-01.json', 'extra/deep/file']) put(rel);
  // temp files inside and outside run folders, a folder nested deeper, an empty run folder, a link
  put(`runs/2025/01/${run}/main/.tmp-1-abcd`);
  put(`runs/2025/01/${run}/main/x.json.123`);
  put(`runs/2025/01/${run}/deeper/still/y.json`);
  put('.tmp-9-ffff');
  mkdirSync(join(store, 'runs', '2025', '01', 'empty'), { recursive: true });
  symlinkSync('/nowhere', join(store, 'runs', '2025', '01', run, 'main', 'link.json'));
  const files = storeFiles(store);
  const want = runFolders(files);
  const got = listStore(store);
  assert.deepEqual([...got.folders], [...want]);
  assert.deepEqual(got.others, files.filter((rel) => ![...want.keys()].some((f) => rel.startsWith(`${f}/`))));
  assert.ok(got.others.includes('notes.txt') && got.others.includes('runs/2025/1/r/main/x.json'));
  assert.equal(got.folders.get(`runs/2025/01/${run}`).includes('main/link.json'), true);
  assert.equal(got.folders.get(`runs/2025/01/${run}`).some((n) => n.includes('.tmp-') || n.endsWith('.json.123')), false);
  // the site hands readStore the listing its workers were given: the store reads as it does listed by readStore itself
  const own = readStore(store);
  const given = readStore(store, { listing: got });
  assert.ok(own.problems.length >= 8 && own.docs.length >= 3, 'the odd files are problems, the runs documents');
  assert.deepEqual(given.problems, own.problems);
  assert.deepEqual(given.docs.map((d) => d.path), own.docs.map((d) => d.path));
  assert.deepEqual([...given.folders], [...own.folders]);
  // and it reads what the listing names, without listing the store again
  const some = new Map([...got.folders].slice(0, 1));
  assert.deepEqual(readStore(store, { listing: { folders: some, others: [] } }).docs.map((d) => d.path).sort(), own.docs.map((d) => d.path).filter((p) => p.startsWith(join(store, [...some.keys()][0], '/'))).sort());
});

test('a store.json with hostile policy values is refused naming each key, what it may hold and the file to fix, before anything is written', async () => {
  const dir = temp('hostile-policy');
  const docs = [...syntheticDocs({ runs: 1, jobs: twoJobs, role: 'local' })];
  const cases = [
    [{ schema: 'benchline/store@1', policy: { keepDays: -1 } }, /policy\.keepDays is -1; give a whole number of days, 0 or more, or null to keep every run whole/],
    [{ schema: 'benchline/store@1', policy: { keepDays: '30' } }, /policy\.keepDays is "30"; give a whole number of days/],
    [{ schema: 'benchline/store@1', policy: { keepRuns: 2.5 } }, /policy\.keepRuns is 2\.5; give a whole number of runs, 0 or more/],
    [{ schema: 'benchline/store@1', policy: { digits: 100 } }, /policy\.digits is 100; give a whole number from 3 to 17/],
    [{ schema: 'benchline/store@1', policy: { keepDays: 30, shards: 4 } }, /policy key "shards" is not one benchline knows \(keepDays, keepRuns, digits\): remove it/],
    // names every object has by inheritance are no policy keys either
    [{ schema: 'benchline/store@1', policy: { constructor: 1 } }, /policy key "constructor" is not one benchline knows \(keepDays, keepRuns, digits\): remove it/],
    [{ schema: 'benchline/store@1', policy: JSON.parse('{"__proto__": 30}') }, /policy key "__proto__" is not one benchline knows/],
    [{ schema: 'benchline/store@1', policy: null }, /"policy" is null; it must be an object such as \{"keepDays":90,"keepRuns":100,"digits":6\}/],
    [{ policy: {} }, /"schema" is missing; it must be "benchline\/store@1"/],
    [[], /holds \[\], not \{ "schema": "benchline\/store@1"/],
  ];
  for (const [i, [content, message]] of cases.entries()) {
    const store = join(dir, `s${i}`);
    mkdirSync(store);
    writeFileSync(join(store, 'store.json'), JSON.stringify(content));
    const file = join(store, 'store.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await assert.rejects(publish({ store, docs }), new RegExp(`${file}: .*${message.source}.*; fix it, or delete it to use the default retention policy`), JSON.stringify(content));
    assert.throws(() => readStore(store), message, 'the site refuses it the same way');
    assert.deepEqual(readdirSync(store), ['store.json'], 'nothing written');
  }
  // digits JSON.parse makes infinite are named as the file writes them, not as Infinity
  const huge = join(dir, 'huge');
  mkdirSync(huge);
  writeFileSync(join(huge, 'store.json'), '{ "schema": "benchline/store@1", "policy": { "keepRuns": 1e400 } }');
  assert.throws(() => readStore(huge), (e) => /policy\.keepRuns is a number too large to read \(1e309 or beyond\); give a whole number of runs/.test(e.message) && !/Infinity/.test(e.message), 'keepRuns 1e400');
});

test('a store, run folder or result document of another benchline version is refused as written by a newer or older benchline, not as damaged', async () => {
  const dir = temp('other-version');
  const docs = [...syntheticDocs({ runs: 1, jobs: twoJobs, role: 'local' })];
  const newer = join(dir, 'newer');
  mkdirSync(newer);
  writeFileSync(join(newer, 'store.json'), JSON.stringify({ schema: 'benchline/store@2', policy: { keepDays: 30, shards: 4 } }));
  await assert.rejects(publish({ store: newer, docs }), /store\.json: written by a newer benchline \(schema "benchline\/store@2"; this one reads "benchline\/store@1"\): use the benchline version that wrote it, or upgrade benchline$/);
  // a results folder that a newer benchline wrote: its run.json, or only its documents
  const run = writeRunFolder(join(dir, 'run'), docs);
  const runJson = JSON.parse(readFileSync(join(run, 'run.json'), 'utf8'));
  writeFileSync(join(run, 'run.json'), JSON.stringify({ ...runJson, schema: 'benchline/run@2' }));
  const store = join(dir, 'store');
  let r = await publish({ store, files: [run] });
  assert.equal(r.added, 0);
  assert.match(r.errors[0].message, /run\.json: written by a newer benchline \(schema "benchline\/run@2"; this one reads "benchline\/run@1"\)/);
  const doc = join(dir, 'doc.json');
  writeFileSync(doc, JSON.stringify({ ...docs[0], schema: 'benchline/result@2' }));
  r = await publish({ store, files: [doc] });
  assert.match(r.errors[0].message, /doc\.json: written by a newer benchline \(schema "benchline\/result@2"; this one reads "benchline\/result@1"\): use the benchline version that wrote it, or upgrade benchline$/);
  // in the store, such a file is reported as another version's, not as a foreign file to move out
  r = await publish({ store, docs });
  const stored = join(store, r.paths.added[0]);
  writeFileSync(stored, JSON.stringify({ ...JSON.parse(readFileSync(stored, 'utf8')), schema: 'benchline/result@2' }));
  const { problems } = readStore(store);
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /written by a newer benchline \(schema "benchline\/result@2"/);
});

test('a document republished for an archived month with other values is refused naming the archive, and the same documents are still skipped', async () => {
  const store = temp('archived-conflict');
  // runs two to a commit (points of several runs) across two months, the first folded into its archive
  const docs = [...syntheticDocs({ runs: 40, every: 86400e3, sameCommit: 2, jobs: twoJobs })];
  await publish({ store, docs: docs.slice(0, 40) });
  await publish({ store, docs: docs.slice(40), policy: { keepDays: 0, keepRuns: 0, digits: 4 } });
  assert.ok(existsSync(join(store, 'archive', '2025-01.json')));
  let r = await publish({ store, docs: docs.slice(0, 10) });
  assert.deepEqual([r.added, r.skipped, r.errors], [0, 10, []], 'the archived documents, as published, are already in');
  const changed = { ...docs[3], metrics: docs[3].metrics.map((m) => (m.name === 'latency.p99' ? { ...m, value: m.value * 1.5, samples: m.samples.map((s) => s * 1.5), lower: m.lower * 1.5, upper: m.upper * 1.5 } : m)) };
  r = await publish({ store, docs: [changed] });
  assert.equal(r.skipped, 0);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, new RegExp(`archive/2025-01\\.json already holds run ${docs[3].run.id} job ${jobId(docs[3])} with other values \\(latency\\.p99: \\d+ archived, [\\d.]+ in this document\\); the store is append-only, so re-run the benchmark`));
});

test('a document of a stored run dated in another month is refused naming the run folder, so no run holds two copies of a job', async () => {
  const store = temp('run-two-months');
  const docs = [...syntheticDocs({ runs: 1, start: Date.UTC(2025, 1, 10), jobs: twoJobs })];
  await publish({ store, docs: docs.slice(0, 1) });
  // the run's other job, and the same job with other values, dated in January: a clock set back, or an edited document
  const moved = docs.map((d) => ({ ...d, run: { ...d.run, startedAt: '2025-01-20T00:00:00.000Z' } }));
  const r = await publish({ store, docs: moved });
  assert.equal(r.added, 0);
  assert.equal(r.errors.length, 2);
  for (const e of r.errors) assert.match(e.message, new RegExp(`run ${docs[0].run.id} is stored already in .*runs/2025/02/${docs[0].run.id}, another month than its start here \\(2025-01-20T00:00:00\\.000Z\\); a run has one start.*re-run the benchmark`));
  assert.equal(existsSync(join(store, 'runs', '2025', '01')), false);
  // the run's other job with its own start is still added
  assert.equal((await publish({ store, docs })).added, 1);
});

test('a store at the root of a git checkout lists none of git\'s files, leaves the pages\' own files alone, and a checkout without a store is refused with a folder inside it to use', async () => {
  const dir = temp('checkout');
  const pages = join(dir, 'pages');
  mkdirSync(join(pages, 'docs'), { recursive: true });
  const own = { 'index.html': '<h1>bench</h1>\n', CNAME: 'bench.example.com\n', '.nojekyll': '', 'README.md': '# pages\n', 'docs/index.md': '# docs\n' };
  for (const [name, text] of Object.entries(own)) writeFileSync(join(pages, name), text);
  execFileSync('git', ['init', '-q', '-b', 'gh-pages'], { cwd: pages });
  execFileSync('git', ['add', '-A'], { cwd: pages });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'pages'], { cwd: pages });
  const docs = [...syntheticDocs({ runs: 3, every: 40 * 86400e3, jobs: twoJobs })];
  await assert.rejects(publish({ store: pages, docs }), new RegExp(`pages: is not a history store \\(no store\\.json\\) and holds other files \\(\\.git, \\.nojekyll, CNAME, and 3 more\\), which a store never does; give a new or empty folder, e.g\\. ${pages.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/history inside this checkout`));
  // a store made there on purpose: publish and compaction leave every file of the pages as it was
  writeFileSync(join(pages, 'store.json'), JSON.stringify({ schema: 'benchline/store@1', policy: { keepDays: 0, keepRuns: 0, digits: 6 } }));
  const r = await publish({ store: pages, docs });
  assert.equal(r.added, 6);
  assert.ok(r.compacted.folded > 0);
  for (const [name, text] of Object.entries(own)) assert.equal(readFileSync(join(pages, name), 'utf8'), text, name);
  assert.equal(execFileSync('git', ['status', '--short', '--', ...Object.keys(own)], { cwd: pages, encoding: 'utf8' }), '');
  const { problems } = readStore(pages);
  assert.deepEqual(problems.map((p) => p.path.slice(pages.length + 1)).sort(), Object.keys(own).sort(), 'git\'s files are not the store\'s');
  for (const p of problems) assert.match(p.message, /not a benchline history file; move it out of the store, or the store \(store\.json, runs\/, archive\/\) into a folder of its own/);
  assert.deepEqual(listStore(pages).others.filter((f) => !f.startsWith('archive/')), Object.keys(own).sort(), 'nor are they listed for the site');
});

test('every problem a damaged store reports names the file and says how to fix it, a damaged failure record and archive too', async () => {
  const dir = temp('damaged-fixes');
  const store = join(dir, 'store');
  const docs = [...syntheticDocs({ runs: 3, every: 40 * 86400e3, jobs: twoJobs })];
  await publish({ store, files: [writeRunFolder(join(dir, 'run'), docs.slice(4), [failedJob])] });
  await publish({ store, docs: docs.slice(0, 4), policy: { keepDays: 0, keepRuns: 0, digits: 6 } });
  const files = storeFiles(store);
  const record = files.find((f) => f.endsWith('.failed.json'));
  const [january, february] = files.filter((f) => f.startsWith('archive/'));
  const edit = (rel, fn) => writeFileSync(join(store, rel), JSON.stringify(fn(JSON.parse(readFileSync(join(store, rel), 'utf8')))));
  edit(record, ({ reason, ...rest }) => ({ ...rest, note: reason }));
  edit(january, (a) => ({ ...a, runs: a.runs.map((r) => ({ ...r, runner: 'x' })) }));
  // an archive copied under another month's name
  const moved = 'archive/2025-05.json';
  writeFileSync(join(store, moved), readFileSync(join(store, february)));
  const { problems } = readStore(store);
  const fixes = {
    [record]: /must have required property 'reason'; \/ must NOT have additional properties \("note"\); it was edited or damaged in the store: remove it and publish its run again from the results folder, or restore it from the store's history/,
    [january]: /must be integer; it was edited or damaged in the store, and its month is left out of the site until it is restored from the store's history/,
    [moved]: /holds month 2025-02; it belongs at archive\/2025-02\.json: move it there/,
  };
  assert.deepEqual(problems.map((p) => p.path).sort(), Object.keys(fixes).map((rel) => join(store, rel)).sort());
  for (const p of problems) assert.match(p.message, fixes[p.path.slice(store.length + 1)]);
});

test('a run stopped by a signal is published with the jobs it never measured as skipped, not failed, so the history and its feed report no failure', async () => {
  const store = temp('sigterm-run');
  const run = join(import.meta.dirname, 'fixtures', 'runs', 'orders-api-sigterm');
  const r = await publish({ store, files: [run] });
  assert.deepEqual(r.errors, []);
  assert.equal(r.added, 8);
  const { docs, failures } = readStore(store);
  assert.deepEqual(docs.map((d) => jobId(d.doc)), ['orders-api.cache-off.ab.no-keepalive']);
  assert.equal(failures.length, 7);
  for (const { rec } of failures) {
    assert.equal(rec.status, 'skipped', rec.job.id);
    assert.match(rec.reason, /^stopped by SIGTERM /);
  }
});

test('a document a concurrent compaction removed while the store was read is reported as gone, with the fix to build again, not as a permission problem', async () => {
  const store = temp('gone-while-read');
  const docs = [...syntheticDocs({ runs: 1, jobs: twoJobs })];
  const r = await publish({ store, docs });
  const [rel] = r.paths.added;
  // what a build that listed the store just before a compaction removed the file finds
  unlinkSync(join(store, rel));
  assert.match(readStoreFile(store, rel).problem, /^gone while the store was read: a publish compacting the store at the same time folded it into its month's archive, or it was removed; build the site again once no publish is running$/);
});

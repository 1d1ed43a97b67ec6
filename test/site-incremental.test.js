// Incremental site builds: the parsed-store cache and kept files give exactly a clean build's site, writing only what changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { publish } from '../ci/store/store.js';
import { buildSite, partFingerprint } from '../ci/store/site.js';
import { readDataScript } from '../ci/store/site-data.js';
import { runPath } from '../ci/store/paths.js';
import { listFiles } from '../ci/store/files.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { openCache, packEntry, unpackDocs } from '../ci/store/read-cache.js';
import { searched } from '../ci/changepoints.js';
import { buildModel } from '../ci/store/model.js';
import seedrandom from 'seedrandom';
import { tempDir } from './support/temp.js';

const JOBS = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 0.3 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 0.6 },
];
// a suite with a report page: its newest run is read whole even when the cache holds it
const CONFIG = { suites: { 'orders-api': { report: 'subjects/orders-api/report.js', variants: { 'cache-off': {}, 'cache-on': {} } } } };
const DAY = 86400e3;
const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A scratch folder with the places a build uses: the store, the site and its cache. */
const scratchSite = () => {
  const d = tempDir('incremental');
  return { d, s: join(d, 'store'), o: join(d, 'site'), c: join(d, 'cache') };
};
/** A scratch site built with its cache from six daily runs, and a clean build of the same store beside it. */
async function builtWithClean() {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 6, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  return { d, s, o, c, clean };
}

// a policy that folds months older than 30 days into archives, keeping the newest 3 runs whole
const ARCHIVING = Object.freeze({ keepDays: 30, keepRuns: 3, digits: 6 });

const manifest = (dir) => JSON.parse(readFileSync(join(dir, '.benchline-site.json'), 'utf8'));
/** A file with the build's time stamps blanked (a data file's payload read back, as it may be deflated). */
// (the feed's own <updated> is the build time when it has no entries)
const stamped = (dir, rel) => {
  const text = readFileSync(join(dir, rel), 'utf8');
  const data = readDataScript(text);
  return (data ? JSON.stringify(data) : text).replace(/"generatedAt":"[^"]*"/g, '"generatedAt":""').replace(/"build":"[0-9a-f]*"/, '"build":""')
    .replace(/^(  <updated>)[^<]*(<\/updated>)$/m, '$1$2');
};
/** The files that hold the build's time stamps: the only ones two builds of one store may differ in. */
const STAMPED = new Set(['data/index.js', 'feed.xml']);
const INDEX = 'data/index.js';

/** Asserts that two site folders hold the same files with the same bytes, time stamps aside. */
function assertSameSite(got, want) {
  assert.deepEqual(manifest(got).files, manifest(want).files, 'the same files');
  assert.deepEqual(listFiles(got), listFiles(want), 'nothing else in the folder');
  for (const rel of manifest(want).files) {
    if (STAMPED.has(rel)) assert.equal(stamped(got, rel), stamped(want, rel), `${rel} is a clean build's, time stamps aside`);
    else assert.ok(readFileSync(join(got, rel)).equals(readFileSync(join(want, rel))), `${rel} is byte for byte a clean build's`);
  }
}

test('a rebuild from the store cache reads only the new runs, writes only what changed, and equals a clean build byte for byte', async () => {
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 14, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 12 * JOBS.length) });
  const first = await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  assert.equal(first.read, 12, 'the first build reads every run folder');
  assert.equal(listFiles(c).filter((f) => f.startsWith('runs/')).length, 12, 'and keeps one cache entry per run folder');
  const oldRunFiles = manifest(o).files.filter((f) => f.startsWith('data/runs/'));

  await publish({ store: s, docs: docs.slice(12 * JOBS.length) });
  const second = await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify: true });
  assert.equal(second.read, 2, 'only the two new run folders are read from their files');
  assert.equal(second.appended, true, 'the new runs are appended to the last build\'s snapshot');
  const newRunFiles = manifest(o).files.filter((f) => f.startsWith('data/runs/') && !oldRunFiles.includes(f));
  assert.equal(newRunFiles.length, 2);
  for (const f of newRunFiles) assert.ok(second.written.includes(f), `${f} of a new run is written`);
  for (const f of oldRunFiles) assert.ok(!second.written.includes(f), `${f} of an earlier run is not written again`);
  assert.ok(second.written.includes('data/index.js') && second.written.includes('data/runs.js'));
  assert.ok(!second.written.includes('app.js'), 'unchanged page code is not written');

  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  assertSameSite(o, clean);
});

test('change points of a long history, searched again only from their last windows after each new run and from the start after a late one, equal a clean build\'s byte for byte', async () => {
  const { d, s, o, c } = scratchSite();
  // a step a few runs before the end: the change point appears only once enough runs after it are in
  const runs = 160;
  const steps = [{ from: 150, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.8 }];
  const docs = [...syntheticDocs({ runs, jobs: JOBS, every: 3600e3, steps })];
  // series part files of 32 points: each series has four, and a fifth once it reaches 160 points
  const partPoints = 32;
  const isPart = (f) => /^data\/series\/.*\/\d+\.js$/.test(f);
  await publish({ store: s, docs: docs.slice(0, 148 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
  assert.equal(manifest(o).files.filter(isPart).length, 20 * 4);
  for (let n = 149; n <= runs; n += 1) {
    await publish({ store: s, docs: docs.slice((n - 1) * JOBS.length, n * JOBS.length) });
    const before = searched.windows;
    const had = new Set(manifest(o).files);
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify: true, partPoints });
    // 20 series of 6 windows each from scratch; resumed, each scans its last window or two
    assert.ok(searched.windows - before <= 2 * 20, `${searched.windows - before} windows searched after run ${n}`);
    assert.equal(r.appended, true, `run ${n} is appended to the last build's snapshot`);
    assert.deepEqual(r.written.filter((f) => isPart(f) && had.has(f)), [], `no earlier part file is written again after run ${n}`);
    assert.equal(r.written.filter(isPart).length, n === 160 ? 20 : 0, 'a part file is written when its points are complete');
    if (n % 4 && n !== runs) continue;
    const clean = join(d, `clean-${n}`);
    await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
    assertSameSite(o, clean);
    rmSync(clean, { recursive: true, force: true });
  }
  const index = JSON.stringify(readDataScript(readFileSync(join(o, 'data', 'index.js'), 'utf8')).payload);
  assert.ok(index.includes('"series":"orders-api/cache-on/ab/keepalive/throughput"'), 'the step is found as a change point');
  // a run published late for an earlier time puts a point in the middle of every series: searched from the start
  await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 1) + 10.5 * 3600e3, seed: 2 })] });
  const before = searched.windows;
  const late = await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify: true, partPoints });
  assert.ok(searched.windows - before >= 6 * 20, `${searched.windows - before} windows searched after a late run`);
  assert.equal(late.appended, false, 'a run before the newest one is laid out with the whole store');
  // its point lands in the first part, and every later point moves one place along: the parts change (all but those
  // of a series of one constant value, which hold the same numbers for the same runs)
  const throughput = 'data/series/orders-api/cache-on/ab/keepalive/throughput';
  assert.deepEqual(late.written.filter((f) => f.startsWith(`${throughput}/`)).sort(), [0, 1, 2, 3, 4].map((k) => `${throughput}/${k}.js`));
  assert.ok(late.written.filter(isPart).length >= 18 * 5, 'and those of the other series that vary');
  const clean = join(d, 'clean-late');
  await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
  assertSameSite(o, clean);
});

test('with the cache, an altered kept run file is rewritten under verify, and a run published late for an earlier time writes its own run file and no other', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c });
  const victim = manifest(o).files.find((f) => f.startsWith('data/runs/'));
  const text = readFileSync(join(o, victim), 'utf8');
  writeFileSync(join(o, victim), text.replace(/\d/, (x) => String((Number(x) + 1) % 10)), 'utf8'); // same size, other content
  const checked = await buildSite({ store: s, out: o, cache: c, verify: true });
  assert.ok(checked.written.includes(victim), 'the altered run file is written again');
  assert.equal(checked.appended, false, 'a kept file not as written makes the build lay out the whole store');
  assert.equal(readFileSync(join(o, victim), 'utf8'), text);
  assert.equal(checked.written.filter((f) => f.startsWith('data/runs/') && f !== victim).length, 0, 'no other run file is written');

  // a run 12 hours after the first: every later run moves one place down the run list, which their files do not hold
  const late = [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 1, 12), seed: 7 })];
  await publish({ store: s, docs: late });
  const after = await buildSite({ store: s, out: o, cache: c, verify: true });
  assert.equal(after.appended, false, 'a run before the newest one is laid out with the whole store');
  assert.deepEqual(after.written.filter((f) => f.startsWith('data/runs/')), [runPath(late[0].run)], 'the late run\'s file alone');
  assert.equal(after.read, 1, 'and its folder alone is read');
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean });
  assertSameSite(o, clean);
});

test('a month whose archive changed is written again while the unchanged archive months are not', async () => {
  const { d, s, o, c } = scratchSite();
  const policy = ARCHIVING;
  // a run every 4 days from January to June: January to April are folded into archives
  await publish({ store: s, policy, docs: [...syntheticDocs({ runs: 45, jobs: JOBS, every: 4 * DAY, start: Date.UTC(2025, 0, 1) })] });
  const first = await buildSite({ store: s, out: o, cache: c });
  const months = manifest(o).files.filter((f) => f.startsWith('data/archive/'));
  assert.deepEqual(months, ['data/archive/2025-01.js', 'data/archive/2025-02.js', 'data/archive/2025-03.js', 'data/archive/2025-04.js']);
  for (const m of months) assert.ok(first.written.includes(m));

  // a document arriving late for February: the next publish folds it into February's archive
  await publish({ store: s, policy, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 1, 10, 6), seed: 9 })] });
  assert.equal(existsSync(join(s, 'runs', '2025', '02')), false, 'the late run went straight into the archive');
  const second = await buildSite({ store: s, out: o, cache: c, verify: true });
  assert.equal(second.appended, false, 'a changed archive month makes the build lay out the whole store');
  const rewritten = second.written.filter((f) => f.startsWith('data/archive/'));
  assert.deepEqual(rewritten, ['data/archive/2025-02.js'], 'only the changed month is written');
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean });
  assertSameSite(o, clean);
});

test('a rebuild appends to the last build only what it can: a stopped build, other options, a file that is no part of the store or a new document in an earlier run\'s folder make it lay out the whole store, and every site equals a clean build', async () => {
  const { d, s, o, c } = scratchSite();
  // two suites with report pages; later runs measure only the first, so the second's page comes from an older run
  const other = JOBS.map((j) => ({ ...j, suite: 'orders-b' }));
  const config = { suites: { ...CONFIG.suites, 'orders-b': { ...CONFIG.suites['orders-api'] } } };
  const both = [...syntheticDocs({ runs: 6, jobs: [...JOBS, ...other], every: DAY })];
  const later = [...syntheticDocs({ runs: 5, jobs: JOBS, every: DAY, start: Date.UTC(2025, 0, 20), seed: 3 })];
  const perRun = (list, k, n) => list.slice(k * n, (k + 1) * n);
  const sameAsClean = async (label) => {
    const clean = join(d, `clean-${label}`);
    await buildSite({ store: s, out: clean, config });
    assertSameSite(o, clean);
    rmSync(clean, { recursive: true, force: true });
  };
  await publish({ store: s, docs: both });
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, false, 'a first build lays out the whole store');

  await publish({ store: s, docs: perRun(later, 0, JOBS.length) });
  const grown = await buildSite({ store: s, out: o, cache: c, config, verify: true });
  assert.equal(grown.appended, true);
  assert.equal(grown.read, 2, 'the new run folder, and the older one the second suite\'s page is made from');
  await sameAsClean('grown');

  // nothing new: appended still, and nothing written but the build's time stamps
  const again = await buildSite({ store: s, out: o, cache: c, config });
  assert.equal(again.appended, true);
  assert.deepEqual(again.written.filter((f) => !STAMPED.has(f)), []);

  // a build stopped after taking the snapshot leaves none: the next one lays out the whole store
  rmSync(join(c, 'snapshot.json'));
  await publish({ store: s, docs: perRun(later, 1, JOBS.length) });
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, false);
  await sameAsClean('stopped');

  // other options (here the title) change what every file may hold
  await publish({ store: s, docs: perRun(later, 2, JOBS.length) });
  assert.equal((await buildSite({ store: s, out: o, cache: c, config, title: 'other' })).appended, false);
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, false, 'and back');

  // a file that is no part of the store is reported, which only a build of the whole store does
  writeFileSync(join(s, 'notes.txt'), 'mine');
  const noted = await buildSite({ store: s, out: o, cache: c, config });
  assert.equal(noted.appended, false);
  assert.equal(noted.problems.length, 1);
  rmSync(join(s, 'notes.txt'));
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, false, 'a build with problems keeps no snapshot');
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, true);

  // a document published late into an earlier run's folder changes that run
  const first = both[0];
  await publish({ store: s, docs: [{ ...first, tool: { ...first.tool }, scenario: 'late-one' }] });
  assert.equal((await buildSite({ store: s, out: o, cache: c, config })).appended, false);
  await sameAsClean('late-document');

  // an archived month or a run folder checked out anew (same content, other time stamps) does not stop appending
  await publish({ store: s, docs: perRun(later, 3, JOBS.length) });
  for (const rel of listFiles(s).filter((f) => f.endsWith('.json')).slice(0, 3)) {
    const text = readFileSync(join(s, rel));
    rmSync(join(s, rel));
    writeFileSync(join(s, rel), text);
  }
  assert.equal((await buildSite({ store: s, out: o, cache: c, config, verify: true })).appended, true);
  await sameAsClean('checked-out');

  // a snapshot edited by hand, or a values file cut short, is not used, and said so
  await publish({ store: s, docs: perRun(later, 4, JOBS.length) });
  const snap = JSON.parse(readFileSync(join(c, 'snapshot.json'), 'utf8'));
  writeFileSync(join(c, 'snapshot.json'), JSON.stringify({ ...snap, runs: { id: snap.runs.id } }));
  const said = [];
  assert.equal((await buildSite({ store: s, out: o, cache: c, config, log: (line) => said.push(line) })).appended, false);
  assert.ok(said.some((line) => line.startsWith(`site cache: its snapshot of the last build cannot be read (${join(c, 'snapshot.json')}: not as the last build wrote it (its checksum does not match: edited or damaged)); laying out the whole store`)), said.join('\n'));
  await sameAsClean('edited');
  const values = listFiles(join(c, 'values'))[0];
  writeFileSync(join(c, 'values', values), readFileSync(join(c, 'values', values)).subarray(0, 8));
  said.length = 0;
  assert.equal((await buildSite({ store: s, out: o, cache: c, config, log: (line) => said.push(line) })).appended, false);
  assert.ok(said.some((line) => /^site cache: its snapshot of the last build cannot be read \(.*values.*: shorter than the \d+ values of series /.test(line)), said.join('\n'));
  await sameAsClean('cut-short');
  // one value changed (as a build of another site sharing the cache would leave it): caught by the snapshot's fingerprint
  const file = join(c, 'values', listFiles(join(c, 'values'))[1]);
  const bytes = readFileSync(file);
  bytes.writeDoubleLE(bytes.readDoubleLE(0) * 2, 0);
  writeFileSync(file, bytes);
  said.length = 0;
  assert.equal((await buildSite({ store: s, out: o, cache: c, config, log: (line) => said.push(line) })).appended, false);
  assert.ok(said.some((line) => /: not the values of series .* the snapshot was written with/.test(line)), said.join('\n'));
  await sameAsClean('altered');
});

test('a series whose points fill its last part file exactly keeps its newest point\'s bounds in the index when a rebuild appends nothing to it', async () => {
  const { d, s, o, c } = scratchSite();
  const partPoints = 8;
  // 16 runs: every series fills two part files exactly, so no point sits after its last complete part
  await publish({ store: s, docs: [...syntheticDocs({ runs: 16, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
  const again = await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
  assert.equal(again.appended, true, 'nothing new: appended to the last build');
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
  assertSameSite(o, clean);
  const index = readDataScript(readFileSync(join(o, INDEX), 'utf8')).payload;
  const last = index.charts.flatMap((chart) => chart.series).map((x) => x.last);
  assert.ok(last.length && last.every((l) => typeof l.lo === 'number' && typeof l.hi === 'number'), 'every chart line names its newest point\'s interval');
});

test('a snapshot whose fields were edited (a run\'s commit, a series\' run range, bound or first kept point) is not used: the build says which file and lays out the whole store as a clean build does', async () => {
  const { d, s, o, c } = scratchSite();
  const partPoints = 8;
  const docs = [...syntheticDocs({ runs: 22, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 20 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
  await publish({ store: s, docs: docs.slice(20 * JOBS.length) });
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
  const file = join(c, 'snapshot.json');
  const tails = join(c, 'tails.f64');
  const inSnapshot = (edit) => () => {
    const snap = JSON.parse(readFileSync(file, 'utf8'));
    edit(snap);
    writeFileSync(file, JSON.stringify(snap));
    return `${file}: not as the last build wrote it (its checksum does not match: edited or damaged)`;
  };
  const edits = {
    'a run\'s commit': inSnapshot((snap) => { snap.runs.commit[3] = snap.runs.commit[4]; }),
    'a series\' run range': inSnapshot((snap) => { snap.series[0].runs[0][0] += 1; }),
    'a series\' first kept point': inSnapshot((snap) => { snap.series[2].from -= partPoints; }),
    // the bounds sit in a binary file beside the snapshot: the newest bound of the first series (lo, hi, n in turn)
    'a series\' newest bound': () => {
      const { series } = JSON.parse(readFileSync(file, 'utf8'));
      const bytes = readFileSync(tails);
      const floats = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      floats[2 * series[0].tail - 1] = 12345.678;
      writeFileSync(tails, Buffer.from(floats.buffer));
      return `${tails}: not the bounds the snapshot was written with`;
    },
    'the bounds cut short': () => {
      writeFileSync(tails, readFileSync(tails).subarray(8));
      return `${tails}: not a file of the ${statSync(tails).size + 8} bytes the snapshot names (gone, a link or another size)`;
    },
  };
  for (const [what, edit] of Object.entries(edits)) {
    // a build writes the snapshot the next one edits; the first of them also appends the two new runs
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
    const why = edit();
    const said = [];
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints, log: (line) => said.push(line) });
    assert.equal(r.appended, false, `${what} edited: the whole store is laid out`);
    assert.deepEqual(said.filter((line) => line.startsWith('site cache:')), [`site cache: its snapshot of the last build cannot be read (${why}); laying out the whole store`], what);
    assertSameSite(o, clean);
  }
});

test('a folder where a cache file goes, or a file where a cache folder goes, costs the build a whole layout at most, never the build itself, and the site equals a clean build', async () => {
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 12, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 6 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  const folderAt = (rel) => {
    rmSync(join(c, rel), { recursive: true, force: true });
    mkdirSync(join(c, rel, 'x'), { recursive: true });
  };
  const fileAt = (rel) => {
    rmSync(join(c, rel), { recursive: true, force: true });
    writeFileSync(join(c, rel), 'x');
  };
  const inTheWay = {
    'a folder for snapshot.json': () => folderAt('snapshot.json'),
    'a folder for tails.f64': () => folderAt('tails.f64'),
    'a folder for pvalues.f64': () => folderAt('pvalues.f64'),
    'a folder for a values file': () => folderAt(`values/${listFiles(join(c, 'values'))[0]}`),
    'a file for the values folder': () => fileAt('values'),
    'a folder for data-files.json': () => folderAt('data-files.json'),
    'a folder for splits.json': () => folderAt('splits.json'),
    'a file for the runs folder': () => fileAt('runs'),
  };
  let k = 6;
  for (const [what, put] of Object.entries(inTheWay)) {
    put();
    await publish({ store: s, docs: docs.slice(k * JOBS.length, (k + 1) * JOBS.length) });
    k += 1;
    const said = [];
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (line) => said.push(line) });
    assert.ok(said.filter((line) => line.startsWith('site cache:')).length <= 1, `${what}: ${said.join('\n')}`);
    const clean = join(d, 'clean');
    await buildSite({ store: s, out: clean, config: CONFIG });
    assertSameSite(o, clean);
    rmSync(clean, { recursive: true, force: true });
    // and the cache works again: the next build appends
    assert.equal((await buildSite({ store: s, out: o, cache: c, config: CONFIG })).appended, true, `${what}: the cache is whole again`);
  }
});

test('a folder in the site where the build puts a file is replaced by the file, with or without verify', async () => {
  const { s, o, c, clean } = await builtWithClean();
  for (const verify of [false, true]) {
    for (const rel of [manifest(o).files.find((f) => f.startsWith('data/runs/')), manifest(o).files.find((f) => f.startsWith('data/series/')), 'app.js']) {
      rmSync(join(o, rel));
      mkdirSync(join(o, rel, 'x'), { recursive: true });
    }
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify });
    assert.equal(r.appended, false, 'a kept file that is not there as written makes the build lay out the whole store');
    assertSameSite(o, clean);
  }
  // a manifest edited to list a folder: the files in it, just written, stay
  const m = manifest(o);
  writeFileSync(join(o, '.benchline-site.json'), JSON.stringify({ ...m, files: [...m.files, 'data', 'data/series'] }));
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  assertSameSite(o, clean);
});

test('a cache entry, saved change point windows, kept p-values or data file records edited by hand are not used on a whole layout: the build names the file, reads the run folder again and writes a clean build\'s site', async () => {
  const { d, s, o, c } = scratchSite();
  // a step the change point search finds, so the saved windows hold a find to lose
  const steps = [{ from: 30, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.7 }];
  await publish({ store: s, docs: [...syntheticDocs({ runs: 60, jobs: JOBS, every: 3600e3, steps })] });
  const partPoints = 16;
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
  const clean = join(d, 'clean');
  const edit = (rel, change) => {
    const file = join(c, rel);
    const value = JSON.parse(readFileSync(file, 'utf8'));
    change(value);
    writeFileSync(file, `${JSON.stringify(value)}\n`);
    return file;
  };
  const entry = listFiles(c).find((f) => f.startsWith('runs/'));
  const edits = {
    'a value in a run folder\'s entry': () => edit(entry, (e) => { e.docs[0].m[0][1] *= 2; }),
    // every window's finds dropped (windows are [start, count, ...finds] one after another)
    'a find in the saved windows': () => edit('splits.json', (sp) => {
      for (const saved of Object.values(sp.splits)) {
        const w = saved.windows;
        const none = [];
        for (let i = 0; i + 1 < w.length; i += 2 + w[i + 1]) none.push(w[i], 0);
        saved.windows = none;
      }
    }),
    'a part file\'s fingerprint': () => edit('data-files.json', (df) => { const [rel] = Object.keys(df.files).filter((f) => df.files[f].fingerprint); df.files[rel].fingerprint = '0'.repeat(40); }),
    // the p-values the merge steps worked out ([df, |t|, p] as 64-bit floats): one of them taken as 1 would drop a step
    'a kept p-value': () => {
      const file = join(c, 'pvalues.f64');
      const bytes = readFileSync(file);
      assert.ok(bytes.length >= 24, 'the search kept p-values');
      bytes.writeDoubleLE(1, 16);
      writeFileSync(file, bytes);
      return file;
    },
  };
  let k = 0;
  for (const [what, change] of Object.entries(edits)) {
    const file = change();
    // a run published late for an earlier time: the whole store is laid out, from the cache's entries
    await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 1, 0, 30 + k), seed: 50 + k })] });
    k += 1;
    const said = [];
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints, log: (line) => said.push(line) });
    assert.equal(r.appended, false);
    assert.deepEqual(said.filter((line) => line.startsWith('site cache:')).map((line) => line.split(': ')[1]), [file], `${what}: one line naming the file\n${said.join('\n')}`);
    assert.match(said.find((line) => line.startsWith('site cache:')), /not as the last build wrote it \(its checksum does not match: edited or damaged\); (reading its run folder again|searching every series for change points from the start|laying out every data file again|working out the change points' p-values again)$/);
    rmSync(clean, { recursive: true, force: true });
    await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
    assertSameSite(o, clean);
  }
});

test('seeded random damage to the cache, the site and the store between builds never gives a site unlike a clean build\'s, and says at most one line about the cache', async () => {
  const random = seedrandom('site-cache-damage-1');
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const flipByte = (file) => {
    const bytes = readFileSync(file);
    bytes[int(bytes.length)] ^= 1 << int(8);
    writeFileSync(file, bytes);
  };
  const editJson = (file, change) => {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    change(value);
    writeFileSync(file, JSON.stringify(value));
  };
  // every number in a JSON value, as a path of keys
  const numbers = (value, at = [], out = []) => {
    if (typeof value === 'number') out.push(at);
    else if (value && typeof value === 'object') for (const k of Object.keys(value)) numbers(value[k], [...at, k], out);
    return out;
  };
  const bump = (value, at) => {
    const parent = at.slice(0, -1).reduce((o, k) => o[k], value);
    parent[at.at(-1)] += pick([1, -1, 1e6]);
  };
  const partPoints = 8;
  const policy = ARCHIVING;
  const late = (s, newest) => publish({ store: s, policy, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: newest - (1 + int(20)) * 3600e3, seed: 100 + int(1e6) })] });
  const damage = {
    'a values file cut short': ({ c }) => { const f = join(c, 'values', pick(listFiles(join(c, 'values')))); writeFileSync(f, readFileSync(f).subarray(0, int(readFileSync(f).length))); },
    'a values file grown': ({ c }) => writeFileSync(join(c, 'values', pick(listFiles(join(c, 'values')))), Buffer.alloc(8), { flag: 'a' }),
    'a byte of a values file': ({ c }) => flipByte(join(c, 'values', pick(listFiles(join(c, 'values'))))),
    'a number in the snapshot': ({ c }) => editJson(join(c, 'snapshot.json'), (snap) => bump(snap, pick(numbers(snap)))),
    'a byte of the snapshot': ({ c }) => flipByte(join(c, 'snapshot.json')),
    'a number in a cache entry, then a late run': async ({ c, s, newest }) => {
      editJson(join(c, pick(listFiles(c).filter((f) => f.startsWith('runs/')))), (e) => bump(e.docs, pick(numbers(e.docs))));
      await late(s, newest);
    },
    'a byte of data-files.json': ({ c }) => flipByte(join(c, 'data-files.json')),
    'a number in splits.json, then a late run': async ({ c, s, newest }) => {
      editJson(join(c, 'splits.json'), (sp) => { const at = numbers(sp); if (at.length) bump(sp, pick(at)); });
      await late(s, newest);
    },
    'a site file of the same size, under verify': ({ o }) => flipByte(join(o, pick(manifest(o).files.filter((f) => f.startsWith('data/'))))),
    'a site file removed': ({ o }) => rmSync(join(o, pick(manifest(o).files))),
    'a run published late': ({ s, newest }) => late(s, newest),
    'a run folder removed': ({ s }) => {
      const folders = [...new Set(listFiles(s).filter((f) => f.startsWith('runs/')).map((f) => f.split('/').slice(0, 4).join('/')))];
      rmSync(join(s, pick(folders)), { recursive: true });
    },
  };
  const kinds = Object.keys(damage);
  const started = Date.now();
  for (let n = 0; n < kinds.length; n += 1) {
    const kind = kinds[n % kinds.length];
    const { d, s, o, c } = scratchSite();
    const runs = 18 + int(14);
    const every = pick([DAY, 2 * DAY, 7 * 3600e3]);
    const docs = [...syntheticDocs({ runs: runs + 2, jobs: JOBS, every, seed: n + 1 })];
    await publish({ store: s, policy, docs: docs.slice(0, (runs - 2) * JOBS.length) });
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
    await publish({ store: s, policy, docs: docs.slice((runs - 2) * JOBS.length, runs * JOBS.length) });
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints });
    const more = int(3);
    await publish({ store: s, policy, docs: docs.slice(runs * JOBS.length, (runs + more) * JOBS.length) });
    await damage[kind]({ s, o, c, newest: Date.UTC(2025, 0, 1) + (runs + more - 1) * every });
    const said = [];
    const verify = kind.includes('under verify') || random() < 0.5;
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, partPoints, verify, log: (line) => said.push(line) });
    const clean = join(d, 'clean');
    await buildSite({ store: s, out: clean, config: CONFIG, partPoints });
    try {
      assertSameSite(o, clean);
    } catch (e) {
      e.message = `${kind}: ${e.message}`;
      throw e;
    }
    assert.ok(said.filter((line) => line.startsWith('site cache:')).length <= 1, `${kind}: ${said.join('\n')}`);
    rmSync(d, { recursive: true, force: true });
  }
  assert.ok(Date.now() - started < 25000, `bounded: ${Date.now() - started} ms`);
});

test('a build that cannot append to the last build says why in one line, naming the file or run that does not fit', async () => {
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 6 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  const why = async () => {
    const said = [];
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (line) => said.push(line) });
    assert.equal(r.appended, false);
    const lines = said.filter((line) => line.startsWith('laying out the whole store: '));
    assert.equal(lines.length, 1, said.join('\n'));
    return lines[0];
  };
  const runFile = manifest(o).files.find((f) => f.startsWith('data/runs/'));
  rmSync(join(o, runFile));
  assert.equal(await why(), `laying out the whole store: ${join(o, runFile)} is not as the last build wrote it (or ${join(c, 'data-files.json')} has no record of it)`);
  const folder = listFiles(s).find((f) => f.startsWith('runs/')).split('/').slice(0, 4).join('/');
  rmSync(join(s, folder), { recursive: true });
  assert.equal(await why(), `laying out the whole store: run folder ${join(s, folder)} is gone since the last build`);
  const [late] = syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 3, 12), seed: 8 });
  await publish({ store: s, docs: [late] });
  assert.match(await why(), new RegExp(`^laying out the whole store: run ${late.run.id} starts at ${late.run.startedAt}, before the newest run the last build laid out \\(\\S+\\), so later runs move down the run list$`));
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  assertSameSite(o, clean);
});

test('an archived month replaced while a build reads the store (a late document folded by a concurrent publish) is laid out again by the next build, not taken as the one the build read', async () => {
  const { d, s, o, c } = scratchSite();
  const policy = ARCHIVING;
  await publish({ store: s, policy, docs: [...syntheticDocs({ runs: 45, jobs: JOBS, every: 4 * DAY, start: Date.UTC(2025, 0, 1) })] });
  // the same store after a document arrives late for February: the next publish folds it into February's archive
  const s2 = join(d, 'store-after');
  cpSync(s, s2, { recursive: true });
  await publish({ store: s2, policy, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 1, 10, 6), seed: 9 })] });
  const month = join('archive', '2025-02.json');
  assert.notEqual(readFileSync(join(s2, month), 'utf8'), readFileSync(join(s, month), 'utf8'));
  // a report module runs while the build holds what it read of the store: there the month is replaced, as a publish
  // replaces it (a new file renamed into place), before the build notes what it read
  writeFileSync(join(d, 'report.js'), 'export function render() { globalThis.duringSiteBuild?.(); return ""; }\n');
  const config = { root: d, suites: { 'orders-api': { report: 'report.js' } } };
  globalThis.duringSiteBuild = () => {
    writeFileSync(join(s, `${month}.new`), readFileSync(join(s2, month)));
    renameSync(join(s, `${month}.new`), join(s, month));
    globalThis.duringSiteBuild = null;
  };
  await buildSite({ store: s, out: o, cache: c, config });
  assert.equal(globalThis.duringSiteBuild, null, 'the month was replaced during the build');
  const said = [];
  const next = await buildSite({ store: s, out: o, cache: c, config, log: (line) => said.push(line) });
  assert.equal(next.appended, false, said.join('\n'));
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config });
  assertSameSite(o, clean);
});

test('a series whose documents were all folded into archives takes its description from the first new document, appended or built whole alike', async () => {
  const { d, s, o, c } = scratchSite();
  const policy = ARCHIVING;
  const [a, b] = JOBS;
  // both jobs from January to April, then the first alone into July: the second's documents all go into archives
  await publish({ store: s, policy, docs: [...syntheticDocs({ runs: 30, jobs: [a, b], every: 4 * DAY, start: Date.UTC(2025, 0, 1) })] });
  await publish({ store: s, policy, docs: [...syntheticDocs({ runs: 20, jobs: [a], every: 4 * DAY, start: Date.UTC(2025, 3, 1), seed: 4 })] });
  assert.equal(listFiles(s).some((f) => f.startsWith('runs/') && f.includes('cache-on')), false, 'the second job is in archives only');
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  // it comes back with the other direction for its metrics: the series are described by the new document
  const [back] = [...syntheticDocs({ runs: 1, jobs: [b], start: Date.UTC(2025, 5, 20), seed: 5 })];
  back.metrics = back.metrics.map((m) => ({ ...m, better: m.better === 'lower' ? 'higher' : 'lower' }));
  await publish({ store: s, policy, docs: [back] });
  const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  assert.equal(r.appended, true);
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  assertSameSite(o, clean);
  const series = readDataScript(readFileSync(join(o, 'data/series/orders-api/cache-on/ab/keepalive/throughput.js'), 'utf8')).payload;
  assert.equal(series.better, 'lower', 'throughput, higher is better in the archives, now as the new document says');
});

test('a metric that changed unit is laid out anew from the first run in its new unit: its trend keeps only the points of that unit, appended or built whole alike', async () => {
  const { d, s, o, c } = scratchSite();
  const [job] = JOBS;
  // a script's own page_time, a count of 2.5 for 20 days, then the same Trend taken as milliseconds: 2.5e6 ns
  const pageTime = (unit, level) => [['throughput', 12000], ['page_time', level, { unit, better: 'lower' }]];
  const runsOf = (runs, day, unit, level, seed) => [...syntheticDocs({ runs, jobs: [job], every: DAY, start: Date.UTC(2025, 0, 1) + day * DAY, metrics: pageTime(unit, level), distributions: false, seed })];
  await publish({ store: s, docs: runsOf(20, 0, 'count', 2.5, 1) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  const said = [];
  const series = () => readDataScript(readFileSync(join(o, 'data/series/orders-api/cache-off/ab/keepalive/page_time.js'), 'utf8')).payload;
  const clean = join(d, 'clean');
  for (const [k, day] of [[0, 20], [1, 21]]) {
    await publish({ store: s, docs: runsOf(1, day, 'ns', 2.5e6, 2 + k) });
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (m) => said.push(m) });
    // the first run in ns lays out the whole store; the next appends to it
    assert.equal(r.appended, k === 1, said.join('\n'));
    rmSync(clean, { recursive: true, force: true });
    await buildSite({ store: s, out: clean, config: CONFIG });
    assertSameSite(o, clean);
    assert.deepEqual([series().unit, series().runs, series().otherUnits], ['ns', [[20, k + 1]], { points: 20, units: ['count'] }]);
    assert.ok(series().v.every((v) => v > 1e5), 'no count among the points (0.75 there, 750,000 ns here)');
  }
  assert.deepEqual(said, ['laying out the whole store: series orders-api/cache-off/ab/keepalive/page_time is measured in ns (lower is better) in the new runs, in count (lower is better) before']);
});

test('cache entries and saved change point windows written by another version of the builder are not used, so an upgrade reads every run and searches every series again', () => {
  const d = tempDir('incremental');
  const [doc] = syntheticDocs({ runs: 1, jobs: JOBS.slice(0, 1) });
  const folder = 'runs/2025/01/x';
  openCache(d, 'v1').write(packEntry(folder, ['main/a.json'], [doc], [], null, 'v1'));
  assert.equal(openCache(d, 'v1').entries.size, 1);
  assert.equal(openCache(d, 'v2').entries.size, 0);
  const [back] = unpackDocs(openCache(d, 'v1').entries.get(folder));
  assert.deepEqual(back.metrics, doc.metrics.map(({ name, unit, better, value, lower, upper }) => ({ name, unit, better, value, lower, upper })), 'a cached document keeps each metric\'s value and interval, not its samples');
  // the change point windows saved beside the entries likewise
  const saved = { 'a/b/c/d/e': { key: '50/0.01/true', length: 2, hash: '0', windows: [0, 0] } };
  openCache(d, 'v1').writeSplits(saved);
  assert.deepEqual(openCache(d, 'v1').splits, saved);
  assert.deepEqual(openCache(d, 'v2').splits, {});
  assert.equal(openCache(d, 'v1').entries.size, 1, 'the saved windows are not taken for a run folder\'s entry');
});

test('documents taken from the cache give the model the series and jobs their full documents give, their metrics expanded only when asked for', () => {
  const docs = [...syntheticDocs({ runs: 6, jobs: JOBS, distributions: false })];
  const byRun = new Map();
  for (const doc of docs) byRun.set(doc.run.id, [...(byRun.get(doc.run.id) || []), doc]);
  const slim = [...byRun.values()].flatMap((list) => unpackDocs(packEntry('runs/2025/01/x', [], list, [], null)));
  const trimmed = docs.map((d) => ({ ...d, metrics: d.metrics.map(({ name, unit, better, value, lower, upper }) => ({ name, unit, better, value, lower, upper })) }));
  const want = buildModel({ docs: trimmed });
  const got = buildModel({ docs: slim });
  assert.deepEqual(got.series, want.series);
  assert.deepEqual(JSON.parse(JSON.stringify(got.runs)), JSON.parse(JSON.stringify(want.runs)));
  assert.equal(Object.keys({ ...slim[0] }).includes('rows'), false, 'a copy of a cached document holds its fields only');
  assert.deepEqual(JSON.parse(JSON.stringify(slim[0])).metrics, trimmed[0].metrics);
});

test('a series part\'s fingerprint tells apart any two parts that would be written differently, and only those', () => {
  const part = { v: [1.5, 0, 2], lo: [null, 0, 1], hi: [2, 0, 3], runs: [[0, 3]], many: [] };
  const fp = partFingerprint(part);
  assert.equal(partFingerprint(JSON.parse(JSON.stringify(part))), fp, 'equal numbers, equal fingerprint');
  for (const other of [{ ...part, lo: [0, 0, 1] }, { ...part, v: [1.5, 0, 2.0000000001] }, { ...part, runs: [[1, 3]] }, { ...part, many: [[1, 2]] }, { ...part, v: [2, 1.5, 0] }]) {
    assert.notEqual(partFingerprint(other), fp, JSON.stringify(other));
  }
});

test('a store cache inside the site folder is refused with the reason and a place that works', async () => {
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS })] });
  await assert.rejects(buildSite({ store: s, out: join(d, 'site'), cache: join(d, 'site', 'cache') }), /inside the site folder .*give --cache a folder beside it/);
  await assert.rejects(buildSite({ store: s, out: join(d, 'site'), cache: join(d, 'site') }), /inside the site folder/);
  const ok = await buildSite({ store: s, out: join(d, 'site'), cache: join(d, 'site-cache') });
  assert.equal(ok.read, 1);
});

test('a store cache given as a file is refused with its path and what to give instead', async () => {
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS })] });
  writeFileSync(join(d, 'cache'), 'mine');
  await assert.rejects(buildSite({ store: s, out: join(d, 'site'), cache: join(d, 'cache') }), { message: `--cache ${join(d, 'cache')}: is a file, not a folder; give a folder for the site cache (beside the site, e.g. ${join(d, 'site')}-cache)` });
  assert.equal(readFileSync(join(d, 'cache'), 'utf8'), 'mine', 'the file is left as it was');
});

test('a cache folder that holds files no build wrote, the root or the home folder is refused and left as it was, while a cache a build wrote, with a writer\'s leftover temp file and a file of its own beside, is built with', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 2, jobs: JOBS })] });
  const mine = join(d, 'mine');
  // a folder of the user's holding files of other names beside ones with a cache's names (notes, a file where the cache
  // keeps a folder): no cache a build wrote, so nothing in it is touched
  mkdirSync(mine);
  const theirs = { 'snapshot.json': '{"my":"notes"}\n', values: 'my data\n', 'other.txt': 'keep\n', 'plan.md': '# plan\n' };
  for (const [name, text] of Object.entries(theirs)) writeFileSync(join(mine, name), text);
  await assert.rejects(buildSite({ store: s, out: o, cache: mine }), { message: `--cache ${mine}: holds files no site build wrote (other.txt, plan.md), which a build would overwrite or remove; give a new or empty folder (e.g. ${mine}-site-cache), or the folder an earlier \`benchline site --cache\` wrote` });
  for (const [name, text] of Object.entries(theirs)) assert.equal(readFileSync(join(mine, name), 'utf8'), text, `${name} is left as it was`);
  for (const place of ['/', homedir()]) await assert.rejects(buildSite({ store: s, out: o, cache: place }), /the site cache needs a folder of its own/);
  await buildSite({ store: s, out: o, cache: c });
  writeFileSync(join(c, 'snapshot.json.123456'), '');
  writeFileSync(join(c, 'README.txt'), 'what this folder is\n');
  const again = await buildSite({ store: s, out: o, cache: c });
  assert.equal(again.read, 0, 'the cache was taken');
});

test('a site folder that holds files no build wrote, the root, the home folder, or a place in or around the store is refused, and nothing in it is removed', async () => {
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS })] });
  // a checkout someone pointed --out at: --verify removes what no build wrote, so this must never be built into
  const repo = join(d, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, 'main.c'), 'int main() {}\n');
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (const verify of [false, true]) {
    await assert.rejects(buildSite({ store: s, out: repo, verify }), /holds files no site build wrote \(no \.benchline-site\.json\), which a build would remove; give a new or empty folder/);
  }
  assert.equal(readFileSync(join(repo, 'main.c'), 'utf8'), 'int main() {}\n');
  assert.ok(existsSync(join(repo, '.git', 'HEAD')));
  await assert.rejects(buildSite({ store: s, out: '/' }), /needs a folder of its own/);
  await assert.rejects(buildSite({ store: s, out: homedir() }), /needs a folder of its own/);
  await assert.rejects(buildSite({ store: s, out: join(s, 'runs') }), /cannot go in the store or around it/);
  await assert.rejects(buildSite({ store: s, out: d }), /cannot go in the store or around it/);
  await assert.rejects(buildSite({ store: s, out: join(d, 'site'), cache: join(s, 'cache') }), /--cache .*cannot go in the store/);
  // an empty folder, and then the folder that build wrote, are built into
  mkdirSync(join(d, 'empty'));
  const first = await buildSite({ store: s, out: join(d, 'empty'), verify: true });
  const again = await buildSite({ store: s, out: join(d, 'empty'), verify: true });
  assert.equal(again.pages, first.pages);
});

test('two builds into one site folder at once take turns: the folder ends as one build wrote it, nothing of the other left over', async () => {
  const d = tempDir('incremental');
  const a = join(d, 'a');
  const b = join(d, 'b');
  await publish({ store: a, docs: [...syntheticDocs({ runs: 30, jobs: JOBS })] });
  await publish({ store: b, docs: [...syntheticDocs({ runs: 20, jobs: JOBS, start: Date.UTC(2025, 5, 1) })] });
  const out = join(d, 'site');
  const [first, second] = await Promise.all([buildSite({ store: a, out }), buildSite({ store: b, out })]);
  const manifest = JSON.parse(readFileSync(join(out, '.benchline-site.json'), 'utf8'));
  const onDisk = listFiles(out).filter((f) => f !== '.benchline-site.json').sort();
  assert.deepEqual(onDisk, [...manifest.files].sort(), 'every file there is one the last build listed');
  assert.ok([first.runs, second.runs].includes(readDataScript(readFileSync(join(out, 'data', 'runs.js'), 'utf8')).payload.id.length));
  assert.equal(existsSync(`${out}.lock`), false, 'the lock is gone');
});

/** A store of three runs and a site folder whose lock another build holds: { s, out, release }. */
async function lockedSite() {
  const { default: lockfile } = await import('proper-lockfile');
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 3, jobs: JOBS })] });
  const out = join(d, 'site');
  mkdirSync(out);
  return { s, out, release: await lockfile.lock(out, { realpath: false }) };
}

test('a build that waits for another build of its folder looks at the folder only once it holds it: the files half-written then are no reason to refuse', async () => {
  // another build holds the folder and has written a file, but not its manifest yet
  const { s, out, release } = await lockedSite();
  writeFileSync(join(out, 'app.js'), '// half a build\n');
  const waiting = buildSite({ store: s, out });
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync(join(out, '.benchline-site.json'), JSON.stringify({ generatedAt: '', files: ['app.js'], hashes: {} }));
  await release();
  const r = await waiting;
  assert.ok(r.pages > 0);
});

test('a first build stopped outright half-way leaves a folder the next build takes up at once, its lock taken over as its process is gone', async () => {
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 40, jobs: JOBS })] });
  const out = join(d, 'site');
  const cli = fileURLToPath(new URL('../ci/cli.js', import.meta.url));
  const child = spawn(process.execPath, [cli, 'site', '--store', s, '--out', out], { stdio: 'ignore' });
  const exited = new Promise((res) => child.on('exit', (c, sig) => res(sig || c)));
  // killed once the build has written into the folder, before it ends (the mark's own temp file is not one of those)
  while (!(existsSync(out) && readdirSync(out).some((f) => !f.startsWith('.benchline-site.json')))) await new Promise((r) => setTimeout(r, 2));
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  assert.ok(existsSync(join(out, '.benchline-site.json')), 'the folder is marked as the site\'s before anything goes in');
  assert.ok(manifest(out).building, 'and as holding a build under way');
  assert.deepEqual(JSON.parse(readFileSync(join(`${out}.lock`, 'owner.json'), 'utf8')).pid, child.pid, 'the lock it left names its process');
  const said = [];
  const rebuilt = await buildSite({ store: s, out, log: (m) => said.push(m) });
  assert.ok(rebuilt.pages > 0);
  assert.deepEqual(said.filter((m) => /waiting for/.test(m)), [], 'the next build did not wait for the lock to go stale');
  assert.equal(existsSync(`${out}.lock`), false, 'the lock is released with its owner file');
  const clean = await buildSite({ store: s, out: join(d, 'clean') });
  assert.deepEqual(manifest(out).files, manifest(join(d, 'clean')).files);
  assert.equal(clean.pages, rebuilt.pages);
});

test('a values file of the cache replaced by a link is neither read nor written through: the file it points to stays as it was, and the site equals a clean build', async () => {
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 6 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  const values = join(c, 'values', listFiles(join(c, 'values'))[0]);
  const outside = join(d, 'outside.f64');
  writeFileSync(outside, readFileSync(values));
  const before = readFileSync(outside);
  rmSync(values);
  symlinkSync(outside, values);
  await publish({ store: s, docs: docs.slice(6 * JOBS.length) });
  const said = [];
  const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (line) => said.push(line) });
  assert.equal(r.appended, false);
  const name = values.slice(c.length + 1);
  assert.ok(said.includes(`removed a symbolic link from ${c} (${name}): the folder is the build's own and holds none`), said.join('\n'));
  assert.equal(said.filter((line) => line.startsWith('site cache:')).length, 1, said.join('\n'));
  assert.ok(readFileSync(outside).equals(before), 'nothing was written through the link');
  assert.ok(lstatSync(values).isFile(), 'the values file is a file of the cache again');
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  assertSameSite(o, clean);
  assert.equal((await buildSite({ store: s, out: o, cache: c, config: CONFIG })).appended, true, 'and the next build appends');
});

test('a folder of the site or of its cache replaced by a link to a copy of it is removed with its link, so nothing is written outside them and the site holds no link, with or without verify', async () => {
  for (const verify of [false, true]) {
    for (const inner of ['site/data/runs', 'cache/runs', 'cache/values']) {
      const { d, s, o, c } = scratchSite();
      const docs = [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })];
      await publish({ store: s, docs: docs.slice(0, 6 * JOBS.length) });
      await buildSite({ store: s, out: o, cache: c, config: CONFIG });
      const outside = join(d, 'outside');
      renameSync(join(d, inner), outside);
      symlinkSync(outside, join(d, inner));
      const before = listFiles(outside);
      await publish({ store: s, docs: docs.slice(6 * JOBS.length) });
      const said = [];
      await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify, log: (line) => said.push(line) });
      assert.deepEqual(listFiles(outside), before, `${inner}: nothing written through the link`);
      assert.ok(lstatSync(join(d, inner)).isDirectory(), `${inner} is a folder again`);
      assert.ok(said.some((line) => line.startsWith(`removed a symbolic link from ${inner.startsWith('site') ? o : c} (${inner.split('/').slice(1).join('/')})`)), said.join('\n'));
      const clean = join(d, 'clean');
      await buildSite({ store: s, out: clean, config: CONFIG });
      assertSameSite(o, clean);
    }
  }
});

test('links beside what builds write are left alone: in the site folder without verify (which keeps what it did not write), and in the cache folder', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 4, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  mkdirSync(join(d, 'docs'));
  symlinkSync(join(d, 'docs'), join(o, 'docs'));
  symlinkSync(join(d, 'docs'), join(c, 'notes'));
  const said = [];
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (line) => said.push(line) });
  assert.ok(lstatSync(join(o, 'docs')).isSymbolicLink() && lstatSync(join(c, 'notes')).isSymbolicLink(), said.join('\n'));
  assert.deepEqual(said.filter((line) => line.startsWith('removed')), []);
  await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify: true });
  assert.equal(existsSync(join(o, 'docs')), false, 'verify removes everything a build did not write');
  assert.ok(lstatSync(join(c, 'notes')).isSymbolicLink());
});

test('a named pipe where the cache or the site keeps a file holds no build up: it is taken as a damaged file, said, and replaced', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 4, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  // the build runs in a child process: one blocked opening a pipe cannot be stopped from within
  const builder = join(d, 'build.mjs');
  writeFileSync(builder, `const { buildSite } = await import(${JSON.stringify(new URL('../ci/store/site.js', import.meta.url).href)});
const said = [];
const r = await buildSite({ store: ${JSON.stringify(s)}, out: ${JSON.stringify(o)}, cache: ${JSON.stringify(c)}, config: ${JSON.stringify(CONFIG)}, log: (line) => said.push(line) });
process.stdout.write(JSON.stringify({ appended: r.appended, said }));
`);
  const pipes = ['snapshot.json', `values/${listFiles(join(c, 'values'))[0]}`, 'data-files.json', 'splits.json', listFiles(c).find((f) => f.startsWith('runs/'))];
  for (const rel of [...pipes.map((f) => join(c, f)), join(o, '.benchline-site.json')]) {
    rmSync(rel);
    assert.equal(spawnSync('mkfifo', [rel]).status, 0);
    // a run folder's entry is read by a build of the whole store only: a run published late makes this one
    if (rel.includes('/runs/')) await publish({ store: s, docs: [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 1, 12), seed: 5 })] });
    const r = spawnSync(process.execPath, [builder], { cwd: ROOT_DIR, timeout: 30000, killSignal: 'SIGKILL', encoding: 'utf8' });
    assert.equal(r.signal, null, `${rel}: the build ended by itself`);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(rel).isFile(), `${rel} is a file again`);
    const clean = join(d, 'clean');
    await buildSite({ store: s, out: clean, config: CONFIG });
    assertSameSite(o, clean);
    rmSync(clean, { recursive: true, force: true });
  }
});

test('a kept site file replaced by a link to a copy of it is written again as a file, with or without verify', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 6, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  for (const verify of [false, true]) {
    const rel = manifest(o).files.filter((f) => f.startsWith('data/runs/'))[verify ? 1 : 0];
    const copy = join(d, `copy-${verify}`);
    writeFileSync(copy, readFileSync(join(o, rel)));
    rmSync(join(o, rel));
    symlinkSync(copy, join(o, rel));
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify });
    assert.ok(r.written.includes(rel), `${rel} is written again${verify ? ' under verify' : ''}`);
    assert.ok(lstatSync(join(o, rel)).isFile(), 'as a file, not a link');
  }
});

test('the temp files a build stopped outright mid-write leaves beside the files it was writing, in the site and in its cache, are removed by the next build, with or without verify', async () => {
  const { d, s, o, c, clean } = await builtWithClean();
  for (const verify of [false, true]) {
    // as write-file-atomic names them: the file's name and a number
    const left = [`${manifest(o).files.find((f) => f.startsWith('data/series/'))}.3241804395`, 'app.js.17', '.benchline-site.json.2001'];
    for (const rel of left) writeFileSync(join(o, rel), 'half');
    // and beside the cache's own files: its state files, an entry and a series' values
    const entry = listFiles(c).find((f) => f.startsWith('runs/'));
    const values = listFiles(c).find((f) => f.startsWith('values/'));
    const cached = ['snapshot.json.11', 'data-files.json.12', 'pvalues.f64.13', `${entry}.14`, `${values}.15`];
    for (const rel of cached) writeFileSync(join(c, rel), 'half');
    await buildSite({ store: s, out: o, cache: c, config: CONFIG, verify });
    for (const rel of left) assert.equal(existsSync(join(o, rel)), false, `${rel} is removed${verify ? ' under verify' : ''}`);
    // the cache's state files on any build; an entry's and values' on the next whole layout, which lists them
    for (const rel of cached.slice(0, 3)) assert.equal(existsSync(join(c, rel)), false, `${rel} is removed from the cache${verify ? ' under verify' : ''}`);
    assertSameSite(o, clean);
    await buildSite({ store: s, out: join(d, 'other'), cache: c, config: CONFIG });
    for (const rel of cached) assert.equal(existsSync(join(c, rel)), false, `${rel} is removed from the cache by a whole layout`);
  }
});

test('a build killed outright the moment its lock folder appears leaves a lock the next build takes over at once', async () => {
  const d = tempDir('incremental');
  const s = join(d, 's');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 2, jobs: JOBS })] });
  const out = join(d, 'site');
  const taker = join(d, 'take-lock.mjs');
  // killed outright as soon as the lock folder is there, however it was made (or, with a second argument, as soon as
  // any folder is made)
  writeFileSync(taker, `import fs from 'node:fs';
const at = ${JSON.stringify(`${out}.lock`)};
for (const name of ['mkdirSync', 'renameSync']) {
  const real = fs[name];
  fs[name] = (...args) => { const r = real(...args); if (fs.existsSync(at) || process.argv[2]) process.kill(process.pid, 'SIGKILL'); return r; };
}
const { lock } = await import(${JSON.stringify(new URL('../ci/store/lock.js', import.meta.url).href)});
await lock(${JSON.stringify(out)}, { realpath: false, retries: 0 });
`);
  // killed before its lock folder is in place: what it made on the way is removed by the next build's lock
  assert.equal(spawnSync(process.execPath, [taker, 'early']).signal, 'SIGKILL');
  assert.equal(readdirSync(d).filter((f) => f.startsWith('site.lock.taking-')).length, 1, 'it left a folder on the way');
  const r = spawnSync(process.execPath, [taker]);
  assert.equal(r.signal, 'SIGKILL');
  assert.ok(existsSync(`${out}.lock`), 'it left its lock folder');
  const said = [];
  // a build that waits for the lock to go stale would wait two minutes: the lock goes after ten seconds instead
  const timer = setTimeout(() => rmSync(`${out}.lock`, { recursive: true, force: true }), 10000);
  await buildSite({ store: s, out, log: (m) => said.push(m) });
  clearTimeout(timer);
  assert.deepEqual(said.filter((m) => /waiting for/.test(m)), [], 'the next build did not wait for the lock');
  assert.deepEqual(readdirSync(d).filter((f) => f.startsWith('site.')), [], 'nothing of either lock is left beside the site');
});

test('a build that finds its folder locked says what it waits for and how to go on at once', async () => {
  const { s, out, release } = await lockedSite();
  const said = [];
  const waiting = buildSite({ store: s, out, log: (m) => said.push(m) });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(said.length, 1, said.join('\n'));
  assert.match(said[0], /^waiting for the build that holds .*site\.lock: another site build into .* \(one stopped outright on this machine is taken over at once; from another machine or container, 2 minutes after its last refresh\); remove .*site\.lock to go on at once if no build is running$/);
  await release();
  assert.ok((await waiting).pages > 0);
});

test('a rebuild stopped while it rewrote files in place leaves its mark, and the next build checks every kept file by content and equals a clean build', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })] });
  await buildSite({ store: s, out: o, cache: c });
  const before = manifest(o);
  assert.equal(before.building, undefined, 'a finished build leaves no mark');
  // what a stopped rebuild leaves: its mark, and a file it was rewriting in place holding the start of other bytes
  // and the rest of its old ones, as long as it was (so its size alone looks as written)
  writeFileSync(join(o, '.benchline-site.json'), JSON.stringify({ ...before, generatedAt: null, building: new Date().toISOString() }));
  const victim = before.files.find((f) => f.startsWith('data/runs/'));
  const old = readFileSync(join(o, victim));
  writeFileSync(join(o, victim), Buffer.concat([Buffer.from('x'.repeat(40)), old.subarray(40)]));
  // and a file it had just made, which no build lists
  writeFileSync(join(o, 'data', 'stray.js'), 'half\n');
  const r = await buildSite({ store: s, out: o, cache: c });
  assert.ok(r.written.includes(victim), 'the damaged file was found by its content and written again');
  assert.equal(manifest(o).building, undefined);
  await buildSite({ store: s, out: join(d, 'clean') });
  assertSameSite(o, join(d, 'clean'));
});

test('the worker that checks kept files by content gives the verdict the build\'s own check gives, and leaves what it was not asked to the build', async () => {
  const { verifyInBackground } = await import('../ci/store/verify-worker.js');
  const { createHash } = await import('node:crypto');
  const { symlinkSync } = await import('node:fs');
  const d = tempDir('verify-worker');
  const sha1 = (text) => createHash('sha1').update(text).digest('hex');
  const file = (name, text) => {
    writeFileSync(join(d, name), text);
    return { rel: name, path: join(d, name), size: Buffer.byteLength(text), hash: sha1(text) };
  };
  const same = file('same.js', 'as written\n');
  const edited = file('edited.js', 'as written\n');
  writeFileSync(edited.path, 'AS WRITTEN\n');
  const gone = file('gone.js', 'gone\n');
  rmSync(gone.path);
  const linked = file('target.js', 'linked\n');
  const link = { ...linked, rel: 'link.js', path: join(d, 'link.js') };
  symlinkSync(linked.path, link.path);
  const checks = verifyInBackground(d, [same, edited, gone, link]);
  assert.equal(checks.check(same.rel, same.size, same.hash), true);
  assert.equal(checks.check(edited.rel, edited.size, edited.hash), false, 'same size, other bytes');
  assert.equal(checks.check(gone.rel, gone.size, gone.hash), false);
  assert.equal(checks.check(link.rel, link.size, link.hash), false, 'a link is never taken as a kept file');
  assert.equal(checks.check(linked.rel, linked.size, linked.hash), null, 'not asked about');
  assert.equal(checks.check(same.rel, same.size, sha1('other')), null, 'asked about with another hash');
  checks.close();
  assert.equal(checks.check(same.rel, same.size, same.hash), null, 'closed: the build reads the file itself');
});

test('with the cache, a build in a new process takes the page\'s code from the last build\'s bundle while its inputs are unchanged, and bundles again otherwise', async () => {
  const { execFileSync } = await import('node:child_process');
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 3, jobs: JOBS })] });
  const cli = fileURLToPath(new URL('../ci/cli.js', import.meta.url));
  const site = () => execFileSync(process.execPath, [cli, 'site', '--store', s, '--out', o, '--cache', c], { stdio: 'pipe' });
  site();
  const file = join(c, 'bundle.json');
  const { sealed, unsealed } = await import('../ci/store/files.js');
  const saved = JSON.parse(unsealed(readFileSync(file, 'utf8')));
  assert.ok(saved.inputs.some((f) => f.endsWith('reports-site/src/main.js')) && saved.inputs.some((f) => f.includes('uplot')), saved.inputs.join(' '));
  assert.equal(readFileSync(join(o, 'app.js'), 'utf8'), saved.js);
  // a bundle the next process takes as it is: marked, to see it taken
  writeFileSync(file, sealed(JSON.stringify({ ...saved, js: `${saved.js}/*taken*/` })));
  site();
  assert.match(readFileSync(join(o, 'app.js'), 'utf8'), /\/\*taken\*\/$/);
  // inputs that no longer hash as recorded (here: one more, which is not there): bundled again
  writeFileSync(file, sealed(JSON.stringify({ ...saved, inputs: [...saved.inputs, 'reports-site/src/gone.js'], js: `${saved.js}/*stale*/` })));
  site();
  assert.equal(readFileSync(join(o, 'app.js'), 'utf8'), saved.js);
  assert.equal(JSON.parse(unsealed(readFileSync(file, 'utf8'))).js, saved.js, 'and the new bundle saved');
  // one edited without its checksum: not taken
  writeFileSync(file, readFileSync(file, 'utf8').replace('"js":"', '"js":"/*edited*/'));
  site();
  assert.equal(readFileSync(join(o, 'app.js'), 'utf8'), saved.js);
  rmSync(d, { recursive: true, force: true });
});

test('a cache that names more than its files hold (a series of a billion points, a trillion kept p-values) costs a whole layout or the p-values, never the memory for them', async () => {
  const { sealed, unsealed } = await import('../ci/store/files.js');
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 8, jobs: JOBS, every: DAY })];
  await publish({ store: s, docs: docs.slice(0, 6 * JOBS.length) });
  await buildSite({ store: s, out: o, cache: c, config: CONFIG });
  // the files as a build that miscounted would have sealed them
  const reseal = (rel, change) => {
    const file = join(c, rel);
    const value = JSON.parse(unsealed(readFileSync(file, 'utf8')));
    change(value);
    writeFileSync(file, `${sealed(JSON.stringify(value))}\n`);
    return file;
  };
  const snapshot = reseal('snapshot.json', (snap) => { snap.series[0].count = 1e9; });
  reseal('splits.json', (sp) => { sp.pvalues.length = 3e12; });
  await publish({ store: s, docs: docs.slice(6 * JOBS.length, 7 * JOBS.length) });
  const said = [];
  const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG, log: (line) => said.push(line) });
  assert.equal(r.appended, false);
  const lines = said.filter((line) => line.startsWith('site cache:'));
  assert.ok(lines.some((line) => line.includes(`${snapshot}: a series without its count of points, or with more points than runs`)), lines.join('\n'));
  assert.ok(lines.some((line) => line.startsWith(`site cache: ${join(c, 'pvalues.f64')}: not as the last build wrote it`)), lines.join('\n'));
  const clean = join(d, 'clean');
  await buildSite({ store: s, out: clean, config: CONFIG });
  assertSameSite(o, clean);
});

test('a first build that reads the store in worker threads writes the files and cache of one that reads it alone, and reports the same problems', async () => {
  const { d, s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 9, jobs: JOBS, every: DAY })] });
  // a run whose documents lie in two folders (one says it started in February: read whole by the build, its file
  // written again), a folder holding a document that belongs elsewhere, and a folder with a corrupt file
  const twice = [...syntheticDocs({ runs: 1, jobs: JOBS, start: Date.UTC(2025, 0, 20), seed: 5 })];
  twice[1] = { ...twice[1], run: { ...twice[1].run, startedAt: '2025-02-01T00:00:00.000Z' } };
  await publish({ store: s, docs: [twice[0]] });
  // publish refuses the second folder of a run: copied in, as a store written before that, or by hand, may hold it
  const aside = join(d, 'aside');
  await publish({ store: aside, docs: [twice[1]] });
  cpSync(join(aside, 'runs', '2025', '02'), join(s, 'runs', '2025', '02'), { recursive: true });
  assert.ok(existsSync(join(s, 'runs', '2025', '02')));
  const folders = listFiles(join(s, 'runs')).map((f) => f.split('/').slice(0, 3).join('/'));
  const [first] = folders;
  const other = join(s, 'runs', first.replace(/[^/]+$/, 'copy-of-run'));
  cpSync(join(s, 'runs', first), other, { recursive: true });
  const broken = folders[3];
  const victim = listFiles(join(s, 'runs', broken))[0];
  writeFileSync(join(s, 'runs', broken, victim), '{ not json', 'utf8');

  const logged = [];
  const warm = await buildSite({ store: s, out: o, cache: c, config: CONFIG, warmFiles: 1, warmThreads: 2, log: (m) => logged.push(m) });
  const alone = join(d, 'alone');
  const aloneCache = join(d, 'alone-cache');
  const single = await buildSite({ store: s, out: alone, cache: aloneCache, config: CONFIG, warmThreads: 1 });
  assert.equal(warm.warmed, 10, 'every folder without a problem file read in the worker threads');
  assert.equal(single.warmed, 0, 'and none with one thread');
  assert.equal(warm.read, single.read, 'every folder read once either way');
  assertSameSite(o, alone);
  const entries = (dir) => listFiles(dir).filter((f) => f.startsWith('runs/'));
  assert.deepEqual(entries(c), entries(aloneCache), 'the same cache entries');
  assert.ok(entries(c).length >= 9);
  for (const rel of entries(c)) {
    assert.equal(readFileSync(join(c, rel), 'utf8'), readFileSync(join(aloneCache, rel), 'utf8'), `${rel} as a build alone writes it`);
  }
  assert.ok(logged.some((m) => m.includes(victim.split('/').pop())), 'the corrupt file is reported');
  assert.ok(!existsSync(join(c, `${join('runs', broken)}.json`)), 'and its folder has no entry');
  // the next build takes every good folder from the cache
  const again = await buildSite({ store: s, out: o, cache: c, config: CONFIG, warmFiles: 1, warmThreads: 2 });
  assert.equal(again.read, 4, 'the two folders with a problem file, and the two of the run in both (the report\'s newest run)');
  assert.equal(again.warmed, 0, 'too few files left to read for worker threads');
  assertSameSite(o, alone);
});

test('a store.json that cannot be read ends a first build before its worker threads write anything, naming the file', async () => {
  const { s, o, c } = scratchSite();
  await publish({ store: s, docs: [...syntheticDocs({ runs: 3, jobs: JOBS, every: DAY })] });
  writeFileSync(join(s, 'store.json'), '{ "schema": ', 'utf8');
  await assert.rejects(buildSite({ store: s, out: o, cache: c, config: CONFIG, warmFiles: 1, warmThreads: 2 }), (e) => e.message.startsWith(`${join(s, 'store.json')}: not valid JSON`));
  assert.deepEqual(existsSync(o) ? listFiles(o) : [], [], 'no run file or manifest written into the site');
  assert.deepEqual(existsSync(c) ? listFiles(c).filter((f) => f.startsWith('runs/')) : [], [], 'nor cache entries');
});

test('a run with folders in two months is reported on the overview by its second folder, on a first build and on every rebuild', async () => {
  const { d, s, o, c } = scratchSite();
  const docs = [...syntheticDocs({ runs: 4, jobs: JOBS, every: DAY, start: Date.UTC(2025, 1, 3) })];
  await publish({ store: s, docs });
  // the newest run's documents again, dated in January with other values: published into a store of its own (publish
  // refuses it here), then copied in, as a store written before that refusal may hold it
  const id = docs.at(-1).run.id;
  const edited = docs.filter((x) => x.run.id === id).map((x) => ({ ...x, run: { ...x.run, startedAt: '2025-01-30T00:00:00.000Z' }, metrics: x.metrics.map((m) => ({ ...m, value: m.value * 2, samples: m.samples.map((v) => v * 2), lower: m.lower * 2, upper: m.upper * 2 })) }));
  const aside = join(d, 'aside');
  await publish({ store: aside, docs: edited });
  cpSync(join(aside, 'runs', '2025', '01'), join(s, 'runs', '2025', '01'), { recursive: true });
  const expected = new RegExp(`^runs/2025/02/${id}: a second folder of run ${id}, whose documents give it another start than those in runs/2025/01/${id}, which the site shows where both hold a job; a run has one start: remove the folder`);
  for (const build of ['first', 'rebuild']) {
    const r = await buildSite({ store: s, out: o, cache: c, config: CONFIG });
    assert.equal(r.problems.length, 1, build);
    const index = readDataScript(readFileSync(join(o, 'data', 'index.js'), 'utf8')).payload;
    assert.deepEqual(index.problems.map((p) => p.path), [`runs/2025/02/${id}`], build);
    assert.match(index.problems[0].message, expected, build);
  }
});

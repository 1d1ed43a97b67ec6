// The history site in headless Chromium: every view drawn from a published store, numbers checked against the store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as ab from '../ci/adapters/ab.js';
import { buildResult } from '../ci/result.js';
import { compare, minEffectFor } from '../ci/compare.js';
import { formatValue } from '../ci/units.js';
import { publish, readStore } from '../ci/store/store.js';
import { buildModel, seriesChangePoints } from '../ci/store/model.js';
import { buildSite } from '../ci/store/site.js';
import { MIN_SEGMENT, readDataScript } from '../ci/store/site-data.js';
import { seriesPath } from '../ci/store/paths.js';
import { serveStatic } from '../ci/store/serve.js';
import { launchChromium } from '../ci/store/browser.js';
import { syntheticDocs, commitOf } from '../ci/store/synthetic.js';
import { tempDir } from './support/temp.js';

const ARTIFACTS = new URL('../test-artifacts/site/', import.meta.url);
const REPO = 'https://github.com/example/benchline';
const CONFIG = {
  suites: { 'orders-api': { description: 'Orders API with its in-memory cache off and on', report: 'subjects/orders-api/report.js', variants: { 'cache-off': {}, 'cache-on': {} } } },
  compare: { confidence: 0.95, alpha: 0.05, minEffect: 0.03, metrics: { 'latency.p99': 0.1 } },
};
const JOBS = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 0.3 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 0.6 },
];
const THROUGHPUT_ON = 'orders-api/cache-on/ab/keepalive/throughput';
const REAL_RUN = { id: '20250302T000000Z-ab0001', startedAt: '2025-03-02T00:00:00.000Z', commit: commitOf(60), ref: 'main', trigger: 'push', role: 'main' };
const RUNNER = { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 25769803776, labels: ['loopback'] };

let dir;
let store;
let out;
let synthetic;
let realDocs;
let browser;
let page;
let server;
const errors = [];

/** The newest run, made from ab output captured against subjects/orders-api (three trials per variant). */
function realRun() {
  return ['off', 'on'].map((cache) => buildResult({
    run: REAL_RUN,
    runner: RUNNER,
    suite: 'orders-api',
    subject: 'orders-api',
    variant: `cache-${cache}`,
    scenario: 'keepalive',
    tool: { name: 'ab', version: '2.3' },
    params: { path: '/api/order/all-items', requests: 5000, concurrency: 100 },
    trials: [1, 2, 3].map((n) => ab.parse(readFileSync(new URL(`./fixtures/ab/orders-api-cache-${cache}-${n}.txt`, import.meta.url), 'utf8'))),
  }, `ab fixtures cache-${cache}`));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchline-site-'));
  store = join(dir, 'store');
  out = join(dir, 'site');
  // 60 daily runs on main; cache-on loses 10% throughput from run 40 on; January ages into the archive
  synthetic = [...syntheticDocs({ runs: 60, jobs: JOBS, every: 86400e3, steps: [{ from: 40, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.9 }] })];
  const first = await publish({ store, docs: synthetic, policy: { keepDays: 20, keepRuns: 5 } });
  assert.deepEqual(first.compacted.months, ['2025-01']);
  realDocs = realRun();
  const results = join(dir, 'results', REAL_RUN.id);
  mkdirSync(join(results, 'docs', 'main'), { recursive: true });
  const jobs = realDocs.map((d) => {
    const id = `orders-api.${d.variant}.ab.keepalive`;
    writeFileSync(join(results, 'docs', 'main', `${id}.json`), JSON.stringify(d));
    return { id, suite: 'orders-api', subject: 'orders-api', variant: d.variant, tool: 'ab', scenario: 'keepalive', status: 'ok', docs: { main: `docs/main/${id}.json` } };
  });
  jobs.push({ id: 'orders-api.cache-on.wrk.peak', suite: 'orders-api', subject: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak', status: 'failed', reason: 'wrk exited 1: connection refused', docs: {} });
  writeFileSync(join(results, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: REAL_RUN.id, startedAt: REAL_RUN.startedAt, finishedAt: REAL_RUN.startedAt, config: 'bench.config.yaml', profile: 'quick', head: { commit: REAL_RUN.commit, dirty: false }, jobs }));
  const second = await publish({ store, files: [results] });
  assert.equal(second.added, 3);
  // damage: a torn document and a stray file; the site must name both and lose nothing else
  mkdirSync(join(store, 'runs', '2025', '02', '20250215T120000Z-torn00', 'main'), { recursive: true });
  writeFileSync(join(store, 'runs', '2025', '02', '20250215T120000Z-torn00', 'main', 'orders-api.cache-off.ab.keepalive.json'), '{"schema":"benchline/result@1","run":{"id":');
  writeFileSync(join(store, 'NOTES.txt'), 'kept by hand');
  // a link to a file outside the store: never followed, so nothing of its target reaches the site
  symlinkSync(join(dir, 'secret.txt'), join(store, 'runs', '2025', '02', '20250215T120000Z-torn00', 'main', 'orders-api.cache-on.ab.keepalive.json'));
  writeFileSync(join(dir, 'secret.txt'), 'root:x:0:0 the target of a link\n');
  const built = await buildSite({ store, out, basePath: '/benchline/', config: CONFIG, repoUrl: REPO });
  assert.equal(built.runs, 61);
  assert.equal(built.series, new Set([...synthetic, ...realDocs].flatMap((d) => d.metrics.map((m) => `${d.variant}/${m.name}`))).size);
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  server = await serveStatic(out, { prefix: '/benchline/' });
});

after(async () => {
  await server?.close();
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ready = () => page.waitForSelector('#view[data-ready="1"]', { timeout: 15000 });
async function open(url) {
  await page.goto(url);
  await ready();
}
async function go(hash) {
  await page.evaluate((h) => { document.getElementById('view').dataset.ready = '0'; location.hash = h; }, hash);
  await ready();
}
const shot = (name) => page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
/** Non-transparent pixels of each chart canvas: a chart that drew nothing has none. */
const inkedPixels = () => page.evaluate(() => [...document.querySelectorAll('.uplot canvas')].map((c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i]) n += 1;
  return n;
}));
const cellValues = (selector) => page.$$eval(selector, (tds) => tds.map((td) => Number(td.dataset.v)));
const siteUrl = () => pathToFileURL(join(out, 'index.html')).href;
const metricOf = (doc, name) => doc.metrics.find((m) => m.name === name);

/** The step the site should mark, computed in Node from the store with the site's rule. */
function expectedStep() {
  const contents = readStore(store);
  const model = buildModel({ docs: contents.docs.map((d) => d.doc), failures: contents.failures.map((f) => f.rec), archives: contents.archives.map((a) => a.archive) });
  const s = model.series.find((x) => x.id === THROUGHPUT_ON);
  return seriesChangePoints(s, model.runs, { minMagnitude: minEffectFor('throughput', CONFIG.compare), minSegment: MIN_SEGMENT, recheck: true });
}

test('the overview from file:// shows the suite, its latest failures, the 10% step at its commit and the skipped store files', async () => {
  await open(siteUrl());
  const card = page.locator('.suite[data-suite="orders-api"]');
  assert.equal(await card.locator('.badge').first().getAttribute('data-ok'), '2');
  assert.equal(await card.locator('.badge').first().getAttribute('data-failed'), '1');
  assert.equal(await card.locator('.failures li').innerText(), 'orders-api.cache-on.wrk.peak: failed: wrk exited 1: connection refused');
  const problems = await page.$$eval('.problems li', (lis) => lis.map((li) => li.textContent));
  assert.equal(problems.length, 3);
  assert.match(problems.find((p) => p.includes('NOTES.txt')), /not a benchline history file/);
  assert.match(problems.find((p) => p.includes('orders-api.cache-off.ab.keepalive.json')), /^runs\/2025\/02\/20250215T120000Z-torn00\/main\/orders-api\.cache-off\.ab\.keepalive\.json: not valid JSON/, 'named by its place in the store');
  assert.match(problems.find((p) => p.includes('orders-api.cache-on.ab.keepalive.json')), /: a symbolic link, which the store never holds/);
  const index = readFileSync(join(out, 'data', 'index.js'), 'utf8');
  assert.ok(!readDataScript(index).payload.problems.some((p) => p.message.includes('root:x') || p.message.includes(dir)), 'neither a link target\'s text nor the building machine\'s paths are published');
  const [step] = expectedStep();
  assert.equal(step.runId, synthetic[80].run.id);
  assert.equal(step.commit, commitOf(40));
  const row = page.locator(`tr.change[data-series="${THROUGHPUT_ON}"]`);
  assert.equal(await row.count(), 1);
  assert.equal(await row.getAttribute('data-run'), synthetic[80].run.id);
  assert.equal(Number(await row.locator('td').nth(5).getAttribute('data-v')), step.change);
  assert.equal(await row.locator('td').nth(5).innerText(), `${(step.change * 100).toFixed(1)}%`);
  assert.ok(step.change < -0.08 && step.change > -0.12, `step ${step.change}`);
  assert.equal(await row.locator('a.commit').getAttribute('href'), `${REPO}/commit/${commitOf(40)}`);
  assert.equal(await card.locator('.regressions li').count(), 1);
  await shot('overview');
});

test('the trend chart draws both variants with their bands and marks the step; its tables hold the stored values', async () => {
  await page.locator(`tr.change[data-series="${THROUGHPUT_ON}"] td a`).first().click();
  await ready();
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'trend');
  const drawn = await page.evaluate(() => { const c = window.__benchlineCharts.at(-1); return { kind: c.kind, lines: c.lines, points: c.points, markers: c.markers }; });
  assert.deepEqual(drawn, { kind: 'trend', lines: 2, points: 122, markers: 1 });
  const [ink] = await inkedPixels();
  assert.ok(ink > 5000, `chart canvas has ${ink} drawn pixels`);
  const [step] = expectedStep();
  const changes = page.locator('table.changes tr.change');
  assert.equal(await changes.count(), 1);
  assert.equal(await changes.getAttribute('data-run'), synthetic[80].run.id);
  assert.deepEqual(await cellValues('table.changes tr.change td.num[data-v]'), [step.before, step.after, step.change]);
  assert.equal(await changes.locator('td').nth(4).innerText(), formatValue(step.before, 'ops/s'));
  // the step's p-value to two digits, or ≈ 0 where it is too small for a double (a 10% step over 40 runs of 2% noise)
  assert.ok(step.pvalue >= 0 && step.pvalue < 0.001, `p ${step.pvalue}`);
  assert.equal(await changes.locator('td').nth(7).innerText(), step.pvalue > 0 ? step.pvalue.toPrecision(2) : '≈ 0');
  // latest values: the real ab run, as stored
  for (const doc of realDocs) {
    const cell = page.locator(`tr.latest[data-variant="${doc.variant}"] td.num[data-v]`);
    assert.equal(Number(await cell.getAttribute('data-v')), metricOf(doc, 'throughput').value);
    assert.equal(await cell.innerText(), formatValue(metricOf(doc, 'throughput').value, 'ops/s'));
  }
  // the last 20 points of cache-off: the real run, then runs 59..41 of the synthetic history, newest first
  const expected = [metricOf(realDocs[0], 'throughput').value, ...synthetic.filter((d) => d.variant === 'cache-off').slice(41).reverse().map((d) => metricOf(d, 'throughput').value)];
  assert.deepEqual(await cellValues('table.points[data-variant="cache-off"] tr.point td.num[data-v]'), expected);
  await page.hover('#trend-chart .u-over', { position: { x: 600, y: 120 } });
  assert.match(await page.locator('.chart-info').innerText(), /run \d{8}T\d{6}Z-[0-9a-f]{6} · commit [0-9a-f]{10}/);
  await shot('trend');
});

test('compare gives, for two runs, exactly the verdicts compare() gives for their documents', async () => {
  const base = synthetic.filter((d) => d.run.id === synthetic[118].run.id);
  await go(`#/compare/${encodeURIComponent(base[0].run.id)}/${encodeURIComponent(REAL_RUN.id)}`);
  const expected = compare(base, realDocs, CONFIG.compare, { seed: 1 });
  const rows = await page.$$eval('table.compare-table tbody tr', (trs) => trs.map((tr) => ({
    key: `${tr.dataset.variant}/${tr.dataset.metric}`,
    base: Number(tr.children[4].dataset.v),
    head: Number(tr.children[5].dataset.v),
    change: tr.children[6].dataset.v === '' ? null : Number(tr.children[6].dataset.v),
    verdict: tr.children[8].querySelector('.badge').textContent,
  })));
  assert.equal(rows.length, expected.comparisons.length);
  assert.ok(rows.length >= 18);
  assert.deepEqual(rows, expected.comparisons.map((c) => ({ key: `${c.variant}/${c.metric}`, base: c.base.value, head: c.head.value, change: c.change, verdict: c.verdict ?? 'not judged' })));
  assert.equal(await page.locator('.counts').innerText(), Object.entries(expected.counts).map(([k, v]) => `${v} ${v !== 1 && (k === 'regression' || k === 'improvement') ? `${k}s` : k}`).join(', '));
  await shot('compare');
  // an archived run keeps one value per metric: the same rule then has too few trials to decide
  await go(`#/compare/${encodeURIComponent(synthetic[0].run.id)}/${encodeURIComponent(REAL_RUN.id)}`);
  const verdicts = await page.$$eval('table.compare-table tbody tr td:last-child', (tds) => [...new Set(tds.map((td) => td.querySelector('.badge').textContent))]);
  assert.deepEqual(verdicts.filter((v) => v !== 'not judged'), ['inconclusive']);
});

test("the variant table puts the newest cache-off and cache-on measurements side by side, as the seed's report does", async () => {
  await go('#/variants/orders-api');
  const [off, on] = realDocs;
  for (const name of ['throughput', 'latency.p50', 'latency.p99', 'transfer_rate']) {
    const values = await cellValues(`tr.row[data-metric="${name}"] td.num[data-variant]`);
    const change = metricOf(on, name).value / metricOf(off, name).value - 1;
    assert.deepEqual(values, [metricOf(off, name).value, metricOf(on, name).value, change], name);
  }
  const best = await page.locator('tr.row[data-metric="throughput"] td.best').getAttribute('data-variant');
  assert.equal(best, metricOf(on, 'throughput').value > metricOf(off, 'throughput').value ? 'cache-on' : 'cache-off');
  await shot('variants');
});

test('a run shows its commit, runner, parameters, failed job and latency distribution from the tool', async () => {
  await go(`#/run/${encodeURIComponent(REAL_RUN.id)}`);
  assert.equal(await page.locator('dd[data-key="Runner"]').innerText(), 'runner-a');
  assert.equal(await page.locator('dd[data-key="Commit"] a').getAttribute('href'), `${REPO}/commit/${commitOf(60)}`);
  assert.equal(await page.locator('section.job[data-job="orders-api.cache-on.ab.keepalive"] code.params').textContent(), 'path=/api/order/all-items  requests=5000  concurrency=100');
  assert.equal(await page.locator('section.job[data-job="orders-api.cache-on.wrk.peak"] .reason').innerText(), 'wrk exited 1: connection refused');
  const drawn = await page.evaluate(() => { const c = window.__benchlineCharts.at(-1); return { kind: c.kind, lines: c.lines, points: c.points }; });
  assert.deepEqual(drawn, { kind: 'percentiles', lines: 2, points: realDocs[0].distributions[0].percentiles.length + realDocs[1].distributions[0].percentiles.length });
  const inks = await inkedPixels();
  assert.ok(inks.at(-1) > 3000, `percentile chart has ${inks.at(-1)} drawn pixels`);
  for (const q of realDocs[1].distributions[0].percentiles) {
    assert.deepEqual(await cellValues(`tr.percentile[data-p="${q.p}"] td.num[data-v]`), [realDocs[0].distributions[0].percentiles.find((x) => x.p === q.p).value, q.value]);
  }
  const metricRows = await cellValues('section.job[data-job="orders-api.cache-off.ab.keepalive"] tr.metric td.num[data-v]');
  assert.deepEqual(metricRows, realDocs[0].metrics.map((m) => m.value));
  await shot('run');
  // an archived run: its runner and parameters survive compaction, its values rounded to 6 digits
  await go(`#/run/${encodeURIComponent(synthetic[0].run.id)}`);
  assert.match(await page.locator('dd[data-key="Stored as"]').innerText(), /^archived/);
  assert.equal(await page.locator('dd[data-key="Runner"]').innerText(), 'bench-runner-1');
  assert.deepEqual(await cellValues('section.job[data-job="orders-api.cache-off.ab.keepalive"] tr.metric td.num[data-v]'), synthetic[0].metrics.map((m) => Number(m.value.toPrecision(6))));
  await shot('run-archived');
});

test('the runs list shows every run, newest first, each linking to its details', async () => {
  await go('#/runs');
  const ids = await page.$$eval('tr.run', (trs) => trs.map((tr) => tr.dataset.run));
  assert.deepEqual(ids, [REAL_RUN.id, ...synthetic.filter((d) => d.variant === 'cache-off').map((d) => d.run.id).reverse()]);
  await page.locator(`tr.run[data-run="${synthetic[2].run.id}"] td a`).first().click();
  await ready();
  assert.equal(await page.locator('h1').innerText(), `Run ${synthetic[2].run.id}`);
  await shot('runs-to-run');
});

test('served under a Pages sub-path, the page loads series from the same paths seriesPath gives in Node', async () => {
  await open(`${server.url}#/trend/${encodeURIComponent('orders-api/ab/keepalive/latency.p99')}`);
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  for (const variant of ['cache-off', 'cache-on']) {
    assert.ok(loaded.includes(`/benchline/${seriesPath({ suite: 'orders-api', variant, tool: 'ab', scenario: 'keepalive', metric: 'latency.p99' })}`), variant);
  }
  const [ink] = await inkedPixels();
  assert.ok(ink > 5000);
  // the copy of paths.js in the site is the module the builder used
  const keys = [{ suite: 'a', variant: 'b', tool: 'jmh', scenario: 'c', metric: 'com.x.Bench.run ops/s::throughput' }, { suite: 'ünï', variant: 'v', tool: 't', scenario: 's', metric: 'm' }];
  const inPage = await page.evaluate(async (k) => { const m = await import('./paths.js'); return k.map((x) => m.seriesPath(x)); }, keys);
  assert.deepEqual(inPage, keys.map((k) => seriesPath(k)));
  await shot('trend-over-http');
});

test('the Atom feed names the regression, its size and commit, linking under the base path', () => {
  const feed = readFileSync(join(out, 'feed.xml'), 'utf8');
  const [step] = expectedStep();
  assert.match(feed, new RegExp(`<title>Regression: orders-api cache-on ab keepalive throughput ${(step.change * 100).toFixed(1)}% at ${commitOf(40).slice(0, 12)}</title>`));
  assert.match(feed, /<link rel="alternate" href="\/benchline\/#\/trend\/orders-api%2Fab%2Fkeepalive%2Fthroughput"\/>/);
  assert.match(feed, /<title>Failed jobs: orders-api \(1\) in run 20250302T000000Z-ab0001<\/title>/);
  assert.equal((feed.match(/<entry>/g) || []).length, 2);
});

test('the data files the views above read went out deflated where that is smaller, series files (which every run rewrites) as JSON, and read back to their payloads in Node', () => {
  const manifest = JSON.parse(readFileSync(join(out, '.benchline-site.json'), 'utf8'));
  const data = manifest.files.filter((f) => f.startsWith('data/') && f.endsWith('.js'));
  const deflated = data.filter((f) => readFileSync(join(out, f), 'utf8').endsWith('","deflate-raw");\n'));
  const runFile = data.find((f) => f.startsWith('data/runs/') && f.includes(REAL_RUN.id));
  for (const f of ['data/index.js', 'data/runs.js', 'data/archive/2025-01.js', runFile]) {
    assert.ok(deflated.includes(f), `${f} is deflated`);
  }
  const head = seriesPath({ suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', metric: 'throughput' });
  assert.ok(data.includes(head) && !deflated.includes(head), `${head} is JSON text`);
  for (const f of data) {
    const text = readFileSync(join(out, f), 'utf8');
    const back = readDataScript(text);
    assert.equal(back?.path, f, `${f} names itself`);
    if (deflated.includes(f)) assert.ok(text.length < `__benchlineData(${JSON.stringify(f)},${JSON.stringify(back.payload)});\n`.length, `${f} is smaller than with its payload as JSON`);
  }
  // the archived month goes out as stored: its payload is the store's file, parsed
  assert.deepEqual(readDataScript(readFileSync(join(out, 'data/archive/2025-01.js'), 'utf8')).payload, JSON.parse(readFileSync(join(store, 'archive', '2025-01.json'), 'utf8')));
});

test('no view raised an error in the page', () => {
  assert.deepEqual(errors, []);
});

test('a rebuild rewrites only the files whose content changed and restores one removed by hand', async () => {
  const d = tempDir('rebuild');
  const s = join(d, 'store');
  const o = join(d, 'site');
  const docs = [...syntheticDocs({ runs: 12, jobs: JOBS, every: 86400e3 })];
  await publish({ store: s, docs: docs.slice(0, 10 * JOBS.length) });
  const first = await buildSite({ store: s, out: o });
  assert.equal(first.unchanged, 0);
  const inode = (rel) => statSync(join(o, rel)).ino;
  const manifest = () => JSON.parse(readFileSync(join(o, '.benchline-site.json'), 'utf8'));
  const runFiles = manifest().files.filter((f) => f.startsWith('data/runs/'));
  const before = Object.fromEntries(manifest().files.map((f) => [f, inode(f)]));
  const series = seriesPath({ suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', metric: 'throughput' });

  await publish({ store: s, docs: docs.slice(10 * JOBS.length) });
  unlinkSync(join(o, runFiles[0]));
  const second = await buildSite({ store: s, out: o });
  const after = manifest().files;
  // what the build says it wrote, not inode numbers: a file replaced by rename may get a freed inode number back
  const rewritten = second.written.filter((f) => before[f] !== undefined);
  assert.ok(rewritten.includes('data/index.js') && rewritten.includes(series), 'the index and a series with new points are rewritten');
  for (const f of rewritten) assert.ok(after.includes(f), `${f} is in the manifest`);
  for (const f of runFiles.slice(1)) assert.equal(inode(f), before[f], `${f} of an earlier run is left as it was`);
  assert.ok(readFileSync(join(o, runFiles[0]), 'utf8').startsWith('__benchlineData('), 'the file removed by hand is written again');
  assert.equal(after.filter((f) => f.startsWith('data/runs/')).length, runFiles.length + 2);
  const added = after.filter((f) => before[f] === undefined);
  assert.equal(second.unchanged, after.length - rewritten.length - added.length, 'unchanged counts every file neither rewritten nor new');
});

test('a site restored from a cache and rebuilt with verify is byte for byte a fresh build: altered files rewritten, foreign files and links removed', async () => {
  const d = tempDir('verify');
  const s = join(d, 'store');
  const o = join(d, 'site');
  const fresh = join(d, 'fresh');
  await publish({ store: s, docs: [...syntheticDocs({ runs: 6, jobs: JOBS, every: 86400e3 })] });
  await buildSite({ store: s, out: o });
  const manifest = JSON.parse(readFileSync(join(o, '.benchline-site.json'), 'utf8'));
  const victim = manifest.files.find((f) => f.startsWith('data/runs/'));
  const text = readFileSync(join(o, victim), 'utf8');
  writeFileSync(join(o, victim), text.replace(/\d/, (c) => String((Number(c) + 1) % 10)), 'utf8'); // same size, other content
  writeFileSync(join(o, 'planted.html'), '<script>alert(1)</script>');
  const outside = join(d, 'outside.txt');
  writeFileSync(outside, 'not part of the site\n');
  unlinkSync(join(o, 'paths.js'));
  symlinkSync(outside, join(o, 'paths.js'));

  const trusting = await buildSite({ store: s, out: o });
  assert.notEqual(readFileSync(join(o, victim), 'utf8'), text, 'without verify an altered file of the same size is kept (the manifest is trusted)');
  const checked = await buildSite({ store: s, out: o, verify: true });
  await buildSite({ store: s, out: fresh });
  assert.equal(readFileSync(join(o, victim), 'utf8'), text);
  assert.equal(lstatSync(join(o, 'paths.js')).isFile(), true, 'the link is replaced by the real file');
  assert.equal(readFileSync(outside, 'utf8'), 'not part of the site\n', 'nothing was written through the link');
  assert.equal(existsSync(join(o, 'planted.html')), false);
  assert.equal(checked.removed, 1);
  assert.ok(checked.unchanged >= trusting.pages - 3, 'files that were as the build writes them are left alone');
  const list = (dir) => JSON.parse(readFileSync(join(dir, '.benchline-site.json'), 'utf8')).files;
  assert.deepEqual(list(o), list(fresh));
  for (const f of list(fresh).filter((x) => x !== 'data/index.js' && x !== 'feed.xml')) assert.equal(readFileSync(join(o, f), 'utf8'), readFileSync(join(fresh, f), 'utf8'), f);
});

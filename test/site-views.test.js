// The history site as a daily reader meets it: runs of any start time, metrics that restate the run, empty states and narrow windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureStore, publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { runPath } from '../ci/store/paths.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { launchChromium } from '../ci/store/browser.js';
import { toGab } from '../ci/reports/exports.js';
import { serveStatic } from '../ci/store/serve.js';
import { tempDir } from './support/temp.js';
import { siteInChromium } from './support/site-page.js';

const JOBS = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 2 },
];
const METRICS = [['throughput', 12000], ['latency.p50', 3.8e6], ['body_bytes_received', 6e7], ['errors', 0]];
const CONFIG = { suites: { 'orders-api': { variants: { 'cache-off': {}, 'cache-on': {} } }, gateways: { variants: { nginx: {}, envoy: {} } } } };
// the first run started at 01:00 on 1 February in UTC+2, which is 31 January in UTC
const OFFSET_START = '2025-02-01T01:00:00+02:00';
const FAILED_RUN = '20250301T000000Z-fail01';

let docs;
const site = siteInChromium('site-views', async (dir, out) => {
  docs = [...syntheticDocs({ runs: 12, jobs: JOBS, metrics: METRICS, start: Date.UTC(2025, 1, 1), every: 86400e3, distributions: false, steps: [{ from: 6, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.8 }] })]
    .map((d, i) => (i < JOBS.length ? { ...d, run: { ...d.run, startedAt: OFFSET_START } } : d));
  await publish({ store: join(dir, 'store'), docs });
  // a run of a suite whose every job failed or was skipped: the suite was never measured
  const results = join(dir, 'results', FAILED_RUN);
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: FAILED_RUN, startedAt: '2025-03-01T00:00:00.000Z', finishedAt: '2025-03-01T00:01:00.000Z', config: 'bench.config.yaml', profile: 'quick', head: { commit: 'a'.repeat(40), dirty: false }, jobs: [
    { id: 'gateways.nginx.wrk.peak', suite: 'gateways', subject: 'gateways', variant: 'nginx', tool: 'wrk', scenario: 'peak', status: 'failed', reason: 'nginx not found', docs: {} },
    { id: 'gateways.envoy.wrk.peak', suite: 'gateways', subject: 'gateways', variant: 'envoy', tool: 'wrk', scenario: 'peak', status: 'skipped', reason: 'needs root', docs: {} },
  ] }));
  await publish({ store: join(dir, 'store'), files: [results] });
  await buildSite({ store: join(dir, 'store'), out, config: CONFIG });
}, { viewport: { width: 1280, height: 900 } });
const { ready } = site;

test('a run whose start time was written with an offset into the month before opens from the runs list', async () => {
  const id = docs[0].run.id;
  assert.equal(runPath({ id, startedAt: OFFSET_START }), `data/runs/2025/01/${id}.js`);
  await site.open('#/runs');
  await site.page.locator(`tr.run[data-run="${id}"] td a`).first().click();
  await ready();
  assert.equal(await site.page.locator('h1').innerText(), `Run ${id}`);
  assert.equal(await site.page.locator('section.job').count(), JOBS.length);
  assert.equal(await site.page.locator('#view .error').count(), 0);
});

test("ab's body bytes received restate the run like bytes received: never starred in the variant table nor exported as a smaller-is-better benchmark", async () => {
  await site.open('#/variants/orders-api');
  const row = site.page.locator('tr.row[data-metric="body_bytes_received"]');
  assert.match(await row.getAttribute('class'), /\bunranked\b/);
  assert.equal(await row.locator('td.best').count(), 0);
  assert.equal(await row.locator('.better, .worse').count(), 0, 'its change relative to the first column is not coloured as better or worse');
  assert.equal(await site.page.locator('tr.row[data-metric="throughput"] td.best').getAttribute('data-variant'), 'cache-on');
  const exported = toGab(docs.slice(-JOBS.length), 'lower').map((e) => e.name);
  assert.ok(exported.some((n) => n.endsWith('/latency.p50')) && !exported.some((n) => n.endsWith('/body_bytes_received')), exported.join(', '));
});

test('in a 390-pixel window no view is wider than the window: wide tables scroll sideways on their own', async () => {
  const id = docs.at(-1).run.id;
  const views = ['#/', '#/runs', `#/run/${id}`, `#/compare/${docs[0].run.id}/${id}`, `#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`, '#/variants/orders-api'];
  await site.page.setViewportSize({ width: 390, height: 800 });
  try {
    for (const hash of views) {
      await site.open(hash);
      const { scroll, client, tables } = await site.page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        tables: [...document.querySelectorAll('#view table')].map((t) => t.scrollWidth > t.clientWidth),
      }));
      assert.ok(scroll <= client, `${hash}: the page is ${scroll} px wide in a ${client}-px window`);
      assert.ok(tables.length > 0, `${hash} has a table`);
    }
  } finally {
    await site.page.setViewportSize({ width: 1280, height: 900 });
  }
});

test('a suite whose every job failed or was skipped says so on the overview and in its variant view, instead of an empty table', async () => {
  await site.open('#/');
  const badge = site.page.locator('.suite[data-suite="gateways"] .badge').first();
  assert.equal(await badge.innerText(), '1 failed, 1 skipped, 0 ok');
  assert.equal(await site.page.locator('.suite[data-suite="orders-api"] .badge').first().innerText(), '2 ok');
  await site.open('#/variants/gateways');
  const text = await site.page.locator('#view').innerText();
  assert.doesNotMatch(text, /undefined/);
  assert.equal(await site.page.locator('#view table').count(), 0);
  assert.match(await site.page.locator('#view .empty').innerText(), /^No job of gateways has a measurement in this history: every one failed or was skipped\. Its latest run 20250301T000000Z-fail01 says why\.$/);
  await site.page.locator('#view .empty a').click();
  await ready();
  assert.equal(await site.page.locator('section.job .reason').allInnerTexts().then((r) => r.sort().join(' | ')), 'needs root | nginx not found');
});

test('every number column of the overview, trend, run and compare tables is explained under its table', async () => {
  const id = docs.at(-1).run.id;
  const views = {
    '#/': ['Before, After', 'Change'],
    [`#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`]: ['Before, After', 'Change', 'p', 'Points', 'Value', 'Interval', 'Runs'],
    [`#/run/${id}`]: ['Value', 'Interval', 'Samples'],
    [`#/compare/${docs[0].run.id}/${id}`]: ['Base, Head', 'Change', 'Interval', 'Verdict'],
  };
  for (const [hash, columns] of Object.entries(views)) {
    await site.open(hash);
    const explained = await site.page.$$eval('#view .note.columns strong', (els) => els.map((e) => e.textContent));
    assert.deepEqual(columns.filter((c) => !explained.includes(c)), [], `${hash} explains ${explained.join(', ')}`);
    const headers = await site.page.$$eval('#view table th.num', (ths) => [...new Set(ths.map((th) => th.textContent))]);
    const unexplained = headers.filter((th) => !explained.some((e) => e.split(', ').includes(th)) && !/^vs /.test(th));
    assert.deepEqual(unexplained, [], `${hash}: number columns without a note`);
  }
  await site.open(`#/run/${id}`);
  assert.match(await site.page.locator('#view .note.columns').innerText(), /bootstrap confidence interval at 95%/);
});

test('a runs page past the last one says there is no such page and links the last page, instead of an empty table', async () => {
  await site.open('#/runs/5');
  assert.equal(await site.page.locator('tr.run').count(), 0);
  assert.equal(await site.page.locator('#view .error').innerText(), 'No page 5: the history has 1 page(s) of 100 runs.');
  await site.page.locator('#view a', { hasText: 'Go to the last page' }).click();
  await ready();
  assert.equal(await site.page.locator('tr.run').count(), docs.length / JOBS.length + 1);
});

test('a runs page link names the page it shows: #/runs/1 is "page 1 of 1", the newest runs', async () => {
  await site.open('#/runs/1');
  assert.equal(await site.page.locator('#view .error').count(), 0);
  assert.equal(await site.page.locator('tr.run').count(), docs.length / JOBS.length + 1);
  assert.equal(await site.page.locator('.pager .muted').innerText(), 'page 1 of 1');
  assert.equal(await site.page.locator('tr.run').first().getAttribute('data-run'), FAILED_RUN);
});

test('the runs list of an empty history says there are no runs yet, instead of a table of headers', async () => {
  const empty = join(site.dir, 'empty');
  await ensureStore(join(empty, 'store'));
  await buildSite({ store: join(empty, 'store'), out: join(empty, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(empty, 'site', 'index.html')).href}#/runs`);
  await ready();
  assert.equal(await site.page.locator('table').count(), 0);
  assert.match(await site.page.locator('#view .empty').innerText(), /^No runs yet/);
});

test('a trend chart read in Tokyo gives the times in UTC, as its tables and run ids do', async () => {
  const tokyo = await launchChromium({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Tokyo' });
  try {
    const p = await tokyo.context.newPage();
    await p.goto(`${pathToFileURL(join(site.out, 'index.html')).href}#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`);
    await p.waitForSelector('#view[data-ready="1"]');
    assert.equal(await p.evaluate(() => new Date(0).getTimezoneOffset()), -540, 'the page runs in UTC+9');
    const box = await p.locator('#trend-chart .u-over').boundingBox();
    await p.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
    const last = docs.at(-1).run;
    assert.match(await p.locator('.chart-info').innerText(), new RegExp(`^${last.startedAt.slice(0, 16).replace('T', ' ')} · run ${last.id}`));
    assert.equal(await p.locator('.u-legend .u-series').first().locator('.u-value').innerText(), '2025-02-12 12:00am');
  } finally {
    await tokyo.close();
  }
});

test('the trend chart of a history with one run shows its point in the middle of a day, not at the left end of a 1,000-day axis', async () => {
  const one = join(site.dir, 'one');
  await publish({ store: join(one, 'store'), docs: docs.slice(0, JOBS.length) });
  await buildSite({ store: join(one, 'store'), out: join(one, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(one, 'site', 'index.html')).href}#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`);
  await ready();
  const box = await site.page.locator('#trend-chart .u-over').boundingBox();
  await site.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const xs = await site.page.$$eval('#trend-chart .u-cursor-pt', (els) => els.filter((e) => e.style.display !== 'none').map((e) => e.getBoundingClientRect().x + e.getBoundingClientRect().width / 2));
  assert.ok(xs.length > 0);
  for (const x of xs) assert.ok(Math.abs(x - (box.x + box.width / 2)) < box.width * 0.02, `point at ${x - box.x} px of ${box.width}`);
  assert.match(await site.page.locator('.chart-info').innerText(), new RegExp(`run ${docs[0].run.id}`));
});

test('in the variant table, a value kept from an earlier run because its job failed in the newest is marked † and said so under the table', async () => {
  const dir = join(site.dir, 'older');
  // the newest run measured cache-off only: cache-on's newest value is the run before's
  const last = docs.slice(-JOBS.length);
  const newer = syntheticDocs({ runs: 1, jobs: JOBS.slice(0, 1), metrics: METRICS, start: Date.parse(last[0].run.startedAt) + 86400e3, distributions: false, seed: 9 }).next().value;
  await publish({ store: join(dir, 'store'), docs: [...last, newer] });
  await buildSite({ store: join(dir, 'store'), out: join(dir, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(dir, 'site', 'index.html')).href}#/variants/orders-api`);
  await ready();
  const cell = (variant) => site.page.locator(`tr.row[data-metric="throughput"] td[data-variant="${variant}"]`).first();
  assert.doesNotMatch(await cell('cache-off').innerText(), /†/);
  assert.match(await cell('cache-on').innerText(), /†$/);
  assert.match(await cell('cache-on').getAttribute('title'), new RegExp(`run ${last[1].run.id}, .*an earlier run than ${newer.run.id}`));
  assert.match(await site.page.locator('.older-note').innerText(), new RegExp(`^† measured in an earlier run than the newest here \\(${newer.run.id}\\)`));
});

test('counts read as words: "0 regressions, 1 improvement" on Compare, "1 run" on the overview of a one-run history, which says why it has no change point yet', async () => {
  await site.open(`#/compare/${encodeURIComponent(docs[0].run.id)}/${encodeURIComponent(docs.at(-1).run.id)}`);
  const counts = await site.page.locator('.counts').innerText();
  for (const [, n, word, s] of counts.matchAll(/(\d+) (regression|improvement)(s?)\b/g)) assert.equal(s === '', n === '1', `${n} ${word}${s} in "${counts}"`);
  assert.match(counts, /\d+ regressions?, \d+ improvements?/);
  const one = join(site.dir, 'one-run');
  await publish({ store: join(one, 'store'), docs: docs.slice(0, JOBS.length) });
  await buildSite({ store: join(one, 'store'), out: join(one, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(one, 'site', 'index.html')).href}#/`);
  await ready();
  assert.match(await site.page.locator('#view > .view > p.muted, #view p.muted').first().innerText(), /^1 run, \d+ series, \d+ points\. Latest run/);
  assert.equal(await site.page.locator('.no-changes').innerText(), 'No change points found in any series. A step shows once it has held for 5 runs after at least 5 before it: this history has 1 run, so none can show yet.');
});

test('on Compare, an inconclusive verdict opens by keyboard to say why it was not decided, the reason its title holds', async () => {
  await site.open(`#/compare/${encodeURIComponent(docs[0].run.id)}/${encodeURIComponent(docs.at(-1).run.id)}`);
  const cell = site.page.locator('tr.cmp.inconclusive td:last-child').first();
  const reason = await cell.getAttribute('title');
  assert.ok(reason, 'an inconclusive row with a reason');
  const why = cell.locator('.why-text');
  assert.equal(await why.isVisible(), false, 'folded at first');
  await cell.locator('summary').focus();
  await site.page.keyboard.press('Enter');
  assert.equal(await why.isVisible(), true);
  assert.equal(await why.innerText(), reason);
  assert.equal(await site.page.locator('tr.cmp.no-change .why, tr.cmp.regression .why, tr.cmp.improvement .why').count(), 0, 'decided verdicts stay badges');
});

test('on a trend, a double click resets the zoom and stays on the chart; a single click opens the run of the point', async () => {
  const hash = `#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`;
  await site.open(hash);
  const markers = () => site.page.evaluate(() => window.__benchlineCharts.at(-1).markers);
  assert.equal(await markers(), 1);
  const box = await site.page.locator('#trend-chart .u-over').boundingBox();
  await site.page.mouse.move(box.x + box.width * 0.75, box.y + 40);
  await site.page.mouse.down();
  await site.page.mouse.move(box.x + box.width - 2, box.y + 40, { steps: 5 });
  await site.page.mouse.up();
  await site.page.waitForTimeout(500);
  assert.equal(await markers(), 0, 'zoomed past the step');
  await site.page.mouse.dblclick(box.x + box.width / 2, box.y + 40);
  await site.page.waitForTimeout(600);
  assert.equal(new URL(site.page.url()).hash, hash);
  assert.equal(await markers(), 1, 'the whole history again');
  await site.page.mouse.click(box.x + box.width - 2, box.y + 40);
  await site.page.waitForFunction(() => location.hash.startsWith('#/run/'));
  await ready();
  assert.equal(await site.page.locator('h1').innerText(), `Run ${docs.at(-1).run.id}`);
});

test('a metric that changed unit shows only the points of its newest unit on its trend, with no step at the change, and says how many earlier points in which unit are left out', async () => {
  const d = tempDir('site-units');
  // a script's own page_time: a count of 2.5 for 8 days, then the same Trend taken as milliseconds (2.5e6 ns)
  const daily = (runs, day, unit, level, seed) => [...syntheticDocs({ runs, jobs: [JOBS[0]], metrics: [['throughput', 12000], ['page_time', level, { unit, better: 'lower' }]], start: Date.UTC(2025, 1, 1 + day), every: 86400e3, distributions: false, seed })];
  await publish({ store: join(d, 'store'), docs: [...daily(8, 0, 'count', 2.5, 1), ...daily(8, 8, 'ns', 2.5e6, 2)] });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(d, 'site', 'index.html')).href}#/trend/${encodeURIComponent('orders-api/ab/keepalive/page_time')}`);
  await ready();
  assert.equal(await site.page.locator('p.other-units').innerText(), 'cache-off: 8 earlier points measured in count instead of ns (the metric changed unit) are not shown.');
  const drawn = await site.page.evaluate(() => window.__benchlineCharts.at(-1));
  assert.deepEqual([drawn.points, drawn.markers], [8, 0]);
  assert.equal(await site.page.locator('table.changes').count(), 0, 'no change point at the change of unit');
});

test('a link cut inside a percent escape is no such page, with a way back, rather than "URI malformed"', async () => {
  await site.open('#/trend/orders-api%2Fab%2');
  assert.equal(await site.page.locator('#view .error').innerText(), 'No such page: #/trend/orders-api%2Fab%2');
  assert.equal(await site.page.locator('#view a').getAttribute('href'), '#/');
});

test('every table header sits aligned with its column: right over numbers, left over text', async () => {
  const id = docs.at(-1).run.id;
  const withDistributions = [...syntheticDocs({ runs: 2, jobs: JOBS, start: Date.UTC(2025, 5, 1) })];
  const d = join(site.dir, 'dist');
  await publish({ store: join(d, 'store'), docs: withDistributions });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site'), config: CONFIG });
  const pages = [
    ...['#/', '#/runs', `#/run/${id}`, `#/compare/${docs[0].run.id}/${id}`, `#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`, '#/variants/orders-api'].map((hash) => `${pathToFileURL(join(site.out, 'index.html')).href}${hash}`),
    `${pathToFileURL(join(d, 'site', 'index.html')).href}#/run/${withDistributions.at(-1).run.id}`,
  ];
  for (const url of pages) {
    await site.page.goto(url);
    await ready();
    const misaligned = await site.page.$$eval('#view table', (tables) => tables.flatMap((t) => {
      const row = t.querySelector('tbody tr');
      if (!row) return [];
      return [...t.querySelectorAll('thead th')].map((th, i) => [th.textContent, getComputedStyle(th).textAlign, row.children[i] && getComputedStyle(row.children[i]).textAlign])
        .filter(([, a, b]) => b && (a === 'right') !== (b === 'right'));
    }));
    assert.deepEqual(misaligned, [], url.split('#')[1]);
  }
  assert.ok(await site.page.locator('table.percentile-table').count() > 0, 'the last page has a percentile table');
});

test('a trend of a latency says it is a time where lower is better, not "ns" above values read in ms', async () => {
  await site.open(`#/trend/${encodeURIComponent('orders-api/ab/keepalive/latency.p50')}`);
  const subtitle = await site.page.locator('#view h1 + p').innerText();
  assert.match(subtitle, /^A time: lower is better\. 2 variant\(s\)\./);
  assert.match(await site.page.locator('tr.latest td.num[data-v]').first().innerText(), / ms$/);
  await site.open(`#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`);
  assert.match(await site.page.locator('#view h1 + p').innerText(), /^A rate per second: higher is better\./);
});

test("Compare's run pickers keep the keyboard's focus: each arrow key press moves the base one run further back", async () => {
  const ids = docs.filter((d) => d.variant === 'cache-off').map((d) => d.run.id);
  await site.open('#/compare');
  await site.page.focus('#compare-base');
  assert.equal(await site.page.$eval('#compare-base', (s) => s.value), ids.at(-1));
  for (const expected of [ids.at(-2), ids.at(-3), ids.at(-4)]) {
    await site.page.evaluate(() => { document.getElementById('view').dataset.ready = '0'; });
    await site.page.keyboard.press('ArrowDown');
    await ready();
    assert.equal(decodeURIComponent(new URL(site.page.url()).hash), `#/compare/${expected}/${FAILED_RUN}`);
    assert.equal(await site.page.evaluate(() => document.activeElement.id), 'compare-base');
  }
});

test('a compare link with one run compares it with the run before it, and says so for the first run', async () => {
  const ids = docs.filter((d) => d.variant === 'cache-off').map((d) => d.run.id);
  await site.open(`#/compare/${ids[5]}`);
  assert.equal(await site.page.$eval('#compare-base', (s) => s.value), ids[4]);
  assert.equal(await site.page.$eval('#compare-head', (s) => s.value), ids[5]);
  assert.ok(await site.page.locator('#view table').count() > 0, 'the comparison table is drawn');
  await site.open(`#/compare/${ids[0]}`);
  assert.match(await site.page.locator('#view .error').innerText(), /is the first in the history: there is no run before it/);
});

test('the local server sends the sub-path without its slash to the sub-path with it, so the page finds app.js as on GitHub Pages', async () => {
  const server = await serveStatic(site.out, { prefix: '/benchline/' });
  try {
    const bare = server.url.replace(/\/$/, '');
    const res = await fetch(bare, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/benchline/');
    await site.page.goto(`${bare}#/runs`);
    await ready();
    assert.equal(await site.page.locator('tr.run').count(), docs.length / JOBS.length + 1);
    assert.equal(new URL(site.page.url()).pathname, '/benchline/');
  } finally {
    await server.close();
  }
});

test("a pull request's run, which measured head and base, names each distribution curve and column by its side", async () => {
  const pr = (role, factor) => [...syntheticDocs({ runs: 1, jobs: JOBS, seed: 7, role, start: Date.UTC(2025, 5, 1) })].map((d) => ({
    ...d,
    run: { ...d.run, trigger: 'pull_request', pr: 12, ref: 'feature' },
    distributions: d.distributions.map((x) => ({ ...x, percentiles: x.percentiles.map((q) => ({ ...q, value: q.value * factor })) })),
  }));
  const docsPr = [...pr('head', 1), ...pr('base', 1.1)];
  const d = join(site.dir, 'pr');
  await publish({ store: join(d, 'store'), docs: docsPr });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(d, 'site', 'index.html')).href}#/run/${docsPr[0].run.id}`);
  await ready();
  const headers = await site.page.$$eval('table.percentile-table thead th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual([...headers].sort(), ['Percentile', 'cache-off · base', 'cache-off · head', 'cache-on · base', 'cache-on · head']);
});

test("each view's tab title names what it shows, so the browser's history and bookmarks tell views apart", async () => {
  const id = docs.at(-1).run.id;
  const titles = {
    '#/': 'benchline history',
    [`#/run/${id}`]: `Run ${id} · benchline history`,
    [`#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`]: 'orders-api · ab · keepalive · throughput · benchline history',
    '#/runs': /^Runs \(\d+\) · benchline history$/,
    '#/variants/orders-api': /^orders-api.* · benchline history$/,
    '#/nosuch': 'No such page · benchline history',
    '#/run/nosuch': 'No run nosuch in the history · benchline history',
  };
  for (const [hash, title] of Object.entries(titles)) {
    await site.open(hash);
    if (title instanceof RegExp) assert.match(await site.page.title(), title, hash);
    else assert.equal(await site.page.title(), title, hash);
  }
});

test('a suite with no regression in its recent runs says how far back "recent" reaches and that an older regression stands', async () => {
  const d = join(site.dir, 'older');
  // a 20% drop at run 6 of 60: older than the 50 runs the overview calls recent
  const history = [...syntheticDocs({ runs: 60, jobs: JOBS, metrics: METRICS, start: Date.UTC(2025, 1, 1), every: 86400e3, distributions: false, steps: [{ from: 6, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.8 }] })];
  await publish({ store: join(d, 'store'), docs: history });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site'), config: CONFIG });
  await site.page.goto(`${pathToFileURL(join(d, 'site', 'index.html')).href}#/`);
  await ready();
  const card = site.page.locator('.suite[data-suite="orders-api"]');
  assert.match(await card.locator('h3').innerText(), /^Recent regressions in the history \(0\)$/);
  assert.match(await card.innerText(), /None that started in the last 50 runs\. Older: 1 regression \(see Recent change points below and the trend charts\)\./);
  assert.match(await site.page.locator('details.explain').innerText(), /Recent regressions \(a suite's steps to a worse level that start in the last 50 runs of the history\)/);
});

test('a metric of a case whose name holds slashes (a hyperfine command) is named whole on the overview, not cut at each slash', async () => {
  const d = join(site.dir, 'slashes');
  const job = { suite: 'startup', variant: 'file', tool: 'hyperfine', scenario: 'cold', scale: 1 };
  const history = [...syntheticDocs({ runs: 60, jobs: [job], metrics: [['time.mean', 5e7]], start: Date.UTC(2025, 1, 1), every: 86400e3, distributions: false, steps: [{ from: 54, job: 'startup.file', metric: 'time.mean', factor: 1.5 }] })]
    .map((doc) => ({ ...doc, metrics: doc.metrics.map((m) => ({ ...m, case: 'curl http://127.0.0.1/health' })) }));
  await publish({ store: join(d, 'store'), docs: history });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site') });
  await site.page.goto(`${pathToFileURL(join(d, 'site', 'index.html')).href}#/`);
  await ready();
  const card = site.page.locator('.suite[data-suite="startup"]');
  const name = 'hyperfine · cold · curl http://127.0.0.1/health · time.mean';
  assert.deepEqual(await card.locator('details li a').allTextContents(), [name]);
  assert.deepEqual(await card.locator('ul.regressions li a').first().textContent(), `file · ${name}`);
  assert.equal(await site.page.locator('table.changes tr.change td:nth-child(2) a').textContent(), `startup · file · ${name}`);
});

test('every column of every table has a header a screen reader can name, the runs list\'s archived column too', async () => {
  const id = docs.at(-1).run.id;
  for (const hash of ['#/', '#/runs', `#/run/${id}`, `#/compare/${docs[0].run.id}/${id}`, `#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`, '#/variants/orders-api']) {
    await site.open(hash);
    const empty = await site.page.$$eval('#view table th', (ths) => ths.filter((th) => !th.textContent.trim()).length);
    assert.equal(empty, 0, `${hash}: ${empty} empty header(s)`);
  }
  await site.open('#/runs');
  assert.equal(await site.page.locator('table.runs-table thead th').last().textContent(), 'Stored');
});

test('opening a view tells a screen reader its title only, not every row of the view', async () => {
  await site.open('#/runs');
  assert.equal(await site.page.getAttribute('#view', 'aria-live'), null, 'the view is no live region');
  assert.equal(await site.page.getAttribute('#announce', 'aria-live'), 'polite');
  assert.match(await site.page.textContent('#announce'), /^Runs \(\d+\) · benchline history$/);
  const box = await site.page.$eval('#announce', (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; });
  assert.ok(box <= 1, 'not shown on the page');
});

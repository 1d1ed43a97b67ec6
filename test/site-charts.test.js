// Charts of the history site as their readers meet them: a percentile chart names its last point the max, every chart is named.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { launchChromium } from '../ci/store/browser.js';
import { nines, ninesLabel, ninesSplits } from '../reports-site/src/nines.js';
import { tempDir } from './support/temp.js';

const JOBS = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 2 },
];

test("a percentile chart names the maximum's place max, not 99.9999%", () => {
  assert.equal(ninesLabel(nines(100)), 'max');
  assert.equal(ninesLabel(nines(99.9)), '99.9%');
  assert.equal(ninesLabel(nines(50)), '50%');
  assert.ok(nines(99.999) < nines(100));
  assert.deepEqual(ninesSplits(nines(50), nines(100)).map(ninesLabel), ['50%', '90%', '99%', '99.9%', '99.99%', '99.999%', 'max']);
  assert.deepEqual(ninesSplits(nines(50), nines(99)).map(ninesLabel), ['50%', '90%', '99%']);
});

let dir;
let out;
let docs;
let browser;
let page;
const errors = [];

before(async () => {
  dir = tempDir('site-charts');
  out = join(dir, 'site');
  docs = [...syntheticDocs({ runs: 12, jobs: JOBS, start: Date.UTC(2025, 1, 1), every: 86400e3, steps: [{ from: 6, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.7 }] })];
  await publish({ store: join(dir, 'store'), docs });
  await buildSite({ store: join(dir, 'store'), out });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
});

after(async () => {
  await browser?.close();
});

async function open(hash) {
  await page.goto(`${pathToFileURL(join(out, 'index.html')).href}${hash}`);
  await page.waitForSelector('#view[data-ready="1"]', { timeout: 15000 });
}

test("a run's latency distribution labels its last point max on the percentile axis", async () => {
  await open(`#/run/${docs.at(-1).run.id}`);
  const ticks = await page.evaluate(() => window.__benchlineCharts.filter((c) => c.kind === 'percentiles').map((c) => c.percentileTicks));
  assert.equal(ticks.length, 1);
  assert.equal(ticks[0].at(-1), 'max');
  assert.ok(!ticks[0].includes('99.9999%'), ticks[0].join(' '));
  assert.deepEqual(errors, []);
});

test('every chart is an image with a name that says what it plots, for readers who cannot see the canvas', async () => {
  await open(`#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`);
  const trend = await page.getAttribute('#trend-chart', 'aria-label');
  assert.equal(await page.getAttribute('#trend-chart', 'role'), 'img');
  assert.match(trend, /^Trend of throughput \(higher is better\): cache-off, 12 points; cache-on, 12 points; 1 change point marked\./);
  await open(`#/run/${docs.at(-1).run.id}`);
  const labels = await page.$$eval('.chart.percentiles', (els) => els.map((e) => `${e.getAttribute('role')}: ${e.getAttribute('aria-label')}`));
  assert.deepEqual(labels, ['img: Percentiles of ab · keepalive for cache-off, cache-on, on a log scale; the table below lists them.']);
});

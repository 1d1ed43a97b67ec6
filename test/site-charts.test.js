// Charts of the history site as their readers meet them: a percentile chart names its last point the max, every chart is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { nines, ninesLabel, ninesSplits } from '../reports-site/src/nines.js';
import { siteInChromium } from './support/site-page.js';

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

let docs;
const site = siteInChromium('site-charts', async (dir, out) => {
  docs = [...syntheticDocs({ runs: 12, jobs: JOBS, start: Date.UTC(2025, 1, 1), every: 86400e3, steps: [{ from: 6, job: 'orders-api.cache-on', metric: 'throughput', factor: 0.7 }] })];
  await publish({ store: join(dir, 'store'), docs });
  await buildSite({ store: join(dir, 'store'), out });
});

test("a run's latency distribution labels its last point max on the percentile axis", async () => {
  await site.open(`#/run/${docs.at(-1).run.id}`);
  const ticks = await site.page.evaluate(() => window.__benchlineCharts.filter((c) => c.kind === 'percentiles').map((c) => c.percentileTicks));
  assert.equal(ticks.length, 1);
  assert.equal(ticks[0].at(-1), 'max');
  assert.ok(!ticks[0].includes('99.9999%'), ticks[0].join(' '));
  assert.deepEqual(site.errors, []);
});

test('every chart is an image with a name that says what it plots, for readers who cannot see the canvas', async () => {
  await site.open(`#/trend/${encodeURIComponent('orders-api/ab/keepalive/throughput')}`);
  const trend = await site.page.getAttribute('#trend-chart', 'aria-label');
  assert.equal(await site.page.getAttribute('#trend-chart', 'role'), 'img');
  assert.match(trend, /^Trend of throughput \(higher is better\): cache-off, 12 points; cache-on, 12 points; 1 change point marked\./);
  await site.open(`#/run/${docs.at(-1).run.id}`);
  const labels = await site.page.$$eval('.chart.percentiles', (els) => els.map((e) => `${e.getAttribute('role')}: ${e.getAttribute('aria-label')}`));
  assert.deepEqual(labels, ['img: Percentiles of ab · keepalive for cache-off, cache-on, on a log scale; the table below lists them.']);
});

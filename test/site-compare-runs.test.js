// Compare on the history site picks, for one run, the newest earlier run that measured one of its jobs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { comparableBefore, jobKeys } from '../reports-site/src/comparable.js';
import { siteInChromium } from './support/site-page.js';

const METRICS = [['throughput', 12000], ['latency.p50', 3.8e6], ['errors', 0]];
const ORDERS = [{ suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 }];
const GATEWAYS = [{ suite: 'gateways', variant: 'nginx', tool: 'wrk', scenario: 'peak', scale: 3 }];
const DAY = 86400e3;

test('a run is compared with the newest earlier run that measured one of its jobs, not with a run of another suite', async () => {
  const jobs = [['a'], ['b'], ['a', 'b'], ['b'], ['c']].map((keys) => new Set(keys));
  const jobsOf = async (i) => jobs[i];
  assert.equal(await comparableBefore(1, jobsOf), 0, 'no earlier run measured b: the run right before');
  assert.equal(await comparableBefore(3, jobsOf), 2);
  assert.equal(await comparableBefore(2, jobsOf), 1);
  assert.equal(await comparableBefore(4, jobsOf), 3, 'no earlier run measured c: the run right before');
  assert.equal(await comparableBefore(0, jobsOf), -1);
  assert.equal(await comparableBefore(3, async (i) => (i === 3 ? new Set() : jobs[i])), 2, 'a run that measured nothing: the run right before');
  assert.equal(await comparableBefore(4, async (i) => (i === 4 ? new Set(['a']) : jobs[i]), 1), 3, 'looks back no further than the limit');
  assert.deepEqual([...jobKeys([{ suite: 's', variant: 'v', tool: { name: 'ab' }, scenario: 'x' }])], ['s/v/ab/x']);
});

let orders;
let gateways;
const site = siteInChromium('site-compare-runs', async (dir, out) => {
  // two suites measured in runs of their own, one a day each in turn: orders-api on even days, gateways on odd ones
  orders = [...syntheticDocs({ runs: 4, jobs: ORDERS, metrics: METRICS, start: Date.UTC(2025, 1, 1), every: 2 * DAY, distributions: false, seed: 1 })];
  gateways = [...syntheticDocs({ runs: 4, jobs: GATEWAYS, metrics: METRICS, start: Date.UTC(2025, 1, 2), every: 2 * DAY, distributions: false, seed: 2 })];
  await publish({ store: join(dir, 'store'), docs: [...orders, ...gateways] });
  await buildSite({ store: join(dir, 'store'), out });
});

const picked = async () => [await site.page.$eval('#compare-base', (s) => s.value), await site.page.$eval('#compare-head', (s) => s.value)];

test("a compare link with one run compares it with its suite's run before, passing over the other suite's run in between", async () => {
  await site.open(`#/compare/${orders[2].run.id}`);
  assert.deepEqual(await picked(), [orders[1].run.id, orders[2].run.id]);
  assert.equal(await site.page.locator('tr.cmp').count(), METRICS.length);
  assert.match(await site.page.locator('#view .picked').innerText(), /newest earlier run that measured one of the head's jobs/);
  await site.open('#/compare');
  assert.deepEqual(await picked(), [gateways[2].run.id, gateways[3].run.id], 'the newest run against its own suite\'s run before');
  assert.deepEqual(site.errors, []);
});

test("a run page's link to compare with the previous run opens a comparison of its own jobs", async () => {
  await site.open(`#/run/${gateways[1].run.id}`);
  await site.page.getByText('Compare with the previous run').click();
  await site.page.waitForSelector('#view[data-ready="1"] #compare-base');
  assert.deepEqual(await picked(), [gateways[0].run.id, gateways[1].run.id]);
  assert.equal(await site.page.locator('tr.cmp').count(), METRICS.length);
});

test('two runs of different suites say they measured nothing in common, instead of an empty table with 0 verdicts', async () => {
  await site.open(`#/compare/${orders[0].run.id}/${gateways[0].run.id}`);
  assert.match(await site.page.locator('#view .no-shared').innerText(), /measured no metric in common/);
  assert.equal(await site.page.locator('#view table').count(), 0);
  assert.match(await site.page.locator('#view details summary').innerText(), /on one side only/);
});

// The site's data from a model: which steps of a series count as change points, by the smallest change its job cares about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../ci/store/model.js';
import { atomFeed, siteData } from '../ci/store/site-data.js';
import { syntheticDocs } from '../ci/store/synthetic.js';

const JOB = { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 };

/** Change points of the throughput series of a history where throughput drops 4% from run 60 on, under `job` settings. */
function throughputChanges(job) {
  const docs = [...syntheticDocs({ runs: 120, jobs: [JOB], noise: 0.004, distributions: false, steps: [{ from: 60, job: 'orders-api.cache-off', metric: 'throughput', factor: 0.96 }] })];
  const config = { compare: { minEffect: 0.03, metrics: {} }, suites: { 'orders-api': { variants: { 'cache-off': {} }, jobs: [{ tool: 'ab', scenario: 'keepalive', ...job }] } } };
  const { seriesFiles } = siteData(buildModel({ docs }), { config });
  return seriesFiles.find((f) => f.payload.name === 'throughput').payload.changes;
}

test('a 4% step is a change point at compare.minEffect 3%, and none where the series\' job counts only 5% (its own minEffect)', () => {
  const found = throughputChanges({});
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.deepEqual(throughputChanges({ minEffect: { throughput: 0.05 } }), []);
  assert.equal(throughputChanges({ minEffect: { 'latency.*': 0.05 } }).length, 1, 'a table that does not name the metric leaves it to compare.minEffect');
});

test('the feed stays XML when a failure reason holds a terminal\'s control codes: they become U+FFFD, markup is escaped', () => {
  const latest = { id: 'r1', startedAt: '2025-01-01T00:00:00.000Z' };
  const feed = atomFeed({
    index: { title: 'history' }, changes: [], generatedAt: latest.startedAt, basePath: './', repoUrl: null,
    suites: [{ name: 'orders-api', latest, failures: [{ job: 'orders-api.cache-on.wrk.peak', reason: 'x\u001b[2J\u0007y <b>\ud800' }] }],
  });
  assert.doesNotMatch(feed, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udfff]/, 'no character XML 1.0 forbids');
  assert.match(feed, /orders-api\.cache-on\.wrk\.peak: x\ufffd\[2J\ufffdy &lt;b&gt;\ufffd<\/summary>/);
});

test('the feed announces a suite\'s failed jobs, not the ones skipped in every run (a variant that needs root)', () => {
  const latest = { id: 'r1', startedAt: '2025-01-01T00:00:00.000Z' };
  const feed = (failures) => atomFeed({ index: { title: 'history' }, changes: [], generatedAt: latest.startedAt, basePath: './', repoUrl: null, suites: [{ name: 'gateways', latest, failures }] });
  const skipped = { job: 'gateways.envoy.wrk.peak', status: 'skipped', reason: 'needs root' };
  const failed = { job: 'gateways.nginx.wrk.peak', status: 'failed', reason: 'nginx not found' };
  assert.doesNotMatch(feed([skipped]), /<entry>/);
  const both = feed([skipped, failed]);
  assert.match(both, /<title>Failed jobs: gateways \(1\) in run r1<\/title>/);
  assert.match(both, /<summary>gateways\.nginx\.wrk\.peak: nginx not found<\/summary>/);
});

test('the feed gives a p-value too small for a double as p ≈ 0, as the trend page does, not p=0.0', () => {
  const run = { id: 'r9', commit: 'a'.repeat(40), startedAt: '2025-01-01T00:00:00.000Z' };
  const change = (pvalue) => ({ chart: 'orders-api/ab/keepalive/throughput', series: 'orders-api/cache-on/ab/keepalive/throughput', suite: 'orders-api', variant: 'cache-on', unit: 'ops/s', better: 'higher', run, before: 1000, after: 800, change: -0.2, pvalue, kind: 'regression' });
  const feed = atomFeed({ index: { title: 'history' }, changes: [change(0), change(3.2e-9)], suites: [], generatedAt: run.startedAt, basePath: './', repoUrl: null });
  assert.match(feed, /\(-20\.0%, p ≈ 0\) from run r9/);
  assert.match(feed, /\(-20\.0%, p=3\.2e-9\) from run r9/);
  assert.doesNotMatch(feed, /p=0\.0/);
});

test('the feed is valid Atom: it names an author, and its ids are IRIs even when the title and a case hold spaces', () => {
  const run = { id: 'r9', commit: 'a'.repeat(40), startedAt: '2025-01-01T00:00:00.000Z' };
  const change = { chart: 'orders-startup/hyperfine/start/cold start::time.mean', series: 'orders-startup/file/hyperfine/start/cold start::time.mean', suite: 'orders-startup', variant: 'file', unit: 'ns', better: 'lower', run, before: 1e6, after: 2e6, change: 1, pvalue: 1e-9, kind: 'regression' };
  const feed = atomFeed({ index: { title: 'benchline history' }, changes: [change], suites: [], generatedAt: run.startedAt, basePath: './', repoUrl: null });
  // RFC 4287 4.1.1: a feed whose entries name no author names one itself
  assert.match(feed.split('<entry>')[0], /<author><name>benchline history<\/name><\/author>/);
  const ids = [...feed.matchAll(/<id>([^<]*)<\/id>/g)].map((m) => m[1]);
  assert.deepEqual(ids, ['urn:benchline:feed:benchline%20history', 'urn:benchline:change:orders-startup/file/hyperfine/start/cold%20start::time.mean:r9']);
});

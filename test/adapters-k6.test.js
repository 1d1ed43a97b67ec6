// Tests of the k6 adapter and loadtests/k6/lib against summaries captured from k6 v1.8.1 (test/fixtures/k6).
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k6 from '../ci/adapters/k6.js';
import { ParseError, unreadable } from '../ci/adapters/errors.js';
import { buildResult } from '../ci/result.js';
import { compare, undecided } from '../ci/compare.js';
import { toGab } from '../ci/reports/exports.js';
import { normalizeFile } from '../ci/commands/normalize.js';
import { handleSummary, textSummary, formatValue } from '../loadtests/k6/lib/summary.js';
import { benchOptions, baseUrl, param, urlPath } from '../loadtests/k6/lib/options.js';

const text = (name) => readFileSync(new URL(`./fixtures/k6/${name}`, import.meta.url), 'utf8');
const json = (name) => JSON.parse(text(name));
const parse = (name, opts) => k6.parse(text(name), opts);
const values = (r) => Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));
const byName = (r, n) => r.metrics.find((m) => m.name === n);
const sortByName = (xs = []) => [...xs].sort((a, b) => (a.name < b.name ? -1 : 1));

const CASES = ['zero', 'one', 'many', 'failed-down', 'failed-thresholds', 'latency', 'throughput', 'custom-trends', 'custom-metrics', 'two-scenarios'];

const RUN = { id: 'fixture-run', startedAt: '2026-11-22T03:26:08.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'fixture', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'fixture', memoryBytes: 0, labels: [] };
const doc = (trials, scenario = 'fixture') => buildResult({
  run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'nginx', variant: 'default', scenario,
  tool: { name: 'k6', version: '1.8.1' }, params: {}, trials,
}, `k6 ${scenario}`);

/** Expects a ParseError whose message matches `re` and whose hint says how to produce valid output. */
function throwsParse(fn, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ParseError, `expected ParseError, got ${e.name}: ${e.message}`);
    assert.match(e.message, re);
    assert.equal(e.hint, k6.produce);
    return true;
  });
}

describe('k6 adapter: handleSummary data', () => {
  test('reads a 100/s run into throughput, requests, errors and latency in nanoseconds', () => {
    const r = parse('many.json');
    assert.equal(r.format, 'handle-summary');
    assert.deepEqual(values(r), {
      iterations: 201,
      requests: 201,
      throughput: 99.83728643232989,
      errors: 0,
      error_rate: 0,
      duration: 2013275873,
      'latency.mean': 453206.04,
      'latency.min': 127589,
      'latency.max': 6526683,
      'latency.p50': 326502,
      'latency.p90': 815279,
      'latency.p95': 926037,
      'latency.p99': 1676465,
      'latency.p99.9': 5562867,
      checks_pass_rate: 1,
      bytes_received: 57486,
    });
    assert.deepEqual(r.notes, []);
    assert.equal(r.thresholdsFailed, 0);
    assert.equal(r.toolVersion, undefined);
  });

  test('gives metrics the registry units and directions', () => {
    const r = parse('many.json');
    assert.deepEqual(
      ['throughput', 'requests', 'errors', 'error_rate', 'latency.p99', 'checks_pass_rate', 'bytes_received'].map((n) => {
        const m = byName(r, n);
        return `${n} ${m.unit} ${m.better}`;
      }),
      ['throughput ops/s higher', 'requests count higher', 'errors count lower', 'error_rate ratio lower',
        'latency.p99 ns lower', 'checks_pass_rate ratio higher', 'bytes_received bytes lower'],
    );
  });

  test('converts k6 milliseconds to nanoseconds (one iteration: every percentile is that request)', () => {
    const raw = json('one.json').metrics['http_req_duration{scenario:bench}'].values;
    assert.equal(raw.med, 0.297769);
    const r = parse('one.json');
    for (const n of ['latency.mean', 'latency.min', 'latency.max', 'latency.p50', 'latency.p90', 'latency.p95', 'latency.p99', 'latency.p99.9']) {
      assert.equal(byName(r, n).value, 297769, n);
    }
    assert.equal(byName(r, 'duration').value, 1012359855);
    assert.deepEqual(r.distributions, [{
      name: 'latency',
      unit: 'ns',
      count: 1,
      percentiles: [0, 50, 90, 95, 99, 99.9, 100].map((p) => ({ p, value: 297769 })),
    }]);
  });

  test("counts the bench scenario's submetrics, so the setup() probe request is not measured", () => {
    const raw = json('one.json').metrics;
    assert.equal(raw.http_reqs.values.count, 2);
    assert.equal(raw['http_reqs{scenario:bench}'].values.count, 1);
    const r = parse('one.json');
    assert.equal(byName(r, 'requests').value, 1);
    assert.equal(byName(r, 'throughput').value, 0.9877910459023487);
    assert.equal(byName(r, 'bytes_received').value, 286);
  });

  test('counts gRPC calls as requests when k6 made no HTTP requests, so throughput compares with HTTP variants', () => {
    const raw = json('catalog-grpc-traversal.json').metrics;
    assert.equal(raw.http_reqs, undefined);
    assert.equal(raw['grpc_req_duration{scenario:bench}'].values.count, 1000);
    const r = parse('catalog-grpc-traversal.json');
    assert.equal(byName(r, 'requests').value, 1000, 'the bench scenario\'s calls, not the warm-up ones');
    const seconds = byName(r, 'duration').value / 1e9;
    assert.ok(Math.abs(byName(r, 'throughput').value - 1000 / seconds) < 0.5, `throughput ${byName(r, 'throughput').value} is calls per second over ${seconds} s`);
    assert.ok(!(r.notes || []).some((n) => /counts iterations/.test(n)));
  });

  test('reports whole-test metrics when no scenario submetric is named', () => {
    const r = parse('one.json', { k6Scenario: 'other' });
    assert.equal(byName(r, 'requests').value, 2);
    assert.equal(byName(r, 'throughput').value, 1.9755820918046973);
  });

  test('a k6Scenario the summary has no submetric of gets a note saying the figures are the whole test\'s', () => {
    // two-scenarios: thresholds name scenario bench only; scenario browse's 404s are in the whole test's figures
    const r = parse('two-scenarios.json', { k6Scenario: 'browse' });
    assert.deepEqual([byName(r, 'requests').value, byName(r, 'errors').value], [61, 20]);
    assert.deepEqual(r.notes.filter((n) => /^k6Scenario/.test(n)), ["k6Scenario is browse, but the summary holds no metric of scenario browse, so these figures are the whole test's (every scenario and setup()); "
      + "k6 reports a scenario's own only for submetrics its thresholds name: add thresholds such as 'http_reqs{scenario:browse}': ['count>=0'] and 'http_req_failed{scenario:browse}': ['rate<=1'] to the script, and check the scenario's name there"]);
    // the scenario the thresholds name, and the default scenario bench, get no such note
    assert.equal(parse('two-scenarios.json', { k6Scenario: 'bench' }).notes.some((n) => /^k6Scenario/.test(n)), false);
    assert.equal(parse('one.json').notes.some((n) => /^k6Scenario/.test(n)), false);
  });

  test('thresholds on a scenario the script does not have (a misspelt name) are named as empty, and not offered as the k6Scenario to measure', () => {
    // misspelt-threshold-scenario: scenario report, thresholds on {scenario:reprot}, which k6 reports with no samples
    const r = parse('misspelt-threshold-scenario.json');
    assert.deepEqual(r.notes, ["the script's thresholds name scenario reprot, of which k6 saw no sample (every {scenario:reprot} metric is empty): "
      + "a scenario the script does not have (a misspelt name?), or one that made none of these requests; check the thresholds' {scenario:NAME} against the names in options.scenarios"]);
    assert.equal(byName(r, 'requests').value, 41);
    assert.ok(byName(r, 'latency.p50').value > 0, 'the whole test\'s latency, not the empty submetric\'s 0');
  });

  test('a summary with thresholds on other scenarios\' own metrics and none of bench says its figures mix every scenario, and names the one k6Scenario could measure', () => {
    // scenario-thresholds: browse (constant-vus) and buy (20/s), thresholds on each one's http_reqs, none named bench
    const r = parse('scenario-thresholds.json');
    assert.equal(byName(r, 'requests').value, 375, 'both scenarios\' requests');
    assert.deepEqual(r.notes.filter((n) => /^the summary holds metrics of scenario/.test(n)), ["the summary holds metrics of scenarios browse, buy (its thresholds name them) and none of scenario bench, so these figures are the whole test's, "
      + "every scenario's requests together; give the job the param k6Scenario: browse (the scenario to measure) for one scenario's own figures"]);
    assert.equal(parse('scenario-thresholds.summary-export.json').notes.some((n) => /^the summary holds metrics of scenario/.test(n)), true, 'the same from --summary-export');
    // the scenario measured, by k6Scenario or as bench, gets its own figures and no such note
    const buy = parse('scenario-thresholds.json', { k6Scenario: 'buy' });
    assert.deepEqual([byName(buy, 'requests').value, buy.notes.some((n) => /^the summary holds metrics of scenario/.test(n))], [41, false]);
    assert.equal(parse('two-scenarios.json').notes.some((n) => /^the summary holds metrics of scenario/.test(n)), false);
  });

  test('a script whose setup() made requests and whose thresholds name no scenario of its own gets a note that they are measured, in both summary formats, and the lib\'s scenario bench gets none', () => {
    // setup-requests: scenario browse, 41 iterations of one request, 5 requests in setup(), thresholds on the whole test
    const note = /^the script's setup\(\) ran, and the summary holds no metric of one scenario, so the requests setup\(\) made are counted in requests, throughput, latency and errors .* give the job the param k6Scenario: NAME \(bench, the name loadtests\/k6\/lib gives it, needs none\)$/;
    for (const file of ['setup-requests.json', 'setup-requests.summary-export.json']) {
      const r = parse(file);
      assert.equal(byName(r, 'requests').value, 46, `${file}: 41 iterations' requests and setup()'s 5`);
      assert.equal(r.notes.filter((n) => note.test(n)).length, 1, `${file}: ${r.notes.join(' | ')}`);
    }
    // the lib's scripts probe readiness in setup() and scope their thresholds to scenario bench: nothing to say
    for (const file of ['one.json', 'many.json', 'one.summary-export.json']) assert.equal(parse(file).notes.some((n) => /setup\(\) ran/.test(n)), false, file);
  });

  test('a script that throws in its iterations gets a note with how many did and the first exception, from k6\'s stderr', () => {
    const stderr = text('throws.stderr.txt');
    const r = parse('throws.json', { stderr });
    assert.equal(byName(r, 'iterations').value, 12, 'k6 counts the iterations that threw');
    assert.deepEqual(r.notes, ["k6: the script threw an exception in 12 iterations (first: TypeError: Cannot read property 'length' of undefined); "
      + "k6 still counts each as an iteration, ended at the exception (the trial's stderr has every one)"]);
    // the same run without its stderr, and a clean run's stderr, get no such note
    assert.deepEqual(parse('throws.json').notes, []);
    assert.equal(parse('abort-on-fail.json', { stderr: text('abort-on-fail.stderr.txt') }).notes.some((n) => /threw/.test(n)), false);
  });

  test('a run whose setup() failed has zero iterations, zero requests, no latency and says why', () => {
    const r = parse('zero.json');
    assert.deepEqual(values(r), { iterations: 0, requests: 0, throughput: 0, errors: 0, duration: 1007946076, bytes_received: 0 });
    assert.equal(r.distributions, undefined);
    assert.deepEqual(r.notes, ['k6 completed no iterations (k6 exits 107 when setup() fails, e.g. a readiness probe timing out)']);
  });

  test('refused connections give error_rate 1, no latency, and crossed thresholds as notes', () => {
    const r = parse('failed-down.json');
    assert.deepEqual(values(r), {
      iterations: 20, requests: 20, throughput: 19.754594734276665, errors: 20, error_rate: 1,
      duration: 1012422693, checks_pass_rate: 0, bytes_received: 0,
    });
    assert.equal(r.thresholdsFailed, 2);
    assert.deepEqual([...r.notes].sort(), [
      'every one of the 20 requests failed; latency metrics are left out (they would time refused or failed requests)',
      'k6 threshold crossed: checks{scenario:bench} rate>0.99',
      'k6 threshold crossed: http_req_failed{scenario:bench} rate<0.01',
      'k6: 2 of 6 thresholds failed',
    ]);
  });

  test('a script whose URLs name no server (it reads a variable of its own, not BASE_URL) says what k6 logged and that the script must use BASE_URL', () => {
    const r = parse('other-url.json', { stderr: text('other-url.stderr.txt') });
    assert.deepEqual([values(r).requests, values(r).errors, values(r).error_rate], [10, 10, 1]);
    assert.equal(byName(r, 'latency.p50'), undefined, 'no latencies of requests never sent');
    assert.deepEqual(r.notes, [
      'every one of the 10 requests failed (k6 logged: Get "undefined/item.json": unsupported protocol scheme ""; the script\'s URLs name no server: it must build them from __ENV.BASE_URL, which benchline sets to the subject\'s address); latency metrics are left out (they would time refused or failed requests)',
      'k6 metric fetch_ms holds only 0 ms, the timings of requests that all failed: left out',
    ]);
    assert.equal(byName(r, 'fetch_ms.mean'), undefined, 'the script\'s time Trend of those requests is no measurement either');
    // refused by a server that is not there: what k6 logged, without the BASE_URL advice
    const refused = parse('failed-down.json', { stderr: 'time="2026-11-27T09:43:16Z" level=warning msg="Request Failed" error="Get \\"http://127.0.0.1:9/item.json\\": dial tcp 127.0.0.1:9: connect: connection refused"\n' });
    assert.ok(refused.notes.includes('every one of the 20 requests failed (k6 logged: Get "http://127.0.0.1:9/item.json": dial tcp 127.0.0.1:9: connect: connection refused); latency metrics are left out (they would time refused or failed requests)'), refused.notes.join('\n'));
  });

  test('crossed latency thresholds are notes while the measurements stay', () => {
    const r = parse('failed-thresholds.json');
    assert.equal(r.thresholdsFailed, 2);
    assert.equal(byName(r, 'latency.p95').value, 734838.5);
    assert.equal(byName(r, 'latency.p99').value, 932770);
    assert.equal(byName(r, 'error_rate').value, 0);
    assert.deepEqual([...r.notes].sort(), [
      'k6 threshold crossed: http_req_duration{scenario:bench} p(95)<0.001',
      'k6 threshold crossed: http_req_duration{scenario:bench} p(99)<0.001',
      'k6: 2 of 6 thresholds failed',
    ]);
  });

  test('at a constant arrival rate, throughput is the arrival rate and latency the distribution', () => {
    const r = parse('latency.json');
    assert.equal(byName(r, 'iterations').value, 600);
    assert.equal(byName(r, 'throughput').value, 199.71134973034435);
    assert.deepEqual(r.distributions[0].percentiles, [
      { p: 0, value: 111369 }, { p: 50, value: 188674 }, { p: 90, value: 582011.6 }, { p: 95, value: 743685.45 },
      { p: 99, value: 2879603.74 }, { p: 99.9, value: 7032119.158 }, { p: 100, value: 7695786 },
    ]);
    assert.equal(r.distributions[0].count, 600);
  });

  test('dropped iterations are a note; iterations counts only the completed ones', () => {
    assert.equal(json('throughput.json').metrics.dropped_iterations.values.count, 4910);
    const r = parse('throughput.json');
    assert.equal(byName(r, 'iterations').value, 5091);
    assert.equal(byName(r, 'requests').value, 5091);
    assert.equal(r.metrics.some((m) => m.name.includes('dropped')), false);
    assert.deepEqual(r.notes, ['k6 dropped 4910 iterations: the arrival rate needed more VUs than it had (raise the scenario\'s preAllocatedVUs/maxVUs, which loadtests/k6/lib sets from the job params vus/maxVus, or lower the rate)']);
  });
  test('another scenario\'s failed requests are not counted as errors of scenario bench when k6 reports its requests but not its failures', () => {
    const raw = json('two-scenarios.json').metrics;
    assert.equal(raw['http_reqs{scenario:bench}'].values.count, 41);
    assert.equal(raw['http_req_failed{scenario:bench}'], undefined, 'no threshold names it, so k6 leaves it out');
    assert.deepEqual([raw.http_req_failed.values.passes, raw.http_reqs.values.count], [20, 61], 'the 404s of scenario browse');
    assert.equal(raw.checks.values.rate, 1, 'every request of scenario bench was answered 200');
    const r = parse('two-scenarios.json');
    const v = values(r);
    assert.equal(v.requests, 41);
    assert.equal(v.errors, undefined);
    assert.equal(v.error_rate, undefined);
    assert.equal(byName(r, 'latency.p50').value, 452228);
    assert.deepEqual(r.notes, ['k6 reports http_req_failed for the whole test only: 20 of its 61 requests failed, not all of them maybe in scenario bench (41 requests), '
      + 'so errors and error_rate are left out; a threshold on http_req_failed{scenario:bench} (such as [\'rate<=1\']) makes k6 report the scenario\'s own',
    'k6 reports data_received for the whole test only, not for scenario bench, so bytes_received is left out; thresholds such as data_received{scenario:bench}: [\'count>=0\'] make k6 report the scenario\'s own']);
    assert.equal(v.checks_pass_rate, 1, 'every check of the whole test passed, so every check of scenario bench did');
    assert.deepEqual([values(parse('many.json')).errors, values(parse('failed-down.json')).errors > 0], [0, true], 'with the scenario\'s own http_req_failed, errors are counted as before');
  });
});

describe('k6 adapter: a handleSummary that throws', () => {
  test("a handleSummary that threw (k6 says so on stderr, exits 0 and writes only its --summary-export) is noted with the exception", () => {
    const r = parse('summary-throws.summary-export.json', { stderr: text('summary-throws.stderr.txt') });
    assert.equal(r.format, 'summary-export');
    assert.equal(values(r).iterations, 3);
    assert.deepEqual(r.notes.filter((n) => n.includes('handleSummary')), ["k6: the script's handleSummary threw (TypeError: Cannot read property 'requests' of undefined), so it wrote no summary of its own"]);
    assert.equal(parse('summary-throws.summary-export.json').notes.some((n) => n.includes('handleSummary')), false, 'without its stderr');
    // an exception in default() is not one in handleSummary, and the other way round
    assert.equal(parse('throws.json', { stderr: text('throws.stderr.txt') }).notes.some((n) => n.includes('handleSummary threw')), false);
    assert.equal(r.notes.some((n) => n.includes('threw an exception')), false);
  });
});

describe('k6 adapter: checks and bytes of one scenario', () => {
  test("another scenario's failed checks and its bytes are not counted as scenario bench's when k6 reports its requests but not its checks or bytes", () => {
    const raw = json('checks-elsewhere.json').metrics;
    assert.deepEqual([raw.checks.values.passes, raw.checks.values.fails], [30, 15], 'the 404s of scenario browse fail their check');
    assert.equal(raw['checks{scenario:bench}'], undefined, 'no threshold names it, so k6 leaves it out');
    const r = parse('checks-elsewhere.json');
    const v = values(r);
    assert.deepEqual([v.requests, v.errors, v.checks_pass_rate, v.bytes_received], [30, 0, undefined, undefined]);
    assert.ok(r.notes.includes("k6 reports checks and data_received for the whole test only, not for scenario bench, so checks_pass_rate and bytes_received are left out; thresholds such as checks{scenario:bench}: ['rate>=0'], data_received{scenario:bench}: ['count>=0'] make k6 report the scenario's own"), JSON.stringify(r.notes));
    // the shared options name both for the scenario: its own are read, with no such note
    const lib = parse('many.json');
    assert.deepEqual([values(lib).checks_pass_rate, values(lib).bytes_received], [1, 57486]);
    assert.equal(lib.notes.some((n) => n.includes('whole test only')), false);
  });
});

describe('k6 adapter: a test stopped early', () => {
  test('a threshold with abortOnFail that stopped the test (k6 says so on stderr) is noted with how long the trial ran; the same summary without that stderr is not', () => {
    const stderr = text('abort-on-fail.stderr.txt');
    const r = parse('abort-on-fail.json', { stderr });
    assert.equal(values(r).requests, 30);
    const note = r.notes.find((n) => n.startsWith('k6 stopped the test early'));
    assert.equal(note, 'k6 stopped the test early: a threshold with abortOnFail was crossed after 2.2 s, so this trial measured less than the script planned (its requests and iterations are not comparable with a full trial)');
    assert.ok(r.notes.includes('k6 threshold crossed: http_req_duration p(95)<0.001'), JSON.stringify(r.notes));
    assert.equal(parse('abort-on-fail.json').notes.some((n) => n.startsWith('k6 stopped the test early')), false);
    assert.equal(parse('failed-thresholds.json', { stderr: text('abort-on-fail.stderr.txt').replace('abortOnFail', 'abort') }).notes.some((n) => n.startsWith('k6 stopped')), false);
  });
});

describe('k6 adapter: custom metrics', () => {
  test('keeps every custom trend as <name>.mean/.min/.max/.pN, ns for time trends and bytes for sizes, a bl_ prefix dropped', () => {
    const r = parse('custom-trends.json');
    const traversal = r.metrics.filter((m) => m.name.startsWith('traversal_duration.'));
    assert.deepEqual(traversal.map((m) => [m.name, m.value, m.unit, m.better]), [
      ['traversal_duration.mean', 2542166.22, 'ns', 'lower'],
      ['traversal_duration.min', 421471, 'ns', 'lower'],
      ['traversal_duration.max', 61353209, 'ns', 'lower'],
      ['traversal_duration.p50', 516528, 'ns', 'lower'],
      ['traversal_duration.p90', 1698015, 'ns', 'lower'],
      ['traversal_duration.p95', 5305151, 'ns', 'lower'],
      ['traversal_duration.p99', 41647444.6, 'ns', 'lower'],
      ['traversal_duration.p99.9', 59382632.56, 'ns', 'lower'],
    ]);
    const size = byName(r, 'response_size.mean');
    assert.deepEqual([size.value, size.unit, size.better], [43, 'bytes', 'lower']);
    assert.deepEqual(r.distributions.map((d) => [d.name, d.unit, d.count]).sort(), [
      ['latency', 'ns', 123], ['response_size', 'bytes', 123], ['traversal_duration', 'ns', 41],
    ]);
  });

  test('maps a bl_ counter to a count where higher is better unless its name says errors', () => {
    const r = parse('custom-trends.json');
    const pages = byName(r, 'pages_read');
    assert.deepEqual([pages.value, pages.unit, pages.better], [123, 'count', 'higher']);
    // bl_page_errors was never incremented, and k6 leaves such counters out of its summary.
    assert.equal(byName(r, 'page_errors'), undefined);
    assert.equal(json('custom-trends.json').metrics.bl_page_errors, undefined);
  });

  test('a script\'s own Counter, Gauge or Rate whose direction only the rule gives is marked as guessed, unless the job\'s better param names it or its name says failures', () => {
    const guessed = (r) => r.metrics.filter((m) => m.guessed).map((m) => [m.name, m.guessed]);
    assert.deepEqual(guessed(parse('custom-metrics.json')), [
      ['items_read', 'k6 Counter items_read is higher-is-better only by benchline\'s rule for a Counter of plain numbers, not by what it counts'],
      ['parsed_ok', 'k6 Rate parsed_ok is higher-is-better only by benchline\'s rule for a Rate of plain numbers, not by what it counts'],
      ['last_item_count', 'k6 Gauge last_item_count is higher-is-better only by benchline\'s rule for a Gauge of plain numbers, not by what it counts'],
    ], 'parse_errors is lower-is-better by its name; a time or a size is lower-is-better');
    assert.deepEqual(guessed(parse('custom-metrics.json', { better: 'items_read=higher,parsed_ok=higher,last_item_count=lower' })), []);
    // the catalog traversal's counts of items and pages read from a stream: registered names (items, pages) are known
    assert.deepEqual(guessed(parse('catalog-grpc-traversal.json')).map(([n]) => n), ['stream_items', 'stream_pages']);
    const d = doc([parse('custom-metrics.json'), parse('custom-metrics.json')]);
    assert.match(d.metrics.find((m) => m.name === 'items_read').guessed, /^k6 Counter items_read/, 'kept in the result document');
    assert.equal(toGab([d], 'higher').some((e) => e.name.endsWith('/items_read')), false, 'and left out of the github-action-benchmark files');
  });

  test('keeps one custom metric of each k6 type under the name k6 gives it, with its unit and direction', () => {
    const r = parse('custom-metrics.json');
    const custom = r.metrics.filter((m) => /^(json_parse_ms|body_bytes|items_read|parse_errors|parsed_ok|last_item_count)\b/.test(m.name));
    assert.deepEqual(custom.map((m) => [m.name, m.value, m.unit, m.better]).sort(), [
      ['body_bytes.max', 43, 'bytes', 'lower'],
      ['body_bytes.mean', 43, 'bytes', 'lower'],
      ['body_bytes.min', 43, 'bytes', 'lower'],
      ['body_bytes.p50', 43, 'bytes', 'lower'],
      ['body_bytes.p90', 43, 'bytes', 'lower'],
      ['body_bytes.p95', 43, 'bytes', 'lower'],
      ['body_bytes.p99', 43, 'bytes', 'lower'],
      ['body_bytes.p99.9', 43, 'bytes', 'lower'],
      ['items_read', 123, 'count', 'higher'],
      // A Trend made with isTime true: k6 reports ms (7.658...), benchline keeps ns.
      ['json_parse_ms.max', 21000000, 'ns', 'lower'],
      ['json_parse_ms.mean', 7658536.585, 'ns', 'lower'],
      ['json_parse_ms.min', 3000000, 'ns', 'lower'],
      ['json_parse_ms.p50', 6000000, 'ns', 'lower'],
      ['json_parse_ms.p90', 17000000, 'ns', 'lower'],
      ['json_parse_ms.p95', 19000000, 'ns', 'lower'],
      ['json_parse_ms.p99', 20600000, 'ns', 'lower'],
      ['json_parse_ms.p99.9', 20960000, 'ns', 'lower'],
      ['last_item_count', 3, 'count', 'higher'],
      ['parse_errors', 0, 'count', 'lower'],
      ['parsed_ok', 1, 'ratio', 'higher'],
    ]);
    assert.deepEqual(r.notes, []);
    assert.deepEqual(r.distributions.map((d) => [d.name, d.unit, d.count]), [['latency', 'ns', 41], ['json_parse_ms', 'ns', 41], ['body_bytes', 'bytes', 41]]);
    assert.equal(byName(r, 'vus'), undefined, "k6's built-in gauges are not custom metrics");
  });

  test('keeps a script\'s own metrics whose names start as k6\'s ws_ and http_req_ built-ins do, and leaves the built-ins out', () => {
    const r = parse('ws-metrics.json');
    const own = r.metrics.filter((m) => /^(ws_|http_req_)/.test(m.name));
    // a time Trend: Date.now() steps of whole ms (0 or 1) from the script, kept in ns
    assert.deepEqual(own.map((m) => [m.name, m.value, m.unit, m.better]).sort(), [
      ['http_req_retries', 0, 'count', 'higher'],
      ['ws_echo_ok', 1, 'ratio', 'higher'],
      ['ws_message_roundtrip.max', 1e6, 'ns', 'lower'],
      ['ws_message_roundtrip.mean', 466666.667, 'ns', 'lower'],
      ['ws_message_roundtrip.min', 0, 'ns', 'lower'],
      ['ws_message_roundtrip.p50', 0, 'ns', 'lower'],
      ['ws_message_roundtrip.p90', 1e6, 'ns', 'lower'],
      ['ws_message_roundtrip.p95', 1e6, 'ns', 'lower'],
      ['ws_message_roundtrip.p99', 1e6, 'ns', 'lower'],
      ['ws_message_roundtrip.p99.9', 1e6, 'ns', 'lower'],
      ['ws_messages_echoed', 30, 'count', 'higher'],
    ]);
    // k6's own ws_sessions, ws_msgs_sent, ws_connecting ... are in the summary and are not the script's
    assert.ok(json('ws-metrics.json').metrics.ws_sessions);
    assert.ok(json('ws-metrics.json').metrics.http_req_waiting);
    assert.deepEqual(r.distributions.map((d) => d.name), ['latency', 'ws_message_roundtrip']);
  });

  test('a counter or rate named for what went wrong (http_errors_total, failures, lookup_error_count, login_failure_rate) is lower-is-better', () => {
    const r = parse('error-counters.json');
    const own = r.metrics.filter((m) => /^(http_errors_total|failures|lookup_error_count|login_failure_rate|items_found)$/.test(m.name));
    assert.deepEqual(own.map((m) => [m.name, m.value, m.unit, m.better]).sort(), [
      ['failures', 41, 'count', 'lower'],
      ['http_errors_total', 41, 'count', 'lower'],
      ['items_found', 41, 'count', 'higher'],
      ['login_failure_rate', 1, 'ratio', 'lower'],
      ['lookup_error_count', 41, 'count', 'lower'],
    ]);
    // the --summary-export of the same run, without metric types, gives each the same direction
    const exported = parse('error-counters.summary-export.json');
    assert.deepEqual(own.map((m) => byName(exported, m.name).better), own.map((m) => m.better));
  });

  test('a custom metric named with capitals is read by the name it is kept under: HTTP_Errors and Login_Failed are lower-is-better, Page_Load_Time a time, Body_Bytes a size and Time a time family', () => {
    for (const file of ['mixed-case.json', 'mixed-case.summary-export.json']) {
      const r = parse(file);
      const kept = (n) => [byName(r, n)?.value, byName(r, n)?.unit, byName(r, n)?.better];
      assert.deepEqual(kept('http_errors'), [20, 'count', 'lower'], file);
      assert.deepEqual(kept('login_failed'), [1, 'ratio', 'lower'], file);
      // both requests' durations, 0.1117305 ms at the median, added without isTime: a time by the name it is kept under
      assert.deepEqual(kept('page_load_time.p50'), [111730.5, 'ns', 'lower'], file);
      assert.deepEqual(kept('body_bytes.mean'), [43, 'bytes', 'lower'], file);
      assert.deepEqual(kept('time.mean'), [75647.1, 'ns', 'lower'], file);
      assert.deepEqual(r.distributions.map((d) => d.name).sort(), ['body_bytes', 'latency', 'page_load_time', 'time'], file);
      // the job params contains and better name it either way
      for (const name of ['Page_Load_Time', 'page_load_time']) {
        assert.equal(byName(parse(file, { contains: `${name}=default` }), 'page_load_time.p50').unit, 'count', `${file} contains ${name}`);
        assert.equal(byName(parse(file, { better: `${name}=higher` }), 'page_load_time.p50').better, 'higher', `${file} better ${name}`);
      }
    }
  });

  test('refuses a Counter without its count, a Gauge without its value and a Rate without its rate, naming the k6 metric, instead of reading it as 0', () => {
    const cases = [
      ['mixed-case.json', 'HTTP_Errors', 'count', /metric HTTP_Errors: a Counter without its count/],
      ['custom-metrics.json', 'last_item_count', 'value', /metric last_item_count: a Gauge without its value/],
      ['mixed-case.json', 'Login_Failed', 'rate', /metric Login_Failed: a Rate without its rate/],
      // k6's own, whose rate becomes error_rate: the refusal names the metric in the file
      ['mixed-case.json', 'http_req_failed', 'rate', /metric http_req_failed: a Rate without its rate/],
      // k6's own counters were read as 0 without their count: bytes_received 0, or 0 iterations beside 40 requests
      ['mixed-case.json', 'data_received', 'count', /metric data_received: a Counter without its count/],
      ['mixed-case.json', 'iterations', 'count', /metric iterations: a Counter without its count/],
    ];
    for (const [file, name, field, re] of cases) {
      const data = json(file);
      delete data.metrics[name].values[field];
      throwsParse(() => k6.parse(JSON.stringify(data)), re);
    }
  });

  test('keeps custom metrics of plain numbers with a fraction (a Trend of item counts, a Gauge of 0.75) in a result document', () => {
    const r = parse('plain-numbers.json');
    const custom = r.metrics.filter((m) => /^(items_per_page|items_share|pages_read)\b/.test(m.name));
    assert.deepEqual(custom.map((m) => [m.name, m.value, m.unit]).sort(), [
      ['items_per_page.max', 4, 'count'],
      ['items_per_page.mean', 2.5, 'count'],
      ['items_per_page.min', 1, 'count'],
      ['items_per_page.p50', 2.5, 'count'],
      ['items_per_page.p90', 4, 'count'],
      ['items_per_page.p95', 4, 'count'],
      ['items_per_page.p99', 4, 'count'],
      ['items_per_page.p99.9', 4, 'count'],
      ['items_share', 0.75, 'count'],
      ['pages_read', 20, 'count'],
    ]);
    // k6's own counts stay whole, and the document builder's check of impossible values lets the fractions through
    assert.equal(byName(r, 'iterations').value, 20);
    const d = doc([r], 'plain-numbers');
    assert.equal(d.metrics.find((m) => m.name === 'items_share').value, 0.75);
    assert.equal(d.metrics.find((m) => m.name === 'items_per_page.mean').value, 2.5);
  });

  test('a Trend named as one of benchline\'s time families is a time in milliseconds, and params that make it anything else are refused with the fix', () => {
    for (const file of ['registered-trend.json', 'registered-trend.summary-export.json']) {
      const r = parse(file);
      // processing: 1, 2, 3, 4, 1, ... added as plain numbers, read as milliseconds
      assert.deepEqual([byName(r, 'processing.mean').value, byName(r, 'processing.mean').unit, byName(r, 'processing.max').value], [2.5e6, 'ns', 4e6], file);
      assert.equal(byName(r, 'time.p95').unit, 'ns', file);
      assert.ok(byName(r, 'time.p95').value > 0, file);
      for (const opts of [{ contains: 'processing=default' }, { better: 'processing=higher' }]) {
        assert.throws(() => parse(file, opts), (e) => e instanceof ParseError && /k6 metric processing becomes "processing\.mean".*registers as ns\/lower.*rename the k6 metric \(e\.g\. processing_count\)/.test(e.message), `${file} ${JSON.stringify(opts)}`);
      }
    }
  });

  test('a custom time Trend of whole milliseconds (timed with Date.now()) carries a 1 ms resolution on its order statistics, not on its mean, and one of real timings none', () => {
    for (const [file, name] of [['ws-metrics.json', 'ws_message_roundtrip'], ['custom-metrics.json', 'json_parse_ms']]) {
      const r = parse(file);
      for (const stat of ['min', 'max', 'p50', 'p95']) assert.equal(byName(r, `${name}.${stat}`).resolution, 1e6, `${file} ${name}.${stat}`);
      assert.equal(byName(r, `${name}.mean`).resolution, undefined, `${file} ${name}.mean`);
      // the document keeps it, and github-action-benchmark's file leaves out what one clock step can double
      const d = doc([r], 'whole-ms');
      assert.equal(d.metrics.find((m) => m.name === `${name}.min`).resolution, 1e6);
      const gab = toGab([d], 'lower').map((e) => e.name.split('/').pop());
      assert.ok(gab.includes(`${name}.mean`), `${file}: the mean stays`);
      // (its .min and .max stay out as a trial's extremes, and a p99 of its 30 or 41 samples as the slowest one)
      for (const m of d.metrics.filter((x) => /\.p(50|90|95)$/.test(x.name) && x.name.startsWith(`${name}.`) && x.resolution)) assert.equal(gab.includes(m.name), m.value >= 10e6, `${file} ${m.name} ${m.value} ns`);
    }
    // a Trend of res.timings.duration (fractions of a millisecond), k6's own timings, and a custom size: no resolution
    const timed = parse('registered-trend.json');
    assert.ok(byName(timed, 'time.min').value % 1e6 !== 0);
    assert.equal(timed.metrics.filter((m) => /^(time|latency)\./.test(m.name) && m.resolution).length, 0);
    assert.equal(byName(parse('custom-metrics.json'), 'body_bytes.max').resolution, undefined);
  });

  // a script read through --summary-export that then adds a handleSummary, as the note advises, keeps its series' units
  test('a Trend made without isTime whose name ends in _ms is a time in both summary formats, unless the job param contains says default', () => {
    const data = json('custom-metrics.json');
    // what k6 says of a Trend made without isTime
    data.metrics.json_parse_ms.contains = 'default';
    const full = (opts) => byName(k6.parse(JSON.stringify(data), opts), 'json_parse_ms.p95');
    const exported = (opts) => byName(parse('custom-metrics.summary-export.json', opts), 'json_parse_ms.p95');
    assert.deepEqual([full().value, full().unit], [19e6, 'ns']);
    assert.deepEqual([exported().value, exported().unit], [19e6, 'ns']);
    const plain = { contains: 'json_parse_ms=default' };
    assert.deepEqual([full(plain).value, full(plain).unit], [19, 'count']);
    assert.deepEqual([exported(plain).value, exported(plain).unit], [19, 'count']);
    // a Trend whose name hints nothing stays a count in both
    assert.equal(byName(parse('plain-numbers.json'), 'items_per_page.p95').unit, 'count');
  });

  test('the job param better turns a custom metric\'s direction, and refuses anything but lower or higher', () => {
    const r = parse('custom-metrics.json', { better: 'last_item_count=lower,body_bytes=higher' });
    assert.equal(byName(r, 'last_item_count').better, 'lower');
    assert.equal(byName(r, 'body_bytes.p95').better, 'higher');
    throwsParse(() => parse('custom-metrics.json', { better: 'items_read=up' }), /k6 param better: "items_read=up" is neither lower nor higher/);
  });

  test('keeps a custom metric with capitals or spaces under a lower-case name and says so', () => {
    const data = json('custom-metrics.json');
    data.metrics['Items Read'] = data.metrics.items_read;
    delete data.metrics.items_read;
    const r = k6.parse(JSON.stringify(data));
    assert.equal(byName(r, 'items_read').value, 123);
    assert.deepEqual(r.notes, ['k6 metric Items Read is kept as items_read: benchline metric names are lower case letters, digits and _']);
  });

  test('refuses a custom metric that would take the name of one benchline derives from k6\'s built-ins', () => {
    const data = json('custom-metrics.json');
    data.metrics.requests = data.metrics.items_read;
    throwsParse(() => k6.parse(JSON.stringify(data)), /^k6 metric requests \(as "requests"\) would take a name this summary already has .*; rename it in the script, e\.g\. app_requests \(a bl_ prefix is dropped, so bl_requests would take the same name\)$/);
    // every clash named at once, so one edit mends the script; the output itself is fine, and the error says so
    data.metrics.bl_errors = data.metrics.items_read;
    data.metrics.latency = data.metrics.json_parse_ms;
    let error;
    try {
      k6.parse(JSON.stringify(data));
    } catch (e) {
      error = e;
    }
    assert.match(error.message, /^k6 metrics requests \(as "requests"\), bl_errors \(as "errors"\), latency \(as "latency\.mean"\) would take names this summary already has .*; rename them in the script/);
    assert.equal(unreadable(error, 'k6'), 'k6 output that cannot be kept');
    assert.equal(unreadable(new Error('x'), 'k6'), 'not valid k6 output');
  });

  test('refuses two custom metrics k6 tells apart only by case, naming the one that took the name', () => {
    // k6 takes HTTP_Errors and http_errors as two metrics; benchline keeps both as http_errors
    const data = json('mixed-case.json');
    data.metrics.http_errors = data.metrics.HTTP_Errors;
    throwsParse(() => k6.parse(JSON.stringify(data)), /^k6 metric http_errors \(as "http_errors", which k6 metric HTTP_Errors takes\) would take a name this summary already has .*; rename it in the script/);
  });

  test('a metric the job lists in trends but the summary lacks gets a note', () => {
    assert.deepEqual(parse('many.json', { trends: ['traversal_duration'] }).notes, ['k6 metric traversal_duration (listed in trends) is not in the summary']);
  });

  test('refuses a custom metric whose name clashes with a registered metric of another unit', () => {
    const data = json('custom-trends.json');
    data.metrics.bl_latency = data.metrics.bl_response_size;
    throwsParse(() => k6.parse(JSON.stringify(data), { contains: 'bl_latency=default' }), /k6 metric bl_latency becomes "latency\.mean".*registers as ns\/lower \(a time\), but it reads as count\/lower here \(contains "default", from the summary or the job's contains\/better params\); rename the k6 metric/);
  });
});

describe('k6 adapter: --summary-export and the machine-readable summary', () => {
  for (const c of CASES) {
    test(`--summary-export of the ${c} run gives the same metrics as its handleSummary data`, () => {
      const opts = { trends: 'traversal_duration' };
      const a = parse(`${c}.json`, opts);
      const b = parse(`${c}.summary-export.json`, opts);
      assert.equal(a.format, 'handle-summary');
      assert.equal(b.format, 'summary-export');
      assert.deepEqual(sortByName(b.metrics), sortByName(a.metrics));
      assert.deepEqual(sortByName(b.distributions), sortByName(a.distributions));
      assert.deepEqual([...b.notes].sort(), [...a.notes].sort());
    });
  }

  test('reads threshold booleans of --summary-export as "crossed"', () => {
    const raw = json('failed-thresholds.summary-export.json').metrics['http_req_duration{scenario:bench}'].thresholds;
    assert.deepEqual(raw, { 'p(95)<0.001': true, 'p(99)<0.001': true });
    assert.equal(parse('failed-thresholds.summary-export.json').thresholdsFailed, 2);
  });

  test('reads the machine-readable summary, deriving rates from config.duration', () => {
    const r = parse('machine-readable.json');
    assert.equal(r.format, 'machine-readable');
    assert.equal(r.toolVersion, '1.8.1');
    assert.deepEqual(values(r), {
      iterations: 51,
      requests: 51,
      throughput: 51 / 1.005131095,
      errors: 0,
      error_rate: 0,
      duration: 1005131095,
      'latency.mean': 465337.902,
      'latency.min': 131367,
      'latency.max': 2635494,
      'latency.p50': 283682,
      'latency.p90': 776807,
      'latency.p95': 1774363.5,
      checks_pass_rate: 1,
      bytes_received: 14586,
    });
    assert.deepEqual(r.notes, ['the machine-readable k6 summary records no thresholds']);
  });
});

describe('k6 adapter: bad input', () => {
  test('an empty file is a ParseError that says k6 writes the summary at the end of a run', () => {
    throwsParse(() => k6.parse(''), /the file is empty; k6 writes the summary only when the run reaches its end/);
    throwsParse(() => k6.parse(' \n'), /the file is empty/);
  });

  test('a truncated summary is a ParseError that says so', () => {
    const full = text('many.json');
    throwsParse(() => k6.parse(full.slice(0, Math.floor(full.length / 2))), /not valid JSON .*may be truncated/);
  });

  test('a ghz report is refused as foreign', () => {
    const ghz = readFileSync(new URL('./fixtures/ghz/one.json', import.meta.url), 'utf8');
    throwsParse(() => k6.parse(ghz), /this is ghz output, not a k6 summary/);
  });

  test('JSON without k6 metrics is refused, naming what it found', () => {
    throwsParse(() => k6.parse('{"name":"x","values":[1]}'), /no "metrics" object \(top-level keys: name, values\)/);
    throwsParse(() => k6.parse('{"metrics":{}}'), /holds no metrics/);
    throwsParse(() => k6.parse('{"metrics":{"rows":{"type":"trend","values":{"avg":1}}}}'), /none of k6's built-in metrics/);
    throwsParse(() => k6.parse('[1,2]'), /top level is an array/);
  });

  test("k6's --out json stream and text summary are refused with what they are", () => {
    const stream = `${JSON.stringify({ type: 'Metric', data: { type: 'counter' }, metric: 'http_reqs' })}\n${JSON.stringify({ type: 'Point', metric: 'http_reqs' })}\n`;
    throwsParse(() => k6.parse(stream), /--out json sample stream/);
    const summaryText = textSummary(json('many.json'));
    throwsParse(() => k6.parse(summaryText), /k6's text summary, not JSON/);
  });

  test('a non-numeric value names the metric and the field', () => {
    const data = json('many.json');
    data.metrics['http_reqs{scenario:bench}'].values.count = '201';
    throwsParse(() => k6.parse(JSON.stringify(data)), /metric http_reqs\{scenario:bench\}: value "count" is "201", not a number/);
  });

  test('normalize names the file, the tool and how to produce valid output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchline-k6-'));
    try {
      const file = join(dir, 'summary.json');
      writeFileSync(file, '');
      assert.throws(() => normalizeFile(file, 'k6'), (e) => {
        assert.match(e.message, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid k6 output: the file is empty`));
        assert.match(e.message, /Produce valid output with: k6 run --summary-export out\.json script\.js/);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('k6 adapter: result documents', () => {
  for (const c of [...CASES, 'machine-readable']) {
    test(`buildResult accepts the ${c} run`, () => {
      const d = doc([parse(`${c}.json`, { trends: 'traversal_duration' })], c);
      assert.equal(d.trials, 1);
      assert.equal(d.metrics.find((m) => m.name === 'iterations').value, byName(parse(`${c}.json`), 'iterations').value);
    });
  }

  test('buildResult merges three trials into per-trial samples of each metric', () => {
    const d = doc(['many.json', 'latency.json', 'failed-thresholds.json'].map((f) => parse(f)), 'merged');
    const requests = d.metrics.find((m) => m.name === 'requests');
    assert.deepEqual(requests.samples, [201, 600, 51]);
    assert.equal(requests.value, 201);
    assert.equal(d.notes.includes('trial 3: k6: 2 of 6 thresholds failed'), true, d.notes.join('\n'));
  });
});

describe('k6 adapter: command', () => {
  const ctx = {
    bin: '/opt/k6',
    script: '/repo/loadtests/k6/orders.js',
    outFile: '/tmp/r/k6-1.json',
    target: { url: 'http://127.0.0.1:8080/' },
    params: { rate: 1000, duration: '3s', path: '/api/order/all-items', maxVus: 20, p95Ms: 50, trends: 'traversal_duration', keepalive: true, skip: null },
  };

  test('a param written as a YAML mapping (data, metadata) reaches the script as JSON, not "[object Object]"', () => {
    const { argv } = k6.command({ ...ctx, params: { data: { service: '', n: 1 } } });
    assert.ok(argv.includes('DATA={"service":"","n":1}'), argv.join(' '));
  });

  test("runs k6 quietly with every param as -e KEY=VALUE, the summary path in BENCHLINE_SUMMARY and k6's --summary-export beside it as the fallback", () => {
    const cmd = k6.command(ctx);
    assert.match(cmd.fallback.note, /^k6: the script wrote no summary to __ENV\.BENCHLINE_SUMMARY/);
    assert.deepEqual({ ...cmd, fallback: cmd.fallback.file }, {
      output: 'file',
      fallback: '/tmp/r/k6-1.export.json',
      argv: [
        '/opt/k6', 'run', '--quiet', '--no-color', '--no-usage-report',
        '--summary-trend-stats', 'avg,min,med,max,p(90),p(95),p(99),p(99.9),count',
        '-e', 'BENCHLINE_SUMMARY=/tmp/r/k6-1.json', '--summary-export', '/tmp/r/k6-1.export.json',
        '-e', 'BASE_URL=http://127.0.0.1:8080',
        '-e', 'DURATION=3s',
        '-e', 'KEEPALIVE=true',
        '-e', 'MAX_VUS=20',
        '-e', 'P95_MS=50',
        '-e', 'PATH=/api/order/all-items',
        '-e', 'RATE=1000',
        '/repo/loadtests/k6/orders.js',
      ],
    });
  });

  test('uses --summary-export for scripts without the shared handleSummary', () => {
    const { argv, fallback } = k6.command({ ...ctx, params: { summary: 'export', rate: 5 }, target: {} });
    assert.deepEqual(argv.slice(7), ['--summary-export', '/tmp/r/k6-1.json', '-e', 'RATE=5', '/repo/loadtests/k6/orders.js']);
    assert.equal(fallback, undefined);
  });

  test('refuses params k6 would take as its own options, and jobs without a script', () => {
    assert.throws(() => k6.command({ ...ctx, params: { k6Vus: 3 } }), /k6 param "k6Vus" would become K6_VUS, but k6 reserves K6_\*/);
    assert.throws(() => k6.command({ ...ctx, params: { summary: 'stdout' } }), /summary: "stdout" is neither handleSummary nor export/);
    assert.throws(() => k6.command({ ...ctx, script: undefined }), /k6 jobs need a script/);
  });

  test('names params in UPPER_SNAKE case', () => {
    assert.deepEqual(['rate', 'maxVus', 'p95Ms', 'max-vus', 'readyTimeout', 'BASE_URL'].map(k6.envName),
      ['RATE', 'MAX_VUS', 'P95_MS', 'MAX_VUS', 'READY_TIMEOUT', 'BASE_URL']);
  });
});

describe('loadtests/k6/lib', () => {
  test('benchOptions builds a constant-arrival-rate scenario with thresholds on its own submetrics', () => {
    assert.deepEqual(benchOptions({ rate: 50, duration: '2s' }, { RATE: '200', VUS: '4', P99_MS: '20' }), {
      scenarios: {
        bench: { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '2s', preAllocatedVUs: 4, maxVUs: 8, gracefulStop: '2s' },
      },
      thresholds: {
        'http_req_duration{scenario:bench}': ['p(95)<100', 'p(99)<20'],
        'http_req_failed{scenario:bench}': ['rate<0.01'],
        'checks{scenario:bench}': ['rate>0.99'],
        'http_reqs{scenario:bench}': ['count>=0'],
        'data_received{scenario:bench}': ['count>=0'],
      },
      summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
      setupTimeout: '40s',
      teardownTimeout: '10s',
    });
  });

  test('benchOptions refuses a rate or duration k6 would reject, naming the parameter', () => {
    assert.throws(() => benchOptions({}, { RATE: '-5' }), /RATE=-5 must be a positive integer \(k6 run -e RATE=\.\.\.\)/);
    assert.throws(() => benchOptions({}, { DURATION: '5' }), /DURATION=5 must be a k6 duration such as 500ms, 5s or 1m/);
  });

  test("urlPath takes -e PATH=/x but never the shell's search path", () => {
    assert.equal(urlPath('/item.json', { PATH: '/usr/local/bin:/usr/bin' }), '/item.json');
    assert.equal(urlPath('/item.json', { PATH: '/api/order/all-items' }), '/api/order/all-items');
    assert.equal(param('RATE', 7, { RATE: '' }), 7);
    assert.equal(baseUrl({ BASE_URL: 'http://127.0.0.1:9/' }), 'http://127.0.0.1:9');
    assert.throws(() => baseUrl({}), /BASE_URL is "": run k6 with -e BASE_URL=http:\/\/127\.0\.0\.1:<port>/);
  });

  test('handleSummary writes the data as JSON to BENCHLINE_SUMMARY and text to stdout', () => {
    const data = json('many.json');
    const out = handleSummary(data, { BENCHLINE_SUMMARY: '/tmp/x.json' });
    assert.deepEqual(Object.keys(out).sort(), ['/tmp/x.json', 'stdout']);
    assert.deepEqual(JSON.parse(out['/tmp/x.json']), data);
    assert.deepEqual(Object.keys(handleSummary(data, {})), ['stdout']);
  });

  test('textSummary lists thresholds, checks and metrics in a stable order with k6 units', () => {
    const lines = textSummary(json('many.json')).split('\n');
    assert.equal(lines[0], 'thresholds');
    assert.equal(lines[3], '  ok   http_req_duration{scenario:bench}: p(95)<100');
    assert.ok(lines.includes('  ok   status is 200: 201 passed, 0 failed'));
    assert.ok(lines.includes('  http_reqs{scenario:bench} ................. 201  99.84/s'));
    assert.ok(lines.includes('  http_req_duration{scenario:bench} ......... count=201 avg=453.2µs min=127.6µs med=326.5µs max=6.527ms p(90)=815.3µs p(95)=926µs p(99)=1.676ms p(99.9)=5.563ms'));
    assert.ok(lines.includes('  data_received{scenario:bench} ............. 57.49 kB  28.55 kB/s'));
    assert.equal(lines.at(-2), 'test run: 2.013s');
  });

  test('textSummary marks crossed thresholds FAIL and reads the machine-readable shape too', () => {
    const failed = textSummary(json('failed-down.json'));
    assert.match(failed, /^ {2}FAIL http_req_failed\{scenario:bench\}: rate<0\.01$/m);
    assert.match(failed, /^ {2}http_req_failed\{scenario:bench\} \.+ 100% {2}20 out of 20$/m);
    const mr = textSummary(json('machine-readable.json'));
    assert.match(mr, /^ {2}http_reqs\{scenario:bench\} \.+ 51$/m);
    assert.match(mr, /^test run: 1\.005s$/m);
    assert.deepEqual([formatValue(0.5, 'time'), formatValue(1500, 'time'), formatValue(2048, 'data'), formatValue(undefined)], ['500µs', '1.5s', '2.048 kB', '-']);
  });
});

test('a k6 summary whose percentile key is damaged is refused, not read without that percentile', () => {
  const good = text('catalog-grpc-latency.json');
  for (const bad of ['p()', 'p(0x10)', 'p(1e400)', 'p(150)']) {
    assert.throws(() => k6.parse(good.replaceAll('"p(95)"', JSON.stringify(bad))), new RegExp(`"${bad.replace(/[()]/g, '\\$&')}" is not a percentile k6 writes .*the summary is corrupted`), bad);
  }
  assert.ok(k6.parse(good).metrics.some((m) => m.name === 'latency.p95'));
});

test('a machine-readable k6 summary with requests but no usable config.duration is refused as corrupted, not read with a throughput of 0', () => {
  const good = text('machine-readable.json');
  const at = '"duration": 1.005131095';
  assert.ok(good.includes(at));
  const cases = [
    [good.replace(/"duration": 1\.005131095,\s*/, ''), 'config.duration is missing'],
    [good.replace(at, '"duration": null'), 'config.duration is null'],
    [good.replace(at, '"duration": "abc"'), 'config.duration is "abc"'],
    [good.replace(at, '"duration": -1'), 'config.duration is -1'],
  ];
  for (const [bad, what] of cases) {
    throwsParse(() => k6.parse(bad), new RegExp(`the machine-readable summary has no usable config\\.duration \\(the run's length in seconds\\): ${what.replace(/[.()]/g, '\\$&')}, so the rate of http_reqs\\{scenario:bench\\} \\(51 counted\\) cannot be computed; the summary is corrupted`));
  }
  assert.equal(values(k6.parse(good)).throughput, 51 / 1.005131095);
});

test('a k6 summary with a key repeated in one object is refused with the key and where, not read with the last value JSON.parse keeps', () => {
  // an edited count beside the one k6 wrote, and a second config appended at the end
  const good = text('latency.json');
  const count = good.replace('"count": 601,', '"count": 601, "count": 99,');
  assert.notEqual(count, good);
  throwsParse(() => k6.parse(count), /^the key "count" appears twice in one object \(at line \d+, column \d+\), which no tool writes: JSON\.parse would keep the last value without a word; the file was edited or corrupted$/);
  const mr = text('machine-readable.json').replace(/\}\s*$/, ',\n  "config": null\n}\n');
  throwsParse(() => k6.parse(mr), /^the key "config" appears twice in one object/);
  // the same key in sibling objects (every metric's "values") is no repeat
  assert.ok(k6.parse(good).metrics.length);
});

test('a k6 rate that is not its passes over its total is refused as corrupted, not read as an error rate beside 0 errors', () => {
  const good = text('custom-metrics.summary-export.json');
  const at = /("http_req_failed\{scenario:bench\}": \{\s*"passes": 0,\s*"fails": 41,[\s\S]*?"value": )0/;
  assert.match(good, at);
  for (const bad of ['1', '0.5', '0.0001']) {
    throwsParse(() => k6.parse(good.replace(at, `$1${bad}`)), new RegExp(`metric http_req_failed\\{scenario:bench\\}: rate ${bad} is not 0 of 41 \\(0\\), as k6 writes it; the summary is corrupted`));
  }
  const v = values(k6.parse(good));
  assert.deepEqual([v.errors, v.error_rate], [0, 0]);
});

test('a k6 summary holding a number k6 never writes is refused naming the metric and the summary as corrupted, not read as an infinite value or another unit', () => {
  const refused = (d, re) => throwsParse(() => k6.parse(typeof d === 'string' ? d : JSON.stringify(d)), re);
  // 1e308 ms is no finite number of ns, and a run of 1e-320 s no finite throughput
  const huge = json('latency.json');
  huge.metrics['http_req_duration{scenario:bench}'].values.max = 1e308;
  refused(huge, /^metric latency\.max comes to no finite number from the summary's values .*; the summary is corrupted$/);
  const mr = json('machine-readable.json');
  mr.config.duration = 1e-320;
  refused(mr, /^metric throughput comes to no finite number/);
  // a word k6 never writes for what a metric contains would keep a time Trend's milliseconds as plain numbers
  for (const contains of ['time\u0000', 'Time', 7]) {
    const d = json('latency.json');
    d.metrics['http_req_duration{scenario:bench}'].contains = contains;
    refused(d, new RegExp(`^metric http_req_duration\\{scenario:bench\\} contains ${JSON.stringify(contains).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}, not one k6 writes \\(default, time, data\\)`));
  }
  // a damaged run length is refused, not dropped with the duration metric
  for (const ms of ['3004', -1, null]) {
    const d = json('latency.json');
    d.state.testRunDurationMs = ms;
    refused(d, /^state\.testRunDurationMs is .*, not the run's length in milliseconds that k6 writes; the summary is corrupted$/);
  }
  // every Counter's rate is its count over the one run: an edited count, or count and rate swapped, is another run
  const d = json('latency.json');
  d.metrics.data_received.values.count += 1000;
  refused(d, /^metric data_received: rate 57169\.\d+\/s is not its count 172756 over the run of 3004\.34 ms that state\.testRunDurationMs gives/);
  const e = json('custom-metrics.summary-export.json');
  [e.metrics.items_read.count, e.metrics.items_read.rate] = [e.metrics.items_read.rate, e.metrics.items_read.count];
  const tiny = json('custom-metrics.summary-export.json');
  tiny.metrics.http_reqs.rate = 1e-320;
  refused(tiny, /^metric http_reqs: rate 1e-320\/s is not its count 42 over the run of [\d.]+ ms that \w+ \(count \d+ at [\d.]+\/s\) gives \([\d.]+\/s\);/);
  refused(e, /^metric items_read: rate 123\/s is not its count [\d.]+ over the run of [\d.]+ ms that \S+ \(count \d+ at [\d.]+\/s\) gives .*; k6 writes every Counter's rate over the one run, so the summary is corrupted or edited$/);
  // k6 counts requests, iterations and bytes in whole numbers, and a Rate's samples too
  const bytes = json('machine-readable.json');
  bytes.results.metrics.find((m) => m.name === 'data_received').values.count = 14.742;
  refused(bytes, /^metric data_received: count 14\.742 is not a whole number, which k6 counts of every data_received; the summary is corrupted$/);
  const rate = json('machine-readable.json');
  rate.results.checks.metrics.find((m) => m.name === 'checks_succeeded').values.total = 5e-324;
  refused(rate, /^metric checks_succeeded: total is 5e-324, not a whole number of samples as k6 counts them; the summary is corrupted$/);
  for (const f of ['latency.json', 'latency.summary-export.json', 'machine-readable.json']) assert.ok(k6.parse(text(f)).metrics.length, f);
});

test('a k6 summary holding a metric under a name k6 never gives one (a control character, a line separator, an RTL mark, none, 129 characters) is refused naming it', () => {
  for (const name of ['items\u0000read', 'items\u2028read', '\u202eitems_read', '', 'i'.repeat(129), 'items_read\ud800']) {
    const d = json('custom-metrics.json');
    d.metrics[name] = d.metrics.items_read;
    delete d.metrics.items_read;
    throwsParse(() => k6.parse(JSON.stringify(d)), /^metric "[^\u2028\u202e"]*("|\.\.\. \(131 characters\)) has a name k6 never gives a metric \(1 to 128 letters, digits, spaces and \._!\?\/&#\(\)<>%-\); the summary is corrupted or edited$/);
  }
  // the names k6 takes, capitals and submetric tags included, are read
  assert.ok(parse('mixed-case.json').metrics.some((m) => m.name === 'http_errors'));
  assert.ok(parse('two-scenarios.json').metrics.length);
});

describe('k6 adapter: a run that left no summary', () => {
  const stderrOf = (name) => ({ files: { stderr: new URL(`./fixtures/k6/${name}.stderr.txt`, import.meta.url).pathname } });

  test('a script k6 could not run is quoted with the exit code explained: its syntax error with the line, a threshold on a metric it never defines', () => {
    const syntax = k6.noOutput({ exitCode: 107, script: 'loadtests/k6/shop.js', ...stderrOf('broken-syntax') });
    assert.match(syntax, /^k6 stopped before its summary: the script threw \(a syntax error/);
    assert.match(syntax, /; k6 said: "Line 5:41 Unexpected token ;"\. Fix the script/, 'the script named once');
    assert.match(syntax, /Fix the script loadtests\/k6\/shop\.js \(it fails the same way under `k6 run`\)$/);
    const threshold = k6.noOutput({ exitCode: 104, ...stderrOf('bad-threshold') });
    assert.match(threshold, /^k6 stopped before its summary: its options are invalid/);
    assert.match(threshold, /k6 said: "invalid threshold defined on http_req_duraton; reason: no metric name \\"http_req_duraton\\" found"/);
  });

  test('options k6 refused are quoted with what it said is wrong, not only its heading, and the job params the script reads are named beside the script', () => {
    // test/fixtures/k6/plain-duration.cmd: a script that takes its duration from the job param duration, given 2 (no unit)
    const msg = k6.noOutput({ exitCode: 104, script: 'loadtests/hello.js', params: { duration: 2, trends: ['x'] }, ...stderrOf('plain-duration') });
    assert.match(msg, /k6 said: "There were problems with the specified script configuration: scenario default has configuration errors: the duration must be at least 1s, but is 2ms"\./);
    assert.match(msg, /Fix the script loadtests\/hello\.js or the job params it reads \(duration: 2; k6 reads a time without a unit as milliseconds\) \(`k6 run` with the same -e values fails the same way\)$/);
    // a stack trace under an exception is still left out
    assert.match(k6.noOutput({ exitCode: 107, ...stderrOf('catalog-bad-range') }), /swap them"\.$/);
  });

  test('options k6 cannot read because a job param made a number NaN name that param, not only the script', () => {
    // test/fixtures/k6/nan-rate.cmd: rate: Number(__ENV.RATE || 50) given the job param rate "fast" (exit 255)
    const msg = k6.noOutput({ exitCode: 255, script: 'loadtests/shop.js', params: { rate: 'fast', duration: '3s' }, ...stderrOf('nan-rate') });
    assert.match(msg, /k6 said: "error parsing script options: json: unsupported value: NaN"\./);
    assert.match(msg, /Fix the script loadtests\/shop\.js or the job params it reads \(rate: "fast", duration: "3s"; .*a value that is no number makes Number\(\) NaN\) \(`k6 run` with the same -e values fails the same way\)$/);
  });

  test('an import of a module k6 lacks is named as such, not as the custom binary k6 failed to fetch for it', () => {
    const msg = k6.noOutput({ exitCode: 107, ...stderrOf('wrong-import') });
    assert.match(msg, /the script imports "k6\/metric", which this k6 does not have: check the import path \(k6's own modules are .*k6\/metrics/);
    assert.doesNotMatch(msg, /provision|report a bug|building binary/);
  });

  test('a run that ended without writing the summary says how the script writes it, and one stopped with nothing logged still says what its exit code means', () => {
    assert.match(k6.noOutput({ exitCode: 0, script: 's.js' }), /^the script s\.js must export a handleSummary\(data\) that writes JSON\.stringify\(data\) to the file named by __ENV\.BENCHLINE_SUMMARY/);
    assert.match(k6.noOutput({ exitCode: 99 }), /BENCHLINE_SUMMARY/, 'crossed thresholds still owe a summary');
    assert.equal(k6.noOutput({ exitCode: 108, files: { stderr: '/nonexistent/k6.stderr' } }), 'k6 stopped before its summary: the script aborted the test (test.abort()).');
    // an exception in setup() (here the catalog script refusing an inverted date range) is quoted, not called a script to fix
    const setup = k6.noOutput({ exitCode: 107, ...stderrOf('catalog-bad-range') });
    assert.match(setup, /k6 said: "Error: DATE_START=2024-12-31T00:00:00 is after DATE_END=2024-01-01T00:00:00: the date range is inverted; swap them"\.$/);
  });
});

describe('k6 adapter: job params the script never reads', () => {
  const ROOT = new URL('..', import.meta.url).pathname;

  test('a job param that nearly spells a variable the script reads, and is not one itself, is refused with the one it reads', () => {
    const problem = k6.paramsProblem({}, { script: 'loadtests/k6/orders-fixed-rate.js', own: ['durtion', 'rate'], root: ROOT });
    assert.equal(problem, 'k6: param durtion reaches the script as __ENV.DURTION, which neither loadtests/k6/orders-fixed-rate.js nor what it imports reads (did you mean duration, read as DURATION?); if the script reads it in a way benchline cannot see, name it in the script as __ENV.DURTION');
    // read by the helpers it imports (lib/options.js), by the adapter itself, elsewhere as ${param.NAME}, or like nothing it reads
    assert.equal(k6.paramsProblem({}, { script: 'loadtests/k6/orders-fixed-rate.js', own: ['duration', 'maxVus', 'p95Ms', 'summary', 'contains', 'rates', 'scenarioLabel'], used: new Set(['rates']), root: ROOT }), undefined);
  });

  test('what a script reads is found in it and the files it imports by relative path, whichever way it reads them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-env-'));
    try {
      mkdirSync(join(dir, 'lib'));
      writeFileSync(join(dir, 'shop.js'), "import http from 'k6/http';\nimport { pages } from './lib/pages.js';\nconst size = Number(__ENV['ITEMS_PER_PAGE'] || 20);\nexport default function () { http.get(`${__ENV.BASE_URL}/items?n=${size}&p=${pages()}`); }\n");
      writeFileSync(join(dir, 'lib', 'pages.js'), "const read = (name, fallback) => (__ENV[name] === undefined ? fallback : __ENV[name]);\nexport const pages = () => Number(read('PAGE_COUNT', 3));\n");
      assert.deepEqual([...k6.envRead(join(dir, 'shop.js'))].sort(), ['BASE_URL', 'ITEMS_PER_PAGE', 'PAGE_COUNT']);
      assert.match(k6.paramsProblem({}, { script: 'shop.js', own: ['itemsPerPag'], root: dir }), /did you mean itemsPerPage, read as ITEMS_PER_PAGE\?/);
      assert.match(k6.paramsProblem({}, { script: 'shop.js', own: ['pageCont'], root: dir }), /did you mean pageCount, read as PAGE_COUNT\?/, 'read in the file it imports');
      assert.equal(k6.paramsProblem({}, { script: 'missing.js', own: ['itemsPerPag'], root: dir }), undefined, 'a script not there is the run\'s to report');
      writeFileSync(join(dir, 'short.js'), "const n = Number(__ENV.N || 1); const mode = 'GET';\nexport default function () {}\n");
      assert.equal(k6.paramsProblem({}, { script: 'short.js', own: ['m', 'get2', 'x'], root: dir }), undefined, 'names of three characters or fewer are too close to others to call typos');
      assert.equal(k6.paramsProblem({}, { script: '/dev/zero', own: ['rate'], root: dir }), undefined, 'a device is not read (it would never end)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a k6Scenario that names no scenario of the script is refused when the run is planned, with the scenarios it has', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-scenario-'));
    try {
      writeFileSync(join(dir, 'report.js'), "export const options = {\n  scenarios: {\n    report: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '2s', preAllocatedVUs: 5 },\n    'warm-up': { executor: 'shared-iterations', iterations: 10, stages: [{ target: 1 }] },\n  },\n  thresholds: { 'http_req_duration{scenario:report}': ['p(95)<200'] },\n};\nexport default function () {}\n");
      assert.equal(k6.paramsProblem({ k6Scenario: 'reprot' }, { script: 'report.js', own: ['k6Scenario'], root: dir }),
        'k6: k6Scenario is reprot, but report.js has no scenario of that name (its scenarios: report, warm-up); did you mean k6Scenario: report? '
        + '(a name the summary holds no metric of would measure the whole test, every scenario and setup())');
      assert.match(k6.paramsProblem({ k6Scenario: 'checkout' }, { script: 'report.js', own: ['k6Scenario'], root: dir }), /has no scenario of that name \(its scenarios: report, warm-up\) \(a name/);
      assert.equal(k6.paramsProblem({ k6Scenario: 'report' }, { script: 'report.js', own: ['k6Scenario'], root: dir }), undefined);
      assert.equal(k6.paramsProblem({ k6Scenario: 'warm-up' }, { script: 'report.js', own: ['k6Scenario'], root: dir }), undefined);
      // names the text computes (benchOptions(), [NAME]: {...}) are not known, so nothing is refused
      writeFileSync(join(dir, 'computed.js'), "const NAME = __ENV.SCENARIO || 'a';\nexport const options = { scenarios: { [NAME]: { executor: 'constant-vus', vus: 1, duration: '1s' } } };\nexport default function () {}\n");
      assert.equal(k6.paramsProblem({ k6Scenario: 'b' }, { script: 'computed.js', own: ['k6Scenario'], root: dir }), undefined);
      assert.equal(k6.paramsProblem({ k6Scenario: 'bench' }, { script: 'loadtests/k6/orders-fixed-rate.js', own: ['k6Scenario'], root: ROOT }), undefined, 'benchOptions() names its scenario bench');
      assert.equal(k6.paramsProblem({ k6Scenario: 'bench' }, { script: 'loadtests/k6/catalog-latency.js', own: ['k6Scenario'], root: ROOT }), undefined);
      assert.match(k6.paramsProblem({ k6Scenario: 'bnech' }, { script: 'loadtests/k6/catalog-latency.js', own: ['k6Scenario'], root: ROOT }), /did you mean k6Scenario: bench\?/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a k6Scenario whose scenario comes from a file the script imports, or by reference to an object made elsewhere, is not refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-scenario-'));
    try {
      writeFileSync(join(dir, 'main.js'), "import { extra } from './lib.js';\nimport { shared } from './shared.js';\nexport const options = {\n  scenarios: { main: { executor: 'constant-vus', vus: 1, duration: '1s' }, ...extra, remote: shared },\n};\nexport default function () {}\nexport function side() {}\n");
      writeFileSync(join(dir, 'lib.js'), "export const extra = { side: { executor: 'constant-vus', vus: 1, duration: '1s', exec: 'side' } };\n");
      writeFileSync(join(dir, 'shared.js'), "export const shared = { executor: 'shared-iterations', iterations: 10 };\n");
      const problem = (name) => k6.paramsProblem({ k6Scenario: name }, { script: 'main.js', own: ['k6Scenario'], root: dir });
      for (const name of ['main', 'side', 'remote']) assert.equal(problem(name), undefined, name);
      // a text that spreads its scenarios in does not tell them whole: no name is held to it
      assert.equal(problem('mian'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a k6Scenario is not refused where the script builds its scenarios in ways its text does not tell whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-scenario-'));
    const sc = "{ executor: 'constant-vus', vus: 1, duration: '1s' }";
    const scripts = {
      'spread.js': [`import { more } from './more.js';\nexport const options = { scenarios: { ...more, local: ${sc} } };\n`, 'imported'],
      'shared.js': [`const base = { defs: ${sc} };\nexport const options = { scenarios: { read: base.defs, write: { ...base.defs, vus: 2 } } };\n`, 'read'],
      'from-json.js': ["// was: scenarios: { old: { executor: 'constant-vus' } }\nexport const options = JSON.parse(open('./opts.json'));\n", 'fromjson'],
      'brace-in-string.js': [`export const options = { scenarios: { a: { tags: { t: '}' }, executor: 'constant-vus' }, b: ${sc} } };\n`, 'a'],
      'brace-in-comment.js': ["export const options = { scenarios: { a: { // }\n executor: 'constant-vus', vus: 1 } } };\n", 'a'],
      'executor-variable.js': [`const EX = __ENV.EXECUTOR || 'constant-vus';\nexport const options = { scenarios: { a: ${sc}, b: { executor: EX, vus: 1 } } };\n`, 'b'],
      'added-later.js': [`export const options = { scenarios: { a: ${sc} } };\nif (__ENV.EXTRA) options.scenarios.extra = ${sc};\n`, 'extra'],
    };
    try {
      for (const [file, [text, name]] of Object.entries(scripts)) {
        writeFileSync(join(dir, file), `${text}export default function () {}\n`);
        assert.equal(k6.paramsProblem({ k6Scenario: name }, { script: file, own: ['k6Scenario'], root: dir }), undefined, file);
      }
      // what the text does tell whole is still checked: quoted names, comments, strings and a regex with braces
      writeFileSync(join(dir, 'told.js'), `const R = /\\}/;\nexport const options = {\n  // old: { executor: 'ramping-vus' },\n  scenarios: { 'api.v2': { executor: 'constant-vus', check: /{/, env: { U: \`\${R}{\` } }, plain: ${sc} },\n};\nexport default function () {}\n`);
      assert.equal(k6.paramsProblem({ k6Scenario: 'api.v2' }, { script: 'told.js', own: ['k6Scenario'], root: dir }), undefined);
      assert.match(k6.paramsProblem({ k6Scenario: 'old' }, { script: 'told.js', own: ['k6Scenario'], root: dir }), /told\.js has no scenario of that name \(its scenarios: api\.v2, plain\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a script that imports the same file many times is read in a moment, each file it imports read once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-env-'));
    try {
      // 100,000 imports of ./lib.js on one line (each was queued and looked up again: minutes of CPU)
      writeFileSync(join(dir, 'lib.js'), 'export const n = __ENV.PAGES;\n');
      writeFileSync(join(dir, 'many.js'), `${"import './lib.js'; ".repeat(100000)}\nexport default function () { __ENV.RATE; }\n`);
      const started = Date.now();
      assert.deepEqual([...k6.envRead(join(dir, 'many.js'))].sort(), ['PAGES', 'RATE']);
      assert.ok(Date.now() - started < 3000, `read in ${Date.now() - started} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a script of one long line of many `const a =` or `const {` is read in a moment, its reads through __ENV still found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-env-'));
    try {
      // 640 KB; each pattern once looked to the end of the line for __ENV at every `const`, over 20 s of CPU in all
      writeFileSync(join(dir, 'long.js'), `const { RATE } = __ENV;\nconst env = __ENV; const v = env.VUS;\n${'const a = '.repeat(40000)}\n${'const {'.repeat(40000)}\n`);
      const started = Date.now();
      assert.deepEqual([...k6.envRead(join(dir, 'long.js'))].sort(), ['RATE', 'VUS']);
      assert.ok(Date.now() - started < 3000, `read in ${Date.now() - started} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a custom metric the script makes under a name of k6\'s built-in metrics (an error Counter named errors) is refused when the run is planned, not in the first trial that counts an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-names-'));
    try {
      mkdirSync(join(dir, 'lib'));
      writeFileSync(join(dir, 'shop.js'), "import http from 'k6/http';\nimport { Counter, Trend } from 'k6/metrics';\nimport './lib/timing.js';\nconst errors = new Counter('errors');\nconst items = new Counter(\"items_read\");\nexport default function () { const r = http.get(`${__ENV.BASE_URL}/`); if (r.status !== 200) errors.add(1); items.add(1); }\n");
      writeFileSync(join(dir, 'lib', 'timing.js'), "import { Trend } from 'k6/metrics';\nexport const lat = new Trend(`bl_latency`, true);\nexport const page = new Trend('page_ms', true);\n");
      assert.equal(k6.scriptProblem({ script: 'shop.js', root: dir }), 'k6: shop.js makes custom metrics Counter(\'errors\') (as "errors"), Trend(\'bl_latency\') (as "latency.mean") under names benchline keeps k6\'s built-in metrics as; rename them in the script, e.g. app_errors (a bl_ prefix is dropped, so bl_errors would take the same name)');
      writeFileSync(join(dir, 'fine.js'), "import { Counter, Rate, Gauge, Trend } from 'k6/metrics';\nnew Counter('app_errors'); new Rate('errors_seen'); new Gauge('requests_open'); new Trend('errors');\nexport default function () {}\n");
      assert.equal(k6.scriptProblem({ script: 'fine.js', root: dir }), undefined, 'names of their own, and a Trend named errors (kept as errors.mean ...)');
      assert.equal(k6.scriptProblem({ script: 'missing.js', root: dir }), undefined, 'a script not there is the run\'s to report');
      // the name parse refuses when the metric is in a summary is the one refused here
      const summary = json('custom-metrics.json');
      summary.metrics.errors = { type: 'counter', contains: 'default', values: { count: 1, rate: 1000 / summary.state.testRunDurationMs } };
      summary.metrics.errors.thresholds = undefined;
      assert.throws(() => k6.parse(JSON.stringify(summary)), /k6 metrics? errors \(as "errors"\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('a Trend without any of its statistics is refused naming the metric, built-in or the script\'s own, instead of making an empty percentile curve', () => {
  for (const name of ['grpc_req_duration{scenario:bench}', 'bl_latency_random']) {
    for (const values of [{ count: 1000 }, {}]) {
      const d = json('catalog-grpc-latency.json');
      d.metrics[name].values = values;
      assert.throws(() => k6.parse(JSON.stringify(d)), (e) => e instanceof ParseError && e.hint === k6.produce
        && e.message === `metric ${name}: a Trend without any of its statistics (avg, min, med, max, p(N)), which k6 writes for every Trend, even one with no samples; the summary is corrupted or edited`, `${name} ${JSON.stringify(values)}`);
    }
  }
  // a Trend without samples, as k6 writes it (zeros), is still read
  assert.ok(parse('zero.json').metrics.length);
});

test('a full summary\'s metric of a type k6 never writes is refused by name, and a Trend with its mean alone keeps the mean without a percentile curve', () => {
  for (const type of [undefined, 'Trend', 'histogram']) {
    const d = json('abort-on-fail.json');
    d.metrics.http_req_duration.type = type;
    if (type === undefined) delete d.metrics.http_req_duration.type;
    assert.throws(() => k6.parse(JSON.stringify(d)), (e) => e instanceof ParseError
      && e.message === `metric http_req_duration has type ${type === undefined ? 'missing' : JSON.stringify(type)}, not one k6 writes (trend, counter, rate, gauge); the summary is corrupted or edited`, String(type));
  }
  // a summary of summaryTrendStats ['avg'] (k6 run by hand): the mean is kept, no curve of no points is made
  const d = json('custom-metrics.json');
  d.metrics.json_parse_ms.values = { avg: d.metrics.json_parse_ms.values.avg };
  const r = k6.parse(JSON.stringify(d));
  assert.ok(r.metrics.some((m) => m.name === 'json_parse_ms.mean'));
  assert.equal((r.distributions || []).some((x) => x.name === 'json_parse_ms'), false);
  for (const x of r.distributions || []) assert.ok(x.percentiles.length, x.name);
});

test('a percentile of a script\'s own Trend that a trial\'s few samples leave at its slowest one (a p95 of 20) is shown and never judged, as latency\'s is, while its median is', () => {
  // registered-trend: one VU, 20 iterations, Trend time of each request's duration: 20 samples a trial
  const base = Array.from({ length: 8 }, () => parse('registered-trend.json'));
  const slower = (t) => ({ ...t, metrics: t.metrics.map((m) => (m.name.startsWith('time.') ? { ...m, value: m.value * 1.5 } : m)) });
  const head = base.map(slower);
  const judge = ['time.*'];
  const docs = [base, head].map((trials) => ({ ...doc(trials, 'registered-trend'), judge }));
  const by = Object.fromEntries(compare([docs[0]], [docs[1]], { confidence: 0.95, alpha: 0.05, minEffect: 0.02 }).comparisons.map((c) => [c.metric, c]));
  for (const name of ['time.p95', 'time.p99', 'time.p99.9']) {
    assert.equal(by[name].verdict, null, name);
    assert.match(by[name].reason, /^the slowest sample of a trial of 20 samples \(a p9[\d.]+ of \d+ or fewer has none above it\), which one pause or outlier sets: shown, never judged/, name);
  }
  for (const name of ['time.p50', 'time.p90', 'time.mean']) assert.equal(by[name].verdict, 'regression', name);
  // nor do the rounds wait for them
  const open = undecided(base.map((t) => ({ ...t, load: [] })), head.map((t) => ({ ...t, load: [] })), { tool: 'k6', judge: ['time.p99'], sequential: { looks: [8], weights: [1] }, cfg: {} });
  assert.deepEqual(open, []);
});

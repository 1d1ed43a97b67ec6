// What every metric of every tool means for a verdict, read from real tool outputs (test/fixtures/<tool>): which way is better, and which are never judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ADAPTERS } from '../ci/adapters/index.js';
import { PER_MEASUREMENT_TIME, RESTATED, isExtreme, isJudged } from '../ci/compare.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const OUTPUT = { ab: /\.txt$/, wrk: /\.txt$/, ghz: /\.json$/, hyperfine: /\.json$/, jmh: /\.json$/, k6: /^(?!.*summary-export).*\.json$/, 'grpc-client': /\.json$/ };

/** Every metric the adapter reads from its tool's captured outputs (outputs it refuses are left out), by name. */
function metricsOf(tool) {
  const dir = new URL(`${tool}/`, FIXTURES);
  const out = new Map();
  for (const file of readdirSync(dir).filter((f) => OUTPUT[tool].test(f))) {
    let parsed;
    try {
      parsed = ADAPTERS[tool].parse(readFileSync(new URL(file, dir), 'utf8'), {});
    } catch {
      continue;
    }
    // the first output that has a metric stands for it; one that marks it (set by the load, a guessed direction) marks it
    for (const m of parsed.metrics) {
      const seen = out.get(m.name);
      out.set(m.name, seen ? { ...seen, setBy: seen.setBy ?? m.setBy, guessed: seen.guessed ?? m.guessed } : { ...m, file });
    }
  }
  return out;
}

const ALL = Object.fromEntries(Object.keys(OUTPUT).map((tool) => [tool, metricsOf(tool)]));

test('every tool\'s captured outputs give metrics: the fixtures this file reads are there', () => {
  for (const [tool, metrics] of Object.entries(ALL)) assert.ok(metrics.size >= 4, `${tool}: ${metrics.size} metrics`);
});

test('times are lower-is-better and rates of work higher-is-better in every tool, failures lower and passing checks higher', () => {
  const expect = (name) => {
    if (/^(latency|time|connect|processing|waiting|ttfb)\./.test(name) || /_time(\.|$)|_ms\./.test(name)) return 'lower';
    if (['throughput', 'transfer_rate', 'checks_pass_rate'].includes(name)) return 'higher';
    if (['errors', 'error_rate', 'parse_errors', 'alloc_per_op', 'gc_time', 'duration', 'time_per_request'].includes(name)) return 'lower';
    return undefined;
  };
  for (const [tool, metrics] of Object.entries(ALL)) {
    for (const [name, m] of metrics) {
      const want = expect(name);
      if (want) assert.equal(m.better, want, `${tool} ${name} (${m.file}) is ${m.better}-is-better`);
    }
  }
});

test('no tool\'s default judge list names a metric that is never judged, and each default names a metric its tool reports', () => {
  for (const [tool, metrics] of Object.entries(ALL)) {
    for (const name of ADAPTERS[tool].judged) {
      assert.ok(!RESTATED.includes(name) && !isExtreme(name) && !PER_MEASUREMENT_TIME.includes(name), `${tool} judges ${name} by default`);
      assert.ok(metrics.has(name), `${tool} judges ${name} by default, which none of its captured outputs has`);
    }
  }
});

test('what no job judges, whatever its judge list: restated run parameters, a trial\'s extremes, JMH\'s GC per measurement time, a value the load set, a direction only guessed', () => {
  const never = [];
  for (const [tool, metrics] of Object.entries(ALL)) {
    for (const [name, m] of metrics) {
      if (!isJudged({ tool, judge: ['*'] }, name) || m.setBy || m.guessed) never.push(`${tool} ${name}`);
    }
  }
  const listed = (tool, re) => never.filter((n) => n.startsWith(`${tool} `) && re.test(n.slice(tool.length + 1)));
  assert.deepEqual(listed('wrk', /./), ['wrk requests', 'wrk duration', 'wrk bytes_received', 'wrk latency.min', 'wrk latency.max']);
  assert.deepEqual(listed('ghz', /./), ['ghz requests', 'ghz throughput', 'ghz duration', 'ghz latency.min', 'ghz latency.max'], 'ghz throughput: latency.json was paced at --rps=200');
  assert.deepEqual(listed('jmh', /^(alloc|gc)/), ['jmh alloc_rate', 'jmh gc_count', 'jmh gc_time'], 'alloc_per_op stays judgeable');
  assert.deepEqual(listed('hyperfine', /./), ['hyperfine time.min', 'hyperfine time.max']);
  assert.ok(listed('k6', /./).includes('k6 iterations'), 'k6: restated iterations');
  // a script's own Counter of retried requests reads higher-is-better by the rule for Counters: never judged without better
  for (const name of ['http_req_retries', 'items_read', 'items_per_page.p50']) assert.ok(listed('k6', /./).includes(`k6 ${name}`), name);
  assert.ok(!listed('k6', /./).includes('k6 http_errors_total'), 'a failure by its name is lower-is-better, and judgeable');
});

test('k6: the throughput of an arrival-rate scenario measured alone is the rate its script sets, and that of a closed-model scenario beside it is not', () => {
  const read = (file, opts) => Object.fromEntries(ADAPTERS.k6.parse(readFileSync(new URL(`k6/${file}`, FIXTURES), 'utf8'), opts).metrics.map((m) => [m.name, m.value]));
  // both captured with RATE=20 for 2 s: scenario bench of two-scenarios (its thresholds name it), buy of scenario-thresholds
  for (const [file, opts] of [['two-scenarios.json', {}], ['scenario-thresholds.json', { k6Scenario: 'buy' }]]) {
    const { throughput } = read(file, opts);
    assert.ok(Math.abs(throughput - 20) < 0.5, `${file} ${JSON.stringify(opts)}: ${throughput}/s`);
  }
  // two constant VUs of scenario browse make as many requests as nginx answers
  assert.ok(read('scenario-thresholds.json', { k6Scenario: 'browse' }).throughput > 100);
});

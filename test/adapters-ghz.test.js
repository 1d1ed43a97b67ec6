// Tests of the ghz adapter against -O json reports captured from ghz v0.93.0 and test/support/grpc-server (test/fixtures/ghz).
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ghz from '../ci/adapters/ghz.js';
import { ParseError } from '../ci/adapters/errors.js';
import { buildResult } from '../ci/result.js';

const text = (name) => readFileSync(new URL(`./fixtures/ghz/${name}`, import.meta.url), 'utf8');
const json = (name) => JSON.parse(text(name));
const parse = (name) => ghz.parse(text(name));
const values = (r) => Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));
const byName = (r, n) => r.metrics.find((m) => m.name === n);

const RUN = { id: 'fixture-run', startedAt: '2026-11-22T03:26:08.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'fixture', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'fixture', memoryBytes: 0, labels: [] };
const doc = (trials, scenario) => buildResult({
  run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'grpc-server', variant: 'default', scenario,
  tool: { name: 'ghz', version: '0.93.0' }, params: {}, trials,
}, `ghz ${scenario}`);

function throwsParse(fn, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ParseError, `expected ParseError, got ${e.name}: ${e.message}`);
    assert.match(e.message, re);
    assert.equal(e.hint, ghz.produce);
    return true;
  });
}

describe('ghz adapter: reports', () => {
  test('reads 1000 calls into requests, throughput, duration and latency percentiles in ns', () => {
    const r = parse('many.json');
    assert.deepEqual(values(r), {
      requests: 1000,
      throughput: 4239.500723835396,
      errors: 0,
      duration: 235876832,
      error_rate: 0,
      'latency.mean': 2143451,
      'latency.min': 368851,
      'latency.max': 8758410,
      'latency.p10': 937268,
      'latency.p25': 1273498,
      'latency.p50': 1882041,
      'latency.p75': 2664428,
      'latency.p90': 3673170,
      'latency.p95': 4395695,
      'latency.p99': 5980639,
    });
    assert.deepEqual(r.notes, []);
  });

  test('gives the latency distribution fastest as p0 and slowest as p100', () => {
    assert.deepEqual(parse('many.json').distributions, [{
      name: 'latency',
      unit: 'ns',
      count: 1000,
      percentiles: [
        { p: 0, value: 368851 }, { p: 10, value: 937268 }, { p: 25, value: 1273498 }, { p: 50, value: 1882041 },
        { p: 75, value: 2664428 }, { p: 90, value: 3673170 }, { p: 95, value: 4395695 }, { p: 99, value: 5980639 },
        { p: 100, value: 8758410 },
      ],
    }]);
  });

  test('one call: every latency metric is that call', () => {
    const r = parse('one.json');
    assert.equal(byName(r, 'requests').value, 1);
    const latency = r.metrics.filter((m) => m.name.startsWith('latency.'));
    assert.equal(latency.length, 10);
    for (const m of latency) assert.equal(m.value, 3083284, m.name);
    assert.equal(byName(r, 'throughput').value, 311.55452936417015);
  });

  test('a run where every call failed is valid data: error_rate 1 and no latency', () => {
    const raw = json('failed.json');
    assert.deepEqual([raw.fastest, raw.slowest, raw.latencyDistribution, raw.histogram], [0, 0, null, null]);
    const r = parse('failed.json');
    assert.deepEqual(values(r), { requests: 200, throughput: 4318.837393159251, errors: 200, duration: 46308759, error_rate: 1 });
    assert.equal(r.distributions, undefined);
    assert.deepEqual(r.notes, [
      'no call succeeded (200 NotFound); latency metrics are left out',
      'ghz errors: 200 calls failed; most common: 200 x "rpc error: code = NotFound desc = unknown service"',
    ]);
  });

  test('with some calls failed, latency.mean covers the successful calls like the percentiles do', () => {
    const raw = json('partial.json');
    assert.deepEqual(raw.statusCodeDistribution, { NotFound: 100, OK: 100 });
    assert.equal(raw.average, 1055652);
    const r = parse('partial.json');
    assert.equal(byName(r, 'latency.mean').value, 1077248.32);
    assert.equal(byName(r, 'errors').value, 100);
    assert.equal(byName(r, 'error_rate').value, 0.5);
    assert.equal(r.distributions[0].count, 100);
    assert.equal(byName(r, 'latency.p50').value, 781176);
  });

  test('a rate-limited run reports the rate it kept and its latency', () => {
    const r = parse('latency.json');
    assert.equal(byName(r, 'requests').value, 401);
    assert.equal(byName(r, 'throughput').value, 199.16332045344137);
    assert.equal(byName(r, 'duration').value, 2013422949);
    assert.equal(byName(r, 'latency.p99').value, 7814880);
  });

  test('the throughput of a run paced at --rps is marked as set by the load, so it is never judged; an unlimited run\'s is not', () => {
    assert.equal(byName(parse('latency.json'), 'throughput').setBy, 'ghz paced its calls at --rps=200');
    assert.equal(byName(parse('throughput.json'), 'throughput').setBy, undefined);
    assert.equal(byName(parse('latency.json'), 'latency.p99').setBy, undefined, 'its latency is the subject\'s');
    const paced = doc([parse('latency.json'), parse('latency.json'), parse('latency.json')], 'paced');
    assert.equal(paced.metrics.find((m) => m.name === 'throughput').setBy, 'ghz paced its calls at --rps=200', 'kept in the result document');
    const step = JSON.stringify({ ...json('latency.json'), options: { ...json('latency.json').options, rps: 0, 'load-schedule': 'step' } });
    assert.equal(byName(ghz.parse(step), 'throughput').setBy, 'ghz paced its calls by --load-schedule=step');
  });

  test('a run that made far less than its --rps did not hold the rate: its throughput is the subject\'s, judged, and a note says so', () => {
    const r = parse('rate-not-held.json'); // --rps=100000 at --concurrency=1: ghz made 3,366 calls/s
    assert.equal(byName(r, 'throughput').value, 3366.1854859359055);
    assert.equal(byName(r, 'throughput').setBy, undefined);
    assert.ok(r.notes.includes('ghz was asked for --rps=100000 and made 3366/s: the subject (at --concurrency=1) set the rate, so its throughput is the subject\'s'), r.notes.join('; '));
    assert.ok(!parse('latency.json').notes.some((n) => n.includes('was asked for')), 'a run that held its 200/s (199.2) has no such note');
  });

  test('an unlimited run over two connections reports its peak throughput', () => {
    const r = parse('throughput.json');
    assert.equal(byName(r, 'requests').value, 2000);
    assert.equal(byName(r, 'throughput').value, 8545.51425063202);
    assert.equal(byName(r, 'latency.mean').value, 1729115);
  });

  test('bojand/ghz#370: calls ghz closed at the end of -z are not counted as errors', () => {
    const raw = json('duration-cutoff.json');
    assert.equal(raw.endReason, 'timeout');
    assert.equal(raw.count, 727);
    assert.deepEqual(raw.errorDistribution, { 'rpc error: code = Canceled desc = grpc: the client connection is closing': 1 });
    const r = parse('duration-cutoff.json');
    assert.equal(byName(r, 'requests').value, 726);
    assert.equal(byName(r, 'errors').value, 0);
    assert.equal(byName(r, 'error_rate').value, 0);
    assert.equal(byName(r, 'throughput').value, 726 / (102054460 / 1e9));
    assert.equal(byName(r, 'latency.mean').value, 1006408.599);
    assert.deepEqual(r.notes, ['ghz closed 1 in-flight call when its duration ended; not counted (bojand/ghz#370; use --duration-stop=wait)']);
  });

  test('closing errors long before the end of -z still count as errors', () => {
    const data = json('duration-cutoff.json');
    const cut = data.details.find((d) => d.error);
    cut.timestamp = data.details[0].timestamp;
    const r = ghz.parse(JSON.stringify(data));
    assert.equal(byName(r, 'errors').value, 1);
    assert.equal(byName(r, 'requests').value, 727);
  });

  test('every metric has the registry unit and direction', () => {
    const r = parse('many.json');
    assert.deepEqual(r.metrics.slice(0, 6).map((m) => `${m.name} ${m.unit} ${m.better}`), [
      'requests count higher', 'throughput ops/s higher', 'errors count lower', 'duration ns lower',
      'error_rate ratio lower', 'latency.mean ns lower',
    ]);
  });
});

describe('ghz adapter: bad input', () => {
  test('the empty output of a run against a closed port is a ParseError that names the cause', () => {
    assert.equal(text('zero.json'), '');
    assert.match(text('zero.stderr'), /connect: connection refused/);
    throwsParse(() => parse('zero.json'), /the file is empty; ghz writes no report when it cannot reach the target \(connection refused/);
  });

  test('a truncated report is a ParseError that says so', () => {
    const full = text('many.json');
    throwsParse(() => ghz.parse(full.slice(0, 700)), /not valid JSON .*may be truncated/);
  });

  test('a k6 summary and other tools\' text are refused as foreign', () => {
    const k6 = readFileSync(new URL('./fixtures/k6/one.json', import.meta.url), 'utf8');
    throwsParse(() => ghz.parse(k6), /this is a k6 summary, not ghz output/);
    const ab = readFileSync(new URL('./fixtures/ab/one.txt', import.meta.url), 'utf8');
    throwsParse(() => ghz.parse(ab), /not valid JSON/);
    throwsParse(() => ghz.parse('{"name":"x"}'), /none of ghz's report fields \(count, total, rps, \.\.\.\) are present/);
  });

  test("ghz's text summary and CSV are refused with a pointer to -O json", () => {
    throwsParse(() => parse('text-summary.txt'), /this is ghz's text summary; run ghz with -O json/);
    throwsParse(() => parse('text-csv.csv'), /this is ghz's CSV output; run ghz with -O json/);
  });

  test('a report missing fields names them', () => {
    const data = json('many.json');
    delete data.rps;
    delete data.slowest;
    throwsParse(() => ghz.parse(JSON.stringify(data)), /ghz report fields slowest, rps missing or not numbers; the file may be truncated/);
    const noDist = json('many.json');
    delete noDist.errorDistribution;
    throwsParse(() => ghz.parse(JSON.stringify(noDist)), /lacks statusCodeDistribution or errorDistribution/);
  });

  test('impossible counts and malformed distributions are refused', () => {
    const data = json('failed.json');
    data.errorDistribution['rpc error: code = NotFound desc = unknown service'] = 201;
    throwsParse(() => ghz.parse(JSON.stringify(data)), /errorDistribution counts 201 errors, more than the 200 calls/);
    const bad = json('many.json');
    bad.latencyDistribution[2].latency = '1ms';
    throwsParse(() => ghz.parse(JSON.stringify(bad)), /latencyDistribution\[2\] needs numeric percentage and latency/);
    const hist = json('many.json');
    hist.histogram = { mark: 1 };
    throwsParse(() => ghz.parse(JSON.stringify(hist)), /histogram is not a list of \{mark, count\} buckets/);
  });
});

describe('ghz adapter: runs that stop before a report', () => {
  // ghz exits 1, creates no --output file and prints one line on stderr; the job's reason must carry it
  test('a closed port, an unknown method and a missing proto file each say what ghz said and what to fix', () => {
    assert.equal(ghz.failedRun({ exitCode: 1, stderr: text('zero.stderr'), params: { call: 'grpc.health.v1.Health/Check' } }),
      'ghz could not reach the target: "rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:43485: connect: connection refused\\""; start the subject and check its target.grpc (subject.yaml)');
    assert.equal(ghz.failedRun({ exitCode: 1, stderr: text('no-method.stderr'), params: { call: 'grpc.health.v1.Health/Chek' } }),
      'ghz found no method "grpc.health.v1.Health/Chek": "Symbol not found: grpc.health.v1.Health.Chek"; params.call is package.Service/Method as the server\'s reflection names it');
    assert.match(ghz.failedRun({ exitCode: 1, stderr: text('no-proto.stderr'), params: { call: 'grpc.health.v1.Health/Check', proto: 'test/fixtures/ghz/no-such.proto' } }),
      /^ghz could not open a file: "open \S*test\/fixtures\/ghz\/no-such\.proto: no such file or directory"; params\.proto, protoset and importPaths are paths from the repository root$/);
  });

  test('an unknown method of a proto file and a missing protoset file say which param to fix too', () => {
    // before: "ghz stopped before writing its report: ..." with no word on params.call or the protoset path
    assert.equal(ghz.failedRun({ exitCode: 1, stderr: text('no-method-proto.stderr'), params: { call: 'benchline.streaming.StreamBench/Sned', proto: 'subjects/grpc-streaming/src/main/proto/stream_bench.proto' } }),
      'ghz found no method "benchline.streaming.StreamBench/Sned": "service \\"benchline.streaming.StreamBench\\" does not include a method named \\"Sned\\""; params.call is package.Service/Method as the proto file names it');
    assert.match(ghz.failedRun({ exitCode: 1, stderr: text('no-protoset.stderr'), params: { call: 'grpc.health.v1.Health/Check', protoset: 'test/fixtures/ghz/no-such.protoset' } }),
      /^ghz could not open a file: "could not load protoset file .*no-such\.protoset: no such file or directory"; params\.proto, protoset and importPaths are paths from the repository root$/);
  });

  test('a run that ended normally, or failed without a word, is left to the report', () => {
    assert.equal(ghz.failedRun({ exitCode: 0, stderr: '', params: {} }), undefined);
    assert.equal(ghz.failedRun({ exitCode: 1, stderr: '\n', params: {} }), undefined);
  });
});

describe('ghz adapter: result documents', () => {
  for (const c of ['one', 'many', 'failed', 'partial', 'latency', 'throughput', 'duration-cutoff']) {
    test(`buildResult accepts the ${c} report`, () => {
      const d = doc([parse(`${c}.json`)], c);
      assert.equal(d.tool.name, 'ghz');
      assert.equal(d.metrics.find((m) => m.name === 'requests').value, byName(parse(`${c}.json`), 'requests').value);
    });
  }

  test('buildResult keeps only the metrics every trial has when one trial failed completely', () => {
    const d = doc([parse('many.json'), parse('failed.json')], 'mixed');
    assert.deepEqual(d.metrics.map((m) => m.name), ['requests', 'throughput', 'errors', 'duration', 'error_rate']);
    assert.deepEqual(d.metrics.find((m) => m.name === 'error_rate').samples, [0, 1]);
    assert.ok(d.notes.includes('metric latency.p99 is missing from some trials and was left out'));
  });
});

describe('ghz adapter: command', () => {
  const base = { bin: '/opt/ghz', outFile: '/tmp/r/ghz-1.json', root: '/repo', target: { grpc: '127.0.0.1:50051' } };

  test('runs a bounded number of calls through reflection with JSON output to the file', () => {
    const params = { call: 'grpc.health.v1.Health/Check', total: 1000, concurrency: 10, connections: 2, data: '{"service":""}' };
    assert.deepEqual(ghz.command({ ...base, params }), {
      output: 'file',
      argv: ['/opt/ghz', '--insecure', '--call', 'grpc.health.v1.Health/Check', '--data', '{"service":""}',
        '--total=1000', '--concurrency=10', '--connections=2', '--format', 'json', '--output', '/tmp/r/ghz-1.json', '127.0.0.1:50051'],
    });
  });

  test('a timed run waits for calls in flight instead of counting them as errors', () => {
    const { argv } = ghz.command({ ...base, params: { call: 'a.B/C', duration: '10s', rps: 200 } });
    assert.deepEqual(argv.slice(4, -5), ['--duration=10s', '--rps=200', '--duration-stop=wait']);
  });

  test('a run bounded by maxDuration (-x) also waits for calls in flight: ghz cuts them off at -x as at -z', () => {
    // ghz v0.93.0, -x 1s -n 10000000 -c 8 against a grpcio health server: 6-8 "transport is closing" errors a run
    // with the default --duration-stop, none in 4 runs with --duration-stop=wait
    const { argv } = ghz.command({ ...base, params: { call: 'a.B/C', total: 100000, maxDuration: '2s', loadSchedule: 'step' } });
    assert.deepEqual(argv.slice(4, -5), ['--total=100000', '--max-duration=2s', '--load-schedule=step', '--duration-stop=wait']);
  });

  test('resolves proto files against the checkout and takes the target from host and port', () => {
    const { argv } = ghz.command({ ...base, target: { host: '127.0.0.1', port: 9090 }, script: '/repo/loadtests/ghz/orders.json', params: { call: 'orders.Orders/List', proto: 'subjects/api/orders.proto', importPaths: 'subjects/api,/usr/include', data: { page: 1 } } });
    assert.deepEqual(argv, ['/opt/ghz', '--config', '/repo/loadtests/ghz/orders.json', '--insecure', '--call', 'orders.Orders/List',
      '--proto', '/repo/subjects/api/orders.proto', '--import-paths', '/repo/subjects/api,/usr/include', '--data', '{"page":1}',
      '--format', 'json', '--output', '/tmp/r/ghz-1.json', '127.0.0.1:9090']);
  });

  test('refuses jobs without a method, without a gRPC target, or with data that is not JSON', () => {
    assert.throws(() => ghz.command({ ...base, params: {} }), /ghz jobs need params\.call/);
    assert.throws(() => ghz.command({ ...base, target: { url: 'http://127.0.0.1' }, params: { call: 'a.B/C' } }), /ghz needs a gRPC target/);
    assert.throws(() => ghz.command({ ...base, params: { call: 'a.B/C', data: '{service:}' } }), /ghz param data must be JSON text/);
  });
});

test('a latencyDistribution percentage ghz never prints (1e-7, 0, negative, above 100) is refused naming the field, not turned into a metric name the schema rejects', () => {
  for (const bad of [0.0000001, 0, -5, 150]) {
    const d = json('many.json');
    d.latencyDistribution[2].percentage = bad;
    assert.throws(() => ghz.parse(JSON.stringify(d)), (e) => e instanceof ParseError && e.hint === ghz.produce
      && e.message === `latencyDistribution[2].percentage ${JSON.stringify(bad)} is not a rank ghz prints (a number above 0 and at most 100, such as 99.9); the file is corrupted or edited`, String(bad));
  }
});

test('ghz counts reach ghz in plain digits: an exponent form, a fraction or a value above INT_MAX is refused naming the param', () => {
  const argv = (params) => ghz.command({ bin: 'ghz', outFile: '/tmp/o.json', target: { grpc: '127.0.0.1:1' }, params: { call: 'a.B/C', ...params } }).argv;
  assert.throws(() => argv({ total: 1e21 }), { message: 'ghz: param total must be a whole number from 0 to 2147483647 in plain digits, got 1e+21 (2147483647 is the most ghz takes)' });
  assert.throws(() => argv({ concurrency: 2.5 }), /ghz: param concurrency must be a whole number from 1 to 2147483647/);
  assert.ok(argv({ total: '100', rps: 0 }).includes('--total=100'));
  assert.ok(argv({ duration: '10s' }).includes('--duration=10s'), 'a duration is passed as it is');
});

test('a proto, protoset or import path that is not there is refused when the run is planned, with the file it nearly spells', () => {
  const root = new URL('..', import.meta.url).pathname;
  const proto = 'subjects/grpc-streaming/src/main/proto/stream_bench.proto';
  assert.equal(ghz.filesProblem({ call: 'x.Y/Z', proto }, { root }), undefined);
  assert.equal(ghz.filesProblem({ call: 'x.Y/Z', proto: proto.replace('stream_bench', 'stream_bnech') }, { root }),
    `ghz: params.proto ${proto.replace('stream_bench', 'stream_bnech')} does not exist (paths are from the project root, ${root.replace(/\/$/, '')}); did you mean ${proto}?`);
  assert.match(ghz.filesProblem({ call: 'x.Y/Z', protoset: 'subjects' }, { root }), /^ghz: params\.protoset subjects is not a file/);
  assert.match(ghz.filesProblem({ call: 'x.Y/Z', proto, importPaths: 'subjects, no/such/dir' }, { root }), /^ghz: params\.importPaths no\/such\/dir does not exist/);
  assert.equal(ghz.filesProblem({ call: 'x.Y/Z', proto: '${dir}/a.proto' }, { root }), undefined, 'a placeholder is left to the run');
});

test('a call naming a method the proto file\'s service does not have is refused when planned, with the method it nearly spells', () => {
  const root = new URL('..', import.meta.url).pathname;
  const proto = 'subjects/grpc-streaming/src/main/proto/stream_bench.proto';
  const text = readFileSync(`${root}${proto}`, 'utf8');
  const pkg = /^package\s+([\w.]+);/m.exec(text)[1];
  const service = /^service\s+(\w+)/m.exec(text)[1]; // the file's comment says "service both": not a declaration
  const method = /^\s*rpc\s+(\w+)/m.exec(text)[1];
  assert.equal(ghz.filesProblem({ call: `${pkg}.${service}/${method}`, proto }, { root }), undefined);
  assert.equal(ghz.filesProblem({ call: `${pkg}.${service}.${method}`, proto }, { root }), undefined, 'ghz also takes package.Service.Method');
  const typo = `${method.slice(0, -1)}x${method.slice(-1)}`;
  assert.equal(ghz.filesProblem({ call: `${pkg}.${service}/${typo}`, proto }, { root }),
    `ghz: params.call ${pkg}.${service}/${typo}: service ${pkg}.${service} in ${proto} has no method ${typo}; did you mean ${pkg}.${service}/${method}?`);
  assert.equal(ghz.filesProblem({ call: 'other.Service/Method', proto }, { root }), undefined, 'a service the file does not declare may come from an import: left to ghz');
});

test('a successful call in details whose latency is not a number of ns is refused naming it, not left out of the mean of the calls that succeeded', () => {
  const report = json('partial.json');
  const at = report.details.findIndex((d) => !d.error);
  assert.ok(report.errorDistribution && at >= 0);
  for (const latency of ['abc', null, true, {}, -1, 1e308]) {
    const d = structuredClone(report);
    d.details[at].latency = latency;
    assert.throws(() => ghz.parse(JSON.stringify(d)), { name: 'ParseError', message: new RegExp(`^details\\[${at}\\] is .*, not a call with a latency in ns from 0 to 1000000000000000 \\(the mean of the calls that succeeded is taken from details\\); the file is corrupted or edited$`) }, JSON.stringify(latency));
  }
  const gone = structuredClone(report);
  delete gone.details[at].latency;
  assert.throws(() => ghz.parse(JSON.stringify(gone)), { name: 'ParseError', message: new RegExp(`^details\\[${at}\\] is `) });
  assert.ok(byName(ghz.parse(JSON.stringify(report)), 'latency.mean').value > 0);
});

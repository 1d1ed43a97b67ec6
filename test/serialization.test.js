// Tests of the serialization suite: its renderer on captured JMH runs, and the real subject built and run end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, command } from '../ci/adapters/jmh.js';
import { parse as parseK6 } from '../ci/adapters/k6.js';
import { buildResult } from '../ci/result.js';
import { locate } from '../ci/tools.js';
import * as suite from '../subjects/serialization/report.js';

const ROOT = new URL('..', import.meta.url).pathname;
const SUBJECT = join(ROOT, 'subjects', 'serialization');
const fixture = (name) => readFileSync(join(ROOT, 'test', 'fixtures', 'jmh', `${name}.json`), 'utf8');

const RUN = { id: 'r1', startedAt: '2026-01-01T00:00:00Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'n', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'cpu', memoryBytes: 1, labels: [] };
const docOf = (parsed, scenario, params) => buildResult({
  run: RUN, runner: RUNNER, suite: 'serialization', subject: 'serialization', variant: 'default', scenario,
  tool: { name: 'jmh', version: parsed.toolVersion }, params, trials: [parsed],
}, scenario);

const DOCS = [
  docOf(parse(fixture('avgt-gc')), 'avgt-gc', { mode: 'avgt', forks: 1, warmupIterations: 1, iterations: 3, warmup: '200ms', time: '200ms' }),
  docOf(parse(fixture('sample')), 'sample', { mode: 'sample', forks: 1, warmupIterations: 1, iterations: 2, warmup: '200ms', time: '200ms' }),
];
const CTX = { suite: 'serialization', docs: DOCS, run: { jobs: [] }, config: { suites: { serialization: { description: 'Codecs.' } } } };

// ---------------------------------------------------------------- renderer, on captured runs

test('renders the seed\'s JMH table with score, JMH\'s ± error and B/op per benchmark in seed order', () => {
  const text = suite.render(CTX);
  assert.match(text, /JMH benchmarks \(JMH 1\.37, JDK 25\.0\.3, 1 fork, warm-up 1 x 200ms, measurement 3 x 200ms, one trial\):/);
  assert.match(text, /\n {2}sbeSerialize {9}AverageTime {10}68\.46 {7}± 9\.39 {2}ns\/op {6}0\.00 B\/op\n/);
  assert.match(text, /\n {2}protobufDeserialize {2}AverageTime {7}1,199\.53 {3}± 7,750\.57 {2}ns\/op {2}2,480\.04 B\/op\n/);
  const order = [...text.matchAll(/^ {2}(\w+(?:Serialize|Deserialize)) +AverageTime/gm)].map((m) => m[1]);
  assert.deepEqual(order, ['sbeSerialize', 'sbeDeserialize', 'protobufSerialize', 'protobufDeserialize', 'jsonSerialize', 'jsonDeserialize']);
  assert.match(text, /Error: half the 99\.9% confidence interval \(JMH's own\)/);
});

test('computes the key findings from the measurements, SBE against each other codec', () => {
  const m = suite.model(CTX);
  assert.deepEqual(m.findings.slice(0, 5), [
    'SBE is ~9.7x faster for serialization than Protobuf (68.5ns vs 660.8ns); their 99.9% intervals overlap, so this run alone does not settle it',
    'SBE is ~7.5x faster for deserialization than Protobuf (160.6ns vs 1,199.5ns); their 99.9% intervals overlap, so this run alone does not settle it',
    'SBE allocates nothing for serialization, Protobuf 1,856 B/op (0.00 B/op vs 1,856 B/op)',
    'SBE allocates ~4x less memory for deserialization than Protobuf (656 B/op vs 2,480 B/op)',
    'SBE\'s message is 306 bytes, ~1.2x larger than Protobuf\'s (248 bytes)',
  ]);
  assert.equal(m.findings.length, 10);
  assert.deepEqual(m.sizes, [{ label: 'SBE', bytes: 306 }, { label: 'Protobuf', bytes: 248 }, { label: 'JSON', bytes: 944 }]);
});

test('turns the direction words around when the data goes the other way', () => {
  const sbe = { label: 'SBE', score: 300, alloc: 900 };
  const pb = { label: 'Protobuf', score: 100, alloc: 300 };
  assert.equal(suite.speedFinding(sbe, pb, 'Serialize'), 'SBE is ~3.0x slower for serialization than Protobuf (300.0ns vs 100.0ns)');
  assert.equal(suite.memoryFinding(sbe, pb, 'Deserialize'), 'SBE allocates ~3x more memory for deserialization than Protobuf (900 B/op vs 300 B/op)');
  assert.equal(suite.speedFinding({ label: 'SBE', score: 102 }, { label: 'JSON', score: 100 }, 'Serialize'), 'SBE and JSON are about as fast for serialization (102.0ns vs 100.0ns)');
  assert.equal(suite.sizeFinding({ label: 'SBE', bytes: 100 }, { label: 'JSON', bytes: 400 }), 'SBE\'s message is 100 bytes, ~4.0x smaller than JSON\'s (400 bytes)');
  // Intervals that do not overlap carry no caveat.
  assert.equal(suite.speedFinding({ label: 'SBE', score: 70, lower: 60, upper: 80, confidence: 0.999 }, { label: 'Protobuf', score: 700, lower: 650, upper: 750, confidence: 0.999 }, 'Serialize'),
    'SBE is ~10.0x faster for serialization than Protobuf (70.0ns vs 700.0ns)');
});

test('names the winner of each property in the performance summary, Protobuf for size', () => {
  const { head, rows } = suite.model(CTX).summary;
  assert.deepEqual(head, ['SBE', 'Protobuf', 'JSON']);
  // three iterations give JMH 99.9% intervals wide enough to overlap, as the key findings say of the same rows
  assert.deepEqual(rows.map((r) => [r.name, r.winner]), [
    ['Serialization speed', 'SBE (9.7x faster; intervals overlap, not settled)'],
    ['Deserialization speed', 'SBE (7.5x faster; intervals overlap, not settled)'],
    ['Serialization memory', 'SBE (allocates nothing)'],
    ['Deserialization memory', 'SBE (4x less)'],
    ['Encoded size', 'Protobuf (1.2x smaller)'],
  ]);
});

test('the performance summary names no settled speed winner where the 99.9% intervals overlap (a run on a busy machine)', () => {
  const busy = docOf(parse(fixture('avgt-gc-busy')), 'avgt-gc', { mode: 'avgt', forks: 1, warmupIterations: 2, iterations: 3, warmup: '300ms', time: '300ms' });
  const { rows } = suite.model({ ...CTX, docs: [busy] }).summary;
  assert.deepEqual(rows.map((r) => [r.name, r.winner]), [
    ['Serialization speed', 'SBE (11.1x faster; intervals overlap, not settled)'],
    ['Deserialization speed', 'SBE (20.1x faster; intervals overlap, not settled)'],
    ['Serialization memory', 'SBE (allocates nothing)'],
    ['Deserialization memory', 'SBE (4x less)'],
    ['Encoded size', 'Protobuf (1.2x smaller)'],
  ]);
});

test('checks the seed\'s conclusion (SBE the clear winner) against the summary and says which rows are not settled or won by another codec', () => {
  const text = suite.render(CTX);
  assert.ok(text.includes('\nConclusion: the seed\'s "SBE is the clear winner" (every row of its summary) holds in direction, not settled in every row here: '
    + 'SBE wins serialization memory and deserialization memory; SBE leads serialization speed and deserialization speed without a settled difference (the intervals overlap) '
    + '(encoded size, not in the seed\'s summary: Protobuf (1.2x smaller)).\n'), text);
  assert.match(suite.markdown(CTX), /\nConclusion&#58; the seed&#39;s &quot;SBE is the clear winner&quot; \\\(every row of its summary\\\) holds in direction, not settled in every row here&#58; /);
  // a row another codec wins turns the verdict
  const summary = { head: ['SBE', 'Protobuf'], rows: [
    { name: 'Serialization speed', winner: 'Protobuf (2.0x faster)', who: 'Protobuf', settled: true },
    { name: 'Serialization memory', winner: 'SBE (allocates nothing)', who: 'SBE', settled: true },
  ] };
  assert.equal(suite.conclusion(summary), 'Conclusion: the seed\'s "SBE is the clear winner" (every row of its summary) does not hold here: SBE wins serialization memory; SBE does not win serialization speed: Protobuf (2.0x faster).');
});

test('prints the seed\'s percentile block per codec from the SampleTime distribution', () => {
  const text = suite.render(CTX);
  assert.ok(text.includes([
    'Protobuf Serialize:',
    '  Count: 11,661',
    '  Min:   480 ns',
    '  Mean:  1,351.55 ns',
    '  Max:   4,050,944 ns',
    '  P50:   521 ns',
    '  P90:   2,504 ns',
    '  P99:   5,670.08 ns',
    '  P99.9: 26,719.04 ns',
  ].join('\n')));
  assert.equal((text.match(/^ {2}P99\.9: /gm) || []).length, 6);
  assert.match(text, /Latency distribution plot: serialization-latency\.svg/);
});

test('checks the seed\'s percentile finding: SBE faster at every percentile, and whose P50-to-P99.9 gap is smaller', () => {
  const text = suite.render(CTX);
  assert.ok(text.includes('\nPercentile findings:\n- SBE is faster than Protobuf at every percentile for serialization (P50 90 ns vs 521 ns, P90 100 ns vs 2,504 ns, P99 171 ns vs 5,670.08 ns, P99.9 8,663.68 ns vs 26,719.04 ns)\n'), text);
  // The direction of the consistency line follows the data: here Protobuf's serialize tail is the tighter one.
  assert.ok(text.includes('\n- Protobuf\'s serialization latency is more consistent (P99.9 is 96.3x P50 for SBE, 51.3x for Protobuf)\n'), text);
  assert.ok(text.includes('\n- SBE is faster than JSON at every percentile for deserialization (P50 140 ns vs 12,016 ns,'), text);
  assert.match(suite.markdown(CTX), /\*\*Percentile findings\*\*\n\n- SBE is faster than Protobuf at every percentile for serialization/);
});

test('titles the percentile blocks as JMH SampleTime and says they are not HdrHistogram, in text and markdown', () => {
  const text = suite.render(CTX);
  assert.match(text, /^Latency percentiles from JMH SampleTime \(JMH 1\.37/m);
  assert.match(text, /These are JMH's own samples, not HdrHistogram/);
  assert.match(suite.markdown(CTX), /Latency percentiles from JMH SampleTime \(.*\)\. These are JMH&#39;s own samples, not HdrHistogram/);
});

// The HTTP phase: k6 runs of loadtests/k6/serialization-http.js against HttpServe (test/fixtures/k6/serialization-http-*.cmd).
const httpDoc = (codec) => buildResult({
  run: RUN, runner: RUNNER, suite: 'serialization', subject: 'serialization', variant: 'http', scenario: `http-${codec}`,
  tool: { name: 'k6', version: '1.8.1' }, params: { codec, rate: 200, duration: '3s' },
  trials: [parseK6(readFileSync(join(ROOT, 'test', 'fixtures', 'k6', `serialization-http-${codec}.json`), 'utf8'))],
}, codec);

test('reports the HTTP phase per codec: the encoded size served, every answer round-tripped, and k6 latency', () => {
  const ctx = { ...CTX, docs: [...DOCS, ...['json', 'sbe', 'protobuf'].map(httpDoc)] };
  const m = suite.model(ctx);
  assert.deepEqual(m.http.map((r) => [r.label, r.bytes, r.checks]), [['SBE', 306, 1], ['Protobuf', 248, 1], ['JSON', 944, 1]]);
  for (const r of m.http) assert.ok(r.p50 > 0 && r.p99 >= r.p50 && r.requests > 0, r.label);
  const text = suite.render(ctx);
  assert.match(text, /^HTTP phase \(seed 002's REST endpoint, one per codec\):$/m);
  assert.match(text, /^ {2}SBE +306 B +every answer +601 /m);
  assert.match(text, /Round trip: every answer of every codec reported match = true/);
  assert.match(text, /Size served: SBE 306 B, Protobuf 248 B, JSON 944 B; Protobuf is the smallest/);
  assert.match(suite.markdown(ctx), /\*\*HTTP phase\*\*/);
  // The JMH table still comes from the JMH documents, not from k6's.
  assert.equal(m.rows.length, 6);
});

test('the HTTP phase carries the seed\'s HDR figures per endpoint: count, min, mean, max, P50, P90, P99 and P99.9', () => {
  const ctx = { ...CTX, docs: [...DOCS, httpDoc('sbe')] };
  const lines = suite.render(ctx).split('\n');
  const head = lines.find((l) => /^ {2}Codec /.test(l)).trim().split(/\s{2,}/);
  assert.deepEqual(head, ['Codec', 'Encoded size', 'Round trip (match)', 'Requests', 'Rate (req/s)', 'Min', 'Mean', 'P50', 'P90', 'P95', 'P99', 'P99.9', 'Max', 'Errors']);
  // k6's own figures for this run (test/fixtures/k6/serialization-http-sbe.json): min 0.546 ms, avg 2.533 ms, p(90) 4.726 ms, p(99.9) 37.25 ms
  const row = lines.find((l) => /^ {2}SBE /.test(l)).trim().split(/\s{2,}/);
  assert.deepEqual(row.slice(5, 13), ['545.7 µs', '2.533 ms', '1.248 ms', '4.726 ms', '7.724 ms', '18.16 ms', '37.25 ms', '40.25 ms']);
  assert.match(suite.markdown(ctx), /\| Min \| Mean \| P50 \| P90 \| P95 \| P99 \| P99\.9 \| Max \|/);
});

test('checks the seed\'s "SBE better across all percentiles" over the HTTP phase, with Mann-Whitney over the trials', () => {
  const ctx = { ...CTX, docs: [...DOCS, ...['json', 'sbe', 'protobuf'].map(httpDoc)] };
  const text = suite.render(ctx);
  // one captured trial a codec: the directions are shown, not tested
  assert.match(text, /\n {2}Over HTTP, SBE against Protobuf: P50 1\.248 ms vs [\d.]+ [µm]s \((faster|slower)\), P90 4\.726 ms vs [^,]+, P99 18\.16 ms vs [^,]+, P99\.9 37\.25 ms vs [^;]+; the seed's "SBE better across all percentiles" is not tested \(1 trial a codec cannot show a significant difference; run 4 or more\)\.\n/);
  assert.match(text, /\n {2}Over HTTP, SBE against JSON: /);
  assert.match(suite.markdown(ctx), /\n- Over HTTP, SBE against Protobuf&#58; P50 /);
  // five trials a side: SBE slower at P99 in every trial is significant (p = 2/252), so the finding does not hold
  const row = (codec, label, p) => ({ codec, label, p50: p[0][2], p90: p[1][2], p99: p[2][2], p999: p[3][2], samples: { p50: p[0], p90: p[1], p99: p[2], p999: p[3] } });
  const five = (x) => [x, x + 1, x + 2, x + 3, x + 4];
  const sbe = row('sbe', 'SBE', [five(100), five(200), five(900), five(1000)]);
  const pb = row('protobuf', 'Protobuf', [five(110), five(210), five(300), five(1001)]);
  assert.match(suite.httpFindings([sbe, pb])[0], /P99 902 ns vs 302 ns \(slower, p = 0\.008\).*; the seed's "SBE better across all percentiles" does not hold\.$/);
  const fast = row('sbe', 'SBE', [five(10), five(20), five(30), five(40)]);
  assert.match(suite.httpFindings([fast, pb])[0], /P50 12 ns vs 112 ns \(faster, p = 0\.008\), .*the seed's "SBE better across all percentiles" holds\.$/);
});

test('says which codec failed its round-trip checks', () => {
  const doc = httpDoc('sbe');
  doc.metrics.find((x) => x.name === 'checks_pass_rate').value = 0.9;
  const text = suite.render({ ...CTX, docs: [...DOCS, doc] });
  assert.match(text, /Round trip: SBE failed 10\.00% of its checks \(status, protocol or match\)/);
});

test('draws the latency plot as SVG: one line per case, deserialize dashed, decades on the time axis', () => {
  const [plot] = suite.plots(CTX);
  assert.equal(plot.file, 'serialization-latency.svg');
  const { svg } = plot;
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="760" height="440"'));
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assert.equal((svg.match(/<polyline /g) || []).length, 6);
  assert.equal((svg.match(/<polyline [^>]*stroke-dasharray/g) || []).length, 3);
  for (const label of ['10 ns', '100 ns', '1 µs', '1 ms', '99.9%', '99.9999%', 'SBE Serialize', 'JSON Deserialize']) assert.ok(svg.includes(`>${label}<`), label);
  // SBE serialize p0 = 80 ns sits on the left edge; x spacing follows log10(1 / (1 - p)).
  assert.equal(suite.percentileX(0), 0);
  assert.equal(suite.percentileX(90), 1);
  assert.match(svg, /points="78,\d+(\.\d)? /);
});

test('escapes case names in the SVG and the markdown, since they come from benchmark code', () => {
  const evil = { case: 'x<script>Serialize', codec: undefined, percentiles: [{ p: 0, value: 10 }, { p: 50, value: 20 }] };
  const svg = suite.latencySvg([evil]);
  assert.ok(!svg.includes('<script>'));
  assert.ok(svg.includes('x&lt;script&gt;Serialize'));
  assert.ok(!suite.markdown(CTX).includes('<'));
});

test('says which job is missing and why instead of printing empty tables', () => {
  const run = { jobs: [{ id: 'serialization.default.jmh.sample', suite: 'serialization', status: 'failed', reason: 'jmh did not finish within 900 s' }] };
  const text = suite.render({ ...CTX, docs: [DOCS[0]], run });
  assert.match(text, /job serialization\.default\.jmh\.sample failed: jmh did not finish within 900 s/);
  assert.match(text, /No JMH SampleTime results in this run/);
  assert.ok(!text.includes('Latency distribution plot'));
  assert.deepEqual(suite.plots({ ...CTX, docs: [DOCS[0]] }), []);
});

test('lists regressions against the base in the console and markdown reports', () => {
  const comparisons = { comparisons: [{ suite: 'serialization', variant: 'default', tool: 'jmh', scenario: 'avgt-gc', case: 'sbeSerialize', metric: 'time.mean', unit: 'ns', better: 'lower', verdict: 'regression', change: 0.25, lower: 0.2, upper: 0.3 }] };
  const text = suite.render({ ...CTX, comparisons });
  assert.match(text, /Against base: 1 regression/);
  assert.match(text, /regression: avgt-gc sbeSerialize time\.mean \+25\.0% \[\+20\.0%, \+30\.0%\]/);
  assert.match(suite.markdown({ ...CTX, comparisons }), /Against base: .*1 regression/);
});

// ---------------------------------------------------------------- the real subject, end to end

const JAVA = locate('java')?.path;
const run = (cmd, args, opts) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });

test('builds the subject with Maven (round-trip tests included), records HDR percentiles, answers the HTTP endpoints and runs a short JMH through the adapter', { timeout: 240_000 }, (t) => {
  assert.ok(JAVA, 'JDK 25 not found: install Temurin 25 or set JAVA25_HOME');
  const env = { ...process.env, JAVA_HOME: dirname(dirname(JAVA)) };
  // Cold ~/.m2 takes about a minute; afterwards this is an incremental build plus the JUnit run.
  const mvn = run('mvn', ['-q', '-B', 'package'], { cwd: SUBJECT, env, timeout: 180_000 });
  assert.equal(mvn.status, 0, `mvn -q -B package failed in subjects/serialization (is Maven installed?):\n${(mvn.stdout + mvn.stderr).slice(-3000)}`);
  const jar = join(SUBJECT, 'target', 'benchmarks.jar');
  assert.ok(existsSync(jar));
  const report = readFileSync(join(SUBJECT, 'target', 'surefire-reports', 'TEST-benchline.serialization.RoundTripTest.xml'), 'utf8');
  assert.match(report, /tests="16" errors="0" skipped="0" failures="0"/);

  const work = mkdtempSync(join(tmpdir(), 'serialization-'));
  try {
    const hdr = run(JAVA, ['--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED', '-cp', jar, 'benchline.serialization.HdrRecorder',
      '--count', '5000', '--warmup', '5000', '--out', join(work, 'hdr')], { timeout: 60_000 });
    assert.equal(hdr.status, 0, hdr.stderr);
    assert.match(hdr.stdout, /SBE Serialize:\n {2}Count: 5000\n {2}Min: {3}\d+ ns\n/);
    const summary = JSON.parse(readFileSync(join(work, 'hdr', 'hdr-result.json'), 'utf8'));
    assert.deepEqual(Object.fromEntries(Object.entries(summary.codecs).map(([k, v]) => [k, [v.encodedBytes, v.roundTrip, v.serialize.count]])),
      { sbe: [306, true, 5000], protobuf: [248, true, 5000], json: [944, true, 5000] });
    assert.match(readFileSync(join(work, 'hdr', 'protobuf-deserialize.hgrm'), 'utf8'), /#\[Mean {4}=/);

    // Seed 002's REST phase: the endpoint answers the seed's shape, round-trips and serves each encoding.
    const port = 20000 + (process.pid % 20000);
    const http = spawnSync('sh', ['-c', `"$0" --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -cp "$1" benchline.serialization.HttpServe & pid=$!;
      for i in $(seq 1 100); do curl -sf http://127.0.0.1:$PORT/health >/dev/null && break; sleep 0.1; done;
      for c in sbe protobuf json; do curl -s http://127.0.0.1:$PORT/api/test/$c; echo; curl -s http://127.0.0.1:$PORT/api/encoded/$c | wc -c; done;
      curl -s -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:$PORT/api/test/xml; kill $pid`, JAVA, jar],
    { env: { ...process.env, PORT: String(port) }, encoding: 'utf8', timeout: 60_000 });
    const lines = http.stdout.trim().split('\n');
    assert.equal(lines.length, 7, http.stdout + http.stderr);
    for (const [i, [protocol, size]] of [['SBE', 306], ['Protobuf', 248], ['JSON', 944]].entries()) {
      const answer = JSON.parse(lines[2 * i]);
      assert.deepEqual([answer.protocol, answer.size, answer.match, answer.decoded === answer.original], [protocol, size, true, true]);
      assert.equal(Number(lines[2 * i + 1].trim()), size, `${protocol} bytes served`);
    }
    assert.equal(lines[6], '404');

    const outFile = join(work, 'jmh.json');
    const cmd = command({
      bin: JAVA, outFile, subjectDir: SUBJECT, root: ROOT,
      params: { jar: 'target/benchmarks.jar', include: 'SerializationBenchmark\\.', forks: 1, warmupIterations: 1, iterations: 1, warmup: '100ms', time: '100ms', mode: 'avgt', prof: ['gc', 'benchline.serialization.bench.MessageSizeProfiler'] },
    });
    const jmh = run(cmd.argv[0], cmd.argv.slice(1), { cwd: ROOT, timeout: 90_000 });
    assert.equal(jmh.status, 0, jmh.stdout.slice(-2000) + jmh.stderr.slice(-2000));
    const parsed = parse(readFileSync(outFile, 'utf8'));
    const cases = ['sbeSerialize', 'sbeDeserialize', 'protobufSerialize', 'protobufDeserialize', 'jsonSerialize', 'jsonDeserialize'];
    const get = (c, name) => parsed.metrics.find((m) => m.case === c && m.name === name);
    for (const c of cases) {
      assert.equal(get(c, 'time.mean')?.unit, 'ns', c);
      assert.ok(get(c, 'time.mean').value > 0, c);
      assert.equal(get(c, 'alloc_per_op')?.unit, 'bytes', c);
      assert.ok(get(c, 'alloc_per_op').value >= 0, c);
    }
    // SBE writes into the caller's buffer; every other case allocates.
    for (const c of cases.filter((x) => x !== 'sbeSerialize')) assert.ok(get(c, 'alloc_per_op').value > 100, `${c} B/op`);
    assert.deepEqual(cases.map((c) => get(c, 'message_bytes').value), [306, 306, 248, 248, 944, 944]);
    assert.equal(parsed.toolVersion, '1.37');

    const docs = [docOf(parsed, 'avgt-gc', { mode: 'avgt', forks: 1 })];
    const m = suite.model({ suite: 'serialization', docs });
    assert.equal(m.rows.length, 6);
    // Timing decides the words; report them rather than assert them.
    t.diagnostic(`measured: ${m.findings.slice(0, 2).join(' | ')}`);
    assert.match(m.findings[0], /^SBE (is ~\d+\.\dx (faster|slower)|and Protobuf are about as fast) for serialization/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

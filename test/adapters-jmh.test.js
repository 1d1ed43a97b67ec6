// Tests of the JMH adapter against -rf json files captured from the serialization subject's real runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, command, caseNames, binary, produce, failedRun } from '../ci/adapters/jmh.js';
import { ParseError } from '../ci/adapters/errors.js';
import { normalizeFile } from '../ci/commands/normalize.js';
import { buildResult } from '../ci/result.js';

const dir = new URL('./fixtures/jmh/', import.meta.url).pathname;
const text = (name) => readFileSync(join(dir, `${name}.json`), 'utf8');
const find = (parsed, caseName, metricName) => parsed.metrics.find((m) => m.case === caseName && m.name === metricName);
const CODEC_CASES = ['sbeSerialize', 'sbeDeserialize', 'protobufSerialize', 'protobufDeserialize', 'jsonSerialize', 'jsonDeserialize'];

test('parses an avgt run into time.mean in ns with JMH\'s 99.9% interval and per-iteration samples', () => {
  const p = parse(text('avgt-gc'));
  assert.deepEqual(find(p, 'sbeSerialize', 'time.mean'), {
    name: 'time.mean', unit: 'ns', better: 'lower', case: 'sbeSerialize',
    value: 68.46366931330617, lower: 59.077275724431914, upper: 77.85006290218043, confidence: 0.999,
    samples: [67.88939102596711, 68.6190378633193, 68.8825790506321],
  });
  assert.equal(p.toolVersion, '1.37');
  assert.deepEqual(p.notes, ['jmh: JDK 25.0.3 OpenJDK 64-Bit Server VM 25.0.3+9-LTS']);
});

test('maps -prof gc results to alloc_per_op, alloc_rate (MB = 2^20 bytes), gc_count and gc_time in ns', () => {
  const p = parse(text('avgt-gc'));
  assert.equal(find(p, 'jsonDeserialize', 'alloc_per_op').value, 5659.5056743594805);
  assert.equal(find(p, 'jsonDeserialize', 'alloc_per_op').unit, 'bytes');
  const rate = find(p, 'sbeSerialize', 'alloc_rate');
  assert.equal(rate.unit, 'bytes/s');
  assert.equal(rate.value, 35792.02844195681);
  assert.deepEqual([rate.lower, rate.upper], [32699.581381095195, 38884.47550281843]);
  assert.deepEqual(find(p, 'jsonDeserialize', 'gc_count'), {
    name: 'gc_count', unit: 'count', better: 'lower', case: 'jsonDeserialize', value: 2, samples: [0, 1, 1], lower: 2, upper: 2, confidence: 0.999,
  });
  // JMH only records gc.time for iterations that collected, so it may have fewer samples than iterations.
  assert.deepEqual(find(p, 'jsonDeserialize', 'gc_time').samples, [4000000, 5000000]);
  assert.equal(find(p, 'jsonDeserialize', 'gc_time').value, 9000000);
  assert.equal(find(p, 'sbeSerialize', 'gc_time'), undefined);
});

test('reads the serialization subject\'s message.bytes secondary as message_bytes for every codec', () => {
  const p = parse(text('avgt-gc'));
  const sizes = Object.fromEntries(CODEC_CASES.map((c) => [c, find(p, c, 'message_bytes')?.value]));
  assert.deepEqual(sizes, { sbeSerialize: 306, sbeDeserialize: 306, protobufSerialize: 248, protobufDeserialize: 248, jsonSerialize: 944, jsonDeserialize: 944 });
});

test('converts thrpt from ops/ms to ops/s and flattens rawData across two forks in fork order', () => {
  const p = parse(text('thrpt-two-forks'));
  assert.deepEqual(find(p, 'sbeSerialize', 'throughput'), {
    name: 'throughput', unit: 'ops/s', better: 'higher', case: 'sbeSerialize',
    value: 14457679.27456855, lower: 13880397.761180818, upper: 15034960.787956282, confidence: 0.999,
    samples: [14406671.884931237, 14525509.91138781, 14358168.96360377, 14540366.338351386],
  });
  assert.deepEqual(p.metrics.map((m) => `${m.case} ${m.name}`), ['sbeDeserialize throughput', 'sbeSerialize throughput']);
});

test('parses a SampleTime run into time.mean, p50..p99.99 and max plus a distribution counting every sample', () => {
  const p = parse(text('sample'));
  const got = Object.fromEntries(p.metrics.filter((m) => m.case === 'protobufSerialize').map((m) => [m.name, m.value]));
  assert.deepEqual(got, {
    'time.mean': 1351.5495240545408,
    'time.p50': 521,
    'time.p90': 2504,
    'time.p99': 5670.079999999987,
    'time.p99.9': 26719.039999999455,
    'time.p99.99': 3598241.791995965,
    'time.max': 4050944,
  });
  // A sample-mode iteration is a histogram; its sample is the iteration's mean.
  assert.deepEqual(find(p, 'protobufSerialize', 'time.mean').samples, [1962.239941118744, 678.4359113034072]);
  const d = p.distributions.find((x) => x.case === 'protobufSerialize');
  assert.equal(d.count, 11661);
  assert.equal(d.unit, 'ns');
  assert.deepEqual(d.percentiles.map((x) => x.p), [0, 50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 100]);
  assert.deepEqual(d.percentiles[0], { p: 0, value: 480 });
  assert.deepEqual(p.distributions.map((x) => x.case).sort(), [...CODEC_CASES].sort());
  // The p0.00 .. p1.00 secondaries repeat the percentiles: neither metrics nor "unmapped" notes.
  assert.deepEqual(p.notes, ['jmh: JDK 25.0.3 OpenJDK 64-Bit Server VM 25.0.3+9-LTS']);
});

test('parses single-shot (ss) runs into time.mean with one sample per shot', () => {
  const p = parse(text('single-shot'));
  assert.deepEqual(find(p, 'sbeSerialize', 'time.mean').samples, [64020, 79229, 47810]);
  assert.equal(find(p, 'sbeSerialize', 'time.mean').value, 63686.333333333336);
  assert.equal(find(p, 'protobufSerialize', 'time.mean').value, 148208);
});

test('names @Param runs method{name=value} and leaves out an interval JMH reports as NaN', () => {
  const p = parse(text('params'));
  assert.deepEqual(p.metrics.map((m) => m.case), [
    'jsonSerialize{depth=1}', 'jsonSerialize{depth=20}', 'protobufSerialize{depth=1}',
    'protobufSerialize{depth=20}', 'sbeSerialize{depth=1}', 'sbeSerialize{depth=20}',
  ]);
  assert.deepEqual(find(p, 'sbeSerialize{depth=20}', 'time.mean'), {
    name: 'time.mean', unit: 'ns', better: 'lower', case: 'sbeSerialize{depth=20}',
    value: 189.51936217287493, samples: [189.59388882541836, 189.4448355203315],
  });
});

test('adds [mode] to case names when one file holds several modes, converting us/op and ops/us', () => {
  const p = parse(text('multi-mode'));
  assert.deepEqual([...new Set(p.metrics.map((m) => m.case))], ['sbeSerialize[thrpt]', 'sbeSerialize[avgt]', 'sbeSerialize[sample]']);
  assert.equal(find(p, 'sbeSerialize[thrpt]', 'throughput').value, 14368565.715267487);
  assert.equal(find(p, 'sbeSerialize[avgt]', 'time.mean').value, 69.20032352534639);
  assert.equal(find(p, 'sbeSerialize[sample]', 'time.p50').value, 90);
  assert.equal(p.distributions[0].case, 'sbeSerialize[sample]');
});

test('prefixes the class name only when two classes in one file share a method name', () => {
  const e = (benchmark, mode = 'avgt', params) => ({ benchmark, mode, params });
  assert.deepEqual(caseNames([e('a.Codec.encode'), e('a.Other.encode'), e('a.Codec.decode')]), ['Codec.encode', 'Other.encode', 'decode']);
  assert.deepEqual(caseNames([e('a.B.m', 'avgt', { n: '1' }), e('a.B.m', 'avgt', { n: '2' })]), ['m{n=1}', 'm{n=2}']);
  assert.deepEqual(caseNames([e('a.B.m', 'avgt', { n: '1', k: 'x' })]), ['m{n=1,k=x}']);
});

test('notes secondary results it cannot map (here -prof cl) instead of inventing metrics', () => {
  const p = parse(text('unmapped-profiler'));
  assert.deepEqual(p.metrics.map((m) => m.name), ['time.mean']);
  assert.ok(p.notes.includes('jmh: secondary result "class.load" (classes/sec) is not mapped to a benchline metric and was left out'));
});

test('rejects the empty file JMH leaves when the include regex matches nothing', () => {
  assert.equal(text('no-match'), '');
  assert.throws(() => parse(text('no-match')), (e) => e instanceof ParseError && /include regex matches no benchmark/.test(e.message) && e.hint === produce);
});

test('rejects the empty array JMH writes when every fork failed', () => {
  assert.throws(() => parse(text('failed-fork')), (e) => e instanceof ParseError && /result array is empty.*every fork failed/.test(e.message));
});

test('rejects a truncated file and says it may be truncated', () => {
  const t = text('avgt-gc');
  assert.throws(() => parse(t.slice(0, Math.floor(t.length / 2))), (e) => e instanceof ParseError && /may be truncated/.test(e.message));
});

test('rejects foreign JSON: an object, or an array of non-JMH entries', () => {
  assert.throws(() => parse('{"results":[{"command":"sleep 0.1","mean":0.1}]}'), (e) => e instanceof ParseError && /expected a JSON array of JMH benchmark results, got object/.test(e.message));
  assert.throws(() => parse('[{"name":"x","value":1}]'), (e) => e instanceof ParseError && /result 0 has no "benchmark" name/.test(e.message));
});

test('normalize names the file, the tool and how to produce valid output', () => {
  const file = join(dir, 'failed-fork.json');
  assert.throws(() => normalizeFile(file, 'jmh'), (e) => e.message.startsWith(`${file}: not valid jmh output: the result array is empty`)
    && e.message.includes('Produce valid output with: java -jar benchmarks.jar -rf json -rff out.json'));
});

test('builds schema-valid result documents from every captured mode', () => {
  for (const name of ['avgt-gc', 'thrpt-two-forks', 'sample', 'single-shot', 'params', 'multi-mode']) {
    const doc = buildResult({
      run: { id: 'r1', startedAt: '2026-01-01T00:00:00Z', commit: null, ref: null, trigger: 'local', role: 'local' },
      runner: { name: 'n', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'cpu', memoryBytes: 1, labels: [] },
      suite: 'serialization', subject: 'serialization', variant: 'default', scenario: name, tool: { name: 'jmh', version: '1.37' },
      params: {}, trials: [parse(text(name))],
    }, name);
    assert.equal(doc.trials, 1, name);
  }
});

test('a score outside its own scoreConfidence (edited; JMH writes score ± scoreError) is refused, not stored with an interval that misses it', () => {
  const edited = JSON.parse(text('avgt-gc'));
  const pm = edited[0].primaryMetric;
  pm.scoreConfidence = [pm.score * 2, pm.score * 3];
  const build = (entries) => buildResult({
    run: { id: 'r1', startedAt: '2026-01-01T00:00:00Z', commit: null, ref: null, trigger: 'local', role: 'local' },
    runner: { name: 'n', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'cpu', memoryBytes: 1, labels: [] },
    suite: 'serialization', subject: 'serialization', variant: 'default', scenario: 'edited', tool: { name: 'jmh', version: '1.37' },
    params: {}, trials: [parse(JSON.stringify(entries))],
  }, 'edited.json (jmh)');
  assert.throws(() => build(edited), /edited\.json \(jmh\): jmh output holds impossible values.*\n {2}jsonDeserialize::time\.mean = [\d.]+ ns: outside its own interval [\d.]+ \.\. [\d.]+/s);
  assert.equal(build(JSON.parse(text('avgt-gc'))).trials, 1);
});

test('runs JMH with java -jar from the subject folder, writing -rf json to the trial\'s output file', () => {
  const cmd = command({
    bin: '/jdk/bin/java', outFile: '/r/trial-1.out.json', subjectDir: '/repo/subjects/serialization', root: '/repo',
    params: {
      jar: 'target/benchmarks.jar', include: 'SerializationBenchmark', forks: 1, warmupIterations: 2, iterations: 3,
      warmup: '300ms', time: '300ms', mode: 'avgt', prof: 'gc benchline.serialization.bench.MessageSizeProfiler', 'p.depth': '1,20',
    },
  });
  assert.equal(binary, 'java');
  assert.deepEqual(cmd, {
    output: 'file',
    argv: ['/jdk/bin/java', '-jar', '/repo/subjects/serialization/target/benchmarks.jar', '-f', '1', '-wi', '2', '-i', '3', '-w', '300ms', '-r', '300ms',
      '-bm', 'avgt', '-prof', 'gc', '-prof', 'benchline.serialization.bench.MessageSizeProfiler', '-p', 'depth=1,20',
      '-foe', 'true', '-rf', 'json', '-rff', '/r/trial-1.out.json', 'SerializationBenchmark'],
  });
});

test('accepts profilers as a list and refuses a job without a jar', () => {
  const argv = command({ bin: 'java', outFile: 'o.json', subjectDir: '/s', params: { jar: '/abs/b.jar', prof: ['gc', 'stack'] } }).argv;
  assert.deepEqual(argv, ['java', '-jar', '/abs/b.jar', '-prof', 'gc', '-prof', 'stack', '-foe', 'true', '-rf', 'json', '-rff', 'o.json']);
  assert.throws(() => command({ bin: 'java', outFile: 'o.json', params: {} }), /needs params\.jar/);
});

test('a jar that is not there, an unknown profiler and an option JMH refuses each say what java or JMH said and what to fix', () => {
  // before, each was only "jmh wrote no output file (trial 1, exit 1)"
  const run = (name, params) => failedRun({ exitCode: 1, stdout: readFileSync(join(dir, `${name}.stdout`), 'utf8'), stderr: readFileSync(join(dir, `${name}.stderr`), 'utf8'), params });
  assert.equal(run('no-jar', { jar: 'target/benchmark.jar' }),
    'java could not open the benchmarks jar: "Error: Unable to access jarfile target/benchmark.jar"; params.jar ("target/benchmark.jar") is relative to the subject folder, and the subject\'s build: (subject.yaml) must make it');
  assert.equal(run('bad-profiler', { jar: 'target/benchmarks.jar', prof: ['gcc'] }),
    'JMH could not start a profiler of params.prof ("gcc"): "java.lang.ClassNotFoundException: gcc"; java -jar <jar> -lprof lists JMH\'s own (gc, stack, ...), any other is a class name on the jar\'s classpath');
  assert.equal(run('bad-option', { jar: 'target/benchmarks.jar', timeUnit: 'nanos' }),
    'JMH refused its command line: "Unknown time unit: nanos"; the job\'s params take JMH\'s own values (docs/config.md, JMH): timeUnit ns, us, ms, s, m; mode thrpt, avgt, sample, ss; warmup and time such as 200ms or 1s');
});

test('a benchmark that throws names the benchmark, its parameters and the exception, not an include regex that matched nothing', () => {
  // JMH -foe true leaves the -rf json file empty, which read as "the include regex matches no benchmark"
  const run = (name) => failedRun({ exitCode: 1, stdout: readFileSync(join(dir, `${name}.stdout`), 'utf8'), stderr: readFileSync(join(dir, `${name}.stderr`), 'utf8'), params: { jar: 'target/benchmarks.jar' } });
  assert.equal(run('throws'),
    'the benchmark benchline.serialization.bench.BookDepthBenchmark.sbeSerialize (depth = -1) threw "java.lang.IllegalArgumentException: Illegal Capacity: -2", so JMH stopped (failOnError is on by default) and wrote no results; its stack trace is in the trial\'s stdout in the job\'s raw folder. Fix the benchmark, or set failOnError: false to keep the results of the benchmarks that ran');
});

test('a jar compiled for a newer Java than the one running JMH says so and points at JAVA25_HOME, not at the include regex', () => {
  const said = failedRun({ exitCode: 1, stdout: readFileSync(join(dir, 'old-java.stdout'), 'utf8'), stderr: readFileSync(join(dir, 'old-java.stderr'), 'utf8'), params: { jar: 'target/benchmarks.jar' } });
  assert.match(said, /^the java that runs JMH is older than the JDK that compiled the jar: "java\.lang\.UnsupportedClassVersionError: .*class file version 69\.0.*up to 61\.0"; benchline runs JMH with JAVA25_HOME's java, .*point JAVA25_HOME at a JDK as new as the one that built params\.jar/);
});

test('a JMH that another JMH on the machine kept out (its lock) says so, not "wrote no output file"', () => {
  const said = failedRun({ exitCode: 1, stdout: readFileSync(join(dir, 'locked.stdout'), 'utf8'), stderr: readFileSync(join(dir, 'locked.stderr'), 'utf8'), params: { jar: 'target/benchmarks.jar', include: 'NoSuchBenchmark' } });
  assert.equal(said, 'another JMH is running on this machine (JMH\'s lock /tmp/jmh.lock is held), so JMH exited before benchmarking: run the job again when it is done; javaOptions: -Djmh.ignoreLock=true would measure beside it, which JMH\'s lock is there to prevent');
});

test('a run that ended normally, or stopped in a way it does not know, is left to the output file', () => {
  assert.equal(failedRun({ exitCode: 0, stdout: '', stderr: '', params: {} }), undefined);
  assert.equal(failedRun({ exitCode: 1, stdout: 'No matching benchmarks. Miss-spelled regexp?\n', stderr: '', params: {} }), undefined);
});

test('a score unit that is no JMH time unit, or "__proto__" on a secondary result, is refused or left out by name, not scaled by NaN', () => {
  const doc = JSON.parse(text('avgt-gc'));
  const edited = (edit) => { const d = structuredClone(doc); edit(d); return JSON.stringify(d); };
  for (const unit of ['constructor/op', 'm/op', 'toString/op', 'ops/s']) {
    assert.throws(() => parse(edited((d) => { d[0].primaryMetric.scoreUnit = unit; })), { name: 'ParseError', message: new RegExp(`avgt score unit "${unit.replace('/', '\\/')}" is not <time>/op \\(time one of ns, us, ms, s, min, hr, day\\)`) }, unit);
  }
  const secondary = parse(edited((d) => { d[0].secondaryMetrics['gc.alloc.rate.norm'].scoreUnit = '__proto__'; }));
  const first = caseNames(doc)[0];
  assert.equal(find(secondary, first, 'alloc_per_op'), undefined);
  assert.ok(find(parse(text('avgt-gc')), first, 'alloc_per_op'));
  assert.ok(secondary.notes.includes('jmh: secondary result "gc.alloc.rate.norm" (__proto__) is not mapped to a benchline metric and was left out'));
});

test('a score written as text other than JMH\'s "NaN" and "Infinity" is no number: "12" or "" is refused, not read as 12 or 0', () => {
  const doc = JSON.parse(text('avgt-gc'));
  for (const score of ['12', '', ' ', '0x10']) {
    const d = structuredClone(doc);
    d[0].primaryMetric.score = score;
    assert.throws(() => parse(JSON.stringify(d)), { name: 'ParseError', message: new RegExp(`score ${JSON.stringify(score)} is not a number`) }, JSON.stringify(score));
  }
});

test('a benchmark name that names no method (empty after its last ".") is refused naming the result, not made an empty case the schema rejects', () => {
  const doc = JSON.parse(text('thrpt-two-forks'));
  for (const name of ['..', 'org.example.Bench.', ' ']) {
    const d = structuredClone(doc);
    d[1].benchmark = name;
    assert.throws(() => parse(JSON.stringify(d)), { name: 'ParseError', message: `result 1 has the benchmark name ${JSON.stringify(name)}, which names no method (JMH writes package.Class.method); the file is corrupted or edited` }, name);
  }
});

test('a score, interval end, iteration value or percentile that overflows when scaled to ns (1e308 us/op) is refused naming it, not written as Infinity', () => {
  const doc = JSON.parse(text('multi-mode'));
  const at = doc.findIndex((e) => e.mode === 'sample');
  const name = caseNames(doc)[at];
  assert.ok(at >= 0 && doc[at].primaryMetric.scoreUnit !== 'ns/op');
  const edits = [
    [(pm) => { pm.score = 1e308; }, `${name}: time.mean score 1e+308 is beyond any measurement`],
    [(pm) => { pm.scoreConfidence[1] = 1e308; }, `${name}: time.mean scoreConfidence 1e+308 is beyond any measurement`],
    [(pm) => { pm.scorePercentiles['100.0'] = 1e308; }, `${name}: scorePercentiles[100.0] 1e+308 is beyond any measurement`],
  ];
  for (const [edit, message] of edits) {
    const d = structuredClone(doc);
    edit(d[at].primaryMetric);
    assert.throws(() => parse(JSON.stringify(d)), { name: 'ParseError', message: `${message} (Infinity in canonical units); the file is corrupted or edited` });
  }
});

test('alloc_per_op is judged by default and carries a step of one byte, so JMH\'s own bookkeeping on a benchmark that allocates nothing is below resolution, not a 30% regression', async () => {
  const { compare, isJudged } = await import('../ci/compare.js');
  assert.ok(isJudged({ tool: 'jmh' }, 'alloc_per_op'), 'the bytes a benchmark allocates per operation get a verdict without a judge: list');
  assert.ok(!isJudged({ tool: 'jmh' }, 'alloc_rate'), 'its rate over the measurement time does not');
  // the same code captured on a quiet and on a busy machine: 0.0025 against 0.0032 B/op, per iteration
  const quiet = find(parse(text('avgt-gc')), 'sbeSerialize', 'alloc_per_op');
  const busy = find(parse(text('avgt-gc-busy')), 'sbeSerialize', 'alloc_per_op');
  assert.equal(quiet.resolution, 1);
  const rounds = (m) => Array.from({ length: 8 }, (_, i) => m.samples[i % m.samples.length]);
  const side = (role, m) => ({
    suite: 'serialization', subject: 'serialization', variant: 'default', tool: { name: 'jmh', version: '1.37' }, scenario: 'avgt-gc', run: { id: 'r1', role }, trials: 8,
    sequential: { looks: [8], weights: [1] }, metrics: [{ ...m, samples: rounds(m) }],
  });
  const c = compare([side('base', quiet)], [side('head', busy)], { confidence: 0.95, alpha: 0.05, minEffect: 0.02, metrics: {} }).comparisons[0];
  assert.ok(c.change > 0.2, `head's bookkeeping is ${c.change} above base's`);
  assert.equal(c.verdict, 'below resolution');
  // one 16-byte object more per operation is well above the step, and a regression
  const grown = { ...busy, samples: busy.samples.map((v) => v + 16) };
  assert.equal(compare([side('base', quiet)], [side('head', grown)], { confidence: 0.95, alpha: 0.05, minEffect: 0.02, metrics: {} }).comparisons[0].verdict, 'regression');
});

test('an iteration value outside its block\'s own 0.0..100.0 percentiles, or a score that is not its iterations\' mean, is refused (avgt-gc.json and params.json, edited as each edit says), not kept beside the score', () => {
  const avgt = JSON.parse(text('avgt-gc'));
  const scaled = structuredClone(avgt);
  // the first iteration of the first benchmark multiplied by 1000: a sample of ms beside a score of µs
  scaled[0].primaryMetric.rawData[0][0] *= 1000;
  assert.throws(() => parse(JSON.stringify(scaled)), (e) => e instanceof ParseError && /\(avgt\): iteration value [\d.]+ in rawData lies outside the iterations' own range/.test(e.message));
  const alloc = structuredClone(avgt);
  // the same on a secondary result: gc.alloc.rate's first iteration multiplied by 1000
  alloc[0].secondaryMetrics['gc.alloc.rate'].rawData[0][0] *= 1000;
  assert.throws(() => parse(JSON.stringify(alloc)), (e) => e instanceof ParseError && /gc\.alloc\.rate: iteration value/.test(e.message));
  // params.json has two iterations, so no interval would catch an edited score: a "1" put before its digits
  const params = JSON.parse(text('params'));
  params[0].primaryMetric.score = Number(`1${params[0].primaryMetric.score}`);
  assert.throws(() => parse(JSON.stringify(params)), (e) => e instanceof ParseError && /score [\d.]+ is not the mean of its iterations' values in rawData/.test(e.message));
  // the captured files, gc.count and gc.time (sums of their iterations) among them, still read
  for (const c of ['avgt-gc', 'avgt-gc-busy', 'params', 'thrpt-two-forks', 'single-shot', 'multi-mode', 'sample']) assert.ok(parse(text(c)).metrics.length, c);
});

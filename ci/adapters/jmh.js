// Adapter for JMH: reads `-rf json` result arrays (every mode, -prof gc) and builds the java -jar command line.
import { isAbsolute, join } from 'node:path';
import { ParseError, parseJson, shown } from './errors.js';
import { metric } from '../metrics.js';

export const name = 'jmh';

/**
 * Metrics that get a verdict by default (a job's `judge:` replaces them): the score of each benchmark (time per operation
 * or operations per second, by mode), and, with -prof gc, the bytes it allocates per operation, which the code sets
 * rather than the machine (jsonSerialize: 2264.2 and 2265.0 B/op in captures on a quiet and a busy machine).
 */
export const judged = Object.freeze(['time.mean', 'throughput', 'alloc_per_op']);
export const binary = 'java';
export const produce = 'java -jar benchmarks.jar -rf json -rff out.json';
/** Times its own benchmark methods: the cores it uses are the benchmark's, never a load tool's ceiling. */
export const selfTimed = true;

/**
 * The step of alloc_per_op, in bytes: JMH divides the bytes the benchmark's threads allocated in an iteration by its
 * operations, so its own bookkeeping shows as a fraction of a byte per operation (sbeSerialize, which allocates nothing:
 * 0.0025 B/op in one capture, 0.0032 in another, 30% apart), while the smallest object HotSpot allocates is 16 bytes.
 */
const ALLOC_STEP = 1;

/** JMH's default confidence level for scoreError and scoreConfidence. */
const JMH_CONFIDENCE = 0.999;

/** Nanoseconds per JMH TimeUnit label (JMH writes these seven), or undefined for any other text. */
const JMH_UNITS = Object.freeze({ ns: 1, us: 1e3, ms: 1e6, s: 1e9, min: 60e9, hr: 3600e9, day: 86400e9 });
const nsPer = (unit) => (Object.hasOwn(JMH_UNITS, unit) ? JMH_UNITS[unit] : undefined);

/**
 * Secondary results benchline understands, by JMH label: metric name and the factor from each unit
 * JMH may print to the canonical one. -prof gc's MB is 1024 * 1024 bytes (see GCProfiler).
 * `message.bytes` comes from the serialization subject's MessageSizeProfiler.
 */
const SECONDARY = {
  'gc.alloc.rate.norm': ['alloc_per_op', { 'B/op': 1 }],
  'gc.alloc.rate': ['alloc_rate', { 'MB/sec': 1024 * 1024 }],
  'gc.count': ['gc_count', { counts: 1 }],
  'gc.time': ['gc_time', { ms: 1e6 }],
  'message.bytes': ['message_bytes', { B: 1 }],
};

/** Percentiles of a sample-mode run that become metrics of their own (the rest stay in the distribution). */
const SAMPLE_PERCENTILES = [['50.0', 'time.p50'], ['90.0', 'time.p90'], ['99.0', 'time.p99'], ['99.9', 'time.p99.9'], ['99.99', 'time.p99.99'], ['100.0', 'time.max']];

const MODES = { thrpt: 'thrpt', avgt: 'avgt', sample: 'sample', ss: 'ss' };

/** JSON numbers, or the strings JMH writes for non-finite values ("NaN", "Infinity"); other text ("12", "") is no number. */
const num = (v) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?(?:NaN|Infinity)$/.test(v) ? Number(v) : NaN);

/** Factor from a JMH primary score unit to the canonical unit, and the metric it feeds. */
function primaryScale(mode, unit, where) {
  const units = Object.keys(JMH_UNITS).join(', ');
  const rate = /^ops\/(\w+)$/.exec(unit);
  if (mode === 'thrpt') {
    if (!nsPer(rate?.[1])) throw new ParseError(`${where}: throughput score unit ${shown(unit)} is not ops/<time> (time one of ${units})`);
    return { metric: 'throughput', factor: 1e9 / nsPer(rate[1]) };
  }
  const per = /^(\w+)\/op$/.exec(unit);
  if (!nsPer(per?.[1])) throw new ParseError(`${where}: ${mode} score unit ${shown(unit)} is not <time>/op (time one of ${units})`);
  return { metric: 'time.mean', factor: nsPer(per[1]) };
}

const shortName = (benchmark) => benchmark.split('.').pop();

function checkEntry(e, i) {
  const where = `result ${i}`;
  if (!e || typeof e !== 'object' || Array.isArray(e)) throw new ParseError(`${where} is not an object; this is not a JMH -rf json file`);
  if (typeof e.benchmark !== 'string' || !e.benchmark) throw new ParseError(`${where} has no "benchmark" name; this is not a JMH -rf json file`);
  // the method's name after the last "." names the case: JMH writes package.Class.method
  if (!shortName(e.benchmark).trim()) throw new ParseError(`${where} has the benchmark name ${shown(e.benchmark)}, which names no method (JMH writes package.Class.method); the file is corrupted or edited`);
  if (!e.primaryMetric || typeof e.primaryMetric !== 'object') throw new ParseError(`${e.benchmark}: no "primaryMetric"; the file is not JMH -rf json or was cut short`);
  if (!Object.hasOwn(MODES, e.mode)) throw new ParseError(`${e.benchmark}: unknown mode ${shown(e.mode)} (JMH writes thrpt, avgt, sample or ss)`);
  const pm = e.primaryMetric;
  if (typeof pm.scoreUnit !== 'string') throw new ParseError(`${e.benchmark} (${e.mode}): primaryMetric has no scoreUnit`);
  if (!Number.isFinite(num(pm.score))) throw new ParseError(`${e.benchmark} (${e.mode}): score ${shown(pm.score)} is not a number`);
}

const className = (benchmark) => benchmark.split('.').slice(-2, -1)[0] || '';
const paramText = (params) => (params && Object.keys(params).length
  ? `{${Object.entries(params).map(([k, v]) => `${k}=${v}`).join(',')}}`
  : '');

/**
 * Case names: the method's short name plus {params}; the class name is prepended only when two
 * classes in one file share a method name, and [mode] is appended only when one file holds
 * several modes of the same benchmark, so plain runs keep plain names across files.
 */
export function caseNames(entries) {
  const withParams = entries.map((e) => `${shortName(e.benchmark)}${paramText(e.params)}`);
  const classesOf = new Map();
  entries.forEach((e, i) => {
    if (!classesOf.has(withParams[i])) classesOf.set(withParams[i], new Set());
    classesOf.get(withParams[i]).add(e.benchmark);
  });
  const named = entries.map((e, i) => (classesOf.get(withParams[i]).size > 1 ? `${className(e.benchmark)}.${withParams[i]}` : withParams[i]));
  const count = new Map();
  for (const n of named) count.set(n, (count.get(n) || 0) + 1);
  return named.map((n, i) => (count.get(n) > 1 ? `${n}[${entries[i].mode}]` : n));
}

// [value, count] pairs of a sample-mode histogram; anything else in an edited file is not a pair and is skipped
const isPair = (x) => Array.isArray(x) && x.length === 2 && Number.isFinite(num(x[0])) && Number.isInteger(x[1]) && x[1] >= 0;

/** Per-iteration values: rawData, or the mean of each iteration's histogram in sample mode; forks flattened. */
function iterationValues(m) {
  if (Array.isArray(m.rawData)) return m.rawData.flat().map(num).filter(Number.isFinite);
  if (Array.isArray(m.rawDataHistogram)) {
    return m.rawDataHistogram.flat().map((iteration) => {
      let sum = 0;
      let n = 0;
      for (const [v, c] of (Array.isArray(iteration) ? iteration : []).filter(isPair)) { sum += num(v) * c; n += c; }
      return n ? sum / n : NaN;
    }).filter(Number.isFinite);
  }
  return [];
}

const sampleCount = (m) => (Array.isArray(m.rawDataHistogram)
  ? m.rawDataHistogram.flat(2).filter(isPair).reduce((s, [, c]) => s + c, 0)
  : undefined);

/**
 * A finite value `v` in the canonical unit; one that overflows there (1e308 us/op) is a ParseError naming `what`, not
 * Infinity. A value JMH wrote as non-finite ("NaN") stays as it is, for the caller to leave out.
 */
function scaled(v, factor, what) {
  const out = v * factor;
  if (Number.isFinite(v) && !Number.isFinite(out)) throw new ParseError(`${what} ${v} is beyond any measurement (Infinity in canonical units); the file is corrupted or edited`);
  return out;
}

/**
 * Why a score block's per-iteration values (rawData) cannot be the ones JMH measured, or undefined. Outside sample mode
 * JMH computes scorePercentiles over those values, so each lies within its 0.0..100.0 percentiles, and the primary
 * score is their mean (gc.count and gc.time sum them); an edited iteration value or score breaks either.
 */
function rawDataProblem(block, primary) {
  if (!Array.isArray(block.rawData)) return undefined;
  const values = iterationValues(block);
  const pct = block.scorePercentiles || {};
  const [lo, hi] = [num(pct['0.0']), num(pct['100.0'])];
  const slack = (v) => Math.abs(v) * 1e-9;
  const out = Number.isFinite(lo) && Number.isFinite(hi) ? values.find((v) => v < lo - slack(lo) || v > hi + slack(hi)) : undefined;
  if (out !== undefined) return `iteration value ${out} in rawData lies outside the iterations' own range ${lo} .. ${hi} (scorePercentiles 0.0 and 100.0)`;
  const score = num(block.score);
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (primary && values.length && Math.abs(mean - score) > 1e-6 * Math.max(Math.abs(score), Math.abs(mean))) return `score ${score} is not the mean of its iterations' values in rawData (${mean})`;
  return undefined;
}

/** One metric from a JMH score block: value, interval and per-iteration samples, all scaled. */
function scoreMetric(metricName, block, factor, caseName) {
  const where = `${caseName}: ${metricName}`;
  const value = scaled(num(block.score), factor, `${where} score`);
  const extra = { case: caseName, ...(metricName === 'alloc_per_op' ? { resolution: ALLOC_STEP } : {}) };
  const [lo, hi] = (Array.isArray(block.scoreConfidence) ? block.scoreConfidence : []).map(num);
  if (Number.isFinite(lo) && Number.isFinite(hi)) Object.assign(extra, { lower: scaled(lo, factor, `${where} scoreConfidence`), upper: scaled(hi, factor, `${where} scoreConfidence`), confidence: JMH_CONFIDENCE });
  const samples = iterationValues(block).map((v) => scaled(v, factor, `${where} iteration value`));
  if (samples.length) extra.samples = samples;
  return metric(metricName, value, extra);
}

/** Parses one JMH -rf json file: one case per benchmark (and params, and mode when needed). */
export function parse(text) {
  if (!text || !text.trim()) {
    throw new ParseError('the file is empty; JMH leaves its -rf json file empty when the include regex matches no benchmark (it prints "No matching benchmarks")', produce);
  }
  const data = parseJson(text, produce);
  if (!Array.isArray(data)) throw new ParseError(`expected a JSON array of JMH benchmark results, got ${data === null ? 'null' : typeof data}`, produce);
  if (!data.length) {
    throw new ParseError('the result array is empty: no benchmark finished (JMH writes [] when every fork failed, e.g. on a bad JVM option; its log says why)', produce);
  }
  data.forEach(checkEntry);
  const cases = caseNames(data);
  const metrics = [];
  const distributions = [];
  const notes = [];
  data.forEach((e, i) => {
    const caseName = cases[i];
    const pm = e.primaryMetric;
    const { metric: primaryName, factor } = primaryScale(e.mode, pm.scoreUnit, `${e.benchmark} (${e.mode})`);
    const where = (key) => `${e.benchmark} (${e.mode})${key ? ` ${key}` : ''}`;
    const rawProblem = (block, key) => {
      const problem = e.mode === 'sample' ? undefined : rawDataProblem(block, !key);
      if (problem) throw new ParseError(`${where(key)}: ${problem}; the file was edited or corrupted`, produce);
    };
    rawProblem(pm);
    metrics.push(scoreMetric(primaryName, pm, factor, caseName));
    if (e.mode === 'sample') {
      const pct = pm.scorePercentiles || {};
      for (const [p, metricName] of SAMPLE_PERCENTILES) {
        const v = num(pct[p]);
        if (Number.isFinite(v)) metrics.push(metric(metricName, scaled(v, factor, `${caseName}: scorePercentiles[${p}]`), { case: caseName }));
      }
      const percentiles = Object.entries(pct)
        .map(([p, v]) => ({ p: Number(p), value: scaled(num(v), factor, `${caseName}: scorePercentiles[${p}]`) }))
        .filter((x) => Number.isFinite(x.p) && Number.isFinite(x.value))
        .sort((a, b) => a.p - b.p);
      if (percentiles.length) {
        const d = { name: 'time', case: caseName, unit: 'ns', percentiles };
        const count = sampleCount(pm);
        if (count !== undefined) d.count = count;
        distributions.push(d);
      }
    }
    const secondary = e.secondaryMetrics && typeof e.secondaryMetrics === 'object' ? e.secondaryMetrics : {};
    for (const [label, block] of Object.entries(secondary)) {
      const key = label.replace(/^\u00b7/, '');
      if (!block || typeof block !== 'object') throw new ParseError(`${e.benchmark}: secondary result "${key}" is not an object; the file was edited or cut short`);
      // Sample mode repeats its percentiles as secondaries named p0.00 .. p1.00; they are already read above.
      if (/^p\d/.test(key)) continue;
      const known = Object.hasOwn(SECONDARY, key) ? SECONDARY[key] : undefined;
      const f = known && Object.hasOwn(known[1], block.scoreUnit) ? known[1][block.scoreUnit] : undefined;
      if (!known || f === undefined) {
        notes.push(`jmh: secondary result "${key}" (${block.scoreUnit}) is not mapped to a benchline metric and was left out`);
        continue;
      }
      if (!Number.isFinite(num(block.score))) {
        notes.push(`jmh: ${caseName} ${key} has no value (${block.score}) and was left out`);
        continue;
      }
      rawProblem(block, key);
      metrics.push(scoreMetric(known[0], block, f, caseName));
    }
  });
  const first = data[0];
  if (first.jdkVersion) notes.push(`jmh: JDK ${[first.jdkVersion, first.vmName, first.vmVersion].filter(Boolean).join(' ')}`);
  const out = { metrics, toolVersion: first.jmhVersion ? String(first.jmhVersion) : undefined, notes: [...new Set(notes)] };
  if (distributions.length) out.distributions = distributions;
  return out;
}

const asList = (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]);

/** JMH options passed straight through from job params: param name -> flag. */
const FLAGS = {
  forks: '-f', warmupIterations: '-wi', iterations: '-i', warmup: '-w', time: '-r',
  mode: '-bm', timeUnit: '-tu', threads: '-t', batchSize: '-bs', warmupBatchSize: '-wbs', timeout: '-to',
};

/**
 * Why java or JMH stopped before benchmarking, from what they printed, and how to fix the job; undefined when the run
 * ended normally or stopped in a way this does not know (the output file then says more: JMH leaves it empty when the
 * include regex matched nothing). Without it a missing jar, an unknown profiler or a refused option was only "jmh wrote
 * no output file".
 */
export function failedRun({ exitCode, stdout = '', stderr = '', params = {} } = {}) {
  if (!exitCode) return undefined;
  const lines = `${stderr}\n${stdout}`.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('WARNING: '));
  const after = (re) => { const i = lines.findIndex((l) => re.test(l)); return i < 0 ? undefined : lines[i + 1] || ''; };
  const jar = lines.find((l) => /^Error: Unable to access jarfile /.test(l));
  if (jar) {
    return `java could not open the benchmarks jar: ${JSON.stringify(jar)}; params.jar (${JSON.stringify(String(params.jar ?? ''))}) is relative to the subject folder, and the subject's build: (subject.yaml) must make it`;
  }
  const cli = after(/^Error parsing command line:/);
  if (cli !== undefined) {
    return `JMH refused its command line: ${JSON.stringify(cli)}; the job's params take JMH's own values (docs/config.md, JMH): timeUnit ns, us, ms, s, m; mode thrpt, avgt, sample, ss; warmup and time such as 200ms or 1s`;
  }
  // JMH takes a machine-wide lock so that two runs never measure beside each other
  const lock = lines.find((l) => /Unable to acquire the JMH lock/.test(l));
  if (lock) {
    const file = /lock \(([^)]+)\)/.exec(lock)?.[1] || '/tmp/jmh.lock';
    return `another JMH is running on this machine (JMH's lock ${file} is held), so JMH exited before benchmarking: run the job again when it is done; javaOptions: -Djmh.ignoreLock=true would measure beside it, which JMH's lock is there to prevent`;
  }
  const prof = after(/^Profilers failed to initialize/);
  if (prof !== undefined) {
    return `JMH could not start a profiler of params.prof (${JSON.stringify(asList(params.prof).join(' '))}): ${JSON.stringify(prof)}; java -jar <jar> -lprof lists JMH's own (gc, stack, ...), any other is a class name on the jar's classpath`;
  }
  // a benchmark threw (or its fork could not load it) and -foe stopped JMH, leaving the -rf json file empty
  const failure = lines.findIndex((l) => /<failure>$/.test(l));
  if (failure < 0 && !lines.some((l) => /^ERROR: org\.openjdk\.jmh\.runner\.RunnerException: Benchmark caught the exception/.test(l))) return undefined;
  const exception = /^(?:Suppressed: |Caused by: )?([\w$.]+(?:Exception|Error)\b.*)$/;
  const thrown = [...lines.slice(failure + 1), ...lines].map((l) => exception.exec(l)?.[1])
    .find((l) => l && !/^org\.openjdk\.jmh\.runner\./.test(l));
  const before = lines.slice(0, failure < 0 ? lines.length : failure).reverse();
  const bench = before.find((l) => l.startsWith('# Benchmark: '))?.slice(13);
  const values = before.find((l) => l.startsWith('# Parameters: '))?.slice(14);
  const which = bench ? `the benchmark ${bench}${values ? ` ${values}` : ''}` : 'a benchmark';
  if (/^java\.lang\.UnsupportedClassVersionError\b/.test(thrown || '')) {
    return `the java that runs JMH is older than the JDK that compiled the jar: ${JSON.stringify(thrown)}; benchline runs JMH with JAVA25_HOME's java, else Temurin 25 in /usr/lib/jvm (benchline doctor shows which): point JAVA25_HOME at a JDK as new as the one that built params.jar, and rebuild the jar with it (a build that compiled nothing new keeps the old classes)`;
  }
  return `${which} threw ${thrown ? JSON.stringify(thrown) : 'an exception'}, so JMH stopped (failOnError is on by default) and wrote no results; its stack trace is in the trial's stdout in the job's raw folder. Fix the benchmark, or set failOnError: false to keep the results of the benchmarks that ran`;
}

/** Every parameter command() reads, and the prefix of @Param values (`p.NAME`): a near miss of one is refused with the config. */
export const params = Object.freeze(['jar', 'include', ...Object.keys(FLAGS), 'prof', 'jvmArgsAppend', 'javaOptions', 'failOnError']);
export const paramPrefixes = Object.freeze(['p.']);

/**
 * The command line of one trial: java -jar <subject>/<params.jar> [options] -rf json -rff <outFile> [include].
 * params: jar (relative to the subject folder), include (regex), forks, warmupIterations, iterations,
 * warmup, time, mode, timeUnit, threads, batchSize, warmupBatchSize, timeout, prof (one profiler or a
 * list; a string holding several is split on whitespace), jvmArgsAppend, and `p.<name>` for @Param
 * values ("1,20"). Fail-on-error is on, so a benchmark that throws fails the job instead of going missing.
 */
export function command(ctx) {
  const p = ctx.params || {};
  if (!p.jar) throw new Error('jmh: the job needs params.jar, the benchmarks jar relative to the subject folder (e.g. target/benchmarks.jar)');
  if (!ctx.outFile) throw new Error('jmh: no output file (ctx.outFile) for -rff');
  const base = ctx.subjectDir || ctx.root || '.';
  const argv = [ctx.bin || 'java'];
  if (p.javaOptions) argv.push(...String(p.javaOptions).split(/\s+/).filter(Boolean));
  argv.push('-jar', isAbsolute(String(p.jar)) ? String(p.jar) : join(base, String(p.jar)));
  for (const [key, flag] of Object.entries(FLAGS)) if (p[key] !== undefined && p[key] !== null) argv.push(flag, String(p[key]));
  for (const prof of asList(p.prof).flatMap((x) => String(x).split(/\s+/)).filter(Boolean)) argv.push('-prof', prof);
  if (p.jvmArgsAppend) argv.push('-jvmArgsAppend', String(p.jvmArgsAppend));
  for (const [key, value] of Object.entries(p)) {
    if (key.startsWith('p.') && key.length > 2) argv.push('-p', `${key.slice(2)}=${asList(value).join(',')}`);
  }
  argv.push('-foe', p.failOnError === false ? 'false' : 'true');
  argv.push('-rf', 'json', '-rff', ctx.outFile);
  if (p.include) argv.push(String(p.include));
  return { argv, output: 'file' };
}

// Adapter for ghz: reads its `-O json` report (durations in integer nanoseconds) into metrics.
//
// What ghz reports, and how it is read:
//   count, rps, total (ns)          -> requests, throughput, duration
//   errorDistribution               -> errors, error_rate (a run where every call failed is valid data)
//   fastest, slowest, average       -> latency.min, latency.max, latency.mean
//   latencyDistribution (10..99 %)  -> latency.p10 ... latency.p99 and the latency distribution
// ghz computes its percentiles, fastest and slowest over successful calls only, but its average
// over every call, errors included; when some calls failed, latency.mean is recomputed from the
// report's per-call details so that all latency metrics describe the same calls.
//
// With -z (a duration) and the default --duration-stop=close, ghz closes the connection while
// calls are in flight and counts them as errors ("transport is closing", "grpc: the client
// connection is closing", "use of closed network connection"; bojand/ghz#370), and so it does at the end
// of -x (--max-duration). Those are not the server's errors: they are left out of requests, errors and
// throughput, and named in a note. command() passes --duration-stop=wait with either, so runs made by benchline
// do not have them.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { nearMiss } from '../spelling.js';
import { ParseError, parseJson, shown } from './errors.js';
import { metric } from '../metrics.js';
import { wholeNumber } from './counts.js';

export const name = 'ghz';

/** Metrics that get a verdict by default (a job's `judge:` replaces them): throughput and typical and tail latency, and errors. */
export const judged = Object.freeze(['throughput', 'latency.p50', 'latency.p99', 'error_rate']);
export const binary = 'ghz';
export const produce = 'ghz --insecure --call pkg.Service/Method -n 1000 -c 10 -O json -o out.json 127.0.0.1:PORT';

const fail = (reason) => { throw new ParseError(reason, produce); };
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
/** Longest latency a call could have taken, in ns (11.6 days): a longer one in details is a corrupted value. */
const MAX_LATENCY_NS = 1e15;
const CUTOFF = /client connection is closing|use of closed network connection|transport is closing/;

function counts(where, dist) {
  if (dist === null || dist === undefined) return [];
  if (!isObj(dist)) fail(`${where} is ${shown(dist)}, not an object of counts`);
  return Object.entries(dist).map(([k, v]) => {
    if (!Number.isInteger(v) || v < 0) fail(`${where}[${shown(k)}] is ${shown(v)}, not a count`);
    return [k, v];
  });
}

const sum = (pairs) => pairs.reduce((s, [, v]) => s + v, 0);
const round3 = (v) => Math.round(v * 1000) / 1000;

/** Nanoseconds since the epoch of an RFC 3339 timestamp, as a BigInt: Date keeps only milliseconds. */
function instant(ts) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(String(ts));
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  return Number.isFinite(ms) ? BigInt(ms) * 1000000n + BigInt((m[2] || '').padEnd(9, '0')) : undefined;
}

// Calls that ghz cut off end within a few milliseconds of the run's last recorded call.
const CUTOFF_WINDOW_NS = 20000000n;

/**
 * Errors ghz made itself by closing the connection at the end of -z: errors with one of the
 * closing messages that ended within CUTOFF_WINDOW_NS of the last call the report records (so
 * a server that went away mid-run still counts as errors). Without per-call details, every
 * error with a closing message counts.
 */
function cutoffErrors(doc, errorPairs) {
  if (doc.endReason !== 'timeout') return 0;
  if (!Array.isArray(doc.details) || !doc.details.length) return sum(errorPairs.filter(([msg]) => CUTOFF.test(msg)));
  const ends = doc.details.map((d) => instant(d?.timestamp));
  const last = ends.reduce((a, t) => (t !== undefined && (a === undefined || t > a) ? t : a), undefined);
  return doc.details.filter((d, i) => d?.error && CUTOFF.test(d.error) && ends[i] !== undefined && last - ends[i] <= CUTOFF_WINDOW_NS).length;
}

/** Checks the fields every ghz JSON report has, naming the first one that is missing. */
function validate(doc) {
  if (!isObj(doc)) fail(`top level is ${Array.isArray(doc) ? 'an array' : typeof doc}, not a ghz report object`);
  if (isObj(doc.metrics) || isObj(doc.root_group)) fail('this is a k6 summary, not ghz output');
  const missing = ['count', 'total', 'average', 'fastest', 'slowest', 'rps'].filter((k) => !isNum(doc[k]));
  if (missing.length === 6) fail(`none of ghz's report fields (count, total, rps, ...) are present; this is not ghz -O json output`);
  if (missing.length) fail(`ghz report field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing or not numbers; the file may be truncated`);
  if (!('statusCodeDistribution' in doc) || !('errorDistribution' in doc)) {
    fail('ghz report lacks statusCodeDistribution or errorDistribution; the file may be truncated');
  }
  if (doc.latencyDistribution !== null && doc.latencyDistribution !== undefined && !Array.isArray(doc.latencyDistribution)) {
    fail('latencyDistribution is not a list');
  }
  for (const [i, p] of (doc.latencyDistribution || []).entries()) {
    if (!isNum(p?.percentage) || !isNum(p?.latency)) fail(`latencyDistribution[${i}] needs numeric percentage and latency`);
    // each rank names a metric (latency.p99): ghz prints ranks such as 10, 99 or 99.9, never 0, above 100 or in e-notation
    if (!(p.percentage > 0 && p.percentage <= 100) || !/^\d+(\.\d+)?$/.test(String(p.percentage))) {
      fail(`latencyDistribution[${i}].percentage ${shown(p.percentage)} is not a rank ghz prints (a number above 0 and at most 100, such as 99.9); the file is corrupted or edited`);
    }
  }
  if (doc.histogram !== null && doc.histogram !== undefined) {
    if (!Array.isArray(doc.histogram) || doc.histogram.some((b) => !isNum(b?.mark) || !Number.isInteger(b?.count))) {
      fail('histogram is not a list of {mark, count} buckets');
    }
  }
}

// share of --rps a run must make for its throughput to count as the rate asked for
const RATE_HELD = 0.9;

/**
 * { setBy } for throughput when ghz paced its calls (--rps, or a --load-schedule of step or line, as its report's options
 * say): the rate is then the one asked for, not what the subject can do, and a slower subject shows in its latency.
 * A run that made less than RATE_HELD of its --rps did not hold the rate: the subject (at that concurrency) set it.
 */
function paced(options, achieved) {
  const schedule = options?.['load-schedule'];
  if (schedule === 'step' || schedule === 'line') return { setBy: `ghz paced its calls by --load-schedule=${schedule}` };
  if (isNum(options?.rps) && options.rps > 0 && !(achieved < RATE_HELD * options.rps)) return { setBy: `ghz paced its calls at --rps=${options.rps}` };
  return {};
}

/** One ghz JSON report -> { metrics, distributions?, notes }. */
export function parse(text) {
  if (typeof text !== 'string' || !text.trim()) {
    fail('the file is empty; ghz writes no report when it cannot reach the target (connection refused or no such host)');
  }
  if (/^\s*Summary:\s*\n\s*(Name|Count):/.test(text)) fail("this is ghz's text summary; run ghz with -O json");
  if (/^\s*duration \(ms\),status,error/.test(text)) fail("this is ghz's CSV output; run ghz with -O json");
  const doc = parseJson(text, produce);
  validate(doc);

  const notes = [];
  const errorPairs = counts('errorDistribution', doc.errorDistribution);
  const statusPairs = counts('statusCodeDistribution', doc.statusCodeDistribution);
  const countErrors = doc.options?.['count-errors'] === true;
  const cutoff = cutoffErrors(doc, errorPairs);
  const allErrors = sum(errorPairs);
  const requests = doc.count - cutoff;
  const errors = allErrors - cutoff;
  if (allErrors > doc.count) fail(`errorDistribution counts ${allErrors} errors, more than the ${doc.count} calls`);
  const seconds = doc.total / 1e9;
  const throughput = cutoff && seconds > 0 ? requests / seconds : doc.rps;
  const asked = doc.options?.rps;
  if (isNum(asked) && asked > 0 && !['step', 'line'].includes(doc.options?.['load-schedule']) && throughput < RATE_HELD * asked) {
    notes.push(`ghz was asked for --rps=${asked} and made ${+throughput.toPrecision(4)}/s: the subject (at --concurrency=${doc.options.concurrency ?? '?'}) set the rate, so its throughput is the subject's`);
  }

  const out = [
    metric('requests', requests),
    metric('throughput', throughput, paced(doc.options, throughput)),
    metric('errors', errors),
    metric('duration', doc.total),
  ];
  if (requests > 0) out.push(metric('error_rate', errors / requests));
  if (cutoff) notes.push(`ghz closed ${cutoff} in-flight call${cutoff === 1 ? '' : 's'} when its duration ended; not counted (bojand/ghz#370; use --duration-stop=wait)`);
  if (doc.endReason === 'cancel') notes.push('the ghz run was cancelled before its end');

  const lat = doc.latencyDistribution || [];
  // ghz leaves latencyDistribution null when no call succeeded, and fastest/slowest at 0.
  if (lat.length) {
    let mean = doc.average;
    if (allErrors > 0 && !countErrors) {
      const ok = Array.isArray(doc.details) ? doc.details.filter((d) => !d?.error) : [];
      const bad = ok.findIndex((d) => !isNum(d?.latency) || d.latency < 0 || d.latency > MAX_LATENCY_NS);
      if (bad >= 0) fail(`details[${doc.details.indexOf(ok[bad])}] is ${shown(ok[bad])}, not a call with a latency in ns from 0 to ${MAX_LATENCY_NS} (the mean of the calls that succeeded is taken from details); the file is corrupted or edited`);
      mean = ok.length ? round3(ok.reduce((s, d) => s + d.latency, 0) / ok.length) : undefined;
      if (mean === undefined) notes.push('latency.mean is left out: ghz averages over failed calls too and the report has no per-call details');
    }
    if (mean !== undefined) out.push(metric('latency.mean', mean));
    out.push(metric('latency.min', doc.fastest), metric('latency.max', doc.slowest));
    for (const p of lat) out.push(metric(`latency.p${p.percentage}`, p.latency));
  } else if (doc.count > 0) {
    notes.push(`no call succeeded (${statusPairs.map(([s, n]) => `${n} ${s}`).join(', ') || `${doc.count} errors`}); latency metrics are left out`);
  } else {
    notes.push('ghz made no calls');
  }

  const failedStatuses = statusPairs.filter(([s]) => s !== 'OK');
  if (failedStatuses.length && errors > 0) {
    const top = errorPairs.filter(([msg]) => !(cutoff && CUTOFF.test(msg))).sort((a, b) => b[1] - a[1])[0];
    if (top) notes.push(`ghz errors: ${errors} calls failed; most common: ${top[1]} x "${top[0]}"`);
  }

  const result = { metrics: out, notes };
  if (lat.length) {
    const okCount = countErrors ? doc.count : doc.count - allErrors;
    result.distributions = [{
      name: 'latency',
      unit: 'ns',
      count: okCount,
      percentiles: [{ p: 0, value: doc.fastest }, ...lat.map((p) => ({ p: p.percentage, value: p.latency })), { p: 100, value: doc.slowest }],
    }];
  }
  return result;
}

/**
 * Why ghz stopped before writing its report, from what it printed on stderr, and how to fix the job; undefined when it
 * did not fail. ghz exits 1 and prints one line when it cannot run at all (no connection, no such method, an unreadable
 * proto file): the report file is never created then, so without this the job says only that no file was written.
 */
export function failedRun({ exitCode, stderr, params = {} } = {}) {
  if (!exitCode) return undefined;
  const line = String(stderr || '').split('\n').map((l) => l.trim()).filter(Boolean).pop();
  if (!line) return undefined;
  const said = JSON.stringify(line.slice(0, 300));
  if (/Error while dialing|connection refused|no such host|connection error/.test(line)) {
    return `ghz could not reach the target: ${said}; start the subject and check its target.grpc (subject.yaml)`;
  }
  if (/^Symbol not found: |cannot find (?:method|service)|not found in (?:the )?(?:proto|file descriptor)|does not include a method named/i.test(line)) {
    return `ghz found no method ${JSON.stringify(String(params.call ?? ''))}: ${said}; params.call is package.Service/Method as ${params.proto || params.protoset ? 'the proto file' : 'the server\'s reflection'} names it`;
  }
  if (/^(?:could not load protoset file .*: )?open .*: no such file or directory$/.test(line)) {
    return `ghz could not open a file: ${said}; params.proto, protoset and importPaths are paths from the repository root`;
  }
  return `ghz stopped before writing its report: ${said}`;
}

/** "host:port" the calls go to: target.grpc, or target.host and target.port. */
function targetAddress(target = {}) {
  if (target.grpc) return String(target.grpc).replace(/^[a-z]+:\/\//, '');
  if (target.host && target.port) return `${target.host}:${target.port}`;
  if (target.url) {
    const u = new URL(target.url);
    if (u.port) return `${u.hostname}:${u.port}`;
  }
  throw new Error('ghz needs a gRPC target: give the subject a target.grpc of "127.0.0.1:${port.grpc}" (or target host and port)');
}

const FLAGS = [
  // [param, ghz flag]; the values are passed as they are
  ['total', '--total'],
  ['duration', '--duration'],
  ['concurrency', '--concurrency'],
  ['rps', '--rps'],
  ['connections', '--connections'],
  ['timeout', '--timeout'],
  ['skipFirst', '--skipFirst'],
  ['cpus', '--cpus'],
  ['maxDuration', '--max-duration'],
  ['loadSchedule', '--load-schedule'],
  ['loadStart', '--load-start'],
  ['loadEnd', '--load-end'],
  ['loadStep', '--load-step'],
  ['loadStepDuration', '--load-step-duration'],
];

/** The FLAGS ghz reads as whole numbers, and the least each takes (0: no limit for rps, nothing skipped for skipFirst, total left to duration). */
const COUNTS = Object.freeze({ total: 0, concurrency: 1, rps: 0, connections: 1, skipFirst: 0, cpus: 1 });

/** Every parameter command() reads: `--param` may set these even when the config does not. */
export const params = Object.freeze(['call', 'proto', 'protoset', 'importPaths', 'data', 'metadata', 'countErrors', ...FLAGS.map(([key]) => key)]);

const isFile = (path) => { try { return statSync(path).isFile(); } catch { return false; } };

/** A file of the same folder whose name nearly spells the missing one's, as a path like the param's; undefined when none. */
function nearFile(given, root) {
  const abs = resolve(root, given);
  let names = [];
  try { names = readdirSync(dirname(abs)); } catch { return undefined; }
  const near = nearMiss(basename(abs), names);
  return near && (isAbsolute(given) ? join(dirname(abs), near) : relative(root, join(dirname(abs), near)));
}

/** package.Service -> its rpc names, for the services a proto file declares itself (comments left out). */
function protoServices(text) {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(src)?.[1];
  const services = new Map();
  for (const m of src.matchAll(/\bservice\s+(\w+)\s*\{/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < src.length && depth; i++) depth += src[i] === '{' ? 1 : src[i] === '}' ? -1 : 0;
    const body = src.slice(m.index + m[0].length, i);
    services.set(pkg ? `${pkg}.${m[1]}` : m[1], [...body.matchAll(/\brpc\s+(\w+)\s*\(/g)].map((r) => r[1]));
  }
  return services;
}

/**
 * Why a job's params would make ghz stop before its first call, found when the run is planned instead of after the
 * subject is built and started: a proto, protoset or import path that is not there (from the project root), or a call
 * whose service the proto file declares without that method. Values holding placeholders are left to the run.
 */
export function filesProblem(p = {}, { root = '.' } = {}) {
  const paths = [['proto', p.proto], ['protoset', p.protoset], ...String(p.importPaths ?? '').split(',').filter((x) => x.trim()).map((x) => ['importPaths', x.trim()])];
  for (const [key, value] of paths) {
    if (value === undefined || value === null || value === '' || String(value).includes('${')) continue;
    const abs = resolve(root, String(value));
    const there = key === 'importPaths' ? existsSync(abs) : isFile(abs);
    if (there) continue;
    const near = nearFile(String(value), root);
    return `ghz: params.${key} ${value} ${existsSync(abs) ? 'is not a file' : 'does not exist'} (paths are from the project root, ${resolve(root)})${near ? `; did you mean ${near}?` : ''}`;
  }
  const call = /^([\w.]+)[/.](\w+)$/.exec(String(p.call ?? ''));
  if (!call || !p.proto || String(p.proto).includes('${') || String(p.call).includes('${')) return undefined;
  const services = protoServices(readFileSync(resolve(root, String(p.proto)), 'utf8'));
  const methods = services.get(call[1]);
  if (!methods || methods.includes(call[2])) return undefined;
  const near = nearMiss(call[2], methods);
  return `ghz: params.call ${p.call}: service ${call[1]} in ${p.proto} has no method ${call[2]}${near ? `; did you mean ${call[1]}/${near}?` : `; it has ${methods.join(', ') || 'none'}`}`;
}

/**
 * The ghz command line of one trial. params: call (package.Service/Method), proto or protoset
 * (else server reflection), importPaths, data and metadata (JSON text), total or duration,
 * concurrency, rps, connections, timeout, skipFirst, cpus. ctx.script, when set, is a ghz config
 * file (--config) whose settings the params override.
 */
/** Params ghz takes as JSON text; a YAML mapping or list in the config is written as JSON (and kept so in result documents). */
export const jsonParams = Object.freeze(['data', 'metadata']);

export function command(ctx) {
  const { bin, params = {}, target, script, outFile, root = process.cwd() } = ctx;
  if (!outFile) throw new Error('ghz command: ctx.outFile is required');
  if (!params.call && !script) throw new Error('ghz jobs need params.call, e.g. call: grpc.health.v1.Health/Check');
  const argv = [bin];
  if (script) argv.push('--config', script);
  argv.push('--insecure');
  if (params.call) argv.push('--call', String(params.call));
  const file = (p) => (isAbsolute(String(p)) ? String(p) : resolve(root, String(p)));
  if (params.proto) argv.push('--proto', file(params.proto));
  else if (params.protoset) argv.push('--protoset', file(params.protoset));
  if (params.importPaths) argv.push('--import-paths', String(params.importPaths).split(',').map((p) => file(p.trim())).join(','));
  for (const key of jsonParams) {
    if (params[key] === undefined || params[key] === null) continue;
    const text = typeof params[key] === 'string' ? params[key] : JSON.stringify(params[key]);
    try {
      JSON.parse(text);
    } catch (e) {
      throw new Error(`ghz param ${key} must be JSON text (${e.message}): ${text}`);
    }
    argv.push(`--${key}`, text);
  }
  for (const [key, flag] of FLAGS) {
    if (params[key] === undefined || params[key] === null) continue;
    // ghz reads its counts as Go uints: 1e+21 or 2.5 would fail each trial, a count above INT_MAX is none a run needs
    const value = Object.hasOwn(COUNTS, key) ? wholeNumber(params[key], { tool: 'ghz', what: key, min: COUNTS[key] }) : params[key];
    argv.push(`${flag}=${value}`);
  }
  // Finish in-flight calls at the end of -z or -x instead of counting them as errors (bojand/ghz#370).
  if (params.duration || params.maxDuration) argv.push('--duration-stop=wait');
  if (params.countErrors === true) argv.push('--count-errors');
  argv.push('--format', 'json', '--output', outFile, targetAddress(target));
  return { argv, output: 'file' };
}

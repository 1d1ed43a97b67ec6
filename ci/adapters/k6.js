// Adapter for k6: reads an end-of-test summary (handleSummary data, --summary-export, or the machine-readable summary) into metrics.
//
// k6 v1 writes three JSON shapes, all detected here:
//   handleSummary data      metrics[name] = { type, contains, values: {avg, med, p(95)...}, thresholds: {expr: {ok}} },
//                           state.testRunDurationMs
//   --summary-export        metrics[name] = { avg, med, p(95)..., thresholds: {expr: crossed?} } (no types, no duration)
//   machine-readable (with --new-machine-readable-summary)
//                           results.metrics = [{ name, type, contains, values: {avg, p95...} }], config.duration (s),
//                           counters without rates and no thresholds
// k6 reports times in milliseconds; benchline stores nanoseconds.
//
// Submetrics: when the summary holds `<metric>{scenario:bench}` (loadtests/k6/lib sets thresholds
// on them), those are used instead of the whole-test metric, so requests made by setup() (the
// readiness probe) are not measured. opts.k6Scenario names another scenario. Failed requests count only
// from the scenario's own http_req_failed when its http_reqs is used: with the whole test's failures alone
// (any of them), errors and error_rate are left out with a note.
//
// Custom metrics: every metric a script defines (anything that is not one of k6's built-in
// metrics) is kept under the name k6 gives it; a `bl_` prefix is dropped (`bl_traversal` ->
// `traversal.*`, the shipped catalog scripts use it to reach registered names). Submetrics
// (`name{tag:value}`) are threshold selectors and are not kept. Per k6 type:
//   Trend   -> <name>.mean, .min, .max, .p50, and .p<N> for every percentile k6 reported, plus a distribution
//   Counter -> <name> (the count)   Rate -> <name> (ratio)   Gauge -> <name> (its last value)
// Units: k6 `contains: "time"` (a Trend made with isTime true; k6 reports it in ms) -> ns,
// `"data"` -> bytes; otherwise a name ending in _duration, _time, _latency or _ms is a time (its
// numbers taken as ms), one ending in _bytes or _size bytes (scripts cannot mark a custom metric as
// data), anything else a count. Every rule on names reads the name the metric is kept under (Page_Load_Time as
// page_load_time, HTTP_Errors as http_errors), so it says of a metric what that name says to a reader. The --summary-export format does not say what a metric contains:
// the name rule then decides alone, so both formats give a metric one unit.
// opts.contains = { name: 'time'|'data'|'default' } overrides, in both formats.
// Direction: trends lower is better; counters, rates and gauges higher, unless the name is or ends in
// error(s), failure(s) or failed (also before _total, _count or _rate), or the metric is a time or size; names ci/metrics.js knows
// keep their registered meaning; opts.better = { name: 'lower'|'higher' } overrides.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParseError, parseJson, ScriptProblem, shown } from './errors.js';
import { describeMetric, matches, metric as registered } from '../metrics.js';
import { nearMiss } from '../spelling.js';

export const name = 'k6';

/** Metrics that get a verdict by default (a job's `judge:` replaces them): latency at the script's load (a fixed arrival rate in benchmarks) and failed requests; a closed-model script may add throughput with `judge:`. */
export const judged = Object.freeze(['latency.p50', 'latency.p95', 'latency.p99', 'error_rate']);
export const binary = 'k6';
export const produce = 'k6 run --summary-export out.json script.js, or a script whose handleSummary() writes JSON.stringify(data) '
  + '(loadtests/k6/lib/summary.js does, to the file named by -e BENCHLINE_SUMMARY=out.json)';

/** Trend statistics benchline asks k6 for, whatever the script sets, so every job reports the same percentiles. */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'];

/** Job parameters the adapter itself reads; they are not passed to the script. */
export const ADAPTER_PARAMS = Object.freeze(['summary', 'trends', 'k6Scenario', 'contains', 'better']);

const DEFAULT_SCENARIO = 'bench';
const TIME_BUILTINS = /^(http_req_(duration|blocked|connecting|tls_handshaking|sending|waiting|receiving)|iteration_duration|grpc_req_duration|ws_(connecting|session_duration|ping)|browser_http_req_duration|browser_web_vital_(fcp|fid|inp|lcp|ttfb)|webvitals?_\w+)$/;
const DATA_BUILTINS = new Set(['data_received', 'data_sent']);
// Every built-in metric of k6 v1 (core, HTTP, gRPC, WebSockets, browser), by its exact name: a script's own metric may
// start as one of theirs does (ws_message_roundtrip in a WebSocket script, grpc_items in a gRPC one) and is kept.
// webvital(s)_* are names of older releases of the browser module. Anything else in a summary is a script's own.
const BUILTIN = /^(vus|vus_max|iterations|iteration_duration|dropped_iterations|data_received|data_sent|checks|checks_(total|succeeded|failed)|http_reqs|http_req_(duration|blocked|connecting|tls_handshaking|sending|waiting|receiving|failed)|grpc_req_duration|grpc_streams|grpc_streams_msgs_(received|sent)|ws_(connecting|msgs_received|msgs_sent|ping|session_duration|sessions)|browser_(data_received|data_sent|http_req_duration|http_req_failed)|browser_web_vital_(cls|fcp|fid|inp|lcp|ttfb)|webvitals?_\w+)$/;
const KNOWN_BUILTINS = ['iterations', 'iteration_duration', 'data_received', 'data_sent', 'vus', 'vus_max', 'http_reqs', 'http_req_duration', 'checks', 'checks_total', 'grpc_req_duration', 'dropped_iterations'];

const fail = (reason) => { throw new ParseError(reason, produce); };
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const msToNs = (ms) => Math.round(ms * 1e9) / 1000;

/**
 * metric() of ci/metrics.js for a value worked out from the summary: one that comes to no finite number (a time of
 * 1e308 ms in ns, a count over a run of 1e-320 s) is a number k6 never writes, refused as such.
 */
const metric = (n, value, extra) => {
  if (typeof value === 'number' && !Number.isFinite(value)) fail(`metric ${n} comes to no finite number from the summary's values (one is far beyond any k6 writes, such as 1e308 ms or a run of 1e-320 s); the summary is corrupted`);
  return registered(n, value, extra);
};

// what k6 says a metric contains in its full summaries
const K6_CONTAINS = Object.freeze(['default', 'time', 'data']);
// k6's built-in Counters of events and bytes: whole numbers in every summary
const WHOLE_COUNTERS = /^(iterations|dropped_iterations|http_reqs|data_received|data_sent)(\{|$)/;

/** The rank of a percentile key, "95" of "p95" or "p(95)"; undefined for any other key. */
const rankOf = (k) => /^p\(?(\d+(?:\.\d+)?)\)?$/.exec(k)?.[1];

/** "p95" or "p(95)" -> "p(95)", so all three formats share one set of keys. */
const statKey = (k) => {
  const rank = rankOf(k);
  return rank !== undefined ? `p(${rank})` : k;
};

/** Normalizes one metric's values to { count, rate, avg, min, med, max, p(N), hits, total, value }. */
function normalizeValues(where, type, raw) {
  if (!isObj(raw)) fail(`metric ${where} has no values object; the summary may be truncated`);
  const out = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'thresholds') continue;
    if (num(v) === undefined) fail(`metric ${where}: value ${shown(k)} is ${shown(v)}, not a number`);
    // a damaged percentile key would drop that percentile (a judged p99) without a word
    if (/^p[(\d]/.test(k) && !(Number(rankOf(k)) <= 100)) fail(`metric ${where}: ${shown(k)} is not a percentile k6 writes (such as p(90) or p(99.9)); the summary is corrupted`);
    out[statKey(k)] = v;
  }
  // k6 writes its statistics for every Trend, zeros for one without samples: none at all would make an empty curve
  if (type === 'trend' && !Object.keys(out).some((k) => ['avg', 'min', 'med', 'max'].includes(k) || k.startsWith('p('))) {
    fail(`metric ${where}: a Trend without any of its statistics (avg, min, med, max, p(N)), which k6 writes for every Trend, even one with no samples; the summary is corrupted or edited`);
  }
  if (type === 'rate') {
    // k6 counts a Rate's samples: passes, fails, matches and total are whole numbers (a fraction makes any rate)
    const part = ['passes', 'fails', 'matches', 'total'].find((k) => out[k] !== undefined && !(Number.isInteger(out[k]) && out[k] >= 0));
    if (part) fail(`metric ${where}: ${part} is ${shown(out[part])}, not a whole number of samples as k6 counts them; the summary is corrupted`);
    const r = out.passes !== undefined ? { rate: out.rate ?? out.value, hits: out.passes, total: out.passes + (out.fails ?? 0) }
      : out.matches !== undefined ? { rate: out.rate, hits: out.matches, total: out.total } : undefined;
    // k6 writes the rate as hits over total: one that disagrees (an error_rate of 1 beside 0 failed requests) was edited
    if (r && r.total > 0 && r.rate !== undefined && !(Math.abs(r.rate - r.hits / r.total) <= 1e-9)) {
      fail(`metric ${where}: rate ${r.rate} is not ${r.hits} of ${r.total} (${r.hits / r.total}), as k6 writes it; the summary is corrupted`);
    }
    if (r) {
      if (r.rate === undefined) fail(`metric ${where}: a Rate without its rate, which k6 writes for every Rate; the summary is corrupted or edited`);
      return r;
    }
  }
  // the figure a Counter or a Gauge is kept by: without it the metric would read as missing, or NaN once converted
  const own = { counter: 'count', gauge: 'value' }[type];
  if (own && out[own] === undefined) fail(`metric ${where}: a ${type === 'counter' ? 'Counter' : 'Gauge'} without its ${own}, which k6 writes for every one; the summary is corrupted or edited`);
  if (type === 'counter' && WHOLE_COUNTERS.test(where) && !Number.isInteger(out.count)) fail(`metric ${where}: count ${shown(out.count)} is not a whole number, which k6 counts of every ${where.replace(/\{.*$/, '')}; the summary is corrupted`);
  return out;
}

// the characters and length k6 has ever taken in a metric's name (v1 warns beyond ASCII letters, digits and _); its
// submetrics add {tag:value}, whose values may hold anything
const K6_NAME = /^[\p{L}\p{N}._ !?/&#()<>%-]{1,128}$/u;

/** Fails when a summary holds a metric under a name k6 refuses to make (a NUL, a line separator, 200 characters). */
function nameProblem(n) {
  if (!K6_NAME.test(n.replace(/\{.*$/s, ''))) fail(`metric ${shown(n)} has a name k6 never gives a metric (1 to 128 letters, digits, spaces and ._!?/&#()<>%-); the summary is corrupted or edited`);
}

// the metric types k6 writes in its full summaries
const K6_TYPES = Object.freeze(['trend', 'counter', 'rate', 'gauge']);

/** Fails when a full summary's metric has a type, or says it contains something, k6 never writes (a damaged or edited summary); else nothing. */
function typeProblem(name, type, contains) {
  if (!K6_TYPES.includes(type)) fail(`metric ${name} has type ${shown(type)}, not one k6 writes (${K6_TYPES.join(', ')}); the summary is corrupted or edited`);
  // what it contains gives its unit: another word would keep a time Trend's milliseconds as plain numbers
  if (contains !== undefined && !K6_CONTAINS.includes(contains)) fail(`metric ${name} contains ${shown(contains)}, not one k6 writes (${K6_CONTAINS.join(', ')}); the summary is corrupted or edited`);
}

/**
 * Fails when the Counters of a summary do not share one run: k6 writes each Counter's rate as its count over the
 * test's duration (state.testRunDurationMs in handleSummary data), so count / rate is that duration for every one. A
 * count or rate edited, or swapped with another field, gives another.
 */
function counterRunProblem(metrics, durationMs) {
  const counters = [...metrics].filter(([, m]) => m.type === 'counter' && m.values.count > 0 && m.values.rate !== undefined);
  // the run's length in seconds: the summary's own, else the first Counter's count over its rate; one outside a
  // microsecond to 30 years is no anchor (the check below then refuses the counters that disagree with another)
  const plausible = (s) => s >= 1e-6 && s <= 1e9;
  const [name, seconds] = plausible(durationMs / 1000) ? ['state.testRunDurationMs', durationMs / 1000]
    : counters.map(([n, m]) => [`${n} (count ${m.values.count} at ${m.values.rate}/s)`, m.values.count / m.values.rate]).find(([, s]) => plausible(s)) ?? [];
  if (seconds === undefined) return;
  for (const [n, m] of counters) {
    const expected = m.values.count / seconds;
    if (!(Math.abs(m.values.rate - expected) <= expected * 1e-6)) {
      fail(`metric ${n}: rate ${m.values.rate}/s is not its count ${m.values.count} over the run of ${(seconds * 1000).toPrecision(6)} ms that ${name} gives (${expected.toPrecision(6)}/s); k6 writes every Counter's rate over the one run, so the summary is corrupted or edited`);
    }
  }
}

/** Guesses a summary-export metric's type from its keys (that format drops the type). */
function exportType(v) {
  if ('passes' in v && 'fails' in v) return 'rate';
  if ('avg' in v || 'med' in v || Object.keys(v).some((k) => /^p\(/.test(k))) return 'trend';
  if ('value' in v) return 'gauge';
  if ('count' in v) return 'counter';
  return undefined;
}

function builtinContains(n) {
  const base = n.replace(/\{.*$/, '');
  if (TIME_BUILTINS.test(base)) return 'time';
  if (DATA_BUILTINS.has(base)) return 'data';
  return undefined;
}

/** `bl_traversal` is kept as `traversal.*` (and `Time` as `time.*`), which ci/metrics.js registers as a time: trust the registry. */
function registryContains(kept) {
  return describeMetric(`${kept}.mean`)?.unit === 'ns' ? 'time' : undefined;
}

/**
 * What metric n contains: a built-in's own; else the job param contains; else time or data when k6 says so (`said`: a
 * Trend made with isTime true); else a registered name's; else what its name hints. k6 says "default" of any other
 * custom Trend and the --summary-export format says nothing, so the two formats give a metric the same unit: a script
 * that adds a handleSummary (as the fallback's note advises) keeps its series.
 */
function containsOf(n, said, opts) {
  const base = n.replace(/\{.*$/, '');
  const kept = customName(base);
  return builtinContains(n) ?? opts.contains?.[base] ?? opts.contains?.[kept] ?? (said === 'time' || said === 'data' ? said : undefined) ?? registryContains(kept) ?? nameHintContains(kept);
}

function nameHintContains(n) {
  if (/_(duration|time|latency|ms)$/.test(n)) return 'time';
  if (/_(bytes|size)$/.test(n)) return 'data';
  return 'default';
}

/** Detects the format and returns { format, metrics: Map(name -> {type, contains, values, thresholds}), durationMs, toolVersion }. */
function readSummary(doc, opts = {}) {
  if (!isObj(doc)) fail(`top level is ${Array.isArray(doc) ? 'an array' : typeof doc}, not a k6 summary object`);
  const metrics = new Map();
  if (typeof doc.version === 'string' && isObj(doc.results) && Array.isArray(doc.results.metrics)) {
    const list = [...doc.results.metrics, ...(Array.isArray(doc.results.checks?.metrics) ? doc.results.checks.metrics : [])];
    for (const m of list) {
      if (!isObj(m) || typeof m.name !== 'string') fail('results.metrics holds an entry without a name');
      nameProblem(m.name);
      typeProblem(m.name, m.type, m.contains);
      metrics.set(m.name, { type: m.type, contains: containsOf(m.name, m.contains, opts), values: normalizeValues(m.name, m.type, m.values), thresholds: [] });
    }
    // The run's length in seconds, from which the counters' rates (throughput among them) are computed: k6 always
    // writes it, so a damaged one is refused, and so is a missing one once a counter needs it.
    const [where, given] = isObj(doc.config) ? ['config.duration', doc.config.duration] : ['config', doc.config];
    const seconds = num(given) > 0 ? given : undefined;
    const rateless = [...metrics].find(([, m]) => m.type === 'counter' && m.values.rate === undefined && m.values.count > 0);
    if (seconds === undefined && (given !== undefined || rateless)) {
      const why = rateless ? `, so the rate of ${rateless[0]} (${rateless[1].values.count} counted) cannot be computed` : '';
      fail(`the machine-readable summary has no usable config.duration (the run's length in seconds): ${where} is ${shown(given)}${why}; the summary is corrupted`);
    }
    if (seconds !== undefined) {
      // This format drops counter rates; k6 computes them over the whole run, so do the same.
      for (const m of metrics.values()) if (m.type === 'counter' && m.values.rate === undefined && seconds > 0) m.values.rate = m.values.count / seconds;
    }
    return { format: 'machine-readable', metrics, durationMs: seconds === undefined ? undefined : seconds * 1000, toolVersion: doc.metadata?.k6_version ?? doc.metadata?.k6Version };
  }
  if (!isObj(doc.metrics)) {
    if ('latencyDistribution' in doc || 'statusCodeDistribution' in doc) fail('this is ghz output, not a k6 summary');
    fail(`no "metrics" object (top-level keys: ${Object.keys(doc).slice(0, 8).map((k) => (k.length > 40 ? `${k.slice(0, 40)}...` : k)).join(', ') || 'none'}); this is not a k6 end-of-test summary`);
  }
  const entries = Object.entries(doc.metrics);
  if (!entries.length) fail('the summary holds no metrics; was the k6 run interrupted before its end?');
  for (const [n] of entries) nameProblem(n);
  const withValues = entries.filter(([, m]) => isObj(m) && isObj(m.values)).length;
  if (withValues === entries.length) {
    for (const [n, m] of entries) {
      typeProblem(n, m.type, m.contains);
      const thresholds = Object.entries(isObj(m.thresholds) ? m.thresholds : {}).map(([expr, t]) => ({ expr, ok: t?.ok !== false }));
      metrics.set(n, { type: m.type, contains: containsOf(n, m.contains, opts), values: normalizeValues(n, m.type, m.values), thresholds });
    }
    // k6 writes the run's length in every handleSummary data; a script's own JSON may leave state out, never damage it
    const given = isObj(doc.state) ? doc.state.testRunDurationMs : undefined;
    if (given !== undefined && !(num(given) >= 0)) fail(`state.testRunDurationMs is ${shown(given)}, not the run's length in milliseconds that k6 writes; the summary is corrupted`);
    counterRunProblem(metrics, given);
    return { format: 'handle-summary', metrics, durationMs: given };
  }
  if (withValues > 0) fail('metrics mix the handleSummary shape (with "values") and the --summary-export shape; the file is not one k6 summary');
  for (const [n, m] of entries) {
    if (!isObj(m)) fail(`metric ${n} is ${shown(m)}, not an object`);
    const type = exportType(m);
    if (!type) fail(`metric ${n} has none of k6's summary fields (count, avg, passes, value)`);
    // In this format a threshold's boolean says whether it was crossed.
    const thresholds = Object.entries(isObj(m.thresholds) ? m.thresholds : {}).map(([expr, crossed]) => ({ expr, ok: crossed !== true }));
    metrics.set(n, { type, contains: containsOf(n, undefined, opts), values: normalizeValues(n, type, m), thresholds });
  }
  counterRunProblem(metrics);
  // --summary-export has no run duration; every counter's rate is count over the whole run.
  let durationMs;
  for (const n of ['iterations', 'http_reqs', 'data_sent', 'data_received']) {
    const v = metrics.get(n)?.values;
    if (v && v.count > 0 && v.rate > 0) { durationMs = (v.count / v.rate) * 1000; break; }
  }
  return { format: 'summary-export', metrics, durationMs };
}

const unitOf = (contains, n) => {
  if (contains === 'time') return 'ns';
  if (contains === 'data' || /_(bytes|size)$/.test(n)) return 'bytes';
  return 'count';
};

/** Converts a k6 value of a metric that contains `contains` to benchline's unit for it. */
const convert = (v, unit) => (unit === 'ns' ? msToNs(v) : v);

/** Percentile points of a trend (min as p0, med as p50, max as p100), converted. */
function percentiles(values, unit) {
  const pts = new Map();
  if (values.min !== undefined) pts.set(0, values.min);
  if (values.med !== undefined) pts.set(50, values.med);
  for (const [k, v] of Object.entries(values)) {
    const m = /^p\((\d+(?:\.\d+)?)\)$/.exec(k);
    if (m) pts.set(Number(m[1]), v);
  }
  if (values.max !== undefined) pts.set(100, values.max);
  return [...pts.entries()].sort((a, b) => a[0] - b[0]).map(([p, v]) => ({ p, value: convert(v, unit) }));
}

/**
 * Metrics `<prefix>.mean/.min/.max/.p50/.pN` from one trend. resolution: the step its values move in (ns), given to
 * its order statistics (min, max, percentiles); the mean of many values moves in finer steps.
 */
function trendMetrics(prefix, values, unit, better, resolution, guessed) {
  const out = [];
  const add = (suffix, v, step = resolution) => { if (v !== undefined) out.push(metric(`${prefix}.${suffix}`, convert(v, unit), { unit, better, ...(step ? { resolution: step } : {}), ...(guessed ? { guessed } : {}) })); };
  add('mean', values.avg, 0);
  add('min', values.min);
  add('max', values.max);
  add('p50', values.med ?? values['p(50)']);
  const pcts = Object.keys(values).map((k) => /^p\((\d+(?:\.\d+)?)\)$/.exec(k)).filter((m) => m && m[1] !== '50');
  for (const m of pcts.sort((a, b) => Number(a[1]) - Number(b[1]))) add(`p${m[1]}`, values[m[0]]);
  return out;
}

// errors, failures or failed, as the whole name or its last word, also before a _total, _count or _rate (a Prometheus
// counter's http_errors_total, error_count, login_failure_rate): these count what went wrong, so fewer is better
const badName = /(^|_)(errors?|failures?|failed)(_(total|count|rate))?$/;

/**
 * Why a script's own metric has its direction by a rule and not by what it counts (a Counter of retries, a Gauge of a
 * queue's depth: more is worse, yet counts are taken as higher-is-better): it is shown, and judged only once the job's
 * better param says which way is better.
 */
const guessed = (k6Name, type, dir) => `k6 ${type} ${k6Name} is ${dir}-is-better only by benchline's rule for a ${type} of plain numbers, not by what it counts`;

/**
 * The metrics (and distribution) of one custom k6 metric, or a note saying why it was skipped; `better` overrides the
 * direction. allFailed: every request of the trial failed, so a time Trend that holds nothing but 0 is their timings
 * (k6 times a request it never sent as 0 ms), not a measurement: skipped with a note.
 */
function customMetrics(k6Name, m, metricName, better, allFailed = false) {
  const known = describeMetric(metricName);
  const direction = (unit) => better ?? known?.better ?? (unit !== 'count' || badName.test(metricName) ? 'lower' : 'higher');
  const check = (unit, dir) => {
    if (known && (known.unit !== unit || known.better !== dir)) {
      fail(`k6 metric ${k6Name} maps to "${metricName}", which benchline registers as ${known.unit}/${known.better} but k6 reports it as ${unit}/${dir}; rename the k6 metric`);
    }
  };
  if (m.type === 'trend') {
    if (m.values.count === 0) return { metrics: [], note: `k6 metric ${k6Name} recorded no samples` };
    const unit = unitOf(m.contains, metricName);
    if (allFailed && unit === 'ns' && m.values.max === 0) return { metrics: [], note: `k6 metric ${k6Name} holds only 0 ms, the timings of requests that all failed: left out` };
    // a Trend named as one of benchline's time families (time, connect, ...) makes metrics registered as times
    const family = describeMetric(`${metricName}.mean`);
    if (family && (family.unit !== unit || family.better !== (better ?? 'lower'))) {
      fail(`k6 metric ${k6Name} becomes "${metricName}.mean", ".p95", ..., which benchline registers as ${family.unit}/${family.better} (a time), but it reads as ${unit}/${better ?? 'lower'} here (contains "${m.contains}"${better ? `, better ${better}` : ''}, from the summary or the job's contains/better params); rename the k6 metric (e.g. ${k6Name}_count), or drop it from the job's contains/better params`);
    }
    // a time Trend whose least and greatest values are whole milliseconds holds whole milliseconds (a script timing
    // with Date.now(), a server's own "took" field): its minimum can read 0 in one run and 1 ms in the next by the
    // clock's step alone, so its order statistics carry a resolution of 1 ms (below it no verdict; exports.js)
    const wholeMs = unit === 'ns' && Number.isInteger(m.values.min) && Number.isInteger(m.values.max);
    // a Trend of plain numbers (not a time or a size) is lower-is-better only by the rule for Trends: a guess
    const guess = !better && unit === 'count' && !badName.test(metricName) ? guessed(k6Name, 'Trend', 'lower') : undefined;
    const r = { metrics: trendMetrics(metricName, m.values, unit, better ?? 'lower', wholeMs ? msToNs(1) : undefined, guess) };
    // Times and sizes get a distribution for the site's percentile charts; plain counts do not.
    if (unit !== 'count') {
      // a summary of some other summaryTrendStats may hold no rank (avg alone): then no curve, the mean still kept
      const points = percentiles(m.values, unit);
      if (points.length) {
        r.distribution = { name: metricName, unit, percentiles: points };
        if (m.values.count !== undefined) r.distribution.count = m.values.count;
      }
    }
    return r;
  }
  if (m.type === 'counter' || m.type === 'gauge') {
    const unit = unitOf(m.contains, metricName);
    const dir = direction(unit);
    check(unit, dir);
    const guess = !better && !known && unit === 'count' && !badName.test(metricName) ? guessed(k6Name, m.type === 'counter' ? 'Counter' : 'Gauge', dir) : undefined;
    return { metrics: [metric(metricName, convert(m.type === 'counter' ? m.values.count : m.values.value, unit), { unit, better: dir, ...(guess ? { guessed: guess } : {}) })] };
  }
  if (m.type === 'rate') {
    if (!m.values.total) return { metrics: [], note: `k6 metric ${k6Name} recorded no samples` };
    const dir = better ?? known?.better ?? (badName.test(metricName) ? 'lower' : 'higher');
    check('ratio', dir);
    const guess = !better && !known && !badName.test(metricName) ? guessed(k6Name, 'Rate', dir) : undefined;
    return { metrics: [metric(metricName, m.values.rate, { unit: 'ratio', better: dir, ...(guess ? { guessed: guess } : {}) })] };
  }
  return { metrics: [], note: `k6 ${m.type || 'untyped'} metric ${k6Name} is not mapped (k6 has trends, counters, rates and gauges)` };
}

/** benchline's name for a custom k6 metric: k6's own, without a bl_ prefix, lower case letters, digits and _ only. */
function customName(k6Name) {
  const base = k6Name.startsWith('bl_') ? k6Name.slice(3) : k6Name;
  const clean = base.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(clean) ? clean : `k6_${clean}`;
}

/**
 * opts.contains / opts.better as an object, or from a job param such as "page_time=time,blob=data". Without a prototype:
 * a k6 metric named constructor or toString must find nothing there, not Object's own function.
 */
function nameMap(v) {
  const map = Object.create(null);
  if (isObj(v)) return Object.assign(map, v);
  if (typeof v !== 'string') return map;
  return Object.assign(map, Object.fromEntries(v.split(',').map((pair) => pair.split('=').map((s) => s.trim())).filter(([k, c]) => k && c)));
}

/** How to mend custom k6 metrics whose kept names clash (`names`: as the script makes them): rename, not prefix with bl_. */
function renameAdvice(names) {
  const first = names[0].replace(/^bl_/, '');
  return `rename ${names.length > 1 ? 'them' : 'it'} in the script, e.g. app_${first} (a bl_ prefix is dropped, so bl_${first} would take the same name)`;
}

const listOf = (v) => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : []).map((s) => String(s).trim()).filter(Boolean);

/**
 * What k6 logged for the first failed request (its "Request Failed" warning on stderr), as " (k6 logged: ...)", or ''.
 * A URL k6 could not even send to (undefined/..., no scheme) is a script that does not take its target from BASE_URL,
 * the variable benchline sets: said so, since k6 itself only counts the requests as failed and exits 0.
 */
function requestFailure(stderr) {
  const line = String(stderr || '').split('\n').find((l) => /\bmsg="Request Failed"/.test(l));
  const error = line && /\berror="((?:[^"\\]|\\.)*)"/.exec(line)?.[1]?.replace(/\\"/g, '"');
  if (!error) return '';
  const noTarget = /unsupported protocol scheme|^\w+ "(?:undefined|null)?\//.test(error);
  return ` (k6 logged: ${error.slice(0, 200)}${noTarget ? '; the script\'s URLs name no server: it must build them from __ENV.BASE_URL, which benchline sets to the subject\'s address' : ''})`;
}

/**
 * One k6 summary -> { metrics, distributions, toolVersion?, notes, thresholdsFailed, format }.
 * opts (the job's params may be passed as is, or as opts.params as the runner does): trends (names the job expects: a note when one is
 * missing; array or comma list), k6Scenario, contains, better ("name=lower,other=higher"); stderr: what k6
 * printed, which says when a threshold with abortOnFail stopped the test early.
 */
/** Whether a summary shows that setup() ran: the data it returned, or its group (k6 files setup()'s checks under `setup`). */
function setupRan(doc) {
  const groups = doc?.root_group?.groups;
  const list = Array.isArray(groups) ? groups : isObj(groups) ? Object.values(groups) : [];
  return (doc?.setup_data !== undefined && doc.setup_data !== null) || list.some((g) => g?.name === 'setup');
}

export function parse(text, opts = {}) {
  // the runner passes the job's params as opts.params (as to every adapter); a caller's own opts take precedence
  if (isObj(opts.params)) opts = { ...opts.params, ...opts };
  if (typeof text !== 'string' || !text.trim()) fail('the file is empty; k6 writes the summary only when the run reaches its end');
  const head = text.trimStart();
  if (/^\{"(type|metric)":/.test(head) && head.includes('\n{')) fail("this is k6's --out json sample stream (one JSON object per line), not an end-of-test summary");
  if (!head.startsWith('{') && /http_req_duration|iterations\.*:/.test(head)) fail("this is k6's text summary, not JSON");
  const doc = parseJson(text, produce);
  const { format, metrics: all, durationMs, toolVersion } = readSummary(doc, { contains: nameMap(opts.contains) });
  if (!KNOWN_BUILTINS.some((n) => all.has(n))) {
    fail(`none of k6's built-in metrics (${KNOWN_BUILTINS.slice(0, 4).join(', ')}, ...) are in the file; this is not a k6 summary`);
  }

  const scenario = opts.k6Scenario || DEFAULT_SCENARIO;
  const pick = (n) => all.get(`${n}{scenario:${scenario}}`) ?? all.get(n);
  const out = [];
  const distributions = [];
  const notes = [];
  // a scenario the job names but the summary has no submetric of (no threshold names one, or the name is misspelt):
  // every figure below is the whole test's, other scenarios and setup() included, which the job did not ask for
  if (opts.k6Scenario && ![...all.keys()].some((n) => n.endsWith(`{scenario:${scenario}}`))) {
    notes.push(`k6Scenario is ${scenario}, but the summary holds no metric of scenario ${scenario}, so these figures are the whole test's (every scenario and setup()); `
      + `k6 reports a scenario's own only for submetrics its thresholds name: add thresholds such as 'http_reqs{scenario:${scenario}}': ['count>=0'] and 'http_req_failed{scenario:${scenario}}': ['rate<=1'] to the script, and check the scenario's name there`);
  }

  // thresholds that name other scenarios' own metrics, and none of the one measured: the figures below are the whole
  // test's, every scenario's requests in one latency and one throughput (a fixed-rate scenario's beside a closed one's)
  const named = [...new Set([...all.keys()].map((n) => /\{scenario:([^}]*)\}$/.exec(n)?.[1]).filter((s) => s !== undefined))].sort();
  // a threshold on a scenario the script does not have (a misspelt name) gets a submetric of no samples from k6
  const sampled = (m) => !(m.values?.count === 0 || m.values?.total === 0 || (m.values?.passes === 0 && m.values?.fails === 0));
  const others = named.filter((n) => [...all].some(([k, m]) => k.endsWith(`{scenario:${n}}`) && sampled(m)));
  const emptyOnes = named.filter((n) => !others.includes(n) && n !== scenario);
  if (emptyOnes.length) {
    notes.push(`the script's thresholds name scenario${emptyOnes.length > 1 ? 's' : ''} ${emptyOnes.join(', ')}, of which k6 saw no sample (every {scenario:${emptyOnes[0]}} metric is empty): `
      + `a scenario the script does not have (a misspelt name?), or one that made none of these requests; check the thresholds' {scenario:NAME} against the names in options.scenarios${others.length ? ` (the summary holds samples of ${others.join(', ')})` : ''}`);
  }
  if (!opts.k6Scenario && others.length && !others.includes(scenario)) {
    notes.push(`the summary holds metrics of scenario${others.length > 1 ? 's' : ''} ${others.join(', ')} (its thresholds name them) and none of scenario ${scenario}, so these figures are the whole test's, `
      + `every scenario's requests together; give the job the param k6Scenario: ${others[0]} (the scenario to measure) for one scenario's own figures`);
  }

  // setup()'s requests are tagged with no scenario: only a scenario's own submetrics leave them out, and without them
  // (a script's own scenario name, thresholds on the whole test) they are measured with the iterations' requests
  if (!opts.k6Scenario && all.has('http_reqs') && !all.has(`http_reqs{scenario:${scenario}}`) && setupRan(doc)) {
    notes.push('the script\'s setup() ran, and the summary holds no metric of one scenario, so the requests setup() made are counted in requests, '
      + 'throughput, latency and errors with those of the iterations; to leave them out, add thresholds on the scenario\'s own metrics to the script, '
      + 'such as \'http_reqs{scenario:NAME}\': [\'count>=0\'], \'http_req_duration{scenario:NAME}\': [\'max>=0\'], \'http_req_failed{scenario:NAME}\': [\'rate<=1\'], '
      + '\'checks{scenario:NAME}\': [\'rate>=0\'] and \'data_received{scenario:NAME}\': [\'count>=0\'] '
      + `(NAME: the scenario's name in options.scenarios), and give the job the param k6Scenario: NAME (${DEFAULT_SCENARIO}, the name loadtests/k6/lib gives it, needs none)`);
  }

  const iterations = all.get('iterations')?.values;
  const iterCount = iterations?.count ?? 0;
  out.push(metric('iterations', iterCount));
  if (!iterCount) notes.push('k6 completed no iterations (k6 exits 107 when setup() fails, e.g. a readiness probe timing out)');

  const dropped = all.get('dropped_iterations')?.values?.count;
  if (dropped) notes.push(`k6 dropped ${dropped} iterations: the arrival rate needed more VUs than it had (raise the scenario's preAllocatedVUs/maxVUs, which loadtests/k6/lib sets from the job params vus/maxVus, or lower the rate)`);

  const reqs = pick('http_reqs')?.values;
  const grpcCalls = pick('grpc_req_duration')?.values?.count;
  let requests;
  let errors = 0;
  if (reqs) {
    requests = reqs.count ?? 0;
    out.push(metric('requests', requests));
    out.push(metric('throughput', reqs.rate ?? (durationMs > 0 ? requests / (durationMs / 1000) : 0)));
    const failed = pick('http_req_failed')?.values;
    // requests of the scenario alone beside failures of the whole test would count another scenario's (or setup's)
    // failed requests against this one's: without the scenario's own http_req_failed, only "none failed" can be said
    const wholeTestFailures = all.has(`http_reqs{scenario:${scenario}}`) && !all.has(`http_req_failed{scenario:${scenario}}`) && failed?.hits > 0;
    if (wholeTestFailures) {
      notes.push(`k6 reports http_req_failed for the whole test only: ${failed.hits} of its ${failed.total} requests failed, not all of them maybe in scenario ${scenario} `
        + `(${requests} requests), so errors and error_rate are left out; a threshold on http_req_failed{scenario:${scenario}} (such as ['rate<=1']) makes k6 report the scenario's own`);
    } else if (failed) {
      errors = failed.hits ?? 0;
      out.push(metric('errors', errors));
      if (failed.total > 0) out.push(metric('error_rate', failed.rate));
    }
  } else if (grpcCalls > 0 && durationMs > 0) {
    // gRPC only: k6 has no request counter for it, but its duration trend counts every call
    requests = grpcCalls;
    out.push(metric('requests', requests));
    out.push(metric('throughput', requests / (durationMs / 1000)));
  } else if (iterations) {
    notes.push('k6 made no HTTP requests; throughput counts iterations');
    out.push(metric('throughput', iterations.rate ?? (durationMs > 0 ? iterCount / (durationMs / 1000) : 0)));
  }

  if (durationMs !== undefined) out.push(metric('duration', Math.round(durationMs * 1e6)));

  const latencyName = pick('http_req_duration') ? 'http_req_duration' : pick('grpc_req_duration') ? 'grpc_req_duration' : undefined;
  const allFailed = requests > 0 && errors === requests;
  if (latencyName) {
    const lat = pick(latencyName).values;
    const samples = lat.count ?? (latencyName === 'http_req_duration' ? requests : undefined);
    if (samples === 0 || (latencyName === 'http_req_duration' && requests === 0)) {
      // No samples: k6 still prints zeros, which are not latencies.
    } else if (allFailed) {
      notes.push(`every one of the ${requests} requests failed${requestFailure(opts.stderr)}; latency metrics are left out (they would time refused or failed requests)`);
    } else {
      out.push(...trendMetrics('latency', lat, 'ns', 'lower'));
      const points = percentiles(lat, 'ns');
      if (points.length) distributions.push({ name: 'latency', unit: 'ns', ...(samples !== undefined ? { count: samples } : {}), percentiles: points });
    }
  }

  // as with failures: beside the scenario's own requests, the whole test's checks and bytes would count other
  // scenarios' (and setup's); only "every check passed" can be said without the scenario's own
  const scoped = all.has(`http_reqs{scenario:${scenario}}`);
  const wholeTestOnly = [];
  const ownOrWhole = (name) => {
    const own = all.get(`${name}{scenario:${scenario}}`);
    if (own || !scoped) return own ?? all.get(name);
    if (all.has(name)) wholeTestOnly.push(name);
    return undefined;
  };
  const checkName = all.has('checks') || all.has(`checks{scenario:${scenario}}`) ? 'checks' : 'checks_succeeded';
  const checks = ownOrWhole(checkName) ?? (all.get(checkName)?.values?.rate === 1 ? all.get(checkName) : undefined);
  if (checks?.values?.total > 0) out.push(metric('checks_pass_rate', checks.values.rate));

  const received = ownOrWhole('data_received')?.values;
  if (received) out.push(metric('bytes_received', received.count ?? 0));
  const leftOut = wholeTestOnly.filter((n) => n !== checkName || !checks);
  if (leftOut.length) {
    const what = leftOut.map((n) => (n === checkName ? 'checks_pass_rate' : 'bytes_received')).join(' and ');
    notes.push(`k6 reports ${leftOut.join(' and ')} for the whole test only, not for scenario ${scenario}, so ${what} ${leftOut.length > 1 ? 'are' : 'is'} left out; `
      + `thresholds such as ${leftOut.map((n) => `${n}{scenario:${scenario}}: ['${n === 'data_received' ? 'count>=0' : 'rate>=0'}']`).join(', ')} make k6 report the scenario's own`);
  }

  const trends = new Set(listOf(opts.trends));
  const better = nameMap(opts.better);
  for (const [k, v] of Object.entries(better)) {
    if (v !== 'lower' && v !== 'higher') fail(`k6 param better: "${k}=${v}" is neither lower nor higher`);
  }
  // every name kept so far, with the custom k6 metric that took it (null: a built-in's): a map, as a summary may hold
  // thousands of custom metrics
  const taken = new Map(out.map((x) => [x.name, null]));
  const clashes = [];
  for (const [k6Name, m] of all) {
    if (k6Name.includes('{') || BUILTIN.test(k6Name)) continue;
    const custom = customName(k6Name);
    if (custom !== k6Name && custom !== k6Name.slice(3)) notes.push(`k6 metric ${k6Name} is kept as ${custom}: benchline metric names are lower case letters, digits and _`);
    let r;
    try {
      r = customMetrics(k6Name, m, custom, better[k6Name] ?? better[custom], allFailed);
    } catch (e) {
      if (e instanceof ParseError) throw e;
      fail(`k6 metric ${k6Name}: ${e.message}`);
    }
    const clash = r.metrics.find((x) => taken.has(x.name));
    if (clash) {
      clashes.push({ k6Name, as: clash.name, by: taken.get(clash.name) });
      continue;
    }
    for (const x of r.metrics) taken.set(x.name, k6Name);
    out.push(...r.metrics);
    if (r.distribution) distributions.push(r.distribution);
    if (r.note) notes.push(r.note);
  }
  // every clash at once, so one edit of the script mends them all
  if (clashes.length) {
    const many = clashes.length > 1;
    throw new ScriptProblem(`k6 metric${many ? 's' : ''} ${clashes.map((c) => `${c.k6Name} (as "${c.as}"${c.by ? `, which k6 metric ${c.by} takes` : ''})`).join(', ')} would take ${many ? 'names' : 'a name'} this summary already has (from k6's built-in metrics or another custom metric); `
      + renameAdvice(clashes.map((c) => c.k6Name)), produce);
  }
  for (const t of trends) if (!all.has(t)) notes.push(`k6 metric ${t} (listed in trends) is not in the summary`);

  const thresholds = [...all].flatMap(([n, m]) => m.thresholds.map((t) => ({ metric: n, ...t })));
  const crossed = thresholds.filter((t) => !t.ok);
  for (const t of crossed) notes.push(`k6 threshold crossed: ${t.metric} ${t.expr}`);
  if (crossed.length) notes.push(`k6: ${crossed.length} of ${thresholds.length} thresholds failed`);
  notes.push(...stderrNotes(opts.stderr || '', durationMs));
  if (format === 'machine-readable') notes.push('the machine-readable k6 summary records no thresholds');

  const result = { metrics: out, notes, thresholdsFailed: crossed.length, format };
  if (distributions.length) result.distributions = distributions;
  if (toolVersion) result.toolVersion = String(toolVersion).replace(/^v/, '');
  return result;
}

/** Notes on what k6 logged on stderr but left out of the summary: a test stopped early, exceptions, a failed handleSummary. */
function stderrNotes(stderr, durationMs) {
  const notes = [];
  // abortOnFail: k6 ends the test at the crossing and still writes the summary, of a shorter run than the script planned
  if (/abortOnFail enabled, stopping test prematurely/.test(stderr)) {
    notes.push(`k6 stopped the test early: a threshold with abortOnFail was crossed${durationMs ? ` after ${(durationMs / 1000).toFixed(1)} s` : ''}, so this trial measured less than the script planned (its requests and iterations are not comparable with a full trial)`);
  }
  // an exception in the script's default() (or a scenario's exec function) ends that iteration, which k6 still counts,
  // and is only logged on stderr: a script that throws every time would otherwise look like a clean run
  const logged = stderr.split('\n').filter((l) => /\blevel=error\b/.test(l));
  const message = (line) => /msg="((?:[^"\\]|\\.)*)"/.exec(line)?.[1]?.split(/\\n/)[0];
  const thrown = logged.filter((l) => /\bsource=stacktrace\b/.test(l));
  if (thrown.length) {
    const first = message(thrown[0]);
    notes.push(`k6: the script threw an exception in ${thrown.length} iteration${thrown.length > 1 ? 's' : ''}${first ? ` (first: ${first})` : ''}; `
      + "k6 still counts each as an iteration, ended at the exception (the trial's stderr has every one)");
  }
  // a handleSummary that throws writes none of its files: k6 logs it, exits 0, and only its own --summary-export is left
  const summaryThrew = logged.find((l) => /at handleSummary \(/.test(l));
  if (summaryThrew) notes.push(`k6: the script's handleSummary threw (${message(summaryThrew) || 'see the trial\'s stderr'}), so it wrote no summary of its own`);
  return notes;
}

/** What k6's exit codes that end a run before its summary mean (k6's errext codes). */
const K6_EXITS = {
  104: 'its options are invalid (a threshold on a metric the script never defines, a bad scenario)',
  107: 'the script threw (a syntax error, a failed import, an exception in setup() such as the readiness probe)',
  108: 'the script aborted the test (test.abort())',
};

/** k6's error lines in its log: the msg of each level=error line, unescaped, without the `level=info` chatter. */
function k6Errors(text) {
  const out = [];
  for (const m of text.matchAll(/level=error msg="((?:[^"\\]|\\.)*)"/g)) {
    let msg;
    try {
      msg = JSON.parse(`"${m[1]}"`);
    } catch {
      msg = m[1];
    }
    // "There were problems with the specified script configuration:\n\t- scenario default has configuration errors: ...":
    // a first line that ends in a colon heads the list under it, which says what is wrong (a stack trace's "at" lines
    // are left out)
    const [first, ...rest] = msg.split('\n');
    const items = first.trimEnd().endsWith(':') ? rest.map((l) => l.trim().replace(/^- /, '')).filter((l) => l && !l.startsWith('at ')) : [];
    // "could not initialize '<script>': could not load JS test 'file://<script>': file://<script>: Line 5:41 ...": the
    // script is named once, by the message this goes into
    out.push((items.length ? `${first.trim()} ${items.join('; ')}` : first).replace(/^could not initialize '[^']*': could not load JS test '[^']*': (?:file:\/\/[^:]*: )?/, '').trim());
  }
  return out;
}

/**
 * Why a trial left no summary file and how to fix the script (the k6 script contract, docs/config.md). When k6 stopped
 * before its summary (any exit but 0 and 99, thresholds crossed), what it logged as the error, from its stderr
 * (ctx.files.stderr): an import of a module k6 lacks is named as such (k6 would otherwise try to build itself a binary
 * with it, and say only that it could not).
 */
export function noOutput(ctx = {}) {
  // 0: the run ended; 99: thresholds crossed, the summary is still due.
  if (ctx.exitCode !== undefined && ctx.exitCode !== 0 && ctx.exitCode !== 99) {
    let text = '';
    try {
      text = ctx.files?.stderr ? readFileSync(ctx.files.stderr, 'utf8') : '';
    } catch { /* no stderr file: the exit code alone */ }
    const deps = /Automatic extension resolution is enabled.*? deps="([^"]*)"/.exec(text)?.[1];
    const unknown = /unknown modules \[([^\]]*)\]/.exec(text)?.[1];
    const modules = (unknown ? unknown.replace(/\\?"/g, '').split(',') : (deps || '').split(';').filter((d) => d && d !== 'k6')).map((d) => d.trim()).filter(Boolean);
    const errors = k6Errors(text);
    const what = K6_EXITS[ctx.exitCode] ? `k6 stopped before its summary: ${K6_EXITS[ctx.exitCode]}` : 'k6 stopped before its summary';
    const said = modules.length
      ? `the script imports ${modules.map((d) => `"${d}"`).join(', ')}, which this k6 does not have: check the import path (k6's own modules are k6, k6/http, k6/metrics, k6/crypto, k6/encoding, k6/execution, k6/net/grpc, k6/ws, k6/data, k6/timers, k6/experimental/*), or build k6 with the extension`
      : errors.length ? `k6 said: ${JSON.stringify(errors.at(-1).slice(0, 400))}` : null;
    // a script k6 could not load, or options it refused, are the script's to fix; an exception while it ran (setup()'s
    // readiness probe when the subject does not answer) is explained by what k6 said
    const unloadable = modules.length || /could not (?:initialize|load JS test)/.test(text) || ctx.exitCode === 104;
    // options k6 refused (exit 104) or could not read (exit 255, "error parsing script options") may come from a job param
    // the script reads (duration: 2 is 2 ms to k6; Number() of rate: fast is NaN): name what was passed
    const optionsRefused = ctx.exitCode === 104 || /error parsing script options/.test(text);
    const passed = optionsRefused ? Object.entries(ctx.params ?? {}).filter(([k, v]) => !ADAPTER_PARAMS.includes(k) && v !== null && v !== undefined) : [];
    const nan = /unsupported value: NaN/.test(text) ? '; a value that is no number makes Number() NaN' : '';
    const orParams = passed.length ? ` or the job params it reads (${passed.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}; k6 reads a time without a unit as milliseconds${nan})` : '';
    return `${what}${said ? `; ${said}` : ''}.${unloadable ? ` Fix the script${ctx.script ? ` ${ctx.script}` : ''}${orParams} (${orParams ? '`k6 run` with the same -e values fails' : 'it fails'} the same way${orParams ? '' : ' under `k6 run`'})` : ''}`;
  }
  if (ctx.params?.summary === 'export') return 'k6 was given --summary-export and wrote none';
  return `the script${ctx.script ? ` ${ctx.script}` : ''} must export a handleSummary(data) that writes JSON.stringify(data) to the file named by `
    + `__ENV.BENCHLINE_SUMMARY (return { [__ENV.BENCHLINE_SUMMARY]: JSON.stringify(data) }, or export { handleSummary } from '${libImport(ctx.script)}'), `
    + "or set the job param summary: export to use k6's --summary-export";
}

/** How a script at `script` imports benchline's k6 helpers: a path from its folder (into node_modules/benchline where benchline is a dependency). */
function libImport(script) {
  const lib = fileURLToPath(new URL('../../loadtests/k6/lib/index.js', import.meta.url));
  if (!script) return lib;
  const path = relative(dirname(script), lib);
  return path.startsWith('.') ? path : `./${path}`;
}

/** UPPER_SNAKE name of a job parameter: maxVus -> MAX_VUS, p95Ms -> P95_MS. */
export const envName = (key) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase();

// what a script reads of its environment by name for certain: __ENV.NAME, __ENV['NAME'], benchline's helpers' param('NAME');
// and, as it may read, any upper-case name in quotes (a helper of its own: integer(env, 'PAGE_SIZE', ...))
const NAMED_READS = [/__ENV\.([A-Za-z_]\w*)/g, /__ENV\[\s*['"]([^'"]+)['"]\s*\]/g, /\bparam\(\s*['"]([A-Za-z_]\w*)['"]/g];
const ENV_READS = [...NAMED_READS, /['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)['"`]/g];
// the files a script imports by relative path (`import x from './y.js'`, `export * from '../z.js'`, `import './w.js'`)
const RELATIVE_IMPORTS = /\b(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g;

const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

/**
 * The texts of a k6 script and of the files it imports by relative path, benchline's helpers among them (at most 50
 * files of at most 4 MiB; one that cannot be read is passed over).
 */
function scriptTexts(file) {
  const texts = [];
  // every file queued once: a script that imports one file many times (or names many) is not walked once for each
  const seen = new Set([resolve(file)]);
  const queue = [resolve(file)];
  for (let i = 0; i < queue.length && i < 50; i++) {
    const f = queue[i];
    let text;
    try {
      // a regular file of a script's size only (a path to a device or a folder is not read)
      const st = statSync(f);
      if (!st.isFile() || st.size > MAX_SCRIPT_BYTES) continue;
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    texts.push(text);
    for (const m of text.matchAll(RELATIVE_IMPORTS)) {
      const next = resolve(dirname(f), m[1]);
      if (seen.size >= 50 || seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return texts;
}

/**
 * The environment variables a k6 script reads as far as its text shows (`reads`: ENV_READS), in it and the files it
 * imports.
 */
export function envRead(file, reads = ENV_READS) {
  const read = new Set();
  for (const text of scriptTexts(file)) {
    for (const re of [...reads, ...aliasReads(text)]) for (const m of text.matchAll(re)) read.add(m[1]);
    for (const name of destructuredReads(text)) read.add(name);
  }
  return read;
}

// a name bound to __ENV (`const env = __ENV`, `const env = typeof __ENV === 'undefined' ? {} : __ENV`) or to a function
// returning it (`const vars = () => __ENV`), on one line; both patterns look a bounded way ahead, so a long line of many
// `const a =` (or `const {`) is read once, not to its end for each
const ENV_ALIAS = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=[^;\n]{0,200}\b__ENV\b(?!\s*[.[])/g;
// `const { RATE, DURATION: d = '5s' } = __ENV`
const ENV_DESTRUCTURED = /\b(?:const|let|var)\s*\{([^}]{0,2000})\}\s*=\s*__ENV\b/g;

/** Reads by name through a name the script binds to __ENV: env.NAME, env['NAME'], vars().NAME. Pure. */
function aliasReads(text) {
  const names = new Set([...text.matchAll(ENV_ALIAS)].map((m) => m[1]));
  return [...names].flatMap((n) => {
    const at = `\\b${n.replace(/\$/g, '\\$')}(?:\\(\\s*\\))?`;
    return [new RegExp(`${at}\\.([A-Za-z_]\\w*)`, 'g'), new RegExp(`${at}\\[\\s*['"]([^'"]+)['"]\\s*\\]`, 'g')];
  });
}

/** The names a script takes out of __ENV by destructuring it. Pure. */
function destructuredReads(text) {
  return [...text.matchAll(ENV_DESTRUCTURED)].flatMap((m) => m[1].split(',')
    .map((part) => /^\s*['"]?([A-Za-z_]\w*)['"]?\s*(?:[:=]|$)/.exec(part)?.[1])
    .filter(Boolean));
}

// what parse keeps k6's built-in metrics as in a run that makes HTTP requests: a custom metric kept under one of these
// names (a Trend as latency.mean, latency.p50 ...) is refused as a clash once it is in the summary, and a Counter is
// there only once something was added to it, so a script's error counter would fail the first run that counts an error
const BUILT_IN_NAMES = new Set(['iterations', 'requests', 'throughput', 'errors', 'error_rate', 'duration', 'checks_pass_rate', 'bytes_received']);
const CUSTOM_METRIC = /\bnew\s+(Counter|Gauge|Rate|Trend)\s*\(\s*['"`]([^'"`]+)['"`]/g;

/**
 * Why a k6 script's custom metrics cannot be kept, as far as its text (and what it imports) shows: a metric it makes
 * with `new Counter('errors')`, `new Trend('latency')` ... that would be kept under a name of k6's built-in metrics
 * (customName drops a bl_ prefix, so bl_errors too), or undefined. Checked when the run is planned (plan.js), the
 * script found from the project root `root`, instead of in the first trial whose summary holds the metric.
 */
export function scriptProblem({ script, root = '.' } = {}) {
  if (!script) return undefined;
  const clashes = new Map();
  for (const text of scriptTexts(resolve(root, script))) {
    for (const [, type, name] of text.matchAll(CUSTOM_METRIC)) {
      const kept = customName(name);
      if (type === 'Trend' ? kept === 'latency' : BUILT_IN_NAMES.has(kept)) clashes.set(name, `${type}('${name}') (as "${type === 'Trend' ? `${kept}.mean` : kept}")`);
    }
  }
  if (!clashes.size) return undefined;
  const many = clashes.size > 1;
  return `k6: ${script} makes custom metric${many ? 's' : ''} ${[...clashes.values()].join(', ')} under ${many ? 'names' : 'a name'} benchline keeps k6's built-in metrics as; `
    + renameAdvice([...clashes.keys()]);
}

// an open-model scenario (k6 starts iterations at the rate the script sets), and what makes one closed: a closed-model
// executor or the `vus` of k6's shortcut options (arrival-rate scenarios take preAllocatedVUs and stages of their own)
const ARRIVAL_RATE = /\bexecutor\s*:\s*['"`](?:constant|ramping)-arrival-rate['"`]|\bbenchOptions\s*\(/;
const CLOSED_MODEL = /\bexecutor\s*:\s*['"`](?:constant-vus|ramping-vus|per-vu-iterations|shared-iterations|externally-controlled)['"`]|\bvus\s*:/;

/** The executor the script's text gives scenario `name` (`name: { executor: 'constant-vus', ... }`), or undefined. */
function scenarioExecutor(text, name) {
  const key = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const opens = [...text.matchAll(new RegExp(`(?:^|[\\s{,])['"\`]?${key}['"\`]?\\s*:\\s*\\{`, 'g'))];
  if (!opens.length) return undefined;
  // each brace's closing one and every `executor: '...'`, found in one pass each: a script of many unclosed
  // `name: {` would otherwise be scanned to its end once for each
  const ends = new Map();
  const stack = [];
  for (let i = 0; i < text.length; i++) if (text[i] === '{') stack.push(i); else if (text[i] === '}' && stack.length) ends.set(stack.pop(), i);
  const executors = [...text.matchAll(/\bexecutor\s*:\s*['"`]([\w-]+)['"`]/g)];
  for (const m of opens) {
    // the scenario's object, to its closing brace (its stages hold objects of their own), and the first executor in it
    const start = m.index + m[0].length - 1;
    const end = ends.get(start) ?? text.length;
    let lo = 0;
    let hi = executors.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (executors[mid].index < start) lo = mid + 1; else hi = mid; }
    const e = executors[lo];
    if (e && e.index + e[0].length <= end + 1) return e[1];
  }
  return undefined;
}

// executors that run for a set time whatever the subject does, so the iterations they make follow from its speed
const DURATION_BOUND = ['constant-vus', 'ramping-vus', 'externally-controlled'];

/**
 * The executors the scenario measured may run: its own (`executor`), else every one the script's text names (and
 * benchOptions()'s arrival rate), else the one k6's shortcut options make (`iterations` shared-iterations, `stages`
 * ramping-vus, `vus` or `duration` constant-vus).
 */
function executorsOf(text, executor) {
  if (executor) return [executor];
  const named = [...text.matchAll(/\bexecutor\s*:\s*['"`]([\w-]+)['"`]/g)].map((m) => m[1]);
  if (/\bbenchOptions\s*\(/.test(text)) named.push('constant-arrival-rate');
  if (named.length) return named;
  if (/\biterations\s*:/.test(text)) return ['shared-iterations'];
  if (/\bstages\s*:/.test(text)) return ['ramping-vus'];
  return /\b(vus|duration)\s*:/.test(text) ? ['constant-vus'] : [];
}

// a script's own Counter (`new Counter('received_bytes')`, `new Counter('wait_total', true)`): a sum over the run
const COUNTER = /\bnew\s+Counter\s*\(\s*['"`]([^'"`]+)['"`]\s*(,\s*true\b)?/g;

/** The script's own Counters of times or sizes (made with isTime, or named so), by the name they are kept under: 'times' or 'sizes'. */
function summedCounters(texts) {
  const out = new Map();
  for (const text of texts) {
    for (const [, name, isTime] of text.matchAll(COUNTER)) {
      const kept = customName(name);
      const hint = nameHintContains(kept);
      if (isTime || hint === 'time') out.set(kept, 'times');
      else if (hint === 'data') out.set(kept, 'sizes');
    }
  }
  return out;
}

/**
 * Why a k6 job may not judge the metrics its `judge` list names, or undefined. Checked when the run is planned
 * (plan.js), from the script's text (and what it imports). Throughput: the scenario benchline measures (the job param
 * k6Scenario, else `bench` when the script's thresholds name its submetrics) starts its iterations at a fixed rate
 * (`executor: 'constant-arrival-rate'` or 'ramping-arrival-rate'), or, without such a scenario, the script's own text
 * runs only arrival-rate scenarios (or benchline's `benchOptions()`) and nothing closed: it makes as many requests a
 * second as it sets, whatever the subject does. A Counter of times or sizes: the scenario runs for a set time
 * (constant-vus, ramping-vus, externally-controlled), so the Counter sums over as many iterations as the subject let
 * it make, and a faster subject shows more of it.
 */
export function judgeProblem({ script, judge, params = {}, root = '.' } = {}) {
  if (!script || !judge?.length) return undefined;
  // the script's own text, read as every script check reads it (a missing one is said where it is looked for)
  const texts = scriptTexts(resolve(root, script));
  const [text] = texts;
  if (text === undefined) return undefined;
  // the scenario whose own figures benchline reads: k6Scenario, or bench when a threshold makes k6 report its submetrics
  const measured = (params.k6Scenario ? String(params.k6Scenario) : undefined) || (text.includes(`{scenario:${DEFAULT_SCENARIO}}`) ? DEFAULT_SCENARIO : undefined);
  const executor = measured && scenarioExecutor(text, measured);
  const takes = (name) => judge.find((p) => matches(p, name));
  const named = (pattern, name) => (pattern === name ? name : `"${pattern}", which takes in ${name}`);
  const fixedRate = executor ? /-arrival-rate$/.test(executor) : ARRIVAL_RATE.test(text) && !CLOSED_MODEL.test(text);
  if (takes('throughput') && fixedRate) {
    const what = executor ? `scenario ${measured} of ${script}, the one measured${params.k6Scenario ? ' (k6Scenario)' : ''}, is ${executor}: it starts its iterations at a fixed rate`
      : `${script} starts its iterations at a fixed rate (an arrival-rate scenario)`;
    return `k6: judge names ${named(takes('throughput'), 'throughput')}, but ${what}, `
      + 'so its throughput is the rate the script sets, not what the subject can do: a slower subject shows in its latency '
      + "(judged by default) and in dropped_iterations; list the metrics to judge without throughput, or judge it in a job whose measured scenario runs a closed-model executor (constant-vus, ramping-vus)";
  }
  const executors = executorsOf(text, executor);
  if (!executors.length || !executors.every((e) => DURATION_BOUND.includes(e))) return undefined;
  const counter = [...summedCounters(texts)].find(([name]) => takes(name));
  if (!counter) return undefined;
  const [name, what] = counter;
  return `k6: judge names ${named(takes(name), name)}, a Counter of ${what} that ${script} adds to in its iterations, but it runs for a set time `
    + `(${[...new Set(executors)].join(', ')}), so the Counter sums over as many iterations as the subject let it make: a faster subject shows more of it `
    + '(more bytes, more time), whichever way is better; list the metrics to judge without it, or judge it in a job of a fixed amount of work (per-vu-iterations, shared-iterations)';
}

/** A param's key for an environment variable name: MAX_VUS -> maxVus. */
const keyOf = (env) => env.toLowerCase().replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/**
 * The job params a k6 script reads by name (__ENV.NAME, __ENV['NAME'], param('NAME')), by their keys (MAX_VUS -> maxVus): what
 * --param may set though the config does not list it (the script's default is then what the config leaves), except
 * what benchline sets itself (SET_BY_BENCHLINE: BASE_URL, GRPC_TARGET, BENCHLINE_SUMMARY) or k6 takes as its own
 * settings (K6_*).
 */
export function scriptParams(script, root = '.') {
  if (!script) return [];
  return [...envRead(resolve(root, script), NAMED_READS)].filter((n) => /^[A-Z][A-Z0-9_]*$/.test(n) && !Object.hasOwn(SET_BY_BENCHLINE, n) && !n.startsWith('K6_')).map(keyOf);
}

/**
 * Why a param the job itself sets (`own`) would reach the script as a variable it never reads though it nearly spells
 * one it does (`durtion: 2s` becomes DURTION beside the DURATION the script reads), or undefined; checked when the run is
 * planned (plan.js), the script found from the project root `root`. k6 passes every other param on, so one the script
 * reads in a way its text does not show (envRead) is left alone unless it nearly spells one it does. used: names read
 * as ${param.NAME} elsewhere (the subject's manifest).
 */
export function paramsProblem(p = {}, { script, own = [], used = new Set(), root = '.' } = {}) {
  if (!script) return undefined;
  const wrongScenario = scenarioProblem(p.k6Scenario, script, root);
  if (wrongScenario) return wrongScenario;
  if (!own.length) return undefined;
  const read = [...envRead(resolve(root, script))];
  for (const key of own) {
    if (ADAPTER_PARAMS.includes(key) || used.has(key)) continue;
    const env = envName(key);
    // a name of three characters or fewer is one edit from too many others to call it a typo of one
    if (!env || env.length < 4 || read.includes(env)) continue;
    const near = nearMiss(env, read.filter((r) => r.length >= 4));
    if (near) {
      return `k6: param ${key} reaches the script as __ENV.${env}, which neither ${script} nor what it imports reads (did you mean ${keyOf(near)}, read as ${near}?); `
        + 'if the script reads it in a way benchline cannot see, name it in the script as __ENV.' + env;
    }
  }
  return undefined;
}

/** A script's text with its comments and the insides of its strings blanked (same length), so braces there are not counted. */
function codeOnly(text) {
  const out = text.split('');
  const blank = (from, to) => { for (let k = from; k < Math.min(to, out.length); k++) if (out[k] !== '\n') out[k] = ' '; };
  const braces = []; // each open brace of the code: true where it opened a template's ${
  let i = 0;
  // a template's text from i: blanked up to its closing backtick, or up to a ${ whose code follows
  const template = () => {
    for (; i < text.length; i++) {
      if (text[i] === '`') return void (i += 1);
      if (text[i] === '$' && text[i + 1] === '{') return void (braces.push(true), i += 2);
      if (text[i] === '\\') blank(i, (i += 1) + 1);
      else blank(i, i + 1);
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 2;
      blank(i, end > i ? end : text.length);
      i = end > i ? end : text.length;
    } else if (c === '/' && /(?:^|[(,=:[!&|?{};])\s*$/.test(text.slice(Math.max(0, i - 40), i))) {
      // a regular expression literal (after an operator or an opening bracket, not a divisor): /{/ opens no brace
      let j = i + 1;
      for (let inClass = false; j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/'); j += text[j] === '\\' ? 2 : 1) {
        if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
      }
      blank(i + 1, j);
      i = j + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (c === '`') {
      i += 1;
      template();
    } else {
      if (c === '{') braces.push(false);
      i += 1;
      if (c === '}' && braces.pop()) template();
    }
  }
  return out.join('');
}

/**
 * The scenario names a script's text gives its scenarios (`scenarios: { report: { executor: ... } }`), or undefined
 * when it does not tell them all: no such object or more than one, scenarios named elsewhere (options.scenarios.x =,
 * options read from a file), or a member that is not `name: { ... }` (a spread, a computed key, a shared object).
 */
function scenarioNames(text) {
  const code = codeOnly(text);
  const named = [...code.matchAll(/\bscenarios\b/g)];
  const at = /\bscenarios\s*:\s*\{/g.exec(code);
  if (named.length !== 1 || !at || at.index !== named[0].index || /\bbenchOptions\s*\(|\bJSON\s*\.\s*parse\b|\bopen\s*\(/.test(code)) return undefined;
  const names = new Set();
  let depth = 0;
  let start = at.index + at[0].length;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if ('{[('.includes(c)) depth += 1;
    else if (')]}'.includes(c) && depth > 0) depth -= 1;
    else if (depth === 0 && (c === ',' || c === '}')) {
      // one member: `name: { ... }`, the name bare or quoted, its value one object literal and nothing after it
      const member = code.slice(start, i);
      if (member.trim()) {
        const key = /^(\s*)([\w$]+|'[^'\n]*'|"[^"\n]*")\s*:\s*\{/.exec(member);
        if (!key) return undefined;
        let d = 0;
        let end = key[0].length - 1;
        for (; end < member.length; end++) {
          if ('{[('.includes(member[end])) d += 1;
          else if (')]}'.includes(member[end]) && (d -= 1) === 0) break;
        }
        if (member.slice(end + 1).trim()) return undefined;
        // the name as the text spells it (a quoted one is blanked in the code)
        const name = text.slice(start + key[1].length, start + key[1].length + key[2].length);
        names.add(/^['"]/.test(name) ? name.slice(1, -1) : name);
      }
      if (c === '}') return names;
      start = i + 1;
    }
  }
  return undefined;
}

/**
 * Why a job's k6Scenario names no scenario of its script (whose figures would then be the whole test's), or undefined.
 * Only a script whose text tells its scenarios whole (scenarioNames) is held to them: one that spreads them in from an
 * import (`...extra`) or gives one by reference (`checkout: shared`) is not refused.
 */
function scenarioProblem(k6Scenario, script, root) {
  if (k6Scenario === undefined || k6Scenario === null || k6Scenario === '') return undefined;
  const [text] = scriptTexts(resolve(root, script));
  const names = text === undefined ? undefined : scenarioNames(text);
  if (!names?.size || names.has(String(k6Scenario))) return undefined;
  const near = nearMiss(String(k6Scenario), [...names]);
  return `k6: k6Scenario is ${k6Scenario}, but ${script} has no scenario of that name (its scenarios: ${[...names].join(', ')})${near ? `; did you mean k6Scenario: ${near}?` : ''} `
    + '(a name the summary holds no metric of would measure the whole test, every scenario and setup())';
}

/** The variables benchline sets for a k6 script, and what they hold: no job param may replace them. */
const SET_BY_BENCHLINE = Object.freeze({
  BASE_URL: "the subject's address (its manifest's target.url)",
  GRPC_TARGET: "the subject's gRPC address (its manifest's target.grpc)",
  BENCHLINE_SUMMARY: 'the path of the summary benchline reads',
});

/**
 * The k6 command line of one trial. Job params reach the script as -e KEY=VALUE (upper case;
 * k6 reserves K6_* for its own settings), BASE_URL comes from the target. params.summary picks
 * the output: 'handleSummary' (default: the script's handleSummary writes the file named by
 * BENCHLINE_SUMMARY, as loadtests/k6/lib does) or 'export' (k6's --summary-export, for any script).
 */
export function command(ctx) {
  const { bin, params = {}, target = {}, script, outFile } = ctx;
  if (!script) throw new Error('k6 jobs need a script: set `script: loadtests/k6/<name>.js` on the job in bench.config.yaml');
  if (!outFile) throw new Error('k6 command: ctx.outFile is required');
  const mode = params.summary ?? 'handleSummary';
  if (mode !== 'handleSummary' && mode !== 'export') {
    throw new Error(`k6 param summary: "${mode}" is neither handleSummary nor export`);
  }
  const argv = [bin, 'run', '--quiet', '--no-color', '--no-usage-report', '--summary-trend-stats', TREND_STATS.join(',')];
  // k6 writes --summary-export whatever the script's handleSummary does: read when the script wrote no summary itself
  const exportFile = outFile.replace(/(\.out)?\.json$/, '') + '.export.json';
  argv.push(...(mode === 'export' ? ['--summary-export', outFile] : ['-e', `BENCHLINE_SUMMARY=${outFile}`, '--summary-export', exportFile]));
  const vars = new Map();
  if (target.url) vars.set('BASE_URL', String(target.url).replace(/\/+$/, ''));
  if (target.grpc) vars.set('GRPC_TARGET', String(target.grpc));
  for (const [key, value] of Object.entries(params)) {
    if (ADAPTER_PARAMS.includes(key) || value === null || value === undefined) continue;
    const env = envName(key);
    if (!env) throw new Error(`k6 param "${key}" has no letters or digits to name an environment variable`);
    if (env.startsWith('K6_')) throw new Error(`k6 param "${key}" would become ${env}, but k6 reserves K6_* for its own options; rename it`);
    if (Object.hasOwn(SET_BY_BENCHLINE, env)) {
      throw new Error(`k6: param ${key} would set ${env}, ${SET_BY_BENCHLINE[env]}, which benchline sets itself; k6 would then load something else and its numbers be kept as the subject's: remove the param (the subject's manifest sets its address)`);
    }
    vars.set(env, value && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  for (const [k, v] of [...vars].sort(([a], [b]) => (a < b ? -1 : 1))) argv.push('-e', `${k}=${v}`);
  argv.push(script);
  if (mode === 'export') return { argv, output: 'file' };
  return { argv, output: 'file', fallback: { file: exportFile, note: exportNote(script) } };
}

/** The note of a trial read from k6's --summary-export because the script wrote no handleSummary JSON. */
function exportNote(script) {
  return `k6: the script wrote no summary to __ENV.BENCHLINE_SUMMARY, so benchline read k6's --summary-export, which has no metric `
    + 'types (a custom Trend is a time only when its name ends in _duration, _time, _latency or _ms, or the job param contains says so, as with the full summary for a Trend not made with isTime) '
    + 'and no run duration; for the full summary, add [__ENV.BENCHLINE_SUMMARY]: JSON.stringify(data) to what the script\'s '
    + `handleSummary returns, or, if it has none, export { handleSummary } from '${libImport(script)}' in the script`;
}

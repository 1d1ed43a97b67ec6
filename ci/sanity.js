// Refuses physically impossible values in one trial's parsed metrics, whichever adapter read them: pure, no I/O.
import { UserError } from './errors.js';
import { describeMetric, metricKey } from './metrics.js';
import { ADAPTERS } from './adapters/index.js';

/** Largest plausible value per canonical unit: far above any real run, far below what a corrupted number gives. */
export const BOUNDS = Object.freeze({
  ns: 1e15, // 11.6 days
  'ops/s': 1e12,
  bytes: 1e15, // 1 PB
  'bytes/s': 1e13, // 10 TB/s
  count: 1e15,
  ratio: 1,
});

/** What a value of each unit is, for messages. */
export const UNIT_WORD = { ns: 'a time', 'ops/s': 'a rate', bytes: 'a size', 'bytes/s': 'a rate', count: 'a count', ratio: 'a ratio' };

class ImpossibleValueError extends UserError {}

/** `latency.p99.9` -> { family: 'latency', stat: 'p', rank: 99.9 }; `time.min` -> { family: 'time', stat: 'min' }. */
function readStat(name) {
  const m = /^(.+)\.(min|max|mean|median|stdev|p(\d+(?:\.\d+)?))$/.exec(name);
  if (!m) return undefined;
  return m[3] !== undefined ? { family: m[1], stat: 'p', rank: Number(m[3]) } : { family: m[1], stat: m[2] };
}

// the store checks every document it reads (100,000 on a first site build), whose metrics share a few hundred names
const STATS = new Map();
const STATS_KEPT = 10000;
function statOf(name) {
  let s = STATS.get(name);
  if (s === undefined && !STATS.has(name)) {
    s = readStat(name);
    if (STATS.size < STATS_KEPT) STATS.set(name, s);
  }
  return s;
}

const show = (m) => `${m.case ? `${m.case}::` : ''}${m.name} = ${m.value}${m.unit === 'ratio' || m.unit === 'count' ? '' : ` ${m.unit}`}`;

/** What is wrong with one value `v` of metric m (its value or a sample), or undefined. */
function valueProblem(v, m, bound, wholeCounts) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'not a finite number';
  if (v < 0) return `${UNIT_WORD[m.unit] || 'this value'} cannot be negative`;
  if (wholeCounts && m.unit === 'count' && !Number.isInteger(v) && describeMetric(m.name)?.unit === 'count') return 'a count must be a whole number';
  if (m.unit === 'ratio' && v > 1) return 'a ratio must lie within 0..1';
  if (bound !== undefined && v > bound) return `above ${bound} ${m.unit}, beyond any real measurement`;
  return undefined;
}

/**
 * Problems of single values: finite, not negative, ratios within 0..1, within physical bounds, and with wholeCounts
 * integer counts (one trial's; a document's count is a median over trials, which can end in .5). Only the counts
 * ci/metrics.js registers (requests, errors, iterations...) are tallies: a metric a script defines with unit count is a
 * plain number (a k6 Gauge of 0.75, a Trend of item counts whose mean is 2.5) and may have a fraction.
 */
function valueProblems(m, { wholeCounts = true } = {}) {
  const out = [];
  const samples = Array.isArray(m.samples) ? m.samples : [];
  const bound = BOUNDS[m.unit];
  // the value, then its samples: the store checks millions of samples, so neither a copy of them nor a label per value
  for (let i = -1; i < samples.length && !out.length; i += 1) {
    const v = i < 0 ? m.value : samples[i];
    const problem = valueProblem(v, m, bound, wholeCounts);
    if (problem) out.push(`${v === m.value ? show(m) : `${show(m)} (sample ${v})`}: ${problem}`);
  }
  if (m.lower !== undefined && m.upper !== undefined && !(m.lower <= m.upper)) out.push(`${show(m)}: interval lower ${m.lower} above upper ${m.upper}`);
  // a tool's own interval is its value plus and minus an error (JMH's score ± scoreError); a bootstrap interval of a
  // median over trials (a document's) may in rare samples leave the median out, so only a trial's is held to it
  else if (wholeCounts && m.lower !== undefined && m.upper !== undefined && !(m.lower <= m.value && m.value <= m.upper)) out.push(`${show(m)}: outside its own interval ${m.lower} .. ${m.upper}`);
  return out;
}

/**
 * How far a mean may lie outside min..max: the coarsest resolution of the three (ab's mean comes from the total time to
 * a microsecond, its min and max are whole ms), and a billionth of the value for a tool's floating-point arithmetic.
 */
const meanSlack = (...ms) => Math.max(0, ...ms.filter(Boolean).map((m) => m.resolution || 0)) + Math.abs(ms[0].value) * 1e-9;

/** The lowest and the highest of a metric's value and, with `acrossTrials`, its samples (a document's, one per trial). */
function spanOf(m, acrossTrials) {
  let lo = m.value;
  let hi = m.value;
  if (acrossTrials && Array.isArray(m.samples)) {
    for (const v of m.samples) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

/**
 * Why a standard deviation cannot come from values within min..max, or undefined. The sample standard deviation
 * (n - 1) of values within [lo, hi] is at most (hi - lo) / sqrt(2), reached by two values (a population's at most
 * (hi - lo) / 2); min and max may each be rounded (ab prints whole ms), so the range gets one step of the coarser, and
 * the stdev one of its own (whole numbers, such as times converted to whole ns, one unit each; and 0.01% more: two
 * values reach the bound exactly). Over several trials (acrossTrials) the median stdev is at most the largest trial's, so the
 * range is the lowest min to the highest max of the trials.
 */
function stdevProblem(stdev, min, max, acrossTrials) {
  const lo = spanOf(min, acrossTrials)[0];
  const hi = spanOf(max, acrossTrials)[1];
  // and a hair more: two runs reach the bound exactly, and values converted to whole ns (integers) are each rounded
  const whole = [min.value, max.value, stdev.value].every(Number.isInteger) ? 1 : 0;
  const room = ((hi - lo + Math.max(min.resolution || 0, max.resolution || 0) + whole) / Math.SQRT2 + (stdev.resolution || 0) + whole) * (1 + 1e-4) + Math.abs(stdev.value) * 1e-9;
  if (!(stdev.value > room)) return undefined;
  const range = lo === min.value && hi === max.value ? `${show(min)} .. ${show(max)}` : `${lo} .. ${hi} ${max.unit} (the trials' lowest ${min.name} to highest ${max.name})`;
  return `${show(stdev)} is above what values within ${range} allow: a standard deviation is at most (max - min) / √2 = ${Math.floor(room)}${stdev.unit === 'count' ? '' : ` ${stdev.unit}`}`;
}

/**
 * min <= percentiles (in rank order) <= max, and the median between min and max, per family and case; the mean too,
 * within the resolution of the three (a mean of whole-ms values may round past its whole-ms max), except in the
 * families `freeMeans` names, whose mean is not one of the measured times (ab's, below); and a stdev that values
 * within min..max can have. Over a document's trials (acrossTrials) each relation holds for the medians as it held in
 * each trial, the stdev's against the trials' widest range.
 */
function orderProblems(metrics, freeMeans = [], { acrossTrials = false } = {}) {
  // the store runs this on every document it reads: one pass, no copies, percentiles sorted only when out of rank order
  const families = new Map();
  for (const m of metrics) {
    const s = statOf(m.name);
    if (!s) continue;
    const key = m.case ? `${m.case}::${s.family}` : s.family;
    let f = families.get(key);
    if (!f) families.set(key, (f = { family: s.family, ps: [], sorted: true }));
    if (s.stat !== 'p') f[s.stat] = m;
    else {
      if (f.ps.length && statOf(f.ps[f.ps.length - 1].name).rank > s.rank) f.sorted = false;
      f.ps.push(m);
    }
  }
  const out = [];
  const outside = (inner, min, max) => {
    if (min && inner.value < min.value) out.push(`${show(inner)} is below ${show(min)}`);
    if (max && inner.value > max.value) out.push(`${show(inner)} is above ${show(max)}`);
  };
  for (const f of families.values()) {
    const { min, max, ps } = f;
    if (min && max && min.value > max.value) out.push(`${show(min)} is above ${show(max)}`);
    if (!f.sorted) ps.sort((a, b) => statOf(a.name).rank - statOf(b.name).rank);
    for (let i = 0; i < ps.length; i += 1) {
      if (i > 0 && ps[i - 1].value > ps[i].value) out.push(`${show(ps[i - 1])} is above ${show(ps[i])}: percentiles must not fall as the rank rises`);
      outside(ps[i], min, max);
    }
    if (f.median) outside(f.median, min, max);
    const mean = freeMeans.includes(f.family) ? undefined : f.mean;
    if (mean && min && mean.value < min.value - meanSlack(mean, min, max)) out.push(`${show(mean)} is below ${show(min)}: a mean lies within min..max`);
    if (mean && max && mean.value > max.value + meanSlack(mean, min, max)) out.push(`${show(mean)} is above ${show(max)}: a mean lies within min..max`);
    const spread = f.stdev && min && max ? stdevProblem(f.stdev, min, max, acrossTrials) : undefined;
    if (spread) out.push(spread);
  }
  return out;
}

/** Whether `rate` over `duration` (ns) is within 0.5-2x of `total`: wide enough for the tools' rounding of all three. */
const rateMatches = (rate, duration, total) => {
  const ratio = (rate * duration) / 1e9 / total;
  return ratio > 0.5 && ratio < 2;
};

/**
 * The smallest rate of bytes checked against the bytes and the duration: ab prints its rate in KB/s with two decimals,
 * so below 1 KB/s its rounding passes the band.
 */
const CHECKED_BYTE_RATE = 1024;

/** Requests, errors, throughput, bytes, transfer rate and duration of one run must tell one story. */
function countProblems(metrics, extra = {}) {
  const top = (name) => metrics.find((m) => m.name === name && !m.case);
  const requests = top('requests');
  const errors = top('errors');
  const throughput = top('throughput');
  const duration = top('duration');
  const bytes = top('bytes_received');
  const transfer = top('transfer_rate');
  const out = [];
  if (requests && throughput && requests.value === 0 && throughput.value !== 0) out.push(`${show(throughput)} with ${show(requests)}: no request completed, so the throughput must be 0`);
  if (requests && duration && requests.value > 0 && duration.value === 0) out.push(`${show(duration)} with ${show(requests)}: requests take time`);
  // wrk counts failed connects as errors that never became requests: its adapter passes the attempts made
  const attempts = Number.isFinite(extra?.attempts) ? extra.attempts : requests?.value;
  if (errors && requests && errors.value > attempts) out.push(`${show(errors)} exceeds ${show(requests)}${attempts !== requests.value ? ` (${attempts} attempts)` : ''}`);
  if (requests && throughput && duration && requests.value >= 10 && duration.value > 0 && !rateMatches(throughput.value, duration.value, requests.value)) {
    out.push(`${show(throughput)} does not match ${show(requests)} in ${show(duration)} (expected about ${(requests.value / (duration.value / 1e9)).toPrecision(4)} ops/s)`);
  }
  // wrk prints both as two decimals of the unit it picks ("32.58MB read", "15.52MB"), ab its rate in KB/s
  if (bytes && transfer && duration && duration.value > 0) {
    const expected = bytes.value / (duration.value / 1e9);
    if (Math.max(expected, transfer.value) >= CHECKED_BYTE_RATE && !rateMatches(transfer.value, duration.value, bytes.value)) {
      out.push(`${show(transfer)} does not match ${show(bytes)} in ${show(duration)} (expected about ${expected.toPrecision(4)} bytes/s)`);
    }
  }
  return out;
}

/** Percentile curves: ranks within 0..100 and rising, values never negative and never falling. */
function distributionProblems(distributions = []) {
  const out = [];
  for (const d of distributions) {
    const label = `distribution ${d.case ? `${d.case}::` : ''}${d.name}`;
    if (d.count !== undefined && !(Number.isInteger(d.count) && d.count >= 0)) out.push(`${label}: count ${d.count} is not a whole number >= 0`);
    let prev;
    for (const pt of d.percentiles || []) {
      if (!Number.isFinite(pt.p) || pt.p < 0 || pt.p > 100) out.push(`${label}: percentile rank ${pt.p} outside 0..100`);
      else if (!Number.isFinite(pt.value) || pt.value < 0 || pt.value > (BOUNDS[d.unit] ?? Infinity)) out.push(`${label}: p${pt.p} = ${pt.value} ${d.unit} is impossible`);
      else if (prev && (pt.p <= prev.p || pt.value < prev.value)) out.push(`${label}: p${pt.p} = ${pt.value} after p${prev.p} = ${prev.value}: ranks and values must rise`);
      else prev = pt;
      if (out.length) break;
    }
  }
  return out;
}

/**
 * Every impossible value of one parsed trial ({ metrics, distributions?, extra? }), as readable lines; empty when sane.
 * extra.freeMeans: families whose `.mean` the adapter did not take as the mean of the measured values (ab's "Time per
 * request" is concurrency x time taken / complete requests, above the slowest request when requests in flight at a
 * time limit are left out), so it is not held within min..max.
 */
export function trialProblems(trial) {
  const metrics = trial?.metrics || [];
  return [
    ...metrics.flatMap(valueProblems),
    ...orderProblems(metrics, Array.isArray(trial?.extra?.freeMeans) ? trial.extra.freeMeans : []),
    ...countProblems(metrics, trial?.extra),
    ...distributionProblems(trial?.distributions),
  ];
}

/**
 * Why a document's value lies outside its own per-trial samples, or undefined: over several trials the value is their
 * median (result.js mergeTrials), and a single trial's one sample is its value. A single trial's samples from the tool
 * itself (hyperfine's runs, JMH's iterations) are left alone: JMH sums some of them (gc.count, gc.time).
 */
function sampleSpanProblem(m, trials) {
  const { samples } = m;
  if (!Array.isArray(samples) || !samples.length || (!(trials > 1) && samples.length > 1)) return undefined;
  if (samples.length === 1 && samples[0] === m.value) return undefined;
  const [lo, hi] = spanOf({ value: samples[0], samples }, true);
  // the median of two samples is their halfway point, computed in floating point
  const slack = Math.max(Math.abs(lo), Math.abs(hi)) * 1e-9;
  if (m.value >= lo - slack && m.value <= hi + slack) return undefined;
  return lo === hi
    ? `${show(m)} is not its trial's sample ${lo}: a document's value is what its trials measured`
    : `${show(m)} lies outside its own per-trial samples ${lo} .. ${hi}: a document's value is the median of its trials`;
}

// the options documentProblems checks a document's metrics with (values and order over several trials)
const ACROSS_TRIALS = Object.freeze({ wholeCounts: false, acrossTrials: true });

/** Families whose mean the document's tool does not take as the mean of the measured values (its adapter's freeMeans). */
const freeMeansOf = (doc) => (Object.hasOwn(ADAPTERS, String(doc?.tool?.name)) && ADAPTERS[doc.tool.name].freeMeans) || [];

/**
 * Impossible values of a result document as read back (compare, export, publish, the store): each metric's value and
 * samples as a trial's are checked, a metric listed twice, over several trials one sample per trial, each value within
 * its per-trial samples, and the order of min, percentiles, mean, stdev and max as in a trial (medians over trials keep
 * it). Documents benchline writes always pass; an edited or corrupted one does not.
 */
export function documentProblems(doc) {
  const metrics = Array.isArray(doc?.metrics) ? doc.metrics : [];
  const seen = new Set();
  const listed = [];
  for (const m of metrics) {
    const key = metricKey(m);
    if (seen.has(key)) listed.push(`${key}: listed twice`);
    seen.add(key);
    // over several trials a metric holds one value per trial (result.js); only a single trial may carry the tool's own
    if (doc.trials > 1 && Array.isArray(m.samples) && m.samples.length !== doc.trials) listed.push(`${key}: ${m.samples.length} samples for the document's ${doc.trials} trials (one per trial)`);
    const outside = sampleSpanProblem(m, doc.trials);
    if (outside) listed.push(outside);
  }
  const values = [];
  for (const m of metrics) {
    const found = valueProblems(m, ACROSS_TRIALS);
    if (found.length) values.push(...found);
  }
  const order = orderProblems(metrics, freeMeansOf(doc), ACROSS_TRIALS);
  // a document benchline wrote has none: no copies then
  return values.length || listed.length ? [...values, ...listed, ...order] : order;
}

/** Throws ImpossibleValueError naming `where` (file or job) and the tool, listing the offending metrics. */
export function assertSaneTrial(trial, { where, tool }) {
  const problems = trialProblems(trial);
  if (!problems.length) return trial;
  const more = problems.length > 5 ? `\n  ... and ${problems.length - 5} more` : '';
  throw new ImpossibleValueError(`${where}: ${tool} output holds impossible values, so it was not used (corrupted or edited output; run the tool again):\n  ${problems.slice(0, 5).join('\n  ')}${more}`);
}

// Refuses physically impossible values in one trial's parsed metrics, whichever adapter read them: pure, no I/O.
import { UserError } from './errors.js';
import { describeMetric, metricKey } from './metrics.js';

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

export class ImpossibleValueError extends UserError {}

/** `latency.p99.9` -> { family: 'latency', stat: 'p', rank: 99.9 }; `time.min` -> { family: 'time', stat: 'min' }. */
function statOf(name) {
  const m = /^(.+)\.(min|max|mean|median|stdev|p(\d+(?:\.\d+)?))$/.exec(name);
  if (!m) return undefined;
  return m[3] !== undefined ? { family: m[1], stat: 'p', rank: Number(m[3]) } : { family: m[1], stat: m[2] };
}

const show = (m) => `${m.case ? `${m.case}::` : ''}${m.name} = ${m.value}${m.unit === 'ratio' || m.unit === 'count' ? '' : ` ${m.unit}`}`;

/**
 * Problems of single values: finite, not negative, ratios within 0..1, within physical bounds, and with wholeCounts
 * integer counts (one trial's; a document's count is a median over trials, which can end in .5). Only the counts
 * ci/metrics.js registers (requests, errors, iterations...) are tallies: a metric a script defines with unit count is a
 * plain number (a k6 Gauge of 0.75, a Trend of item counts whose mean is 2.5) and may have a fraction.
 */
function valueProblems(m, { wholeCounts = true } = {}) {
  const out = [];
  const values = [m.value, ...(Array.isArray(m.samples) ? m.samples : [])];
  const bound = BOUNDS[m.unit];
  for (const v of values) {
    // the label is made only for a value found wrong: the store checks millions of samples
    const at = () => (v === m.value ? show(m) : `${show(m)} (sample ${v})`);
    if (typeof v !== 'number' || !Number.isFinite(v)) out.push(`${at()}: not a finite number`);
    else if (v < 0) out.push(`${at()}: ${UNIT_WORD[m.unit] || 'this value'} cannot be negative`);
    else if (wholeCounts && m.unit === 'count' && !Number.isInteger(v) && describeMetric(m.name)?.unit === 'count') out.push(`${at()}: a count must be a whole number`);
    else if (m.unit === 'ratio' && v > 1) out.push(`${at()}: a ratio must lie within 0..1`);
    else if (bound !== undefined && v > bound) out.push(`${at()}: above ${bound} ${m.unit}, beyond any real measurement`);
    if (out.length) break;
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

/**
 * Why a standard deviation cannot come from values within min..max, or undefined. The sample standard deviation
 * (n - 1) of values within [min, max] is at most (max - min) / sqrt(2), reached by two values (a population's at most
 * (max - min) / 2); min and max may each be rounded (ab prints whole ms), so the range gets one step of the coarser, and
 * the stdev one of its own.
 */
function stdevProblem(stdev, min, max) {
  const room = (max.value - min.value + Math.max(min.resolution || 0, max.resolution || 0)) / Math.SQRT2 + (stdev.resolution || 0) + Math.abs(stdev.value) * 1e-9;
  if (!(stdev.value > room)) return undefined;
  return `${show(stdev)} is above what values within ${show(min)} .. ${show(max)} allow: a standard deviation is at most (max - min) / √2 = ${Math.floor(room)}${stdev.unit === 'count' ? '' : ` ${stdev.unit}`}`;
}

/**
 * min <= percentiles (in rank order) <= max, and the median between min and max, per family and case; the mean too,
 * within the resolution of the three (a mean of whole-ms values may round past its whole-ms max), except in the
 * families `freeMeans` names, whose mean is not one of the measured times (ab's, below); and a stdev that values
 * within min..max can have.
 */
function orderProblems(metrics, freeMeans = []) {
  const families = new Map();
  for (const m of metrics) {
    const s = statOf(m.name);
    if (!s) continue;
    const key = `${m.case || ''}::${s.family}`;
    if (!families.has(key)) families.set(key, { family: s.family, ps: [] });
    const f = families.get(key);
    if (s.stat === 'p') f.ps.push({ rank: s.rank, m });
    else f[s.stat] = m;
  }
  const out = [];
  for (const f of families.values()) {
    const { min, max } = f;
    if (min && max && min.value > max.value) out.push(`${show(min)} is above ${show(max)}`);
    const ps = f.ps.sort((a, b) => a.rank - b.rank).map((p) => p.m);
    for (let i = 1; i < ps.length; i += 1) {
      if (ps[i - 1].value > ps[i].value) out.push(`${show(ps[i - 1])} is above ${show(ps[i])}: percentiles must not fall as the rank rises`);
    }
    for (const inner of [...ps, f.median].filter(Boolean)) {
      if (min && inner.value < min.value) out.push(`${show(inner)} is below ${show(min)}`);
      if (max && inner.value > max.value) out.push(`${show(inner)} is above ${show(max)}`);
    }
    const mean = freeMeans.includes(f.family) ? undefined : f.mean;
    if (mean && min && mean.value < min.value - meanSlack(mean, min, max)) out.push(`${show(mean)} is below ${show(min)}: a mean lies within min..max`);
    if (mean && max && mean.value > max.value + meanSlack(mean, min, max)) out.push(`${show(mean)} is above ${show(max)}: a mean lies within min..max`);
    const spread = f.stdev && min && max ? stdevProblem(f.stdev, min, max) : undefined;
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
 * Impossible values of a result document as read back (compare, export, publish, the store): each metric's value and
 * samples as a trial's are checked, a metric listed twice, and over several trials one sample per trial. Documents
 * benchline writes always pass; an edited or corrupted one does not.
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
  }
  return [...metrics.flatMap((m) => valueProblems(m, { wholeCounts: false })), ...listed];
}

/** Throws ImpossibleValueError naming `where` (file or job) and the tool, listing the offending metrics. */
export function assertSaneTrial(trial, { where, tool }) {
  const problems = trialProblems(trial);
  if (!problems.length) return trial;
  const more = problems.length > 5 ? `\n  ... and ${problems.length - 5} more` : '';
  throw new ImpossibleValueError(`${where}: ${tool} output holds impossible values, so it was not used (corrupted or edited output; run the tool again):\n  ${problems.slice(0, 5).join('\n  ')}${more}`);
}

// Suite renderer for serialization: seed 002's JMH table, percentile blocks, key findings, latency plot and HTTP phase, from our runs.
import { againstBaseLines, comparisonList, countVerdicts, formatInterval, headline, htmlEscape, jobReason, mdEscape, mdTable, pct, textTable, trialsTest } from '../../ci/reports/format.js';
import { formatValue } from '../../ci/units.js';

/** The plot file the report writer puts next to the report (see plots()). */
const PLOT_FILE = 'serialization-latency.svg';

const LABEL = { sbe: 'SBE', protobuf: 'Protobuf', json: 'JSON' };
const ORDER = ['sbe', 'protobuf', 'json'];
const OPS = ['Serialize', 'Deserialize'];
const OP_WORD = { Serialize: 'serialization', Deserialize: 'deserialization' };
const MODE_LABEL = { avgt: 'AverageTime', sample: 'SampleTime', thrpt: 'Throughput', ss: 'SingleShotTime' };
/** Below this relative difference two codecs are called even: JMH's quick runs are not finer than that. */
export const EVEN = 0.05;
/** Allocation under this many bytes per operation is JMH's measurement floor, i.e. nothing. */
const NO_ALLOC = 1;

const codecLabel = (codec) => LABEL[codec] || codec;

/** `sbeSerialize{depth=1}` -> { codec: 'sbe', op: 'Serialize', rest: '{depth=1}' }; other names -> undefined. */
export function parseCase(name) {
  const m = /^([a-z][a-z0-9]*)(Serialize|Deserialize)(.*)$/.exec(name || '');
  return m ? { codec: m[1], op: m[2], rest: m[3] } : undefined;
}

const codecRank = (codec) => (ORDER.includes(codec) ? ORDER.indexOf(codec) : ORDER.length);
/** Seed order: SBE before Protobuf before JSON, serialize before deserialize, then anything else by name. */
function caseOrder(a, b) {
  const pa = parseCase(a);
  const pb = parseCase(b);
  if (pa && pb) {
    return codecRank(pa.codec) - codecRank(pb.codec) || pa.codec.localeCompare(pb.codec)
      || OPS.indexOf(pa.op) - OPS.indexOf(pb.op) || pa.rest.localeCompare(pb.rest);
  }
  if (pa || pb) return pa ? -1 : 1;
  return a.localeCompare(b);
}

const metricOf = (doc, caseName, name) => doc?.metrics.find((m) => m.case === caseName && m.name === name);
const modeOf = (doc) => doc?.params?.mode || (doc?.distributions?.length ? 'sample' : 'avgt');

/** The average-time document (the JMH table) and the SampleTime document (percentiles), variant default first. */
function pickDocs(docs = []) {
  const jmh = docs.filter((d) => (d.tool?.name ?? d.tool) === 'jmh')
    .sort((a, b) => (a.variant === 'default' ? -1 : 0) - (b.variant === 'default' ? -1 : 0));
  const sample = jmh.find((d) => modeOf(d) === 'sample');
  const timed = jmh.filter((d) => d !== sample && d.metrics.some((m) => m.name === 'time.mean'));
  const table = timed.find((d) => d.metrics.some((m) => m.name === 'alloc_per_op')) || timed[0];
  return { table, sample };
}

/** Rows of the JMH table: score and error in ns/op, allocation in B/op, encoded size in bytes. */
function tableRows(doc) {
  if (!doc) return [];
  const cases = [...new Set(doc.metrics.filter((m) => m.name === 'time.mean').map((m) => m.case))].sort(caseOrder);
  return cases.map((c) => {
    const t = metricOf(doc, c, 'time.mean');
    const hasInterval = Number.isFinite(t.lower) && Number.isFinite(t.upper);
    return {
      case: c,
      ...parseCase(c),
      mode: modeOf(doc),
      score: t.value,
      error: hasInterval ? (t.upper - t.lower) / 2 : undefined,
      lower: t.lower,
      upper: t.upper,
      confidence: t.confidence,
      alloc: metricOf(doc, c, 'alloc_per_op')?.value,
      bytes: metricOf(doc, c, 'message_bytes')?.value,
    };
  });
}

/** The seed's HDR block per case, from a SampleTime distribution (min = p0, max = p100). */
function percentileBlocks(doc) {
  if (!doc?.distributions) return [];
  const at = (d, p) => d.percentiles.find((x) => x.p === p)?.value;
  return doc.distributions.filter((d) => d.name === 'time')
    .sort((a, b) => caseOrder(a.case || '', b.case || ''))
    .map((d) => ({
      case: d.case,
      ...parseCase(d.case),
      count: d.count,
      min: at(d, 0),
      mean: metricOf(doc, d.case, 'time.mean')?.value,
      max: at(d, 100) ?? metricOf(doc, d.case, 'time.max')?.value,
      p50: at(d, 50),
      p90: at(d, 90),
      p99: at(d, 99),
      p999: at(d, 99.9),
      percentiles: d.percentiles,
    }));
}

// ---------------------------------------------------------------- the HTTP phase (k6 against HttpServe)

const valueOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case)?.value;
const samplesOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case)?.samples || [];

/** The seed's HDR percentiles as k6 metrics: [label, row key, metric name]. */
const HTTP_PERCENTILES = [['P50', 'p50', 'latency.p50'], ['P90', 'p90', 'latency.p90'], ['P99', 'p99', 'latency.p99'], ['P99.9', 'p999', 'latency.p99.9']];

/** One row per codec from the k6 documents of scenarios http-<codec>: size served, round trip, latency. */
function httpRows(docs = []) {
  return docs.filter((d) => (d.tool?.name ?? d.tool) === 'k6' && /^http-/.test(d.scenario || ''))
    .map((d) => {
      const codec = d.params?.codec || d.scenario.slice('http-'.length);
      return {
        codec,
        label: codecLabel(codec),
        bytes: valueOf(d, 'message_bytes'),
        checks: valueOf(d, 'checks_pass_rate'),
        requests: valueOf(d, 'requests'),
        rate: d.params?.rate,
        throughput: valueOf(d, 'throughput'),
        min: valueOf(d, 'latency.min'),
        mean: valueOf(d, 'latency.mean'),
        p50: valueOf(d, 'latency.p50'),
        p90: valueOf(d, 'latency.p90'),
        p95: valueOf(d, 'latency.p95'),
        p99: valueOf(d, 'latency.p99'),
        p999: valueOf(d, 'latency.p99.9'),
        max: valueOf(d, 'latency.max'),
        errors: valueOf(d, 'errors'),
        trials: d.trials,
        version: d.tool?.version,
        // each trial's percentiles, for testing two codecs' difference over the trials
        samples: Object.fromEntries(HTTP_PERCENTILES.map(([, k, name]) => [k, samplesOf(d, name)])),
      };
    })
    .sort((a, b) => codecRank(a.codec) - codecRank(b.codec));
}

// The seed's HDR block per endpoint (Count, Min, Mean, Max, P50, P90, P99, P99.9) plus k6's P95.
export const HTTP_HEAD = ['Codec', 'Encoded size', 'Round trip (match)', 'Requests', 'Rate (req/s)', 'Min', 'Mean', 'P50', 'P90', 'P95', 'P99', 'P99.9', 'Max', 'Errors'];

function httpTable(rows) {
  const t = (v) => (v === undefined ? '–' : formatValue(v, 'ns'));
  return rows.map((r) => [
    r.label,
    r.bytes === undefined ? '–' : `${Math.round(r.bytes).toLocaleString('en-US')} B`,
    r.checks === undefined ? '–' : r.checks === 1 ? 'every answer' : `${(r.checks * 100).toFixed(2)}% of checks passed`,
    r.requests === undefined ? '–' : Math.round(r.requests).toLocaleString('en-US'),
    r.throughput === undefined ? '–' : r.throughput.toFixed(0),
    t(r.min), t(r.mean), t(r.p50), t(r.p90), t(r.p95), t(r.p99), t(r.p999), t(r.max),
    r.errors === undefined ? '–' : Math.round(r.errors).toLocaleString('en-US'),
  ]);
}

/** How the HTTP phase ran, and what its round trip and sizes say. */
function httpLines(rows) {
  if (!rows.length) return [];
  const r0 = rows[0];
  const out = [`k6 ${r0.version ?? '?'} at a fixed arrival rate of ${r0.rate ?? '?'} req/s per codec against GET /api/test/<codec> on loopback `
    + `(each request encodes the sample, decodes it and compares); latency percentiles from k6${r0.trials > 1 ? `, medians of ${r0.trials} trials` : ''}.`];
  const bad = rows.filter((r) => r.checks !== undefined && r.checks < 1);
  out.push(bad.length
    ? `Round trip: ${bad.map((r) => `${r.label} failed ${((1 - r.checks) * 100).toFixed(2)}% of its checks (status, protocol or match)`).join('; ')}.`
    : 'Round trip: every answer of every codec reported match = true (decoded message equals the original).');
  const sized = rows.filter((r) => r.bytes !== undefined);
  if (sized.length > 1) {
    const small = sized.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    out.push(`Size served: ${sized.map((r) => `${r.label} ${Math.round(r.bytes)} B`).join(', ')}; ${small.label} is the smallest `
      + '(the body of /api/encoded/<codec>, checked equal to the size /api/test reports).');
  }
  return out;
}

/**
 * The seed's HDR finding ("SBE shows better performance across all percentiles", of its HTTP endpoint) checked over
 * our HTTP phase: SBE against each other codec at P50, P90, P99 and P99.9, each with the two-sided Mann-Whitney p
 * over the trials' percentiles. It holds when SBE is significantly faster at every one, does not when it is
 * significantly slower at one, and is not settled otherwise.
 */
export function httpFindings(rows, { alpha = 0.05 } = {}) {
  const ref = rows.find((r) => r.codec === 'sbe');
  if (!ref) return [];
  const t = (v) => formatValue(v, 'ns');
  return rows.filter((r) => r !== ref).map((other) => {
    const cells = HTTP_PERCENTILES.filter(([, k]) => ref[k] !== undefined && other[k] !== undefined).map(([label, k]) => {
      const test = trialsTest(ref.samples?.[k] || [], other.samples?.[k] || [], alpha);
      const sig = !test.untestable && test.p < alpha;
      const dir = ref[k] < other[k] ? 'faster' : ref[k] > other[k] ? 'slower' : 'even';
      return { label, dir, sig, untestable: test.untestable, text: `${label} ${t(ref[k])} vs ${t(other[k])} (${dir}${test.untestable ? '' : `, p = ${test.p.toFixed(3)}`})` };
    });
    if (!cells.length) return undefined;
    const n = Math.min(ref.samples?.p50?.length || 1, other.samples?.p50?.length || 1);
    const verdict = cells.every((c) => c.dir === 'faster' && c.sig) ? 'holds'
      : cells.some((c) => c.dir === 'slower' && c.sig) ? 'does not hold'
        : cells.every((c) => c.untestable) ? `is not tested (${n} trial${n === 1 ? '' : 's'} a codec cannot show a significant difference; run 4 or more)` : 'is not settled';
    return `Over HTTP, SBE against ${other.label}: ${cells.map((c) => c.text).join(', ')}; the seed's "SBE better across all percentiles" ${verdict}.`;
  }).filter(Boolean);
}

// ---------------------------------------------------------------- findings (pure, direction follows the data)

const ns1 = (v) => `${v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}ns`;
const bytesPerOp = (v) => (v < NO_ALLOC ? `${v.toFixed(2)} B/op` : `${Math.round(v).toLocaleString('en-US')} B/op`);
/** The seed writes ~2.8x for speed and ~3x for memory: one decimal below 2x, whole numbers above for memory. */
const times = (r, { whole = false } = {}) => (whole && r >= 2 ? `${Math.round(r)}x` : `${r.toFixed(1)}x`);
const overlap = (a, b) => [a.lower, a.upper, b.lower, b.upper].every(Number.isFinite) && a.lower <= b.upper && b.lower <= a.upper;

/** "SBE is ~2.8x faster for serialization than Protobuf (73.6ns vs 211.3ns)", or slower, or about as fast. */
export function speedFinding(ref, other, op) {
  const word = OP_WORD[op] || op;
  const nums = `(${ns1(ref.score)} vs ${ns1(other.score)})`;
  const caveat = overlap(ref, other) ? `; their ${Math.round((ref.confidence ?? 0.999) * 1000) / 10}% intervals overlap, so this run alone does not settle it` : '';
  const ratio = other.score / ref.score;
  if (Math.abs(ratio - 1) < EVEN) return `${ref.label} and ${other.label} are about as fast for ${word} ${nums}${caveat}`;
  if (ratio > 1) return `${ref.label} is ~${times(ratio)} faster for ${word} than ${other.label} ${nums}${caveat}`;
  return `${ref.label} is ~${times(1 / ratio)} slower for ${word} than ${other.label} ${nums}${caveat}`;
}

/** "SBE allocates ~3x less memory for serialization than Protobuf (320 B/op vs 952 B/op)", or more, or nothing. */
export function memoryFinding(ref, other, op) {
  const word = OP_WORD[op] || op;
  const a = ref.alloc;
  const b = other.alloc;
  if (a < NO_ALLOC && b < NO_ALLOC) return `Neither ${ref.label} nor ${other.label} allocates for ${word} (${bytesPerOp(a)} vs ${bytesPerOp(b)})`;
  if (a < NO_ALLOC) return `${ref.label} allocates nothing for ${word}, ${other.label} ${bytesPerOp(b)} (${bytesPerOp(a)} vs ${bytesPerOp(b)})`;
  if (b < NO_ALLOC) return `${ref.label} allocates ${bytesPerOp(a)} for ${word}, ${other.label} nothing (${bytesPerOp(a)} vs ${bytesPerOp(b)})`;
  const ratio = b / a;
  const nums = `(${bytesPerOp(a)} vs ${bytesPerOp(b)})`;
  if (Math.abs(ratio - 1) < EVEN) return `${ref.label} and ${other.label} allocate about the same for ${word} ${nums}`;
  if (ratio > 1) return `${ref.label} allocates ~${times(ratio, { whole: true })} less memory for ${word} than ${other.label} ${nums}`;
  return `${ref.label} allocates ~${times(1 / ratio, { whole: true })} more memory for ${word} than ${other.label} ${nums}`;
}

/** "SBE's message is 306 bytes, ~1.2x larger than Protobuf's (248 bytes)", or smaller, or the same. */
export function sizeFinding(ref, other) {
  const ratio = ref.bytes / other.bytes;
  const nums = `${ref.bytes} bytes`;
  if (ref.bytes === other.bytes) return `${ref.label} and ${other.label} encode the message in the same ${nums}`;
  if (ratio > 1) return `${ref.label}'s message is ${nums}, ~${times(ratio)} larger than ${other.label}'s (${other.bytes} bytes)`;
  return `${ref.label}'s message is ${nums}, ~${times(1 / ratio)} smaller than ${other.label}'s (${other.bytes} bytes)`;
}

/** Per codec: its serialize/deserialize rows and encoded size, for plain (param-less) cases only. */
function byCodec(rows) {
  const out = new Map();
  for (const r of rows.filter((x) => x.codec && !x.rest)) {
    if (!out.has(r.codec)) out.set(r.codec, { codec: r.codec, label: codecLabel(r.codec), ops: {} });
    const c = out.get(r.codec);
    c.ops[r.op] = { ...r, label: c.label };
    if (r.bytes !== undefined) c.bytes = r.bytes;
  }
  return [...out.values()].sort((a, b) => codecRank(a.codec) - codecRank(b.codec) || a.codec.localeCompare(b.codec));
}

/** The seed's "Key Findings": the reference codec (SBE when present) against each other codec. */
export function findings(rows) {
  const codecs = byCodec(rows);
  if (codecs.length < 2) return [];
  const ref = codecs[0];
  const out = [];
  for (const other of codecs.slice(1)) {
    for (const op of OPS) {
      if (ref.ops[op] && other.ops[op]) out.push(speedFinding(ref.ops[op], other.ops[op], op));
    }
    for (const op of OPS) {
      if (ref.ops[op]?.alloc !== undefined && other.ops[op]?.alloc !== undefined) out.push(memoryFinding(ref.ops[op], other.ops[op], op));
    }
    if (ref.bytes !== undefined && other.bytes !== undefined) out.push(sizeFinding(ref, other));
  }
  return out;
}

/** The seed's "Performance Summary": one row per property, the winner and by how much over the runner-up. */
export function summaryRows(rows) {
  const codecs = byCodec(rows);
  const props = [
    ['Serialization speed', (c) => c.ops.Serialize?.score, (v) => `${v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ns`, 'faster', (c) => c.ops.Serialize],
    ['Deserialization speed', (c) => c.ops.Deserialize?.score, (v) => `${v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ns`, 'faster', (c) => c.ops.Deserialize],
    ['Serialization memory', (c) => c.ops.Serialize?.alloc, bytesPerOp, 'less'],
    ['Deserialization memory', (c) => c.ops.Deserialize?.alloc, bytesPerOp, 'less'],
    ['Encoded size', (c) => c.bytes, (v) => `${v} bytes`, 'smaller'],
  ];
  const out = [];
  for (const [name, get, fmt, word, row] of props) {
    const vals = codecs.map((c) => ({ label: c.label, v: get(c), row: row?.(c) })).filter((x) => x.v !== undefined);
    if (vals.length < 2) continue;
    const sorted = [...vals].sort((a, b) => a.v - b.v);
    const [best, next] = sorted;
    let winner;
    // who: the winner's label, none for a tie; settled: false where the intervals of the two best overlap
    let who = best.label;
    let settled = true;
    if (word === 'less' && best.v < NO_ALLOC) {
      winner = next.v < NO_ALLOC ? 'tie (no allocation)' : `${best.label} (allocates nothing)`;
      if (next.v < NO_ALLOC) who = undefined;
    } else if (next.v / best.v - 1 < EVEN) {
      winner = `tie (${best.label}, ${next.label})`;
      who = undefined;
    } else {
      settled = !(best.row && next.row && overlap(best.row, next.row));
      winner = `${best.label} (${times(next.v / best.v, { whole: word === 'less' })} ${word}${settled ? '' : '; intervals overlap, not settled'})`;
    }
    out.push({ name, cells: codecs.map((c) => (get(c) === undefined ? '–' : fmt(get(c)))), winner, who, settled });
  }
  return { head: codecs.map((c) => c.label), rows: out };
}

/** The rows of the seed's "Performance Summary", all of which it gives to SBE ("the clear winner"). */
const SEED_SUMMARY = ['Serialization speed', 'Deserialization speed', 'Serialization memory', 'Deserialization memory'];

/**
 * The seed's conclusion (SBE the clear winner: it wins every row of its summary) checked against our summary rows:
 * which rows SBE wins, which it wins without a settled difference, and which another codec wins or ties. Undefined
 * without SBE or another codec to compare with.
 */
export function conclusion(summary) {
  const ref = codecLabel('sbe');
  const rows = summary.rows.filter((r) => SEED_SUMMARY.includes(r.name));
  if (!rows.length || !summary.head.includes(ref) || summary.head.length < 2) return undefined;
  const lower = (s) => s.charAt(0).toLowerCase() + s.slice(1);
  const won = rows.filter((r) => r.who === ref && r.settled).map((r) => lower(r.name));
  const unsettled = rows.filter((r) => r.who === ref && !r.settled).map((r) => lower(r.name));
  const lost = rows.filter((r) => r.who !== ref).map((r) => `${lower(r.name)}: ${r.winner}`);
  const and = (xs) => (xs.length < 3 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  const parts = [];
  if (won.length) parts.push(`${ref} wins ${and(won)}`);
  if (unsettled.length) parts.push(`${ref} leads ${and(unsettled)} without a settled difference (the intervals overlap)`);
  if (lost.length) parts.push(`${ref} does not win ${lost.join('; ')}`);
  const extra = summary.rows.filter((r) => !SEED_SUMMARY.includes(r.name)).map((r) => `${lower(r.name)}, not in the seed's summary: ${r.winner}`);
  const verdict = lost.length ? 'does not hold' : unsettled.length ? 'holds in direction, not settled in every row' : 'holds';
  return `Conclusion: the seed's "${ref} is the clear winner" (every row of its summary) ${verdict} here: ${parts.join('; ')}${extra.length ? ` (${extra.join('; ')})` : ''}.`;
}

/** The seed's percentile rows its HDR finding ("better performance across all percentiles") is read over. */
const PERCENTILE_ROWS = [['P50', 'p50'], ['P90', 'p90'], ['P99', 'p99'], ['P99.9', 'p999']];

/**
 * The seed's percentile findings, per operation: whether the reference codec (SBE when present) is faster than each
 * other codec at every percentile (P50, P90, P99, P99.9), and whose latency is more consistent (the smaller gap from
 * P50 to P99.9, as a ratio). Directions follow the data.
 */
function percentileFindings(blocks) {
  const plain = blocks.filter((b) => b.codec && !b.rest);
  const out = [];
  for (const op of OPS) {
    const byCodec = plain.filter((b) => b.op === op).sort((a, b) => codecRank(a.codec) - codecRank(b.codec) || a.codec.localeCompare(b.codec));
    const [ref, ...others] = byCodec;
    if (!ref) continue;
    const word = OP_WORD[op] || op;
    for (const other of others) {
      const rows = PERCENTILE_ROWS.filter(([, k]) => ref[k] !== undefined && other[k] !== undefined);
      if (!rows.length) continue;
      const nums = rows.map(([label, k]) => `${label} ${nsCell(ref[k])} vs ${nsCell(other[k])}`).join(', ');
      const ahead = rows.filter(([, k]) => ref[k] < other[k]).map(([label]) => label);
      const behind = rows.filter(([, k]) => ref[k] > other[k]).map(([label]) => label);
      const a = codecLabel(ref.codec);
      const b = codecLabel(other.codec);
      let text;
      if (ahead.length === rows.length) text = `${a} is faster than ${b} at every percentile for ${word} (${nums})`;
      else if (behind.length === rows.length) text = `${a} is slower than ${b} at every percentile for ${word} (${nums})`;
      else text = `${a} is faster than ${b} for ${word} at ${ahead.join(', ') || 'no percentile'} but not at ${rows.map(([l]) => l).filter((l) => !ahead.includes(l)).join(', ')} (${nums})`;
      out.push(text);
      if (ref.p50 > 0 && other.p50 > 0 && ref.p999 !== undefined && other.p999 !== undefined) {
        const ga = ref.p999 / ref.p50;
        const gb = other.p999 / other.p50;
        const gaps = `P99.9 is ${ga.toFixed(1)}x P50 for ${a}, ${gb.toFixed(1)}x for ${b}`;
        out.push(Math.abs(ga / gb - 1) < EVEN
          ? `${a} and ${b} are about as consistent for ${word} (${gaps})`
          : `${ga < gb ? a : b}'s ${word} latency is more consistent (${gaps})`);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- model

const jobFailures = (run, suite) => (run?.jobs || []).filter((j) => j.suite === suite && j.status === 'failed')
  .map((j) => `job ${j.id} failed: ${jobReason(j)}`);

/** How the JMH run was configured, from the document's params and notes. */
function runLine(doc) {
  if (!doc) return '';
  const p = doc.params || {};
  const jdk = (doc.notes || []).map((n) => /^jmh: JDK (\S+)/.exec(n)?.[1]).find(Boolean);
  const parts = [`JMH ${doc.tool?.version ?? '?'}`];
  if (jdk) parts.push(`JDK ${jdk}`);
  if (p.forks !== undefined) parts.push(`${p.forks} fork${Number(p.forks) === 1 ? '' : 's'}`);
  if (p.warmupIterations !== undefined) parts.push(`warm-up ${p.warmupIterations} x ${p.warmup ?? '?'}`);
  if (p.iterations !== undefined) parts.push(`measurement ${p.iterations} x ${p.time ?? '?'}`);
  parts.push(doc.trials > 1 ? `median of ${doc.trials} trials` : 'one trial');
  return parts.join(', ');
}

export function model({ suite = 'serialization', docs = [], comparisons, run, config } = {}) {
  const { table, sample } = pickDocs(docs);
  const rows = tableRows(table);
  const blocks = percentileBlocks(sample);
  const missing = [...jobFailures(run, suite)];
  if (!table) missing.push('No JMH average-time results in this run (the avgt job failed or was not selected).');
  if (!sample) missing.push('No JMH SampleTime results in this run (the sample job failed or was not selected).');
  const sizes = byCodec(rows).filter((c) => c.bytes !== undefined).map((c) => ({ label: c.label, bytes: c.bytes }));
  const http = httpRows(docs.filter((d) => d.suite === suite || d.suite === undefined));
  return {
    http,
    alpha: config?.compare?.alpha ?? 0.05,
    suite,
    description: config?.suites?.[suite]?.description,
    table,
    sample,
    rows,
    blocks,
    sizes,
    findings: findings(rows),
    percentileFindings: percentileFindings(blocks),
    summary: summaryRows(rows),
    conclusion: conclusion(summaryRows(rows)),
    comparisons: comparisonList(comparisons),
    missing,
    runLine: runLine(table),
    sampleLine: runLine(sample),
  };
}

// ---------------------------------------------------------------- text pieces

const num2 = (v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Percentile values as the seed prints them: whole ns when whole, else two decimals. */
const nsCell = (v) => (v === undefined ? '–' : `${v.toLocaleString('en-US', { maximumFractionDigits: 2 })} ns`);

function jmhTable(m) {
  return m.rows.map((r) => [
    r.case,
    MODE_LABEL[r.mode] || r.mode,
    num2(r.score),
    r.error === undefined ? '–' : `± ${num2(r.error)}`,
    'ns/op',
    r.alloc === undefined ? '–' : `${num2(r.alloc)} B/op`,
  ]);
}
export const JMH_HEAD = ['Benchmark', 'Mode', 'Score (ns/op)', 'Error', 'Unit', 'GC Alloc'];

function errorNote(m) {
  const c = m.rows.find((r) => r.confidence !== undefined)?.confidence;
  return c === undefined ? 'Error: – where JMH had too few iterations for an interval' : `Error: half the ${Math.round(c * 1000) / 10}% confidence interval${c === 0.999 ? ' (JMH\'s own)' : ' (bootstrap over trials)'}`;
}

/** What the percentile blocks are, so nobody reads them as the seed's HdrHistogram figures. */
const SAMPLE_NOTE = 'These are JMH\'s own samples, not HdrHistogram: JMH times single calls, so each value includes the timer\'s cost '
  + '(tens of ns), which is why they sit above the AverageTime scores. The seed\'s HDR phase timed HTTP calls; its counterpart here is the HTTP phase below.';

const blockTitle = (b) => (b.codec ? `${codecLabel(b.codec)} ${b.op}${b.rest || ''}` : b.case);

function blockLines(b) {
  return [
    `${blockTitle(b)}:`,
    `  Count: ${b.count === undefined ? '–' : b.count.toLocaleString('en-US')}`,
    `  Min:   ${nsCell(b.min)}`,
    `  Mean:  ${b.mean === undefined ? '–' : `${num2(b.mean)} ns`}`,
    `  Max:   ${nsCell(b.max)}`,
    `  P50:   ${nsCell(b.p50)}`,
    `  P90:   ${nsCell(b.p90)}`,
    `  P99:   ${nsCell(b.p99)}`,
    `  P99.9: ${nsCell(b.p999)}`,
  ];
}

const notable = (m) => m.comparisons.filter((c) => c.verdict === 'regression' || c.verdict === 'improvement');
const comparisonLine = (c) => `${c.verdict}: ${c.scenario} ${c.case ? `${c.case} ` : ''}${c.metric} ${pct(c.change)} ${formatInterval(c)}`;

// ---------------------------------------------------------------- renderers

/** Console text: the seed's report sections, our numbers. */
export function render(ctx) {
  const m = model(ctx);
  const out = ['serialization: SBE vs Protobuf vs JSON for one market-data message (seed 002)'];
  if (m.description) out.push(m.description);
  if (m.rows.length) {
    out.push('', `JMH benchmarks (${m.runLine}):`, '', textTable(JMH_HEAD, jmhTable(m), { align: ['left', 'left', 'right', 'right', 'left', 'right'] }));
    out.push('', `  Score: lower is better (average time per operation). ${errorNote(m)}. GC Alloc: bytes allocated per operation (-prof gc).`);
  }
  if (m.sizes.length) out.push('', `Encoded size per message: ${m.sizes.map((s) => `${s.label} ${s.bytes} bytes`).join(', ')}`);
  if (m.findings.length) out.push('', 'Key findings:', ...m.findings.map((f) => `- ${f}`));
  if (m.summary.rows.length) {
    out.push('', 'Performance summary:', '', textTable(['Metric', ...m.summary.head, 'Winner'], m.summary.rows.map((r) => [r.name, ...r.cells, r.winner])));
    if (m.conclusion) out.push('', m.conclusion);
  }
  if (m.blocks.length) {
    out.push('', `Latency percentiles from JMH SampleTime (${m.sampleLine}):`, `  ${SAMPLE_NOTE}`, '');
    for (const b of m.blocks) out.push(...blockLines(b), '');
    out.pop();
    if (m.percentileFindings.length) out.push('', 'Percentile findings:', ...m.percentileFindings.map((f) => `- ${f}`));
    out.push('', `Latency distribution plot: ${PLOT_FILE}`);
  }
  if (m.http.length) {
    out.push('', 'HTTP phase (seed 002\'s REST endpoint, one per codec):', '', textTable(HTTP_HEAD, httpTable(m.http)), '', ...httpLines(m.http).map((l) => `  ${l}`));
    for (const f of httpFindings(m.http, { alpha: m.alpha })) out.push(`  ${f}`);
  }
  for (const x of m.missing) out.push('', x);
  out.push(...againstBaseLines(m.comparisons, (c) => c.scenario));
  return `${out.join('\n')}\n`;
}

/** Markdown for the job summary: the same sections as tables. */
export function markdown(ctx) {
  const m = model(ctx);
  const out = ['### serialization: SBE vs Protobuf vs JSON (seed 002)'];
  if (m.description) out.push('', mdEscape(m.description, { max: 400 }));
  if (m.rows.length) {
    out.push('', `JMH benchmarks (${mdEscape(m.runLine)}). ${mdEscape(errorNote(m))}.`, '');
    out.push(mdTable(JMH_HEAD, jmhTable(m).map((r) => r.map((c) => mdEscape(c))), ['left', 'left', 'right', 'right', 'left', 'right']));
  }
  if (m.sizes.length) out.push('', `Encoded size per message: ${m.sizes.map((s) => `${mdEscape(s.label)} ${s.bytes} bytes`).join(', ')}`);
  if (m.findings.length) out.push('', '**Key findings**', '', ...m.findings.map((f) => `- ${mdEscape(f, { max: 400 })}`));
  if (m.summary.rows.length) {
    out.push('', mdTable(['Metric', ...m.summary.head.map((h) => mdEscape(h)), 'Winner'], m.summary.rows.map((r) => [r.name, ...r.cells, r.winner].map((c) => mdEscape(c)))));
    if (m.conclusion) out.push('', mdEscape(m.conclusion, { max: 600 }));
  }
  if (m.blocks.length) {
    const head = ['Percentile (ns)', ...m.blocks.map((b) => mdEscape(blockTitle(b)))];
    const line = (label, get) => [label, ...m.blocks.map((b) => { const v = get(b); return v === undefined ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: 2 }); })];
    out.push('', `Latency percentiles from JMH SampleTime (${mdEscape(m.sampleLine)}). ${mdEscape(SAMPLE_NOTE)}`, '', mdTable(head, [
      line('Count', (b) => b.count), line('Min', (b) => b.min), line('Mean', (b) => b.mean), line('Max', (b) => b.max),
      line('P50', (b) => b.p50), line('P90', (b) => b.p90), line('P99', (b) => b.p99), line('P99.9', (b) => b.p999),
    ]));
    if (m.percentileFindings.length) out.push('', '**Percentile findings**', '', ...m.percentileFindings.map((f) => `- ${mdEscape(f, { max: 400 })}`));
  }
  if (m.http.length) {
    out.push('', '**HTTP phase** (seed 002\'s REST endpoint, one per codec)', '', mdTable(HTTP_HEAD, httpTable(m.http).map((r) => r.map((c) => mdEscape(c)))), '');
    out.push(...httpLines(m.http).map((l) => `- ${mdEscape(l, { max: 400 })}`));
    out.push(...httpFindings(m.http, { alpha: m.alpha }).map((l) => `- ${mdEscape(l, { max: 600 })}`));
  }
  for (const x of m.missing) out.push('', `- ${mdEscape(x, { max: 400 })}`);
  if (m.comparisons.length) {
    out.push('', `Against base: ${headline(countVerdicts(m.comparisons))}`);
    for (const c of notable(m)) out.push(`- ${mdEscape(comparisonLine(c), { max: 400 })}`);
  }
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------- plot

const COLORS = { sbe: '#1b9e77', protobuf: '#d95f02', json: '#7570b3' };
const SPARE = ['#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666'];
const r1 = (v) => Math.round(v * 10) / 10;
/** HdrHistogram's percentile axis: 90% -> 1, 99% -> 2, 99.9% -> 3 ... (log of 1 / (1 - p)). */
export const percentileX = (p) => Math.log10(100 / (100 - p));
const pLabel = (k) => (k === 0 ? '0%' : `${(100 - 100 / 10 ** k).toFixed(Math.max(0, k - 2))}%`);

/**
 * Latency by percentile as a standalone SVG: one line per case (colour per codec, dashed for
 * deserialize), log-scaled time on y, HdrHistogram's percentile spacing on x. p100 is left out
 * (it sits at infinity on this axis); the max is in the text block.
 */
export function latencySvg(blocks, { width = 760, height = 440, title = 'Latency by percentile (JMH SampleTime)' } = {}) {
  const L = 78; const R = 190; const T = 44; const B = 54;
  const series = blocks.map((b, i) => ({
    name: blockTitle(b),
    color: COLORS[b.codec] || SPARE[i % SPARE.length],
    dashed: b.op === 'Deserialize',
    points: (b.percentiles || []).filter((x) => x.p < 100 && x.value > 0).map((x) => ({ x: percentileX(x.p), y: Math.log10(x.value) })),
  })).filter((s) => s.points.length);
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const xMax = Math.max(1, Math.ceil(Math.max(0, ...xs)));
  const yMin = ys.length ? Math.floor(Math.min(...ys)) : 0;
  const yMax = ys.length ? Math.max(yMin + 1, Math.ceil(Math.max(...ys))) : 1;
  const px = (x) => r1(L + (x / xMax) * (width - L - R));
  const py = (y) => r1(height - B - ((y - yMin) / (yMax - yMin)) * (height - T - B));
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${htmlEscape(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${L}" y="24" font-size="15" font-weight="bold">${htmlEscape(title)}</text>`,
  ];
  for (let k = 0; k <= xMax; k += 1) {
    out.push(`<line x1="${px(k)}" y1="${T}" x2="${px(k)}" y2="${height - B}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${px(k)}" y="${height - B + 18}" text-anchor="middle">${pLabel(k)}</text>`);
  }
  for (let d = yMin; d <= yMax; d += 1) {
    out.push(`<line x1="${L}" y1="${py(d)}" x2="${width - R}" y2="${py(d)}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${L - 8}" y="${py(d) + 4}" text-anchor="end">${htmlEscape(formatValue(10 ** d, 'ns'))}</text>`);
  }
  out.push(`<rect x="${L}" y="${T}" width="${width - L - R}" height="${height - T - B}" fill="none" stroke="#888888"/>`);
  out.push(`<text x="${r1(L + (width - L - R) / 2)}" y="${height - 14}" text-anchor="middle">percentile</text>`);
  out.push(`<text x="18" y="${r1(T + (height - T - B) / 2)}" text-anchor="middle" transform="rotate(-90 18 ${r1(T + (height - T - B) / 2)})">time per operation (log scale)</text>`);
  series.forEach((s, i) => {
    const pts = s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${pts}"><title>${htmlEscape(s.name)}</title></polyline>`);
    const ly = T + 12 + i * 20;
    out.push(`<line x1="${width - R + 14}" y1="${ly}" x2="${width - R + 44}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(`<text x="${width - R + 50}" y="${ly + 4}">${htmlEscape(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Files to write next to the report: [{ file, title, svg }]; empty without a SampleTime run. */
export function plots(ctx) {
  const m = model(ctx);
  if (!m.blocks.length) return [];
  const title = 'Serialization latency by percentile (JMH SampleTime)';
  return [{ file: PLOT_FILE, title, svg: latencySvg(m.blocks, { title }) }];
}

// ---------------------------------------------------------------- site

/**
 * The site's variant view: every codec is measured in one variant, so the codec in a case's name is the column
 * (SBE beside Protobuf beside JSON, the seed's order) and the rest (Serialize, Deserialize) is the row.
 */
export function sideBySide({ case: name }) {
  const p = parseCase(name);
  return p ? { column: codecLabel(p.codec), case: `${p.op}${p.rest}`, rank: codecRank(p.codec), caseRank: OPS.indexOf(p.op) } : undefined;
}

// Suite renderer for orders-api: seed 004's before/after-caching ApacheBench report, rebuilt from our own measurements.
import { formatValue } from '../../ci/units.js';
import { againstBaseLines, bottleneck, bottleneckLine, BOTTLENECK, comparisonList, countVerdicts, headline, jobReason, mdEscape, mdTable, relativeDiff, textTable } from '../../ci/reports/format.js';

// The seed's percentile table rows (ab's "Percentage of the requests served within a certain time").
export const PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 100];

// The reference's own result: caching raised ab's throughput by ~80% (15,241.97 -> 27,436.34 r/s).
const REFERENCE_GAIN = 27436.34 / 15241.97 - 1;
// A gain at least this large, and significant, counts as the reference's finding reproduced; smaller significant
// gains are reported as the same direction at a smaller size.
const LARGE_GAIN = 0.2;

const BEFORE = 'cache-off';
const AFTER = 'cache-on';

// ---------------------------------------------------------------- reading documents

const metricOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case);
const valueOf = (doc, name) => metricOf(doc, name)?.value;
const NS_PER_MS = 1e6;

/** The before/after variant names: cache-off/cache-on, else the suite's first two variants in config order. */
function variantPair(docs, suiteConfig = {}) {
  const present = [...new Set(docs.map((d) => d.variant))];
  if (present.includes(BEFORE) || present.includes(AFTER)) return [BEFORE, AFTER];
  const order = Object.keys(suiteConfig.variants || {});
  const names = order.length >= 2 ? order : present;
  return [names[0], names[1]];
}

/** The ab job without keep-alive is the seed's measurement; keep-alive is its own line. */
const isAb = (d, keepalive) => d.tool.name === 'ab' && Boolean(d.params?.keepalive) === keepalive;

/** One document per variant for a job chosen by `pick`, preferring the scenario name when several match. */
function byVariant(docs, pick, scenario) {
  const out = {};
  for (const d of docs.filter(pick)) if (!out[d.variant] || d.scenario === scenario) out[d.variant] = d;
  return out;
}

/** ab's percentile curve in ms: the merged distribution, else the latency.pNN metrics (100% = max). */
function percentilesMs(doc) {
  const dist = doc.distributions?.find((x) => x.name === 'latency' && !x.case);
  return PERCENTILES.map((p) => {
    const pt = dist?.percentiles.find((q) => q.p === p);
    const ns = pt ? pt.value : valueOf(doc, p === 100 ? 'latency.max' : `latency.p${p}`);
    return ns === undefined ? undefined : ns / NS_PER_MS;
  });
}

// ab's "Connection Times (ms)" rows and the metrics each column comes from (Total's mean and median are the table's own).
const CONNECTION_ROWS = [
  ['Connect', { min: 'connect.min', mean: 'connect.mean', sd: 'connect.stdev', median: 'connect.median', max: 'connect.max' }],
  ['Processing', { min: 'processing.min', mean: 'processing.mean', sd: 'processing.stdev', median: 'processing.median', max: 'processing.max' }],
  ['Waiting', { min: 'ttfb.min', mean: 'ttfb.mean', sd: 'ttfb.stdev', median: 'ttfb.median', max: 'ttfb.max' }],
  ['Total', { min: 'latency.min', mean: 'latency.total_mean', sd: 'latency.stdev', median: 'latency.total_median', max: 'latency.max' }],
];

/** The connection-times table in ms: { Connect: { min, mean, sd, median, max }, ... }; a column nobody measured is undefined. */
function connectionTimes(doc) {
  return Object.fromEntries(CONNECTION_ROWS.map(([row, cols]) => [row, Object.fromEntries(Object.entries(cols).map(([k, name]) => {
    const v = valueOf(doc, name);
    return [k, v === undefined ? undefined : v / NS_PER_MS];
  }))]));
}

/** The seed's figures from one ab result document, in the seed's units (r/s, s, ms). */
export function abFigures(doc) {
  const pcts = percentilesMs(doc);
  const median = pcts[0] ?? (valueOf(doc, 'latency.p50') ?? NaN) / NS_PER_MS;
  return {
    throughput: valueOf(doc, 'throughput'),
    timeTaken: valueOf(doc, 'duration') === undefined ? undefined : valueOf(doc, 'duration') / 1e9,
    meanMs: valueOf(doc, 'latency.mean') === undefined ? undefined : valueOf(doc, 'latency.mean') / NS_PER_MS,
    medianMs: median,
    percentiles: pcts,
    requests: valueOf(doc, 'requests'),
    failed: valueOf(doc, 'errors'),
    documentBytes: valueOf(doc, 'response_bytes'),
    totalBytes: valueOf(doc, 'bytes_received'),
    htmlBytes: valueOf(doc, 'body_bytes_received'),
    acrossMs: valueOf(doc, 'time_per_request') === undefined ? undefined : valueOf(doc, 'time_per_request') / NS_PER_MS,
    transferKBps: valueOf(doc, 'transfer_rate') === undefined ? undefined : valueOf(doc, 'transfer_rate') / 1024,
    connectionTimes: connectionTimes(doc),
    concurrency: doc.params?.concurrency,
    path: doc.params?.path,
    // ab -t: every run lasts this long by design, so its "time taken" says nothing about the API
    fixedSeconds: doc.params?.duration == null ? undefined : Number(String(doc.params.duration).replace(/s$/, '')),
    trials: doc.trials,
  };
}

// ---------------------------------------------------------------- numbers in the seed's style

const fixed = (v, d) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
/** "15,241.97 r/s" */
const fmtRate = (v) => `${fixed(v, 2)} r/s`;
/** "6.561s" */
const fmtSeconds = (v) => `${fixed(v, 3)}s`;
/** "55ms", "65.608ms": ab prints whole ms in its table and three decimals for means. */
const fmtMs = (v) => `${Number(v.toFixed(3)).toLocaleString('en-US', { maximumFractionDigits: 3 })}ms`;

/**
 * The size of a relative change, rounded as the seed rounds it: to the nearest 5% from 10% up
 * (79.99% -> "80%", 44.4% -> "45%"), to whole percents below, and "<1%" for smaller changes.
 */
export function roundPercent(fraction) {
  const p = Math.abs(fraction) * 100;
  if (p >= 10) return `${Math.round(p / 5) * 5}%`;
  if (p >= 0.5) return `${Math.round(p)}%`;
  return '<1%';
}

/** Change from a to b as { dir: 'up'|'down'|'same', size: '~45%' }. */
function change(a, b) {
  if (a === b) return { dir: 'same', size: '' };
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0) return { dir: b > a ? 'up' : 'down', size: '' };
  return { dir: b > a ? 'up' : 'down', size: `~${roundPercent((b - a) / a)}` };
}

/**
 * The seed's summary sentence from before/after figures ({ throughput, timeTaken, medianMs,
 * meanMs, fixedSeconds }). Verbs and nouns follow the data: if caching made things slower, it says so.
 */
export function summarySentence(before, after, { subject = 'caching' } = {}) {
  const t = change(before.throughput, after.throughput);
  const d = change(before.timeTaken, after.timeTaken);
  const md = change(before.medianMs, after.medianMs);
  const mn = change(before.meanMs, after.meanMs);
  const inc = (c) => (c.size ? ` (${c.size} ${c.dir === 'up' ? 'increase' : 'decrease'})` : '');

  const throughput = t.dir === 'same'
    ? `left throughput unchanged at ${fmtRate(after.throughput)}`
    : `${t.dir === 'up' ? 'increased' : 'decreased'} throughput from ${fmtRate(before.throughput)} to ${fmtRate(after.throughput)}${inc(t)}`;
  const total = d.dir === 'same'
    ? `left total test time unchanged at ${fmtSeconds(after.timeTaken)}`
    : `${d.dir === 'down' ? 'reduced' : 'increased'} total test time from ${fmtSeconds(before.timeTaken)} to ${fmtSeconds(after.timeTaken)}${inc(d)}`;
  // "and" when both sentences' halves move the same way, "but" when they disagree. A time-limited ab (-t) ran for the
  // same time on both sides, so the seed's "total test time" half would only restate the parameter.
  const fixed = before.fixedSeconds ?? after.fixedSeconds;
  const first = fixed !== undefined
    ? `Using ${subject} ${throughput}, in ab runs of a fixed ${fixed} s.`
    : `Using ${subject} ${throughput} ${(t.dir === 'up') === (d.dir === 'down') || t.dir === 'same' || d.dir === 'same' ? 'and' : 'but'} ${total}.`;

  const moved = (c, what, a, b) => (c.dir === 'same'
    ? `${what} stayed at ${fmtMs(b)}`
    : `${what} ${c.dir === 'down' ? 'fell' : 'rose'} from ${fmtMs(a)} to ${fmtMs(b)}${inc(c)}`);
  const joiner = md.dir === mn.dir || md.dir === 'same' || mn.dir === 'same' ? 'and' : 'but';
  const second = `${moved(md, 'Median latency', before.medianMs, after.medianMs)} ${joiner} ${moved(mn, 'mean time per request', before.meanMs, after.meanMs)}.`;
  return `${first} ${second}`;
}

/**
 * Whether the reference's finding (caching raises ab's throughput by a large margin) holds in these documents, in
 * one plain sentence: the size of the change, its significance (two-sided Mann-Whitney over the per-trial
 * throughputs) and the verdict. A saturated ab measured itself, so then the finding is reported as not tested.
 * Returns { reproduced: true|false|undefined, text }.
 */
export function findingSentence(beforeDoc, afterDoc, { alpha = 0.05 } = {}) {
  const busy = [beforeDoc, afterDoc].map(bottleneck);
  if (busy.some(Boolean)) {
    const who = busy.map((b, i) => b && `${(i ? afterDoc : beforeDoc).variant}: ${b}`).filter(Boolean).join('; ');
    return { reproduced: undefined, text: `Not tested: ${BOTTLENECK} (${who}), so these figures are ab's ceiling, not the API's; this run can neither confirm nor refute the reference's finding.` };
  }
  const ref = metricOf(beforeDoc, 'throughput');
  const m = metricOf(afterDoc, 'throughput');
  if (!ref || !m) return { reproduced: undefined, text: 'Not tested: one side has no throughput figure.' };
  const d = relativeDiff(ref, m, { alpha });
  const gain = m.value / ref.value - 1;
  const size = `${gain >= 0 ? '+' : '-'}${Math.abs(gain * 100).toFixed(1)}%`;
  const trials = `${ref.samples.length} and ${m.samples.length} trials`;
  const refSize = `+${Math.round(REFERENCE_GAIN * 100)}%`;
  if (d.untestable || ref.samples.length < 3 || m.samples.length < 3) {
    return { reproduced: undefined, text: `Not tested: ${trials} cannot show a significant difference (run at least 4 a side); the change was ${size} (the reference's: ${refSize}).` };
  }
  const p = `Mann-Whitney p ${d.significant ? '<' : '≥'} ${alpha} over ${trials}`;
  if (!d.significant) return { reproduced: false, text: `The reference's finding does not reproduce: the throughput change with the cache (${size}) is not significant (${p}); the reference measured ${refSize}.` };
  if (gain < 0) return { reproduced: false, text: `The reference's finding does not reproduce: caching significantly lowered throughput (${size}, ${p}); the reference measured ${refSize}.` };
  if (gain < LARGE_GAIN) return { reproduced: false, text: `The reference's finding reproduces only in direction: caching raised throughput significantly but by ${size} (${p}), far less than the reference's ${refSize}.` };
  return { reproduced: true, text: `The reference's finding reproduces: caching raised throughput by ${size}, a significant change (${p}); the reference measured ${refSize}.` };
}

// ---------------------------------------------------------------- the other tools, one line each

const ms = (ns) => (ns === undefined ? '–' : fmtMs(ns / NS_PER_MS));
const rate = (v) => (v === undefined ? '–' : fmtRate(v));
const rel = (a, b) => {
  const c = change(a, b);
  return c.dir === 'up' || c.dir === 'down' ? ` (${c.size} ${c.dir === 'up' ? 'higher' : 'lower'})` : '';
};

function abKeepAliveLine(b, a) {
  const p = (a || b).params || {};
  return `ab with keep-alive (-k, ${abLength(p)}, concurrency ${p.concurrency ?? '?'}): `
    + `${rate(valueOf(b, 'throughput'))} -> ${rate(valueOf(a, 'throughput'))}${rel(valueOf(b, 'throughput'), valueOf(a, 'throughput'))}; `
    + `mean ${ms(valueOf(b, 'latency.mean'))} -> ${ms(valueOf(a, 'latency.mean'))}`;
}

function wrkLine(b, a) {
  const p = (a || b).params || {};
  const errors = [valueOf(b, 'errors'), valueOf(a, 'errors')];
  return `wrk peak throughput (${p.threads ?? '?'} threads, ${p.connections ?? '?'} connections, ${p.duration ?? '?'}): `
    + `${rate(valueOf(b, 'throughput'))} -> ${rate(valueOf(a, 'throughput'))}${rel(valueOf(b, 'throughput'), valueOf(a, 'throughput'))}; `
    + `p50 ${ms(valueOf(b, 'latency.p50'))} -> ${ms(valueOf(a, 'latency.p50'))}, p99 ${ms(valueOf(b, 'latency.p99'))} -> ${ms(valueOf(a, 'latency.p99'))}`
    + (errors.some((e) => e) ? `; errors ${errors.map((e) => e ?? '–').join(' -> ')}` : '');
}

function k6Line(b, a) {
  const p = (a || b).params || {};
  const failed = (d) => (valueOf(d, 'error_rate') === undefined ? '–' : `${(valueOf(d, 'error_rate') * 100).toFixed(2)}%`);
  return `k6 at a fixed ${p.rate ?? '?'} req/s for ${p.duration ?? '?'}: `
    + `p50 ${ms(valueOf(b, 'latency.p50'))} -> ${ms(valueOf(a, 'latency.p50'))}${rel(valueOf(b, 'latency.p50'), valueOf(a, 'latency.p50'))}, `
    + `p95 ${ms(valueOf(b, 'latency.p95'))} -> ${ms(valueOf(a, 'latency.p95'))}, p99 ${ms(valueOf(b, 'latency.p99'))} -> ${ms(valueOf(a, 'latency.p99'))}; `
    + `achieved ${rate(valueOf(b, 'throughput'))} -> ${rate(valueOf(a, 'throughput'))}; failed ${failed(b)} -> ${failed(a)}`;
}

// ---------------------------------------------------------------- the model both renderers share

/** Why a job of this suite has no document, from run.json (failed or skipped jobs). */
function missingReason(run, suite, variant, scenario, tool = 'ab') {
  const j = (run?.jobs || []).find((x) => x.suite === suite && x.variant === variant && x.tool === tool && x.scenario === scenario);
  if (!j) return 'no result';
  return j.status === 'ok' ? 'no result document' : `${j.status}: ${jobReason(j)}`;
}

/** Everything the text and markdown reports show, computed once. */
export function model({ suite = 'orders-api', docs = [], comparisons, run, config } = {}) {
  const own = docs.filter((d) => d.suite === suite);
  const suiteConfig = config?.suites?.[suite] || {};
  const [before, after] = variantPair(own, suiteConfig);
  const ab = byVariant(own, (d) => isAb(d, false), 'no-keepalive');
  const abK = byVariant(own, (d) => isAb(d, true), 'keepalive');
  const wrk = byVariant(own, (d) => d.tool.name === 'wrk', 'peak');
  const k6 = byVariant(own, (d) => d.tool.name === 'k6', 'fixed-rate');
  const figures = { before: ab[before] && abFigures(ab[before]), after: ab[after] && abFigures(ab[after]) };
  const sentence = figures.before && figures.after ? summarySentence(figures.before, figures.after) : undefined;
  const finding = ab[before] && ab[after] ? findingSentence(ab[before], ab[after], { alpha: config?.compare?.alpha ?? 0.05 }) : undefined;
  const missing = [];
  for (const v of [before, after]) if (!ab[v]) missing.push(`${v}: ab without keep-alive: ${missingReason(run, suite, v, 'no-keepalive')}`);
  const lines = [];
  // A tool that ran out of cores measured itself: its line says so instead of comparing the variants.
  // A tool with one side missing says why, when the run has that side's job (not selected: nothing to say).
  const other = (docsOf, name, line, tool, scenario) => {
    if (!docsOf[before] && !docsOf[after]) return;
    if (!docsOf[before] || !docsOf[after]) {
      const gone = [before, after].filter((v) => !docsOf[v] && (run?.jobs || []).some((j) => j.suite === suite && j.variant === v && j.tool === tool && j.scenario === scenario));
      if (gone.length) lines.push(`${name}: not compared (${gone.map((v) => `${v}: ${missingReason(run, suite, v, scenario, tool)}`).join('; ')})`);
      return;
    }
    lines.push(bottleneckLine([docsOf[before], docsOf[after]]) ? `${name}: ${bottleneckLine([docsOf[before], docsOf[after]])}` : line(docsOf[before], docsOf[after]));
  };
  other(abK, 'ab with keep-alive', abKeepAliveLine, 'ab', 'keepalive');
  other(wrk, 'wrk peak throughput', wrkLine, 'wrk', 'peak');
  other(k6, 'k6 at a fixed rate', k6Line, 'k6', 'fixed-rate');
  const mine = comparisonList(comparisons).filter((c) => c.suite === suite);
  return { suite, description: suiteConfig.description, before, after, ab, figures, sentence, finding, missing, lines, comparisons: mine };
}

const label = (v, which) => (v === BEFORE || v === AFTER ? `${which} caching (${v})` : `${v}`);

/**
 * A count of requests or bytes as ab prints it, whole: the median of an even number of trials is the midpoint of two
 * counts, and "7,096.5 requests" claims a half request no trial made.
 */
const count = (v) => Math.round(v).toLocaleString('en-US');

/** Rows of the side-by-side table: the seed's ab lines in its words and units; rows nobody measured are left out. */
function tableRows(m) {
  const { before: b, after: a } = m.figures;
  const row = (title, key, fn) => {
    const cell = (f) => (f?.[key] === undefined || Number.isNaN(f[key]) ? '–' : fn(f[key]));
    return [title, cell(b), cell(a)];
  };
  return [
    row('Concurrency Level', 'concurrency', String),
    row('Complete requests', 'requests', count),
    row('Failed requests', 'failed', count),
    row('Document Path', 'path', String),
    row('Document Length', 'documentBytes', (v) => `${v} bytes`),
    row('Time taken for tests', 'timeTaken', (v) => `${fixed(v, 3)} seconds`),
    row('Total transferred', 'totalBytes', (v) => `${count(v)} bytes`),
    row('HTML transferred', 'htmlBytes', (v) => `${count(v)} bytes`),
    row('Requests per second', 'throughput', (v) => `${fixed(v, 2)} [#/sec] (mean)`),
    row('Time per request', 'meanMs', (v) => `${fixed(v, 3)} [ms] (mean)`),
    row('Time per request', 'acrossMs', (v) => `${fixed(v, 3)} [ms] (mean, across all concurrent requests)`),
    row('Transfer rate', 'transferKBps', (v) => `${fixed(v, 2)} [Kbytes/sec] received`),
  ].filter((r) => r[1] !== '–' || r[2] !== '–');
}

/** ab's "Connection Times (ms)" table of one side: min, mean, [+/-sd], median, max per row. */
function connectionRows(f) {
  const n = (v) => (v === undefined ? '–' : `${Number(v.toFixed(3))}`);
  return CONNECTION_ROWS.map(([row]) => {
    const c = f?.connectionTimes?.[row] || {};
    return [`${row}:`, n(c.min), n(c.mean), n(c.sd), n(c.median), n(c.max)];
  });
}
export const CONNECTION_HEAD = ['', 'min', 'mean', '[+/-sd]', 'median', 'max'];

/** The seed's percentile table: whole ms as ab prints them, fractions where trials were merged. */
function percentileRows(m) {
  return PERCENTILES.map((p, i) => {
    const cell = (f) => {
      const v = f?.percentiles[i];
      if (v === undefined) return '–';
      return p === 100 ? `${Number(v.toFixed(3))} (longest request)` : `${Number(v.toFixed(3))}`;
    };
    return [`${p}%`, cell(m.figures.before), cell(m.figures.after)];
  });
}

/** How long one ab run lasted: "2 s" for a time-limited run (-t), else "5,000 requests" (-n). */
function abLength(p = {}) {
  if (p.duration != null) return `${String(p.duration).replace(/s$/, '')} s`;
  return p.requests == null ? '? requests' : `${Number(p.requests).toLocaleString('en-US')} requests`;
}

function trialsNote(m) {
  const t = [m.ab[m.before]?.trials, m.ab[m.after]?.trials].filter(Boolean);
  if (!t.length) return '';
  const n = Math.min(...t);
  return n > 1 ? `median of ${n} trials per figure` : 'one trial per figure';
}

/** The seed names its machine; so does this report: "Measured on 2 × AMD EPYC, 23.54 GiB of memory (runner vm; ab on CPU 1, the API on CPU 0)." */
export function machineLine(doc) {
  const r = doc?.runner;
  if (!r) return undefined;
  const pin = r.pinning?.tool !== undefined && r.pinning?.subject !== undefined ? `; ab on CPU ${r.pinning.tool}, the API on CPU ${r.pinning.subject}` : '';
  const mem = r.memoryBytes > 0 ? `, ${formatValue(r.memoryBytes, 'bytes')} of memory` : '';
  return `Measured on ${r.cpus} × ${r.cpuModel}${mem} (runner ${r.name}${pin}).`;
}

// ---------------------------------------------------------------- renderers

/** Console text: the seed's report, our numbers. */
export function render(ctx) {
  const m = model(ctx);
  const out = [`orders-api: GET /api/order/all-items before and after an in-memory cache (seed 004)`];
  if (m.description) out.push(m.description);
  const doc = m.ab[m.after] || m.ab[m.before];
  if (doc) {
    out.push('', ...[machineLine(doc)].filter(Boolean), `ApacheBench ${doc.tool.version}, a new connection per request (${abLength(doc.params)}, concurrency ${doc.params?.concurrency ?? '?'}), ${trialsNote(m)}:`);
    out.push('', textTable(['', label(m.before, 'Before'), label(m.after, 'After')], tableRows(m)));
    for (const [side, which] of [[m.before, 'before'], [m.after, 'after']]) {
      if (m.figures[which]) out.push('', `  Connection Times (ms), ${side}`, textTable(CONNECTION_HEAD, connectionRows(m.figures[which])));
    }
    out.push('', '  Percentage of the requests served within a certain time (ms)');
    out.push(textTable(['', m.before, m.after], percentileRows(m)));
  }
  for (const x of m.missing) out.push(`  ${x}`);
  if (m.sentence) out.push('', 'Summary', m.sentence);
  if (m.finding) out.push(m.finding.text);
  if (m.lines.length) out.push('', 'Other tools', ...m.lines.map((l) => `  ${l}`));
  out.push(...againstBaseLines(m.comparisons));
  return `${out.join('\n')}\n`;
}

/** Markdown for the job summary: the same tables and sentence. */
export function markdown(ctx) {
  const m = model(ctx);
  const out = ['### orders-api: GET /api/order/all-items before and after caching'];
  if (m.description) out.push('', mdEscape(m.description, { max: 400 }));
  const doc = m.ab[m.after] || m.ab[m.before];
  if (doc) {
    out.push('', `ApacheBench ${mdEscape(doc.tool.version)}, a new connection per request, ${trialsNote(m)}.${machineLine(doc) ? ` ${mdEscape(machineLine(doc))}` : ''}`, '');
    out.push(mdTable(['', mdEscape(label(m.before, 'Before')), mdEscape(label(m.after, 'After'))], tableRows(m).map((r) => r.map((c) => mdEscape(c)))));
    for (const [side, which] of [[m.before, 'before'], [m.after, 'after']]) {
      if (m.figures[which]) out.push('', `Connection Times (ms), ${mdEscape(side)}`, '', mdTable(CONNECTION_HEAD, connectionRows(m.figures[which])));
    }
    out.push('', mdTable(['Served within (ms)', mdEscape(m.before), mdEscape(m.after)], percentileRows(m).map((r) => r.map((c) => mdEscape(c)))));
  }
  for (const x of m.missing) out.push('', `- ${mdEscape(x, { max: 400 })}`);
  // The summary holds only our words and numbers; the finding names variants, so it is escaped.
  if (m.sentence) out.push('', `**Summary.** ${m.sentence}${m.finding ? ` ${mdEscape(m.finding.text, { max: 600 })}` : ''}`);
  if (m.lines.length) out.push('', ...m.lines.map((l) => `- ${mdEscape(l, { max: 400 })}`));
  if (m.comparisons.length) out.push('', `Against base: ${headline(countVerdicts(m.comparisons))}`);
  return `${out.join('\n')}\n`;
}

// Shared helpers for every renderer (generic and per suite): ordering, labels, percents, text and markdown tables.
import { formatValue } from '../units.js';
import { metricKey } from '../metrics.js';
import { benjaminiHochberg, mannWhitney } from '../stats.js';
import { COMPARE_DEFAULTS, VERDICTS, MIN_TRIALS, decideFamily, disturbedRounds, metricStats, otherWorkGap, MAX_OTHER_GAP, moreRoundsHint } from '../compare.js';
import { bottleneck } from '../cpuset.js';

/** What a duet job's base and head figures are (see runner.js duetRounds). */
export const DUET_NOTE = 'base and head ran at the same time on shared cores: each figure is what that side did beside the other, not a run alone (a saturated subject gets about half); the change between them is the measurement';

/** A line for a suite's tables when some of its documents were measured as duets (an A/B run), else ''. */
export function duetSuiteNote(docs) {
  const jobs = [...new Set(docs.filter((d) => d.duet).map((d) => `${d.tool?.name ?? d.tool}/${d.scenario}`))];
  if (!jobs.length) return '';
  return `  Measured as duets in this A/B run: ${jobs.join(', ')}. Their figures are what each side did beside the other, not a run alone (a saturated subject gets about half); run without --base for figures to set beside a reference.`;
}

export { formatValue, VERDICTS };

// ---------------------------------------------------------------- numbers and words

/** Signed percent of a fraction: 0.0999 -> "+10.0%". */
export function pct(x, digits = 1) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const size = Math.abs(x * 100).toFixed(digits);
  // A change that rounds to zero reads +0.0%, never -0.0%.
  return `${x >= 0 || Number(size) === 0 ? '+' : '-'}${size}%`;
}

/** Unsigned percent of a fraction: 0.598 -> "59.8%". */
const pctAbs = (x, digits = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${Math.abs(x * 100).toFixed(digits)}%`);
/** A minimum effect as a margin: 0.02 -> "±2%", 0.025 -> "±2.5%"; '–' when there is none. */
export const formatMargin = (m) => (Number.isFinite(m) ? `±${Number((m * 100).toPrecision(3))}%` : '–');

export const plural = (n, one, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The change of a comparison (a dash when the base was zero). A paired change adjusted for other work on the machine (compare.js adjustForOtherWork: each round's difference less
 * the part that follows the gap in other processes' CPU between its two trials) carries this mark, and the report
 * says what it means: it may differ from the ratio of the medians shown beside it, even in sign.
 */
const ADJUSTED_MARK = '†';
export const ADJUSTED_NOTE = `${ADJUSTED_MARK} adjusted for other work on the machine: each round's difference less the part that follows how much more CPU other processes used during one of its two trials than during the other, so it can differ from the medians beside it, even in sign (docs/reports.md, otherSlope)`;
/**
 * A paired change that goes the other way from the medians beside it (0.2% or more, so the sign shows): the change is
 * the typical round's ratio (Hodges-Lehmann), which can disagree with the ratio of two medians over different rounds,
 * and "43.5 ms → 47.0 ms: -1.9%" without a word reads as a mistake. Changes adjusted for other work carry their own mark.
 */
const PAIRED_MARK = '‡';
export const PAIRED_NOTE = `${PAIRED_MARK} the change of the typical round (the Hodges-Lehmann estimate of the rounds' head/base ratios), which here goes the other way from the medians beside it: each side's median comes from its own trials, while the change compares the two trials of each round (docs/reports.md)`;
export const opposesMedians = (c) => c.method === 'paired' && !c.otherSlope && Number.isFinite(c.change) && Math.abs(c.change) >= 0.002
  && Number.isFinite(c.base?.value) && Number.isFinite(c.head?.value) && c.head.value !== c.base.value && Math.sign(c.change) !== Math.sign(c.head.value - c.base.value);
/** The change as a percentage with its mark; `medians: false` where no medians stand beside it (nothing for ‡ to oppose). */
export const formatChange = (c, { medians = true } = {}) => `${pct(c.change)}${c.otherSlope ? ADJUSTED_MARK : medians && opposesMedians(c) ? PAIRED_MARK : ''}`;

/** The interval of a comparison's change: "[-10.3%, -9.7%]", or a dash without one (or when too few rounds bound it). */
export const formatInterval = (c) => (Number.isFinite(c.lower) && Number.isFinite(c.upper) ? `[${pct(c.lower)}, ${pct(c.upper)}]` : '–');

/**
 * A document metric's value as a table cell shows it: a zero in the unit of the tool's resolution (ab's whole
 * milliseconds read "0 ms", not "0 ns", which would claim a precision ab does not have).
 */
export const cellValue = (m) => formatValue(m.value, m.unit, m.value || m.resolution || 0);

/**
 * A table head whose "95% CI" cell names the confidence the intervals below it were made at (compare.confidence, kept on
 * each metric as `confidence`): with 0.9 the cell reads "90% CI". `withIntervals` are metrics or rows carrying it.
 */
export function headAtConfidence(head, withIntervals = []) {
  const c = withIntervals.find((x) => Number.isFinite(x?.confidence))?.confidence;
  if (c === undefined) return head;
  return head.map((h) => h.replace(/^95% CI/, `${Number((c * 100).toPrecision(3))}% CI`));
}

/** The wider side of a metric's interval relative to its value ("±1.2%"; an interval of 5 trials may reach far up and little down), or '' when the metric has none. */
export function formatSpread(m) {
  if (m.lower === undefined || m.upper === undefined || !m.value) return '';
  const half = Math.max(m.value - m.lower, m.upper - m.value) / Math.abs(m.value);
  return half > 0 ? `±${(half * 100).toFixed(1)}%` : '';
}

// ---------------------------------------------------------------- names and order

/** suite/variant/tool/scenario[/case]: how people and exports name one benchmark. */
export const benchmarkName = (x) => [x.suite, x.variant, x.tool?.name ?? x.tool, x.scenario, ...(x.case ? [x.case] : [])].join('/');

const LABELS = { mean: 'avg', avg: 'avg', median: 'median' };
const FAMILY_LABELS = { ttfb: 'TTFB' };

/** Human label of a metric name: "latency.p99" -> "Latency p99", "error_rate" -> "Error rate". */
export function metricLabel(name) {
  const [family, ...rest] = name.split('.');
  const head = family.replace(/_/g, ' ');
  const cap = FAMILY_LABELS[family] || head.charAt(0).toUpperCase() + head.slice(1);
  if (!rest.length) return cap;
  const tail = rest.join('.');
  return `${cap} ${LABELS[tail] || tail.replace(/_/g, ' ')}`;
}

// Rows read like the seeds' tables: throughput first, then latency from typical to extreme, then errors.
const ORDER = [
  'throughput', 'requests', 'iterations', 'items', 'pages',
  'latency.mean', 'latency.avg', 'latency.median', 'latency.p50', 'latency.p66', 'latency.p75', 'latency.p80',
  'latency.p90', 'latency.p95', 'latency.p98', 'latency.p99', 'latency.p99.9', 'latency.p99.99', 'latency.p100',
  'latency.min', 'latency.max', 'latency.stdev',
  'duration', 'time.mean', 'time.avg', 'time.median', 'time.p50', 'time.min', 'time.max', 'time.stdev',
  'traversal.total',
  'response_bytes', 'message_bytes', 'bytes_received', 'bytes_sent', 'transfer_rate',
  'alloc_per_op', 'alloc_rate', 'gc_count', 'gc_time',
  'errors', 'error_rate', 'checks_pass_rate',
];

// Metrics kept in the documents but left out of variant tables: breakdowns and by-products that
// would bury the seeds' rows (throughput, latency avg/p50/p95/p99/min/max, errors).
const DETAIL = [/^(connect|processing|ttfb)\./, /\.stdev$/, /^latency\.(p(66|75|80|98)|total_mean|total_median)$/, /^(requests|iterations|bytes_received|body_bytes_received|bytes_sent|error_rate|time_per_request)$/];

/** True for metrics that variant tables leave out unless asked for every metric. */
const isDetail = (name) => DETAIL.some((re) => re.test(name));

/** Sort rank of a metric name; unknown names keep their first-seen order after the known ones. */
export const metricRank = (name) => {
  const i = ORDER.indexOf(name);
  return i >= 0 ? i : ORDER.length;
};

const VERDICT_RANK = Object.fromEntries(VERDICTS.map((v, i) => [v, i]));

/**
 * Comparisons with regressions first, then improvements, inconclusive, no change; inside a group
 * headline metrics before detail ones (so size limits cut breakdowns first), biggest changes first.
 */
export function sortComparisons(comparisons) {
  return comparisons.map((c, i) => [c, i]).sort(([a, ia], [b, ib]) => {
    const byVerdict = (VERDICT_RANK[a.verdict] ?? 9) - (VERDICT_RANK[b.verdict] ?? 9);
    if (byVerdict) return byVerdict;
    const byDetail = Number(isDetail(a.metric)) - Number(isDetail(b.metric));
    if (byDetail) return byDetail;
    if (a.verdict === 'regression' || a.verdict === 'improvement') {
      const d = Math.abs(b.change ?? Infinity) - Math.abs(a.change ?? Infinity);
      if (d) return d;
    }
    return ia - ib;
  }).map(([c]) => c);
}

/** Comparisons grouped by verdict, each group in sortComparisons order. */
export function groupByVerdict(comparisons) {
  const groups = Object.fromEntries(VERDICTS.map((v) => [v, []]));
  for (const c of sortComparisons(comparisons)) groups[c.verdict]?.push(c);
  return groups;
}

/**
 * Headline of a comparison: "⚠️ 2 regressions, 1 improvement, 40 unchanged", "✅ no regressions, 40 unchanged" when
 * every judged metric was decided and no job failed, or "❔ no regression shown, 39 unchanged, 1 inconclusive": an
 * inconclusive metric may still be a regression the rounds could not settle, and so may the judged metrics of a job
 * that failed or was skipped (`failed`, counted at the end), so no ✅ claims there is none.
 */
export function headline(counts, { emoji = true, failed = 0 } = {}) {
  const parts = [];
  if (counts.regression) parts.push(plural(counts.regression, 'regression'));
  if (counts.improvement) parts.push(plural(counts.improvement, 'improvement'));
  if (counts['no change']) parts.push(`${counts['no change'].toLocaleString('en-US')} unchanged`);
  if (counts.inconclusive) parts.push(`${counts.inconclusive.toLocaleString('en-US')} inconclusive`);
  if (failed) parts.push(plural(failed, 'failed job'));
  const undecided = counts.inconclusive || failed;
  if (!counts.regression) parts.unshift(undecided ? 'no regression shown' : 'no regressions');
  const text = parts.join(', ');
  if (!emoji) return text;
  return `${counts.regression ? '⚠️' : undecided ? '❔' : '✅'} ${text}`;
}

/**
 * Inconclusive metrics whose estimate is a change for the worse of at least their minimum effect: not decided (the
 * rounds could not rule out chance), but what a reviewer should look at before calling the pull request clean.
 */
export const worseUndecided = (list) => list.filter((c) => c.verdict === 'inconclusive' && Number.isFinite(c.change)
  && Number.isFinite(c.minEffect) && Math.abs(c.change) >= c.minEffect && c.change !== 0 && (c.change > 0) === (c.better === 'lower'));

/**
 * A suite report's closing block against the base, as plain text lines: the headline, then one line
 * per regression or improvement ("regression: cache-on ab/latency throughput −12.0% [...]").
 * Empty when nothing was compared. `label` names a comparison's row (default: variant tool/scenario).
 */
export function againstBaseLines(comparisons, label = (c) => `${c.variant} ${c.tool}/${c.scenario}`) {
  if (!comparisons?.length) return [];
  const notable = comparisons.filter((c) => c.verdict === 'regression' || c.verdict === 'improvement');
  return ['', `Against base: ${headline(countVerdicts(comparisons), { emoji: false })}`,
    ...notable.map((c) => `  ${c.verdict}: ${label(c)} ${c.case ? `${c.case} ` : ''}${c.metric} ${pct(c.change)} ${formatInterval(c)}`)];
}

// ---------------------------------------------------------------- grouping documents for tables

/**
 * Documents grouped for variant tables: suites in config order, then their tool/scenario blocks
 * in job order, each with its variants in config order (the first is the reference) and one row
 * per metric (and case) holding the metric of every variant. Detail metrics (isDetail) are left
 * out unless `detail` is set; each block counts them in `hidden`. `interleaved` is true when the suite runs its
 * variants in rounds (`interleave: variants`), so their comparisons may pair trials.
 */
export function suiteBlocks(docs, config = {}, { detail = false } = {}) {
  const suites = new Map();
  const suiteOrder = Object.keys(config.suites || {});
  for (const d of docs) {
    if (!suites.has(d.suite)) suites.set(d.suite, []);
    suites.get(d.suite).push(d);
  }
  const rank = (list, x) => {
    const i = list.indexOf(x);
    return i >= 0 ? i : list.length;
  };
  const names = [...suites.keys()].map((s, i) => [s, i]).sort((a, b) => rank(suiteOrder, a[0]) - rank(suiteOrder, b[0]) || a[1] - b[1]).map(([s]) => s);
  return names.map((suite) => {
    const sc = config.suites?.[suite] || {};
    const suiteDocs = suites.get(suite);
    const variantOrder = Object.keys(sc.variants || {});
    const variants = [...new Set(suiteDocs.map((d) => d.variant))].map((v, i) => [v, i]).sort((a, b) => rank(variantOrder, a[0]) - rank(variantOrder, b[0]) || a[1] - b[1]).map(([v]) => v);
    const jobOrder = (sc.jobs || []).map((j) => `${j.tool}/${j.scenario}`);
    const blockMap = new Map();
    for (const d of suiteDocs) {
      const key = `${d.tool.name}/${d.scenario}`;
      if (!blockMap.has(key)) blockMap.set(key, { tool: d.tool.name, toolVersion: d.tool.version, scenario: d.scenario, byVariant: {} });
      blockMap.get(key).byVariant[d.variant] = d;
    }
    const blocks = [...blockMap.entries()].map(([k, b], i) => [k, b, i]).sort((a, b) => rank(jobOrder, a[0]) - rank(jobOrder, b[0]) || a[2] - b[2]).map(([, b]) => b);
    for (const b of blocks) {
      b.variants = variants.filter((v) => b.byVariant[v]);
      const rows = new Map();
      b.hidden = 0;
      for (const v of b.variants) {
        for (const m of b.byVariant[v].metrics) {
          const key = metricKey(m);
          if (!rows.has(key)) rows.set(key, { key, name: m.name, case: m.case, unit: m.unit, better: m.better, cells: {} });
          rows.get(key).cells[v] = m;
        }
      }
      for (const [key, r] of rows) {
        if (!detail && isDetail(r.name)) {
          rows.delete(key);
          b.hidden += 1;
        }
      }
      const cases = [...new Set([...rows.values()].map((r) => r.case ?? ''))];
      b.rows = [...rows.values()].map((r, i) => [r, i]).sort(([x, ix], [y, iy]) => cases.indexOf(x.case ?? '') - cases.indexOf(y.case ?? '') || metricRank(x.name) - metricRank(y.name) || ix - iy).map(([r]) => r);
      const first = b.byVariant[b.variants[0]];
      b.params = first.params;
      b.trials = first.trials;
    }
    return { suite, description: sc.description, interleaved: sc.interleave === 'variants', variants, blocks };
  });
}

/** A block's trial count for its heading: "8 trials", or "16-32 trials" when its variants ran different counts. */
export const trialsText = (b) => {
  // under --base each variant's lane stops at its own look, so a block's variants can have different counts
  const counts = b.variants.map((v) => b.byVariant[v].trials);
  const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
  return lo === hi ? plural(lo, 'trial') : `${lo}-${hi} trials`;
};

/** A row's label: "Latency p99", or "case · Latency p99" for sub-benchmarks. */
export const rowLabel = (row) => (row.case ? `${row.case} · ${metricLabel(row.name)}` : metricLabel(row.name));

/** Parameters as "key=value key=value" for block headings. */
export const formatParams = (params = {}) => Object.entries(params).map(([k, v]) => `${k}=${v}`).join(' ');

// ---------------------------------------------------------------- variant against variant

// Which metrics summarize a pair of variants (the first present of each list), and the words for each direction.
// Latency and time items are labelled with the metric they use ("Latency p50"), since a suite may lack p50.
// `duration` is not among them: it restates the run's length or count (see RESTATED in ci/compare.js).
const HEADLINES = [
  { label: null, names: ['latency.p50', 'latency.median', 'latency.mean', 'latency.avg'] },
  { label: null, names: ['time.p50', 'time.median', 'time.mean', 'time.avg', 'traversal.total'] },
  { label: 'Throughput', names: ['throughput'] },
  { label: 'Size', names: ['response_bytes', 'message_bytes'] },
  { label: 'Allocation', names: ['alloc_per_op'] },
];

/** Words for "better" and "worse" on a metric: faster/slower for times, smaller/larger for sizes. */
function directionWords(unit, better) {
  if (unit === 'ns') return ['faster', 'slower'];
  if (unit === 'bytes') return ['smaller', 'larger'];
  return better === 'higher' ? ['higher', 'lower'] : ['lower', 'higher'];
}

/** The smallest two-sided p the exact Mann-Whitney test can give for n and k samples without ties: 2 / C(n+k, n). */
export function smallestP(n, k) {
  let c = 1;
  for (let i = 1; i <= Math.min(n, k); i += 1) c = (c * (n + k - Math.min(n, k) + i)) / i;
  return Math.min(1, 2 / c);
}

/**
 * Two-sided Mann-Whitney over two sets of per-trial values, as the suite reports test their findings: { p } or, with
 * fewer than MIN_TRIALS a side or too few for any p below alpha (3 + 3 trials: 0.1), { untestable: true, n } (n the
 * smaller set).
 */
export function trialsTest(a = [], b = [], alpha = 0.05) {
  if (a.length < MIN_TRIALS || b.length < MIN_TRIALS || smallestP(a.length, b.length) >= alpha) return { p: undefined, untestable: true, n: Math.min(a.length, b.length) };
  return { p: mannWhitney(a, b).p, untestable: false };
}

/** The smallest two-sided p the exact signed-rank test can give for n paired rounds: 2 / 2^n (5 rounds: 0.0625). */
export const smallestPairedP = (n) => Math.min(1, 2 / 2 ** n);

/**
 * Whether two variant documents ran in rounds: their suite interleaves variants (`interleave: variants`, trial t
 * of every variant in round t), and both come from one run with as many trials. Without interleaving, trial i of
 * one variant ran at another time than trial i of the other, and pairing them by index would not cancel drift.
 */
export const variantsPaired = (ref, doc, interleaved) => Boolean(interleaved && ref.run?.id && ref.run.id === doc.run?.id && ref.trials === doc.trials && ref.trials >= 2);

/**
 * How `m` compares with the reference `ref`, in the seeds' wording: the fraction is relative to
 * the reference (55 ms -> 22 ms is "60.0% faster"; 15,242 -> 27,436 /s is "80.0% higher").
 * Significance here is the unpaired Mann-Whitney test at alpha; pairItems adjusts it over a pair's metrics.
 */
export function relativeDiff(ref, m, { alpha = 0.05 } = {}) {
  const [good, bad] = directionWords(m.unit, m.better);
  const isBetter = m.better === 'higher' ? m.value > ref.value : m.value < ref.value;
  const same = m.value === ref.value;
  const fraction = ref.value === 0 ? null : Math.abs(m.value - ref.value) / Math.abs(ref.value);
  let significant = true;
  let untestable = false;
  let p = null;
  const [n, k] = [m.samples?.length ?? 0, ref.samples?.length ?? 0];
  if (n >= MIN_TRIALS && k >= MIN_TRIALS) {
    // Exact Mann-Whitney's smallest two-sided p is 2 / C(n+k, n) (3 + 3 trials: 0.1); below that
    // no difference, however large, can be significant, and the report says so instead.
    untestable = smallestP(n, k) >= alpha;
    p = mannWhitney(m.samples, ref.samples).p;
    significant = !untestable && p < alpha;
  }
  const mark = same || !significant ? '≈' : isBetter ? '✓' : '✗';
  return { fraction, word: same ? 'same' : isBetter ? good : bad, better: !same && isBetter, significant, untestable, p, mark };
}

/** The headline metrics of `doc` present in `ref` too, per case: [{ label, name, case, m, r }]. */
function headlineMetrics(ref, doc) {
  const refMetrics = new Map(ref.metrics.map((m) => [metricKey(m), m]));
  const cases = [...new Set(doc.metrics.map((m) => m.case ?? ''))];
  const out = [];
  for (const c of cases) {
    for (const h of HEADLINES) {
      // a value the load set (ghz paced at --rps) tells no variant from another: never a headline
      const name = h.names.find((n) => doc.metrics.some((m) => m.name === n && (m.case ?? '') === c && !m.setBy) && refMetrics.has(c ? `${c}::${n}` : n) && !refMetrics.get(c ? `${c}::${n}` : n).setBy);
      if (!name) continue;
      const label = h.label || metricLabel(name);
      out.push({
        name, case: c, label: c ? `${c} ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label,
        m: doc.metrics.find((x) => x.name === name && (x.case ?? '') === c), r: refMetrics.get(c ? `${c}::${name}` : name),
      });
    }
  }
  return { cases, refMetrics, out };
}

/** Verdicts of a pair's headline metrics from paired rounds: compare.js's rule, one Benjamini-Hochberg family per pair. */
function pairedVerdicts(ref, doc, found, { alpha, compare: cfgIn }) {
  const cfg = { ...COMPARE_DEFAULTS, ...cfgIn, alpha };
  const disturbed = disturbedRounds(ref.load, doc.load, cfg.maxOtherGap ?? MAX_OTHER_GAP);
  const otherGap = otherWorkGap(ref.load, doc.load);
  const stats = found.map(({ m, r }) => metricStats(r, m, { paired: true, disturbed, otherGap, cfg }));
  decideFamily(stats.filter((s) => !s.verdict), alpha);
  const rounds = disturbed.length ? disturbed.filter((x) => !x).length : ref.trials;
  return stats.map((s) => ({ ...s, rounds }));
}

/** The note after a paired item: only a decided difference goes without one. */
function pairedNote(s) {
  if (s.verdict === 'regression' || s.verdict === 'improvement') return '';
  if (s.verdict === 'below resolution') return ' (below the tool\'s resolution)';
  if (s.verdict === 'no change') return s.discovery ? ` (real but under ${pctAbs(s.minEffect)})` : ` (no difference beyond ±${pctAbs(s.minEffect)})`;
  if (s.verdict === 'inconclusive') {
    if (!s.moreRounds) return ' (undecided)';
    return ` (undecided; ${moreRoundsHint(s.moreRounds)})`;
  }
  return '';
}

/**
 * The headline items of variant `doc` against reference `ref`: one per headline metric present
 * in both (per case), e.g. { label: 'Latency p50', text: '✓ Latency p50: 59.8% faster' }.
 * With `paired` (the caller's word that the suite interleaves variants, see variantsPaired) and documents of one
 * run with as many trials, each metric is judged like head against base: paired rounds, minimum effect
 * (`compare` config), Benjamini-Hochberg over the pair's headline metrics; items then carry `method: 'paired'`,
 * `verdict` and `rounds`. Otherwise the unpaired Mann-Whitney test, Benjamini-Hochberg over the pair's metrics.
 * Only a decided difference gets ✓ or ✗; every other item is ≈ with a note saying why.
 */
export function pairItems(ref, doc, { alpha = 0.05, paired = false, compare = {} } = {}) {
  const { cases, refMetrics, out: found } = headlineMetrics(ref, doc);
  const isPaired = variantsPaired(ref, doc, paired);
  const diffs = found.map(({ r, m }) => relativeDiff(r, m, { alpha }));
  const verdicts = isPaired ? pairedVerdicts(ref, doc, found, { alpha, compare }) : null;
  if (!isPaired) {
    // The unpaired family: the pair's testable metrics, Benjamini-Hochberg at alpha.
    const tested = diffs.filter((d) => d.p !== null && !d.untestable);
    const discovered = benjaminiHochberg(tested.map((d) => d.p), alpha);
    tested.forEach((d, i) => {
      d.significant = discovered[i];
      d.mark = d.word === 'same' || !d.significant ? '≈' : d.better ? '✓' : '✗';
    });
  }
  const items = [];
  let at = 0;
  for (const c of cases) {
    for (; at < found.length && found[at].case === c; at += 1) {
      const { name, label, m, r } = found[at];
      const d = diffs[at];
      const what = d.fraction === null ? `${formatValue(r.value, r.unit)} → ${formatValue(m.value, m.unit)}` : d.word === 'same' ? 'same' : `${pctAbs(d.fraction)} ${d.word}`;
      let note;
      let extra = { method: 'unpaired' };
      if (verdicts) {
        const s = verdicts[at];
        const decided = s.verdict === 'regression' || s.verdict === 'improvement';
        d.significant = decided;
        d.untestable = s.reason === 'too few trials' || smallestPairedP(s.rounds) >= alpha;
        d.mark = decided ? (s.verdict === 'improvement' ? '✓' : '✗') : '≈';
        note = d.untestable && !decided ? ` (${s.rounds} paired rounds cannot show significance; run more)` : pairedNote(s);
        extra = { method: 'paired', verdict: s.verdict, rounds: s.rounds, p: s.p, change: s.change, lower: s.lower, upper: s.upper, reason: s.reason };
      } else {
        note = d.untestable ? ` (${m.samples.length} and ${r.samples.length} trials cannot show significance; run more)` : d.significant || d.word === 'same' ? '' : ' (not significant)';
      }
      items.push({ label, metric: name, case: c || undefined, ...d, ...extra, what: `${what}${note}`, text: `${d.mark} ${label}: ${what}${note}` });
    }
    const errs = doc.metrics.find((x) => x.name === 'errors' && (x.case ?? '') === c);
    const refErrs = refMetrics.get(c ? `${c}::errors` : 'errors');
    if (errs && refErrs && (errs.value || refErrs.value)) {
      // like every item, ✓ or ✗ only for a decided difference: one error in one trial of five is no finding
      const d = relativeDiff(refErrs, errs, { alpha });
      const mark = d.word === 'same' || !d.significant ? '≈' : d.better ? '✓' : '✗';
      const note = d.word === 'same' || d.significant ? '' : d.untestable ? ` (${errs.samples.length} and ${refErrs.samples.length} trials cannot show significance; run more)` : ' (not significant)';
      const what = `${formatValue(refErrs.value, 'count')} → ${formatValue(errs.value, 'count')}${note}`;
      items.push({ label: 'Errors', metric: 'errors', mark, what, text: `${mark} Errors: ${what}` });
    }
  }
  return items;
}

/** How a pair of variants was compared, for the line's heading: "paired, 8 rounds" or "5 + 5 trials, unpaired". */
export function pairMethod(ref, doc, interleaved) {
  return variantsPaired(ref, doc, interleaved) ? `paired, ${doc.trials} rounds` : `${ref.trials} + ${doc.trials} trials, unpaired`;
}

/** Every (reference, other) pair of variants in order: b vs a, c vs a, c vs b (the seeds' sections). */
export function variantPairs(variants) {
  const pairs = [];
  for (let i = 0; i < variants.length; i += 1) for (let j = i + 1; j < variants.length; j += 1) pairs.push([variants[i], variants[j]]);
  return pairs;
}

// ---------------------------------------------------------------- jobs that did not run

// What a crash prints after the line that says what went wrong: stack frames (Node, Java), the error's own properties
// and braces and the version line Node adds (`  code: 'ERR_...'`, `}`, `Node.js v20.20.2`), a caret under the source.
const AFTER_ERROR = /^(\s+at\s.*|\s+\w+: (-?\d+|'[^']*'|"[^"]*"|true|false|null|undefined|\[.*\]),?|\s*[{}]\s*|Node\.js v\d\S*|\s*\^+\s*|\s*\.\.\. \d+ more)$/;

/** The line of a log's tail that says what went wrong: the last one that is no stack frame or crash trailer. */
export function tellingLine(logTail) {
  // a line ends at \n or \r\n (a log written with Windows line ends)
  const lines = String(logTail || '').trimEnd().split(/\r?\n/).filter((l) => l.trim());
  return lines.findLast((l) => !AFTER_ERROR.test(l)) ?? lines.at(-1);
}

/**
 * The last `n` lines of a log's tail to show, with the telling line (above) first when the crash's stack pushed it out
 * of them: a Node crash ends in five lines of frames and trailer, so its last five lines never say what failed.
 */
export function shownLogLines(logTail, n) {
  const lines = String(logTail || '').trimEnd().split(/\r?\n/).filter(Boolean);
  const last = lines.slice(-n);
  const telling = tellingLine(logTail);
  return telling === undefined || last.includes(telling) ? last : [telling, '…', ...(n > 2 ? lines.slice(2 - n) : [])];
}

/**
 * Why a job of run.json has no result, in one line. A subject that died or never became healthy leaves a reason
 * ending in "Last lines of <log>:" and those lines apart in logTail; the last of them is where the subject or tool
 * says what went wrong, so it completes the reason instead of leaving it hanging on the colon.
 */
export function jobReason(job = {}) {
  const reason = String(job.reason || 'no reason recorded').trim();
  const last = tellingLine(job.logTail)?.trim();
  return last && reason.endsWith(':') ? `${reason} ${last}` : reason;
}

// ---------------------------------------------------------------- load-tool saturation

/** The words every report uses when a load tool ran out of cores. */
export const BOTTLENECK = 'the load tool was the bottleneck';

export { bottleneck };

/**
 * One line instead of a comparison of `docs` (variants, or base and head) when any of them was measured by a saturated
 * load tool: "the load tool was the bottleneck (cache-off: ab used 0.97 of its 1 core); not compared". Else undefined.
 */
export function bottleneckLine(docs, label = (d) => d.variant) {
  const hit = docs.filter(Boolean).map((d) => [d, bottleneck(d)]).filter(([, why]) => why);
  if (!hit.length) return undefined;
  return `${BOTTLENECK} (${hit.map(([d, why]) => `${label(d)}: ${why}`).join('; ')}); not compared`;
}

/** Every document of a run whose load tool saturated, with the reason: [{ doc, name, why }]. */
export function bottleneckDocs(docs = []) {
  const seen = new Set();
  return docs.map((doc) => ({ doc, name: benchmarkName(doc), why: bottleneck(doc) }))
    .filter((x) => x.why && !seen.has(`${x.name} ${x.why}`) && seen.add(`${x.name} ${x.why}`));
}

// ---------------------------------------------------------------- plain text

/** Display width in terminal columns: code points without ANSI colour codes (the tables hold no wide characters). */
export const width = (s) => [...String(s).replace(/\x1b\[[0-9;]*m/g, '')].length;
const padEnd = (s, n) => String(s) + ' '.repeat(Math.max(0, n - width(s)));
const padStart = (s, n) => ' '.repeat(Math.max(0, n - width(s))) + String(s);

/**
 * A plain text table in the seeds' style: header, a rule of ─ under each column, two spaces
 * between columns; the first column left-aligned, the rest right-aligned unless `align` says otherwise.
 */
export function textTable(head, rows, { indent = '  ', align } = {}) {
  const cols = head.length;
  const al = align || head.map((_, i) => (i === 0 ? 'left' : 'right'));
  const widths = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells) => indent + cells.map((c, i) => (al[i] === 'left' ? padEnd(c ?? '', widths[i]) : padStart(c ?? '', widths[i]))).join('  ').trimEnd();
  const out = [line(head), indent + widths.map((w) => '─'.repeat(w)).join('  ')];
  for (const r of rows) out.push(line(r.slice(0, cols)));
  return out.join('\n');
}

export const rule = (n = 74, ch = '═') => ch.repeat(n);

/** A boxed, centred title like the seeds' report banner. */
export function box(title, inner = 70) {
  const t = ` ${title} `;
  const left = Math.max(0, Math.floor((inner - width(t)) / 2));
  const right = Math.max(0, inner - width(t) - left);
  return [`╔${'═'.repeat(inner)}╗`, `║${' '.repeat(left)}${t}${' '.repeat(right)}║`, `╚${'═'.repeat(inner)}╝`].join('\n');
}

// ---------------------------------------------------------------- markdown

/**
 * Text safe to drop into GitHub markdown and HTML: names come from configs in pull requests, so
 * nothing in them may open a tag, a link, a mention, a table cell, a code span or math (GitHub renders $...$ as
 * math: a hyperfine command with two ${dir} would). Newlines fold to spaces and very long names are cut.
 */
export function mdEscape(text, { max = 200 } = {}) {
  let s = String(text ?? '').replace(/[\r\n\t]+/g, ' ');
  if ([...s].length > max) s = `${[...s].slice(0, max - 1).join('')}…`;
  // Backslashes first: the entities added after them contain # and ; that must stay as they are.
  return s
    .replace(/([\\`*_[\]()|~#!+{}$])/g, '\\$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/@/g, '&#64;')
    .replace(/:/g, '&#58;');
}

/** A GitHub markdown table; cells are used as given (escape untrusted text first). */
export function mdTable(head, rows, align) {
  const al = align || head.map((_, i) => (i === 0 ? 'left' : 'right'));
  const sep = al.map((a) => (a === 'right' ? '---:' : a === 'center' ? ':---:' : '---'));
  return [`| ${head.join(' | ')} |`, `| ${sep.join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Verdict with a symbol for markdown. */
export const verdictMark = (v) => ({ regression: '🔴 regression', improvement: '🟢 improvement', inconclusive: '❔ inconclusive', 'no change': '⚪ no change', 'below resolution': '· below resolution' }[v] || (v === null ? 'information' : v));

/** Judged comparisons only (verdicts); the rest are shown as information. */
export const judgedOnly = (list) => list.filter((c) => c.judged !== false && c.verdict !== null);

/** Short commit for display; only letters and digits survive, so it is safe inside a code span. */
export const shortSha = (sha) => (sha ? String(sha).replace(/[^0-9A-Za-z]/g, '').slice(0, 7) : '–');

/**
 * The heading over compare()'s `unmatched` list: what was measured on one side only, and, when any is there, the
 * metrics base and head read with another unit or direction (`disagrees`), which are on both sides and must not read
 * as new or removed ones.
 */
export function unmatchedHeading(unmatched = []) {
  const disagree = unmatched.some((u) => u.disagrees);
  const oneSide = unmatched.some((u) => !u.disagrees);
  const why = [oneSide ? 'measured on one side only' : '', disagree ? 'base and head disagree on its unit or on which way is better' : ''].filter(Boolean).join(', or ');
  return `Not compared (${why})`;
}

/** Renderers accept either compare()'s result or its comparisons array; this returns the array. */
export const comparisonList = (x) => (Array.isArray(x) ? x : x?.comparisons || []);

/** Verdict counts of a comparison list (compare() gives them too; filtered lists need them again). */
export function countVerdicts(list) {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
  for (const c of list) if (counts[c.verdict] !== undefined) counts[c.verdict] += 1;
  return counts;
}

/** Text safe inside an HTML element where markdown is not processed (<pre>). */
export const htmlEscape = (text) => String(text ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/@/g, '&#64;');

/**
 * Jobs a `--base` run measured on head only because the base checkout has no such subject (a pull request that adds
 * it): [{ id, why }] from run.json's job entries (`headOnly: { subject, ref }`). Empty without a base. Pure.
 */
export function headOnlyJobs(run) {
  if (!run?.base) return [];
  return (run.jobs || []).filter((j) => j.status === 'ok' && j.headOnly).map((j) => ({ id: j.id, why: `${j.headOnly.subject} does not exist at ${j.headOnly.ref}` }));
}

/**
 * The notes of the result documents (crossed k6 thresholds, dropped iterations, a tool at its ceiling ...), one line
 * per job and kind of note: the per-trial prefix ("trial 3: ") comes off and notes that differ only in their numbers
 * count as one, shown with its first wording and the trials it came from. When a base was measured, head's notes,
 * then base's that head does not have, named "(base)": a note of base's alone (a trial whose requests all timed out,
 * which left a metric out of base's document) can be why a metric got no verdict.
 * Returns [{ name, text, trials: [numbers] | null, of, varies (other trials' figures differ), first (trial of text) }]. Pure.
 */
export function noteLines(docs) {
  const measured = docs.some((d) => d.run?.role === 'head');
  const sides = measured ? [docs.filter((d) => d.run.role === 'head'), docs.filter((d) => d.run.role === 'base')] : [docs];
  const lines = new Map();
  const heads = new Set();
  sides.forEach((side, k) => {
    for (const d of side) {
      for (const raw of d.notes || []) {
        const m = /^trial (\d+): (.*)$/s.exec(raw);
        const text = m ? m[2] : raw;
        const kind = `${benchmarkName(d)}\u0000${text.replace(/\d+(?:\.\d+)?/g, 'N')}`;
        if (k === 0) heads.add(kind);
        else if (heads.has(kind)) continue;
        const key = `${k}\u0000${kind}`;
        if (!lines.has(key)) lines.set(key, { name: k ? `${benchmarkName(d)} (base)` : benchmarkName(d), text, trials: m ? [] : null, of: d.trials, varies: false, first: m ? Number(m[1]) : null });
        const line = lines.get(key);
        if (m) line.trials?.push(Number(m[1]));
        if (text !== line.text) line.varies = true;
      }
    }
  });
  return [...lines.values()];
}

// what a terminal or a CI log acts on: control characters (escape sequences, bell, carriage return, C1 controls)
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A run's data as plain text for a terminal or a CI log: control characters in every string become U+FFFD, and line
 * breaks (a line that starts with ::error:: is a GitHub Actions command) become " ⏎ ", except in a failure's logTail,
 * which is printed line by line behind a "| ". Names, cases, runner fields and reasons come from documents anyone may
 * have edited. Pure; returns a copy.
 */
export function terminalSafe(value, key) {
  if (typeof value === 'string') {
    const s = value.replace(CONTROL, '\ufffd');
    return key === 'logTail' ? s : s.replace(/\n/g, ' ⏎ ');
  }
  if (Array.isArray(value)) return value.map((v) => terminalSafe(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, terminalSafe(v, k)]));
  return value;
}


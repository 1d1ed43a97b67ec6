// Head-vs-base comparison: matches result documents by job and metric and gives each judged metric a verdict.
//
// What is judged: each job's key metrics (the document's `judge` list, else its tool's defaults in
// ci/adapters/<tool>.js); every other metric is information only (change shown, no verdict). Metrics that
// restate a run parameter (duration of a fixed-duration run, requests or bytes of one) are never judged.
//
// The rule for a judged metric (samples = one value per trial on each side):
//   paired   when both documents come from one run (base and head ran in rounds, one trial of each per round,
//            in a seeded random order): d_i = ln(head_i / base_i) per round (differences when a value is 0).
//            p = two-sided Wilcoxon signed-rank test of d. Under "no change" the random order makes every d_i
//            as likely positive as negative, so p is exact however the machine drifts or bursts.
//            change and interval: the Hodges-Lehmann estimate of d and its Walsh-average interval.
//   duet     rounds run as duets (doc.duet: a round's base and head trials at the same time, see runner.js) are paired
//            the same way; a duet side's figures compare only with its own run's other side (else 'inconclusive').
//   unpaired otherwise (documents of two runs): Mann-Whitney U p, seeded bootstrap interval of the median ratio.
//   looks    the runner may look at a job after several counts of calm rounds and stop once its verdicts are decided
//            (`sequential` in the document). Each look k spends its share w_k of alpha (weights sum to 1), so the
//            metric's p-value is min_k p_k / w_k, and the interval is reported at level 1 - alpha * w_last:
//            stopping early cannot inflate the error rate (Bonferroni over looks).
//   family   Benjamini-Hochberg at alpha over all judged metrics of the comparison (a PR): with nothing
//            changed, the chance that any metric is flagged stays at alpha.
//   verdict  discovery, interval excludes 0, |change| >= minEffect -> 'regression' or 'improvement' (by `better`)
//            equivalence interval inside ±minEffect                -> 'no change' (also for a real change smaller
//                                                                     than matters). That interval is at level
//                                                                     1 - 2 * (1 - level): two one-sided tests, each
//                                                                     at the discovery's alpha (equivalenceLevel)
//            |change| in the metric's own unit below its resolution -> 'below resolution' (not a verdict)
//            otherwise                                             -> 'inconclusive', with how many more rounds
//                                                                     would likely settle it
//   a job whose load tool used (nearly) all its cores on either side cannot show 'no change' (both sides may have
//   measured the tool's ceiling): 'inconclusive' instead, with that reason; a regression or improvement stands.
//   fewer than 3 trials on either side -> 'inconclusive', reason 'too few trials'. Exact small-sample floors:
//   the two-sided signed-rank p of n pairs is at least 2/2^n (5 pairs: 0.0625, never below 0.05); Mann-Whitney
//   of 3 + 3 is at least 0.1.
import { globToRegExp, matches, metricKey } from './metrics.js';
import { benjaminiHochberg, bootstrapInterval, mannWhitney, median, signedRankTest, walshInterval } from './stats.js';
import { probit } from 'simple-statistics';
import { ADAPTERS } from './adapters/index.js';
import { UserError } from './errors.js';
import { nearMiss } from './spelling.js';
import { bottleneck } from './cpuset.js';
import { formatValue } from './units.js';

export const VERDICTS = Object.freeze(['regression', 'improvement', 'inconclusive', 'no change']);
export const MIN_TRIALS = 3;

/**
 * Metrics that restate a run's parameters (a fixed duration, count or payload): more of them is not better or worse.
 * ab's body_bytes_received ("HTML transferred") is its requests times the document length, like bytes_received.
 */
export const RESTATED = Object.freeze(['duration', 'requests', 'iterations', 'bytes_received', 'body_bytes_received', 'bytes_sent', 'items', 'pages']);

/**
 * compare.metrics when a config sets none: tail latencies move more from trial to trial than the median, so a smaller
 * change there is not actionable (a config's own compare.metrics replaces this whole table).
 */
const DEFAULT_METRIC_EFFECTS = Object.freeze({ 'latency.p95': 0.1, 'latency.p99': 0.1, 'latency.p99.9': 0.15 });

/** The compare settings a config that says nothing of them gets (config.js, and reports of results without a config). */
export const COMPARE_DEFAULTS = Object.freeze({ confidence: 0.95, alpha: 0.05, minEffect: 0.02, metrics: DEFAULT_METRIC_EFFECTS });

/** Identity of a job across runs: suite/variant/tool/scenario. */
export const jobKey = (doc) => `${doc.suite}/${doc.variant}/${doc.tool?.name ?? doc.tool}/${doc.scenario}`;

/**
 * The smallest relative change that counts for a metric name: the job's own table (`minEffect:` on the job, carried in
 * its result documents) first, then compare.metrics; in each an exact entry, else the matching glob with the most
 * literal characters (ties: fewer stars, then the one listed first); else compare.minEffect.
 */
export function minEffectFor(name, compareConfig = {}, own = {}) {
  const fromOwn = lookupMinEffect(name, own || {});
  if (fromOwn !== undefined) return fromOwn;
  return lookupMinEffect(name, compareConfig.metrics || COMPARE_DEFAULTS.metrics) ?? compareConfig.minEffect ?? COMPARE_DEFAULTS.minEffect;
}

/** A table's entry for a metric name: the exact one, else the most specific matching glob, else undefined. */
function lookupMinEffect(name, table) {
  if (Object.hasOwn(table, name)) return table[name];
  let best;
  for (const [pattern, value] of Object.entries(table)) {
    if (!pattern.includes('*') || !globToRegExp(pattern).test(name)) continue;
    const literal = pattern.replace(/\*/g, '').length;
    const stars = pattern.length - literal;
    if (!best || literal > best.literal || (literal === best.literal && stars < best.stars)) best = { literal, stars, value };
  }
  return best?.value;
}

/** The metric names (or globs) a document's job is judged on: its own `judge` list, else its tool's defaults. */
function judgedNames(doc) {
  return doc.judge || ADAPTERS[doc.tool?.name ?? doc.tool]?.judged || [];
}

/**
 * Metrics JMH's -prof gc sums over a fixed measurement time (gc.alloc.rate, gc.count, gc.time): a faster benchmark that
 * allocates the same bytes per operation shows more of them (test/fixtures/jmh/avgt-gc.json: sbeDeserialize allocates
 * 8.6x fewer bytes per operation than jsonDeserialize and has 6.8x its alloc_rate), so more is neither better nor
 * worse; alloc_per_op says whether allocation grew. Shown, never judged.
 */
export const PER_MEASUREMENT_TIME = Object.freeze(['alloc_rate', 'gc_count', 'gc_time']);

/**
 * True for a trial's slowest or fastest value (latency.max, time.min, a k6 trend's .max): one request, call or run of the
 * trial, which a single pause or outlier sets, so it says nothing of the rest. Shown, never judged.
 */
export const isExtreme = (name) => /\.(max|min)$/.test(name);

/**
 * Whether a percentile is, in some trial, that trial's slowest sample: a pQ of at most 100 / (100 - Q) requests (a
 * p99 of 100 or fewer, a p95 of 20) has no request above it (wrk's rank rounds up to the last one), so one pause sets
 * it, as it sets latency.max: shown, never judged. `counts`: each trial's samples of its family (sampleCounts), of
 * both sides. Returns { fewest, need } then, else undefined.
 */
export function slowestOnly(name, counts) {
  const q = Number(/\.p(\d+(?:\.\d+)?)$/.exec(name)?.[1]);
  const known = (counts || []).filter(Number.isFinite);
  if (!(q > 0 && q < 100) || !known.length) return undefined;
  const need = Math.round(100 / (100 - q));
  const fewest = Math.min(...known);
  return fewest <= need ? { fewest, need } : undefined;
}

/** Each trial's request count of a document (its `requests` samples), for slowestOnly. */
const requestCounts = (doc) => {
  const m = doc.metrics?.find((x) => x.name === 'requests' && !x.case);
  return m?.samples?.length ? m.samples : m ? [m.value] : [];
};

/**
 * The samples a trial of a document (or a trial itself) has of the family of percentile `name`, for slowestOnly:
 * latency's are its requests, a k6 script's own Trend's the count of its distribution. A document's distribution counts
 * every trial's samples, and their mean is at least the fewest a trial had.
 */
export const sampleCounts = (doc, name) => {
  const family = name.replace(/\.p\d+(?:\.\d+)?$/, '');
  if (family === 'latency') return requestCounts(doc);
  const d = (doc.distributions || []).find((x) => x.name === family && !x.case);
  return d?.count > 0 ? [d.count / (doc.trials > 1 ? doc.trials : 1)] : [];
};

/** True when a metric of this document gets a verdict: listed as judged, not a restated run parameter, not an extreme. */
export function isJudged(doc, name) {
  return !RESTATED.includes(name) && !PER_MEASUREMENT_TIME.includes(name) && !isExtreme(name) && judgedNames(doc).some((p) => matches(p, name));
}

/**
 * A result note for the names of a job's own `judge:` list that match none of its metrics (a misspelt `thruput` would
 * otherwise judge nothing, unseen); undefined when every name matches one. `names`: the metric names the job measured.
 */
export function judgeMissNote(list, names) {
  const known = [...new Set(names)];
  const missed = (list || []).filter((p) => !known.some((n) => matches(p, n)));
  if (!missed.length) return undefined;
  const judgeable = known.filter((n) => !RESTATED.includes(n));
  const each = missed.map((p) => { const near = nearMiss(p, judgeable); return `"${p}"${near ? ` (did you mean "${near}"?)` : ''}`; });
  return `judge names ${each.join(', ')}, which no metric of this job matches, so nothing is judged for ${missed.length === 1 ? 'it' : 'them'}; `
    + `its metrics: ${judgeable.slice(0, 12).join(', ')}${judgeable.length > 12 ? `, ... (${judgeable.length - 12} more in the result document)` : ''}`;
}

/**
 * Config check: a `judge` list may not name a metric that restates a run parameter, nor a trial's extreme (a name ending
 * in .max or .min; a glob such as latency.* just passes them by). Returns an error text or null.
 */
export function judgeListProblem(list) {
  const bad = (list || []).filter((p) => RESTATED.some((r) => matches(p, r)));
  if (bad.length) return `judge lists ${bad.join(', ')}, which restate${bad.length === 1 ? 's' : ''} a run parameter (${RESTATED.join(', ')} follow from the run's duration or count, so more or fewer of them is neither better nor worse); judge throughput or latency instead`;
  const perTime = (list || []).filter((p) => PER_MEASUREMENT_TIME.includes(p));
  if (perTime.length) return `judge lists ${perTime.join(', ')}, which JMH sums over its measurement time, so a faster benchmark shows more of ${perTime.length === 1 ? 'it' : 'them'} for the same allocation and more is neither better nor worse; judge alloc_per_op instead`;
  const extremes = (list || []).filter(isExtreme);
  return extremes.length ? `judge lists ${extremes.join(', ')}, a trial's single slowest or fastest value, which one pause or outlier sets and which is never judged; judge a percentile such as latency.p99 instead` : null;
}

// an unbounded end of an interval (a bootstrap whose base resamples reach 0) reads ∞, not "Infinity%"
const pct = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` : `${x > 0 ? '+' : '-'}∞`);

/** Direction word for a change of this sign on a metric where `better` is lower or higher. */
const directional = (change, better) => ((change > 0) === (better === 'higher') ? 'improvement' : 'regression');

/**
 * Looks of a sequential job, as [{ n, weight }]: each planned look below n rounds, then n itself. At a planned look
 * n keeps that look's weight (the runner may have stopped there because the data decided it). Anywhere else the
 * job was stopped by its time budget, which does not depend on the data, and no later look will ever be taken:
 * that last look spends all the alpha the earlier looks left (a job stopped by its budget after 6 rounds, before a
 * first look at 8, is tested at the full alpha, not at the first look's quarter).
 */
export function looksOf(n, sequential) {
  const plan = sequential?.looks?.length ? sequential.looks : [n];
  const weights = sequential?.weights?.length === plan.length ? sequential.weights : plan.map(() => 1 / plan.length);
  const out = [];
  let spent = 0;
  for (let k = 0; k < plan.length; k += 1) {
    if (plan[k] < n && k < plan.length - 1) {
      out.push({ n: plan[k], weight: weights[k] });
      spent += weights[k];
    } else {
      // a stop at a planned look keeps that look's share when it was decided (or futile) there; the budget stops a job
      // whatever its data, and no later look comes then, so that look spends what the earlier looks left, as between looks
      out.push({ n, weight: plan[k] === n && sequential?.stopped !== 'budget' ? weights[k] : Math.max(weights[k], 1 - spent) });
      break;
    }
  }
  return out;
}

/** Per-round differences: log ratios when every value is positive, else plain differences. */
function roundDifferences(base, head) {
  const logScale = base.every((x) => x > 0) && head.every((x) => x > 0);
  return { logScale, d: base.map((b, i) => (logScale ? Math.log(head[i] / b) : head[i] - b)) };
}

/**
 * Statistics of one metric from paired rounds (base[i] and head[i] ran side by side in round i).
 * Returns { method, p, change, lower, upper, level, looks } before any family adjustment: change and interval from
 * every round. When an earlier look gave the smallest p / weight, `atLook` holds that look's round count, change and
 * interval (at 1 - alpha * its weight): a discovery is decided there (see decide).
 */
export function pairedStats(base, head, { alpha, sequential, disturbed = [], otherGap = [] }) {
  const { logScale, d: raw } = roundDifferences(base, head);
  // Rounds disturbed by other work (when compare.maxOtherGap is set) are left out: the choice depends on the
  // neighbour only, never on which side ran first, so under "no change" the kept differences stay symmetric.
  // The looks count calm rounds: the runner adds a round for each disturbed one.
  const keep = (xs) => xs.filter((_, i) => !disturbed[i]);
  const d = keep(raw);
  const gap = otherGap.length === raw.length ? keep(otherGap) : [];
  // Per look: the differences adjusted for other work on the machine (see adjustForOtherWork), or as measured when
  // that test is the stronger one (see pathOf): each look's p, and the differences its interval comes from. The last
  // look is at every round.
  const looks = looksOf(d.length, sequential).map((l) => {
    const path = pathOf(d.slice(0, l.n), gap.slice(0, l.n));
    return { ...l, p: path.p, path };
  });
  const last = looks.at(-1);
  const level = 1 - alpha * last.weight;
  const adjusted = last.path;
  const ci = walshInterval(adjusted.d, level);
  // the adjusted differences decide "no change" too, at their share of alpha when the unadjusted test has the rest
  const shared = Boolean(adjusted.slope || adjusted.unadjusted);
  const eqLevel = equivalenceLevel(shared ? 1 - alpha * last.weight * (1 - RAW_SHARE) : level);
  const baseMedian = median(base);
  // relative to the base's size: a difference of a negative base (a k6 gauge) keeps its sign, so a rise stays a rise
  const rel = (x) => {
    if (!Number.isFinite(x)) return x > 0 ? Infinity : -Infinity;
    return logScale ? Math.exp(x) - 1 : (baseMedian ? x / Math.abs(baseMedian) : null);
  };
  const bounds = (c, lvl) => ({ lower: rel(c.lower), upper: rel(c.upper), level: lvl });
  const values = (c, lvl) => ({ change: rel(c.estimate), ...bounds(c, lvl), absolute: logScale ? baseMedian * (Math.exp(c.estimate) - 1) : c.estimate });
  // The look with the smallest p / weight (the latest of equals): where a discovery is decided.
  const best = looks.reduce((b, l, i) => (l.p / l.weight <= looks[b].p / looks[b].weight ? i : b), 0);
  const early = looks[best];
  return {
    method: 'paired',
    p: Math.min(1, early.p / early.weight),
    ...values(ci, level),
    // with its own estimate: a "no change" it decides is shown with it, and the estimate lies inside it
    equivalence: values(walshInterval(adjustForOtherWork(d, gap, { intercept: true }).d, eqLevel), eqLevel),
    ...(best < looks.length - 1 ? { atLook: { n: early.n, ...values(walshInterval(early.path.d, 1 - alpha * early.weight), 1 - alpha * early.weight) } } : {}),
    looks: looks.map(({ n, p, weight }) => ({ n, p, weight })),
    ...(d.length < raw.length ? { disturbed: raw.length - d.length } : {}),
    ...(adjusted.slope ? { otherSlope: adjusted.slope } : {}),
    ...(adjusted.unadjusted ? { otherWork: 'unadjusted' } : {}),
  };
}

/**
 * Share of alpha the test of the unadjusted differences gets when other work was measured. Adjusting for other work
 * assumes the neighbour's bursts do not depend on the side; but a change moves other work by itself (a slower side
 * leaves CPU idle, which a neighbour takes), so the metric and the gap shift together, and the slope through the origin
 * takes part of a real change for the neighbour's doing: a 50% loss came out "inconclusive" in 197 of 200 simulated
 * runs, a 92% loss on this machine as -6%. Both tests are exact under "no change", so p = min(p_adjusted / 0.9,
 * p_raw / 0.1) keeps the false alarms at alpha (a weighted Bonferroni), and the adjusted test keeps nine tenths of alpha.
 */
const RAW_SHARE = 0.1;

/**
 * One look's test: { p, d (the differences its interval comes from), slope, unadjusted }. Without other work to
 * adjust for, the signed-rank test of the differences as measured; otherwise the stronger of the adjusted and the
 * unadjusted test by weighted Bonferroni (RAW_SHARE).
 */
function pathOf(d, gap) {
  const adjusted = adjustForOtherWork(d, gap);
  const pAdjusted = signedRankTest(adjusted.d).p;
  if (!adjusted.slope) return { ...adjusted, p: pAdjusted, unadjusted: false };
  const viaAdjusted = pAdjusted / (1 - RAW_SHARE);
  const viaRaw = signedRankTest(d).p / RAW_SHARE;
  if (viaRaw < viaAdjusted) return { d, slope: 0, p: Math.min(1, viaRaw), unadjusted: true };
  return { ...adjusted, p: Math.min(1, viaAdjusted), unadjusted: false };
}

/**
 * Round differences adjusted for other work on the machine: gap[i] is how many more cores other processes used
 * during round i's head trial than during its base trial (load[].other), and a neighbour's burst on one side moves
 * d[i] along with it. The slope is fitted through the origin (sum d*gap / sum gap^2) and d[i] - slope * gap[i] is
 * tested. Swapping a round's order flips the signs of d[i] and gap[i] together and leaves the slope unchanged, so
 * under "no change" the adjusted differences are exactly as symmetric as the raw ones: the test stays exact.
 *
 * With `intercept: true` the slope is fitted with an intercept (centred sums): what the equivalence interval is taken
 * from. Through the origin the slope would also take up part of a real shift whenever the gaps do not sum to 0,
 * pulling the change toward 0 and claiming "no change" of a real one too often (5.9% instead of at most 5% of
 * simulated runs with a true change of minEffect); with an intercept the slope does not depend on the shift.
 */
export function adjustForOtherWork(d, gap, { intercept = false } = {}) {
  if (gap.length !== d.length || d.length < MIN_TRIALS) return { d, slope: 0 };
  const mean = (xs) => (intercept ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const md = mean(d);
  const mg = mean(gap);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < d.length; i += 1) {
    sxy += (d[i] - md) * (gap[i] - mg);
    sxx += (gap[i] - mg) * (gap[i] - mg);
  }
  if (!(sxx > 1e-6)) return { d, slope: 0 };
  const slope = sxy / sxx;
  return { d: d.map((x, i) => x - slope * gap[i]), slope };
}

/**
 * The level of the interval that decides "no change" for a discovery interval at `level`: two one-sided tests at
 * (1 - level) each (TOST), i.e. 1 - 2 * (1 - level). Claiming "no change" wrongly needs the true change to lie past
 * +minEffect or -minEffect, and then only one of the two bounds can be wrong: each is a one-sided test at 1 - level,
 * so the claim errs at most that often (at alpha * the look's weight; over the looks, at most alpha). The interval
 * that must exclude 0 for a discovery stays two-sided at `level`.
 */
const equivalenceLevel = (level) => Math.max(0.5, Number((1 - 2 * (1 - level)).toFixed(12)));

/**
 * Head's value relative to base's as 1 + change: head / base, and for a negative base 1 + (head - base) / |base|, so the
 * change has the sign of head - base (a ratio of two negatives would call -10 -> -5 a 50% fall). Zero base: the ratio
 * as it is (infinite, or NaN for 0 / 0).
 */
const relativeRatio = (h, b) => (b < 0 ? 1 + (h - b) / -b : h / b);

/** Statistics of one metric from two independent sets of trials (two runs). */
function unpairedStats(base, head, { alpha, confidence, seed }) {
  const b = median(base);
  const h = median(head);
  const out = { method: 'unpaired', p: mannWhitney(head, base).p, change: b ? relativeRatio(h, b) - 1 : null, lower: null, upper: null, absolute: h - b, level: confidence ?? 1 - alpha };
  if (b) {
    const eqLevel = equivalenceLevel(out.level);
    const [ci, eq] = bootstrapInterval({ a: head, b: base, stat: (x, y) => relativeRatio(median(x), median(y)), confidence: [out.level, eqLevel], seed });
    out.lower = ci.lower - 1;
    out.upper = ci.upper - 1;
    out.equivalence = { lower: eq.lower - 1, upper: eq.upper - 1, level: eqLevel };
  }
  return out;
}

/**
 * Rounds that would likely narrow the interval enough to decide (the width shrinks as 1/sqrt(rounds)): the equivalence
 * interval to within ±minEffect ("no change"), or, for a change at least minEffect by its estimate, the interval to
 * exclude 0 (a discovery), whichever takes fewer (as cannotSettle weighs them).
 */
function roundsToSettle(s, n, minEffect) {
  const eq = s.equivalence ?? s;
  if (!Number.isFinite(eq.lower) || !Number.isFinite(eq.upper)) return null;
  const size = Math.abs(s.change ?? 0);
  const half = (eq.upper - eq.lower) / 2;
  const room = Math.max(minEffect - size, minEffect / 4);
  let need = Math.ceil(n * (half / room) ** 2);
  if (size >= minEffect && size > 0 && Number.isFinite(s.lower) && Number.isFinite(s.upper)) {
    // from the estimate to the interval's end on 0's side: what must come within |change| for the interval to exclude 0
    const reach = s.change > 0 ? s.change - s.lower : s.upper - s.change;
    need = Math.min(need, Math.ceil(n * (reach / size) ** 2));
  }
  return Math.max(1, need - n);
}

/**
 * The verdict of one judged metric once the family decided whether it is a discovery.
 * `s` is pairedStats/unpairedStats output plus base/head/better/minEffect/resolution.
 */
export function decide(s, discovered) {
  if (discovered && s.atLook) {
    // A group-sequential decision: the look that crossed its share of alpha decides, with that look's change and
    // interval; the rounds run after it (for the job's other metrics) do not undo it.
    const { n, ...atLook } = s.atLook;
    const out = decide({ ...s, ...atLook, atLook: undefined }, true);
    return { ...out, ...atLook, decidedAt: n, reason: `${out.reason} (decided at the look after ${n} rounds)` };
  }
  const { better, minEffect } = s;
  const interval = s.lower === null ? 'no interval (base median is zero)' : `interval ${pct(s.lower)}..${pct(s.upper)}`;
  const pText = `p=${s.p.toPrecision(2)}${s.looks?.length > 1 ? ` over ${s.looks.length} looks` : ''}`;
  if (s.change === null) {
    // Zero base: any change from zero exceeds every minimum effect; only significance decides.
    // The direction is the estimate's sign; an estimate of 0 (errors in 8 of 32 head rounds, none on base: most rounds
    // differ by nothing) takes the side the test found, by its ranks (`lean`), never the sign of 0.
    if (discovered) {
      const sign = Math.sign(s.absolute) || Math.sign(s.lean ?? 0);
      if (!sign) return { verdict: 'inconclusive', reason: `base median is zero and ${pText} is a discovery, but which way it goes cannot be told` };
      const headText = s.head?.value === 0 ? `so is head's, but head is ${sign > 0 ? 'higher' : 'lower'} more often than ${sign > 0 ? 'lower' : 'higher'}` : 'head is not';
      return { verdict: directional(sign, better), reason: `base median is zero, ${headText} (${pText}, a discovery in the family)` };
    }
    return { verdict: 'inconclusive', reason: `base median is zero and ${pText} is not a discovery` };
  }
  const excludesZero = s.lower > 0 || s.upper < 0;
  const size = Math.abs(s.change);
  if (discovered && excludesZero && size >= minEffect) {
    return { verdict: directional(s.change, better), reason: `${pText}, a discovery in the family; ${interval} excludes 0; |change| ≥ ${pct(minEffect).slice(1)}` };
  }
  // "No change" needs the equivalence interval (two one-sided tests, see equivalenceLevel) inside ±minEffect: shown
  // with the verdict, it is the interval that decided it. A real change whose estimate is below minEffect but whose
  // interval reaches past it is not known to be small.
  const eq = s.equivalence ?? s;
  const margin = `±${pct(minEffect).slice(1)}`;
  const eqText = `equivalence interval ${pct(eq.lower)}..${pct(eq.upper)} (${+(eq.level * 100).toFixed(2)}%)`;
  if (eq.lower >= -minEffect && eq.upper <= minEffect) {
    // the equivalence interval's own estimate where it has one (paired: adjusted for other work with an intercept, which
    // may differ from the discovery's estimate by more than the interval is wide)
    const shown = { lower: eq.lower, upper: eq.upper, level: eq.level, ...(eq.change !== undefined ? { change: eq.change, absolute: eq.absolute } : {}) };
    if (discovered && excludesZero) return { verdict: 'no change', reason: `real (${pText}) but small: ${eqText} within ${margin}`, ...shown };
    return { verdict: 'no change', reason: `${eqText} within ${margin}`, ...shown };
  }
  if (discovered && excludesZero) {
    const more = roundsToSettle(s, s.head.n, minEffect);
    return { verdict: 'inconclusive', reason: `real (${pText}) and ${pct(s.change)} by its estimate, under ${margin}, but its ${eqText} reaches past ${margin}; ${moreRoundsHint(more, 'tell whether it matters')}`, moreRounds: more };
  }
  const kept = s.method === 'paired' ? s.head.n - (s.disturbed || 0) : null;
  const weight = s.looks?.at(-1)?.weight ?? 1;
  if (kept !== null && 2 ** (1 - kept) / weight >= s.alpha) {
    const need = Math.floor(1 - Math.log2(s.alpha * weight)) + 1;
    return { verdict: 'inconclusive', reason: `${kept} rounds can never be significant (the smallest two-sided signed-rank p of n rounds is 2/2^n, here ${(2 ** (1 - kept) / weight).toPrecision(2)} ≥ ${s.alpha}); run at least ${need} rounds (a job without trials: adds rounds until its metrics are decided, within --budget and compare.budget; one with trials: runs that many)`, moreRounds: need - kept };
  }
  if (kept !== null && excludesZero && size >= minEffect) {
    // The interval lies past 0 and the change past minEffect: what it lacks is a small enough p, which more rounds give.
    // Narrowing the interval is not what would settle it, and a larger minEffect would only hide the change.
    return { verdict: 'inconclusive', ...pastMarginNotDiscovered(s, { kept, weight, interval, pText, margin }) };
  }
  const more = roundsToSettle(s, s.head.n, minEffect);
  const eqPart = Number.isFinite(eq.lower) && Number.isFinite(eq.upper) ? `${eqText} reaches past ${margin} and ` : '';
  // a larger minEffect settles a change smaller than it, never one past it (that would only hide the change)
  const advice = size < minEffect ? ' (quiet the machine, or raise this metric\'s minEffect)' : ' (quiet the machine)';
  const hint = more === null ? 'too few rounds for an interval at this level: run more' : `${moreRoundsHint(more)}${more > MAX_MORE_ROUNDS ? advice : ''}`;
  // "too noisy" only where more rounds would not settle it in a count anyone would run
  const state = more !== null && more <= MAX_MORE_ROUNDS ? 'not settled yet' : 'too noisy';
  return { verdict: 'inconclusive', reason: `${state}: ${eqPart}${interval} (${pText}) is not a discovery; ${hint}`, moreRounds: more };
}

/**
 * Why a paired change whose interval excludes 0 and which is at least minEffect is not a discovery, and about how many
 * more rounds would make it one. When the ratios as measured gave the p (`otherWork: 'unadjusted'`: the change moved
 * the machine's other work, so the slope of the adjusted test took it for a neighbour's doing), that test has a tenth of
 * alpha (RAW_SHARE): n rounds give it a p of at least 2/2^n / RAW_SHARE / the look's weight, so 8 rounds at a look of
 * weight 0.25 never go below 0.31, however large the change; 11 rounds can. Otherwise the p has to clear the family:
 * about as many rounds again (the signed-rank p falls by half with every round that points the same way).
 */
function pastMarginNotDiscovered(s, { kept, weight, interval, pText, margin }) {
  const head = `not settled yet: ${interval} excludes 0 and the change (${pct(s.change)}) is past ${margin}, but ${pText} is not a discovery`;
  if (s.otherWork === 'unadjusted') {
    const floor = 2 ** (1 - kept) / RAW_SHARE / weight;
    const need = Math.floor(1 - Math.log2(s.alpha * RAW_SHARE * weight)) + 1;
    if (floor >= s.alpha && need > kept) {
      const why = 'the change moved the other work on the machine along with it, so the test of the ratios as measured (a tenth of alpha) decides it';
      return { reason: `${head}: ${why}, and ${kept} rounds cannot take its p below ${floor.toPrecision(2)}; ${moreRoundsHint(need - kept)} (a larger --budget or compare.budget)`, moreRounds: need - kept };
    }
  }
  return { reason: `${head} in the family yet; ${moreRoundsHint(kept)}`, moreRounds: kept };
}

/** The family step: Benjamini-Hochberg at alpha over the tested metrics' p-values, then each one's verdict (in place). */
export function decideFamily(family, alpha) {
  const discovered = benjaminiHochberg(family.map((s) => s.p), alpha);
  family.forEach((s, i) => Object.assign(s, { discovery: discovered[i] }, decide({ ...s, alpha }, discovered[i])));
  return family;
}

/**
 * Default: no round is left out for other work (Infinity); the differences are adjusted for it instead. With
 * compare.maxOtherGap set, a round whose two trials saw other work differ by more than that many cores is left out.
 */
export const MAX_OTHER_GAP = Infinity;

/**
 * Per round, whether other work on the machine (`load[].other`, in cores) differed between its base and head trial
 * by more than maxGap: one side ran beside a neighbour's burst and the other did not.
 */
export function disturbedRounds(baseLoad, headLoad, maxGap = MAX_OTHER_GAP) {
  if (!baseLoad || !headLoad || !(maxGap >= 0) || maxGap === Infinity) return [];
  return baseLoad.map((b, i) => Boolean(b && headLoad[i] && Math.abs(b.other - headLoad[i].other) > maxGap));
}

/**
 * Documents of two runs cannot be paired, so nothing takes the machine's other work out of their change: a neighbour
 * busy through one run and not the other reads as a change of the code. Measured here: a CLI timed by hyperfine while
 * other processes used a median of 1.3 cores (of 2) took 140 ms; the same code in a later run beside 0.2 cores took
 * 83 ms, and the slower commit after it 91 ms, which two runs called a 35% improvement. When the medians of the two
 * sides' other work (load[].other) differ by more than this many cores (or compare.maxOtherGap, when set), an unpaired
 * comparison gives no verdict.
 */
const UNPAIRED_OTHER_GAP = 0.5;

/** Why documents of two runs are not judged because other work on the machine differed between them, or null. */
function busierRun(baseDoc, headDoc, maxGap = UNPAIRED_OTHER_GAP) {
  const others = (doc) => (Array.isArray(doc.load) ? doc.load.map((l) => l?.other).filter(Number.isFinite) : []);
  const b = others(baseDoc);
  const h = others(headDoc);
  if (!b.length || !h.length) return null;
  const [mb, mh] = [median(b), median(h)];
  if (!(Math.abs(mh - mb) > maxGap)) return null;
  return `base and head come from two runs, and other processes on the machine used a median of ${mb.toFixed(2)} cores during base's trials and ${mh.toFixed(2)} during head's (more than ${maxGap} apart), so the change may be that work's and not the code's; not judged: measure both in one run (--base), whose paired rounds share the machine's state`;
}

/** Per round, head's other-work cores minus base's, or [] when a side has no CPU accounting. */
export function otherWorkGap(baseLoad, headLoad) {
  if (!baseLoad || !headLoad || baseLoad.length !== headLoad.length || baseLoad.some((l, i) => !l || !headLoad[i])) return [];
  return baseLoad.map((b, i) => headLoad[i].other - b.other);
}

/** Statistics of one metric, before the family decides: the paired or unpaired test, or why none applies. */
export function metricStats(bm, hm, { paired, sequential, disturbed, otherGap, cfg, seed, own }) {
  const base = { value: median(bm.samples), n: bm.samples.length };
  const head = { value: median(hm.samples), n: hm.samples.length };
  const minEffect = minEffectFor(hm.name, cfg, own);
  const method = paired && bm.samples.length === hm.samples.length ? 'paired' : 'unpaired';
  const out = { base, head, minEffect, better: hm.better, method, change: base.value ? relativeRatio(head.value, base.value) - 1 : null, lower: null, upper: null, p: null };
  if (base.n < MIN_TRIALS || head.n < MIN_TRIALS) return { ...out, verdict: 'inconclusive', reason: 'too few trials', final: true };
  const calm = (disturbed || []).filter((x) => !x).length;
  if (paired && disturbed?.length && calm < MIN_TRIALS) return { ...out, verdict: 'inconclusive', reason: `${disturbed.length - calm} of ${disturbed.length} rounds were disturbed by other work on the machine (compare.maxOtherGap); too few calm rounds`, final: true };
  // the coarser side's step: a value the tool prints in whole milliseconds is known to a millisecond
  const resolution = Math.max(hm.resolution || 0, bm.resolution || 0);
  const belowResolution = { verdict: 'below resolution', reason: `the change is no larger than the tool's resolution (${formatValue(resolution, hm.unit)}), which rounding alone can make; it cannot be judged`, final: true };
  const all = [...bm.samples, ...hm.samples];
  if (all.every((x) => x === 0)) {
    // a count of zero is exact; a time of 0 is anything under what the tool tells apart on either side, also for a tool
    // that gives no step (hyperfine writes 0 for a run quicker than the shell start-up it subtracts)
    const zero = { ...out, change: 0, lower: 0, upper: 0, p: 1, absolute: 0 };
    if (resolution) return { ...zero, ...belowResolution };
    if (hm.unit === 'ns') return { ...zero, ...belowResolution, reason: "a time of 0 on every trial of both sides, which is anything under what the tool can tell apart; it cannot be judged" };
    return { ...zero, verdict: 'no change', reason: 'zero on every trial of both sides', final: true };
  }
  const s = method === 'paired'
    ? pairedStats(bm.samples, hm.samples, { alpha: cfg.alpha, sequential, disturbed, otherGap })
    : unpairedStats(bm.samples, hm.samples, { alpha: cfg.alpha, confidence: cfg.confidence, seed });
  // which way head leans, for a zero base whose change may be estimated at 0 (see decide)
  if (!base.value) s.lean = leanOf(bm.samples, hm.samples, method === 'paired' ? disturbed || [] : null);
  // Rounding moves each side by up to a step, so a difference of one step (3 ms in every base round, 4 ms in every
  // head round) may be 3.49 against 3.50 ms: a change up to the resolution is not told apart from none.
  const withinStep = (x) => Math.abs(x) <= resolution * (1 + 1e-9);
  if (resolution && withinStep(s.absolute) && withinStep(head.value - base.value)) return { ...out, ...s, ...belowResolution };
  return { ...out, ...s };
}

/**
 * Which way head leans from base by ranks, as -1, 0 or 1: paired (`disturbed` given), the signed ranks of the kept
 * rounds' differences (W+ against its mean); unpaired (null), Mann-Whitney's U of head against its mean. The side the
 * tests found when the estimate of the change is 0.
 */
function leanOf(base, head, disturbed) {
  if (disturbed) {
    const d = base.map((b, i) => head[i] - b).filter((_, i) => !disturbed[i]);
    const { w, n } = signedRankTest(d);
    return Math.sign(w - (n * (n + 1)) / 4);
  }
  return Math.sign(mannWhitney(head, base).u - (head.length * base.length) / 2) || 0;
}

/**
 * Why a job's comparison cannot show that nothing changed, or null: its load tool used (nearly) all the cores it may
 * use (median trial) on either side, so both sides may have measured the tool's ceiling (cpuset.js toolSaturation).
 */
function cappedBy(baseDoc, headDoc) {
  for (const [side, doc] of [['base', baseDoc], ['head', headDoc]]) {
    const why = bottleneck(doc);
    if (why) return `the load tool was the bottleneck (${side}: ${why}, median trial)`;
  }
  return null;
}

/** Documents indexed by job key; two documents for one job on one side is a caller error. */
function indexDocs(docs, side) {
  const map = new Map();
  for (const d of docs) {
    const key = jobKey(d);
    if (map.has(key)) throw new UserError(`two ${side} result documents for job ${key}; compare one run per side (pass a run folder or one file per job)`);
    map.set(key, d);
  }
  return map;
}

const identity = (doc) => ({ suite: doc.suite, subject: doc.subject, variant: doc.variant, tool: doc.tool?.name ?? doc.tool, scenario: doc.scenario });

/**
 * Why base and head cannot be judged against each other because their jobs ran with other params (documents of two runs
 * whose configs differ: 10 connections against 50 measure different loads), or null when the params agree (or a side
 * does not record them). Names each differing param as base → head.
 */
function paramsApart(baseDoc, headDoc) {
  const b = baseDoc.params;
  const h = headDoc.params;
  if (!b || !h || typeof b !== 'object' || typeof h !== 'object') return null;
  const shown = (v) => (v === undefined ? '(unset)' : JSON.stringify(v));
  const keys = [...new Set([...Object.keys(b), ...Object.keys(h)])].sort();
  const differ = keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(h[k]));
  if (!differ.length) return null;
  const list = differ.slice(0, 6).map((k) => `${k} ${shown(b[k])} → ${shown(h[k])}`).join(', ');
  return `base and head ran the job with different params (${list}${differ.length > 6 ? `, and ${differ.length - 6} more` : ''}), so they measured different things and a change between them says nothing about the code; not judged: compare runs of one configuration`;
}

/**
 * Why a metric's values cannot be judged because they come from within fewer than MIN_TRIALS trials a side (a JMH job of
 * one trial holds its iterations, a hyperfine trial its runs), or null. Those values share their trial's process and its
 * moment on the machine: forks of one JVM launch that differ by a few percent, or a machine that drifted between the base
 * block and the head block, would read as a change (A/A runs of 3 forks x 10 iterations a side were flagged in about a
 * third of simulated runs). Only whole trials, run in rounds, can tell a change from that.
 */
function withinTrials(baseDoc, headDoc, bm, hm) {
  const trials = Math.min(baseDoc.trials, headDoc.trials);
  if (!(trials < MIN_TRIALS) || (bm.samples.length <= baseDoc.trials && hm.samples.length <= headDoc.trials)) return null;
  const tool = headDoc.tool?.name ?? headDoc.tool;
  return `too few trials: ${trials === 1 ? 'one trial' : `${trials} trials`} a side, whose ${bm.samples.length} and ${hm.samples.length} values are ${tool}'s own iterations or runs within ${trials === 1 ? 'it' : 'them'}, sharing one process and one moment on the machine, so they cannot tell a change from that trial's luck or the machine's drift; for a verdict, leave trials: out of the job so an A/B run adds rounds until they decide`;
}

/** Metrics that count failures: when one rises, the job's improvements may be failures answering fast. */
const FAILURE_METRICS = Object.freeze(['errors', 'error_rate', 'checks_pass_rate']);

/**
 * How a comparison shows that failures rose, or undefined: a failure metric judged a regression, or one that failed on
 * head where base never did (every base trial at none: no errors, every check passing) and is not decided as no change,
 * judged or not (errors in 4 of 12 head rounds are not yet a discovery, and a job may judge no failure metric at all).
 */
function failuresRose(c, base = [], head = []) {
  if (!FAILURE_METRICS.includes(c.metric)) return undefined;
  if (c.judged && c.verdict === 'regression') return `its ${c.metric} regressed`;
  if (c.verdict === 'no change' || c.verdict === 'improvement') return undefined;
  const clean = c.better === 'higher' ? 1 : 0;
  const failed = head.filter((x) => x !== clean).length;
  if (!base.length || base.some((x) => x !== clean) || !failed) return undefined;
  return `its ${c.metric} went from ${formatValue(clean, c.unit)} in every base trial to ${clean ? 'less' : 'more'} in ${failed} of ${head.length} head trials${c.judged ? '' : ', though it is not judged'}`;
}
const failureScope = (c) => `${c.suite}/${c.variant}/${c.tool}/${c.scenario}::${c.case ?? ''}`;

/**
 * Whether a comparison's failure metric shows that one side failed in everything it did, in every trial: an error rate
 * of 1, or a hyperfine case whose every run exited non-zero (kept by ignoreFailure: a command the base checkout does
 * not have yet). `samples` are that side's values, `doc` its result document.
 */
function failedThroughout(c, samples, doc) {
  if (!samples?.length) return false;
  if (c.metric === 'error_rate') return samples.every((x) => x >= 1);
  if (c.metric !== 'errors' || c.tool !== 'hyperfine') return false;
  const runs = Number(doc?.params?.runs ?? 10);
  return runs > 0 && samples.every((x) => x >= runs);
}

/**
 * Why a metric of a head document gets no verdict, for a metric isJudged (or the comparison's setBy/guessed) leaves out:
 * a value the load set, a direction only guessed or a trial's extreme that the judge list names, a restated run
 * parameter, a GC figure summed over the measurement time, else not one of the job's judged metrics. Pure.
 */
function notJudgedReason(headDoc, name, { setBy, guessed, tail } = {}) {
  const listed = () => judgedNames(headDoc).some((p) => matches(p, name));
  if (tail && listed() && name.startsWith('latency.')) return `the slowest request of a trial of ${tail.fewest} requests (a ${name.slice('latency.'.length)} of ${tail.need} or fewer has none above it), which one pause or outlier sets: shown, never judged; longer trials or a higher rate give it requests above it`;
  if (tail && listed()) return `the slowest sample of a trial of ${+tail.fewest.toFixed(1)} samples (a ${/\.(p[\d.]+)$/.exec(name)[1]} of ${tail.need} or fewer has none above it), which one pause or outlier sets: shown, never judged; more samples a trial give it samples above it`;
  if (setBy) return `set by the load, not the subject (${setBy}): shown, never judged; a slower subject shows in its latency`;
  if (guessed && listed()) return `which way is better is not known (${guessed}): shown, never judged; the job's better param (such as better: "${name.split('.')[0]}=lower") says it`;
  // at most 120 characters: the PR comment's "why no verdict" column shows it whole
  if (RESTATED.includes(name)) return 'restates a run parameter (the count or duration the job set, and what its throughput makes of it): shown, never judged';
  if (PER_MEASUREMENT_TIME.includes(name)) return 'summed over the measurement time, so a faster benchmark shows more of it for the same allocation: shown, never judged (alloc_per_op is the allocation per operation)';
  if (isExtreme(name) && listed()) return 'a single value of each trial (its slowest or fastest), which one pause or outlier sets: shown, never judged';
  return 'information only: not one of this job\'s judged metrics';
}

/** Base and head ran in rounds of one run: the same run id and as many trials on each side. */
const pairedDocs = (b, h) => b.run?.id && b.run.id === h.run?.id && b.trials === h.trials && b.trials >= 2;

/**
 * Compares every metric present on both sides. Returns { comparisons, counts, family, unmatched }, where
 * unmatched lists jobs and metrics found on one side only (new or removed benchmarks), counts covers judged
 * metrics only, and family says how many were judged together and at which alpha.
 */
export function compare(baseDocs, headDocs, compareConfig = {}, { seed = 1 } = {}) {
  const cfg = { ...COMPARE_DEFAULTS, ...compareConfig };
  const bases = indexDocs(baseDocs, 'base');
  const heads = indexDocs(headDocs, 'head');
  const comparisons = [];
  const unmatched = [];
  // each comparison's trial values and documents by side, for the failure checks below (not kept in the comparisons)
  const sides = new Map();
  for (const [key, headDoc] of heads) {
    const baseDoc = bases.get(key);
    if (!baseDoc) {
      unmatched.push({ side: 'head', ...identity(headDoc), reason: 'job has no base result' });
      continue;
    }
    const paired = pairedDocs(baseDoc, headDoc);
    // A duet side's figures are what it did beside its partner in the same run: only its own run's other side compares.
    const duetApart = (baseDoc.duet || headDoc.duet) && !(paired && baseDoc.duet && headDoc.duet)
      ? `${headDoc.duet ? 'head' : 'base'} ran as a duet (beside the other side of its own run, about half of a run alone) and the two documents are not one duet run: compare a duet only with its own run's other side`
      : null;
    // a job configured differently on each side (two runs of different configs) measured something else: no verdict
    const otherParams = paramsApart(baseDoc, headDoc);
    const apart = duetApart || otherParams || (paired ? null : busierRun(baseDoc, headDoc, cfg.maxOtherGap ?? UNPAIRED_OTHER_GAP));
    const disturbed = paired ? disturbedRounds(baseDoc.load, headDoc.load, cfg.maxOtherGap ?? MAX_OTHER_GAP) : [];
    const otherGap = paired ? otherWorkGap(baseDoc.load, headDoc.load) : [];
    const capped = cappedBy(baseDoc, headDoc);
    const baseMetrics = new Map(baseDoc.metrics.map((m) => [metricKey(m), m]));
    const seen = new Set();
    for (const hm of headDoc.metrics) {
      const mk = metricKey(hm);
      seen.add(mk);
      const bm = baseMetrics.get(mk);
      if (!bm) {
        unmatched.push({ side: 'head', ...identity(headDoc), ...(hm.case ? { case: hm.case } : {}), metric: hm.name, ...(isJudged(headDoc, hm.name) ? { judged: true } : {}), reason: 'metric has no base value' });
        continue;
      }
      // which way is better, and in what unit, must be one thing on both sides: a metric read as lower-is-better on one
      // side and higher on the other would turn a regression into an improvement
      if (bm.unit !== hm.unit || bm.better !== hm.better) {
        const side = (m) => `${m.unit}, ${m.better} is better`;
        unmatched.push({ side: 'head', ...identity(headDoc), ...(hm.case ? { case: hm.case } : {}), metric: hm.name, disagrees: true, reason: `base and head disagree on the metric (base: ${side(bm)}; head: ${side(hm)}), so it is not compared; measure both sides with the same benchline version` });
        continue;
      }
      // a value the load set (ghz paced at --rps) says nothing of the subject, whatever the judge list says
      const setBy = hm.setBy || bm.setBy;
      // a direction taken by a rule, not known from what the metric counts, cannot tell a regression from an improvement
      const guessed = hm.guessed || bm.guessed;
      // a percentile that some trial's few requests leave at its slowest one is that trial's max in all but name
      const tail = slowestOnly(hm.name, [...sampleCounts(baseDoc, hm.name), ...sampleCounts(headDoc, hm.name)]);
      const judged = !setBy && !guessed && !tail && isJudged(headDoc, hm.name);
      const own = headDoc.minEffect;
      // why this metric gets no verdict whatever its values: the sides measured other things, or too few trials
      const unjudgeable = apart || withinTrials(baseDoc, headDoc, bm, hm);
      const stats = unjudgeable ? { ...metricStats(bm, hm, { paired: false, cfg, seed, own }), verdict: 'inconclusive', reason: unjudgeable, final: true } : metricStats(bm, hm, { paired, sequential: headDoc.sequential, disturbed, otherGap, cfg, seed, own });
      const entry = { ...identity(headDoc), ...(hm.case ? { case: hm.case } : {}), metric: hm.name, unit: hm.unit, better: hm.better, judged, ...(headDoc.duet && !duetApart ? { duet: true } : {}), ...(otherParams ? { paramsDiffer: true } : {}), ...stats };
      if (!judged) Object.assign(entry, { verdict: null, reason: notJudgedReason(headDoc, hm.name, { setBy, guessed, tail }) });
      else if (capped && !stats.final) entry.capped = capped;
      comparisons.push(entry);
      sides.set(entry, { base: { samples: bm.samples, doc: baseDoc }, head: { samples: hm.samples, doc: headDoc } });
    }
    for (const [mk, bm] of baseMetrics) {
      // a judged metric head lost (every request of a trial failed, so its latencies were left out) is said as such
      if (!seen.has(mk)) unmatched.push({ side: 'base', ...identity(baseDoc), ...(bm.case ? { case: bm.case } : {}), metric: bm.name, ...(isJudged(headDoc, bm.name) ? { judged: true } : {}), reason: 'metric has no head value' });
    }
  }
  for (const [key, baseDoc] of bases) {
    if (!heads.has(key)) unmatched.push({ side: 'base', ...identity(baseDoc), reason: 'job has no head result' });
  }
  // The family: judged metrics with a test. Benjamini-Hochberg over their p-values decides the discoveries.
  const family = decideFamily(comparisons.filter((c) => c.judged && !c.final), cfg.alpha);
  for (const c of comparisons) {
    // both sides may have sat at the load tool's ceiling: a real difference would not show, so no "no change"
    if (c.capped && c.verdict === 'no change') Object.assign(c, { verdict: 'inconclusive', reason: `${c.capped}: both sides may sit at its ceiling, so "no change" cannot be told; give the load tool more cores or less load (${c.reason})` });
    delete c.final;
    delete c.atLook;
    delete c.lean;
  }
  // A job (or case) whose failures rose: its "faster" or "higher" figures may be failed requests or runs answering at
  // once (an error page, a command that exits at start), so no improvement of it stands; its regressions do.
  const failing = new Map();
  // a failure metric judged a regression names the rise first, then one whose failures appeared on head
  const rises = comparisons.map((c) => ({ c, why: failuresRose(c, sides.get(c)?.base.samples, sides.get(c)?.head.samples) })).filter((x) => x.why);
  for (const { c, why } of [...rises.filter((x) => x.c.verdict === 'regression'), ...rises]) if (!failing.has(failureScope(c))) failing.set(failureScope(c), why);
  for (const c of comparisons) {
    const rose = failing.get(failureScope(c)) ?? failing.get(failureScope({ ...c, case: undefined }));
    if (c.verdict === 'improvement' && rose) Object.assign(c, { verdict: 'inconclusive', reason: `failures rose in this job (${rose}), so this better figure may come from failed requests or runs that end at once; not an improvement (${c.reason})` });
  }
  // A side that failed in everything it did measured failures (error answers, a command that is not there), not what
  // the other side ran: the job's (or case's) other figures get no verdict, whichever way they point.
  const failedSide = new Map();
  for (const c of comparisons) {
    for (const side of ['base', 'head']) {
      const { samples, doc } = sides.get(c)?.[side] ?? {};
      if (!failedSide.has(failureScope(c)) && failedThroughout(c, samples, doc)) failedSide.set(failureScope(c), `every ${side} ${c.metric === 'errors' ? 'run exited non-zero' : 'request failed'}, in every trial`);
    }
  }
  for (const c of comparisons) {
    const failed = failedSide.get(failureScope(c)) ?? failedSide.get(failureScope({ ...c, case: undefined }));
    if (failed && c.judged && !FAILURE_METRICS.includes(c.metric) && c.verdict) Object.assign(c, { verdict: 'inconclusive', reason: `one side failed throughout (${failed}), so its figures are of failures, not of what the other side ran; not judged` });
  }
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
  for (const c of comparisons) if (c.judged && counts[c.verdict] !== undefined) counts[c.verdict] += 1;
  return { comparisons, counts, family: { size: family.length, alpha: cfg.alpha, method: 'Benjamini-Hochberg' }, unmatched };
}

/**
 * For the runner, at a look: the judged metrics of one job that are not decided yet, from its parsed trials so far
 * (one per round and side), as [{ key, futile }] (futile: cannotSettle by the plan's last look). A metric counts as
 * decided when it would be a regression, an improvement, no change or below resolution if the run ended now;
 * significance is taken at alpha / the family's size, at which a final Benjamini-Hochberg test counts it a discovery
 * whatever the other metrics show, so a job stopped as decided keeps its verdicts. The size: `familySize` (every
 * judged metric the run plans) with this job's `planned` share replaced by what it would bring to the family if it
 * stopped now: its judged metrics that have a test (one per case of a JMH or hyperfine job; not those zero on every
 * trial, nor others the comparison settles without a test, which the final family leaves out).
 */
export function undecided(baseTrials, headTrials, { tool, judge, minEffect, sequential, cfg, familySize = 1, planned = familySize }) {
  const job = { tool, judge };
  const values = (trials) => {
    const map = new Map();
    trials.forEach((t, i) => {
      for (const m of t.metrics) {
        if (m.setBy || m.guessed || !isJudged(job, m.name) || slowestOnly(m.name, [...baseTrials, ...headTrials].flatMap((x) => sampleCounts(x, m.name)))) continue;
        const key = metricKey(m);
        if (!map.has(key)) map.set(key, { m, samples: new Array(trials.length).fill(undefined) });
        map.get(key).samples[i] = m.value;
      }
    });
    return map;
  };
  const bases = values(baseTrials);
  const full = { ...COMPARE_DEFAULTS, ...cfg };
  const disturbed = disturbedRounds(baseTrials.map((t) => t.load), headTrials.map((t) => t.load), full.maxOtherGap ?? MAX_OTHER_GAP);
  const otherGap = otherWorkGap(baseTrials.map((t) => t.load), headTrials.map((t) => t.load));
  const stats = [];
  for (const [key, { m, samples }] of values(headTrials)) {
    const b = bases.get(key);
    if (!b || [...samples, ...b.samples].includes(undefined)) continue;
    stats.push({ key, samples, s: metricStats({ ...b.m, samples: b.samples }, { ...m, samples }, { paired: true, sequential, disturbed, otherGap, cfg: full, own: minEffect }) });
  }
  const size = Math.max(1, familySize - planned + stats.filter(({ s }) => !s.final).length);
  const open = [];
  for (const { key, samples, s } of stats) {
    const verdict = s.verdict || decide({ ...s, alpha: full.alpha }, s.p <= full.alpha / size).verdict;
    // the last look's level: what the runner's planned last look spends (all alpha when the plan has one look)
    const finalLevel = 1 - full.alpha * (sequential?.weights?.length ? sequential.weights.at(-1) : 1);
    if (verdict === 'inconclusive') open.push({ key, futile: !s.final && cannotSettle(s, samples.length, sequential?.looks?.at(-1), finalLevel) });
  }
  return open;
}

/** Beyond this many more rounds a hint says "too noisy here" instead of a count nobody would run. */
const MAX_MORE_ROUNDS = 200;

/** The clause a reason ends with: about how many more rounds would likely do `what`, or that it is too noisy here. */
export function moreRoundsHint(more, what = 'settle it') {
  if (more > MAX_MORE_ROUNDS) return `more than ${MAX_MORE_ROUNDS} more rounds would be needed: too noisy here`;
  return `about ${more} more round${more === 1 ? '' : 's'} would likely ${what}`;
}

/** How much wider than it needs to be a projected interval must stay before a metric counts as unable to settle. */
const FUTILITY_MARGIN = 1.25;

/**
 * Whether an undecided paired metric after n rounds could not settle by `max` rounds even if its interval narrowed as
 * 1/sqrt(rounds): at max rounds it would still be wider (by FUTILITY_MARGIN) than both what a discovery needs (to
 * exclude 0: |change|) and what "no change" needs (to fit inside ±minEffect: minEffect - |change|). `finalLevel` is
 * the discovery interval's level at the last look (1 - alpha x its weight): a later look spends more alpha, so its
 * intervals are narrower than this look's by the ratio of their normal quantiles as well (at looks 8/16/32 with
 * weights ¼ ¼ ½, 2.24 to 1.96 for the equivalence interval). A lane whose open metrics all cannot settle stops at
 * that look (runner.js): the rounds would end inconclusive anyway, and the budget goes to lanes that can decide.
 * Stopping for futility never adds a discovery, and going on only takes the planned looks, so the error rates stay
 * as they are either way.
 */
export function cannotSettle(s, n, max, finalLevel = s.level) {
  const eq = s.equivalence ?? s;
  if (!(max > n) || ![s.lower, s.upper, eq.lower, eq.upper, s.change].every(Number.isFinite)) return false;
  const shrink = Math.sqrt(n / max);
  const size = Math.abs(s.change);
  // how much narrower an interval at level `then` is than one at `now`, for the same spread (1 when unknown)
  const z = (level) => probit(1 - (1 - level) / 2);
  const narrower = (now, then) => (now > 0 && now < 1 && then > 0 && then < 1 ? z(then) / z(now) : 1);
  const discovery = ((s.upper - s.lower) / 2) * shrink * narrower(s.level, finalLevel); // must come within |change| to exclude 0
  const equivalence = ((eq.upper - eq.lower) / 2) * shrink * narrower(eq.level ?? s.level, equivalenceLevel(finalLevel ?? s.level)); // within minEffect - |change|
  return discovery > FUTILITY_MARGIN * size && equivalence > FUTILITY_MARGIN * (s.minEffect - size);
}

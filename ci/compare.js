// Head-vs-base comparison: matches result documents by job and metric and gives each metric a verdict.
//
// The rule, per metric (samples = one value per trial on each side):
//   ratio    = median(head) / median(base); change = ratio - 1; lower/upper = a seeded percentile
//              bootstrap interval of that ratio at compare.confidence, minus 1.
//   p        = two-sided Mann-Whitney U test of head vs base samples.
//   minEffect: compare.metrics[name] (exact), else the most specific matching `*` glob (the one
//              with the most literal characters), else compare.minEffect.
//   significant = p < alpha AND the interval excludes 0 (both tests must agree, so neither a
//              lucky rank order nor a lucky resample decides alone).
//   significant and |change| >= minEffect        -> 'regression' or 'improvement' (sign read
//                                                   through the metric's `better`)
//   significant and |change| <  minEffect        -> 'no change' (real but too small to matter)
//   not significant, interval inside ±minEffect  -> 'no change' (any effect is provably small)
//   otherwise                                    -> 'inconclusive' (the interval is wider than
//                                                   the effect we care about: too noisy)
//   fewer than 3 trials on either side           -> 'inconclusive', reason 'too few trials'
//                                                   (a bootstrap of 1 or 2 points says nothing).
//                                                   Even 3 + 3 cannot reach p < 0.05 (the exact
//                                                   Mann-Whitney minimum is 0.1), so 3 trials can show
//                                                   'no change' or 'inconclusive' only; 4+ a side can flag.
// A zero base median has no relative change: both zero is 'no change'; zero to non-zero (errors
// appearing) is judged on p alone, since any change from zero exceeds every minEffect.
import { metricKey } from './metrics.js';
import { bootstrapInterval, mannWhitney, median } from './stats.js';
import { UserError } from './errors.js';

export const VERDICTS = Object.freeze(['regression', 'improvement', 'inconclusive', 'no change']);
export const MIN_TRIALS = 3;

const DEFAULTS = { confidence: 0.95, alpha: 0.05, minEffect: 0.03, metrics: {} };

/** Identity of a job across runs: suite/variant/tool/scenario. */
export const jobKey = (doc) => `${doc.suite}/${doc.variant}/${doc.tool?.name ?? doc.tool}/${doc.scenario}`;

const globToRegExp = (glob) => new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/**
 * The smallest relative change that counts for a metric name: an exact entry, else the matching
 * glob with the most literal characters (ties: fewer stars, then the one listed first), else the default.
 */
export function minEffectFor(name, compareConfig = {}) {
  const table = compareConfig.metrics || {};
  const fallback = compareConfig.minEffect ?? DEFAULTS.minEffect;
  if (Object.hasOwn(table, name)) return table[name];
  let best;
  for (const [pattern, value] of Object.entries(table)) {
    if (!pattern.includes('*') || !globToRegExp(pattern).test(name)) continue;
    const literal = pattern.replace(/\*/g, '').length;
    const stars = pattern.length - literal;
    if (!best || literal > best.literal || (literal === best.literal && stars < best.stars)) best = { literal, stars, value };
  }
  return best ? best.value : fallback;
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** Direction word for a change of this sign on a metric where `better` is lower or higher. */
const directional = (change, better) => ((change > 0) === (better === 'higher') ? 'improvement' : 'regression');

/** Verdict for one metric from its base and head samples; pure and deterministic for a seed. */
export function judge(baseSamples, headSamples, { better, minEffect, confidence, alpha, seed = 1 }) {
  const base = { value: median(baseSamples), n: baseSamples.length };
  const head = { value: median(headSamples), n: headSamples.length };
  const out = { base, head, change: null, lower: null, upper: null, p: null, minEffect };
  if (base.value !== 0) out.change = head.value / base.value - 1;
  if (base.n < MIN_TRIALS || head.n < MIN_TRIALS) {
    return { ...out, verdict: 'inconclusive', reason: 'too few trials' };
  }
  out.p = mannWhitney(headSamples, baseSamples).p;
  if (base.value === 0) {
    if (head.value === 0) return { ...out, change: 0, verdict: 'no change', reason: 'both medians are zero' };
    if (out.p < alpha) {
      return { ...out, verdict: directional(head.value, better), reason: `base median is zero, head is not (p=${out.p.toPrecision(2)} < ${alpha})` };
    }
    return { ...out, verdict: 'inconclusive', reason: `base median is zero and p=${out.p.toPrecision(2)} ≥ ${alpha}` };
  }
  const ci = bootstrapInterval({ a: headSamples, b: baseSamples, stat: (h, b) => median(h) / median(b), confidence, seed });
  out.lower = ci.lower - 1;
  out.upper = ci.upper - 1;
  const excludesZero = out.lower > 0 || out.upper < 0;
  const significant = out.p < alpha && excludesZero;
  const interval = `${pct(out.lower)}..${pct(out.upper)}`;
  const size = Math.abs(out.change);
  if (significant && size >= minEffect) {
    return { ...out, verdict: directional(out.change, better), reason: `p=${out.p.toPrecision(2)} < ${alpha}, interval ${interval} excludes 0, |change| ≥ ${pct(minEffect).slice(1)}` };
  }
  if (significant) {
    return { ...out, verdict: 'no change', reason: `significant (p=${out.p.toPrecision(2)}) but |change| < ${pct(minEffect).slice(1)}` };
  }
  if (out.lower >= -minEffect && out.upper <= minEffect) {
    return { ...out, verdict: 'no change', reason: `interval ${interval} within ±${pct(minEffect).slice(1)}` };
  }
  return { ...out, verdict: 'inconclusive', reason: `too noisy: interval ${interval} is wider than ±${pct(minEffect).slice(1)} (p=${out.p.toPrecision(2)})` };
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
 * Compares every metric present on both sides. Returns { comparisons, counts, unmatched }, where
 * unmatched lists jobs and metrics found on one side only (new or removed benchmarks).
 */
export function compare(baseDocs, headDocs, compareConfig = {}, { seed = 1 } = {}) {
  const cfg = { ...DEFAULTS, ...compareConfig };
  const bases = indexDocs(baseDocs, 'base');
  const heads = indexDocs(headDocs, 'head');
  const comparisons = [];
  const unmatched = [];
  for (const [key, headDoc] of heads) {
    const baseDoc = bases.get(key);
    if (!baseDoc) {
      unmatched.push({ side: 'head', ...identity(headDoc), reason: 'job has no base result' });
      continue;
    }
    const baseMetrics = new Map(baseDoc.metrics.map((m) => [metricKey(m), m]));
    const seen = new Set();
    for (const hm of headDoc.metrics) {
      const mk = metricKey(hm);
      seen.add(mk);
      const bm = baseMetrics.get(mk);
      if (!bm) {
        unmatched.push({ side: 'head', ...identity(headDoc), ...(hm.case ? { case: hm.case } : {}), metric: hm.name, reason: 'metric has no base value' });
        continue;
      }
      const minEffect = minEffectFor(hm.name, cfg);
      const result = judge(bm.samples, hm.samples, { better: hm.better, minEffect, confidence: cfg.confidence, alpha: cfg.alpha, seed });
      comparisons.push({
        ...identity(headDoc),
        ...(hm.case ? { case: hm.case } : {}),
        metric: hm.name,
        unit: hm.unit,
        better: hm.better,
        ...result,
      });
    }
    for (const [mk, bm] of baseMetrics) {
      if (!seen.has(mk)) unmatched.push({ side: 'base', ...identity(baseDoc), ...(bm.case ? { case: bm.case } : {}), metric: bm.name, reason: 'metric has no head value' });
    }
  }
  for (const [key, baseDoc] of bases) {
    if (!heads.has(key)) unmatched.push({ side: 'base', ...identity(baseDoc), reason: 'job has no head result' });
  }
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
  for (const c of comparisons) counts[c.verdict] += 1;
  return { comparisons, counts, unmatched };
}

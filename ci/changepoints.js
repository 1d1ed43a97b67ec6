// Change points in a metric's history: a faithful port of Apache Otava 0.8's windowed E-divisive (split, then merge).
// Ported rather than called so that the site build needs no Python and stays fast; test/changepoints.test.js
// checks it against otava's own output on shared series (test/fixtures/otava/).
import { cdf as tCdf, quantile as tQuantile } from './t-dist.js';

export const DEFAULTS = Object.freeze({ window: 50, maxPValue: 0.001, minMagnitude: 0, minSegment: 1, recheck: false, prune: true });

const mean = (xs, from, to) => {
  let s = 0;
  for (let i = from; i < to; i += 1) s += xs[i];
  return s / (to - from);
};

/** Population standard deviation (numpy's np.std), as otava feeds it to the t-test. */
const std = (xs, from, to, m) => {
  let s = 0;
  for (let i = from; i < to; i += 1) s += (xs[i] - m) ** 2;
  return Math.sqrt(s / (to - from));
};

/**
 * Mean and population standard deviation of a segment xs[a..b). While changePointsResumable works on a series, those
 * tTest asks for are remembered (computed the same way, so the results are the same): the merge steps weigh every
 * change point against its neighbours' segments, so each segment is asked for again and again.
 */
const segments = { xs: null, stats: new Map() };
const rememberSegments = (xs) => {
  segments.xs = xs;
  segments.stats.clear();
};
function plainStats(xs, a, b) {
  const m = mean(xs, a, b);
  return { m, s: b - a >= 2 ? std(xs, a, b, m) : 0 };
}
// a segment's key among those remembered for xs
const segmentKey = (xs, a, b) => a * (xs.length + 1) + b;
function segmentStats(xs, a, b) {
  if (segments.xs !== xs) return plainStats(xs, a, b);
  const key = segmentKey(xs, a, b);
  let s = segments.stats.get(key);
  if (!s) {
    s = plainStats(xs, a, b);
    segments.stats.set(key, s);
  }
  return s;
}

/**
 * Remembers the stats of xs[a..c) from those of xs[a..b) and xs[b..c) when both are remembered (Chan et al.'s pairwise
 * update, exact to a few units in the last place), as the merge steps join two segments: without it every join would
 * read the whole joined segment again, which on a year of hourly points was most of a rebuild's change point time.
 */
function joinSegments(xs, a, b, c) {
  if (segments.xs !== xs || a >= b || b >= c) return;
  const key = segmentKey(xs, a, c);
  if (segments.stats.has(key)) return;
  const left = segments.stats.get(segmentKey(xs, a, b));
  const right = segments.stats.get(segmentKey(xs, b, c));
  if (!left || !right) return;
  const n1 = b - a;
  const n2 = c - b;
  const n = n1 + n2;
  const delta = right.m - left.m;
  const m = left.m + (delta * n2) / n;
  // sums of squared deviations from each side's mean (population variance times count), then of the two together
  const m2 = left.s * left.s * n1 + right.s * right.s * n2 + (delta * delta * n1 * n2) / n;
  segments.stats.set(key, { m, s: Math.sqrt(m2 / n) });
}

/** Pooled-variance t statistic of xs[a..b) against xs[b..c), with the parts scipy's ttest_ind_from_stats uses. */
function tStatistic(xs, a, b, c, stats = plainStats) {
  const n1 = b - a;
  const n2 = c - b;
  if (n1 === 0 || n2 === 0) throw new Error('t-test needs two non-empty sides');
  const { m: m1, s: s1 } = stats(xs, a, b);
  const { m: m2, s: s2 } = stats(xs, b, c);
  const df = n1 + n2 - 2;
  let t = NaN;
  if (df > 0) {
    const pooled = ((n1 - 1) * s1 * s1 + (n2 - 1) * s2 * s2) / df;
    t = (m1 - m2) / Math.sqrt(pooled * (1 / n1 + 1 / n2));
  }
  return { m1, m2, s1, s2, df, t };
}

// the lower tail keeps precision where 1 - cdf would round to 0
const twoSided = (t, df) => (df > 0 ? (Number.isNaN(t) ? NaN : 2 * tCdf(-Math.abs(t), df)) : 1);

/**
 * Two-sided Student's t-test from summary statistics with pooled variance (scipy's ttest_ind_from_stats),
 * comparing xs[a..b) with xs[b..c). Returns otava's TTestStats fields.
 */
export function tTest(xs, a, b, c) {
  const { m1, m2, s1, s2, df, t } = tStatistic(xs, a, b, c, segmentStats);
  return { meanBefore: m1, meanAfter: m2, stddevBefore: s1, stddevAfter: s2, pvalue: twoSided(t, df) };
}

/** |t| at which the two-sided p-value reaches maxPValue, for df degrees of freedom, by bisection on twoSided. */
function bisectCritical(df, maxPValue) {
  let lo = 0;
  let hi = 1;
  while (twoSided(hi, df) > maxPValue && hi < 1e300) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > hi * 1e-15; i += 1) {
    const mid = (lo + hi) / 2;
    if (twoSided(mid, df) > maxPValue) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * |t| at which the two-sided p-value reaches maxPValue, per degrees of freedom, worked out once: Student's t quantile
 * of maxPValue / 2 (stdlib; the lower tail, which keeps its precision), held to twoSided: its callers judge a |t|
 * within a part in 10^9 of it by the p-value itself, so a quantile that does not fall between twoSided's crossing a
 * part in 10^10 either side (none found for df 1 to 5,000 and p-values from 1e-10 to 0.2) is found again by bisection.
 * A new process worked this out for each window size and power of two by bisection: 38 ms of a rebuild of 500 series.
 */
const criticalT = new Map(); // maxPValue -> df -> |t|
export function critical(df, maxPValue) {
  let byDf = criticalT.get(maxPValue);
  if (!byDf) criticalT.set(maxPValue, (byDf = new Map()));
  let tc = byDf.get(df);
  if (tc === undefined) {
    tc = -tQuantile(maxPValue / 2, df);
    if (!(twoSided(tc * (1 - 1e-10), df) > maxPValue && twoSided(tc * (1 + 1e-10), df) <= maxPValue)) tc = bisectCritical(df, maxPValue);
    byDf.set(df, tc);
  }
  return tc;
}

/**
 * Whether tTest(xs, a, b, c).pvalue <= maxPValue, decided as that would be: p falls as |t| grows, so |t| clearly
 * below or above the critical value settles it, and only |t| within a hair of it pays for the t distribution.
 * The window scan asks this tens of thousands of times per site build and needs no p-value otherwise.
 */
export function significant(xs, a, b, c, maxPValue) {
  const { df, t } = tStatistic(xs, a, b, c);
  if (df > 0 && !Number.isNaN(t) && maxPValue > 0 && maxPValue < 1) {
    const tc = critical(df, maxPValue);
    const at = Math.abs(t);
    if (at < tc * (1 - 1e-9)) return false;
    if (at > tc * (1 + 1e-9)) return true;
  }
  return twoSided(t, df) <= maxPValue;
}

const forward = (s) => (s.meanBefore === 0 ? 0 : s.meanAfter / s.meanBefore - 1);
const backward = (s) => (s.meanAfter === 0 ? 0 : s.meanBefore / s.meanAfter - 1);
const magnitude = (s) => Math.max(Math.abs(forward(s)), Math.abs(backward(s)));

/** Python's max/min with a key: the first element wins ties, and NaN never replaces the current best. */
const firstBy = (items, key, better) => items.reduce((best, x) => (better(key(x), key(best)) ? x : best));

/** Segments [from, to) between sorted change point indices, dropping empty ones (otava's get_intervals). */
function intervals(indices, n) {
  const out = [];
  for (let i = 0; i <= indices.length; i += 1) {
    const from = i === 0 ? 0 : indices[i - 1];
    const to = i === indices.length ? n : indices[i];
    if (from !== to) out.push([from, to]);
  }
  return out;
}

/** Scratch space for pairSums, reused across windows: a site build runs tens of thousands of them. */
let scratch = new Float64Array(0);

/**
 * Pairwise-distance prefix sums of the window xs[start..end): P[a*w + b] = sum of |x_i - x_j| for i < a, j < b
 * (window-relative, w = n + 1). Any Q(tau, kappa) of the E-divisive statistic is then a few O(1) block sums.
 * The returned array is scratch space, valid until the next call.
 */
function pairSums(xs, start, end) {
  const n = end - start;
  const w = n + 1;
  if (scratch.length < w * w) scratch = new Float64Array(w * w);
  const P = scratch;
  for (let j = 0; j < w; j += 1) P[j] = 0;
  for (let i = 1; i < w; i += 1) P[i * w] = 0;
  for (let i = 0; i < n; i += 1) {
    let row = 0;
    const xi = xs[start + i];
    const above = i * w + 1;
    const here = (i + 1) * w + 1;
    for (let j = 0; j < n; j += 1) {
      row += Math.abs(xi - xs[start + j]);
      P[here + j] = P[above + j] + row;
    }
  }
  return { P, w };
}

/**
 * The split of xs[from..to) that maximizes Q(tau, kappa) (Matteson and James' q-hat), scanning in numpy's
 * row-major argmax order so ties resolve as in otava. Block sums are inlined: this is the hot loop of a site build.
 */
function bestCandidate({ P, w }, from, to) {
  let bestQ = -Infinity;
  let bestTau = from + 1;
  const rowFrom = from * w;
  for (let tau = from + 1; tau < to; tau += 1) {
    const n = tau - from;
    const rowTau = tau * w;
    // within X = [from, tau): block(from, tau, from, tau) / 2
    const withinX = (P[rowTau + tau] - P[rowFrom + tau] - P[rowTau + from] + P[rowFrom + from]) / 2;
    for (let kappa = tau + 1; kappa <= to; kappa += 1) {
      const m = kappa - tau;
      const rowKappa = kappa * w;
      const cross = P[rowTau + kappa] - P[rowFrom + kappa] - P[rowTau + tau] + P[rowFrom + tau];
      const withinY = (P[rowKappa + kappa] - P[rowTau + kappa] - P[rowKappa + tau] + P[rowTau + tau]) / 2;
      let q = (2 / (m + n)) * cross;
      if (n > 1) q -= ((2 * m) / (m + n) / (n - 1)) * withinX;
      if (m > 1) q -= ((2 * n) / (m + n) / (m - 1)) * withinY;
      if (q > bestQ) {
        bestQ = q;
        bestTau = tau;
      }
    }
  }
  return { index: bestTau, qhat: bestQ };
}

/** Scratch space for anySignificantSplit: running mean and sum of squared deviations from the left. */
let leftMean = new Float64Array(0);
let leftM2 = new Float64Array(0);

/**
 * Whether some split point of the window xs[start..end) could pass the t-test against the whole window, which
 * is where the first split of the window is tested: when none can, the window finds nothing, and its O(n^2)
 * pair sums and O(n^2) candidate scan are skipped. Welford's running sums (on values taken relative to the
 * window's first one, which keeps them exact to ~1e-13 here) give every split's t in O(n); anything within
 * 1e-4 of the critical t, or not finite, counts as possible and takes the full path.
 */
function anySignificantSplit(xs, start, end, maxPValue) {
  const n = end - start;
  const df = n - 2;
  if (df <= 0 || !(maxPValue > 0 && maxPValue < 1)) return true;
  const tc = critical(df, maxPValue) * (1 - 1e-4);
  if (leftMean.length < n + 1) {
    leftMean = new Float64Array(n + 1);
    leftM2 = new Float64Array(n + 1);
  }
  const pivot = xs[start];
  let mean = 0;
  let m2 = 0;
  for (let k = 1; k <= n; k += 1) {
    const x = xs[start + k - 1] - pivot;
    const d = x - mean;
    mean += d / k;
    m2 += d * (x - mean);
    leftMean[k] = mean;
    leftM2[k] = m2;
  }
  mean = 0;
  m2 = 0;
  // right side [tau, end), grown from the end; tau = start + n1
  for (let n2 = 1; n2 < n; n2 += 1) {
    const x = xs[end - n2] - pivot;
    const d = x - mean;
    mean += d / n2;
    m2 += d * (x - mean);
    const n1 = n - n2;
    // tTest's pooled variance from population standard deviations: (n-1) * (M2 / n) per side
    const pooled = (((n1 - 1) / n1) * leftM2[n1] + ((n2 - 1) / n2) * m2) / df;
    const t = Math.abs(leftMean[n1] - mean) / Math.sqrt(pooled * (1 / n1 + 1 / n2));
    if (!(t < tc)) return true;
  }
  return false;
}

/**
 * Since the process started: windows skipped by anySignificantSplit, and times the merge passed over a change point
 * without working out its p-value (weakestByP). Lets the tests see that pruning happens.
 */
export const pruned = { windows: 0, pvalues: 0 };

/** Windows searched (not taken from a saved split) since the process started: lets the tests see that resuming happens. */
export const searched = { windows: 0 };

/**
 * Otava's ChangePointDetector on the window xs[start..end): keep splitting the best segment while the
 * t-test is significant. Returns window-relative indices.
 */
function detectInWindow(xs, start, end, maxPValue, prune) {
  if (prune && !anySignificantSplit(xs, start, end, maxPValue)) {
    pruned.windows += 1;
    return [];
  }
  const block = pairSums(xs, start, end);
  const found = [];
  for (;;) {
    const segs = intervals(found, end - start);
    let candidate;
    for (const [from, to] of segs) {
      if (to - from <= 1) continue;
      const c = bestCandidate(block, from, to);
      if (!candidate || c.qhat > candidate.qhat) candidate = c;
    }
    if (!candidate) break;
    const [from, to] = segs.find(([a, b]) => a < candidate.index && candidate.index < b);
    if (!significant(xs, start + from, start + candidate.index, start + to, maxPValue)) break;
    found.push(candidate.index);
    found.sort((a, b) => a - b);
  }
  return found;
}

/**
 * A change point at xs[b] weighed against its neighbours' segments xs[a..b) and xs[b..c): tTest's fields but its
 * p-value, which pOf works out when it is asked for (the t distribution is most of a merge's time, and most change
 * points are never asked: see weakestByP).
 */
function candidate(xs, a, b, c) {
  const { m1, m2, s1, s2, df, t } = tStatistic(xs, a, b, c, segmentStats);
  return { index: b, meanBefore: m1, meanAfter: m2, stddevBefore: s1, stddevAfter: s2, t, df, p: undefined, below: undefined, sure: false };
}

/**
 * p-values by degrees of freedom and |t|, as twoSided works them out, so each is worked out once across the series of
 * a build and, kept in a site build's cache, across builds (a series that gained one point asks the merge for nearly
 * the same p-values as before). A value taken from here is the one twoSided gives, bit for bit. triples: a
 * Float64Array of [df, |t|, p] after each other (from triples() of an earlier memo), or null.
 */
export class PValueMemo {
  constructor(triples = null) {
    this.before = new PairTable();
    this.now = new PairTable();
    // p-values it had to work out (neither asked for before nor in the triples it started from)
    this.worked = 0;
    for (let i = 0; triples && i + 2 < triples.length; i += 3) this.before.set(triples[i], triples[i + 1], triples[i + 2]);
  }

  /** twoSided(t, df), from the memo when it holds it. */
  get(t, df) {
    const at = Math.abs(t);
    // NaN is no key of the tables (it equals nothing), and its p-value costs nothing to work out
    if (at !== at || df !== df) return twoSided(at, df);
    let p = this.now.get(df, at);
    if (p !== undefined) return p;
    p = this.before.get(df, at);
    if (p === undefined) {
      p = twoSided(at, df);
      this.worked += 1;
    }
    this.now.set(df, at, p);
    return p;
  }

  /** The p-values asked for since this memo was made, as the triples a later memo starts from. */
  triples() {
    return this.now.entries();
  }
}

/**
 * Numbers by pairs of numbers (degrees of freedom, |t|), neither NaN: an open-addressing table over typed arrays, keyed
 * by the pairs' bits (a Map of Maps keyed by doubles was a sixth of a rebuild's change point search). Keeps the pairs
 * in the order they were first set. -0 and +0 are one key, as in a Map.
 */
class PairTable {
  constructor() {
    this.size = 0;
    this.rows = new Float64Array(3 * 1024);
    this.slots = new Int32Array(2048).fill(-1);
  }

  /** The slot of (a, b): where it is, or the empty one where it would go. */
  slot(a, b) {
    bits[0] = a + 0;
    let h = Math.imul(words[0] ^ Math.imul(words[1], 0x9e3779b1), 0x85ebca6b);
    bits[0] = b + 0;
    h = Math.imul(h ^ words[0] ^ Math.imul(words[1], 0xc2b2ae35), 0x27d4eb2f);
    const mask = this.slots.length - 1;
    for (let i = (h ^ (h >>> 15)) & mask; ; i = (i + 1) & mask) {
      const row = this.slots[i];
      if (row < 0 || (this.rows[row * 3] === a && this.rows[row * 3 + 1] === b)) return i;
    }
  }

  get(a, b) {
    const row = this.slots[this.slot(a, b)];
    return row < 0 ? undefined : this.rows[row * 3 + 2];
  }

  set(a, b, value) {
    const i = this.slot(a, b);
    if (this.slots[i] >= 0) {
      this.rows[this.slots[i] * 3 + 2] = value;
      return;
    }
    if ((this.size + 1) * 3 > this.rows.length) {
      const rows = new Float64Array(this.rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    const at = this.size * 3;
    this.rows[at] = a;
    this.rows[at + 1] = b;
    this.rows[at + 2] = value;
    this.slots[i] = this.size;
    this.size += 1;
    // at most half full: a table twice the size, every row placed again
    if (this.size * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      for (let row = 0; row < this.size; row += 1) this.slots[this.slot(this.rows[row * 3], this.rows[row * 3 + 1])] = row;
    }
  }

  /** [a, b, value] of every pair after each other, in the order they were first set. */
  entries() {
    return this.rows.slice(0, this.size * 3);
  }
}
// a double's bits as two 32-bit words, for PairTable's hash
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

// the memo of the search under way (changePointsResumable's `pvalues`), or null
let memo = null;

/** A candidate's p-value (tTest's pvalue), worked out once. */
function pOf(c) {
  if (c.p === undefined) c.p = memo ? memo.get(c.t, c.df) : twoSided(c.t, c.df);
  return c.p;
}

/** A candidate as the change points are given out: tTest's fields, the p-value included. */
const asTested = (c) => ({ index: c.index, meanBefore: c.meanBefore, meanAfter: c.meanAfter, stddevBefore: c.stddevBefore, stddevAfter: c.stddevAfter, pvalue: pOf(c) });

/** Stats of each change point against its neighbours' segments (candidates). */
function withStats(xs, indices) {
  const bounds = [0, ...indices, xs.length];
  return indices.map((index, i) => candidate(xs, bounds[i], index, bounds[i + 2]));
}

/**
 * |t| above which the two-sided p-value is below maxPValue for every df of at least `df` (a whole number from 1 to
 * 2^31 - 1): the critical |t| at the power of two at or below df, kept by maxPValue and power (the merge asks this of
 * tens of thousands of change points per build).
 */
const surely = new Map(); // maxPValue -> [|t| by power of two]
// the last maxPValue asked about and its list: a search asks about one at a time, so mostly without a lookup
let surelyLast = NaN;
let surelyList = null;
function surelyBelow(df, maxPValue) {
  if (surelyLast !== maxPValue) {
    surelyList = surely.get(maxPValue);
    if (!surelyList) surely.set(maxPValue, (surelyList = []));
    surelyLast = maxPValue;
  }
  const byPower = surelyList;
  const k = 31 - Math.clz32(df);
  return (byPower[k] ??= critical(2 ** k, maxPValue) * (1 + 1e-9));
}

/**
 * The change point firstBy(cps, pvalue, >) picks (the first with the highest p-value; a p-value that is NaN never
 * replaces the first, nor is replaced), or null when that one's p-value would be below maxPValue, without the
 * p-values that cannot change the answer: the two-sided p-value falls as |t| grows and as df grows (Student's t
 * distributions are more peaked the more degrees of freedom), so a change point whose |t| is above the critical value of a
 * smaller df is below maxPValue, and one with |t| and df both at least those of the highest so far cannot pass it.
 */
function weakestByP(cps, maxPValue) {
  const first = cps[0];
  if (first.df > 0 && Number.isNaN(first.t)) return first;
  const shortcut = maxPValue > 0 && maxPValue < 1;
  let best = null;
  let bestP = -Infinity;
  for (const c of cps) {
    // worked out once per change point: the merge asks this of every one each time it drops one
    if (c.below !== maxPValue) c.sure = shortcut && c.df >= 1 && c.df < 2 ** 31 && Math.abs(c.t) > surelyBelow(c.df, maxPValue);
    c.below = maxPValue;
    const skip = c.sure || (best && Math.abs(c.t) >= Math.abs(best.t) && c.df >= best.df);
    if (skip && c.p === undefined) pruned.pvalues += 1;
    if (skip) continue;
    const p = pOf(c);
    if (p > bestP) {
      best = c;
      bestP = p;
    }
  }
  return best && !(bestP < maxPValue) ? best : null;
}

/**
 * Fingerprint of xs[0..n) (a Float64Array): two 32-bit FNV-1a style hashes over the values' bytes, { n, a, b }, which
 * hexOf writes as 16 hex digits. Tells whether a series still starts with the points a saved split was computed on.
 * Carried on from `from` (the state after a shorter prefix of xs) when given, so a series that gained points hashes
 * only those.
 */
export function hashState(xs, n, from = { n: 0, a: 0x811c9dc5, b: 0x01000193 }) {
  const words = new Uint32Array(xs.buffer, xs.byteOffset, n * 2);
  let { a, b } = from;
  for (let i = from.n * 2; i < words.length; i += 1) {
    a = Math.imul(a ^ words[i], 0x01000193) >>> 0;
    b = Math.imul(b ^ words[i], 0x5bd1e995) >>> 0;
    b ^= b >>> 15;
  }
  return { n, a, b };
}

/** hashState's fingerprint as 16 hex digits. */
export const hexOf = ({ a, b }) => a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');

/**
 * Split step: E-divisive on sliding windows of `window` points, half a window apart; the union of what they find.
 * Each window reads only its own points, and where it starts depends only on the windows before it, so a window
 * that lay whole within the points a previous split saw finds the same again. `saved` ({ key, length, hash,
 * windows: [start, count, ...found, start, count, ...found, ...]: one flat list, as a year of hourly points has
 * hundreds of windows per series and a site hundreds of series }, from an earlier call on a series that began with the
 * same points) lets those windows be taken as they were, so a series that gained points rescans only its last windows.
 * Returns { points, saved } (saved for the next call).
 */
function split(xs, window, maxPValue, prune, saved = null, known = null) {
  if (window < 2) throw new Error('change points: window must be at least 2');
  const step = Math.floor(window / 2);
  const key = `${window}/${maxPValue}/${prune}`;
  const found = new Set();
  let windows = [];
  let start = 0;
  const take = (at, local) => {
    windows.push(at, local.length, ...local);
    for (const i of local) found.add(i);
    return Math.max(local.length ? local[local.length - 1] : 0, at + step);
  };
  // the hash state after the points the saved split saw (whether or not they are the same now), carried on to all of them for the next call
  let seen;
  if (saved && saved.key === key && saved.length <= xs.length && saved.hash === hexOf((seen = known?.n === saved.length ? known : hashState(xs, saved.length)))) {
    const w = saved.windows;
    let i = 0;
    while (i + 1 < w.length) {
      const at = w[i];
      const count = w[i + 1];
      if (at !== start || at + window > saved.length || i + 2 + count > w.length) break;
      for (let k = i + 2; k < i + 2 + count; k += 1) found.add(w[k]);
      start = Math.max(count ? w[i + 1 + count] : 0, at + step);
      i += 2 + count;
    }
    // the windows taken go on into the next saved split in one copy (a rebuild takes hundreds of thousands of them)
    windows = w.slice(0, i);
  }
  while (start < xs.length) {
    const end = Math.min(start + window, xs.length);
    searched.windows += 1;
    start = take(start, detectInWindow(xs, start, end, maxPValue, prune).map((i) => i + start));
  }
  return { points: withStats(xs, [...found].sort((a, b) => a - b)), saved: { key, length: xs.length, hash: hexOf(hashState(xs, xs.length, seen)), windows } };
}

/** Merge step: drop the weakest change point (highest p, else smallest step) until all pass both thresholds. */
function merge(points, xs, maxPValue, minMagnitude, prune = true) {
  const cps = points.slice();
  while (cps.length) {
    let weakest = prune ? weakestByP(cps, maxPValue) : firstBy(cps, pOf, (a, b) => a > b);
    if (!prune && pOf(weakest) < maxPValue) weakest = null;
    if (!weakest) {
      weakest = firstBy(cps, magnitude, (a, b) => a < b);
      if (magnitude(weakest) > minMagnitude) return cps;
    }
    const at = cps.indexOf(weakest);
    cps.splice(at, 1);
    joinSegments(xs, at === 0 ? 0 : cps[at - 1].index, weakest.index, at < cps.length ? cps[at].index : xs.length);
    // otava recomputes the point now at the removed position and the one after it; kept as is to match its output
    for (let k = at; k <= at + 1 && k < cps.length; k += 1) {
      cps[k] = candidate(xs, k === 0 ? 0 : cps[k - 1].index, cps[k].index, k + 1 < cps.length ? cps[k + 1].index : xs.length);
    }
  }
  return cps;
}

/** Whether xs holds a NaN (a plain loop: this runs on every point of every series a build lays out). */
function hasNaN(xs) {
  for (let i = 0; i < xs.length; i += 1) if (xs[i] !== xs[i]) return true;
  return false;
}

/** Missing values take the previous value (the next one at the start), as otava fills gaps; all missing stay null. */
export function fillMissing(values) {
  const xs = filledFloats(values);
  return xs ? Array.from(xs) : values.map(() => null);
}

/**
 * fillMissing's values as 64-bit floats, made in one pass (a site build fills every point of every series), or null
 * when none is present.
 */
function filledFloats(values) {
  const n = values.length;
  const xs = new Float64Array(n);
  let first = -1;
  for (let i = 0; i < n; i += 1) {
    const v = values[i];
    if (v === null || v === undefined || Number.isNaN(v)) xs[i] = first < 0 ? NaN : xs[i - 1];
    else {
      if (first < 0) first = i;
      xs[i] = v;
    }
  }
  if (first < 0) return null;
  for (let i = first - 1; i >= 0; i -= 1) xs[i] = xs[first];
  return xs;
}

/**
 * Change points of a series, as otava's `analyze` finds them (with minSegment 1, the default).
 * Each: { index (first point of the new level), meanBefore, meanAfter, stddevBefore, stddevAfter, pvalue,
 *         change (relative, after/before - 1), magnitude }.
 * prune (on by default) skips work that cannot change the result: windows in which no split can be significant, and
 * the p-values of change points that cannot be the merge's weakest; false scans every window in full and works out
 * every p-value as otava does, which finds the same change points more slowly (the tests hold the two to that).
 */
export function changePoints(values, options = {}) {
  return changePointsResumable(values, options).points;
}

/**
 * changePoints, resuming from what an earlier call on the same series saw: `saved` is the `saved` that call returned
 * (kept by the caller, e.g. in the site's store cache). When the series still begins with the points it was computed
 * on, the split step takes every window that lay whole within them as it was and scans only the rest; the merge steps,
 * which weigh each change point against the whole series, run in full. Anything else (another series, other options,
 * changed points) is recomputed from the start, so the result is always the one changePoints gives.
 * options.pvalues: a PValueMemo to take p-values from and add them to (a site build's, kept in its cache).
 * known: hashState(values, k) when the caller already has it (the site's kept series), which spares hashing the
 * points the saved split saw again when it saw k of them.
 * Returns { points (as changePoints), saved (for the next call; null for a series too short to split) }.
 */
export function changePointsResumable(values, { window = DEFAULTS.window, maxPValue = DEFAULTS.maxPValue, minMagnitude = DEFAULTS.minMagnitude, minSegment = DEFAULTS.minSegment, recheck = DEFAULTS.recheck, prune = DEFAULTS.prune, pvalues = null } = {}, saved = null, known = null) {
  // values already unboxed and complete (a site build's kept series) are read as they are
  const dense = values instanceof Float64Array && !hasNaN(values);
  // one unboxed copy: the window scans read it tens of millions of times
  const xs = dense ? values : filledFloats(values);
  if (!xs || xs.length < 2) return { points: [], saved: null };
  const firstPass = maxPValue < 0.05 ? maxPValue * 10 : maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
  rememberSegments(xs);
  memo = pvalues;
  try {
    // known describes values, which are xs only when dense (filling gaps changes them)
    const weak = split(xs, window, firstPass, prune, saved, dense ? known : null);
    let cps = merge(weak.points, xs, maxPValue, minMagnitude, prune);
    if (minSegment > 1) cps = dropShortSegments(cps, xs, { maxPValue, minMagnitude, minSegment, prune });
    if (recheck) cps = recheckAll(cps, xs, { maxPValue, minMagnitude, minSegment, prune });
    return { points: cps.map((c) => ({ ...asTested(c), change: forward(c), magnitude: magnitude(c) })), saved: weak.saved };
  } finally {
    rememberSegments(null);
    memo = null;
  }
}

/**
 * Beyond otava (and off by default): otava's merge recomputes only some neighbours of a removed change
 * point, so a survivor may keep stats measured against a segment that no longer exists (a one-point
 * outlier passing as a 4% step). Recomputes every point against its real neighbours and merges again until
 * nothing changes, so each reported step is judged on the levels it actually separates.
 */
function recheckAll(points, xs, opts) {
  let cps = points;
  for (;;) {
    const fresh = withStats(xs, cps.map((c) => c.index));
    let next = merge(fresh, xs, opts.maxPValue, opts.minMagnitude, opts.prune);
    if (opts.minSegment > 1) next = dropShortSegments(next, xs, opts);
    if (next.length === fresh.length) return fresh;
    cps = next;
  }
}

/**
 * Beyond otava (and off by default): a level that lasts fewer than minSegment points is an outlier, not a
 * step. Removes the weaker change point bounding each such segment (the segment joins its neighbour),
 * recomputes the others against their new neighbours and merges again, until every segment is long enough.
 */
function dropShortSegments(points, xs, { maxPValue, minMagnitude, minSegment, prune }) {
  let cps = points;
  for (;;) {
    const bounds = [0, ...cps.map((c) => c.index), xs.length];
    const short = bounds.findIndex((b, i) => i < bounds.length - 1 && bounds[i + 1] - b < minSegment);
    if (short < 0 || !cps.length) return cps;
    // segment `short` lies between change points short-1 and short (when they exist)
    const candidates = [cps[short - 1], cps[short]].filter(Boolean);
    const weakest = firstBy(candidates, pOf, (a, b) => a > b);
    const rest = cps.filter((c) => c !== weakest).map((c) => c.index);
    cps = merge(withStats(xs, rest), xs, maxPValue, minMagnitude, prune);
  }
}

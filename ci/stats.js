// Statistics on per-trial samples: medians, seeded bootstrap intervals, and the Mann-Whitney U test.
import { errorFunction, median, probit, quantileSorted, wilcoxonRankSum } from 'simple-statistics';
import seedrandom from 'seedrandom';

export { median };

/** Deterministic random source in [0, 1) for a seed, so verdicts are reproducible. */
export const rng = (seed = 1) => seedrandom(String(seed));

function resample(xs, random) {
  const out = new Array(xs.length);
  for (let i = 0; i < xs.length; i += 1) out[i] = xs[Math.floor(random() * xs.length)];
  return out;
}

/**
 * Percentile bootstrap interval of stat(a, b) (or stat(a) when b is omitted).
 * Returns { estimate, lower, upper }; with a list of confidence levels, one such interval per level, all from the same
 * resamples. With fewer than 2 samples the interval is the estimate.
 */
export function bootstrapInterval({ a, b, stat, confidence = 0.95, iterations = 4000, seed = 1 }) {
  const levels = [confidence].flat();
  const estimate = b ? stat(a, b) : stat(a);
  const at = (interval) => (Array.isArray(confidence) ? levels.map(interval) : interval(confidence));
  if (a.length < 2 && (!b || b.length < 2)) return at(() => ({ estimate, lower: estimate, upper: estimate }));
  const random = rng(seed);
  const values = new Float64Array(iterations);
  for (let i = 0; i < iterations; i += 1) {
    values[i] = b ? stat(resample(a, random), resample(b, random)) : stat(resample(a, random));
  }
  // A resample whose ratio is infinite (its base median 0, or past the largest double) stays in: leaving it out would pull
  // the upper end down and could claim "no change" where the change is unbounded. Only 0/0 (NaN) says nothing.
  const sorted = values.filter((v) => !Number.isNaN(v)).sort();
  if (!sorted.length) return at(() => ({ estimate, lower: estimate, upper: estimate }));
  return at((level) => {
    const tail = (1 - level) / 2;
    return { estimate, lower: quantileOf(sorted, tail), upper: quantileOf(sorted, 1 - tail) };
  });
}

/** simple-statistics' quantileSorted (type 7) that also takes infinite values, where interpolating would give NaN. */
function quantileOf(sorted, p) {
  const idx = (sorted.length - 1) * p;
  const lo = sorted[Math.floor(idx)];
  const hi = sorted[Math.ceil(idx)];
  const fraction = idx - Math.floor(idx);
  if (lo === hi || fraction === 0) return lo;
  if (lo === -Infinity) return -Infinity;
  return quantileSorted([lo, hi], fraction);
}

/** Number of ways to reach each rank sum, for the exact null distribution of U (no ties). */
function exactUCounts(n1, n2) {
  // f[i][j][u]: arrangements of i x-values and j y-values with U = u; rolled into 2 layers.
  let prev = Array.from({ length: n2 + 1 }, () => [1]);
  for (let i = 1; i <= n1; i += 1) {
    const cur = [[1]];
    for (let j = 1; j <= n2; j += 1) {
      const a = cur[j - 1]; // last element is y: U unchanged
      const b = prev[j]; // last element is x: it beats j y-values
      const len = Math.max(a.length, b.length + j);
      const row = new Array(len).fill(0);
      a.forEach((c, u) => { row[u] += c; });
      b.forEach((c, u) => { row[u + j] += c; });
      cur.push(row);
    }
    prev = cur;
  }
  return prev[n2];
}

/**
 * Two-sided Mann-Whitney U test of samples a and b.
 * Exact p-value for small samples without ties, normal approximation with tie correction otherwise.
 * Returns { u, p, method }.
 */
export function mannWhitney(a, b) {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return { u: NaN, p: 1, method: 'none' };
  const w = wilcoxonRankSum(a, b); // rank sum of a, average ranks for ties
  const u = w - (n1 * (n1 + 1)) / 2;
  const { ranks, tieTerm } = midranks([...a, ...b]);
  const ties = tieTerm > 0;
  const mean = (n1 * n2) / 2;
  // with ties the normal approximation is far from the exact p at small n (3 + 3 constant sides: 0.047, exactly 0.1)
  if (ties && n1 + n2 <= 40) return { u, p: exactTiedP(ranks, n1, (x) => x.slice(0, n1)), method: 'exact' };
  if (!ties && n1 + n2 <= 40) {
    const counts = exactUCounts(n1, n2);
    const total = counts.reduce((s, c) => s + c, 0);
    const lo = Math.min(u, n1 * n2 - u);
    let tail = 0;
    for (let k = 0; k <= lo; k += 1) tail += counts[k] || 0;
    return { u, p: Math.min(1, (2 * tail) / total), method: 'exact' };
  }
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { u, p: 1, method: 'normal' };
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(z, 0)))), method: 'normal' };
}

/**
 * Average ranks (1-based) of xs in input order, tied values sharing the mean of the ranks they span, and the tie term
 * sum(t^3 - t) over the groups of t equal values (0 without ties) that the normal approximations correct by.
 */
function midranks(xs) {
  const order = xs.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const ranks = new Array(xs.length);
  let tieTerm = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j += 1;
    for (let k = i; k <= j; k += 1) ranks[order[k][1]] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  return { ranks, tieTerm };
}

/**
 * Exact two-sided permutation p of a rank sum with tied (average) ranks: the share of the equally likely outcomes whose
 * sum lies at least as far from its mean as the observed one. `pick` is the observed group's ranks; with `size` the
 * outcomes are every subset of that size (Mann-Whitney), without it every subset (signed-rank: each rank's sign
 * flipped or not). Doubled average ranks are whole numbers, so the sums are counted exactly.
 */
function exactTiedP(ranks, size, pick) {
  const w = ranks.map((r) => Math.round(r * 2));
  const total = w.reduce((s, x) => s + x, 0);
  const observed = pick(w).reduce((s, x) => s + x, 0);
  // counts[j][s]: subsets of j ranks summing to s (one layer when the size is free)
  const layers = size ?? 0;
  const counts = Array.from({ length: layers + 1 }, () => new Float64Array(total + 1));
  counts[0][0] = 1;
  for (const x of w) {
    if (size === undefined) {
      for (let s = total; s >= x; s -= 1) counts[0][s] += counts[0][s - x];
      continue;
    }
    for (let j = layers; j >= 1; j -= 1) for (let s = total; s >= x; s -= 1) counts[j][s] += counts[j - 1][s - x];
  }
  const dist = counts[layers];
  const all = dist.reduce((a, b) => a + b, 0);
  const mean = size === undefined ? total / 2 : (size * total) / w.length;
  const far = Math.abs(observed - mean) - 1e-9;
  let tail = 0;
  dist.forEach((c, s) => { if (c && Math.abs(s - mean) >= far) tail += c; });
  return Math.min(1, tail / all);
}

/** Standard normal CDF from the library's error function. */
const normalCdf = (z) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

// ---------------------------------------------------------------- paired rounds: Wilcoxon signed-rank

const signedRankCache = new Map();

/**
 * Exact null distribution of the signed-rank statistic W+ for n pairs without ties, as counts per value of W+
 * (they sum to 2^n). Exact in doubles up to n = 50; callers use the normal approximation beyond.
 */
function signedRankCounts(n) {
  if (signedRankCache.has(n)) return signedRankCache.get(n);
  let counts = [1];
  for (let k = 1; k <= n; k += 1) {
    const next = new Array(counts.length + k).fill(0);
    for (let w = 0; w < counts.length; w += 1) {
      next[w] += counts[w];
      next[w + k] += counts[w];
    }
    counts = next;
  }
  signedRankCache.set(n, counts);
  return counts;
}

const EXACT_SIGNED_RANK_MAX = 50;

/**
 * The largest k with P(W+ <= k - 1) <= tail: the k-th smallest and k-th largest Walsh averages bound a
 * confidence interval of the pseudo-median at level 1 - 2 * tail. 0 means no finite interval exists for n.
 */
export function signedRankCritical(n, tail) {
  if (n <= 0) return 0;
  if (n <= EXACT_SIGNED_RANK_MAX) {
    const counts = signedRankCounts(n);
    const total = 2 ** n;
    let cum = 0;
    let k = 0;
    while (k < counts.length && (cum + counts[k]) / total <= tail) {
      cum += counts[k];
      k += 1;
    }
    return k;
  }
  const mean = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  return Math.max(0, Math.floor(mean - probit(1 - tail) * sd + 0.5));
}

/** Two-sided p-value of the Wilcoxon signed-rank test that the differences d are centred on 0 (zeros dropped). */
export function signedRankTest(d) {
  const nz = d.filter((x) => x !== 0);
  const n = nz.length;
  if (n === 0) return { w: 0, n, p: 1, method: 'none' };
  const { ranks, tieTerm } = midranks(nz.map(Math.abs));
  const w = nz.reduce((s, x, i) => s + (x > 0 ? ranks[i] : 0), 0);
  const total = (n * (n + 1)) / 2;
  if (tieTerm === 0 && n <= EXACT_SIGNED_RANK_MAX) {
    const counts = signedRankCounts(n);
    const lo = Math.min(w, total - w);
    let tail = 0;
    for (let k = 0; k <= lo; k += 1) tail += counts[k];
    return { w, n, p: Math.min(1, (2 * tail) / 2 ** n), method: 'exact' };
  }
  // tied |d| (a ratio repeated: quantized values) at small n: the exact p, as without ties; the normal one is too small
  if (n <= EXACT_SIGNED_RANK_MAX) return { w, n, p: exactTiedP(ranks, undefined, (r) => r.filter((_, i) => nz[i] > 0)), method: 'exact' };
  const mean = total / 2;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  if (variance <= 0) return { w, n, p: 1, method: 'normal' };
  const z = Math.max(0, Math.abs(w - mean) - 0.5) / Math.sqrt(variance);
  return { w, n, p: Math.min(1, 2 * (1 - normalCdf(z))), method: 'normal' };
}

/**
 * Hodges-Lehmann estimate of the pseudo-median of d and its distribution-free confidence interval from the
 * sorted Walsh averages (exact for continuous d symmetric about its centre). Bounds are infinite when n is too
 * small for the level: no interval of n pairs reaches it. The n(n+1)/2 averages are never all listed: each one needed
 * is selected by its rank (walshAt), so thousands of rounds cost milliseconds instead of minutes and gigabytes.
 */
export function walshInterval(d, confidence = 0.95) {
  const n = d.length;
  const sorted = Float64Array.from(d).sort();
  const total = (n * (n + 1)) / 2;
  // the median as simple-statistics takes it of the sorted averages: the middle one, or halfway between the two
  const lowMiddle = Math.floor((total - 1) / 2);
  const estimate = !total ? NaN : total % 2 ? walshAt(sorted, lowMiddle + 1) : ((a, b) => a + 0.5 * (b - a))(walshAt(sorted, lowMiddle + 1), walshAt(sorted, lowMiddle + 2));
  const k = signedRankCritical(n, (1 - confidence) / 2);
  if (k < 1) return { estimate, lower: -Infinity, upper: Infinity };
  return { estimate, lower: walshAt(sorted, k), upper: walshAt(sorted, total - k + 1) };
}

/** How many Walsh averages (s[i] + s[j]) / 2, i <= j, of the ascending s are at most x: O(n), both indices only move one way. */
function walshAtMost(s, x) {
  let count = 0;
  let j = s.length - 1;
  for (let i = 0; i < s.length; i += 1) {
    while (j >= i && (s[i] + s[j]) / 2 > x) j -= 1;
    if (j < i) break;
    count += j - i + 1;
  }
  return count;
}

// doubles as unsigned integers in the same order (negative ones flipped), so the search halves a range of doubles
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const SIGN = 1n << 63n;
const MASK = (1n << 64n) - 1n;
const keyOf = (x) => {
  f64[0] = x;
  return u64[0] & SIGN ? ~u64[0] & MASK : u64[0] | SIGN;
};
const valueOf = (key) => {
  u64[0] = key & SIGN ? key & ~SIGN : ~key & MASK;
  return f64[0];
};

/**
 * The k-th smallest (1-based) Walsh average of the ascending s, exactly as sorting all of them would give it. Halves
 * the range of doubles that holds it (counting in O(n) each time, at most 64 times) until few averages lie in it,
 * then sorts just those. Averages are computed as listing them would, and floating-point sums are monotone, so the
 * counts agree with a sort of the full list. Non-finite values (an overflowing difference) take the plain way.
 */
export function walshAt(s, k) {
  const n = s.length;
  if (!s.every(Number.isFinite) || n <= 64) {
    const all = [];
    for (let i = 0; i < n; i += 1) for (let j = i; j < n; j += 1) all.push((s[i] + s[j]) / 2);
    return all.sort((a, b) => a - b)[k - 1];
  }
  // invariant: at most lo fewer than k averages, at most hi k or more
  const min = (s[0] + s[0]) / 2;
  if (walshAtMost(s, min) >= k) return min;
  let lo = min;
  let hi = (s[n - 1] + s[n - 1]) / 2;
  let below = walshAtMost(s, lo);
  let upTo = walshAtMost(s, hi);
  let keyLo = keyOf(lo);
  let keyHi = keyOf(hi);
  while (upTo - below > 4 * n && keyHi - keyLo > 1n) {
    const keyMid = (keyLo + keyHi) / 2n;
    const mid = valueOf(keyMid);
    const c = walshAtMost(s, mid);
    if (c >= k) {
      [hi, keyHi, upTo] = [mid, keyMid, c];
    } else {
      [lo, keyLo, below] = [mid, keyMid, c];
    }
  }
  // only hi lies above lo: it is the one (a zero as the averages hold it, not the -0 the search may have reached)
  if (keyHi - keyLo <= 1n) return hi === 0 ? 0 : hi;
  const between = [];
  let jLo = n - 1;
  let jHi = n - 1;
  for (let i = 0; i < n; i += 1) {
    while (jHi >= i && (s[i] + s[jHi]) / 2 > hi) jHi -= 1;
    while (jLo >= i && (s[i] + s[jLo]) / 2 > lo) jLo -= 1;
    if (jHi < i) break;
    for (let j = Math.max(jLo + 1, i); j <= jHi; j += 1) between.push((s[i] + s[j]) / 2);
  }
  return between.sort((a, b) => a - b)[k - below - 1];
}

/**
 * Benjamini-Hochberg: which of the p-values are discoveries at false discovery rate q (under the global null
 * this is also the family-wise error). Returns booleans in input order.
 */
export function benjaminiHochberg(pvalues, q) {
  const m = pvalues.length;
  const order = pvalues.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
  let cutoff = -1;
  order.forEach(([p], rank) => { if (p <= ((rank + 1) / m) * q) cutoff = rank; });
  const out = new Array(m).fill(false);
  for (let r = 0; r <= cutoff; r += 1) out[order[r][1]] = true;
  return out;
}

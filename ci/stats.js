// Statistics on per-trial samples: medians, seeded bootstrap intervals, and the Mann-Whitney U test.
import { errorFunction, median, quantileSorted, wilcoxonRankSum } from 'simple-statistics';
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
 * Returns { estimate, lower, upper }. With fewer than 2 samples the interval is the estimate.
 */
export function bootstrapInterval({ a, b, stat, confidence = 0.95, iterations = 4000, seed = 1 }) {
  const estimate = b ? stat(a, b) : stat(a);
  if (a.length < 2 && (!b || b.length < 2)) return { estimate, lower: estimate, upper: estimate };
  const random = rng(seed);
  const values = new Float64Array(iterations);
  for (let i = 0; i < iterations; i += 1) {
    values[i] = b ? stat(resample(a, random), resample(b, random)) : stat(resample(a, random));
  }
  const sorted = Array.from(values).filter(Number.isFinite).sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return { estimate, lower: quantileSorted(sorted, tail), upper: quantileSorted(sorted, 1 - tail) };
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
  const all = [...a, ...b];
  const ties = all.length !== new Set(all).size;
  const mean = (n1 * n2) / 2;
  if (!ties && n1 + n2 <= 40) {
    const counts = exactUCounts(n1, n2);
    const total = counts.reduce((s, c) => s + c, 0);
    const lo = Math.min(u, n1 * n2 - u);
    let tail = 0;
    for (let k = 0; k <= lo; k += 1) tail += counts[k] || 0;
    return { u, p: Math.min(1, (2 * tail) / total), method: 'exact' };
  }
  const n = n1 + n2;
  const tieCounts = new Map();
  for (const v of all) tieCounts.set(v, (tieCounts.get(v) || 0) + 1);
  let tieTerm = 0;
  for (const t of tieCounts.values()) tieTerm += t ** 3 - t;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { u, p: 1, method: 'normal' };
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(z, 0)))), method: 'normal' };
}

/** Standard normal CDF from the library's error function. */
const normalCdf = (z) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

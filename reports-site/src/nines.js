// The "nines" axis of percentile charts, as HdrHistogram plots them: 90% -> 1, 99% -> 2, 99.9% -> 3; pure.

/** Where the maximum (p100) sits: six nines, past every percentile the tools report. */
const MAX_NINES = 6;

/** Position of percentile p (0-100) on the axis; p100, which has no finite position, at MAX_NINES. */
export const nines = (p) => (p >= 100 ? MAX_NINES : -Math.log10(1 - Math.min(p, 99.9999) / 100));

/** The percentile at axis position v as the chart names it: "99.9%", and "max" at the maximum's place, not "99.9999%". */
export function ninesLabel(v) {
  if (v >= MAX_NINES - 1e-9) return 'max';
  const p = 100 * (1 - 10 ** -v);
  return `${Number(p.toPrecision(6))}%`;
}

/** The labelled positions of an axis from `lo` to `hi`: 0%, 50%, 90%, 99% ... and max when the chart reaches it. */
export const ninesSplits = (lo, hi) => [0, 0.30103, 1, 2, 3, 4, 5, MAX_NINES].filter((s) => s >= lo - 0.01 && s <= hi + 0.01);

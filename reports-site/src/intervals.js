// Intervals as the site shows them: a time, size, rate or count cannot be negative, so a symmetric interval is cut at 0.

/** Canonical units (ci/units.js) of quantities that are never below zero. Other units (a tool's own) may be. */
const NON_NEGATIVE_UNITS = Object.freeze(['ns', 'bytes', 'bytes/s', 'ops/s', 'count', 'ratio']);

const present = (v) => v !== null && v !== undefined && !Number.isNaN(v);

/**
 * The interval to show: { lo, hi, clamped, rawLo }. A tool's symmetric interval (JMH: mean ± its 99.9% error)
 * can reach below zero when the error exceeds the mean; where the quantity cannot be negative, lo becomes 0
 * and clamped says so, rawLo keeping what the tool reported.
 */
export function shownInterval(lo, hi, unit) {
  if (!present(lo) || !present(hi)) return { lo: present(lo) ? lo : null, hi: present(hi) ? hi : null, clamped: false, rawLo: lo ?? null };
  if (lo < 0 && NON_NEGATIVE_UNITS.includes(unit)) return { lo: 0, hi: Math.max(0, hi), clamped: true, rawLo: lo };
  return { lo, hi, clamped: false, rawLo: lo };
}

/** The lower band edge of a trend point: clamped like shownInterval, unchanged otherwise. */
export const bandLow = (lo, unit) => (present(lo) && lo < 0 && NON_NEGATIVE_UNITS.includes(unit) ? 0 : lo);

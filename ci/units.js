// Converts tool units to canonical ones (ns, bytes, per second) and formats values for humans.
const TIME_NS = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, min: 60e9, h: 3600e9 };
const SIZE_BYTES = { B: 1, KB: 1024, KiB: 1024, MB: 1024 ** 2, MiB: 1024 ** 2, GB: 1024 ** 3, GiB: 1024 ** 3, TB: 1024 ** 4 };

/** Text a message quotes: a corrupted output can put megabytes where a value belongs. */
const clip = (text) => (String(text).length > 40 ? `${String(text).slice(0, 40)}... (${String(text).length.toLocaleString('en-US')} characters)` : String(text));

/** Nanoseconds from a number and a time unit (ns, us, ms, s, m, h). */
function toNs(value, unit) {
  const f = TIME_NS[unit];
  if (f === undefined) throw new Error(`unknown time unit "${clip(unit)}"`);
  return value * f;
}

// a printed duration: [, number, its decimals, its exponent, unit]
const DURATION = /^\s*([-+]?\d+(?:\.(\d+))?(?:e([-+]?\d+))?)\s*(ns|us|µs|μs|ms|s|m|h)\s*$/i;
const durationParts = (text) => {
  const m = DURATION.exec(text);
  if (!m) throw new Error(`not a duration: "${clip(text)}"`);
  return { number: m[1], decimals: m[2], exponent: m[3], unit: m[4] === 'M' ? 'm' : m[4] };
};

/** Nanoseconds from text such as "1.23ms", "45us" or "2.5s" (wrk and ghz print these). */
export function parseDuration(text) {
  const { number, unit } = durationParts(text);
  return toNs(Number(number), unit);
}

/**
 * The step of a printed duration in ns: one unit of its last digit ("1.23ms" -> 10000, "137.00us" -> 10, "2s" -> 1e9),
 * what a value read from that text is known to.
 */
export function durationStep(text) {
  const { decimals, exponent, unit } = durationParts(text);
  return toNs(10 ** (Number(exponent ?? 0) - (decimals?.length ?? 0)), unit);
}

/** Bytes from text such as "12.5MB" or "800KB" (binary multiples, as wrk prints them). */
export function parseSize(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)\s*$/.exec(text);
  if (!m) throw new Error(`not a size: "${clip(text)}"`);
  return Number(m[1]) * SIZE_BYTES[m[2]];
}

const round = (v, digits = 3) => {
  const a = Math.abs(v);
  // a value too small for three decimals keeps two significant digits: a share of 0.00004% is not "0 %"
  if (a > 0 && a < 0.0005) return Number(v.toPrecision(2)).toString();
  const d = a >= 100 ? 1 : a >= 10 ? 2 : digits;
  return Number(v.toFixed(d)).toString();
};

/** The first `shown` of a list of names, and how many more: "a, b, c, and 4 more". */
export const firstFew = (items, shown = 3) => `${items.slice(0, shown).join(', ')}${items.length > shown ? `, and ${items.length - shown} more` : ''}`;

/**
 * A whole number with its thousands grouped as en-US groups them (1,234,567). By hand: the first toLocaleString of a
 * process loads ICU's locale data, about 17 ms of a site rebuild that formats one change point.
 */
export const grouped = (n) => (Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US'));

/**
 * Human-readable value in the best-fitting unit, e.g. 1530000 ns -> "1.53 ms". reference: the value whose unit fits,
 * when several values share one (a chart's axis: 0 reads "0 ms" beside "5 ms", not "0 ns").
 */
export function formatValue(value, unit, reference = value) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  switch (unit) {
    case 'ns': {
      const a = Math.abs(reference);
      if (a >= 1e9) return `${round(value / 1e9)} s`;
      if (a >= 1e6) return `${round(value / 1e6)} ms`;
      if (a >= 1e3) return `${round(value / 1e3)} µs`;
      return `${round(value)} ns`;
    }
    case 'bytes': case 'bytes/s': {
      const suffix = unit === 'bytes/s' ? '/s' : '';
      const a = Math.abs(reference);
      if (a >= 1024 ** 3) return `${round(value / 1024 ** 3)} GiB${suffix}`;
      if (a >= 1024 ** 2) return `${round(value / 1024 ** 2)} MiB${suffix}`;
      if (a >= 1024) return `${round(value / 1024)} KiB${suffix}`;
      return `${round(value)} B${suffix}`;
    }
    case 'ops/s': return `${value >= 1000 ? grouped(Math.round(value)) : round(value)} /s`;
    case 'ratio': return `${round(value * 100)} %`;
    // a count averaged over trials is rarely whole: past a thousand it reads as a grouped whole number all the same
    case 'count': return Number.isInteger(value) || Math.abs(value) >= 1000 ? grouped(Math.round(value)) : round(value);
    default: return `${round(value)} ${unit}`;
  }
}

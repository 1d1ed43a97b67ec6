// Exports result documents for other tools: github-action-benchmark custom JSON and Bencher Metric Format.
//
// github-action-benchmark ("customSmallerIsBetter" / "customBiggerIsBetter" tools) reads an array of
// { name, unit, value, range?, extra? }. One file holds one direction, so each export keeps only the
// metrics whose `better` matches it. Values stay canonical (ns, ops/s, bytes, bytes/s, count, ratio)
// and `unit` is benchline's unit name: a series never changes scale between commits, which keeps the
// action's charts and alert ratios meaningful. `range` is "± <half-width>" of the metric's interval
// (the wider side, so it never understates the noise), in the form the action parses; `extra` says
// how the value was obtained. Metrics that restate a run's parameters (compare.js RESTATED: a fixed-duration run's
// `duration`, its `requests` and `bytes_received`) are left out: more of them follows from more throughput, and the
// action, which alerts on every entry, would call a speed-up a regression of `bytes_received`; so are JMH's GC figures
// summed over its measurement time (PER_MEASUREMENT_TIME), for the same reason, and a value the load set (`setBy`: the
// throughput of ghz paced at --rps), which says nothing of the code, and one whose direction is only guessed (`guessed`:
// a k6 script's own count or ratio by the naming rule alone), which the action could alert on the wrong way round, and
// what one pause sets and benchline never judges (a trial's .max or .min, a percentile at its slowest sample, a stdev).
//
// Bencher Metric Format: { "<benchmark>": { "<measure slug>": { value, lower_value?, upper_value? } } }.
// The benchmark is suite/variant/tool/scenario[/case]; the measure slug is the metric name in kebab
// case (latency.p99 -> latency-p99). Bencher creates a measure it does not know with placeholder units,
// so `bencherMeasures` lists each measure's name and units for `bencher measure create` beforehand;
// Bencher's built-in `throughput` (ops/s) already matches benchline's unit, so no value is converted.
// Every benchline metric is non-negative, so an interval's lower bound below zero (JMH's 99.9%
// interval of a single trial) is clamped to 0 rather than exported as an impossible value.
import { createHash } from 'node:crypto';
import { benchmarkName } from './format.js';
import { UserError } from '../errors.js';
import { isExtreme, PER_MEASUREMENT_TIME, RESTATED, sampleCounts, slowestOnly } from '../compare.js';

export const FORMATS = Object.freeze({ 'gab-smaller': 'lower', 'gab-bigger': 'higher', bmf: null, 'bencher-measures': null });

/** Bencher's spelling of each canonical unit (its built-in measures use "nanoseconds (ns)" and "operations / second (ops/s)"). */
export const BENCHER_UNITS = Object.freeze({
  ns: 'nanoseconds (ns)',
  'ops/s': 'operations / second (ops/s)',
  bytes: 'bytes (B)',
  'bytes/s': 'bytes / second (B/s)',
  count: 'count',
  ratio: 'ratio (0 to 1)',
});

// Bencher's longest measure slug and name
const BENCHER_MAX = 64;
// what a shortened slug or name keeps of its end: the statistic (-p99-9, .mean) and a few characters before it
const KEPT_END = 16;

/**
 * `text` when it has at most 64 characters; else its start, 8 hex digits of `name`'s SHA-1 and its last 16 characters,
 * joined by `sep` (64 in all): a k6 metric may be named with up to 128 characters, and the statistics of one such
 * Trend (.p99, .p99.9, .mean) must not share a measure. Pure.
 */
function fitBencher(text, name, sep) {
  if (text.length <= BENCHER_MAX) return text;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${text.slice(0, BENCHER_MAX - KEPT_END - hash.length - 2 * sep.length)}${sep}${hash}${sep}${text.slice(-KEPT_END)}`;
}

/**
 * Bencher measure slug of a metric name: lower-case letters, digits and single hyphens (never one at either end:
 * Bencher takes such a key for a measure name, not a slug), at most 64 characters (a longer one as fitBencher shortens it).
 */
export function measureSlug(name) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return fitBencher(slug, name, '-').replace(/-+/g, '-');
}

// Every metric benchline keeps is zero or more: an interval reaching below zero (JMH's score ± error of one fork) starts
// at 0 in every export.
const lowerShown = (m) => Math.max(0, m.lower);

// The action's range parser wants a digit followed by more characters, so small numbers keep 4 significant digits.
const rangeNumber = (x) => (x >= 1000 ? String(Math.round(x)) : x.toPrecision(4));

/**
 * Steps of its tool's resolution a value needs to go into a github-action-benchmark file. The action alerts on the
 * ratio of each value to the last commit's: ab's whole milliseconds read 0 one run and 1 ms the next (an "Infinity x
 * worse" alert) or 1 and 2 ms (2x) by rounding alone; from 10 steps on, one step moves a value by 10% at most.
 */
const GAB_MIN_STEPS = 10;

/** A spread of a trial's values (ab's, wrk's and hyperfine's standard deviation), which one slow request raises. */
const isSpread = (name) => /\.stdev$/.test(name);

/**
 * Why a metric of document `d` stays out of both github-action-benchmark files (a few words), or undefined when it goes
 * in. Pure. The action alerts on every entry, so what benchline never judges because one pause or outlier sets it stays
 * out: a trial's slowest or fastest value, a percentile that a trial's few samples leave at its slowest one, and a
 * standard deviation (between consecutive A/A runs these alerted at 150% more often than the percentiles did).
 */
export function gabLeftOut(m, d) {
  if (RESTATED.includes(m.name)) return 'restates a run parameter';
  if (PER_MEASUREMENT_TIME.includes(m.name)) return 'summed over the measurement time';
  if (m.setBy) return 'set by the load';
  if (m.guessed) return 'direction only guessed';
  if (isExtreme(m.name)) return 'a trial\'s slowest or fastest value';
  if (isSpread(m.name)) return 'a spread, which one slow request raises';
  const tail = d ? slowestOnly(m.name, sampleCounts(d, m.name)) : undefined;
  if (tail) return `the slowest sample of a trial of ${+tail.fewest.toFixed(1)}`;
  if (m.resolution > 0 && m.value < GAB_MIN_STEPS * m.resolution) return `under ${GAB_MIN_STEPS} steps of its resolution`;
  // a time of 0 is one below what its tool could tell apart (hyperfine's time.system of a short command, its
  // time.median after taking off the shell's start-up): any time measured after it would alert "Infinity x worse"
  if (m.unit === 'ns' && m.value === 0) return 'a time of 0';
  return undefined;
}

/**
 * The entries of one github-action-benchmark file: metrics of `docs` whose `better` is `better`; restated ones,
 * per-measurement-time ones, values of fewer than GAB_MIN_STEPS steps of their resolution and times of 0 left out.
 */
export function toGab(docs, better) {
  if (better !== 'lower' && better !== 'higher') throw new Error(`toGab: better must be "lower" or "higher", got ${better}`);
  const out = [];
  for (const d of docs) {
    for (const m of d.metrics) {
      if (m.better !== better || gabLeftOut(m, d)) continue;
      const entry = { name: `${benchmarkName({ ...d, case: m.case })}/${m.name}`, unit: m.unit, value: m.value };
      const extra = [`${d.trials === 1 ? '1 trial' : `median of ${d.trials} trials`}`];
      if (m.lower !== undefined && m.upper !== undefined) {
        entry.range = `± ${rangeNumber(Math.max(m.value - m.lower, m.upper - m.value))}`;
        extra.push(`${Math.round((m.confidence ?? 0.95) * 1000) / 10}% interval ${lowerShown(m)}..${m.upper} ${m.unit}`);
      }
      extra.push(`${d.tool.name} ${d.tool.version}`);
      if (d.run.commit) extra.push(`commit ${d.run.commit.slice(0, 12)}`);
      entry.extra = extra.join('\n');
      out.push(entry);
    }
  }
  return out;
}

/** Bencher Metric Format JSON of `docs`; two metrics mapping to one slug is an error rather than a silent overwrite. */
export function toBmf(docs) {
  const out = {};
  const origin = new Map();
  for (const d of docs) {
    for (const m of d.metrics) {
      const bench = benchmarkName({ ...d, case: m.case });
      const slug = measureSlug(m.name);
      const key = `${bench}\u0000${slug}`;
      if (origin.has(key)) {
        throw new UserError(`Bencher export: metrics "${origin.get(key)}" and "${m.name}" of ${bench} both become measure "${slug}"; rename one of them`);
      }
      origin.set(key, m.name);
      const measure = { value: m.value };
      if (m.lower !== undefined && m.upper !== undefined) Object.assign(measure, { lower_value: lowerShown(m), upper_value: m.upper });
      (out[bench] ||= {})[slug] = measure;
    }
  }
  return out;
}

/** The Bencher measures a BMF export of `docs` uses, one per slug: { slug, name, units }, sorted by slug. */
export function bencherMeasures(docs) {
  const bySlug = new Map();
  for (const d of docs) {
    for (const m of d.metrics) {
      const slug = measureSlug(m.name);
      const units = BENCHER_UNITS[m.unit];
      if (!units) throw new UserError(`Bencher export: metric "${m.name}" has unit "${m.unit}", which has no Bencher spelling; add it to BENCHER_UNITS in ci/reports/exports.js`);
      const seen = bySlug.get(slug);
      if (seen && seen.units !== units) throw new UserError(`Bencher export: measure "${slug}" would hold ${seen.units} (${seen.name}) and ${units} (${m.name}); rename one of the metrics`);
      if (!seen) bySlug.set(slug, { slug, name: fitBencher(m.name, m.name, '~'), units });
    }
  }
  return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
}

/** Shell lines that create the measures of `docs` in a Bencher project (the project is $BENCHER_PROJECT). */
function renderBencherMeasures(docs) {
  const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  const lines = bencherMeasures(docs).map((m) => `bencher measure create --name ${q(m.name)} --slug ${q(m.slug)} --units ${q(m.units)} "$BENCHER_PROJECT"`);
  return `${lines.join('\n')}\n`;
}

/** The export of `docs` in one of FORMATS: pretty JSON text, or shell lines for bencher-measures. */
export function renderExport(all, format) {
  if (!Object.hasOwn(FORMATS, format)) throw new UserError(`unknown export format "${format}"; choose one of: ${Object.keys(FORMATS).join(', ')}`);
  // a duet side's figures were measured beside the other side of its A/B run (about half of a run alone): another
  // tool would set them beside its history of runs alone, so they are left out, as from benchline's own history
  const docs = all.filter((d) => !d.duet);
  if (format === 'bencher-measures') return renderBencherMeasures(docs);
  const value = format === 'bmf' ? toBmf(docs) : toGab(docs, FORMATS[format]);
  return `${JSON.stringify(value, null, 2)}\n`;
}

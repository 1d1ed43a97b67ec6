// Exports result documents for other tools: github-action-benchmark custom JSON and Bencher Metric Format.
//
// github-action-benchmark ("customSmallerIsBetter" / "customBiggerIsBetter" tools) reads an array of
// { name, unit, value, range?, extra? }. One file holds one direction, so each export keeps only the
// metrics whose `better` matches it. Values stay canonical (ns, ops/s, bytes, bytes/s, count, ratio)
// and `unit` is benchline's unit name: a series never changes scale between commits, which keeps the
// action's charts and alert ratios meaningful. `range` is "± <half-width>" of the metric's interval
// (the wider side, so it never understates the noise), in the form the action parses; `extra` says
// how the value was obtained.
//
// Bencher Metric Format: { "<benchmark>": { "<measure slug>": { value, lower_value?, upper_value? } } }.
// The benchmark is suite/variant/tool/scenario[/case]; the measure slug is the metric name in kebab
// case (latency.p99 -> latency-p99). Bencher's built-in measures `latency` (ns) and `throughput`
// (ops/s) use the same units as benchline, so no value is converted.
import { benchmarkName } from './format.js';
import { UserError } from '../errors.js';

export const FORMATS = Object.freeze({ 'gab-smaller': 'lower', 'gab-bigger': 'higher', bmf: null });

/** Bencher measure slug of a metric name: lower-case letters, digits and single hyphens, at most 64 characters. */
export const measureSlug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);

// The action's range parser wants a digit followed by more characters, so small numbers keep 4 significant digits.
const rangeNumber = (x) => (x >= 1000 ? String(Math.round(x)) : x.toPrecision(4));

/** The entries of one github-action-benchmark file: metrics of `docs` whose `better` is `better`. */
export function toGab(docs, better) {
  if (better !== 'lower' && better !== 'higher') throw new Error(`toGab: better must be "lower" or "higher", got ${better}`);
  const out = [];
  for (const d of docs) {
    for (const m of d.metrics) {
      if (m.better !== better) continue;
      const entry = { name: `${benchmarkName({ ...d, case: m.case })}/${m.name}`, unit: m.unit, value: m.value };
      const extra = [`${d.trials === 1 ? '1 trial' : `median of ${d.trials} trials`}`];
      if (m.lower !== undefined && m.upper !== undefined) {
        entry.range = `± ${rangeNumber(Math.max(m.value - m.lower, m.upper - m.value))}`;
        extra.push(`${Math.round((m.confidence ?? 0.95) * 1000) / 10}% interval ${m.lower}..${m.upper} ${m.unit}`);
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
      if (m.lower !== undefined && m.upper !== undefined) Object.assign(measure, { lower_value: m.lower, upper_value: m.upper });
      (out[bench] ||= {})[slug] = measure;
    }
  }
  return out;
}

/** The export of `docs` in one of FORMATS, as pretty JSON text. */
export function renderExport(docs, format) {
  if (!Object.hasOwn(FORMATS, format)) throw new UserError(`unknown export format "${format}"; choose one of: ${Object.keys(FORMATS).join(', ')}`);
  const value = format === 'bmf' ? toBmf(docs) : toGab(docs, FORMATS[format]);
  return `${JSON.stringify(value, null, 2)}\n`;
}

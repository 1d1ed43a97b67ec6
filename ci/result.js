// Builds result documents from parsed trials: pure, so the runner and `normalize` share one path.
import { SCHEMA_ID, assertResult } from './schema/index.js';
import { metricKey } from './metrics.js';
import { bootstrapInterval, median } from './stats.js';
import { assertSaneTrial } from './sanity.js';
import { saturationNote } from './cpuset.js';

/**
 * Merges the parsed trials of one job into metrics whose samples hold one value per trial.
 * A metric missing from any trial is dropped (its samples would not line up), and named in notes.
 * One trial keeps the tool's own interval (JMH's error); more trials get a bootstrap interval of the median.
 */
export function mergeTrials(trials, { confidence = 0.95, seed = 1 } = {}) {
  const notes = [];
  if (!trials.length) throw new Error('no trials to merge');
  const byKey = new Map();
  trials.forEach((t, i) => {
    for (const m of t.metrics) {
      const key = metricKey(m);
      if (!byKey.has(key)) byKey.set(key, { first: m, values: new Array(trials.length).fill(undefined), resolution: 0 });
      const entry = byKey.get(key);
      entry.values[i] = m.value;
      // the coarsest step any trial was printed at (wrk picks its unit per value: "999.99us" in one trial, "1.00ms" in another)
      if (m.resolution > entry.resolution) entry.resolution = m.resolution;
      // a value the load set in any trial (ghz paced by --rps) is not the subject's in any of them; so with a guessed direction
      if (m.setBy && !entry.setBy) entry.setBy = m.setBy;
      if (m.guessed && !entry.guessed) entry.guessed = m.guessed;
    }
  });
  const metrics = [];
  for (const [key, { first, values, resolution, setBy, guessed }] of byKey) {
    if (values.some((v) => v === undefined)) {
      notes.push(`metric ${key} is missing from some trials and was left out`);
      continue;
    }
    const m = { ...first, samples: values, ...(resolution ? { resolution } : {}), ...(setBy ? { setBy } : {}), ...(guessed ? { guessed } : {}) };
    if (trials.length === 1) {
      if (first.samples?.length > 1) m.samples = first.samples;
    } else {
      const ci = bootstrapInterval({ a: values, stat: median, confidence, seed });
      Object.assign(m, { value: ci.estimate, lower: ci.lower, upper: ci.upper, confidence });
    }
    metrics.push(m);
  }
  const distributions = mergeDistributions(trials.flatMap((t) => t.distributions || []));
  return { metrics, distributions, notes };
}

/** One distribution per name and case: per percentile, the median over trials. */
function mergeDistributions(all) {
  const groups = new Map();
  for (const d of all) {
    const key = `${d.case || ''}::${d.name}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(d);
  }
  return [...groups.values()].map((ds) => {
    if (ds.length === 1) return ds[0];
    const ps = ds[0].percentiles.map((pt) => pt.p).filter((p) => ds.every((d) => d.percentiles.some((q) => q.p === p)));
    const out = { ...ds[0], percentiles: ps.map((p) => ({ p, value: median(ds.map((d) => d.percentiles.find((q) => q.p === p).value)) })) };
    if (ds.every((d) => d.count !== undefined)) out.count = ds.reduce((s, d) => s + d.count, 0);
    delete out.hdr;
    return out;
  });
}

/** A schema-valid result document; throws naming `where` if anything is off. */
export function buildResult({ run, runner, suite, subject, variant, scenario, tool, params, trials, artifacts = [], notes = [], confidence, seed, judge, minEffect, sequential, instances, duet }, where) {
  // every adapter's trials pass the same check; the raw artifacts are in trial order, so each error names its file
  const raw = artifacts.filter((a) => a.kind === 'raw');
  trials.forEach((t, i) => {
    const file = trials.length > 1 && raw.length === trials.length ? ` trial ${i + 1} (${raw[i].path})` : trials.length > 1 ? ` trial ${i + 1}` : '';
    assertSaneTrial(t, { where: `${where || 'result document'}${file}`, tool: tool?.name || 'the tool' });
  });
  const merged = mergeTrials(trials, { confidence, seed });
  const doc = {
    schema: SCHEMA_ID,
    run,
    runner,
    suite,
    subject,
    variant,
    scenario,
    tool,
    params,
    trials: trials.length,
    ...(judge ? { judge: [...judge] } : {}),
    ...(minEffect ? { minEffect: { ...minEffect } } : {}),
    ...(sequential ? { sequential } : {}),
    ...(instances > 1 ? { instances } : {}),
    ...(duet ? { duet: true } : {}),
    metrics: merged.metrics,
  };
  if (merged.distributions.length) doc.distributions = merged.distributions;
  if (artifacts.length) doc.artifacts = artifacts;
  if (trials.length && trials.every((t) => t.load)) doc.load = trials.map((t) => t.load);
  const saturated = doc.load && saturationNote(doc.load, tool?.name);
  if (saturated) notes = [saturated, ...notes];
  // Trial notes keep their trial number, so equal notes of two trials (same counts) both survive.
  const trialNotes = trials.flatMap((t, i) => (t.notes || []).map((n) => (trials.length > 1 ? `trial ${i + 1}: ${n}` : n)));
  const allNotes = [...notes, ...merged.notes, ...trialNotes];
  if (allNotes.length) doc.notes = [...new Set(allNotes)];
  return assertResult(doc, where);
}

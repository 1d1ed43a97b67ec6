// Dense layout of a run's page data: metric definitions once per run, each measurement a row of numbers; shared by builder and page.
// Kept free of Node imports on purpose: the page bundles it to read run files back.
import { jobIdOf } from './archive.js';

/** A metric's fields a row of a run file holds in its places (the rest go in an object after them). */
const METRIC_FIELDS = new Set(['name', 'unit', 'better', 'case', 'confidence', 'value', 'lower', 'upper', 'samples']);

/** A distribution whose percentiles are all { p, value } holds them as [p, value] pairs (`pv`). */
function packDistribution(d) {
  if (!Array.isArray(d?.percentiles) || !d.percentiles.every((q) => Object.keys(q).join() === 'p,value')) return d;
  const { percentiles, ...rest } = d;
  return { ...rest, pv: percentiles.map((q) => [q.p, q.value]) };
}

function unpackDistribution(d) {
  if (!Array.isArray(d?.pv)) return d;
  const { pv, ...rest } = d;
  return { ...rest, percentiles: pv.map(([p, value]) => ({ p, value })) };
}

/**
 * Numbers distinct tuples of plain values (strings, numbers, null) in the order they first come: `indexOf(tuple)` gives
 * a tuple's number, adding it to `list` when new. Tuples are told apart value by value through nested Maps, without
 * making a key text per tuple (a year of runs holds a million metric definitions to number). All tuples of one table
 * have the same length.
 */
export function tupleTable() {
  const list = [];
  const root = new Map();
  const indexOf = (tuple) => {
    let node = root;
    const last = tuple.length - 1;
    for (let i = 0; i < last; i += 1) {
      let next = node.get(tuple[i]);
      if (!next) node.set(tuple[i], (next = new Map()));
      node = next;
    }
    let at = node.get(tuple[last]);
    if (at === undefined) {
      at = list.length;
      node.set(tuple[last], at);
      list.push(tuple);
    }
    return at;
  };
  return { list, indexOf };
}

/**
 * A run (as the site's model holds it, jobs with metrics) in the layout its file is written in: `defs` lists each
 * distinct [name, unit, better, case, confidence] once, and a job's `m` holds one row per metric:
 * [definition, value, lower, upper, samples] (null where absent), plus an object of any other fields.
 * A measured job leaves out what its other fields say anyway (its id, the run's role, a subject named as its suite;
 * a missing subject is written as null) and holds its distributions' percentiles as [p, value] pairs (`pv`).
 * Parameters and the rest of a job are kept as they are. Pure.
 */
export function packRun(run) {
  const { list: defs, indexOf } = tupleTable();
  const jobs = run.jobs.map((job) => {
    const { metrics, ...rest } = job;
    if (!Array.isArray(metrics)) return rest;
    // what a measured job's other fields say anyway: its id, the run's role, a subject named as its suite
    if (rest.id === jobIdOf(rest)) delete rest.id;
    if (rest.role !== undefined && rest.role === run.role) delete rest.role;
    if (rest.suite !== undefined && rest.subject === rest.suite) delete rest.subject;
    else if (rest.suite !== undefined && rest.subject === undefined) rest.subject = null;
    if (Array.isArray(rest.distributions)) rest.distributions = rest.distributions.map(packDistribution);
    const m = metrics.map((metric) => {
      const { name, unit, better, case: kase, confidence, value, lower, upper, samples } = metric;
      const row = [indexOf([name, unit, better, kase ?? null, confidence ?? null]), value ?? null, lower ?? null, upper ?? null, samples ?? null];
      // fields of its own beyond these, in an object only when there are any: making one for each of a million metrics
      // that have none was most of the packing
      const keys = Object.keys(metric);
      if (keys.some((k) => !METRIC_FIELDS.has(k))) {
        const other = {};
        for (const k of keys) if (!METRIC_FIELDS.has(k)) other[k] = metric[k];
        row.push(other);
      }
      return row;
    });
    return { ...rest, m };
  });
  return { ...run, defs, jobs };
}

/** The run as packRun was given it (jobs with their metrics as objects); a run file of another layout is returned as is. */
export function unpackRun(packed) {
  if (!Array.isArray(packed?.defs)) return packed;
  const { defs, jobs, ...run } = packed;
  return {
    ...run,
    jobs: jobs.map(({ m, ...job }) => {
      if (!Array.isArray(m)) return job;
      if (job.id === undefined) job.id = jobIdOf(job);
      if (job.role === undefined && run.role !== undefined) job.role = run.role;
      if (job.subject === undefined && job.suite !== undefined) job.subject = job.suite;
      else if (job.subject === null) delete job.subject;
      if (Array.isArray(job.distributions)) job.distributions = job.distributions.map(unpackDistribution);
      const metrics = m.map(([d, value, lower, upper, samples, other]) => {
        const [name, unit, better, kase, confidence] = defs[d];
        const metric = { name, ...(kase !== null ? { case: kase } : {}), unit, better };
        if (value !== null) metric.value = value;
        if (samples !== null) metric.samples = samples;
        if (lower !== null) metric.lower = lower;
        if (upper !== null) metric.upper = upper;
        if (confidence !== null) metric.confidence = confidence;
        return other ? { ...metric, ...other } : metric;
      });
      return { ...job, metrics };
    }),
  };
}

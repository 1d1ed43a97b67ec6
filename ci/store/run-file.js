// Dense layout of a run's page data: metric definitions once per run, each measurement a row of numbers; shared by builder and page.
// Kept free of Node imports on purpose: the page bundles it to read run files back.

/**
 * A run (as the site's model holds it, jobs with metrics) in the layout its file is written in: `defs` lists each
 * distinct [name, unit, better, case, confidence] once, and a job's `m` holds one row per metric:
 * [definition, value, lower, upper, samples] (null where absent), plus an object of any other fields.
 * Distributions, parameters and the rest of a job are kept as they are. Pure.
 */
export function packRun(run) {
  const defs = [];
  const at = new Map();
  const jobs = run.jobs.map((job) => {
    const { metrics, ...rest } = job;
    if (!Array.isArray(metrics)) return rest;
    const m = metrics.map((metric) => {
      const { name, unit, better, case: kase, confidence, value, lower, upper, samples, ...other } = metric;
      const def = [name, unit, better, kase ?? null, confidence ?? null];
      const key = JSON.stringify(def);
      if (!at.has(key)) {
        at.set(key, defs.length);
        defs.push(def);
      }
      const row = [at.get(key), value ?? null, lower ?? null, upper ?? null, samples ?? null];
      if (Object.keys(other).length) row.push(other);
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

// Turns what the store holds (documents, failures, archives) into runs and per-metric series with change points; pure.
import { median } from 'simple-statistics';
import { changePoints, DEFAULTS as CP_DEFAULTS } from '../changepoints.js';
import { archivedRuns, jobIdOf } from './archive.js';
import { metricId, seriesId } from './paths.js';

/** Roles whose measurements form the history: pushes to main, laptop runs, and the measured side of a comparison. */
export const TREND_ROLES = Object.freeze(['main', 'local', 'head']);
const ROLE_RANK = { head: 0, main: 1, local: 2, base: 3 };

const jobKey = (runId, role, jobId) => `${runId}\u0000${role}\u0000${jobId}`;

/**
 * Runs and series from store contents. docs/failures as read from runs/, archives as read from archive/.
 * A job present both as a document and in an archive (a compaction interrupted halfway) counts once, as the document.
 * Returns { runs, series }: runs sorted by start time, each with its jobs (archived jobs expand their
 * metrics on first use); series points refer to runs by index: every run while documents exist, one point
 * per commit (the median of its runs) once archived.
 */
export function buildModel({ docs = [], failures = [], archives = [] }) {
  const runsById = new Map();
  const seen = new Set();
  // run, role and job id of every job read from runs/ (document or failure): those are never taken from an archive
  const fromRuns = new Set();
  const runOf = (run, runner, archived) => {
    let r = runsById.get(run.id);
    if (!r) {
      r = { id: run.id, startedAt: run.startedAt, t: Date.parse(run.startedAt), commit: run.commit ?? null, ref: run.ref ?? null, trigger: run.trigger || 'local', role: run.role, runner: runner || {}, archived, jobs: [] };
      if (run.pr) r.pr = run.pr;
      if (run.dirty) r.dirty = true;
      runsById.set(run.id, r);
    } else if (ROLE_RANK[run.role] < ROLE_RANK[r.role]) {
      Object.assign(r, { role: run.role, commit: run.commit ?? null, ref: run.ref ?? null, runner: runner || r.runner });
    }
    if (!archived) r.archived = false;
    return r;
  };
  for (const doc of docs) {
    const id = jobIdOf({ ...doc, tool: doc.tool.name });
    const k = jobKey(doc.run.id, doc.run.role, id);
    if (seen.has(k)) continue;
    seen.add(k);
    fromRuns.add(k);
    const job = {
      id, role: doc.run.role, status: 'ok', suite: doc.suite, subject: doc.subject, variant: doc.variant,
      tool: doc.tool.name, toolVersion: doc.tool.version, scenario: doc.scenario, params: doc.params, trials: doc.trials, metrics: doc.metrics,
    };
    if (doc.distributions?.length) job.distributions = doc.distributions;
    if (doc.notes?.length) job.notes = doc.notes;
    runOf(doc.run, doc.runner, false).jobs.push(job);
  }
  for (const f of failures) {
    const k = jobKey(f.run.id, f.run.role, `${f.job.id}\u0000failed`);
    if (seen.has(k)) continue;
    seen.add(k);
    fromRuns.add(jobKey(f.run.id, f.run.role, f.job.id));
    runOf(f.run, f.runner, false).jobs.push({ ...f.job, role: f.run.role, status: f.status, reason: f.reason, ...(f.logTail ? { logTail: f.logTail } : {}) });
  }
  for (const archive of archives) {
    for (const ar of archivedRuns(archive, { lazy: true })) {
      const jobs = ar.jobs.filter((j) => !seen.has(jobKey(ar.id, j.role, j.status === 'ok' ? j.id : `${j.id}\u0000failed`)));
      if (!jobs.length) continue;
      const r = runOf(ar, ar.runner, true);
      for (const j of jobs) {
        seen.add(jobKey(ar.id, j.role, j.status === 'ok' ? j.id : `${j.id}\u0000failed`));
        r.jobs.push(j);
      }
    }
  }
  const runs = [...runsById.values()].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  runs.forEach((r, i) => {
    r.index = i;
    r.jobs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : ROLE_RANK[a.role] - ROLE_RANK[b.role]));
  });

  const series = [];
  // series by job (suite, variant, tool, scenario), then by metric id: no key is built per measured value
  const byJob = new Map();
  const seriesOfJob = (job) => {
    const k = `${job.suite}\u0000${job.variant}\u0000${job.tool}\u0000${job.scenario}`;
    let m = byJob.get(k);
    if (!m) byJob.set(k, (m = new Map()));
    return m;
  };
  const seriesFor = (jobSeries, job, m) => {
    const metric = metricId(m);
    let s = jobSeries.get(metric);
    if (!s) {
      const key = { suite: job.suite, variant: job.variant, tool: job.tool, scenario: job.scenario, metric };
      s = { id: seriesId(key), key, name: m.name, ...(m.case ? { case: m.case } : {}), unit: m.unit, better: m.better, points: { run: [], v: [], lo: [], hi: [], n: [] } };
      jobSeries.set(metric, s);
      series.push(s);
    }
    return s.points;
  };
  const add = (p, run, v, lo, hi, n) => {
    p.run.push(run);
    p.v.push(v);
    p.lo.push(lo ?? null);
    p.hi.push(hi ?? null);
    p.n.push(n);
  };
  for (const r of runs) {
    if (r.archived) continue;
    for (const job of r.jobs) {
      if (job.status !== 'ok' || !TREND_ROLES.includes(job.role) || job.metrics === undefined || Object.getOwnPropertyDescriptor(job, 'metrics').get) continue;
      const jobSeries = seriesOfJob(job);
      for (const m of job.metrics) add(seriesFor(jobSeries, job, m), r.index, m.value, m.lower, m.upper, 1);
    }
  }
  // archived months: read column-wise, one point per commit; runs also present as documents were counted above
  for (const archive of archives) {
    for (const job of archive.jobs) {
      const id = jobIdOf(job);
      const jobSeries = seriesOfJob(job);
      for (const point of job.points) {
        const keep = [];
        point.runs.forEach((ri, pos) => {
          const run = archive.runs[ri];
          const model = runsById.get(run.id);
          if (!TREND_ROLES.includes(run.role) || !model) return;
          // a run whose document survived is plotted from the document
          if (fromRuns.has(jobKey(run.id, run.role, id))) return;
          keep.push({ pos, index: model.index, t: model.t });
        });
        if (!keep.length) continue;
        const last = keep.reduce((a, b) => (b.t >= a.t ? b : a));
        job.metrics.forEach((m, i) => {
          const raw = point.v[i];
          const values = keep.map((k) => (Array.isArray(raw) ? raw[k.pos] : raw)).filter((v) => v !== null && v !== undefined);
          if (!values.length) return;
          const p = seriesFor(jobSeries, job, m);
          if (values.length === 1) {
            const single = point.runs.length === 1;
            add(p, last.index, values[0], single ? point.lo[i] : null, single ? point.hi[i] : null, 1);
          } else {
            add(p, last.index, median(values), Math.min(...values), Math.max(...values), values.length);
          }
        });
      }
    }
  }
  const out = series.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const s of out) {
    const p = s.points;
    const order = p.run.map((_, i) => i);
    if (order.some((i) => i > 0 && p.run[i] < p.run[i - 1])) {
      order.sort((a, b) => p.run[a] - p.run[b]);
      s.points = { run: order.map((i) => p.run[i]), v: order.map((i) => p.v[i]), lo: order.map((i) => p.lo[i]), hi: order.map((i) => p.hi[i]), n: order.map((i) => p.n[i]) };
    }
  }
  return { runs, series: out, archives };
}

/**
 * Change points of one series, each tied to the run (and so the commit) where the new level starts.
 * kind says whether the step went the metric's good or bad way.
 */
export function seriesChangePoints(series, runs, options = {}) {
  const opts = { ...CP_DEFAULTS, ...options };
  return changePoints(series.points.v, opts).map((c) => {
    const run = runs[series.points.run[c.index]];
    const up = c.meanAfter > c.meanBefore;
    return {
      index: c.index,
      run: run.index,
      runId: run.id,
      commit: run.commit,
      startedAt: run.startedAt,
      before: c.meanBefore,
      after: c.meanAfter,
      change: c.change,
      pvalue: c.pvalue,
      kind: up === (series.better === 'higher') ? 'improvement' : 'regression',
    };
  });
}

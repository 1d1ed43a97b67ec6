// Compacted months of the history store: what survives of result documents once they age out of the retention window.
//
// An archive keeps, per run: its identity, runner and, per job, the tool version, parameters and every
// metric's value and interval, rounded to `digits` significant digits. It drops per-trial samples,
// distributions and notes, and stores runners, parameter sets and metric names once per month instead of
// once per document. Runs of the same commit (and role) share one point of a job, holding each run's value,
// which is what lets the trend show one point per commit beyond the retention window.
import { metricId } from './paths.js';

// kept here rather than imported from schemas.js so the page can bundle this module without the validator
export const ARCHIVE_SCHEMA = 'benchline/archive@1';

export const jobIdOf = (d) => `${d.suite}.${d.variant}.${d.tool}.${d.scenario}`;

export function emptyArchive(month, policy) {
  return { schema: ARCHIVE_SCHEMA, month, policy, runners: [], params: [], runs: [], jobs: [], failures: [] };
}

/** Index of `value` in a table of distinct JSON values, appending it when new. */
function intern(table, value, cache) {
  const key = JSON.stringify(value);
  if (cache.has(key)) return cache.get(key);
  table.push(value);
  cache.set(key, table.length - 1);
  return table.length - 1;
}

const round = (v, digits) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(digits)) : v ?? null);

/** Lookups over an archive, built once per fold session (archives are folded in batches under the store lock). */
export function indexArchive(archive) {
  const idx = { runners: new Map(), params: new Map(), runs: new Map(), jobs: new Map(), seen: new Set() };
  archive.runners.forEach((v, i) => idx.runners.set(JSON.stringify(v), i));
  archive.params.forEach((v, i) => idx.params.set(JSON.stringify(v), i));
  archive.runs.forEach((r, i) => idx.runs.set(`${r.id}\u0000${r.role}`, i));
  archive.jobs.forEach((j) => {
    idx.jobs.set(jobIdOf(j), j);
    for (const p of j.points) for (const r of p.runs) idx.seen.add(`${r}\u0000${jobIdOf(j)}`);
  });
  for (const f of archive.failures) idx.seen.add(`${f.run}\u0000${f.job.id}\u0000failed`);
  return idx;
}

/** Whether a run's job (or its failure record) is already folded into the archive. */
export function archiveHas(archive, idx, { runId, role, jobId, failed = false }) {
  const r = idx.runs.get(`${runId}\u0000${role}`);
  return r !== undefined && idx.seen.has(`${r}\u0000${jobId}${failed ? '\u0000failed' : ''}`);
}

/** Whether `archived` is `v` rounded to some number of significant digits (the month's digits may have changed since). */
const roundsTo = (v, archived) => {
  if (typeof v !== 'number' || typeof archived !== 'number') return (v ?? null) === (archived ?? null);
  for (let d = 1; d <= 17; d += 1) if (Number(v.toPrecision(d)) === archived) return true;
  return false;
};

/**
 * For a document whose run and job the archive holds already (archiveHas): the first metric whose archived value is
 * not the document's, rounded, as { metric, archived, given }, or null when the archive holds this document's values.
 */
export function archivedDifference(archive, idx, doc) {
  const jobId = jobIdOf({ ...doc, tool: doc.tool.name });
  const r = idx.runs.get(`${doc.run.id}\u0000${doc.run.role}`);
  const job = idx.jobs.get(jobId);
  const point = job?.points.find((p) => p.runs.includes(r));
  if (!point) return null;
  const pos = point.runs.indexOf(r);
  const given = new Map(doc.metrics.map((m) => [metricId(m), m.value]));
  for (const [i, m] of job.metrics.entries()) {
    const raw = point.v[i];
    const archived = Array.isArray(raw) ? raw[pos] : raw;
    if (!roundsTo(given.get(metricId(m)), archived)) return { metric: metricId(m), archived: archived ?? null, given: given.get(metricId(m)) ?? null };
    given.delete(metricId(m));
  }
  const [extra] = given.keys();
  return extra === undefined ? null : { metric: extra, archived: null, given: given.get(extra) };
}

function runIndex(archive, idx, run, runner) {
  const key = `${run.id}\u0000${run.role}`;
  if (idx.runs.has(key)) return idx.runs.get(key);
  const entry = { id: run.id, startedAt: run.startedAt, commit: run.commit ?? null, ref: run.ref ?? null, trigger: run.trigger || 'local', role: run.role, runner: intern(archive.runners, runner || {}, idx.runners) };
  if (run.pr) entry.pr = run.pr;
  if (run.dirty) entry.dirty = true;
  archive.runs.push(entry);
  idx.runs.set(key, archive.runs.length - 1);
  return archive.runs.length - 1;
}

/** Runs of one commit, role and dirtiness fold into one point; runs without a commit never share one. */
const commitKey = (r) => (r.commit ? `${r.role}\u0000${r.commit}\u0000${r.dirty ? 1 : 0}` : `run\u0000${r.id}\u0000${r.role}`);

/** Folds one result document into the archive (mutating it). Returns false when it was already there. */
export function foldDoc(archive, idx, doc, digits) {
  const jobId = jobIdOf({ ...doc, tool: doc.tool.name });
  if (archiveHas(archive, idx, { runId: doc.run.id, role: doc.run.role, jobId })) return false;
  const r = runIndex(archive, idx, doc.run, doc.runner);
  let job = idx.jobs.get(jobId);
  if (!job) {
    job = { suite: doc.suite, subject: doc.subject, variant: doc.variant, tool: doc.tool.name, scenario: doc.scenario, metrics: [], points: [] };
    archive.jobs.push(job);
    idx.jobs.set(jobId, job);
  }
  const column = new Map(job.metrics.map((m, i) => [metricId(m), i]));
  for (const m of doc.metrics) {
    if (column.has(metricId(m))) continue;
    job.metrics.push({ name: m.name, ...(m.case ? { case: m.case } : {}), unit: m.unit, better: m.better });
    column.set(metricId(m), job.metrics.length - 1);
  }
  const values = new Map(doc.metrics.map((m) => [metricId(m), m]));
  const key = commitKey(archive.runs[r]);
  let point = job.points.find((p) => commitKey(archive.runs[p.runs[0]]) === key);
  const n = job.metrics.length;
  const pick = (i, f) => round(values.get(metricId(job.metrics[i]))?.[f], digits);
  if (!point) {
    point = { runs: [r], params: intern(archive.params, doc.params, idx.params), version: doc.tool.version, trials: doc.trials, v: [], lo: [], hi: [] };
    for (let i = 0; i < n; i += 1) {
      point.v.push(pick(i, 'value'));
      point.lo.push(pick(i, 'lower'));
      point.hi.push(pick(i, 'upper'));
    }
    job.points.push(point);
  } else {
    const before = point.runs.length;
    point.runs.push(r);
    for (let i = 0; i < n; i += 1) {
      const old = point.v[i] === undefined ? null : point.v[i];
      const list = Array.isArray(old) ? old : [old, ...new Array(before - 1).fill(null)];
      point.v[i] = [...list, pick(i, 'value')];
      // one run's interval says nothing about several runs: the band becomes the spread of their values
      point.lo[i] = null;
      point.hi[i] = null;
    }
    // the newest run's settings describe the point
    point.params = intern(archive.params, doc.params, idx.params);
    point.version = doc.tool.version;
    point.trials = doc.trials;
  }
  idx.seen.add(`${r}\u0000${jobId}`);
  return true;
}

/** Folds one job failure record into the archive. Returns false when it was already there. */
export function foldFailure(archive, idx, rec) {
  if (archiveHas(archive, idx, { runId: rec.run.id, role: rec.run.role, jobId: rec.job.id, failed: true })) return false;
  const r = runIndex(archive, idx, rec.run, rec.runner);
  archive.failures.push({ run: r, job: rec.job, status: rec.status, reason: rec.reason });
  idx.seen.add(`${r}\u0000${rec.job.id}\u0000failed`);
  return true;
}

/** Metrics of one run in one job point, as result-document metrics (one value, so samples hold just it). */
function pointMetrics(job, point, pos) {
  const metrics = [];
  job.metrics.forEach((m, i) => {
    const raw = point.v[i];
    const v = Array.isArray(raw) ? raw[pos] : raw;
    if (v === null || v === undefined) return;
    const entry = { ...m, value: v, samples: [v] };
    if (point.runs.length === 1 && point.lo[i] !== null && point.lo[i] !== undefined) entry.lower = point.lo[i];
    if (point.runs.length === 1 && point.hi[i] !== null && point.hi[i] !== undefined) entry.upper = point.hi[i];
    metrics.push(entry);
  });
  return metrics;
}

const runBlock = (run) => ({ id: run.id, startedAt: run.startedAt, commit: run.commit, ref: run.ref, trigger: run.trigger, role: run.role, ...(run.pr ? { pr: run.pr } : {}), ...(run.dirty ? { dirty: true } : {}) });

/**
 * A job of an archived run whose metrics expand on first use: a site build lists tens of thousands of
 * archived jobs and reads the metrics of few. A getter on the class, not one defined per object, keeps
 * every instance the same cheap shape; toJSON writes the metrics out like any other job's.
 */
export class ArchivedJob {
  #job;
  #point;
  #pos;
  #metrics;

  constructor(fields, job, point, pos) {
    Object.assign(this, fields);
    this.#job = job;
    this.#point = point;
    this.#pos = pos;
  }

  get metrics() {
    this.#metrics ||= pointMetrics(this.#job, this.#point, this.#pos);
    return this.#metrics;
  }

  toJSON() {
    return { ...this, metrics: this.metrics };
  }
}

/**
 * Every archived run with its jobs, in the shape the site's run files have:
 * { id, startedAt, commit, ref, trigger, role, runner, archived: true, jobs: [{ id, role, status, suite, ..., metrics? }] }.
 * With lazy, jobs are ArchivedJobs whose metrics expand on first use.
 */
export function archivedRuns(archive, { lazy = false } = {}) {
  const byId = new Map();
  const runOf = (r) => {
    const run = archive.runs[r];
    let out = byId.get(run.id);
    if (!out) {
      out = { ...runBlock(run), runner: archive.runners[run.runner] || {}, archived: true, jobs: [] };
      byId.set(run.id, out);
    } else if (run.role === 'head' || (run.role !== 'base' && out.role === 'base')) {
      Object.assign(out, runBlock(run), { runner: archive.runners[run.runner] || out.runner });
    }
    return out;
  };
  for (const job of archive.jobs) {
    const id = jobIdOf(job);
    for (const point of job.points) {
      const params = archive.params[point.params] || {};
      point.runs.forEach((r, pos) => {
        const fields = {
          id, role: archive.runs[r].role, status: 'ok', suite: job.suite, subject: job.subject, variant: job.variant, tool: job.tool,
          toolVersion: point.version, scenario: job.scenario, params, trials: point.trials,
        };
        runOf(r).jobs.push(lazy ? new ArchivedJob(fields, job, point, pos) : { ...fields, metrics: pointMetrics(job, point, pos) });
      });
    }
  }
  for (const f of archive.failures) {
    runOf(f.run).jobs.push({ ...f.job, role: archive.runs[f.run].role, status: f.status, reason: f.reason });
  }
  return [...byId.values()];
}

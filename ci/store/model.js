// Turns what the store holds (documents, failures, archives) into runs and per-metric series with change points; pure.
import { median } from 'simple-statistics';
import { changePointsResumable, DEFAULTS as CP_DEFAULTS } from '../changepoints.js';
import { ArchivedJob, archivedRuns, jobIdOf } from './archive.js';
import { metricId, seriesId } from './paths.js';
import { SlimDoc } from './read-cache.js';

/** Roles whose measurements form the history: pushes to main, laptop runs, and the measured side of a comparison. */
export const TREND_ROLES = Object.freeze(['main', 'local', 'head']);
const ROLE_RANK = { head: 0, main: 1, local: 2, base: 3 };

const jobKey = (runId, role, jobId) => `${runId}\u0000${role}\u0000${jobId}`;
// a series' points: the unit of its first point, and every point's unit once one differs (null before)
const FIRST_UNIT = Symbol('first unit');
const UNITS = Symbol('units');

/** The points of units other than `unit` among a series' point units: { points, units: [unit, ...] } (sorted). Pure. */
function otherUnitsOf(units, unit) {
  const others = units.filter((u) => u !== unit);
  return { points: others.length, units: [...new Set(others)].sort() };
}
const present = (v) => v !== null && v !== undefined;

/** A job of a cached document (read-cache.js SlimDoc): its metrics are the document's, expanded on first use. */
class CachedJob {
  #doc;

  constructor(fields, doc) {
    Object.assign(this, fields);
    this.#doc = doc;
  }

  get doc() {
    return this.#doc;
  }

  get metrics() {
    return this.#doc.metrics;
  }

  toJSON() {
    return { ...this, metrics: this.metrics };
  }
}

/**
 * Runs and series from store contents. docs/failures as read from runs/, archives as read from archive/.
 * A job present both as a document and in an archive (a compaction interrupted halfway) counts once, as the document.
 * Returns { runs, series }: runs sorted by start time, each with its jobs (archived jobs expand their
 * metrics on first use); series points refer to runs by index: every run while documents exist, one point
 * per commit (the median of its runs) once archived. With `series: false`, runs only (series: []): what a run's own
 * file needs (warm-worker.js lays out one run folder at a time).
 */
export function buildModel({ docs = [], failures = [], archives = [] }, { series: withSeries = true } = {}) {
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
    const id = jobIdOf({ suite: doc.suite, variant: doc.variant, tool: doc.tool.name, scenario: doc.scenario });
    const k = jobKey(doc.run.id, doc.run.role, id);
    if (seen.has(k)) continue;
    seen.add(k);
    fromRuns.add(k);
    const fields = {
      id, role: doc.run.role, status: 'ok', suite: doc.suite, subject: doc.subject, variant: doc.variant,
      tool: doc.tool.name, toolVersion: doc.tool.version, scenario: doc.scenario, params: doc.params, trials: doc.trials,
    };
    // a cached document's metrics stay rows until something asks for them (read-cache.js SlimDoc)
    const job = doc instanceof SlimDoc ? new CachedJob(fields, doc) : { ...fields, metrics: doc.metrics };
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
  // runs (id and role) read from runs/: only their archived jobs need a check one by one, which spares
  // building a key per archived job in a long history where documents and archives hardly ever overlap
  const runRoleKey = (id, role) => `${id}\u0000${role}`;
  const withDocuments = new Set([...docs, ...failures].map((d) => runRoleKey(d.run.id, d.run.role)));
  const fromArchive = new Set();
  for (const archive of archives) {
    for (const ar of archivedRuns(archive, { lazy: true })) {
      const checkEach = fromArchive.has(ar.id) || ar.jobs.some((j) => withDocuments.has(runRoleKey(ar.id, j.role)));
      const jobs = checkEach ? ar.jobs.filter((j) => !seen.has(jobKey(ar.id, j.role, j.status === 'ok' ? j.id : `${j.id}\u0000failed`))) : ar.jobs;
      fromArchive.add(ar.id);
      if (!jobs.length) continue;
      const r = runOf(ar, ar.runner, true);
      for (const j of jobs) {
        if (checkEach) seen.add(jobKey(ar.id, j.role, j.status === 'ok' ? j.id : `${j.id}\u0000failed`));
        r.jobs.push(j);
      }
    }
  }
  const runs = [...runsById.values()].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  runs.forEach((r, i) => {
    r.index = i;
    r.jobs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : ROLE_RANK[a.role] - ROLE_RANK[b.role]));
  });
  if (!withSeries) return { runs, series: [], archives };

  const series = [];
  // series by job (suite, variant, tool, scenario), then by metric id: no key is built per measured value
  const byJob = new Map();
  const seriesOfJob = (job) => {
    const k = `${job.suite}\u0000${job.variant}\u0000${job.tool}\u0000${job.scenario}`;
    let m = byJob.get(k);
    if (!m) byJob.set(k, (m = new Map()));
    return m;
  };
  // A series is described (name, unit, direction) by its newest document, or while it has none by its newest archived
  // month: documents and months are gone through oldest first, so each one that says otherwise describes it anew
  const described = new Set();
  const seriesFor = (jobSeries, job, m, fromDocument = true) => {
    const metric = metricId(m);
    let s = jobSeries.get(metric);
    if (s && (s.unit !== m.unit || s.better !== m.better || (fromDocument && !described.has(s)))) {
      if (fromDocument || !described.has(s)) Object.assign(s, { name: m.name, unit: m.unit, better: m.better });
      if (fromDocument) described.add(s);
    }
    if (!s) {
      const key = { suite: job.suite, variant: job.variant, tool: job.tool, scenario: job.scenario, metric };
      const points = { run: [], v: [], lo: [], hi: [], n: [] };
      // the unit of the series' first point, and each point's unit once one differs (not part of the points' data)
      Object.defineProperties(points, { [FIRST_UNIT]: { value: m.unit }, [UNITS]: { value: null, writable: true } });
      s = { id: seriesId(key), key, name: m.name, ...(m.case ? { case: m.case } : {}), unit: m.unit, better: m.better, points };
      jobSeries.set(metric, s);
      series.push(s);
      if (fromDocument) described.add(s);
    }
    return s.points;
  };
  const add = (p, run, v, lo, hi, n, unit) => {
    p.run.push(run);
    p.v.push(v);
    p.lo.push(lo ?? null);
    p.hi.push(hi ?? null);
    p.n.push(n);
    if (p[UNITS]) p[UNITS].push(unit);
    else if (unit !== p[FIRST_UNIT]) p[UNITS] = [...new Array(p.v.length - 1).fill(p[FIRST_UNIT]), unit];
  };
  // archived months first: they hold the older runs, so most series come out in run order without a sort.
  // Read column-wise, one point per commit; runs also present as documents are plotted from those below.
  for (const archive of archives) {
    // each archived run's model index, or -1 where the run is not part of trends
    const indexOf = archive.runs.map((run) => (TREND_ROLES.includes(run.role) ? runsById.get(run.id)?.index ?? -1 : -1));
    const hasDocuments = archive.runs.map((run) => withDocuments.has(runRoleKey(run.id, run.role)));
    for (const job of archive.jobs) {
      const id = jobIdOf(job);
      const jobSeries = seriesOfJob(job);
      const targets = new Array(job.metrics.length);
      for (const point of job.points) {
        // positions of the point's runs plotted from here, and the newest of them (which the point is drawn at)
        const keep = [];
        let last = -1;
        point.runs.forEach((ri, pos) => {
          const index = indexOf[ri];
          if (index < 0 || (hasDocuments[ri] && fromRuns.has(jobKey(archive.runs[ri].id, archive.runs[ri].role, id)))) return;
          keep.push(pos);
          if (last < 0 || runs[index].t >= runs[last].t) last = index;
        });
        if (!keep.length) continue;
        const single = point.runs.length === 1;
        for (let i = 0; i < job.metrics.length; i += 1) {
          const raw = point.v[i];
          let v;
          let lo = null;
          let hi = null;
          let n = 1;
          if (keep.length === 1) {
            // the common case, one run a point: no array of values to build
            v = Array.isArray(raw) ? raw[keep[0]] : raw;
            if (single) {
              lo = point.lo[i];
              hi = point.hi[i];
            }
          } else {
            const values = Array.isArray(raw) ? keep.map((pos) => raw[pos]).filter(present) : present(raw) ? keep.map(() => raw) : [];
            v = values.length > 1 ? median(values) : values[0];
            if (values.length > 1) {
              lo = Math.min(...values);
              hi = Math.max(...values);
              n = values.length;
            }
          }
          if (!present(v)) continue;
          targets[i] ||= seriesFor(jobSeries, job, job.metrics[i], false);
          add(targets[i], last, v, lo, hi, n, job.metrics[i].unit);
        }
      }
    }
  }
  for (const r of runs) {
    if (r.archived) continue;
    for (const job of r.jobs) {
      if (job.status !== 'ok' || !TREND_ROLES.includes(job.role) || job instanceof ArchivedJob) continue;
      if (job instanceof CachedJob) {
        // straight from the rows: no metric object per value
        const jobSeries = seriesOfJob(job);
        const { rows, defs } = job.doc;
        for (const [d, value, lower, upper] of rows) add(seriesFor(jobSeries, job, defs[d]), r.index, value, lower, upper, 1, defs[d].unit);
        continue;
      }
      if (job.metrics === undefined) continue;
      const jobSeries = seriesOfJob(job);
      for (const m of job.metrics) add(seriesFor(jobSeries, job, m), r.index, m.value, m.lower, m.upper, 1, m.unit);
    }
  }
  // a series only archives made keeps the description a later document of it gives (snapshot.js appends such documents)
  for (const s of series) if (!described.has(s)) Object.defineProperty(s, 'undescribed', { value: true, configurable: true });
  const out = series.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const s of out) inRunOrder(s);
  return { runs, series: out, archives };
}

/** Puts a series' points in run order and leaves out those measured in another unit than the series', counting them. */
function inRunOrder(s) {
  const p = s.points;
  let sorted = true;
  for (let i = 1; i < p.run.length && sorted; i += 1) sorted = p.run[i] >= p.run[i - 1];
  const units = p[UNITS];
  // stable: points of one run keep the order they were added in
  const order = sorted ? null : p.run.map((_, i) => i).sort((a, b) => p.run[a] - p.run[b] || a - b);
  // points measured in another unit than the series' (its newest document's) are not comparable with it: left out
  // and counted, so a metric that changed unit shows no step of its unit's doing (a count of 2.5 becoming 2.5 ms)
  const kept = units ? (order || p.run.map((_, i) => i)).filter((i) => units[i] === s.unit) : order;
  if (units) s.otherUnits = otherUnitsOf(units, s.unit);
  if (kept) s.points = { run: kept.map((i) => p.run[i]), v: kept.map((i) => p.v[i]), lo: kept.map((i) => p.lo[i]), hi: kept.map((i) => p.hi[i]), n: kept.map((i) => p.n[i]) };
}

/**
 * Change points of one series, each tied to the run (and so the commit) where the new level starts.
 * kind says whether the step went the metric's good or bad way. saved: what an earlier call on this series handed to
 * `onSaved` (changepoints.js changePointsResumable), so only the windows after the points it saw are scanned again;
 * a series kept from the last build (snapshot.js) hands on the hash of the values it had (`kept.hashed`).
 */
export function seriesChangePoints(series, runs, options = {}, saved = null, onSaved = () => {}) {
  const opts = { ...CP_DEFAULTS, ...options };
  const found = changePointsResumable(series.points.v, opts, saved, series.kept?.hashed);
  onSaved(found.saved);
  return found.points.map((c) => {
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

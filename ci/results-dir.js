// Reads a results folder written by `benchline run`/`bench`: run.json, result documents by role, failed jobs.
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assertResult, SCHEMA_ID } from './schema/index.js';
import { UserError } from './errors.js';
import { jobIdOf } from './store/archive.js';
import { insideDir } from './names.js';

export const RUN_SCHEMA = 'benchline/run@1';
/** Roles whose documents are "the measurement" when no base is involved, in order of preference. */
export const PRIMARY_ROLES = Object.freeze(['head', 'local', 'main']);
/** The sides a run measures: the two of an A/B run, or the one of a run without --base. */
const ROLES = new Set(['head', 'base', 'main', 'local']);

export class ResultsError extends UserError {}

function readJson(file, what) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ResultsError(`${file}: cannot read ${what} (${e.code || e.message}); re-run \`benchline run\` to write it`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ResultsError(`${file}: ${what} is not valid JSON (${e.message}); the run was interrupted or the file was edited: re-run \`benchline run\``);
  }
}

/** Reads and validates one result document, naming the file in every error. */
export function readResultFile(file) {
  const doc = readJson(file, 'result document');
  try {
    return assertResult(doc, file);
  } catch (e) {
    throw new ResultsError(`${e.message}\n  Write result documents with \`benchline run\` or \`benchline normalize --tool <tool> <raw-file>\``);
  }
}

/**
 * The run folder for `dir`: dir itself when it holds run.json, else the run its `latest` link
 * points to (so users may pass the results root).
 */
export function resolveRunDir(dir) {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new ResultsError(`${dir}: no such folder; pass a folder written by \`benchline run\` (results/<run-id>) or its parent`);
  if (existsSync(join(abs, 'run.json'))) return abs;
  const latest = join(abs, 'latest');
  if (existsSync(join(latest, 'run.json'))) return realpathSync(latest);
  // a run folder without run.json: the run was ended outright (kill -9, out of memory), so no handler wrote it
  if (existsSync(join(abs, 'raw'))) {
    const docs = existsSync(join(abs, 'docs')) ? walkJson(join(abs, 'docs'), []) : [];
    throw new ResultsError(`${dir}: a run that was stopped outright (kill -9, out of memory) before it ended: it has no run.json, which a run writes as it ends or is interrupted. `
      + (docs.length ? `The jobs it finished left ${docs.length} result document(s) in ${join(dir, 'docs')}: pass those files to publish or compare them` : 'No job of it finished')
      + '; run the benchmark again for a complete run');
  }
  if (!existsSync(latest) && goneLink(latest)) throw new ResultsError(goneLink(latest));
  throw new ResultsError(`${dir}: no run.json here and no \`latest\` run inside; pass a folder written by \`benchline run\` (results/<run-id>) or its parent`);
}

/** A document path listed in run.json, which must stay inside the run folder. */
export function runFilePath(runDir, rel, runFile = join(runDir, 'run.json')) {
  const abs = insideDir(runDir, rel);
  if (abs instanceof Error) throw new ResultsError(`${runFile}: lists a document at ${JSON.stringify(String(rel).slice(0, 80))}: ${abs.message}; run.json must name files inside its run folder`);
  return abs;
}

const identity = (job) => ({ id: job.id, suite: job.suite, subject: job.subject, variant: job.variant, tool: job.tool, scenario: job.scenario });

/**
 * Loads a run folder (or a results root with `latest`). Returns
 * { dir, run, docs, byRole: { head: [...], base: [...], ... }, failures: [...], entries }.
 * entries pairs each document with its role, job id and file, for readers that need the path.
 */
export function loadResultsDir(dir) {
  const runDir = resolveRunDir(dir);
  const runFile = join(runDir, 'run.json');
  const run = readJson(runFile, 'run description');
  if (run?.schema !== RUN_SCHEMA || !Array.isArray(run.jobs)) {
    throw new ResultsError(`${runFile}: not a ${RUN_SCHEMA} document (schema "${run?.schema}"); it must come from \`benchline run\``);
  }
  const entries = [];
  const failures = [];
  for (const [i, job] of run.jobs.entries()) {
    if (!job || typeof job !== 'object' || Array.isArray(job) || (job.docs !== undefined && (!job.docs || typeof job.docs !== 'object' || Array.isArray(job.docs)))) {
      throw new ResultsError(`${runFile}: jobs[${i}] is not a job as \`benchline run\` writes it (an object with id, status and docs); the file was edited or damaged: re-run the benchmark`);
    }
    const role = Object.keys(job.docs || {}).find((r) => !ROLES.has(r));
    if (role !== undefined) throw new ResultsError(`${runFile}: jobs[${i}].docs names the side ${JSON.stringify(role.slice(0, 40))}; a run's sides are ${[...ROLES].join(', ')}: the file was edited or damaged, re-run the benchmark`);
    // an interrupted job with documents is what was measured before the stop: read like a finished one
    if (job.status !== 'ok' && !(job.status === 'interrupted' && job.docs)) {
      failures.push({ ...identity(job), status: job.status, reason: job.reason || 'no reason recorded', ...(job.logTail ? { logTail: job.logTail } : {}) });
    }
    for (const [role, rel] of Object.entries(job.docs || {})) {
      const file = runFilePath(runDir, rel, runFile);
      const doc = readResultFile(file);
      // a document is read as the run's own: one copied in from another run or job would be reported and published under its own names
      const own = jobIdOf({ ...doc, tool: doc.tool.name });
      if (own !== job.id || doc.run.role !== role || (typeof run.id === 'string' && doc.run.id !== run.id)) {
        throw new ResultsError(`${file}: holds job ${own} of run ${doc.run.id} (side ${doc.run.role}), but ${runFile} lists it as job ${job.id} of run ${run.id} (side ${role}); the file was replaced or edited: re-run the benchmark`);
      }
      entries.push({ role, jobId: job.id, file, doc });
    }
  }
  const byRole = {};
  for (const e of entries) (byRole[e.role] ||= []).push(e.doc);
  return { dir: runDir, run, docs: entries.map((e) => e.doc), byRole, failures, entries };
}

/** The role whose documents a report shows as "this run": head, else local, else main, else any. */
export function primaryRole(byRole) {
  return PRIMARY_ROLES.find((r) => byRole[r]?.length) || Object.keys(byRole).find((r) => byRole[r].length);
}

/** What to say of `p` when it is a link to what is gone (most often `latest` after its run folder was deleted), else null. */
function goneLink(p) {
  try {
    return `${p}: a link to ${readlinkSync(p)}, which is gone (its run folder was deleted?); pass a run folder, or remove the link`;
  } catch {
    return null;
  }
}

/** JSON files under `dir` (recursively, in name order) appended to `out`, as paths. */
function walkJson(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const gone = e.code === 'ENOENT' && goneLink(p);
      throw gone ? new ResultsError(gone) : e;
    }
    if (st.isDirectory()) walkJson(p, out);
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

/**
 * Result documents from any path a user may pass to `compare`: a result file, a run folder, a
 * results root, or a folder of result files. Returns { byRole, source }; loose documents are grouped by run.role.
 */
export function loadDocuments(path) {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new ResultsError(`${path}: no such file or folder; pass a result document or a folder written by \`benchline run\``);
  if (statSync(abs).isFile()) {
    const doc = readResultFile(abs);
    return { byRole: { [doc.run.role]: [doc] }, source: 'file' };
  }
  if (existsSync(join(abs, 'run.json')) || existsSync(join(abs, 'latest', 'run.json'))) {
    const loaded = loadResultsDir(abs);
    return { byRole: loaded.byRole, source: 'run', loaded };
  }
  const docs = [];
  for (const f of walkJson(abs, [])) {
    const doc = readJson(f, 'JSON file');
    if (doc?.schema === SCHEMA_ID) docs.push(readResultFile(f));
  }
  if (!docs.length) throw new ResultsError(`${path}: holds no run.json and no ${SCHEMA_ID} documents; pass a folder written by \`benchline run\``);
  const byRole = {};
  for (const d of docs) (byRole[d.run.role] ||= []).push(d);
  return { byRole, source: 'folder' };
}

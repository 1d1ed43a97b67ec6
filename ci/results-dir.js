// Reads a results folder written by `benchline run`/`bench`: run.json, result documents by role, failed jobs.
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { assertResult, otherVersion, SCHEMA_ID } from './schema/index.js';
import { UserError } from './errors.js';
import { firstFew } from './units.js';
import { jobIdOf } from './store/archive.js';
import { insideDir } from './names.js';

const RUN_SCHEMA = 'benchline/run@1';
/** Roles whose documents are "the measurement" when no base is involved, in order of preference. */
const PRIMARY_ROLES = Object.freeze(['head', 'local', 'main']);
/** The sides a run measures: the two of an A/B run, or the one of a run without --base. */
const ROLES = new Set(['head', 'base', 'main', 'local']);

class ResultsError extends UserError {}

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
  return asResult(readJson(file, 'result document'), file);
}

/** `doc`, read from `file`, when it is a valid result document; else an error naming the file. */
function asResult(doc, file) {
  const version = otherVersion(doc?.schema, SCHEMA_ID);
  if (version) throw new ResultsError(`${file}: ${version}`);
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
function runFilePath(runDir, rel, runFile = join(runDir, 'run.json')) {
  const abs = insideDir(runDir, rel);
  if (abs instanceof Error) throw new ResultsError(`${runFile}: lists a document at ${JSON.stringify(String(rel).slice(0, 80))}: ${abs.message}; run.json must name files inside its run folder`);
  return abs;
}

const identity = (job) => ({ id: job.id, suite: job.suite, subject: job.subject, variant: job.variant, tool: job.tool, scenario: job.scenario });

/** The statuses `benchline run` writes for a job; a job without one was not settled when the run stopped on an error. */
const JOB_STATUSES = Object.freeze(['ok', 'failed', 'skipped', 'interrupted']);
// only these jobs have documents: the runner writes none for a job that failed or was skipped
const MEASURED = new Set(['ok', 'interrupted', undefined]);

/** What a JSON value is, in words: "an array", "null", "a number", ... */
const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
/** A name from run.json, quoted and cut short for a message. */
const quote = (v) => JSON.stringify(String(v).slice(0, 80));

/** run.json's own fields the reports read, and what `benchline run` writes in each (when it writes the field at all). */
const RUN_FIELDS = [
  ['id', ['a string']], ['startedAt', ['a string']], ['finishedAt', ['a string']], ['profile', ['a string']], ['config', ['a string']],
  ['order', ['a string']], ['seed', ['a number']], ['status', ['a string']],
  ['head.commit', ['a string', 'null']], ['head.dirty', ['a boolean']], ['base.ref', ['a string']], ['base.commit', ['a string', 'null']],
];

/**
 * Why run.json's content `run` is not one `benchline run` writes, or null: its schema, a job that is no job, a side
 * or document path of the wrong kind, a status the runner never writes (or documents beside a failure), a job listed
 * twice. Pure; every reader refuses such a run whole, since it cannot tell which of its documents are the run's.
 */
function runFileProblem(run, runFile) {
  if (run?.schema !== RUN_SCHEMA || !Array.isArray(run.jobs)) {
    const version = otherVersion(run?.schema, RUN_SCHEMA);
    if (version) return `${runFile}: ${version}`;
    return `${runFile}: not a ${RUN_SCHEMA} document (schema "${run?.schema}"); it must come from \`benchline run\``;
  }
  const damaged = 'the file was edited or damaged: re-run the benchmark';
  // the run's own facts, which the reports print: each of the kind `benchline run` writes, when there
  for (const [key, kinds] of RUN_FIELDS) {
    const [part, field] = key.split('.');
    const holder = field ? run[part] : run;
    const v = holder && typeof holder === 'object' ? holder[field ?? part] : undefined;
    if (field && run[part] !== undefined && (!run[part] || typeof run[part] !== 'object' || Array.isArray(run[part]))) return `${runFile}: ${part} is ${kindOf(run[part])}, not an object as \`benchline run\` writes it; ${damaged}`;
    if (v !== undefined && !kinds.includes(kindOf(v))) return `${runFile}: ${key} is ${kindOf(v)}, not ${kinds.join(' or ')}; ${damaged}`;
  }
  const seen = new Map();
  for (const [i, job] of run.jobs.entries()) {
    if (!job || typeof job !== 'object' || Array.isArray(job) || (job.docs !== undefined && (!job.docs || typeof job.docs !== 'object' || Array.isArray(job.docs)))) {
      return `${runFile}: jobs[${i}] is not a job as \`benchline run\` writes it (an object with id, status and docs); ${damaged}`;
    }
    const role = Object.keys(job.docs || {}).find((r) => !ROLES.has(r));
    if (role !== undefined) return `${runFile}: jobs[${i}].docs names the side ${quote(role.slice(0, 40))}; a run's sides are ${[...ROLES].join(', ')}: ${damaged}`;
    const [side, rel] = Object.entries(job.docs || {}).find(([, r]) => typeof r !== 'string') || [];
    if (side !== undefined) return `${runFile}: jobs[${i}].docs.${side} is ${kindOf(rel)}, not the path of a result document; ${damaged}`;
    if (job.status !== undefined && !JOB_STATUSES.includes(job.status)) {
      return `${runFile}: jobs[${i}] (job ${quote(job.id)}) has status ${quote(job.status)}; \`benchline run\` writes ${JOB_STATUSES.join(', ')}: ${damaged}`;
    }
    if (!MEASURED.has(job.status) && Object.keys(job.docs || {}).length) {
      return `${runFile}: jobs[${i}] (job ${quote(job.id)}) is ${job.status} but lists result documents, which \`benchline run\` writes only for a job that is ok or interrupted: ${damaged}`;
    }
    if (seen.has(job.id)) return `${runFile}: lists job ${quote(job.id)} twice (jobs[${seen.get(job.id)}] and jobs[${i}]); a run measures each job once: ${damaged}`;
    seen.set(job.id, i);
  }
  return null;
}

/**
 * Reads the document run.json lists for `job` on side `role` (at `file`): it must be a valid result document of that
 * run, job and side. One copied in from another run or job would be reported and published under its own names.
 */
function readListedDocument(file, runFile, run, job, role) {
  // a path run.json names that holds nothing: run.json was edited (or the document deleted), and is the file to name
  if (!existsSync(file)) throw new ResultsError(`${runFile}: lists ${file} as the ${role} document of job ${quote(job.id)}, but there is no such file; run.json was edited or the document removed: re-run the benchmark`);
  const doc = readResultFile(file);
  const own = jobIdOf({ ...doc, tool: doc.tool.name });
  if (own !== job.id || doc.run.role !== role || (typeof run.id === 'string' && doc.run.id !== run.id)) {
    throw new ResultsError(`${file}: holds job ${own} of run ${doc.run.id} (side ${doc.run.role}), but ${runFile} lists it as job ${job.id} of run ${run.id} (side ${role}), so it is not read as this run's; the file was replaced or edited: put the run's own document back or re-run the benchmark (a result of another run can be passed by itself)`);
  }
  return { role, jobId: job.id, file, doc };
}

/**
 * Loads a run folder (or a results root with `latest`). Returns
 * { dir, run, docs, byRole: { head: [...], base: [...], ... }, failures: [...], entries, problems }.
 * entries pairs each document with its role, job id and file, for readers that need the path.
 * A run.json that is no run's throws. A document that cannot be read as the run's throws too, unless `partial`:
 * then it is left out and named in problems ([{ file, message }]), and the others are read (publish keeps them).
 */
export function loadResultsDir(dir, { partial = false } = {}) {
  const runDir = resolveRunDir(dir);
  const runFile = join(runDir, 'run.json');
  const run = readJson(runFile, 'run description');
  const problem = runFileProblem(run, runFile);
  if (problem) throw new ResultsError(problem);
  const entries = [];
  const failures = [];
  const problems = [];
  for (const job of run.jobs) {
    const docs = Object.entries(job.docs || {});
    // an interrupted job with documents is what was measured before the stop: read like a finished one
    if (job.status !== 'ok' && !docs.length) {
      failures.push({ ...identity(job), status: job.status, reason: job.reason || 'no reason recorded', ...(job.logTail ? { logTail: job.logTail } : {}) });
    }
    for (const [role, rel] of docs) {
      let file = runFile;
      try {
        file = runFilePath(runDir, rel, runFile);
        entries.push(readListedDocument(file, runFile, run, job, role));
      } catch (e) {
        if (!partial || !(e instanceof ResultsError)) throw e;
        problems.push({ file, message: e.message });
      }
    }
  }
  const byRole = {};
  for (const e of entries) (byRole[e.role] ||= []).push(e.doc);
  return { dir: runDir, run, docs: entries.map((e) => e.doc), byRole, failures, entries, problems };
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

/** Whether folder `abs` is a run folder or a results root (its `latest` run), rather than a folder of result documents. */
export const holdsRun = (abs) => existsSync(join(abs, 'run.json')) || existsSync(join(abs, 'latest', 'run.json'));

/**
 * The result documents under folder `path` (other JSON files are passed over), as [{ file, doc }], and those that
 * cannot be read, as problems [{ file, message }]; a folder with neither is a problem too. A folder that holds run
 * folders is one problem: their documents are read only with their run.json (loadResultsDir), never as loose ones.
 */
export function readDocumentFolder(path) {
  const docs = [];
  const problems = [];
  const files = walkJson(resolve(path), []);
  const runs = files.filter((f) => basename(f) === 'run.json').map(dirname);
  if (runs.length) {
    return { docs, problems: [{ file: path, message: `${path}: holds run folders (${firstFew(runs)}), whose documents are read only with their run.json, and no \`latest\` run; pass a run folder itself` }] };
  }
  for (const file of files) {
    try {
      const json = readJson(file, 'JSON file');
      if (json?.schema === SCHEMA_ID) docs.push({ file, doc: asResult(json, file) });
    } catch (e) {
      if (!(e instanceof ResultsError)) throw e;
      problems.push({ file, message: e.message });
    }
  }
  if (!docs.length && !problems.length) problems.push({ file: path, message: `${path}: holds no run.json and no ${SCHEMA_ID} documents; pass a folder written by \`benchline run\`` });
  return { docs, problems };
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
  if (holdsRun(abs)) {
    const loaded = loadResultsDir(abs);
    return { byRole: loaded.byRole, source: 'run', loaded };
  }
  const { docs, problems } = readDocumentFolder(path);
  if (problems.length) throw new ResultsError(problems[0].message);
  const byRole = {};
  for (const { doc } of docs) (byRole[doc.run.role] ||= []).push(doc);
  return { byRole, source: 'folder' };
}

// The history store: append-only result documents per run and job, compacted by month once they age out.
//
// Layout (see ci/store/README.md):
//   <store>/store.json                                  { schema: benchline/store@1, policy }
//   <store>/runs/<yyyy>/<mm>/<run>/<role>/<job>.json     result documents, written once, never changed
//   <store>/runs/<yyyy>/<mm>/<run>/<role>/<job>.failed.json   job failures (benchline/failure@1)
//   <store>/archive/<yyyy>-<mm>.json                    compacted months (benchline/archive@1)
// A document's name derives from its run id, role and job id, so publishing it twice finds it in place;
// writes are create-once hard links, so concurrent publishers never overwrite each other and need no
// lock. Only compaction, which rewrites a month's archive and then removes what it folded, takes the lock.
import { closeSync, constants as fsConstants, existsSync, fstatSync, openSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { lock } from './lock.js';
import { otherVersion, resultProblems, SCHEMA_ID } from '../schema/index.js';
import { holdsRun, loadResultsDir, primaryRole, readDocumentFolder, readResultFile } from '../results-dir.js';
import { UserError } from '../errors.js';
import { ARCHIVE_SCHEMA, FAILURE_SCHEMA, STORE_SCHEMA, storeFileProblems } from './schemas.js';
import { archivedDifference, emptyArchive, foldDoc, foldFailure, indexArchive, archiveHas, jobIdOf } from './archive.js';
import { segment } from './paths.js';
import { dirEntries, isTempFile, listFiles, pruneEmptyDirs, walkFiles, writeNew, writeReplace } from './files.js';
import { insideDir } from '../names.js';
import { isRootOrHome } from '../fsutil.js';
import { firstFew } from '../units.js';
import { entryFits, runFolderOf, unpackDocs } from './read-cache.js';

/**
 * Retention: every run of the last `keepDays` days (counted back from the newest run in the store, so an
 * idle store does not decay) and of the months holding the newest `keepRuns` runs keeps its full
 * documents; older months are folded into archive/<yyyy>-<mm>.json. keepDays null keeps everything.
 * `digits`: significant digits archived values keep.
 */
export const DEFAULT_POLICY = Object.freeze({ keepDays: 90, keepRuns: 100, digits: 6 });

export class StoreError extends UserError {}

// what a history store's folder holds, besides what its writers leave there for a moment (the lock, temp files)
const STORE_NAMES = new Set(['store.json', 'runs', 'archive']);

/**
 * Whether `rel` (a path in the store) is a temp file the store's own writers make, where they make it: writeNew's
 * `.tmp-<pid>-<8 hex>` beside store.json or in runs/ and archive/, and write-file-atomic's `<name>.json.<number>` of
 * store.json or in archive/ (runs/ files are written once, with writeNew). Nothing else is ever removed as one.
 */
export function ownTempFile(rel) {
  const at = rel.lastIndexOf('/');
  const folder = at < 0 ? '' : rel.slice(0, at);
  const name = rel.slice(at + 1);
  const inStore = folder === '' || folder === 'archive' || folder.startsWith('runs/');
  if (/^\.tmp-\d+-[0-9a-f]{8}$/.test(name)) return inStore;
  return (folder === '' && /^store\.json\.\d+$/.test(name)) || (folder === 'archive' && /^\d{4}-\d{2}\.json\.\d+$/.test(name));
}

/**
 * Why `store` cannot be a history store, or null. Never the file system's root or the home folder; and a folder that
 * exists holds a store (its store.json) or nothing but a store's own folders: a publish writes there and removes the
 * temp files it finds, and a site build reads every file, so a project folder given by mistake (`--store .`) is refused
 * before anything is written.
 */
export function storePlaceProblem(store) {
  const where = resolve(store);
  if (isRootOrHome(where)) return `${store}: a history store needs a folder of its own (it holds nothing else); give a new folder, e.g. .benchline/history in the project`;
  let names;
  try {
    names = readdirSync(where);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    if (e.code === 'ENOTDIR') {
      const file = existingPart(where);
      if (file === where) return `${store}: is a file, not a history store folder; give a folder (it is created when missing)`;
      return `${store}: ${file} is a file, not a folder, so no history store can be made inside it; give a store folder whose parents are folders (it is created when missing)`;
    }
    throw e;
  }
  if (names.includes('store.json')) return null;
  const foreign = names.filter((n) => !STORE_NAMES.has(n) && n !== 'store.json.lock' && !ownTempFile(n)).sort();
  if (!foreign.length) return null;
  // a repository's checkout (a gh-pages branch with its own pages) keeps the store in a folder of its own inside it
  const inside = names.includes('.git') ? `, e.g. ${join(store, 'history')} inside this checkout` : '';
  return `${store}: is not a history store (no store.json) and holds other files (${firstFew(foreign)}), which a store never does; give a new or empty folder${inside}, or the folder an earlier \`benchline publish\` made`;
}

/** The longest leading part of absolute path `abs` that exists (abs itself, or the folder or file it is under). */
function existingPart(abs) {
  for (let p = abs; ; p = dirname(p)) if (existsSync(p) || dirname(p) === p) return p;
}

const DAY = 86400e3;
// memoized: a site build asks for the month of every document, and the runs of a store share few start times
const months = new Map();
const monthOf = (iso) => {
  let m = months.get(iso);
  if (m === undefined) {
    m = new Date(iso).toISOString().slice(0, 7);
    if (months.size > 100000) months.clear();
    months.set(iso, m);
  }
  return m;
};
const jobIdOfDoc = (doc) => jobIdOf({ ...doc, tool: doc.tool.name });

/** Store-relative path of a result document. */
export function docRelPath(doc) {
  return `${runFolderRel(doc.run)}/${doc.run.role}/${jobIdOfDoc(doc)}.json`;
}

/** Store-relative folder of a run's documents and failure records: runs/<yyyy>/<mm>/<run id>. */
export function runFolderRel(run) {
  const [yyyy, mm] = monthOf(run.startedAt).split('-');
  return `runs/${yyyy}/${mm}/${segment(run.id)}`;
}

/** Store-relative path of a job failure record. */
function failureRelPath(rec) {
  return `${runFolderRel(rec.run)}/${rec.run.role}/${rec.job.id}.failed.json`;
}

const archiveRelPath = (month) => `archive/${month}.json`;
const storeFile = (store) => join(store, 'store.json');

/** Reads store.json; a missing one means the defaults, a broken one is an error naming it. */
export function readPolicy(store) {
  const file = storeFile(store);
  if (!existsSync(file)) return { ...DEFAULT_POLICY };
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new StoreError(`${file}: not valid JSON (${e.message}); fix it or delete it to use the default retention policy`);
  }
  const version = otherVersion(doc?.schema, STORE_SCHEMA);
  if (version) throw new StoreError(`${file}: ${version}`);
  const problems = storeJsonProblems(doc);
  if (problems.length) throw new StoreError(`${file}: ${problems.join('; ')}; fix it, or delete it to use the default retention policy`);
  return { ...DEFAULT_POLICY, ...doc.policy };
}

// a number JSON.parse made infinite (1e400) is shown as what the file holds, not as "Infinity"
const shown = (v) => (v === undefined ? 'missing' : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : `a number too large to read (${v > 0 ? '' : '-'}1e309 or beyond)`) : JSON.stringify(v).slice(0, 60));
// what each policy key may hold, in words, beside the check
const POLICY_KEYS = {
  keepDays: [(v) => v === null || (Number.isInteger(v) && v >= 0), 'a whole number of days, 0 or more, or null to keep every run whole'],
  keepRuns: [(v) => Number.isInteger(v) && v >= 0, 'a whole number of runs, 0 or more'],
  digits: [(v) => Number.isInteger(v) && v >= 3 && v <= 17, 'a whole number from 3 to 17'],
};

/**
 * Why store.json's content is not { schema: benchline/store@1, policy }, each problem naming the key and what it may
 * hold (the schema's own words as a fallback); [] when it is.
 */
function storeJsonProblems(doc) {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return [`holds ${shown(doc)}, not { "schema": "${STORE_SCHEMA}", "policy": ${JSON.stringify(DEFAULT_POLICY)} }`];
  }
  const out = [];
  if (doc.schema !== STORE_SCHEMA) out.push(`"schema" is ${shown(doc.schema)}; it must be "${STORE_SCHEMA}"`);
  for (const key of Object.keys(doc)) if (key !== 'schema' && key !== 'policy') out.push(`key "${key}" is not one benchline knows (schema, policy): remove it`);
  const policy = doc.policy;
  if (!policy || typeof policy !== 'object' || Array.isArray(policy)) {
    out.push(`"policy" is ${shown(policy)}; it must be an object such as ${JSON.stringify(DEFAULT_POLICY)}`);
  } else {
    for (const [key, v] of Object.entries(policy)) {
      if (!Object.hasOwn(POLICY_KEYS, key)) out.push(`policy key "${key}" is not one benchline knows (${Object.keys(POLICY_KEYS).join(', ')}): remove it`);
      else if (!POLICY_KEYS[key][0](v)) out.push(`policy.${key} is ${shown(v)}; give ${POLICY_KEYS[key][1]}`);
    }
  }
  if (!out.length) out.push(...storeFileProblems(doc, STORE_SCHEMA).map((p) => `not a ${STORE_SCHEMA} document: ${p}`));
  return out;
}

/** Creates the store folder and its store.json when missing; a given policy is merged in and saved. */
export async function ensureStore(store, policy) {
  const file = storeFile(store);
  writeNew(file, `${JSON.stringify({ schema: STORE_SCHEMA, policy: { ...DEFAULT_POLICY, ...policy } }, null, 2)}\n`);
  if (!policy) return readPolicy(store);
  return withLock(store, () => {
    const merged = { ...readPolicy(store), ...policy };
    const problems = storeFileProblems({ schema: STORE_SCHEMA, policy: merged }, STORE_SCHEMA);
    if (problems.length) throw new StoreError(`retention policy ${JSON.stringify(policy)}: ${problems.join('; ')}`);
    writeReplace(file, `${JSON.stringify({ schema: STORE_SCHEMA, policy: merged }, null, 2)}\n`, { sync: true });
    return merged;
  });
}

/**
 * How the store's lock is held: the holder refreshes it every second, and a lock not refreshed for 3 s belongs to a
 * publisher that died (kill -9, a cancelled CI job), so the next one takes it after at most 3 s plus one retry.
 */
export const LOCK_OPTIONS = Object.freeze({
  stale: 3000,
  update: 1000,
  retries: { retries: 400, factor: 1.3, minTimeout: 20, maxTimeout: 500, randomize: true },
  realpath: false,
  // a holder whose refresh came late (a long synchronous compaction) may lose the lock to the next publisher;
  // compaction is safe to run twice (archive first, then removals that tolerate files already gone), so go on
  onCompromised: () => {},
});

/** Runs fn while holding the store's lock; waits for other holders (compactions elsewhere) with retries. */
async function withLock(store, fn) {
  const release = await lock(storeFile(store), LOCK_OPTIONS);
  try {
    return await fn();
  } finally {
    await release().catch(() => { /* taken over as stale meanwhile: nothing left to release */ });
  }
}

const readJsonFile = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Failure records for the failed and skipped jobs of a loaded run folder. */
function failureRecords(loaded) {
  const docs = loaded.docs;
  const role = primaryRole(loaded.byRole) || (process.env.GITHUB_EVENT_NAME === 'push' ? 'main' : 'local');
  const sample = docs.find((d) => d.run.role === role) || docs[0];
  return loaded.failures.map((f) => {
    const run = {
      id: loaded.run.id,
      startedAt: loaded.run.startedAt,
      commit: loaded.run.head?.commit ?? sample?.run.commit ?? null,
      ref: sample?.run.ref ?? null,
      trigger: sample?.run.trigger || 'local',
      role,
    };
    if (loaded.run.head?.dirty) run.dirty = true;
    // a job a stopped run never measured (interrupted, or no status) did not fail: skipped, with the stop as its reason
    const rec = { schema: FAILURE_SCHEMA, run, job: { id: f.id, suite: f.suite, subject: f.subject, variant: f.variant, tool: f.tool, scenario: f.scenario }, status: f.status === 'failed' ? 'failed' : 'skipped', reason: f.reason };
    if (f.logTail) rec.logTail = String(f.logTail).slice(-4000);
    if (sample?.runner) rec.runner = sample.runner;
    return rec;
  });
}

/**
 * Reads what `publish` was given: result files, folders of them, run folders, or results roots (their `latest` run).
 * A run folder is read as report and export read it (results-dir.js loadResultsDir), except that a document that
 * cannot be read as its run's is named and left out while the run's others are published.
 */
function collectInputs(paths) {
  const docs = [];
  const failures = [];
  const errors = [];
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) {
      errors.push({ file: p, message: `${p}: no such file or folder; pass result documents or folders written by \`benchline run\`` });
      continue;
    }
    if (statSync(abs).isFile()) {
      try {
        docs.push({ doc: readResultFile(abs), source: abs });
      } catch (e) {
        errors.push({ file: abs, message: e.message });
      }
      continue;
    }
    // a run.json that is no run's refuses the run whole, as every reader does; one bad document of a good run is
    // named and left out, and must not keep the run's other documents out of the history. A folder of result
    // documents (no run.json) publishes each under the run, side and job it names, as if each was passed by itself.
    try {
      if (!holdsRun(abs)) {
        const folder = readDocumentFolder(p);
        for (const { file, doc } of folder.docs) docs.push({ doc, source: file });
        errors.push(...folder.problems);
        continue;
      }
      const loaded = loadResultsDir(abs, { partial: true });
      for (const e of loaded.entries) docs.push({ doc: e.doc, source: e.file });
      errors.push(...loaded.problems);
      for (const rec of failureRecords(loaded)) failures.push({ rec, source: join(loaded.dir, 'run.json') });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      errors.push({ file: abs, message: e.message });
    }
  }
  return { docs, failures, errors };
}

/** Archives already on disk, loaded once per publish for idempotency checks of late documents. */
function archiveReader(store) {
  const cache = new Map();
  return (month) => {
    if (!cache.has(month)) {
      const file = join(store, archiveRelPath(month));
      let entry = null;
      if (existsSync(file)) {
        try {
          const archive = readJsonFile(file);
          if (!storeFileProblems(archive, ARCHIVE_SCHEMA).length) entry = { archive, idx: indexArchive(archive) };
        } catch { /* a broken archive is reported by readStore; here it just cannot prove a duplicate */ }
      }
      cache.set(month, entry);
    }
    return cache.get(month);
  };
}

/**
 * The folders a run id has in the store (runs/<yyyy>/<mm>/<run>), for a publish: the run folders are listed once, when
 * first asked, and each folder the publish adds is noted. A run has one start, so one folder.
 */
function runFolderIndex(store) {
  let index = null;
  const names = (dir) => (dirEntries(dir) || []).filter((e) => e.isDirectory()).map((e) => e.name);
  const add = (folder) => {
    const name = folder.slice(folder.lastIndexOf('/') + 1);
    if (!index.has(name)) index.set(name, new Set());
    index.get(name).add(folder);
  };
  const load = () => {
    if (index) return;
    index = new Map();
    for (const y of names(join(store, 'runs')).filter((n) => /^\d{4}$/.test(n))) {
      for (const m of names(join(store, 'runs', y)).filter((n) => /^\d{2}$/.test(n))) {
        for (const r of names(join(store, 'runs', y, m))) add(`runs/${y}/${m}/${r}`);
      }
    }
  };
  return {
    foldersOf: (run) => { load(); return [...(index.get(segment(run.id)) || [])]; },
    note: (folder) => { load(); add(folder); },
  };
}

/** Writes one store file once: added, skipped (same content already there), or a conflict error. */
function putOnce(store, rel, value, source, result) {
  // names inside documents and run.json become this path: it must stay in the store and fit the file system
  const abs = insideDir(store, rel);
  if (abs instanceof Error) {
    result.errors.push({ file: source, message: `${source}: its run id, role or job id cannot name a store file (${abs.message}); shorten or fix the names and re-run` });
    return;
  }
  const text = `${JSON.stringify(value)}\n`;
  let same = false;
  // a compaction in another process may fold the existing file into its archive and remove it between the failed
  // link and the read: then the document is written again (the next compaction finds it folded already)
  for (let attempt = 1; ; attempt += 1) {
    let created;
    try {
      created = writeNew(abs, text);
    } catch (e) {
      result.errors.push({ file: source, message: `${source}: could not be written to ${abs} (${e.code || e.message})` });
      return;
    }
    if (created) {
      result.paths.added.push(rel);
      return;
    }
    try {
      same = JSON.stringify(readJsonFile(abs)) === JSON.stringify(value);
    } catch (e) {
      if (e.code === 'ENOENT' && attempt < 3) continue;
      /* unreadable: a conflict too */
    }
    break;
  }
  if (same) result.paths.skipped.push(rel);
  else result.errors.push({ file: source, message: `${source}: ${abs} already holds different content for this run and job; the store is append-only, so re-run the benchmark (a new run id) instead of republishing changed results` });
}

// documents a publish writes between two turns of the event loop (a signal is handled at a turn)
const YIELD_EVERY = 32;

/**
 * Appends result documents (and job failures) to the store, then compacts what aged out.
 * files: result documents, run folders or results roots; docs: result documents in memory. Returns
 * { added: count, skipped: count (already stored), duets: count (left out: measured as duets, see runner.js), errors: [{ file, message }], compacted: { months, folded, removed, leftovers (stale temp files removed), problems },
 *   paths: { added: [store-relative paths], skipped: [...], duets: [...] } }.
 */
export async function publish({ store, files, docs, policy, compaction = true } = {}) {
  if (!store) throw new StoreError('publish: no store folder given (--store)');
  const place = storePlaceProblem(store);
  if (place) throw new StoreError(place);
  const inputs = collectInputs(files || []);
  // documents handed over in memory get the same validation as files
  for (const [i, doc] of (docs || []).entries()) {
    const problems = resultProblems(doc);
    if (problems.length) inputs.errors.push({ file: `document #${i + 1}`, message: `document #${i + 1} does not match ${SCHEMA_ID}: ${problems.slice(0, 4).join('; ')}` });
    else inputs.docs.push({ doc, source: `document #${i + 1} (${doc.run.id} ${jobIdOfDoc(doc)})` });
  }
  const result = { added: 0, skipped: 0, duets: 0, errors: [...inputs.errors], compacted: null, paths: { added: [], skipped: [], duets: [] } };
  // nothing to publish makes no store: a wrong path given as a result (publish /etc/passwd) leaves no folder behind
  if (!inputs.docs.length && !inputs.failures.length && !existsSync(join(store, 'store.json'))) return result;
  const pol = await ensureStore(store, policy);
  const archived = archiveReader(store);
  const runFolders = runFolderIndex(store);
  // a run's documents all carry its start: one dated otherwise was edited, or its run id reused, and would be a second
  // copy of the run's jobs in another month's folder
  const elsewhere = (run, source) => {
    const mine = runFolderRel(run);
    const other = runFolders.foldersOf(run).find((f) => f !== mine);
    if (!other) {
      runFolders.note(mine);
      return false;
    }
    result.errors.push({ file: source, message: `${source}: run ${run.id} is stored already in ${join(store, other)}, another month than its start here (${run.startedAt}); a run has one start, so the document was edited or its run id reused: re-run the benchmark (a new run id) instead of republishing changed results` });
    return true;
  };
  const now = Date.now();
  for (const [i, { doc, source }] of inputs.docs.entries()) {
    // a turn of the event loop now and then, where a signal handler may stop the publish between documents
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((done) => setImmediate(done));
    const rel = docRelPath(doc);
    // the newest run dates what compaction archives: one dated ahead of this machine's clock would archive every month
    // before it at once, and keep doing so until that date
    if (Date.parse(doc.run.startedAt) > now + DAY) {
      result.errors.push({ file: source, message: `${source}: its run started at ${doc.run.startedAt}, after this machine's clock (${new Date(now).toISOString()}); the measuring machine's clock is wrong or the document was edited, so it is not published (its start would set when every older month is archived)` });
      continue;
    }
    // every reader takes <job id>.failed.json for a failure record: such a document would be published and never read
    if (rel.endsWith('.failed.json')) {
      result.errors.push({ file: source, message: `${source}: its scenario "${doc.scenario}" ends in "failed", so it would be stored as ${rel.split('/').pop()}, the name of a failure record; normalize it again with another --scenario` });
      continue;
    }
    // a duet side's figures were measured beside the other side (about half of a run alone): no point of a trend
    if (doc.duet) {
      result.paths.duets.push(rel);
      continue;
    }
    const arch = archived(monthOf(doc.run.startedAt));
    if (arch && archiveHas(arch.archive, arch.idx, { runId: doc.run.id, role: doc.run.role, jobId: jobIdOfDoc(doc) })) {
      // the archive keeps each metric's value: a document with others is not this run's as published
      const diff = archivedDifference(arch.archive, arch.idx, doc);
      if (diff) {
        const file = join(store, archiveRelPath(monthOf(doc.run.startedAt)));
        result.errors.push({ file: source, message: `${source}: ${file} already holds run ${doc.run.id} job ${jobIdOfDoc(doc)} with other values (${diff.metric}: ${diff.archived} archived, ${diff.given} in this document); the store is append-only, so re-run the benchmark (a new run id) instead of republishing changed results` });
      } else result.paths.skipped.push(rel);
      continue;
    }
    if (elsewhere(doc.run, source)) continue;
    putOnce(store, rel, doc, source, result);
  }
  for (const { rec, source } of inputs.failures) {
    // failure records are built from run.json, which nothing has checked yet
    const problems = storeFileProblems(rec, FAILURE_SCHEMA);
    if (problems.length) {
      result.errors.push({ file: source, message: `${source}: job ${JSON.stringify(String(rec.job?.id).slice(0, 80))} cannot be recorded as ${rec.status}: ${problems.join('; ')}` });
      continue;
    }
    const rel = failureRelPath(rec);
    const arch = archived(monthOf(rec.run.startedAt));
    if (arch && archiveHas(arch.archive, arch.idx, { runId: rec.run.id, role: rec.run.role, jobId: rec.job.id, failed: true })) {
      result.paths.skipped.push(rel);
      continue;
    }
    if (elsewhere(rec.run, source)) continue;
    putOnce(store, rel, rec, source, result);
  }
  if (compaction) result.compacted = await compact({ store, policy: pol });
  result.added = result.paths.added.length;
  result.skipped = result.paths.skipped.length;
  result.duets = result.paths.duets.length;
  return result;
}

// how a store file is opened for reading (readStoreFile)
const READ_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * Reads and classifies one store file: { kind: 'doc'|'failure'|'archive', value } (archives also keep their
 * text, which the site serves unchanged) or { problem }. The name must match the content, since names are
 * what make publishing idempotent.
 */
export function readStoreFile(store, rel) {
  const foreign = `not a benchline history file; move it out of the store, or the store (store.json, runs/, archive/) into a folder of its own when this is a site's or project's file (the store holds only runs/ and archive/ written by \`benchline publish\`)`;
  const isRun = /^runs\/\d{4}\/\d{2}\/[^/]+\/(head|base|main|local)\/[^/]+\.json$/.test(rel);
  const isArchive = /^archive\/\d{4}-\d{2}\.json$/.test(rel);
  if (!isRun && !isArchive) return { problem: foreign };
  let text;
  let stat = null;
  try {
    // a link is never followed: it could point anywhere, and its target's text would end up in the problem list
    // (O_NOFOLLOW: opening a link fails with ELOOP, one call instead of an lstat per file); O_NONBLOCK: a named pipe
    // reads as empty instead of waiting for a writer
    if (!isArchive) text = readFileSync(join(store, rel), { encoding: 'utf8', flag: READ_FLAGS }); // opened, read and closed in one call
    else {
      const fd = openSync(join(store, rel), READ_FLAGS);
      try {
        text = readFileSync(fd, 'utf8');
        // an archived month's size and identity as read, from the file read: one a publish renamed into place meanwhile is another
        const { size, mtimeMs, ino } = fstatSync(fd);
        stat = { size, mtimeMs, ino };
      } finally {
        closeSync(fd);
      }
    }
  } catch (e) {
    if (e.code === 'ELOOP') return { problem: 'a symbolic link, which the store never holds (publish writes files); remove it' };
    // listed, then gone: a publish compacting the store meanwhile folded it into its month's archive (written first)
    if (e.code === 'ENOENT') return { problem: 'gone while the store was read: a publish compacting the store at the same time folded it into its month\'s archive, or it was removed; build the site again once no publish is running' };
    return { problem: `cannot be read (${e.message}); check its permissions, or restore it from the store's history (e.g. git)` };
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `not valid JSON (${e.message}); the file is corrupt: restore it from the store's history (e.g. git) or delete it` };
  }
  // a newer benchline published into this store: its files are not damaged, this builder is too old to read them
  const version = otherVersion(value?.schema, isArchive ? ARCHIVE_SCHEMA : rel.endsWith('.failed.json') ? FAILURE_SCHEMA : SCHEMA_ID);
  if (version) return { problem: version };
  if (isArchive) {
    const problems = storeFileProblems(value, ARCHIVE_SCHEMA);
    // its month's documents were removed when it was folded: the store's own history is the only copy left
    if (problems.length) return { problem: `not a ${ARCHIVE_SCHEMA} document: ${problems.join('; ')}; it was edited or damaged in the store, and its month is left out of the site until it is restored from the store's history (e.g. git)` };
    if (rel !== archiveRelPath(value.month)) return { problem: `holds month ${value.month}; it belongs at ${archiveRelPath(value.month)}: move it there` };
    return { kind: 'archive', value, text, stat };
  }
  if (rel.endsWith('.failed.json')) {
    const problems = storeFileProblems(value, FAILURE_SCHEMA);
    if (problems.length) return { problem: `not a ${FAILURE_SCHEMA} record: ${problems.join('; ')}; it was edited or damaged in the store: remove it and publish its run again from the results folder, or restore it from the store's history (e.g. git)` };
    if (rel !== failureRelPath(value)) return { problem: `its content belongs at ${failureRelPath(value)}; move it there or republish` };
    return { kind: 'failure', value };
  }
  if (value?.schema !== SCHEMA_ID) return { problem: `schema "${value?.schema}" is not ${SCHEMA_ID}; ${foreign}` };
  const problems = resultProblems(value);
  if (problems.length) return { problem: `does not match ${SCHEMA_ID}: ${problems.slice(0, 4).join('; ')}; it was edited or damaged in the store: remove it and publish its run again from the results folder, or re-run the benchmark` };
  if (rel !== docRelPath(value)) return { problem: `its content belongs at ${docRelPath(value)}; move it there or republish` };
  return { kind: 'doc', value };
}

/** Store files that are neither in-flight temp files nor lock folders, sorted. */
const isStoreFile = (rel) => rel !== 'store.json' && !isTempFile(rel) && !rel.startsWith('store.json.lock');
export const storeFiles = (store) => listAll(store).filter(isStoreFile);

/**
 * Every file in the store as listFiles gives them, but for `.git` at its top: a store may be the root of a repository's
 * checkout (a branch of its own), whose git files are the checkout's, never the store's, and are neither read nor listed.
 */
function listAll(store) {
  const out = [];
  for (const e of dirEntries(store) || []) {
    if (e.name === '.git') continue;
    if (e.isDirectory()) walkFiles(`${store}/${e.name}`, `${e.name}/`, out);
    else out.push(e.name);
  }
  return out.sort();
}

// the folders on the way to a run folder, runs/<yyyy>/<mm>/<run>: what runFolderOf takes for one
const RUN_PATH = [/^runs$/, /^\d{4}$/, /^\d{2}$/];

/**
 * The store's files as runFolders(storeFiles(store)) and the files outside run folders give them, walked run folder by
 * run folder instead of as one list of every file: { folders: Map(run folder -> [name, ...], in listing order),
 * others: [path, ...] sorted }. What a rebuild checks the store against its snapshot with, on every build.
 */
export function listStore(store) {
  const others = [];
  const found = [];
  // rel: a folder at depth `depth` on the way to run folders (the store itself at 0); what is off that way is other files
  const walk = (dir, rel, depth) => {
    const entries = dirEntries(dir);
    if (!entries) return;
    for (const e of entries) {
      if (depth === 0 && e.name === '.git') continue; // the checkout's (listAll)
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (!e.isDirectory()) others.push(path);
      else if (depth === RUN_PATH.length) {
        const names = walkFiles(`${dir}/${e.name}`, '', []).filter((n) => !isTempFile(n));
        if (names.length) found.push([path, names.sort()]);
      } else if (RUN_PATH[depth].test(e.name)) walk(`${dir}/${e.name}`, path, depth + 1);
      else walkFiles(`${dir}/${e.name}`, `${path}/`, others);
    }
  };
  walk(store, '', 0);
  // in the order of their files' paths, as runFolders gives them
  found.sort(([a], [b]) => (`${a}/` < `${b}/` ? -1 : 1));
  return { folders: new Map(found), others: others.filter(isStoreFile).sort() };
}

/**
 * The run folders of a store listing (storeFiles) with their files' names, in the listing's order:
 * Map(run folder -> [name, ...]). folderOf: each file's run folder (runFolderOf), when already worked out.
 */
export function runFolders(files, folderOf = files.map(runFolderOf)) {
  const out = new Map();
  files.forEach((rel, i) => {
    const folder = folderOf[i];
    if (!folder) return;
    if (!out.has(folder)) out.set(folder, []);
    out.get(folder).push(rel.slice(folder.length + 1));
  });
  return out;
}

/** Why `store` cannot be read as a history store because nothing is there, or undefined. */
export const missingStoreProblem = (store) => (existsSync(store) ? undefined : `${store}: no history store here; create one with \`benchline publish --store ${store} <results>\``);

/**
 * Everything in the store, validated: { policy, docs: [{ doc, path, slim? }], failures: [{ rec, path }],
 * archives: [{ archive, path, text (the file as read, which the site serves unchanged), stat (its size, mtimeMs and ino as read) }], problems: [{ path, message }],
 * folders: Map(run folder -> { files, cached: entry | null }) }.
 * Bad files are listed and skipped. cache (read-cache.js openCache): run folders holding exactly the files a cache
 * entry names come from the entry, without reading a file; their documents are slim (no samples, distributions or
 * notes) and marked `slim: true`. Folders read from the files keep `cached: null`. read: Map(path in the store ->
 * readStoreFile's result) of files already read (the archived months, which a site build reads while worker threads
 * read run folders), taken instead of reading them again. listing: the store as listStore listed it, when the build
 * just did (not listed again).
 */
export function readStore(store, { cache, read = new Map(), listing = null } = {}) {
  const missing = missingStoreProblem(store);
  if (missing) throw new StoreError(missing);
  const place = storePlaceProblem(store);
  if (place) throw new StoreError(place);
  const out = { policy: readPolicy(store), docs: [], failures: [], archives: [], problems: [], folders: new Map() };
  // each file's run folder, worked out once (a large store holds a hundred thousand files)
  const { files, folderOf } = listing ? listedFiles(listing) : listedFiles(null, storeFiles(store));
  for (const [folder, names] of listing ? listing.folders : runFolders(files, folderOf)) out.folders.set(folder, { files: names, cached: null });
  for (const [folder, f] of out.folders) {
    const entry = cache?.entries.get(folder);
    if (entryFits(entry, f.files)) f.cached = entry;
  }
  // in the order of the files, as a read without the cache gives: the model keeps the first of a repeated job
  for (const [i, rel] of files.entries()) {
    const folder = out.folders.get(folderOf[i]);
    if (folder?.cached) {
      if (rel !== `${folderOf[i]}/${folder.files[0]}`) continue;
      // the folder's documents sit in it under their role and job id (docRelPath): its path is joined once
      const base = join(store, folderOf[i]);
      for (const doc of unpackDocs(folder.cached)) out.docs.push({ doc, path: join(base, doc.run.role, `${jobIdOfDoc(doc)}.json`), slim: true });
      for (const rec of folder.cached.failures) out.failures.push({ rec, path: join(store, failureRelPath(rec)) });
      continue;
    }
    sortInto(out, read.get(rel) ?? readStoreFile(store, rel), join(store, rel));
  }
  return out;
}

/**
 * The store's files in storeFiles' order with each one's run folder (runFolderOf): { files, folderOf }, from a listing
 * of the store (listStore's: its run folders' files and the others, merged in order), or from storeFiles' list.
 */
function listedFiles(listing, list = null) {
  if (!listing) return { files: list, folderOf: list.map(runFolderOf) };
  const files = [];
  const folderOf = [];
  const { others } = listing;
  let k = 0;
  for (const [folder, names] of listing.folders) {
    for (const name of names) {
      const rel = `${folder}/${name}`;
      while (k < others.length && others[k] < rel) {
        files.push(others[k++]);
        folderOf.push(null);
      }
      files.push(rel);
      folderOf.push(folder);
    }
  }
  for (; k < others.length; k += 1) {
    files.push(others[k]);
    folderOf.push(null);
  }
  return { files, folderOf };
}

/** Puts one readStoreFile result at `path` into out's list of its kind (archives only where out keeps them). */
function sortInto(out, r, path) {
  if (r.problem) out.problems.push({ path, message: `${path}: ${r.problem}` });
  else if (r.kind === 'doc') out.docs.push({ doc: r.value, path });
  else if (r.kind === 'failure') out.failures.push({ rec: r.value, path });
  else out.archives?.push({ archive: r.value, path, text: r.text, stat: r.stat });
}

/** The archived months of a store, read: Map(path in the store -> readStoreFile's result), for readStore's `read`. */
export function readArchives(store) {
  let names = [];
  try {
    names = readdirSync(join(store, 'archive'));
  } catch { /* none yet */ }
  return new Map(names.filter((n) => /^\d{4}-\d{2}\.json$/.test(n)).sort().map((n) => [`archive/${n}`, readStoreFile(store, `archive/${n}`)]));
}

/**
 * The full documents and failure records of some run folders (named as readStore names them), read from the files:
 * for the few runs a build needs whole although they came from the cache. Returns { docs, failures, problems }.
 */
export function readRunFolders(store, folders) {
  const out = { docs: [], failures: [], problems: [] };
  for (const [folder, names] of folders) {
    for (const name of names) sortInto(out, readStoreFile(store, `${folder}/${name}`), join(store, folder, name));
  }
  return out;
}

/**
 * Months to fold: older than keepDays before the newest run, and holding none of the newest keepRuns runs.
 * runs: [{ id, startedAt }]. Pure.
 */
export function monthsToArchive(runs, policy) {
  if (policy.keepDays === null || policy.keepDays === undefined || !runs.length) return [];
  const times = [...new Map(runs.map((r) => [r.id, Date.parse(r.startedAt)])).entries()].sort((a, b) => b[1] - a[1]);
  const cutoff = times[0][1] - policy.keepDays * DAY;
  const protectedMonths = new Set(times.slice(0, policy.keepRuns).map(([, t]) => new Date(t).toISOString().slice(0, 7)));
  const months = new Set(times.map(([, t]) => new Date(t).toISOString().slice(0, 7)));
  return [...months].filter((m) => {
    const [y, mo] = m.split('-').map(Number);
    const end = Date.UTC(y, mo, 1); // first instant of the next month
    return end <= cutoff && !protectedMonths.has(m);
  }).sort();
}

/**
 * Folds months that aged out of the retention window into their archives, then removes the folded
 * documents. The archive is written before anything is removed, so a crash in between only leaves
 * documents that the next compaction recognizes as folded and removes.
 * Every document of a run folder belongs to its run, so one readable file per folder dates the run; only the folders
 * of the months to fold are read whole (a year of hourly runs keeps a hundred thousand documents in the window, and
 * every publish compacts). Problems are reported for the files read.
 */
export async function compact({ store, policy } = {}) {
  return withLock(store, () => {
    const pol = { ...DEFAULT_POLICY, ...(policy || readPolicy(store)) };
    const problems = [];
    const read = new Map();
    const readOnce = (rel) => {
      if (!read.has(rel)) {
        const r = readStoreFile(store, rel);
        if (r.problem) problems.push({ path: join(store, rel), message: `${join(store, rel)}: ${r.problem}` });
        read.set(rel, r);
      }
      return read.get(rel);
    };
    // one listing of a store that may hold a hundred thousand files, for both
    const all = listAll(store);
    const leftovers = removeStaleTempFiles(store, all);
    const folders = new Map();
    for (const rel of all.filter(isStoreFile)) {
      if (!rel.startsWith('runs/')) continue;
      const folder = runFolderOf(rel);
      if (!folder) readOnce(rel); // not in a run folder: reported
      else if (!folders.has(folder)) folders.set(folder, [rel]);
      else folders.get(folder).push(rel);
    }
    const runOf = new Map();
    for (const [folder, rels] of folders) {
      for (const rel of rels) {
        const r = readOnce(rel);
        if (r.kind === 'doc' || r.kind === 'failure') {
          runOf.set(folder, r.value.run);
          break;
        }
      }
    }
    const months = monthsToArchive([...runOf.values()], pol);
    const folding = new Set(months);
    const items = [];
    for (const [folder, rels] of folders) {
      if (!runOf.has(folder) || !folding.has(monthOf(runOf.get(folder).startedAt))) continue;
      for (const rel of rels) {
        const r = readOnce(rel);
        if (r.kind === 'doc' || r.kind === 'failure') items.push({ rel, ...r, run: r.value.run });
      }
    }
    let folded = 0;
    let removed = 0;
    for (const month of months) {
      const mine = items.filter((i) => monthOf(i.run.startedAt) === month)
        .sort((a, b) => Date.parse(a.run.startedAt) - Date.parse(b.run.startedAt) || a.rel.localeCompare(b.rel));
      const file = join(store, archiveRelPath(month));
      let archive = emptyArchive(month, pol);
      if (existsSync(file)) {
        const r = readStoreFile(store, archiveRelPath(month));
        // never fold into (and so overwrite) an archive we cannot read: leave the month's documents alone
        if (r.problem) {
          problems.push({ path: file, message: `${file}: ${r.problem}; month ${month} was not compacted` });
          continue;
        }
        archive = r.value;
      }
      const idx = indexArchive(archive);
      for (const i of mine) {
        const added = i.kind === 'doc' ? foldDoc(archive, idx, i.value, pol.digits) : foldFailure(archive, idx, i.value);
        if (added) folded += 1;
      }
      archive.policy = pol;
      writeReplace(file, `${JSON.stringify(archive)}\n`, { sync: true });
      for (const i of mine) {
        try {
          unlinkSync(join(store, i.rel));
        } catch (e) {
          if (e.code !== 'ENOENT') throw e; // removed by a compaction that ran at the same time
        }
        pruneEmptyDirs(join(store, i.rel), join(store, 'runs'));
        removed += 1;
      }
    }
    return { months, folded, removed, leftovers, problems };
  });
}

/** A writer's temp file this old was left by one that was killed (a live one links its file into place at once). */
export const STALE_TEMP_MS = 10 * 60 * 1000;

/**
 * Removes the temp files writers killed mid-write (kill -9, a cancelled job) left in the store, once they are
 * STALE_TEMP_MS old; readers skip them, so they were never read, only never removed. files: the store's listing.
 * Returns how many went.
 */
function removeStaleTempFiles(store, files, now = Date.now()) {
  let n = 0;
  for (const rel of files) {
    if (!ownTempFile(rel)) continue;
    const path = join(store, rel);
    try {
      if (now - statSync(path).mtimeMs < STALE_TEMP_MS) continue;
      unlinkSync(path);
      n += 1;
    } catch (e) {
      if (e.code !== 'ENOENT') throw e; // gone meanwhile: its writer finished, or another compaction removed it
      continue;
    }
    if (rel.startsWith('runs/')) pruneEmptyDirs(path, join(store, 'runs'));
  }
  return n;
}

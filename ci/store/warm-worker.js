// Reads the run folders a site cache has no entry for in worker threads: each writes the run's site file and cache entry.
//
// A first build (or one after the builder changed) reads every run folder: a hundred thousand documents on a year of
// hourly runs. What a folder yields for the site is its own: its documents' slim copy (the cache entry) and its run's
// file (which holds nothing of the run's place in the run list). So worker threads read, check and pack folders side by
// side, writing both as the build itself would, and the build then takes those folders from the cache. A folder with
// a problem file is left to the build, which reports it; a run that turns out to span folders or an archive is read
// whole by the build and its file written again, as for any cached folder.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { readRunFolders } from './store.js';
import { packEntry, writeEntryText } from './read-cache.js';
import { buildModel } from './model.js';
import { dataScriptFromJson, runFilesOf } from './site-data.js';
import { packRun } from './run-file.js';
import { rewrite, sha1 } from './files.js';

const KIND = 'benchline-warm';
// entries a worker hands back in one message
const BATCH = 32;

/**
 * The JSON text of the cache entry of one run folder (read-cache.js packEntry) with its run's site file written into
 * `out`, or null when a file of the folder has a problem. The run file is the bytes the build would write for a run of
 * this folder alone.
 */
async function warmFolder({ store, out, cache, builder }, folder, names) {
  const read = readRunFolders(store, [[folder, names]]);
  if (read.problems.length) return null;
  const docs = read.docs.map((d) => d.doc);
  const failures = read.failures.map((f) => f.rec);
  const runs = runFilesOf(buildModel({ docs, failures }, { series: false }).runs);
  let runFile = null;
  if (runs.length === 1) {
    const [f] = runs;
    const bytes = Buffer.from(await dataScriptFromJson(f.path, JSON.stringify(packRun(f.payload))));
    rewrite(join(out, f.path), bytes, out);
    runFile = { path: f.path, hash: sha1(bytes), size: bytes.length };
  }
  const json = JSON.stringify(packEntry(folder, names, docs, failures, runFile, builder));
  writeEntryText(cache, folder, json);
  return json;
}

if (!isMainThread && workerData?.kind === KIND) {
  const { folders, ...where } = workerData;
  // each entry handed back as its JSON text, the one written to the cache: a string is copied whole, where the objects
  // of 2,000 entries (60 MB as JSON) took the build's thread longer to take apart from a message than to parse; a few
  // at a time, so the build's thread parses them while the workers go on, then null: all handed back
  let entries = [];
  for (const [folder, names] of folders) {
    const json = await warmFolder(where, folder, names);
    if (json) entries.push(json);
    if (entries.length >= BATCH) {
      parentPort.postMessage(entries);
      entries = [];
    }
  }
  parentPort.postMessage(entries);
  parentPort.postMessage(null);
}

/**
 * Warms the cache for `folders` ([[run folder, names], ...]) in `threads` worker threads, the folders dealt out in turn.
 * Resolves to the entries written; a worker that fails rejects it (the build then fails, as it would reading them itself).
 */
export function warmInWorkers(where, folders, threads) {
  const shares = Array.from({ length: threads }, (_, k) => folders.filter((_, i) => i % threads === k));
  return Promise.all(shares.filter((s) => s.length).map((share) => new Promise((resolveShare, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { kind: KIND, folders: share, ...where } });
    const entries = [];
    let done = false;
    worker.on('message', (m) => {
      if (m === null) done = true;
      else for (const json of m) entries.push(JSON.parse(json));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (done ? resolveShare(entries) : reject(new Error(`site cache: a worker reading run folders stopped (exit ${code})`))));
  }))).then((lists) => lists.flat());
}

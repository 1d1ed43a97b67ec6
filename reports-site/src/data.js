// Loads the site's data files with <script> tags (not fetch), so the site works from file:// and under any sub-path.
import { DATA_CALLBACK, INDEX_PATH, RUNS_PATH, archivePath, runPath } from '../../ci/store/paths.js';
import { archivedRuns } from '../../ci/store/archive.js';
import { unpackRun } from '../../ci/store/run-file.js';
import { joinSeries } from '../../ci/store/series-file.js';

// path -> promise of its payload, set the moment its script calls back (decoding may take a moment longer)
const delivered = new Map();
const waiting = new Map();

/** A payload as its file gives it: JSON, or raw-deflated JSON in base64 (ci/store/site-data.js dataScriptFromJson). */
async function decode(payload, encoding) {
  if (encoding === undefined) return payload;
  if (encoding !== 'deflate-raw') throw new Error(`unknown encoding ${JSON.stringify(encoding)}`);
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return JSON.parse(await new Response(stream).text());
}

window[DATA_CALLBACK] = (path, payload, encoding) => {
  const data = decode(payload, encoding).catch((e) => {
    throw new Error(`cannot read ${path} (${e.message}): rebuild the site with \`benchline site\``);
  });
  delivered.set(path, data);
  const w = waiting.get(path);
  if (w) {
    waiting.delete(path);
    w.resolve(data);
  }
};

let version = '';

/** Loads one data file by its site-relative path (as ci/store/paths.js names it); each file loads once. */
export function load(path) {
  if (delivered.has(path)) return delivered.get(path);
  if (waiting.has(path)) return waiting.get(path).promise;
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  waiting.set(path, { promise, resolve, reject });
  const s = document.createElement('script');
  s.src = `${path}${version ? `?v=${version}` : ''}`;
  s.async = true;
  s.onerror = () => {
    waiting.delete(path);
    reject(new Error(`cannot load ${path}: rebuild the site with \`benchline site\``));
  };
  s.onload = () => {
    s.remove();
    // a file that loaded but did not call back is not ours (or is from an older build)
    if (waiting.has(path)) {
      waiting.delete(path);
      reject(new Error(`${path} did not deliver its data: rebuild the site with \`benchline site\``));
    }
  };
  document.head.append(s);
  return promise;
}

/** The index always comes fresh (a cache-busting query), and names the build every other file is cached under. */
export async function loadIndex() {
  version = String(Date.now());
  const index = await load(INDEX_PATH);
  version = index.build || '';
  return index;
}

export const loadRuns = () => load(RUNS_PATH);

/** One series' points: its file holds the newest, and names the part files that hold the older ones (series-file.js). */
export async function loadSeries(path) {
  const head = await load(path);
  const parts = await Promise.all((Array.isArray(head.parts) ? head.parts : []).map((p) => load(p)));
  return joinSeries(head, parts);
}

/** Run i of the run table with its jobs: its own file while documents exist, else expanded from its month's archive. */
export async function loadRun(runs, i) {
  const startedAt = new Date(runs.t[i]).toISOString();
  // run files are written densely (run-file.js): metric definitions once, each measurement a row
  if (!runs.archived[i]) return unpackRun(await load(runPath({ id: runs.id[i], startedAt })));
  const archive = await load(archivePath(startedAt.slice(0, 7)));
  const run = archivedRuns(archive).find((r) => r.id === runs.id[i]);
  if (!run) throw new Error(`run ${runs.id[i]} is missing from ${archivePath(startedAt.slice(0, 7))}: rebuild the site`);
  return run;
}

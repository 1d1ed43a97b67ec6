// Builds the static history site from the store: page code bundled from reports-site/, data files from the store.
import { closeSync, existsSync, lstatSync, readdirSync, readFileSync, readSync, statSync, unlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { listStore, missingStoreProblem, readArchives, readPolicy, readRunFolders, readStore, runFolderRel, StoreError, storePlaceProblem } from './store.js';
import { entryFits, openCache, packEntry } from './read-cache.js';
import { appendSeries, archiveStamp, listingHash, optionsKey, sameArchive, saveSnapshot, takeSnapshot } from './snapshot.js';
import { packRun } from './run-file.js';
import { PART_POINTS, splitSeries } from './series-file.js';
import { buildModel } from './model.js';
import { absorbRuns, dataScriptFromJson, digestOf, runFilesOf, siteLayout } from './site-data.js';
import { loadReportModules, suiteReportPages } from './suite-pages.js';
import { archivePath, INDEX_PATH, runPath, RUNS_PATH, seriesPartPath, seriesPath } from './paths.js';
import { lock } from './lock.js';
import { dirEntries, fileBytes, holdExitHandlers, listFiles, openRegular, readRegular, rewrite, pruneEmptyDirs, removeLinks, sealed, sha1, unsealed, writeOwn } from './files.js';
import { verifyInBackground } from './verify-worker.js';
import { warmInWorkers } from './warm-worker.js';
import { isRootOrHome, makeDirs } from '../fsutil.js';
import { firstFew } from '../units.js';
import { insideDir } from '../names.js';
import { tDistVersions } from '../t-dist.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE_SRC = join(ROOT, 'reports-site');
const MANIFEST = '.benchline-site.json';
// what a build writes in the site folder (data files all under data/) and in its cache (read-cache.js, snapshot.js)
const SITE_NAMES = Object.freeze(['data', 'index.html', 'app.js', 'app.css', 'paths.js', '.nojekyll', 'feed.xml', MANIFEST]);
const CACHE_NAMES = Object.freeze(['runs', 'values', 'snapshot.json', 'tails.f64', 'splits.json', 'pvalues.f64', 'data-files.json', 'bundle.json']);

// The compare view bundles ci/compare.js, which reads each tool's judged metrics from its adapter; a few adapters
// import node:path for building commands, which the page never does. Node built-ins become an empty module there,
// so such a call would fail loudly instead of the bundle failing to build.
const nodeBuiltinsStub = {
  name: 'node-builtins-stub',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * What the store cache's entries depend on: the code that reads documents, lays out run and series files (and the page
 * that reads them) and finds change points (the saved windows). A cache another version of it wrote is not used.
 */
function builderKey() {
  const h = createHash('sha1');
  for (const f of ['site.js', 'site-data.js', 'model.js', 'archive.js', 'paths.js', 'read-cache.js', 'run-file.js', 'series-file.js', 'snapshot.js', 'store.js', 'warm-worker.js', '../changepoints.js']) h.update(readFileSync(join(ROOT, 'ci', 'store', f)));
  h.update(readFileSync(join(ROOT, 'package.json')));
  // the t distribution's packages as installed (a range in package.json may take in a newer one)
  h.update(tDistVersions());
  return h.digest('hex').slice(0, 16);
}

let bundled;
const BUNDLE_FILE = 'bundle.json';
const BUNDLE_SCHEMA = 'benchline/site-bundle@1';

/**
 * The page's code as one classic script (modules do not load from file://), bundled once per process. With a site
 * cache, the last build's bundle is taken while every file that went into it (esbuild's list of inputs, this file with
 * the bundle's options, esbuild's version) hashes as then: a rebuild then starts no esbuild process.
 */
async function bundle(cache = null) {
  if (bundled) return bundled;
  // Resolved like an import: installed as a dependency, uplot sits in the adopting project's node_modules, not ours.
  const css = readFileSync(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), 'utf8') + readFileSync(join(SITE_SRC, 'style.css'), 'utf8');
  const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
  const inputsHash = (inputs) => {
    const h = createHash('sha1').update(`${esbuildVersion}\u0000`).update(readFileSync(fileURLToPath(import.meta.url)));
    // inputs outside the file system (node built-ins, stubbed) are fixed by this file
    for (const rel of [...inputs].sort()) h.update(`\u0000${rel}\u0000`).update(rel.includes(':') ? '' : readFileSync(join(ROOT, rel)));
    return h.digest('hex');
  };
  const file = cache ? join(cache, BUNDLE_FILE) : null;
  try {
    const text = file ? unsealed(readRegular(file)) : null;
    const saved = text ? JSON.parse(text) : null;
    if (saved?.schema === BUNDLE_SCHEMA && Array.isArray(saved.inputs) && typeof saved.js === 'string' && saved.hash === inputsHash(saved.inputs)) {
      bundled = { js: saved.js, css };
      return bundled;
    }
  } catch { /* none yet, unreadable, or an input gone: bundled again */ }
  const esbuild = await import('esbuild');
  const r = await esbuild.build({
    entryPoints: [join(SITE_SRC, 'src', 'main.js')],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [nodeBuiltinsStub],
  });
  bundled = { js: r.outputFiles[0].text, css };
  if (file) {
    const inputs = Object.keys(r.metafile.inputs);
    writeOwn(file, `${sealed(JSON.stringify({ schema: BUNDLE_SCHEMA, hash: inputsHash(inputs), inputs, js: bundled.js }))}\n`, cache);
  }
  return bundled;
}

/**
 * What a previous build wrote: { files, hashes (path -> sha1 of the content), hash (of the manifest) }, so a rebuild removes what no
 * longer exists and leaves unchanged files alone, without touching anything else in `out`.
 */
function previousBuild(out) {
  try {
    const text = readRegular(join(out, MANIFEST));
    const m = JSON.parse(text);
    return { files: Array.isArray(m.files) ? m.files : [], hashes: m.hashes && typeof m.hashes === 'object' ? m.hashes : {}, hash: sha1(text), building: m.building !== undefined };
  } catch {
    return { files: [], hashes: {}, hash: null, building: false };
  }
}

// a rebuild asks for the folder of each of a hundred thousand documents, which share a few thousand run blocks
const folders = new WeakMap();
const folderOf = (run) => {
  let f = folders.get(run);
  if (f === undefined) {
    f = runFolderRel(run);
    folders.set(run, f);
  }
  return f;
};

const add = (map, key, value) => {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key).add(value);
};

/**
 * Brings the parsed-store cache up to date: an entry for every run folder read from its files without problems
 * (with the run file this build wrote for it), a new run file noted in the entry of a folder read whole, and no entry
 * for folders no longer in the store (compacted into an archive).
 */
function updateCache(readCache, store, contents, fullRead, runFileOf) {
  const bad = new Set(contents.problems.map((p) => p.path));
  const byFolder = new Map();
  const entryOf = (folder) => {
    if (!byFolder.has(folder)) byFolder.set(folder, { docs: [], failures: [] });
    return byFolder.get(folder);
  };
  for (const d of contents.docs) if (!d.slim) entryOf(folderOf(d.doc.run)).docs.push(d.doc);
  for (const f of contents.failures) if (!contents.folders.get(folderOf(f.rec.run))?.cached) entryOf(folderOf(f.rec.run)).failures.push(f.rec);
  for (const [folder, f] of fullRead) byFolder.set(folder, f);
  for (const [folder, { files, cached }] of contents.folders) {
    const read = byFolder.get(folder);
    if (cached && !fullRead.has(folder)) continue;
    if (files.some((name) => bad.has(join(store, folder, name)))) {
      if (cached) readCache.remove(folder);
      continue;
    }
    const runFile = runFileOf.get(folder) || null;
    if (cached && JSON.stringify(cached.runFile) === JSON.stringify(runFile)) continue;
    readCache.write(packEntry(folder, files, read?.docs || [], read?.failures || [], runFile, readCache.builder));
  }
  for (const folder of [...readCache.entries.keys()]) if (!contents.folders.has(folder)) readCache.remove(folder);
}

/**
 * A fingerprint of a series part's points that spares serializing them: its values and bounds as 64-bit floats, which
 * of them are null, and its run ranges. Equal fingerprints mean equal numbers bit for bit, so equal file content.
 */
export function partFingerprint({ v, lo, hi, runs, many }) {
  const n = v.length;
  const nums = new Float64Array(3 * n);
  const nulls = new Uint8Array(3 * n);
  [v, lo, hi].forEach((list, j) => {
    for (let i = 0; i < n; i += 1) {
      const x = list[i];
      if (x === null || x === undefined) nulls[j * n + i] = 1;
      else nums[j * n + i] = x;
    }
  });
  return createHash('sha1').update(nums).update(nulls).update(JSON.stringify([runs, many])).digest('hex');
}

/** A store problem as the site shows it: the file named by its place in the store, not by the building machine's path. */
const inStore = (store) => (p) => {
  if (!p.path) return p;
  const rel = relative(store, p.path);
  return { path: rel, message: p.message.startsWith(p.path) ? `${rel}${p.message.slice(p.path.length)}` : p.message };
};

/**
 * Size of a file in bytes, or -1 when it is not there, or not a file: a folder of the same size is no kept file, nor
 * is a link (never followed: it could point anywhere, and a deployed site would hold the link).
 */
function sizeOf(path) {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st.size : -1;
  } catch {
    return -1;
  }
}

/** Whether `inner` is `outer` or lies inside it (both resolved). */
function within(outer, inner) {
  const rel = relative(resolve(outer), resolve(inner));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Why a build must not write into `out`, or null, by where it is. A build removes the files of `out` it did not write
 * (all of them under --verify), so `out` must be a folder of its own: never the file system's root or the home folder,
 * never in or around the store, and the cache beside it, not in it.
 */
function placeProblem({ store, out, cache }) {
  const where = resolve(out);
  if (isRootOrHome(where)) return `--out ${out}: the site needs a folder of its own (a build removes the files there it did not write); give a new folder, e.g. ${join(where, 'site')}`;
  if (within(store, out) || within(out, store)) return `--out ${out}: the site cannot go in the store or around it (${store}); give a folder beside the store, e.g. ${resolve(store)}-site`;
  if (cache && isRootOrHome(cache)) return `--cache ${cache}: the site cache needs a folder of its own (a build overwrites and removes files there); give a new folder beside the site, e.g. ${where}-cache`;
  if (cache && (within(store, cache) || within(cache, store))) return `--cache ${cache}: the cache cannot go in the store or around it (${store}); give a folder beside the store`;
  // inside the site it would be deployed, and removed as a file no build wrote by --verify
  if (cache && within(out, cache)) return `site cache ${cache} is inside the site folder ${out}; give --cache a folder beside it (e.g. ${where}-cache)`;
  if (cache && within(cache, out)) return `--out ${out} is inside the site cache ${cache}; give the site and the cache folders side by side`;
  return null;
}

/**
 * Why a build must not write into `out`, or null, by what it holds: it must be new, empty, or a folder a build wrote
 * (it holds the manifest). Looked at once the build holds the folder's lock.
 */
function contentsProblem(out) {
  let entries = [];
  try {
    if (!statSync(out).isDirectory()) return `--out ${out}: is a file, not a folder; give a folder for the site`;
    entries = readdirSync(out);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  if (entries.length && !entries.includes(MANIFEST)) {
    return `--out ${out}: holds files no site build wrote (no ${MANIFEST}), which a build would remove; give a new or empty folder, or the folder an earlier \`benchline site\` wrote (if one did and only its ${MANIFEST} is gone, delete the folder: the next build writes it whole)`;
  }
  return null;
}

/**
 * Why a build must not keep its cache in `cache`, or null, by what it holds: like the site, a folder of its own (a
 * build overwrites the cache's files, replacing whatever stands where one goes, and removes what it no longer needs).
 * So it must be new or empty, hold only names a build gives what it writes there (what a build stopped early left, or
 * a damaged cache), or be a cache a build wrote: one holding a file that opens with a build's checksum and schema.
 */
function cacheProblem(cache) {
  const entries = dirEntries(cache) || [];
  const foreign = entries.map((e) => e.name).filter((name) => !CACHE_NAMES.includes(name.replace(/\.\d+$/, ''))).sort();
  if (!foreign.length || entries.some((e) => e.isFile() && sealedCacheFile(join(cache, e.name)))) return null;
  return `--cache ${cache}: holds files no site build wrote (${firstFew(foreign)}), which a build would overwrite or remove; give a new or empty folder (e.g. ${resolve(cache)}-site-cache), or the folder an earlier \`benchline site --cache\` wrote`;
}

// the start of every JSON file a build writes into its cache: its checksum (files.js sealed), then its schema
const SEALED_CACHE_FILE = /^\{"check":"[0-9a-f]{40}","schema":"benchline\/site-/;

/** Whether the regular file at path opens as a JSON file a build writes into its cache (read without following a link). */
function sealedCacheFile(path) {
  let fd;
  try {
    ({ fd } = openRegular(path));
    const head = Buffer.alloc(120);
    return SEALED_CACHE_FILE.test(head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('latin1'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Builds the site. store: history store folder; out: site folder; basePath: the URL path (or full URL)
 * the site is served under, used by the feed's links (the page itself uses relative links only).
 * Optional: config (loaded bench.config.yaml: suite descriptions, variant order, compare thresholds),
 * repoUrl (commit links), title, log. verify: `out` came from elsewhere (a CI cache): a file is left alone only when
 * its content hashes as this build's would, and files no build of ours wrote are removed, so the result is exactly
 * what a build into an empty folder gives. cache: a folder for the parsed store (read-cache.js), kept between
 * builds beside `out`: run folders the last build read are taken from it instead of their files, and their run files
 * are left as that build wrote them (checked like any kept file) instead of being serialized again, so are series part
 * files whose points did not change (their fingerprints are kept in the cache), and a series
 * that only gained points has its change points searched again from its last windows (site-data.js splits).
 * partPoints: points per series part file (series-file.js PART_POINTS; the tests use fewer). warmFiles, warmThreads:
 * with the cache, run folders of at least warmFiles files (2,000) that it has no entry for are read in up to
 * warmThreads worker threads (the machine's parallelism, at most four; one: none), see warmCache.
 * Returns { pages (files in the site), unchanged (of those, left as the last build wrote them), written (paths
 * written by this build), removed, series, runs, charts, problems, read (run folders read from their files), warmed (of
 * those, how many in worker threads), ms, out }.
 */
export async function buildSite(options = {}) {
  const { store, out, cache = null } = options;
  const t0 = performance.now();
  // a store that is not there is refused before the site's parent folder is made: a refused build leaves nothing behind
  // (an --out that no build may write into is named first, as it is once the folder is locked)
  const missing = missingStoreProblem(store);
  const place = placeProblem({ store, out, cache }) || storePlaceProblem(store) || (missing && (contentsProblem(out) || missing));
  if (place) throw new StoreError(place);
  if (cache && existsSync(cache) && !statSync(cache).isDirectory()) throw new StoreError(`--cache ${cache}: is a file, not a folder; give a folder for the site cache (beside the site, e.g. ${resolve(out)}-cache)`);
  // one build at a time into a folder: two at once would each remove the other's files, or leave them unlisted
  makeDirs(dirname(resolve(out)));
  const release = await lockSite(resolve(out), options.log || (() => {}));
  try {
    // what the folder holds is looked at once it is ours: a build that waited finds the manifest the last one wrote
    const contents = contentsProblem(out) || (cache && cacheProblem(cache));
    if (contents) throw new StoreError(contents);
    // no write may land outside the site or its cache, nor a kept file be read from elsewhere: links where they keep
    // their files go (in the whole site under verify, which removes all a build did not write; else where builds write)
    for (const [dir, names] of [[out, options.verify ? null : SITE_NAMES], [cache, CACHE_NAMES]]) {
      const links = dir ? removeLinks(dir, names) : [];
      if (links.length) options.log?.(`removed ${links.length === 1 ? 'a symbolic link' : `${links.length} symbolic links`} from ${dir} (${links.slice(0, 3).join(', ')}${links.length > 3 ? ', ...' : ''}): the folder is the build's own and holds none`);
    }
    const unhold = holdExitHandlers();
    try {
      return await build({ ...options, t0 });
    } finally {
      unhold();
    }
  } finally {
    await release().catch(() => { /* taken over as stale meanwhile: nothing left to release */ });
  }
}

/**
 * How a build holds its site folder (proper-lockfile, `<out>.lock` beside it): a build's longest synchronous stretch
 * (the model of a long history) is many seconds, so a lock counts as stale only after two minutes without a refresh;
 * a second build waits for the first, up to about ten minutes. A lock whose build is gone from this machine (killed
 * with -9) is taken over at once (lock.js).
 */
const SITE_LOCK = Object.freeze({
  stale: 120000,
  update: 5000,
  retries: { retries: 600, factor: 1.2, minTimeout: 100, maxTimeout: 1000 },
  realpath: false,
  onCompromised: () => {},
});

/** Takes the site folder's lock, saying so when another build holds it (or a build killed outright left it). */
async function lockSite(out, log) {
  try {
    return await lock(out, { ...SITE_LOCK, retries: 0 });
  } catch (e) {
    if (e.code !== 'ELOCKED') throw e;
  }
  log(`waiting for the build that holds ${out}.lock: another site build into ${out} (one stopped outright on this machine is taken over at once; from another machine or container, ${SITE_LOCK.stale / 60000} minutes after its last refresh); remove ${out}.lock to go on at once if no build is running`);
  return lock(out, SITE_LOCK);
}

async function build(options) {
  const { store, out, config, verify = false, cache = null, partPoints = PART_POINTS, log = () => {}, t0 } = options;
  const readCache = cache ? openCache(cache, builderKey(), log) : null;
  // esbuild bundles the page in its own process while this one lays out the data
  const code = bundle(cache);
  code.catch(() => { /* awaited below */ });
  const generatedAt = new Date().toISOString();
  // each suite's own report of its newest run, as a page; its module may also lay out the variant view
  const modules = await loadReportModules(config);
  for (const [suite, mod] of Object.entries(modules)) if (mod instanceof Error) log(`suite ${suite}: no report page: ${mod.message}`);
  const columns = Object.fromEntries(Object.entries(modules).filter(([, m]) => typeof m?.sideBySide === 'function').map(([suite, m]) => [suite, m.sideBySide]));
  const previous = previousBuild(out);
  // files are rewritten in place, so one a build stopped half-way was writing may be cut short or mixed with what it
  // held: after such a build (its manifest still says it was building) every kept file is checked by content, as --verify does
  const distrust = verify || previous.building;
  const filesBefore = readCache?.dataFiles || {};
  // checking kept files by content is reading and hashing most of the site: a worker thread does it while this one
  // takes the snapshot and lays out the store, for the files the cache records as the last build wrote them, in the order they are asked for
  const recorded = distrust ? previous.files.filter((rel) => filesBefore[rel] && previous.hashes[rel] === filesBefore[rel].hash) : [];
  const background = recorded.length ? verifyInBackground(out, recorded.map((rel) => ({ rel, size: filesBefore[rel].size, hash: filesBefore[rel].hash }))) : null;
  // what the last build knew of the store, taken out of the cache while this one runs: one stopped half-way leaves none
  const key = optionsKey({ config: config ?? null, repoUrl: options.repoUrl ?? null, basePath: options.basePath ?? './', title: options.title ?? null, changeOptions: options.changeOptions ?? null, partPoints });
  const snapshot = readCache ? takeSnapshot(cache, readCache.builder, key, log) : null;
  // whether the file at rel in the site is as written: by size, or when distrusted by content (its hash, or its bytes
  // when the content is at hand, which spares hashing it)
  const same = (rel, hash, size, content = null) => {
    if (!distrust) return sizeOf(join(out, rel)) === size;
    const known = content ? null : background?.check(rel, size, hash);
    if (known === true || known === false) return known;
    const bytes = fileBytes(join(out, rel), size);
    if (!bytes) return false;
    return content ? bytes.equals(content) : sha1(bytes) === hash;
  };
  // a data file the last build wrote or kept, as the cache records it, when it is still there as written; else null
  const asRecorded = (rel) => {
    const was = filesBefore[rel];
    return was && previous.hashes[rel] === was.hash && same(rel, was.hash, was.size) ? was : null;
  };
  const ctx = { ...options, generatedAt, modules, columns, readCache, previous, same, asRecorded, partPoints };
  if (snapshot && snapshot.manifest !== previous.hash) log(`laying out the whole store: ${join(out, MANIFEST)} is not the one the build that wrote the cache's snapshot left (another build into this folder, or the folder restored from elsewhere)`);
  const plan = (snapshot && snapshot.manifest === previous.hash && tryAppend(ctx, snapshot)) || (await fullPlan(ctx));
  const { layout, problems } = plan;
  // once the store is read, a folder new to the site is marked as the site's before anything goes in: a build stopped
  // half-way (kill -9) leaves a folder the next build takes up, not one it refuses as holding files no build wrote
  // and the manifest says a build is under way until this one writes its own at the end (what the last build wrote
  // stays listed, so a later build still removes what it no longer writes)
  markBuilding(out, previous, generatedAt);
  layout.index.build = createHash('sha256').update(generatedAt).digest('hex').slice(0, 12);
  const { js, css } = await code;

  // most of a rebuild's files (past runs, archived months) are as the last build wrote them: those are not
  // rewritten, which on a large history is most of the writing (and of the pages branch's churn)
  const files = [];
  const hashOf = new Map();
  const wrote = new Set();
  let unchanged = 0;
  const nowOf = new Map();
  const keep = (rel, record) => {
    unchanged += 1;
    files.push(rel);
    hashOf.set(rel, record.hash);
    nowOf.set(rel, record);
  };
  // a file takes its place in the list when it is put, and is written when its content is ready (data files once deflated)
  const putBytes = (rel, text) => {
    const bytes = Buffer.from(text);
    const hash = sha1(bytes);
    if (previous.hashes[rel] === hash && same(rel, hash, bytes.length, bytes)) unchanged += 1;
    else {
      rewrite(join(out, rel), bytes, out);
      wrote.add(rel);
    }
    hashOf.set(rel, hash);
    return { hash, size: bytes.length };
  };
  const put = (rel, text) => {
    files.push(rel);
    return putBytes(rel, text);
  };
  // deflating is most of the writing: it runs in zlib's thread pool, a few files at a time, while this thread lays out
  // the next ones; the first failure ends the build once the files in flight are done
  const inFlight = new Set();
  let failed = null;
  const later = async (work) => {
    while (inFlight.size >= 8) await Promise.race(inFlight);
    if (failed) throw failed;
    const p = work().catch((e) => { failed ||= e; }).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  // with the cache, a data file whose payload hashes as the last build's is left as that build wrote it (when it is still
  // there as written), not deflated again (site-data.js dataScriptFromJson): most of all the archived months.
  // extra: more to record of the file in the cache; done({ hash, size, ... }) once it is written or kept. A series part
  // (extra.fingerprint) is kept by its fingerprint before it gets here, so its payload is not hashed too
  // script: the data file's text when it is already on the way (an archived month deflated early by the plan)
  const putJson = async (rel, json, extra = {}, done = () => {}, deflate = true, script = null) => {
    const source = readCache && !extra.fingerprint ? sha1(json) : undefined;
    const was = source && filesBefore[rel]?.source === source ? asRecorded(rel) : null;
    if (was) {
      keep(rel, was);
      done(was);
      return;
    }
    files.push(rel);
    await later(async () => {
      const record = { ...extra, ...(source ? { source } : {}), ...putBytes(rel, await (script ?? dataScriptFromJson(rel, json, deflate))) };
      nowOf.set(rel, record);
      done(record);
    });
  };
  const putData = (rel, payload, extra, done, deflate) => putJson(rel, JSON.stringify(payload), extra, done, deflate);
  put('index.html', readFileSync(join(SITE_SRC, 'index.html'), 'utf8'));
  put('app.js', js);
  put('app.css', css);
  // the page bundles paths.js; the verbatim copy lets other readers of the site find series the same way
  put('paths.js', readFileSync(join(ROOT, 'ci', 'store', 'paths.js'), 'utf8'));
  put('.nojekyll', '');
  put('feed.xml', layout.feed);
  await putData(INDEX_PATH, layout.index);
  await putData(RUNS_PATH, layout.runsTable);
  // a series' older points sit in part files that a new point leaves alone (series-file.js): with the cache, a part
  // whose points fingerprint as the last build's is kept as that build wrote it, neither serialized nor hashed again
  for (const f of layout.seriesFiles) {
    // parts an appending build keeps as the last build wrote them (checked by appendPlan)
    for (let k = 0; k < (f.payload.from || 0) / partPoints; k += 1) keep(seriesPartPath(f.path, k), filesBefore[seriesPartPath(f.path, k)]);
    const { head, parts } = splitSeries(f.payload, f.path, partPoints);
    for (const p of parts) {
      if (!readCache) {
        await putData(p.path, p.payload);
        continue;
      }
      const fingerprint = partFingerprint(p.payload);
      const was = filesBefore[p.path]?.fingerprint === fingerprint ? asRecorded(p.path) : null;
      if (was) keep(p.path, was);
      else await putData(p.path, p.payload, { fingerprint });
    }
    // the head holds the newest points, so every new run rewrites it: as JSON text, for deflating 500 heads took about
    // 90 ms of each rebuild of a year of hourly runs and saves 3.4 MiB of a 143 MiB site
    await putData(f.path, head, {}, undefined, false);
  }
  const runFileOf = new Map();
  for (const f of plan.runFiles) {
    // checked by the plan: as the last build wrote it, so neither serialized nor hashed again
    if (f.kept) {
      keep(f.path, f.kept);
      continue;
    }
    await putData(f.path, packRun(f.payload), {}, ({ hash, size }) => {
      if (f.folder) runFileOf.set(f.folder, { path: f.path, hash, size });
    });
  }
  for (const f of plan.reports.files) {
    if (f.text !== undefined) put(f.path, f.text);
    else await putData(f.path, f.payload);
  }
  // archived months go out as stored: their JSON text is already the payload
  for (const f of plan.archiveFiles) {
    if (f.kept) keep(f.path, f.kept);
    else if (f.text === undefined) await putData(f.path, f.payload);
    else await putJson(f.path, f.text.trim(), {}, undefined, true, f.script);
  }
  await Promise.all(inFlight);
  if (failed) throw failed;
  // recorded in the order the files were put, whichever was written first
  const hashes = Object.fromEntries(files.map((f) => [f, hashOf.get(f)]));
  const written = files.filter((f) => wrote.has(f));
  if (readCache) {
    plan.updateCache(runFileOf);
    readCache.writeSplits(layout.splits, layout.pvalues);
    readCache.writeDataFiles(Object.fromEntries(files.filter((f) => nowOf.has(f)).map((f) => [f, nowOf.get(f)])));
  }

  const removed = removeUnlisted(out, files, previous, distrust, log);
  const manifest = `${JSON.stringify({ generatedAt, files, hashes })}\n`;
  writeOwn(join(out, MANIFEST), manifest, out);
  // the next build lays out only the runs added after this one, when the store has nothing this build could not read
  if (readCache && !problems.length) saveSnapshot(cache, { ...plan.snapshot, builder: readCache.builder, key, manifest: sha1(manifest), partPoints });
  background?.close();
  return { pages: files.length, unchanged, written, removed, read: plan.read, warmed: plan.warmed || 0, appended: Boolean(plan.appended), series: layout.seriesFiles.length, runs: layout.runsTable.id.length, charts: layout.index.charts.length, problems, ms: Math.round(performance.now() - t0), out };
}

/**
 * Removes from the site folder what this build did not write: what the last build's manifest lists (every file but the
 * manifest when distrusted) and temp files a stopped build left. Returns how many it removed.
 */
function removeUnlisted(out, files, previous, distrust, log) {
  const now = new Set(files);
  // a build stopped outright mid-write (kill -9) leaves write-file-atomic's temp file beside the file it was writing
  // (`<name>.<number>`), which no manifest lists: found by name, as the folder is ours (its lock) while this build runs
  const named = new Set([...files, ...previous.files, MANIFEST]);
  const leftover = (rel) => /\.\d+$/.test(rel) && named.has(rel.replace(/\.\d+$/, ''));
  let removed = 0;
  for (const rel of distrust ? listFiles(out).filter((f) => f !== MANIFEST) : [...previous.files, ...listFiles(out).filter(leftover)]) {
    if (now.has(rel)) continue;
    // the manifest is a file in the output folder anyone may edit: only paths inside `out` are ever removed
    const abs = insideDir(out, rel);
    if (abs instanceof Error) {
      log(`not removed: ${MANIFEST} lists ${JSON.stringify(String(rel).slice(0, 80))}: ${abs.message}`);
      continue;
    }
    removed += 1;
    // files only: a manifest edited to list a folder (`data`) must not take the files this build just wrote with it
    if (existsSync(abs) && !statSync(abs).isDirectory()) {
      unlinkSync(abs);
      pruneEmptyDirs(abs, resolve(out));
    }
  }
  return removed;
}

/** The run folder of each suite's newest document (by start, then run id) among docs, for suites in `suites`. */
function newestFolders(docs, suites, into = {}) {
  const times = new Map();
  const timeOf = (run) => {
    if (!times.has(run)) times.set(run, Date.parse(run.startedAt));
    return times.get(run);
  };
  const newest = new Map();
  for (const doc of docs) {
    if (!suites.has(doc.suite)) continue;
    const a = newest.get(doc.suite);
    if (!a || timeOf(doc.run) > timeOf(a.run) || (doc.run.startedAt === a.run.startedAt && doc.run.id > a.run.id)) newest.set(doc.suite, doc);
  }
  for (const [suite, doc] of newest) into[suite] = folderOf(doc.run);
  return into;
}

/** Suites whose report module loaded: their newest run is read whole, for the module needs its samples. */
const reportedSuites = (modules) => new Set(Object.entries(modules).filter(([, mod]) => !(mod instanceof Error)).map(([suite]) => suite));

/**
 * How a build lays out the whole store: every run folder read, from the cache when it holds the folder, the rest from
 * their files. Returns { layout, problems, runFiles, reports, archiveFiles, read, updateCache(runFileOf), snapshot }.
 */
async function fullPlan({ store, out, config, repoUrl = null, basePath = './', title, changeOptions, generatedAt, modules, columns, readCache, previous, same, log = () => {}, warmFiles = WARM_FILES, warmThreads = availableParallelism() }) {
  // a store.json that cannot be read ends the build before worker threads write anything into the site
  readPolicy(store);
  const warming = readCache ? warmCache({ store, out, readCache, previous, generatedAt, warmFiles, warmThreads }) : null;
  // while worker threads read run folders, this one reads the archived months (a year of hourly runs across 500 series
  // archives 100 MB of JSON: over a second to read and check)
  const archives = readArchives(store);
  const warmed = (await warming) ?? { runFiles: new Map(), folders: new Set() };
  // the store as the workers were given it: not listed a second time (109,000 files on a year of hourly runs)
  const contents = readStore(store, { cache: readCache, read: archives, listing: warmed.listing });
  for (const p of contents.problems) log(`skipped ${p.message}`);
  // an archived month the last build wrote no file of is deflated from now on in zlib's threads (100 MB on a year of
  // hourly runs: a second of CPU), beside the model and the layout on this thread, instead of after them
  const early = new Map();
  for (const a of contents.archives) {
    const rel = archivePath(a.archive.month);
    if (readCache?.dataFiles[rel]) continue; // perhaps kept as written: putJson sees
    const script = dataScriptFromJson(rel, a.text.trim());
    script.catch(() => { /* awaited when the file is put */ });
    early.set(a.archive, script);
  }
  // run folders taken from the cache hold slim documents; these are read whole instead: the newest run of each suite
  // with a report page, runs also found in an archive or in two folders, and runs whose kept run file does not fit
  const whole = new Set();
  const foldersOfRun = new Map();
  for (const { doc } of contents.docs) add(foldersOfRun, doc.run.id, folderOf(doc.run));
  for (const { rec } of contents.failures) add(foldersOfRun, rec.run.id, folderOf(rec.run));
  // a run has one start, so one folder: a second (an edited document, a run id reused with the clock set back; publish
  // refuses both since) is reported, as the site shows each of the run's jobs from the first folder holding it
  for (const [id, folders] of foldersOfRun) {
    if (folders.size < 2) continue;
    const [first, ...others] = [...folders].sort();
    for (const folder of others) {
      const path = join(store, folder);
      const p = { path, message: `${path}: a second folder of run ${id}, whose documents give it another start than those in ${first}, which the site shows where both hold a job; a run has one start: remove the folder whose documents were edited or published with a wrong clock (the store's history, e.g. git, tells which)` };
      contents.problems.push(p);
      log(`skipped ${p.message}`);
    }
  }
  const cachedFolder = (id) => {
    const folders = foldersOfRun.get(id);
    if (!folders || folders.size !== 1) return null;
    const [folder] = folders;
    return contents.folders.get(folder)?.cached && !whole.has(folder) ? folder : null;
  };
  const reported = reportedSuites(modules);
  const reportFolders = newestFolders(contents.docs.map((d) => d.doc), reported);
  if (readCache) {
    for (const [, folders] of foldersOfRun) if (folders.size > 1) for (const f of folders) whole.add(f);
    const archived = new Set(contents.archives.flatMap((a) => a.archive.runs.map((r) => r.id)));
    for (const id of archived) for (const f of foldersOfRun.get(id) || []) whole.add(f);
    for (const folder of Object.values(reportFolders)) if (contents.folders.get(folder)?.cached) whole.add(folder);
  }
  const fullRead = new Map();
  let model;
  let digest;
  let layout;
  let reports;
  for (;;) {
    const wanted = [...whole].filter((f) => !fullRead.has(f) && contents.folders.get(f)?.cached);
    if (wanted.length) {
      const r = readRunFolders(store, wanted.map((f) => [f, contents.folders.get(f).files]));
      for (const f of wanted) fullRead.set(f, { docs: [], failures: [] });
      for (const d of r.docs) fullRead.get(folderOf(d.doc.run)).docs.push(d.doc);
      for (const f of r.failures) fullRead.get(folderOf(f.rec.run)).failures.push(f.rec);
      // a folder that changed under its cache entry is read like a new one (problems listed, entry written again)
      for (const p of r.problems) {
        contents.problems.push(p);
        log(`skipped ${p.message}`);
      }
    }
    // the documents in the order a read without the cache gives, a folder read whole in place of its slim copies
    const docs = [];
    const failures = [];
    const placed = new Set();
    for (const d of contents.docs) {
      const folder = d.slim ? folderOf(d.doc.run) : null;
      if (!folder || !fullRead.has(folder)) docs.push(d.doc);
      else if (!placed.has(folder)) {
        placed.add(folder);
        docs.push(...fullRead.get(folder).docs);
      }
    }
    for (const f of contents.failures) {
      const folder = contents.folders.get(folderOf(f.rec.run))?.cached ? folderOf(f.rec.run) : null;
      if (!folder || !fullRead.has(folder)) failures.push(f.rec);
      else if (!placed.has(`${folder}\u0000failures`)) {
        placed.add(`${folder}\u0000failures`);
        failures.push(...fullRead.get(folder).failures);
      }
    }
    model = buildModel({ docs, failures, archives: contents.archives.map((a) => a.archive) });
    reports = suiteReportPages(modules, { docs, failures, config });
    digest = digestOf(model);
    layout = siteLayout(digest, { config, repoUrl, basePath, problems: contents.problems.map(inStore(store)), policy: contents.policy, generatedAt, title, changeOptions, reports: reports.pages, columns, splits: readCache?.splits, pvalues: readCache?.pvalues });
    // a cached run's file is kept only when the last build wrote it and it is still there as written; otherwise its
    // folder is read whole and the data laid out again (a lost or altered file)
    const misses = [];
    for (const r of model.runs) {
      if (r.archived) continue;
      const folder = cachedFolder(r.id);
      if (!folder) continue;
      const rf = contents.folders.get(folder).cached.runFile;
      // a file the workers wrote for this build (warmCache) is as written
      const fresh = rf && warmed.runFiles.get(rf.path)?.hash === rf.hash;
      if (!rf || rf.path !== runPath(r) || (!fresh && (previous.hashes[rf.path] !== rf.hash || !same(rf.path, rf.hash, rf.size)))) misses.push(folder);
    }
    if (!misses.length) break;
    for (const f of misses) whole.add(f);
  }
  const runFiles = runFilesOf(model.runs).map((f) => {
    const folder = cachedFolder(f.payload.id);
    const rf = folder && contents.folders.get(folder).cached.runFile;
    const only = foldersOfRun.get(f.payload.id)?.size === 1 ? [...foldersOfRun.get(f.payload.id)][0] : null;
    return rf ? { path: f.path, kept: { hash: rf.hash, size: rf.size } } : { ...f, folder: only };
  });
  // a file the workers wrote for part of a run whose documents lie in folders of two months, under the other month's
  // path: no run has it now
  const produced = new Set(runFiles.map((f) => f.path));
  for (const path of warmed.runFiles.keys()) {
    if (produced.has(path)) continue;
    try {
      unlinkSync(join(out, path));
      pruneEmptyDirs(join(out, path), join(out, 'data'));
    } catch { /* already gone */ }
  }
  const storedText = new Map(contents.archives.map((a) => [a.archive, a.text]));
  return {
    layout,
    problems: contents.problems,
    runFiles,
    reports,
    archiveFiles: model.archives.map((a) => ({ path: archivePath(a.month), ...(storedText.has(a) ? { text: storedText.get(a), script: early.get(a) } : { payload: a }) })),
    warmed: warmed.folders.size,
    // each folder read from its files counted once: one the workers read may be read whole again here
    read: [...contents.folders.values()].filter((f) => !f.cached).length + warmed.folders.size + [...fullRead.keys()].filter((f) => !warmed.folders.has(f)).length,
    updateCache: (runFileOf) => updateCache(readCache, store, contents, fullRead, runFileOf),
    snapshot: {
      folders: [...contents.folders].map(([folder, f]) => [folder, f.files]),
      archives: Object.fromEntries(contents.archives.map((a) => [relative(store, a.path), archiveStamp(a.path, a.text, a.stat)])),
      digest,
      reportFolders,
    },
  };
}

/** Folders a build with the cache reads in worker threads when it has no entry for this many of their files at least. */
const WARM_FILES = 2000;
const MAX_WARM_THREADS = 4;

/**
 * Before the whole store is laid out with the cache: when the cache has no entry (of this builder) for run folders of
 * at least `warmFiles` files, as on a first build, those folders are read in worker threads (warm-worker.js), up to
 * four at once, each writing its run's site file and its cache entry; the layout then takes them from the cache. The
 * site is marked as being built first, as those files go into it. Returns { runFiles: Map(path -> { path, hash, size })
 * of the run files written, folders: Set of the folders read, listing: the store's listing (listStore) the folders were
 * taken from }. One thread only: nothing is done here (and the store is not listed).
 */
async function warmCache({ store, out, readCache, previous, generatedAt, warmFiles, warmThreads }) {
  const none = { runFiles: new Map(), folders: new Set() };
  const threads = Math.min(warmThreads, MAX_WARM_THREADS);
  if (threads < 2) return none;
  const listing = listStore(store);
  const cold = [...listing.folders].filter(([folder, names]) => !entryFits(readCache.entries.get(folder), names));
  if (!cold.length || cold.reduce((n, [, names]) => n + names.length, 0) < warmFiles) return { ...none, listing };
  markBuilding(out, previous, generatedAt);
  const entries = await warmInWorkers({ store, out, cache: readCache.dir, builder: readCache.builder }, cold, threads);
  const runFiles = new Map();
  for (const e of entries) {
    readCache.entries.set(e.folder, e);
    if (e.runFile) runFiles.set(e.runFile.path, e.runFile);
  }
  return { runFiles, folders: new Set(entries.map((e) => e.folder)), listing };
}

/**
 * Marks the site folder as being built (its manifest with `building` set, the last build's files still listed), unless
 * the last build left that mark: a build stopped half-way leaves files that the next one checks by content.
 */
function markBuilding(out, previous, generatedAt) {
  if (!previous.building) writeOwn(join(out, MANIFEST), `${JSON.stringify({ generatedAt: null, building: generatedAt, files: previous.files, hashes: previous.hashes })}\n`, out);
}

/** appendPlan, or null when the snapshot does not fit the store at all (a cache edited by hand): the whole store is laid out. */
function tryAppend(ctx, snapshot) {
  try {
    return appendPlan(ctx, snapshot);
  } catch (e) {
    ctx.log?.(`site cache: its snapshot of the last build does not fit this store (${e.message}); laying out the whole store`);
    return null;
  }
}

/**
 * How a build lays out a store that only gained run folders since the last build (whose snapshot it holds): those
 * folders read, their runs appended to the snapshot's digest, every other file kept as that build wrote it. The
 * result is the one fullPlan gives. Null, before anything is written, when the store changed otherwise (a folder that
 * changed or went, an archived month compacted or changed, a run published for a time before the newest one, a file
 * that is no part of the store) or a kept file is not as written: then the build lays out the whole store.
 */
function appendPlan({ store, out, config, repoUrl = null, basePath = './', title, changeOptions, generatedAt, modules, columns, readCache, asRecorded, partPoints, log = () => {} }, snap) {
  // why the whole store is laid out instead, in one line
  const no = (why) => {
    log(`laying out the whole store: ${why}`);
    return null;
  };
  const notKept = (path) => no(`${join(out, path)} is not as the last build wrote it (or ${join(readCache.dir, 'data-files.json')} has no record of it)`);
  const { folders: groups, others } = listStore(store);
  // besides run folders, the store holds the archived months it held, unchanged
  // each month's stamp as looked at now: the snapshot this build writes holds them
  const archives = {};
  const otherFile = others.find((rel) => !snap.archives[rel] || !(archives[rel] = sameArchive(join(store, rel), snap.archives[rel])));
  if (otherFile) return no(`${join(store, otherFile)} is new or changed since the last build (an archived month, or a file that is no part of the store)`);
  const goneMonth = Object.keys(snap.archives).find((rel) => !others.includes(rel));
  if (goneMonth) return no(`${join(store, goneMonth)} is gone since the last build`);
  const old = [...groups].filter(([folder]) => snap.folders.has(folder));
  if (old.length !== snap.folders.size) return no(`run folder ${join(store, [...snap.folders].find((f) => !groups.has(f)))} is gone since the last build`);
  const oldListing = listingHash(old);
  if (oldListing.hex !== snap.listing) return no('a run folder the last build read holds other files now (a document published late into an earlier run, or one removed)');
  const added = [...groups].filter(([folder]) => !snap.folders.has(folder));
  // the listing's fingerprint for the next snapshot: carried on when the new folders come after the old ones
  const listing = [...groups.keys()].slice(0, old.length).every((f) => snap.folders.has(f)) ? listingHash(added, oldListing.state).hex : null;
  const fresh = readRunFolders(store, added);
  if (fresh.problems.length) return no(`a new run folder holds a file that cannot be read: ${fresh.problems[0].message}`);
  const docs = fresh.docs.map((d) => d.doc);
  const failures = fresh.failures.map((f) => f.rec);
  // each new run in a folder of its own, after every run the snapshot holds
  const foldersOfRun = new Map();
  for (const d of [...docs, ...failures]) add(foldersOfRun, d.run.id, folderOf(d.run));
  const split = [...foldersOfRun].find(([, f]) => f.size > 1);
  if (split) return no(`run ${split[0]} is in more than one new run folder`);
  const model = buildModel({ docs, failures });
  const { digest } = snap;
  // a series the new runs describe otherwise (another unit or direction) is laid out anew: points of another unit than
  // its newest document's are left out of it, which only a layout of every point can do
  const before = new Map(digest.series.map((s) => [s.id, s]));
  const redescribed = model.series.find((a) => a.otherUnits || (before.has(a.id) && (a.unit !== before.get(a.id).unit || (a.better !== before.get(a.id).better && !before.get(a.id).undescribed))));
  if (redescribed) {
    const was = before.get(redescribed.id);
    return no(`series ${redescribed.id} is measured in ${redescribed.unit} (${redescribed.better} is better) in the new runs, ${was ? `in ${was.unit} (${was.better} is better) before` : 'and in other units too'}`);
  }
  const offset = digest.runs.length;
  const last = digest.runs[offset - 1];
  const known = new Set(digest.runs.map((r) => r.id));
  const again = model.runs.find((r) => known.has(r.id));
  if (again) return no(`run ${again.id} of a new run folder is one the last build already laid out`);
  if (last && model.runs.length && (model.runs[0].t < last.t || (model.runs[0].t === last.t && model.runs[0].id <= last.id))) return no(`run ${model.runs[0].id} starts at ${model.runs[0].startedAt}, before the newest run the last build laid out (${last.id}), so later runs move down the run list`);
  // the files of earlier runs, series parts and archived months, as the last build wrote them: checked once the
  // layout is made, for under --verify a worker thread reads them meanwhile
  const keptRuns = digest.runs.filter((r) => !r.archived).map(runPath);
  const keptParts = [];
  for (const s of digest.series) for (let k = 0; k < s.points.from / partPoints; k += 1) keptParts.push(seriesPartPath(seriesPath(s.key), k));
  const keptArchives = Object.keys(snap.archives).map((rel) => archivePath(/^archive\/(.+)\.json$/.exec(rel)[1]));
  // each suite's report from its newest run: a new one, else the one the last build read (read whole again)
  const reportFolders = newestFolders(docs, reportedSuites(modules), { ...snap.reportFolders });
  const reread = [...new Set(Object.values(reportFolders))].filter((f) => snap.folders.has(f));
  const older = readRunFolders(store, reread.map((f) => [f, groups.get(f)]));
  if (older.problems.length) return no(`a report page's run folder holds a file that cannot be read: ${older.problems[0].message}`);
  const reports = suiteReportPages(modules, { docs: [...docs, ...older.docs.map((d) => d.doc)], failures: [...failures, ...older.failures.map((f) => f.rec)], config });

  for (const r of model.runs) r.index += offset;
  absorbRuns(digest, model.runs);
  appendSeries(digest, model.series, offset);
  const layout = siteLayout(digest, { config, repoUrl, basePath, problems: [], policy: readPolicy(store), generatedAt, title, changeOptions, reports: reports.pages, columns, splits: readCache.splits, pvalues: readCache.pvalues });
  // [{ path, kept }] of those files, or null (said) at the first not as recorded
  const keptAll = (paths) => {
    const out = [];
    for (const path of paths) {
      const kept = asRecorded(path);
      if (!kept) return notKept(path);
      out.push({ path, kept });
    }
    return out;
  };
  const runFiles = keptAll(keptRuns);
  if (!runFiles || !keptAll(keptParts)) return null;
  const archiveFiles = keptAll(keptArchives);
  if (!archiveFiles) return null;
  for (const f of runFilesOf(model.runs)) runFiles.push({ ...f, folder: [...foldersOfRun.get(f.payload.id)][0] });
  return {
    appended: true,
    layout,
    problems: [],
    runFiles,
    reports,
    archiveFiles,
    read: added.length + reread.length,
    updateCache(runFileOf) {
      for (const [folder, files] of added) {
        const mine = (list) => list.filter((d) => folderOf(d.run) === folder);
        readCache.write(packEntry(folder, files, mine(docs), mine(failures), runFileOf.get(folder) || null, readCache.builder));
      }
    },
    snapshot: { folders: [...groups], archives, digest, reportFolders, stored: snap.stored, listing },
  };
}

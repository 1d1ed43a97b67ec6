// A compact, parsed copy of the store's run folders, kept beside the site so a rebuild reads and validates only new runs.
//
// One file per run folder (<cache>/runs/<yyyy>/<mm>/<run>.json) holding the folder's file names, its documents
// without what only the run's own page shows (samples, distributions, notes: the page keeps the run file the last
// build wrote), its failure records, and the run file's path, hash, size and the run index it was written with.
// A folder is taken from the cache only when it holds exactly the files the entry names: store documents are
// create-once (publish refuses other content under an existing name, and the name is checked against the content
// when the folder is first read), so a folder's names fix its content. Pure packing functions plus a thin I/O shell.
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tupleTable } from './run-file.js';
import { listFiles, pruneEmptyDirs, readFloats, readRegular, sealed, sha1, unsealed, writeFloats, writeFresh, writeOwn } from './files.js';

const CACHE_SCHEMA = 'benchline/site-cache@1';

/** The run folder (runs/<yyyy>/<mm>/<run>) a store-relative document path belongs to, or null. */
export const runFolderOf = (rel) => /^(runs\/\d{4}\/\d{2}\/[^/]+)\//.exec(rel)?.[1] ?? null;

/** Whether a cache entry stands for a run folder holding these file names: exactly the files it names. */
export const entryFits = (entry, names) => !!entry && entry.files.length === names.length && [...names].sort().every((n, i) => n === entry.files[i]);

/** Whether two values parsed from JSON have the same JSON text (keys in the same order), without making it. */
export function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson(a[k], b[k]));
}

/**
 * A cache entry for one run folder. files: its file names (relative to the folder); docs and failures as read
 * (validated); runFile: { path, hash, size } of the run's site file, or null.
 */
export function packEntry(folder, files, docs, failures, runFile, builder = null) {
  // a folder's documents share their run block and runner, mostly: each compared with the few kept
  const table = (list) => [list, (value) => {
    const at = list.findIndex((x) => sameJson(x, value));
    return at >= 0 ? at : list.push(value) - 1;
  }];
  const [runs, runIdx] = table([]);
  const [runners, runnerIdx] = table([]);
  const { list: defs, indexOf: defIdx } = tupleTable();
  const packed = docs.map((d) => ({
    run: runIdx(d.run),
    runner: runnerIdx(d.runner ?? null),
    suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool, scenario: d.scenario, params: d.params, trials: d.trials,
    // one row per metric: definition, value, interval (null when absent)
    m: d.metrics.map((m) => [defIdx([m.name, m.unit, m.better, m.case ?? null]), m.value, m.lower ?? null, m.upper ?? null]),
  }));
  return { schema: CACHE_SCHEMA, builder, folder, files: [...files].sort(), runs, runners, defs, docs: packed, failures, runFile };
}

/**
 * A document of a cache entry, whose metrics expand on first use: a rebuild reads the values of a hundred thousand
 * cached documents straight from their rows (`rows`: [definition, value, lower, upper], `defs`: each definition as
 * { name, case?, unit, better }) and the metric objects of few. Getters on the class, not fields, so a copy or JSON
 * of it holds the document's fields and metrics only.
 */
export class SlimDoc {
  #rows;
  #defs;
  #metrics;

  constructor(fields, rows, defs) {
    Object.assign(this, fields);
    this.#rows = rows;
    this.#defs = defs;
  }

  get rows() {
    return this.#rows;
  }

  get defs() {
    return this.#defs;
  }

  get metrics() {
    this.#metrics ||= this.#rows.map(([d, value, lower, upper]) => {
      const m = { ...this.#defs[d], value };
      if (lower !== null) m.lower = lower;
      if (upper !== null) m.upper = upper;
      return m;
    });
    return this.#metrics;
  }

  toJSON() {
    return { ...this, metrics: this.metrics };
  }
}

/**
 * The documents of an entry as the site's model reads them (SlimDoc): result documents whose metrics hold name, unit,
 * direction, case, value and interval only (no samples). Pure.
 */
export function unpackDocs(entry) {
  const defs = entry.defs.map(([name, unit, better, kase]) => ({ name, ...(kase !== null ? { case: kase } : {}), unit, better }));
  return entry.docs.map((p) => new SlimDoc({ run: entry.runs[p.run], ...(entry.runners[p.runner] !== null ? { runner: entry.runners[p.runner] } : {}), suite: p.suite, subject: p.subject, variant: p.variant, tool: p.tool, scenario: p.scenario, params: p.params, trials: p.trials }, p.m, defs));
}

const SPLITS_SCHEMA = 'benchline/site-splits@1';
const SPLITS_FILE = 'splits.json';
const PVALUES_FILE = 'pvalues.f64';
const DATA_FILES_SCHEMA = 'benchline/site-data-files@1';
const DATA_FILES_FILE = 'data-files.json';

/** What a cache file of this builder says, how it is read: the check of its text, then of what it holds. */
const NOT_AS_WRITTEN = 'not as the last build wrote it (its checksum does not match: edited or damaged)';

/**
 * The fields that are objects of a cache file of this schema and builder, or {} (none yet, unreadable, another
 * builder's). One that is this builder's but not as written (its checksum) is said with `log` (and what the build does
 * `without` it) and not used.
 */
function readSaved(file, schema, builder, log, without) {
  let text;
  try {
    text = readRegular(file);
  } catch {
    return {}; // none yet, or unreadable
  }
  try {
    const saved = JSON.parse(text);
    if (saved?.schema !== schema || saved.builder !== builder) return {};
    if (unsealed(text) === null) throw new Error(NOT_AS_WRITTEN);
    return Object.fromEntries(Object.entries(saved).filter(([, v]) => v && typeof v === 'object'));
  } catch (e) {
    log(`site cache: ${file}: ${e.message}; ${without}`);
  }
  return {};
}

/**
 * The p-values file of the cache folder dir as splits.json names it ({ length, hash }): a Float64Array of
 * changepoints.js PValueMemo triples, or null (none named, or not as written: said with `log`, as its p-values are
 * then worked out again).
 */
function readPValues(dir, named, log) {
  if (!Number.isInteger(named?.length) || named.length % 3 || typeof named.hash !== 'string') return null;
  const path = join(dir, PVALUES_FILE);
  // never through a link, nor from anything but a regular file of that size
  const floats = readFloats(path, named.length);
  if (!floats || sha1(floats) !== named.hash) {
    log(`site cache: ${path}: ${NOT_AS_WRITTEN}; working out the change points' p-values again`);
    return null;
  }
  return floats;
}

/** write-file-atomic's temp file of a cache file (`<name>.json.<number>`, `<name>.f64.<number>`). */
const LEFTOVER = /\.(?:json|f64)\.\d+$/;
const removeLeftover = (path) => {
  try {
    unlinkSync(path);
  } catch { /* gone already */ }
};

/** Where a run folder's entry lies in the cache folder dir. */
const entryFile = (dir, folder) => join(dir, `${folder}.json`);

/**
 * Writes a run folder's entry (packEntry) into the cache folder dir, sealed with its checksum as openCache reads it (so
 * a new entry is written straight into place: one cut short fails its checksum and the folder is read again).
 */
export function writeEntry(dir, entry) {
  writeEntryText(dir, entry.folder, JSON.stringify(entry));
}

/** writeEntry of an entry already serialized: `json` is JSON.stringify(entry) of the entry of run folder `folder`. */
export function writeEntryText(dir, folder, json) {
  writeFresh(entryFile(dir, folder), Buffer.from(`${sealed(json)}\n`), dir);
}

/**
 * The cache folder's entries by run folder: { entries: Map(folder -> entry), write(entry), remove(folder), dir, builder,
 * splits, pvalues, writeSplits(splits, pvalues), dataFiles, writeDataFiles(dataFiles) }. pvalues: the p-values the last
 * build's change point merge worked out (changepoints.js PValueMemo triples), or null. splits: what the last build's
 * change point search saw of each series (site-data.js), {} when there is none of this builder. dataFiles: { [path]: { source (not for series parts), hash, size,
 * fingerprint? } } of the data files the last build wrote or kept (site.js): the hash of the JSON payload each was
 * made from, of the file and its size, and for series part files the fingerprint of their points; {} likewise.
 * builder: what made the entries (a hash of the code that lays out documents and run files); entries another version
 * wrote are ignored, so an upgrade never keeps run files laid out the old way.
 */
export function openCache(dir, builder = null, log = () => {}) {
  // the temp file of a write a stopped build left beside the cache's own files (write-file-atomic's `<name>.<number>`):
  // no build reads it, so it goes; those among the entries and values go when the entries are next listed
  let top = [];
  try {
    top = readdirSync(dir);
  } catch { /* no cache folder yet */ }
  for (const name of top) if (LEFTOVER.test(name)) removeLeftover(join(dir, name));
  // read on first use: a build that only appends runs (snapshot.js) never needs them
  let entries = null;
  const loadEntries = () => {
    entries = new Map();
    const damaged = [];
    for (const rel of listFiles(dir)) {
      if (LEFTOVER.test(rel)) removeLeftover(join(dir, rel));
      if (!rel.startsWith('runs/') || !rel.endsWith('.json')) continue;
      try {
        const text = readRegular(join(dir, rel));
        const e = JSON.parse(text);
        // an entry of another format, or one filed under another name, is ignored: its folder is read again
        if (!(e?.schema === CACHE_SCHEMA && e.builder === builder && `${e.folder}.json` === rel && Array.isArray(e.files) && Array.isArray(e.docs))) continue;
        // one of this builder edited or damaged likewise, and said: its documents are taken without being read
        if (unsealed(text) === null) damaged.push(join(dir, rel));
        else entries.set(e.folder, e);
      } catch {
        damaged.push(join(dir, rel)); // unreadable: read the folder again
      }
    }
    if (damaged.length === 1) log(`site cache: ${damaged[0]}: ${NOT_AS_WRITTEN}; reading its run folder again`);
    else if (damaged.length) log(`site cache: ${damaged[0]} and ${damaged.length - 1} more run folder entries: ${NOT_AS_WRITTEN}; reading their run folders again`);
    return entries;
  };
  // none: every series is searched in full, and every part file serialized
  const search = readSaved(join(dir, SPLITS_FILE), SPLITS_SCHEMA, builder, log, 'searching every series for change points from the start');
  let splits = search.splits ?? {};
  let pvalues = readPValues(dir, search.pvalues, log);
  let dataFiles = readSaved(join(dir, DATA_FILES_FILE), DATA_FILES_SCHEMA, builder, log, 'laying out every data file again').files ?? {};
  return {
    dir,
    builder,
    get entries() {
      return entries || loadEntries();
    },
    get splits() {
      return splits;
    },
    get pvalues() {
      return pvalues;
    },
    // the p-values first, as splits.json names them by their hash
    writeSplits(next, nextPValues = new Float64Array(0)) {
      const named = { length: nextPValues.length, hash: writeFloats(join(dir, PVALUES_FILE), nextPValues, dir) };
      writeOwn(join(dir, SPLITS_FILE), `${sealed(JSON.stringify({ schema: SPLITS_SCHEMA, builder, splits: next, pvalues: named }))}\n`, dir);
      splits = next;
      pvalues = nextPValues;
    },
    get dataFiles() {
      return dataFiles;
    },
    writeDataFiles(next) {
      writeOwn(join(dir, DATA_FILES_FILE), `${sealed(JSON.stringify({ schema: DATA_FILES_SCHEMA, builder, files: next }))}\n`, dir);
      dataFiles = next;
    },
    write(entry) {
      writeEntry(dir, entry);
      entries?.set(entry.folder, entry);
    },
    remove(folder) {
      try {
        unlinkSync(entryFile(dir, folder));
        pruneEmptyDirs(entryFile(dir, folder), dir);
      } catch { /* already gone */ }
      entries?.delete(folder);
    },
  };
}

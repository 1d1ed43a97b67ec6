// What the last site build knew of the store, kept in its cache, so a build after new runs lays out only what they add.
//
// A snapshot holds the build's digest (site-data.js digestOf: run rows, each suite's newest jobs, the series), the
// run folders it read with their file names (as one fingerprint), the archived months' sizes and hashes, and the
// manifest it wrote. Each series' values sit in a binary file of their own (values/<id hash>.f64, 64-bit floats), which
// a later build extends at the end and the snapshot fingerprints, and its run indices as ranges; its other fields (lo, hi, n) are kept only for the
// points of the part that holds its newest point (complete or not) and after: the only ones a new point can still change on the site, and the
// newest one's bounds, which the index shows.
import { closeSync, constants as fsConstants, existsSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { makeDirs } from '../fsutil.js';
import { hashState, hexOf } from '../changepoints.js';
import { clearWay, openRegular, readFloats, readRegular, sealed, sha1, unsealed, writeFloats, writeOwn } from './files.js';
import { runRanges, runsOfRanges } from './series-file.js';

const SNAPSHOT_SCHEMA = 'benchline/site-snapshot@1';
const FILE = 'snapshot.json';
const VALUES = 'values';
// every series' lo, hi and n from its point `from` on, one after the other as 64-bit floats (null as NaN): as JSON
// they were most of the snapshot's text, and parsing and writing them most of taking and saving it
const TAILS = 'tails.f64';


/**
 * One fingerprint of run folders and their file names: [[folder, [file, ...]], ...] in folder order. Pure.
 * from: the hash (node:crypto) listingHash left after earlier folders (`state`), carried on when given.
 * Returns { hex, state } (state: to carry on to folders after these).
 */
export function listingHash(folders, from = null) {
  const h = from ? from.copy() : createHash('sha1');
  for (const [folder, files] of folders) h.update(`${folder}\u0000${[...files].sort().join('\u0000')}\u0001`);
  return { hex: h.copy().digest('hex'), state: h };
}

/**
 * What a build's options make of the site besides the store: a snapshot made with others is not used. Everything in
 * it is JSON (the loaded config, URLs, change point options, points per part file).
 */
export const optionsKey = (options) => sha1(JSON.stringify(options));

/**
 * An archived month's stamp: its size and identity on disk, and the hash of its content (checked when those differ).
 * stat: the size and identity of the file `text` was read from (readStoreFile's), so a month a publish replaced after
 * the read is not stamped with the new file's identity and the old content's hash.
 */
export function archiveStamp(path, text = null, stat = null) {
  return { ...(stat ?? onDisk(path)), hash: sha1(text ?? readFileSync(path)) };
}

/** A file's size and identity on disk. */
function onDisk(path) {
  const { size, mtimeMs, ino } = statSync(path);
  return { size, mtimeMs, ino };
}

/**
 * The stamp of the archived month at path when it is as `stamp` says: by size and identity, else by content (a fresh
 * checkout of it), with its size and identity as they were looked at (a month replaced after that is another file to
 * the next build, never taken for this content); else null.
 */
export function sameArchive(path, stamp) {
  try {
    const { size, mtimeMs, ino } = statSync(path);
    if (size !== stamp.size) return null;
    const seen = { size, mtimeMs, ino, hash: stamp.hash };
    if (mtimeMs === stamp.mtimeMs && ino === stamp.ino) return seen;
    return sha1(readFileSync(path)) === stamp.hash ? seen : null;
  } catch {
    return null;
  }
}

/** A measurement as the variant view reads it (site-data.js variantTable): no samples or notes. */
const liteMetric = (m) => ({ name: m.name, ...(m.case !== undefined ? { case: m.case } : {}), unit: m.unit, better: m.better, value: m.value, ...(m.lower !== undefined ? { lower: m.lower } : {}), ...(m.upper !== undefined ? { upper: m.upper } : {}) });
const liteJob = (j) => ({ variant: j.variant, tool: j.tool, scenario: j.scenario, metrics: j.metrics.map(liteMetric) });

const ROW_FIELDS = ['id', 'startedAt', 't', 'commit', 'ref', 'role', 'archived', 'ok', 'failed', 'runner'];

const valuesFile = (dir, id) => join(dir, VALUES, `${sha1(id).slice(0, 16)}.f64`);

/**
 * Appends to a snapshot's digest the series of a model of new runs only (buildModel of their documents), whose run
 * indices start after the digest's runs: the points buildModel would add for those runs to a model of every run, and
 * series those runs begin, in series order. A series only archives made takes the description (name, unit,
 * direction) of its first document, as buildModel gives it; a new run that describes a series otherwise (another unit,
 * or another direction for a series a document described) is laid out whole instead (site.js appendPlan), as buildModel
 * leaves out the points of other units. Changes and returns digest.series.
 */
export function appendSeries(digest, added, offset) {
  const byId = new Map(digest.series.map((s) => [s.id, s]));
  let grew = false;
  for (const a of added) {
    const s = byId.get(a.id);
    const run = a.points.run.map((r) => r + offset);
    // the ranges of a kept series' run indices, as its snapshot held them, go on with the new ones
    if (s?.kept) s.kept.ranges = moreRanges(s.kept.ranges, run);
    if (!s) {
      digest.series.push({ ...a, points: { ...a.points, run, from: 0 } });
      grew = true;
      continue;
    }
    if (s.undescribed) {
      Object.assign(s, { name: a.name, unit: a.unit, better: a.better });
      delete s.undescribed;
    }
    const p = s.points;
    p.run = joined(p.run, run, Int32Array, s.kept?.room);
    p.v = joined(p.v, a.points.v, Float64Array, s.kept?.room);
    a.points.lo.forEach((_, i) => {
      p.lo.push(a.points.lo[i]);
      p.hi.push(a.points.hi[i]);
      p.n.push(a.points.n[i]);
    });
  }
  if (grew) digest.series.sort((a, b) => (a.id < b.id ? -1 : 1));
  return digest.series;
}

/**
 * A typed array of `list` and then `more` (null as NaN): in list's own buffer when room (the elements it may take from
 * its start) allows (a kept series is read with room to grow: copying a year of points for one more is most of
 * appending), else a new one. Views of list stay as they were.
 */
function joined(list, more, Type, room = 0) {
  const length = list.length + more.length;
  const roomy = ArrayBuffer.isView(list) && length <= room;
  const out = roomy ? new Type(list.buffer, list.byteOffset, length) : new Type(length);
  if (!roomy) out.set(list);
  more.forEach((x, i) => { out[list.length + i] = x ?? NaN; });
  return out;
}

/** Run ranges (series-file.js runRanges) with more run indices after them, as runRanges gives for all. Pure. */
function moreRanges(ranges, run) {
  const out = ranges.map((r) => r.slice());
  for (const r of run) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === r) last[1] += 1;
    else out.push([r, 1]);
  }
  return out;
}

// points a kept series' buffers hold room for beyond its points (about a month of hourly runs)
const ROOM = 1024;

/**
 * Writes a snapshot into the cache folder dir. state: { builder, key, manifest (hash of the manifest the build wrote),
 * folders ([[folder, files]]), archives ({ [store path]: stamp }), digest, reportFolders ({ [suite]: run folder of its
 * newest document }), partPoints, stored (Map(series id -> points its values file already holds as they are, from
 * the snapshot this build started from), listing (listingHash(folders).hex when already worked out) }. The values
 * files and the tails file are written before the snapshot names them.
 */
export function saveSnapshot(dir, { builder, key, manifest, folders, archives, digest, reportFolders, partPoints, stored = new Map(), listing = null }) {
  const tails = [];
  const series = digest.series.map((s) => {
    const p = s.points;
    const count = p.v.length;
    const have = Math.min(stored.get(s.id) ?? 0, count);
    // the values as 64-bit floats (null as NaN), made once for both the values file and the hash below
    let xs = p.v;
    if (!(xs instanceof Float64Array)) {
      xs = new Float64Array(count);
      for (let i = 0; i < count; i += 1) xs[i] = p.v[i] ?? NaN;
    }
    if (have < count) {
      const values = xs.subarray(have, count);
      const fd = openValues(dir, s.id, have ? 'r+' : 'w');
      try {
        writeSync(fd, values, 0, values.byteLength, have * 8);
      } finally {
        closeSync(fd);
      }
    }
    // what the values file must hold: a file another build rewrote meanwhile (a cache shared by two sites) is caught;
    // hashed on from where the snapshot this build started from left it (its values are the start of these)
    const hash = hexOf(hashState(xs, count, s.kept?.hashed.n <= count ? s.kept.hashed : undefined));
    // from the part that holds the newest point, whose bounds the chart's summary shows, even when that part is complete
    const from = count ? Math.floor((count - 1) / partPoints) * partPoints : 0;
    const start = from - (p.from || 0);
    const tail = p.lo.length - start;
    for (const field of ['lo', 'hi', 'n']) tails.push(p[field].slice(start, start + tail));
    const { points, undescribed, kept, ...rest } = s;
    return { ...rest, ...(s.undescribed ? { undescribed: true } : {}), count, hash, runs: kept?.ranges ?? runRanges(p.run), from, tail };
  });
  const floats = new Float64Array(tails.reduce((sum, t) => sum + t.length, 0));
  let at = 0;
  for (const list of tails) for (const x of list) floats[at++] = x ?? NaN;
  const tailsHash = writeFloats(join(dir, TAILS), floats, dir);
  const runs = Object.fromEntries(ROW_FIELDS.map((f) => [f, digest.runs.map((r) => r[f])]));
  const { order, latest, newest } = digest.suites;
  const suites = {
    order,
    latest: [...latest],
    newest: [...newest].map(([suite, jobs]) => [suite, [...jobs].map(([id, { run, job }]) => [id, run, liteJob(job)])]),
  };
  // the snapshot is trusted field by field (run rows, ranges, bounds): a checksum of its text catches a file edited or damaged
  const text = JSON.stringify({ schema: SNAPSHOT_SCHEMA, builder, key, manifest, partPoints, listing: listing ?? listingHash(folders).hex, folders: folders.map(([f]) => f), archives, reportFolders, runs, suites, series, tails: { length: floats.length, hash: tailsHash } });
  writeOwn(join(dir, FILE), `${sealed(text)}\n`, dir);
}

/** The tails file of the cache folder dir, as the snapshot names it ({ length, hash }): a Float64Array, or an error naming it. */
function readTails(dir, named) {
  const path = join(dir, TAILS);
  if (!Number.isInteger(named?.length) || typeof named.hash !== 'string') throw new Error('tails missing');
  // never through a link, nor from anything but a regular file of that size
  const floats = readFloats(path, named.length);
  if (!floats) throw new Error(`${path}: not a file of the ${named.length * 8} bytes the snapshot names (gone, a link or another size)`);
  if (sha1(floats) !== named.hash) throw new Error(`${path}: not the bounds the snapshot was written with`);
  return floats;
}

/** A series' values file opened (flags as fs.openSync's), its folder made, and what stands in its way removed (clearWay). */
function openValues(dir, id, flags) {
  const path = valuesFile(dir, id);
  // never through a link: a cache restored from elsewhere must not make a write land outside it
  // nor waiting for a reader (a named pipe there): opened without blocking, checked to be a file
  const mode = flags === 'w' ? fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC : fsConstants.O_RDWR;
  const open = () => openRegular(path, mode).fd;
  try {
    return open();
  } catch (e) {
    if (flags !== 'w') throw e;
    clearWay(path, dir);
    makeDirs(join(dir, VALUES));
    return open();
  }
}

/**
 * Takes the snapshot out of the cache folder dir (a build that stops half-way leaves none, so the next one builds
 * in full), or null when there is none of this builder and options, or it cannot be read whole. Returns
 * { manifest, listing, folders (Set), archives, reportFolders, digest, stored (Map(series id -> points in its values
 * file)) }, the digest as site-data.js digestOf gives it, each series' lo, hi and n from point `from` on, and its
 * `kept`: { ranges (its run indices as runRanges gives them), hashed (changepoints.js hashState of its values), room
 * (the points its values and run indices may grow to in place) }, which appendSeries carries on and the change point
 * search and saveSnapshot start from instead of going over every point again.
 */
export function takeSnapshot(dir, builder, key, log = () => {}) {
  const path = join(dir, FILE);
  if (!existsSync(path)) return null;
  let snap = null;
  try {
    const raw = readRegular(path);
    const s = JSON.parse(raw);
    if (s?.schema === SNAPSHOT_SCHEMA && s.builder === builder && s.key === key) {
      if (unsealed(raw) === null) throw new Error(`${path}: not as the last build wrote it (its checksum does not match: edited or damaged)`);
      snap = readSnapshot(dir, s);
    }
  } catch (e) {
    // named by its file: an error of JSON.parse or the file system may not say which
    log(`site cache: its snapshot of the last build cannot be read (${e.message.includes(dir) ? '' : `${path}: `}${e.message}); laying out the whole store`);
  }
  // whatever stands there (a folder as well) goes: the next snapshot is written in its place
  rmSync(path, { recursive: true, force: true });
  return snap;
}

function readSnapshot(dir, s) {
  for (const f of ROW_FIELDS) if (!Array.isArray(s.runs?.[f]) || s.runs[f].length !== s.runs.id.length) throw new Error(`runs.${f} is not one entry per run`);
  if (!Array.isArray(s.series) || !Array.isArray(s.folders) || !s.suites || !s.archives) throw new Error('series, folders, suites or archives missing');
  const rows = s.runs.id.map((_, index) => {
    const r = { index };
    for (const f of ROW_FIELDS) r[f] = s.runs[f][index];
    return r;
  });
  const stored = new Map();
  // every series' values and run indices in one buffer each, with room to grow after each (allocating a thousand
  // buffers was a third of taking the snapshot): a build appends the new runs' points in place (joined)
  // a series has at most a point per run: a count beyond that is not allocated
  const counts = s.series.map((x) => (Number.isInteger(x.count) && x.count >= 0 && x.count <= rows.length ? x.count : NaN));
  if (counts.some(Number.isNaN)) throw new Error('a series without its count of points, or with more points than runs');
  const starts = [];
  let points = 0;
  for (const count of counts) {
    starts.push(points);
    points += count + ROOM;
  }
  const values = new ArrayBuffer(points * 8);
  const indices = new ArrayBuffer(points * 4);
  const floats = readTails(dir, s.tails);
  let at = 0;
  // a tail's points as the JSON arrays they were (null where NaN)
  const take = (length) => {
    if (!Number.isInteger(length) || length < 0 || at + length > floats.length) throw new Error(`${join(dir, TAILS)}: does not hold the bounds the snapshot names`);
    // a plain loop: Array.from with a map function took most of taking the snapshot
    const out = new Array(length);
    for (let i = 0; i < length; i += 1) {
      const x = floats[at + i];
      out[i] = x === x ? x : null;
    }
    at += length;
    return out;
  };
  const series = s.series.map(({ count, hash, runs, from, tail, undescribed, ...rest }, k) => {
    const lo = take(tail);
    const hi = take(tail);
    const n = take(tail);
    const file = valuesFile(dir, rest.id);
    const v = new Float64Array(values, starts[k] * 8, count);
    let fd;
    try {
      // a link is not read (nor, as the snapshot is then not used, written through): it could point anywhere
      let st;
      ({ fd, st } = openRegular(file));
      if (st.size < count * 8) throw new Error(`${file}: shorter than the ${count} values of series ${rest.id}`);
      readSync(fd, v, 0, v.byteLength, 0);
    } catch (e) {
      // named by the values file: an error of the file system (a folder where it should be) may not say which
      if (e.code === 'ELOOP') throw new Error(`${file}: a symbolic link, which the cache never holds (it could point anywhere)`);
      throw e.message.includes(file) ? e : new Error(`${file}: ${e.message}`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    // the hash state after these points goes on with the series: its change point search and the next snapshot hash
    // only the points appended after them
    const hashed = hashState(v, count);
    if (hexOf(hashed) !== hash) throw new Error(`${file}: not the values of series ${rest.id} the snapshot was written with`);
    stored.set(rest.id, count);
    const run = runsOfRanges(runs, new Int32Array(indices, starts[k] * 4, count));
    const out = { ...rest, points: { run, v, lo, hi, n, from }, kept: { ranges: runs, hashed, room: count + ROOM } };
    if (undescribed) out.undescribed = true;
    return out;
  });
  if (at !== floats.length) throw new Error(`${join(dir, TAILS)}: holds more than the bounds the snapshot names`);
  const suites = {
    order: s.suites.order,
    latest: new Map(s.suites.latest),
    newest: new Map(s.suites.newest.map(([suite, jobs]) => [suite, new Map(jobs.map(([id, run, job]) => [id, { run, job }]))])),
  };
  return { manifest: s.manifest, listing: s.listing, folders: new Set(s.folders), archives: s.archives, reportFolders: s.reportFolders, partPoints: s.partPoints, digest: { runs: rows, suites, series }, stored };
}

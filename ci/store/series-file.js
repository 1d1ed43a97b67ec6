// Dense layout of a series' data files: run indices as ranges, run counts only where not 1, older points in fixed parts; shared by builder and page.
// Kept free of Node imports on purpose: the page bundles it to read series files back.
import { seriesPartPath } from './paths.js';

/**
 * Points in each part file of a series. A series file holds its newest points (fewer than this) and names its parts,
 * which hold the older points this many at a time: a new point changes only the series file, and a part changes only
 * when points it holds do (a run published late for an earlier time, a month compacted into its archive).
 */
export const PART_POINTS = 1024;

/**
 * A series payload (as siteData lays it out, with one entry per point in `run`, `v`, `lo`, `hi` and `n`) in the
 * layout its file is written in: `run` becomes `runs`, [first, count] for each stretch of consecutive run indices
 * (a history of one point per run is a single pair), and `n` becomes `many`, [point, runs] for the points that stand
 * for more than one run (archived commits measured several times). Everything else is kept. Pure.
 */
export function packSeries(series) {
  const { run, n, ...rest } = series;
  const runs = runRanges(run);
  const many = [];
  n.forEach((k, i) => { if (k !== 1) many.push([i, k]); });
  return { ...rest, runs, many };
}

/** Run indices (ascending in stretches) as [first, count] for each stretch of consecutive ones. Pure. */
export function runRanges(run) {
  const ranges = [];
  for (let i = 0; i < run.length; i += 1) {
    const last = ranges[ranges.length - 1];
    if (last && last[0] + last[1] === run[i]) last[1] += 1;
    else ranges.push([run[i], 1]);
  }
  return ranges;
}

// 0, 1, 2, ... as far as a typed array of run indices has needed: each range's indices copied out of it in one go
let counting = new Int32Array(0);

/** The run indices of runRanges' ranges, written into `into` (a typed array of their number, or an array). */
export function runsOfRanges(ranges, into = []) {
  let i = 0;
  const typed = into instanceof Int32Array;
  for (const [first, count] of ranges) {
    // a kept series' indices (snapshot.js): a year of hourly runs is millions of them, mostly one range a series
    if (typed && Number.isInteger(first) && first >= 0 && Number.isInteger(count) && count > 0 && first + count <= 2 ** 30) {
      if (counting.length < first + count) {
        counting = new Int32Array(Math.max(first + count, 2 * counting.length));
        for (let k = 0; k < counting.length; k += 1) counting[k] = k;
      }
      into.set(counting.subarray(first, first + count), i);
      i += count;
      continue;
    }
    for (let k = 0; k < count; k += 1) into[i++] = first + k;
  }
  return into;
}

/** The series as packSeries was given it; a file of another layout is returned as is. */
export function unpackSeries(packed) {
  if (!Array.isArray(packed?.runs)) return packed;
  const { runs, many, ...rest } = packed;
  const run = runsOfRanges(runs);
  const n = new Array(run.length).fill(1);
  for (const [i, k] of many) n[i] = k;
  return { ...rest, run, n };
}

/**
 * A series payload (as siteData lays it out) as its files: { head, parts: [{ path, payload }] }. Each complete run of
 * `size` points from the first is a part (packed as packSeries packs a series: { v, lo, hi, runs, many }, written at
 * seriesPartPath(path, k)); the head is the series with the points after them, packed, and `parts` naming the part
 * files in order. A payload whose `lo`, `hi` and `n` start at point `from` (a whole number of parts: snapshot.js) gives
 * the parts from there on only; the head still names them all. Pure.
 */
export function splitSeries(series, path, size = PART_POINTS) {
  const { run, v, lo, hi, n, from = 0, ...rest } = series;
  const full = Math.floor(run.length / size);
  if (from % size !== 0 || from > full * size) throw new Error(`series ${rest.id}: its points from ${from} on are not whole parts of ${size}`);
  // a kept series' run indices and values may be typed arrays (snapshot.js): the files hold plain ones
  const cut = (list, a, b) => {
    if (Array.isArray(list)) return list.slice(a, b);
    // a plain loop: Array.from of a typed array's stretch is several times slower
    const out = new Array(b - a);
    for (let i = a; i < b; i += 1) out[i - a] = list[i];
    return out;
  };
  const points = (a, b) => ({ run: cut(run, a, b), v: cut(v, a, b), lo: lo.slice(a - from, b - from), hi: hi.slice(a - from, b - from), n: n.slice(a - from, b - from) });
  const names = Array.from({ length: full }, (_, k) => seriesPartPath(path, k));
  const parts = [];
  for (let k = from / size; k < full; k += 1) parts.push({ path: names[k], payload: packSeries(points(k * size, (k + 1) * size)) });
  const head = packSeries({ ...rest, parts: names, ...points(full * size, run.length) });
  return { head, parts };
}

/**
 * The series splitSeries was given, from its head file and its part files' payloads in the head's order (a series
 * file of an earlier layout, without parts, reads as it is). Pure.
 */
export function joinSeries(head, parts = []) {
  const { parts: names, ...whole } = unpackSeries(head);
  if (!Array.isArray(names)) return whole;
  if (parts.length !== names.length) throw new Error(`series ${whole.id}: ${names.length} part files named, ${parts.length} given`);
  const pieces = [...parts.map(unpackSeries), whole];
  const cat = (field) => [].concat(...pieces.map((p) => p[field]));
  return { ...whole, run: cat('run'), v: cat('v'), lo: cat('lo'), hi: cat('hi'), n: cat('n') };
}

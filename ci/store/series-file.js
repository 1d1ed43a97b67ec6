// Dense layout of a series' data file: run indices as ranges, run counts only where not 1; shared by builder and page.
// Kept free of Node imports on purpose: the page bundles it to read series files back.

/**
 * A series payload (as siteData lays it out, with one entry per point in `run`, `v`, `lo`, `hi` and `n`) in the
 * layout its file is written in: `run` becomes `runs`, [first, count] for each stretch of consecutive run indices
 * (a history of one point per run is a single pair), and `n` becomes `many`, [point, runs] for the points that stand
 * for more than one run (archived commits measured several times). Everything else is kept. Pure.
 */
export function packSeries(series) {
  const { run, n, ...rest } = series;
  const runs = [];
  for (let i = 0; i < run.length; i += 1) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === run[i]) last[1] += 1;
    else runs.push([run[i], 1]);
  }
  const many = [];
  n.forEach((k, i) => { if (k !== 1) many.push([i, k]); });
  return { ...rest, runs, many };
}

/** The series as packSeries was given it; a file of another layout is returned as is. */
export function unpackSeries(packed) {
  if (!Array.isArray(packed?.runs)) return packed;
  const { runs, many, ...rest } = packed;
  const run = [];
  for (const [first, count] of runs) for (let k = 0; k < count; k += 1) run.push(first + k);
  const n = new Array(run.length).fill(1);
  for (const [i, k] of many) n[i] = k;
  return { ...rest, run, n };
}

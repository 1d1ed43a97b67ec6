// Edit distance of short names, for the "did you mean" of config keys and job params.

/** Edit distance of two short strings (insertions, deletions, substitutions, and two neighbours swapped: jugde, judge). */
function distance(a, b) {
  let before = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) next[j] = Math.min(next[j], before[j - 2] + 1);
    }
    [before, row] = [row, next];
  }
  return row[b.length];
}

/** The known name nearest to `key` (case ignored) as [name, distance], or undefined when `known` is empty. */
function nearest(key, known) {
  return known.map((k) => [k, distance(String(key).toLowerCase(), k.toLowerCase())]).sort((x, y) => x[1] - y[1])[0];
}

/**
 * The known name `key` nearly spells, or undefined: the nearest, when at most one edit per `per` characters of `key`
 * (at least one edit) away.
 */
export function nearMiss(key, known, per = 3) {
  const best = nearest(key, known);
  return best && best[1] <= Math.max(1, Math.floor(String(key).length / per)) ? best[0] : undefined;
}

// Which earlier run a run is compared with by default: the nearest one that measured a job it measured; pure.

/** The jobs (suite/variant/tool/scenario) of result-document-like objects, as a set of keys. */
export const jobKeys = (docs) => new Set(docs.map((d) => `${d.suite}/${d.variant}/${d.tool?.name ?? d.tool}/${d.scenario}`));

/**
 * Index of the run to compare run `head` with: the nearest run before it that measured one of the jobs `head`
 * measured, looked for among the `limit` runs before it; the run right before when none did (or `head` measured
 * nothing); -1 for the first run. jobsOf(i) resolves to run i's jobKeys. A history of several suites run apart
 * (or a failed run between two good ones) would otherwise compare runs that share no job.
 */
export async function comparableBefore(head, jobsOf, limit = 50) {
  if (head <= 0) return -1;
  const mine = await jobsOf(head);
  for (let i = head - 1; mine.size && i >= Math.max(0, head - limit); i -= 1) {
    const theirs = await jobsOf(i);
    for (const k of mine) if (theirs.has(k)) return i;
  }
  return head - 1;
}

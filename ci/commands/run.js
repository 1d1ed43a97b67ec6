// `benchline run`: runs the selected jobs and prints where the results folder is.
import { loadConfig } from '../config.js';
import { planJobs } from '../plan.js';
import { runJobs } from '../runner.js';
import { shownLogLines } from '../reports/format.js';

/** Shared by `run` and `bench`: plan, run, and return { dir, run, config }. */
export async function runSelected(opts) {
  const config = loadConfig(opts.config);
  const jobs = planJobs(config, opts);
  const result = await runJobs(jobs, { config, base: opts.base, order: opts.order, seed: opts.seed, out: opts.out, progress: opts.progress, budget: opts.budget, onSignalAfter: opts.onSignalAfter });
  return { ...result, config };
}

/** Exit code of a run: 0 when every runnable job produced results, 1 otherwise. */
export const runExitCode = (run) => (run.jobs.some((j) => j.status === 'failed') ? 1 : 0);

/** The closing lines of `run`: jobs done, then each failed job's reason and the last lines of its log (a reason such as
 * "... Last lines of api.log:" is followed by them, as in the console report). */
export function closingLines(dir, runDoc) {
  const failed = runDoc.jobs.filter((j) => j.status === 'failed');
  const out = [`benchline: ${runDoc.jobs.length - failed.length}/${runDoc.jobs.length} jobs done; results in ${dir}`];
  for (const j of failed) {
    out.push(`  failed ${j.id}: ${j.reason}`);
    for (const l of shownLogLines(j.logTail, 5)) out.push(`      | ${l}`);
  }
  return out;
}

export default async function run(opts) {
  const { dir, run: runDoc } = await runSelected(opts);
  for (const line of closingLines(dir, runDoc)) process.stderr.write(`${line}\n`);
  return runExitCode(runDoc);
}

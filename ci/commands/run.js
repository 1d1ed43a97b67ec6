// `benchline run`: runs the selected jobs and prints where the results folder is.
import { loadConfig } from '../config.js';
import { planJobs } from '../plan.js';
import { runJobs } from '../runner.js';

/** Shared by `run` and `bench`: plan, run, and return { dir, run, config }. */
export async function runSelected(opts) {
  const config = loadConfig(opts.config);
  const jobs = planJobs(config, opts);
  const result = await runJobs(jobs, { config, base: opts.base, order: opts.order, seed: opts.seed, out: opts.out, progress: opts.progress, budget: opts.budget, onSignalAfter: opts.onSignalAfter });
  return { ...result, config };
}

/** Exit code of a run: 0 when every runnable job produced results, 1 otherwise. */
export const runExitCode = (run) => (run.jobs.some((j) => j.status === 'failed') ? 1 : 0);

export default async function run(opts) {
  const { dir, run: runDoc } = await runSelected(opts);
  const failed = runDoc.jobs.filter((j) => j.status === 'failed');
  process.stderr.write(`benchline: ${runDoc.jobs.length - failed.length}/${runDoc.jobs.length} jobs done; results in ${dir}\n`);
  for (const j of failed) process.stderr.write(`  failed ${j.id}: ${j.reason}\n`);
  return runExitCode(runDoc);
}

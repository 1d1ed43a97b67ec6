// `benchline plan`: the job matrix as JSON, or as a $GITHUB_OUTPUT line with --github.
import { loadConfig } from '../config.js';
import { planJobs, toMatrix } from '../plan.js';

export default function plan(opts) {
  const config = loadConfig(opts.config);
  const matrix = toMatrix(planJobs(config, opts));
  const json = JSON.stringify(matrix);
  process.stdout.write(opts.github ? `matrix=${json}\n` : `${JSON.stringify(matrix, null, 2)}\n`);
  return 0;
}

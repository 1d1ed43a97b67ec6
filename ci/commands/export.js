// `benchline export <results-dir> --format gab-smaller|gab-bigger|bmf`: this run's results in another tool's format.
import { loadResultsDir, primaryRole } from '../results-dir.js';
import { renderExport } from '../reports/exports.js';
import { UserError } from '../errors.js';
import { writeOutput } from './report.js';

export default function exportCommand(opts) {
  const [dir] = opts.args;
  const loaded = loadResultsDir(dir);
  const role = primaryRole(loaded.byRole);
  if (!role) throw new UserError(`${dir}: the run has no result documents (every job failed or was skipped); nothing to export`);
  writeOutput(opts.output, renderExport(loaded.byRole[role], opts.format));
  return 0;
}

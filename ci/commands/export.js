// `benchline export <path> --format gab-smaller|gab-bigger|bmf|bencher-measures`: results in another tool's format.
import { loadDocuments, primaryRole } from '../results-dir.js';
import { renderExport } from '../reports/exports.js';
import { UserError } from '../errors.js';
import { writeOutput } from './report.js';

/** Takes every path `compare` takes (a run folder, a results root, a folder of result documents, one document). */
export default function exportCommand(opts) {
  const [path] = opts.args;
  const { byRole } = loadDocuments(path);
  const role = primaryRole(byRole);
  if (!role) throw new UserError(`${path}: the run has no result documents (every job failed or was skipped); nothing to export`);
  writeOutput(opts.output, renderExport(byRole[role], opts.format));
  const duets = byRole[role].filter((d) => d.duet).length;
  if (duets) process.stderr.write(`benchline export: left out ${duets} result${duets === 1 ? '' : 's'} measured as duets (an A/B run: each side beside the other, about half of a run alone); export a run without --base for those jobs\n`);
  return 0;
}

// `benchline export <path> --format gab-smaller|gab-bigger|bmf|bencher-measures`: results in another tool's format.
import { loadDocuments, primaryRole } from '../results-dir.js';
import { FORMATS, gabLeftOut, renderExport } from '../reports/exports.js';
import { UserError } from '../errors.js';
import { outputProblem, writeOutput } from './report.js';

/** Takes every path `compare` takes (a run folder, a results root, a folder of result documents, one document). */
export default function exportCommand(opts) {
  const [path] = opts.args;
  const clash = outputProblem(opts.output, path);
  if (clash) throw new UserError(clash);
  const { byRole } = loadDocuments(path);
  const role = primaryRole(byRole);
  if (!role) throw new UserError(`${path}: the run has no result documents (every job failed or was skipped); nothing to export`);
  const text = renderExport(byRole[role], opts.format);
  writeOutput(opts.output, text);
  if (FORMATS[opts.format] && text.trim() === '[]') {
    const dir = FORMATS[opts.format];
    // metrics of this direction the file leaves out (a ghz run paced at --rps has a throughput, set by the load)
    const left = byRole[role].filter((d) => !d.duet).flatMap((d) => d.metrics.filter((m) => m.better === dir).map((m) => `${m.name} (${gabLeftOut(m, d)})`));
    const why = left.length ? `every ${dir}-is-better metric of this run is one the file leaves out (docs/exports.md): ${[...new Set(left)].slice(0, 5).join(', ')}${new Set(left).size > 5 ? ', ...' : ''}` : `no metric of this run is ${dir}-is-better`;
    process.stderr.write(`benchline export: ${why}, so the file holds no entry; github-action-benchmark fails on such a file ("No benchmark result was found"): skip its call for it\n`);
  }
  const duets = byRole[role].filter((d) => d.duet).length;
  if (duets) process.stderr.write(`benchline export: left out ${duets} result${duets === 1 ? '' : 's'} measured as duets (an A/B run: each side beside the other, about half of a run alone); export a run without --base for those jobs\n`);
  return 0;
}

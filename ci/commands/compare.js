// `benchline compare <base> [head]`: verdicts per metric as JSON; --fail-on-regression turns regressions into exit 1 (and comparing nothing into exit 2).
import { compare } from '../compare.js';
import { loadDocuments } from '../results-dir.js';
import { UserError } from '../errors.js';
import { jobId } from '../plan.js';
import { firstFew } from '../units.js';
import { loadSettings, writeOutput } from './report.js';

/** The documents of one side: the only role present, else the role named after the side. */
function side(loaded, preferred, path) {
  const roles = Object.keys(loaded.byRole);
  if (roles.length === 1) return loaded.byRole[roles[0]];
  if (loaded.byRole[preferred]?.length) return loaded.byRole[preferred];
  throw new UserError(`${path}: holds documents of roles ${roles.join(', ')} and none named "${preferred}"; pass the folder of one role (docs/<role>) instead`);
}

/** Base and head documents from the command's one or two paths. */
function selectSides(basePath, headPath) {
  const first = loadDocuments(basePath);
  if (!headPath) {
    const { base, head } = first.byRole;
    if (!base?.length || !head?.length) {
      throw new UserError(`${basePath}: holds ${Object.keys(first.byRole).join(', ') || 'no'} documents but not both base and head; `
        + 'measure with `benchline run --base <ref>`, or pass two paths: benchline compare <base> <head>');
    }
    return { base, head };
  }
  return { base: side(first, 'base', basePath), head: side(loadDocuments(headPath), 'head', headPath) };
}

/**
 * What to say when nothing was compared (the sides share no job, or no metric of one), naming the jobs each side has
 * alone; null when something was. Pure.
 */
function nothingCompared(result) {
  if (result.comparisons.length) return null;
  const alone = (side) => [...new Set(result.unmatched.filter((u) => u.side === side).map(jobId))];
  const list = (ids) => (ids.length ? firstFew(ids) : 'none');
  return `nothing compared: base and head share no measured metric (base alone: ${list(alone('base'))}; head alone: ${list(alone('head'))}); compare runs of the same jobs`;
}

export default function compareCommand(opts) {
  const [basePath, headPath] = opts.args;
  const config = loadSettings(opts.config);
  const { base, head } = selectSides(basePath, headPath);
  const result = compare(base, head, config.compare, { seed: 1 });
  writeOutput(undefined, `${JSON.stringify(result, null, 2)}\n`);
  // a gate that judged nothing must not pass as if it had judged everything
  const nothing = nothingCompared(result);
  if (nothing) {
    process.stderr.write(`benchline compare: ${nothing}${opts.failOnRegression ? '; --fail-on-regression cannot pass a comparison of nothing' : ''}\n`);
    if (opts.failOnRegression) return 2;
  }
  return opts.failOnRegression && result.counts.regression > 0 ? 1 : 0;
}

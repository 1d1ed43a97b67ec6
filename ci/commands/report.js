// `benchline report <results-dir> --format console|comment|summary|suite`: loads a run and prints or writes one report.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, reportPathProblem } from '../config.js';
import { COMPARE_DEFAULTS, compare } from '../compare.js';
import { loadResultsDir, primaryRole } from '../results-dir.js';
import { writeFileAtomic } from '../fsutil.js';
import { countVerdicts, duetSuiteNote, suiteBlocks, terminalSafe } from '../reports/format.js';
import { UserError } from '../errors.js';
import * as consoleReport from '../reports/console.js';
import * as commentReport from '../reports/comment.js';
import * as summaryReport from '../reports/summary.js';

const DEFAULT_CONFIG = 'bench.config.yaml';
const FALLBACK = { compare: { ...COMPARE_DEFAULTS, failOnRegression: true }, suites: {} };

/**
 * The configuration for thresholds and suite order. Without the default file (results copied
 * elsewhere) the built-in thresholds apply; a file named explicitly must exist.
 */
export function loadSettings(path = DEFAULT_CONFIG, { warn = (m) => process.stderr.write(`${m}\n`) } = {}) {
  if (path === DEFAULT_CONFIG && !existsSync(path)) {
    warn(`benchline: no ${DEFAULT_CONFIG} here; using the default thresholds (alpha 0.05, confidence 0.95, minEffect 2%)`);
    return structuredClone(FALLBACK);
  }
  return loadConfig(path);
}

/** Writes text to `file` atomically, or to stdout when no file is given. */
export function writeOutput(file, text) {
  if (file) writeFileAtomic(file, text);
  else process.stdout.write(text);
}

/** A path with its folder's links resolved (the file itself need not exist). */
function realPath(p) {
  try {
    return realpathSync(p);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(p))), basename(p));
    } catch {
      return resolve(p);
    }
  }
}

/**
 * Why `-o output` must not be written when `input` (a result file, run folder, results root or folder of documents) is
 * read, or null: it is the input itself, or inside it a file of what a run holds (a run.json, anything under docs/ or
 * raw/) or a JSON file already there (a document of a loose folder): the report would replace what it was made from.
 */
export function outputProblem(output, input) {
  if (!output || !input) return null;
  const out = realPath(output);
  const from = realPath(input);
  if (out === from) return `-o ${output}: is the input itself, which it would replace; give another file`;
  const rel = relative(from, out);
  if (rel.startsWith('..') || isAbsolute(rel)) return null;
  const parts = rel.split(sep);
  if (parts.at(-1) === 'run.json' || parts.includes('docs') || parts.includes('raw') || (rel.endsWith('.json') && existsSync(out))) {
    return `-o ${output}: is part of the results it reads (${rel}), which it would replace; give another file (not a run.json, nothing under docs/ or raw/, no JSON file already there)`;
  }
  return null;
}

/**
 * Everything a renderer needs from a results folder: this run's documents (head, else
 * local/main), the head-vs-base comparison when the run measured a base, and failed jobs.
 */
export function reportData(dir, config, { seed = 1, env = process.env } = {}) {
  const loaded = loadResultsDir(dir);
  const role = primaryRole(loaded.byRole);
  const docs = role ? loaded.byRole[role] : [];
  const { base, head } = loaded.byRole;
  const comparisons = base?.length && head?.length ? compare(base, head, config.compare, { seed }) : undefined;
  return { run: loaded.run, docs, comparisons, failures: loaded.failures, config, dir: loaded.dir, ...links(config, env) };
}

/**
 * Where a report may link to: the workflow run (GitHub Actions' environment) and the trend site (defaults.site,
 * else BENCHLINE_SITE_URL, else the repository's GitHub Pages address).
 */
export function links(config, env = process.env) {
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const repo = /^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY || '') ? env.GITHUB_REPOSITORY : null;
  const runUrl = repo && /^\d+$/.test(env.GITHUB_RUN_ID || '') ? `${server}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
  let site = config?.defaults?.site || env.BENCHLINE_SITE_URL;
  if (!site && repo && server === 'https://github.com') {
    const [owner, name] = repo.split('/');
    site = name.toLowerCase() === `${owner.toLowerCase()}.github.io` ? `https://${name}/` : `https://${owner}.github.io/${name}/`;
  }
  return { runUrl, site: /^https?:\/\//.test(site || '') ? site : undefined, failOnRegression: config?.compare?.failOnRegression };
}

/**
 * The suite renderer module named by a suite's `report:` (a .js file relative to the project root, kept beside
 * its subject, e.g. subjects/orders-api/report.js), or undefined when the suite has none.
 */
export async function loadSuiteRenderer(config, suite) {
  const name = config.suites?.[suite]?.report;
  if (!name) return undefined;
  const problem = reportPathProblem({ ...config, file: config.file || DEFAULT_CONFIG }, suite);
  if (problem) throw new UserError(problem);
  const file = resolve(resolve(config.root || '.'), name);
  const mod = await import(pathToFileURL(file).href);
  if (typeof mod.render !== 'function') throw new UserError(`${name} must export render({ suite, docs, comparisons, run, config })`);
  return mod;
}

/** Suites of the run whose jobs all failed or were skipped (no document), in run.json's order. */
function unmeasuredSuites(data) {
  const measured = new Set(data.docs.map((d) => d.suite));
  const jobs = Array.isArray(data.run?.jobs) ? data.run.jobs : [];
  return [...new Set(jobs.map((j) => j?.suite).filter((s) => typeof s === 'string' && !measured.has(s)))];
}

/** What a suite renderer receives: only its suite's documents and comparisons. */
export function suiteInput(data, suite) {
  const docs = data.docs.filter((d) => d.suite === suite);
  let comparisons;
  if (data.comparisons) {
    const list = data.comparisons.comparisons.filter((c) => c.suite === suite);
    comparisons = { comparisons: list, counts: countVerdicts(list), unmatched: data.comparisons.unmatched.filter((u) => u.suite === suite) };
  }
  return { suite, docs, comparisons, run: data.run, config: data.config };
}

/**
 * Renders one format from reportData(); `color` and `detail` (the breakdown metrics) only affect the console format. `generic: false` leaves out of
 * the suite format the suites without their own renderer (the console format already shows their generic tables).
 */
export async function renderReport(format, given, { color = false, generic = true, detail = false } = {}) {
  // the text formats go to a terminal or a CI log as they are: what the documents say is made plain text first
  const data = format === 'console' || format === 'suite' ? { ...given, ...terminalSafe({ run: given.run, docs: given.docs, comparisons: given.comparisons, failures: given.failures }) } : given;
  switch (format) {
    case 'console':
      return consoleReport.render({ ...data, color, detail });
    case 'comment':
      return commentReport.render(data);
    case 'summary': {
      const custom = {};
      for (const s of new Set(data.docs.map((d) => d.suite))) {
        const mod = await loadSuiteRenderer(data.config, s);
        if (mod?.markdown) custom[s] = mod.markdown(suiteInput(data, s));
      }
      return summaryReport.render({ ...data, suiteMarkdown: custom });
    }
    case 'suite': {
      const parts = [];
      for (const s of suiteBlocks(data.docs, data.config)) {
        const mod = await loadSuiteRenderer(data.config, s.suite);
        if (mod) {
          // a suite's own renderer knows nothing of duets; the generic table (renderSuite) says it itself
          const duets = duetSuiteNote(data.docs.filter((d) => d.suite === s.suite));
          parts.push(`${mod.render(suiteInput(data, s.suite)).trimEnd()}${duets ? `\n\n${duets}` : ''}`);
        } else if (generic) parts.push(`${consoleReport.renderSuite(s, { alpha: data.config.compare?.alpha, compare: data.config.compare })}\n  (suite ${s.suite} has no \`report:\` renderer; this is the generic table)`);
      }
      // A suite none of whose jobs left a document still gets its own report: it says what failed and why.
      for (const suite of unmeasuredSuites(data)) {
        const mod = await loadSuiteRenderer(data.config, suite);
        if (mod) parts.push(mod.render(suiteInput(data, suite)).trimEnd());
      }
      if (!generic) return parts.length ? `${parts.join('\n\n')}\n` : '';
      if (!parts.length) parts.push('No result documents: every job failed or was skipped.');
      return `${parts.join('\n\n')}\n`;
    }
    default:
      throw new UserError(`unknown report format "${format}"; choose console, comment, summary or suite`);
  }
}

export default async function report(opts) {
  const [dir] = opts.args;
  const clash = outputProblem(opts.output, dir);
  if (clash) throw new UserError(clash);
  const config = loadSettings(opts.config);
  const data = reportData(dir, config);
  const color = !opts.output && opts.format === 'console' && process.stdout.isTTY && !process.env.NO_COLOR;
  writeOutput(opts.output, await renderReport(opts.format || 'console', data, { color, detail: Boolean(opts.detail) }));
  return 0;
}

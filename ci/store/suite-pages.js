// Suite report pages of the site: each suite's own report (subjects/<name>/report.js) rendered from the newest run's stored documents.
import { Marked } from 'marked';
import { compare } from '../compare.js';
import { countVerdicts } from '../reports/format.js';
import { reportPath, reportFilePath } from './paths.js';

/** Roles whose documents a suite report is written from, in the order results-dir.js prefers them. */
const PRIMARY = ['head', 'main', 'local'];

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** Links a report may carry: the web, mail and places inside the site; never javascript:, data: or the like. */
export function safeHref(href) {
  // browsers drop tabs, newlines and controls inside a URL ("java\tscript:"), so the scheme is read without them
  const h = String(href ?? '').replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = /^([^/?#]*):/.exec(h);
  if (scheme) return /^(?:https?|mailto)$/i.test(scheme[1]) ? h : null;
  return h;
}

// Report markdown may quote names from pull requests (mdEscape guards them, but a report module might not):
// raw HTML is shown as text, links keep only safe targets, images become their alt text. Everything else is
// what marked makes of markdown syntax, with text escaped.
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const target = safeHref(href);
      if (!target) return inner;
      const external = /^(?:https?:|mailto:)/i.test(target);
      return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener nofollow" target="_blank"' : ''}>${inner}</a>`;
    },
    image({ text }) {
      return escapeHtml(text);
    },
  },
});

/** HTML of a report's markdown that is safe to put into the page: no tag, attribute or URL scheme the markdown did not earn. */
export const reportHtml = (markdown) => marked.parse(String(markdown ?? ''));

const docRole = (d) => d.run?.role;

/**
 * The input a suite's report module receives, as `benchline report` builds it for a results folder, from what the
 * store holds: the newest run with documents of `suite`, its documents of the primary role (head, main, local),
 * the head-vs-base comparison when that run also measured a base, and its failed or skipped jobs as run.jobs.
 * docs: stored result documents; failures: stored failure records. Returns undefined when no run has documents.
 */
export function suiteReportInput(suite, { docs = [], failures = [], config = {} } = {}) {
  const own = docs.filter((d) => d.suite === suite);
  if (!own.length) return undefined;
  const newest = own.reduce((a, b) => (Date.parse(b.run.startedAt) > Date.parse(a.run.startedAt) || (b.run.startedAt === a.run.startedAt && b.run.id > a.run.id) ? b : a));
  const runId = newest.run.id;
  const inRun = own.filter((d) => d.run.id === runId);
  const role = PRIMARY.find((r) => inRun.some((d) => docRole(d) === r)) || docRole(inRun[0]);
  const primary = inRun.filter((d) => docRole(d) === role);
  const base = inRun.filter((d) => docRole(d) === 'base');
  let comparisons;
  if (role === 'head' && base.length) {
    const result = compare(base, primary, config.compare || {}, { seed: 1 });
    comparisons = { comparisons: result.comparisons, counts: countVerdicts(result.comparisons), unmatched: result.unmatched };
  }
  const jobs = [
    ...primary.map((d) => ({ suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool?.name, scenario: d.scenario, status: 'ok' })),
    ...failures.filter((f) => f.run?.id === runId && f.job?.suite === suite && f.run.role !== 'base')
      .map((f) => ({ ...f.job, status: f.status, reason: f.reason, ...(f.logTail ? { logTail: f.logTail } : {}) })),
  ];
  const { id, startedAt, commit = null, ref = null, trigger, pr } = newest.run;
  const run = { id, startedAt, commit, ref, trigger, role, ...(pr ? { pr } : {}), jobs };
  return { suite, docs: primary, comparisons, run, config };
}

/**
 * The site's page of one suite's report: the module's markdown as safe HTML, its plain text, and its plots as
 * SVG files beside the page. mod: the suite's report module (render, optional markdown and plots).
 * Returns { page: { path, payload }, files: [{ path, text }] }.
 */
function suiteReportPage(suite, mod, input) {
  const text = mod.render(input);
  const md = typeof mod.markdown === 'function' ? mod.markdown(input) : null;
  const files = [];
  const plots = (typeof mod.plots === 'function' ? mod.plots(input) || [] : []).map((p) => {
    const path = reportFilePath(suite, p.file);
    files.push({ path, text: p.svg });
    return { title: p.title || p.file, file: p.file, path };
  });
  const r = input.run;
  const payload = {
    suite,
    run: { id: r.id, startedAt: r.startedAt, commit: r.commit, ref: r.ref, role: r.role },
    compared: Boolean(input.comparisons),
    html: md === null ? null : reportHtml(md),
    text,
    plots,
  };
  return { page: { path: reportPath(suite), payload }, files };
}

/**
 * Report pages of every suite whose report module loaded. modules: { [suite]: module | Error }.
 * Returns { pages: { [suite]: { path, run } | { error } }, files: [{ path, payload } | { path, text }] }; a module
 * that throws costs its own page only, and the reason shows where the page would be.
 */
export function suiteReportPages(modules, stored) {
  const pages = {};
  const files = [];
  for (const [suite, mod] of Object.entries(modules)) {
    if (mod instanceof Error) {
      pages[suite] = { error: mod.message };
      continue;
    }
    const input = suiteReportInput(suite, stored);
    if (!input) continue;
    try {
      const { page, files: extra } = suiteReportPage(suite, mod, input);
      pages[suite] = { path: page.path, run: page.payload.run };
      files.push(page, ...extra);
    } catch (e) {
      pages[suite] = { error: `${stored.config?.suites?.[suite]?.report}: ${e.message}` };
    }
  }
  return { pages, files };
}

/**
 * The thin I/O shell: imports the report module of every suite in the config that names one.
 * Returns { [suite]: module | Error }; a module that cannot be loaded is an Error, so the rest of the site still builds.
 */
export async function loadReportModules(config) {
  const modules = {};
  const reported = Object.entries(config?.suites || {}).filter(([, cfg]) => cfg?.report);
  // the report command's modules only when some suite has a report (they take a tenth of a second to load)
  if (!reported.length) return modules;
  const { loadSuiteRenderer } = await import('../commands/report.js');
  for (const [suite] of reported) {
    try {
      modules[suite] = await loadSuiteRenderer(config, suite);
    } catch (e) {
      modules[suite] = e instanceof Error ? e : new Error(String(e));
    }
  }
  return modules;
}

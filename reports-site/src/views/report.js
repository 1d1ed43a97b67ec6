// A suite's report page: the newest run's report as the suite's own module writes it (the seed's sections), with its plots.
import { load } from '../data.js';
import { h, date, commitLink, runLink } from '../dom.js';

export async function reportView(el, { index, params: [name] }) {
  const suite = index.suites.find((s) => s.name === name);
  if (!suite) throw new Error(`No suite "${name}" in the history`);
  el.append(h('h1', {}, `${suite.name}: report of the newest run`));
  if (!suite.page) {
    el.append(h('p', { class: 'muted' }, `Suite ${suite.name} names no report module (\`report:\` in bench.config.yaml); its `, h('a', { href: `#/variants/${encodeURIComponent(suite.name)}` }, 'variant table'), ' is the generic view.'));
    return;
  }
  if (suite.page.error) {
    el.append(h('p', { class: 'error report-error' }, `The report could not be written: ${suite.page.error}`));
    return;
  }
  const page = await load(suite.page.path);
  const r = page.run;
  el.append(h('p', { class: 'muted report-meta' }, 'Run ', runLink(r.id), ` (${r.role}) on ${date(r.startedAt)}`, r.commit ? [', commit ', commitLink(r.commit, index.repoUrl, r.id)] : '', r.ref ? `, ${r.ref}` : '',
    `. Written by ${suite.report} from the run's stored result documents${page.compared ? ', against the base measured in the same run' : ''}. `,
    h('a', { href: `#/variants/${encodeURIComponent(suite.name)}` }, 'Variant table'), ' · ', h('a', { href: `#/run/${encodeURIComponent(r.id)}` }, 'every metric of the run')));
  if (suite.latest.id !== r.id) {
    el.append(h('p', { class: 'note stale' }, 'The suite\'s latest run ', runLink(suite.latest.id), ` (${date(suite.latest.startedAt)}) left no result documents${suite.failures.length ? ` (${suite.failures.length} job(s) failed or were skipped)` : ''}; this is the report of the newest run that did.`));
  }
  const body = h('article', { class: 'report md' });
  if (page.html !== null) {
    // the one place the page takes HTML: the site builder rendered the report's markdown with raw HTML escaped
    // and only safe link targets kept (ci/store/suite-pages.js reportHtml); the data file is of the same build
    const t = document.createElement('template');
    t.innerHTML = page.html;
    body.append(t.content);
  } else {
    body.append(h('pre', { class: 'report-text' }, page.text));
  }
  el.append(body);
  for (const p of page.plots) {
    el.append(h('figure', { class: 'report-plot', dataset: { file: p.file } },
      h('img', { src: p.path, alt: p.title, loading: 'lazy' }),
      h('figcaption', { class: 'muted' }, p.title, ' · ', h('a', { href: p.path, target: '_blank', rel: 'noopener' }, p.file))));
  }
  if (page.html !== null) el.append(h('details', { class: 'report-plain' }, h('summary', {}, 'As plain text (what `benchline bench` prints)'), h('pre', { class: 'report-text' }, page.text)));
}

// Every run, newest first and paged, with its commit, runner and job counts; each links to its details.
import { loadRuns } from '../data.js';
import { h, date, commitLink, runLink, table } from '../dom.js';

const PAGE = 100;

export async function runsView(el, { index, params: [page = '1'] }) {
  const runs = await loadRuns();
  const n = runs.id.length;
  // pages are numbered from 1 in the link as on the page: #/runs/2 is "page 2"
  const p = Math.max(1, Number(page) || 1);
  const pages = Math.ceil(n / PAGE);
  if (p > 1 && p > pages) {
    // a link kept from when the history was longer, or a page number typed by hand
    el.append(h('h1', {}, `Runs (${n})`), h('p', { class: 'error' }, `No page ${p}: the history has ${Math.max(1, pages)} page(s) of ${PAGE} runs.`), h('a', { href: pages > 1 ? `#/runs/${pages}` : '#/runs' }, 'Go to the last page'));
    return;
  }
  if (!n) {
    el.append(h('h1', {}, 'Runs (0)'), h('p', { class: 'muted empty' }, 'No runs yet: the history is empty until results are published (benchline publish, or npm run bench).'));
    return;
  }
  const from = n - 1 - (p - 1) * PAGE;
  const rows = [];
  for (let i = from; i > from - PAGE && i >= 0; i -= 1) {
    rows.push(h('tr', { class: 'run', dataset: { run: runs.id[i] } },
      h('td', {}, date(new Date(runs.t[i]).toISOString())), h('td', {}, runLink(runs.id[i])), h('td', {}, commitLink(runs.commit[i], index.repoUrl, runs.id[i])),
      h('td', { class: 'clip', title: runs.ref[i] || null }, runs.ref[i] || '–'), h('td', {}, runs.role[i]), h('td', { class: 'clip', title: runs.runner[i] || null }, runs.runner[i]),
      h('td', { class: 'num' }, String(runs.ok[i])), h('td', { class: `num ${runs.failed[i] ? 'worse' : ''}` }, String(runs.failed[i])),
      h('td', { class: 'muted' }, runs.archived[i] ? 'archived' : '')));
  }
  el.append(h('h1', {}, `Runs (${n})`));
  el.append(table(['Started', 'Run', 'Commit', 'Ref', 'Role', 'Runner', 'OK', 'Failed/skipped', 'Stored'], rows, { class: 'runs-table' }));
  el.append(h('div', { class: 'pager' },
    p > 1 ? h('a', { href: `#/runs/${p - 1}` }, '← newer') : null,
    h('span', { class: 'muted' }, `page ${p} of ${Math.max(1, pages)}`),
    p < pages ? h('a', { href: `#/runs/${p + 1}` }, 'older →') : null));
}

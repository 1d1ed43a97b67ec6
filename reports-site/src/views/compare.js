// Compare any two runs (commits): every shared metric with its change, interval and verdict, by the same rule as PR comments.
import { compare } from '../../../ci/compare.js';
import { loadRun, loadRuns } from '../data.js';
import { h, pct, date, numCell, commitLink, table, shortSha, trendLink, columnsNote, levelPct } from '../dom.js';
import { comparableBefore, jobKeys } from '../comparable.js';

const ROLE_ORDER = ['head', 'main', 'local', 'base'];
const iso = (t) => new Date(t).toISOString();

/** The measured side of a run as result-document-like objects for compare(): one role, ok jobs only. */
function runDocs(run) {
  const ok = run.jobs.filter((j) => j.status === 'ok');
  const role = ROLE_ORDER.find((r) => ok.some((j) => j.role === r));
  return ok.filter((j) => j.role === role).map((j) => ({ suite: j.suite, subject: j.subject, variant: j.variant, tool: { name: j.tool, version: j.toolVersion }, scenario: j.scenario, metrics: j.metrics }));
}

/** A count of verdicts as the PR comment words it: "1 regression", "2 regressions", "3 no change". */
const countText = ([k, v]) => `${v} ${v !== 1 && (k === 'regression' || k === 'improvement') ? `${k}s` : k}`;

/** A comparison's verdict as shown: compare.js gives none (null) to metrics it does not judge. */
const verdictText = (c) => c.verdict ?? 'not judged';

/** The verdict's badge; an inconclusive one opens (by click, tap or keyboard) to say why, and what would settle it. */
function verdictCell(c, verdict) {
  const badge = h('span', { class: `badge ${verdict.split(' ')[0]}` }, verdict);
  if (c.verdict !== 'inconclusive' || !c.reason) return badge;
  return h('details', { class: 'why' }, h('summary', {}, badge), h('p', { class: 'why-text' }, c.reason));
}

export async function compareView(el, { index, params: [a, b] }) {
  const runs = await loadRuns();
  const n = runs.id.length;
  if (n < 2) {
    el.append(h('h1', {}, 'Compare'), h('p', { class: 'muted' }, 'The history needs two runs to compare.'));
    return;
  }
  const pos = new Map(runs.id.map((id, i) => [id, i]));
  if ((a !== undefined && !pos.has(a)) || (b !== undefined && !pos.has(b))) throw new Error(`No run ${pos.has(a) ? b : a} in the history`);
  // #/compare/<run>: that run against the one before it that measured one of its jobs, as a link to "what this run
  // changed"; #/compare: the newest run so
  const single = a !== undefined && b === undefined;
  if (single && pos.get(a) === 0) throw new Error(`Run ${a} is the first in the history: there is no run before it to compare with`);
  const headIdx = single ? pos.get(a) : b !== undefined ? pos.get(b) : n - 1;
  const picked = a === undefined || single;
  const baseIdx = picked ? await comparableBefore(headIdx, async (i) => jobKeys(runDocs(await loadRun(runs, i)))) : pos.get(a);
  const option = (i, selected) => h('option', { value: runs.id[i], selected: i === selected }, `${date(iso(runs.t[i]))} · ${shortSha(runs.commit[i])} · ${runs.id[i]}`);
  const picker = (selected, name) => {
    const s = h('select', { name, id: `compare-${name}` });
    for (let i = n - 1; i >= 0; i -= 1) s.append(option(i, selected));
    return s;
  };
  const baseSel = picker(baseIdx, 'base');
  const headSel = picker(headIdx, 'head');
  const go = () => { location.hash = `#/compare/${encodeURIComponent(baseSel.value)}/${encodeURIComponent(headSel.value)}`; };
  baseSel.addEventListener('change', go);
  headSel.addEventListener('change', go);
  el.append(h('h1', {}, 'Compare two runs'), h('div', { class: 'controls' }, h('label', {}, 'Base ', baseSel), h('label', {}, 'Head ', headSel)));

  const [base, head] = await Promise.all([baseIdx, headIdx].map((i) => loadRun(runs, i)));
  const result = compare(runDocs(base), runDocs(head), index.compare || {}, { seed: 1 });
  el.append(h('p', {}, 'Base ', commitLink(base.commit, index.repoUrl, base.id), ` (${date(base.startedAt)}) → head `, commitLink(head.commit, index.repoUrl, head.id), ` (${date(head.startedAt)}). `,
    'Judged metrics: ', h('span', { class: 'counts' }, Object.entries(result.counts).map(countText).join(', ')), '. ',
    picked && baseIdx !== headIdx - 1 ? h('span', { class: 'muted picked' }, ' The base is the newest earlier run that measured one of the head\'s jobs; the runs between measured none of them.') : null,
    base.archived || head.archived ? h('span', { class: 'muted' }, ' Archived runs keep one value per metric, not per trial, so their verdicts are inconclusive.') : null));
  const rows = result.comparisons.map((c) => {
    const chart = [c.suite, c.tool, c.scenario, c.case ? `${c.case}::${c.metric}` : c.metric].join('/');
    // metrics compare.js does not judge (not the tool's key metrics, or restating a parameter) are shown without a verdict
    const verdict = verdictText(c);
    return h('tr', { class: `cmp ${verdict.replace(' ', '-')}`, dataset: { suite: c.suite, variant: c.variant, tool: c.tool, scenario: c.scenario, metric: c.case ? `${c.case}::${c.metric}` : c.metric } },
      h('td', {}, c.suite), h('td', {}, c.variant), h('td', {}, `${c.tool} · ${c.scenario}`), h('td', {}, trendLink(chart, c.case ? `${c.case} · ${c.metric}` : c.metric)),
      numCell(c.base.value, c.unit), numCell(c.head.value, c.unit),
      h('td', { class: `num ${c.verdict === 'regression' ? 'worse' : c.verdict === 'improvement' ? 'better' : ''}`, dataset: { v: c.change === null ? '' : String(c.change) } }, pct(c.change)),
      h('td', { class: 'num', title: Number.isFinite(c.level) && Number.isFinite(c.lower) ? `at ${levelPct(c.level)}` : null }, Number.isFinite(c.lower) && Number.isFinite(c.upper) ? `${pct(c.lower)} … ${pct(c.upper)}` : '–'),
      h('td', { title: c.reason || '' }, verdictCell(c, verdict)));
  });
  if (!rows.length) {
    el.append(h('p', { class: 'error no-shared' }, 'These two runs measured no metric in common, so there is nothing to compare: pick a base and a head that ran the same jobs (the list below says what each side measured).'));
  } else {
    el.append(table(['Suite', 'Variant', 'Tool · scenario', 'Metric', 'Base', 'Head', 'Change', 'Interval', 'Verdict'], rows, { class: 'compare-table' }));
    el.append(columnsNote([
      ['Base, Head', 'the median over each run\'s trials.'],
      ['Change', 'Head / Base − 1, red or green only where the verdict is a regression or an improvement.'],
      ['Interval', 'where the change lies: a bootstrap interval of the ratio of the medians, at the level in the cell\'s title; for "no change", the equivalence interval that decided it.'],
      ['Verdict', 'by the rule of a pull request\'s comment for two separate runs (docs/reports.md), on the judged metrics only; an inconclusive one opens to say why and what would settle it (more trials a run); "not judged" marks information-only metrics and those that restate the run\'s parameters (the reason is in the verdict\'s title).'],
    ]));
  }
  if (result.unmatched.length) {
    el.append(h('details', {}, h('summary', {}, `${result.unmatched.length} job(s) or metric(s) on one side only`), h('ul', {}, result.unmatched.map((u) => h('li', {}, `${u.side}: ${u.suite}/${u.variant}/${u.tool}/${u.scenario}${u.metric ? ` ${u.metric}` : ''}: ${u.reason}`)))));
  }
}

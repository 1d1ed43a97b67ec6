// Overview: every suite with its latest status and failures, recent regressions and change points, store problems.
import { h, pct, date, commitLink, runLink, trendLink, metricLabel, table, fmt, columnsNote } from '../dom.js';

function changeRow(c, index) {
  return h('tr', { class: `change ${c.kind}`, dataset: { series: c.series, run: c.run.id } },
    h('td', {}, date(c.run.startedAt)),
    h('td', {}, trendLink(c.chart, `${c.suite} · ${c.variant} · ${chartLabel(c.chart, c)}`)),
    h('td', {}, h('span', { class: `badge ${c.kind}` }, c.kind)),
    h('td', { class: 'num', dataset: { v: String(c.before) } }, fmt(c.before, c.unit)),
    h('td', { class: 'num', dataset: { v: String(c.after) } }, fmt(c.after, c.unit)),
    h('td', { class: `num ${c.kind === 'regression' ? 'worse' : 'better'}`, dataset: { v: String(c.change) } }, pct(c.change)),
    h('td', {}, commitLink(c.run.commit, index.repoUrl, c.run.id)));
}

/** A suite's latest run as a badge: failed and skipped jobs named beside the ok ones, red when any failed, amber when any was skipped. */
function statusBadge({ ok, failed, skipped = 0 }) {
  const text = [failed ? `${failed} failed` : null, skipped ? `${skipped} skipped` : null, `${ok} ok`].filter(Boolean).join(', ');
  return h('span', { class: `badge ${failed ? 'failed' : skipped ? 'skipped' : 'ok'}`, dataset: { ok: String(ok), failed: String(failed), skipped: String(skipped) } }, text);
}

/** A suite without recent regressions may still stand on an older, lasting step: said, so "none" does not read as "never". */
const olderNote = (n) => (n ? ` Older: ${n} regression${n === 1 ? '' : 's'} (see Recent change points below and the trend charts).` : '');

/**
 * tool · scenario · metric of a chart id (suite/tool/scenario/metric). The metric is taken from `m` (its name and
 * case), not from the id: a case such as a hyperfine command may hold slashes, and the id writes it case::name.
 */
const chartLabel = (id, m) => `${id.split('/').slice(1, 3).join(' · ')} · ${m ? metricLabel(m) : id.split('/').slice(3).join('/')}`;

const changeHeaders = ['When', 'Series', 'Kind', 'Before', 'After', 'Change', 'Commit'];

export async function overview(el, { index }) {
  const charts = new Map(index.charts.map((c) => [c.id, c]));
  el.append(h('h1', {}, index.title));
  if (index.latest) {
    el.append(h('p', { class: 'muted' }, `${index.counts.runs} run${index.counts.runs === 1 ? '' : 's'}, ${index.counts.series} series, ${index.counts.points} point${index.counts.points === 1 ? '' : 's'}. Latest run `, runLink(index.latest.id), ` on ${date(index.latest.startedAt)}, commit `, commitLink(index.latest.commit, index.repoUrl, index.latest.id), '.'));
  } else {
    el.append(h('p', { class: 'muted' }, 'The history is empty: publish results with `benchline publish`.'));
  }
  const rule = index.changeRule || { minSegment: 5, maxPValue: 0.001 };
  const recent = index.recentRuns ?? 50;
  el.append(h('details', { class: 'explain', open: true }, h('summary', {}, 'Regressions here and verdicts on pull requests'),
    h('p', {}, h('strong', {}, 'Recent regressions'), ` (a suite's steps to a worse level that start in the last ${recent} runs of the history) and change points are found in the history, after the fact: a series of runs on main stepped to a worse (or better) level and stayed there for at least `,
      String(rule.minSegment), ' runs (E-divisive means, p < ', String(rule.maxPValue), ', at least the metric\'s minimum effect). The commit named is where the new level starts; the step may come from that commit, from several small ones adding up, or from a change of runner.'),
    h('p', {}, 'A ', h('strong', {}, 'pull request\'s verdict'), ' is decided before merging, in its own job: base and head measured in paired rounds on one runner (one trial of each per round, at the same time in duet rounds), compared metric by metric (Wilcoxon signed-rank test of the rounds\' ratios, the Hodges-Lehmann change and its interval, two one-sided tests for "no change"), and posted as the PR\'s comment. A PR can pass and its effect still show here later, and a step here need not have been flagged on any PR. ',
      h('a', { href: '#/compare' }, 'Compare'), ' judges any two runs of this history with the same minimum effects; two runs cannot be paired, so it uses the Mann-Whitney U test and a bootstrap interval of the change.')));
  if (index.problems.length) {
    el.append(h('div', { class: 'problems' }, h('strong', {}, `${index.problems.length} file(s) in the store were skipped:`), h('ul', {}, index.problems.map((p) => h('li', { class: 'problem' }, p.message)))));
  }
  el.append(h('div', { class: 'cards' }, index.suites.map((s) => h('section', { class: 'card suite', dataset: { suite: s.name } },
    h('h2', {}, s.name, ' ', statusBadge(s.status)),
    s.description ? h('p', { class: 'muted' }, s.description) : null,
    h('p', {}, 'Latest run ', runLink(s.latest.id), ` · ${date(s.latest.startedAt)} · `, commitLink(s.latest.commit, index.repoUrl, s.latest.id)),
    s.failures.length ? h('ul', { class: 'failures' }, s.failures.map((f) => h('li', { class: 'error' }, h('code', {}, f.job), `: ${f.status}: ${f.reason}`))) : null,
    h('p', { class: 'suite-links' },
      s.page && !s.page.error ? [h('a', { href: `#/report/${encodeURIComponent(s.name)}`, class: 'report-link' }, 'Report of the latest run'), ' · '] : null,
      h('a', { href: `#/variants/${encodeURIComponent(s.name)}` }, 'Variant table'), ` · ${s.charts.length} trend charts`),
    s.page?.error ? h('p', { class: 'error report-error' }, `No report page: ${s.page.error}`) : null,
    h('h3', { title: 'Change points of the history: a lasting step to a worse level, found across many runs' }, `Recent regressions in the history (${s.regressions.length})`),
    s.regressions.length
      ? h('ul', { class: 'regressions' }, s.regressions.map((c) => h('li', {}, trendLink(c.chart, `${c.variant} · ${chartLabel(c.chart, c)}`), ' ', h('span', { class: 'worse' }, pct(c.change)), ' at ', commitLink(c.run.commit, index.repoUrl, c.run.id))))
      : h('p', { class: 'muted' }, `None that started in the last ${recent} runs.`, olderNote(s.changes.filter((c) => c.kind === 'regression').length)),
    h('details', {}, h('summary', {}, `Trend charts (${s.charts.length})`), h('ul', {}, s.charts.map((id) => h('li', {}, trendLink(id, chartLabel(id, charts.get(id))))))),
  ))));
  el.append(h('h2', {}, 'Recent change points'));
  el.append(...(index.changes.length
    ? [table(changeHeaders, index.changes.slice(0, 30).map((c) => changeRow(c, index)), { class: 'changes' }),
      columnsNote([
        ['When, Commit', 'the run where the new level starts.'],
        ['Before, After', 'the mean of the series on the level before the step and on the level from it on.'],
        ['Change', 'After / Before − 1; the kind and colour say whether that is worse (regression) or better for the metric, whichever way it is measured.'],
      ])]
    : [h('p', { class: 'muted no-changes' }, 'No change points found in any series.',
      // a step needs minSegment points on each side: a young history cannot show one yet, which "none found" would hide
      index.counts.runs < 2 * rule.minSegment ? ` A step shows once it has held for ${rule.minSegment} runs after at least ${rule.minSegment} before it: this history has ${index.counts.runs} run${index.counts.runs === 1 ? '' : 's'}, so none can show yet.` : '')]));
}

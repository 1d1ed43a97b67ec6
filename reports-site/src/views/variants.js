// The seeds' variant tables: the newest measurement of every compared implementation of a suite side by side, best marked, relative to the first.
import { h, pct, numCell, runLink, trendLink, metricLabel, interval } from '../dom.js';
import { shownInterval } from '../intervals.js';

/** The best value of a row, or undefined when fewer than two columns have one, all are equal, or the metric names no winner. */
function bestOf(row, values) {
  const present = values.filter((v) => v !== undefined);
  if (row.ranked === false || present.length < 2 || present.every((v) => v === present[0])) return undefined;
  return row.better === 'higher' ? Math.max(...present) : Math.min(...present);
}

export async function variants(el, { index, params: [name] }) {
  const suite = index.suites.find((s) => s.name === name);
  if (!suite) throw new Error(`No suite "${name}" in the history`);
  const { variants: cols, rows } = suite.table;
  el.append(h('h1', {}, `${suite.name}: variants`));
  if (suite.description) el.append(h('p', { class: 'muted' }, suite.description));
  if (suite.page?.path) el.append(h('p', {}, h('a', { href: `#/report/${encodeURIComponent(suite.name)}`, class: 'report-link' }, `${suite.name} report of the newest run`), ' (the seed\'s sections, written by the suite\'s own report)'));
  if (!cols.length) {
    // every job of every run of the suite failed or was skipped: there is nothing to set side by side
    el.append(h('p', { class: 'muted empty' }, `No job of ${suite.name} has a measurement in this history: every one failed or was skipped. Its latest run `, runLink(suite.latest.id), ' says why.'));
    return;
  }
  el.append(h('p', { class: 'muted' }, `Newest measurement of each job. Relative columns compare with ${cols[0]} (as a change, or a multiple from twice on). ★ marks the best of a row (none where all are equal); rows marked "not ranked" restate the run's parameters (its duration, requests sent, bytes received), so no variant wins them. Point at a value for its run and interval.`));
  const runs = [...new Map(rows.flatMap((r) => Object.values(r.cells).map((c) => [c.run.id, c.run]))).values()];
  // a job that failed or was not run in the newest run keeps its older measurement: marked, so it is not read as the newest's
  const newest = runs.reduce((a, r) => (r.startedAt > a.startedAt ? r : a), runs[0]);
  const head = h('tr', {}, h('th', {}, 'Tool · scenario'), h('th', {}, 'Metric'), cols.map((v) => h('th', { class: 'num', dataset: { column: v } }, v)), cols.slice(1).map((v) => h('th', { class: 'num' }, `vs ${cols[0]}: ${v}`)));
  const body = rows.map((r) => {
    const values = cols.map((v) => r.cells[v]?.v);
    const best = bestOf(r, values);
    const first = values[0];
    return h('tr', { class: `row${r.ranked === false ? ' unranked' : ''}`, dataset: { metric: r.metric, tool: r.tool, scenario: r.scenario } },
      h('td', {}, `${r.tool} · ${r.scenario}`),
      h('td', {}, cols.some((v) => r.cells[v]?.chart) ? metricLabel(r) : trendLink(r.chart, metricLabel(r)), r.ranked === false ? h('span', { class: 'muted tag' }, 'not ranked') : null),
      cols.map((v) => {
        const c = r.cells[v];
        if (!c) return h('td', { class: 'num muted', dataset: { variant: v } }, '–');
        const td = numCell(c.v, r.unit, { class: c.v === best ? 'best' : '' });
        td.dataset.variant = v;
        const shown = shownInterval(c.lo, c.hi, r.unit);
        td.title = `run ${c.run.id}, interval ${interval(c.lo, c.hi, r.unit)}${shown.clamped ? ' (cut at 0)' : ''}`;
        if (shown.clamped) td.classList.add('clamped');
        // a pivoted row holds several series: each value links its own trend
        if (c.chart) td.replaceChildren(trendLink(c.chart, td.textContent));
        if (c.v === best) td.append(' ★');
        if (c.run.id !== newest.id) {
          td.classList.add('older');
          td.title += `, an earlier run than ${newest.id}`;
          td.append(' †');
        }
        return td;
      }),
      cols.slice(1).map((v) => {
        const c = r.cells[v];
        if (!c || first === undefined || first === 0) return h('td', { class: 'num muted' }, '–');
        const change = c.v / first - 1;
        const good = (change > 0) === (r.better === 'higher');
        const tone = change === 0 || r.ranked === false ? '' : good ? 'better' : 'worse';
        // past twice the first, "9.65×" reads better than "+865.2%"
        return h('td', { class: `num ${tone}`, dataset: { v: String(change), variant: v }, title: pct(change) }, change >= 1 ? `${Number((1 + change).toPrecision(3)).toLocaleString('en-US')}×` : pct(change));
      }));
  });
  const tableEl = h('table', { class: 'variant-table' }, h('thead', {}, head), h('tbody', {}, body));
  el.append(tableEl);
  if (tableEl.querySelector('.clamped')) el.append(h('p', { class: 'muted note' }, 'Some intervals (in the values\' titles) reach below zero as the tool reported them; the site shows them cut at 0.'));
  if (tableEl.querySelector('.older')) el.append(h('p', { class: 'muted note older-note' }, `† measured in an earlier run than the newest here (${newest.id}): that job failed or was not run since. Point at the value for its run.`));
  el.append(h('p', { class: 'muted' }, 'From run(s): ', runs.flatMap((r, i) => [i ? ', ' : '', runLink(r.id)])));
}

// The seeds' variant tables: the newest measurement of every variant of a suite side by side, best marked, relative to the first.
import { h, pct, numCell, runLink, trendLink, metricLabel, interval } from '../dom.js';

export async function variants(el, { index, params: [name] }) {
  const suite = index.suites.find((s) => s.name === name);
  if (!suite) throw new Error(`No suite "${name}" in the history`);
  const { variants: cols, rows } = suite.table;
  el.append(h('h1', {}, `${suite.name}: variants`));
  if (suite.description) el.append(h('p', { class: 'muted' }, suite.description));
  el.append(h('p', { class: 'muted' }, `Newest measurement of each job. Relative columns compare with ${cols[0]}. ★ marks the best variant of a row.`));
  const head = h('tr', {}, h('th', {}, 'Tool · scenario'), h('th', {}, 'Metric'), cols.map((v) => h('th', { class: 'num' }, v)), cols.slice(1).map((v) => h('th', { class: 'num' }, `vs ${cols[0]}: ${v}`)));
  const body = rows.map((r) => {
    const values = cols.map((v) => r.cells[v]?.v);
    const present = values.filter((v) => v !== undefined);
    const best = present.length > 1 ? (r.better === 'higher' ? Math.max(...present) : Math.min(...present)) : undefined;
    const first = values[0];
    return h('tr', { class: 'row', dataset: { metric: r.metric, tool: r.tool, scenario: r.scenario } },
      h('td', {}, `${r.tool} · ${r.scenario}`),
      h('td', {}, trendLink(r.chart, metricLabel(r))),
      cols.map((v) => {
        const c = r.cells[v];
        if (!c) return h('td', { class: 'num muted', dataset: { variant: v } }, '–');
        const td = numCell(c.v, r.unit, { class: c.v === best ? 'best' : '' });
        td.dataset.variant = v;
        td.title = `run ${c.run.id}, interval ${interval(c.lo, c.hi, r.unit)}`;
        if (c.v === best) td.append(' ★');
        return td;
      }),
      cols.slice(1).map((v) => {
        const c = r.cells[v];
        if (!c || first === undefined || first === 0) return h('td', { class: 'num muted' }, '–');
        const change = c.v / first - 1;
        const good = (change > 0) === (r.better === 'higher');
        return h('td', { class: `num ${change === 0 ? '' : good ? 'better' : 'worse'}`, dataset: { v: String(change), variant: v } }, pct(change));
      }));
  });
  el.append(h('table', { class: 'variant-table' }, h('thead', {}, head), h('tbody', {}, body)));
  const runs = [...new Map(rows.flatMap((r) => Object.values(r.cells).map((c) => [c.run.id, c.run]))).values()];
  el.append(h('p', { class: 'muted' }, 'From run(s): ', runs.flatMap((r, i) => [i ? ', ' : '', runLink(r.id)])));
}

// Trend of one metric: every variant as a line with its interval band, change points marked, values and commits listed.
import { loadRuns, loadSeries } from '../data.js';
import { h, pct, date, commitLink, runLink, intervalCell, clampNote, numCell, table, metricLabel, columnsNote } from '../dom.js';
import { bandLow } from '../intervals.js';
import { trendChart, COLORS } from '../charts.js';

const LAST = 20;

/** What a canonical unit measures, as the page says it: values are shown in the unit that fits (ns as µs, ms, s). */
const QUANTITY = { ns: 'A time', bytes: 'A size', 'bytes/s': 'Bytes per second', 'ops/s': 'A rate per second', count: 'A count', ratio: 'A share, in %' };

export async function trend(el, { index, params: [id] }) {
  const chart = index.charts.find((c) => c.id === id);
  if (!chart) throw new Error(`No trend chart "${id}" in this build`);
  const [runs, ...files] = await Promise.all([loadRuns(), ...chart.series.map((s) => loadSeries(s.path))]);
  const xOf = (r) => runs.t[r] / 1000;
  el.append(h('h1', {}, `${chart.suite} · ${chart.tool} · ${chart.scenario} · ${metricLabel(chart)}`));
  el.append(h('p', { class: 'muted' }, `${QUANTITY[chart.unit] || `In ${chart.unit}`}: ${chart.better} is better. ${files.length} variant(s). Times in UTC. Drag to zoom, double-click to reset; click a point to open its run.`));

  // points of a metric that changed unit are not comparable with its newest ones: left out of the line, and said so
  for (const f of files.filter((x) => x.otherUnits)) {
    el.append(h('p', { class: 'note other-units', dataset: { variant: f.key.variant } }, `${f.key.variant}: ${f.otherUnits.points} earlier point${f.otherUnits.points === 1 ? '' : 's'} measured in ${f.otherUnits.units.join(', ')} instead of ${f.unit} (the metric changed unit) ${f.otherUnits.points === 1 ? 'is' : 'are'} not shown.`));
  }
  const lines = files.map((f, k) => ({
    label: f.key.variant,
    color: COLORS[k % COLORS.length],
    x: f.run.map(xOf),
    y: f.v,
    lo: f.lo.map((v) => bandLow(v, chart.unit)),
    hi: f.hi,
    changes: f.changes.map((c) => ({ x: xOf(c.run), kind: c.kind })),
  }));
  const byX = new Map();
  files.forEach((f) => f.run.forEach((r) => byX.set(xOf(r), r)));
  const info = h('div', { class: 'chart-info muted' }, 'Point at a value to see its run and commit.');
  // the canvas says nothing to a screen reader: the chart is named, and the tables below hold its values
  const marked = files.reduce((k, f) => k + f.changes.length, 0);
  const holder = h('div', { class: 'chart', id: 'trend-chart', role: 'img', 'aria-label': `Trend of ${metricLabel(chart)} (${chart.better} is better): ${files.map((f) => `${f.key.variant}, ${f.v.length} point${f.v.length === 1 ? '' : 's'}`).join('; ')}; ${marked} change point${marked === 1 ? '' : 's'} marked. The tables below list the change points and the latest values.` });
  el.append(holder, info);
  (el.__afterMount ||= []).push(() => trendChart(holder, {
    lines,
    unit: chart.unit,
    onCursor: (x) => {
      if (x === null) return;
      const r = byX.get(x);
      info.replaceChildren(`${date(new Date(runs.t[r]).toISOString())} · run `, runLink(runs.id[r]), ' · commit ', commitLink(runs.commit[r], index.repoUrl, runs.id[r]), runs.ref[r] ? ` · ${runs.ref[r]}` : '');
    },
    onPick: (x) => { location.hash = `#/run/${encodeURIComponent(runs.id[byX.get(x)])}`; },
  }));

  const runCells = (r) => [h('td', {}, runLink(runs.id[r])), h('td', {}, commitLink(runs.commit[r], index.repoUrl, runs.id[r]))];
  el.append(h('h2', {}, 'Change points'));
  const changeRows = files.flatMap((f) => f.changes.map((c) => h('tr', { class: `change ${c.kind}`, dataset: { variant: f.key.variant, run: runs.id[c.run] } },
    h('td', {}, f.key.variant),
    h('td', {}, date(new Date(runs.t[c.run]).toISOString())),
    ...runCells(c.run),
    numCell(c.before, chart.unit),
    numCell(c.after, chart.unit),
    h('td', { class: `num ${c.kind === 'regression' ? 'worse' : 'better'}`, dataset: { v: String(c.change) } }, pct(c.change)),
    h('td', { class: 'num' }, c.pvalue > 0 ? c.pvalue.toPrecision(2) : c.pvalue === 0 ? '≈ 0' : '–'),
    h('td', {}, h('span', { class: `badge ${c.kind}` }, c.kind)))));
  const rule = index.changeRule || { minSegment: 5, maxPValue: 0.001 };
  el.append(...(changeRows.length
    ? [table(['Variant', 'When', 'Run', 'Commit', 'Before', 'After', 'Change', 'p', 'Kind'], changeRows, { class: 'changes' }),
      columnsNote([
        ['When, Run, Commit', 'where the new level starts.'],
        ['Before, After', 'the mean of the variant\'s points on the level before the step and on the level from it on.'],
        ['Change', `After / Before − 1, red when the step went the bad way for this metric (${chart.better} is better).`],
        ['p', `the step's p-value (E-divisive means; a step counts at p < ${rule.maxPValue}, held for ${rule.minSegment} points or more); ≈ 0 when it underflows 64-bit floating point (somewhere below 1e-300, by the number of points; a step far beyond the noise).`],
      ])]
    : [h('p', { class: 'muted' }, `No change points: every variant is on one level (E-divisive means, p < ${rule.maxPValue}).`)]));

  el.append(h('h2', {}, 'Latest values'));
  el.append(table(['Variant', 'Run', 'Commit', 'Value', 'Interval', 'Points'], files.map((f) => {
    const i = f.v.length - 1;
    return h('tr', { class: 'latest', dataset: { variant: f.key.variant } }, h('td', {}, f.key.variant), ...runCells(f.run[i]), numCell(f.v[i], chart.unit), intervalCell(f.lo[i], f.hi[i], chart.unit), h('td', { class: 'num' }, String(f.v.length)));
  }), { class: 'latest-values' }));
  el.append(columnsNote([['Points', 'how many points the variant\'s line has: one per run, and one per commit in archived months.']]));

  el.append(h('h2', {}, `Last ${LAST} points`));
  for (const f of files) {
    const from = Math.max(0, f.v.length - LAST);
    const rows = [];
    for (let i = f.v.length - 1; i >= from; i -= 1) {
      rows.push(h('tr', { class: 'point', dataset: { run: runs.id[f.run[i]] } }, h('td', {}, date(new Date(runs.t[f.run[i]]).toISOString())), ...runCells(f.run[i]), numCell(f.v[i], chart.unit), intervalCell(f.lo[i], f.hi[i], chart.unit), h('td', { class: 'num' }, String(f.n[i]))));
    }
    el.append(h('h3', {}, f.key.variant), table(['When', 'Run', 'Commit', 'Value', 'Interval', 'Runs'], rows, { class: 'points', dataset: { variant: f.key.variant } }));
  }
  el.append(columnsNote([
    ['Value', 'the run\'s median over its trials, as on its run page;'],
    ['Interval', 'that median\'s confidence interval.'],
    ['Runs', 'how many runs the point stands for: a point of an archived month is the median of its commit\'s runs, and its interval then spans their lowest to highest value.'],
  ]));
  el.append(clampNote(el));
}

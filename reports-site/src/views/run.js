// One run: its commit, runner and every job's parameters, metrics, failures and latency distribution.
import { loadRun, loadRuns } from '../data.js';
import { h, fmt, date, commitLink, numCell, intervalCell, clampNote, table, metricLabel, columnsNote, levelPct } from '../dom.js';
import { percentileChart } from '../charts.js';

const kv = (pairs) => h('dl', { class: 'kv' }, pairs.filter(([, v]) => v !== undefined && v !== null && v !== '').flatMap(([k, v]) => [h('dt', {}, k), h('dd', { dataset: { key: k } }, v)]));

export async function runView(el, { index, params: [id] }) {
  const runs = await loadRuns();
  const i = runs.id.indexOf(id);
  if (i < 0) throw new Error(`No run ${id} in the history`);
  const run = await loadRun(runs, i);
  const r = run.runner || {};
  el.append(h('h1', {}, `Run ${run.id}`));
  el.append(kv([
    ['Started', date(run.startedAt)],
    ['Commit', run.commit ? commitLink(run.commit, index.repoUrl, run.id) : '–'],
    ['Ref', run.ref],
    ['Role', run.role],
    ['Trigger', run.pr ? `${run.trigger} (#${run.pr})` : run.trigger],
    ['Working tree', run.dirty ? 'had uncommitted changes' : undefined],
    ['Runner', r.name],
    ['OS / arch', r.os ? `${r.os} / ${r.arch}` : undefined],
    ['CPU', r.cpuModel ? `${r.cpus} × ${r.cpuModel}` : undefined],
    ['Memory', r.memoryBytes ? fmt(r.memoryBytes, 'bytes') : undefined],
    ['Labels', r.labels?.length ? r.labels.join(', ') : undefined],
    ['Stored as', run.archived ? 'archived (one value per metric; trials, samples and distributions were compacted away)' : 'full result documents'],
  ]));
  const reported = index.suites.filter((s) => s.page?.run?.id === run.id);
  el.append(h('p', {}, h('a', { href: i > 0 ? `#/compare/${encodeURIComponent(run.id)}` : '#/compare' }, 'Compare with the previous run'),
    reported.length ? [' · Suite reports of this run: ', reported.flatMap((s, k) => [k ? ', ' : '', h('a', { href: `#/report/${encodeURIComponent(s.name)}`, class: 'report-link' }, s.name)])] : null));

  const measured = run.jobs.filter((j) => j.status === 'ok');
  if (measured.length) {
    const levels = [...new Set(measured.flatMap((j) => j.metrics.map((m) => m.confidence)).filter((c) => c !== undefined))].map(levelPct);
    el.append(columnsNote(run.archived
      ? [['Value', 'the median over the job\'s trials; an archived run keeps that value alone, without its interval or the trials\' values.']]
      : [
        ['Value', 'the median over the job\'s trials.'],
        ['Interval', `where that median could lie: its bootstrap confidence interval${levels.length ? ` at ${levels.join(', ')}` : ''}, the level the result document records; a job of one trial shows the tool's own interval (JMH: the mean ± its 99.9% error).`],
        ['Samples', 'each trial\'s value, in the order the trials ran.'],
      ]));
  }

  const dists = [];
  for (const job of run.jobs) {
    const section = h('section', { class: `job ${job.status}`, dataset: { job: job.id, role: job.role } });
    section.append(h('h2', {}, job.id, ' ', h('span', { class: `badge ${job.status}` }, job.status), job.role !== run.role ? h('span', { class: 'muted' }, ` (${job.role})`) : null));
    if (job.status !== 'ok') {
      section.append(h('p', { class: 'error reason' }, job.reason || 'no reason recorded'));
      if (job.logTail) section.append(h('pre', { class: 'mono' }, job.logTail));
      el.append(section);
      continue;
    }
    section.append(kv([
      ['Tool', `${job.tool} ${job.toolVersion}`],
      ['Trials', String(job.trials)],
      ['Parameters', Object.keys(job.params || {}).length ? h('code', { class: 'params' }, Object.entries(job.params).map(([k, v]) => `${k}=${v}`).join('  ')) : 'none'],
    ]));
    section.append(table(['Metric', 'Value', 'Interval', 'Samples'], job.metrics.map((m) => h('tr', { class: 'metric', dataset: { metric: m.case ? `${m.case}::${m.name}` : m.name } },
      h('td', {}, metricLabel(m)), numCell(m.value, m.unit), intervalCell(m.lower, m.upper, m.unit),
      h('td', { class: 'num muted' }, (m.samples || []).map((s) => fmt(s, m.unit)).join(', '))))));
    section.append(clampNote(section));
    for (const d of job.distributions || []) dists.push({ job, d });
    if (job.notes?.length) section.append(h('ul', { class: 'muted' }, job.notes.map((n) => h('li', {}, n))));
    el.append(section);
  }

  if (dists.length) {
    el.append(h('h2', {}, dists.every((x) => x.d.unit === 'ns') ? 'Latency distribution' : 'Distributions'), h('p', { class: 'muted' }, 'Values on a log scale, percentiles spaced as HdrHistogram does (90%, 99%, 99.9% equally apart). Each percentile is the median of that percentile over the job\'s trials.'));
    // one chart per tool, scenario and unit: variants of one job side by side, never a JMH curve beside an ab one
    const groups = [...new Set(dists.map(({ job, d }) => `${job.tool}\u0000${job.scenario}\u0000${d.unit}`))];
    for (const g of groups) {
      const mine = dists.filter(({ job, d }) => `${job.tool}\u0000${job.scenario}\u0000${d.unit}` === g);
      const { unit } = mine[0].d;
      el.append(h('h3', {}, `${mine[0].job.tool} · ${mine[0].job.scenario}${unit === 'ns' ? '' : ` (${unit})`}`));
      // name each curve by what tells it apart within the chart: variant, case (JMH method), distribution name, and
      // the side (head, base) in a run that measured both
      const differs = (f) => new Set(mine.map(f)).size > 1;
      const parts = [differs(({ job }) => job.variant) && (({ job }) => job.variant), differs(({ d }) => d.case) && (({ d }) => d.case), differs(({ d }) => d.name) && (({ d }) => d.name), differs(({ job }) => job.role) && (({ job }) => job.role)].filter(Boolean);
      const label = (x) => (parts.length ? parts.map((f) => f(x)).filter(Boolean).join(' · ') : x.job.variant);
      const holder = h('div', { class: 'chart percentiles', role: 'img', 'aria-label': `Percentiles of ${mine[0].job.tool} · ${mine[0].job.scenario} for ${mine.map(label).join(', ')}, on a log scale; the table below lists them.` });
      el.append(holder);
      (el.__afterMount ||= []).push(() => percentileChart(holder, { unit, lines: mine.map((x) => ({ label: label(x), percentiles: x.d.percentiles })) }));
      const ps = [...new Set(mine.flatMap((x) => x.d.percentiles.map((q) => q.p)))].sort((a, b) => a - b);
      el.append(table(['Percentile', ...mine.map(label)], ps.map((p) => h('tr', { class: 'percentile', dataset: { p: String(p) } },
        h('td', {}, `p${p}`), mine.map(({ d }) => {
          const q = d.percentiles.find((x) => x.p === p);
          return q ? numCell(q.value, unit) : h('td', { class: 'num muted' }, '–');
        }))), { class: 'percentile-table' }));
    }
  }
}

// Console report of a run: banner, per-suite variant tables with pairwise lines, head-vs-base verdicts, failures.
import {
  benchmarkName, bottleneckDocs, bottleneckLine, BOTTLENECK, box, comparisonList, countVerdicts, formatChange, formatInterval, formatParams, formatSpread,
  formatValue, headline, metricLabel, pairItems, rowLabel, rule, shortSha, sortComparisons, suiteBlocks, textTable, variantPairs,
} from './format.js';

const ANSI = { regression: '\x1b[31m', improvement: '\x1b[32m', inconclusive: '\x1b[33m', 'no change': '\x1b[2m', reset: '\x1b[0m' };
const paint = (text, verdict, color) => (color && ANSI[verdict] ? `${ANSI[verdict]}${text}${ANSI.reset}` : text);

const WIDTH = 74;

/** Run facts for the banner: from run.json when given, else from the first document. */
function header(run, docs) {
  const doc = docs[0];
  const lines = [];
  const id = run?.id || doc?.run.id;
  const started = run?.startedAt || doc?.run.startedAt;
  lines.push([`Run ${id || '–'}`, run?.profile && `profile ${run.profile}`, started && `started ${started.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`].filter(Boolean).join(' · '));
  const head = run?.head || (doc && { commit: doc.run.commit, dirty: doc.run.dirty });
  const commits = [`Head ${shortSha(head?.commit)}${head?.dirty ? ' (with uncommitted changes)' : ''}`];
  if (run?.base) commits.push(`base ${shortSha(run.base.commit)}${run.base.ref ? ` (${run.base.ref})` : ''}`);
  lines.push(commits.join(' · '));
  if (doc) {
    const r = doc.runner;
    lines.push(`Runner ${r.name} · ${r.os} ${r.arch} · ${r.cpus} × ${r.cpuModel} · ${formatValue(r.memoryBytes, 'bytes')}`);
  }
  return lines.join('\n');
}

/** One suite: a table per tool/scenario with variants as columns, then the variant-vs-variant lines. */
export function renderSuite(s, { alpha = 0.05 } = {}) {
  const out = [rule(WIDTH), `${s.suite.toUpperCase()}${s.description ? `  ${s.description}` : ''}`, rule(WIDTH)];
  for (const b of s.blocks) {
    const params = formatParams(b.params);
    out.push('', `${b.tool.toUpperCase()} · ${b.scenario}  (${b.tool} ${b.toolVersion}, ${b.trials} trial${b.trials === 1 ? '' : 's'}${params ? `; ${params}` : ''})`, rule(WIDTH, '─'));
    const rows = b.rows.map((r) => [rowLabel(r), ...b.variants.map((v) => {
      const m = r.cells[v];
      if (!m) return '–';
      const spread = formatSpread(m);
      return `${formatValue(m.value, m.unit)}${spread ? ` ${spread}` : ''}`;
    })]);
    out.push(textTable(['Metric', ...b.variants], rows));
    if (b.hidden) out.push(`  (${b.hidden} more metric${b.hidden === 1 ? '' : 's'} in the result documents)`);
    const pairs = variantPairs(b.variants);
    if (pairs.length) out.push('');
    for (const [ref, other] of pairs) {
      const saturated = bottleneckLine([b.byVariant[ref], b.byVariant[other]]);
      if (saturated) {
        out.push(`  ${other} vs ${ref}: ${saturated}`);
        continue;
      }
      const items = pairItems(b.byVariant[ref], b.byVariant[other], { alpha });
      if (items.length) out.push(`  ${other} vs ${ref}: ${items.map((i) => i.text).join(' · ')}`);
    }
  }
  return out.join('\n');
}

/** The head-vs-base table, regressions first, plus anything that could not be compared. */
export function renderComparisons(list, { color = false, unmatched = [] } = {}) {
  const counts = countVerdicts(list);
  const out = [rule(WIDTH), `HEAD VS BASE  ${headline(counts, { emoji: false })}`, rule(WIDTH)];
  const rows = sortComparisons(list).map((c) => [
    benchmarkName(c),
    metricLabel(c.metric),
    formatValue(c.base.value, c.unit),
    formatValue(c.head.value, c.unit),
    formatChange(c),
    formatInterval(c),
    paint(c.verdict, c.verdict, color),
  ]);
  out.push(textTable(['Benchmark', 'Metric', 'Base', 'Head', 'Change', 'Interval', 'Verdict'], rows, { align: ['left', 'left', 'right', 'right', 'right', 'right', 'left'] }));
  const regressions = sortComparisons(list).filter((c) => c.verdict === 'regression');
  if (regressions.length) {
    out.push('', '  Why:');
    for (const c of regressions) out.push(`    ${benchmarkName(c)} ${metricLabel(c.metric)}: ${c.reason}`);
  }
  if (counts.inconclusive) {
    out.push('', `  Inconclusive: the interval is wider than the metric's minimum effect (or there were fewer than 3 trials);`,
      '  more trials narrow it, and comparisons need 4 or more a side before Mann-Whitney can reach p < 0.05.');
  }
  if (unmatched.length) {
    out.push('', '  Not compared (present on one side only):');
    for (const u of unmatched) out.push(`    ${benchmarkName(u)}${u.metric ? ` ${metricLabel(u.metric)}` : ''}: ${u.reason}`);
  }
  return out.join('\n');
}

/** Failed and skipped jobs with their reasons and the last lines of their logs. */
export function renderFailures(failures) {
  const out = [rule(WIDTH), `FAILED AND SKIPPED JOBS  (${failures.length})`, rule(WIDTH)];
  for (const f of failures) {
    out.push(`  ${f.status === 'skipped' ? '-' : '✗'} ${f.id} (${f.status}): ${f.reason}`);
    const tail = String(f.logTail || '').trimEnd().split('\n').filter(Boolean).slice(-5);
    for (const l of tail) out.push(`      | ${l}`);
  }
  return out.join('\n');
}

/**
 * The whole console report. `comparisons` is compare()'s result (or its list) when a base was
 * measured; `color` adds ANSI colours to verdicts (callers pass it only for a TTY); `detail`
 * shows every metric in the variant tables, not only the headline ones.
 */
export function render({ run, docs = [], comparisons, failures = [], config = {}, color = false, detail = false }) {
  const parts = [box('BENCHLINE PERFORMANCE REPORT'), '', header(run, docs)];
  const alpha = config.compare?.alpha ?? 0.05;
  for (const s of suiteBlocks(docs, config, { detail })) parts.push('', renderSuite(s, { alpha }));
  if (!docs.length) parts.push('', 'No result documents: every job failed or was skipped.');
  const list = comparisonList(comparisons);
  if (comparisons) parts.push('', renderComparisons(list, { color, unmatched: comparisons.unmatched || [] }));
  const saturated = bottleneckDocs(docs);
  if (saturated.length) parts.push('', `  ${BOTTLENECK[0].toUpperCase()}${BOTTLENECK.slice(1)} in ${saturated.length === 1 ? 'this job' : 'these jobs'}; their figures and verdicts describe the tool, not the subject:`, ...saturated.map((x) => `    ${x.name}: ${x.why}`));
  if (failures.length) parts.push('', renderFailures(failures));
  return `${parts.join('\n')}\n`;
}

// Job-summary markdown ($GITHUB_STEP_SUMMARY): per-variant tables, variant-vs-variant lines, head-vs-base verdicts, failures.
import {
  ADJUSTED_NOTE, PAIRED_NOTE, opposesMedians, bottleneckLine, cellValue, headOnlyJobs, comparisonList, countVerdicts, htmlEscape, formatParams, formatSpread, groupByVerdict, headline, mdEscape, mdTable, pairItems, plural, rowLabel, shortSha, suiteBlocks, variantPairs, trialsText, benchmarkName, metricLabel, VERDICTS, judgedOnly, pairMethod, unmatchedHeading, shownLogLines,
} from './format.js';
import { countsLine, headerText, infoDetails, row, uncomparedBase } from './comment.js';

/** The generic markdown of one suite: a table per tool/scenario (variants as columns) and the pairwise lines. */
export function suiteMarkdown(s, { alpha = 0.05, compare = {} } = {}) {
  const out = [`### ${mdEscape(s.suite)}${s.description ? ` · ${mdEscape(s.description)}` : ''}`];
  const levels = new Set();
  const own = new Set(); // documents of one trial: the interval their tool gave (JMH's score ± error)
  for (const b of s.blocks) {
    const params = formatParams(b.params);
    out.push(`#### ${mdEscape(b.tool)} · ${mdEscape(b.scenario)}\n\n<sub>${mdEscape(`${b.tool} ${b.toolVersion}`)}, ${trialsText(b)}${params ? `; ${mdEscape(params)}` : ''}</sub>`);
    const rows = b.rows.map((r) => [mdEscape(rowLabel(r)), ...b.variants.map((v) => {
      const m = r.cells[v];
      if (!m) return '–';
      const spread = formatSpread(m);
      return `${cellValue(m)}${spread ? ` <sub>${spread}</sub>` : ''}`;
    })]);
    out.push(mdTable(['metric', ...b.variants.map((v) => mdEscape(v))], rows));
    if (b.hidden) out.push(`<sub>${plural(b.hidden, 'more metric')} in the result documents</sub>`);
    for (const r of b.rows) for (const [v, m] of Object.entries(r.cells)) if (formatSpread(m)) (b.byVariant[v]?.trials === 1 ? own : levels).add(m.confidence ?? 0.95);
    const lines = [];
    for (const [ref, other] of variantPairs(b.variants)) {
      const saturated = bottleneckLine([b.byVariant[ref], b.byVariant[other]]);
      if (saturated) {
        lines.push(`- **${mdEscape(other)}** vs **${mdEscape(ref)}**: ${htmlEscape(saturated)}`);
        continue;
      }
      const items = pairItems(b.byVariant[ref], b.byVariant[other], { alpha, paired: s.interleaved, compare });
      if (items.length) lines.push(`- **${mdEscape(other)}** vs **${mdEscape(ref)}** <sub>(${pairMethod(b.byVariant[ref], b.byVariant[other], s.interleaved)})</sub>: ${items.map((i) => `${i.mark} ${mdEscape(i.label)}: ${htmlEscape(i.what)}`).join(' · ')}`);
    }
    if (lines.length) out.push(lines.join('\n'));
  }
  const level = (set) => [...set].map((c) => `${+(c * 100).toFixed(1)}%`).join(' or ');
  if (levels.size) out.push(`<sub>±: the wider side of the ${level(levels)} bootstrap interval of the median over the trials, relative to the median. ✓/✗: a decided difference; ≈: not decided.</sub>`);
  if (own.size) out.push(`<sub>±${levels.size ? ' of a job of one trial' : ''}: the wider side of the ${level(own)} interval the tool gave for its one trial (JMH: score ± error), relative to the value.${levels.size ? '' : ' ✓/✗: a decided difference; ≈: not decided.'}</sub>`);
  return out.join('\n\n');
}

/**
 * The job summary. `suiteMarkdown` maps a suite name to markdown from its own renderer, which
 * then replaces the generic tables of that suite.
 */
export function render({ run, docs = [], comparisons, failures = [], config = {}, suiteMarkdown: custom = {}, detail = false }) {
  const list = comparisonList(comparisons);
  const counts = countVerdicts(judgedOnly(list));
  const alpha = config.compare?.alpha ?? 0.05;
  const doc = docs[0];
  // a --base run that compared nothing says why, as the comment does, rather than reading as a run without a base
  const uncompared = uncomparedBase({ run, docs, comparisons, failures });
  const title = comparisons && list.length ? headline(counts, { failed: failures.length }) : uncompared?.title || `measured ${plural(docs.length, 'benchmark')}`;
  const out = [`## benchline: ${title}`];
  const facts = [];
  const id = run?.id || doc?.run.id;
  if (id) facts.push(`run ${mdEscape(id)}`);
  if (run?.profile) facts.push(`profile ${mdEscape(run.profile)}`);
  const head = run?.head?.commit || doc?.run.commit;
  if (head) facts.push(`head \`${shortSha(head)}\`${run?.head?.dirty ? ' (uncommitted changes)' : ''}`);
  if (run?.base?.commit) facts.push(`base \`${shortSha(run.base.commit)}\`${run.base.ref ? ` (${mdEscape(run.base.ref)})` : ''}`);
  if (doc) facts.push(`runner ${mdEscape(doc.runner.name)} (${doc.runner.cpus} × ${mdEscape(doc.runner.cpuModel)})`);
  if (facts.length) out.push(facts.join(' · '));
  if (uncompared) out.push(uncompared.text);
  else if (comparisons && headOnlyJobs(run).length) out.push(`Measured on head only (the base has no such subject): ${headOnlyJobs(run).map((j) => `${mdEscape(j.id)} (${mdEscape(j.why)})`).join(', ')}.`);

  for (const s of suiteBlocks(docs, config, { detail })) out.push(custom[s.suite] ? custom[s.suite].trim() : suiteMarkdown(s, { alpha, compare: config.compare }));

  if (comparisons) {
    // The same split as the PR comment: judged metrics with verdicts, the others as information.
    out.push('### Head vs base');
    const judged = judgedOnly(list).filter((c) => VERDICTS.includes(c.verdict));
    const info = list.filter((c) => !judged.includes(c));
    const groups = groupByVerdict(judged);
    const main = [...groups.regression, ...groups.improvement, ...groups.inconclusive];
    if (main.length) out.push([headerText, ...main.map(row)].join('\n'));
    if (groups['no change'].length) {
      out.push(`<details><summary>${plural(groups['no change'].length, 'judged metric')} with no change</summary>\n\n${[headerText, ...groups['no change'].map(row)].join('\n')}\n\n</details>`);
    }
    // what a marked change means, as under the comment's tables
    const notes = [...(list.some((c) => c.otherSlope) ? [ADJUSTED_NOTE] : []), ...(list.some(opposesMedians) ? [PAIRED_NOTE] : [])];
    if (notes.length) out.push(notes.map((n) => `<sub>${n}.</sub>`).join('\n\n'));
    if (!list.length) out.push('No metric was measured on both base and head.');
    else out.push(countsLine(countVerdicts(judged), comparisons, { count: info.length, below: info.filter((c) => c.verdict === 'below resolution').length }));
    const why = [...groups.regression, ...groups.improvement, ...groups.inconclusive];
    if (why.length) {
      out.push(`<details><summary>Why these verdicts (and what would settle the inconclusive ones)</summary>\n\n${why.map((c) => `- ${mdEscape(benchmarkName(c))} ${mdEscape(metricLabel(c.metric))}: ${c.verdict}, ${htmlEscape(c.reason)}`).join('\n')}\n\n</details>`);
    }
    if (info.length) out.push(infoDetails(info));
    const unmatched = comparisons.unmatched || [];
    if (unmatched.length) {
      out.push(`${unmatchedHeading(unmatched)}:\n\n${unmatched.map((u) => `- ${mdEscape(benchmarkName(u))}${u.metric ? ` ${mdEscape(metricLabel(u.metric))}` : ''}: ${mdEscape(u.reason)}`).join('\n')}`);
    }
  }
  if (failures.length) {
    out.push('### Failed and skipped jobs');
    out.push(failures.map((f) => {
      const tail = shownLogLines(f.logTail, 10);
      const log = tail.length ? `\n\n  <details><summary>log</summary>\n\n  <pre>${tail.map((l) => htmlEscape(l.slice(0, 500))).join('\n')}</pre>\n  </details>` : '';
      return `- ${mdEscape(f.id)} (${mdEscape(f.status)}): ${mdEscape(f.reason, { max: 500 })}${log}`;
    }).join('\n'));
  }
  return `${out.join('\n\n')}\n`;
}

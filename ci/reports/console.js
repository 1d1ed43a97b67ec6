// Console report of a run: banner, per-suite variant tables with pairwise lines, head-vs-base verdicts, failures.
import {
  ADJUSTED_NOTE, PAIRED_NOTE, opposesMedians, DUET_NOTE, cellValue, duetSuiteNote, headOnlyJobs, noteLines, benchmarkName, bottleneckDocs, bottleneckLine, BOTTLENECK, box, comparisonList, countVerdicts, formatChange, formatInterval, formatMargin, formatParams, formatSpread, formatValue, headline, metricLabel, pairItems, rowLabel, rule, shortSha, sortComparisons, suiteBlocks, textTable, trialsText, variantPairs, pairMethod, unmatchedHeading,
  shownLogLines,
} from './format.js';

const ANSI = { regression: '\x1b[31m', improvement: '\x1b[32m', inconclusive: '\x1b[33m', 'no change': '\x1b[2m', 'below resolution': '\x1b[2m', reset: '\x1b[0m' };
const paint = (text, verdict, color) => (color && ANSI[verdict] ? `${ANSI[verdict]}${text}${ANSI.reset}` : text);

const WIDTH = 74;

/** Run facts for the banner: from run.json when given, else from the first document. */
function header(run, docs, compared) {
  const doc = docs[0];
  const lines = [];
  const id = run?.id || doc?.run.id;
  const started = run?.startedAt || doc?.run.startedAt;
  lines.push([`Run ${id || '–'}`, run?.profile && `profile ${run.profile}`, started && `started ${started.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`].filter(Boolean).join(' · '));
  const head = run?.head || (doc && { commit: doc.run.commit, dirty: doc.run.dirty });
  const commits = [`Head ${shortSha(head?.commit)}${head?.dirty ? ' (with uncommitted changes)' : ''}`];
  if (run?.base) commits.push(`base ${shortSha(run.base.commit)}${run.base.ref ? ` (${run.base.ref})` : ''}`);
  lines.push(commits.join(' · '));
  // both sides were measured, but the suite tables hold one: say which, so a reader does not take them for the base
  // without a comparison (the base has none of the subjects, or no job measured both sides) there is no such section
  if (run?.base && docs.length) lines.push(`Suite tables show the head side (${shortSha(head?.commit)}); ${compared ? 'the comparison with the base is under "HEAD VS BASE" below' : 'nothing was compared with the base: no job measured both sides (below: why)'}.`);
  if (doc) {
    const r = doc.runner;
    lines.push(`Runner ${r.name} · ${r.os} ${r.arch} · ${r.cpus} × ${r.cpuModel} · ${formatValue(r.memoryBytes, 'bytes')}`);
  }
  return lines.join('\n');
}

/**
 * The legend of the ± column: the interval's wider side, at the confidence the documents' intervals were made at: a
 * bootstrap over trials, or for a document of one trial the interval its tool gave (JMH's score ± error).
 */
function spreadLegend(blocks) {
  const over = new Set();
  const own = new Set();
  for (const b of blocks) {
    for (const r of b.rows) {
      for (const [v, m] of Object.entries(r.cells)) if (formatSpread(m)) (b.byVariant[v]?.trials === 1 ? own : over).add(m.confidence ?? 0.95);
    }
  }
  const level = (levels) => [...levels].map((c) => `${+(c * 100).toFixed(1)}%`).join(' or ');
  const lines = [];
  if (over.size) {
    lines.push(`  ±: the wider side of the ${level(over)} bootstrap interval of the median over the block's trials, relative to the median`,
      '     (how far the median could move on a rerun; a table cell is the median over trials).');
  }
  if (own.size) lines.push(`  ±: the wider side of the ${level(own)} interval the tool gave for its one trial (JMH: score ± error), relative to the value`);
  return lines;
}

/**
 * One suite: a table per tool/scenario with variants as columns, then the variant-vs-variant lines (paired when
 * the suite interleaves its variants, see format.js pairItems), then the legend of ± and of the marks.
 */
export function renderSuite(s, { alpha = 0.05, compare = {} } = {}) {
  const out = [rule(WIDTH), `${s.suite.toUpperCase()}${s.description ? `  ${s.description}` : ''}`, rule(WIDTH)];
  let pairLines = 0;
  for (const b of s.blocks) {
    const params = formatParams(b.params);
    out.push('', `${b.tool.toUpperCase()} · ${b.scenario}  (${b.tool} ${b.toolVersion}, ${trialsText(b)}${params ? `; ${params}` : ''})`, rule(WIDTH, '─'));
    const rows = b.rows.map((r) => [rowLabel(r), ...b.variants.map((v) => {
      const m = r.cells[v];
      if (!m) return '–';
      const spread = formatSpread(m);
      return `${cellValue(m)}${spread ? ` ${spread}` : ''}`;
    })]);
    out.push(textTable(['Metric', ...b.variants], rows));
    if (b.hidden) out.push(`  (${b.hidden} more metric${b.hidden === 1 ? '' : 's'} in the result documents)`);
    const pairs = variantPairs(b.variants);
    if (pairs.length) out.push('');
    for (const [ref, other] of pairs) {
      const saturated = bottleneckLine([b.byVariant[ref], b.byVariant[other]]);
      if (saturated) {
        out.push(`  ${other} vs ${ref}: ${saturated}`);
        pairLines += 1;
        continue;
      }
      const items = pairItems(b.byVariant[ref], b.byVariant[other], { alpha, paired: s.interleaved, compare });
      if (!items.length) continue;
      pairLines += 1;
      out.push(`  ${other} vs ${ref} (${pairMethod(b.byVariant[ref], b.byVariant[other], s.interleaved)}): ${items.map((i) => i.text).join(' · ')}`);
    }
  }
  const legend = spreadLegend(s.blocks);
  if (pairLines) legend.push('  ✓ better, ✗ worse: a decided difference; ≈ not decided (the note says why). Paired: trial t of both variants ran in round t.');
  if (legend.length) out.push('', ...legend);
  const duets = duetSuiteNote(s.blocks.flatMap((b) => Object.values(b.byVariant)));
  if (duets) out.push(duets);
  return out.join('\n');
}

/** Counts and the family of a head-vs-base comparison in words. */
function familyLine(list, family) {
  const judged = list.filter((c) => c.judged !== false);
  const below = judged.filter((c) => c.verdict === 'below resolution').length;
  const info = list.length - judged.length;
  const fam = family?.size ? `; ${family.size} tested together, ${family.method} at ${+(family.alpha * 100).toFixed(1)}%` : '';
  return `  ${judged.length} judged metric${judged.length === 1 ? '' : 's'} (each job's key metrics${fam})${below ? `, ${below} below the tool's resolution (no verdict)` : ''}; ${info} more shown as information.`;
}

/** Information-only metrics, compactly: one line per job with each metric's change. */
function infoLines(list, max = 20) {
  const jobs = new Map();
  // a metric the job would judge but whose value cannot be (set by the load, a trial's extreme) says why with it
  const generic = /^(information only|restates a run parameter)/;
  for (const c of list) {
    const key = benchmarkName({ ...c, case: undefined });
    if (!jobs.has(key)) jobs.set(key, []);
    const why = c.reason && !generic.test(c.reason) ? ` (${c.reason.replace(/: shown, never judged.*$/, '')}: never judged)` : '';
    jobs.get(key).push(`${c.case ? `${c.case} · ` : ''}${metricLabel(c.metric)} ${formatChange(c, { medians: false })}${why}`);
  }
  const lines = [...jobs].slice(0, max).map(([job, items]) => `    ${job}: ${items.join(', ')}`);
  if (jobs.size > max) lines.push(`    and ${jobs.size - max} more jobs (comparisons.json has every one)`);
  return lines;
}

/**
 * The head-vs-base section: the judged metrics with their verdicts (regressions first), why each regression and
 * improvement was called, why each inconclusive one was not and how many more rounds would likely settle it, then
 * the information-only metrics compactly, and anything that could not be compared.
 */
function renderComparisons(list, { color = false, unmatched = [], family, failed = 0 } = {}) {
  const judged = list.filter((c) => c.judged !== false && c.verdict !== null);
  const info = list.filter((c) => !judged.includes(c));
  const counts = countVerdicts(judged);
  const out = [rule(WIDTH), `HEAD VS BASE  ${headline(counts, { emoji: false, failed })}`, rule(WIDTH), familyLine(list, family), ''];
  const trials = (c) => (c.method === 'paired' ? `${c.head.n} ${c.duet ? 'duet' : 'paired'}${c.disturbed ? ` (-${c.disturbed})` : ''}` : `${c.base.n} + ${c.head.n}`);
  const rows = sortComparisons(judged).map((c) => [
    benchmarkName(c),
    metricLabel(c.metric),
    formatValue(c.base.value, c.unit),
    formatValue(c.head.value, c.unit),
    formatChange(c),
    formatInterval(c),
    formatMargin(c.minEffect),
    trials(c),
    paint(c.verdict, c.verdict, color),
  ]);
  out.push(textTable(['Benchmark', 'Metric', 'Base', 'Head', 'Change', 'Interval', 'Min effect', 'Trials', 'Verdict'], rows, { align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'] }));
  out.push('  Base, Head: medians over trials. Change: head vs base (paired: the Hodges-Lehmann estimate of the per-round ratios).',
    '  Interval: where the change lies at the stated level. Min effect: a regression or improvement is at least this large; no change lies inside it.',
    '  Trials: paired rounds (-N: disturbed rounds left out), or base + head.');
  if (judged.some((c) => c.duet)) out.push(`  duet: ${DUET_NOTE}.`);
  if (list.some((c) => c.otherSlope)) out.push(`  ${ADJUSTED_NOTE}.`);
  if (list.some(opposesMedians)) out.push(`  ${PAIRED_NOTE}.`);
  const why = sortComparisons(judged).filter((c) => c.verdict === 'regression' || c.verdict === 'improvement' || c.verdict === 'inconclusive' || c.verdict === 'below resolution');
  if (why.length) {
    out.push('', '  Why:');
    for (const c of why) out.push(`    ${benchmarkName(c)} ${metricLabel(c.metric)}: ${c.verdict}, ${c.reason}`);
  }
  if (info.length) {
    out.push('', `  Information only (${info.length} metric${info.length === 1 ? '' : 's'}, change shown, no verdict: not a job's key metric, or a restated run parameter):`, ...infoLines(info));
  }
  if (unmatched.length) {
    out.push('', `  ${unmatchedHeading(unmatched)}:`);
    for (const u of unmatched) out.push(`    ${benchmarkName(u)}${u.metric ? ` ${metricLabel(u.metric)}` : ''}: ${u.reason}`);
  }
  return out.join('\n');
}

/** Failed and skipped jobs with their reasons and the last lines of their logs. */
function renderFailures(failures) {
  const out = [rule(WIDTH), `FAILED AND SKIPPED JOBS  (${failures.length})`, rule(WIDTH)];
  for (const f of failures) {
    out.push(`  ${f.status === 'skipped' ? '-' : '✗'} ${f.id} (${f.status}): ${f.reason}`);
    const tail = shownLogLines(f.logTail, 5);
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
  const parts = [box('BENCHLINE PERFORMANCE REPORT'), '', header(run, docs, Boolean(comparisons))];
  if (run?.status === 'interrupted') {
    // a job stopped after some trials keeps them (read as measured, so not among the failed jobs below): named here
    const cut = (Array.isArray(run.jobs) ? run.jobs : []).filter((j) => j?.status === 'interrupted' && j.docs);
    parts.push('', `  INTERRUPTED by ${run.interrupted || 'a signal'}: only the trials that finished are reported; jobs cut short say so ${cut.length ? 'here (reported with the trials they finished) and ' : ''}below.`,
      ...cut.map((j) => `    ${j.id}: ${j.reason || 'cut short'}`));
  }
  const alpha = config.compare?.alpha ?? 0.05;
  for (const s of suiteBlocks(docs, config, { detail })) parts.push('', renderSuite(s, { alpha, compare: config.compare }));
  if (!docs.length) parts.push('', 'No result documents: every job failed or was skipped.');
  const list = comparisonList(comparisons);
  if (comparisons) parts.push('', renderComparisons(list, { color, unmatched: comparisons.unmatched || [], family: comparisons.family, failed: failures.length }));
  const saturated = bottleneckDocs(docs);
  if (saturated.length) parts.push('', `  ${BOTTLENECK[0].toUpperCase()}${BOTTLENECK.slice(1)} in ${saturated.length === 1 ? 'this job' : 'these jobs'}; their figures and verdicts describe the tool, not the subject:`, ...saturated.map((x) => `    ${x.name}: ${x.why}`));
  const headOnly = headOnlyJobs(run);
  if (headOnly.length) parts.push('', `  Measured on head only (${run.base.ref || 'the base'} has no such subject, so nothing to compare them with):`, ...headOnly.map((j) => `    ${j.id}: ${j.why}`));
  // the bottleneck notes have their own lines above
  const notes = noteLines(docs).filter((n) => !n.text.startsWith(BOTTLENECK));
  if (notes.length) {
    const shown = notes.slice(0, NOTES_SHOWN);
    parts.push('', '  Notes from the tools (each job\'s result documents; a note from some trials names them):',
      ...shown.map((n) => `    ${n.name}: ${n.text}${n.trials ? ` (${n.trials.length === n.of ? 'every trial' : `trial${n.trials.length === 1 ? '' : 's'} ${trialList(n.trials)} of ${n.of}`}${n.varies ? `; figures of trial ${n.first}` : ''})` : ''}`));
    if (notes.length > shown.length) parts.push(`    and ${notes.length - shown.length} more (the result documents' notes have every one)`);
  }
  if (failures.length) parts.push('', renderFailures(failures));
  return `${parts.join('\n')}\n`;
}

/** Notes listed in the console report at most. */
const NOTES_SHOWN = 30;

/** "1, 3, 5-9": trial numbers with runs of three or more folded. */
function trialList(trials) {
  const t = [...new Set(trials)].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < t.length;) {
    let j = i;
    while (j + 1 < t.length && t[j + 1] === t[j] + 1) j += 1;
    out.push(j - i >= 2 ? `${t[i]}-${t[j]}` : t.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return out.join(', ');
}

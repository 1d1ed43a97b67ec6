// The sticky pull-request comment: headline, one verdict table (no-change rows folded), failures, runner and commits.
import {
  benchmarkName, comparisonList, countVerdicts, formatChange, formatInterval, formatValue, groupByVerdict,
  headline, mdEscape, mdTable, metricLabel, plural, shortSha, verdictMark,
} from './format.js';

/** Marks benchline's comment so the poster updates it instead of adding a new one. */
export const MARKER = '<!-- benchline:pr-comment -->';
/** GitHub rejects comment bodies longer than this many characters. */
export const GITHUB_LIMIT = 65536;

// A run with every job failing would otherwise spend the whole size budget on reasons.
const MAX_FAILURES = 50;
const HEAD = ['benchmark', 'metric', 'base', 'head', 'change', 'interval', 'verdict'];
const ALIGN = ['left', 'left', 'right', 'right', 'right', 'right', 'left'];
/** The header of the verdict table, shared with the job summary. */
export const headerText = mdTable(HEAD, [], ALIGN);

/** One verdict table row; names are escaped because they come from the pull request. */
export const row = (c) => `| ${[
  mdEscape(benchmarkName(c)),
  mdEscape(metricLabel(c.metric)),
  formatValue(c.base.value, c.unit),
  formatValue(c.head.value, c.unit),
  c.verdict === 'regression' || c.verdict === 'improvement' ? `**${formatChange(c)}**` : formatChange(c),
  formatInterval(c),
  verdictMark(c.verdict),
].join(' | ')} |`;

// The groups in order of importance: when the comment is too long, rows go from the end of this list first.
const GROUPS = ['regression', 'improvement', 'inconclusive', 'no change'];

function footer({ run, docs }) {
  const doc = docs?.[0];
  const lines = [];
  if (doc) {
    const r = doc.runner;
    lines.push(`Runner: ${mdEscape(r.name)} · ${mdEscape(`${r.os} ${r.arch}`)} · ${r.cpus} × ${mdEscape(r.cpuModel)}`);
  }
  const head = run?.head?.commit || doc?.run.commit;
  const parts = [];
  if (run?.base?.commit) parts.push(`base \`${shortSha(run.base.commit)}\`${run.base.ref ? ` (${mdEscape(run.base.ref)})` : ''}`);
  if (head) parts.push(`head \`${shortSha(head)}\`${run?.head?.dirty ? ' (uncommitted changes)' : ''}`);
  if (parts.length) lines.push(`Commits: ${parts.join(' → ')}`);
  const id = run?.id || doc?.run.id;
  if (id) lines.push(`Run: ${mdEscape(id)}${run?.profile ? ` · profile ${mdEscape(run.profile)}` : ''}`);
  return lines.length ? `<sub>${lines.join('<br>')}</sub>` : '';
}

function failuresSection(failures) {
  if (!failures?.length) return '';
  const shown = failures.slice(0, MAX_FAILURES);
  const lines = shown.map((f) => `- ${mdEscape(f.id)} ${mdEscape(f.status)}: ${mdEscape(f.reason, { max: 300 })}`);
  if (failures.length > shown.length) lines.push(`- and ${plural(failures.length - shown.length, 'more job')}`);
  return `#### ❗ ${plural(failures.length, 'job')} did not produce results\n\n${lines.join('\n')}`;
}

/**
 * Assembles the body from the rows kept per group; `omitted` counts rows left out per group.
 * The main table holds regressions, improvements and inconclusive; no-change rows are folded.
 */
function assemble({ title, kept, omitted, failures, foot, intro }) {
  const parts = [MARKER, title];
  if (intro) parts.push(intro);
  const main = [...kept.regression, ...kept.improvement, ...kept.inconclusive];
  if (main.length) parts.push([headerText, ...main].join('\n'));
  if (kept['no change'].length) {
    parts.push(`<details><summary>${plural(kept['no change'].length + omitted['no change'], 'metric')} with no change</summary>\n\n${[headerText, ...kept['no change']].join('\n')}\n\n</details>`);
  } else if (omitted['no change']) {
    parts.push(`${plural(omitted['no change'], 'metric')} with no change.`);
  }
  const left = GROUPS.filter((g) => omitted[g]).map((g) => `${plural(omitted[g], `${g} row`)}`);
  if (left.length) parts.push(`_Left out to fit GitHub's comment size limit: ${left.join(', ')}. The job summary and the results artifact have every row._`);
  if (failures) parts.push(failures);
  if (foot) parts.push(foot);
  return `${parts.join('\n\n')}\n`;
}

/**
 * The PR comment markdown. `comparisons` is compare()'s result (or its list); without one (no
 * base measured) the comment says so. The body always fits `limit` characters: rows are dropped
 * from the least important group first and counted in a note.
 */
export function render({ run, docs = [], comparisons, failures = [], config, limit = GITHUB_LIMIT }) {
  const list = comparisonList(comparisons);
  const counts = countVerdicts(list);
  const failText = failuresSection(failures);
  const foot = footer({ run, docs });
  let title;
  let intro = '';
  if (!comparisons) {
    title = `### benchline: ${failures.length ? '❗ ' : ''}measured ${plural(docs.length, 'benchmark')}, no base to compare against`;
    intro = 'Run with `--base <ref>` (as the pull-request workflow does) to get verdicts.';
  } else if (!list.length) {
    title = `### benchline: nothing to compare${failures.length ? ` (${plural(failures.length, 'job')} failed)` : ''}`;
    intro = 'No metric was measured on both base and head.';
  } else {
    title = `### benchline: ${headline(counts)}${failures.length ? `, ${plural(failures.length, 'failed job')}` : ''}`;
  }
  const unmatched = comparisons?.unmatched?.length;
  if (unmatched) intro = [intro, `${plural(unmatched, 'benchmark or metric', 'benchmarks or metrics')} measured on one side only (new or removed) ${unmatched === 1 ? 'is' : 'are'} not compared.`].filter(Boolean).join(' ');
  if (counts.regression && config?.compare?.failOnRegression) intro = [intro, `The bench check fails on ${counts.regression === 1 ? 'this regression' : 'these regressions'} (\`compare.failOnRegression\` in bench.config.yaml).`].filter(Boolean).join(' ');

  const groups = groupByVerdict(list);
  const rows = Object.fromEntries(GROUPS.map((g) => [g, groups[g].map(row)]));
  const kept = Object.fromEntries(GROUPS.map((g) => [g, rows[g]]));
  const omitted = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  let body = assemble({ title, kept, omitted, failures: failText, foot, intro });
  if (body.length <= limit) return body;

  // Too long: keep the longest prefix of rows, in order of importance, that fits. Rows are sized
  // up front so this is one pass, then verified (the omission note and <details> wrapper vary a little).
  const ordered = GROUPS.flatMap((g) => rows[g].map((text) => ({ g, text })));
  const fixed = assemble({ title, kept: Object.fromEntries(GROUPS.map((g) => [g, []])), omitted: { ...counts }, failures: failText, foot, intro }).length;
  let budget = limit - fixed - 2 * (headerText.length + 200);
  let keep = 0;
  while (keep < ordered.length && budget - (ordered[keep].text.length + 1) >= 0) {
    budget -= ordered[keep].text.length + 1;
    keep += 1;
  }
  for (;;) {
    const k = Object.fromEntries(GROUPS.map((g) => [g, []]));
    for (const r of ordered.slice(0, keep)) k[r.g].push(r.text);
    const o = Object.fromEntries(GROUPS.map((g) => [g, rows[g].length - k[g].length]));
    body = assemble({ title, kept: k, omitted: o, failures: failText, foot, intro });
    if (body.length <= limit || keep === 0) return body;
    keep -= 1;
  }
}

// The sticky pull-request comment: decision, counts, a table per job that needs a reader, the rest folded, runner and commits.
import {
  ADJUSTED_NOTE, PAIRED_NOTE, opposesMedians, DUET_NOTE, benchmarkName, headOnlyJobs, bottleneckDocs, BOTTLENECK, comparisonList, countVerdicts, formatChange, formatInterval, formatValue, groupByVerdict, headline, judgedOnly, mdEscape, mdTable, metricLabel, formatMargin, plural, shortSha, verdictMark, sortComparisons, worseUndecided,
  tellingLine,
} from './format.js';

/** Marks benchline's comment so the poster updates it instead of adding a new one. */
export const MARKER = '<!-- benchline:pr-comment -->';
/** GitHub rejects comment bodies longer than this many characters. */
export const GITHUB_LIMIT = 65536;

// A run with every job failing would otherwise spend the whole size budget on reasons.
const MAX_FAILURES = 50;
const HEAD = ['benchmark', 'metric', 'base', 'head', 'change', 'interval', 'min effect', 'verdict'];
const ALIGN = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'left'];
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
  formatMargin(c.minEffect),
  verdictMark(c.verdict),
].join(' | ')} |`;

// The verdicts in order of importance: when the comment is too long, what shows the later ones goes first.
const GROUPS = ['regression', 'improvement', 'inconclusive', 'no change'];
// Where the findings go among the comment's parts.
const FINDINGS = Symbol('findings');
// Where the undecided lines (inconclusive metrics worse by their estimate) go; kept only while the detail sections are.
const LEANING = Symbol('leaning');

const jobName = (c) => [c.suite, c.variant, c.tool, c.scenario].join('/');
const metricName = (c) => `${c.case ? `${c.case} · ` : ''}${metricLabel(c.metric)}`;

/** Where a series' trend lives on the site: its chart under #/trend/ (the site's own route), or null without a site. */
function trendUrl(site, c) {
  if (!site) return null;
  const metric = c.case ? `${c.case}::${c.metric}` : c.metric;
  // Parentheses and quotes too: a name from a pull request must not end the markdown link early.
  const path = encodeURIComponent([c.suite, c.tool, c.scenario, metric].join('/')).replace(/[()'!*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${site.replace(/\/?$/, '/')}#/trend/${path}`;
}

/** One line of the decision: what changed, by how much, how sure, with a link to its trend. */
function findingLine(c, site) {
  // a change decided at an earlier look has that look's change, interval and p: the rounds it came from are said
  const early = c.decidedAt < c.head.n ? `decided after ${c.decidedAt} of ` : '';
  const rounds = c.method === 'paired' ? `${early}${c.head.n}${c.duet ? ' duet' : ''} rounds${c.disturbed ? `, ${c.disturbed} disturbed left out` : ''}` : `${c.base.n} + ${c.head.n} trials`;
  const url = trendUrl(site, c);
  const name = `${mdEscape(jobName(c))} · **${mdEscape(metricName(c))}**`;
  const mark = { regression: '🔴', improvement: '🟢' }[c.verdict] || '🟡';
  const p = Number.isFinite(c.p) ? `p=${c.p.toPrecision(2)}, ` : '';
  // an undecided metric may have no interval (too few rounds to bound it): no bare dash then
  const interval = formatInterval(c) === '–' ? '' : ` ${formatInterval(c)}`;
  return `- ${mark} ${url ? `[${name}](${url})` : name}: **${formatChange(c)}**${interval}, ${formatValue(c.base.value, c.unit)} → ${formatValue(c.head.value, c.unit)} (${p}${rounds})`;
}

/**
 * The counts line under the decision: every judged metric accounted for (those below a tool's resolution have no
 * verdict but are judged metrics), how many more are information only, and what the family was.
 * `info` is { count: metrics without a verdict, below: of those, judged ones below resolution }.
 */
export function countsLine(counts, comparisons, info) {
  const verdicts = GROUPS.reduce((n, g) => n + counts[g], 0);
  const fam = comparisons?.family;
  const parts = GROUPS.filter((g) => counts[g]).map((g) => (g === 'regression' || g === 'improvement' ? plural(counts[g], g) : `${counts[g].toLocaleString('en-US')} ${g}`));
  if (info.below) parts.push(`${info.below} below the tool's resolution (no verdict)`);
  const family = fam?.size ? ` Judged together at a ${Math.round(fam.alpha * 100)}% false discovery rate (${fam.method}), so an unchanged pull request is flagged at most ${Math.round(fam.alpha * 100)}% of the time.` : '';
  const more = info.count - info.below ? `; ${plural(info.count - info.below, 'more metric')} shown as information` : '';
  return `${plural(verdicts + info.below, 'judged metric')}: ${parts.join(' · ') || 'none'}${more}.${family}`;
}

/**
 * Per job, its judged metrics in one short table; jobs with a regression first, then by their most notable verdict.
 * `quiet` marks the jobs without a regression or improvement (every judged metric no change or inconclusive): the
 * comment folds those away, so the part above the fold shows the decisions. What duet figures are is said once, at
 * the first duet job in the order the comment shows them (the decided jobs, then the folded ones).
 */
function jobTables(list) {
  const jobs = new Map();
  for (const c of sortComparisons(list)) {
    if (!jobs.has(jobName(c))) jobs.set(jobName(c), []);
    jobs.get(jobName(c)).push(c);
  }
  const quiet = (cs) => cs.every((c) => c.verdict === 'no change' || c.verdict === 'inconclusive');
  const shown = [...jobs].sort(([, a], [, b]) => quiet(a) - quiet(b));
  let explained = false;
  return shown.map(([name, cs]) => {
    let rounds = '';
    if (cs[0].method === 'paired') {
      rounds = ` · ${cs[0].head.n} rounds${cs[0].duet ? ' as duets' : ''}`;
      if (cs[0].duet && !explained) rounds += ` (${DUET_NOTE})`;
      explained ||= cs[0].duet;
    }
    // `min effect`: the margin a verdict is judged against (a regression at least that large, no change inside ±it)
    const text = `**${mdEscape(name)}**${rounds}\n\n${mdTable(['metric', 'base', 'head', 'change', 'interval', 'min effect', 'verdict'], cs.map((c) => [mdEscape(metricName(c)), formatValue(c.base.value, c.unit), formatValue(c.head.value, c.unit), formatChange(c), formatInterval(c), formatMargin(c.minEffect), verdictMark(c.verdict)]), ['left', 'right', 'right', 'right', 'right', 'right', 'left'])}`;
    return { text, quiet: quiet(cs) };
  });
}

/** The information-only metrics (and those below a tool's resolution) folded in one table with why there is no verdict. */
export function infoDetails(rows) {
  return `<details><summary>${plural(rows.length, 'metric')} shown as information (no verdict)</summary>\n\n${mdTable(['benchmark', 'metric', 'base', 'head', 'change', 'why no verdict'], rows.map((c) => [mdEscape(jobName(c)), mdEscape(metricName(c)), formatValue(c.base.value, c.unit), formatValue(c.head.value, c.unit), formatChange(c), mdEscape(c.reason, { max: 120 })]), ['left', 'left', 'right', 'right', 'right', 'left'])}\n\n</details>`;
}

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
  // the log's last line says why (a reason such as "exited before it was healthy. Last lines of <log>:" ends where it starts)
  const lines = shown.map((f) => {
    const last = tellingLine(f.logTail);
    const reason = String(f.reason ?? '');
    return `- ${mdEscape(f.id)} ${mdEscape(f.status)}: ${mdEscape(reason, { max: 300 })}${last ? `${reason.trimEnd().endsWith(':') ? '' : '; last log line:'} ${mdEscape(last, { max: 200 })}` : ''}`;
  });
  if (failures.length > shown.length) lines.push(`- and ${plural(failures.length - shown.length, 'more job')}`);
  return `#### ❗ ${plural(failures.length, 'job')} did not produce results\n\n${lines.join('\n')}`;
}

/** Links to the workflow run and the trend site, when known. */
function linksLine({ runUrl, site }) {
  const parts = [];
  if (runUrl) parts.push(`[workflow run](${runUrl})`);
  if (site) parts.push(`[trend site](${site})`);
  return parts.length ? parts.join(' · ') : '';
}

/**
 * A --base run without comparisons, in words: { title, text } when the base has none of the measured subjects (a pull
 * request that adds a suite) or no job measured both sides (a base that did not build, a side that failed), else null.
 * The comment and the job summary head with it, so neither reads as a run without a base.
 */
export function uncomparedBase({ run, docs = [], comparisons, failures = [] }) {
  if (comparisons || !run?.base) return null;
  const ref = mdEscape(run.base.ref || run.base.commit || 'base');
  const headOnly = headOnlyJobs(run);
  if (headOnly.length) {
    return {
      title: `${failures.length ? '❗ ' : ''}measured ${plural(docs.length, 'benchmark')} on head only: the base (${ref}) has none of them`,
      text: `New subjects have nothing to compare with yet: ${headOnly.map((j) => `${mdEscape(j.id)} (${mdEscape(j.why)})`).join(', ')}. Their verdicts start with the first pull request after this one lands.`,
    };
  }
  return { title: `❗ nothing compared: no job measured both the base (${ref}) and head`, text: 'The jobs below say which side failed and why.' };
}

/**
 * The PR comment markdown, decision first: the regressions and improvements with change and interval, one line
 * of counts, links, then a short table per job with its judged metrics; inconclusive reasons and information-only
 * metrics inside <details>. `comparisons` is compare()'s result; without one (no base measured) the comment says
 * so. The body always fits `limit` characters: detail sections go first, then job tables, counted in a note.
 */
export function render({ run, docs = [], comparisons, failures = [], config, limit = GITHUB_LIMIT, runUrl, site, failOnRegression = config?.compare?.failOnRegression }) {
  const all = comparisonList(comparisons);
  const list = judgedOnly(all).filter((c) => GROUPS.includes(c.verdict));
  const info = { count: all.length - list.length, below: all.filter((c) => c.verdict === 'below resolution').length };
  const counts = countVerdicts(list);
  const failText = failuresSection(failures);
  const foot = footer({ run, docs });
  const links = linksLine({ runUrl, site });
  const parts = [MARKER];
  const tail = [];
  let findings = [];
  let leaning = [];
  const headOnly = headOnlyJobs(run);
  const uncompared = uncomparedBase({ run, docs, comparisons, failures });
  if (uncompared) {
    parts.push(`### benchline: ${uncompared.title}`, uncompared.text);
  } else if (!comparisons) {
    parts.push(`### benchline: ${failures.length ? '❗ ' : ''}measured ${plural(docs.length, 'benchmark')}, no base to compare against`, 'Run with `--base <ref>` (as the pull-request workflow does) to get verdicts.');
  } else if (!all.length) {
    parts.push(`### benchline: nothing to compare${failures.length ? ` (${plural(failures.length, 'job')} failed)` : ''}`, 'No metric was measured on both base and head.');
  } else {
    parts.push(`### benchline: ${headline(counts, { failed: failures.length })}`);
    const groups = groupByVerdict(list);
    findings = [...groups.regression, ...groups.improvement].map((c) => findingLine(c, site));
    parts.push(FINDINGS, countsLine(counts, comparisons, info));
    leaning = worseUndecided(list);
    if (leaning.length) parts.push(LEANING);
    if (counts.regression && failOnRegression) parts.push(`The pull request's bench check fails on ${counts.regression === 1 ? 'this regression' : 'these regressions'} (\`compare.failOnRegression\` in bench.config.yaml; a local \`bench\` exits non-zero only with \`--fail-on-regression\`).`);
  }
  if (comparisons && headOnly.length) parts.push(`Measured on head only (the base has no such subject): ${headOnly.map((j) => mdEscape(j.id)).join(', ')}.`);
  const disagreeing = (comparisons?.unmatched || []).filter((u) => u.disagrees);
  // a judged metric on one side only gets no verdict: named, since its job's verdicts are then incomplete
  const lostJudged = (comparisons?.unmatched || []).filter((u) => u.judged && !u.disagrees);
  const unmatched = (comparisons?.unmatched?.length || 0) - disagreeing.length - lostJudged.length;
  if (lostJudged.length) parts.push(`⚠️ No verdict for ${plural(lostJudged.length, 'judged metric')} measured on one side only (the notes of its result documents say why, e.g. a metric missing from some trials): ${lostJudged.map((u) => mdEscape(`${jobName(u)} ${u.case ? `${u.case}::` : ''}${u.metric} (${u.side} only)`)).join(', ')}.`);
  if (unmatched) parts.push(`${plural(unmatched, 'benchmark or metric', 'benchmarks or metrics')} measured on one side only (new, removed, or left out of one side's document) ${unmatched === 1 ? 'is' : 'are'} not compared.`);
  if (disagreeing.length) parts.push(`⚠️ Not compared, because base and head disagree on the unit or on which way is better (measure both with the same benchline version): ${disagreeing.map((u) => mdEscape(`${jobName(u)} ${u.case ? `${u.case}::` : ''}${u.metric}`)).join(', ')}.`);
  // a job run with other params on each side (two runs of different configs) is inconclusive, never judged: said above the fold
  const otherParams = [...new Set(all.filter((c) => c.paramsDiffer).map(jobName))];
  if (otherParams.length) parts.push(`⚠️ Not judged, because base and head ran ${otherParams.length === 1 ? 'this job' : 'these jobs'} with different params (compare runs of one configuration): ${otherParams.map((n) => mdEscape(n)).join(', ')}.`);
  if (links) parts.push(links);
  // only jobs with a verdict the tool's ceiling could hide (compare.js marks those `capped`): a judged metric zero on every
  // trial of both sides has none, so the orders-api ab jobs against the cache, which judge only their errors, are not named
  const saturated = bottleneckDocs(docs).filter((x) => !comparisons || list.some((c) => jobName(c) === x.name && c.capped));
  if (saturated.length) parts.push(`⚠️ ${BOTTLENECK[0].toUpperCase()}${BOTTLENECK.slice(1)} in ${saturated.map((x) => `${mdEscape(x.name)} (${mdEscape(x.why)})`).join(', ')}: those verdicts describe the tool, not the subject.`);
  if (failText) parts.push(failText);
  // Jobs without a regression or improvement fold into one section, so the fold shows the decisions first.
  const jobs = jobTables(list);
  const tables = jobs.filter((j) => !j.quiet).map((j) => j.text);
  const quiet = jobs.filter((j) => j.quiet).map((j) => j.text);
  const inconclusive = list.filter((c) => c.verdict === 'inconclusive');
  const details = [];
  if (quiet.length) details.push(`<details><summary>${plural(quiet.length, 'job')} without a regression or improvement: their tables</summary>\n\n${quiet.join('\n\n')}\n\n</details>`);
  if (inconclusive.length) details.push(`<details><summary>${plural(inconclusive.length, 'inconclusive metric')}: why, and what would settle ${inconclusive.length === 1 ? 'it' : 'them'}</summary>\n\n${inconclusive.map((c) => `- ${mdEscape(jobName(c))} · ${mdEscape(metricName(c))}: ${mdEscape(c.reason, { max: 400 })}`).join('\n')}\n\n</details>`);
  const infoRows = all.filter((c) => !list.includes(c));
  if (infoRows.length) details.push(infoDetails(infoRows));
  // what a marked change means, kept with the footer whatever the size limit drops
  if (all.some((c) => c.otherSlope)) tail.push(`<sub>${ADJUSTED_NOTE}.</sub>`);
  if (all.some(opposesMedians)) tail.push(`<sub>${PAIRED_NOTE}.</sub>`);
  if (foot) tail.push(foot);
  // Findings are one part so that the size limit can cut them last; an empty list leaves no blank part.
  // the undecided lines go with the detail sections when the size limit cuts those (they summarize the inconclusive one)
  const leanText = `Undecided, but worse by ${leaning.length === 1 ? 'its estimate' : 'their estimates'} by at least the margin (not counted as ${leaning.length === 1 ? 'a regression' : 'regressions'}: the rounds could not rule out chance; the inconclusive section says what would settle ${leaning.length === 1 ? 'it' : 'them'}):\n${leaning.map((c) => findingLine(c, site)).join('\n')}`;
  const part = (p, shown, d) => (p === FINDINGS ? (shown.length ? [shown.join('\n')] : []) : p === LEANING ? (d.length ? [leanText] : []) : [p]);
  const build = (t, d, note, shown = findings) => `${[...parts.flatMap((p) => part(p, shown, d)), ...t, ...d, ...(note ? [note] : []), ...tail].join('\n\n')}\n`;
  let body = build(tables, details);
  if (body.length <= limit) return body;
  // Too long: drop the detail sections, then job tables from the end (the least notable jobs), then findings from
  // the end (improvements before regressions), and say so. The length grows with what is kept: search for the most.
  const leftOut = (keep, cut) => {
    const what = [details.length ? `${leaning.length ? 'the undecided lines, ' : ''}the folded job tables, the inconclusive and information sections` : '', tables.length - keep ? plural(tables.length - keep, 'job table') : '', cut ? `the last ${plural(cut, 'finding')}` : ''].filter(Boolean);
    return `_Left out to fit GitHub's comment size limit: ${what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1)}` : what[0]}. The job summary and the results artifact have every row._`;
  };
  // The largest k in 0..n for which fits(k), or -1.
  const most = (n, fits) => {
    let lo = -1;
    let hi = n;
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2);
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const withTables = (keep) => build(tables.slice(0, keep), [], leftOut(keep, 0));
  const keepTables = most(tables.length, (k) => withTables(k).length <= limit);
  if (keepTables >= 0) return withTables(keepTables);
  const withFindings = (keep) => build([], [], leftOut(0, findings.length - keep), findings.slice(0, keep));
  const keepFindings = most(findings.length - 1, (k) => withFindings(k).length <= limit);
  body = withFindings(Math.max(0, keepFindings));
  return body.slice(0, limit);
}

// Lays the history model out as the site's data files: a small index, a run table, one file per series and per run; pure.
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';
import { formatValue } from '../units.js';
import { minEffectFor, RESTATED } from '../compare.js';
import { metricRank } from '../reports/format.js';
import { seriesChangePoints, TREND_ROLES } from './model.js';
import { DEFAULTS as CP_DEFAULTS, PValueMemo } from '../changepoints.js';
import { DATA_CALLBACK, INDEX_PATH, RUNS_PATH, archivePath, runPath, seriesPath } from './paths.js';

/**
 * A data file: a script that hands its payload to the page, so it loads from file:// as well as over HTTP. The payload
 * is given as JSON text (an archive month as stored is not parsed and serialized again) and goes out deflated (raw
 * deflate, base64) when that is smaller, which on a long history is about half the site: `(path, payload)` or
 * `(path, "<base64>", "deflate-raw")`. Level 1: a level-6 site is 11% smaller and takes 3.6 times the CPU to write.
 * deflate false: the payload goes out as JSON text whatever its size (a file every build rewrites: site.js).
 */
export async function dataScriptFromJson(path, json, deflate = true) {
  const text = json.trim();
  if (!deflate) return `${DATA_CALLBACK}(${JSON.stringify(path)},${text});\n`;
  // in zlib's thread pool: a build lays out the next files on its own thread meanwhile
  const packed = (await deflateRawAsync(text, { level: 1 })).toString('base64');
  const args = packed.length + 15 < text.length ? `"${packed}","deflate-raw"` : text;
  return `${DATA_CALLBACK}(${JSON.stringify(path)},${args});\n`;
}

const deflateRawAsync = promisify(deflateRaw);

/** A data file read back in Node: { path, payload }, the payload inflated when it was deflated; null for any other text. */
export function readDataScript(text) {
  const prefix = `${DATA_CALLBACK}(`;
  if (!text.startsWith(prefix) || !text.endsWith(');\n')) return null;
  const [path, payload, encoding] = JSON.parse(`[${text.slice(prefix.length, -3)}]`);
  if (encoding === undefined) return { path, payload };
  if (encoding !== 'deflate-raw') return null;
  return { path, payload: JSON.parse(inflateRawSync(Buffer.from(payload, 'base64')).toString('utf8')) };
}

/** A new level must hold for this many points (runs or commits) to count as a step: outliers and short dips are not change points. */
export const MIN_SEGMENT = 5;

/** Chart id: one trend chart per suite, tool, scenario and metric, with every variant as a line. */
const chartId = (key) => [key.suite, key.tool, key.scenario, key.metric].join('/');

const runRef = (r) => ({ id: r.id, commit: r.commit, startedAt: r.startedAt, path: runPath(r) });

// characters XML 1.0 does not allow (controls but tab and line breaks, lone surrogates, U+FFFE/U+FFFF) become U+FFFD:
// a failure reason holding a terminal's colour codes must not make the whole feed unreadable
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeXml = (s) => String(s).replace(NOT_XML, '\ufffd').replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c]));

/** Feed links: under the site's base path when one is set, else relative to the feed (which sits beside index.html). */
const siteLink = (basePath, hash) => (!basePath || basePath === './' || basePath === '.' ? `index.html${hash}` : `${basePath.replace(/\/?$/, '/')}${hash}`);

function commitUrl(repoUrl, commit) {
  return repoUrl && commit ? `${repoUrl.replace(/\/$/, '')}/commit/${commit}` : null;
}

/** The minEffect table of the configured job a series belongs to (suite, tool, scenario, and its variants), if any. */
function ownMinEffect(config, key) {
  const jobs = config?.suites?.[key.suite]?.jobs || [];
  return jobs.find((j) => j.tool === key.tool && j.scenario === key.scenario && (!j.variants || j.variants.includes(key.variant)))?.minEffect;
}

/**
 * Everything the site needs besides its code. Returns
 * { index, runsTable, seriesFiles: [{ path, payload }], runFiles: [{ path, payload }], archiveFiles, feed, splits }.
 * options: as siteLayout's. A build that keeps its last digest (snapshot.js) lays out a grown digest with siteLayout
 * instead, and writes the run files of its new runs only.
 */
export function siteData(model, options = {}) {
  return { ...siteLayout(digestOf(model), options), runFiles: runFilesOf(model.runs), archiveFiles: archiveFilesOf(model.archives) };
}

/** A run as the site's run table, run links and suite summaries read it: no jobs, its counts of ok and failed jobs. */
const runRow = (r) => ({ index: r.index, id: r.id, startedAt: r.startedAt, t: r.t, commit: r.commit, ref: r.ref, role: r.role, archived: r.archived, ok: r.jobs.filter((j) => j.status === 'ok').length, failed: r.jobs.filter((j) => j.status !== 'ok').length, runner: r.runner?.name || '' });

/**
 * What the site's layout reads of a model (buildModel), small enough to keep between builds: { runs (runRow each),
 * suites: { order (suite names as first met in the runs), latest: Map(suite -> { run, jobs: [{ id, status, reason }] })
 * (its newest run's jobs other than base), newest: Map(suite -> Map(job id -> { run, job })) (the newest ok
 * measurement of each trend job) }, series }. Pure.
 */
export function digestOf(model) {
  return absorbRuns({ runs: [], suites: { order: [], latest: new Map(), newest: new Map() }, series: model.series }, model.runs);
}

/**
 * The digest with more runs (model runs, indexed after its own), as digestOf gives for all of them: the order in which
 * runs are absorbed is the order the layout reads them in. Changes and returns `digest`.
 */
export function absorbRuns(digest, runs) {
  const { order, latest, newest } = digest.suites;
  const known = new Set(order);
  for (const r of runs) {
    digest.runs.push(runRow(r));
    const mine = new Map();
    for (const j of r.jobs) {
      if (!known.has(j.suite)) {
        known.add(j.suite);
        order.push(j.suite);
      }
      if (!mine.has(j.suite)) mine.set(j.suite, []);
      if (j.role !== 'base') mine.get(j.suite).push({ id: j.id, status: j.status, reason: j.reason });
      if (j.status !== 'ok' || !TREND_ROLES.includes(j.role)) continue;
      if (!newest.has(j.suite)) newest.set(j.suite, new Map());
      newest.get(j.suite).set(j.id, { run: r.index, job: j });
    }
    for (const [suite, jobs] of mine) latest.set(suite, { run: r.index, jobs });
  }
  return digest;
}

/**
 * The page of each run with documents; archived runs are read from their month's archive, which the page expands.
 * A run's file holds nothing of its place in the run list (the page has that from the run table), so a run published
 * late for an earlier time changes no other run's file.
 */
export const runFilesOf = (runs) => runs.filter((r) => !r.archived).map((r) => {
  const { t, index, ...rest } = r;
  return { path: runPath(r), payload: { ...rest, path: runPath(r) } };
});

const archiveFilesOf = (archives = []) => archives.map((a) => ({ path: archivePath(a.month), payload: a }));

/**
 * The site's index, run table, series files and feed from a digest (digestOf). Returns
 * { index, runsTable, seriesFiles: [{ path, payload }], feed, splits, pvalues }.
 * options: { config, repoUrl, basePath, problems, policy, generatedAt, recentRuns, changeOptions, reports, columns, splits, pvalues }.
 * splits: { [series id]: saved split } from the last build's `splits` (what its change point search saw of each
 * series): a series that only gained points is searched again from its last windows. The result is the same.
 * pvalues: the last build's `pvalues` (changepoints.js PValueMemo triples: the p-values its merge steps worked out),
 * taken instead of working them out again. The result is the same.
 * reports: { [suite]: { path, run } | { error } }, the suites' report pages (suite-pages.js).
 * columns: { [suite]: sideBySide }, the suites' report modules' hooks that place a measurement in the variant view.
 * changeOptions: { window, maxPValue, minMagnitude, minSegment } for change points (otava's defaults, except
 * minMagnitude: the metric's minEffect (its job's own, else compare.metrics / compare.minEffect), minSegment: MIN_SEGMENT, and recheck: true).
 * A series' points may hold `lo`, `hi` and `n` only from point `from` on (snapshot.js: the points before it lie in part
 * files a build keeps); `run` and `v` always hold every point.
 */
export function siteLayout(digest, options = {}) {
  const { config, repoUrl = null, basePath = './', problems = [], policy = null, generatedAt = new Date().toISOString(), recentRuns = 50, changeOptions = {}, reports = {}, columns = {} } = options;
  const { runs, series } = digest;
  // each series' split windows, as the last build left them and as this one leaves them (changepoints.js)
  const splits = options.splits || {};
  const nextSplits = {};
  // p-values the merge steps worked out, by the last build and by this one (changepoints.js PValueMemo)
  const pvalues = new PValueMemo(options.pvalues || null);
  const recentFrom = Math.max(0, runs.length - recentRuns);

  const seriesFiles = [];
  const charts = new Map();
  const allChanges = [];
  for (const s of series) {
    // otava alone marks many 1% wobbles on long noisy series; a step must also be as large as the
    // smallest change the project cares about for this metric (the job's minEffect, compare.metrics, compare.minEffect)
    const minMagnitude = changeOptions.minMagnitude ?? minEffectFor(s.name, config?.compare || {}, ownMinEffect(config, s.key));
    const changes = seriesChangePoints(s, runs, { minSegment: MIN_SEGMENT, recheck: true, ...changeOptions, minMagnitude, pvalues }, splits[s.id], (saved) => { if (saved) nextSplits[s.id] = saved; });
    const path = seriesPath(s.key);
    const cid = chartId(s.key);
    seriesFiles.push({ path, payload: { id: s.id, chart: cid, key: s.key, name: s.name, ...(s.case ? { case: s.case } : {}), unit: s.unit, better: s.better, ...(s.otherUnits ? { otherUnits: s.otherUnits } : {}), ...s.points, changes } });
    if (!charts.has(cid)) {
      charts.set(cid, { id: cid, suite: s.key.suite, tool: s.key.tool, scenario: s.key.scenario, metric: s.key.metric, name: s.name, ...(s.case ? { case: s.case } : {}), unit: s.unit, better: s.better, series: [] });
    }
    const n = s.points.v.length;
    const lastRun = runs[s.points.run[n - 1]];
    const tail = n - 1 - (s.points.from || 0);
    charts.get(cid).series.push({
      variant: s.key.variant, id: s.id, path, points: n,
      last: { run: runRef(lastRun), v: s.points.v[n - 1], lo: s.points.lo[tail], hi: s.points.hi[tail] },
      changes: changes.length,
    });
    for (const c of changes) {
      allChanges.push({ chart: cid, series: s.id, variant: s.key.variant, suite: s.key.suite, name: s.name, ...(s.case ? { case: s.case } : {}), unit: s.unit, better: s.better, run: runRef(runs[c.run]), runIndex: c.run, before: c.before, after: c.after, change: c.change, pvalue: c.pvalue, kind: c.kind });
    }
  }
  allChanges.sort((a, b) => b.runIndex - a.runIndex || (a.series < b.series ? -1 : 1));

  // suites: their latest status, the newest measurement of every job (the seeds' variant tables), recent steps
  const { order, latest: latestOf, newest: newestOf } = digest.suites;
  const suiteNames = [...new Set([...Object.keys(config?.suites || {}), ...order])].filter((name) => latestOf.has(name));
  const suites = suiteNames.map((name) => {
    const cfg = config?.suites?.[name] || {};
    const { run: latestIndex, jobs } = latestOf.get(name);
    const latest = runs[latestIndex];
    const status = { ok: 0, failed: 0, skipped: 0 };
    for (const j of jobs) status[j.status] += 1;
    const failures = jobs.filter((j) => j.status !== 'ok').map((j) => ({ job: j.id, status: j.status, reason: j.reason }));
    const newest = [...(newestOf.get(name) || new Map()).values()].map(({ run, job }) => ({ run: runs[run], job }));
    const table = variantTable(name, newest, Object.keys(cfg.variants || {}), columns[name]);
    const changes = allChanges.filter((c) => c.suite === name);
    return {
      name,
      description: cfg.description || '',
      report: cfg.report || null,
      ...(reports[name] ? { page: reports[name] } : {}),
      latest: { ...runRef(latest), ref: latest.ref, role: latest.role },
      status,
      failures,
      charts: [...charts.values()].filter((c) => c.suite === name).map((c) => c.id),
      changes: changes.slice(0, 20),
      regressions: changes.filter((c) => c.kind === 'regression' && c.runIndex >= recentFrom).slice(0, 20),
      table,
    };
  });

  const runsTable = { id: [], t: [], commit: [], ref: [], role: [], archived: [], ok: [], failed: [], runner: [] };
  for (const r of runs) {
    runsTable.id.push(r.id);
    runsTable.t.push(r.t);
    runsTable.commit.push(r.commit);
    runsTable.ref.push(r.ref);
    runsTable.role.push(r.role);
    runsTable.archived.push(r.archived ? 1 : 0);
    runsTable.ok.push(r.ok);
    runsTable.failed.push(r.failed);
    runsTable.runner.push(r.runner);
  }

  const latestRun = runs[runs.length - 1];
  const index = {
    schema: 'benchline/site-index@1',
    generatedAt,
    title: options.title || 'benchline history',
    repoUrl,
    basePath,
    policy,
    compare: config?.compare || null,
    // the rule change points were found with, for the overview's explanation
    changeRule: { minSegment: changeOptions.minSegment ?? MIN_SEGMENT, maxPValue: changeOptions.maxPValue ?? CP_DEFAULTS.maxPValue },
    // how far back a suite's "recent regressions" reach, for the overview to say
    recentRuns,
    counts: { runs: runs.length, series: series.length, points: series.reduce((s, x) => s + x.points.v.length, 0), charts: charts.size },
    latest: latestRun ? { ...runRef(latestRun), ref: latestRun.ref } : null,
    problems: problems.map((p) => ({ path: p.path, message: p.message })),
    suites,
    charts: [...charts.values()],
    changes: allChanges.slice(0, 100),
    paths: { index: INDEX_PATH, runs: RUNS_PATH },
  };

  const feed = atomFeed({ index, changes: allChanges.slice(0, 50), suites, basePath, repoUrl, generatedAt });
  return { index, runsTable, seriesFiles, feed, splits: nextSplits, pvalues: pvalues.triples() };
}

/**
 * A suite's variant view: one column per compared implementation, one row per tool, scenario and metric, holding the
 * newest measurement of every job. Columns are the variants, unless the suite's report module says otherwise with
 * sideBySide({ variant, tool, scenario, case, name }) -> { column, case, rank, caseRank } | undefined (rank orders
 * the columns, caseRank the rows of one metric): serialization measures
 * every codec in one variant, its cases (sbeSerialize, protobufSerialize ...) name the codec, and the hook turns
 * them into codec columns and a Serialize row. Metrics that restate a run's parameters (compare.js RESTATED:
 * duration, requests, bytes received ...) are not ranked: no column is best at them, as no PR is judged on them.
 * newest: [{ run, job }]; variantOrder: the config's order.
 * Returns { variants (column names, in order), rows: [{ tool, scenario, metric, name, case, unit, better, ranked, chart, cells }] }.
 */
export function variantTable(suite, newest, variantOrder = [], sideBySide) {
  const rows = new Map();
  const columns = new Map(); // name -> [rank, first seen]
  for (const { run, job } of newest) {
    for (const m of job.metrics) {
      const metric = m.case ? `${m.case}::${m.name}` : m.name;
      const placed = sideBySide?.({ variant: job.variant, tool: job.tool, scenario: job.scenario, case: m.case, name: m.name });
      const column = placed?.column ?? job.variant;
      const rowCase = placed ? placed.case : m.case;
      const rank = placed?.rank ?? (variantOrder.includes(job.variant) ? variantOrder.indexOf(job.variant) : variantOrder.length);
      if (!columns.has(column)) columns.set(column, [rank, columns.size]);
      const rowMetric = rowCase ? `${rowCase}::${m.name}` : m.name;
      const rk = `${job.tool}/${job.scenario}/${rowMetric}`;
      const chart = chartId({ suite, tool: job.tool, scenario: job.scenario, metric });
      if (!rows.has(rk)) {
        rows.set(rk, { tool: job.tool, scenario: job.scenario, metric: rowMetric, name: m.name, ...(rowCase ? { case: rowCase } : {}), unit: m.unit, better: m.better, ranked: !RESTATED.includes(m.name), chart, cells: {}, caseRank: placed?.caseRank });
      }
      const row = rows.get(rk);
      // pivoted rows gather cells of different series: each cell then links its own trend chart
      row.cells[column] = { v: m.value, ...(m.lower !== undefined ? { lo: m.lower } : {}), ...(m.upper !== undefined ? { hi: m.upper } : {}), run: runRef(run), ...(placed ? { chart } : {}) };
    }
  }
  const variants = [...columns.entries()].sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1]).map(([c]) => c);
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...rows.values()].sort((a, b) => {
    const [fa, na, sa] = rowOrder(a.name);
    const [fb, nb, sb] = rowOrder(b.name);
    return cmp(a.tool, b.tool) || cmp(a.scenario, b.scenario) || fa - fb || cmp(na, nb) || sa - sb || (a.caseRank ?? 0) - (b.caseRank ?? 0) || cmp(a.metric, b.metric);
  });
  for (const r of sorted) delete r.caseRank;
  return { variants, rows: sorted };
}

const STAT_RANK = { mean: 0, avg: 0, median: 1.5, min: 3, max: 4, stdev: 5 };
const UNKNOWN = metricRank('\u0000');

/**
 * Sort key of a metric row: [family rank, family, statistic rank]. A family's statistics stay together and read
 * from typical to extreme (mean, p50, p90, p99, p99.9, min, max), also for families the registry does not know
 * (k6's latency_deep.*, JMH's time.p99.99).
 */
function rowOrder(name) {
  const m = /^(.+)\.(mean|avg|median|min|max|stdev|p(\d+(?:\.\d+)?))$/.exec(name);
  if (!m) return [metricRank(name), metricRank(name) < UNKNOWN ? '' : name, 0];
  const family = m[1];
  const known = Math.min(metricRank(`${family}.mean`), metricRank(`${family}.p50`), metricRank(`${family}.avg`));
  return [known, known < UNKNOWN ? '' : family, m[3] !== undefined ? 1 + Number(m[3]) / 100 : STAT_RANK[m[2]]];
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
/** A change point's p-value as the trend page gives it: 0 is a p too small for a double (≈ 0), not a p of zero. */
const pText = (p) => (p > 0 ? `p=${p.toPrecision(2)}` : p === 0 ? 'p ≈ 0' : 'no p');
/** A part of an Atom id (a URN, which must be an IRI): a space, #, ? or % percent-encoded; ':' and '/' kept. */
const urnPart = (s) => encodeURIComponent(s).replace(/%2F/gi, '/').replace(/%3A/gi, ':');

/** Atom feed of change points and of suites whose latest run had failed jobs, newest first. */
export function atomFeed({ index, changes, suites, basePath, repoUrl, generatedAt }) {
  const entries = [];
  for (const c of changes) {
    const what = `${c.suite} ${c.variant} ${c.chart.split('/').slice(1).join(' ')}`;
    const commit = c.run.commit ? c.run.commit.slice(0, 12) : c.run.id;
    entries.push({
      id: `urn:benchline:change:${urnPart(c.series)}:${urnPart(c.run.id)}`,
      title: `${c.kind === 'regression' ? 'Regression' : 'Improvement'}: ${what} ${pct(c.change)} at ${commit}`,
      updated: c.run.startedAt,
      link: siteLink(basePath, `#/trend/${encodeURIComponent(c.chart)}`),
      summary: `${what}: ${formatValue(c.before, c.unit)} -> ${formatValue(c.after, c.unit)} (${pct(c.change)}, ${pText(c.pvalue)}) from run ${c.run.id}${commitUrl(repoUrl, c.run.commit) ? ` (${commitUrl(repoUrl, c.run.commit)})` : ''}`,
    });
  }
  for (const s of suites) {
    // a skipped job (a variant that needs root, say) is skipped in every run: announcing it each run would be noise
    const failed = s.failures.filter((f) => f.status !== 'skipped');
    if (!failed.length) continue;
    entries.push({
      id: `urn:benchline:failures:${urnPart(s.name)}:${urnPart(s.latest.id)}`,
      title: `Failed jobs: ${s.name} (${failed.length}) in run ${s.latest.id}`,
      updated: s.latest.startedAt,
      link: siteLink(basePath, `#/run/${encodeURIComponent(s.latest.id)}`),
      summary: failed.map((f) => `${f.job}: ${f.reason}`).join('\n'),
    });
  }
  entries.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  const updated = entries[0]?.updated || generatedAt;
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${escapeXml(index.title)}: change points</title>
  <id>urn:benchline:feed:${escapeXml(urnPart(index.title))}</id>
  <author><name>${escapeXml(index.title)}</name></author>
  <updated>${escapeXml(new Date(updated).toISOString())}</updated>
  <link rel="alternate" href="${escapeXml(siteLink(basePath, ''))}"/>
  <generator>benchline</generator>
${entries.map((e) => `  <entry>
    <id>${escapeXml(e.id)}</id>
    <title>${escapeXml(e.title)}</title>
    <updated>${escapeXml(new Date(e.updated).toISOString())}</updated>
    <link rel="alternate" href="${escapeXml(e.link || './')}"/>
    <summary>${escapeXml(e.summary)}</summary>
  </entry>`).join('\n')}
</feed>
`;
}

// Suite renderer for gateways: seed 001's wrk report (comparison, round-robin spread, ranking) from our own runs.
import { bottleneck, BOTTLENECK, comparisonList, countVerdicts, formatInterval, formatSpread, formatValue, headAtConfidence, headline, jobReason, mdEscape, mdTable, pct, textTable, trialsTest, verdictMark } from '../../ci/reports/format.js';

/** A gateway's spread counts as even when no backend's share is further than this from 1/n, relative. */
const EVEN_TOLERANCE = 0.05;
const MEDALS = ['🏆', '🥈', '🥉'];
/** Two gateways' throughputs differ when the two-sided Mann-Whitney test over their trials gives p below this. */
export const ALPHA = 0.05;
/** What the suite measures in place of the seed's BunGate, said in every report. */
const BUN_STAND_IN = 'The Bun gateway (subjects/gateways/gateway.js, round robin on Bun.serve and fetch) stands in for BunGate: the BunGate library is not available from the npm registry here, so BunGate itself was not measured.';

// The wrk adapter keeps the Lua script's per-trial tallies as notes (result documents hold numbers
// only as metrics, whose names cannot carry a backend): "responses per backend (X-Backend): backend-1 123, ...".
const BACKEND_NOTE = /^(?:trial \d+: )?responses per backend \(X-Backend\): (.+)$/;
const STATUS_NOTE = /^(?:trial \d+: )?responses per HTTP status: (.+)$/;

const LABELS = { nginx: 'Nginx', haproxy: 'HAProxy', bun: 'Bun gateway', envoy: 'Envoy' };
/** The seed's ranking by requests/sec, first to last (its BunGate is our Bun gateway); HAProxy is not in the seed. */
export const SEED_ORDER = ['envoy', 'nginx', 'bun'];
const SEED_NAMES = { envoy: 'Envoy', nginx: 'Nginx', bun: 'BunGate' };
const metricOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case);
const sum = (xs) => xs.reduce((s, x) => s + x, 0);
const fixed = (v, d = 2) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const share = (x) => `${(x * 100).toFixed(2)}%`;

/** "a 1, b 2" -> { a: 1, b: 2 }; entries that do not end in a count are ignored. */
function parseCounts(list) {
  const out = {};
  for (const part of list.split(', ')) {
    const m = /^(.+) (\d+)$/.exec(part.trim());
    if (m) out[m[1]] = (out[m[1]] || 0) + Number(m[2]);
  }
  return out;
}

/** Sums the per-trial count notes matching `re` over all trials of a document. */
function summedNotes(doc, re) {
  const total = {};
  let trials = 0;
  for (const note of doc.notes || []) {
    const m = re.exec(note);
    if (!m) continue;
    trials += 1;
    for (const [k, n] of Object.entries(parseCounts(m[1]))) total[k] = (total[k] || 0) + n;
  }
  return { counts: total, trials };
}

/** Backend names the suite expects (params.backends, a list or "a,b,c"), so a silent backend shows as 0 %. */
const expectedBackends = (params = {}) => (Array.isArray(params.backends) ? params.backends : String(params.backends ?? '').split(','))
  .map((s) => String(s).trim()).filter(Boolean);

/**
 * The round-robin spread of one result document: responses per backend summed over trials, each
 * backend's share, and the largest deviation from an even split relative to the even share.
 */
export function distribution(doc, { tolerance = EVEN_TOLERANCE } = {}) {
  const { counts, trials } = summedNotes(doc, BACKEND_NOTE);
  const expected = expectedBackends(doc.params);
  const names = [...new Set([...expected, ...Object.keys(counts).sort()])];
  if (!trials || !names.length) return { names: [], counts: {}, shares: {}, total: 0, trials, missing: [], maxDeviation: undefined, even: undefined };
  const total = sum(names.map((n) => counts[n] || 0));
  const fair = 1 / names.length;
  const shares = Object.fromEntries(names.map((n) => [n, total ? (counts[n] || 0) / total : 0]));
  const maxDeviation = Math.max(...names.map((n) => Math.abs(shares[n] - fair) / fair));
  const missing = names.filter((n) => !counts[n]);
  return {
    names,
    counts: Object.fromEntries(names.map((n) => [n, counts[n] || 0])),
    shares,
    total,
    trials,
    missing,
    maxDeviation,
    even: missing.length === 0 && maxDeviation <= tolerance,
  };
}

/** One gateway's figures from its wrk result document (medians over trials; errors summed over trials). */
function gatewayFigures(doc) {
  const tp = metricOf(doc, 'throughput');
  const errors = metricOf(doc, 'errors');
  const requests = metricOf(doc, 'requests');
  const statuses = summedNotes(doc, STATUS_NOTE).counts;
  const failedStatuses = Object.fromEntries(Object.entries(statuses).filter(([s]) => !/^[23]\d\d$/.test(s)).sort(([a], [b]) => a.localeCompare(b)));
  const errorsTotal = errors ? sum(errors.samples) : undefined;
  const requestsTotal = requests ? sum(requests.samples) : undefined;
  return {
    throughput: tp?.value,
    throughputMetric: tp,
    mean: metricOf(doc, 'latency.mean')?.value,
    p99: metricOf(doc, 'latency.p99')?.value,
    errors: errorsTotal,
    errorRate: errorsTotal !== undefined && requestsTotal ? errorsTotal / requestsTotal : undefined,
    failedStatuses,
    trials: doc.trials,
    distribution: distribution(doc),
    artifacts: (doc.artifacts || []).filter((a) => a.kind === 'raw').map((a) => a.path),
  };
}

/** Why a gateway has no document: the run's job entry (skipped or failed), else the config's `skip:`. */
function missingReason(run, suite, variant, variantConfig) {
  const jobs = (run?.jobs || []).filter((j) => j.suite === suite && j.variant === variant && j.status !== 'ok');
  const job = jobs.find((j) => j.tool === 'wrk') || jobs[0];
  if (job) return { status: job.status, reason: jobReason(job) };
  if (variantConfig?.skip) return { status: 'skipped', reason: variantConfig.skip };
  // a run that has jobs but none of this gateway left it out (--variant, --job): nothing went missing
  if (Array.isArray(run?.jobs) && run.jobs.some((j) => j.suite === suite) && !run.jobs.some((j) => j.suite === suite && j.variant === variant)) {
    return { status: 'not selected', reason: 'this run did not include it (--variant or --job)' };
  }
  return { status: 'missing', reason: 'no result document in this run' };
}

/**
 * Everything both renderers show, computed once. Gateways are the suite's variants in config order;
 * each is measured (a wrk document), skipped (native: false) or failed, with the runner's reason.
 */
export function model({ suite = 'gateways', docs = [], comparisons, run, config } = {}) {
  const suiteConfig = config?.suites?.[suite] || {};
  const own = docs.filter((d) => d.suite === suite && d.tool?.name === 'wrk');
  const byVariant = {};
  for (const d of own) if (!byVariant[d.variant] || d.scenario === 'round-robin') byVariant[d.variant] = d;
  const variantsConfig = suiteConfig.variants || {};
  const fromRun = (run?.jobs || []).filter((j) => j.suite === suite).map((j) => j.variant);
  const order = [...new Set([...Object.keys(variantsConfig), ...fromRun, ...own.map((d) => d.variant)])];
  const gateways = order.map((variant) => {
    const label = variantsConfig[variant]?.description || LABELS[variant] || variant;
    const doc = byVariant[variant];
    if (doc) return { variant, label, status: 'measured', doc, ...gatewayFigures(doc) };
    return { variant, label, ...missingReason(run, suite, variant, variantsConfig[variant]) };
  });
  const measured = gateways.filter((g) => g.status === 'measured');
  // A gateway that answered with errors is not ranked: fast 502s must not win a throughput race.
  const clean = measured.filter((g) => !g.errors && g.throughput !== undefined).sort((a, b) => b.throughput - a.throughput);
  const alpha = config?.compare?.alpha ?? ALPHA;
  const tiers = rankTiers(clean, { alpha });
  const ranking = [
    ...tiers.flatMap((tier, t) => tier.members.map((g) => ({ ...g, rank: t + 1, medal: MEDALS[t], tied: tier.members.length > 1 }))),
    ...measured.filter((g) => g.errors).map((g) => ({ ...g, rank: undefined })),
  ];
  // A saturated wrk measured itself: no gateway is ranked on its figures.
  const saturated = measured.filter((g) => bottleneck(g.doc)).map((g) => ({ label: g.label, why: bottleneck(g.doc) }));
  const sample = measured[0]?.doc;
  const job = (suiteConfig.jobs || []).find((j) => j.tool === 'wrk');
  const shown = ['throughput', 'latency.mean', 'latency.p99', 'errors'];
  const mine = comparisonList(comparisons).filter((c) => c.suite === suite && shown.includes(c.metric) && !c.case)
    .sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant) || shown.indexOf(a.metric) - shown.indexOf(b.metric));
  return {
    suite,
    description: suiteConfig.description,
    gateways,
    measured,
    ranking,
    tiers,
    alpha,
    saturated,
    standIn: gateways.some((g) => g.variant === 'bun'),
    setup: sample && {
      version: sample.tool.version,
      threads: sample.params?.threads,
      connections: sample.params?.connections,
      duration: sample.params?.duration,
      trials: Math.max(...measured.map((g) => g.trials)),
      warmup: job?.warmup?.duration,
      backends: expectedBackends(sample.params),
    },
    comparisons: mine,
  };
}

/** Two-sided Mann-Whitney over two gateways' per-trial throughputs: { p, untestable } (too few trials for any p below alpha). */
function throughputTest(a, b, alpha) {
  const { p, untestable } = trialsTest(a.throughputMetric?.samples || [], b.throughputMetric?.samples || [], alpha);
  return { p, untestable };
}

/**
 * Gateways (sorted by median throughput, best first) grouped into tiers that the trials can tell apart: a gateway
 * starts a new tier only when its throughput is significantly lower than that of every gateway in the tier above
 * (two-sided Mann-Whitney over the per-trial throughputs, p < alpha); one it cannot be told apart from keeps it in
 * that tier, so no medal orders two gateways the trials cannot separate. With fewer than 3 trials a side, or too few
 * for any p below alpha (3 + 3 trials: 0.1), nothing is significant and everyone shares one tier.
 * Returns [{ members, p, ties, apart }]: p is the largest p against the tier above (undefined for the first); ties
 * say which member each joiner could not be told apart from; apart lists pairs inside the tier that do differ.
 */
export function rankTiers(sorted, { alpha = ALPHA } = {}) {
  const tiers = [];
  for (const g of sorted) {
    const tier = tiers[tiers.length - 1];
    if (!tier) {
      tiers.push({ members: [g], apart: [] });
      continue;
    }
    const tests = tier.members.map((m) => ({ m, ...throughputTest(m, g, alpha) }));
    const close = tests.filter((t) => t.untestable || !(t.p < alpha));
    if (close.length) {
      const nearest = close.find((t) => t.untestable) || close.reduce((a, b) => (b.p > a.p ? b : a));
      tier.ties = [...(tier.ties || []), { with: g.label, against: nearest.m.label, p: nearest.p, untestable: nearest.untestable }];
      for (const t of tests.filter((x) => !close.includes(x))) tier.apart.push({ ahead: t.m.label, behind: g.label, p: t.p });
      tier.members.push(g);
    } else {
      tiers.push({ members: [g], p: Math.max(...tests.map((t) => t.p)), apart: [] });
    }
  }
  return tiers;
}

// ---------------------------------------------------------------- rows shared by text and markdown

function comparisonRows(m) {
  return m.measured.map((g) => {
    const tp = g.throughputMetric;
    const statuses = Object.entries(g.failedStatuses).map(([s, n]) => `${s}×${n.toLocaleString('en-US')}`).join(' ');
    // The seed's error rate (0% in all its runs) beside the count, so a clean run says 0 (0.00%) as the seed does.
    const errs = g.errors === undefined ? '–' : `${g.errors.toLocaleString('en-US')}${g.errorRate !== undefined ? ` (${(g.errorRate * 100).toFixed(2)}%)` : ''}`;
    return [
      g.label,
      g.throughput === undefined ? '–' : fixed(g.throughput),
      tp ? formatSpread(tp) || '–' : '–',
      formatValue(g.mean, 'ns'),
      formatValue(g.p99, 'ns'),
      errs,
      statuses || (g.errors ? 'socket' : ''),
    ];
  });
}

export const COMPARISON_HEAD = ['Gateway', 'Requests/sec', '95% CI', 'Latency avg', 'Latency p99', 'Errors (all trials)', 'Failed responses'];
const comparisonHead = (m) => headAtConfidence(COMPARISON_HEAD, m.measured.map((g) => g.throughputMetric));

function distributionTable(m) {
  const names = [...new Set([...(m.setup?.backends || []), ...m.measured.flatMap((g) => g.distribution.names)])];
  const head = ['Gateway', ...names, 'Max deviation', 'Even split'];
  const rows = m.measured.map((g) => {
    const d = g.distribution;
    if (!d.names.length) return [g.label, ...names.map(() => '–'), '–', 'no per-backend counts'];
    const verdict = d.even ? '✓' : d.missing.length ? `✗ (${d.missing.join(', ')} got nothing)` : '✗';
    return [g.label, ...names.map((n) => (d.shares[n] === undefined ? '–' : `${share(d.shares[n])} (${d.counts[n].toLocaleString('en-US')})`)), share(d.maxDeviation), verdict];
  });
  return { head, rows };
}

const andList = (xs) => (xs.length < 3 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * The seed's ranking lines; `esc` escapes the one part that comes from the config (the label). A winner is named only
 * when the first tier has one gateway and another gateway was ranked; tied gateways share a medal and a line says why
 * they are tied.
 */
function rankingLines(m, esc = (s) => s) {
  if (m.saturated.length) {
    return [`No ranking: ${BOTTLENECK} (${m.saturated.map((x) => `${esc(x.label)}: ${x.why}`).join('; ')}), so these figures are wrk's ceiling, not the gateways'.`];
  }
  // a gateway ranked alone beat nobody: the others failed, were skipped, or lost their place to errors
  const alone = m.ranking.filter((g) => g.rank !== undefined).length === 1;
  const lines = m.ranking.map((g) => {
    const rps = `${g.throughput.toFixed(2)} RPS`;
    if (g.rank === undefined) return `✗ ${esc(g.label)}: ${rps} (not ranked: ${g.errors.toLocaleString('en-US')} errors)`;
    if (alone) return `${esc(g.label)}: ${rps} (the only gateway ranked, so no winner)`;
    const mark = g.medal || `${g.rank}.`;
    if (g.tied) return `${mark} ${esc(g.label)}: ${rps} (tied)`;
    return `${mark} ${esc(g.label)}: ${rps}${g.rank === 1 ? ' (Winner)' : ''}`;
  });
  for (const tier of m.tiers.filter((t) => t.members.length > 1)) {
    const names = andList(tier.members.map((g) => esc(g.label)));
    const untestable = tier.ties.some((t) => t.untestable);
    const against = [...new Set(tier.ties.map((t) => t.against))];
    const ps = against.map((a) => `against ${esc(a)}: ${tier.ties.filter((t) => t.against === a && t.p !== undefined).map((t) => `${esc(t.with)} p = ${t.p.toFixed(2)}`).join(', ')}`);
    const why = untestable
      ? `${Math.min(...tier.members.map((g) => g.throughputMetric?.samples.length ?? 0))} trials a gateway cannot show a significant difference; run 4 or more`
      : tier.apart.length
        ? `each is within what the trials can tell apart of one ranked above it (Mann-Whitney ${ps.join('; ')}; significant below ${m.alpha}), `
          + `though ${tier.apart.map((x) => `${esc(x.ahead)} is ahead of ${esc(x.behind)} (p = ${x.p.toFixed(3)})`).join(', ')}`
        : `their throughputs differ by less than the trials can tell apart (Mann-Whitney ${ps.join('; ')}; significant below ${m.alpha})`;
    lines.push(`${tier === m.tiers[0] ? 'No winner: ' : ''}${names} ${tier.apart.length && !untestable ? 'cannot be ranked' : 'are tied'}: ${why}.`);
  }
  return lines;
}

/**
 * The seed's ranking (Envoy, Nginx, BunGate) checked pair by pair against ours: for each pair the seed orders, whether
 * our medians put them the same way round and whether the trials tell them apart (two-sided Mann-Whitney). Returns
 * { pairs: [{ ahead, behind, same, p, untestable }], verdict } or undefined when fewer than two of the seed's gateways
 * were ranked (measured without errors).
 */
export function seedRanking(m) {
  const ranked = (v) => m.ranking.find((g) => g.variant === v && g.rank !== undefined);
  const present = SEED_ORDER.filter(ranked);
  if (present.length < 2 || m.saturated.length) return undefined;
  const pairs = [];
  for (let i = 0; i < present.length; i += 1) {
    for (const later of present.slice(i + 1)) {
      const a = ranked(present[i]);
      const b = ranked(later);
      const t = throughputTest(a, b, m.alpha);
      pairs.push({ ahead: present[i], behind: later, same: a.throughput > b.throughput, p: t.p, untestable: t.untestable, a: a.throughput, b: b.throughput });
    }
  }
  const settled = (x) => !x.untestable && x.p < m.alpha;
  const verdict = pairs.every((x) => x.same && settled(x)) ? 'reproduces'
    : pairs.some((x) => !x.same && settled(x)) ? 'does not reproduce'
      : pairs.every((x) => x.same) ? 'same order, not significant' : 'not settled';
  return { pairs, verdict, present };
}

/** One sentence: the seed's ranking against ours, each pair it orders with our RPS and p. */
function seedRankingLine(m, esc = (s) => s) {
  const s = seedRanking(m);
  if (!s) return undefined;
  const name = (v) => esc(m.gateways.find((g) => g.variant === v)?.label || v);
  const seedList = s.present.map((v) => SEED_NAMES[v]).join(', ');
  const pair = (x) => {
    const p = x.untestable ? 'too few trials to test' : `p = ${x.p < 0.001 ? x.p.toExponential(1) : x.p.toFixed(3)}`;
    const how = x.same ? (!x.untestable && x.p < m.alpha ? 'same order' : 'same order, not significant')
      : (!x.untestable && x.p < m.alpha ? 'opposite' : 'opposite, not significant');
    return `${name(x.ahead)} over ${name(x.behind)}: ${fixed(x.a)} vs ${fixed(x.b)} RPS, ${how} (${p})`;
  };
  const head = {
    reproduces: `The seed's ranking (${seedList}) reproduces`,
    'does not reproduce': `The seed's ranking (${seedList}) does not reproduce`,
    'same order, not significant': `The seed's ranking (${seedList}) shows in our medians, but the trials do not settle it`,
    'not settled': `The seed's ranking (${seedList}) is not settled here`,
  }[s.verdict];
  return `${head}: ${s.pairs.map(pair).join('; ')}.`;
}

const notMeasured = (m) => m.gateways.filter((g) => g.status !== 'measured');

function setupLine(m, esc = (x) => x) {
  const s = m.setup;
  if (!s) return undefined;
  const warm = s.warmup ? `, ${esc(s.warmup)} warm-up` : '';
  return `wrk ${esc(s.version)}: ${esc(s.threads)} threads, ${esc(s.connections)} connections, ${esc(s.duration)} per trial${warm}, ${s.trials} trial${s.trials === 1 ? '' : 's'} per gateway; figures are medians over trials, errors and spread are summed over trials.`;
}

function comparisonAgainstBase(m) {
  return m.comparisons.map((c) => [m.gateways.find((g) => g.variant === c.variant)?.label || c.variant, c.metric, pct(c.change), formatInterval(c), c.verdict ?? 'information']);
}

// ---------------------------------------------------------------- renderers

/** Console text: seed 001's report from our measurements. */
export function render(ctx) {
  const m = model(ctx);
  const out = ['gateways: API gateways in round robin over three Bun echo backends (seed 001)'];
  if (m.description) out.push(m.description);
  const setup = setupLine(m);
  if (setup) out.push(setup);
  if (m.measured.length) {
    out.push('', 'Performance comparison', textTable(comparisonHead(m), comparisonRows(m)));
    const { head, rows } = distributionTable(m);
    out.push('', `Load balancing: share of responses per backend (X-Backend); even split within ±${EVEN_TOLERANCE * 100}% of 1/n`, textTable(head, rows));
    out.push('', 'Performance Results Summary:', '', ...rankingLines(m));
    const seed = seedRankingLine(m);
    if (seed) out.push('', seed);
  } else {
    out.push('', 'No gateway was measured in this run.');
  }
  if (m.standIn) out.push('', BUN_STAND_IN);
  const missing = notMeasured(m);
  if (missing.length) {
    out.push('', 'Not measured');
    for (const g of missing) out.push(`  ${g.label}: ${g.status}: ${g.reason}`);
  }
  if (m.comparisons.length) {
    out.push('', `Against base: ${headline(countVerdicts(m.comparisons), { emoji: false })}`);
    out.push(textTable(['Gateway', 'Metric', 'Change', 'Interval', 'Verdict'], comparisonAgainstBase(m)));
  }
  const withFiles = m.measured.filter((g) => g.artifacts.length);
  if (withFiles.length) {
    out.push('', `Detailed results: full wrk output per gateway (in the run folder; all of it in ${OUTPUT_FILE} after npm run bench)`);
    for (const g of withFiles) out.push(`  ${g.label}: ${artifactList(g.artifacts)}`);
  }
  return `${out.join('\n')}\n`;
}

/** "dir/{a, b}" when the files share a folder (they do: one folder per job), else the plain list. */
function artifactList(paths) {
  const dirs = [...new Set(paths.map((p) => p.slice(0, p.lastIndexOf('/') + 1)))];
  if (dirs.length !== 1 || !dirs[0]) return paths.join(', ');
  return `${dirs[0]}{${paths.map((p) => p.slice(dirs[0].length)).join(', ')}}`;
}

/**
 * The seed's "detailed results": every trial's full wrk output per gateway, one text for an artifact
 * file. `read(path)` returns the text of a path from a document's artifacts (relative to the run folder).
 */
export function wrkOutputs(ctx, read) {
  const m = model(ctx);
  const out = [];
  for (const g of m.measured) {
    g.artifacts.forEach((path, i) => {
      let text;
      try {
        text = read(path);
      } catch (e) {
        text = `(cannot read ${path}: ${e.message})`;
      }
      out.push(`${'═'.repeat(3)} ${g.label} · trial ${i + 1} of ${g.artifacts.length} · ${path} ${'═'.repeat(3)}`, String(text).trimEnd(), '');
    });
  }
  return out.length ? `${out.join('\n')}` : 'No gateway was measured in this run.\n';
}

/** The file bench writes the detailed results into, beside the report. */
export const OUTPUT_FILE = 'gateways-wrk-output.txt';

/** Files to write beside the report: every trial's full wrk output in one text, when a gateway was measured. */
export function outputs(ctx, read) {
  return model(ctx).measured.some((g) => g.artifacts.length) ? [{ file: OUTPUT_FILE, text: wrkOutputs(ctx, read) }] : [];
}

/** Markdown for the job summary: the same tables, the ranking and the reasons. */
export function markdown(ctx) {
  const m = model(ctx);
  const esc = (s) => mdEscape(s, { max: 400 });
  const out = ['### gateways: API gateways in round robin over three Bun echo backends'];
  if (m.description) out.push('', esc(m.description));
  const setup = setupLine(m, esc);
  if (setup) out.push('', setup);
  if (m.measured.length) {
    out.push('', mdTable(comparisonHead(m), comparisonRows(m).map((r) => r.map((c) => esc(c)))));
    const { head, rows } = distributionTable(m);
    out.push('', `**Load balancing** (share per backend; even within ±${EVEN_TOLERANCE * 100}%)`, '', mdTable(head.map(esc), rows.map((r) => r.map((c) => esc(c)))));
    out.push('', '**Performance Results Summary**', '', ...rankingLines(m, esc).map((l) => `- ${l}`));
    const seed = seedRankingLine(m, esc);
    if (seed) out.push('', seed);
  }
  if (m.standIn) out.push('', BUN_STAND_IN);
  const missing = notMeasured(m);
  if (missing.length) out.push('', ...missing.map((g) => `- ${esc(g.label)}: ${esc(g.status)}: ${esc(g.reason)}`));
  if (m.comparisons.length) {
    out.push('', `Against base: ${headline(countVerdicts(m.comparisons))}`, '');
    out.push(mdTable(['Gateway', 'Metric', 'Change', 'Interval', 'Verdict'], comparisonAgainstBase(m).map((r) => [esc(r[0]), esc(r[1]), esc(r[2]), esc(r[3]), verdictMark(r[4])])));
  }
  return `${out.join('\n')}\n`;
}

// Suite renderer for grpc-streaming: seed 003's throughput summary (server x client x payload) on loopback and over a veth pair, and how it compares with the seed.
import { comparisonList, countVerdicts, formatInterval, headAtConfidence, headline, jobReason, mdEscape, mdTable, pct, rule, textTable, trialsTest, verdictMark } from '../../ci/reports/format.js';
import { formatValue } from '../../ci/units.js';

/** The seed's MB/s (MiB per second, 1000 messages) from its README, for the "does it reproduce" lines. */
export const SEED = {
  loopback: {
    'netty/netty/500': 890.04, 'netty/netty/1024': 1859.22, 'netty/helidon/500': 616.17, 'netty/helidon/1024': 1127.74,
    'helidon/netty/500': 609.14, 'helidon/netty/1024': 657.74, 'helidon/helidon/500': 685.87, 'helidon/helidon/1024': 629.14,
  },
  network: {
    'netty/netty/500': 391.23, 'netty/netty/1024': 662.11, 'netty/helidon/500': 379.09, 'netty/helidon/1024': 624.61,
    'helidon/netty/500': 4.09, 'helidon/netty/1024': 9.10, 'helidon/helidon/500': 5.48, 'helidon/helidon/1024': 5.67,
  },
};
/** Messages the seed's clients kept in flight ("gRPC clients limit to 4 concurrent in-flight messages"). */
const SEED_INFLIGHT = 4;
/** Two servers' rates differ significantly when the two-sided Mann-Whitney test over their trials gives p below this. */
export const ALPHA = 0.05;
/** Two servers within this relative difference are called even: quick runs on shared cores are not finer. */
export const EVEN = 0.10;
/** The seed's network finding is a collapse: the Helidon server at under a tenth of the Netty server's rate. */
const COLLAPSE = 0.10;

const IMPLS = ['netty', 'helidon'];
const NETWORKS = ['loopback', 'network'];
const TITLES = {
  loopback: 'Throughput summary (servers on loopback, clients in their own JVM)',
  network: 'Throughput summary (servers in a network namespace, over a veth pair)',
};
const TUNED_TITLE = 'Helidon server with TCP_NODELAY (loopback; not in the seed)';
const MIB = 1048576;
const metricOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case);
const fixed = (v, d) => (v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(d));

/**
 * server-netty -> { server: 'netty', network: 'loopback' }; netns-server-helidon -> network 'network';
 * server-helidon-nodelay -> tuned 'nodelay' (the Helidon server with TCP_NODELAY, shown apart from the seed's matrix).
 */
export function variantInfo(variant) {
  const m = /^(netns-)?server-(netty|helidon)(?:-(nodelay))?$/.exec(variant || '');
  if (!m) return { server: undefined, network: 'loopback' };
  const info = { server: m[2], network: m[1] ? 'network' : 'loopback' };
  if (m[3]) info.tuned = m[3];
  return info;
}

const cellKey = (server, client, kb) => `${server}/${client}/${kb}`;
const kbOf = (doc) => Number(doc.params?.sizeKB);

/** One measured cell of the matrix from a grpc-client result document (medians over trials). */
export function cell(doc) {
  const { server, network, tuned } = variantInfo(doc.variant);
  const rate = metricOf(doc, 'transfer_rate');
  const duration = metricOf(doc, 'duration');
  const errors = metricOf(doc, 'errors');
  const messages = Number(doc.params?.messages);
  const seconds = duration ? duration.value / 1e9 : undefined;
  // MB/s follows from the row, as in the seed (messages x payload / duration): the median of the trials' rates is not
  // the rate of their median duration, and a row whose MB/s does not follow from its own duration cannot be checked.
  const sent = Number.isFinite(messages) && kbOf(doc) > 0 ? (messages * kbOf(doc) * 1024) / MIB : undefined;
  return {
    variant: doc.variant,
    scenario: doc.scenario,
    server,
    network,
    tuned,
    client: String(doc.params?.client ?? ''),
    kb: kbOf(doc),
    messages,
    seconds,
    mbps: sent !== undefined && seconds > 0 ? sent / seconds : rate ? rate.value / MIB : undefined,
    lower: rate?.lower !== undefined ? rate.lower / MIB : undefined,
    upper: rate?.upper !== undefined ? rate.upper / MIB : undefined,
    confidence: rate?.confidence,
    errors: errors ? errors.samples.reduce((s, x) => s + x, 0) : undefined,
    trials: doc.trials,
    samples: rate?.samples || [],
    notes: doc.notes || [],
  };
}

const order = (a, b) => IMPLS.indexOf(a.server) - IMPLS.indexOf(b.server) || IMPLS.indexOf(a.client) - IMPLS.indexOf(b.client) || a.kb - b.kb;

/** Why a job has no document, from run.json; a namespace the machine refused counts as skipped. */
function missing(run, suite) {
  return (run?.jobs || []).filter((j) => j.suite === suite && j.status !== 'ok').map((j) => {
    const skip = /SKIP: (.*)/.exec(j.logTail || '');
    return {
      id: j.id,
      variant: j.variant,
      scenario: j.scenario,
      tool: j.tool,
      network: variantInfo(j.variant).network,
      status: skip ? 'skipped' : j.status,
      reason: skip ? skip[1].trim() : jobReason(j),
    };
  });
}

/** The ratio a/b, or undefined when either side is missing. */
const ratio = (a, b) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);

/** "Netty faster" / "Helidon faster" / "even" for a Netty-over-Helidon ratio. */
function leader(r) {
  if (r === undefined) return undefined;
  if (Math.abs(r - 1) <= EVEN) return 'even';
  return r > 1 ? 'Netty server faster' : 'Helidon server faster';
}

/** Whether two cells' per-trial rates differ: { p } from a two-sided Mann-Whitney, or { untestable } with too few trials for p < ALPHA. */
export const significance = (a = [], b = []) => {
  const { p, untestable } = trialsTest(a, b, ALPHA);
  return { p, untestable };
};

/**
 * The seed's findings checked against our cells: per client and payload, the Netty server's rate
 * over the Helidon server's on loopback (the seed: Netty ahead), and over the network (the seed:
 * Helidon collapses to single-digit MB/s).
 */
export function findings(cells) {
  const get = (network, server, client, kb) => cells.find((c) => !c.tuned && c.network === network && c.server === server && c.client === client && c.kb === kb);
  const kbs = [...new Set(cells.map((c) => c.kb))].sort((a, b) => a - b);
  const out = [];
  for (const network of NETWORKS) {
    for (const client of IMPLS) {
      for (const kb of kbs) {
        const n = get(network, 'netty', client, kb);
        const h = get(network, 'helidon', client, kb);
        if (!n?.mbps || !h?.mbps) continue;
        const ours = ratio(n.mbps, h.mbps);
        const seedN = SEED[network][cellKey('netty', client, kb)];
        const seedH = SEED[network][cellKey('helidon', client, kb)];
        const seed = ratio(seedN, seedH);
        const sig = significance(n.samples, h.samples);
        let verdict;
        if (network === 'network' && seed !== undefined) {
          // The seed's claim here is the collapse, not just the direction.
          verdict = h.mbps < COLLAPSE * n.mbps ? 'reproduces (Helidon server collapses)' : 'does not reproduce (no collapse)';
        } else if (seed !== undefined) {
          const a = leader(ours);
          // Only a significant reversal refutes the seed's ordering: one the trials cannot tell from noise is only seen.
          const settled = !sig.untestable && sig.p < ALPHA;
          verdict = a === leader(seed) ? 'same direction' : a === 'even' ? 'does not reproduce (even here)'
            : settled ? 'does not reproduce (opposite)' : 'opposite, not significant';
        }
        out.push({ network, client, kb, netty: n.mbps, helidon: h.mbps, ratio: ours, seedNetty: seedN, seedHelidon: seedH, seedRatio: seed, verdict, ...sig });
      }
    }
  }
  return out;
}

/** Loopback -> network change per server, client and payload (the seed: Netty halves, Helidon falls ~99 %). */
function networkEffect(cells) {
  const out = [];
  for (const c of cells.filter((x) => x.network === 'network' && !x.tuned)) {
    const loop = cells.find((x) => !x.tuned && x.network === 'loopback' && x.server === c.server && x.client === c.client && x.kb === c.kb);
    if (!loop?.mbps || !c.mbps) continue;
    const key = cellKey(c.server, c.client, c.kb);
    const seed = ratio(SEED.network[key], SEED.loopback[key]);
    out.push({ server: c.server, client: c.client, kb: c.kb, loopback: loop.mbps, network: c.mbps, change: c.mbps / loop.mbps - 1, seedChange: seed === undefined ? undefined : seed - 1 });
  }
  return out.sort(order);
}

/** Per-call latency of both servers from the ghz documents. */
export function latencyRows(docs) {
  return docs.filter((d) => d.tool?.name === 'ghz' && variantInfo(d.variant).server).map((d) => {
    const v = (n) => metricOf(d, n)?.value;
    const errs = metricOf(d, 'errors');
    return {
      ...variantInfo(d.variant),
      scenario: d.scenario,
      concurrency: d.params?.concurrency,
      rps: v('throughput'),
      mean: v('latency.mean'),
      p50: v('latency.p50'),
      p90: v('latency.p90'),
      p99: v('latency.p99'),
      errors: errs ? errs.samples.reduce((s, x) => s + x, 0) : undefined,
      requests: metricOf(d, 'requests')?.samples.reduce((s, x) => s + x, 0),
    };
  }).sort((a, b) => a.scenario.localeCompare(b.scenario) || IMPLS.indexOf(a.server) - IMPLS.indexOf(b.server) || Number(Boolean(a.tuned)) - Number(Boolean(b.tuned)));
}

/** The Helidon server with TCP_NODELAY against its default, per client and payload. */
function nodelayEffect(cells) {
  return cells.filter((c) => c.tuned === 'nodelay').map((t) => {
    const d = cells.find((x) => !x.tuned && x.network === t.network && x.server === t.server && x.client === t.client && x.kb === t.kb);
    return { client: t.client, kb: t.kb, network: t.network, default: d?.mbps, nodelay: t.mbps, ratio: ratio(t.mbps, d?.mbps) };
  }).sort((a, b) => IMPLS.indexOf(a.client) - IMPLS.indexOf(b.client) || a.kb - b.kb);
}

/** Everything both renderers show, computed once. */
export function model({ suite = 'grpc-streaming', docs = [], comparisons, run, config } = {}) {
  const own = docs.filter((d) => d.suite === suite);
  const cells = own.filter((d) => d.tool?.name === 'grpc-client').map(cell).filter((c) => c.server).sort(order);
  const sample = own.find((d) => d.tool?.name === 'grpc-client');
  const mine = comparisonList(comparisons).filter((c) => c.suite === suite && ['transfer_rate', 'errors', 'latency.p50', 'latency.p99'].includes(c.metric) && !c.case);
  return {
    suite,
    description: config?.suites?.[suite]?.description,
    cells,
    byNetwork: Object.fromEntries(NETWORKS.map((n) => [n, cells.filter((c) => c.network === n && !c.tuned)])),
    tuned: cells.filter((c) => c.tuned),
    nodelay: nodelayEffect(cells),
    findings: findings(cells),
    effect: networkEffect(cells),
    latency: latencyRows(own),
    missing: missing(run, suite),
    comparisons: mine,
    setup: sample && {
      version: sample.tool.version,
      mode: sample.params?.mode || 'unary',
      messages: Number(sample.params?.messages),
      inflight: sample.params?.inflight ?? 4,
      warmup: sample.params?.warmup ?? 0,
      trials: Math.max(...cells.map((c) => c.trials)),
    },
    notes: cells.flatMap((c) => c.notes.map((n) => `${c.server} server / ${c.client} client / ${c.kb} KB (${c.network}): ${n}`)),
  };
}

// ---------------------------------------------------------------- rows shared by text and markdown

export const SUMMARY_HEAD = ['server', 'client', 'payloadKB', 'messages', 'duration(s)', 'MB/s', '95% CI (MB/s)', 'errors'];
/** NETTY, HELIDON+NODELAY; `where` adds " (veth)" for tables that mix loopback and the namespace. */
const serverLabel = (x, where = false) => `${x.server.toUpperCase()}${x.tuned === 'nodelay' ? '+NODELAY' : ''}${where && x.network === 'network' ? ' (veth)' : ''}`;

function summaryRows(cells) {
  return cells.map((c) => [
    serverLabel(c),
    c.client.toUpperCase(),
    fixed(c.kb, 1),
    Number.isFinite(c.messages) ? String(c.messages) : '–',
    fixed(c.seconds, 3),
    fixed(c.mbps, 2),
    c.lower === undefined ? '–' : `${fixed(c.lower, 2)} – ${fixed(c.upper, 2)}`,
    c.errors === undefined ? '–' : c.errors.toLocaleString('en-US'),
  ]);
}

export const FINDING_HEAD = ['where', 'client', 'payloadKB', 'Netty srv MB/s', 'Helidon srv MB/s', 'Netty/Helidon', 'Mann-Whitney p', 'seed Netty/Helidon', 'seed finding'];

/** "0.029" / "0.343 (not significant)" / "– (too few trials)". */
const pCell = (f) => (f.untestable ? '– (too few trials)' : `${f.p.toFixed(3)}${f.p < ALPHA ? '' : ' (not significant)'}`);

function findingRows(m) {
  return m.findings.map((f) => [f.network, f.client.toUpperCase(), fixed(f.kb, 1), fixed(f.netty, 2), fixed(f.helidon, 2),
    `${fixed(f.ratio, 2)}x`, pCell(f), f.seedRatio === undefined ? '–' : `${fixed(f.seedRatio, 2)}x`, f.verdict || '–']);
}

export const EFFECT_HEAD = ['server', 'client', 'payloadKB', 'loopback MB/s', 'veth MB/s', 'change', 'seed (Docker) change'];

function effectRows(m) {
  return m.effect.map((e) => [e.server.toUpperCase(), e.client.toUpperCase(), fixed(e.kb, 1), fixed(e.loopback, 2), fixed(e.network, 2), pct(e.change), pct(e.seedChange)]);
}

export const LATENCY_HEAD = ['call', 'server', 'calls/s', 'mean', 'p50', 'p90', 'p99', 'errors'];

function latencyTableRows(m) {
  return m.latency.map((r) => [r.scenario, serverLabel(r, true), r.rps === undefined ? '–' : r.rps.toFixed(1),
    formatValue(r.mean, 'ns'), formatValue(r.p50, 'ns'), formatValue(r.p90, 'ns'), formatValue(r.p99, 'ns'),
    r.errors === undefined ? '–' : `${r.errors}${r.requests ? ` of ${r.requests}` : ''}`]);
}

/** "ghz, unary calls, 4 concurrent": the concurrency the ghz jobs ran with (their params), as many as there were. */
function latencySetup(m) {
  const levels = [...new Set(m.latency.map((r) => r.concurrency).filter((c) => c !== undefined && c !== null))];
  return `ghz, unary calls${levels.length ? `, ${levels.join(' or ')} concurrent` : ''}`;
}

/** Delayed-ACK stalls sit at 40 ms on Linux; a p50 between these bounds, 10x Netty's, is that stall. */
const STALL_NS = [30e6, 60e6];

/**
 * The small-call scenario where the Helidon server's p50 sits at the delayed-ACK floor, if any: at least ten times
 * the faster of the Netty server and the same Helidon server with TCP_NODELAY (on a busy machine Netty's p50 can
 * rise to 10 ms while the Helidon pair still shows the stall alone).
 */
export function nagleStall(latency) {
  for (const scenario of [...new Set(latency.map((r) => r.scenario))]) {
    const at = (server, tuned) => latency.find((r) => r.scenario === scenario && r.server === server && r.network === 'loopback' && r.tuned === tuned);
    const n = at('netty');
    const h = at('helidon');
    const nodelay = at('helidon', 'nodelay')?.p50;
    const floor = Math.min(...[n?.p50, nodelay].filter((v) => v > 0));
    if (h?.p50 && Number.isFinite(floor) && h.p50 >= STALL_NS[0] && h.p50 <= STALL_NS[1] && h.p50 >= 10 * floor) return { scenario, netty: n?.p50, helidon: h.p50, nodelay };
  }
  return undefined;
}

/** One sentence per seed claim, with our numbers, so a non-reproduction is said plainly. */
export function conclusions(m) {
  const lines = [];
  const loop = m.findings.filter((f) => f.network === 'loopback' && f.verdict);
  if (loop.length) {
    const same = loop.filter((f) => f.verdict === 'same direction');
    const list = loop.map((f) => `${f.client} client ${f.kb} KB: ${fixed(f.netty, 1)} vs ${fixed(f.helidon, 1)} MB/s (${fixed(f.ratio, 2)}x; seed ${fixed(f.seedRatio, 2)}x)`).join('; ');
    // The seed's leader differs by pairing (the Helidon server leads with the Helidon client at 500 KB), so the
    // sentences name the seed's leader and its exceptions rather than claiming one server ahead everywhere.
    const leads = loop.map((f) => leader(f.seedRatio));
    const main = [...new Set(leads)].sort((a, b) => leads.filter((l) => l === b).length - leads.filter((l) => l === a).length)[0];
    const name = (l) => (l === 'even' ? 'the servers even' : l.replace(/ faster$/, ' ahead'));
    const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
    const except = loop.filter((f, i) => leads[i] !== main).map((f) => `${cap(f.client)} client at ${f.kb} KB`);
    const seedOrder = `${name(main)}${except.length ? `, except ${except.join(', ')}` : ''}`;
    const tested = same.filter((f) => !f.untestable);
    const sig = tested.filter((f) => f.p < ALPHA);
    const trials = Math.min(...m.cells.filter((c) => c.network === 'loopback' && !c.tuned).map((c) => c.samples.length));
    const settled = !same.length ? ''
      : tested.length
        ? ` Significant in ${sig.length} of those ${same.length} (two-sided Mann-Whitney over ${trials} trials a cell, p < ${ALPHA}).`
        : ` With ${trials} trial${trials === 1 ? '' : 's'} a cell no difference can be significant (run 4 or more).`;
    lines.push(same.length === loop.length
      ? `Loopback: the seed's ordering (${seedOrder}) holds in every pairing here: ${list}.${settled}`
      : `Loopback: the seed's ordering (${seedOrder}) holds in ${same.length} of ${loop.length} pairings here: ${list}.${settled}`);
  }
  const net = m.findings.filter((f) => f.network === 'network');
  if (net.length) {
    const collapsed = net.filter((f) => f.helidon < COLLAPSE * f.netty);
    const list = net.map((f) => `${f.client} client ${f.kb} KB: Helidon ${fixed(f.helidon, 1)} vs Netty ${fixed(f.netty, 1)} MB/s`).join('; ');
    lines.push(collapsed.length === net.length
      ? `Over the veth pair the seed's Docker finding reproduces: the Helidon server falls below ${COLLAPSE * 100}% of the Netty server's rate (${list}).`
      : collapsed.length
        ? `Over the veth pair the Helidon server collapses in ${collapsed.length} of ${net.length} pairings (${list}).`
        : `Over the veth pair the seed's Docker finding does not reproduce: the Helidon server keeps ${fixed(Math.min(...net.map((f) => f.helidon / f.netty)) * 100, 0)}% or more of the Netty server's rate (${list}); the seed saw 4-9 MB/s against ~400-660 MB/s.`);
  } else if (m.missing.some((x) => x.network === 'network')) {
    lines.push('The network variants were not measured (see below), so the seed\'s Docker finding is not checked in this run.');
  }
  const stall = nagleStall(m.latency);
  if (stall) {
    const fixedBy = stall.nodelay === undefined ? '' : `; with TCP_NODELAY the Helidon server answers in ${formatValue(stall.nodelay, 'ns')}`;
    const netty = stall.netty === undefined ? '' : ` against ${formatValue(stall.netty, 'ns')} on Netty`;
    lines.push(`Small unary calls (${stall.scenario}) take ${formatValue(stall.helidon, 'ns')} at p50 on the Helidon server${netty}: a floor near 40 ms is the signature of Nagle's algorithm meeting delayed ACKs (Helidon 4.5's tcp-no-delay defaults to false; grpc-java sets TCP_NODELAY)${fixedBy}.`);
  }
  if (m.nodelay.length) {
    const list = m.nodelay.map((e) => `${e.client} client ${e.kb} KB: ${fixed(e.default, 1)} -> ${fixed(e.nodelay, 1)} MB/s${e.ratio === undefined ? '' : ` (${fixed(e.ratio, 2)}x)`}`).join('; ');
    lines.push(`The Helidon server with TCP_NODELAY (HELIDON_TCP_NODELAY=true, not in the seed): ${list}.`);
  }
  return lines;
}

function setupLine(m) {
  const s = m.setup;
  if (!s) return undefined;
  const n = Number.isFinite(s.messages) ? s.messages.toLocaleString('en-US') : '?';
  const how = s.mode === 'stream'
    ? `one bidirectional gRPC stream of ${n} messages per trial on one connection, an ack per message`
    : `${n} unary calls per trial (the Helidon client opens a connection per call)`;
  // The seed's clients kept up to 4 messages in flight; fewer waits for each ack and cannot reach its rates.
  const inflight = Number(s.inflight) === SEED_INFLIGHT ? `at most ${s.inflight} in flight`
    : `at most ${s.inflight} in flight (the seed: ${SEED_INFLIGHT}, so absolute MB/s are not comparable with the seed's; compare ratios)`;
  return `client ${s.version}: ${how} (the seed: 1,000 messages), ${inflight}, ${s.warmup} warm-up messages per client run; ${s.trials} trial${s.trials === 1 ? '' : 's'} per cell, figures are medians, MB/s is messages x payload / median duration (MiB/s, as in the seed).`;
}

function comparisonAgainstBase(m) {
  return m.comparisons.map((c) => [`${c.variant} / ${c.scenario}`, c.metric, pct(c.change), formatInterval(c), c.verdict]);
}

// ---------------------------------------------------------------- renderers

/** Console text: seed 003's summary tables from our measurements, then what reproduces. */
export function render(ctx) {
  const m = model(ctx);
  const out = ['grpc-streaming: gRPC throughput, Netty vs Helidon, server x client x payload (seed 003)'];
  if (m.description) out.push(m.description);
  const setup = setupLine(m);
  if (setup) out.push(setup);
  for (const network of NETWORKS) {
    const cells = m.byNetwork[network];
    if (!cells.length) continue;
    out.push('', rule(78), ` ${TITLES[network]}`, textTable(headAtConfidence(SUMMARY_HEAD, cells), summaryRows(cells)), rule(78));
  }
  if (m.tuned.length) out.push('', rule(78), ` ${TUNED_TITLE}`, textTable(headAtConfidence(SUMMARY_HEAD, m.tuned), summaryRows(m.tuned)), rule(78));
  if (!m.cells.length) out.push('', 'No throughput cell was measured in this run.');
  if (m.findings.length) {
    out.push('', 'Against the seed (Netty server / Helidon server, same client and payload; even = within ±10%)', textTable(FINDING_HEAD, findingRows(m)));
  }
  if (m.effect.length) out.push('', 'Loopback -> veth pair', textTable(EFFECT_HEAD, effectRows(m)));
  const said = conclusions(m);
  if (said.length) out.push('', ...said);
  if (m.latency.length) out.push('', `Per-call latency (${latencySetup(m)})`, textTable(LATENCY_HEAD, latencyTableRows(m)));
  if (m.notes.length) out.push('', 'Notes', ...m.notes.map((n) => `  ${n}`));
  if (m.missing.length) {
    out.push('', 'Not measured');
    for (const x of m.missing) out.push(`  ${x.variant} / ${x.scenario} (${x.tool}): ${x.status}: ${x.reason}`);
  }
  if (m.comparisons.length) {
    out.push('', `Against base: ${headline(countVerdicts(m.comparisons), { emoji: false })}`);
    out.push(textTable(['Cell', 'Metric', 'Change', 'Interval', 'Verdict'], comparisonAgainstBase(m)));
  }
  return `${out.join('\n')}\n`;
}

/** Markdown for the job summary: the same tables and sentences. */
export function markdown(ctx) {
  const m = model(ctx);
  const esc = (s) => mdEscape(s, { max: 400 });
  const table = (head, rows) => mdTable(head.map(esc), rows.map((r) => r.map((c) => esc(c))));
  const out = ['### grpc-streaming: gRPC throughput, Netty vs Helidon (seed 003)'];
  if (m.description) out.push('', esc(m.description));
  const setup = setupLine(m);
  if (setup) out.push('', esc(setup));
  for (const network of NETWORKS) {
    const cells = m.byNetwork[network];
    if (cells.length) out.push('', `**${esc(TITLES[network])}**`, '', table(headAtConfidence(SUMMARY_HEAD, cells), summaryRows(cells)));
  }
  if (m.tuned.length) out.push('', `**${esc(TUNED_TITLE)}**`, '', table(headAtConfidence(SUMMARY_HEAD, m.tuned), summaryRows(m.tuned)));
  if (m.findings.length) out.push('', '**Against the seed**', '', table(FINDING_HEAD, findingRows(m)));
  if (m.effect.length) out.push('', '**Loopback → veth pair**', '', table(EFFECT_HEAD, effectRows(m)));
  const said = conclusions(m);
  if (said.length) out.push('', ...said.map((l) => `- ${esc(l)}`));
  if (m.latency.length) out.push('', `**Per-call latency (${esc(latencySetup(m))})**`, '', table(LATENCY_HEAD, latencyTableRows(m)));
  if (m.missing.length) out.push('', ...m.missing.map((x) => `- ${esc(`${x.variant} / ${x.scenario} (${x.tool})`)}: ${esc(x.status)}: ${esc(x.reason)}`));
  if (m.comparisons.length) {
    out.push('', `Against base: ${headline(countVerdicts(m.comparisons))}`, '');
    out.push(mdTable(['Cell', 'Metric', 'Change', 'Interval', 'Verdict'], comparisonAgainstBase(m).map((r) => [esc(r[0]), esc(r[1]), esc(r[2]), esc(r[3]), verdictMark(r[4])])));
  }
  return `${out.join('\n')}\n`;
}

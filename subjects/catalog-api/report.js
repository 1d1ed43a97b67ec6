// Suite renderer for catalog-api: seed 000's HATEOAS vs REST/Stream vs gRPC report (latency, size, traversal, improvements) from our own runs.
import { againstBaseLines, comparisonList, countVerdicts, headline, jobReason, mdEscape, mdTable, textTable, trialsTest, box, rule } from '../../ci/reports/format.js';

const VARIANTS = ['hateoas', 'rest-stream', 'grpc'];
const LABELS = { hateoas: 'HATEOAS', 'rest-stream': 'REST/Stream', grpc: 'gRPC' };
// The seed's three improvement blocks: [challenger, reference].
const PAIRS = [['rest-stream', 'hateoas'], ['grpc', 'hateoas'], ['grpc', 'rest-stream']];

const NS_PER_MS = 1e6;
const metricOf = (doc, name) => doc?.metrics.find((m) => m.name === name && !m.case);
const valueOf = (doc, name) => metricOf(doc, name)?.value;
const fixed = (v, d = 2) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const ms = (ns) => (ns === undefined ? '–' : fixed(ns / NS_PER_MS));
const bytes = (b) => (b === undefined ? '–' : Math.round(b).toLocaleString('en-US'));
const seconds = (ns) => (ns === undefined ? '–' : `${fixed(ns / 1e9)}s`);
const count = (n) => (n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));

// ---------------------------------------------------------------- reading documents

/**
 * The smallest per-trial minimum and the largest per-trial maximum are the run's extremes; every
 * other figure is the median over trials (the document's value).
 */
const extreme = (doc, name, pick) => {
  const m = metricOf(doc, name);
  return m ? pick(...m.samples) : undefined;
};

/** One variant's figures from its k6 latency document (ns and bytes). */
function latencyFigures(doc) {
  if (!doc) return undefined;
  return {
    avg: valueOf(doc, 'latency.mean'),
    p50: valueOf(doc, 'latency.p50'),
    p95: valueOf(doc, 'latency.p95'),
    min: extreme(doc, 'latency.min', Math.min),
    max: extreme(doc, 'latency.max', Math.max),
    randomAvg: valueOf(doc, 'latency_random.mean'),
    deepAvg: valueOf(doc, 'latency_deep.mean'),
    deepP50: valueOf(doc, 'latency_deep.p50'),
    deepP95: valueOf(doc, 'latency_deep.p95'),
    pageBytes: valueOf(doc, 'page_bytes.mean'),
    requests: doc.params?.benchmarkRequests,
    trials: doc.trials,
    version: doc.tool?.version,
  };
}

/** A trial's walks of the range (TRAVERSALS, one by default): k6's iterations of the traversal script. */
const walksOf = (doc) => (valueOf(doc, 'iterations') > 0 ? valueOf(doc, 'iterations') : 1);

/** A k6 counter summed over a trial's walks, per walk. */
const perWalk = (doc, name) => {
  const total = valueOf(doc, name);
  return total === undefined ? undefined : total / walksOf(doc);
};

/**
 * One variant's figures from its k6 traversal document, per walk like its time (items and pages are counters summed
 * over a trial's walks); items and pages must agree across trials to be shown as one number.
 */
export function traversalFigures(doc) {
  if (!doc) return undefined;
  const walks = walksOf(doc);
  const same = (name, per = 1) => {
    const m = metricOf(doc, name);
    if (!m) return undefined;
    return (m.samples.every((s) => s === m.samples[0]) ? m.samples[0] : m.value) / per;
  };
  const varying = ['items', 'pages', 'stream_items'].filter((n) => {
    const m = metricOf(doc, n);
    return m && !m.samples.every((s) => s === m.samples[0]);
  });
  return {
    items: same('items', walks),
    pages: same('pages', walks),
    time: perWalk(doc, 'traversal_time'),
    pageMean: valueOf(doc, 'latency.mean'),
    pageP50: valueOf(doc, 'latency.p50'),
    pageP95: valueOf(doc, 'latency.p95'),
    pageP99: valueOf(doc, 'latency.p99'),
    streamTime: valueOf(doc, 'stream_traversal_time'),
    streamItems: same('stream_items'),
    streamPages: same('stream_pages'),
    checks: valueOf(doc, 'checks_pass_rate'),
    varying,
    trials: doc.trials,
  };
}

/** ghz's figures for a gRPC call (a native client, so no JavaScript decoding in the time). */
function ghzFigures(doc) {
  if (!doc) return undefined;
  return {
    calls: doc.params?.total,
    avg: valueOf(doc, 'latency.mean'),
    p50: valueOf(doc, 'latency.p50'),
    p95: valueOf(doc, 'latency.p95'),
    concurrency: doc.params?.concurrency,
    errors: valueOf(doc, 'errors'),
    trials: doc.trials,
    version: doc.tool?.version,
  };
}

/** "k6 exit 107 ... msg=\"GoError: DATE_START=... is after ...\"" -> the message a person needs. */
export function failureMessage(job) {
  const tail = String(job.logTail || '');
  const msgs = [...tail.matchAll(/msg="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\n.*$/s, '').replace(/\\"/g, '"'));
  const k6 = msgs.reverse().find((m) => /GoError|error|fail|must|not |inverted|out of range|did not/i.test(m));
  const own = tail.split('\n').reverse().find((l) => /^catalog-api: /.test(l.trim()));
  const detail = (own || k6 || '').replace(/^(Go)?Error: /, '').trim();
  if (!detail || String(job.reason).includes(detail)) return jobReason(job);
  return `${String(job.reason || 'no reason recorded').trim().replace(/:$/, '')}: ${detail}`;
}

/** Why a variant has no document of a job: run.json's failed or skipped entry, else the config's skip. */
function missing(run, suite, variant, tool, scenario, variantConfig) {
  const j = (run?.jobs || []).find((x) => x.suite === suite && x.variant === variant && x.tool === tool && x.scenario === scenario && x.status !== 'ok');
  if (j) return { status: j.status, reason: failureMessage(j) };
  if (variantConfig?.skip) return { status: 'skipped', reason: variantConfig.skip };
  return undefined;
}

/** Two variants' times differ significantly when the two-sided Mann-Whitney test over their trials gives p below this. */
export const ALPHA = 0.05;

/** Mann-Whitney over two documents' per-trial samples of one metric: { p }, or { untestable, n } with too few trials for p < alpha. */
export function significance(docA, docB, name, alpha = ALPHA) {
  const a = metricOf(docA, name)?.samples || [];
  const b = metricOf(docB, name)?.samples || [];
  if (!a.length || !b.length) return undefined;
  const t = trialsTest(a, b, alpha);
  return t.untestable ? { untestable: true, n: t.n } : { p: t.p };
}

/** " (p = 0.008)" / " (not significant, p = 0.31)" after a time comparison; nothing when untestable (said once under the blocks). */
const pNote = (sig, alpha = ALPHA) => (!sig || sig.untestable ? '' : sig.p < alpha ? ` (p = ${sig.p.toFixed(3)})` : ` (not significant, p = ${sig.p.toFixed(2)})`);

/** Relative change from reference a to challenger b, signed so that positive means b is better (lower). */
const gain = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && a > 0 ? (a - b) / a : undefined);

/** "72.7% faster" / "12.0% slower" for times; "77.3% smaller" / "larger" for sizes. */
export function improvement(a, b, kind) {
  const g = gain(a, b);
  if (g === undefined) return { ok: undefined, text: '–' };
  const [better, worse] = kind === 'size' ? ['smaller', 'larger'] : ['faster', 'slower'];
  if (Math.abs(g) < 0.0005) return { ok: undefined, text: 'no difference' };
  return { ok: g > 0, text: `${(Math.abs(g) * 100).toFixed(1)}% ${g > 0 ? better : worse}` };
}

// ---------------------------------------------------------------- findings at deep pages

/** Whether a test settles a claim: true (p < alpha), false (a p at or above it), undefined (untested: too few trials). */
const settledBy = (sig, alpha = ALPHA) => (!sig || sig.untestable ? undefined : sig.p < alpha);
/** "holds" / "does not hold", or, where the trials cannot tell the two apart, only the direction seen. */
const verdictWord = (holds, settled) => (settled === false ? (holds ? 'holds in direction only' : 'runs the other way, not significantly') : holds ? 'holds' : 'does not hold');
/** An improvement line's mark: ✓ better, ✗ worse, ≈ a time difference the trials do not settle, '' for none. */
const blockMark = (r, alpha = ALPHA) => (r.ok === undefined ? '' : settledBy(r.sig, alpha) === false ? '≈' : r.ok ? '✓' : '✗');
/** ✓ holds, ✗ does not, ≈ a direction the trials do not settle. */
export const findingMark = (f) => (f.settled === false ? '≈' : f.holds ? '✓' : '✗');

/**
 * Checks the direction of the seed's findings in our numbers: keyset and gRPC faster than offset at
 * deep pages, gRPC's payload the smallest, gRPC faster than REST/Stream. Where one does not hold,
 * the note says why, with the numbers that show it.
 */
export function findings(v, ghz, ghzStream) {
  const out = [];
  const h = v.hateoas?.latency;
  const r = v['rest-stream']?.latency;
  const g = v.grpc?.latency;
  const deep = (f) => f?.deepAvg;
  // The same test as the improvement blocks: whether the trials tell the two deep-page averages apart.
  const deepSig = (a, b) => significance(v[a]?.latencyDoc, v[b]?.latencyDoc, 'latency_deep.mean');
  const deepP = (a, b) => pNote(deepSig(a, b));
  const faster = (name, x, y, xl, yl, xn, yn) => {
    if (deep(x) === undefined || deep(y) === undefined) return;
    const holds = deep(x) < deep(y);
    const ratio = deep(y) / deep(x);
    const settled = settledBy(deepSig(xn, yn));
    out.push({
      claim: name,
      holds,
      settled,
      text: `${verdictWord(holds, settled)}: deep pages avg ${ms(deep(x))} ms (${xl}) vs ${ms(deep(y))} ms (${yl})`
        + `${holds ? `, ${fixed(ratio, 1)}x faster` : ''}${deepP(xn, yn)}; random positions ${ms(x.randomAvg)} vs ${ms(y.randomAvg)} ms`,
    });
  };
  faster('keyset (REST/Stream) faster than offset (HATEOAS) at deep pages', r, h, 'REST/Stream', 'HATEOAS', 'rest-stream', 'hateoas');
  faster('gRPC faster than offset (HATEOAS) at deep pages', g, h, 'gRPC', 'HATEOAS', 'grpc', 'hateoas');
  const sizes = VARIANTS.map((n) => [n, v[n]?.latency?.pageBytes]).filter(([, b]) => b !== undefined);
  if (g?.pageBytes !== undefined && sizes.length > 1) {
    const smallest = sizes.reduce((a, b) => (b[1] < a[1] ? b : a));
    const holds = smallest[0] === 'grpc';
    out.push({
      claim: 'gRPC payload smallest',
      holds,
      text: `${holds ? 'holds' : 'does not hold'}: ${sizes.map(([n, b]) => `${LABELS[n]} ${bytes(b)} B`).join(', ')} per page`
        + ' (gRPC: encoded protobuf message; HTTP: response body)',
    });
  }
  if (deep(g) !== undefined && deep(r) !== undefined) {
    const holds = deep(g) < deep(r);
    const settled = settledBy(deepSig('grpc', 'rest-stream'));
    let text = `${verdictWord(holds, settled)}: deep pages avg ${ms(deep(g))} ms (gRPC) vs ${ms(deep(r))} ms (REST/Stream)${deepP('grpc', 'rest-stream')}`;
    if (!holds) {
      // Both run the same keyset query, so the gap lies in the protocol stack or the client. Each
      // comparison below keeps one client: k6 against k6, or one gRPC call from two clients.
      text += '. Both run the same keyset query, so the gap is not the database';
      if (g.p50 !== undefined && r.p50 !== undefined) text += `; in the same client (k6) the p50 is ${ms(g.p50)} ms for gRPC and ${ms(r.p50)} ms for REST/Stream`;
      if (ghz?.p50 !== undefined && g.p50 !== undefined) {
        const client = g.p50 - ghz.p50;
        text += `. The same gRPC call at the same cursor positions from ghz, a native client, takes ${ms(ghz.p50)} ms at p50 against k6's ${ms(g.p50)} ms`
          + (client > 0 ? `, so k6's gRPC client (decoding protobuf into JavaScript objects) adds about ${ms(client)} ms per call` : ', so k6\'s gRPC client adds nothing measurable here');
        text += '. REST/Stream has no native-client measurement in this suite, so how the two protocols compare without k6 is not measured';
      } else {
        text += '; no ghz measurement of the unary call in this run to tell k6\'s gRPC client cost from the server\'s';
      }
    }
    out.push({ claim: 'gRPC faster than REST/Stream at deep pages', holds, settled, text });
  }
  const tg = v.grpc?.traversal;
  const tr = v['rest-stream']?.traversal;
  if (tg?.time !== undefined && tr?.time !== undefined) {
    const holds = tg.time < tr.time;
    const sig = significance(v.grpc?.traversalDoc, v['rest-stream']?.traversalDoc, 'traversal_time');
    const settled = settledBy(sig);
    let text = `${verdictWord(holds, settled)}: ${seconds(tg.time)} (gRPC, ${count(tg.pages)} unary calls) vs ${seconds(tr.time)} (REST/Stream, ${count(tr.pages)} requests)`
      + pNote(sig);
    const split = (t) => (t.pageMean !== undefined && t.pages ? { wire: t.pageMean * t.pages, client: t.time - t.pageMean * t.pages } : undefined);
    const sg = split(tg);
    const sr = split(tr);
    if (!holds && sg && sr) {
      text += `. Inside k6's request timings gRPC spent ${seconds(sg.wire)} and REST/Stream ${seconds(sr.wire)}; the rest of each walk, `
        + `${seconds(Math.max(0, sg.client))} for gRPC against ${seconds(Math.max(0, sr.client))} for REST/Stream, is k6 turning answers into JavaScript objects and checking them`;
      if (tg.streamTime !== undefined) text += `; the same range as one gRPC stream took ${seconds(tg.streamTime)} in k6`;
      if (ghzStream?.avg !== undefined) text += ` and ${seconds(ghzStream.avg)} from ghz's native client`;
    }
    out.push({ claim: 'gRPC traversal faster than REST/Stream', holds, settled, text });
  }
  return out;
}

// ---------------------------------------------------------------- the model both renderers share

/** Everything the text and markdown reports show, computed once. */
export function model({ suite = 'catalog-api', docs = [], comparisons, run, config } = {}) {
  const suiteConfig = config?.suites?.[suite] || {};
  const own = docs.filter((d) => d.suite === suite);
  const pick = (variant, tool, scenario) => own.find((d) => d.variant === variant && d.tool?.name === tool && d.scenario === scenario);
  const names = [...new Set([...VARIANTS.filter((n) => !suiteConfig.variants || suiteConfig.variants[n]), ...own.map((d) => d.variant)])];
  const v = {};
  const notices = [];
  for (const n of names) {
    const latencyDoc = pick(n, 'k6', 'latency');
    const traversalDoc = pick(n, 'k6', 'traversal');
    v[n] = {
      label: suiteConfig.variants?.[n]?.description || LABELS[n] || n,
      latency: latencyFigures(latencyDoc),
      traversal: traversalFigures(traversalDoc),
      docs: [latencyDoc, traversalDoc].filter(Boolean),
      latencyDoc,
      traversalDoc,
    };
    const gone = [['latency', latencyDoc], ['traversal', traversalDoc]].filter(([, d]) => !d)
      .map(([s]) => ({ scenario: s, ...missing(run, suite, n, 'k6', s, suiteConfig.variants?.[n]) }))
      .filter((x) => x.status);
    v[n].missing = gone;
  }
  const ghzDoc = pick('grpc', 'ghz', 'unary-pages');
  const ghz = ghzFigures(ghzDoc);
  const ghzStreamDoc = pick('grpc', 'ghz', 'stream');
  const ghzStream = ghzFigures(ghzStreamDoc);
  const ghzMissing = [['unary-pages', ghzDoc], ['stream', ghzStreamDoc]].filter(([, d]) => !d)
    .map(([s]) => ({ scenario: s, ...missing(run, suite, 'grpc', 'ghz', s, suiteConfig.variants?.grpc) })).filter((x) => x.status);

  // Like the seed without grpcurl: when gRPC produced nothing, say why and compare the other two.
  const measured = names.filter((n) => v[n].latency || v[n].traversal);
  const skipped = names.filter((n) => !measured.includes(n));
  // a run that has jobs of this suite but none of a variant did not select it (--variant, --job): it was not skipped
  const selected = (n) => !Array.isArray(run?.jobs) || !run.jobs.some((j) => j.suite === suite) || run.jobs.some((j) => j.suite === suite && j.variant === n);
  for (const n of skipped) {
    const why = v[n].missing.map((x) => `${x.scenario} ${x.status}: ${x.reason}`).join('; ') || 'no result document in this run';
    const what = selected(n) ? `skipped (${why})` : 'not selected in this run (--variant or --job)';
    notices.push(`${v[n].label} ${what}; comparing ${measured.map((m) => v[m].label).join(' and ') || 'nothing'} only.`);
  }
  for (const n of measured) {
    for (const x of v[n].missing) notices.push(`${v[n].label} ${x.scenario} ${x.status}: ${x.reason}`);
    const t = v[n].traversal;
    if (t?.varying.length) notices.push(`${v[n].label}: ${t.varying.join(', ')} differed between trials (the range changed while it was read?)`);
    if (t?.checks !== undefined && t.checks < 1) notices.push(`${v[n].label}: ${fixed((1 - t.checks) * 100, 1)}% of traversal checks failed (order, counts or errors; see the k6 output)`);
  }
  if (measured.includes('grpc')) for (const x of ghzMissing) notices.push(`ghz ${x.scenario} ${x.status}: ${x.reason}`);

  const base = measured[0] && v[measured.find((n) => v[n].latency) || measured[0]];
  const sample = own.find((d) => d.tool?.name === 'k6' && d.scenario === 'latency') || own.find((d) => d.tool?.name === 'k6');
  const p = sample?.params || suiteConfig.params || {};
  const traversalSample = own.find((d) => d.tool?.name === 'k6' && d.scenario === 'traversal');
  const latencyJob = (suiteConfig.jobs || []).find((j) => j.tool === 'k6' && j.scenario === 'latency');
  const pairs = PAIRS.filter(([a, b]) => measured.includes(a) && measured.includes(b));
  // Times are tested over the trials (two-sided Mann-Whitney); a page's size is the same in every trial.
  const alpha = config?.compare?.alpha ?? ALPHA;
  const tested = (r, sig) => (r.ok === undefined ? r : { ...r, text: `${r.text}${pNote(sig, alpha)}`, sig });
  const blocks = pairs.map(([a, b]) => ({
    title: `${v[a].label} vs ${v[b].label}`,
    a,
    b,
    lines: [
      ['Latency', tested(improvement(v[b].latency?.avg, v[a].latency?.avg, 'time'), significance(v[b].latencyDoc, v[a].latencyDoc, 'latency.mean', alpha))],
      ['Deep pages', tested(improvement(v[b].latency?.deepAvg, v[a].latency?.deepAvg, 'time'), significance(v[b].latencyDoc, v[a].latencyDoc, 'latency_deep.mean', alpha))],
      ['Size', improvement(v[b].latency?.pageBytes, v[a].latency?.pageBytes, 'size')],
      ['Traversal', tested(improvement(v[b].traversal?.time, v[a].traversal?.time, 'time'), significance(v[b].traversalDoc, v[a].traversalDoc, 'traversal_time', alpha))],
    ],
  }));
  const untestable = blocks.flatMap((bl) => bl.lines.map(([, r]) => r.sig)).filter((x) => x?.untestable);
  const significanceNote = untestable.length
    ? `Not tested for significance: ${Math.min(...untestable.map((x) => x.n))} trial${Math.min(...untestable.map((x) => x.n)) === 1 ? '' : 's'} a variant cannot show a significant difference (run 4 or more).`
    : blocks.length ? `p: two-sided Mann-Whitney over the trials' averages (latency) or walk times (traversal); significant below ${alpha}.` : undefined;
  const mine = comparisonList(comparisons).filter((c) => c.suite === suite);
  return {
    suite,
    description: suiteConfig.description,
    names: measured,
    v,
    ghz,
    ghzStream,
    notices,
    blocks,
    significanceNote,
    alpha,
    findings: findings(v, ghz, ghzStream),
    config: {
      pageSize: p.pageSize,
      requests: p.benchmarkRequests,
      warmup: p.warmupRequests,
      warmupRun: latencyJob?.warmup?.warmupRequests,
      dateStart: p.dateStart,
      dateEnd: p.dateEnd,
      trials: base?.latency?.trials,
      traversalTrials: traversalSample?.trials,
      k6: sample?.tool?.version,
    },
    comparisons: mine,
  };
}

// ---------------------------------------------------------------- tables

function latencyRows(m) {
  const row = (title, key) => [title, ...m.names.map((n) => ms(m.v[n].latency?.[key]))];
  return [
    row('Average', 'avg'),
    row('P50 (Median)', 'p50'),
    row('P95', 'p95'),
    row('Min', 'min'),
    row('Max', 'max'),
    row('Random avg', 'randomAvg'),
    row('Deep avg', 'deepAvg'),
  ];
}

const sizeRows = (m) => [['Size per page', ...m.names.map((n) => bytes(m.v[n].latency?.pageBytes))]];

// A trial walks the range once, so the walk has one time; what varies within it is each page's
// latency (1,000 requests), shown as its average and percentiles.
function traversalRows(m) {
  const t = (n) => m.v[n].traversal;
  const rate = (x) => (x?.items !== undefined && x?.time ? count(Math.round(x.items / (x.time / 1e9))) : '–');
  return [
    ['Total Items', ...m.names.map((n) => count(t(n)?.items))],
    ['Pages', ...m.names.map((n) => count(t(n)?.pages))],
    ['Total Time', ...m.names.map((n) => seconds(t(n)?.time))],
    ['Items/s', ...m.names.map((n) => rate(t(n)))],
    ['Page avg (ms)', ...m.names.map((n) => ms(t(n)?.pageMean))],
    ['Page P50 (ms)', ...m.names.map((n) => ms(t(n)?.pageP50))],
    ['Page P95 (ms)', ...m.names.map((n) => ms(t(n)?.pageP95))],
    ['Page P99 (ms)', ...m.names.map((n) => ms(t(n)?.pageP99))],
  ];
}

/** Lines under the tables: what only gRPC has (one stream, a native client's view of the unary call). */
function extraLines(m) {
  const out = [];
  const t = m.v.grpc?.traversal;
  if (t?.streamTime !== undefined) {
    out.push(`gRPC StreamEvents (the whole range in one call, k6): ${count(t.streamItems)} items in ${count(t.streamPages)} messages, ${seconds(t.streamTime)}`);
  }
  if (m.ghz) {
    out.push(`gRPC ListEvents from ghz ${m.ghz.version} (native client, ${m.ghz.calls ?? '?'} calls, concurrency ${m.ghz.concurrency ?? '?'}): `
      + `avg ${ms(m.ghz.avg)} ms, p50 ${ms(m.ghz.p50)} ms, p95 ${ms(m.ghz.p95)} ms${m.ghz.errors ? `, ${m.ghz.errors} errors` : ''}`);
  }
  if (m.ghzStream) {
    out.push(`gRPC StreamEvents from ghz ${m.ghzStream.version} (native client, ${m.ghzStream.calls ?? '?'} calls per trial): `
      + `${seconds(m.ghzStream.avg)} per whole-range stream${m.ghzStream.errors ? `, ${m.ghzStream.errors} errors` : ''}`);
  }
  return out;
}

function configLine(m) {
  const c = m.config;
  const parts = [`Page Size: ${c.pageSize ?? '?'} items`, `Requests: ${c.requests ?? '?'}`];
  if (c.dateStart || c.dateEnd) parts.push(`Range: ${c.dateStart ?? '?'}..${c.dateEnd ?? '?'}`);
  parts.push(`Warm-up: ${c.warmup ?? '?'} requests${c.warmupRun ? ` after an unmeasured run of ${c.warmupRun}` : ''}`);
  if (c.trials) parts.push(`Trials: ${c.trials}${c.traversalTrials && c.traversalTrials !== c.trials ? ` (traversal ${c.traversalTrials})` : ''}`);
  return `Configuration: ${parts.join(' | ')}`;
}

const method = (m) => `k6 ${m.config.k6 ?? '?'}, one VU, requests in sequence; half at random positions, half in the last tenth of the range (deep). `
  + 'Average, P50, P95 and sizes are medians over trials; Min and Max are over all trials.';

// ---------------------------------------------------------------- renderers

/** Console text: the seed's report, our numbers. */
export function render(ctx) {
  const m = model(ctx);
  const heads = ['Metric', ...m.names.map((n) => m.v[n].label)];
  const out = [box('PERFORMANCE BENCHMARK: HATEOAS vs STREAM vs gRPC ENDPOINT')];
  if (m.description) out.push('', m.description);
  for (const n of m.notices) out.push(`! ${n}`);
  if (!m.names.length) {
    out.push('', 'No catalog-api results in this run.');
    return `${out.join('\n')}\n`;
  }
  out.push('', rule(), '                       PERFORMANCE BENCHMARK REPORT', rule(), '', configLine(m), method(m));
  out.push('', 'SINGLE REQUEST LATENCY (ms)', rule(74, '─'), textTable(heads, latencyRows(m)));
  out.push('', 'RESPONSE SIZE (bytes)', rule(74, '─'), textTable(heads, sizeRows(m)));
  out.push('', 'FULL PAGINATION TRAVERSAL', rule(74, '─'), textTable(heads, traversalRows(m)));
  const extra = extraLines(m);
  if (extra.length) out.push('', ...extra.map((l) => `  ${l}`));
  if (m.blocks.length) {
    out.push('', rule(), 'PERFORMANCE IMPROVEMENTS', rule());
    for (const b of m.blocks) {
      out.push('', `${b.title}:`);
      for (const [what, r] of b.lines) out.push(`  ${blockMark(r, m.alpha) || '·'} ${`${what}:`.padEnd(12)}${r.text}`);
    }
    if (m.significanceNote) out.push('', m.significanceNote);
  }
  if (m.findings.length) {
    out.push('', 'FINDINGS AT DEEP PAGES (the seed\'s direction, checked)');
    for (const f of m.findings) out.push(`  ${findingMark(f)} ${f.claim}: ${f.text}`);
  }
  out.push(...againstBaseLines(m.comparisons));
  return `${out.join('\n')}\n`;
}

/** Markdown for the job summary: the same sections as tables. */
export function markdown(ctx) {
  const m = model(ctx);
  const out = ['### catalog-api: HATEOAS vs REST/Stream vs gRPC'];
  if (m.description) out.push('', mdEscape(m.description, { max: 500 }));
  for (const n of m.notices) out.push('', `> ⚠️ ${mdEscape(n, { max: 500 })}`);
  if (!m.names.length) return `${out.join('\n')}\n\nNo catalog-api results in this run.\n`;
  const heads = ['', ...m.names.map((n) => mdEscape(m.v[n].label))];
  const esc = (rows) => rows.map((r) => r.map((c) => mdEscape(c)));
  out.push('', mdEscape(configLine(m), { max: 400 }), '', mdEscape(method(m), { max: 400 }));
  out.push('', '**Single request latency (ms)**', '', mdTable(heads, esc(latencyRows(m))));
  out.push('', '**Response size (bytes)**', '', mdTable(heads, esc(sizeRows(m))));
  out.push('', '**Full pagination traversal**', '', mdTable(heads, esc(traversalRows(m))));
  const extra = extraLines(m);
  if (extra.length) out.push('', ...extra.map((l) => `- ${mdEscape(l, { max: 400 })}`));
  if (m.blocks.length) {
    out.push('', '**Performance improvements**', '');
    out.push(mdTable(['', ...m.blocks.map((b) => mdEscape(b.title))],
      m.blocks[0].lines.map(([what], i) => [what, ...m.blocks.map((b) => `${blockMark(b.lines[i][1], m.alpha) ? `${blockMark(b.lines[i][1], m.alpha)} ` : ''}${mdEscape(b.lines[i][1].text)}`)])));
    if (m.significanceNote) out.push('', mdEscape(m.significanceNote, { max: 300 }));
  }
  if (m.findings.length) {
    out.push('', '**Findings at deep pages**', '');
    for (const f of m.findings) out.push(`- ${findingMark(f)} ${mdEscape(f.claim)}: ${mdEscape(f.text, { max: 900 })}`);
  }
  if (m.comparisons.length) out.push('', `Against base: ${headline(countVerdicts(m.comparisons))}`);
  return `${out.join('\n')}\n`;
}

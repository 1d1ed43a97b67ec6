// End-of-test output: handleSummary data as JSON to the file in BENCHLINE_SUMMARY, and a compact text summary on stdout.
//
// k6's own text renderer lives in a remote jslib module, and benchline's machines reach no
// network beyond package registries, so the text summary is rendered here. This file imports
// nothing from k6, so node can test textSummary() directly.

const globalEnv = () => (typeof __ENV === 'undefined' ? {} : __ENV);

const round = (v) => {
  const a = Math.abs(v);
  return Number(v.toFixed(a >= 100 ? 1 : a >= 10 ? 2 : 3)).toString();
};

/** A k6 summary value in its natural unit: times arrive in ms, data in bytes. */
export function formatValue(v, contains) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '-';
  if (contains === 'time') {
    const a = Math.abs(v);
    if (a >= 1000) return `${round(v / 1000)}s`;
    if (a >= 1) return `${round(v)}ms`;
    return `${round(v * 1000)}µs`;
  }
  if (contains === 'data') {
    const a = Math.abs(v);
    if (a >= 1e9) return `${round(v / 1e9)} GB`;
    if (a >= 1e6) return `${round(v / 1e6)} MB`;
    if (a >= 1e3) return `${round(v / 1e3)} kB`;
    return `${round(v)} B`;
  }
  return round(v);
}

// k6 hands trend values over in Go map order, which changes from run to run.
const STAT_ORDER = ['count', 'avg', 'min', 'med', 'max'];
const statRank = (k) => {
  const i = STAT_ORDER.indexOf(k);
  if (i >= 0) return i;
  const p = /^p\(?([\d.]+)\)?$/.exec(k);
  return p ? STAT_ORDER.length + Number(p[1]) : 1000;
};

function describe(m) {
  const v = m.values || {};
  if (m.type === 'trend') {
    const keys = Object.keys(v).sort((a, b) => statRank(a) - statRank(b) || (a < b ? -1 : 1));
    return keys.map((k) => `${k}=${k === 'count' ? v[k] : formatValue(v[k], m.contains)}`).join(' ');
  }
  if (m.type === 'counter') {
    const rate = v.rate === undefined ? '' : `  ${formatValue(v.rate, m.contains)}/s`;
    return `${formatValue(v.count, m.contains)}${rate}`;
  }
  if (m.type === 'rate') {
    const hits = v.passes ?? v.matches ?? 0;
    const total = v.passes !== undefined ? v.passes + v.fails : v.total ?? 0;
    return `${round((v.rate ?? v.value ?? 0) * 100)}%  ${hits} out of ${total}`;
  }
  return `${formatValue(v.value, m.contains)}  min=${formatValue(v.min, m.contains)} max=${formatValue(v.max, m.contains)}`;
}

/** Metrics as [name, {type, contains, values, thresholds}] from either handleSummary data shape. */
function metricsOf(data) {
  if (Array.isArray(data?.results?.metrics)) {
    return data.results.metrics.map((m) => [m.name, m]);
  }
  return Object.entries(data?.metrics || {});
}

/** Plain-text summary of handleSummary data: thresholds, checks, then every metric sorted by name. */
export function textSummary(data) {
  const metrics = metricsOf(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = [];
  const thresholds = [];
  for (const [name, m] of metrics) {
    for (const [expr, t] of Object.entries(m.thresholds || {}).sort(([a], [b]) => (a < b ? -1 : 1))) thresholds.push(`  ${t.ok ? 'ok  ' : 'FAIL'} ${name}: ${expr}`);
  }
  if (thresholds.length) lines.push('thresholds', ...thresholds, '');
  const checks = data?.root_group?.checks || data?.results?.checks?.results || [];
  const checkList = Array.isArray(checks) ? checks : Object.values(checks);
  if (checkList.length) {
    lines.push('checks');
    for (const c of checkList) lines.push(`  ${c.fails ? 'FAIL' : 'ok  '} ${c.name}: ${c.passes} passed, ${c.fails} failed`);
    lines.push('');
  }
  const width = Math.max(20, ...metrics.map(([n]) => n.length + 2));
  lines.push('metrics');
  for (const [name, m] of metrics) lines.push(`  ${`${name} `.padEnd(width, '.')} ${describe(m)}`);
  const ms = data?.state?.testRunDurationMs ?? (data?.config?.duration !== undefined ? data.config.duration * 1000 : undefined);
  if (ms !== undefined) lines.push('', `test run: ${formatValue(ms, 'time')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * k6 calls this at the end of a run. Returning a map replaces k6's default output, so the text
 * summary is written to stdout here and the JSON goes to BENCHLINE_SUMMARY when it is set.
 */
export function handleSummary(data, env = globalEnv()) {
  const out = { stdout: textSummary(data) };
  if (env.BENCHLINE_SUMMARY) out[env.BENCHLINE_SUMMARY] = JSON.stringify(data, null, 2);
  return out;
}

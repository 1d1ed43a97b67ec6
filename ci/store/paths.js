// Where each series and run lives in the built site: one module shared by the site builder (Node) and the page (browser).
// Kept free of Node imports on purpose: the page bundles it, and the build also copies it verbatim into the site.

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_SEGMENT = 80;

/** FNV-1a 32-bit hash as 8 hex digits: a short, stable name for text too long for one path segment. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * One path segment for any text: slugs pass unchanged; other characters become ~XX (UTF-8 hex), so
 * "a b/c" and "a_b_c" never collide; long names keep a readable prefix plus a hash.
 */
export function segment(text) {
  const s = String(text);
  let out = SAFE.test(s) ? s : '';
  if (!out) {
    for (const byte of new TextEncoder().encode(s)) {
      const ch = String.fromCharCode(byte);
      out += /[A-Za-z0-9_-]/.test(ch) || (ch === '.' && out) ? ch : `~${byte.toString(16).padStart(2, '0')}`;
    }
  }
  if (out.length > MAX_SEGMENT) out = `${out.slice(0, MAX_SEGMENT - 10)}~~${fnv1a(s)}`;
  return out;
}

/** The metric part of a series key: `name`, or `case::name` for sub-benchmarks (JMH methods, hyperfine commands). */
export const metricId = (m) => (m.case ? `${m.case}::${m.name}` : m.name);

/** Text id of a series: suite/variant/tool/scenario/metric, metric as metricId. */
export const seriesId = (key) => [key.suite, key.variant, key.tool, key.scenario, key.metric].join('/');

/** Site-relative path of one series' data file. key = { suite, variant, tool, scenario, metric } (metric = metricId). */
export function seriesPath(key) {
  for (const k of ['suite', 'variant', 'tool', 'scenario', 'metric']) {
    if (key[k] === undefined || key[k] === null || key[k] === '') throw new Error(`seriesPath: key has no ${k}`);
  }
  return `data/series/${segment(key.suite)}/${segment(key.variant)}/${segment(key.tool)}/${segment(key.scenario)}/${segment(key.metric)}.js`;
}

/**
 * Site-relative path of part k (0, 1, ...) of a series, beside the series file: a folder named as the file without
 * `.js` (series files sit five folders deep, part files six, so the two never collide).
 */
export const seriesPartPath = (path, k) => `${path.replace(/\.js$/, '')}/${k}.js`;

/**
 * Site-relative path of one run's detail file; grouped by month so no folder grows without bound. The month is the
 * UTC one, as the store files the run and as the page finds it from the run table's time: a start written with an
 * offset (2025-03-01T01:00:00+02:00) belongs to February.
 */
export function runPath(run) {
  const t = Date.parse(run.startedAt || '');
  const month = Number.isFinite(t) ? /^(\d{4})-(\d{2})/.exec(new Date(t).toISOString()) : null;
  return `data/runs/${month ? `${month[1]}/${month[2]}` : 'undated'}/${segment(run.id)}.js`;
}

/** Site-relative path of a compacted month (YYYY-MM): archived runs are read from it instead of per-run files. */
export const archivePath = (month) => `data/archive/${month}.js`;

/** Site-relative path of a suite's report page (the newest run's report, rendered by the suite's own module). */
export const reportPath = (suite) => `data/reports/${segment(suite)}.js`;

/** Site-relative path of a file a suite report draws (a plot), beside its page. */
export const reportFilePath = (suite, file) => `data/reports/${segment(suite)}/${segment(file)}`;

/** Path of the small index every page loads first, and of the shared run table. */
export const INDEX_PATH = 'data/index.js';
export const RUNS_PATH = 'data/runs.js';

/** Name of the global function every data file calls with (path, payload): lets data load from file:// by <script>. */
export const DATA_CALLBACK = '__benchlineData';

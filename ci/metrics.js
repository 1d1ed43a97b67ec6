// The one place that says what a metric name means: its canonical unit and which direction is better.
const EXACT = {
  throughput: ['ops/s', 'higher'],
  requests: ['count', 'higher'],
  iterations: ['count', 'higher'],
  errors: ['count', 'lower'],
  error_rate: ['ratio', 'lower'],
  checks_pass_rate: ['ratio', 'higher'],
  duration: ['ns', 'lower'],
  transfer_rate: ['bytes/s', 'higher'],
  bytes_received: ['bytes', 'lower'],
  body_bytes_received: ['bytes', 'lower'],
  time_per_request: ['ns', 'lower'],
  bytes_sent: ['bytes', 'lower'],
  response_bytes: ['bytes', 'lower'],
  message_bytes: ['bytes', 'lower'],
  alloc_per_op: ['bytes', 'lower'],
  alloc_rate: ['bytes/s', 'lower'],
  gc_count: ['count', 'lower'],
  gc_time: ['ns', 'lower'],
  items: ['count', 'higher'],
  pages: ['count', 'lower'],
};

// Families: every `latency.*` or `time.*` is a duration in ns where lower is better.
const FAMILIES = [
  [/^(latency|time|connect|processing|waiting|ttfb|traversal)\./, ['ns', 'lower']],
];

/** Unit and direction for a metric name, or undefined when the name is unknown. */
export function describeMetric(name) {
  if (Object.hasOwn(EXACT, name)) return { unit: EXACT[name][0], better: EXACT[name][1] };
  for (const [re, [unit, better]] of FAMILIES) if (re.test(name)) return { unit, better };
  return undefined;
}

/**
 * Builds one metric of a single trial. Known names take their unit and direction from the
 * registry; unknown names must pass both explicitly, so no adapter can invent a direction.
 */
export function metric(name, value, extra = {}) {
  const known = describeMetric(name);
  const unit = extra.unit ?? known?.unit;
  const better = extra.better ?? known?.better;
  if (!unit || !better) throw new Error(`metric ${name}: unknown name, pass unit and better`);
  if (known && (known.unit !== unit || known.better !== better)) {
    throw new Error(`metric ${name}: registry says ${known.unit}/${known.better}, got ${unit}/${better}`);
  }
  if (!Number.isFinite(value)) throw new Error(`metric ${name}: value ${value === undefined ? 'missing' : typeof value === 'number' ? value : JSON.stringify(value)} is not a finite number`);
  const m = { name, unit, better, value, samples: [value] };
  for (const k of ['case', 'lower', 'upper', 'confidence', 'resolution', 'setBy', 'guessed']) if (extra[k] !== undefined) m[k] = extra[k];
  if (extra.samples) m.samples = extra.samples;
  return m;
}

/** A judge pattern as a regular expression: `*` stands for any run of characters, everything else for itself. */
export const globToRegExp = (glob) => new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
/** Whether a metric name matches a judge pattern (a name, or a glob with `*`). */
export const matches = (pattern, name) => (pattern.includes('*') ? globToRegExp(pattern).test(name) : pattern === name);

/** Key that identifies a metric inside one benchmark across runs. */
export const metricKey = (m) => (m.case ? `${m.case}::${m.name}` : m.name);

// Shared k6 options for benchmarks: an open-model constant-arrival-rate scenario with thresholds, sized by -e parameters.
//
// The scenario is always named `bench`, and every threshold is set on the `{scenario:bench}`
// submetric: k6 then reports the scenario's own numbers beside the whole-test ones, so the
// readiness probe in setup() never counts as a measured request. benchline's k6 adapter
// prefers these submetrics when they are present.

export const SCENARIO = 'bench';

/** The trend statistics every benchline k6 run reports (ms in k6's summary; the adapter converts). */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'];

const globalEnv = () => (typeof __ENV === 'undefined' ? {} : __ENV);

/** A script parameter from `k6 run -e KEY=VALUE`, or the fallback when unset or empty. */
export function param(name, fallback, env = globalEnv()) {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

/**
 * The request path from -e PATH=/x. k6 also copies the OS environment into __ENV, where PATH is
 * the shell's search path, so only a value that looks like a URL path is taken.
 */
export function urlPath(fallback, env = globalEnv(), name = 'PATH') {
  const v = env[name];
  return typeof v === 'string' && /^\/[^:\s]*$/.test(v) ? v : fallback;
}

/** BASE_URL without a trailing slash; a script cannot do anything useful without it. */
export function baseUrl(env = globalEnv()) {
  const url = param('BASE_URL', '', env).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(url)) {
    throw new Error(`BASE_URL is "${url}": run k6 with -e BASE_URL=http://127.0.0.1:<port>`);
  }
  return url;
}

function positive(name, raw, { integer = false } = {}) {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`${name}=${raw} must be a positive ${integer ? 'integer' : 'number'} (k6 run -e ${name}=...)`);
  }
  return n;
}

function duration(name, raw) {
  if (!/^\d+(\.\d+)?(ms|s|m|h)$/.test(String(raw))) {
    throw new Error(`${name}=${raw} must be a k6 duration such as 500ms, 5s or 1m (k6 run -e ${name}=...)`);
  }
  return String(raw);
}

/**
 * Options for one constant-arrival-rate benchmark. Defaults come from `defaults`, and -e
 * parameters override them: RATE (iterations per TIME_UNIT, default 1s), DURATION (k6 wants
 * at least 1s), VUS (pre-allocated),
 * MAX_VUS, P95_MS, P99_MS (latency bounds), MAX_FAILED_RATE, MIN_CHECKS_RATE.
 * `extraThresholds` adds thresholds on a script's own metrics.
 */
export function benchOptions(defaults = {}, env = globalEnv()) {
  const rate = positive('RATE', param('RATE', defaults.rate ?? 50, env), { integer: true });
  const vus = positive('VUS', param('VUS', defaults.vus ?? Math.ceil(rate / 20) + 2, env), { integer: true });
  const maxVus = positive('MAX_VUS', param('MAX_VUS', defaults.maxVus ?? vus * 2, env), { integer: true });
  const p95 = positive('P95_MS', param('P95_MS', defaults.p95Ms ?? 100, env));
  const p99 = positive('P99_MS', param('P99_MS', defaults.p99Ms ?? 250, env));
  const maxFailed = Number(param('MAX_FAILED_RATE', defaults.maxFailedRate ?? 0.01, env));
  const minChecks = Number(param('MIN_CHECKS_RATE', defaults.minChecksRate ?? 0.99, env));
  const tag = `{scenario:${SCENARIO}}`;
  return {
    scenarios: {
      [SCENARIO]: {
        executor: 'constant-arrival-rate',
        rate,
        timeUnit: duration('TIME_UNIT', param('TIME_UNIT', defaults.timeUnit ?? '1s', env)),
        duration: duration('DURATION', param('DURATION', defaults.duration ?? '5s', env)),
        preAllocatedVUs: vus,
        maxVUs: Math.max(vus, maxVus),
        // Bounded: in-flight iterations get this long after DURATION, then k6 stops them.
        gracefulStop: defaults.gracefulStop ?? '2s',
        ...(defaults.exec ? { exec: defaults.exec } : {}),
      },
    },
    thresholds: {
      [`http_req_duration${tag}`]: [`p(95)<${p95}`, `p(99)<${p99}`],
      [`http_req_failed${tag}`]: [`rate<${maxFailed}`],
      [`checks${tag}`]: [`rate>${minChecks}`],
      // Always true: they only make k6 report the scenario's own counts in the summary.
      [`http_reqs${tag}`]: ['count>=0'],
      [`data_received${tag}`]: ['count>=0'],
      ...(defaults.extraThresholds || {}),
    },
    summaryTrendStats: TREND_STATS,
    setupTimeout: defaults.setupTimeout ?? '40s',
    teardownTimeout: '10s',
  };
}

// Parameters and page positions of the catalog-api k6 scripts; imports nothing from k6, so node tests can check it directly.
//
// The seed's variables arrive as -e KEY=VALUE (benchline passes job params that way): BASE_URL,
// GRPC_HOST (or GRPC_TARGET, which benchline sets from the subject), PAGE_SIZE, WARMUP_REQUESTS,
// BENCHMARK_REQUESTS, DATE_START, DATE_END; plus API (hateoas | rest-stream | grpc), SEED,
// TRAVERSALS, READY_TIMEOUT (seconds to wait for the API) and MAX_DURATION. Every check runs in
// setup(), before any measured request.

export const APIS = Object.freeze(['hateoas', 'rest-stream', 'grpc']);
export const MAX_PAGE_SIZE = 10000;
/** Deep pages are drawn from the last tenth of the range, where OFFSET walks past 90 % of the rows first. */
export const DEEP_FROM = 0.9;

const globalEnv = () => (typeof __ENV === 'undefined' ? {} : __ENV);
const has = (env, k) => env[k] !== undefined && env[k] !== '';

function integer(env, name, fallback, min, max) {
  const raw = has(env, name) ? env[name] : String(fallback);
  const n = Number(raw);
  if (!/^-?\d+$/.test(String(raw).trim()) || !Number.isSafeInteger(n)) {
    throw new Error(`${name}=${raw} is not a whole number (k6 run -e ${name}=<${min}..${max}>)`);
  }
  if (n < min || n > max) throw new Error(`${name}=${raw} is out of range: use ${min}..${max} (k6 run -e ${name}=...)`);
  return n;
}

/**
 * Milliseconds since the epoch of an ISO-8601 date-time, read the way catalog-api reads it:
 * no zone means UTC ("2024-01-01T00:00:00"), "Z" or "+01:00" are honoured, anything else is refused.
 */
export function parseInstant(name, raw) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/.exec(String(raw).trim());
  if (!m) throw new Error(`${name}=${raw} is not an ISO-8601 date-time such as 2024-01-01T00:00:00 (UTC) or 2024-01-01T00:00:00Z`);
  const [, y, mo, d, h, mi, s = '00', frac = '', zone = 'Z'] = m;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${zone}`);
  const back = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).toISOString().slice(0, 10);
  if (!Number.isFinite(ms) || back !== `${y}-${mo}-${d}` || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    throw new Error(`${name}=${raw} is not a real date-time`);
  }
  return ms;
}

/** host:port of the gRPC server: GRPC_HOST (the seed's name) wins over GRPC_TARGET (set by benchline). */
export function grpcAddress(env = globalEnv()) {
  const raw = has(env, 'GRPC_HOST') ? env.GRPC_HOST : env.GRPC_TARGET;
  const v = String(raw ?? '').replace(/^[a-z]+:\/\//, '');
  if (!/^[^\s:/]+:\d{1,5}$/.test(v)) {
    throw new Error(`GRPC_HOST is "${raw ?? ''}": give the gRPC server as host:port (k6 run -e GRPC_HOST=127.0.0.1:9090)`);
  }
  return v;
}

/** BASE_URL without a trailing slash. */
export function baseUrl(env = globalEnv()) {
  const url = String(env.BASE_URL ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+$/.test(url)) {
    throw new Error(`BASE_URL is "${env.BASE_URL ?? ''}": give the HTTP server as http://host:port (k6 run -e BASE_URL=http://127.0.0.1:8080)`);
  }
  return url;
}

/**
 * Every parameter, checked, with the seed's defaults. Throws one Error whose message names the
 * variable, the value and what is accepted; scripts call this in setup() so a bad value stops
 * the run (k6 exit 107) before any load.
 */
export function readParams(env = globalEnv()) {
  const api = has(env, 'API') ? String(env.API) : '';
  if (!APIS.includes(api)) throw new Error(`API=${api || '(unset)'} is not one of ${APIS.join(', ')} (k6 run -e API=...)`);
  const pageSize = integer(env, 'PAGE_SIZE', 100, 1, MAX_PAGE_SIZE);
  const dateStart = has(env, 'DATE_START') ? String(env.DATE_START) : '2024-01-01T00:00:00';
  const dateEnd = has(env, 'DATE_END') ? String(env.DATE_END) : '2024-12-31T23:59:59';
  const startMs = parseInstant('DATE_START', dateStart);
  const endMs = parseInstant('DATE_END', dateEnd);
  if (startMs > endMs) throw new Error(`DATE_START=${dateStart} is after DATE_END=${dateEnd}: the date range is inverted; swap them`);
  const p = {
    api,
    pageSize,
    dateStart,
    dateEnd,
    startMs,
    endMs,
    warmupRequests: integer(env, 'WARMUP_REQUESTS', 5, 0, 100000),
    benchmarkRequests: integer(env, 'BENCHMARK_REQUESTS', 20, 1, 100000),
    traversals: integer(env, 'TRAVERSALS', 1, 1, 100),
    seed: integer(env, 'SEED', 1, 0, 2 ** 31 - 1),
    readyTimeout: integer(env, 'READY_TIMEOUT', 60, 1, 600),
  };
  if (api === 'grpc') p.grpc = grpcAddress(env);
  else p.baseUrl = baseUrl(env);
  return p;
}

/** mulberry32: a tiny seeded generator, so every variant and every trial asks for the same positions. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * n positions in the range as fractions in [0, 1): even ones uniform over the whole range
 * ("random"), odd ones in its last tenth ("deep").
 */
export function positions(n, seed = 1) {
  const next = rng(seed);
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const u = next();
    out.push(i % 2 === 0 ? { kind: 'random', fraction: u } : { kind: 'deep', fraction: DEEP_FROM + (1 - DEEP_FROM) * u });
  }
  return out;
}

/** The offset page at a fraction of the range: the page holding that share of totalElements. */
export const pageAt = (fraction, totalPages) => Math.max(0, Math.min(totalPages - 1, Math.floor(fraction * totalPages)));

/**
 * The keyset cursor at a fraction of the range: the key (instant at that share of the time span,
 * id 0), so the page starts with the first event at or after that instant. The events are spread
 * evenly over time, so this lands on the same share of the rows as pageAt does.
 */
export function cursorAt(fraction, startMs, endMs) {
  const ms = startMs + Math.floor((fraction * (endMs - startMs)) / 1000) * 1000;
  return `${new Date(ms).toISOString().replace('.000Z', 'Z')}_0`;
}

// What does one page of the range cost through HATEOAS (offset), REST/Stream (keyset) or gRPC, at random and at deep positions?
//
// Seed 000's single-request latency, sequential like its curl loop: one VU makes
// BENCHMARK_REQUESTS requests, alternating a random position in the range and a deep one (its last
// tenth, where OFFSET has to walk past most rows). Positions come from a seeded generator, so every
// variant and trial asks for the same shares of the range (catalog-params.js). setup() checks the
// parameters, waits for the API and sends WARMUP_REQUESTS unmeasured requests; only the `bench`
// scenario is measured. The size of each full page goes to bl_page_bytes (HTTP: the body; gRPC: the
// encoded message, from the server's x-message-bytes trailer).
//
// Parameters (-e): API, BASE_URL or GRPC_HOST/GRPC_TARGET, PAGE_SIZE, DATE_START, DATE_END,
// WARMUP_REQUESTS, BENCHMARK_REQUESTS, SEED, READY_TIMEOUT (s, default 60), MAX_DURATION (bound on
// the measured part, default 2m).
import exec from 'k6/execution';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { readParams, positions } from './catalog-params.js';
import { fetchPage, waitForApi, resolvePositions, warmUp, catalogSummary } from './catalog-common.js';

const env = typeof __ENV === 'undefined' ? {} : __ENV;
const isGrpc = env.API === 'grpc';
const duration = isGrpc ? 'grpc_req_duration' : 'http_req_duration';
const tag = '{scenario:bench}';
const requests = Number(env.BENCHMARK_REQUESTS || 20);

const pageBytes = new Trend('bl_page_bytes');

export const options = {
  scenarios: {
    bench: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: Number.isSafeInteger(requests) && requests > 0 ? requests : 1,
      maxDuration: env.MAX_DURATION || '2m',
      gracefulStop: '5s',
    },
  },
  thresholds: {
    [`${duration}${tag}`]: ['max>=0'],
    // Only declared so that k6 reports these submetrics; catalogSummary turns them into bl_latency_*.
    [`${duration}{scenario:bench,position:random}`]: ['max>=0'],
    [`${duration}{scenario:bench,position:deep}`]: ['max>=0'],
    [`checks${tag}`]: ['rate>0.99'],
    ...(isGrpc ? {} : { [`http_req_failed${tag}`]: ['rate<0.01'], [`http_reqs${tag}`]: ['count>=0'], [`data_received${tag}`]: ['count>=0'] }),
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
  setupTimeout: '120s',
  teardownTimeout: '10s',
};

export function setup() {
  const p = readParams();
  waitForApi(p);
  const resolved = resolvePositions(p, positions(p.benchmarkRequests, p.seed));
  warmUp(p, resolved);
  return { p, resolved };
}

export default function (data) {
  const { p, resolved } = data;
  const pos = resolved[exec.scenario.iterationInTest % resolved.length];
  const r = fetchPage(p, pos.at, { position: pos.kind });
  const ok = check(r, {
    'page answered': (x) => x.ok,
    [`page holds at most ${p.pageSize} events`]: (x) => x.items.length <= p.pageSize,
  });
  if (!ok && r.error) console.error(r.error);
  // Only full pages count toward the size, so a short page at the end of the range cannot flatter one API.
  if (r.ok && r.items.length === p.pageSize && Number.isFinite(r.bytes)) pageBytes.add(r.bytes);
}

export function handleSummary(data) {
  return catalogSummary(data, {
    bl_latency_random: `${duration}{scenario:bench,position:random}`,
    bl_latency_deep: `${duration}{scenario:bench,position:deep}`,
  });
}

// How long does reading the whole range take, page after page, through HATEOAS (next links), REST/Stream (cursors) or gRPC?
//
// Seed 000's full pagination traversal: one VU walks the range from its first page to its last
// TRAVERSALS times (default 1 per trial), following HATEOAS `_links.next.href`, REST `nextCursor`
// or the gRPC `next_cursor`, and records the items and pages it saw (bl_items, bl_pages) and the
// wall time of the walks (bl_traversal_time; a Counter, not a Trend: a trial has one walk by default, and
// eight percentiles of one value are one number printed eight times). Every page is checked to continue the key order of the one
// before it (no gap can hide, no event can repeat), and HATEOAS's walk must match its own
// totalElements and totalPages. gRPC also reads the range once as one server stream (bl_stream_*),
// in teardown(), after the walks.
// setup() checks the parameters, waits for the API and sends WARMUP_REQUESTS unmeasured page
// requests from the start of the range.
//
// Parameters (-e): API, BASE_URL or GRPC_HOST/GRPC_TARGET, PAGE_SIZE, DATE_START, DATE_END,
// WARMUP_REQUESTS, TRAVERSALS, READY_TIMEOUT (s, default 60), MAX_DURATION (bound on the measured
// part, default 5m).
import grpc from 'k6/net/grpc';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { readParams } from './catalog-params.js';
import { fetchPage, waitForApi, warmUp, catalogSummary, grpcClient, ensureConnected, STREAM } from './catalog-common.js';

const env = typeof __ENV === 'undefined' ? {} : __ENV;
const isGrpc = env.API === 'grpc';
const duration = isGrpc ? 'grpc_req_duration' : 'http_req_duration';
const tag = '{scenario:bench}';
const traversals = Number(env.TRAVERSALS || 1);

const traversalTime = new Counter('bl_traversal_time', true);
const items = new Counter('bl_items');
const pages = new Counter('bl_pages');
const streamTime = new Counter('bl_stream_traversal_time', true);
const streamItems = new Counter('bl_stream_items');
const streamPages = new Counter('bl_stream_pages');

export const options = {
  scenarios: {
    bench: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: Number.isSafeInteger(traversals) && traversals > 0 ? traversals : 1,
      maxDuration: env.MAX_DURATION || '5m',
      gracefulStop: '10s',
    },
  },
  thresholds: {
    [`${duration}${tag}`]: ['max>=0'],
    [`checks${tag}`]: ['rate==1'],
    ...(isGrpc ? {} : { [`http_req_failed${tag}`]: ['rate==0'], [`http_reqs${tag}`]: ['count>=0'], [`data_received${tag}`]: ['count>=0'] }),
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
  setupTimeout: '120s',
  teardownTimeout: '120s',
};

/** Sort key of an event as every API renders it: time first (ISO strings of one shape sort as text), then id. */
const keyOf = (e) => [Date.parse(e.occurredAt), Number(e.id)];
const after = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

export function setup() {
  const p = readParams();
  waitForApi(p);
  const start = [{ at: p.api === 'hateoas' ? { page: 0 } : { cursor: '' } }];
  warmUp(p, start);
  return { p };
}

/** Walks every page once; returns { items, pages, ms, ordered, error?, total?, totalPages? }. */
function walk(p) {
  const t0 = Date.now();
  let at = p.api === 'hateoas' ? { page: 0 } : { cursor: '' };
  let count = 0;
  let n = 0;
  let last;
  let ordered = true;
  let first;
  for (;;) {
    const r = fetchPage(p, at);
    if (!r.ok) return { items: count, pages: n, ms: Date.now() - t0, ordered, error: r.error };
    if (!first) first = r;
    if (r.items.length === 0 && n > 0) break;
    n += 1;
    for (const e of r.items) {
      const k = keyOf(e);
      if (last && !after(k, last)) ordered = false;
      last = k;
    }
    count += r.items.length;
    if (!r.next) break;
    at = p.api === 'hateoas' ? { url: r.next } : { cursor: r.next };
  }
  return { items: count, pages: n, ms: Date.now() - t0, ordered, total: first?.total, totalPages: first?.totalPages };
}

/** The whole range as one StreamEvents call; the iteration ends when the stream does. */
function stream(p) {
  ensureConnected(p);
  const s = new grpc.Stream(grpcClient, STREAM, { timeout: '120s' });
  const t0 = Date.now();
  let count = 0;
  let n = 0;
  let last;
  let ordered = true;
  s.on('data', (page) => {
    n += 1;
    for (const e of page.events || []) {
      const k = keyOf(e);
      if (last && !after(k, last)) ordered = false;
      last = k;
    }
    count += (page.events || []).length;
  });
  // A failed or disordered stream records no bl_stream_* metrics, so the report cannot show it as a result.
  s.on('error', (e) => console.error(`StreamEvents failed: ${e?.message || JSON.stringify(e)}`));
  s.on('end', () => {
    if (!ordered) {
      console.error('StreamEvents broke the key order; its numbers are left out');
      return;
    }
    streamTime.add(Date.now() - t0);
    streamItems.add(count);
    streamPages.add(n);
  });
  s.write({ start: p.dateStart, end: p.dateEnd, page_size: p.pageSize });
  s.end();
}

export default function (data) {
  const { p } = data;
  const w = walk(p);
  if (w.error) console.error(w.error);
  check(w, {
    'every page answered': (x) => !x.error,
    'pages continue the key order (no gap, no repeat)': (x) => x.ordered,
    ...(p.api === 'hateoas' ? {
      'items equal totalElements': (x) => x.items === x.total,
      'pages equal totalPages': (x) => x.pages === x.totalPages || (x.total === 0 && x.pages <= 1),
    } : {}),
  });
  traversalTime.add(w.ms);
  items.add(w.items);
  pages.add(w.pages);
}

/**
 * gRPC's stream runs after the walk, outside the `bench` scenario, so grpc_req_duration{scenario:bench}
 * keeps describing the unary page calls alone; its own bl_stream_* metrics carry its numbers.
 */
export function teardown(data) {
  if (data?.p?.api === 'grpc') stream(data.p);
}

export function handleSummary(data) {
  return catalogSummary(data);
}

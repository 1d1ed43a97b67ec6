// One page of the catalog-api range through any of its three APIs, readiness probes, and the summary hook of the catalog scripts.
import http from 'k6/http';
import grpc from 'k6/net/grpc';
import { fail, sleep } from 'k6';
import { waitUntilReady, handleSummary as libHandleSummary } from './lib/index.js';
import { pageAt, cursorAt } from './catalog-params.js';

export const LIST = 'benchline.catalog.v1.CatalogService/ListEvents';
export const STREAM = 'benchline.catalog.v1.CatalogService/StreamEvents';

// The proto is the service's own contract, loaded from the subject so the two never drift apart.
export const grpcClient = new grpc.Client();
grpcClient.load(['../../subjects/catalog-api/src/main/proto'], 'catalog.proto');

let connected = false;
/** One gRPC connection per VU, opened on first use (k6 allows no connection in the init context). */
export function ensureConnected(p) {
  if (!connected) {
    grpcClient.connect(p.grpc, { plaintext: true, timeout: '5s' });
    connected = true;
  }
}

const q = (v) => encodeURIComponent(v);
const rangeQuery = (p) => `start=${q(p.dateStart)}&end=${q(p.dateEnd)}&size=${p.pageSize}`;

/** A 400 from catalog-api carries a message that names the bad parameter; show it instead of a bare status. */
function httpError(res, what) {
  let message = '';
  try {
    message = JSON.parse(res.body).message || '';
  } catch { /* not JSON */ }
  return `${what} answered ${res.status || res.error}${message ? `: ${message}` : ''}`;
}

/**
 * One page: { items, next, bytes, total?, ok, error? }. `at` is { page } for HATEOAS, { cursor }
 * (or { url } to follow a next link) otherwise. bytes is the body length for HTTP (ASCII JSON, so
 * characters are bytes) and the encoded protobuf size the server reports in its trailers for gRPC.
 */
export function fetchPage(p, at, tags = {}) {
  if (p.api === 'grpc') {
    ensureConnected(p);
    const req = { start: p.dateStart, end: p.dateEnd, page_size: p.pageSize, cursor: at.cursor || '' };
    const res = grpcClient.invoke(LIST, req, { tags, timeout: '30s' });
    if (res.status !== grpc.StatusOK) return { ok: false, items: [], error: `ListEvents answered status ${res.status}: ${res.error?.message || ''}` };
    const bytes = Number((res.trailers?.['x-message-bytes'] || [])[0]);
    return { ok: true, items: res.message.events || [], next: res.message.nextCursor || null, bytes };
  }
  let url = at.url;
  if (!url && p.api === 'hateoas') url = `${p.baseUrl}/api/hateoas/events?${rangeQuery(p)}&page=${at.page ?? 0}`;
  if (!url) url = `${p.baseUrl}/api/stream/events?${rangeQuery(p)}${at.cursor ? `&cursor=${q(at.cursor)}` : ''}`;
  const res = http.get(url, { tags: { name: p.api, ...tags } });
  if (res.status !== 200) return { ok: false, items: [], error: httpError(res, url) };
  const body = res.json();
  if (p.api === 'hateoas') {
    return { ok: true, items: body._embedded?.events || [], next: body._links?.next?.href || null, bytes: res.body.length, total: body.page?.totalElements, totalPages: body.page?.totalPages };
  }
  return { ok: true, items: body.items || [], next: body.nextCursor || null, bytes: res.body.length };
}

/** Waits for the service on the variant's own protocol, so the gRPC runs make no HTTP request at all. */
export function waitForApi(p, timeoutSeconds = p.readyTimeout ?? 60) {
  if (p.api !== 'grpc') {
    waitUntilReady(`${p.baseUrl}/health`, { timeoutSeconds });
    return;
  }
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = 'no attempt';
  while (Date.now() < deadline) {
    try {
      ensureConnected(p);
      const res = grpcClient.invoke(LIST, { page_size: 1 }, { timeout: '5s' });
      if (res.status === grpc.StatusOK) return;
      last = `status ${res.status}`;
    } catch (e) {
      connected = false;
      last = String(e);
    }
    sleep(0.25);
  }
  fail(`gRPC server ${p.grpc} did not answer ListEvents within ${timeoutSeconds} s (last: ${last}); is catalog-api running?`);
}

/**
 * Where each position lands for this API: a page number for HATEOAS (needs the range's page
 * count, which its own first page reports), a keyset cursor otherwise.
 */
export function resolvePositions(p, list) {
  if (p.api !== 'hateoas') return list.map((pos) => ({ ...pos, at: { cursor: cursorAt(pos.fraction, p.startMs, p.endMs) } }));
  const first = fetchPage(p, { page: 0 });
  if (!first.ok) fail(first.error);
  const totalPages = Math.max(1, first.totalPages || 0);
  return list.map((pos) => ({ ...pos, at: { page: pageAt(pos.fraction, totalPages) } }));
}

/** Unmeasured requests (setup() is outside the `bench` scenario): the JIT compiles the hot paths before timing starts. */
export function warmUp(p, resolved) {
  for (let i = 0; i < p.warmupRequests; i += 1) {
    const r = fetchPage(p, resolved[i % resolved.length].at);
    if (!r.ok) fail(`warm-up request failed: ${r.error}`);
  }
}

/**
 * handleSummary for the catalog scripts. When setup() failed (bad parameter, server unreachable)
 * no JSON is written, so benchline fails the job with k6's error instead of recording a run that
 * measured nothing. Trends of tagged requests are copied into bl_* metrics, which the adapter maps
 * (it reads only whole metrics and the scenario's submetrics).
 */
export function catalogSummary(data, copies = {}) {
  if (!data.setup_data) {
    return { stdout: 'catalog-api: setup() did not finish (see the error above); no summary was written, nothing was measured.\n' };
  }
  for (const [name, source] of Object.entries(copies)) {
    const m = data.metrics?.[source];
    if (m && m.values && m.values.count > 0) data.metrics[name] = { type: m.type, contains: m.contains, values: m.values };
  }
  return libHandleSummary(data);
}

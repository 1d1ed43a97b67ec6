// What latency does /api/order/all-items give at a fixed arrival rate below saturation?
//
// An open model: k6 starts RATE requests per second whatever the server's speed, so a slower
// server shows up as higher latency (and dropped iterations), not as a politely lower rate.
// Parameters (k6 run -e KEY=VALUE): BASE_URL (required), RATE (req/s, default 500),
// DURATION (default 3s), PATH (default /api/order/all-items), and the shared ones of
// lib/options.js (VUS, P95_MS, P99_MS, ...). handleSummary writes JSON to BENCHLINE_SUMMARY.
import http from 'k6/http';
import { check } from 'k6';
import { benchOptions, baseUrl, urlPath, waitUntilReady } from './lib/index.js';

export { handleSummary } from './lib/index.js';

const PATH = urlPath('/api/order/all-items');

// 500 req/s is about a tenth of what the uncached subject serves on 2 cores: far below saturation.
export const options = benchOptions({ rate: 500, duration: '3s', p95Ms: 100, p99Ms: 250 });

/** Readiness probe: a subject that never comes up ends the run instead of recording refusals as latency. */
export function setup() {
  const base = baseUrl();
  waitUntilReady(`${base}/health`, { timeoutSeconds: 30 });
  return { url: `${base}${PATH}` };
}

export default function (data) {
  const res = http.get(data.url, { tags: { name: 'all-items' } });
  check(res, {
    'status is 200': (r) => r.status === 200,
    'body is a JSON items list': (r) => typeof r.body === 'string' && r.body.startsWith('{"items":['),
  });
}

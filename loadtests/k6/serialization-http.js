// Seed 002's REST phase: latency of GET /api/test/<codec> at a fixed arrival rate, its round-trip answer checked, and the codec's encoded size.
//
// The endpoint (subjects/serialization/src/main/java/benchline/serialization/HttpServe.java) encodes
// the sample message and decodes it back on every request and answers {"protocol","size","match",...}.
// Each response is checked: status 200, the codec asked for, match true (decoded equals original).
// setup() fetches /api/encoded/<codec> once and records its body length as bl_message_bytes (a
// Counter added once: one size, not a distribution), after checking it equals the size the
// endpoint reports. setup() runs outside the `bench` scenario, so its requests are not timed with the rest.
// Parameters (k6 run -e KEY=VALUE): BASE_URL, CODEC (sbe | protobuf | json), RATE (req/s, default
// 500), DURATION (default 3s), and the shared ones of lib/options.js. handleSummary writes JSON to BENCHLINE_SUMMARY.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter } from 'k6/metrics';
import { benchOptions, baseUrl, param, waitUntilReady } from './lib/index.js';

export { handleSummary } from './lib/index.js';

const CODECS = { sbe: 'SBE', protobuf: 'Protobuf', json: 'JSON' };
const codec = String(param('CODEC', 'sbe'));
if (!CODECS[codec]) throw new Error(`CODEC=${codec} is not one of ${Object.keys(CODECS).join(', ')} (k6 run -e CODEC=...)`);

const messageBytes = new Counter('bl_message_bytes', false);

// 500 req/s is far below what one JDK HttpServer answers on loopback, so this is latency under a known load.
export const options = benchOptions({ rate: 500, duration: '3s', p95Ms: 50, p99Ms: 200 });

export function setup() {
  const base = baseUrl();
  waitUntilReady(`${base}/health`, { timeoutSeconds: 30 });
  const raw = http.get(`${base}/api/encoded/${codec}`, { responseType: 'binary' });
  const answer = http.get(`${base}/api/test/${codec}`);
  if (raw.status !== 200 || answer.status !== 200) fail(`${codec}: /api/encoded answered ${raw.status}, /api/test answered ${answer.status}`);
  const size = raw.body.byteLength;
  const reported = answer.json('size');
  if (size !== reported) fail(`${codec}: /api/encoded served ${size} bytes but /api/test reports size ${reported}`);
  messageBytes.add(size);
  return { url: `${base}/api/test/${codec}` };
}

export default function (data) {
  const res = http.get(data.url, { tags: { name: `test-${codec}` } });
  check(res, {
    'status is 200': (r) => r.status === 200,
    [`protocol is ${CODECS[codec]}`]: (r) => r.status === 200 && r.json('protocol') === CODECS[codec],
    'decoded equals original (match)': (r) => r.status === 200 && r.json('match') === true,
  });
}

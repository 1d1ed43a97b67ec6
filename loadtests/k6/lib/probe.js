// Readiness probe for setup(): wait until the subject answers 2xx, or stop the run with a message that says why.
import http from 'k6/http';
import { fail, sleep } from 'k6';

/**
 * Polls `url` until it answers 2xx. Its requests run in setup(), outside the `bench` scenario,
 * so they never count in the scenario's metrics; on timeout k6 ends the run (exit code 107)
 * and benchline records zero iterations instead of a flood of refused connections.
 */
export function waitUntilReady(url, { timeoutSeconds = 30, intervalSeconds = 0.2 } = {}) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = 'no attempt';
  let attempts = 0;
  while (attempts === 0 || Date.now() < deadline) {
    attempts += 1;
    const res = http.get(url, {
      timeout: '2s',
      tags: { name: 'readiness' },
      // Not-ready answers are expected here; they must not count as failed requests.
      responseCallback: http.expectedStatuses({ min: 0, max: 599 }),
    });
    if (res.status >= 200 && res.status < 300) return { attempts, status: res.status };
    last = res.error || `HTTP ${res.status}`;
    sleep(intervalSeconds);
  }
  fail(`${url} did not answer 2xx within ${timeoutSeconds} s after ${attempts} attempts (last: ${last}); is the subject running?`);
  return undefined;
}

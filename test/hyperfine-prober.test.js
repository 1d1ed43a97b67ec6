// loadtests/hyperfine/start-to-healthy.sh: starts a service, returns once its health URL answers 2xx, and leaves nothing running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { resolve } from 'node:path';

const PROBER = resolve('loadtests/hyperfine/start-to-healthy.sh');

const freePort = () => new Promise((res) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
});
const listening = (port) => new Promise((res) => {
  const c = connect(port, '127.0.0.1');
  c.once('connect', () => { c.destroy(); res(true); });
  c.once('error', () => res(false));
});

test('returns 0 once the service answers its health URL, and the service is stopped again', async () => {
  const port = await freePort();
  // python3's http.server answers GET / with 200 after a short start.
  const r = spawnSync(PROBER, [`http://127.0.0.1:${port}/`, 'python3', '-m', 'http.server', '--bind', '127.0.0.1', String(port)], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(await listening(port), false, 'nothing listens on the port afterwards');
});

test('fails with a message when the service exits before it is healthy', async () => {
  const port = await freePort();
  const r = spawnSync(PROBER, [`http://127.0.0.1:${port}/health`, 'sh', '-c', 'exit 3'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`start-to-healthy: sh exited \\(status 3\\) before http://127\\.0\\.0\\.1:${port}/health answered 2xx`));
});

test('fails when the service is not healthy within TIMEOUT seconds', async () => {
  const port = await freePort();
  const r = spawnSync(PROBER, [`http://127.0.0.1:${port}/health`, 'sleep', '30'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, TIMEOUT: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /did not answer 2xx within 1 s/);
});

test('refuses a URL off loopback or a missing command with its usage line', () => {
  for (const args of [['http://example.invalid:80/health', 'true'], ['http://127.0.0.1:9/health']]) {
    const r = spawnSync(PROBER, args, { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^usage: start-to-healthy\.sh http:\/\/127\.0\.0\.1:PORT\/health COMMAND/);
  }
});

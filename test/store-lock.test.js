// Locks left by killed processes: a publisher killed with -9 delays the next by at most 5 s, a site build's lock is taken over at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { publish, ensureStore } from '../ci/store/store.js';
import { lock, takeOverAbandoned } from '../ci/store/lock.js';
import { tempDir } from './support/temp.js';

const STORE_MODULE = fileURLToPath(new URL('../ci/store/store.js', import.meta.url));
const LOCKFILE = fileURLToPath(new URL('../node_modules/proper-lockfile/index.js', import.meta.url));
const parsed = parse(readFileSync(new URL('./fixtures/wrk/latency.txt', import.meta.url), 'utf8'));
const doc = (id) => buildResult({
  run: { id, startedAt: '2026-11-23T10:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' },
  runner: { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] },
  suite: 'lock', subject: 'nginx', variant: 'default', scenario: 'latency', tool: { name: 'wrk', version: '4.1.0' }, params: {}, trials: [parsed],
}, 'test');

test('a publisher killed with -9 while holding the store lock delays the next publisher by at most 5 s', async (t) => {
  const store = tempDir('lock');
  await ensureStore(store);
  const baseline0 = performance.now();
  await publish({ store, docs: [doc('run-a')] });
  const baseline = performance.now() - baseline0;

  // the holder takes the lock exactly as publish does (same options), says so, and then hangs
  const holder = spawn(process.execPath, ['--input-type=module', '-e', `
    import lockfile from ${JSON.stringify(LOCKFILE)};
    import { LOCK_OPTIONS } from ${JSON.stringify(STORE_MODULE)};
    await lockfile.lock(${JSON.stringify(join(store, 'store.json'))}, LOCK_OPTIONS);
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(holder.stdout, 'data');
  assert.ok(existsSync(join(store, 'store.json.lock')));
  holder.kill('SIGKILL');
  await once(holder, 'exit');

  const t0 = performance.now();
  const r = await publish({ store, docs: [doc('run-b')] });
  const took = performance.now() - t0;
  t.diagnostic(`publish after kill -9 of the holder: ${Math.round(took)} ms (without a stale lock: ${Math.round(baseline)} ms)`);
  assert.equal(r.added, 1);
  assert.deepEqual(r.errors, []);
  assert.ok(took - baseline < 5000, `the stale lock held the next publisher ${Math.round(took - baseline)} ms`);
  assert.equal(existsSync(join(store, 'store.json.lock')), false, 'the lock is released afterwards');
});

const SITE_MODULE = fileURLToPath(new URL('../ci/store/site.js', import.meta.url));

for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  test(`${sig} handled while a site build takes its folder's lock leaves no site.lock, so the next build does not wait two minutes`, async () => {
    const store = tempDir('site-lock-store');
    await ensureStore(store);
    await publish({ store, docs: [doc('run-a')] });
    const out = join(tempDir('site-lock-out'), 'site');
    // as bench does: a handler that exits; the signal arrives once the lock folder exists, before the lock is fully taken
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      import { existsSync } from 'node:fs';
      import { buildSite } from ${JSON.stringify(SITE_MODULE)};
      process.on(${JSON.stringify(sig)}, () => process.exit(${code}));
      buildSite({ store: ${JSON.stringify(store)}, out: ${JSON.stringify(out)} });
      const deadline = Date.now() + 10000;
      while (!existsSync(${JSON.stringify(`${out}.lock`)}) && Date.now() < deadline) { /* the folder is being made */ }
      process.kill(process.pid, ${JSON.stringify(sig)});
    `], { stdio: ['ignore', 'inherit', 'inherit'] });
    const [exit] = await once(child, 'exit');
    assert.equal(exit, code);
    assert.equal(existsSync(`${out}.lock`), false, 'the lock folder went with the build');
    const { buildSite } = await import('../ci/store/site.js');
    const t0 = performance.now();
    const waits = [];
    await buildSite({ store, out, log: (m) => waits.push(m) });
    assert.deepEqual(waits.filter((m) => /waiting for/.test(m)), [], 'the next build did not wait for a lock');
    assert.ok(performance.now() - t0 < 60000);
  });
}

test('a lock folder is taken over at once only when its owner file names a process of this machine that is gone', async () => {
  const ns = readlinkSync('/proc/self/ns/pid');
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
  try {
    const cases = {
      gone: [{ pid: gone.pid, host: hostname(), ns }, true],
      alive: [{ pid: alive.pid, host: hostname(), ns }, false],
      'this process': [{ pid: process.pid, host: hostname(), ns }, false],
      'another host': [{ pid: gone.pid, host: `${hostname()}-elsewhere`, ns }, false],
      'another PID namespace (a container)': [{ pid: gone.pid, host: hostname(), ns: 'pid:[1]' }, false],
      'no owner file (being taken, or an older lock)': [null, false],
      'a garbled owner file': ['{"pid": ', false],
    };
    for (const [name, [owner, taken]] of Object.entries(cases)) {
      const dir = join(tempDir('owner'), 'site.lock');
      mkdirSync(dir);
      if (owner !== null) writeFileSync(join(dir, 'owner.json'), typeof owner === 'string' ? owner : JSON.stringify(owner));
      assert.equal(takeOverAbandoned(dir), taken, name);
      assert.equal(existsSync(dir), !taken, `${name}: the folder ${taken ? 'is removed' : 'stays'}`);
    }
  } finally {
    alive.kill('SIGKILL');
  }
});

const LOCK_MODULE = fileURLToPath(new URL('../ci/store/lock.js', import.meta.url));
const SITE_LIKE = { stale: 120000, update: 5000, realpath: false, onCompromised: () => {} };

/** A child process holding the lock on `file` (as a site build does), once it says so. */
async function holderOf(file) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    import { lock } from ${JSON.stringify(LOCK_MODULE)};
    await lock(${JSON.stringify(file)}, ${JSON.stringify(SITE_LIKE)});
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout, 'data');
  return child;
}

for (const sig of ['SIGTERM', 'SIGINT']) {
  test(`a process holding a site lock that ${sig} ends (no handler of its own) dies of it and leaves no lock folder`, async () => {
    const file = join(tempDir('lock-signal'), 'site');
    const holder = await holderOf(file);
    assert.ok(existsSync(join(`${file}.lock`, 'owner.json')));
    holder.kill(sig);
    const [code, signal] = await once(holder, 'exit');
    assert.deepEqual([code, signal], [null, sig], 'the signal still ends it');
    assert.equal(existsSync(`${file}.lock`), false, 'the lock folder went with it');
  });
}

test('a build waiting for a lock takes it over as soon as its holder is killed with -9, not two minutes later', async (t) => {
  const file = join(tempDir('lock-waiter'), 'site');
  const holder = await holderOf(file);
  const t0 = performance.now();
  const waiting = lock(file, { ...SITE_LIKE, retries: { retries: 600, factor: 1.2, minTimeout: 100, maxTimeout: 1000 } });
  await new Promise((r) => setTimeout(r, 500));
  holder.kill('SIGKILL');
  const release = await waiting;
  const took = performance.now() - t0;
  t.diagnostic(`waited ${Math.round(took)} ms, the holder killed after 500 ms`);
  assert.ok(took < 10000, `waited ${Math.round(took)} ms`);
  assert.ok(existsSync(join(`${file}.lock`, 'owner.json')), 'held by this process now');
  await release();
});

test('an empty lock folder (a release cut short) is taken over once three refresh intervals old, never while fresh or without the interval', () => {
  const dir = join(tempDir('empty-lock'), 'site.lock');
  mkdirSync(dir);
  assert.equal(takeOverAbandoned(dir, { update: 5000 }), false, 'fresh: it may be an older version\'s lock, refreshed by its holder');
  const old = (Date.now() - 16000) / 1000;
  utimesSync(dir, old, old);
  assert.equal(takeOverAbandoned(dir), false, 'no refresh interval given: left to go stale');
  assert.equal(takeOverAbandoned(dir, { update: 5000 }), true, 'not refreshed for 16 s against every 5 s');
  assert.equal(existsSync(dir), false);
});

test('a lock held across several refreshes stays its holder\'s, owner file and all, and its folder goes when released', async () => {
  const dir = tempDir('lock-refresh');
  const file = join(dir, 'site');
  const compromised = [];
  const release = await lock(file, { stale: 2000, update: 100, retries: 0, onCompromised: (e) => compromised.push(e.code) });
  assert.ok(existsSync(join(`${file}.lock`, 'owner.json')));
  await new Promise((r) => setTimeout(r, 450));
  // and across a synchronous stretch longer than the refresh interval, as a build's model of a long history is
  const until = Date.now() + 600;
  while (Date.now() < until) { /* busy */ }
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(compromised, [], 'refreshed, not taken for another process\'s lock');
  await release();
  assert.equal(existsSync(`${file}.lock`), false, 'the folder is removed, so the next build does not wait for it to go stale');
});

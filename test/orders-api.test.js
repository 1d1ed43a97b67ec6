// orders-api: the real Bun + SQLite subject (started on a free loopback port) and the seed 004 report renderer.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { locate, ROOT } from '../ci/tools.js';
import { parse as parseAb } from '../ci/adapters/ab.js';
import { buildResult } from '../ci/result.js';
import { render, markdown, summarySentence, roundPercent, abFigures, findingSentence, machineLine } from '../subjects/orders-api/report.js';

const BUN = locate('bun')?.path;
const SERVER = join(ROOT, 'subjects', 'orders-api', 'server.js');
const ITEMS = '/api/order/all-items';
const started = [];

/** Starts the subject with PORT=0 and returns its URL from the ready line; stopped by PID in after(). */
async function startSubject(env) {
  const child = spawn(BUN, ['run', SERVER], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { out += d; });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`orders-api not ready within 10 s: ${out}`)), 10000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /ready on (http:\/\/127\.0\.0\.1:\d+) .*body=(\d+)B/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`orders-api exited with ${code}: ${out}`)); });
  });
  return { child, url, log: () => out };
}

after(async () => {
  for (const c of started) {
    if (c.exitCode === null && c.signalCode === null) {
      process.kill(c.pid, 'SIGTERM');
      await once(c, 'exit');
    }
  }
});

/** Runs SQL against a database file with Bun's SQLite (Node 20 has none) and returns the rows. */
function sqlite(dbFile, sql) {
  const code = `import { Database } from 'bun:sqlite'; const db = new Database(${JSON.stringify(dbFile)}); console.log(JSON.stringify(db.query(${JSON.stringify(sql)}).all()));`;
  const r = spawnSync(BUN, ['-e', code], { encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

describe('orders-api subject (Bun + bun:sqlite, real processes)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'orders-api-test-'));
  let off; let on;
  before(async () => {
    [off, on] = await Promise.all([
      startSubject({ CACHE: 'off', DB: join(tmp, 'off.db') }),
      startSubject({ CACHE: 'on', DB: join(tmp, 'on.db') }),
    ]);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('logs one ready line naming its URL, cache mode, database and body size', () => {
    const lines = off.log().trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^orders-api ready on http:\/\/127\.0\.0\.1:\d+ cache=off work_us=0 work_iters=0 db=\S+off\.db items=44 order_lines=1000 body=5272B$/);
  });

  test('answers /health with 200, the live SQLite row count and its cache mode', async () => {
    const res = await fetch(`${on.url}/health`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-backend'), 'orders-api');
    assert.deepEqual(await res.json(), { status: 'ok', items: 44, orderLines: 1000, cache: 'on', workUs: 0, workIters: 0 });
  });

  test('serves the same 5,272-byte items list with the cache on and off', async () => {
    const bodies = [];
    for (const s of [off, on, off, on]) {
      const res = await fetch(`${s.url}${ITEMS}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(res.headers.get('x-backend'), 'orders-api');
      bodies.push(Buffer.from(await res.arrayBuffer()));
    }
    assert.deepEqual(bodies.map((b) => b.length), [5272, 5272, 5272, 5272]);
    for (const b of bodies.slice(1)) assert.ok(b.equals(bodies[0]), 'bodies differ between requests or cache modes');
    const { items } = JSON.parse(bodies[0]);
    assert.equal(items.length, 44);
    // 116 received, 38 taken by its order lines.
    assert.deepEqual(items[0], { id: 1, sku: 'SKU-01007', name: 'Smart Headset', category: 'audio', price: 10.01, quantity: 78, status: 'active' });
    assert.deepEqual(items.map((i) => i.id), Array.from({ length: 44 }, (_, i) => i + 1));
  });

  test('serves each item\'s stock as received less its order lines, computed from the rows in its SQLite database file', async () => {
    const items = sqlite(join(tmp, 'off.db'), 'SELECT id, sku, name, category, price, quantity, status FROM items ORDER BY id');
    const sold = Object.fromEntries(sqlite(join(tmp, 'off.db'), 'SELECT item_id AS id, SUM(qty) AS n FROM order_lines GROUP BY item_id').map((r) => [r.id, r.n]));
    assert.equal(sqlite(join(tmp, 'off.db'), 'SELECT COUNT(*) AS n FROM order_lines')[0].n, 1000);
    const expected = items.map((r) => {
      const left = r.quantity - (sold[r.id] || 0);
      return { ...r, quantity: Math.max(0, left), status: left > 0 ? r.status : 'backorder' };
    });
    const served = (await (await fetch(`${off.url}${ITEMS}`)).json()).items;
    assert.deepEqual(served, expected);
    assert.ok(expected.some((r, i) => r.quantity !== items[i].quantity), 'the order lines change some stock');
  });

  test('queries SQLite on every request with the cache off, and keeps the first answer with it on', async () => {
    await fetch(`${on.url}${ITEMS}`); // fills the cache
    sqlite(join(tmp, 'off.db'), 'UPDATE items SET quantity = 9999 WHERE id = 1 RETURNING id');
    sqlite(join(tmp, 'on.db'), 'UPDATE items SET quantity = 9999 WHERE id = 1 RETURNING id');
    const fromOff = (await (await fetch(`${off.url}${ITEMS}`)).json()).items[0].quantity;
    const fromOn = (await (await fetch(`${on.url}${ITEMS}`)).json()).items[0].quantity;
    assert.equal(fromOff, 9999 - 38);
    assert.equal(fromOn, 78);
  });

  test('answers unknown routes with 404 and writes with 405, both as JSON', async () => {
    const nf = await fetch(`${off.url}/api/order/none`);
    assert.equal(nf.status, 404);
    assert.deepEqual(await nf.json(), { error: 'no route /api/order/none' });
    const post = await fetch(`${off.url}${ITEMS}`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
  });

  test('WORK_US=2000 holds every request for at least 2 ms and adds about that much over WORK_US=0', async () => {
    const [fast, slow] = await Promise.all([startSubject({ CACHE: 'on', WORK_US: '0' }), startSubject({ CACHE: 'on', WORK_US: '2000' })]);
    const timeOne = async (url) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(url);
      await res.arrayBuffer();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    const a = []; const b = [];
    for (let i = 0; i < 5; i += 1) { await timeOne(`${fast.url}${ITEMS}`); await timeOne(`${slow.url}${ITEMS}`); }
    // Alternating requests share whatever else the machine is doing, so the ratio stays honest.
    for (let i = 0; i < 25; i += 1) {
      a.push(await timeOne(`${fast.url}${ITEMS}`));
      b.push(await timeOne(`${slow.url}${ITEMS}`));
    }
    // The spin runs on a monotonic clock, so no request can be quicker than 2 ms, however busy the machine.
    assert.ok(Math.min(...b) >= 2, `WORK_US=2000 must hold every request at least 2 ms, the quickest took ${Math.min(...b).toFixed(3)} ms`);
    // What a request costs besides the knob varies with the machine; the pairwise difference cancels most of it.
    const added = median(b.map((x, i) => x - a[i]));
    assert.ok(added >= 1.5, `WORK_US=2000 added a median ${added.toFixed(3)} ms per request over WORK_US=0 (${median(a).toFixed(3)} -> ${median(b).toFixed(3)} ms); expected about 2 ms`);
  });

  test('WORK_ITERS runs its steps on every request: 10 million add over 5 ms, and the loop is not left out', async () => {
    const [fast, slow] = await Promise.all([startSubject({ CACHE: 'on', WORK_ITERS: '0' }), startSubject({ CACHE: 'on', WORK_ITERS: '10000000' })]);
    const timeOne = async (url) => {
      const t0 = process.hrtime.bigint();
      await (await fetch(url)).arrayBuffer();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < 5; i += 1) { await timeOne(`${fast.url}${ITEMS}`); await timeOne(`${slow.url}${ITEMS}`); }
    const a = []; const b = [];
    for (let i = 0; i < 15; i += 1) {
      a.push(await timeOne(`${fast.url}${ITEMS}`));
      b.push(await timeOne(`${slow.url}${ITEMS}`));
    }
    // a step is an integer multiply and add, about a nanosecond on the machines this runs on; a loop the engine dropped costs nothing
    const added = median(b.map((x, i) => x - a[i]));
    assert.ok(added >= 5, `WORK_ITERS=10000000 added a median ${added.toFixed(3)} ms per request over WORK_ITERS=0 (${median(a).toFixed(3)} -> ${median(b).toFixed(3)} ms); expected about 10 ms`);
    const health = await (await fetch(`${slow.url}/health`)).json();
    assert.equal(health.workIters, 10000000);
  });

  test('refuses WORK_ITERS=1.5 at start with exit code 2 and a message naming the variable', () => {
    const r = spawnSync(BUN, ['run', SERVER], { env: { ...process.env, PORT: '0', WORK_ITERS: '1.5' }, encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), 'orders-api: WORK_ITERS=1.5 must be a whole number of steps >= 0');
  });

  test('work.js says what one counted step costs on this machine, and refuses a count too small to time', () => {
    const r = spawnSync(BUN, [join(dirname(SERVER), 'work.js'), '100000'], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    const { steps, nsPerStep } = JSON.parse(r.stdout);
    assert.equal(steps, 100000);
    assert.ok(nsPerStep > 0.05 && nsPerStep < 100, `a step took ${nsPerStep} ns`);
    const small = spawnSync(BUN, [join(dirname(SERVER), 'work.js'), '5'], { encoding: 'utf8', timeout: 10000 });
    assert.equal(small.status, 2);
    assert.match(small.stderr, /work\.js: 5: give a whole number of steps, at least 10000/);
  });

  test('refuses CACHE=maybe at start with exit code 2 and a message naming the variable', () => {
    const r = spawnSync(BUN, ['run', SERVER], { env: { ...process.env, PORT: '0', CACHE: 'maybe' }, encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), 'orders-api: CACHE=maybe must be "on" or "off"');
  });
});

// ---------------------------------------------------------------- the report

const FIX = join(ROOT, 'test', 'fixtures', 'ab');
const RUN = { id: 'orders-api-test', startedAt: '2026-11-22T00:00:00Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 0, labels: [] };

/** A result document from captured ab outputs, exactly as the runner would build it. */
function abDoc(variant, files, { scenario = 'no-keepalive', keepalive = false } = {}) {
  const trials = files.map((f) => parseAb(readFileSync(join(FIX, f), 'utf8'), { file: f }));
  return buildResult({
    run: RUN,
    runner: RUNNER,
    suite: 'orders-api',
    subject: 'orders-api',
    variant,
    scenario,
    tool: { name: 'ab', version: trials[0].toolVersion || '2.3' },
    params: { path: ITEMS, requests: 5000, concurrency: 100, keepalive },
    trials,
  }, `test/fixtures/ab/${files[0]}`);
}

const CONFIG = { suites: { 'orders-api': { description: 'Seed 004 on Bun + SQLite.', variants: { 'cache-off': {}, 'cache-on': {} } } } };

describe('orders-api report (subjects/orders-api/report.js)', () => {
  test("writes seed 004's summary sentence word for word from the seed's own figures", () => {
    const s = summarySentence(
      { throughput: 15241.97, timeTaken: 6.561, medianMs: 55, meanMs: 65.608 },
      { throughput: 27436.34, timeTaken: 3.645, medianMs: 22, meanMs: 36.448 },
    );
    assert.equal(s, 'Using caching increased throughput from 15,241.97 r/s to 27,436.34 r/s (~80% increase) and reduced total test time from 6.561s to 3.645s (~45% decrease). Median latency fell from 55ms to 22ms (~60% decrease) and mean time per request fell from 65.608ms to 36.448ms (~45% decrease).');
  });

  test('leaves out the total test time when ab ran for a fixed time on both sides, since it only restates the parameter', () => {
    const s = summarySentence(
      { throughput: 1983.45, timeTaken: 2.004, medianMs: 46.5, meanMs: 50.429, fixedSeconds: 2 },
      { throughput: 5359.89, timeTaken: 2.003, medianMs: 18, meanMs: 18.657, fixedSeconds: 2 },
    );
    assert.match(s, /^Using caching increased throughput from 1,983.45 r\/s to 5,359.89 r\/s \(~170% increase\), in ab runs of a fixed 2 s\. Median latency fell/);
    assert.doesNotMatch(s, /total test time/);
  });

  test('rounds changes as the seed does: to 5% from 10% up, whole percents below, "<1%" under half a percent', () => {
    assert.deepEqual([0.8001, -0.4444, 0.124, 0.0749, -0.031, 0.004].map(roundPercent), ['80%', '45%', '10%', '7%', '3%', '<1%']);
  });

  test('reads requests/s, time taken, mean and the 50..100% table from ab documents (median of 3 trials)', () => {
    const f = abFigures(abDoc('cache-off', ['orders-api-cache-off-1.txt', 'orders-api-cache-off-2.txt', 'orders-api-cache-off-3.txt']));
    assert.equal(f.throughput, 5240.66);
    assert.equal(f.timeTaken, 0.954);
    assert.equal(f.meanMs, 19.082);
    assert.equal(f.medianMs, 20);
    assert.deepEqual(f.percentiles, [20, 21, 22, 23, 24, 25, 42, 43, 47]);
    assert.equal(f.concurrency, 100);
    assert.equal(f.trials, 3);
    assert.equal(f.requests, 5000);
    assert.equal(f.failed, 0);
  });

  test('renders the before/after table, the percentile table and the sentence from captured ab runs', () => {
    const docs = [
      abDoc('cache-off', ['orders-api-cache-off-1.txt', 'orders-api-cache-off-2.txt', 'orders-api-cache-off-3.txt']),
      abDoc('cache-on', ['orders-api-cache-on-1.txt', 'orders-api-cache-on-2.txt', 'orders-api-cache-on-3.txt']),
    ];
    const text = render({ suite: 'orders-api', docs, config: CONFIG });
    assert.match(text, /median of 3 trials per figure/);
    // the seed names its machine; the report names the runner the documents were measured on
    assert.match(text, /\nMeasured on 2 × test \(runner test\)\.\nApacheBench 2\.3, a new connection per request /);
    assert.equal(machineLine({ runner: { name: 'vm', cpus: 2, cpuModel: 'AMD EPYC', memoryBytes: 25276502016, pinning: { mode: 'auto', tool: '1', subject: '0' } } }),
      'Measured on 2 × AMD EPYC, 23.54 GiB of memory (runner vm; ab on CPU 1, the API on CPU 0).');
    assert.match(text, /\n {2}Document Path +\/api\/order\/all-items +\/api\/order\/all-items\n {2}Document Length +/);
    assert.match(text, /\n {2}Requests per second +5,240\.66 \[#\/sec\] \(mean\) +5,563\.02 \[#\/sec\] \(mean\)\n/);
    assert.match(text, /\n {2}Time taken for tests +0\.954 seconds +0\.899 seconds\n/);
    assert.match(text, /\n {2}Time per request +19\.082 \[ms\] \(mean\) +17\.976 \[ms\] \(mean\)\n/);
    assert.match(text, /\n {2}50% +20 +15\n/);
    assert.match(text, /\n {2}98% +42 +39\n/);
    assert.match(text, /\n {2}100% +47 \(longest request\) +49 \(longest request\)\n/);
    assert.ok(text.includes('Using caching increased throughput from 5,240.66 r/s to 5,563.02 r/s (~6% increase) and reduced total test time from 0.954s to 0.899s (~6% decrease). Median latency fell from 20ms to 15ms (~25% decrease) and mean time per request fell from 19.082ms to 17.976ms (~6% decrease).'), text);
    const md = markdown({ suite: 'orders-api', docs, config: CONFIG });
    assert.match(md, /\| Served within \(ms\) \| cache-off \| cache-on \|/);
    assert.match(md, /\n\| 50% \| 20 \| 15 \|\n/);
    assert.ok(md.includes('**Summary.** Using caching increased throughput from 5,240.66 r/s to 5,563.02 r/s (~6% increase)'), md);
  });

  test('shows counts of requests and bytes whole when the median of an even number of trials falls between two counts', () => {
    const halfway = (variant) => {
      const doc = abDoc(variant, ['time-limit.txt', 'time-limit-cap.txt']);
      const set = (name, v) => Object.assign(doc.metrics.find((m) => m.name === name), { value: v });
      set('requests', 4162.5);
      set('bytes_received', 1256924.5);
      set('body_bytes_received', 291340.5);
      return doc;
    };
    const text = render({ suite: 'orders-api', docs: [halfway('cache-off'), halfway('cache-on')], config: CONFIG });
    assert.match(text, /median of 2 trials per figure/);
    assert.match(text, /\n {2}Complete requests +4,163 +4,163\n/);
    assert.match(text, /\n {2}Total transferred +1,256,925 bytes +1,256,925 bytes\n/);
    assert.match(text, /\n {2}HTML transferred +291,341 bytes +291,341 bytes\n/);
    assert.doesNotMatch(text, /\.5 bytes|4,162\.5/);
  });

  test('says caching made things slower when the cached run lost (WORK_US=300 on the cache-on side)', () => {
    const docs = [
      abDoc('cache-off', ['orders-api-cache-off-1.txt', 'orders-api-cache-off-2.txt', 'orders-api-cache-off-3.txt']),
      abDoc('cache-on', ['orders-api-cache-on-work300.txt']),
    ];
    const text = render({ suite: 'orders-api', docs, config: CONFIG });
    assert.ok(text.includes('Using caching decreased throughput from 5,240.66 r/s to 1,807.73 r/s (~65% decrease) and increased total test time from 0.954s to 2.766s (~190% increase). Median latency rose from 20ms to 50ms (~150% increase) and mean time per request rose from 19.082ms to 55.318ms (~190% increase).'), text);
  });

  test('says how long each ab run lasted: a fixed time (-t) as seconds, a request count (-n) as requests', () => {
    const timed = (variant) => ({ ...abDoc(variant, ['time-limit.txt']), params: { path: ITEMS, duration: 1, concurrency: 10, keepalive: false } });
    const text = render({ suite: 'orders-api', docs: [timed('cache-off'), timed('cache-on')], config: CONFIG });
    assert.match(text, /^ApacheBench 2\.3, a new connection per request \(1 s, concurrency 10\), one trial per figure:$/m);
    assert.doesNotMatch(text, /\? requests/);
    const counted = render({ suite: 'orders-api', docs: [abDoc('cache-off', ['orders-api-cache-off-1.txt']), abDoc('cache-on', ['orders-api-cache-on-1.txt'])], config: CONFIG });
    assert.match(counted, /^ApacheBench 2\.3, a new connection per request \(5,000 requests, concurrency 100\), one trial per figure:$/m);
  });

  const five = (name) => [1, 2, 3, 4, 5].map((i) => `orders-api-${name}-${i}.txt`);

  test('shows every ab line of the seed\'s output: transferred bytes, transfer rate, time per request across all requests, Connection Times', () => {
    const docs = [abDoc('cache-off', five('orderlines-cache-off')), abDoc('cache-on', five('orderlines-cache-on'))];
    const text = render({ suite: 'orders-api', docs, config: CONFIG });
    assert.match(text, /\n {2}Total transferred +27,025,000 bytes +27,025,000 bytes\n/);
    assert.match(text, /\n {2}HTML transferred +26,360,000 bytes +26,360,000 bytes\n/);
    assert.match(text, /\n {2}Time per request +0\.997 \[ms\] \(mean, across all concurrent requests\) +0\.261 \[ms\] \(mean, across all concurrent requests\)\n/);
    assert.match(text, /\n {2}Transfer rate +5,295\.52 \[Kbytes\/sec\] received +20,185\.60 \[Kbytes\/sec\] received\n/);
    assert.match(text, /Connection Times \(ms\), cache-off\n +min +mean +\[\+\/-sd\] +median +max\n.*\n {2}Connect: +0 +2 +3\.9 +1 +56\n {2}Processing: +3 +87 +53\.4 +75 +421\n {2}Waiting: +1 +81 +45 +72 +274\n {2}Total: +9 +98 +52\.8 +80 +424\n/);
    assert.match(text, /Connection Times \(ms\), cache-on\n.*\n.*\n {2}Connect: +0 +10 +8\.5 +8 +41\n/);
    const md = markdown({ suite: 'orders-api', docs, config: CONFIG });
    assert.match(md, /\n\| Total: \| 9 \| 98 \| 52\.8 \| 80 \| 424 \|\n/);
  });

  test('says the reference\'s finding reproduces when caching raises throughput significantly and by a large margin (5 trials a side, every cached one faster)', () => {
    const docs = [abDoc('cache-off', five('orderlines-cache-off')), abDoc('cache-on', five('orderlines-cache-on'))];
    const f = findingSentence(docs[0], docs[1]);
    assert.equal(f.reproduced, true);
    assert.equal(f.text, "The reference's finding reproduces: caching raised throughput by +281.2%, a significant change (Mann-Whitney p < 0.05 over 5 and 5 trials); the reference measured +80%.");
    assert.ok(render({ suite: 'orders-api', docs, config: CONFIG }).includes(`(~75% decrease).\n${f.text}\n`));
  });

  test('says plainly that the finding does not reproduce when the two sides cannot be told apart', () => {
    // The same five captured trials on both sides: no difference at all.
    const f = findingSentence(abDoc('cache-off', five('orderlines-cache-off')), abDoc('cache-on', five('orderlines-cache-off')));
    assert.equal(f.reproduced, false);
    assert.equal(f.text, "The reference's finding does not reproduce: the throughput change with the cache (+0.0%) is not significant (Mann-Whitney p ≥ 0.05 over 5 and 5 trials); the reference measured +80%.");
  });

  test('says three trials a side cannot test the finding (the captures from before the order lines: +6%)', () => {
    const docs = [abDoc('cache-off', ['orders-api-cache-off-1.txt', 'orders-api-cache-off-2.txt', 'orders-api-cache-off-3.txt']), abDoc('cache-on', ['orders-api-cache-on-1.txt', 'orders-api-cache-on-2.txt', 'orders-api-cache-on-3.txt'])];
    assert.match(render({ suite: 'orders-api', docs, config: CONFIG }), /\nNot tested: 3 and 3 trials cannot show a significant difference \(run at least 4 a side\); the change was \+6\.2% \(the reference's: \+80%\)\.\n/);
  });

  test('says the load tool was the bottleneck instead of a finding when ab used all of its core', () => {
    const docs = [abDoc('cache-off', five('orderlines-cache-off')), abDoc('cache-on', five('orderlines-cache-on'))];
    docs[1].load = [0.99, 0.98, 0.97, 0.99, 0.96].map((tool) => ({ seconds: 1.3, tool, subject: 0.5, other: 0.1, toolCores: 1 }));
    const f = findingSentence(docs[0], docs[1]);
    assert.equal(f.reproduced, undefined);
    assert.equal(f.text, "Not tested: the load tool was the bottleneck (cache-on: ab used 0.98 of its 1 core), so these figures are ab's ceiling, not the API's; this run can neither confirm nor refute the reference's finding.");
  });

  test('names the failed job and its reason instead of a sentence when one side has no ab result', () => {
    const docs = [abDoc('cache-off', ['orders-api-cache-off-1.txt'])];
    const run = { jobs: [{ id: 'orders-api.cache-on.ab.no-keepalive', suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'no-keepalive', status: 'failed', reason: 'health check timed out after 30 s' }] };
    const text = render({ suite: 'orders-api', docs, run, config: CONFIG });
    assert.match(text, /cache-on: ab without keep-alive: failed: health check timed out after 30 s/);
    assert.doesNotMatch(text, /Using caching/);
  });

  test('completes a reason that ends in "Last lines of <log>:" with what the subject said, from a real run.json', () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'runs', 'orders-api-cache-broken.run.json'), 'utf8'));
    const docs = [abDoc('cache-off', ['orders-api-cache-off-1.txt'])];
    const text = render({ suite: 'orders-api', docs, run, config: CONFIG });
    assert.match(text, /cache-on: ab without keep-alive: failed: subject process orders-api\/api exited \(code 2\) before it was healthy\. Last lines of \S+api\.log: orders-api: CACHE=broken must be "on" or "off"\n/);
    assert.match(markdown({ suite: 'orders-api', docs, run, config: CONFIG }), /CACHE=broken must be/);
  });

  test('says why another tool is not compared when one side of it failed, instead of leaving its line out', () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'runs', 'orders-api-cache-broken.run.json'), 'utf8'));
    const docs = [abDoc('cache-off', ['orders-api-cache-off-1.txt']), abDoc('cache-off', ['keepalive.txt'], { scenario: 'keepalive', keepalive: true })];
    const text = render({ suite: 'orders-api', docs, run, config: CONFIG });
    assert.match(text, /\n {2}ab with keep-alive: not compared \(cache-on: failed: subject process orders-api\/api exited \(code 2\) before it was healthy\. .*CACHE=broken must be "on" or "off"\)\n/);
    // wrk and k6 measured neither side in these documents: nothing to compare, nothing said about them
    assert.doesNotMatch(text, /wrk peak throughput: not compared/);
  });
});

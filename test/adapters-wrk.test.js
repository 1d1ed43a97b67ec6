// The wrk adapter against real wrk 4.1.0 outputs (test/fixtures/wrk), plus one short live run of loadtests/wrk/json.lua.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import * as wrk from '../ci/adapters/wrk.js';
import { ParseError } from '../ci/adapters/errors.js';
import { buildResult, mergeTrials } from '../ci/result.js';
import { compare } from '../ci/compare.js';
import { locate } from '../ci/tools.js';

const FIX = fileURLToPath(new URL('./fixtures/wrk/', import.meta.url));
const LUA = fileURLToPath(new URL('../loadtests/wrk/json.lua', import.meta.url));
const read = (name) => readFileSync(`${FIX}${name}`, 'utf8');
const stderrOf = (c) => (existsSync(`${FIX}${c}.stderr`) ? read(`${c}.stderr`) : undefined);
const parseCase = (c) => wrk.parse(read(`${c}.txt`), { stderr: stderrOf(c) });
const values = (r) => Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));

test('reads json.lua\'s block into exact counts, rates and latencies in ns', () => {
  const r = parseCase('lua-many');
  assert.deepEqual(values(r), {
    requests: 30604,
    throughput: 30604 / 2.103222,
    duration: 2103222000,
    bytes_received: 10068716,
    transfer_rate: 10068716 / 2.103222,
    errors: 0,
    error_rate: 0,
    'latency.mean': 1034343,
    'latency.stdev': 2287181,
    'latency.min': 66000,
    'latency.max': 29029000,
    'latency.p50': 421000,
    'latency.p75': 677000,
    'latency.p90': 2214000,
    'latency.p99': 11923000,
    'latency.p99.9': 26661000,
  });
  const byName = Object.fromEntries(r.metrics.map((m) => [m.name, m]));
  assert.deepEqual([byName.throughput.unit, byName.throughput.better], ['ops/s', 'higher']);
  assert.deepEqual([byName['latency.p99'].unit, byName['latency.p99'].better], ['ns', 'lower']);
});

test('turns json.lua\'s percentile curve from 1 to 99.999 into one latency distribution in ns', () => {
  const [d, ...rest] = parseCase('lua-many').distributions;
  assert.equal(rest.length, 0);
  assert.equal(d.name, 'latency');
  assert.equal(d.unit, 'ns');
  assert.deepEqual(d.percentiles.map((x) => x.p), [1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999]);
  assert.deepEqual(d.percentiles[0], { p: 1, value: 137000 });
  assert.deepEqual(d.percentiles[20], { p: 99.999, value: 29029000 });
});

test('sums the X-Backend counts of every wrk thread into extra.backends', () => {
  const r = parseCase('lua-many');
  assert.deepEqual(r.extra.backends, { 'backend-a': 15302, 'backend-b': 15302 });
  assert.deepEqual(r.extra.statuses, { 200: 30604 });
  assert.equal(r.extra.responses, 30604);
  assert.equal(r.extra.counted, true);
  assert.deepEqual([r.extra.threads, r.extra.connections], [2, 8]);
  assert.ok(r.notes.includes('responses per backend (X-Backend): backend-a 15302, backend-b 15302'));
});

test('counts 404 responses as errors, with an error rate of 1 when all of them failed', () => {
  const r = parseCase('lua-status-errors');
  assert.equal(values(r).errors, 11643);
  assert.equal(values(r).error_rate, 1);
  assert.deepEqual(r.extra.statuses, { 404: 11643 });
  assert.deepEqual(r.extra.backends, { 'backend-a': 5822, 'backend-b': 5821 });
});

test('sends the method given as a script argument (nginx answers POST on a file with 405)', () => {
  const r = parseCase('lua-post-args');
  assert.deepEqual(r.extra.statuses, { 405: 19138 });
  assert.equal(values(r).errors, 19138);
  assert.equal(values(r)['latency.p99.9'], 5672000);
});

test('with count=off reports latency but no per-backend or per-status counts', () => {
  const r = parseCase('lua-count-off');
  assert.equal(r.extra.counted, false);
  assert.deepEqual(r.extra.backends, {});
  assert.equal(r.extra.responses, 0);
  assert.equal(values(r)['latency.p99'], 4843000);
  assert.deepEqual(r.notes, []);
});

test('counts responses slower than --timeout as errors and reports no latency for them', () => {
  const r = parseCase('lua-timeouts');
  assert.deepEqual(values(r), {
    requests: 2,
    throughput: 2 / 3.008401,
    duration: 3008401000,
    bytes_received: 254,
    transfer_rate: 254 / 3.008401,
    errors: 2,
    error_rate: 1,
  });
  assert.equal(r.extra.errors.timeout, 2);
  assert.deepEqual(r.distributions, []);
});

test('parses wrk\'s --latency text into mean, stdev, max and p50..p99 in ns', () => {
  const r = parseCase('latency');
  assert.deepEqual(values(r), {
    requests: 111272,
    throughput: 53007.72,
    duration: 2100000000,
    bytes_received: Math.round(32.58 * 1024 ** 2),
    errors: 0,
    error_rate: 0,
    transfer_rate: Math.round(15.52 * 1024 ** 2),
    'latency.mean': 215010,
    'latency.stdev': 415340,
    'latency.max': 5200000,
    'latency.p50': 137000,
    'latency.p75': 152000,
    'latency.p90': 208000,
    'latency.p99': 2660000,
  });
  assert.deepEqual(r.distributions, [{ name: 'latency', unit: 'ns', percentiles: [
    { p: 50, value: 137000 }, { p: 75, value: 152000 }, { p: 90, value: 208000 }, { p: 99, value: 2660000 }] }]);
  assert.equal(r.extra.url, 'http://127.0.0.1:34213/hello.txt');
});

test('wrk\'s text rounds each time to two decimals of the unit it picks, so each latency carries that step as its resolution, and merged trials keep the coarsest', () => {
  const fine = parseCase('latency');
  const steps = Object.fromEntries(fine.metrics.filter((m) => m.resolution).map((m) => [m.name, m.resolution]));
  assert.deepEqual(steps, { 'latency.mean': 10, 'latency.stdev': 10, 'latency.max': 10000, 'latency.p50': 1000, 'latency.p75': 1000, 'latency.p90': 1000, 'latency.p99': 10000 },
    'the mean "215.01us" is known to 10 ns, "5.20ms" and "2.66ms" to 10 µs; a percentile printed as "197.00us" is a whole microsecond, as wrk times requests');
  assert.equal(fine.metrics.find((m) => m.name === 'throughput').resolution, undefined, 'Requests/sec has two decimals of a request: no step worth keeping');
  // one trial printed its mean as "215.01us", the other as "1.11ms": the merged metric is known to 10 µs, not 10 ns
  const merged = mergeTrials([fine, parseCase('throughput')]).metrics.find((m) => m.name === 'latency.mean');
  assert.deepEqual(merged.samples, [215010, 1110000]);
  assert.equal(merged.resolution, 10000);
});

test('wrk times requests in whole microseconds, so json.lua\'s percentiles, minimum and maximum carry a step of 1 µs, and a one-step change at 30 µs on loopback is no verdict', () => {
  // lua-one-connection: one connection to a Node.js server on loopback, p1 25 µs, p20 30 µs
  const r = parseCase('lua-one-connection');
  const steps = Object.fromEntries(r.metrics.filter((m) => m.name.startsWith('latency.')).map((m) => [m.name, m.resolution]));
  assert.deepEqual(steps, { 'latency.mean': undefined, 'latency.stdev': undefined, 'latency.min': 1000, 'latency.max': 1000, 'latency.p50': 1000, 'latency.p75': 1000, 'latency.p90': 1000, 'latency.p99': 1000, 'latency.p99.9': 1000 });
  assert.equal(r.metrics.find((m) => m.name === 'latency.min').value, 23000);
  // a p50 of 30 µs in every base round and 31 µs in every head round: +3.3% that a 0.1 µs shift across a step can make
  const trial = (p50) => ({ ...r, metrics: r.metrics.map((m) => (m.name === 'latency.p50' ? { ...m, value: p50 } : m)) });
  const side = (role, p50) => buildResult({ run: { ...RUN, role }, runner: RUNNER, suite: 's', subject: 's', variant: 'v', scenario: 'c1', tool: { name: 'wrk', version: '4.1.0' }, params: {}, trials: Array.from({ length: 8 }, () => trial(p50)), sequential: { looks: [8], weights: [1] } }, role);
  const c = compare([side('base', 30000)], [side('head', 31000)]).comparisons.find((x) => x.metric === 'latency.p50');
  assert.equal(c.verdict, 'below resolution');
  assert.match(c.reason, /no larger than the tool's resolution \(1 µs\)/);
});

test('parses wrk\'s text without --latency into throughput and mean latency, without percentiles', () => {
  const r = parseCase('throughput');
  const v = values(r);
  assert.equal(v.throughput, 47388.93);
  assert.equal(v.requests, 99672);
  assert.equal(v['latency.mean'], 1110000);
  assert.equal(v['latency.max'], 35110000);
  assert.equal(v['latency.p50'], undefined);
  assert.deepEqual(r.distributions, []);
  assert.ok(r.notes.includes('wrk ran without --latency: no percentiles'));
});

test('reads "Non-2xx or 3xx responses" from wrk\'s text as errors', () => {
  const v = values(parseCase('status-errors'));
  assert.equal(v.errors, 60360);
  assert.equal(v.error_rate, 1);
});

test('refuses a run that completed 0 requests, with or without the script', () => {
  assert.throws(() => parseCase('lua-zero'), { name: 'ParseError', message: /completed 0 requests in 2\.01 s: the target accepted connections but never answered/ });
  assert.throws(() => parseCase('zero'), { name: 'ParseError', message: /completed 0 requests in 1\.00 s/ });
});

test('carries wrk\'s "unable to connect" message when the port is closed', () => {
  assert.throws(() => parseCase('refused'), { name: 'ParseError', message: /unable to connect to 127\.0\.0\.1:43369 Connection refused/ });
  // Same message when the runner merged stderr into the text.
  assert.throws(() => wrk.parse(read('refused.stderr')), { message: /unable to connect to 127\.0\.0\.1:43369/ });
});

test('says what is wrong with empty, truncated or foreign input', () => {
  assert.throws(() => wrk.parse(''), (e) => e instanceof ParseError && /empty/.test(e.message) && e.hint === wrk.produce);
  const full = read('lua-many.txt');
  const cutInJson = full.slice(0, full.indexOf('"latency"'));
  assert.throws(() => wrk.parse(cutInJson), { name: 'ParseError', message: /no closing "--- end benchline-json ---" line; the output is truncated/ });
  const text = read('latency.txt');
  assert.throws(() => wrk.parse(text.slice(0, text.indexOf('requests in'))), { message: /stops before its "N requests in T, S read" line; the output is truncated/ });
  assert.throws(() => wrk.parse(readFileSync(new URL('./fixtures/ab/many.txt', import.meta.url), 'utf8')), { message: /this is ApacheBench \(ab\) output, not wrk's/ });
  assert.throws(() => wrk.parse(readFileSync(new URL('./fixtures/hyperfine/several.json', import.meta.url), 'utf8')), { message: /this is hyperfine output, not wrk's/ });
  const otherJson = full.replace(/"format":"benchline-wrk@1"/, '"format":"other"');
  assert.throws(() => wrk.parse(otherJson), { message: /is not benchline-wrk@1/ });
});

test('builds the wrk command line with the script, its arguments and --latency', () => {
  const cmd = wrk.command({
    bin: '/usr/bin/wrk',
    script: '/repo/loadtests/wrk/json.lua',
    target: { url: 'http://127.0.0.1:8080/' },
    params: { threads: 2, connections: 50, duration: '5s', timeout: 2, path: 'items', header: 'Accept: application/json', method: 'POST', body: { n: 1 }, backends: ['a'] },
  });
  assert.deepEqual(cmd, {
    argv: ['/usr/bin/wrk', '-t', '2', '-c', '50', '-d', '5s', '--latency', '--timeout', '2s', '-H', 'Accept: application/json',
      '-s', '/repo/loadtests/wrk/json.lua', 'http://127.0.0.1:8080/items', '--', 'method=POST', 'body={"n":1}'],
    output: 'stdout',
  });
  assert.deepEqual(wrk.command({ bin: 'wrk', target: { url: 'http://127.0.0.1:9' }, params: { duration: 3 } }).argv,
    ['wrk', '-t', '2', '-c', '10', '-d', '3s', '--latency', 'http://127.0.0.1:9/']);
  assert.throws(() => wrk.command({ target: { url: 'http://x' }, params: { threads: 4, connections: 2 } }), /connections \(2\) must be at least threads \(4\)/);
  assert.throws(() => wrk.command({ target: { url: 'http://x' }, params: { method: 'POST' } }), /need the job script loadtests\/wrk\/json\.lua/);
  // a script of the user's own (wrk's scripts/report.lua reads no arguments): the request would go out as GET, silently
  assert.throws(() => wrk.command({ target: { url: 'http://x' }, script: '/repo/scripts/report.lua', params: { method: 'POST', body: '{"a":1}' } }),
    { message: 'wrk: params method, body are read by loadtests/wrk/json.lua only; the job\'s script report.lua would get them as arguments after "--" and wrk would send what the script sets instead: set wrk.method, wrk.body and wrk.headers in the script and remove these params, or use loadtests/wrk/json.lua' });
  assert.equal(wrk.command({ target: { url: 'http://x' }, script: '/repo/scripts/report.lua', params: { path: '/a' } }).argv.at(-1), 'http://x/a', 'the script alone is fine');
  assert.deepEqual(wrk.command({ target: { url: 'http://x' }, script: '/pkg/node_modules/benchline/loadtests/wrk/json.lua', params: { count: 'off' } }).argv.slice(-2), ['--', 'count=off']);
  assert.throws(() => wrk.command({ target: { url: 'http://x' }, params: { duration: 'soon' } }), /param duration must be a whole number of seconds/);
  // wrk itself prints its usage for these instead of running: refused before a trial starts
  for (const duration of ['0.5s', '500ms', 1.5, 0, '0s']) {
    assert.throws(() => wrk.command({ target: { url: 'http://x' }, params: { duration } }), /param duration must be a whole number of seconds, minutes or hours .*got/, String(duration));
  }
  assert.deepEqual(['1s', '2m', '1h', 3].map((duration) => wrk.command({ target: { url: 'http://x' }, params: { duration } }).argv[6]), ['1s', '2m', '1h', '3s']);
});

const RUN = { id: 'fixture', startedAt: '2026-11-22T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 0, labels: [] };

test('every wrk fixture with requests becomes a schema-valid result document', () => {
  for (const c of ['lua-many', 'lua-status-errors', 'lua-post-args', 'lua-count-off', 'lua-timeouts', 'latency', 'throughput', 'status-errors']) {
    const parsed = parseCase(c);
    const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'nginx', variant: 'default', scenario: c, tool: { name: 'wrk', version: '4.1.0' }, params: {}, trials: [parsed] }, c);
    assert.equal(doc.metrics.length, parsed.metrics.length, c);
  }
});

const NO_WRK = !locate('wrk') && 'wrk is not installed';

/** Runs fn(port) against a loopback server that tags responses with x-backend one/two alternately. */
async function withBackendServer(fn) {
  let n = 0;
  // Lower-case header names on the wire, as Bun and HTTP/2 proxies send them.
  const server = createServer((req, res) => { n += 1; res.writeHead(200, { 'x-backend': n % 2 ? 'one' : 'two' }); res.end('ok\n'); });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    return await fn(server.address().port);
  } finally {
    server.close();
  }
}

/** Runs wrk for at most 20 s and returns { code, stdout, stderr }. */
async function runWrk(args) {
  const child = spawn(locate('wrk').path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killer = setTimeout(() => child.kill(), 20000);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const [code] = await once(child, 'exit');
  clearTimeout(killer);
  return { code, stdout, stderr };
}

test('json.lua run by the real wrk counts every response under its X-Backend', { skip: NO_WRK }, async () => {
  await withBackendServer(async (port) => {
    const { code, stdout } = await runWrk(['-t1', '-c2', '-d1s', '--latency', '-s', LUA, `http://127.0.0.1:${port}/`]);
    assert.equal(code, 0);
    const r = wrk.parse(stdout);
    const requests = values(r).requests;
    assert.ok(requests > 0);
    assert.equal(r.extra.backends.one + r.extra.backends.two, requests);
    assert.ok(Math.abs(r.extra.backends.one - r.extra.backends.two) <= 2);
    assert.deepEqual(r.extra.statuses, { 200: requests });
  });
});

test('json.lua stops wrk with a clear message on an unknown script argument', { skip: NO_WRK }, async () => {
  await withBackendServer(async (port) => {
    const { code, stdout, stderr } = await runWrk(['-t1', '-c1', '-d1s', '-s', LUA, `http://127.0.0.1:${port}/`, '--', 'verb=PUT']);
    assert.equal(code, 1);
    assert.match(`${stdout}${stderr}`, /json\.lua: unknown argument 'verb' \(method=, path=, body=, header=, count=off\)/);
  });
});

test('wrk text with a damaged Latency Distribution row or no Thread Stats Latency row is refused, not read without those metrics', () => {
  const full = read('latency.txt');
  assert.throws(() => wrk.parse(full.replace(/^ {5}90% {2}208\.00us$/m, '  Infinity%  208.00us')), /wrk's "Latency Distribution" has no readable 90%, 99% rows; the output is corrupted/);
  assert.throws(() => wrk.parse(full.replace(/^ {4}Latency .*\n/m, '')), /no readable "Latency" row in its Thread Stats table; the output is corrupted/);
  assert.ok(wrk.parse(full).metrics.some((m) => m.name === 'latency.p99'), 'the whole output still reads');
});

test('wrk text whose Thread Stats Latency row has a negative, zero or too small Max is refused as corrupted, not read without its latency metrics', () => {
  const full = read('latency.txt');
  const row = (max) => full.replace(/^( {4}Latency +215\.01us +415\.34us +)5\.20ms/m, `$1${max}`);
  assert.notEqual(row('-1.00ms'), full, 'the mutation applies');
  assert.throws(() => wrk.parse(row('-1.00ms')), { name: 'ParseError', message: /wrk's "Latency" row in its Thread Stats table \(Avg 215\.01us, Stdev 415\.34us, Max -1\.00ms\) holds a negative time; the output is corrupted/ });
  assert.throws(() => wrk.parse(row('0.00us')), { name: 'ParseError', message: /\(Avg 215\.01us, Stdev 415\.34us, Max 0\.00us\) has a Max below its Avg; the output is corrupted/ });
  assert.throws(() => wrk.parse(row('100.00us')), { name: 'ParseError', message: /Max 100\.00us\) has a Max below its Avg/ });
  // a row of zeros is what wrk prints when every response outlived --timeout; without timeouts it is damage
  const zeros = full.replace(/^ {4}Latency .*$/m, '    Latency     0.00us    0.00us   0.00us    -nan%');
  assert.throws(() => wrk.parse(zeros), { name: 'ParseError', message: /is all zero, which wrk prints only when every response timed out, yet it counted no timeout; the output is corrupted/ });
  // a negative time in the Latency Distribution is no row wrk prints either
  assert.throws(() => wrk.parse(full.replace(/^ {5}99% {4}2\.66ms$/m, '     99%   -2.66ms')), { name: 'ParseError', message: /wrk's "Latency Distribution" has no readable 99% row; the output is corrupted/ });
  // the real outputs still read: the timed-out run's zeros (its text alone, without json.lua's block) and every latency
  const timeouts = read('lua-timeouts.txt').replace(/--- benchline-json ---[\s\S]*$/, '');
  assert.equal(values(wrk.parse(timeouts)).errors, 2);
  assert.equal(values(wrk.parse(full))['latency.max'], 5200000);
});

test('two wrk reports appended into one file are refused as two runs, not read as the first alone', () => {
  for (const [first, second] of [['throughput', 'latency'], ['gateways-tiers-haproxy-4', 'gateways-tiers-haproxy-4'], ['lua-many', 'status-errors']]) {
    assert.throws(() => wrk.parse(`${read(`${first}.txt`)}${read(`${second}.txt`)}`), (e) => e instanceof ParseError && e.hint === wrk.produce
      && /^the file holds 2 wrk reports \(two runs appended into one file\?\); give one run's output$/.test(e.message), `${first} + ${second}`);
  }
});

test('socket error counts no run could make in its time, or status errors its own statuses deny, are refused as corrupted, not read as an error rate of 1', () => {
  const lua = read('gateways-tiers-haproxy-4.txt');
  assert.throws(() => wrk.parse(lua.replace('"errors":{"connect":0,', '"errors":{"connect":3e12,')), { name: 'ParseError', message: /^wrk's json\.lua block counts 3000000000000 socket errors \(connect 3000000000000, read 0, write 0, timeout 0\) in 3\.01 s over 2 threads, more than 1000000 a second per thread, which no run makes; the output is corrupted or edited$/ });
  // 150 million in 3 s: 25 million a second for each of its two threads
  assert.throws(() => wrk.parse(lua.replace('"errors":{"connect":0,', '"errors":{"connect":1.5e8,')), { name: 'ParseError', message: /counts 150000000 socket errors .* over 2 threads, more than 1000000 a second per thread/ });
  assert.throws(() => wrk.parse(lua.replace('"status":0,', '"status":7,')), { name: 'ParseError', message: /counts 7 status errors, but its statuses hold 0 responses with a status of 400 or above/ });
  // many refused connects are possible: a million in 3 s over two threads is read, as errors beside the requests
  const refused = values(wrk.parse(lua.replace('"errors":{"connect":0,', '"errors":{"connect":1000000,')));
  assert.equal(refused.errors, 1000000);
  // wrk's own text report: the "Socket errors" line it prints before Requests/sec
  const text = read('latency.txt');
  const withSocket = (counts) => text.replace(/^Requests\/sec:/m, `  Socket errors: ${counts}\nRequests/sec:`);
  assert.equal(values(wrk.parse(withSocket('connect 0, read 3, write 0, timeout 12'))).errors, 15);
  assert.throws(() => wrk.parse(withSocket('connect 0, read 99999999999999, write 0, timeout 0')), { name: 'ParseError', message: /^wrk's report counts 99999999999999 socket errors .* the output is corrupted or edited$/ });
});

test('a job script wrk could not load (a Lua syntax error, a folder) fails the trial quoting wrk\'s error and naming the script, though wrk exited 0', () => {
  const said = (c, script) => wrk.failedRun({ exitCode: 0, stderr: stderrOf(c), script });
  assert.equal(said('lua-syntax-error', 'broken.lua'), 'wrk could not load the job\'s script broken.lua and ran without it (plain GET requests, not what the script defines), '
    + 'so this trial is not kept; wrk said: "broken.lua:1: <name> or \'...\' expected near \'return\'"; fix the script (wrk -s broken.lua shows the same error)');
  assert.match(said('lua-folder', 'lua-folder'), /^wrk could not load the job's script lua-folder .*wrk said: "cannot read lua-folder: Is a directory"/);
  // wrk's report of that run reads like any plain-GET run: only stderr tells
  assert.equal(parseCase('lua-syntax-error').metrics.find((m) => m.name === 'requests').value, 4408);
  assert.equal(said('lua-syntax-error', 'other.lua'), undefined, 'another script\'s name is not this job\'s');
  assert.equal(said('lua-syntax-error', undefined), undefined, 'a job without a script');
  assert.equal(wrk.failedRun({ exitCode: 1, stderr: stderrOf('refused'), script: LUA }), undefined, 'a refused connection is not a script error');
});

test('wrk counts and times reach wrk in plain digits: an exponent form or a value above its C int is refused naming the param and the limit', () => {
  const argv = (params) => wrk.command({ target: { url: 'http://127.0.0.1:1' }, params }).argv;
  assert.throws(() => argv({ threads: 1e99 }), { message: 'wrk: param threads must be a whole number from 1 to 2147483647 in plain digits, got 1e+99 (2147483647 is the most wrk takes)' });
  assert.throws(() => argv({ duration: 1e21 }), /param duration must be .* in plain digits and at most 2147483647 seconds .*got 1e\+21/);
  assert.throws(() => argv({ duration: '596524h' }), /at most 2147483647 seconds/, '596524 hours are more seconds than that');
  assert.deepEqual(argv({ threads: '2', connections: 4, duration: 3, timeout: '1m' }).slice(1, 10), ['-t', '2', '-c', '4', '-d', '3s', '--latency', '--timeout', '1m']);
});

test('a json.lua block field that is missing, text, negative, fractional where a count goes, or beyond any run is refused naming the field, not failed as a bare NaN or Infinity', () => {
  const text = read('gateways-bun-1.txt');
  const [head, body, tail] = text.split(/(\{.*\})/);
  const block = JSON.parse(body);
  const edited = (edit) => { const d = structuredClone(block); edit(d); return `${head}${JSON.stringify(d)}${tail}`; };
  const cases = [
    [(d) => { delete d.bytes; }, /block's bytes is missing, not a number from 0 to 1000000000000000, which json\.lua never writes; the output is corrupted or edited$/],
    [(d) => { d.errors.read = 'x'; }, /block's errors\.read is "x", not a whole number of 0 or more/],
    [(d) => { d.requests = 1.5; }, /block's requests is 1\.5, not a whole number of 0 or more/],
    [(d) => { d.latency.min = null; }, /block's latency\.min is null, not a number from 0 to 1000000000000/],
    [(d) => { d.latency.percentiles['99'] = 1e308; }, /block's latency\.percentiles\["99"\] is 1e\+308, not a number from 0 to 1000000000000/],
    [(d) => { d.latency.percentiles.__proto__x = 5; }, /block's latency\.percentiles has the rank "__proto__x", not a number from 0 to 100/],
    [(d) => { d.duration_us = -1; }, /block's duration_us is -1, not a time above 0/],
    [(d) => { d.duration_us = 0; }, /block's duration_us is 0, not a time above 0/],
  ];
  for (const [edit, message] of cases) assert.throws(() => wrk.parse(edited(edit)), { name: 'ParseError', message }, String(edit));
  assert.equal(values(wrk.parse(edited(() => {}))).requests, block.requests);
});

test('a time or size in wrk\'s text report that is no time or size wrk prints is refused quoting the line, not failed as a bare "not a duration" or read as Infinity', () => {
  const text = read('throughput.txt');
  const cases = [
    [text.replace('1.11ms', '0x10ms'), /^wrk's report line "Latency +0x10ms +0\.97ms +35\.11ms +98\.65%" holds "0x10ms", not a time wrk prints; the output is corrupted$/],
    [text.replace('35.11ms', '1e999ms'), /holds "1e999ms", not a time wrk prints/],
    [text.replace('29.18MB read', '-1MB read'), /^wrk's report line "99672 requests in 2\.10s, -1MB read" holds "-1MB", not a size wrk prints; the output is corrupted$/],
    [text.replace('13.87MB', 'NaNMB'), /^wrk's report line "Transfer\/sec: +NaNMB" holds "NaNMB", not a size wrk prints/],
  ];
  for (const [edited, message] of cases) {
    assert.notEqual(edited, text);
    assert.throws(() => wrk.parse(edited), { name: 'ParseError', message });
  }
  const latency = read('latency.txt');
  const row = latency.replace(/^(\s+99%\s+)\S+$/m, '$11e999ms');
  assert.notEqual(row, latency);
  assert.throws(() => wrk.parse(row), { name: 'ParseError', message: /holds "1e999ms", not a time wrk prints/ });
});

test('a json.lua block whose opening line is damaged is refused as corrupted, not passed over for wrk\'s rounded text report', () => {
  const text = read('gateways-bun-1.txt');
  for (const damaged of [text.replace(wrk.JSON_BEGIN, '--- benchline-jsön ---'), text.replace(wrk.JSON_BEGIN, '').replace(wrk.JSON_END, '')]) {
    assert.notEqual(damaged, text);
    assert.throws(() => wrk.parse(damaged), { name: 'ParseError', message: 'the output holds json.lua\'s block without its opening "--- benchline-json ---" line; the output is corrupted' });
  }
  assert.ok(!wrk.parse(text).notes.some((n) => n.startsWith('wrk ran without loadtests/wrk/json.lua')));
});

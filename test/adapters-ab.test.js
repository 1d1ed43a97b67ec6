// The ab adapter against real ApacheBench 2.3 outputs (test/fixtures/ab): values, tables, failures and the command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ab from '../ci/adapters/ab.js';
import { ParseError } from '../ci/adapters/errors.js';
import { buildResult } from '../ci/result.js';
import { trialProblems } from '../ci/sanity.js';
import { compare } from '../ci/compare.js';
import { metric } from '../ci/metrics.js';

const FIX = fileURLToPath(new URL('./fixtures/ab/', import.meta.url));
const read = (name) => readFileSync(`${FIX}${name}`, 'utf8');
const stderrOf = (c) => (existsSync(`${FIX}${c}.stderr`) ? read(`${c}.stderr`) : undefined);
const parseCase = (c) => ab.parse(read(`${c}.txt`), { stderr: stderrOf(c) });
const values = (r) => Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));
const MS = 1e6;

test('parses ab\'s report into throughput, mean latency, duration, bytes and errors in canonical units', () => {
  const r = parseCase('many');
  const v = values(r);
  assert.deepEqual({ requests: v.requests, throughput: v.throughput, duration: v.duration, 'latency.mean': v['latency.mean'], bytes_received: v.bytes_received, transfer_rate: v.transfer_rate, errors: v.errors, error_rate: v.error_rate }, {
    requests: 2000,
    throughput: 9426.31,
    duration: 212000000,
    'latency.mean': 1061000,
    bytes_received: 604000,
    transfer_rate: Math.round(2780.03 * 1024),
    errors: 0,
    error_rate: 0,
  });
  assert.equal(r.toolVersion, '2.3');
  assert.equal(r.extra.timePerRequestAcrossConcurrent, 106000);
  assert.equal(r.extra.keepAliveRequests, 0);
  assert.deepEqual([r.extra.path, r.extra.documentLength, r.extra.concurrency, r.extra.server], ['/hello.txt', 70, 10, 'nginx/1.22.1']);
});

test('turns the connection-times table into connect.*, processing.*, ttfb.* (Waiting) and latency.min/stdev (Total)', () => {
  const v = values(parseCase('many'));
  assert.deepEqual(
    Object.fromEntries(Object.entries(v).filter(([k]) => /^(connect|processing|ttfb)\./.test(k) || k === 'latency.min' || k === 'latency.stdev')),
    {
      'connect.min': 0, 'connect.mean': 0, 'connect.stdev': 0.3 * MS, 'connect.median': 0, 'connect.max': 5 * MS,
      'processing.min': 0, 'processing.mean': 1 * MS, 'processing.stdev': 0.4 * MS, 'processing.median': 1 * MS, 'processing.max': 6 * MS,
      'ttfb.min': 0, 'ttfb.mean': 0, 'ttfb.stdev': 0.1 * MS, 'ttfb.median': 0, 'ttfb.max': 1 * MS,
      'latency.min': 1 * MS, 'latency.stdev': 0.5 * MS,
    },
  );
  const processing = parseCase('many').metrics.find((m) => m.name === 'processing.max');
  assert.deepEqual([processing.unit, processing.better], ['ns', 'lower']);
});

test('turns the percentage table into latency.p50..p99, latency.max and a distribution of every row', () => {
  const r = parseCase('keepalive');
  const v = values(r);
  assert.deepEqual([v['latency.p50'], v['latency.p66'], v['latency.p75'], v['latency.p80'], v['latency.p90'], v['latency.p95'], v['latency.p98'], v['latency.p99'], v['latency.max']],
    [1, 1, 1, 1, 2, 4, 6, 7, 14].map((ms) => ms * MS));
  assert.deepEqual(r.distributions, [{ name: 'latency', unit: 'ns', count: 20000, percentiles: [
    { p: 50, value: 1 * MS }, { p: 66, value: 1 * MS }, { p: 75, value: 1 * MS }, { p: 80, value: 1 * MS }, { p: 90, value: 2 * MS },
    { p: 95, value: 4 * MS }, { p: 98, value: 6 * MS }, { p: 99, value: 7 * MS }, { p: 100, value: 14 * MS }] }]);
});

test('ab\'s "Time per request" lines have three decimals of a millisecond, so a 1 µs step of a 55 µs time (1.8%) is below resolution, never "no change" or a verdict', () => {
  const r = parseCase('keepalive');
  const by = Object.fromEntries(r.metrics.map((m) => [m.name, m]));
  assert.equal(by.time_per_request.value, 55000, '"0.055 [ms] (mean, across all concurrent requests)"');
  assert.equal(by.time_per_request.resolution, 1000);
  assert.equal(by['latency.mean'].resolution, 1000, '"1.095 [ms] (mean)"');
  assert.equal(by.throughput.resolution, undefined);
  assert.deepEqual([by['latency.stdev'].resolution, by['connect.stdev'].resolution, by['connect.mean'].resolution], [1e5, 1e5, 1e6], 'the table\'s standard deviations have one decimal of a millisecond, its other columns none');
  // every round 0.055 ms on base and 0.056 ms on head: the true times may be 0.0554 and 0.0555 ms, or 2.7% apart
  const side = (role, us) => {
    const samples = Array.from({ length: 8 }, () => us * 1000);
    return { suite: 's', subject: 's', variant: 'v', tool: { name: 'ab', version: '2.3' }, scenario: 'keepalive', run: { id: 'r1', role }, trials: 8,
      sequential: { looks: [8], weights: [1] }, judge: ['time_per_request'], metrics: [metric('time_per_request', samples[0], { resolution: by.time_per_request.resolution, samples })] };
  };
  const c = compare([side('base', 55)], [side('head', 56)], { alpha: 0.05, minEffect: 0.02 }).comparisons[0];
  assert.equal(c.verdict, 'below resolution');
  assert.match(c.reason, /no larger than the tool's resolution \(1 µs\)/);
});

test('reads keep-alive runs: Keep-Alive requests and their higher throughput', () => {
  const r = parseCase('keepalive');
  assert.equal(r.extra.keepAliveRequests, 20000);
  assert.equal(values(r).throughput, 18264.56);
  assert.equal(values(r).requests, 20000);
  assert.equal(values(r).duration, 1095000000);
});

test('reads a single request (-n 1): no percentage table, max and min from the Total row', () => {
  const r = parseCase('one');
  const v = values(r);
  assert.equal(v.requests, 1);
  assert.equal(v['latency.mean'], 2596000);
  assert.equal(v['latency.max'], 3 * MS);
  assert.equal(v['latency.min'], 3 * MS);
  assert.equal(v['connect.mean'], 2 * MS);
  assert.equal(v['latency.p50'], undefined);
  assert.deepEqual(r.distributions, []);
  assert.ok(r.notes.some((n) => /no percentage table/.test(n)));
});

test('counts non-2xx responses as errors', () => {
  const r = parseCase('non-2xx');
  assert.equal(values(r).errors, 200);
  assert.equal(values(r).error_rate, 1);
  assert.equal(r.extra.non2xx, 200);
  assert.ok(r.notes.some((n) => n.startsWith('200 of 200 responses had a non-2xx status')), r.notes.join('\n'));
});

test('a run whose every response had a non-2xx status says its figures are of error responses and names the path to check', () => {
  // captured: ab -n 200 -c 4 against a path the server does not have (test/fixtures/ab/non-2xx.cmd)
  const note = parseCase('non-2xx').notes.find((n) => /non-2xx/.test(n));
  assert.match(note, /^200 of 200 responses had a non-2xx status: every one, so these figures are of error responses .*check that the subject serves path \/missing\.txt \(the job's path param/);
  // some errors among good responses keep the short count
  const some = parseCase('rate-limited').notes.find((n) => /^\d+ of \d+ responses had a non-2xx/.test(n));
  assert.match(some, /^99 of 100 responses had a non-2xx status$/);
});

test('counts ab\'s failed requests with their breakdown and points at -l for Length failures', () => {
  const r = parseCase('length-failures');
  assert.equal(values(r).errors, 82);
  assert.equal(values(r).error_rate, 0.82);
  assert.deepEqual(r.extra.failed, { total: 82, connect: 0, receive: 0, length: 82, exceptions: 0 });
  assert.ok(r.notes.some((n) => /82 responses as failed because their length differed.*-l/.test(n)));
});

test('reads a run with -l (variableLength): "Document Length: Variable" is no size, not a corrupted report', () => {
  const r = parseCase('variable-length');
  const v = values(r);
  assert.deepEqual([v.requests, v.errors, v.error_rate, v.throughput, v.body_bytes_received], [100, 0, 0, 47125.35, 1082]);
  assert.equal(v.response_bytes, undefined, 'no "Document Length" size under -l');
  assert.equal(r.extra.documentLength, undefined);
  // the same with non-2xx responses: -l counts statuses only
  const l = values(parseCase('rate-limited-l'));
  assert.deepEqual([l.requests, l.errors, l.error_rate], [100, 99, 0.99]);
});

test('a non-2xx response of another length than the first counts once, though ab puts it under Failed (Length) and Non-2xx', () => {
  // nginx limit_req: the first request gets the 70-byte file, the other 99 a 503 page; ab: Failed 99 (Length 99), Non-2xx 99
  const r = parseCase('rate-limited');
  const v = values(r);
  assert.deepEqual(r.extra.failed, { total: 99, connect: 0, receive: 0, length: 99, exceptions: 0 });
  assert.equal(r.extra.non2xx, 99);
  assert.deepEqual([v.requests, v.errors, v.error_rate], [100, 99, 0.99]);
  assert.deepEqual(trialProblems(r), [], 'not refused as impossible (198 errors of 100 requests was)');
  assert.ok(r.notes.some((n) => /99 responses as failed because their length differed.*99 non-2xx.*both counts.*errors counts 99.*variableLength: true/.test(n)), r.notes.join('\n'));
  // the same count with -l, where ab counts no Length failures
  assert.equal(values(parseCase('rate-limited-l')).errors, v.errors);
});

test('carries ab\'s own message when the port is closed (apr_socket_recv)', () => {
  assert.throws(() => parseCase('refused'), (e) => e instanceof ParseError && e.message === 'ab stopped before its report: apr_socket_recv: Connection refused (111)');
  // The same when stderr was merged into the text with 2>&1.
  assert.throws(() => ab.parse(`${read('refused.txt')}\n${read('refused.stderr')}`), { message: /apr_socket_recv: Connection refused \(111\)/ });
  // Without stderr the report is simply cut short: say where ab's message went.
  assert.throws(() => ab.parse(read('refused.txt')), { message: /truncated \(ab's error message goes to stderr: keep it with 2>&1\)/ });
});

test('carries ab\'s timeout message when the server never answers', () => {
  assert.throws(() => parseCase('timeout'), { name: 'ParseError', message: /apr_pollset_poll: The timeout specified has expired \(70007\)/ });
});

test('says what is wrong with empty, truncated or foreign input', () => {
  assert.throws(() => ab.parse(''), (e) => e instanceof ParseError && /empty/.test(e.message) && e.hint === ab.produce);
  const full = read('many.txt');
  assert.throws(() => ab.parse(full.slice(0, full.indexOf('Requests per second'))), { message: /lacks one of .*; the output is truncated/ });
  assert.throws(() => ab.parse(full.slice(0, full.indexOf('Complete requests'))), { message: /stops before its "Complete requests:" line; the output is truncated/ });
  assert.throws(() => ab.parse(readFileSync(new URL('./fixtures/wrk/latency.txt', import.meta.url), 'utf8')), { message: /this is wrk output, not ApacheBench's/ });
  assert.throws(() => ab.parse(readFileSync(new URL('./fixtures/hyperfine/several.json', import.meta.url), 'utf8')), { message: /this is JSON from another tool \(ab prints text\)/ });
});

test('builds the ab command line from requests, concurrency, keep-alive, timeout and path', () => {
  assert.deepEqual(ab.command({ bin: '/usr/bin/ab', target: { url: 'http://127.0.0.1:8080' }, params: { requests: 20000, concurrency: 50, keepalive: true, timeout: '5s', path: '/api/order/all-items', header: 'Accept: application/json' } }), {
    argv: ['/usr/bin/ab', '-q', '-n', '20000', '-c', '50', '-k', '-s', '5', '-H', 'Accept: application/json', 'http://127.0.0.1:8080/api/order/all-items'],
    output: 'stdout',
  });
  assert.deepEqual(ab.command({ bin: 'ab', target: { url: 'http://127.0.0.1:8080/' }, params: { requests: 10, keepalive: false, variableLength: true } }).argv,
    ['ab', '-q', '-n', '10', '-c', '1', '-l', 'http://127.0.0.1:8080/']);
  assert.throws(() => ab.command({ target: { url: 'http://x' }, params: { requests: 5, concurrency: 10 } }), /concurrency \(10\) cannot exceed requests \(5\)/);
  assert.throws(() => ab.command({ target: { url: 'http://x' }, params: { timeout: 0.5 } }), /param timeout \(ab -s\) must be a whole number from 1 to 2147483647 seconds in plain digits, got 0\.5/);
  // YAML 1.2 reads `keepalive: yes` as the text "yes": refused, not run without -k
  assert.throws(() => ab.command({ target: { url: 'http://x' }, params: { keepalive: 'yes' } }), { message: 'ab: param keepalive (ab -k) is true or false, got "yes" (write keepalive: true; YAML reads yes and on as text)' });
  assert.throws(() => ab.command({ target: { url: 'http://x' }, params: { variableLength: 'on' } }), /param variableLength \(ab -l\) is true or false, got "on"/);
  assert.deepEqual(ab.command({ bin: 'ab', target: { url: 'http://x' }, params: { requests: 10, keepalive: 'true', variableLength: 'true' } }).argv, ['ab', '-q', '-n', '10', '-c', '1', '-k', '-l', 'http://x/']);
});

test('with a duration ab runs for that many whole seconds (-t before -n) and requests only caps the count', () => {
  assert.deepEqual(ab.command({ bin: 'ab', target: { url: 'http://127.0.0.1:8080' }, params: { duration: '2s', concurrency: 50 } }).argv,
    ['ab', '-q', '-t', '2', '-n', String(ab.TIME_LIMIT_CAP), '-c', '50', 'http://127.0.0.1:8080/']);
  assert.deepEqual(ab.command({ bin: 'ab', target: { url: 'http://127.0.0.1:8080' }, params: { duration: 3, requests: 200000, concurrency: 10 } }).argv.slice(1, 8),
    ['-q', '-t', '3', '-n', '200000', '-c', '10']);
  assert.throws(() => ab.command({ target: { url: 'http://x' }, params: { duration: '500ms' } }), /param duration \(ab -t\) must be a whole number from 1 to 2147483647 seconds/);
  assert.equal(ab.duet({ duration: 2 }), true, 'a time-limited job is a duet by default');
  assert.equal(ab.duet({ requests: 5000 }), false, 'a count-bounded one is not');
});

test('a time-limited trial that reached its request cap first says the count bounded it', () => {
  const timed = ab.parse(read('time-limit.txt'), { params: { duration: 1, requests: 200000 } });
  assert.equal(timed.metrics.find((m) => m.name === 'requests').value, 7824);
  assert.equal(timed.notes.some((n) => /cap/.test(n)), false, 'stopped by the time limit: no note');
  const capped = ab.parse(read('time-limit-cap.txt'), { params: { duration: 5, requests: 500 } });
  assert.match(capped.notes.join('\n'), /reached its cap of 500 requests before the time limit .* raise the job's requests param/);
  assert.equal(ab.parse(read('time-limit-cap.txt'), { params: { requests: 500 } }).notes.some((n) => /cap/.test(n)), false, 'no time limit: the count is the plan');
});

const RUN = { id: 'fixture', startedAt: '2026-11-22T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 0, labels: [] };

test('every ab fixture with a report becomes a schema-valid result document', () => {
  for (const c of ['one', 'many', 'keepalive', 'non-2xx', 'length-failures', 'variable-length', 'rate-limited', 'rate-limited-l']) {
    const parsed = parseCase(c);
    const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'nginx', variant: 'default', scenario: c, tool: { name: 'ab', version: parsed.toolVersion }, params: {}, trials: [parsed] }, c);
    assert.equal(doc.metrics.length, parsed.metrics.length, c);
  }
});

test('a time-limited run that stalled, whose "Time per request" (concurrency x time / complete requests) passes its slowest request, is read, not refused as impossible', () => {
  // ab -t 2 -c 10 against a server answering after 1.5 s: 2 requests completed in 3.037 s, the 8 in flight left out
  const r = parseCase('time-limit-stalled');
  const v = values(r);
  assert.equal(v.requests, 2);
  assert.equal(v['latency.mean'], 15186520000);
  assert.equal(v['latency.max'], 1529 * MS);
  assert.deepEqual(trialProblems(r), []);
  const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'slow', variant: 'default', scenario: 'stalled', tool: { name: 'ab', version: r.toolVersion }, params: { duration: 2 }, trials: [r] }, 'time-limit-stalled');
  assert.equal(doc.metrics.find((m) => m.name === 'latency.mean').value, 15186520000);
  // the exemption is ab's: the same values from a tool whose mean is the measured requests' are refused
  assert.match(trialProblems({ metrics: r.metrics }).join('\n'), /latency\.mean = 15186520000 ns is above latency\.max = 1529000000 ns: a mean lies within min\.\.max/);
});

test('ab output cut inside its percentage table, or with a damaged connection-times row, is refused, not read without those percentiles', () => {
  const full = read('orders-api-cache-off-1.txt');
  const cut = full.split('\n').slice(0, -6).join('\n');
  assert.throws(() => ab.parse(cut), /ab's percentage table has no readable 90%, 95%, 98%, 99%, 100% rows; the output is truncated or corrupted/);
  const damaged = full.replace(/^Waiting:[ \t]+\d+/m, 'Waiting:    true');
  assert.throws(() => ab.parse(damaged), /ab's "Connection Times \(ms\)" table has no readable Waiting row/);
  assert.ok(ab.parse(full).metrics.some((m) => m.name === 'latency.p99'), 'the whole output still reads');
});

test('ab output of more than one request without its percentage table, or with a damaged header over it, is refused as corrupted', () => {
  const full = read('orders-api-cache-off-3.txt');
  const header = 'Percentage of the requests served within a certain time (ms)';
  const at = full.indexOf(header);
  assert.ok(at > 0 && /^Complete requests: +5000$/m.test(full));
  const refusal = /ab's report has no "Percentage of the requests served within a certain time \(ms\)" line, which ab prints for every run of more than one request \(this one completed 5000\); the output is truncated or corrupted \(or ab ran with -d: run it again without -d\)/;
  // cut ten bytes into the header, cut just before it, and a garbled header over intact rows
  for (const bad of [full.slice(0, at + 10), full.slice(0, at), full.replace('requests served within', 'requests surved within')]) {
    assert.throws(() => ab.parse(bad), { name: 'ParseError', message: refusal });
  }
  // a single request has no table, as ab prints it
  assert.ok(parseCase('one').notes.some((n) => /no percentage table/.test(n)));
});

test('ab output whose "Time per request" line holds a negative or unreadable time is refused as corrupted, not read without time_per_request', () => {
  const full = read('orders-api-cache-off-3.txt');
  for (const [from, to] of [['0.213 [ms] (mean, across', '-1 [ms] (mean, across'], ['0.213 [ms] (mean, across', 'abc [ms] (mean, across'], ['21.265 [ms] (mean)', '-21.265 [ms] (mean)']]) {
    const bad = full.replace(from, to);
    assert.notEqual(bad, full, from);
    assert.throws(() => ab.parse(bad), { name: 'ParseError', message: new RegExp(`ab's "Time per request: ${to.replace(/[[\]().]/g, '\\$&')}.*" line does not hold a time in ms .*the output is corrupted`) }, to);
  }
  assert.equal(values(ab.parse(full)).time_per_request, 0.213 * MS);
});

test('a report saved with CRLF line ends reads as the original, Failed requests breakdown included', () => {
  for (const c of ['rate-limited', 'length-failures', 'non-2xx', 'many']) {
    const lf = ab.parse(read(`${c}.txt`), { stderr: stderrOf(c) });
    const crlf = ab.parse(read(`${c}.txt`).replace(/\n/g, '\r\n'), { stderr: stderrOf(c) });
    assert.deepEqual(values(crlf), values(lf), c);
  }
});

test('two ab reports appended into one file are refused as two runs, not read as a mix of both', () => {
  for (const [first, second] of [['one', 'keepalive'], ['many', 'many'], ['orders-api-cache-on-1', 'non-2xx']]) {
    assert.throws(() => ab.parse(`${read(`${first}.txt`)}${read(`${second}.txt`)}`), (e) => e instanceof ParseError && e.hint === ab.produce
      && /^the file holds 2 ab reports \(two runs appended into one file\?\); give one run's output$/.test(e.message), `${first} + ${second}`);
  }
  // a second server block without a second banner (the first lines of the output cut off) is another run too
  const noBanner = read('many.txt').slice(read('many.txt').indexOf('Server Software:'));
  assert.throws(() => ab.parse(`${read('one.txt')}\n${noBanner}`), { name: 'ParseError', message: /holds 2 ab reports/ });
});

test('ab counts and seconds reach ab in plain digits: an exponent form or a value above its C int is refused, not read by ab as 1 request', () => {
  const argv = (params) => ab.command({ target: { url: 'http://127.0.0.1:1' }, params }).argv;
  assert.throws(() => argv({ requests: 1e99 }), { message: 'ab: param requests must be a whole number from 1 to 2147483647 in plain digits, got 1e+99 (2147483647 is the most ab takes)' });
  assert.throws(() => argv({ requests: '1e99' }), /param requests must be a whole number from 1 to 2147483647 in plain digits, got "1e99" \(2147483647 is the most ab takes\)/);
  assert.throws(() => argv({ requests: 10, duration: 2 ** 31 }), /param duration \(ab -t\) must be a whole number from 1 to 2147483647 seconds/);
  assert.deepEqual(argv({ requests: '2147483647', concurrency: 4, duration: '3s' }).slice(1, 8), ['-q', '-t', '3', '-n', '2147483647', '-c', '4']);
});

test('a "Failed requests:" count with more after it, or a damaged breakdown line under it, is refused as corrupted, not read as its first digits or as no failures', () => {
  const many = read('many.txt');
  for (const v of ['1,2', '12abc', '3 4']) {
    const edited = many.replace(/^Failed requests:(\s+)0$/m, `Failed requests:$1${v}`);
    assert.notEqual(edited, many);
    assert.throws(() => ab.parse(edited), { name: 'ParseError', message: `ab's "Failed requests:" line holds "${v}", not a count; the output is corrupted` }, v);
  }
  const failures = read('length-failures.txt');
  const damaged = failures.replace('Length: 82,', 'Length: 8x2,');
  assert.notEqual(damaged, failures);
  assert.throws(() => ab.parse(damaged), { name: 'ParseError', message: /ab's line under "Failed requests:" holds "\(Connect: 0, Receive: 0, Length: 8x2, Exceptions: 0\)", not the counts ab prints/ });
  assert.equal(values(ab.parse(failures)).errors, 82);
});

test('a number ab never prints (1e999 for a total, 1e308 for a rate, "1.5.3" for a standard deviation) is refused as corrupted, not read as Infinity or NaN', () => {
  const many = read('many.txt');
  const huge = many.replace(/^(Total transferred:\s+)\d+/m, '$11e999');
  assert.notEqual(huge, many);
  assert.throws(() => ab.parse(huge), { name: 'ParseError', message: 'ab\'s "Total transferred:" line holds "1e999 bytes", not a number; the output is corrupted' });
  const rate = many.replace(/^(Transfer rate:\s+)[\d.]+/m, '$11e308');
  assert.notEqual(rate, many);
  assert.throws(() => ab.parse(rate), { name: 'ParseError', message: 'ab\'s "Transfer rate:" line holds "1e308 [Kbytes/sec] received", beyond any run (at most 1000000000000000); the output is corrupted' });
  const sd = many.replace(/^(Processing:\s+\d+\s+\d+\s+)[\d.]+/m, '$11.5.3');
  assert.notEqual(sd, many);
  assert.throws(() => ab.parse(sd), { name: 'ParseError', message: /ab's "Connection Times \(ms\)" table has no readable Processing row; the output is truncated or corrupted/ });
});

test('a percentage row that holds more than whole milliseconds ("95%  4.5", derived from keepalive.txt by appending ".5" to the 95% row) is refused, not read as 4 ms', () => {
  const text = read('keepalive.txt');
  const row = /^ {2}95% +\d+$/m.exec(text);
  assert.ok(row, 'the 95% row of keepalive.txt');
  const mutant = text.replace(row[0], `${row[0]}.5`);
  assert.throws(() => ab.parse(mutant), (e) => e instanceof ParseError && /percentage table has no readable 95% row/.test(e.message));
  // the real rows, "(longest request)" after the last one, still read
  assert.equal(values(ab.parse(text))['latency.p95'], 4 * MS);
});

test('a "Time per request" line that is not concurrency x time taken / complete requests (orders-api-orderlines-cache-off-4.txt with 78.767 ms made 78767.000) is refused, not judged as a 1000x slower latency.mean', () => {
  const text = read('orders-api-orderlines-cache-off-4.txt');
  for (const [from, to] of [['78.767 [ms] (mean)', '78767.000 [ms] (mean)'], ['0.788 [ms] (mean, across', '0.700 [ms] (mean, across']]) {
    const mutant = text.replace(from, to);
    assert.notEqual(mutant, text, from);
    assert.throws(() => ab.parse(mutant), (e) => e instanceof ParseError && /line is not (concurrency x )?time taken \/ complete requests \((100 x )?3\.938 s \/ 5000 = [\d.]+ ms\), as ab computes it/.test(e.message), from);
  }
  // every captured report, the stalled time limit's 15,187 ms among them, agrees with its own time taken
  for (const c of ['one', 'many', 'keepalive', 'time-limit', 'time-limit-stalled', 'time-limit-cap', 'rate-limited', 'variable-length']) assert.ok(parseCase(c).metrics.length, c);
});

test('a Connection Times Total row whose mean or median lies outside its own min..max (orders-api-cache-on-3.txt with the Total mean 18 made 00, or its median 15 made 95) is refused, not kept as latency.total_mean', () => {
  const text = read('orders-api-cache-on-3.txt');
  for (const [from, to, what] of [[/^Total: {10}5 {3}18 /m, 'Total:          5   00 ', 'mean 0'], [/^(Total: {10}5 {3}18 {3}8\.9 {5})15/m, '$195', 'median 95']]) {
    const mutant = text.replace(from, to);
    assert.notEqual(mutant, text, what);
    assert.throws(() => ab.parse(mutant), (e) => e instanceof ParseError && new RegExp(`Total row has ${what} ms outside its min 5 \\.\\. max 60 ms`).test(e.message), what);
  }
  assert.equal(values(parseCase('orders-api-cache-on-3'))['latency.total_mean'], 18 * MS);
});

test('another tool\'s output appended to ab\'s report (keepalive.txt followed by wrk/latency.txt, or by ghz/one.json) is refused as appended outputs, not read as ab\'s alone', () => {
  const text = read('keepalive.txt');
  const others = { 'wrk output': readFileSync(`${FIX}../wrk/latency.txt`, 'utf8'), 'JSON from another tool': readFileSync(`${FIX}../ghz/one.json`, 'utf8') };
  for (const [what, other] of Object.entries(others)) {
    for (const mixed of [`${text}${other}`, `${other}\n${text}`]) {
      assert.throws(() => ab.parse(mixed), (e) => e instanceof ParseError && e.message === `the file holds ${what} as well as ab's report (outputs appended into one file?); give one run's output`, what);
    }
  }
});

test('a report of ab -v 2, which prints each response and so a JSON body on a line of its own, reads as ab\'s, not as JSON appended from another tool', () => {
  // captured: ab -v 2 -n 3 -c 1 against a path that answers {"a":1} (test/fixtures/ab/verbose-json.cmd)
  const text = read('verbose-json.txt');
  assert.match(text, /^\{"a":1\}$/m);
  const r = ab.parse(text);
  assert.equal(values(r).requests, 3);
  assert.equal(values(r).errors, 0);
  // JSON appended after the same report, with no response printed before it, is still refused
  const quiet = text.replace(/^LOG: header received:$/gm, 'LOG: header');
  assert.throws(() => ab.parse(quiet), (e) => e instanceof ParseError && /the file holds JSON from another tool as well as ab's report/.test(e.message));
});

// The shared check of impossible values, through `benchline normalize` on real fixtures edited the way the issue found them accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trialProblems } from '../ci/sanity.js';
import { metric } from '../ci/metrics.js';
import { tempDir } from './support/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIX = join(ROOT, 'test', 'fixtures');
const TMP = tempDir('sanity');
const read = (rel) => readFileSync(join(FIX, rel), 'utf8');

/** Runs `benchline normalize --tool T` on `text` written to a file named `name`; { status, stderr, doc }. */
function normalize(tool, name, text) {
  const file = join(TMP, name);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'normalize', '--tool', tool, file], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, doc: r.status === 0 ? JSON.parse(r.stdout) : undefined, file };
}

/** The refusal names the file, the tool, the metric and its value, in one message and without a stack trace. */
function assertRefused(r, tool, ...expected) {
  assert.equal(r.status, 2, r.stderr);
  assert.ok(r.stderr.includes(r.file), `names the file: ${r.stderr}`);
  assert.ok(r.stderr.includes(tool), `names the tool: ${r.stderr}`);
  for (const e of expected) assert.match(r.stderr, e);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

test('wrk text cut before its Non-2xx line is refused as truncated, not read as 0 errors', () => {
  const r = normalize('wrk', 'cut.txt', read('wrk/status-errors.txt').slice(0, 277));
  assertRefused(r, 'wrk', /stops before its "Requests\/sec" and "Transfer\/sec" lines .* truncated/);
});

test('a wrk error line that no longer reads as one is refused instead of counting as no errors', () => {
  const r = normalize('wrk', 'flipped.txt', read('wrk/status-errors.txt').replace('Non-2xx or 3xx responses: 60360', 'Non-2xx or 3xx respXnses: 60360'));
  assertRefused(r, 'wrk', /a line wrk does not print: "Non-2xx or 3xx respXnses: 60360"/);
});

test('ab with "Complete requests: 0" and a throughput is refused naming throughput and requests', () => {
  const r = normalize('ab', 'zero.txt', read('ab/many.txt').replace('Complete requests:      2000', 'Complete requests:      0'));
  assertRefused(r, 'ab', /throughput = 9426\.31 ops\/s with requests = 0: no request completed/);
});

test('ab with a negative "Time taken for tests" is refused: a time cannot be negative', () => {
  const r = normalize('ab', 'negative.txt', read('ab/many.txt').replace('Time taken for tests:   0.212', 'Time taken for tests:   -0.212'));
  assertRefused(r, 'ab', /duration = -212000000 ns: a time cannot be negative/);
});

test('ab reads "Requests per second: 1e308" whole and refuses it as beyond any real rate', () => {
  const r = normalize('ab', 'huge.txt', read('ab/many.txt').replace('9426.31 [#/sec]', '1e308 [#/sec]'));
  assertRefused(r, 'ab', /ab's "Requests per second:" line holds "1e308 \[#\/sec\] \(mean\)", beyond any run/);
});

test('ab output without its "Failed requests" line is refused, not read as no failures', () => {
  const r = normalize('ab', 'nofailed.txt', read('ab/length-failures.txt').replace(/^Failed requests:.*\n.*\n/m, ''));
  assertRefused(r, 'ab', /lacks its "Failed requests:" line/);
});

test('ghz with "count": 0 and a rate is refused', () => {
  const doc = JSON.parse(read('ghz/many.json'));
  doc.count = 0;
  const r = normalize('ghz', 'zero.json', JSON.stringify(doc));
  assertRefused(r, 'ghz', /throughput = 4239\.\d+ ops\/s with requests = 0: no request completed/);
});

test('hyperfine with a negative mean, or min above max, is refused naming the command\'s metric', () => {
  const doc = JSON.parse(read('hyperfine/several.json'));
  doc.results[0].mean = -0.5;
  assertRefused(normalize('hyperfine', 'neg.json', JSON.stringify(doc)), 'hyperfine', /result 1 \("short"\) has mean -0\.5, where hyperfine writes a number of seconds from 0 to 1000000/);
  const swapped = JSON.parse(read('hyperfine/several.json'));
  [swapped.results[1].min, swapped.results[1].max] = [swapped.results[1].max, swapped.results[1].min];
  assertRefused(normalize('hyperfine', 'minmax.json', JSON.stringify(swapped)), 'hyperfine', /::time\.min = \d+ ns is above .*::time\.max = \d+ ns/);
});

test('a mean far outside min..max is refused for hyperfine, ghz (recomputed from per-call details) and ab, naming both values', () => {
  const hf = read('hyperfine/one-command.json').replace('"mean": 0.011088636800000001,', '"mean": 0.0000001,');
  assertRefused(normalize('hyperfine', 'hf-mean.json', hf), 'hyperfine', /time\.mean = 100 ns is below .*time\.min = 11004578 ns: a mean lies within min\.\.max/, /corrupted or edited/);
  const ghz = read('ghz/duration-cutoff.json').replace('"latency":515377,', '"latency":1e15,');
  assertRefused(normalize('ghz', 'ghz-detail.json', ghz), 'ghz', /latency\.mean = [\d.]+ ns is above latency\.max = 8274151 ns/, /corrupted or edited/);
  const ab = read('ab/orders-api-cache-on-work300.txt').replace(/^Processing: {5}3 {3}54 /m, 'Processing:     3    0 ');
  assertRefused(normalize('ab', 'ab-proc.txt', ab), 'ab', /processing\.mean = 0 ns is below processing\.min = 3000000 ns/, /corrupted or edited/);
});

test('wrk text whose bytes read do not match its Transfer/sec in its time is refused as corrupted or edited, naming both values', () => {
  const text = read('wrk/latency.txt');
  assertRefused(normalize('wrk', 'wrk-32GB.txt', text.replace('32.58MB read', '32.58GB read')), 'wrk', /transfer_rate = 16273900 bytes\/s does not match bytes_received = 34982508626 bytes in duration = 2100000000 ns \(expected about 1\.666e\+10 bytes\/s\)/, /corrupted or edited/);
  assertRefused(normalize('wrk', 'wrk-rate.txt', text.replace(/^Transfer\/sec: {5}15\.52MB$/m, 'Transfer/sec:     45.52MB')), 'wrk', /transfer_rate = \d+ bytes\/s does not match bytes_received = 34162606 bytes/);
  // wrk rounds both to two decimals of the unit it picks: a last digit off is within the band
  assert.equal(normalize('wrk', 'wrk-rounded.txt', text.replace('32.58MB read', '32.59MB read')).status, 0);
});

test('ab whose standard deviation is larger than values within its min..max can have is refused, for Total and the other rows', () => {
  const text = read('ab/orders-api-cache-on-work300.txt');
  assertRefused(normalize('ab', 'ab-total-sd.txt', text.replace(/^Total: {10}4 {3}55 {2}16\.1 /m, 'Total:          4   55 7700.0 ')), 'ab', /latency\.stdev = 7700000000 ns is above what values within latency\.min = 4000000 ns \.\. latency\.max = 107000000 ns allow: a standard deviation is at most \(max - min\) \/ √2/, /corrupted or edited/);
  assertRefused(normalize('ab', 'ab-proc-sd.txt', text.replace(/^(Processing: {5}3 {3}54) {2}16\.[0-9] /m, '$1 9538.27 ')), 'ab', /processing\.stdev = 9538270000 ns is above what values within processing\.min = 3000000 ns/);
});

test('a stdev up to (max - min) / √2, give or take one rounding step of min, max and the stdev, passes; beyond it is refused', () => {
  const problems = (metrics) => trialProblems({ metrics });
  const ms = { resolution: 1e6 };
  const sd = (v) => metric('latency.stdev', v, { resolution: 1e5 });
  // ab's stalled run: Total 1513 .. 1529 ms with sd 11.5 ms, above 16 / √2 = 11.3 as printed, within it before rounding
  assert.deepEqual(problems([metric('latency.min', 1513e6, ms), sd(11.5e6), metric('latency.max', 1529e6, ms)]), []);
  assert.deepEqual(problems([metric('latency.min', 1513e6, ms), sd(12.2e6), metric('latency.max', 1529e6, ms)]), ['latency.stdev = 12200000 ns is above what values within latency.min = 1513000000 ns .. latency.max = 1529000000 ns allow: a standard deviation is at most (max - min) / √2 = 12122029 ns']);
  // two runs reach the bound exactly; a unit over it in whole ns (a conversion's rounding) passes, a part in a thousand does not
  const two = (stdev) => problems([metric('time.min', 11521001), metric('time.stdev', stdev), metric('time.max', 11903598)]);
  assert.deepEqual(two(Math.round((11903598 - 11521001) / Math.SQRT2) + 1), []);
  assert.equal(two(Math.round(((11903598 - 11521001) / Math.SQRT2) * 1.001)).length, 1);
  // two runs of `true` in hyperfine: 0 .. 3352 ns (a few microseconds, rounded to whole ns) with a stdev of 2371 ns
  assert.deepEqual(problems([metric('time.min', 0), metric('time.stdev', 2371), metric('time.max', 3352)]), []);
  assert.equal(problems([metric('time.min', 0), metric('time.stdev', 2375), metric('time.max', 3352)]).length, 1);
  // without min or max there is no range to hold it to (wrk's text has no min)
  assert.deepEqual(problems([sd(1e12), metric('latency.max', 5e6, ms)]), []);
});

test('a mean within a resolution step of min or max passes: ab rounds min and max to whole milliseconds', () => {
  const problems = (metrics) => trialProblems({ metrics });
  const ms = { resolution: 1e6 };
  assert.deepEqual(problems([metric('latency.min', 3e6, ms), metric('latency.mean', 2.4e6, { resolution: 1e3 }), metric('latency.max', 7e6, ms)]), []);
  assert.deepEqual(problems([metric('latency.min', 3e6, ms), metric('latency.mean', 7.9e6, { resolution: 1e3 }), metric('latency.max', 7e6, ms)]), []);
  assert.deepEqual(problems([metric('latency.min', 3e6, ms), metric('latency.mean', 1.5e6, { resolution: 1e3 }), metric('latency.max', 7e6, ms)]), ['latency.mean = 1500000 ns is below latency.min = 3000000 ns: a mean lies within min..max']);
  // each case is its own family: one case's mean is not held to another's min
  assert.deepEqual(problems([metric('time.min', 10, { case: 'a' }), metric('time.mean', 5, { case: 'b' }), metric('time.max', 20, { case: 'a' })]), []);
});

test('the check names every kind of impossible value and passes the real fixtures\' kinds of values', () => {
  const problems = (metrics, extra) => trialProblems({ metrics, extra });
  assert.deepEqual(problems([metric('errors', 2.5)]), ['errors = 2.5: a count must be a whole number']);
  assert.deepEqual(problems([metric('error_rate', 1.5)]), ['error_rate = 1.5: a ratio must lie within 0..1']);
  assert.deepEqual(problems([metric('bytes_received', -1)]), ['bytes_received = -1 bytes: a size cannot be negative']);
  assert.deepEqual(problems([metric('latency.p50', 5), metric('latency.p99', 4)]), ['latency.p50 = 5 ns is above latency.p99 = 4 ns: percentiles must not fall as the rank rises']);
  assert.deepEqual(problems([metric('latency.p99.9', 9), metric('latency.max', 8)]), ['latency.p99.9 = 9 ns is above latency.max = 8 ns']);
  assert.deepEqual(problems([metric('requests', 10), metric('errors', 11)]), ['errors = 11 exceeds requests = 10']);
  // wrk's failed connects are errors that never became requests: bounded by the attempts instead
  assert.deepEqual(problems([metric('requests', 10), metric('errors', 11)], { attempts: 15 }), []);
  assert.deepEqual(problems([metric('requests', 1000), metric('duration', 1e9), metric('throughput', 5000)]), ['throughput = 5000 ops/s does not match requests = 1000 in duration = 1000000000 ns (expected about 1000 ops/s)']);
  assert.deepEqual(problems([metric('requests', 1000), metric('duration', 1e9), metric('throughput', 1001), metric('latency.min', 1), metric('latency.p50', 2), metric('latency.max', 3)]), []);
});

/**
 * Each edit ({ name: [edit(doc), message] }) of a copy of `good`, written to a file, is refused by compare, export and
 * publish: exit 2, the file, the message and how to fix it, without a stack trace.
 */
function assertRefusedOnRead(good, edits) {
  for (const [name, [edit, says]] of Object.entries(edits)) {
    const doc = structuredClone(good);
    edit(doc);
    const file = join(TMP, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc));
    for (const argv of [['compare', file, file], ['export', '--format', 'bmf', file], ['publish', file, '--store', join(TMP, `store-${name}`)]]) {
      const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), ...argv], { encoding: 'utf8' });
      assert.equal(r.status, 2, `${argv[0]} ${name}: ${r.stderr}`);
      assert.ok(r.stderr.includes(file) && says.test(r.stderr), `${argv[0]} ${name}: ${r.stderr}`);
      assert.match(r.stderr, /Write result documents with `benchline run` or `benchline normalize/, `${argv[0]} ${name}: says how to fix it`);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  }
}

test('an edited result document with impossible values is refused where documents are read back: compare, export and publish each name the file and the value', () => {
  const good = normalize('wrk', 'wrk-good.txt', read('wrk/latency.txt'));
  assert.equal(good.status, 0, good.stderr);
  const edits = {
    'negative-sample': [(d) => { d.metrics.find((m) => m.name === 'latency.mean').samples = [-1e9]; }, /latency\.mean = [\d.]+ ns \(sample -1000000000\): a time cannot be negative/],
    huge: [(d) => { d.metrics.find((m) => m.name === 'latency.max').value = 1e308; }, /latency\.max = 1e\+308 ns: above 1000000000000000 ns, beyond any real measurement/],
    twice: [(d) => { d.metrics.push(structuredClone(d.metrics.find((m) => m.name === 'latency.p99'))); }, /latency\.p99: listed twice/],
    // over several trials a metric holds one sample per trial; a million of them is an edit (compare would run for minutes)
    'samples-per-trial': [(d) => { d.trials = 3; for (const m of d.metrics) m.samples = [m.value, m.value, m.value]; d.metrics[0].samples.push(d.metrics[0].value); }, /: 4 samples for the document's 3 trials \(one per trial\)/],
    'a-million-samples': [(d) => { d.metrics[0].samples = new Array(1000001).fill(d.metrics[0].value); }, /samples must NOT have more than 100000 items/],
    'too-many-trials': [(d) => { d.trials = 1000000; }, /trials must be <= 10000/],
  };
  assertRefusedOnRead(good.doc, edits);
  // a document's count is a median over trials: half a request is what an even number of trials gives, not an edit
  const halves = structuredClone(good.doc);
  halves.trials = 2;
  for (const m of halves.metrics) m.samples = [m.value, m.value];
  const requests = halves.metrics.find((m) => m.name === 'requests');
  requests.samples = [requests.value, requests.value + 1];
  requests.value += 0.5;
  const file = join(TMP, 'halves.json');
  writeFileSync(file, JSON.stringify(halves));
  const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'export', '--format', 'bmf', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('a read-back document whose percentiles, mean or stdev break min..max, or whose value lies outside its own per-trial samples, is refused by compare, export and publish, naming the file and the relation', () => {
  const good = normalize('ab', 'ab-good.txt', read('ab/orders-api-cache-on-work300.txt'));
  assert.equal(good.status, 0, good.stderr);
  const set = (d, name, value) => Object.assign(d.metrics.find((m) => m.name === name), { value, samples: [value] });
  const edits = {
    'p50-above-max': [(d) => set(d, 'latency.p50', 1e12), /latency\.p50 = 1000000000000 ns is above latency\.max = 107000000 ns/],
    'mean-above-max': [(d) => set(d, 'processing.mean', 1e9), /processing\.mean = 1000000000 ns is above processing\.max = 107000000 ns: a mean lies within min\.\.max/],
    'stdev-beyond-range': [(d) => set(d, 'latency.stdev', 7.7e9), /latency\.stdev = 7700000000 ns is above what values within latency\.min = 4000000 ns \.\. latency\.max = 107000000 ns allow/],
    'value-not-its-sample': [(d) => { const m = d.metrics.find((x) => x.name === 'throughput'); m.value = m.samples[0] * 100; }, /throughput = [\d.]+ ops\/s is not its trial's sample [\d.]+: a document's value is what its trials measured/],
    'value-outside-trials': [(d) => {
      d.trials = 3;
      for (const m of d.metrics) m.samples = [m.value, m.value, m.value];
      const m = d.metrics.find((x) => x.name === 'throughput');
      m.samples = [m.value * 0.99, m.value, m.value * 1.01];
      m.value *= 100;
    }, /throughput = [\d.]+ ops\/s lies outside its own per-trial samples [\d.]+ \.\. [\d.]+: a document's value is the median of its trials/],
  };
  assertRefusedOnRead(good.doc, edits);
  // ab's latency.mean is its "Time per request", which a stalled time-limited run puts above its slowest request: read
  // back as normalize wrote it
  const stalled = normalize('ab', 'ab-stalled.txt', read('ab/time-limit-stalled.txt'));
  assert.equal(stalled.status, 0, stalled.stderr);
  const mean = stalled.doc.metrics.find((m) => m.name === 'latency.mean').value;
  assert.ok(mean > stalled.doc.metrics.find((m) => m.name === 'latency.max').value, 'the fixture keeps its mean above its max');
  const file = join(TMP, 'ab-stalled.json');
  writeFileSync(file, JSON.stringify(stalled.doc));
  const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'export', '--format', 'bmf', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

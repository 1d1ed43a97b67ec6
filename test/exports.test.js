// Exports for other tools: github-action-benchmark's custom JSON (one file per direction) and Bencher Metric Format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { buildResult } from '../ci/result.js';
import { metric } from '../ci/metrics.js';
import { spawnSync } from 'node:child_process';
import { bencherMeasures, BENCHER_UNITS, measureSlug, renderExport, toBmf, toGab } from '../ci/reports/exports.js';
import { PER_MEASUREMENT_TIME } from '../ci/compare.js';
import { ROOT } from '../ci/tools.js';
import exportCommand from '../ci/commands/export.js';
import { normalizeFile } from '../ci/commands/normalize.js';

const RUNNER = { name: 'bench-1', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 1024 ** 3, labels: [] };

/** A schema-valid result document from per-trial samples ({ 'name' or 'name@case': [trial values] }). */
function doc({ suite = 'gateways', variant, tool = 'wrk', version = '4.1.0', scenario = 'peak', role = 'local', metrics }) {
  const keys = Object.keys(metrics);
  const trials = metrics[keys[0]].map((_, i) => ({
    metrics: keys.map((k) => {
      const [name, c] = k.split('@');
      return metric(name, metrics[k][i], c ? { case: c } : {});
    }),
  }));
  return buildResult({
    run: { id: 'r1', startedAt: '2026-11-22T10:15:00.000Z', commit: '0123456789abcdef0123456789abcdef01234567', ref: 'main', trigger: 'push', role },
    runner: RUNNER, suite, subject: suite, variant, scenario, tool: { name: tool, version }, params: {}, trials,
  }, 'test document');
}

const NGINX = doc({ variant: 'nginx', metrics: {
  throughput: [28665.95, 28100.4, 29010.7],
  'latency.p99': [4.1e6, 4.3e6, 3.9e6],
  'latency.p99.9': [9.2e6, 9.9e6, 8.8e6],
  error_rate: [0, 0, 0],
} });
const JMH = doc({ suite: 'serialization', variant: 'default', tool: 'jmh', version: '1.37', scenario: 'avgt', metrics: { 'time.mean@sbeSerialize': [73.62], 'time.mean@sbeDeserialize': [110.91] } });

/** The result document of one trial: a captured tool output (path from the project root) as `benchline normalize` reads it. */
function fixtureDoc(file, { suite, variant, scenario, tool }) {
  return buildResult({
    run: { id: 'r1', startedAt: '2026-11-22T10:15:00.000Z', commit: '0123456789abcdef0123456789abcdef01234567', ref: 'main', trigger: 'push', role: 'local' },
    runner: RUNNER, suite, subject: suite, variant, scenario, tool, params: {}, trials: [normalizeFile(join(ROOT, file), tool.name)],
  }, file);
}

// The action's own range parser (extractRangeInfo in github-action-benchmark), to check our strings parse.
const gabRange = (range) => Number(range.match(/(?<prefix>(\+-|±)\s*)(?<value>\d.+)/)?.groups.value);

test('exports only lower-is-better metrics as customSmallerIsBetter, named suite/variant/tool/scenario/metric in canonical units', () => {
  const out = toGab([NGINX, JMH], 'lower');
  assert.deepEqual(out.map((e) => [e.name, e.unit, e.value]), [
    ['gateways/nginx/wrk/peak/latency.p99', 'ns', 4.1e6],
    ['gateways/nginx/wrk/peak/latency.p99.9', 'ns', 9.2e6],
    ['gateways/nginx/wrk/peak/error_rate', 'ratio', 0],
    ['serialization/default/jmh/avgt/sbeSerialize/time.mean', 'ns', 73.62],
    ['serialization/default/jmh/avgt/sbeDeserialize/time.mean', 'ns', 110.91],
  ]);
  const p99 = out[0];
  const m = NGINX.metrics.find((x) => x.name === 'latency.p99');
  assert.equal(p99.range, '± 200000', 'the wider side of [3.9 ms, 4.3 ms] around 4.1 ms');
  assert.equal(gabRange(p99.range), 200000);
  assert.equal(p99.extra, `median of 3 trials\n95% interval ${m.lower}..${m.upper} ns\nwrk 4.1.0\ncommit 0123456789ab`);
  assert.equal(out[3].range, undefined, 'one JMH trial has no interval of ours');
  assert.equal(out[3].extra, '1 trial\njmh 1.37\ncommit 0123456789ab');
});

test('exports only higher-is-better metrics as customBiggerIsBetter, with a range the action can parse', () => {
  const out = toGab([NGINX], 'higher');
  assert.deepEqual(out.map((e) => [e.name, e.unit, e.value]), [['gateways/nginx/wrk/peak/throughput', 'ops/s', 28665.95]]);
  assert.equal(out[0].range, '± 565.5', 'the wider side of [28,100.4, 29,010.7] around 28,665.95, to 4 digits');
  assert.equal(gabRange(out[0].range), 565.5);
  assert.equal(gabRange(toGab([doc({ variant: 'x', metrics: { throughput: [5, 5.5, 6] } })], 'higher')[0].range), 0.5, 'small numbers keep decimals the parser needs');
  assert.throws(() => toGab([NGINX], 'up'), /better must be "lower" or "higher"/);
});

test('leaves out of both github-action-benchmark files the metrics that restate a run parameter, so a speed-up never alerts', () => {
  // a fixed-duration wrk run: its bytes received and requests grow with its throughput, its duration is the parameter
  const wrk = doc({ variant: 'haproxy', metrics: {
    throughput: [20000, 21000, 22000], 'latency.p50': [2e6, 2.1e6, 2.2e6], duration: [2.01e9, 2.0e9, 2.02e9], requests: [40000, 42000, 44000], bytes_received: [9e6, 9.4e6, 9.9e6],
  } });
  assert.ok(['duration', 'requests', 'bytes_received'].every((n) => wrk.metrics.some((m) => m.name === n)), 'the document holds them');
  assert.deepEqual(toGab([wrk], 'lower').map((e) => e.name), ['gateways/haproxy/wrk/peak/latency.p50']);
  assert.deepEqual(toGab([wrk], 'higher').map((e) => e.name), ['gateways/haproxy/wrk/peak/throughput']);
  assert.ok(Object.keys(toBmf([wrk])['gateways/haproxy/wrk/peak']).includes('bytes-received'), 'Bencher, where alerts are per measure and set by the user, keeps them');
});

test('leaves JMH\'s per-measurement-time GC figures out of both github-action-benchmark files: a faster benchmark allocating the same bytes per operation shows more of them', () => {
  // test/fixtures/jmh/avgt-gc.json (JMH 1.37, -prof gc): gc.alloc.rate, gc.count and gc.time sum over a fixed measurement time, so
  // sbeDeserialize, allocating 8.6x fewer bytes per operation than jsonDeserialize, has 6.8x its alloc_rate and 4x its gc_count
  const jmh = fixtureDoc('test/fixtures/jmh/avgt-gc.json', { suite: 'serialization', variant: 'default', scenario: 'avgt-gc', tool: { name: 'jmh', version: '1.37' } });
  const of = (name, c) => jmh.metrics.find((m) => m.name === name && m.case === c).value;
  assert.ok(of('alloc_per_op', 'sbeDeserialize') < of('alloc_per_op', 'jsonDeserialize') / 8);
  assert.ok(of('alloc_rate', 'sbeDeserialize') > of('alloc_rate', 'jsonDeserialize') * 6, 'the per-second figure ranks them the other way round');
  const names = toGab([jmh], 'lower').map((e) => e.name.split('/').at(-1));
  assert.ok(names.includes('alloc_per_op') && names.includes('time.mean'));
  assert.deepEqual(['alloc_rate', 'gc_count', 'gc_time'].filter((n) => names.includes(n)), []);
  assert.ok(Object.keys(toBmf([jmh])['serialization/default/jmh/avgt-gc/sbeDeserialize']).includes('alloc-rate'), 'Bencher keeps them');
});

// The JSON Schema Bencher publishes for BMF (bencher.dev/bmf.json).
const BMF_SCHEMA = {
  type: 'object',
  patternProperties: {
    '.+': {
      type: 'object',
      patternProperties: {
        '.+': { type: 'object', properties: { value: { type: 'number' }, lower_value: { type: 'number' }, upper_value: { type: 'number' } }, required: ['value'] },
      },
    },
  },
};

test('exports Bencher Metric Format with kebab-case measure slugs and the interval as lower/upper values', () => {
  const bmf = toBmf([NGINX, JMH]);
  const p99 = NGINX.metrics.find((x) => x.name === 'latency.p99');
  assert.deepEqual(Object.keys(bmf), ['gateways/nginx/wrk/peak', 'serialization/default/jmh/avgt/sbeSerialize', 'serialization/default/jmh/avgt/sbeDeserialize']);
  assert.deepEqual(Object.keys(bmf['gateways/nginx/wrk/peak']), ['throughput', 'latency-p99', 'latency-p99-9', 'error-rate']);
  assert.deepEqual(bmf['gateways/nginx/wrk/peak']['latency-p99'], { value: 4.1e6, lower_value: p99.lower, upper_value: p99.upper });
  assert.deepEqual(bmf['serialization/default/jmh/avgt/sbeSerialize'], { 'time-mean': { value: 73.62 } });
  const validate = new Ajv().compile(BMF_SCHEMA);
  assert.equal(validate(bmf), true, JSON.stringify(validate.errors));
  assert.equal(measureSlug('latency.p99'), 'latency-p99');
  assert.equal(measureSlug('checks_pass_rate'), 'checks-pass-rate');
});

// Bencher v0.6.12's own validators (bencher_valid Slug) take a key that ends in a hyphen for a measure name, not a slug,
// and refuse it as `measure create --slug`: checked by running them on an export of this metric.
test('a long metric name becomes a slug of at most 64 characters that neither starts nor ends with a hyphen', () => {
  const name = 'checkout_latency_of_the_payment_service_under_load_for_region_e.p99';
  assert.equal(measureSlug(name), 'checkout-latency-of-the-payment-servic-377b6bfb-for-region-e-p99', 'its start, a hash of the name and its end');
  assert.equal(measureSlug('a_name_of_exactly_sixty_four_characters_once_it_is_in_kebab_case'), 'a-name-of-exactly-sixty-four-characters-once-it-is-in-kebab-case', 'kept whole up to 64');
  for (const n of [name, `${'x'.repeat(63)}.total`, `a${'_'.repeat(70)}b`, 'x'.repeat(90), `${'y'.repeat(47)}_.p99`, `_${'z'.repeat(80)}_`]) {
    const slug = measureSlug(n);
    assert.ok(slug.length <= 64, `${n}: ${slug.length} characters`);
    assert.match(slug, /^[a-z0-9]+(-[a-z0-9]+)*$/, n);
  }
});

// k6 allows metric names of up to 128 characters: cut at 64, the statistics of one such Trend shared a measure, and
// the Bencher export (and with it `bench`, after the run) failed with an advice to rename one of them
test('each statistic of a k6 Trend with a long name is a Bencher measure of its own, named within 64 characters', () => {
  const trend = 'checkout_service_end_to_end_order_confirmation_latency_ms_total';
  const stats = ['mean', 'min', 'max', 'p50', 'p90', 'p95', 'p99', 'p99.9'];
  // a k6 custom Trend's statistics, as the k6 adapter names them (latency-like, in ns)
  const p99 = NGINX.metrics.find((m) => m.name === 'latency.p99');
  const long = { ...NGINX, tool: { name: 'k6', version: '1.8.1' }, metrics: stats.map((stat) => ({ ...p99, name: `${trend}.${stat}` })) };
  const bmf = toBmf([long]);
  const slugs = Object.keys(bmf['gateways/nginx/k6/peak']);
  assert.equal(new Set(slugs).size, stats.length, slugs.join(', '));
  for (const slug of slugs) assert.match(slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.ok(slugs.every((slug) => slug.length <= 64));
  assert.ok(slugs.some((slug) => slug.endsWith('-ms-total-p99-9')), 'the statistic stays readable at the end');
  const measures = bencherMeasures([long]);
  assert.deepEqual(measures.map((m) => m.slug).sort(), [...slugs].sort());
  assert.equal(new Set(measures.map((m) => m.name)).size, stats.length, 'and named apart');
  for (const m of measures) assert.ok(m.name.length <= 64 && m.name.startsWith('checkout_service_end_to_end') && !m.name.endsWith('.'), m.name);
});

test('an A/B run\'s duet results are left out of every export: their figures stand beside the other side, not a history of runs alone', () => {
  const duet = { ...NGINX, duet: true };
  for (const format of ['bmf', 'gab-smaller', 'gab-bigger']) {
    assert.equal(renderExport([duet, JMH], format), renderExport([JMH], format), format);
    assert.notEqual(renderExport([NGINX, JMH], format), renderExport([JMH], format), `${format}: the same document measured alone is exported`);
  }
});

test('refuses a Bencher export where two metric names would share one measure slug', () => {
  const clash = doc({ variant: 'x', metrics: { 'latency.p99_9': [1, 2, 3], 'latency.p99.9': [1, 2, 3] } });
  assert.throws(() => toBmf([clash]), /metrics "latency\.p99_9" and "latency\.p99\.9" of gateways\/x\/wrk\/peak both become measure "latency-p99-9"; rename one of them/);
});

test('benchline export writes the head documents of a run in the chosen format to a file', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const head = { ...NGINX, run: { ...NGINX.run, role: 'head' } };
  const base = { ...NGINX, run: { ...NGINX.run, role: 'base' }, metrics: NGINX.metrics.map((m) => ({ ...m, value: m.value * 2, samples: m.samples.map((v) => v * 2), lower: m.lower * 2, upper: m.upper * 2 })) };
  mkdirSync(join(root, 'docs/head'), { recursive: true });
  mkdirSync(join(root, 'docs/base'), { recursive: true });
  writeFileSync(join(root, 'docs/head/j.json'), JSON.stringify(head));
  writeFileSync(join(root, 'docs/base/j.json'), JSON.stringify(base));
  writeFileSync(join(root, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.nginx.wrk.peak', status: 'ok', docs: { head: 'docs/head/j.json', base: 'docs/base/j.json' } }] }));
  const file = join(root, 'out', 'bigger.json');
  assert.equal(exportCommand({ args: [root], format: 'gab-bigger', output: file }), 0);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).map((e) => e.value), [28665.95], 'head, not base');
  assert.equal(renderExport([NGINX], 'bmf'), `${JSON.stringify(toBmf([NGINX]), null, 2)}\n`);
  assert.throws(() => renderExport([NGINX], 'csv'), /unknown export format "csv"; choose one of: gab-smaller, gab-bigger, bmf, bencher-measures/);
});

/** The result document `benchline normalize` makes of a captured JMH output (a single fork, so a wide 99.9% interval). */
function normalizedJmh(file) {
  const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'jmh', '--suite', 'serialization', file], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a Bencher export never has a bound below zero: JMH\'s interval of one fork is clamped at 0', () => {
  const jmh = normalizedJmh('test/fixtures/jmh/avgt-gc.json');
  const negative = jmh.metrics.filter((m) => m.lower < 0);
  assert.ok(negative.length > 0, 'the fixture has intervals reaching below zero (the case this guards)');
  const bmf = toBmf([jmh]);
  for (const m of negative) {
    const measure = bmf[`serialization/default/jmh/${jmh.scenario}/${m.case}`][measureSlug(m.name)];
    assert.deepEqual(measure, { value: m.value, lower_value: 0, upper_value: m.upper });
  }
  const bounds = Object.values(bmf).flatMap((b) => Object.values(b)).flatMap((x) => [x.lower_value ?? 0, x.value, x.upper_value ?? 0]);
  assert.equal(Math.min(...bounds) >= 0, true);
});

test('a github-action-benchmark entry\'s extra text never shows an interval reaching below zero: JMH\'s interval of one fork starts at 0 there too', () => {
  const jmh = normalizedJmh('test/fixtures/jmh/avgt-gc.json');
  const negative = jmh.metrics.filter((m) => m.lower < 0 && m.better === 'lower' && !PER_MEASUREMENT_TIME.includes(m.name));
  assert.ok(negative.length > 0, 'the fixture has intervals reaching below zero (the case this guards)');
  const gab = toGab([jmh], 'lower');
  for (const m of negative) {
    const entry = gab.find((e) => e.name === `serialization/default/jmh/${jmh.scenario}/${m.case}/${m.name}`);
    assert.match(entry.extra, new RegExp(`% interval 0\\.\\.${m.upper} ${m.unit}\n`));
  }
  assert.doesNotMatch(gab.map((e) => e.extra).join('\n'), /interval -/);
});

test('every exported measure has a Bencher name and units, and the throughput measure matches Bencher\'s built-in one', () => {
  const measures = bencherMeasures([NGINX, JMH]);
  assert.deepEqual(measures, [
    { slug: 'error-rate', name: 'error_rate', units: 'ratio (0 to 1)' },
    { slug: 'latency-p99', name: 'latency.p99', units: 'nanoseconds (ns)' },
    { slug: 'latency-p99-9', name: 'latency.p99.9', units: 'nanoseconds (ns)' },
    { slug: 'throughput', name: 'throughput', units: 'operations / second (ops/s)' },
    { slug: 'time-mean', name: 'time.mean', units: 'nanoseconds (ns)' },
  ]);
  const units = JSON.parse(readFileSync(join(ROOT, 'ci/schema/result.schema.json'), 'utf8')).$defs.unit.enum;
  assert.deepEqual(Object.keys(BENCHER_UNITS).sort(), [...units].sort(), 'every canonical unit has a Bencher spelling');
  assert.equal(renderExport([NGINX], 'bencher-measures').split('\n')[0],
    `bencher measure create --name 'error_rate' --slug 'error-rate' --units 'ratio (0 to 1)' "$BENCHER_PROJECT"`);
});

test('benchline export takes a folder of normalized documents, as compare does', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const jmh = normalizedJmh('test/fixtures/jmh/single-shot.json');
  writeFileSync(join(root, 'single-shot.json'), JSON.stringify(jmh));
  const file = join(root, 'bmf.json');
  assert.equal(exportCommand({ args: [root], format: 'bmf', output: file }), 0);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), toBmf([jmh]));
  assert.equal(exportCommand({ args: [join(root, 'single-shot.json')], format: 'bmf', output: file }), 0, 'one document also works');
  assert.throws(() => exportCommand({ args: [join(root, 'nothing')], format: 'bmf' }), /nothing: no such file or folder/);
});

test('an export with no metric of its direction writes [] and says on stderr that github-action-benchmark fails on such a file', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'hyperfine', 'test/fixtures/hyperfine/several.json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(join(root, 'several.json'), r.stdout);
  const bigger = spawnSync(process.execPath, ['ci/cli.js', 'export', root, '--format', 'gab-bigger'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(bigger.status, 0, bigger.stderr);
  assert.deepEqual(JSON.parse(bigger.stdout), []);
  assert.match(bigger.stderr, /no metric of this run is higher-is-better.*github-action-benchmark fails on such a file \("No benchmark result was found"\): skip its call/);
  const smaller = spawnSync(process.execPath, ['ci/cli.js', 'export', root, '--format', 'gab-smaller'], { cwd: ROOT, encoding: 'utf8' });
  assert.ok(JSON.parse(smaller.stdout).length > 0);
  assert.equal(smaller.stderr, '');
});

test('bench writes every report and the exports it can when one export refuses the run\'s metrics, and names the file and why', async (t) => {
  const { writeReports } = await import('../ci/commands/bench.js');
  const { reportData } = await import('../ci/commands/report.js');
  const { loadConfig } = await import('../ci/config.js');
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // two metric names that become one Bencher measure slug: the Bencher export is refused, the others are not
  const clash = doc({ variant: 'x', metrics: { 'latency.p99_9': [1, 2, 3], 'latency.p99.9': [1, 2, 3] } });
  mkdirSync(join(root, 'docs/local'), { recursive: true });
  writeFileSync(join(root, 'docs/local/j.json'), JSON.stringify(clash));
  writeFileSync(join(root, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.x.wrk.peak', status: 'ok', docs: { local: 'docs/local/j.json' } }] }));
  const { texts, unexported } = await writeReports(root, reportData(root, loadConfig(join(ROOT, 'bench.config.yaml'))));
  assert.match(texts.console, /BENCHLINE PERFORMANCE REPORT/);
  assert.deepEqual(unexported, [`${join(root, 'export-bmf.json')} not written: Bencher export: metrics "latency.p99_9" and "latency.p99.9" of gateways/x/wrk/peak both become measure "latency-p99-9"; rename one of them`]);
  for (const f of ['report.txt', 'comment.md', 'summary.md', 'export-gab-smaller.json', 'export-gab-bigger.json']) assert.ok(readFileSync(join(root, f), 'utf8').length > 1, f);
  assert.equal(JSON.parse(readFileSync(join(root, 'export-gab-smaller.json'), 'utf8')).length, 2);
  assert.throws(() => readFileSync(join(root, 'export-bmf.json')), { code: 'ENOENT' });
});

test('bench writes only plain new file names a suite report\'s outputs() and plots() give, inside the run folder, and names each one it does not write and why', async (t) => {
  const { writeReports } = await import('../ci/commands/bench.js');
  const { reportData } = await import('../ci/commands/report.js');
  const { loadConfig } = await import('../ci/config.js');
  const project = mkdtempSync(join(tmpdir(), 'benchline-outputs-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  const root = join(project, 'results', 'r1');
  mkdirSync(join(root, 'docs/local'), { recursive: true });
  writeFileSync(join(root, 'docs/local/j.json'), JSON.stringify(NGINX));
  const runJson = JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.nginx.wrk.peak', suite: 'gateways', status: 'ok', docs: { local: 'docs/local/j.json' } }] });
  writeFileSync(join(root, 'run.json'), runJson);
  writeFileSync(join(project, 'package.json'), '{"type":"module"}');
  writeFileSync(join(project, 'mod.js'), "export const render = () => 'R';\n"
    + "export const plots = () => [{ file: 'comparisons.json', svg: '<svg/>' }, { file: 'ok.svg', svg: '<svg/>' }];\n"
    + "export const outputs = () => ['../escape.txt', '/abs.txt', 'docs/local/j.json', 'run.json', 'report.txt', 'ok.svg', 'a'.repeat(300)].map((file) => ({ file, text: 'x' }))\n"
    + "  .concat([{ file: 'n.txt', text: 42 }, { file: 'ok.txt', text: 'fine' }]);\n");
  const config = loadConfig(join(ROOT, 'bench.config.yaml'));
  const cfg = { ...config, file: join(project, 'bench.config.yaml'), root: project, suites: { ...config.suites, gateways: { ...config.suites.gateways, report: 'mod.js' } } };
  const { unexported } = await writeReports(root, reportData(root, cfg));
  assert.equal(readFileSync(join(root, 'ok.txt'), 'utf8'), 'fine');
  assert.equal(readFileSync(join(root, 'ok.svg'), 'utf8'), '<svg/>');
  assert.equal(readFileSync(join(root, 'run.json'), 'utf8'), runJson);
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'docs/local/j.json'), 'utf8')), NGINX);
  assert.match(readFileSync(join(root, 'report.txt'), 'utf8'), /BENCHLINE PERFORMANCE REPORT/);
  assert.throws(() => readFileSync(join(project, 'results', 'escape.txt')), { code: 'ENOENT' });
  assert.throws(() => readFileSync(join(root, 'n.txt')), { code: 'ENOENT' });
  assert.deepEqual(unexported, [
    'mod.js (suite gateways): plots() file comparisons.json not written: the run folder has a file of that name already (benchline\'s own, or one written before it): name it otherwise',
    'mod.js (suite gateways): outputs() file "../escape.txt" not written: give a file name without a folder (it is written into the run folder)',
    'mod.js (suite gateways): outputs() file "/abs.txt" not written: give a file name without a folder (it is written into the run folder)',
    'mod.js (suite gateways): outputs() file "docs/local/j.json" not written: give a file name without a folder (it is written into the run folder)',
    'mod.js (suite gateways): outputs() file run.json not written: the run folder has a file of that name already (benchline\'s own, or one written before it): name it otherwise',
    'mod.js (suite gateways): outputs() file report.txt not written: the run folder has a file of that name already (benchline\'s own, or one written before it): name it otherwise',
    'mod.js (suite gateways): outputs() file ok.svg not written: the run folder has a file of that name already (benchline\'s own, or one written before it): name it otherwise',
    `mod.js (suite gateways): outputs() file ${'a'.repeat(40)}… not written: its name is 300 bytes, longer than the 255 a file name can be`,
    'mod.js (suite gateways): outputs() file n.txt not written: its text is number, not text',
  ]);
  // an outputs() that throws costs only its own files: the reports are written and the failure named
  writeFileSync(join(project, 'mod2.js'), "export const render = () => 'R';\nexport function outputs() { throw new Error('no trials'); }\n");
  const root2 = join(project, 'results', 'r2');
  mkdirSync(join(root2, 'docs/local'), { recursive: true });
  writeFileSync(join(root2, 'docs/local/j.json'), JSON.stringify(NGINX));
  writeFileSync(join(root2, 'run.json'), runJson);
  const thrown = await writeReports(root2, reportData(root2, { ...cfg, suites: { ...cfg.suites, gateways: { ...cfg.suites.gateways, report: 'mod2.js' } } }));
  assert.deepEqual(thrown.unexported, ['mod2.js (suite gateways): outputs() failed, so none of its files is written: no trials']);
  assert.match(readFileSync(join(root2, 'summary.md'), 'utf8'), /\S/);
});

test('values of fewer than ten steps of their tool\'s resolution stay out of the github-action-benchmark files, whose ratio alerts rounding alone would set off', () => {
  // test/fixtures/ab/keepalive.txt (ab 2.3 on loopback): Connection Times in whole milliseconds, connect.median 0
  const ab = fixtureDoc('test/fixtures/ab/keepalive.txt', { suite: 'orders-api', variant: 'cache-off', scenario: 'keepalive', tool: { name: 'ab', version: '2.3' } });
  const value = (name) => ab.metrics.find((m) => m.name === name).value;
  assert.equal(value('connect.median'), 0);
  assert.equal(value('latency.p99'), 7e6, 'seven whole milliseconds');
  const names = toGab([ab], 'lower').map((e) => e.name.split('/').at(-1));
  assert.deepEqual(['connect.median', 'connect.mean', 'ttfb.min', 'latency.p99'].filter((n) => names.includes(n)), []);
  assert.ok(names.includes('latency.mean'), 'the mean, in microseconds, stays');
  // test/fixtures/ab/orders-api-cache-off-1.txt (ab 2.3, the uncached route): a median of 11 whole milliseconds, 11 steps, stays
  const slow = fixtureDoc('test/fixtures/ab/orders-api-cache-off-1.txt', { suite: 'orders-api', variant: 'cache-off', scenario: 'no-keepalive', tool: { name: 'ab', version: '2.3' } });
  assert.equal(slow.metrics.find((m) => m.name === 'latency.p50').value, 11e6);
  assert.ok(toGab([slow], 'lower').some((e) => e.name.endsWith('/latency.p50')));
  assert.ok(names.includes('error_rate') && value('error_rate') === 0, 'a metric without a resolution stays at 0');
  assert.ok(toGab([ab], 'higher').some((e) => e.name.endsWith('/throughput')));
  assert.ok('connect-median' in toBmf([ab])['orders-api/cache-off/ab/keepalive'], 'Bencher keeps them');
});

test('report and export refuse an -o that would replace what they read: the input itself, a run.json, a file under docs/ or raw/', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'results', 'r1', 'docs', 'local'), { recursive: true });
  const run = join(root, 'results', 'r1');
  writeFileSync(join(run, 'docs/local/j.json'), JSON.stringify(NGINX));
  writeFileSync(join(run, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.nginx.wrk.peak', status: 'ok', docs: { local: 'docs/local/j.json' } }] }));
  symlinkSync('r1', join(root, 'results', 'latest'));
  const before = readFileSync(join(run, 'run.json'), 'utf8');
  const cli = (...args) => spawnSync(process.execPath, [join(ROOT, 'ci/cli.js'), ...args], { cwd: root, encoding: 'utf8' });
  for (const [args, why] of [
    [['report', 'results', '-o', 'results/latest/run.json'], /-o results\/latest\/run\.json: is part of the results it reads \(r1\/run\.json\), which it would replace/],
    [['export', 'results/r1', '--format', 'bmf', '-o', 'results/r1/docs/local/j.json'], /-o results\/r1\/docs\/local\/j\.json: is part of the results it reads \(docs\/local\/j\.json\)/],
    [['export', 'results/r1/docs/local/j.json', '--format', 'bmf', '-o', 'results/r1/docs/local/j.json'], /is the input itself, which it would replace; give another file/],
  ]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, why);
  }
  assert.equal(readFileSync(join(run, 'run.json'), 'utf8'), before);
  assert.deepEqual(JSON.parse(readFileSync(join(run, 'docs/local/j.json'), 'utf8')), NGINX);
  // a report beside the run's files, as bench writes it, is fine
  assert.equal(cli('report', 'results', '-o', 'results/latest/report-again.txt').status, 0);
  assert.match(readFileSync(join(run, 'report-again.txt'), 'utf8'), /BENCHLINE PERFORMANCE REPORT/);
});

test('a results root whose latest link points to a deleted run is named as such, not as a path to change', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'results'));
  symlinkSync('20261127T000000Z-abcdef', join(root, 'results', 'latest'));
  for (const args of [['export', 'results', '--format', 'bmf'], ['report', 'results'], ['compare', 'results', 'results']]) {
    const r = spawnSync(process.execPath, [join(ROOT, 'ci/cli.js'), ...args], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /results\/latest: a link to 20261127T000000Z-abcdef, which is gone \(its run folder was deleted\?\); pass a run folder, or remove the link/, args.join(' '));
  }
});

test('a run folder\'s document copied in from another run is refused by name, not reported under that run\'s names', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs/local'), { recursive: true });
  writeFileSync(join(root, 'docs/local/j.json'), JSON.stringify({ ...NGINX, run: { ...NGINX.run, id: 'other-run' } }));
  writeFileSync(join(root, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.nginx.wrk.peak', status: 'ok', docs: { local: 'docs/local/j.json' } }] }));
  const r = spawnSync(process.execPath, [join(ROOT, 'ci/cli.js'), 'export', root, '--format', 'bmf'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /j\.json: holds job gateways\.nginx\.wrk\.peak of run other-run \(side local\), but .*run\.json lists it as job gateways\.nginx\.wrk\.peak of run r1 \(side local\), so it is not read as this run's; the file was replaced or edited: put the run's own document back or re-run the benchmark/);
});

test('leaves the throughput of a ghz run paced at --rps out of the bigger-is-better file: the rate was the one asked for, so an alert on it would be about the load', () => {
  // test/fixtures/ghz/latency.json: ghz v0.93.0 at --rps=200 on loopback
  const paced = fixtureDoc('test/fixtures/ghz/latency.json', { suite: 'grpc', variant: 'default', scenario: 'paced', tool: { name: 'ghz', version: '0.93.0' } });
  assert.equal(paced.metrics.find((m) => m.name === 'throughput').setBy, 'ghz paced its calls at --rps=200');
  assert.deepEqual(toGab([paced], 'higher').map((e) => e.name), []);
  assert.ok(toGab([paced], 'lower').some((e) => e.name === 'grpc/default/ghz/paced/latency.p99'), 'its latency is exported');
  const open = fixtureDoc('test/fixtures/ghz/throughput.json', { suite: 'grpc', variant: 'default', scenario: 'open', tool: { name: 'ghz', version: '0.93.0' } });
  assert.deepEqual(toGab([open], 'higher').map((e) => e.name), ['grpc/default/ghz/open/throughput']);
});

test('leaves a k6 script\'s own metrics whose direction is only guessed out of both github-action-benchmark files, and Bencher keeps them', () => {
  // test/fixtures/k6/custom-metrics.json and ws-metrics.json: k6 v1.8.1 runs of scripts with their own Counters, Gauges and Rates
  const custom = fixtureDoc('test/fixtures/k6/custom-metrics.json', { suite: 'catalog-api', variant: 'rest', scenario: 'custom', tool: { name: 'k6', version: '1.8.1' } });
  const ws = fixtureDoc('test/fixtures/k6/ws-metrics.json', { suite: 'catalog-api', variant: 'ws', scenario: 'echo', tool: { name: 'k6', version: '1.8.1' } });
  const guessed = [custom, ws].flatMap((d) => d.metrics.filter((m) => m.guessed).map((m) => `${d.scenario}/${m.name}`));
  assert.deepEqual(guessed.sort(), ['custom/items_read', 'custom/last_item_count', 'custom/parsed_ok', 'echo/http_req_retries', 'echo/ws_echo_ok', 'echo/ws_messages_echoed']);
  const exported = [...toGab([custom, ws], 'lower'), ...toGab([custom, ws], 'higher')].map((e) => e.name);
  assert.deepEqual(exported.filter((n) => guessed.some((g) => n.endsWith(`/${g}`))), []);
  assert.ok(exported.includes('catalog-api/rest/k6/custom/parse_errors'), 'a count named as a failure is kept');
  assert.ok(exported.includes('catalog-api/rest/k6/custom/json_parse_ms.p90'), 'a time Trend is kept');
  assert.ok(exported.includes('catalog-api/ws/k6/echo/throughput'));
  const bmf = toBmf([custom, ws]);
  assert.ok('items-read' in bmf['catalog-api/rest/k6/custom'] && 'ws-echo-ok' in bmf['catalog-api/ws/k6/echo'], 'Bencher keeps them');
});

test('a time of 0 stays out of the github-action-benchmark files: hyperfine\'s system time of a short command reads 0 in one run and not in the next, which the action calls infinitely worse', () => {
  // test/fixtures/hyperfine/single-run.json and one-command.json: hyperfine 1.15.0 timing `sleep 0.01`
  const hf = (file) => fixtureDoc(file, { suite: 'cli', variant: 'default', scenario: 'sleeper', tool: { name: 'hyperfine', version: '1.15.0' } });
  const [before, after] = [hf('test/fixtures/hyperfine/single-run.json'), hf('test/fixtures/hyperfine/one-command.json')];
  const system = (d) => d.metrics.find((m) => m.name === 'time.system').value;
  assert.equal(system(before), 0);
  assert.ok(system(after) > 0);
  const name = 'cli/default/hyperfine/sleeper/sleep 0.01/time.system';
  assert.equal(toGab([before], 'lower').find((e) => e.name === name), undefined);
  assert.equal(toGab([after], 'lower').find((e) => e.name === name).value, system(after));
  // test/fixtures/hyperfine/shell-zero.json: `true`, quicker than the shell hyperfine subtracts
  const zero = fixtureDoc('test/fixtures/hyperfine/shell-zero.json', { suite: 'cli', variant: 'default', scenario: 'noop', tool: { name: 'hyperfine', version: '1.15.0' } });
  const names = toGab([zero], 'lower').map((e) => e.name.split('/').at(-1));
  assert.deepEqual(['time.median', 'time.min'].filter((n) => names.includes(n)), []);
  assert.ok(names.includes('time.mean') && names.includes('errors'), 'its mean and its failed runs (0) stay');
  assert.equal(toBmf([zero])['cli/default/hyperfine/noop/true']['time-median'].value, 0, 'Bencher keeps it');
});

test('a metric of one trial without its tool\'s own interval has no range and no Bencher bounds, while one JMH trial has both', () => {
  // test/fixtures/ab/keepalive.txt (ab 2.3) and test/fixtures/jmh/avgt-gc.json (JMH 1.37, with its 99.9% interval)
  const ab = fixtureDoc('test/fixtures/ab/keepalive.txt', { suite: 'orders-api', variant: 'cache-off', scenario: 'keepalive', tool: { name: 'ab', version: '2.3' } });
  const jmh = fixtureDoc('test/fixtures/jmh/avgt-gc.json', { suite: 'serialization', variant: 'default', scenario: 'gc', tool: { name: 'jmh', version: '1.37' } });
  const abMean = toGab([ab], 'lower').find((e) => e.name.endsWith('/latency.mean'));
  assert.equal(abMean.range, undefined);
  assert.equal(abMean.extra, '1 trial\nab 2.3\ncommit 0123456789ab');
  assert.deepEqual(Object.keys(toBmf([ab])['orders-api/cache-off/ab/keepalive']['latency-mean']), ['value']);
  const jmhMean = toGab([jmh], 'lower').find((e) => e.name === 'serialization/default/jmh/gc/jsonSerialize/time.mean');
  assert.ok(gabRange(jmhMean.range) > 0);
  assert.match(jmhMean.extra, /^1 trial\n99\.9% interval [\d.]+\.\.[\d.]+ ns\njmh 1\.37\ncommit 0123456789ab$/);
  assert.deepEqual(Object.keys(toBmf([jmh])['serialization/default/jmh/gc/jsonSerialize']['time-mean']), ['value', 'lower_value', 'upper_value']);
});

test('an empty export of a ghz run paced at --rps says its throughput was left out as set by the load, not that the run has no higher-is-better metric', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'benchline-export-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // test/fixtures/ghz/latency.json: ghz v0.93.0 at --rps=200
  const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'ghz', 'test/fixtures/ghz/latency.json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(join(root, 'paced.json'), r.stdout);
  const bigger = spawnSync(process.execPath, ['ci/cli.js', 'export', root, '--format', 'gab-bigger'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(bigger.status, 0, bigger.stderr);
  assert.deepEqual(JSON.parse(bigger.stdout), []);
  assert.doesNotMatch(bigger.stderr, /no metric of this run is higher-is-better/);
  assert.match(bigger.stderr, /every higher-is-better metric of this run is one the file leaves out \(docs\/exports\.md\): .*throughput \(set by the load\).*skip its call for it/);
});

// github-action-benchmark's alert rule for a customSmallerIsBetter file: an entry of the same name more than 1.5x the last one
const gabAlerts = (prev, cur) => cur.filter((e) => { const p = prev.find((x) => x.name === e.name); return p && e.value / p.value > 1.5; }).map((e) => e.name);

test('a trial\'s slowest or fastest value and its standard deviation stay out of the github-action-benchmark files: one pause sets them, and two captures of one ab job a second apart differ by more than 1.5x on them alone', () => {
  // test/fixtures/ab/orders-api-cache-on-2.txt and -3.txt: ab 2.3, the same server and command, captured 0.9 s apart
  const ab = (n) => fixtureDoc(`test/fixtures/ab/orders-api-cache-on-${n}.txt`, { suite: 'orders-api', variant: 'cache-on', scenario: 'no-keepalive', tool: { name: 'ab', version: '2.3' } });
  const [first, second] = [ab(2), ab(3)];
  const of = (d, name) => d.metrics.find((m) => m.name === name).value;
  assert.ok(['ttfb.max', 'processing.max', 'connect.max'].every((n) => of(second, n) / of(first, n) > 1.5), 'the documents hold them, over 1.5x apart');
  const names = toGab([first], 'lower').map((e) => e.name.split('/').at(-1));
  assert.deepEqual(names.filter((n) => /\.(max|min|stdev)$/.test(n)), []);
  assert.ok(names.includes('latency.p50') && names.includes('latency.mean') && names.includes('latency.p99'), names.join(', '));
  assert.deepEqual(gabAlerts(toGab([first], 'lower'), toGab([second], 'lower')), [], 'nothing the action would alert on at 150%');
  const bmf = toBmf([first])['orders-api/cache-on/ab/no-keepalive'];
  assert.ok(['ttfb-max', 'latency-min', 'latency-stdev'].every((s) => s in bmf), 'Bencher keeps them');
});

test('a percentile that a trial\'s few samples leave at its slowest one stays out of the github-action-benchmark files, as benchline never judges it', () => {
  // test/fixtures/k6/catalog-quick-grpc-latency-4.json: k6 v1.8.1, 10 requests a trial timed by the script's latency_deep Trend
  const k6 = fixtureDoc('test/fixtures/k6/catalog-quick-grpc-latency-4.json', { suite: 'catalog-api', variant: 'grpc', scenario: 'latency', tool: { name: 'k6', version: '1.8.1' } });
  assert.equal(k6.distributions.find((x) => x.name === 'latency_deep').count, 10);
  const names = toGab([k6], 'lower').map((e) => e.name.split('/').at(-1)).filter((n) => n.startsWith('latency_deep.'));
  assert.deepEqual(names.sort(), ['latency_deep.mean', 'latency_deep.p50'], 'a p90 of 10 samples or a higher one is the slowest sample');
  assert.ok('latency-deep-p99' in toBmf([k6])['catalog-api/grpc/k6/latency'], 'Bencher keeps it');
});

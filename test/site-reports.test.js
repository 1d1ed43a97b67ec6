// Suite reports on the history site: each suite's own report as a page, codecs side by side, intervals cut at 0, log-scale percentiles.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as ab from '../ci/adapters/ab.js';
import * as jmh from '../ci/adapters/jmh.js';
import * as k6 from '../ci/adapters/k6.js';
import * as wrk from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { loadConfig } from '../ci/config.js';
import { formatValue } from '../ci/units.js';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { variantTable } from '../ci/store/site-data.js';
import { reportHtml, safeHref, suiteReportInput } from '../ci/store/suite-pages.js';
import { reportPath } from '../ci/store/paths.js';
import { launchChromium } from '../ci/store/browser.js';
import { shownInterval, bandLow } from '../reports-site/src/intervals.js';
import * as serialization from '../subjects/serialization/report.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ARTIFACTS = new URL('../test-artifacts/site-reports/', import.meta.url);
const fixture = (tool, name) => readFileSync(join(ROOT, 'test', 'fixtures', tool, name), 'utf8');
const RUNNER = { name: 'runner-a', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryBytes: 25769803776, labels: [] };
const OLD_RUN = { id: '20261120T100000Z-aaaaaa', startedAt: '2026-11-20T10:00:00.000Z', commit: 'a'.repeat(40), ref: 'main', trigger: 'push', role: 'main' };
const RUN = { id: '20261122T100000Z-bbbbbb', startedAt: '2026-11-22T10:00:00.000Z', commit: 'b'.repeat(40), ref: 'main', trigger: 'push', role: 'main' };

const doc = (run, suite, variant, scenario, tool, version, params, trials) => buildResult({ run, runner: RUNNER, suite, subject: suite, variant, scenario, tool: { name: tool, version }, params, trials }, `${suite} ${variant} ${scenario} fixtures`);

/** The newest run of every suite, from outputs captured from the real tools (test/fixtures/<tool>/, commands beside them). */
function newestRun(run) {
  const jmhParams = { mode: 'avgt', forks: 1, warmupIterations: 1, iterations: 3, warmup: '200ms', time: '200ms' };
  const avgt = jmh.parse(fixture('jmh', 'avgt-gc.json'));
  const sample = jmh.parse(fixture('jmh', 'sample.json'));
  return [
    doc(run, 'serialization', 'default', 'avgt-gc', 'jmh', avgt.toolVersion, jmhParams, [avgt]),
    doc(run, 'serialization', 'default', 'sample', 'jmh', sample.toolVersion, { ...jmhParams, mode: 'sample', iterations: 2 }, [sample]),
    ...['off', 'on'].map((c) => doc(run, 'orders-api', `cache-${c}`, 'keepalive', 'ab', '2.3', { path: '/api/order/all-items', requests: 5000, concurrency: 100, keepalive: true },
      [1, 2, 3].map((n) => ab.parse(fixture('ab', `orders-api-cache-${c}-${n}.txt`))))),
    ...['hateoas', 'rest-stream', 'grpc'].map((v) => doc(run, 'catalog-api', v, 'latency', 'k6', '1.8.1', { pageSize: 100, api: v }, [k6.parse(fixture('k6', `catalog-${v}-latency.json`))])),
    ...['nginx', 'haproxy', 'bun'].map((v) => doc(run, 'gateways', v, 'round-robin', 'wrk', 'debian/4.1.0-3+b2', { path: '/', backends: 'backend-1,backend-2,backend-3', threads: 2, connections: 50, duration: '3s' },
      [1, 2, 3].map((n) => wrk.parse(fixture('wrk', `gateways-${v}-${n}.txt`))))),
  ];
}

let dir;
let out;
let config;
let docs;
let browser;
let page;
const errors = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchline-site-reports-'));
  out = join(dir, 'site');
  config = loadConfig(join(ROOT, 'bench.config.yaml'));
  docs = newestRun(RUN);
  // an older run too: the pages must come from the newest one
  await publish({ store: join(dir, 'store'), docs: [...newestRun(OLD_RUN), ...docs] });
  const built = await buildSite({ store: join(dir, 'store'), out, config });
  assert.equal(built.runs, 2);
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
});

after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ready = () => page.waitForSelector('#view[data-ready="1"]', { timeout: 15000 });
async function go(hash, site = out) {
  await page.goto(`${pathToFileURL(join(site, 'index.html')).href}${hash}`);
  await ready();
}
const shot = (name) => page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
const metricOf = (d, caseName, name) => d.metrics.find((m) => m.case === caseName && m.name === name);

// ---------------------------------------------------------------- pure parts

test('report markdown becomes HTML with raw HTML shown as text and only safe link targets', () => {
  assert.equal(reportHtml('<img src=x onerror=alert(1)>').trim(), '&lt;img src=x onerror=alert(1)&gt;');
  assert.equal(reportHtml('a <b onclick="x()">b</b>').trim(), '<p>a &lt;b onclick=&quot;x()&quot;&gt;b&lt;/b&gt;</p>');
  assert.equal(reportHtml('[run](javascript:alert(1)) [x](JaVa\tScRiPt:alert(1)) ![p](data:image/svg+xml,x)').trim(), '<p>run [x](JaVa\tScRiPt:alert(1)) p</p>');
  assert.equal(reportHtml('[site](#/run/1) [doc](https://example.org/a?b=1)').trim(), '<p><a href="#/run/1">site</a> <a href="https://example.org/a?b=1" rel="noopener nofollow" target="_blank">doc</a></p>');
  assert.match(reportHtml('| a | b |\n|---|--:|\n| 1 | 2 |'), /<td align="right">2<\/td>/);
  assert.equal(safeHref('java\nscript:alert(1)'), null);
  assert.equal(safeHref(' data:text/html,x'), null);
  assert.equal(safeHref('plots/a.svg'), 'plots/a.svg');
});

test('an interval that reaches below zero is cut at 0 only where the quantity cannot be negative', () => {
  assert.deepEqual(shownInterval(-114.1, 744.8, 'ns'), { lo: 0, hi: 744.8, clamped: true, rawLo: -114.1 });
  assert.deepEqual(shownInterval(-3, 5, 'celsius'), { lo: -3, hi: 5, clamped: false, rawLo: -3 });
  assert.deepEqual(shownInterval(10, 20, 'bytes'), { lo: 10, hi: 20, clamped: false, rawLo: 10 });
  assert.deepEqual(shownInterval(null, 20, 'ns'), { lo: null, hi: 20, clamped: false, rawLo: null });
  assert.equal(bandLow(-1, 'ops/s'), 0);
  assert.equal(bandLow(-1, 'delta'), -1);
});

test('a suite report on the site is written from the newest run of the suite, its primary role, with run.jobs', () => {
  const input = suiteReportInput('orders-api', { docs: [...newestRun(OLD_RUN), ...docs], failures: [{ run: RUN, job: { id: 'orders-api.cache-on.wrk.peak', suite: 'orders-api', variant: 'cache-on', tool: 'wrk', scenario: 'peak' }, status: 'failed', reason: 'wrk exited 1' }], config });
  assert.equal(input.run.id, RUN.id);
  assert.deepEqual(input.docs.map((d) => d.variant), ['cache-off', 'cache-on']);
  assert.equal(input.comparisons, undefined);
  assert.deepEqual(input.run.jobs.map((j) => `${j.variant}/${j.tool}/${j.status}`), ['cache-off/ab/ok', 'cache-on/ab/ok', 'cache-on/wrk/failed']);
  // a run that measured head and base: the report gets the same comparison `benchline report` would make
  const head = newestRun({ ...RUN, role: 'head' }).filter((d) => d.suite === 'orders-api');
  const base = newestRun({ ...RUN, role: 'base' }).filter((d) => d.suite === 'orders-api');
  const pr = suiteReportInput('orders-api', { docs: [...base, ...head], config });
  assert.deepEqual(pr.docs, head);
  assert.equal(pr.comparisons.comparisons.length, head.reduce((n, d) => n + d.metrics.length, 0));
});

test("serialization's variant view has one column per codec, SBE first, and one row per operation", () => {
  const [avgt] = docs;
  const table = variantTable('serialization', [{ run: { ...RUN, t: 0 }, job: { ...avgt, tool: 'jmh' } }], [], serialization.sideBySide);
  assert.deepEqual(table.variants, ['SBE', 'Protobuf', 'JSON']);
  const row = table.rows.find((r) => r.metric === 'Serialize::time.mean');
  assert.deepEqual(Object.fromEntries(Object.entries(row.cells).map(([k, c]) => [k, c.v])), {
    SBE: metricOf(avgt, 'sbeSerialize', 'time.mean').value, Protobuf: metricOf(avgt, 'protobufSerialize', 'time.mean').value, JSON: metricOf(avgt, 'jsonSerialize', 'time.mean').value,
  });
  assert.equal(row.cells.Protobuf.chart, 'serialization/jmh/avgt-gc/protobufSerialize::time.mean');
  // without the hook every case is a row of the one variant, as before
  assert.deepEqual(variantTable('serialization', [{ run: RUN, job: { ...avgt, tool: 'jmh' } }]).variants, ['default']);
});

// ---------------------------------------------------------------- in Chromium

test('the overview links each suite with a report module to its report page and tells history steps from PR verdicts', async () => {
  await go('#/');
  for (const suite of ['serialization', 'orders-api', 'catalog-api', 'gateways']) {
    assert.equal(await page.locator(`.suite[data-suite="${suite}"] a.report-link`).getAttribute('href'), `#/report/${suite}`);
  }
  const explain = await page.locator('details.explain').innerText();
  assert.match(explain, /Recent regressions.*found in the history.*at least 5 runs/s);
  // the PR rule as the README states it (paired rounds, signed-rank), not the unpaired test that Compare uses for two runs
  assert.match(explain, /pull request's verdict.*base and head measured in paired rounds on one runner.*Wilcoxon signed-rank.*Hodges-Lehmann/s);
  assert.match(explain, /Compare judges any two runs of this history .*cannot be paired, so it uses the Mann-Whitney U test/s);
  assert.doesNotMatch(explain, /measured in turn/);
  assert.match(await page.locator('.suite[data-suite="orders-api"] h3').innerText(), /^Recent regressions in the history \(0\)$/);
  await shot('overview');
});

test("the serialization report page is the suite's own report of the newest run, with its percentile plot", async () => {
  await go('#/report/serialization');
  assert.match(await page.locator('.report-meta').innerText(), new RegExp(`^Run ${RUN.id} \\(main\\)`));
  const input = suiteReportInput('serialization', { docs, config });
  // the plain text is exactly what `benchline bench` prints for this run
  assert.equal(await page.locator('pre.report-text').textContent(), serialization.render(input));
  // the markdown's JMH table: one row per benchmark in the seed's order, scores as the report formats them
  const cases = await page.$$eval('article.report table:first-of-type tbody tr', (trs) => trs.map((tr) => tr.children[0].textContent));
  assert.deepEqual(cases, ['sbeSerialize', 'sbeDeserialize', 'protobufSerialize', 'protobufDeserialize', 'jsonSerialize', 'jsonDeserialize']);
  assert.match(await page.locator('article.report').innerText(), /Key findings/);
  const plot = page.locator('figure.report-plot[data-file="serialization-latency.svg"] img');
  await plot.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('figure.report-plot img')?.complete);
  const size = await plot.evaluate((img) => [img.naturalWidth, img.naturalHeight]);
  assert.deepEqual(size, [760, 440]);
  await page.evaluate(() => window.scrollTo(0, 0));
  const [svg] = serialization.plots(input);
  assert.equal(readFileSync(join(out, await plot.getAttribute('src')), 'utf8'), svg.svg);
  await shot('report-serialization');
  await go('#/report/orders-api');
  assert.match(await page.locator('article.report').innerText(), /cache/i);
  await shot('report-orders-api');
  // every suite's page is its module's markdown of the same input, rendered
  for (const suite of ['orders-api', 'catalog-api', 'gateways']) {
    const mod = await import(`../subjects/${suite}/report.js`);
    await go(`#/report/${suite}`);
    const md = mod.markdown(suiteReportInput(suite, { docs, config }));
    assert.equal(await page.locator('article.report h3').first().innerText(), /^### (.*)$/m.exec(md)[1]);
    assert.equal(await page.locator('article.report table').count(), (md.match(/^\| ?:?-{3,}/gm) || []).length, suite);
  }
  await shot('report-gateways');
});

test('the variant view of serialization puts SBE beside Protobuf beside JSON and links the report page', async () => {
  await go('#/variants/serialization');
  assert.deepEqual(await page.$$eval('table.variant-table thead th[data-column]', (ths) => ths.map((th) => th.textContent)), ['SBE', 'Protobuf', 'JSON']);
  const [avgt] = docs;
  const cells = await page.$$eval('tr.row[data-scenario="avgt-gc"][data-metric="Serialize::time.mean"] td.num[data-variant]', (tds) => tds.map((td) => [td.dataset.variant, Number(td.dataset.v)]));
  assert.deepEqual(cells.slice(0, 3), [['SBE', metricOf(avgt, 'sbeSerialize', 'time.mean').value], ['Protobuf', metricOf(avgt, 'protobufSerialize', 'time.mean').value], ['JSON', metricOf(avgt, 'jsonSerialize', 'time.mean').value]]);
  const fastest = ['sbe', 'protobuf', 'json'].map((c) => [c, metricOf(avgt, `${c}Serialize`, 'time.mean').value]).sort((a, b) => a[1] - b[1])[0][0];
  assert.equal(await page.locator('tr.row[data-scenario="avgt-gc"][data-metric="Serialize::time.mean"] td.best').getAttribute('data-variant'), { sbe: 'SBE', protobuf: 'Protobuf', json: 'JSON' }[fastest]);
  assert.equal(await page.locator('a.report-link').getAttribute('href'), '#/report/serialization');
  await shot('variants-serialization');
});

test('bytes received is listed but never starred: it restates the run, no variant wins it', async () => {
  await go('#/variants/catalog-api');
  const row = page.locator('tr.row[data-metric="bytes_received"]');
  assert.equal(await row.count(), 1);
  assert.equal(await row.locator('td.best').count(), 0);
  assert.equal(await row.locator('.tag').innerText(), 'not ranked');
  assert.equal(await row.locator('td.better, td.worse').count(), 0);
  // a ranked row of the same table still has its star
  assert.equal(await page.locator('tr.row[data-metric="latency.p95"] td.best').count(), 1);
  await shot('variants-catalog-api');
});

test('intervals on the run page never go below zero, and the page says which were cut', async () => {
  await go(`#/run/${encodeURIComponent(RUN.id)}`);
  assert.deepEqual(await page.$$eval('a.report-link', (as) => as.map((a) => a.getAttribute('href')).sort()), ['#/report/catalog-api', '#/report/gateways', '#/report/orders-api', '#/report/serialization']);
  const [avgt] = docs;
  const negative = avgt.metrics.filter((m) => m.lower < 0);
  assert.ok(negative.length >= 1, 'the captured JMH run has an error larger than its mean');
  for (const m of negative) {
    const cell = page.locator(`section.job[data-job="serialization.default.jmh.avgt-gc"] tr.metric[data-metric="${m.case}::${m.name}"] td.interval`);
    assert.equal(await cell.innerText(), `${formatValue(0, m.unit)}° – ${formatValue(m.upper, m.unit)}`);
    assert.equal(Number(await cell.getAttribute('data-lo')), m.lower);
  }
  const shown = await page.$$eval('td.interval', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(shown.filter((t) => /(^|– )-/.test(t)), []);
  assert.match(await page.locator('section.job[data-job="serialization.default.jmh.avgt-gc"] .clamp-note').innerText(), /cut at 0/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('section.job[data-job="serialization.default.jmh.avgt-gc"]').screenshot({ path: new URL('run-intervals.png', ARTIFACTS).pathname });
});

test('the trend of a JMH time shows its intervals from 0, never below, and says so', async () => {
  const [avgt] = docs;
  const m = metricOf(avgt, 'protobufDeserialize', 'time.mean');
  assert.ok(m.lower < 0);
  await go(`#/trend/${encodeURIComponent('serialization/jmh/avgt-gc/protobufDeserialize::time.mean')}`);
  assert.equal(await page.locator('tr.latest td.interval').innerText(), `${formatValue(0, 'ns')}° – ${formatValue(m.upper, 'ns')}`);
  const shown = await page.$$eval('td.interval', (tds) => tds.map((td) => td.textContent));
  assert.equal(shown.length, 3);
  assert.deepEqual(shown.filter((t) => /(^|– )-/.test(t)), []);
  assert.match(await page.locator('.clamp-note').innerText(), /cannot be negative/);
  await shot('trend-clamped');
});

test('the percentile chart has a log time axis whose labels read in ns and µs, never "0 ns"', async () => {
  const drawn = await page.evaluate(() => window.__benchlineCharts.filter((c) => c.kind === 'percentiles').map((c) => ({ scale: c.scale, ticks: c.ticks, lines: c.lines })));
  const jmhChart = drawn.find((c) => c.lines === 6);
  assert.ok(jmhChart, `charts: ${JSON.stringify(drawn)}`);
  assert.equal(jmhChart.scale, 'log');
  assert.ok(!jmhChart.ticks.includes('0 ns'), jmhChart.ticks.join(', '));
  assert.ok(jmhChart.ticks.some((t) => / ns$/.test(t)) && jmhChart.ticks.some((t) => / µs$/.test(t)), jmhChart.ticks.join(', '));
  const charts = page.locator('.chart.percentiles');
  for (let i = 0; i < await charts.count(); i += 1) await charts.nth(i).screenshot({ path: new URL(`run-percentiles-${i + 1}.png`, ARTIFACTS).pathname });
});

test('a report module writing raw HTML and script links gets them shown as text, and nothing runs', async () => {
  const evil = join(dir, 'evil');
  mkdirSync(join(evil, 'reports'), { recursive: true });
  writeFileSync(join(evil, 'reports', 'report.js'), [
    "export const render = () => 'plain <script>window.__xss = 1</script>\\n';",
    "export const markdown = () => '### Evil\\n\\n<img src=x onerror=\"window.__xss = 2\">\\n\\n[click](javascript:window.__xss=3) <script>window.__xss = 4</script>\\n\\n| a |\\n|---|\\n| <svg onload=\"window.__xss=5\"> |\\n';",
    "export const plots = () => [{ file: '../../x.svg', title: '<b>t</b>', svg: '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><script>window.__xss = 6</script></svg>' }];",
  ].join('\n'));
  const d = doc(RUN, 'evil', 'default', 'keepalive', 'ab', '2.3', {}, [ab.parse(fixture('ab', 'orders-api-cache-on-1.txt'))]);
  await publish({ store: join(evil, 'store'), docs: [d] });
  const site = join(evil, 'site');
  await buildSite({ store: join(evil, 'store'), out: site, config: { root: evil, suites: { evil: { report: 'reports/report.js' } }, compare: {} } });
  assert.ok(readFileSync(join(site, reportPath('evil')), 'utf8').length > 0);
  await go('#/report/evil', site);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.equal(await page.locator('article.report img, article.report script, article.report svg, article.report [onerror], article.report [onload]').count(), 0);
  assert.equal(await page.locator('article.report a').count(), 0);
  assert.match(await page.locator('article.report').innerText(), /<img src=x onerror="window.__xss = 2">/);
  // the plot stays inside the report's folder and is shown as an image, where scripts never run
  assert.match(await page.locator('figure.report-plot img').getAttribute('src'), /^data\/reports\/evil\/[^/]+$/);
  await page.waitForFunction(() => document.querySelector('figure.report-plot img')?.complete);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  await shot('report-evil');
});

test('no view raised an error in the page', () => {
  assert.deepEqual(errors, []);
});

// `benchline normalize`: every captured fixture, fresh outputs with options the fixtures lack, and bad input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultProblems } from '../ci/schema/index.js';
import { TOOL_NAMES } from '../ci/adapters/index.js';
import { locate } from '../ci/tools.js';
import { startNginx } from './support/nginx.js';
import { tempDir } from './support/temp.js';

const tmp = tempDir('normalize');
const normalize = (tool, file, ...more) => {
  const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', tool, file, ...more], { encoding: 'utf8' });
  return { code: r.status, doc: r.status === 0 ? JSON.parse(r.stdout) : undefined, stdout: r.stdout, stderr: r.stderr };
};
const metric = (doc, name, c) => doc.metrics.find((m) => m.name === name && (c === undefined || m.case === c))?.value;
const run = (bin, args) => spawnSync(locate(bin).path, args, { encoding: 'utf8', timeout: 60000 });

// Raw outputs in the fixture folders: not the .cmd/.stderr companions, hyperfine's captured stdout, or READMEs.
const isRaw = (f) => /\.(txt|json|csv)$/.test(f) && !f.endsWith('.stdout.txt');

test('every captured fixture normalizes to a schema-valid document or fails with a message naming file, tool and fix', () => {
  let valid = 0;
  for (const tool of TOOL_NAMES) {
    let dir;
    try { dir = readdirSync(`test/fixtures/${tool}`); } catch { continue; }
    for (const f of dir.filter(isRaw)) {
      const file = `test/fixtures/${tool}/${f}`;
      // a file named failed.json would give the scenario "failed", which the store keeps for failure records
      const r = normalize(tool, file, ...(/^failed\./.test(f) ? ['--scenario', 'failed-run'] : []));
      if (r.code === 0) {
        assert.deepEqual(resultProblems(r.doc), [], file);
        assert.equal(r.doc.tool.name, tool);
        valid += 1;
      } else {
        assert.equal(r.code, 2, `${file}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid ${tool} output: .+\\. Produce valid output with: \\S`), file);
        assert.equal(r.stdout, '', `${file}: nothing is printed on failure`);
      }
    }
  }
  assert.ok(valid >= 40, `at least 40 fixtures are valid outputs (got ${valid})`);
});

test('empty, truncated, foreign and missing files exit non-zero with the file, the tool and the option that produces valid output, and another tool\'s output with the tool it reads as', () => {
  const empty = join(tmp, 'empty.txt');
  writeFileSync(empty, '');
  const k6 = readFileSync('test/fixtures/k6/many.json', 'utf8');
  const truncated = join(tmp, 'truncated.json');
  writeFileSync(truncated, k6.slice(0, Math.floor(k6.length / 2)));
  const cases = [
    ['wrk', empty, /empty/],
    ['k6', truncated, /truncated/],
    // another tool's output says whose it reads as
    ['wrk', 'test/fixtures/ab/many.txt', /It reads as ab output: pass --tool ab\. Produce/],
    ['ghz', 'test/fixtures/k6/many.json', /It reads as k6 output: pass --tool k6\. Produce/],
    ['hyperfine', 'test/fixtures/ghz/many.json', /It reads as ghz output: pass --tool ghz\. Produce/],
    ['jmh', 'test/fixtures/hyperfine/scan.json', /It reads as hyperfine output: pass --tool hyperfine\. Produce/],
    ['ab', join(tmp, 'missing.txt'), /no such file/],
  ];
  for (const [tool, file, reason] of cases) {
    const r = normalize(tool, file);
    assert.notEqual(r.code, 0, `${tool} ${file}`);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes(file), `names the file: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(tool));
    assert.match(r.stderr, reason);
    if (!/missing/.test(file)) assert.match(r.stderr, /Produce valid output with: /);
  }
});

test('a default scenario from a file name ending in .failed or longer than --scenario takes is refused, telling to pass --scenario', () => {
  const raw = readFileSync('test/fixtures/wrk/latency.txt', 'utf8');
  for (const [name, says] of [['nightly.failed.txt', /the scenario taken from the file's name, "nightly\.failed", ends in "failed", which the store keeps for failure records/], ['failed.txt', /"failed", ends in "failed"/], [`${'a'.repeat(65)}.txt`, /is 65 bytes long; keep it to 64/]]) {
    const file = join(tmp, name);
    writeFileSync(file, raw);
    const r = normalize('wrk', file);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, says, name);
    assert.ok(r.stderr.includes(`${file} (tool wrk): `) && r.stderr.includes('pass --scenario NAME'), r.stderr);
    assert.equal(r.stdout, '');
    const named = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'wrk', file, '--scenario', 'nightly'], { encoding: 'utf8' });
    assert.equal(named.status, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).scenario, 'nightly');
  }
  // nor does --scenario take such a name
  for (const scenario of ['x.failed', 'failed']) {
    const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'wrk', 'test/fixtures/wrk/latency.txt', '--scenario', scenario], { encoding: 'utf8' });
    assert.equal(r.status, 2, scenario);
    assert.match(r.stderr, new RegExp(`--scenario ${scenario}: a scenario named "failed" or ending in "\\.failed" would be stored under the name of a failure record`));
  }
  // a name of 64 characters, and one with characters a scenario has not, still give the default
  const ok = join(tmp, `${'b'.repeat(64)}.txt`);
  writeFileSync(ok, raw);
  assert.equal(normalize('wrk', ok).doc.scenario, 'b'.repeat(64));
  const spaced = join(tmp, 'my run.txt');
  writeFileSync(spaced, raw);
  assert.equal(normalize('wrk', spaced).doc.scenario, 'my-run');
});

test('an unknown tool is refused by the command line with the list of tools', () => {
  const r = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'siege', 'x'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.ok(r.stderr.includes(`Allowed choices are ${TOOL_NAMES.join(', ')}`), r.stderr);
  assert.ok(TOOL_NAMES.includes('jmh') && TOOL_NAMES.includes('hyperfine'));
});

let nginx;
before(async () => { nginx = await startNginx(); });
after(async () => { await nginx?.stop(); });

test('fresh ab output with options the fixtures lack (POST body, -c 3, -n 37) normalizes with exact counts', () => {
  const body = join(tmp, 'body.json');
  writeFileSync(body, '{"a":1}');
  const r = run('ab', ['-n', '37', '-c', '3', '-p', body, '-T', 'application/json', '-H', 'X-Test: 1', `${nginx.url}/item.json`]);
  const file = join(tmp, 'ab-post.txt');
  writeFileSync(file, r.stdout);
  const { doc, stderr } = normalize('ab', file);
  assert.ok(doc, stderr);
  assert.equal(metric(doc, 'requests'), 37);
  assert.equal(metric(doc, 'errors'), 37, 'nginx answers POST to a static file with 405: every response is a non-2xx error');
  assert.equal(metric(doc, 'error_rate'), 1);
});

test('fresh wrk text without --latency and with a header normalizes without percentiles', () => {
  const r = run('wrk', ['-t1', '-c3', '-d1s', '-H', 'Accept: application/json', `${nginx.url}/item.json`]);
  const file = join(tmp, 'wrk-plain.txt');
  writeFileSync(file, r.stdout);
  const { doc, stderr } = normalize('wrk', file);
  assert.ok(doc, stderr);
  assert.ok(metric(doc, 'throughput') > 100);
  assert.equal(metric(doc, 'latency.p50'), undefined);
  assert.ok(metric(doc, 'latency.mean') > 0);
  assert.equal(metric(doc, 'errors'), 0);
});

test('fresh hyperfine output with --shell=none and --runs 4 keeps four samples per command', () => {
  const file = join(tmp, 'hf.json');
  const r = run('hyperfine', ['--shell=none', '--runs', '4', '--export-json', file, 'true', 'sleep 0.01']);
  assert.equal(r.status, 0, r.stderr);
  const { doc, stderr } = normalize('hyperfine', file);
  assert.ok(doc, stderr);
  const times = doc.metrics.filter((m) => m.name === 'time.mean');
  assert.equal(times.length, 2);
  for (const m of times) assert.equal(m.samples.length, 4);
  assert.ok(metric(doc, 'time.mean', 'sleep 0.01') >= 10e6, 'sleep 0.01 takes at least 10 ms');
});

test('fresh k6 --summary-export with a fixed iteration count reports exactly those iterations', () => {
  const script = join(tmp, 'it.js');
  writeFileSync(script, `import http from 'k6/http';\nexport const options = { vus: 2, iterations: 12 };\nexport default function () { http.get('${nginx.url}/item.json'); }\n`);
  const file = join(tmp, 'k6.json');
  const r = run('k6', ['run', '--quiet', '--summary-export', file, script]);
  assert.equal(r.status, 0, r.stderr);
  const { doc, stderr } = normalize('k6', file);
  assert.ok(doc, stderr);
  assert.equal(metric(doc, 'iterations'), 12);
  assert.equal(metric(doc, 'requests'), 12);
  assert.equal(metric(doc, 'error_rate'), 0);
});

test('a k6 summary saved with a byte-order mark before its JSON normalizes as without one', () => {
  const plain = readFileSync('test/fixtures/k6/catalog-grpc-latency.json', 'utf8');
  const file = join(tmp, 'with-bom.json');
  writeFileSync(file, `\uFEFF${plain}`);
  const r = normalize('k6', file);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(metric(r.doc, 'latency.p95') > 0);
});

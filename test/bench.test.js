// The main verb end to end on the orders-api subject: run, reports, exports, history and site in one call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultProblems } from '../ci/schema/index.js';
import { doctorRows, locate } from '../ci/tools.js';
import { tempDir } from './support/temp.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

test('bench runs a suite, prints the variant and seed reports, writes every report and export, publishes and builds the site', () => {
  const tmp = tempDir('bench');
  const history = join(tmp, 'store', 'history');
  const r = spawnSync(process.execPath, ['ci/cli.js', 'bench', '--suite', 'orders-api', '--tool', 'wrk', '--trials', '3', '--param', 'duration=1s',
    '--no-progress', '--out', join(tmp, 'results'), '--history', history], { encoding: 'utf8', timeout: 180000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /BENCHLINE PERFORMANCE REPORT/);
  assert.match(r.stdout, /WRK · peak/);
  // orders-api interleaves its variants, so they pair; with wrk pinned to one core the cached path can saturate it,
  // and then the report says so instead of comparing.
  assert.match(r.stdout, /cache-on vs cache-off( \(paired, 3 rounds\): |: the load tool was the bottleneck \(cache-(on|off): wrk used [\d.]+ of its \d+ cores?\); not compared)/);
  assert.match(r.stdout, /history: .+ \(2 added, 0 already there\)/);
  assert.match(r.stdout, /site: open .+index\.html/);
  assert.match(r.stderr, /\[6\/6\] orders-api\.cache-on\.wrk\.peak · trial 3\/3/, 'progress names job and trial');
  const runDir = join(tmp, 'results', readdirSync(join(tmp, 'results')).find((d) => d !== 'latest'));
  for (const f of ['run.json', 'report.txt', 'suite-report.txt', 'comment.md', 'summary.md', 'export-bmf.json', 'export-gab-smaller.json', 'export-gab-bigger.json']) {
    assert.ok(existsSync(join(runDir, f)), f);
  }
  for (const f of readdirSync(join(runDir, 'docs', 'local'))) {
    assert.deepEqual(resultProblems(JSON.parse(readFileSync(join(runDir, 'docs', 'local', f), 'utf8'))), [], f);
  }
  const bmf = JSON.parse(readFileSync(join(runDir, 'export-bmf.json'), 'utf8'));
  assert.ok(bmf['orders-api/cache-on/wrk/peak'].throughput.value > 0);
  assert.ok(existsSync(join(tmp, 'store', 'site', 'index.html')), 'the site is built beside the history');
  const again = spawnSync(process.execPath, ['ci/cli.js', 'publish', runDir, '--store', history], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout + again.stderr, /0 added/, 'publishing the same run twice stores it once');
});

test('doctor lists every known tool with its version and where it came from, those the config needs first', () => {
  const r = spawnSync(process.execPath, ['ci/cli.js', 'doctor'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  for (const row of doctorRows()) assert.ok(r.stdout.includes(row.tool), row.tool);
  assert.match(r.stdout, /k6\s*│ yes\s*│ 1\.8\.1\s*│ go install go\.k6\.io\/k6@v1\.8\.1/);
  assert.match(r.stdout, /wrk\s*│ yes\s*│ 4\.1\.0/);
  // the shipped suites need their load tools and their subjects' servers, not the tools of benchline's own checks
  assert.match(r.stdout, /bun\s*│ yes/);
  assert.match(r.stdout, /actionlint\s*│\s+│/);
  const tools = [...r.stdout.matchAll(/^│ (\S+)\s*│ (yes|)\s*│/gm)].map((m) => m[2]);
  assert.equal(tools.indexOf(''), tools.lastIndexOf('yes') + 1, 'every needed tool comes before the others');
});

test('doctor marks as needed only the tools of the project\'s own jobs and subjects, and lists all when the config cannot be read', () => {
  const dir = tempDir('doctor');
  mkdirSync(join(dir, 'subjects', 'cli'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'cli', 'subject.yaml'), 'name: cli\nprocesses: {}\n');
  writeFileSync(join(dir, 'bench.config.yaml'), 'version: 1\nsuites:\n  cli:\n    subject: cli\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true" } }\n');
  const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'doctor'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /hyperfine\s*│ yes/);
  assert.match(r.stdout, /k6\s*│\s+│/);
  assert.match(r.stdout, /\(1 of \d+\)/);
  const broken = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'doctor', '--config', join(dir, 'none.yaml')], { cwd: dir, encoding: 'utf8' });
  assert.equal(broken.status, 0);
  assert.match(broken.stdout, /k6\s*│ \?/);
  assert.match(broken.stdout, /needed: not known, .*none\.yaml could not be read/);
});

test('a tool path from BENCHLINE_<TOOL> wins, and a missing one counts as not installed', () => {
  process.env.BENCHLINE_WRK = '/nonexistent/wrk';
  try {
    assert.equal(locate('wrk'), undefined);
  } finally {
    delete process.env.BENCHLINE_WRK;
  }
  assert.equal(locate('wrk').path, '/usr/bin/wrk');
  assert.throws(() => locate('siege'), /unknown tool "siege"; known: k6, ghz/);
});

test('npm run bench stops the benchmark when only npm gets SIGTERM (a cancelled CI step), leaving no process behind', async () => {
  const { spawn } = await import('node:child_process');
  const tmp = tempDir('bench-sigterm');
  // npm alone gets the signal, as when a runner stops the step's own process
  const npm = spawn('npm', ['run', 'bench', '--', '--suite', 'orders-api', '--tool', 'wrk', '--trials', '20', '--param', 'duration=2s', '--no-progress', '--out', join(tmp, 'results'), '--history', join(tmp, 'history')], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout.on('data', (d) => { out += d; });
  npm.stderr.on('data', (d) => { out += d; });
  const bench = () => spawnSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.includes('ci/cli.js bench') && l.includes(join(tmp, 'results')));
  const deadline = Date.now() + 120000;
  while (!readdirSync(tmp).includes('results') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(bench().length, 1, `the benchmark runs: ${out.slice(-2000)}`);
  process.kill(npm.pid, 'SIGTERM');
  const stopped = Date.now() + 20000;
  while (bench().length && Date.now() < stopped) await new Promise((r) => setTimeout(r, 200));
  const left = bench();
  if (left.length) process.kill(-npm.pid, 'SIGKILL');
  assert.deepEqual(left, [], 'ci/cli.js bench stopped with npm');
  const run = JSON.parse(readFileSync(join(tmp, 'results', readdirSync(join(tmp, 'results')).find((d) => d !== 'latest'), 'run.json'), 'utf8'));
  assert.equal(run.status, 'interrupted');
});

test('a signal after the run, while bench publishes or builds the site, stops it with the signal\'s status and says where the results are', async () => {
  const { spawn } = await import('node:child_process');
  const { publish } = await import('../ci/store/store.js');
  const { syntheticDocs } = await import('../ci/store/synthetic.js');
  const tmp = tempDir('bench-late-sigterm');
  // a history large enough that publishing and building its site take a while
  await publish({ store: join(tmp, 'history'), docs: [...syntheticDocs({ runs: 400 })], compaction: false });
  const child = spawn(process.execPath, ['ci/cli.js', 'bench', '--suite', 'orders-api', '--tool', 'wrk', '--variant', 'cache-on', '--trials', '1', '--param', 'duration=1s', '--no-progress', '--out', join(tmp, 'results'), '--history', join(tmp, 'history')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let sent = false;
  child.stdout.on('data', (d) => {
    out += d;
    // the reports are written: publish and the site build come next
    if (!sent && /\nresults: /.test(out)) {
      sent = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (d) => { err += d; });
  const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? sig)));
  assert.ok(sent, `the run reached its reports: ${out.slice(-1500)}${err.slice(-1500)}`);
  assert.equal(code, 143, `exit status of SIGTERM: ${err.slice(-1500)}`);
  assert.match(err, /benchline: SIGTERM: stopped after the run; its results are in .*results\/\S+\. Publishing is idempotent/);
  assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  const run = JSON.parse(readFileSync(join(tmp, 'results', readdirSync(join(tmp, 'results')).find((d) => d !== 'latest'), 'run.json'), 'utf8'));
  assert.notEqual(run.status, 'interrupted', 'the run itself finished');
});

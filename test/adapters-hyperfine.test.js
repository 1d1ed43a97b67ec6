// The hyperfine adapter against real hyperfine 1.15.0 --export-json files (test/fixtures/hyperfine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as hyperfine from '../ci/adapters/hyperfine.js';
import { ParseError } from '../ci/adapters/errors.js';
import { buildResult } from '../ci/result.js';

const FIX = fileURLToPath(new URL('./fixtures/hyperfine/', import.meta.url));
const read = (name) => readFileSync(`${FIX}${name}`, 'utf8');
const stderrOf = (c) => (existsSync(`${FIX}${c}.stderr`) ? read(`${c}.stderr`) : undefined);
const parseCase = (c) => hyperfine.parse(read(`${c}.json`), { stderr: stderrOf(c) });
/** { case: { metric: value } } */
const byCase = (r) => r.metrics.reduce((o, m) => ({ ...o, [m.case]: { ...o[m.case], [m.name]: m.value } }), {});

test('reads one command into time.mean/stdev/median/min/max/user/system in ns', () => {
  assert.deepEqual(byCase(parseCase('one-command')), {
    'sleep 0.01': {
      'time.mean': 11088637, 'time.stdev': 78233, 'time.median': 11100357, 'time.min': 11004578,
      'time.max': 11187691, 'time.user': 580300, 'time.system': 441016, errors: 0,
    },
  });
});

test('keeps every run\'s time as the samples of time.mean and time.median', () => {
  const r = parseCase('one-command');
  const runs = [11004578, 11100357, 11134902, 11187691, 11015658];
  assert.deepEqual(r.metrics.find((m) => m.name === 'time.mean').samples, runs);
  assert.deepEqual(r.metrics.find((m) => m.name === 'time.median').samples, runs);
  assert.deepEqual(r.metrics.find((m) => m.name === 'time.max').samples, [11187691]);
});

test('leaves out time.stdev after a single run, where hyperfine reports null', () => {
  const r = parseCase('single-run');
  assert.deepEqual(Object.keys(byCase(r)['sleep 0.01']), ['time.mean', 'time.median', 'time.min', 'time.max', 'time.user', 'time.system', 'errors']);
  assert.equal(byCase(r)['sleep 0.01']['time.mean'], 11475878);
  assert.deepEqual(r.notes, ['sleep 0.01: a single run, so no standard deviation']);
});

test('names each case after its --command-name when several commands ran', () => {
  const c = byCase(parseCase('several'));
  assert.deepEqual(Object.keys(c), ['short', 'long']);
  assert.equal(c.short['time.mean'], 12794870);
  assert.equal(c.long['time.mean'], 33057179);
  assert.equal(c.long['time.stdev'], 864442);
});

test('names parameter-scan cases after the command with the values substituted', () => {
  const r = parseCase('scan');
  const c = byCase(r);
  assert.deepEqual(Object.keys(c), ['sleep 0.01; echo a', 'sleep 0.02; echo a', 'sleep 0.01; echo b', 'sleep 0.02; echo b']);
  assert.equal(c['sleep 0.02; echo b']['time.median'], 21010433);
  assert.deepEqual(r.extra.commands[1].parameters, { mode: 'a', t: '0.02' });
  assert.equal(r.extra.commands[1].runs, 3);
});

test('adds the parameter values when a command name repeats across a scan', () => {
  const c = byCase(parseCase('scan-named'));
  assert.deepEqual(Object.keys(c), ['sleeper (n=1)', 'sleeper (n=2)']);
  assert.equal(c['sleeper (n=1)']['time.mean'], 11668195);
  assert.equal(c['sleeper (n=2)']['time.mean'], 21228474);
});

test('numbers identical commands that carry no parameters', () => {
  const results = JSON.parse(read('one-command.json')).results;
  assert.deepEqual(hyperfine.caseNames([...results, ...results]), ['sleep 0.01 #1', 'sleep 0.01 #2']);
});

test('a command hyperfine timed as 0 s (faster than the shell start-up it subtracts) gets a note saying so and what to set', () => {
  const r = parseCase('shell-zero');
  assert.equal(byCase(r).true['time.median'], 0);
  assert.deepEqual(r.notes, ['true: hyperfine timed 6 of 10 runs as 0 s: the command takes less than the shell start-up hyperfine subtracts from each run, so these times are not the command\'s; set shell: none in the job\'s params (nothing to subtract) or give the command more work per run']);
  assert.deepEqual(parseCase('one-command').notes, [], 'no zero, no note');
});

test('counts non-zero exit codes kept by -i as errors and notes them', () => {
  const r = parseCase('ignore-failure');
  assert.equal(byCase(r)['sleep 0.01; exit 3'].errors, 3);
  assert.equal(byCase(r)['sleep 0.01; exit 3']['time.mean'], 10917667);
  assert.deepEqual(r.notes, ['sleep 0.01; exit 3: 3 of 3 runs exited non-zero (exit code 3); hyperfine -i kept their times']);
});

test('carries hyperfine\'s error when a failing command left the JSON file empty', () => {
  assert.equal(read('failed.json'), '');
  assert.throws(() => parseCase('failed'), (e) => e instanceof ParseError && e.message.startsWith('hyperfine failed: "Command terminated with non-zero exit code: 3.'));
  assert.throws(() => hyperfine.parse(read('failed.json')), { message: /the file is empty: hyperfine wrote no results \(it stops at the first failing command unless run with -i\)/ });
});

test('a run that stopped at a failing command names that command and the job param that keeps such runs', () => {
  const ctx = { exitCode: 1, stdout: read('failed.stdout.txt'), stderr: read('failed.stderr') };
  assert.match(hyperfine.failedRun(ctx), /^the command "sleep 0\.01; exit 3" exited with code 3, so hyperfine stopped .*run the command by hand.* set ignoreFailure: true in the job's params/);
  assert.equal(hyperfine.failedRun({ ...ctx, params: { ignoreFailure: true } }), undefined, 'with -i the runs are kept and counted');
  assert.equal(hyperfine.failedRun({ exitCode: 0, stdout: read('ignore-failure.stdout.txt'), stderr: read('ignore-failure.stderr') }), undefined);
  assert.equal(hyperfine.failedRun({ exitCode: 1, stdout: '', stderr: 'error: unexpected argument' }), undefined, 'another failure is left to the output check');
});

test('says what is wrong with truncated or foreign input', () => {
  const full = read('several.json');
  assert.throws(() => hyperfine.parse(full.slice(0, full.length / 2)), (e) => e instanceof ParseError && /not valid JSON .*truncated/.test(e.message) && e.hint === hyperfine.produce);
  const wrkText = readFileSync(new URL('./fixtures/wrk/lua-many.txt', import.meta.url), 'utf8');
  const wrkJson = wrkText.split('\n').find((l) => l.startsWith('{'));
  assert.throws(() => hyperfine.parse(wrkJson), { message: /JSON without hyperfine's "results" array \(top-level: backends, bytes, counted, duration_us, errors, format\)/ });
  assert.throws(() => hyperfine.parse(wrkText), { message: /this is wrk text, not hyperfine's --export-json/ });
  assert.throws(() => hyperfine.parse(read('several.stdout.txt')), { message: /not JSON: read the file given to --export-json/ });
});

test('builds the hyperfine command line with names, runs, warm-up and the export file', () => {
  assert.deepEqual(hyperfine.command({ bin: '/usr/bin/hyperfine', outFile: '/r/out.json', params: { runs: 5, warmup: 2, commands: ['sleep 0.01', 'sleep 0.02'], names: ['short', 'long'], ignoreFailure: true } }), {
    argv: ['/usr/bin/hyperfine', '--style', 'basic', '--export-json', '/r/out.json', '--runs', '5', '--warmup', '2', '-i',
      '--command-name', 'short', 'sleep 0.01', '--command-name', 'long', 'sleep 0.02'],
    output: 'file',
  });
  assert.deepEqual(hyperfine.command({ bin: 'hyperfine', outFile: 'o.json', script: '/repo/loadtests/hyperfine/start up.sh', params: { args: '{mode}', parameterList: 'mode=a,b; n=1,2' } }).argv,
    ['hyperfine', '--style', 'basic', '--export-json', 'o.json', '--runs', '10', '--warmup', '1', '--parameter-list', 'mode', 'a,b',
      '--parameter-list', 'n', '1,2', "'/repo/loadtests/hyperfine/start up.sh' {mode}"]);
  assert.deepEqual(hyperfine.command({ bin: 'hyperfine', outFile: 'o.json', params: { commands: 'sleep {t}', parameterScan: 't=0..1:0.5' } }).argv.slice(9),
    ['--parameter-scan', 't', '0', '1', '--parameter-step-size', '0.5', 'sleep {t}']);
  assert.throws(() => hyperfine.command({ outFile: 'o.json', params: {} }), /needs params\.commands/);
  assert.throws(() => hyperfine.command({ outFile: 'o.json', params: { commands: ['a', 'b'], names: ['x'] } }), /1 names for 2 commands/);
  assert.throws(() => hyperfine.command({ params: { commands: 'true' } }), /no output file/);
});

test('a command with placeholders is named as configured, so base and head (other checkouts) time the same case', () => {
  const argvOf = (side) => hyperfine.command({ outFile: 'o.json', params: { commands: [`${side}/bin/app --fast`, 'true'], runs: 2 }, rawParams: { commands: ['${dir}/bin/app --fast', 'true'] } }).argv;
  assert.deepEqual(argvOf('/tmp/base').slice(-6), ['--command-name', '${dir}/bin/app --fast', '/tmp/base/bin/app --fast', '--command-name', 'true', 'true']);
  assert.deepEqual(argvOf('/repo').slice(-6), ['--command-name', '${dir}/bin/app --fast', '/repo/bin/app --fast', '--command-name', 'true', 'true']);
  const plain = hyperfine.command({ outFile: 'o.json', params: { commands: 'true' }, rawParams: { commands: 'true' } }).argv;
  assert.equal(plain.includes('--command-name'), false, 'commands without placeholders keep hyperfine\'s own names');
});

test('a script: job without names is named as configured (script from the project root, args unfilled), so base and head time the same case', () => {
  const argvOf = (side) => hyperfine.command({ outFile: 'o.json', root: '/repo', script: '/repo/scripts/run it.sh', params: { args: `${side} --port 4000`, runs: 2 }, rawParams: { args: '${dir} --port ${port.http}', runs: 2 } }).argv;
  assert.deepEqual(argvOf('/tmp/base').slice(-3), ['--command-name', "'scripts/run it.sh' ${dir} --port ${port.http}", "'/repo/scripts/run it.sh' /tmp/base --port 4000"]);
  assert.deepEqual(argvOf('/repo').slice(-3), ['--command-name', "'scripts/run it.sh' ${dir} --port ${port.http}", "'/repo/scripts/run it.sh' /repo --port 4000"]);
  const named = hyperfine.command({ outFile: 'o.json', root: '/repo', script: '/repo/s.sh', params: { args: '/repo', names: 'mine' }, rawParams: { args: '${dir}', names: 'mine' } }).argv;
  assert.deepEqual(named.slice(-3), ['--command-name', 'mine', '/repo/s.sh /repo'], 'names: still wins');
});

test('a list of prepare commands becomes one --prepare per command, as hyperfine takes them; a count that fits neither is refused', () => {
  const argv = hyperfine.command({ outFile: 'o.json', params: { commands: ['cat a', 'cat b'], prepare: ['echo a > a', 'echo b > b'], runs: 2 } }).argv;
  assert.deepEqual(argv.slice(9), ['--prepare', 'echo a > a', '--prepare', 'echo b > b', 'cat a', 'cat b']);
  assert.deepEqual(hyperfine.command({ outFile: 'o.json', params: { commands: ['x', 'y'], prepare: 'sync' } }).argv.slice(9), ['--prepare', 'sync', 'x', 'y']);
  assert.equal(hyperfine.paramsProblem({ commands: ['x', 'y', 'z'], prepare: ['a', 'b'] }), 'hyperfine: 2 prepare commands for 3 commands; give one for all commands or one per command');
});

test('with a parameterList, a name and a prepare command per command become one per case, in hyperfine\'s order, so hyperfine takes them', () => {
  const params = { commands: ['work {size}', 'work 1'], names: ['work-{size}', 'tiny'], prepare: ['true', 'sync'], parameterList: { size: [200, 2000] }, runs: 1, warmup: 0 };
  const { argv } = hyperfine.command({ bin: 'hyperfine', outFile: 'o.json', params });
  assert.deepEqual(argv.slice(9), ['--prepare', 'true', '--prepare', 'sync', '--prepare', 'true', '--prepare', 'sync', '--parameter-list', 'size', '200,2000',
    '--command-name', 'work-{size}', '--command-name', 'tiny', '--command-name', 'work-{size}', '--command-name', 'tiny', 'work {size}', 'work 1']);
  // two lists: their values multiply; commands named as configured (placeholders) expand the same way
  const two = hyperfine.command({ outFile: 'o.json', params: { commands: ['/base/a {m} {n}', 'b'], parameterList: 'm=x,y; n=1,2,3' }, rawParams: { commands: ['${dir}/a {m} {n}', 'b'] } }).argv;
  assert.equal(two.filter((a) => a === '--command-name').length, 12);
  // one name, or one command, stays as it was: hyperfine takes a single name for every case
  assert.deepEqual(hyperfine.command({ outFile: 'o.json', params: { commands: 'w {s}', names: 'w-{s}', parameterList: 's=1,2' } }).argv.slice(-3), ['--command-name', 'w-{s}', 'w {s}']);
  // a scan counts its steps for prepare (hyperfine takes one per case there too): 0, 0.25, ..., 1 is 5 values
  assert.equal(hyperfine.command({ outFile: 'o.json', params: { commands: ['a {t}', 'b {t}'], prepare: ['x', 'y'], parameterScan: 't=0..1:0.25' } }).argv.filter((a) => a === '--prepare').length, 10);
});

test('the expanded names and prepare commands run in the real hyperfine, every case named after its own command', { skip: !existsSync('/usr/bin/hyperfine') && 'hyperfine is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchline-hf-'));
  try {
    const outFile = join(dir, 'out.json');
    const params = { commands: ['echo a {size}', 'echo b'], names: ['a-{size}', 'b'], prepare: ['true', 'true'], parameterList: { size: [1, 2] }, runs: 1, warmup: 0, shell: 'none' };
    const { argv } = hyperfine.command({ bin: 'hyperfine', outFile, params });
    const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(hyperfine.parse(readFileSync(outFile, 'utf8')).metrics.filter((m) => m.name === 'time.mean').map((m) => m.case), ['a-1', 'b (size=1)', 'a-2', 'b (size=2)']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a parameterScan over several named commands is refused when planned, since hyperfine 1.15 would name one command\'s later cases after another', () => {
  assert.match(hyperfine.paramsProblem({ commands: ['a {n}', 'b {n}'], names: ['a', 'b'], parameterScan: 'n=1..2' }), /^hyperfine: parameterScan over 2 commands with a name each would be mislabelled by hyperfine .*list the scan's values in parameterList instead \(e\.g\. n: \[1, 2, 3\]\)/);
  assert.match(hyperfine.paramsProblem({ commands: ['${dir}/a {n}', 'b {n}'], parameterScan: 'n=1..2' }), /holding placeholders \(named as configured\)/);
  assert.equal(hyperfine.paramsProblem({ commands: 'a {n}', names: 'a-{n}', parameterScan: 'n=1..2' }), undefined);
  assert.equal(hyperfine.paramsProblem({ commands: ['a {n}', 'b {n}'], parameterScan: 'n=1..2' }), undefined, 'hyperfine names unnamed commands after themselves');
});

test('shell: takes any shell, not only none; ignoreFailure must be a boolean; parameterList with parameterScan is refused as hyperfine refuses it', () => {
  const argv = (params) => hyperfine.command({ outFile: 'o.json', params: { commands: 'true', ...params } }).argv;
  assert.ok(argv({ shell: 'none' }).includes('--shell=none'));
  assert.ok(argv({ shell: 'bash' }).includes('--shell=bash'), 'a shell a user names is the one hyperfine runs the commands with');
  assert.equal(argv({}).some((a) => a.startsWith('--shell')), false);
  assert.equal(hyperfine.paramsProblem({ commands: 'exit 1', ignoreFailure: 'true' }), 'hyperfine: param ignoreFailure must be true or false, got "true" (a string: write it without quotes)');
  assert.equal(hyperfine.paramsProblem({ commands: 'x', ignoreFailure: false }), undefined);
  assert.match(hyperfine.paramsProblem({ commands: 'x {t} {m}', parameterList: 'm=a,b', parameterScan: 't=1..2' }), /^hyperfine: parameterList and parameterScan cannot be used together/);
});

test('a command line hyperfine refuses (exit 2, no JSON) fails the trial with hyperfine\'s own error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchline-hf-'));
  try {
    const stderr = join(dir, 'trial-1.stderr.txt');
    // what hyperfine 1.15.0 printed for --parameter-list with --parameter-scan (test/fixtures/hyperfine/refused.cmd)
    writeFileSync(stderr, read('refused.stderr'));
    assert.equal(hyperfine.noOutput({ exitCode: 2, files: { stderr } }), 'hyperfine refused its command line: "The argument \'--parameter-list <VAR> <VALUES>\' cannot be used with \'--parameter-scan <VAR> <MIN> <MAX>\'" (the job\'s params, docs/config.md, hyperfine)');
    assert.equal(hyperfine.noOutput({ exitCode: 2, files: { stderr: join(dir, 'none.txt') } }), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const RUN = { id: 'fixture', startedAt: '2026-11-22T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 0, labels: [] };

test('every hyperfine fixture with results becomes a schema-valid result document with one case per command', () => {
  for (const c of ['one-command', 'single-run', 'several', 'scan', 'scan-named', 'ignore-failure', 'shell-zero']) {
    const parsed = parseCase(c);
    const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'fixtures', subject: 'shell', variant: 'default', scenario: c, tool: { name: 'hyperfine', version: '1.15.0' }, params: {}, trials: [parsed] }, c);
    assert.equal(doc.metrics.length, parsed.metrics.length, c);
    assert.equal(new Set(doc.metrics.map((m) => m.case)).size, JSON.parse(read(`${c}.json`)).results.length, c);
  }
});

test('a hyperfine file whose exit_codes hold something other than whole numbers or null is refused as corrupted, not counted as failed runs', () => {
  const good = read('ignore-failure.json');
  const withFirst = (v) => good.replace(/"exit_codes": \[\s*3,/, `"exit_codes": [${v},`);
  assert.notEqual(withFirst('[]'), good);
  for (const [v, shown] of [['[]', '\\[\\]'], ['"x"', '"x"'], ['1.5', '1\\.5'], ['{}', '\\{\\}']]) {
    assert.throws(() => hyperfine.parse(withFirst(v)), { name: 'ParseError', message: new RegExp(`result 1 \\("sleep 0\\.01; exit 3"\\) has exit code ${shown} in exit_codes, where hyperfine writes a whole number or null; the file is corrupted`) }, v);
  }
  assert.throws(() => hyperfine.parse(good.replace(/"exit_codes": \[[^\]]*\]/, '"exit_codes": "x"')), { name: 'ParseError', message: /has exit_codes "x", not a list; the file is corrupted/ });
  // null is what hyperfine writes for a run a signal ended: still read, as a failed run
  assert.equal(byCase(hyperfine.parse(withFirst('null')))['sleep 0.01; exit 3'].errors, 3);
});

test('hyperfine runs and warm-ups reach hyperfine in plain digits: 1e21 is refused naming the param and the limit, not passed as --runs 1e+21', () => {
  const argv = (params) => hyperfine.command({ outFile: '/tmp/o.json', params: { commands: 'true', ...params } }).argv;
  assert.throws(() => argv({ runs: 1e21 }), { message: 'hyperfine: param runs must be a whole number from 1 to 2147483647 in plain digits, got 1e+21 (2147483647 is the most hyperfine takes)' });
  assert.throws(() => argv({ warmup: '1e3' }), /hyperfine: param warmup must be a whole number from 0 to 2147483647 in plain digits, got "1e3"/);
  assert.deepEqual(argv({ runs: '20', warmup: 0 }).slice(5, 9), ['--runs', '20', '--warmup', '0']);
});

test('a hyperfine statistic or run time that is not a number of seconds is refused naming the result and field, not read as 0 or as a string\'s number', () => {
  const doc = JSON.parse(read('one-command.json'));
  const withField = (field, v) => JSON.stringify({ ...doc, results: [{ ...doc.results[0], [field]: v }] });
  for (const [field, v] of [['user', []], ['user', '12'], ['min', false], ['max', {}], ['median', -0.5], ['system', 1e300], ['stddev', 'NaN']]) {
    assert.throws(() => hyperfine.parse(withField(field, v)), { name: 'ParseError', message: new RegExp(`^result 1 \\("sleep 0\\.01"\\) has ${field} .*, where hyperfine writes a number of seconds from 0 to 1000000; the file is corrupted or edited$`) }, `${field} ${JSON.stringify(v)}`);
  }
  const times = doc.results[0].times;
  for (const v of ['0.01', null, true, -1]) {
    assert.throws(() => hyperfine.parse(withField('times', [...times.slice(0, 2), v])), { name: 'ParseError', message: /has run 3 timed as .* in times, where hyperfine writes a number of seconds/ }, JSON.stringify(v));
  }
  assert.throws(() => hyperfine.parse(withField('command', ' ')), { name: 'ParseError', message: /result 1 \(" "\) has an empty command, which hyperfine never writes/ });
  // null stays what hyperfine writes for stddev after one run
  assert.equal(byCase(hyperfine.parse(withField('stddev', null)))['sleep 0.01']['time.stdev'], undefined);
});

test('a run time outside the result\'s own min..max (one-command.json with its second run scaled by 10) is refused, not kept as a sample 10x the slowest run', () => {
  const text = read('one-command.json');
  const doc = JSON.parse(text);
  doc.results[0].times[1] *= 10;
  assert.throws(() => hyperfine.parse(JSON.stringify(doc, null, 2)), (e) => e instanceof ParseError && /has run 2 timed as [\d.]+ s, outside its own min [\d.]+ s \.\. max [\d.]+ s/.test(e.message));
  assert.equal(hyperfine.parse(text).metrics.find((m) => m.name === 'time.mean').samples.length, 5);
});

test('a run dropped from times or repeated in it (several.json edited so) is refused as not the runs its mean averages, not kept as samples of the mean', () => {
  const doc = JSON.parse(read('several.json'));
  const dropped = structuredClone(doc);
  dropped.results[1].times.shift();
  const repeated = structuredClone(doc);
  repeated.results[1].times.push(repeated.results[1].times[0]);
  for (const edited of [dropped, repeated]) {
    assert.throws(() => hyperfine.parse(JSON.stringify(edited, null, 2)), (e) => e instanceof ParseError && /result 2 \("long"\) has mean [\d.]+ s, which is not the mean of its \d run times/.test(e.message));
  }
  assert.equal(hyperfine.parse(JSON.stringify(doc, null, 2)).metrics.length, hyperfine.parse(read('several.json')).metrics.length);
});

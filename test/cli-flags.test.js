// Bad invocations of the CLI, table-driven: each exits 2 with one line that says what to change, and starts nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, statSync, truncateSync, writeFileSync, mkdirSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './support/temp.js';
import { siteFolderOf } from '../ci/commands/bench.js';
import { repoUrlFrom } from '../ci/commands/site.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'ci', 'cli.js');
const TMP = tempDir('flags');
const SIGTERM_RUN = join(ROOT, 'test/fixtures/runs/orders-api-sigterm');
const WRK = join(ROOT, 'test', 'fixtures', 'wrk', 'latency.txt');
const config = (name, yaml) => {
  writeFileSync(join(TMP, name), yaml);
  return join(TMP, name);
};
const job = '    subject: flaky\n    jobs: [{ tool: wrk, scenario: short, params: { duration: 1s } }]\n';
const ESCAPING = config('escaping.yaml', `version: 1\nsuites:\n  "../../../x":\n${job}`);
const LONG = config('long.yaml', `version: 1\nsuites:\n  ${'s'.repeat(300)}:\n${job}`);
const ABSOLUTE_VARIANT = config('absolute.yaml', `version: 1\nsuites:\n  faults:\n    variants: { "/tmp/x": {} }\n${job}`);
const BIG_TRIALS = config('trials.yaml', `version: 1\nprofiles: { quick: { trials: 1000000000 } }\nsuites:\n  faults:\n${job}`);
// a config and a subject manifest that are named pipes: reading either would wait for a writer that never comes
const FIFO_CONFIG = join(TMP, 'piped.yaml');
execFileSync('mkfifo', [FIFO_CONFIG]);
mkdirSync(join(TMP, 'subjects', 'piped'), { recursive: true });
execFileSync('mkfifo', [join(TMP, 'subjects', 'piped', 'subject.yaml')]);
const PIPED_SUBJECT = config('piped-subject.yaml', 'version: 1\nsuites:\n  s:\n    subject: piped\n    jobs: [{ tool: hyperfine, scenario: h, params: { commands: "true" } }]\n');
const NOT_A_DIR = join(TMP, 'plain-file');
writeFileSync(NOT_A_DIR, 'not a folder\n');
mkdirSync(join(TMP, 'results-out'), { recursive: true });
// a sparse file larger than any tool output
const BIG = join(TMP, 'big.txt');
writeFileSync(BIG, '');
truncateSync(BIG, 257 * 2 ** 20);
// a normalized wrk document, for the verbs that write a file
const DOC = join(TMP, 'wrk-doc.json');
writeFileSync(DOC, execFileSync(process.execPath, [CLI, 'normalize', '--tool', 'wrk', WRK], { encoding: 'utf8' }));

// run folders whose run.json was edited: a job that is null, a side named like an object's prototype
const damagedRun = (name, jobs) => {
  mkdirSync(join(TMP, name), { recursive: true });
  writeFileSync(join(TMP, name, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: name, startedAt: '2025-01-01T00:00:00Z', jobs }));
  return join(TMP, name);
};
const NULL_JOB = damagedRun('null-job', [null]);
const PROTO_SIDE = damagedRun('proto-side', [JSON.parse('{"id":"a","status":"ok","docs":{"__proto__":"docs/x.json"}}')]);
// the sigterm run's run.json with its start a number, its head a string: facts the reports print
const sigtermRun = (name, edit) => {
  cpSync(SIGTERM_RUN, join(TMP, name), { recursive: true });
  const run = JSON.parse(readFileSync(join(SIGTERM_RUN, 'run.json'), 'utf8'));
  edit(run);
  writeFileSync(join(TMP, name, 'run.json'), JSON.stringify(run));
  return join(TMP, name);
};
const NUMBER_START = sigtermRun('number-start', (run) => { run.startedAt = Date.parse(run.startedAt); });
const STRING_HEAD = sigtermRun('string-head', (run) => { run.head = run.head.commit; });
const GONE_DOC = sigtermRun('gone-doc', (run) => { run.jobs[0].docs.local = run.jobs[0].docs.local.replace(/\.json$/, '.jsoo'); });

// [argv, what the one line must say]; run from the repository root (bench.config.yaml) unless argv says otherwise
const CASES = [
  [['plan', '--trials', 'abc'], /--trials .* 'abc' is invalid\. Give a whole number from 1 to 1000/],
  // names an object already has (its prototype, its methods) are no suite, profile or parameter
  [['plan', '--suite', '__proto__'], /^benchline plan: suite "__proto__" is not defined in .*; defined: orders-api/],
  [['plan', '--suite', 'toString'], /^benchline plan: suite "toString" is not defined/],
  [['plan', '--profile', '__proto__'], /^benchline plan: profile "__proto__" is not defined; choose one of: quick, full/],
  [['plan', '--param', '__proto__=5'], /^benchline plan: --param "__proto__=5": "__proto__" is not a parameter name/],
  [['plan', '--param', 'wrk.constructor=5'], /"wrk\.constructor" is not a parameter name/],
  [['report', NULL_JOB], /^benchline report: .*null-job\/run\.json: jobs\[0\] is not a job as `benchline run` writes it/],
  [['compare', NULL_JOB], /^benchline compare: .*null-job\/run\.json: jobs\[0\] is not a job/],
  [['export', '--format', 'bmf', NULL_JOB], /^benchline export: .*null-job\/run\.json: jobs\[0\] is not a job/],
  [['publish', '--store', join(TMP, 'damaged-store'), NULL_JOB], /^benchline publish: not published: .*null-job\/run\.json: jobs\[0\] is not a job/],
  [['compare', GONE_DOC, GONE_DOC], /^benchline compare: .*gone-doc\/run\.json: lists .*gone-doc\/docs\/local\/orders-api\.cache-off\.ab\.no-keepalive\.jsoo as the local document of job "orders-api\.cache-off\.ab\.no-keepalive", but there is no such file; run\.json was edited/],
  [['report', NUMBER_START], /^benchline report: .*number-start\/run\.json: startedAt is a number, not a string; the file was edited or damaged: re-run the benchmark/],
  [['report', '--format', 'comment', STRING_HEAD], /^benchline report: .*string-head\/run\.json: head is a string, not an object as `benchline run` writes it; the file was edited or damaged/],
  [['report', PROTO_SIDE], /^benchline report: .*proto-side\/run\.json: jobs\[0\]\.docs names the side "__proto__"; a run's sides are head, base, main, local/],
  [['plan', '--trials', '0'], /'0' is invalid\. Give a whole number from 1 to 1000/],
  [['plan', '--trials', '5abc'], /'5abc' is invalid/],
  [['plan', '--trials', '2.7'], /'2\.7' is invalid/],
  [['plan', '--trials', '1000000000'], /'1000000000' is invalid\. Give a whole number from 1 to 1000/],
  [['plan', '--trials', '-1'], /'-1' is invalid/],
  [['plan', '--trials', ''], /'' is invalid/],
  [['run', '--trials', '-1'], /--trials .* '-1' is invalid/],
  [['bench', '--trials', '1e3'], /'1e3' is invalid/],
  [['run', '--seed', 'abc'], /--seed .* 'abc' is invalid\. Give a whole number/],
  [['run', '--budget', '0x10'], /--budget .* '0x10' is invalid\. Give a number of seconds, at least 1/],
  [['bench', '--budget', '1e-300'], /'1e-300' is invalid\. Give a number of seconds, at least 1/],
  [['run', '--seed', '1.5'], /'1\.5' is invalid/],
  [['bench', '--seed', '99999999999999999999'], /'99999999999999999999' is invalid/],
  [['plan', '--tool', 'curl'], /--tool .* 'curl' is invalid\. Choose one of: k6, ghz, wrk, ab, jmh, hyperfine, grpc-client/],
  [['run', '--tool', 'wrk', '--tool', 'curl'], /'curl' is invalid\. Choose one of/],
  [['plan', '--param', 'bogus=1'], /--param bogus: the selected jobs have no parameter "bogus"; known: .*duration/],
  [['plan', '--param', 'wrk.bogus=1'], /--param wrk\.bogus: the selected wrk jobs have no parameter "bogus"; known: body, connections, count, duration/],
  [['plan', '--suite', 'gateways', '--param', 'ab.concurrency=10'], /no parameter "ab\.concurrency"; known:/],
  [['run', '--param', 'duraton=2s'], /no parameter "duraton"; known: .*duration/],
  [['plan', '--param', 'novalue'], /--param "novalue": expected key=value/],
  // a name with a newline stays on the one line of the message, its newline written \n
  [['plan', '--suite', 'a\nb'], /^benchline plan: suite "a\\nb" is not defined/],
  [['plan', '--profile', 'quick\nfull'], /^benchline plan: profile "quick\\nfull" is not defined/],
  [['plan', '--param', 'dur\nation=1'], /^benchline plan: --param dur\\nation: the selected jobs have no parameter "dur\\nation"/],
  [['plan', '--param', 'x\ny'], /^benchline plan: --param "x\\ny": expected key=value/],
  // a value the tool refuses fails before any subject starts, not in every trial of a run that is then published
  [['run', '--suite', 'orders-startup', '--param', 'runs=-1', '--out', join(TMP, 'param-out')], /^benchline run: --param runs=-1: hyperfine: param runs must be a whole number from 1 to 2147483647 in plain digits, got -1 \(job orders-startup\.memory\.hyperfine\.start-to-healthy\); give a value the tool takes/],
  [['bench', '--suite', 'orders-api', '--param', 'wrk.duration=abc', '--out', join(TMP, 'param-out'), '--history', join(TMP, 'param-history')], /^benchline bench: --param wrk\.duration=abc: wrk: param duration must be a whole number of seconds.*got "abc" \(job orders-api\.cache-off\.wrk\.peak\)/],
  [['plan', '--param', 'ab.concurrency=0'], /--param ab\.concurrency=0: ab: param concurrency must be a whole number from 1 to 2147483647 in plain digits, got 0/],
  // a count in exponent form or above the tool's C int would reach it as 1e+99, which ab reads as 1 request
  [['plan', '--profile', 'full', '--tool', 'ab', '--param', 'ab.requests=1e99'], /^benchline plan: --param ab\.requests=1e99: ab: param requests must be a whole number from 1 to 2147483647 in plain digits, got "1e99" \(2147483647 is the most ab takes\) \(job [^)]+\); give a value the tool takes, or drop the --param/],
  [['plan', '--tool', 'hyperfine', '--param', 'hyperfine.runs=99999999999999999999'], /--param hyperfine\.runs=99999999999999999999: hyperfine: param runs must be a whole number from 1 to 2147483647 in plain digits, got 100000000000000000000 \(2147483647 is the most hyperfine takes\)/],
  // a history folder that is no store is refused before the run, not after it (the project's own folder here)
  [['bench', '--suite', 'orders-api', '--history', 'ci', '--out', join(TMP, 'history-out')], /^benchline bench: --history .*\/ci: is not a history store \(no store\.json\) and holds other files \(.*\), which a store never does/],
  [['plan', '--param', '=1'], /--param "=1": expected key=value/],
  [['plan', '-c', 'test'], /test: is a folder, not a configuration file; pass the YAML file/],
  [['run', '-c', 'test/'], /is a folder, not a configuration file/],
  [['plan', '-c', 'missing.yaml'], /missing\.yaml: no such configuration file/],
  [['plan', '-c', '/dev/zero'], /^benchline plan: \/dev\/zero: is not a regular file \(a device or a pipe\); pass the YAML file/],
  [['run', '-c', FIFO_CONFIG, '--job', 'none'], /piped\.yaml: is not a regular file \(a device or a pipe\)/],
  [['plan', '-c', PIPED_SUBJECT], /suites\.s: subject "piped": subjects\/piped\/subject\.yaml is a FIFO \(named pipe\), not a file; make it the subject's YAML manifest/],
  [['run', '--config', join(TMP, 'nowhere', 'bench.config.yaml')], /no such configuration file/],
  [['plan', '-c', ESCAPING], /name "\.\.\/\.\.\/\.\.\/x" must match pattern/],
  [['plan', '-c', LONG], /name "s{60}\.\.\." must NOT have more than 64 characters/],
  [['plan', '-c', ABSOLUTE_VARIANT], /variants: name "\/tmp\/x" must match pattern/],
  [['plan', '-c', BIG_TRIALS], /trials must be <= 1000/],
  [['plan', '--profile', 'nope'], /profile "nope" is not defined; choose one of: quick, full/],
  [['plan', '--suite', 'nope'], /suite "nope" is not defined .*; defined: /],
  [['plan', '--variant', 'nope'], /the selection matches no job; --variant nope: no such variant in suites orders-api, orders-startup \(variants there: /],
  [['run', '--job', 'nope'], /the selection matches no job/],
  [['run', '--order', 'sideways'], /--order .* 'sideways' is invalid\. Allowed choices are abab, random/],
  [['plan', '--frobnicate'], /unknown option '--frobnicate'/],
  [['frobnicate'], /unknown command 'frobnicate'/],
  [['plan', '--config'], /option '-c, --config <file>' argument missing/],
  [['normalize', WRK], /required option '-t, --tool <name>' not specified/],
  [['normalize', '--tool', 'curl', WRK], /'curl' is invalid\. Allowed choices are k6, ghz/],
  [['normalize', '--tool', 'wrk', join(TMP, 'missing.txt')], /missing\.txt: no such file \(tool wrk\)/],
  [['normalize', '--tool', 'wrk', TMP], /: is a folder, not an output file \(tool wrk\); pass the file wrk wrote/],
  [['normalize', '--tool', 'wrk', '-'], /^benchline normalize: -: standard input is not read \(tool wrk\)/],
  [['normalize', '--tool', 'wrk', BIG], /big\.txt: 257 MiB, larger than any wrk output benchline reads \(256 MiB; tool wrk\)/],
  [['normalize', '--tool', 'wrk', WRK, '--suite', '../x'], /--suite .* '\.\.\/x' is invalid\. .*letters, digits/],
  [['normalize', '--tool', 'wrk', WRK, '--scenario', 'a'.repeat(300)], /--scenario .* is invalid\. .*at most 64/],
  [['normalize', '--tool', 'ab', WRK], /latency\.txt \(ab\)|not valid ab output: this is wrk output/],
  [['report', '--format', 'pdf', 'results'], /'pdf' is invalid\. Allowed choices are console, comment, summary, suite/],
  [['report', join(TMP, 'none')], /none: no such folder/],
  [['export', 'results'], /required option '-f, --format <format>' not specified/],
  [['export', '--format', 'csv', 'results'], /'csv' is invalid\. Allowed choices are gab-smaller, gab-bigger, bmf/],
  [['compare', join(TMP, 'none')], /none: no such file or folder/],
  [['publish', WRK, '--store', NOT_A_DIR], /plain-file: is a file, not a history store folder/],
  [['run', '--base', 'no-such-ref-anywhere', '--suite', 'orders-startup', '--out', join(TMP, 'base-out')], /^benchline run: --base no-such-ref-anywhere: not a commit in .* \(fetch it first, e\.g\. git fetch origin no-such-ref-anywhere, then give --base origin\/no-such-ref-anywhere\)$/m],
  [['run', '--base=--help', '--suite', 'orders-startup', '--out', join(TMP, 'base-out')], /--base --help: not a commit in .* \(a branch or tag name cannot start with "-"; give a branch, tag or commit\)/],
  [['run', '--suite', 'orders-startup', '--out', NOT_A_DIR], /^benchline run: cannot mkdir .*plain-file\/\S+: a part of that path is a file, not a folder; give another path/],
  // Node's own recursive mkdir spins for ever where the kernel answers ENOENT under an existing folder (/proc)
  [['run', '--suite', 'orders-startup', '--out', '/proc/benchline-x/results'], /^benchline run: cannot mkdir \/proc\/benchline-x: no such file or folder; give another path/],
  [['export', '--format', 'bmf', DOC, '-o', '/proc/benchline-x/bmf.json'], /^benchline export: cannot mkdir \/proc\/benchline-x: no such file or folder; give another path/],
  [['publish', DOC, '--store', '/proc/benchline-x/store'], /^benchline publish: cannot mkdir \/proc\/benchline-x: no such file or folder; give another path/],
  [['export', '--format', 'bmf', DOC, '-o', join(TMP, 'results-out')], /^benchline export: cannot write .*results-out: it is a folder, not a file; give another path/],
  // a device is written to, never replaced by a file (renaming over /dev/full would have replaced the device)
  [['export', '--format', 'bmf', DOC, '-o', '/dev/full'], /^benchline export: cannot write \/dev\/full: no space left on the device; give another path/],
  [['site', '--store', join(TMP, 'no-store'), '--out', join(ROOT, 'test', 'fixtures', 'wrk')], /^benchline site: --out .*: holds files no site build wrote/],
  [['site', '--store', join(TMP, 'no-store'), '--out', '/'], /^benchline site: --out \/: the site needs a folder of its own/],
  [['site', '--store', TMP, '--out', join(TMP, 'runs')], /^benchline site: --out .*: the site cannot go in the store or around it/],
  [['site', '--store', join(TMP, 'no-store'), '--out', join(TMP, 'site')], /no-store: no history store here/],
  [['comment', '--repo', 'a/b', '--pr', 'abc', '--body-file', WRK], /--pr .* 'abc' is invalid\. Give a whole number of at least 1/],
  [['comment', '--repo', 'a/b', '--pr', '0', '--body-file', WRK], /'0' is invalid/],
  // an empty path is refused, not taken as the current folder (a folder walk into node_modules, or a store made there)
  [['compare', ''], /^benchline: command-argument value '' is invalid for argument 'base'\. Give a path; an empty one would mean the current folder/],
  [['compare', DOC, ''], /argument 'head'\. Give a path/],
  [['export', '', '--format', 'bmf'], /argument 'path'\. Give a path/],
  [['report', ''], /argument 'results-dir'\. Give a path/],
  [['normalize', '--tool', 'wrk', ''], /argument 'raw-file'\. Give a path/],
  [['publish', DOC, ''], /argument 'paths'\. Give a path/],
  // a folder as the output, the root among them (a rename over / fails as EBUSY)
  [['export', DOC, '--format', 'bmf', '-o', '/'], /^benchline export: cannot write \/: it is a folder, not a file; give another path/],
  [['export', DOC, '--format', 'bmf', '-o', TMP], /^benchline export: cannot write .*flags[^/]*: it is a folder, not a file/],
  [['export', DOC, '--format', 'bmf', '-o', ''], /^benchline: option '-o, --output <file>' argument '' is invalid\. Give a path/],
  [['site', '--store', join(TMP, 'no-store'), '--out', join(TMP, 'site'), '--cache', ''], /option '--cache <dir>' argument '' is invalid/],
  [['run', '--out', '', '--job', 'none'], /option '-o, --out <dir>' argument '' is invalid/],
  [['bench', '--base', '', '--job', 'none', '--fail-on-regression'], /option '-b, --base <git-ref>' argument '' is invalid\. Give a branch, tag or commit; an empty one \(an unset variable\?\) would measure head alone/],
  [['bench', '--history', '', '--job', 'none'], /option '--history <dir>' argument '' is invalid/],
  [['plan', '--config', ''], /option '-c, --config <file>' argument '' is invalid/],
  [['plan', '--profile', ''], /option '-p, --profile <name>' argument '' is invalid\. Give a profile from the config/],
];

/** Runs the CLI; resolves { code, stdout, stderr }. */
function cli(argv) {
  return new Promise((resolve) => {
    // a hang is a failure too (killed: exit null), not a test that never ends
    const child = spawn(process.execPath, [CLI, ...argv], { cwd: ROOT, env: { ...process.env, GITHUB_TOKEN: '' }, timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test(`${CASES.length} bad invocations each exit 2 with one line saying what to change, never a stack trace`, async () => {
  assert.ok(CASES.length >= 40);
  const outcomes = [];
  // four at a time: quick on a shared machine without flooding it
  for (let i = 0; i < CASES.length; i += 4) outcomes.push(...await Promise.all(CASES.slice(i, i + 4).map(([argv]) => cli(argv))));
  const wrong = [];
  CASES.forEach(([argv, expected], i) => {
    const { code, stderr } = outcomes[i];
    const lines = stderr.split('\n').filter((l) => l.trim());
    const problems = [];
    if (code !== 2) problems.push(`exit ${code}`);
    if (lines.length !== 1) problems.push(`${lines.length} lines`);
    if (/\n\s+at |Error: /.test(stderr)) problems.push('a stack trace or raw error');
    if (!expected.test(stderr)) problems.push(`no ${expected}`);
    if (problems.length) wrong.push(`benchline ${argv.join(' ').slice(0, 120)}: ${problems.join(', ')}\n    ${stderr.trim().split('\n').slice(0, 3).join('\n    ')}`);
  });
  assert.deepEqual(wrong, []);
  // nothing was written by the refused runs (a base that is no commit leaves no empty run folder either)
  assert.equal(existsSync(join(TMP, 'site')), false);
  assert.equal(existsSync(join(TMP, 'base-out')), false);
  assert.equal(existsSync(join(TMP, 'param-out')), false);
  assert.equal(existsSync(join(TMP, 'param-history')), false);
});

test('publish --store with an empty value is refused instead of making a history store in the current folder', async () => {
  const cwd = tempDir('empty-store');
  const r = spawnSync(process.execPath, [CLI, 'publish', '--store', '', DOC], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 2, r.stdout);
  assert.match(r.stderr, /^benchline: option '--store <dir>' argument '' is invalid\. Give a path; an empty one would mean the current folder\. \(see --help\)\n$/);
  assert.deepEqual(readdirSync(cwd), [], 'no store.json or runs/ in the folder it was run from');
});

test('the benchline command in a checkout whose packages are not installed says to run npm ci there, not a module-resolution trace', async () => {
  // the CLI's code and package.json without node_modules anywhere above them
  const bare = tempDir('bare-checkout');
  cpSync(join(ROOT, 'ci'), join(bare, 'ci'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(bare, 'package.json'));
  const r = await new Promise((resolve) => {
    const child = spawn(process.execPath, [join(bare, 'ci', 'bin.js'), 'plan'], { cwd: bare, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, `benchline: its packages are not installed (commander is missing): run \`npm ci\` in ${bare}, or \`npm run bench\` once, which installs them\n`);
});

test('an output path that is a device or a pipe is written to in place, never replaced by a file', async () => {
  // a named pipe, as a shell's >(...) gives: what is written reaches its reader
  const pipe = join(TMP, 'export.pipe');
  execFileSync('mkfifo', [pipe]);
  const reader = spawn('cat', [pipe], { stdio: ['ignore', 'pipe', 'inherit'] });
  let read = '';
  reader.stdout.on('data', (d) => { read += d; });
  const closed = new Promise((resolve) => reader.on('close', resolve));
  // a pipe replaced by a file never gets a writer: its reader is stopped, and the check below fails
  setTimeout(() => reader.kill(), 30000).unref();
  const r = await cli(['export', '--format', 'bmf', DOC, '-o', pipe]);
  await closed;
  assert.equal(r.code, 0, r.stderr);
  assert.ok(Object.keys(JSON.parse(read)).length > 0, 'the export reached the reader');
  assert.ok(statSync(pipe).isFIFO(), 'the pipe is still a pipe');
  const full = await cli(['export', '--format', 'bmf', DOC, '-o', '/dev/full']);
  assert.equal(full.code, 2);
  for (const dev of ['/dev/null', '/dev/full']) assert.ok(statSync(dev).isCharacterDevice(), `${dev} is still a device`);
});

test('bench builds the site beside a history folder named history, and as <history>-site for any other name, never in its parent', () => {
  assert.equal(siteFolderOf(join('proj', '.benchline', 'history')), join('proj', '.benchline', 'site'));
  assert.equal(siteFolderOf('/tmp/x'), '/tmp/x-site');
  assert.equal(siteFolderOf('/tmp/runs/perf'), '/tmp/runs/perf-site');
});

test('the site links commits to the repository GitHub\'s environment names without asking git, and to the origin remote otherwise', () => {
  let asked = 0;
  const remote = () => {
    asked += 1;
    return 'git@github.com:acme/shop.git';
  };
  assert.equal(repoUrlFrom({ GITHUB_REPOSITORY: 'acme/site', GITHUB_SERVER_URL: 'https://git.example' }, remote), 'https://git.example/acme/site');
  assert.equal(asked, 0, 'git was asked for the remote although GitHub\'s environment names the repository');
  assert.equal(repoUrlFrom({}, remote), 'https://github.com/acme/shop');
  assert.equal(asked, 1);
  assert.equal(repoUrlFrom({}, 'https://gitlab.com/acme/shop.git'), 'https://gitlab.com/acme/shop');
  assert.equal(repoUrlFrom({}, ''), null);
});

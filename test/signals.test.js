// SIGINT, SIGTERM and SIGHUP during `benchline run`: every process stopped, the port free, the finished trials kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './support/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'ci', 'cli.js');
const CONFIG = join(ROOT, 'test', 'fixtures', 'project', 'bench.config.yaml');
const JOB = 'faults.ok.wrk.short';

/** PIDs of every live process below `pid` (children of children included), from /proc. */
function descendants(pid) {
  const parent = new Map();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  const out = [];
  const walk = (p) => { for (const [c, pp] of parent) if (pp === p) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}
const isAlive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const portFree = (port) => new Promise((res) => {
  const s = createServer().once('error', () => res(false)).listen(port, '127.0.0.1', () => s.close(() => res(true)));
});

for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  test(`${sig} after the first trial stops the subject and wrk, frees the port, and keeps that trial in run.json marked interrupted`, async () => {
    const results = tempDir(sig);
    const child = spawn(process.execPath, [CLI, 'run', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--trials', '3', '--out', results, '--no-progress'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const firstTrial = new Promise((res) => child.stderr.on('data', (d) => { stderr += d; if (/\[1\/3\]/.test(stderr)) res(); }));
    const exited = new Promise((res) => child.on('exit', (c) => res(c)));
    await Promise.race([firstTrial, exited, new Promise((r) => setTimeout(r, 60000))]);
    assert.match(stderr, /\[1\/3\]/, `the first trial finished: ${stderr}`);
    const procs = descendants(child.pid);
    assert.ok(procs.length >= 1, 'the subject (and perhaps wrk) run below benchline');
    child.kill(sig);
    assert.equal(await exited, code);

    const [runId] = readdirSync(results).filter((d) => d !== 'latest');
    const dir = join(results, runId);
    const log = readFileSync(join(dir, 'raw', 'local', JOB, 'server.log'), 'utf8');
    const port = Number(/listening on (\d+)/.exec(log)[1]);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(procs.filter(isAlive), [], 'no process benchline started is left');
    assert.equal(await portFree(port), true, `port ${port} is free again`);

    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    assert.equal(run.status, 'interrupted');
    assert.equal(run.interrupted, sig);
    assert.equal(readlinkSync(join(results, 'latest')), runId, 'results/latest names the interrupted run, so `report results` finds it');
    const job = run.jobs.find((j) => j.id === JOB);
    assert.equal(job.status, 'interrupted');
    assert.match(job.reason, new RegExp(`stopped by ${sig} after [12] local trial\\(s\\) of 3`));
    const doc = JSON.parse(readFileSync(join(dir, job.docs.local), 'utf8'));
    assert.ok(doc.trials >= 1 && doc.trials <= 2);
    assert.ok(doc.metrics.find((m) => m.name === 'requests').value > 0);

    // report works on what was measured
    const report = spawnSync(process.execPath, [CLI, 'report', dir, '--config', CONFIG], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(report.status, 0, report.stderr);
    assert.match(report.stdout, /short/);
    assert.match(report.stdout, new RegExp(`^ {2}INTERRUPTED by ${sig}: only the trials that finished are reported`, 'm'), 'the report says the run was cut short');
    assert.match(report.stdout, new RegExp(`^ {4}${JOB.replace(/\./g, '\\.')}: stopped by ${sig} after [12] local trial\\(s\\) of 3$`, 'm'), 'and names the job it cut short, whose trials it reports');
  });
}

test('kill -9 of benchline mid-run: its watchdog stops the subject and the load tool it left, and frees the port', async () => {
  const results = tempDir('sigkill');
  const child = spawn(process.execPath, [CLI, 'run', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--trials', '5', '--out', results, '--no-progress'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const firstTrial = new Promise((res) => child.stderr.on('data', (d) => { stderr += d; if (/\[1\/5\]/.test(stderr)) res(); }));
  const exited = new Promise((res) => child.on('exit', (c, s) => res(s)));
  await Promise.race([firstTrial, exited, new Promise((r) => setTimeout(r, 60000))]);
  assert.match(stderr, /\[1\/5\]/, `the first trial finished: ${stderr}`);
  const procs = descendants(child.pid);
  assert.ok(procs.length >= 2, 'the subject and the watchdog run below benchline');
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  const [runId] = readdirSync(results).filter((d) => d !== 'latest');
  const port = Number(/listening on (\d+)/.exec(readFileSync(join(results, runId, 'raw', 'local', JOB, 'server.log'), 'utf8'))[1]);
  // the watchdog looks twice a second
  const deadline = Date.now() + 5000;
  while (procs.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(procs.filter(isAlive), [], 'no process benchline started is left, the watchdog included');
  assert.equal(await portFree(port), true, `port ${port} is free again`);
});

/** A folder with a stand-in installer `name` that writes its PID to `pidFile` and waits `seconds`, and the commands benchline needs beside it. */
function fakeInstaller(name, pidFile, seconds = 60) {
  const bin = tempDir(`fake-${name}`);
  writeFileSync(join(bin, name), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep ${seconds}\n`);
  chmodSync(join(bin, name), 0o755);
  for (const tool of ['sh', 'sleep', 'git']) {
    const real = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(real, join(bin, tool));
  }
  return bin;
}

/** Waits until `file` holds a PID (the stand-in started), up to 20 s. */
async function pidIn(file) {
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    try {
      const pid = Number(readFileSync(file, 'utf8'));
      if (pid) return pid;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

/**
 * Waits for the stand-in installer to start, sends `stop` (a function of the child), and then gives the child's exit
 * (its signal, or its code) and whether the stand-in is still alive 3 s later.
 */
async function stopDuringInstall(child, pidFile, stop) {
  const exited = new Promise((res) => child.on('exit', (c, sig) => res(sig || c)));
  const pid = await pidIn(pidFile);
  assert.ok(pid, 'the stand-in installer started');
  stop(child);
  const exit = await exited;
  const deadline = Date.now() + 3000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return { exit, installerAlive: isAlive(pid) };
}

test('SIGTERM while go builds a tool stops the build as well: no installer is left running once benchline is gone', async () => {
  const pidFile = join(tempDir('go-pid'), 'pid');
  const bin = fakeInstaller('go', pidFile);
  const script = `import { ensureTools } from ${JSON.stringify(join(ROOT, 'ci', 'tools.js'))}; ensureTools(['grpcurl'], { log: () => {} });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, BENCHLINE_TOOLS: tempDir('tools') }, stdio: 'ignore' });
  const { exit, installerAlive } = await stopDuringInstall(child, pidFile, (c) => c.kill('SIGTERM'));
  assert.equal(exit, 'SIGTERM');
  assert.equal(installerAlive, false, 'the go build benchline started is stopped with it');
});

test('a run stopped while apt-get installs its load tool leaves no empty run folder and no apt-get holding the dpkg lock', { skip: process.getuid?.() !== 0 && 'apt-get is run only as root (or through sudo -n)' }, async () => {
  const pidFile = join(tempDir('apt-pid'), 'pid');
  const bin = fakeInstaller('apt-get', pidFile); // and no wrk on PATH: benchline installs it
  const results = tempDir('install-stop');
  const child = spawn(process.execPath, [CLI, 'run', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--out', results, '--no-progress'], { cwd: ROOT, env: { ...process.env, PATH: bin }, stdio: 'ignore' });
  const { exit, installerAlive } = await stopDuringInstall(child, pidFile, (c) => c.kill('SIGTERM'));
  assert.equal(exit, 'SIGTERM');
  assert.equal(installerAlive, false, 'apt-get is stopped with benchline');
  assert.deepEqual(readdirSync(results), [], 'no run folder was made before the tools were there');
});

test('a Ctrl-C while go builds a tool stops the build and reaches benchline\'s own handler at once, not when the build is done', { timeout: 60000 }, async () => {
  const pidFile = join(tempDir('go-pid'), 'pid');
  // a build far longer than the test may take: only a stopped build lets the handler run in time
  const bin = fakeInstaller('go', pidFile, 600);
  // as the runner has it while it installs a subject's tools: a handler of its own for SIGINT
  const script = `import { ensureTools } from ${JSON.stringify(join(ROOT, 'ci', 'tools.js'))};
process.on('SIGINT', () => process.exit(130));
try { ensureTools(['grpcurl'], { log: () => {} }); } catch { /* the build was stopped */ }
setTimeout(() => process.exit(0), 100);`;
  // a group of its own, as a terminal's foreground job: the Ctrl-C goes to every process in it
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, BENCHLINE_TOOLS: tempDir('tools') }, stdio: 'ignore', detached: true });
  const { exit, installerAlive } = await stopDuringInstall(child, pidFile, (c) => process.kill(-c.pid, 'SIGINT'));
  assert.equal(exit, 130);
  assert.equal(installerAlive, false, 'the go build benchline started is stopped with it');
});

test('SIGINT sent again while the first is handled (npm passing on a Ctrl-C) still ends the run with 130 and run.json marked interrupted', async () => {
  const results = tempDir('sigint-twice');
  const child = spawn(process.execPath, [CLI, 'run', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--trials', '3', '--out', results, '--no-progress'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const firstTrial = new Promise((res) => child.stderr.on('data', (d) => { stderr += d; if (/\[1\/3\]/.test(stderr)) res(); }));
  const exited = new Promise((res) => child.on('exit', (c, s) => res(s || c)));
  await Promise.race([firstTrial, exited, new Promise((r) => setTimeout(r, 60000))]);
  assert.match(stderr, /\[1\/3\]/, `the first trial finished: ${stderr}`);
  const procs = descendants(child.pid);
  // a burst, as a terminal's Ctrl-C reaching npm and benchline and npm sending it on lands while the first is handled
  child.kill('SIGINT');
  const burst = setInterval(() => { try { child.kill('SIGINT'); } catch { /* gone */ } }, 1);
  const exit = await exited;
  clearInterval(burst);
  assert.equal(exit, 130, `benchline ended by its handler, not by the signal's default action: ${stderr}`);
  const [runId] = readdirSync(results).filter((d) => d !== 'latest');
  const run = JSON.parse(readFileSync(join(results, runId, 'run.json'), 'utf8'));
  assert.equal(run.status, 'interrupted');
  assert.equal(run.interrupted, 'SIGINT');
  assert.equal(readlinkSync(join(results, 'latest')), runId);
  const deadline = Date.now() + 5000;
  while (procs.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(procs.filter(isAlive), [], 'no process benchline started is left');
});

test('SIGTERM that arrives while the run writes its last results is not lost: bench stops with 143 instead of publishing and building the site', async () => {
  const tmp = tempDir('sigterm-run-end');
  // benchline sends itself SIGTERM as it writes the result document of the run's last job: the signal is pending
  // through the synchronous end of the run, when the run's handler gives way to bench's
  const preload = join(tmp, 'signal-on-doc.cjs');
  writeFileSync(preload, `const fs = require('fs');
const rename = fs.renameSync;
fs.renameSync = function (from, to, ...rest) {
  const r = rename.call(this, from, to, ...rest);
  if (String(to).includes('/docs/') && !globalThis.sent) { globalThis.sent = true; process.kill(process.pid, 'SIGTERM'); }
  return r;
};
`);
  const r = spawnSync(process.execPath, ['--require', preload, CLI, 'bench', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--trials', '1', '--out', join(tmp, 'results'), '--history', join(tmp, 'history'), '--no-progress'], { cwd: ROOT, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 143, `bench stopped on the signal: ${r.stdout.slice(-800)}${r.stderr.slice(-800)}`);
  assert.match(r.stderr, /benchline: SIGTERM: stopped after the run; its results are in /);
  assert.doesNotMatch(r.stdout, /^site: /m, 'no site was built after the signal');
});

test('a run folder that kill -9 left without run.json is named as such, with the result documents its finished jobs left', async () => {
  const { mkdirSync } = await import('node:fs');
  const { resolveRunDir } = await import('../ci/results-dir.js');
  const dir = join(tempDir('killed-run'), '20261126T122916Z-a0d271');
  mkdirSync(join(dir, 'raw', 'local'), { recursive: true });
  assert.throws(() => resolveRunDir(dir), /stopped outright \(kill -9, out of memory\) before it ended: it has no run\.json.*No job of it finished; run the benchmark again/);
  mkdirSync(join(dir, 'docs', 'local'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'local', 'a.json'), '{}');
  assert.throws(() => resolveRunDir(dir), /left 1 result document\(s\) in .*docs: pass those files to publish/);
  // a folder no run wrote is still told apart
  assert.throws(() => resolveRunDir(tempDir('not-a-run')), /no run\.json here and no `latest` run inside/);
});

/** A copy of the test project whose subject's build writes its PID to `pidFile` and runs for `seconds`. */
function projectWithSlowBuild(pidFile, seconds) {
  const dir = tempDir('slow-build');
  cpSync(join(ROOT, 'test', 'fixtures', 'project'), dir, { recursive: true });
  const config = join(dir, 'bench.config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replaceAll('../../../loadtests/', `${join(ROOT, 'loadtests')}/`));
  const manifest = join(dir, 'subjects', 'flaky', 'subject.yaml');
  writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}build:\n  - "echo $$ > '${pidFile}'; exec sleep ${seconds}"\n`);
  return config;
}

for (const [how, stop, code] of [['SIGTERM to benchline alone (a cancelled CI job)', (c) => c.kill('SIGTERM'), 143], ['a Ctrl-C to its process group', (c) => process.kill(-c.pid, 'SIGINT'), 130]]) {
  test(`${how} while a subject builds stops the build at once and marks the run interrupted, not failed when the build is done`, { timeout: 60000 }, async () => {
    const pidFile = join(tempDir('build-pid'), 'pid');
    const results = tempDir('build-stop');
    // a build far longer than the test may take: only a stopped build lets benchline end in time
    const child = spawn(process.execPath, [CLI, 'run', '--config', projectWithSlowBuild(pidFile, 600), '--variant', 'ok', '--scenario', 'short', '--trials', '1', '--out', results, '--no-progress'], { cwd: ROOT, stdio: 'ignore', detached: true });
    const { exit, installerAlive } = await stopDuringInstall(child, pidFile, stop);
    assert.equal(exit, code);
    assert.equal(installerAlive, false, 'the build benchline started is stopped with it');
    const run = JSON.parse(readFileSync(join(results, 'latest', 'run.json'), 'utf8'));
    assert.equal(run.status, 'interrupted');
    assert.equal(run.jobs[0].status, 'interrupted');
  });
}

test('SIGINT during a publish stops it between documents with 130, leaves no lock, and publishing again adds the rest', async () => {
  const { syntheticDocs } = await import('../ci/store/synthetic.js');
  const { readStore } = await import('../ci/store/store.js');
  const { existsSync, mkdirSync } = await import('node:fs');
  const dir = tempDir('publish-sigint');
  const docsDir = join(dir, 'docs');
  mkdirSync(docsDir);
  const docs = [...syntheticDocs({ runs: 300 })];
  const files = docs.map((d, i) => join(docsDir, `${i}.json`));
  docs.forEach((d, i) => writeFileSync(files[i], JSON.stringify(d)));
  const store = join(dir, 'store');
  const child = spawn(process.execPath, [CLI, 'publish', ...files, '--store', store], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  child.stderr.on('data', (b) => { out += b; });
  const exited = new Promise((r) => child.on('exit', (c, s) => r([c, s])));
  // once the store exists the documents are being written
  for (let i = 0; i < 400 && !existsSync(join(store, 'store.json')); i += 1) await new Promise((r) => setTimeout(r, 25));
  child.kill('SIGINT');
  const [code] = await exited;
  assert.equal(code, 130, out);
  assert.match(out, /benchline publish: SIGINT: stopped; what was published so far is in .*store, and publishing the same results again adds the rest/);
  assert.doesNotMatch(out, /added, /, 'no summary of a publish that did not finish');
  assert.equal(existsSync(join(store, 'store.json.lock')), false, 'the lock went with the process');
  const before = readStore(store);
  assert.deepEqual(before.problems, []);
  assert.ok(before.docs.length < docs.length, `stopped before the end (${before.docs.length} of ${docs.length})`);
  const again = spawnSync(process.execPath, [CLI, 'publish', ...files, '--store', store], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readStore(store).docs.length, docs.length);
});

test('SIGTERM during a site build stops it with 143, says the folder may be half-built, and the next build into it ends as a clean build', async () => {
  const { syntheticDocs } = await import('../ci/store/synthetic.js');
  const { publish } = await import('../ci/store/store.js');
  const { existsSync, readdirSync: list } = await import('node:fs');
  const dir = tempDir('site-sigterm');
  const store = join(dir, 'store');
  await publish({ store, docs: [...syntheticDocs({ runs: 400 })] });
  const out = join(dir, 'site');
  const child = spawn(process.execPath, [CLI, 'site', '--store', store, '--out', out, '--cache', join(dir, 'cache')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (b) => { said += b; });
  child.stderr.on('data', (b) => { said += b; });
  const exited = new Promise((r) => child.on('exit', (c) => r(c)));
  // once the build writes into the site it is under way
  for (let i = 0; i < 400 && !(existsSync(out) && list(out).length); i += 1) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGTERM');
  const code = await exited;
  assert.equal(code, 143, `stopped while it wrote the site: ${said}`);
  assert.match(said, new RegExp(`benchline site: SIGTERM: stopped; what is in ${out} may be half-built, and the next \`benchline site\` into it checks every file it keeps by content and writes the rest`));
  const again = spawnSync(process.execPath, [CLI, 'site', '--store', store, '--out', out, '--cache', join(dir, 'cache')], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  const clean = spawnSync(process.execPath, [CLI, 'site', '--store', store, '--out', join(dir, 'clean')], { encoding: 'utf8' });
  assert.equal(clean.status, 0, clean.stderr);
  const files = (d) => list(d, { recursive: true }).filter((f) => !f.startsWith('.benchline-site')).sort();
  assert.deepEqual(files(out), files(join(dir, 'clean')));
  // the data of every run and series as a clean build writes it (the index and feed carry the build's time)
  for (const f of files(out)) if (/^data\/(runs|series)\/.*\.js$/.test(f)) assert.equal(readFileSync(join(out, f), 'utf8'), readFileSync(join(dir, 'clean', f), 'utf8'), f);
});

test('whileListening has its handler on every stop signal while the work runs and takes it off after, also when the work throws', async () => {
  const { SIGNALS, whileListening } = await import('../ci/live.js');
  const handler = () => {};
  const on = () => SIGNALS.filter((sig) => process.listeners(sig).includes(handler));
  assert.deepEqual(await whileListening(handler, async () => on()), SIGNALS);
  await assert.rejects(whileListening(handler, () => { throw new Error('stopped'); }), /stopped/);
  assert.deepEqual(on(), []);
});

test('Ctrl-C gives the subject SIGTERM first, so it tidies up what outlives its processes, and SIGKILL once it does not end', { timeout: 60000 }, async () => {
  const dir = tempDir('tidy');
  cpSync(join(ROOT, 'test', 'fixtures', 'project'), dir, { recursive: true });
  const config = join(dir, 'bench.config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replaceAll('../../../loadtests/', `${join(ROOT, 'loadtests')}/`));
  const mark = join(dir, 'tidied');
  // beside the server: one process that tidies up on SIGTERM (as netns-server.sh removes its network namespace), and
  // one that ignores SIGTERM
  const manifest = join(dir, 'subjects', 'flaky', 'subject.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('target:', `  tidy:\n    command: ["sh", "-c", "trap 'echo tidied > \\"$0\\"; exit 0' TERM; while :; do sleep 0.1; done", ${JSON.stringify(mark)}]\n  stubborn:\n    command: ["sh", "-c", "trap '' TERM; while :; do sleep 0.1; done"]\ntarget:`));
  const results = tempDir('tidy-results');
  const child = spawn(process.execPath, [CLI, 'run', '--config', config, '--variant', 'ok', '--scenario', 'short', '--trials', '3', '--out', results, '--no-progress'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const firstTrial = new Promise((res) => child.stderr.on('data', (d) => { stderr += d; if (/\[1\/3\]/.test(stderr)) res(); }));
  const exited = new Promise((res) => child.on('exit', (c, s) => res(s || c)));
  await Promise.race([firstTrial, exited, new Promise((r) => setTimeout(r, 40000))]);
  assert.match(stderr, /\[1\/3\]/, `the first trial finished: ${stderr}`);
  const procs = descendants(child.pid);
  child.kill('SIGINT');
  assert.equal(await exited, 130, stderr);
  assert.equal(readFileSync(mark, 'utf8'), 'tidied\n', 'the subject got SIGTERM and tidied up');
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(procs.filter(isAlive), [], 'no process benchline started is left, the one that ignored SIGTERM included');
  const run = JSON.parse(readFileSync(join(results, 'latest', 'run.json'), 'utf8'));
  assert.equal(run.status, 'interrupted');
});

test('a Ctrl-C while git says what head is, before the run can handle a signal, leaves no run folder behind', { timeout: 60000 }, async () => {
  // a git that, asked for the checkout's status (what head is), gets the Ctrl-C first, as a terminal sends it to the
  // whole foreground group, before it answers
  const bin = tempDir('git-ctrl-c');
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" status "*) kill -INT $PPID; sleep 1 ;; esac\nexec ${realGit} "$@"\n`, { mode: 0o755 });
  const results = tempDir('git-ctrl-c-results');
  const r = spawnSync(process.execPath, [CLI, 'run', '--config', CONFIG, '--variant', 'ok', '--scenario', 'short', '--trials', '1', '--out', results, '--no-progress'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 50000 });
  assert.equal(r.signal, 'SIGINT', `benchline ended by the Ctrl-C: ${r.stderr}`);
  assert.deepEqual(readdirSync(results), [], 'no run folder without run.json');
});

// SIGINT, SIGTERM and SIGHUP during `benchline run`: every process stopped, the port free, the finished trials kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
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

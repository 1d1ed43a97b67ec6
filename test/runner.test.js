// The runner against a real subject (Bun) and a real tool (wrk): results, faults, timeouts, A/B and Ctrl-C.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, readdirSync, cpSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { loadConfig } from '../ci/config.js';
import { planJobs, jobGroups } from '../ci/plan.js';
import { jsonParams as ghzJsonParams } from '../ci/adapters/ghz.js';
import { addWorktree, baseCommit, runJobs, roundOrder, orderSeed, trialTimeout, rotation, roundPlan, stopReason, laneBudget, restartsEachRound, AUTO_RESTART_MS, duetRounds, scalarParams } from '../ci/runner.js';
import { ADAPTERS } from '../ci/adapters/index.js';
import { rng } from '../ci/stats.js';
import { resultProblems } from '../ci/schema/index.js';
import { startSubject, loadManifest, substitute } from '../ci/subjects.js';
import { loadResultsDir } from '../ci/results-dir.js';
import { compare } from '../ci/compare.js';
import { tempDir } from './support/temp.js';

const project = resolve('test/fixtures/project');
const CLI = resolve('ci/cli.js');
let config;
before(() => { config = loadConfig(join(project, 'bench.config.yaml')); });

/** Alive and not a zombie (a container's init may not reap orphans at once). */
const isAlive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const out = () => tempDir('runner');

test("result documents keep ghz's data and metadata given as YAML mappings as the JSON ghz got, and other lists and mappings as before", () => {
  // a mapping was kept as "service=" (the report showed data=service=), which names neither the field nor its value
  assert.deepEqual(scalarParams({ data: { service: '' }, metadata: { 'x-user': 'u3' }, prof: ['gc', 'stack'], parameterList: { mode: ['a', 'b'] }, total: 5 }, ghzJsonParams),
    { data: '{"service":""}', metadata: '{"x-user":"u3"}', prof: 'gc,stack', parameterList: 'mode=a,b', total: 5 });
});

test('a run without --seed flips its coins from a seed of its own, so a job does not get the same round order run after run; --seed repeats one', () => {
  const drawn = Array.from({ length: 20 }, () => orderSeed(undefined));
  assert.ok(drawn.every((s) => Number.isInteger(s) && s >= 1 && s < 2 ** 31), drawn.join());
  assert.ok(new Set(drawn).size > 1, 'twenty runs did not all draw one seed');
  assert.equal(orderSeed(7), 7);
  assert.equal(orderSeed(0), 0, 'a given 0 is a seed, not a missing one');
  const orders = (seed) => { const r = rng(`${seed}:suite.v.wrk.peak`); return Array.from({ length: 16 }, () => roundOrder(['base', 'head'], 'random', r)[0]).join(); };
  assert.equal(orders(orderSeed(12345)), orders(12345), 'the seed run.json keeps gives the run\'s order again');
  const seen = new Set(Array.from({ length: 20 }, () => orders(orderSeed(undefined))));
  assert.ok(seen.size > 1, 'runs without --seed do not all share one order');
});

test('within a round base goes first under abab, and under random a seeded coin decides, so head leads about half the rounds', () => {
  assert.deepEqual(roundOrder(['base', 'head'], 'abab'), ['base', 'head']);
  const rounds = (seed) => { const r = rng(seed); return Array.from({ length: 200 }, () => roundOrder(['base', 'head'], 'random', r)); };
  assert.deepEqual(rounds(9), rounds(9), 'the same seed gives the same order');
  const headFirst = rounds(9).filter((p) => p[0] === 'head').length;
  assert.ok(headFirst > 70 && headFirst < 130, `head led ${headFirst} of 200 rounds`);
  assert.deepEqual(roundOrder(['local'], 'random', () => 0), ['local']);
});

test('an A/B job without fixed trials plans sequential looks; fixed trials and single-side runs plan one look', () => {
  const rounds = { looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] };
  assert.deepEqual(roundPlan({ trials: 5 }, { ab: true, rounds }), { adaptive: true, looks: [8, 12, 20], weights: [0.25, 0.25, 0.5], max: 20 });
  assert.deepEqual(roundPlan({ trials: 4, fixedTrials: true }, { ab: true, rounds }), { adaptive: false, looks: [4], weights: [1], max: 4 });
  assert.deepEqual(roundPlan({ trials: 5 }, { ab: false, rounds }), { adaptive: false, looks: [5], weights: [1], max: 5 });
});

test('the run budget is shared evenly between sequential lanes, each at most budget.job', () => {
  assert.equal(laneBudget({ job: 150, run: 540 }, 8), 67.5);
  assert.equal(laneBudget({ job: 150, run: 540 }, 2), 150);
  assert.equal(laneBudget({ job: 150, run: 540 }, 0), 150);
});

test('a sequential job looks at counts of calm rounds once each, makes up disturbed rounds, and stops before overrunning a budget', () => {
  const plan = { adaptive: true, looks: [8, 12, 20], weights: [0.25, 0.25, 0.5], max: 20 };
  const budget = { job: 100, run: 1000, lane: 100 };
  const OPEN = [{ key: 'throughput', futile: false }];
  const at = (t, spentMs, decided, { now = 0, calm = t, lane = { plan, spentMs } } = {}) => stopReason(lane, t, { now, runStarted: 0, budget, openAt: () => (decided ? [] : OPEN), calm });
  assert.equal(at(8, 8000, true), 'decided');
  assert.equal(at(9, 9000, true), null, 'decisions are taken only at planned looks');
  assert.equal(at(8, 8000, false), null);
  assert.equal(at(11, 11000, true, { calm: 8 }), 'decided', 'the look counts calm rounds: 11 rounds, 3 disturbed');
  const lane = { plan, spentMs: 9000 };
  let looks = 0;
  const openAt = () => { looks += 1; return OPEN; };
  stopReason(lane, 9, { now: 0, runStarted: 0, budget, openAt, calm: 8 });
  stopReason(lane, 10, { now: 0, runStarted: 0, budget, openAt, calm: 8 });
  assert.equal(looks, 1, 'a disturbed round after a look does not look again at the same count');
  assert.equal(at(25, 25000, false, { calm: 19 }), null, 'disturbed rounds are made up');
  assert.equal(at(60, 60000, false, { calm: 19, lane: { plan, spentMs: 60000 } }), 'most rounds', 'at most three times the planned rounds');
  assert.equal(at(20, 20000, false), 'most rounds');
  assert.equal(at(10, 95000, false), 'budget', 'a 9.5 s round would take the lane past 100 s');
  assert.equal(at(10, 10000, false, { now: 999500 }), 'budget', 'the run budget counts every job');
  assert.equal(at(10, 10000, false, { now: 998000 }), null);
  assert.equal(at(5, 95000, false), null, 'a lane is not stopped for its own budget before its first look');
  assert.equal(at(3, 3000, false, { now: 999500 }), 'budget', 'the run budget stops a lane from 3 rounds on');
  assert.equal(at(2, 2000, false, { now: 999500 }), null);
  const fixed = { adaptive: false, looks: [4], weights: [1], max: 4 };
  assert.equal(stopReason({ plan: fixed, spentMs: 1e9 }, 3, { now: 1e9, runStarted: 0, budget, openAt: () => [] }), null, 'fixed trials ignore budgets and looks');
  assert.equal(stopReason({ plan: fixed, spentMs: 0 }, 4, { now: 0, runStarted: 0, budget, openAt: () => OPEN }), 'rounds');
  // a look where every undecided metric cannot settle by the last look stops the lane; one that still can keeps it going
  const futile = [{ key: 'throughput', futile: true }, { key: 'latency.p50', futile: true }];
  assert.equal(stopReason({ plan, spentMs: 12000 }, 12, { now: 0, runStarted: 0, budget, openAt: () => futile }), 'futile');
  assert.equal(stopReason({ plan, spentMs: 12000 }, 12, { now: 0, runStarted: 0, budget, openAt: () => [...futile, { key: 'latency.p99', futile: false }] }), null);
  assert.equal(stopReason({ plan, spentMs: 8000 }, 8, { now: 0, runStarted: 0, budget, openAt: () => futile }), null, 'never at the first look');
});

test('subjects restart every round under round, never under never, and under auto only when they came up within 5 s', () => {
  assert.equal(restartsEachRound('round', 60_000, true), true);
  assert.equal(restartsEachRound('never', 10, true), false);
  assert.equal(restartsEachRound('auto', 10, true), true);
  assert.equal(restartsEachRound(undefined, AUTO_RESTART_MS, true), true);
  assert.equal(restartsEachRound('auto', AUTO_RESTART_MS + 1, true), false);
  assert.equal(restartsEachRound('round', 10, false), false, 'no subject process (hyperfine, JMH): nothing to restart');
});

test('duet rounds: A/B lanes with subject processes, by the tool\'s default (wrk, not a count-bounded ab or a fixed-rate k6) unless the job says; a tool that starts what it measures only when its job asks', () => {
  const sides = { roles: 2, hasProcesses: true };
  assert.equal(duetRounds({}, ADAPTERS.wrk, sides), true);
  assert.equal(duetRounds({}, ADAPTERS.ab, sides), false);
  assert.equal(duetRounds({ params: { duration: '2s', concurrency: 50 } }, ADAPTERS.ab, sides), true, 'ab with a time limit runs as long as the other side');
  assert.equal(duetRounds({}, ADAPTERS.k6, sides), false);
  assert.equal(duetRounds({ duet: false }, ADAPTERS.wrk, sides), false);
  assert.equal(duetRounds({ duet: true }, ADAPTERS.ghz, sides), true);
  assert.equal(duetRounds({ duet: true }, ADAPTERS.wrk, { roles: 1, hasProcesses: true }), false, 'one side: nothing to pair');
  assert.equal(duetRounds({}, ADAPTERS.hyperfine, { roles: 2, hasProcesses: false }), false, 'no subject the runner starts: in turn unless asked');
  assert.equal(duetRounds({ duet: true }, ADAPTERS.hyperfine, { roles: 2, hasProcesses: false }), true, 'hyperfine starting each side\'s service at once');
  assert.equal(duetRounds({ duet: true }, ADAPTERS.hyperfine, { roles: 1, hasProcesses: false }), false);
});

test('a trial may take three times its duration plus a minute, or the job timeout', () => {
  assert.equal(trialTimeout({ params: { duration: '30s' } }), 150);
  assert.equal(trialTimeout({ params: { duration: '2m' } }), 420);
  assert.equal(trialTimeout({ params: {} }), 120);
  assert.equal(trialTimeout({ timeout: 2, params: { duration: '30s' } }), 2);
});

test('a run writes schema-valid results for good jobs and clear failures for bad ones, and stops every process', async () => {
  const jobs = planJobs(config);
  const { dir, run } = await runJobs(jobs, { config, out: out(), progress: false, seed: 1 });
  const byId = Object.fromEntries(run.jobs.map((j) => [j.id, j]));
  assert.equal(byId['faults.ok.wrk.short'].status, 'ok');
  const doc = JSON.parse(readFileSync(join(dir, byId['faults.ok.wrk.short'].docs.local), 'utf8'));
  assert.deepEqual(resultProblems(doc), []);
  assert.equal(doc.trials, 2);
  const thr = doc.metrics.find((m) => m.name === 'throughput');
  assert.equal(thr.samples.length, 2);
  assert.ok(thr.value > 0);

  assert.equal(byId['faults.no-start.wrk.short'].status, 'failed');
  assert.match(byId['faults.no-start.wrk.short'].reason, /flaky\/server exited \(code 3\) before it was healthy/);
  assert.match(byId['faults.no-start.wrk.short'].logTail, /refusing to start/);

  assert.equal(byId['faults.dies.wrk.short'].status, 'failed');
  assert.match(byId['faults.dies.wrk.short'].reason, /flaky\/server \(local\) died (during trial \d \(exit 7\); that trial saw [\d,]+ errors and [\d,]+ completed requests|before trial \d \(exit 7\))/);
  assert.match(byId['faults.dies.wrk.short'].logTail, /dying on purpose/);
  assert.equal(byId['faults.dies.wrk.short'].docs, undefined, 'no partial result is stored');

  assert.equal(byId['faults.ok.wrk.hangs'].status, 'failed');
  assert.match(byId['faults.ok.wrk.hangs'].reason, /wrk did not finish within 2 s \(trial 1, local\); it was stopped/);

  assert.equal(byId['faults.native-only-elsewhere.wrk.short'].status, 'skipped');
  assert.equal(byId['faults.native-only-elsewhere.wrk.short'].reason, 'runs only in docker-compose');

  assert.equal(byId['faults.cannot-run.wrk.short'].status, 'skipped');
  assert.equal(byId['faults.cannot-run.wrk.short'].reason, 'subject process flaky/server cannot run here: needs a kernel feature this machine lacks (CANNOT_RUN_HERE=1)');

  const docs = readdirSync(join(dir, 'docs', 'local'));
  assert.deepEqual(docs, ['faults.ok.wrk.short.json']);
  const pids = [...readFileSync(join(dir, 'raw', 'local', 'faults.ok.wrk.short', 'server.log'), 'utf8').matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  assert.ok(pids.length >= 1);
  for (const pid of pids) assert.equal(isAlive(pid), false, `subject pid ${pid} was stopped`);
  assert.equal(readFileSync(join(dir, '..', 'latest', 'run.json'), 'utf8'), readFileSync(join(dir, 'run.json'), 'utf8'));
});

test('interleaved jobs run in rounds, each round starting one lane later', () => {
  assert.deepEqual([1, 2, 3, 4].map((t) => rotation(['a', 'b', 'c'], t)), [['a', 'b', 'c'], ['b', 'c', 'a'], ['c', 'a', 'b'], ['a', 'b', 'c']]);
  assert.deepEqual(rotation([], 3), []);
  const groups = jobGroups([{ id: 'a', group: 'g' }, { id: 'b' }, { id: 'c', group: 'g' }, { id: 'd', group: 'h' }]);
  assert.deepEqual(groups.map((g) => g.map((j) => j.id)), [['a', 'c'], ['b'], ['d']]);
});

test('variants of an interleaved suite run side by side, trial by trial in rotation, and a failing variant ends alone', async () => {
  const cfg = structuredClone(config);
  const v = cfg.suites.faults.variants;
  cfg.suites.faults.interleave = 'variants';
  cfg.suites.faults.variants = { ok: {}, again: {}, dies: v.dies, 'no-start': v['no-start'], 'native-only-elsewhere': v['native-only-elsewhere'] };
  const jobs = planJobs(cfg, { scenario: ['short'] });
  assert.deepEqual(jobs.map((j) => j.group ?? null), ['faults.wrk.short', 'faults.wrk.short', 'faults.wrk.short', 'faults.wrk.short', null]);
  const { dir, run } = await runJobs(jobs, { config: cfg, out: out(), progress: false, seed: 1 });
  const byId = Object.fromEntries(run.jobs.map((j) => [j.id, j]));
  for (const id of ['faults.ok.wrk.short', 'faults.again.wrk.short']) {
    assert.equal(byId[id].status, 'ok', byId[id].reason);
    assert.equal(byId[id].group, 'faults.wrk.short');
    assert.equal(JSON.parse(readFileSync(join(dir, byId[id].docs.local), 'utf8')).trials, 2, `${id} ran all its trials while another variant failed`);
  }
  assert.equal(byId['faults.no-start.wrk.short'].status, 'failed');
  assert.match(byId['faults.no-start.wrk.short'].reason, /flaky\/server exited \(code 3\) before it was healthy/);
  assert.equal(byId['faults.dies.wrk.short'].status, 'failed');
  assert.match(byId['faults.dies.wrk.short'].reason, /flaky\/server \(local\) died (during|before) trial \d \(exit 7\)/);
  assert.equal(byId['faults.native-only-elsewhere.wrk.short'].status, 'skipped');
  assert.deepEqual(readdirSync(join(dir, 'docs', 'local')).sort(), ['faults.again.wrk.short.json', 'faults.ok.wrk.short.json']);
  // each trial's output is complete when its trial ends: round 1 goes ok, again; round 2 starts one lane later
  const ended = (id, t) => statSync(join(dir, 'raw', 'local', id, `trial-${t}.stdout.txt`)).mtimeMs;
  const order = [['faults.ok.wrk.short', 1], ['faults.again.wrk.short', 1], ['faults.again.wrk.short', 2], ['faults.ok.wrk.short', 2]].map(([id, t]) => ended(id, t));
  assert.deepEqual([...order].sort((a, b) => a - b), order, 'trials ran ok 1, again 1, again 2, ok 2');
  for (const id of ['faults.ok.wrk.short', 'faults.again.wrk.short', 'faults.dies.wrk.short']) {
    const pids = [...readFileSync(join(dir, 'raw', 'local', id, 'server.log'), 'utf8').matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
    assert.ok(pids.length >= 1, `${id} logged its pid`);
    for (const pid of pids) assert.equal(isAlive(pid), false, `${id}: subject pid ${pid} was stopped`);
  }
});

test('jobs of a tool that cannot be had are skipped with the reason, and the run goes on', async () => {
  const saved = process.env.BENCHLINE_WRK;
  process.env.BENCHLINE_WRK = '/nonexistent/wrk';
  try {
    const jobs = planJobs(config, { variant: ['ok'], scenario: ['short'] });
    const { run } = await runJobs(jobs, { config, out: out(), progress: false });
    assert.equal(run.jobs.length, 1);
    assert.equal(run.jobs[0].status, 'skipped');
    assert.equal(run.jobs[0].reason, 'wrk is not available on this machine: wrk: BENCHLINE_WRK points to /nonexistent/wrk, which does not exist; fix the path or unset BENCHLINE_WRK');
  } finally {
    if (saved === undefined) delete process.env.BENCHLINE_WRK; else process.env.BENCHLINE_WRK = saved;
  }
});

test('a pinned port that is already taken fails with a message naming the port', async () => {
  const holder = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => holder.once('listening', r));
  const { port } = holder.address();
  try {
    await assert.rejects(
      startSubject({ manifest: loadManifest(project, 'flaky'), runDir: out(), fixedPorts: { http: port } }),
      new RegExp(`port ${port} \\(http\\) for subject flaky is already in use on 127\\.0\\.0\\.1`),
    );
  } finally {
    holder.close();
  }
});

test('a process that cannot bind its port at any of the starts on fresh ports is said to listen on a fixed port, with the manifest to fix', async () => {
  const holder = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => holder.once('listening', r));
  const { port } = holder.address();
  const root = out();
  execFileSync('mkdir', ['-p', join(root, 'subjects', 'fixed')]);
  const bind = `import socket; s = socket.socket(); s.bind(("127.0.0.1", ${port})); s.listen()`;
  writeFileSync(join(root, 'subjects', 'fixed', 'subject.yaml'), `name: fixed\nports: [http]\nprocesses:\n  api:\n    command: ["python3", "-c", '${bind}']\n    health: { tcp: "127.0.0.1:\${port.http}", timeout: 10 }\n`);
  try {
    const manifest = loadManifest(root, 'fixed');
    await assert.rejects(startSubject({ manifest, runDir: out() }), (e) => {
      assert.match(e.message, /Address already in use/);
      assert.ok(e.message.endsWith(`(the port was taken at each of 3 starts, on ports chosen free each time: does the process listen on a fixed port? Write \${port.NAME} (a name under ports:) in its command or env in ${manifest.file} instead, so each start gets a free one)`), e.message);
      return true;
    });
  } finally {
    holder.close();
  }
});

/** The fixture project committed in a scratch repository (base), with a config edit after the commit (head). */
function abRepo() {
  const repo = out();
  cpSync(project, repo, { recursive: true });
  const g = (...a) => execFileSync('git', a, { cwd: repo, stdio: 'ignore' });
  g('init', '-q');
  g('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A');
  g('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base');
  const cfgText = readFileSync(join(repo, 'bench.config.yaml'), 'utf8').replaceAll('../../../loadtests', resolve('loadtests'));
  writeFileSync(join(repo, 'bench.config.yaml'), cfgText);
  return { repo, cfg: loadConfig(join(repo, 'bench.config.yaml')) };
}

/** An A/B run (base = the committed fixture project, head = it with a config edit) of the wrk job `short`. */
async function abRun(compareConfig, { warmup } = {}) {
  const { repo, cfg } = abRepo();
  Object.assign(cfg.compare, { rounds: { looks: [3, 4], weights: [0.5, 0.5] } }, compareConfig);
  const jobs = planJobs(cfg, { variant: ['ok'], scenario: ['short'] });
  if (warmup) for (const j of jobs) j.warmup = warmup;
  const { dir, run } = await runJobs(jobs, { config: cfg, base: 'HEAD', out: join(repo, 'results'), progress: false, order: 'abab' });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  assert.deepEqual(Object.keys(run.jobs[0].docs).sort(), ['base', 'head']);
  const [base, head] = ['base', 'head'].map((role) => JSON.parse(readFileSync(join(dir, run.jobs[0].docs[role]), 'utf8')));
  // when each trial's wrk finished: its stdout file is written at the end
  const ended = (role, tag = 'trial') => Array.from({ length: head.trials }, (_, i) => statSync(join(dir, 'raw', role, run.jobs[0].id, `${tag}-${i + 1}.stdout.txt`)).mtimeMs);
  const warmed = warmup ? { base: ended('base', 'warmup'), head: ended('head', 'warmup') } : undefined;
  return { repo, dir, run, base, head, ended: { base: ended('base'), head: ended('head') }, warmed };
}

test('a wrk job\'s A/B rounds run as duets: both sides\' trials at once, their CPU read together; compare.duet never runs them in turn', async () => {
  const duet = await abRun({ restart: 'round' }, { warmup: { duration: '1s' } });
  // fresh subjects every round, then the warm-ups of both sides at once as well
  for (let i = 0; i < duet.head.trials; i += 1) assert.ok(Math.abs(duet.warmed.head[i] - duet.warmed.base[i]) < 500, `round ${i + 1}: warm-ups ended ${duet.warmed.base[i]} and ${duet.warmed.head[i]}`);
  for (const doc of [duet.base, duet.head]) assert.equal(doc.duet, true);
  // wrk runs 1 s: trials of one round that ran at once end together, trials in turn a whole trial apart
  for (let i = 0; i < duet.head.trials; i += 1) {
    assert.ok(Math.abs(duet.ended.head[i] - duet.ended.base[i]) < 500, `round ${i + 1}: base ended ${duet.ended.base[i]}, head ${duet.ended.head[i]}`);
    const [b, h] = [duet.base.load[i], duet.head.load[i]];
    assert.deepEqual([h.seconds, h.tool, h.other], [b.seconds, b.tool, b.other], 'one reading of the machine for both sides');
  }
  // each side's own subject is read (a round on a loaded machine may see a subject get no CPU tick at all)
  for (const doc of [duet.base, duet.head]) assert.ok(doc.load.some((l) => l.subject > 0), JSON.stringify(doc.load));
  const turns = await abRun({ restart: 'round', duet: 'never' }, { warmup: { duration: '1s' } });
  for (const doc of [turns.base, turns.head]) assert.equal(doc.duet, undefined);
  for (let i = 0; i < turns.head.trials; i += 1) assert.ok(turns.warmed.head[i] - turns.warmed.base[i] > 800, `round ${i + 1} in turn: warm-ups ended ${turns.warmed.base[i]} then ${turns.warmed.head[i]}`);
  for (let i = 0; i < turns.head.trials; i += 1) assert.ok(turns.ended.head[i] - turns.ended.base[i] > 800, `round ${i + 1} in turn, base first: ${turns.ended.base[i]} then ${turns.ended.head[i]}`);
});

test('a job the budget stopped gets more rounds at the end of the run when the jobs after it left time over', async () => {
  const { repo, cfg } = abRepo();
  // no look can decide (a minimum effect nobody meets), fresh subjects every round, a run budget of 30 s for two jobs
  Object.assign(cfg.compare, { restart: 'round', minEffect: 0.00001, rounds: { looks: [3, 40], weights: [0.5, 0.5] }, budget: { job: 240, run: 30 } });
  const jobs = planJobs(cfg, { variant: ['ok', 'no-start'], scenario: ['short'] });
  assert.deepEqual(jobs.map((j) => j.variant), ['ok', 'no-start'], 'ok runs first, with half the budget; no-start fails at once');
  const lines = [];
  const write = process.stderr.write;
  process.stderr.write = (chunk, ...rest) => { lines.push(String(chunk)); return write.call(process.stderr, chunk, ...rest); };
  let result;
  try {
    result = await runJobs(jobs, { config: cfg, base: 'HEAD', out: join(repo, 'results'), progress: false, order: 'abab' });
  } finally {
    process.stderr.write = write;
  }
  const { dir, run } = result;
  const log = lines.join('');
  const first = Number(/faults\.ok\.wrk\.short: stopped after (\d+) rounds: time budget/.exec(log)?.[1]);
  assert.ok(first >= 3, `the first stop was for the budget, at or after the first look:\n${log}`);
  assert.match(log, new RegExp(`faults\\.ok\\.wrk\\.short: resumed after ${first} rounds: time left in the run's budget`));
  assert.ok(log.indexOf('resumed after') > log.indexOf('FAILED faults.no-start'), 'resumed after the later job ended');
  const said = [...log.matchAll(/~(\d+) s left/g)].map((m) => Number(m[1]));
  assert.ok(said.length && said.every((s) => s <= 30), `the time left is never said to be past the run's 30-s budget: ${said.join(', ')}`);
  const ok = run.jobs.find((j) => j.id === 'faults.ok.wrk.short');
  assert.equal(ok.status, 'ok');
  const head = JSON.parse(readFileSync(join(dir, ok.docs.head), 'utf8'));
  const base = JSON.parse(readFileSync(join(dir, ok.docs.base), 'utf8'));
  assert.ok(head.trials > first, `more rounds than the first stop (${first}): ${head.trials}`);
  assert.equal(base.trials, head.trials);
  assert.equal(head.instances, head.trials, 'a fresh subject for every round, the resumed ones too');
  assert.equal(head.sequential.stopped, 'budget');
});

test('with a base ref, base and head run interleaved from their own checkouts', async () => {
  const { repo, dir, run, base, head } = await abRun({ restart: 'auto' });
  assert.equal(base.run.role, 'base');
  assert.equal(head.run.role, 'head');
  assert.equal(base.run.commit, head.run.commit);
  assert.equal(head.run.dirty, true, 'the config edit after the commit makes head dirty');
  assert.equal(base.trials, head.trials, 'both sides ran the same rounds');
  assert.ok([3, 4].includes(head.trials), `stopped at a planned look (${head.trials} rounds)`);
  assert.deepEqual(head.sequential, { looks: [3, 4], weights: [0.5, 0.5], stopped: head.trials === 3 ? 'decided' : 'most rounds' });
  assert.deepEqual(head.judge, ['throughput', 'latency.p50', 'latency.p99', 'error_rate']);
  assert.equal(head.load.length, head.trials, 'every trial records the CPU it took');
  for (const l of head.load) assert.ok(l.seconds > 0.5 && l.tool > 0 && l.subject >= 0 && l.other >= 0, JSON.stringify(l));
  assert.equal(run.base.ref, 'HEAD');
  // restart: auto, and the subject starts in well under 5 s: fresh processes every round on both sides, all stopped
  for (const role of ['base', 'head']) {
    const doc = role === 'base' ? base : head;
    assert.equal(doc.instances, doc.trials, `${role}: one subject process per round`);
    const pids = new Set([...readFileSync(join(dir, 'raw', role, run.jobs[0].id, 'server.log'), 'utf8').matchAll(/pid (\d+)/g)].map((m) => Number(m[1])));
    assert.equal(pids.size, doc.trials, `${role}: ${[...pids].join(', ')}`);
    for (const pid of pids) assert.equal(isAlive(pid), false, `${role}: subject pid ${pid} was stopped`);
  }
  const worktrees = execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
  assert.equal(worktrees.length, 1, 'the base worktree is removed afterwards');
});

test('--base HEAD~1 past the start of the history says so, and in a shallow clone says to fetch the history, instead of fetching HEAD~1 by name', () => {
  const repo = out();
  const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'first');
  assert.throws(() => baseCommit(repo, 'HEAD~1'), { message: `--base HEAD~1: not a commit in ${repo} (HEAD has 1 commit in its history here, so HEAD~1 names none; commit the change to measure on top of it first)` });
  writeFileSync(join(repo, 'a.txt'), 'b\n');
  git(repo, 'commit', '-qam', 'second');
  assert.match(baseCommit(repo, 'HEAD~1'), /^[0-9a-f]{40}$/);
  const shallow = join(out(), 'shallow');
  git(repo, 'clone', '-q', '--depth', '1', `file://${repo}`, shallow);
  assert.throws(() => baseCommit(shallow, 'HEAD^'), { message: `--base HEAD^: not a commit in ${shallow} (HEAD has 1 commit in its history here: this clone is shallow; fetch its history first, e.g. git fetch --unshallow, or check out with fetch-depth: 0)` });
  assert.throws(() => baseCommit(repo, 'no-such-branch~1'), /\(fetch it first, e\.g\. git fetch origin no-such-branch, then give --base origin\/no-such-branch~1\)$/);
});

test('--base naming a commit a repository lacks says how to get it: fetch-depth: 0 in a shallow clone, a first commit in an empty repository, a repository at all', () => {
  const repo = out();
  const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  git(repo, 'init', '-q');
  assert.throws(() => baseCommit(repo, 'main'), { message: `--base main: not a commit in ${repo} (the repository has no commits yet: commit the project first, then measure a change committed on top of it)` });
  assert.throws(() => baseCommit(repo, 'HEAD~1'), /\(the repository has no commits yet: /);
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'first');
  const first = git(repo, 'rev-parse', 'HEAD');
  writeFileSync(join(repo, 'a.txt'), 'b\n');
  git(repo, 'commit', '-qam', 'second');
  // what a pull-request job checked out by actions/checkout's default (one commit) has: the base's full SHA is missing
  const shallow = join(out(), 'shallow');
  git(repo, 'clone', '-q', '--depth', '1', `file://${repo}`, shallow);
  assert.throws(() => baseCommit(shallow, first), { message: `--base ${first}: not a commit in ${shallow} (this clone is shallow, so older commits are not in it: fetch the history, git fetch --unshallow (in GitHub Actions: actions/checkout with fetch-depth: 0), or the ref, git fetch origin ${first})` });
  assert.throws(() => baseCommit(shallow, first.slice(0, 8)), /or the ref, git fetch origin BRANCH, a branch that holds it\)$/);
  // a CI checkout (actions/checkout, fetch-depth: 0) of a pull request: detached, the base branch only as origin/main
  const ci = join(out(), 'ci');
  git(repo, 'branch', '-M', 'main');
  git(repo, 'clone', '-q', `file://${repo}`, ci);
  git(ci, 'checkout', '-q', '--detach');
  git(ci, 'branch', '-q', '-D', 'main');
  assert.throws(() => baseCommit(ci, 'main'), { message: `--base main: not a commit in ${ci} (no branch or tag main here, but the remote-tracking branch origin/main is: give --base origin/main)` });
  assert.throws(() => baseCommit(ci, 'main~1'), /: give --base origin\/main~1\)$/);
  const plain = out();
  assert.throws(() => baseCommit(plain, 'main'), { message: `--base main: not a commit in ${plain} (this folder is in no git repository: --base checks a commit out of the project's repository, so run in a git checkout, or leave out --base)` });
});

test('--base with a short SHA that starts several commits says so and lists them, instead of saying to fetch it', () => {
  const repo = out();
  execFileSync('git', ['init', '-q'], { cwd: repo });
  // 700 commits in one git process (fast-import): some share their first four digits
  const stream = Array.from({ length: 700 }, (_, i) => `commit refs/heads/main\ncommitter t <t@example.invalid> ${1700000000 + i} +0000\ndata ${String(i).length}\n${i}\n`).join('');
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: stream });
  const shas = execFileSync('git', ['rev-list', 'main'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
  const prefix = shas.map((c) => c.slice(0, 4)).find((p, i, all) => all.indexOf(p) !== i);
  assert.ok(prefix, 'two commits share four digits');
  const [a, b] = shas.filter((c) => c.startsWith(prefix)).map((c) => c.slice(0, 7)).sort();
  assert.throws(() => baseCommit(repo, prefix), (e) => {
    assert.match(e.message, new RegExp(`^--base ${prefix}: more than one commit in \\S+ starts with it \\((${a}, ${b}|${b}, ${a})\\); give more of its digits$`));
    return true;
  });
});

/** A git repository in `repo` with one commit of `files` ({ name: text }); returns git(...args) run in it. */
function committedRepo(repo, files) {
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git('add', '-A');
  git('commit', '-qm', 'one');
  return git;
}

test('the base worktree is as readable as the head checkout, so a subject whose workers drop privileges (nginx as root) can serve its files', () => {
  const repo = tempDir('worktree-mode');
  chmodSync(repo, 0o755);
  committedRepo(repo, { 'index.html': 'hello\n' });
  const wt = addWorktree(repo, 'HEAD');
  try {
    // mkdtemp makes 0700: nginx's workers (user nobody) got 403 for every base file while head's were served
    assert.equal((statSync(wt.dir).mode & 0o777).toString(8), '755');
    assert.equal(readFileSync(join(wt.dir, 'index.html'), 'utf8'), 'hello\n');
  } finally {
    wt.remove();
  }
  assert.equal(existsSync(wt.dir), false, 'removed afterwards');
});

test('the base checkout runs none of the repository\'s git hooks, so a failing post-checkout hook (a linter, an install) does not stop the run', () => {
  const repo = out();
  committedRepo(repo, { 'a.txt': 'a\n' });
  const marker = join(repo, 'hook-ran');
  writeFileSync(join(repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\n# a developer's hook that fails\ntouch ${JSON.stringify(marker)}\nexit 1\n`, { mode: 0o755 });
  const wt = addWorktree(repo, 'HEAD');
  try {
    assert.equal(readFileSync(join(wt.dir, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(existsSync(marker), false, 'the hook did not run');
  } finally {
    wt.remove();
  }
});

test('a base worktree left by a run killed outright (kill -9) is removed by the next --base run, and one of a run still going is kept', () => {
  const repo = out();
  const git = committedRepo(repo, { 'a.txt': 'a\n' });
  const killed = spawnSync(process.execPath, ['--input-type=module', '-e', `import { addWorktree } from ${JSON.stringify(resolve('ci/runner.js'))}; console.log(addWorktree(${JSON.stringify(repo)}, 'HEAD').dir); process.kill(process.pid, 'SIGKILL');`], { encoding: 'utf8' });
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  const orphan = killed.stdout.trim();
  assert.equal(existsSync(orphan), true, 'the killed run left its worktree');
  const live = addWorktree(repo, 'HEAD');
  const next = addWorktree(repo, 'HEAD');
  try {
    const listed = git('worktree', 'list', '--porcelain').match(/^worktree .+$/gm).map((l) => l.slice('worktree '.length));
    assert.deepEqual(listed.sort(), [repo, live.dir, next.dir].sort());
    assert.equal(existsSync(orphan), false);
  } finally {
    live.remove();
    next.remove();
  }
  assert.equal(git('worktree', 'list', '--porcelain').match(/^worktree /gm).length, 1, 'a locked worktree is removed as any other');
});

test('a base worktree whose run was killed outright while git checked it out is removed by the next --base run', () => {
  const repo = out();
  const git = committedRepo(repo, { 'a.txt': 'a\n' });
  // a git whose "worktree add" ends with benchline killed (-9) the moment the checkout is done, before benchline can
  // do anything after it
  const bin = out();
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" worktree add "*) ${realGit} "$@"; kill -KILL $PPID; exit 0 ;; esac\nexec ${realGit} "$@"\n`, { mode: 0o755 });
  const killed = spawnSync(process.execPath, ['--input-type=module', '-e', `import { addWorktree } from ${JSON.stringify(resolve('ci/runner.js'))}; addWorktree(${JSON.stringify(repo)}, 'HEAD'); console.log('not killed');`], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 30000 });
  assert.equal(killed.signal, 'SIGKILL', killed.stdout + killed.stderr);
  const listed = () => git('worktree', 'list', '--porcelain').match(/^worktree .+$/gm).map((l) => l.slice('worktree '.length));
  const [orphan] = listed().filter((d) => d !== repo);
  assert.ok(orphan && existsSync(join(orphan, 'a.txt')), 'the killed run left a checked-out worktree');
  const next = addWorktree(repo, 'HEAD');
  try {
    assert.deepEqual(listed().sort(), [repo, next.dir].sort());
    assert.equal(existsSync(orphan), false, 'its folder is gone');
  } finally {
    next.remove();
  }
});

test('Ctrl-C during a run stops the subject it started and exits 130', async () => {
  const results = out();
  const child = spawn(process.execPath, [resolve('ci/cli.js'), 'run', '--config', join(project, 'bench.config.yaml'), '--variant', 'ok', '--scenario', 'hangs', '--out', results, '--no-progress'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let pid;
  for (let i = 0; i < 100 && !pid; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    const log = join(results, 'latest', 'raw', 'local', 'faults.ok.wrk.hangs', 'server.log');
    const runDirs = existsSync(results) ? readdirSync(results).filter((d) => d !== 'latest') : [];
    const file = runDirs.length ? join(results, runDirs[0], 'raw', 'local', 'faults.ok.wrk.hangs', 'server.log') : log;
    if (existsSync(file)) pid = Number(/pid (\d+)/.exec(readFileSync(file, 'utf8'))?.[1]) || undefined;
  }
  assert.ok(pid, 'the subject started');
  assert.equal(isAlive(pid), true);
  child.kill('SIGINT');
  const code = await new Promise((r) => child.on('exit', (c) => r(c)));
  assert.equal(code, 130);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(isAlive(pid), false, 'the subject was stopped');
});

test('Ctrl-C while git checks out the base (a terminal signals git as well) exits 130 with run.json marked interrupted, no stack trace and no worktree left', async () => {
  const repo = out();
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'step')]);
  writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n');
  writeFileSync(join(repo, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true", runs: 2, warmup: 0 } }\n');
  writeFileSync(join(repo, '.gitignore'), 'results/\n');
  baseAndHead(repo, () => writeFileSync(join(repo, 'README.md'), 'a change\n'));
  // a git that, asked to add a worktree, signals its whole process group as Ctrl-C in a terminal does, then is the real git
  const bin = out();
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\n# git, but "worktree add" first gets the Ctrl-C a terminal sends its foreground group\ncase " $* " in *" worktree add "*) kill -INT 0 ;; esac\nexec ${realGit} "$@"\n`, { mode: 0o755 });
  const temp = out();
  const results = join(repo, 'results');
  const child = spawn(process.execPath, [CLI, 'run', '--config', join(repo, 'bench.config.yaml'), '--base', 'HEAD~1', '--out', results, '--no-progress'], { cwd: repo, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TMPDIR: temp } });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise((r) => child.on('exit', (c, sig) => r(c ?? sig)));
  assert.equal(code, 130, stderr);
  assert.doesNotMatch(stderr, /    at |Command failed/, 'no stack trace');
  assert.equal(execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo, encoding: 'utf8' }).match(/^worktree /gm).length, 1, 'no base worktree registered');
  assert.deepEqual(readdirSync(temp).filter((f) => f.startsWith('benchline-base-')), [], 'no checkout folder left');
  const run = JSON.parse(readFileSync(join(results, 'latest', 'run.json'), 'utf8'));
  assert.equal(run.status, 'interrupted');
  assert.equal(run.interrupted, 'SIGINT');
  assert.equal(run.base.ref, 'HEAD~1');
  assert.deepEqual(run.jobs.map((j) => [j.id, j.status, j.reason]), [['cli.only.hyperfine.s', 'interrupted', 'stopped by SIGINT before its first trial ended (of 1)']]);
});

test('under --base a hyperfine job runs in each side\'s checkout, with ${dir}, ${run}, ${port.NAME} and ${tool.NAME} filled per side', async () => {
  const repo = out();
  const step = (side) => `#!/bin/sh\n# records which checkout's binary ran, from where, with which port\necho "${side} $(pwd) $2" >> "$1"\n`;
  execFileSync('mkdir', ['-p', join(repo, 'bin'), join(repo, 'subjects', 'step')]);
  writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nports: [http]\nprocesses: {}\n');
  writeFileSync(join(repo, 'bench.config.yaml'), [
    'version: 1',
    'defaults: { suites: [cli], profile: quick }',
    'profiles: { quick: { trials: 2 } }',
    'suites:',
    '  cli:',
    '    subject: step',
    '    variants: { only: {} }',
    '    jobs:',
    '      - tool: hyperfine',
    '        scenario: step',
    '        trials: 2',
    '        params:',
    '          commands: ["./bin/step ${run}/cwd.txt ${port.http}", "${dir}/bin/step ${run}/dir.txt ${port.http}", "${tool.hyperfine} --version"]',
    '          names: [relative, dir, tool]',
    '          runs: 2',
    '          warmup: 0',
    '',
  ].join('\n'));
  writeFileSync(join(repo, 'bin', 'step'), step('base'), { mode: 0o755 });
  baseAndHead(repo, () => writeFileSync(join(repo, 'bin', 'step'), step('head'), { mode: 0o755 }));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { dir, run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  for (const role of ['base', 'head']) {
    for (const file of ['cwd.txt', 'dir.txt']) {
      const lines = readFileSync(join(dir, 'raw', role, 'cli.only.hyperfine.step', file), 'utf8').trim().split('\n');
      assert.equal(lines.length, 4, `${role} ${file}: 2 trials x 2 runs`);
      for (const line of lines) {
        const [ran, cwd, port] = line.split(' ');
        assert.equal(ran, role, `${role} side ran its own bin/step (${file})`);
        assert.equal(cwd === repo, role === 'head', `${role} side ran in its own checkout: ${cwd}`);
        assert.match(port, /^\d+$/);
      }
    }
    const doc = JSON.parse(readFileSync(join(dir, run.jobs[0].docs[role]), 'utf8'));
    assert.ok(doc.metrics.some((m) => m.case === 'tool' && m.name === 'time.mean'), 'the ${tool.hyperfine} command ran');
    assert.match(doc.params.commands, /\$\{dir\}\/bin\/step/, 'the result keeps the params as configured, not one side\'s paths');
  }
});

test('under --base a hyperfine script: job whose args hold ${dir} times one case on both sides, so they are compared', async () => {
  const repo = scratchProject('{ tool: hyperfine, scenario: s, script: scripts/run.sh, trials: 2, params: { args: "${dir}", runs: 2, warmup: 0 } }', { 'scripts/run.sh': { text: '#!/bin/sh\ntest -d "$1"\n', mode: 0o755 } }, { trials: 2 });
  baseAndHead(repo, () => writeFileSync(join(repo, 'README.md'), 'head\n'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { dir, run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const docs = loadResultsDir(dir).byRole;
  for (const role of ['base', 'head']) assert.deepEqual([...new Set(docs[role][0].metrics.map((m) => m.case))], ['scripts/run.sh ${dir}'], role);
  const { unmatched } = compare(docs.base, docs.head);
  assert.deepEqual(unmatched, []);
});

test('under --base the base side\'s result documents name the base ref and commit, not the detached HEAD of its worktree or the head branch', async () => {
  const repo = scratchProject('{ tool: hyperfine, scenario: s, trials: 1, params: { commands: "true", runs: 2, warmup: 0 } }');
  baseAndHead(repo, () => writeFileSync(join(repo, 'README.md'), 'head\n'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const prev = process.env.GITHUB_HEAD_REF;
  process.env.GITHUB_HEAD_REF = 'feature/slow-greeter'; // a pull request's branch, as GitHub sets it
  try {
    const { dir, run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false });
    assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
    const docs = loadResultsDir(dir).byRole;
    const commit = (rev) => execFileSync('git', ['rev-parse', rev], { cwd: repo, encoding: 'utf8' }).trim();
    assert.deepEqual([docs.base[0].run.ref, docs.base[0].run.commit], ['HEAD~1', commit('HEAD~1')]);
    assert.deepEqual([docs.head[0].run.ref, docs.head[0].run.commit], ['feature/slow-greeter', commit('HEAD')]);
  } finally {
    if (prev === undefined) delete process.env.GITHUB_HEAD_REF;
    else process.env.GITHUB_HEAD_REF = prev;
  }
});

test('under --base a hyperfine command that fails at once on head (ignoreFailure keeps its runs) is judged a regression in errors, not only a faster time', async () => {
  const repo = scratchProject('{ tool: hyperfine, scenario: s, trials: 10, params: { commands: "${dir}/bin/app", names: app, ignoreFailure: true, runs: 2, warmup: 0 } }', { 'bin/app': { text: '#!/bin/sh\nsleep 0.02\n', mode: 0o755 } }, { trials: 10 });
  baseAndHead(repo, () => writeFileSync(join(repo, 'bin', 'app'), '#!/bin/sh\nexit 1\n', { mode: 0o755 }));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { dir, run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  assert.ok(Number.isInteger(run.seed) && run.seed >= 1, `the round order's seed is kept in run.json: ${run.seed}`);
  assert.equal(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).seed, run.seed);
  const docs = loadResultsDir(dir).byRole;
  const errors = compare(docs.base, docs.head).comparisons.find((c) => c.metric === 'errors');
  assert.equal(errors.judged, true);
  assert.equal(errors.verdict, 'regression', JSON.stringify(errors));
});

test('a hyperfine job beside a running subject is never called the load tool\'s bottleneck: the core it keeps busy is its benchmark', async () => {
  const repo = out();
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'web')]);
  const server = "require('http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";
  writeFileSync(join(repo, 'subjects', 'web', 'subject.yaml'), [
    'name: web',
    'ports: [http]',
    'processes:',
    '  api:',
    `    command: ["${process.execPath}", "-e", "${server}"]`,
    '    env: { PORT: "${port.http}" }',
    '    health: { http: "http://127.0.0.1:${port.http}/", timeout: 20 }',
    '',
  ].join('\n'));
  // a command that keeps one core busy for its whole run
  const burn = `${process.execPath} -e "const t = Date.now(); while (Date.now() - t < 300);"`;
  writeFileSync(join(repo, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 2 } }\nsuites:\n  cli:\n    subject: web\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: burn, params: { commands: '${burn}', names: burn, runs: 2, warmup: 0 } }\n`);
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { dir, run } = await runJobs(planJobs(cfg), { config: cfg, out: join(repo, 'results'), progress: false });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const doc = JSON.parse(readFileSync(join(dir, run.jobs[0].docs.local), 'utf8'));
  assert.equal(doc.load.length, 2, 'the CPU of each trial was read');
  assert.ok(doc.load.every((l) => l.toolCores === undefined), JSON.stringify(doc.load));
  assert.ok(!(doc.notes || []).some((n) => /bottleneck/.test(n)), (doc.notes || []).join('\n'));
});

test('a --base run whose base has no such subject measures head only and records which subject and ref were missing', async () => {
  const repo = out();
  writeFileSync(join(repo, 'README.md'), 'before the subject\n');
  baseAndHead(repo, () => {
    execFileSync('mkdir', ['-p', join(repo, 'subjects', 'step')]);
    writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n');
    writeFileSync(join(repo, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true", runs: 2, warmup: 0 } }\n');
  });
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  assert.deepEqual(Object.keys(run.jobs[0].docs), ['head']);
  assert.deepEqual(run.jobs[0].headOnly, { subject: 'step', ref: 'HEAD~1' });
});

test('a --base run of a project in a subfolder of its repository (a monorepo) measures the base side from the same subfolder of the base commit', async () => {
  const repo = out();
  const project = join(repo, 'services', 'bench');
  execFileSync('mkdir', ['-p', join(project, 'subjects', 'step')]);
  writeFileSync(join(project, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n');
  writeFileSync(join(project, 'hello.sh'), '#!/bin/sh\necho base\n', { mode: 0o755 });
  writeFileSync(join(project, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "${dir}/hello.sh", runs: 2, warmup: 0 } }\n');
  baseAndHead(repo, () => writeFileSync(join(project, 'hello.sh'), '#!/bin/sh\necho head\n'));
  const cfg = loadConfig(join(project, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(project, 'results'), progress: false, order: 'abab' });
  // the base side looked for subjects/ at the repository's root, found none, and said the base had no such subject
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  assert.equal(run.jobs[0].headOnly, undefined);
  assert.deepEqual(Object.keys(run.jobs[0].docs).sort(), ['base', 'head']);
});

test('a subject process that fails only on the base side says the base is a fresh worktree without the files git ignores, and where to make them', async () => {
  const repo = out();
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'svc')]);
  // the server needs a file an install makes and git ignores (node_modules/ in a real project)
  writeFileSync(join(repo, 'subjects', 'svc', 'server.js'), "// svc: listens on $PORT once its installed file is there.\nrequire('./installed.js');\nrequire('node:net').createServer().listen(Number(process.env.PORT), '127.0.0.1');\n");
  writeFileSync(join(repo, 'subjects', 'svc', 'installed.js'), '');
  writeFileSync(join(repo, '.gitignore'), 'installed.js\nresults/\n');
  writeFileSync(join(repo, 'subjects', 'svc', 'subject.yaml'), 'name: svc\nports: [tcp]\nprocesses:\n  server:\n    command: ["node", "server.js"]\n    env: { PORT: "${port.tcp}" }\n    health: { tcp: "127.0.0.1:${port.tcp}", timeout: 10 }\n');
  writeFileSync(join(repo, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [svc], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  svc:\n    subject: svc\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true", runs: 2, warmup: 0 } }\n');
  baseAndHead(repo, () => writeFileSync(join(repo, 'README.md'), 'a change\n'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  assert.equal(run.jobs[0].status, 'failed');
  assert.match(run.jobs[0].reason, /subject process svc\/server exited \(code 1\) before it was healthy/);
  assert.match(run.jobs[0].reason, /base side: \S+ is a fresh git worktree of HEAD~1 holding only the files git tracks; .*node_modules\/.* make it in subjects\/svc\/subject\.yaml build: steps/);
});

test('a base that cannot build fails its jobs with a message led by the base ref that names the manifest as REF:PATH, not the removed worktree', async () => {
  const repo = out();
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'step')]);
  writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\nbuild:\n  - ["false"]\n');
  writeFileSync(join(repo, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: a, params: { commands: "true", runs: 2, warmup: 0 } }\n      - { tool: hyperfine, scenario: b, params: { commands: "true", runs: 2, warmup: 0 } }\n');
  baseAndHead(repo, () => writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  for (const job of run.jobs) {
    assert.equal(job.status, 'failed');
    // both jobs share the one failed build: each says it once
    assert.equal(job.reason, 'base (HEAD~1; HEAD~1:PATH is a file of the base commit, git show HEAD~1:PATH prints it): building subject step failed: HEAD~1:subjects/step/subject.yaml build step 1 (false, run in HEAD~1:subjects/step) exited 1; its last lines:');
  }
});

test('a hyperfine command naming ${dir} runs in a --base run of a repository whose path holds a space, on both sides', async () => {
  const repo = join(out(), 'my project');
  const step = '#!/bin/sh\n# records that it ran\necho ran >> "$1"\n';
  scratchProject('{ tool: hyperfine, scenario: s, params: { commands: "${dir}/bin/step ${run}/ran.txt", names: step, runs: 2, warmup: 0 } }', { 'bin/step': { text: step, mode: 0o755 }, '.gitignore': 'results/\n' }, { repo });
  baseAndHead(repo, () => writeFileSync(join(repo, 'README.md'), 'a change\n'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run, dir } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, order: 'abab' });
  // the shell split /tmp/.../my project/bin/step at the space: exit 127 on head, whose checkout is the project folder
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  for (const role of ['base', 'head']) assert.match(readFileSync(join(dir, 'raw', role, run.jobs[0].id, 'ran.txt'), 'utf8'), /^(ran\n)+$/, role);
});

test('in a shell command line a path placeholder outside quotes is quoted as one word, and one inside quotes is left as written', () => {
  const vars = { dir: '/tmp/my project', run: '/r', shell: true };
  assert.equal(substitute('${dir}/bin/app --out ${run}/x', vars, 'w'), "'/tmp/my project'/bin/app --out /r/x");
  assert.equal(substitute('"${dir}/bin/app" \'${dir}\'', vars, 'w'), '"/tmp/my project/bin/app" \'/tmp/my project\'');
  assert.equal(substitute('${dir}/bin/app', { ...vars, shell: false }, 'w'), '/tmp/my project/bin/app', 'an argv word is never quoted');
});

test('a hyperfine command the base does not have yet, kept by ignoreFailure, gets no time verdict: every base run failed, so base timed a failure', async () => {
  const repo = scratchProject('{ tool: hyperfine, scenario: s, params: { commands: "${dir}/bin/app", names: app, ignoreFailure: true, runs: 2, warmup: 0 } }', { '.gitignore': 'results/\n' });
  baseAndHead(repo, () => {
    execFileSync('mkdir', ['-p', join(repo, 'bin')]);
    writeFileSync(join(repo, 'bin', 'app'), '#!/bin/sh\nsleep 0.01\n', { mode: 0o755 });
  });
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run, dir } = await runJobs(planJobs(cfg), { config: cfg, base: 'HEAD~1', out: join(repo, 'results'), progress: false, budget: 20 });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const docs = loadResultsDir(dir).byRole;
  const { comparisons } = compare(docs.base, docs.head);
  // the base's exit 127 took no time: head's 10 ms sleep was called a regression of thousands of percent
  const time = comparisons.find((c) => c.metric === 'time.mean');
  assert.equal(time.verdict, 'inconclusive', JSON.stringify(time));
  assert.equal(time.reason, 'one side failed throughout (every base run exited non-zero, in every trial), so its figures are of failures, not of what the other side ran; not judged');
});

/**
 * A scratch project: a subject `step` that starts nothing, `files` (path -> text, or { text, mode }) and a config of one
 * job (YAML flow text) in suite `cli` with `trials` a side. Returns the project folder.
 */
function scratchProject(job, files = {}, { trials = 1, repo = out() } = {}) {
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'step')]);
  writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n');
  for (const [path, file] of Object.entries(files)) {
    execFileSync('mkdir', ['-p', dirname(join(repo, path))]);
    writeFileSync(join(repo, path), file.text ?? file, file.mode ? { mode: file.mode } : undefined);
  }
  writeFileSync(join(repo, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: ${trials} } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - ${job}\n`);
  return repo;
}

/** git in a scratch project, committing as a test user. */
const gitIn = (repo) => (...a) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: repo, stdio: 'ignore' });
/** Makes `repo` a git repository of two commits for --base HEAD~1: "base" of what it holds, "head" of what toHead() changes. */
function baseAndHead(repo, toHead) {
  const g = gitIn(repo);
  g('init', '-q');
  g('add', '-A');
  g('commit', '-qm', 'base');
  toHead();
  g('add', '-A');
  g('commit', '-qm', 'head');
}

/** Runs scratchProject's job; returns the run (its folder as run.dir, the project as run.repo). */
async function runScratchJob(job, files = {}) {
  const repo = scratchProject(job, files);
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run, dir } = await runJobs(planJobs(cfg), { config: cfg, out: join(repo, 'results'), progress: false });
  return Object.defineProperties(run, { dir: { value: dir }, repo: { value: repo } }); // the results folder, beside the run
}

/** Runs one hyperfine job with these params (YAML flow text) on a subject that starts nothing (runScratchJob). */
const runHyperfineJob = (params) => runScratchJob(`{ tool: hyperfine, scenario: s, params: ${params} }`);

test('a script the benchline package ships, named as in benchline\'s own repository (loadtests/wrk/json.lua) from a project that installed the package, is refused with the path it has there', () => {
  const repo = scratchProject('{ tool: wrk, scenario: s, script: loadtests/wrk/json.lua, params: { duration: 1s } }');
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const shipped = relative(repo, resolve(dirname(CLI), '..', 'loadtests/wrk/json.lua'));
  assert.throws(() => planJobs(cfg), { message: `bench.config.yaml suites.cli job wrk/s: script loadtests/wrk/json.lua does not exist (script: paths are relative to the project root, ${repo}); the benchline package ships it: script: ${shipped}` });
});

test('a job whose script or subject does not exist is refused when the run is planned, naming the config, the job or suite, the project root and the name it nearly spells', () => {
  const repo = scratchProject('{ tool: hyperfine, scenario: s, script: loadtests/start-wrok.sh, params: { args: x, runs: 1 } }', { 'loadtests/start-work.sh': '#!/bin/sh\n' });
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  assert.throws(() => planJobs(cfg), { message: `bench.config.yaml suites.cli job hyperfine/s: script loadtests/start-wrok.sh does not exist (script: paths are relative to the project root, ${repo}); did you mean loadtests/start-work.sh?` });
  // the matrix CI plans from it would hold a job that cannot run: refused there too
  const plan = spawnSync(process.execPath, [CLI, 'plan', '--config', join(repo, 'bench.config.yaml')], { cwd: repo, encoding: 'utf8' });
  assert.equal(plan.status, 2, plan.stdout);
  assert.match(plan.stderr, /script loadtests\/start-wrok\.sh does not exist .*did you mean loadtests\/start-work\.sh\?/);
  writeFileSync(join(repo, 'bench.config.yaml'), readFileSync(join(repo, 'bench.config.yaml'), 'utf8').replace('subject: step', 'subject: stpe').replace('start-wrok', 'start-work'));
  assert.throws(() => planJobs(loadConfig(join(repo, 'bench.config.yaml'))), { message: 'bench.config.yaml suites.cli: subject "stpe" has no subjects/stpe/subject.yaml (each subject is a folder under subjects/ with a subject.yaml, docs/config.md); did you mean step?' });
});

test('a job whose script is a folder, a device or a FIFO is refused when the run is planned, naming the config, the job and the fix', () => {
  const repo = scratchProject('{ tool: wrk, scenario: s, script: loadtests/wrk, params: { duration: 1s } }', { 'loadtests/wrk/json.lua': '-- a script\n' });
  const plan = (script) => planJobs(loadConfig(writeConfig(repo, script)));
  assert.throws(() => plan('loadtests/wrk'), { message: 'bench.config.yaml suites.cli job wrk/s: script loadtests/wrk is a folder, not a file; point script: at the script file itself' });
  assert.throws(() => plan('/dev/zero'), { message: 'bench.config.yaml suites.cli job wrk/s: script /dev/zero is a device, not a file; point script: at the script file itself' });
  execFileSync('mkfifo', [join(repo, 'loadtests', 'pipe.lua')]);
  assert.throws(() => plan('loadtests/pipe.lua'), /script loadtests\/pipe\.lua is a FIFO \(named pipe\), not a file/);
  assert.equal(plan('loadtests/wrk/json.lua').length, 1);
  const cli = spawnSync(process.execPath, [CLI, 'plan', '--config', writeConfig(repo, 'loadtests/wrk')], { cwd: repo, encoding: 'utf8' });
  assert.equal(cli.status, 2, cli.stdout);
  assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
});

/** Sets the script: of scratchProject's job; returns the config file. */
function writeConfig(repo, script) {
  const file = join(repo, 'bench.config.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/script: [^,]+,/, `script: ${script},`));
  return file;
}

test('a wrk job whose script does not load fails its trial quoting wrk\'s Lua error, and leaves no document of wrk\'s plain-GET run', async () => {
  const repo = out();
  cpSync(project, repo, { recursive: true });
  writeFileSync(join(repo, 'broken.lua'), 'request = function( return "x" end\n');
  writeFileSync(join(repo, 'bench.config.yaml'), readFileSync(join(repo, 'bench.config.yaml'), 'utf8').replaceAll('../../../loadtests/wrk/json.lua', 'broken.lua'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(cfg, { variant: ['ok'], scenario: ['short'], trials: 1 }), { config: cfg, out: join(repo, 'results'), progress: false });
  assert.equal(run.jobs[0].status, 'failed');
  assert.equal(run.jobs[0].docs, undefined);
  assert.match(run.jobs[0].reason, /^wrk \(trial 1, local\): wrk could not load the job's script \S*broken\.lua and ran without it \(plain GET requests, not what the script defines\), so this trial is not kept; wrk said: "\S*broken\.lua:1: <name> or '\.\.\.' expected near 'return'"/);
});

test('a job param with an unknown placeholder fails the job naming the config, the job and the placeholder', async () => {
  const run = await runHyperfineJob('{ commands: "${HOME}/x", runs: 1 }');
  assert.equal(run.jobs[0].status, 'failed');
  assert.match(run.jobs[0].reason, /bench\.config\.yaml suites\.cli job hyperfine\/s params: unknown placeholder \$\{HOME\}/);
});

test('a hyperfine job without commands, or with a param no command line takes, is refused when the run is planned, naming the config, the job and what to fix; a run handed such a job fails it the same way', async () => {
  const repo = out();
  execFileSync('mkdir', ['-p', join(repo, 'subjects', 'step')]);
  writeFileSync(join(repo, 'subjects', 'step', 'subject.yaml'), 'name: step\nprocesses: {}\n');
  const config = (params) => `version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: step\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: ${params} }\n`;
  writeFileSync(join(repo, 'bench.config.yaml'), config('{ runs: 2 }'));
  assert.throws(() => planJobs(loadConfig(join(repo, 'bench.config.yaml'))), /bench\.config\.yaml: suites\.cli job hyperfine\/s \(variant only\): hyperfine needs params\.commands \(one command or a list\), or a script: to time/);
  writeFileSync(join(repo, 'bench.config.yaml'), config('{ commands: [a, b], names: [one] }'));
  assert.throws(() => planJobs(loadConfig(join(repo, 'bench.config.yaml'))), /hyperfine: 1 names for 2 commands; give one name per command/);
  writeFileSync(join(repo, 'bench.config.yaml'), config('{ commands: "true", runs: -1 }'));
  assert.throws(() => planJobs(loadConfig(join(repo, 'bench.config.yaml'))), { message: `${join(repo, 'bench.config.yaml')}: suites.cli job hyperfine/s (variant only): hyperfine: param runs must be a whole number from 1 to 2147483647 in plain digits, got -1; fix the job's params (docs/config.md)` });
  // the runner checks what it is handed too (a matrix entry planned by another version)
  writeFileSync(join(repo, 'bench.config.yaml'), config('{ commands: "true", runs: 2 }'));
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  const jobs = planJobs(cfg);
  jobs[0].params.runs = -1;
  const { run } = await runJobs(jobs, { config: cfg, out: join(repo, 'results'), progress: false });
  assert.equal(run.jobs[0].status, 'failed');
  assert.equal(run.jobs[0].reason, 'bench.config.yaml suites.cli job hyperfine/s params: hyperfine: param runs must be a whole number from 1 to 2147483647 in plain digits, got -1');
});

test('a hyperfine command that exits non-zero fails its job naming the command, the job in the config and ignoreFailure, not as unreadable output', async () => {
  const run = await runHyperfineJob('{ commands: ["true", "exit 3"], names: [fine, broken], runs: 2, warmup: 0 }');
  assert.equal(run.jobs[0].status, 'failed');
  assert.match(run.jobs[0].reason, /^hyperfine \(trial 1, local\): the command "broken" exited with code 3, so hyperfine stopped .*set ignoreFailure: true in the job's params .* \(bench\.config\.yaml suites\.cli job hyperfine\/s params\)$/);
  assert.doesNotMatch(run.jobs[0].reason, /not valid/);
});

test('a hyperfine job with one prepare command per command runs each before its own command, not all joined into one', async () => {
  const run = await runHyperfineJob('{ commands: ["cat ${run}/a.txt", "cat ${run}/b.txt"], prepare: ["echo a > ${run}/a.txt", "echo b > ${run}/b.txt"], names: [a, b], runs: 2, warmup: 0 }');
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
});

test('a name in a job\'s judge list that matches none of its metrics is named in the result\'s notes with the metric it nearly spells', async () => {
  const run = await runHyperfineJob('{ commands: "sleep 0.01", runs: 2, warmup: 0 }, judge: [time.mean, time.maen, errors]');
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const doc = loadResultsDir(run.dir).byRole.local[0];
  assert.deepEqual(doc.judge, ['time.mean', 'time.maen', 'errors']);
  assert.deepEqual(doc.notes, ['judge names "time.maen" (did you mean "time.mean"?), which no metric of this job matches, so nothing is judged for it; its metrics: time.mean, time.stdev, time.median, time.min, time.max, time.user, time.system, errors']);
});

test('a hyperfine parameterList written as { name: [values] }, as docs/config.md shows it, is run and kept in the result as "name=values"', async () => {
  const run = await runHyperfineJob('{ commands: "sleep 0.00{t}", parameterList: { t: [1, 2] }, names: "t{t}", runs: 2, warmup: 0 }');
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const doc = loadResultsDir(run.dir).byRole.local[0];
  assert.deepEqual([...new Set(doc.metrics.map((m) => m.case))], ['t1', 't2']);
  assert.equal(doc.params.parameterList, 't=1,2');
  assert.deepEqual(resultProblems(doc), []);
});

test("a k6 script without handleSummary is read from k6's --summary-export, with a note naming BENCHLINE_SUMMARY and an import of the helpers that works from the script", async () => {
  // a custom Trend whose name says nothing of time: the export format cannot tell it is one
  const run = await runScratchJob('{ tool: k6, scenario: bare, script: loadtests/no-summary.js }', {
    'loadtests/no-summary.js': "// A script without handleSummary.\nimport { Trend } from 'k6/metrics';\nconst step = new Trend('step', true);\nexport const options = { iterations: 3 };\nexport default function () { step.add(2); }\n",
  });
  const { repo, dir } = run;
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const doc = loadResultsDir(dir).byRole.local[0];
  assert.equal(doc.metrics.find((m) => m.name === 'iterations').value, 3);
  assert.equal(doc.metrics.find((m) => m.name === 'step.p50').unit, 'count', 'the export format has no types: a Trend not named as a time is a count');
  const note = doc.notes.find((n) => n.includes('--summary-export'));
  assert.match(note, /^k6: the script wrote no summary to __ENV\.BENCHLINE_SUMMARY, so benchline read k6's --summary-export, which has no metric types/);
  // the import it suggests works from where the script is, as written, and brings the full summary (the Trend is a time)
  const from = /export \{ handleSummary \} from '([^']+)'/.exec(note)[1];
  assert.ok(from.startsWith('../'), from);
  writeFileSync(join(repo, 'loadtests', 'no-summary.js'), `// A script that takes handleSummary from benchline's helpers.\nimport { Trend } from 'k6/metrics';\nconst step = new Trend('step', true);\nexport const options = { iterations: 3 };\nexport default function () { step.add(2); }\nexport { handleSummary } from '${from}';\n`);
  const again = await runJobs(planJobs(cfg), { config: cfg, out: join(repo, 'results'), progress: false });
  assert.equal(again.run.jobs[0].status, 'ok', again.run.jobs[0].reason);
  const full = loadResultsDir(again.dir).byRole.local[0];
  assert.equal(full.metrics.find((m) => m.name === 'step.p50').unit, 'ns');
  assert.ok(!(full.notes || []).some((n) => n.includes('--summary-export')), JSON.stringify(full.notes));
});

test('a k6 job param that nearly spells a variable its script reads is refused when the run is planned, naming the config, the job and the variable', () => {
  const repo = scratchProject('{ tool: k6, scenario: typo, script: loadtests/shop.js, params: { rate: 5, durtion: 2s } }', {
    'loadtests/shop.js': "// Reads RATE and DURATION.\nexport const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), duration: __ENV.DURATION || '10s', preAllocatedVUs: 1 } } };\nexport default function () {}\n",
  });
  const cfg = loadConfig(join(repo, 'bench.config.yaml'));
  assert.throws(() => planJobs(cfg), /bench\.config\.yaml: suites\.cli job k6\/typo \(variant only\): k6: param durtion reaches the script as __ENV\.DURTION, which neither loadtests\/shop\.js nor what it imports reads \(did you mean duration, read as DURATION\?\)/);
});

test('a k6 script k6 cannot load fails its job with what k6 said (the syntax error and its line) and which script to fix', async () => {
  const run = await runScratchJob('{ tool: k6, scenario: broken, script: loadtests/broken.js }', {
    'loadtests/broken.js': "// A script saved half-edited.\nexport const options = { iterations: 1 };\nexport default function () {\n  const x = ;\n}\n",
  });
  assert.equal(run.jobs[0].status, 'failed');
  assert.match(run.jobs[0].reason, /^k6 wrote no output file \(trial 1, exit 107\): k6 stopped before its summary: the script threw \(a syntax error/);
  assert.match(run.jobs[0].reason, /k6 said: "Line 4:13 Unexpected token ;[^"]*"\. Fix the script \S*loadtests\/broken\.js \(it fails the same way under `k6 run`\)$/);
});

test('a k6 job\'s own params reach the adapter in a run: contains, better, trends and k6Scenario change the result as docs/config.md says', async () => {
  // no handleSummary: the export format, where only the job param contains says that a Trend named step is a time
  const run = await runScratchJob('{ tool: k6, scenario: params, script: loadtests/params.js, params: { contains: "step=time", better: "hits=lower", trends: [absent_metric], k6Scenario: nosuch } }', {
    'loadtests/params.js': "// A script without handleSummary, with a Trend and a Counter.\nimport { Counter, Trend } from 'k6/metrics';\nconst step = new Trend('step', true);\nconst hits = new Counter('hits');\nexport const options = { iterations: 3 };\nexport default function () { step.add(2); hits.add(1); }\n",
  });
  assert.equal(run.jobs[0].status, 'ok', run.jobs[0].reason);
  const doc = loadResultsDir(run.dir).byRole.local[0];
  const m = (n) => doc.metrics.find((x) => x.name === n);
  assert.deepEqual([m('step.p50').unit, m('step.p50').value], ['ns', 2e6], 'contains: step=time');
  assert.deepEqual([m('hits').value, m('hits').better], [3, 'lower'], 'better: hits=lower');
  assert.ok(doc.notes.includes('k6 metric absent_metric (listed in trends) is not in the summary'), JSON.stringify(doc.notes));
  assert.ok(doc.notes.some((n) => n.startsWith('k6Scenario is nosuch, but the summary holds no metric of scenario nosuch')), JSON.stringify(doc.notes));
});

// Runs planned jobs: starts subjects, runs tool trials (base and head interleaved), writes raw files and results.
import { spawn, execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { adapterFor, ADAPTERS } from './adapters/index.js';
import { buildResult } from './result.js';
import { newRunId, runBlock, runnerInfo, commitInfo, triggerInfo } from './context.js';
import { isRootOrHome, makeDirs, writeJsonAtomic } from './fsutil.js';
import { makeProgress } from './progress.js';
import { UserError, SkipJob } from './errors.js';
import { unreadable } from './adapters/errors.js';
import { ensureTools, versionOf } from './tools.js';
import { toolsFor, jobGroups, expandParams, missingScript } from './plan.js';
import { loadManifest, toolsOfManifest, buildSubject, startSubject, logTail, LIVE, stopAllNow, spawnLogged, stopProcess, toolPath } from './subjects.js';
import { SIGNALS, onFirstSignal, sayOnStop, signalExit } from './live.js';
import { rng } from './stats.js';
import { cpuSnapshot, cpuSince } from './cpu.js';
import { usePinning, pinned, toolCoreCount } from './cpuset.js';
import { MAX_OTHER_GAP, MIN_TRIALS, disturbedRounds, judgeMissNote, undecided } from './compare.js';
import { ROUNDS, BUDGET } from './config.js';

/**
 * Order of the roles within one round. `random` (the default) flips a seeded coin per round, so with no change
 * between base and head each round's difference is as likely positive as negative, whatever the machine does;
 * `abab` always runs base first.
 */
export function roundOrder(roles, order = 'random', random = Math.random) {
  const pair = [...roles];
  if (order === 'random' && pair.length === 2 && random() < 0.5) pair.reverse();
  return pair;
}

/**
 * The seed of a run's round orders: the one given (--seed), else a new one each run. A fixed default would give a
 * job the same order in every run, so anything the machine does to the first or second trial of a round (a cache
 * the first one warms, a neighbour's rhythm) would land on the same side run after run, where a coin flipped afresh
 * makes it as likely to favour either side. Kept in run.json (`seed`), so --seed repeats a run's order.
 */
export const orderSeed = (given) => (given === undefined || given === null ? randomInt(1, 2 ** 31) : given);

/** Seconds a trial may take before it counts as hung: the job's timeout, else from its duration params. */
export function trialTimeout(job) {
  if (job.timeout) return job.timeout;
  const d = String(job.params?.duration ?? '');
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(d);
  const seconds = m ? Number(m[1]) * ({ ms: 0.001, s: 1, m: 60 }[m[2] || 's']) : 0;
  return Math.max(120, Math.ceil(seconds * 3 + 60));
}

/** Runs one tool trial as its own process group; resolves { code, timedOut, stdoutFile, stderrFile }. */
function runToolProcess(argv, { cwd, env, stdoutFile, stderrFile, timeoutSeconds, pin }) {
  return new Promise((res) => {
    const out = openSync(stdoutFile, 'w');
    const err = openSync(stderrFile, 'w');
    const run = pin ? pinned(argv, 'tool') : argv;
    const child = spawn(run[0], run.slice(1), { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', out, err] });
    closeSync(out);
    closeSync(err);
    const proc = { pid: child.pid, name: argv[0], exited: false };
    proc.exit = new Promise((r) => child.on('close', r));
    LIVE.add(proc);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutSeconds * 1000);
    child.on('error', (e) => { clearTimeout(timer); LIVE.delete(proc); res({ code: e.code, timedOut, error: e }); });
    child.on('close', (code, signal) => { clearTimeout(timer); proc.exited = true; LIVE.delete(proc); res({ code: code ?? signal, timedOut }); });
  });
}

class JobFailure extends Error {
  constructor(message, logTailText) {
    super(message);
    this.logTail = logTailText;
  }
}

/** The commit `ref` names in the repository at root; a UserError saying how to get it when it names none. */
export function baseCommit(root, ref) {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (e) {
    if (String(ref).startsWith('-')) throw new UserError(`--base ${ref}: not a commit in ${root} (a branch or tag name cannot start with "-"; give a branch, tag or commit)`);
    // a short SHA that starts several commits: git lists them as hints
    const candidates = [...String(e.stderr || '').matchAll(/^hint:\s+([0-9a-f]+) commit\b/gm)].map((m) => m[1]);
    if (/ is ambiguous/.test(e.stderr || '')) throw new UserError(`--base ${ref}: more than one commit in ${root} starts with it${candidates.length ? ` (${candidates.join(', ')})` : ''}; give more of its digits`);
    const beyond = ancestorBeyondHistory(root, ref);
    if (beyond) throw new UserError(`--base ${ref}: not a commit in ${root} (${beyond})`);
    throw new UserError(`--base ${ref}: not a commit in ${root} (${missingCommitHint(root, ref)})`);
  }
}

/**
 * How to get the commit `ref` names when the repository at root has none by that name: it is no repository, has no
 * commits yet, is a shallow clone (actions/checkout's default of one commit) or lacks the ref until it is fetched.
 */
function missingCommitHint(root, ref) {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  if (git('rev-parse', '--git-dir') === undefined) return 'this folder is in no git repository: --base checks a commit out of the project\'s repository, so run in a git checkout, or leave out --base';
  if (git('rev-parse', '--verify', '--quiet', 'HEAD^{commit}') === undefined) return 'the repository has no commits yet: commit the project first, then measure a change committed on top of it';
  // a CI checkout has the remote's branches as origin/NAME only, with no local branch of that name
  const [, name, tail] = /^(.+?)((?:[~^]\d*)*)$/.exec(ref);
  const remote = git('for-each-ref', '--format=%(refname:short)', `refs/remotes/*/${name}`)?.split('\n')[0];
  if (remote) return `no branch or tag ${name} here, but the remote-tracking branch ${remote} is: give --base ${remote}${tail}`;
  // a shortened SHA cannot be fetched by itself: the branch that holds it can; a fetched branch is origin/NAME
  const fetch = /^[0-9a-f]{40}$/i.test(ref) ? `git fetch origin ${ref}`
    : /^[0-9a-f]{4,39}$/i.test(ref) ? 'git fetch origin BRANCH, a branch that holds it'
      : `git fetch origin ${name}, then give --base origin/${name}${tail}`;
  if (git('rev-parse', '--is-shallow-repository') === 'true') return `this clone is shallow, so older commits are not in it: fetch the history, git fetch --unshallow (in GitHub Actions: actions/checkout with fetch-depth: 0), or the ref, ${fetch}`;
  return `fetch it first, e.g. ${fetch}`;
}

/**
 * Why `ref` names no commit when it is an ancestor (HEAD~1, main^) of a commit that exists: the history is shorter
 * (a repository's first commit, a shallow clone), which fetching `ref` by name cannot mend; undefined otherwise.
 */
function ancestorBeyondHistory(root, ref) {
  const from = /^(.+?)(?:[~^]\d*)+$/.exec(String(ref))?.[1];
  if (!from) return undefined;
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let count;
  try {
    count = Number(git('rev-list', '--count', '--end-of-options', `${from}^{commit}`));
  } catch {
    return undefined;
  }
  const held = `${from} has ${count} commit${count === 1 ? '' : 's'} in its history here`;
  if (git('rev-parse', '--is-shallow-repository') === 'true') return `${held}: this clone is shallow; fetch its history first, e.g. git fetch --unshallow, or check out with fetch-depth: 0`;
  return `${held}, so ${ref} names none; commit the change to measure on top of it first`;
}

/**
 * Adds a base checkout of `ref` (at `commit`, when already resolved) as a detached git worktree; returns { dir, project,
 * commit, remove() }: `dir` is the worktree, `project` the folder in it that matches `root` (the same as `dir` unless
 * the project lives in a subfolder of its repository, as in a monorepo, whose base subjects are there too).
 * The folder gets the head checkout's permissions, not mkdtemp's 0700: a subject process that drops its privileges (nginx
 * run as root serves files from worker processes running as nobody) must read the base's files as it reads the head's,
 * or every base request fails (403) and the comparison measures error pages.
 */
export function addWorktree(root, ref, commit = baseCommit(root, ref)) {
  removeOrphanWorktrees(root);
  const prefix = execFileSync('git', ['rev-parse', '--show-prefix'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'benchline-base-'));
  chmodSync(dir, statSync(root).mode & 0o777);
  try {
    // without the repository's hooks: a post-checkout hook of the developer's (a linter, an install) is no part of
    // what is measured, and one that fails would fail a checkout that is complete. Locked with the owner's pid from
    // the moment git records it (git worktree add --lock): a run killed outright (kill -9) during the checkout, or
    // right after it, leaves a worktree the next run knows as its own to remove (removeOrphanWorktrees), where one
    // locked only afterwards stayed unlocked, and so for ever
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--force', '--lock', '--reason', `${OWNER}${process.pid}`, dir, commit], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    // nothing half-made stays behind: the folder, and git's record of a worktree that never finished
    removeWorktree(root, dir);
    const why = e.signal ? `stopped by ${e.signal}` : String(e.stderr || '').trim().split('\n').at(-1) || `exit ${e.status}`;
    throw Object.assign(new UserError(`--base ${ref}: could not check out ${commit} into ${dir} (git worktree add: ${why})`), { signal: e.signal });
  }
  return {
    dir,
    project: join(dir, prefix),
    commit,
    remove: () => {
      removeWorktree(root, dir);
    },
  };
}

/** The lock reason of a base worktree, followed by the pid of the benchline that made it. */
const OWNER = 'benchline base checkout, process ';

/** Removes a base worktree, locked or not, and git's record of it; the folder goes even if git cannot remove it. */
function removeWorktree(root, dir) {
  try {
    execFileSync('git', ['worktree', 'remove', '--force', '--force', dir], { cwd: root, stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    try { execFileSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' }); } catch { /* nothing to prune */ }
  }
}

/**
 * Removes the base worktrees that runs killed outright (kill -9, an out-of-memory kill) left in the repository at root:
 * those locked by a benchline whose process is gone. A run going on beside this one keeps its own.
 */
function removeOrphanWorktrees(root) {
  let list;
  try {
    list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return;
  }
  for (const block of list.split('\n\n')) {
    const dir = /^worktree (.+)$/m.exec(block)?.[1];
    const pid = Number(new RegExp(`^locked ${OWNER}(\\d+)$`, 'm').exec(block)?.[1]);
    if (!dir || !pid) continue;
    try {
      process.kill(pid, 0);
      continue;
    } catch (e) {
      if (e.code === 'EPERM') continue; // alive, another user's
    }
    removeWorktree(root, dir);
  }
}

/**
 * What to check when a subject process fails on the base side only: the base is a fresh worktree of the ref, holding
 * only what git tracks, so what the head checkout has from an install or a build (node_modules/, a venv, a compiled
 * binary) is not there unless the subject's build: steps make it.
 */
const baseCheckoutHint = (ref, dir, subject) => `(base side: ${dir} is a fresh git worktree of ${ref} holding only the files git tracks; `
  + `what your checkout has from an install or a build that git ignores, such as node_modules/, a venv or a compiled binary, is not there: `
  + `make it in subjects/${subject}/subject.yaml build: steps, e.g. ["npm", "ci"], which run once in each checkout before the first start; docs/config.md, subject.yaml)`;

/**
 * A base-side failure, said as one: led by `base (REF)`, with the base worktree's paths (removed when the run ends)
 * written as REF:PATH, the file in the base commit that `git show REF:PATH` prints. Changes `e` (once: a failed build
 * is one error shared by the subject's jobs) and returns it.
 */
function onBaseSide(e, { ref, dir, root }) {
  if (!(e instanceof Error) || e.message.startsWith(`base (${ref}`)) return e;
  const rel = relative(root, dir);
  // the relative form first: it ends with the absolute one's text
  const text = e.message.split(`${rel}/`).join(`${ref}:`).split(`${dir}/`).join(`${ref}:`);
  e.message = text === e.message ? `base (${ref}): ${text}` : `base (${ref}; ${ref}:PATH is a file of the base commit, git show ${ref}:PATH prints it): ${text}`;
  return e;
}

/**
 * Installs the load tools the jobs need. A tool that cannot be had does not stop the run: its jobs
 * are skipped with the installer's reason (first line), and the others go on.
 */
function availableTools(names) {
  const log = (m) => process.stderr.write(`benchline: ${m}\n`);
  try {
    return { tools: ensureTools(names, { log }), missing: {} };
  } catch {
    const tools = {};
    const missing = {};
    for (const n of names) {
      try { Object.assign(tools, ensureTools([n], { log })); } catch (e) { missing[n] = e.message.split('\n')[0]; }
    }
    return { tools, missing };
  }
}

/**
 * Runs `jobs` and writes the results folder. Returns { dir, run } (run = run.json's content).
 * opts: { config, base (git ref), order, seed, out, progress, role, onSignalAfter (a signal handler that takes over once the run is written) }.
 */
export async function runJobs(jobs, opts) {
  const { config } = opts;
  const root = config.root;
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const resultsRoot = resolve(root, opts.out || config.defaults.results);
  // each run adds a folder and a latest link to the results root: never among the system's folders or the home folder's own
  if (isRootOrHome(resultsRoot)) {
    throw new UserError(`${opts.out ? '--out' : `${config.file || 'bench.config.yaml'}: defaults.results`} ${resultsRoot}: the results need a folder of their own (each run adds a folder and a latest link there); give a new folder, e.g. results in the project`);
  }
  const dir = join(resultsRoot, runId);
  // a base that names no commit ends the run before anything is written (no empty run folder, latest left alone)
  const baseAt = opts.base ? baseCommit(root, opts.base) : null;
  const runnable = jobs.filter((j) => !j.skip);
  const { tools, missing } = availableTools(toolsFor(runnable, ADAPTERS));
  const { trigger } = triggerInfo();
  const soloRole = opts.role || (trigger === 'push' ? 'main' : 'local');
  const roles = opts.base ? ['base', 'head'] : [soloRole];
  const head = commitInfo(root);
  const seed = orderSeed(opts.seed);
  const runDoc = { schema: 'benchline/run@1', id: runId, startedAt: startedAt.toISOString(), config: relative(root, config.file), profile: jobs[0]?.profile, order: opts.base ? opts.order : undefined, seed: opts.base && opts.order !== 'abab' ? seed : undefined, head: { commit: head.commit, dirty: head.dirty }, jobs: [] };

  const checkouts = { head: root, local: root, main: root };
  let worktree;
  const entries = new Map();
  const ctx = {};
  // made just before the handler that writes its run.json is there: a stop before that (while the tools are installed
  // or git says what head is) leaves no folder behind
  makeDirs(dir);
  // a second signal while this one is handled is ignored, so run.json is written before benchline ends
  const onSignal = onFirstSignal((sig) => {
    sayOnStop(`\nbenchline: ${sig}: stopping every process benchline started\n`);
    stopAllNow();
    keepFinishedTrials(runDoc, entries, ctx, sig);
    worktree?.remove();
    runDoc.finishedAt = new Date().toISOString();
    writeJsonAtomic(join(dir, 'run.json'), runDoc);
    pointLatest(resultsRoot, runId);
    sayOnStop(`benchline: ${sig}: what was measured is in ${dir} (run.json marks the run interrupted)\n`);
    process.exit(signalExit(sig));
  });
  for (const sig of SIGNALS) process.on(sig, onSignal);
  const runner = { ...runnerInfo(), pinning: usePinning(config.defaults.pinning) };
  const rounds = config.compare?.rounds || ROUNDS;
  const budget = { ...BUDGET, ...config.compare?.budget, ...(opts.budget ? { run: opts.budget } : {}) };
  const progress = await makeProgress(runnable.reduce((s, j) => s + roundPlan(j, { ab: roles.length === 2, rounds }).max * roles.length, 0), opts.progress !== false, { until: opts.base ? () => (ctx.runStarted ?? Date.now()) + budget.run * 1000 : Infinity });
  // The family judged together: every judged metric of every A/B job (a JMH or hyperfine case counts once here; at a
  // look, the job looked at counts what it has: compare.js undecided).
  const familySize = runnable.reduce((s, j) => s + (j.judge || ADAPTERS[j.tool]?.judged || []).length, 0);
  // the jobs are in run.json from the start: a stop while the base is checked out or built marks each interrupted
  for (const job of jobs) {
    const entry = { id: job.id, suite: job.suite, subject: job.subject, variant: job.variant, tool: job.tool, scenario: job.scenario, params: job.params, trials: job.trials };
    if (job.group) entry.group = job.group;
    runDoc.jobs.push(entry);
    entries.set(job, entry);
  }
  try {
    if (opts.base) {
      runDoc.base = { ref: opts.base, commit: baseAt };
      try {
        worktree = addWorktree(root, opts.base, baseAt);
      } catch (e) {
        // Ctrl-C in a terminal (or a cancelled CI job) signals git as well: the run stops by that signal, not as a failure
        if (SIGNALS.includes(e.signal)) onSignal(e.signal);
        throw e;
      }
      checkouts.base = worktree.project;
      ctx.baseSide = { ref: opts.base, dir: worktree.dir, root };
    }
    // one load and build a side's subject: its promise, so a failed build fails every job of that subject alike
    const manifests = {};
    const manifestFor = (role, subject) => {
      const key = `${role === 'base' ? 'base' : 'head'}:${subject}`;
      manifests[key] ??= (async () => {
        const m = loadManifest(checkouts[role], subject);
        ensureTools(toolsOfManifest(m));
        await buildSubject(m, { log: progress.log, side: opts.base ? (role === 'base' ? `base (${opts.base})` : 'head (working tree)') : undefined });
        return m;
      })();
      return manifests[key];
    };
    Object.assign(ctx, { roles, manifestFor, dir, opts, seed, tools, runner, startedAt, runId, progress, checkouts, root, rounds, budget, familySize, runStarted: Date.now(), compareConfig: config.compare || {} });
    const adaptive = (j) => roundPlan(j, { ab: roles.length === 2, rounds }).adaptive;
    let lanesLeft = runnable.filter(adaptive).length;
    const settle = (job, { docs, error: e }) => {
      const entry = entries.get(job);
      if (docs) {
        entry.status = 'ok';
        entry.docs = {};
        for (const [role, doc] of Object.entries(docs)) {
          const file = join('docs', role, `${job.id}.json`);
          writeJsonAtomic(join(dir, file), doc);
          entry.docs[role] = file;
        }
        // a pull request that adds this subject: measured on head only, and the reports say why
        if (opts.base && !docs.base) entry.headOnly = { subject: job.subject, ref: opts.base };
        return;
      }
      if (e instanceof SkipJob) {
        Object.assign(entry, { status: 'skipped', reason: e.message });
        progress.log(`skipped ${job.id}: ${e.message}`);
        return;
      }
      Object.assign(entry, { status: 'failed', reason: e.message.split('\n')[0] });
      if (e.logTail) entry.logTail = e.logTail;
      else if (e.message.includes('\n')) entry.logTail = e.message.split('\n').slice(1).join('\n');
      progress.log(`FAILED ${job.id}: ${e.message}`);
      if (!(e instanceof UserError || e instanceof JobFailure)) progress.log(e.stack);
    };
    const left = () => Math.max(0, budget.run - (Date.now() - ctx.runStarted) / 1000);
    // lanes the budget stopped, by group: they get more rounds at the end if the run's budget has time left
    const paused = [];
    for (const group of jobGroups(jobs)) {
      const toRun = [];
      for (const job of group) {
        const skip = job.skip || (missing[job.tool] && `${job.tool} is not available on this machine: ${missing[job.tool]}`);
        if (!skip) {
          toRun.push(job);
          continue;
        }
        Object.assign(entries.get(job), { status: 'skipped', reason: skip });
        progress.log(`skipped ${job.id}: ${skip}`);
      }
      if (!toRun.length) continue;
      // what is left of the run's budget, shared by the lanes still to run: time a job saved goes to the next
      budget.lane = laneBudget({ job: budget.job, run: left() }, lanesLeft);
      lanesLeft -= toRun.filter(adaptive).length;
      const { results, lanes } = await runGroup(toRun, ctx);
      for (const job of toRun) settle(job, results.get(job.id));
      const stopped = lanes.filter((l) => resumable(l) && entries.get(l.job).status === 'ok');
      if (stopped.length) paused.push(stopped);
    }
    // Time the jobs after them saved goes back to the lanes the budget stopped, group by group in the run's order,
    // each lane again an even share of what is left (and never past budget.job in all).
    let waiting = paused.flat().length;
    for (const lanes of paused) {
      budget.lane = laneBudget({ job: budget.job, run: left() }, waiting);
      waiting -= lanes.length;
      // worth it only where at least one more round fits the share and the job's own budget
      const go = lanes.filter((l) => { const perRound = l.spentMs / l.trials.head.length; return perRound <= budget.lane * 1000 && l.spentMs + perRound <= budget.job * 1000; });
      if (!go.length) continue;
      for (const l of go) delete entries.get(l.job).status;
      const results = await resumeGroup(go, ctx);
      for (const l of go) settle(l.job, results.get(l.job.id));
    }
  } finally {
    progress.stop();
    worktree?.remove();
    // the caller's handler (bench's) goes on before this one goes: a signal that came during the synchronous end of
    // the run is still pending, and removing a signal's last listener drops it, so the run would go on as if none came
    for (const sig of SIGNALS) {
      if (opts.onSignalAfter) process.on(sig, opts.onSignalAfter);
      process.off(sig, onSignal);
    }
    runDoc.finishedAt = new Date().toISOString();
    writeJsonAtomic(join(dir, 'run.json'), runDoc);
    pointLatest(resultsRoot, runId);
  }
  return { dir, run: runDoc };
}

/**
 * results/latest names the newest run folder, finished or interrupted (best effort: a link may not be possible, and a
 * file or folder of that name that is no link, the user's own in a results root such as `--out .`, is left alone).
 */
function pointLatest(resultsRoot, runId) {
  const latest = join(resultsRoot, 'latest');
  try { if (lstatSync(latest).isSymbolicLink()) unlinkSync(latest); } catch { /* no link yet */ }
  try { symlinkSync(runId, latest); } catch { /* best effort */ }
}

/**
 * On a stop by signal: every job without an outcome is marked interrupted, and the trials its lane finished become
 * result documents (written beside the others), so report and compare work on what was measured.
 */
function keepFinishedTrials(runDoc, entries, ctx, sig) {
  runDoc.status = 'interrupted';
  runDoc.interrupted = sig;
  const lanes = new Map((ctx.lanes || []).map((l) => [l.job.id, l]));
  for (const [job, entry] of entries) {
    if (entry.status) continue;
    const lane = lanes.get(job.id);
    const done = lane ? Object.fromEntries(Object.entries(lane.trials).map(([role, t]) => [role, t.length])) : {};
    const finished = Object.entries(done).map(([r, n]) => `${n} ${r}`).join(' and ');
    Object.assign(entry, { status: 'interrupted', reason: finished ? `stopped by ${sig} after ${finished} trial(s) of ${job.trials}` : `stopped by ${sig} before its first trial ended (of ${job.trials})` });
    const roles = lane?.activeRoles.filter((r) => lane.trials[r]?.length) || [];
    if (!roles.length) continue;
    try {
      const docs = laneDocs({ ...lane, activeRoles: roles }, ctx);
      entry.docs = {};
      for (const [role, doc] of Object.entries(docs)) {
        const file = join('docs', role, `${job.id}.json`);
        writeJsonAtomic(join(ctx.dir, file), doc);
        entry.docs[role] = file;
      }
    } catch (e) {
      entry.reason += `; its finished trials could not be kept: ${e.message.split('\n')[0]}`;
    }
  }
}

/** Lanes in the order they run in round t (1-based): rotated by one each round, so none is always first. */
export function rotation(lanes, t) {
  const n = lanes.length;
  return Array.from({ length: n }, (_, k) => lanes[(k + t - 1) % n]);
}

/**
 * How a lane's rounds end. A/B lanes without fixed trials are sequential: looks at compare.rounds.looks, at most the
 * last look's rounds. Others run their trials once, one look.
 */
export function roundPlan(job, { ab, rounds }) {
  if (!ab || job.fixedTrials) return { adaptive: false, looks: [job.trials], weights: [1], max: job.trials };
  return { adaptive: true, looks: rounds.looks, weights: rounds.weights, max: rounds.looks.at(-1) };
}

/**
 * Why a lane stops after round t, or null to go on. Looks are taken at counts of calm rounds (`calm`: rounds not
 * disturbed by other work, which are left out of the verdicts), once per count: a disturbed round is made up by
 * another, up to three times the planned rounds. A lane stops when its planned rounds are done, a look finds every
 * judged metric decided (`openAt(lane)`: its undecided metrics, [{ key, futile }]) or, after the first look, every
 * undecided one unable to settle by the last look ('futile', compare.js cannotSettle), or the next round would overrun the lane's share of the budget (budget.lane seconds, from
 * its first look on; for a resumed lane counted from its resumption, and never more than budget.job in all) or the
 * whole run's budget (from MIN_TRIALS rounds on); a round's time is the lane's mean so far.
 * Records the count it looked at in lane.lookedAt.
 */
export function stopReason(lane, t, { now, runStarted, budget, openAt, calm = t }) {
  const { plan } = lane;
  if (!plan.adaptive) return t >= plan.max ? 'rounds' : null;
  if (calm >= plan.max || t >= plan.max * 3) return 'most rounds';
  if (plan.looks.includes(calm) && lane.lookedAt !== calm) {
    lane.lookedAt = calm;
    const open = openAt(lane);
    if (!open.length) return 'decided';
    // not at the first look: the exact interval of a few rounds is far wider than 1/sqrt(rounds) projects from it
    if (calm > plan.looks[0] && open.every((o) => o.futile)) return 'futile';
  }
  const perRound = lane.spentMs / t;
  // a resumed lane's share counts from its resumption; no lane takes more than budget.job in all
  const spent = lane.spentMs - (lane.resumedAtMs || 0);
  if (t >= plan.looks[0] && (spent + perRound > budget.lane * 1000 || lane.spentMs + perRound > (budget.job ?? Infinity) * 1000)) return 'budget';
  if (t >= MIN_TRIALS && now - runStarted + perRound > budget.run * 1000) return 'budget';
  return null;
}

/** A subject that comes up within this many milliseconds is restarted for every round under `restart: auto`. */
export const AUTO_RESTART_MS = 5000;

/**
 * Whether a lane starts its subjects afresh before every round. Two processes of the same code can differ by a few
 * percent for as long as they live (memory layout, JIT and GC decisions), so one base process against one head
 * process can show a steady difference no number of rounds removes; fresh processes per round turn it into noise
 * the paired test sees. `round` always, `never` never, `auto` when the slowest side came up within AUTO_RESTART_MS.
 * A lane without subject processes (hyperfine and JMH start their own) has nothing to restart.
 */
export function restartsEachRound(policy = 'auto', startMs, hasProcesses) {
  if (!hasProcesses || policy === 'never') return false;
  return policy === 'round' || startMs <= AUTO_RESTART_MS;
}

/**
 * Whether a lane runs its rounds as duets: a round's base and head trials at the same time, both sides' subjects on
 * the subject cores and both load tools on the tool cores, so whatever slows the machine during the round (a
 * neighbour, the host's other tenants) slows both sides alike and falls out of their ratio (duet benchmarking). Only
 * for A/B lanes whose subjects the runner starts; by default for tools that run for a fixed time as hard as the
 * subject goes (`duet` in its adapter: wrk always, ab with a `duration`). A tool bounded by a count of requests is not
 * a duet by default: the faster side finishes first and the slower one runs its tail alone, which hides about half of
 * a difference. A job's
 * `duet:` decides otherwise (compare.duet: never turns the default off).
 */
export function duetRounds(job, adapter, { roles, hasProcesses }) {
  if (roles !== 2) return false;
  // A tool that starts what it measures (hyperfine, JMH) has no subject to share: a duet only when its job asks.
  if (!hasProcesses) return job.duet === true;
  return job.duet ?? (typeof adapter.duet === 'function' ? adapter.duet(job.params) : adapter.duet === true);
}

/** Each sequential lane's share: at most budget.job, and `budget.run` (what is left of the run's) split evenly between the lanes. */
export const laneBudget = (budget, lanes) => Math.min(budget.job, budget.run / Math.max(1, lanes));

/** Stops every subject process of a lane (each handle's stop is a no-op for processes already stopped). */
async function stopLane(lane) {
  for (const h of Object.values(lane.live)) await h.stop();
}

/** A job that failed ends alone: its outcome is the error, its subjects are stopped, the other lanes go on. */
async function failLane(lane, e, results) {
  results.set(lane.job.id, { error: e });
  await stopLane(lane);
}

/**
 * A group of jobs (one, or the variants of one tool and scenario): every job's subjects up per role side by
 * side, optional warm-ups, trials interleaved across jobs and roles, subjects down, result docs.
 * A job that fails stops its own subjects and ends alone; the others go on.
 * Returns { results: Map(job id -> { docs } | { error }), lanes } (the lanes, for resumeGroup).
 */
async function runGroup(group, ctx) {
  const { dir, opts, checkouts, root, manifestFor, roles } = ctx;
  const results = new Map();
  // shared with runJobs, so a stop by signal can keep the trials that finished
  const lanes = [];
  ctx.lanes = lanes;
  try {
    for (const job of group) {
      const lane = { job, adapter: adapterFor(job.tool), live: {}, starts: {}, startMs: 0, instances: 1, trials: {}, artifacts: {}, activeRoles: [] };
      try {
        lane.script = job.script ? resolve(root, job.script) : undefined;
        const noScript = job.script && missingScript(job, root, opts.config?.file);
        if (noScript) throw new UserError(noScript);
        for (const role of roles) {
          let manifest;
          try {
            manifest = await manifestFor(role, job.subject);
          } catch (e) {
            if (role === 'base' && !existsSync(join(checkouts.base, 'subjects', job.subject))) continue;
            throw role === 'base' ? onBaseSide(e, ctx.baseSide) : e;
          }
          const runDir = join(dir, 'raw', role, job.id);
          makeDirs(runDir);
          lane.starts[role] = async () => {
            let live;
            try {
              live = await startSubject({ manifest, runDir, env: job.env, params: job.params, select: job.processes, log: () => {} });
            } catch (e) {
              // on the first line, which the run's reason keeps (the log's lines follow it)
              if (role === 'base' && e.processFailed) {
                const [first, ...rest] = e.message.split('\n');
                const hint = baseCheckoutHint(opts.base, checkouts.base, job.subject);
                e.message = [first.includes(' Last lines of ') ? first.replace(' Last lines of ', ` ${hint}. Last lines of `) : `${first} ${hint}`, ...rest].join('\n');
              }
              throw role === 'base' ? onBaseSide(e, ctx.baseSide) : e;
            }
            live.manifest = manifest;
            return live;
          };
          const began = Date.now();
          lane.live[role] = await lane.starts[role]();
          lane.startMs = Math.max(lane.startMs, Date.now() - began);
          lane.activeRoles.push(role);
          lane.trials[role] = [];
          lane.artifacts[role] = [];
        }
        lane.plan = roundPlan(job, { ab: lane.activeRoles.length === 2, rounds: ctx.rounds });
        const hasProcesses = Object.values(lane.live).some((l) => l.procs.length);
        lane.restart = restartsEachRound(job.restart, lane.startMs, hasProcesses);
        lane.duet = duetRounds(job, lane.adapter, { roles: lane.activeRoles.length, hasProcesses });
        lane.random = rng(`${ctx.seed}:${job.id}`);
        lane.spentMs = 0;
        lane.calm = 0;
        lanes.push(lane);
      } catch (e) {
        await failLane(lane, e, results);
      }
    }
    for (const lane of lanes) {
      try {
        await warmUp(lane, 1, ctx);
      } catch (e) {
        await failLane(lane, e, results);
      }
    }
    await runRounds(lanes, results, ctx);
  } finally {
    for (const lane of lanes) await stopLane(lane);
  }
  laneResults(lanes, results, ctx);
  return { results, lanes };
}

/**
 * Whether a lane the budget stopped may take more rounds later in the run, when the jobs after it left time over:
 * an A/B lane that starts fresh subjects every round anyway, so a round run later is like any other (the stop was
 * for time, not for anything its data said, so its looks and their alpha are as planned).
 */
const resumable = (lane) => lane.stopped === 'budget' && lane.restart && lane.plan.adaptive;

/**
 * More rounds for lanes of one group that the budget stopped (resumable): fresh subjects, the warm-up, and rounds
 * until a look decides, futility, the planned rounds or the time share given now (budget.lane, counted from here).
 * Returns Map(job id -> { docs } | { error }) with documents of all their rounds.
 */
async function resumeGroup(lanes, ctx) {
  const results = new Map();
  ctx.lanes = lanes;
  for (const lane of lanes) {
    lane.stopped = null;
    lane.resumedAtMs = lane.spentMs;
    ctx.progress.shrink(-(lane.plan.max - lane.calm) * lane.activeRoles.length);
    ctx.progress.log(`${lane.job.id}: resumed after ${lane.trials.head.length} rounds: time left in the run's budget`);
  }
  try {
    await runRounds(lanes, results, ctx);
  } finally {
    for (const lane of lanes) await stopLane(lane);
  }
  laneResults(lanes, results, ctx);
  return results;
}

/**
 * The rounds of a group's lanes, rotated, until every lane has stopped (stopReason) or failed. Each lane's round
 * number is one more than the rounds it has, so resumed lanes go on where they stopped; a lane that restarts every
 * round gets fresh subjects before each round but its first.
 */
async function runRounds(lanes, results, ctx) {
  const { opts, progress } = ctx;
  const running = (lane) => !results.has(lane.job.id) && !lane.stopped;
  for (let k = 1; lanes.some(running); k += 1) {
    for (const lane of rotation(lanes.filter(running), k)) {
      const { job } = lane;
      const t = lane.trials[lane.activeRoles[0]].length + 1;
      const began = Date.now();
      try {
        // the round's seeded order also decides which side's restart and warm-up begin first
        const order = roundOrder(lane.activeRoles, opts.order, lane.random);
        if (lane.restart && t > 1) await restartLane(lane, t, ctx, order);
        const ran = lane.duet ? await duetTrials(lane, order, t, ctx) : [];
        if (!lane.duet) for (const role of order) ran.push(await runTrial(lane, role, t, job.params, 'trial', ctx));
        for (const [i, role] of order.entries()) {
          const { parsed, rawFile } = ran[i];
          lane.trials[role].push(parsed);
          lane.artifacts[role].push({ path: relative(ctx.dir, rawFile), kind: 'raw' });
          progress.tick(`${job.id} · ${lane.plan.adaptive ? 'round' : 'trial'} ${t}/${lane.plan.max}${lane.activeRoles.length > 1 ? ` ${role}` : ''}`);
        }
      } catch (e) {
        await failLane(lane, e, results);
        continue;
      }
      lane.spentMs += Date.now() - began;
      const calm = t - (lane.plan.adaptive ? disturbedRounds(lane.trials.base.map((x) => x.load), lane.trials.head.map((x) => x.load), ctx.compareConfig.maxOtherGap ?? MAX_OTHER_GAP).filter(Boolean).length : 0);
      if (lane.plan.adaptive && calm === lane.calm && calm < lane.plan.max) progress.shrink(-lane.activeRoles.length); // one more round to make up for it
      lane.calm = calm;
      lane.stopped = stopReason(lane, t, { calm, now: Date.now(), runStarted: ctx.runStarted, budget: ctx.budget, openAt: (l) => undecided(l.trials.base, l.trials.head, { tool: l.job.tool, judge: l.job.judge, minEffect: l.job.minEffect, sequential: l.plan, cfg: ctx.compareConfig, familySize: ctx.familySize, planned: (l.job.judge || ADAPTERS[l.job.tool]?.judged || []).length }) });
      if (lane.stopped && calm < lane.plan.max) {
        progress.shrink((lane.plan.max - calm) * lane.activeRoles.length);
        const rounds = `${t} rounds${t > calm ? ` (${t - calm} disturbed by other work)` : ''}`;
        const why = { decided: `decided after ${rounds}`, budget: `stopped after ${rounds}: time budget (compare.budget, --budget)`, futile: `stopped after ${rounds}: its undecided metrics could not settle by the last look (too noisy here)` }[lane.stopped];
        if (lane.plan.adaptive) progress.log(`${job.id}: ${why || `stopped after ${rounds}`}`);
      }
    }
  }
}

/** Result documents of every lane that did not fail, into results. */
function laneResults(lanes, results, ctx) {
  for (const lane of lanes) {
    if (results.has(lane.job.id)) continue;
    try {
      results.set(lane.job.id, { docs: laneDocs(lane, ctx) });
    } catch (e) {
      results.set(lane.job.id, { error: e });
    }
  }
}

/**
 * `step(role)` for every active role in `order`: one after another, or in a duet lane all at once, begun in that
 * order (the sides share the machine in the trials anyway). Every side's step ends before this returns, also when one fails, so nothing is left
 * starting behind a failure; the first failure is thrown then.
 */
async function eachSide(lane, step, order = lane.activeRoles) {
  if (!lane.duet) {
    for (const role of order) await step(role);
    return;
  }
  await allEnded(order.map(step));
}

/** The values of all promises once every one has ended (none is left running behind a failure); the first failure is thrown then. */
async function allEnded(promises) {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => r.value);
}

/** The job's warm-up (its `warmup:` params), one untimed trial per role; nothing when the job has none. */
async function warmUp(lane, t, ctx, order) {
  if (!lane.job.warmup) return;
  await eachSide(lane, (role) => runTrial(lane, role, t, { ...lane.job.params, ...lane.job.warmup }, 'warmup', ctx), order);
}

/** Fresh subject processes for round t on every side (stopped, started again, warmed up), sides in the round's order. */
async function restartLane(lane, t, ctx, order) {
  await eachSide(lane, async (role) => {
    await lane.live[role].stop();
    lane.live[role] = await lane.starts[role]();
  }, order);
  lane.instances += 1;
  await warmUp(lane, t, ctx, order);
}

/**
 * One duet round: every role's trial at once, started in `order` (the round's seeded order, so neither side always
 * gets the first moment). Each trial's load comes from one reading of the machine across both: `tool` is both load
 * tools (they share the tool cores), `other` what neither side used, `subject` that side's own subject.
 */
async function duetTrials(lane, order, t, ctx) {
  const pids = (role) => lane.live[role].procs.map((p) => p.pid);
  const all = cpuSnapshot(order.flatMap(pids));
  const own = order.map((role) => cpuSnapshot(pids(role)));
  const values = await allEnded(order.map((role) => runTrial(lane, role, t, lane.job.params, 'trial', ctx, { meter: false })));
  const shared = cpuSince(all);
  return values.map((value, i) => {
    const mine = cpuSince(own[i]);
    // toolCores (the bottleneck check) only where a pinned tool drives a subject, as in runTrial
    if (shared && mine) value.parsed.load = { ...shared, subject: mine.subject, ...(lane.live[order[i]].procs.length && !lane.adapter.selfTimed ? { toolCores: toolCoreCount() } : {}) };
    return value;
  });
}

/**
 * One trial of one lane's role: the tool run against that role's subject, its output parsed, or a JobFailure saying
 * why not. `meter: false` leaves the CPU reading to the caller (a duet reads both sides at once).
 */
async function runTrial(lane, role, trial, rawParams, tag, ctx, options) {
  try {
    return await runTrialOnce(lane, role, trial, rawParams, tag, ctx, options);
  } catch (e) {
    throw role === 'base' ? onBaseSide(e, ctx.baseSide) : e;
  }
}

/** runTrial's work, whose errors name the base worktree's paths as they are. */
async function runTrialOnce(lane, role, trial, rawParams, tag, ctx, { meter = true } = {}) {
  const { dir, tools, root, checkouts, opts } = ctx;
  const { job, adapter, live, script } = lane;
  const runDir = join(dir, 'raw', role, job.id);
  const base = join(runDir, `${tag}-${trial}`);
  // what errors call this run of the tool: "trial 3", or "warm-up 1" before a round's trials
  const which = tag === 'trial' ? `trial ${trial}` : `${tag === 'warmup' ? 'warm-up' : tag} ${trial}`;
  // Each side's tool runs in, and its params point into, that side's checkout: under --base a command
  // naming ${dir}/build/app times base's binary on the base side and head's on the head side.
  const side = checkouts[role];
  const where = `${relative(root, opts.config.file || 'bench.config.yaml')} suites.${job.suite} job ${job.tool}/${job.scenario} params`;
  const params = expandParams(rawParams, { dir: side, run: runDir, ports: live[role].ports, tool: toolPath, env: { ...process.env, ...job.env } }, where, adapter.shellParams);
  const c = {
    bin: tools[adapter.binary]?.path,
    params,
    rawParams,
    target: { ...live[role].target, ports: live[role].ports },
    script,
    outFile: `${base}.out.json`,
    root,
    subjectDir: live[role].manifest.dir,
    timeoutSeconds: trialTimeout(job),
    files: { stdout: `${base}.stdout.txt`, stderr: `${base}.stderr.txt`, out: `${base}.out.json` },
  };
  const dead = live[role].deadProcess();
  if (dead) throw new JobFailure(`${job.subject}/${dead.name} (${role}) died before ${which} (exit ${dead.code})`, logTail(dead.logFile));
  let cmd;
  try {
    cmd = adapter.command(c);
  } catch (e) {
    // what an adapter refuses to build a command line from is the job's configuration (a count that is not one...),
    // except a target the subject manifest does not give
    const manifest = live[role].manifest.file;
    if (/\(subject manifest: target\./.test(e.message) && manifest) throw new JobFailure(`${relative(root, manifest)}: ${e.message}; add target: { url: "http://127.0.0.1:\${port.NAME}" } to it`);
    throw new JobFailure(`${where}: ${e.message}`);
  }
  const before = meter ? cpuSnapshot(live[role].procs.map((p) => p.pid)) : null;
  // Only a tool with a subject beside it is pinned: a self-contained one (JMH, hyperfine) keeps every core.
  const pin = live[role].procs.length > 0;
  const r = await runToolProcess(cmd.argv, { cwd: side, env: cmd.env, stdoutFile: c.files.stdout, stderrFile: c.files.stderr, timeoutSeconds: c.timeoutSeconds, pin });
  const load = meter ? cpuSince(before) : null;
  if (r.error) throw new JobFailure(`${job.tool} could not start: ${r.error.message}`);
  if (r.timedOut) throw new JobFailure(`${job.tool} did not finish within ${c.timeoutSeconds} s (${which}, ${role}); it was stopped`, logTail(c.files.stderr));
  let rawFile = cmd.output === 'file' ? c.files.out : c.files.stdout;
  // the tool's second output, when it wrote no first (k6 without handleSummary): read, with a note saying so
  const fellBack = !existsSync(rawFile) && cmd.fallback && existsSync(cmd.fallback.file);
  if (fellBack) rawFile = cmd.fallback.file;
  const deadAfter = live[role].deadProcess();
  if (deadAfter) {
    // The trial is not a clean measurement, but what the tool saw is the story: say it.
    let seen = '';
    try {
      const m = adapter.parse(readFileSync(rawFile, 'utf8'), { params }).metrics;
      const val = (n) => m.find((x) => x.name === n && !x.case)?.value;
      if (val('errors') !== undefined) seen = `; that trial saw ${val('errors').toLocaleString('en-US')} errors${val('requests') !== undefined ? ` and ${val('requests').toLocaleString('en-US')} completed requests` : ''}`;
    } catch { /* no readable output: the death alone is the message */ }
    throw new JobFailure(`${job.subject}/${deadAfter.name} (${role}) died during ${which} (exit ${deadAfter.code})${seen}`, logTail(deadAfter.logFile));
  }
  // a tool that stopped because a command it measures failed: say which and how to fix the job, not "not valid output"
  const textOf = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  // asked whatever the exit status: wrk exits 0 after it ran without a script that did not load
  const failed = adapter.failedRun?.({ exitCode: r.code, params, script, stdout: textOf(c.files.stdout), stderr: textOf(c.files.stderr) });
  if (failed) throw new JobFailure(`${job.tool} (${which}, ${role}): ${failed} (${where})`, logTail(c.files.stderr));
  if (!existsSync(rawFile)) {
    const how = adapter.noOutput ? adapter.noOutput({ ...c, exitCode: r.code }) : r.code === 0 && `benchline reads what this makes: ${adapter.produce}`;
    throw new JobFailure(`${job.tool} wrote no output file (${which}, exit ${r.code})${how ? `: ${how}` : ''}`, logTail(c.files.stderr));
  }
  try {
    const stderr = existsSync(c.files.stderr) ? readFileSync(c.files.stderr, 'utf8') : '';
    const parsed = adapter.parse(readFileSync(rawFile, 'utf8'), { params, stderr });
    if (fellBack) parsed.notes = [...(parsed.notes || []), cmd.fallback.note];
    // toolCores (and so the bottleneck check) only where a load tool drives a subject: the cores a self-timed tool
    // (hyperfine, JMH) keeps busy are its benchmark's, even with subject processes beside it
    if (load) parsed.load = pin && !adapter.selfTimed ? { ...load, toolCores: toolCoreCount() } : load;
    return { parsed, rawFile };
  } catch (e) {
    // named from the project root when the results are in it, else by its own path (--out elsewhere: no ../../tmp/...)
    const shown = relative(root, rawFile).startsWith('..') ? rawFile : relative(root, rawFile);
    const hint = targetHint(e.message, live[role].target, live[role].ports, live[role].manifest.file && relative(root, live[role].manifest.file));
    throw new JobFailure(`${shown}: ${unreadable(e, job.tool)} (${which}, exit ${r.code}${job.script ? `, script ${job.script}` : ''}): ${e.message}${hint}`, logTail(c.files.stderr) || logTail(c.files.stdout));
  }
}

/**
 * For a tool whose connections were refused although the subject passed its health check: a target.url on a port
 * that is none of the subject's ${port.NAME} (a fixed port written in the manifest) is named, with the fix; else ''.
 */
export function targetHint(message, target, ports, manifestFile) {
  if (!/connection refused|unable to connect/i.test(message) || !target?.url) return '';
  let port;
  try {
    port = Number(new URL(target.url).port);
  } catch {
    return '';
  }
  const own = Object.entries(ports || {});
  if (!port || !own.length || own.some(([, p]) => Number(p) === port)) return '';
  return `; target.url ${target.url}${manifestFile ? ` in ${manifestFile}` : ''} names port ${port}, none of the subject's ports (${own.map(([n, p]) => `${n} ${p}`).join(', ')}): write \${port.${own[0][0]}} there`;
}

/** Result documents of a lane whose trials all ran, one per role. */
function laneDocs(lane, ctx) {
  const { tools, runner, startedAt, runId, opts, dir, checkouts } = ctx;
  const { job, adapter, live, trials, artifacts, activeRoles } = lane;
  const docs = {};
  for (const role of activeRoles) {
    const toolVersion = trials[role].find((t) => t.toolVersion)?.toolVersion || tools[adapter.binary]?.version || versionOf(adapter.binary) || 'unknown';
    for (const p of live[role].procs) if (p.logFile) artifacts[role].push({ path: relative(dir, p.logFile), kind: 'log' });
    docs[role] = buildResult({
      run: runBlock({ id: runId, startedAt: startedAt.toISOString(), cwd: checkouts[role], role, ref: role === 'base' ? opts.base : undefined }),
      runner,
      suite: job.suite,
      subject: job.subject,
      variant: job.variant,
      scenario: job.scenario,
      tool: { name: job.tool, version: String(toolVersion) },
      params: scalarParams(job.params, adapter.jsonParams),
      trials: trials[role],
      artifacts: artifacts[role],
      seed: opts.seed,
      judge: job.judge || adapter.judged,
      notes: [judgeMissNote(job.judge, trials[role].flatMap((t) => (t.metrics || []).map((m) => m.name)))].filter(Boolean),
      minEffect: job.minEffect,
      instances: lane.instances,
      duet: lane.duet,
      sequential: activeRoles.length === 2 ? { looks: lane.plan.looks, weights: lane.plan.weights, stopped: lane.stopped || 'rounds' } : undefined,
    }, `${job.id} (${role})`);
  }
  return docs;
}

/** Result documents keep scalar parameters; lists are joined so the schema stays flat ({ mode: [a, b] } as "mode=a,b"). */
const scalar = (v) => (Array.isArray(v) ? v.join(',') : v && typeof v === 'object' ? Object.entries(v).map(([k, x]) => `${k}=${scalar(x)}`).join('; ') : v);
// params a tool takes as JSON (its adapter's jsonParams: ghz's data and metadata) keep the JSON text it was given
export const scalarParams = (params, jsonParams = []) => Object.fromEntries(Object.entries(params || {})
  .map(([k, v]) => [k, jsonParams.includes(k) && v && typeof v === 'object' ? JSON.stringify(v) : scalar(v)]));

export { stopProcess, spawnLogged };

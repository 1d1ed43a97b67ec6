// End to end under act on this host: bench.yml's PR path to a comment body, and main's path through bench-publish.yml
// onto a local gh-pages remote with a stand-in for github-action-benchmark, each path twice in a row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import { ROOT, TOOLS_DIR, ensureTools } from '../ci/tools.js';
import { MARKER } from '../ci/github.js';

// The PR path needs the integrator's runner (`benchline run`); until it loads, this test waits for it.
const runnerMissing = await import('../ci/commands/run.js').then(() => false, (e) => `benchline run is not available yet (${e.message})`);

const JOB = 'orders-api.cache-on.ab.keepalive';
// One quick job: three trials a side (the fewest the comparison accepts) and a short ab run.
const PLAN_ARGS = '--suite orders-api --variant cache-on --tool ab --scenario keepalive --trials 3 --param requests=5000';
const LIMIT_MS = 8 * 60 * 1000;
// The stand-in behaves like github-action-benchmark on gh-pages (fetch unless told not to, commit, push only when told to).
const STANDIN = join(ROOT, 'test', 'support', 'gab-standin');

let tmp;
let repo;
let act;
const git = (args, cwd = repo) => {
  const r = spawnSync('git', ['-c', 'user.name=benchline test', '-c', 'user.email=test@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** A fresh repository with the project's files (what a clone would hold) and two commits: base and head. */
function snapshotRepo(into) {
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(into, f)), { recursive: true });
    cpSync(join(ROOT, f), join(into, f));
  }
  git(['init', '-q', '-b', 'main'], into);
  git(['add', '-A'], into);
  git(['commit', '-q', '-m', 'base'], into);
  const base = git(['rev-parse', 'HEAD'], into);
  appendFileSync(join(into, 'README.md'), '\nA change under review.\n');
  git(['commit', '-q', '-am', 'head'], into);
  return { base, head: git(['rev-parse', 'HEAD'], into) };
}

/** act clones every remote action of a job before any `if:`; each maps to a stub, and the workflow skips it. */
function stubActions(workflows, dir) {
  const flags = [];
  const seen = new Set();
  for (const wf of workflows) {
    for (const job of Object.values(wf.jobs)) {
      for (const s of job.steps || []) {
        if (!s.uses || s.uses.startsWith('./') || s.uses.startsWith('actions/checkout@') || seen.has(s.uses)) continue;
        seen.add(s.uses);
        if (s.uses.startsWith('benchmark-action/github-action-benchmark@')) {
          flags.push('--local-repository', `${s.uses}=${STANDIN}`);
          continue;
        }
        // act maps owner/repo@ref to a folder and finds a sub-action (actions/cache/restore) below it
        const [, repoName, sub = '', ref] = /^([^/]+\/[^/@]+)(?:\/([^@]+))?@(.+)$/.exec(s.uses);
        const stub = join(dir, `${repoName}@${ref}`.replace(/[^\w.-]+/g, '_'));
        mkdirSync(join(stub, sub), { recursive: true });
        writeFileSync(join(stub, sub, 'action.yml'), `name: stub\ndescription: ${s.uses} is GitHub-only; skipped under act\nruns:\n  using: composite\n  steps: []\n`);
        if (!flags.includes(`${repoName}@${ref}=${stub}`)) flags.push('--local-repository', `${repoName}@${ref}=${stub}`);
      }
    }
  }
  return flags;
}

before(() => {
  if (runnerMissing) return;
  act = ensureTools(['act', 'ab']).act.path;
  tmp = mkdtempSync(join(tmpdir(), 'benchline-act-'));
  repo = join(tmp, 'repo');
  mkdirSync(repo);
});
after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Runs one workflow for one event under act in `repo`; resolves { code, output } and keeps the log beside. */
async function runAct(event, workflow, payload, { vars = [], label }) {
  const wfDir = join(repo, '.github', 'workflows');
  const flags = stubActions(readdirSync(wfDir).map((f) => YAML.parse(readFileSync(join(wfDir, f), 'utf8'))), join(tmp, 'stubs'));
  const eventFile = join(tmp, `event-${label}.json`);
  writeFileSync(eventFile, JSON.stringify({ act: true, repository: { full_name: 'acme/app', name: 'app', owner: { login: 'acme' } }, ...payload }));
  const xdg = join(tmp, 'xdg');
  mkdirSync(join(xdg, 'config', 'act'), { recursive: true });
  writeFileSync(join(xdg, 'config', 'act', 'actrc'), '');
  const args = [event, '-W', `.github/workflows/${workflow}`, '-P', 'ubuntu-latest=-self-hosted', '-e', eventFile,
    ...vars.flatMap((v) => ['--var', v]),
    '--env', `BENCHLINE_ACT_ARTIFACTS=${join(tmp, 'artifacts')}`, '--env', `BENCHLINE_TOOLS=${TOOLS_DIR}`,
    '--env', `BENCHLINE_GH_PAGES_REMOTE=${pagesRemote}`, '--env', `STANDIN_LOG=${join(tmp, 'standin.log')}`,
    ...flags];
  const started = Date.now();
  const result = await new Promise((resolve) => {
    const child = spawn(act, args, {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: join(xdg, 'config'), XDG_CACHE_HOME: join(xdg, 'cache'), BENCHLINE_TOOLS: TOOLS_DIR },
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGTERM'), LIMIT_MS);
    child.on('close', (c, sig) => {
      clearTimeout(timer);
      resolve({ code: c ?? sig, output: out });
    });
  });
  writeFileSync(join(tmp, `act-${label}.log`), result.output);
  const lines = result.output.split('\n').filter((l) => !/unable to get git ref/.test(l));
  const failing = lines.filter((l) => /❌|Error|error:|fatal:|refused|gh-pages\.sh/.test(l)).slice(0, 40);
  result.summary = `act ${event} ${workflow} (${label}, ${Math.round((Date.now() - started) / 1000)} s):\n${failing.join('\n')}\n...\n${lines.slice(-25).join('\n')}`;
  if (process.env.BENCHLINE_ACT_LOGS) cpSync(join(tmp, `act-${label}.log`), join(process.env.BENCHLINE_ACT_LOGS, `act-${label}.log`));
  return result;
}

const succeededJobs = (output) => [...output.matchAll(/\[([^\]]+?)\s*\] 🏁 {2}Job succeeded/g)].map((m) => m[1]).sort();
const pagesGit = (...args) => git(['--git-dir', pagesRemote, ...args], tmp);
const pagesTip = () => spawnSync('git', ['--git-dir', pagesRemote, 'rev-parse', '--verify', '-q', 'refs/heads/gh-pages'], { encoding: 'utf8' }).stdout.trim();

let pagesRemote;

test('main\'s path twice, then the PR path twice, under act: every main run lands on gh-pages at its commit; PRs leave gh-pages alone', { skip: runnerMissing, timeout: 6 * LIMIT_MS }, async () => {
  const { base, head } = snapshotRepo(repo);
  pagesRemote = join(tmp, 'pages.git');
  git(['init', '-q', '--bare', pagesRemote], tmp);
  const vars = [`BENCHLINE_PLAN_ARGS=${PLAN_ARGS}`];
  const measured = [];
  for (const [round, sha] of [[1, base], [2, head]]) {
    git(['checkout', '-q', sha]);
    const push = await runAct('push', 'bench.yml', { ref: 'refs/heads/main', head_commit: { id: sha } }, { vars, label: `push-${round}` });
    assert.equal(push.code, 0, push.summary);
    assert.deepEqual(succeededJobs(push.output), ['bench/aggregate', `bench/bench-job/${JOB}`, 'bench/plan']);
    const runId = 9000 + round;
    const pub = await runAct('workflow_run', 'bench-publish.yml', { workflow_run: { id: runId, event: 'push', conclusion: 'success', head_sha: sha, head_branch: 'main' } }, { label: `publish-${round}` });
    assert.equal(pub.code, 0, pub.summary);
    assert.deepEqual(succeededJobs(pub.output), ['bench-publish/build', 'bench-publish/deploy', 'bench-publish/record']);
    assert.doesNotMatch(pub.output, /non-fast-forward|\[rejected\]/);
    measured.push(sha);
    const subjects = pagesGit('log', '--format=%s', 'gh-pages').split('\n');
    assert.equal(subjects.length, 3 * round, subjects.join('\n'));
    assert.match(subjects[2], new RegExp(`^history: bench run ${runId} at ${sha}$`));
  }
  git(['checkout', '-q', 'main']);
  const data = JSON.parse(pagesGit('show', 'gh-pages:gab/data.js').slice('window.BENCHMARK_DATA = '.length));
  for (const name of ['benchline (lower is better)', 'benchline (higher is better)']) {
    assert.deepEqual(data.entries[name].map((e) => e.commit.id), measured, `${name}: one point per main run, at the measured commit`);
  }
  const files = pagesGit('ls-tree', '-r', '--name-only', 'gh-pages').split('\n');
  const runs = new Set(files.map((f) => /^history\/runs\/\d{4}\/\d{2}\/([^/]+)\/main\/[^/]+\.json$/.exec(f)?.[1]).filter(Boolean));
  assert.equal(runs.size, 2, `both main runs are in the history:\n${files.join('\n')}`);
  assert.equal(existsSync(join(tmp, 'standin.log')), false, 'github-action-benchmark was never made to fetch, pull or push (with the token on its command line)');
  assert.ok(existsSync(join(tmp, 'artifacts', 'bench-publish-handover', 'site')) === false, 'the handover holds the history commit and exports, not the site');

  const before = pagesTip();
  for (const round of [1, 2]) {
    const pr = await runAct('pull_request', 'bench.yml', { number: 42, pull_request: { number: 42, base: { sha: base, ref: 'main' }, head: { sha: head, ref: 'feature' } } }, { vars, label: `pr-${round}` });
    const comment = readFileSync(join(tmp, 'artifacts', 'bench-comment', 'comment.md'), 'utf8');
    assert.ok(comment.startsWith(MARKER), comment.slice(0, 200));
    assert.match(comment, /orders-api/);
    if (pr.code !== 0) {
      // a regression verdict (noise on a shared machine can make one) fails the check, and only at its last step
      assert.match(pr.output, /Fail the check on a regression[\s\S]*❌ {2}Failure - Main Fail the check on a regression/, pr.summary);
      assert.match(comment, /The pull request's bench check fails on th(is|ese) regressions?/);
    } else {
      assert.deepEqual(succeededJobs(pr.output), ['bench/aggregate', `bench/bench-job/${JOB}`, 'bench/plan']);
    }
    assert.match(pr.output, /\[bench\/aggregate\s*\]\s+⚙  Summary - /, 'the job summary was not written');
    assert.equal(pagesTip(), before, 'a PR run never writes gh-pages');
  }
  const results = join(tmp, 'artifacts', `results-${JOB}`);
  const [runId] = readdirSync(results);
  const runDoc = JSON.parse(readFileSync(join(results, runId, 'run.json'), 'utf8'));
  assert.equal(runDoc.base.commit, base);
  assert.deepEqual(Object.keys(runDoc.jobs[0].docs).sort(), ['base', 'head']);
});

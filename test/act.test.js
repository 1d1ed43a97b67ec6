// End to end: bench.yml's PR path runs under act on this host, from plan to a comment body and a job summary.
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
        const stub = join(dir, s.uses.replace(/[^\w.-]+/g, '_'));
        mkdirSync(stub, { recursive: true });
        writeFileSync(join(stub, 'action.yml'), `name: stub\ndescription: ${s.uses} is GitHub-only; skipped under act\nruns:\n  using: composite\n  steps: []\n`);
        flags.push('--local-repository', `${s.uses}=${stub}`);
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

test('bench.yml runs a PR from plan to comment body and job summary under act', { skip: runnerMissing, timeout: LIMIT_MS + 30000 }, async () => {
  const { base, head } = snapshotRepo(repo);
  const wfDir = join(repo, '.github', 'workflows');
  const flags = stubActions(['bench.yml', 'bench-job.yml'].map((f) => YAML.parse(readFileSync(join(wfDir, f), 'utf8'))), join(tmp, 'stubs'));
  const event = join(tmp, 'event.json');
  writeFileSync(event, JSON.stringify({
    act: true,
    number: 42,
    pull_request: { number: 42, base: { sha: base, ref: 'main' }, head: { sha: head, ref: 'feature' } },
    repository: { full_name: 'acme/app', name: 'app', owner: { login: 'acme' } },
  }));
  const artifacts = join(tmp, 'artifacts');
  const xdg = join(tmp, 'xdg');
  mkdirSync(join(xdg, 'config', 'act'), { recursive: true });
  writeFileSync(join(xdg, 'config', 'act', 'actrc'), '');
  const args = ['pull_request', '-W', '.github/workflows/bench.yml', '-P', 'ubuntu-latest=-self-hosted', '-e', event,
    '--var', `BENCHLINE_PLAN_ARGS=${PLAN_ARGS}`,
    '--env', `BENCHLINE_ACT_ARTIFACTS=${artifacts}`, '--env', `BENCHLINE_TOOLS=${TOOLS_DIR}`,
    ...flags];
  const started = Date.now();
  const { code, output } = await new Promise((resolve) => {
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
  writeFileSync(join(tmp, 'act.log'), output);
  const tail = output.split('\n').slice(-60).join('\n');
  assert.equal(code, 0, `act failed (${Math.round((Date.now() - started) / 1000)} s):\n${tail}`);

  const succeeded = [...output.matchAll(/\[([^\]]+?)\s*\] 🏁 {2}Job succeeded/g)].map((m) => m[1]).sort();
  assert.deepEqual(succeeded, ['bench/aggregate', `bench/bench-job/${JOB}`, 'bench/plan']);
  assert.doesNotMatch(output, /\[bench\/images/, 'the Docker images job must not run under act');

  const results = join(artifacts, `results-${JOB}`);
  const [runId] = readdirSync(results);
  const run = JSON.parse(readFileSync(join(results, runId, 'run.json'), 'utf8'));
  assert.deepEqual(run.jobs.map((j) => [j.id, j.status]), [[JOB, 'ok']]);
  assert.equal(run.base.commit, base);
  assert.deepEqual(Object.keys(run.jobs[0].docs).sort(), ['base', 'head']);
  const headDoc = JSON.parse(readFileSync(join(results, runId, run.jobs[0].docs.head), 'utf8'));
  assert.equal(headDoc.trials, 3);
  assert.equal(headDoc.params.requests, 5000);

  const comment = readFileSync(join(artifacts, 'bench-comment', 'comment.md'), 'utf8');
  assert.ok(comment.startsWith(MARKER), comment.slice(0, 200));
  assert.match(comment, /orders-api/);
  assert.match(comment, /cache-on/);
  const summary = readFileSync(join(artifacts, 'bench-comment', 'summary.md'), 'utf8');
  assert.match(summary, /orders-api/);
  assert.match(output, /\[bench\/aggregate\s*\]\s+⚙  Summary - /, 'the job summary was not written');
});

// The GitHub workflows: linters (actionlint, zizmor, the workflow schemas), the security rules, and their helper scripts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync, existsSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT, ensureTools } from '../ci/tools.js';
import { loadConfig } from '../ci/config.js';
import { planInputs, planOutputs } from '../.github/scripts/plan.js';
import { mergeRuns, mergeResultsDirs } from '../.github/scripts/merge-results.js';
import { alertOutputs } from '../.github/scripts/alert-settings.js';

const WF_DIR = join(ROOT, '.github', 'workflows');
const workflowFiles = () => readdirSync(WF_DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
const load = (f) => YAML.parse(readFileSync(join(WF_DIR, f), 'utf8'));
const text = (f) => readFileSync(join(WF_DIR, f), 'utf8');
const steps = (wf) => Object.values(wf.jobs).flatMap((j) => j.steps || []);

let tools;
let tmp;
before(() => {
  tools = ensureTools(['actionlint', 'zizmor', 'check-jsonschema']);
  tmp = mkdtempSync(join(tmpdir(), 'benchline-wf-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

const run = (bin, args, opts = {}) => spawnSync(bin, args, { cwd: ROOT, encoding: 'utf8', timeout: 120000, ...opts });

test('the four workflows exist: bench, the reusable bench job, report and publish', () => {
  assert.deepEqual(workflowFiles(), ['bench-job.yml', 'bench-publish.yml', 'bench-report.yml', 'bench.yml']);
});

test('actionlint finds nothing in any workflow', () => {
  const r = run(tools.actionlint.path, ['-color=false', '-no-color']);
  assert.equal(`${r.stdout}${r.stderr}`, '');
  assert.equal(r.status, 0);
});

test('zizmor reports no finding at medium severity or above (offline audits)', () => {
  const r = run(tools.zizmor.path, ['--offline', '--no-progress', '--min-severity', 'medium', '.github/'], { env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /No findings to report/);
});

test('every workflow matches GitHub\'s workflow schema and sets a timeout on every job', () => {
  const files = workflowFiles().map((f) => join('.github', 'workflows', f));
  for (const schema of ['vendor.github-workflows', 'custom.github-workflows-require-timeout']) {
    const r = run(tools['check-jsonschema'].path, ['--builtin-schema', schema, ...files]);
    assert.equal(r.status, 0, `${schema}:\n${r.stdout}${r.stderr}`);
  }
  const r = run(tools['check-jsonschema'].path, ['--builtin-schema', 'vendor.github-actions', '.github/actions/local-artifact/action.yml']);
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test('workflows grant nothing at the top and declare permissions and a timeout per job', () => {
  for (const f of workflowFiles()) {
    const wf = load(f);
    assert.deepEqual(wf.permissions, {}, `${f}: top-level permissions must be {}`);
    for (const [id, job] of Object.entries(wf.jobs)) {
      assert.equal(typeof job.permissions, 'object', `${f}: job ${id} has no permissions block`);
      if (!job.uses) assert.ok(job['timeout-minutes'] !== undefined, `${f}: job ${id} has no timeout-minutes`);
    }
  }
});

test('every action is pinned to a full commit SHA with its version in a comment', () => {
  let count = 0;
  for (const f of [...workflowFiles().map((w) => join(WF_DIR, w)), join(ROOT, '.github/actions/local-artifact/action.yml')]) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      const m = /^\s*(?:-\s+)?uses:\s+(\S+)(.*)$/.exec(line);
      if (!m || m[1].startsWith('./')) continue;
      count++;
      assert.match(m[1], /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${f}: ${m[1]} is not pinned to a full SHA`);
      assert.match(m[2], /^\s+# v\d+\.\d+\.\d+$/, `${f}: ${m[1]} has no "# vX.Y.Z" comment`);
    }
  }
  assert.ok(count >= 20, `expected the pinned actions, found ${count}`);
});

test('checkouts never persist credentials, and nothing runs on pull_request_target', () => {
  for (const f of workflowFiles()) {
    assert.doesNotMatch(text(f), /pull_request_target/, f);
    for (const s of steps(load(f)).filter((x) => x.uses?.startsWith('actions/checkout@'))) {
      assert.equal(s.with?.['persist-credentials'], false, `${f}: a checkout keeps credentials`);
      assert.equal(s.with?.ref, undefined, `${f}: a checkout picks a ref; only the event's own commit is checked out`);
    }
  }
});

test('bench.yml runs on PRs touching it, on main, and on dispatch with typed inputs whose profiles come from the config', () => {
  const wf = load('bench.yml');
  assert.ok(wf.on.pull_request.paths.includes('.github/workflows/bench.yml'));
  assert.ok(wf.on.pull_request.paths.includes('.github/workflows/bench-job.yml'));
  assert.deepEqual(wf.on.push.branches, ['main']);
  const inputs = wf.on.workflow_dispatch.inputs;
  assert.deepEqual(Object.keys(inputs), ['suites', 'profile', 'trials', 'duration', 'connections', 'params', 'only', 'base-ref', 'runner']);
  for (const [name, def] of Object.entries(inputs)) {
    assert.ok(def.type && def.description, `input ${name} needs a type and a description`);
  }
  assert.deepEqual(inputs.profile.options, Object.keys(loadConfig(join(ROOT, 'bench.config.yaml')).profiles));
  assert.equal(inputs.runner.default, 'ubuntu-latest');
  assert.match(wf.concurrency.group, /github\.event\.pull_request\.number/);
  assert.equal(wf.concurrency['cancel-in-progress'], "${{ github.event_name == 'pull_request' }}");
  assert.deepEqual(Object.keys(wf.jobs), ['plan', 'images', 'bench', 'aggregate']);
  assert.equal(wf.jobs.bench.strategy['fail-fast'], false);
  assert.equal(wf.jobs.bench.uses, './.github/workflows/bench-job.yml');
  assert.equal(wf.jobs.bench.with['timeout-minutes'], 45);
  assert.match(wf.jobs.images.steps.at(-1).with.set, /type=gha/);
  const gab = wf.jobs.aggregate.steps.filter((s) => s.uses?.startsWith('benchmark-action/'));
  assert.equal(gab.length, 2);
  for (const s of gab) {
    assert.equal(s.with['auto-push'], false, 'only bench-publish.yml may write gh-pages');
    assert.equal(s.with['fail-on-alert'], '${{ steps.export.outputs.fail-on-alert }}');
    assert.equal(s.with['alert-threshold'], '${{ steps.export.outputs.alert-threshold }}');
  }
});

test('the PR path skips GitHub-only actions under act and runs a local step in their place', () => {
  for (const f of ['bench.yml', 'bench-job.yml']) {
    const wf = load(f);
    for (const [id, job] of Object.entries(wf.jobs)) {
      if (id === 'images') {
        assert.match(job.if, /!github\.event\.act/, 'the images job needs Docker and must not run under act');
        continue;
      }
      for (const s of job.steps || []) {
        if (!s.uses || s.uses.startsWith('./') || s.uses.startsWith('actions/checkout@')) continue;
        assert.match(s.if, /!env\.ACT/, `${f}/${id}: ${s.uses} runs under act`);
      }
      const uploads = (job.steps || []).filter((s) => /upload-artifact|download-artifact/.test(s.uses || ''));
      const local = (job.steps || []).filter((s) => s.uses === './.github/actions/local-artifact');
      assert.equal(local.length >= uploads.filter((s) => !/bench-results/.test(s.with?.name || '')).length, true, `${f}/${id}: an artifact step has no local stand-in`);
    }
  }
});

test('the reusable bench job describes and types every input and takes its runner and timeout from them', () => {
  const wf = load('bench-job.yml');
  const inputs = wf.on.workflow_call.inputs;
  for (const [name, def] of Object.entries(inputs)) assert.ok(def.type && def.description, `input ${name}`);
  assert.equal(inputs.job.required, true);
  assert.equal(wf.jobs.run['timeout-minutes'], '${{ inputs.timeout-minutes }}');
  assert.match(wf.jobs.run['runs-on'], /inputs\.runner/);
  assert.deepEqual(wf.jobs.run.permissions, { contents: 'read' });
  assert.equal(wf.jobs.run.steps[0].with['fetch-depth'], 0);
});

test('bench-report.yml comments with the least permission, and takes the PR number from the event, not the artifact', () => {
  const wf = load('bench-report.yml');
  assert.deepEqual(wf.on.workflow_run.workflows, ['bench']);
  assert.deepEqual(wf.jobs.comment.permissions, { actions: 'read', 'pull-requests': 'write' });
  const post = wf.jobs.comment.steps.at(-1);
  assert.match(post.run, /ci\/cli\.js comment --repo "\$GITHUB_REPOSITORY" --pr "\$PR"/);
  assert.equal(post.env.PR, '${{ steps.pr.outputs.number }}');
  assert.match(wf.jobs.comment.steps.find((s) => s.id === 'pr').run, /find-pr\.js/);
  assert.doesNotMatch(text('bench-report.yml'), /head_sha\s*}}|head\.sha\s*}}/, 'never check out or pass the PR commit');
});

test('bench-publish.yml is the only gh-pages writer, in one never-cancelled concurrency group', () => {
  const wf = load('bench-publish.yml');
  assert.deepEqual(wf.concurrency, { group: 'bench-publish', 'cancel-in-progress': false });
  assert.deepEqual(wf.on.workflow_run.branches, ['main']);
  assert.equal(wf.jobs.publish.permissions.contents, 'write');
  assert.deepEqual(wf.jobs.deploy.permissions, { pages: 'write', 'id-token': 'write' });
  for (const f of workflowFiles().filter((x) => x !== 'bench-publish.yml')) {
    assert.doesNotMatch(text(f), /contents:\s*write|auto-push:\s*true/, `${f} must not write to the repository`);
  }
});

test('plan arguments come from dispatch inputs, or from BENCHLINE_PLAN_ARGS on PRs, with the PR base as base', () => {
  assert.deepEqual(planInputs({ EVENT_NAME: 'workflow_dispatch', IN_SUITES: 'orders-api gateways', IN_PROFILE: 'full', IN_TRIALS: '7', IN_DURATION: '10s', IN_CONNECTIONS: '200', IN_BASE_REF: 'v1.2' }), {
    args: ['--suite', 'orders-api', '--suite', 'gateways', '--profile', 'full', '--trials', '7', '--param', 'duration=10s', '--param', 'connections=200'],
    params: 'duration=10s connections=200',
    base: 'v1.2',
  });
  assert.deepEqual(planInputs({ EVENT_NAME: 'pull_request', PR_BASE_SHA: 'abc123', PLAN_ARGS: '--suite orders-api --tool ab' }), {
    args: ['--suite', 'orders-api', '--tool', 'ab'], params: '', base: 'abc123',
  });
  assert.deepEqual(planInputs({ EVENT_NAME: 'push', PR_BASE_SHA: '', PLAN_ARGS: '--trials 3 --param requests=5000' }), {
    args: ['--trials', '3', '--param', 'requests=5000'], params: 'requests=5000', base: '',
  });
  assert.deepEqual(planInputs({ EVENT_NAME: 'workflow_dispatch', IN_SUITES: 'catalog-api', IN_PARAMS: ' pageSize=500  dateEnd=2024-06-30T23:59:59 ', IN_ONLY: 'variant=grpc tool=ghz' }), {
    args: ['--suite', 'catalog-api', '--variant', 'grpc', '--tool', 'ghz', '--param', 'pageSize=500', '--param', 'dateEnd=2024-06-30T23:59:59'], params: 'pageSize=500 dateEnd=2024-06-30T23:59:59', base: '',
  });
  assert.throws(() => planInputs({ EVENT_NAME: 'workflow_dispatch', IN_PARAMS: 'pageSize=5;id' }), /input params: "pageSize=5;id" is not key=value/);
  assert.throws(() => planInputs({ EVENT_NAME: 'workflow_dispatch', IN_ONLY: 'subject=x' }), /input only: "subject=x" is not variant=NAME/);
  assert.deepEqual(planInputs({ EVENT_NAME: 'workflow_dispatch', IN_TRIALS: '0', IN_CONNECTIONS: '0' }).args, []);
  assert.throws(() => planInputs({ EVENT_NAME: 'workflow_dispatch', IN_DURATION: '10 s' }), /input duration: "10 s" is not a duration/);
  assert.throws(() => planInputs({ EVENT_NAME: 'workflow_dispatch', IN_SUITES: 'a;rm' }), /input suites: "a;rm" is not a suite name/);
  assert.throws(() => planInputs({ EVENT_NAME: 'pull_request', PLAN_ARGS: '$(id)' }), /BENCHLINE_PLAN_ARGS: "\$\(id\)"/);
  assert.throws(() => planInputs({ EVENT_NAME: 'workflow_dispatch', IN_BASE_REF: '-rf' }), /base ref "-rf"/);
});

test('plan outputs carry the matrix, the subjects to build and the run overrides', () => {
  const matrix = { include: [{ id: 'a.x.ab.k', subject: 'orders-api' }, { id: 'b.y.wrk.p', subject: 'gateways' }, { id: 'a.z.ab.k', subject: 'orders-api' }] };
  assert.equal(planOutputs(`noise\nmatrix=${JSON.stringify(matrix)}\n`, { params: 'duration=1s', base: 'abc' }),
    `matrix=${JSON.stringify(matrix)}\nsubjects=["gateways","orders-api"]\njobs=3\nparams=duration=1s\nbase=abc`);
  assert.throws(() => planOutputs('nothing', { params: '', base: '' }), /printed no matrix= line/);
});

/** A results folder like `benchline run` writes for one job, built here from scratch (no tool output involved). */
function fakeJobRun(parent, runId, jobId, started, roles = ['head', 'base']) {
  const dir = join(parent, runId);
  const docs = {};
  for (const role of roles) {
    mkdirSync(join(dir, 'docs', role), { recursive: true });
    writeFileSync(join(dir, 'docs', role, `${jobId}.json`), JSON.stringify({ schema: 'benchline/result@1', run: { id: runId, role }, suite: jobId.split('.')[0] }));
    mkdirSync(join(dir, 'raw', role, jobId), { recursive: true });
    writeFileSync(join(dir, 'raw', role, jobId, 'trial-1.txt'), `${role} output`);
    docs[role] = `docs/${role}/${jobId}.json`;
  }
  const runJson = { schema: 'benchline/run@1', id: runId, startedAt: started, finishedAt: started.replace(':00.', ':30.'), config: 'bench.config.yaml', profile: 'quick', base: { ref: 'abc', commit: 'abc' }, head: { commit: 'def', dirty: false }, jobs: [{ id: jobId, status: 'ok', docs }] };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(runJson));
  symlinkSync(runId, join(parent, 'latest'));
  return runJson;
}

test('merges the matrix jobs\' runs into one run with every job, document and raw file', () => {
  const art = join(tmp, 'artifacts');
  const r1 = fakeJobRun(join(art, 'results-s.a.ab.k'), '20261122T030500Z-aaaaaa', 's.a.ab.k', '2026-11-22T03:05:00.000Z');
  const r2 = fakeJobRun(join(art, 'results-s.b.ab.k'), '20261122T030200Z-bbbbbb', 's.b.ab.k', '2026-11-22T03:02:00.000Z');
  const out = join(tmp, 'results');
  const { dir, run: merged } = mergeResultsDirs(art, out);
  assert.match(merged.id, /^20261122T030200Z-[0-9a-f]{6}$/);
  assert.deepEqual(merged.jobs.map((j) => j.id), ['s.a.ab.k', 's.b.ab.k']);
  assert.equal(merged.startedAt, '2026-11-22T03:02:00.000Z');
  assert.equal(merged.finishedAt, '2026-11-22T03:05:30.000Z');
  assert.deepEqual(merged.mergedFrom, [r2.id, r1.id]);
  assert.equal(readlinkSync(join(out, 'latest')), merged.id);
  const doc = JSON.parse(readFileSync(join(dir, 'docs', 'base', 's.a.ab.k.json'), 'utf8'));
  assert.deepEqual(doc.run, { id: merged.id, role: 'base' });
  assert.equal(readFileSync(join(dir, 'raw', 'head', 's.b.ab.k', 'trial-1.txt'), 'utf8'), 'head output');
  assert.equal(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).id, merged.id);
  assert.equal(mergeResultsDirs(art, out).run.id, merged.id, 'merging again gives the same id');
});

test('refuses to merge the same job twice or nothing at all, saying what went wrong', () => {
  const a = { id: '20261122T030000Z-aaaaaa', jobs: [{ id: 'x' }] };
  const b = { id: '20261122T030100Z-bbbbbb', jobs: [{ id: 'x' }] };
  assert.throws(() => mergeRuns([a, b]), /job x appears in runs 20261122T030000Z-aaaaaa and 20261122T030100Z-bbbbbb/);
  assert.throws(() => mergeRuns([]), /no run\.json found/);
  assert.throws(() => mergeResultsDirs(join(tmp, 'nope'), join(tmp, 'o')), /nope: no such folder/);
});

test('github-action-benchmark alert settings come from compare.alert, with the action\'s defaults otherwise', () => {
  assert.equal(alertOutputs({ compare: { alert: { threshold: '130%', failOnAlert: true } } }), 'alert-threshold=130%\nfail-on-alert=true\ncomment-on-alert=false');
  assert.equal(alertOutputs({ compare: {} }), 'alert-threshold=200%\nfail-on-alert=false\ncomment-on-alert=false');
  const r = run(process.execPath, ['.github/scripts/alert-settings.js', 'bench.config.yaml']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^alert-threshold=\d+(\.\d+)?%\nfail-on-alert=(true|false)\ncomment-on-alert=(true|false)\n$/);
});

test('the act stand-in for artifacts uploads without links and downloads by pattern into one folder per artifact', () => {
  const store = join(tmp, 'store');
  const src = join(tmp, 'src');
  fakeJobRun(src, '20261122T040000Z-cccccc', 's.c.ab.k', '2026-11-22T04:00:00.000Z', ['head']);
  const sh = (env) => run('bash', [join(ROOT, '.github/actions/local-artifact/local-artifact.sh')], { env: { ...process.env, BENCHLINE_ACT_ARTIFACTS: store, NAME: '', PATTERN: '', ...env } });
  const up = sh({ MODE: 'upload', NAME: 'results-s.c.ab.k', TARGET: src });
  assert.equal(up.status, 0, up.stderr);
  assert.equal(existsSync(join(store, 'results-s.c.ab.k', 'latest')), false);
  assert.ok(existsSync(join(store, 'results-s.c.ab.k', '20261122T040000Z-cccccc', 'run.json')));
  const dest = join(tmp, 'dest');
  const down = sh({ MODE: 'download', PATTERN: 'results-*', TARGET: dest });
  assert.equal(down.status, 0, down.stderr);
  assert.match(down.stdout, /downloaded 1 artifact\(s\) matching results-\*/);
  assert.ok(existsSync(join(dest, 'results-s.c.ab.k', '20261122T040000Z-cccccc', 'docs', 'head', 's.c.ab.k.json')));
  const noStore = sh({ MODE: 'upload', NAME: 'x', TARGET: src, BENCHLINE_ACT_ARTIFACTS: '' });
  assert.equal(noStore.status, 1);
  assert.match(noStore.stderr, /set BENCHLINE_ACT_ARTIFACTS/);
});

// The gh-pages writer needs the history store's `publish` verb; until it loads, this test waits for it.
const publishMissing = await import('../ci/commands/publish.js').then(() => false, (e) => `benchline publish is not available yet (${e.message})`);

test('publish-history.sh appends a run to gh-pages once, and a second push of the same run changes nothing', { skip: publishMissing, timeout: 120000 }, () => {
  const results = join(tmp, 'pub-results');
  const r0 = run(process.execPath, ['ci/cli.js', 'run', '--suite', 'orders-api', '--variant', 'cache-on', '--tool', 'ab', '--scenario', 'keepalive', '--trials', '1', '--param', 'requests=2000', '--out', results, '--no-progress']);
  assert.equal(r0.status, 0, r0.stderr);
  const server = join(tmp, 'server');
  mkdirSync(join(server, 'acme'), { recursive: true });
  assert.equal(run('git', ['init', '-q', '--bare', join(server, 'acme', 'app.git')]).status, 0);
  const env = { ...process.env, RESULTS_DIR: results, STORE_DIR: join(tmp, 'store-clone'), GH_TOKEN: 'unused-locally', GITHUB_SERVER_URL: `file://${server}`, GITHUB_REPOSITORY: 'acme/app', SOURCE_RUN: '7', SOURCE_SHA: 'abc' };
  const first = run('bash', ['.github/scripts/publish-history.sh'], { env });
  assert.equal(first.status, 0, `${first.stdout}${first.stderr}`);
  assert.match(first.stdout, /pushed on attempt 1/);
  const second = run('bash', ['.github/scripts/publish-history.sh'], { env });
  assert.equal(second.status, 0, `${second.stdout}${second.stderr}`);
  assert.match(second.stdout, /nothing to push/);
  const bare = join(server, 'acme', 'app.git');
  assert.equal(run('git', ['--git-dir', bare, 'rev-list', '--count', 'gh-pages']).stdout.trim(), '1');
  const files = run('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', 'gh-pages']).stdout.split('\n').filter(Boolean);
  assert.ok(files.includes('.nojekyll'));
  assert.ok(files.some((f) => f.startsWith('history/')), files.join(', '));
  assert.match(run('git', ['--git-dir', bare, 'log', '-1', '--format=%s', 'gh-pages']).stdout, /^history: bench run 7 at abc/);
});

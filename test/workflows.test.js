// The GitHub workflows: linters (actionlint, zizmor, the workflow schemas), the security rules, and their helper scripts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync, existsSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT, ensureTools, aptRunner } from '../ci/tools.js';
import { loadConfig } from '../ci/config.js';
import { planInputs, planOutputs } from '../.github/scripts/plan.js';
import { mergeRuns, mergeResultsDirs } from '../.github/scripts/merge-results.js';
import { alertOutputs } from '../.github/scripts/alert-settings.js';
import { tempDir } from './support/temp.js';

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

test('dependabot keeps the pinned actions and the npm packages current, and its file matches the dependabot schema', () => {
  const cfg = YAML.parse(readFileSync(join(ROOT, '.github/dependabot.yml'), 'utf8'));
  assert.deepEqual(cfg.updates.map((u) => [u['package-ecosystem'], u.directory]), [['github-actions', '/'], ['npm', '/']]);
  const r = run(tools['check-jsonschema'].path, ['--builtin-schema', 'vendor.dependabot', '.github/dependabot.yml']);
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test('workflows use Node 24 wherever they set a version', () => {
  for (const f of workflowFiles()) {
    for (const m of text(f).matchAll(/node-version:\s*"?(\d+)/g)) assert.equal(m[1], '24', f);
    for (const m of text(f).matchAll(/node-version:\n(?:\s+\w+:.*\n)*?\s+default: "(\d+)"/g)) assert.equal(m[1], '24', `${f}: input default`);
  }
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

/** Every script the workflows and the local actions run: `run:` blocks and actions/github-script's `script:`. */
function scripts() {
  const found = [];
  const add = (where, list) => list.forEach((s, i) => {
    const name = `${where} step ${s.name || s.id || i + 1}`;
    if (typeof s.run === 'string') found.push({ where: name, script: s.run });
    if (s.uses?.startsWith('actions/github-script@')) found.push({ where: name, script: String(s.with?.script ?? '') });
  });
  for (const f of workflowFiles()) for (const [id, job] of Object.entries(load(f).jobs)) add(`${f}/${id}`, job.steps || []);
  for (const a of readdirSync(join(ROOT, '.github/actions'))) {
    add(`actions/${a}`, YAML.parse(readFileSync(join(ROOT, '.github/actions', a, 'action.yml'), 'utf8')).runs.steps || []);
  }
  return found;
}

test('no script has a ${{ }} expression in it: event fields, inputs and step outputs reach scripts through env only', () => {
  const all = scripts();
  assert.ok(all.length >= 15, `expected the workflows' scripts, found ${all.length}`);
  for (const { where, script } of all) assert.doesNotMatch(script, /\$\{\{/, `${where}: pass the value through env: and quote "$VAR"`);
  // the check reads what GitHub would expand: a PR title in a run block is found
  const bad = YAML.parse('jobs:\n  x:\n    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n');
  assert.match(bad.jobs.x.steps[0].run, /\$\{\{/);
});

test('the bench job passes hostile job ids, parameters and refs to benchline as literal words, never as shell code or file patterns', () => {
  const job = load('bench-job.yml').jobs.run.steps;
  const dir = tempDir('hostile-inputs');
  writeFileSync(join(dir, 'pageSize=1'), ''); // a file a pattern in a parameter would expand to
  const env = {
    PATH: process.env.PATH,
    // prints each argument on a line of its own, as benchline would receive them
    BENCHLINE_CLI: 'printf %s\\n',
    JOB: 'a.b.c.d x";touch${IFS}pwned-job;"',
    SUITE: '$(touch pwned-suite)',
    CONFIG: '`touch pwned-config`',
    PROFILE: '"; touch pwned-profile; #',
    TRIALS: '3',
    PARAMS: 'pageSize=? n=$(touch${IFS}pwned-param)',
    BASE: 'main;touch pwned-base',
  };
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', job.find((s) => s.name.startsWith('Run the job')).run], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    'run', '--config', '`touch pwned-config`', '--suite', '$(touch pwned-suite)', '--out', 'results', '--no-progress',
    '--job', 'a.b.c.d', '--job', 'x";touch${IFS}pwned-job;"', '--profile', '"; touch pwned-profile; #', '--trials', '3',
    '--param', 'pageSize=?', '--param', 'n=$(touch${IFS}pwned-param)', '--base', 'main;touch pwned-base',
  ]);
  const output = join(dir, 'output');
  writeFileSync(output, '');
  const name = spawnSync('bash', ['-e', '-c', job.find((s) => s.id === 'name').run], { cwd: dir, env: { ...env, PREFIX: 'results-', JOB: 'a.b $(touch pwned-name)', GITHUB_OUTPUT: output }, encoding: 'utf8' });
  assert.equal(name.status, 0, name.stderr);
  assert.equal(readFileSync(output, 'utf8'), 'artifact=results-a.b+$(touch+pwned-name)\n');
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('pwned')), []);
});

test('the actions the docs tell an adopter to use are pinned as the workflows pin them', () => {
  const pins = new Map();
  for (const f of workflowFiles()) for (const m of text(f).matchAll(/uses:\s+([\w.-]+\/[\w.-]+)[\w./-]*@([0-9a-f]{40})\s+# (v[\d.]+)/g)) pins.set(m[1], `${m[2]} # ${m[3]}`);
  let count = 0;
  for (const doc of ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]) {
    for (const m of readFileSync(join(ROOT, doc), 'utf8').matchAll(/uses:\s+([\w.-]+\/[\w.-]+)[\w./-]*@(\S+)(.*)/g)) {
      if (m[1].startsWith('OWNER/')) continue; // benchline itself, at the adopter's chosen commit
      count++;
      assert.equal(`${m[2]}${m[3].replace(/\s+$/, '')}`.replace(/\s+#/, ' #'), pins.get(m[1]), `${doc}: ${m[1]} is not pinned as in the workflows`);
    }
  }
  assert.ok(count >= 2, `expected the adopter's checkout and setup-node, found ${count}`);
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
  assert.equal(wf.jobs.aggregate.steps.filter((s) => s.uses?.startsWith('benchmark-action/')).length, 0,
    'github-action-benchmark runs on main only, in bench-publish.yml; PR verdicts are benchline\'s own');
});

test('a PR check fails on a regression only after its comment body is uploaded, and only when compare.failOnRegression is on', () => {
  const agg = load('bench.yml').jobs.aggregate.steps;
  const fail = agg.at(-1);
  assert.match(fail.run, /ci\/cli\.js compare "\$RUN_DIR" --fail-on-regression/);
  assert.equal(fail.if, "${{ github.event_name == 'pull_request' && steps.report.outputs.fail-on-regression == 'true' }}");
  const report = agg.find((s) => s.id === 'report');
  assert.match(report.run, /alert-settings\.js bench\.config\.yaml >> "\$GITHUB_OUTPUT"/);
  const uploads = agg.map((s, i) => [s, i]).filter(([s]) => s.with?.name === 'bench-comment');
  assert.equal(uploads.length, 2);
  for (const [, i] of uploads) assert.ok(i < agg.length - 1);
  assert.equal(loadConfig(join(ROOT, 'bench.config.yaml')).compare.failOnRegression, true);
});

/** Every job's github-action-benchmark calls: a job may let at most its first call fetch gh-pages (upstream issues #174, #328). */
function doubleFetches(wf) {
  const found = [];
  for (const [id, job] of Object.entries(wf.jobs)) {
    const calls = (job.steps || []).filter((s) => s.uses?.startsWith('benchmark-action/github-action-benchmark@'));
    calls.forEach((s, i) => {
      if (i > 0 && s.with?.['skip-fetch-gh-pages'] !== true) found.push(`${id}: "${s.name}" fetches gh-pages after an earlier call committed to it`);
    });
  }
  return found;
}

test('no job lets github-action-benchmark fetch gh-pages twice, and the check finds the pattern that broke main', () => {
  for (const f of workflowFiles()) assert.deepEqual(doubleFetches(load(f)), [], f);
  const old = { jobs: { publish: { steps: [
    { name: 'a', uses: 'benchmark-action/github-action-benchmark@a7bc2366eda11037936ea57d811a43b3418d3073', with: { 'auto-push': true } },
    { name: 'b', uses: 'benchmark-action/github-action-benchmark@a7bc2366eda11037936ea57d811a43b3418d3073', with: { 'auto-push': true } },
  ] } } };
  assert.deepEqual(doubleFetches(old), ['publish: "b" fetches gh-pages after an earlier call committed to it']);
});

test('bench-publish.yml records the measured commit, never lets the action push or fetch with the token, and installs nothing where it can write', () => {
  const wf = load('bench-publish.yml');
  assert.deepEqual(Object.keys(wf.jobs), ['build', 'record', 'deploy']);
  assert.deepEqual(wf.jobs.build.permissions, { actions: 'read', contents: 'read' });
  assert.deepEqual(wf.jobs.record.permissions, { contents: 'write' });
  const record = wf.jobs.record.steps;
  assert.equal(record.filter((s) => /setup-node|cache/.test(s.uses || '')).length, 0, 'the writing job sets up no Node packages and restores no cache');
  for (const s of record.filter((x) => x.run)) assert.doesNotMatch(s.run, /\bnpm\b|\bnpx\b|node ci\//, `record step "${s.name}" runs project or package code`);
  const gab = record.filter((s) => s.uses?.startsWith('benchmark-action/'));
  assert.equal(gab.length, 2);
  for (const s of gab) {
    assert.equal(s.with.ref, '${{ github.event.workflow_run.head_sha }}');
    assert.equal(s.with['skip-fetch-gh-pages'], true);
    assert.equal(s.with['auto-push'], false);
    assert.equal(s.with['comment-on-alert'], '${{ needs.build.outputs.comment-on-alert }}');
  }
  assert.match(record.at(-1).run, /gh-pages\.sh push/);
  assert.equal(record.at(-1).if, "${{ !cancelled() && steps.take.outcome == 'success' }}", 'the history is pushed even when an alert failed a step');
  const cached = wf.jobs.build.steps.filter((s) => s.uses?.startsWith('actions/cache/'));
  assert.deepEqual(cached.map((s) => s.with.path), ['site\nsite-cache\n', 'site\nsite-cache\n'], 'the site and the parsed store are restored and saved together');
  const build = wf.jobs.build.steps.find((s) => /ci\/cli\.js site/.test(s.run || '')).run;
  assert.match(build, /--verify/);
  assert.match(build, /--cache site-cache/);
  const cfg = loadConfig(join(ROOT, 'bench.config.yaml')).compare.alert;
  assert.ok(cfg.commentOnAlert || cfg.failOnAlert, 'the shipped alert settings alert on main');
});

test('a job that reads the Pages API holds a pages permission, and bench-publish.yml\'s read-only build job uploads the site without one', () => {
  // actions/configure-pages calls GET /repos/{owner}/{repo}/pages, which a private repository refuses without pages: read
  for (const f of workflowFiles()) {
    for (const [id, job] of Object.entries(load(f).jobs)) {
      for (const s of (job.steps || []).filter((x) => x.uses?.startsWith('actions/configure-pages@'))) {
        assert.ok(job.permissions?.pages, `${f}/${id}: ${s.uses} needs pages: read`);
      }
    }
  }
  const build = load('bench-publish.yml').jobs.build;
  assert.deepEqual(build.permissions, { actions: 'read', contents: 'read' });
  assert.equal(build.steps.filter((s) => s.uses?.startsWith('actions/upload-pages-artifact@')).length, 1);
});

test('bench-publish.yml skips a github-action-benchmark call whose export has no entry, which the action would fail on', () => {
  const wf = load('bench-publish.yml');
  const exportStep = wf.jobs.build.steps.find((s) => s.name === 'Export for github-action-benchmark');
  // a run of hyperfine jobs alone (a real hyperfine output, normalized): no metric is higher-is-better
  const dir = tempDir('gab-empty');
  for (const f of ['ci', '.github', 'node_modules', 'package.json', 'bench.config.yaml']) symlinkSync(join(ROOT, f), join(dir, f));
  mkdirSync(join(dir, 'results', 'run-1'), { recursive: true });
  mkdirSync(join(dir, 'handover', 'gab'), { recursive: true });
  const doc = spawnSync(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'hyperfine', 'test/fixtures/hyperfine/several.json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(doc.status, 0, doc.stderr);
  writeFileSync(join(dir, 'results', 'run-1', 'hyperfine.json'), doc.stdout);
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const r = spawnSync('bash', ['-e', '-c', exportStep.run], { cwd: dir, encoding: 'utf8', env: { ...process.env, GITHUB_OUTPUT: output } });
  assert.equal(r.status, 0, r.stderr);
  const outputs = Object.fromEntries(readFileSync(output, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  assert.equal(JSON.parse(readFileSync(join(dir, 'handover/gab/bigger.json'), 'utf8')).length, 0);
  assert.equal(outputs['gab-bigger'], '0');
  assert.equal(outputs['gab-smaller'], String(JSON.parse(readFileSync(join(dir, 'handover/gab/smaller.json'), 'utf8')).length));
  assert.ok(Number(outputs['gab-smaller']) > 0);
  assert.equal(wf.jobs.build.outputs['gab-smaller'], '${{ steps.settings.outputs.gab-smaller }}');
  assert.equal(wf.jobs.build.outputs['gab-bigger'], '${{ steps.settings.outputs.gab-bigger }}');
  const calls = Object.fromEntries(wf.jobs.record.steps.filter((s) => s.uses?.startsWith('benchmark-action/')).map((s) => [s.with.tool, s]));
  assert.equal(calls.customSmallerIsBetter.with['output-file-path'], 'handover/gab/smaller.json');
  assert.match(calls.customSmallerIsBetter.if, /needs\.build\.outputs\.gab-smaller != '0'/);
  assert.equal(calls.customBiggerIsBetter.with['output-file-path'], 'handover/gab/bigger.json');
  assert.match(calls.customBiggerIsBetter.if, /needs\.build\.outputs\.gab-bigger != '0'/);
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
  assert.match(wf.jobs.comment.if, /^\$\{\{ github\.event\.workflow_run\.event == 'pull_request' && /, 'only PR runs have a comment to post');
  assert.equal(wf.jobs.comment.steps[0].with?.ref, undefined, 'the default branch is checked out, never the PR');
  const post = wf.jobs.comment.steps.at(-1);
  assert.match(post.run, /ci\/cli\.js comment --repo "\$GITHUB_REPOSITORY" --pr "\$PR"/);
  assert.equal(post.env.PR, '${{ steps.pr.outputs.number }}');
  assert.match(wf.jobs.comment.steps.find((s) => s.id === 'pr').run, /find-pr\.js/);
  assert.doesNotMatch(text('bench-report.yml'), /head_sha\s*}}|head\.sha\s*}}/, 'never check out or pass the PR commit');
});

test('bench-report.yml shares a concurrency group only between runs of the same PR branch, so a push or dispatch run on that branch never cancels its comment', () => {
  const { concurrency } = load('bench-report.yml');
  assert.equal(concurrency['cancel-in-progress'], true);
  assert.equal(concurrency.group, "bench-report-${{ github.event.workflow_run.event == 'pull_request' && format('pr-{0}-{1}', github.event.workflow_run.head_repository.full_name, github.event.workflow_run.head_branch) || github.run_id }}");
});

test('a job that can write restores no cache: no actions/cache, and setup-node with its package cache off', () => {
  let writers = 0;
  for (const f of workflowFiles()) {
    for (const [id, job] of Object.entries(load(f).jobs)) {
      if (!Object.values(job.permissions || {}).includes('write')) continue;
      writers++;
      for (const s of job.steps || []) {
        assert.doesNotMatch(s.uses || '', /^actions\/cache[@/]/, `${f}/${id}: a cache entry would be an input to a job that can write`);
        if (s.uses?.startsWith('actions/setup-node@')) {
          assert.equal(s.with?.cache, undefined, `${f}/${id}: setup-node restores the npm cache`);
          assert.equal(s.with?.['package-manager-cache'], false, `${f}/${id}: setup-node restores the npm cache when package.json names npm as its package manager`);
        }
      }
    }
  }
  assert.equal(writers, 3, 'the comment, record and deploy jobs');
});

test('bench-publish.yml is the only gh-pages writer, in one never-cancelled concurrency group', () => {
  const wf = load('bench-publish.yml');
  // branches: [main] also lets through a fork PR's run from a branch named main: the event must be push, too
  assert.equal(wf.jobs.build.if, "${{ github.event.workflow_run.event == 'push' && github.event.workflow_run.conclusion == 'success' }}");
  assert.equal(wf.jobs.record.needs, 'build');
  assert.deepEqual(wf.jobs.deploy.needs, ['build', 'record']);
  for (const id of ['record', 'deploy']) assert.equal(wf.jobs[id].if, undefined, `${id} runs only after build, never on a condition that could skip past it`);
  assert.deepEqual(wf.concurrency, { group: 'bench-publish', 'cancel-in-progress': false });
  assert.deepEqual(wf.on.workflow_run.branches, ['main']);
  assert.equal(wf.jobs.record.permissions.contents, 'write');
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
  assert.equal(alertOutputs({ compare: { alert: { threshold: '130%', failOnAlert: true }, failOnRegression: false } }), 'alert-threshold=130%\nfail-on-alert=true\ncomment-on-alert=false\nfail-on-regression=false');
  assert.equal(alertOutputs({ compare: {} }), 'alert-threshold=200%\nfail-on-alert=false\ncomment-on-alert=false\nfail-on-regression=true');
  const r = run(process.execPath, ['.github/scripts/alert-settings.js', 'bench.config.yaml']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'alert-threshold=150%\nfail-on-alert=false\ncomment-on-alert=true\nfail-on-regression=true\n');
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

const GH_PAGES = join(ROOT, '.github/scripts/gh-pages.sh');
const STANDIN = join(ROOT, 'test/support/gab-standin/standin.js');
const TOKEN = 'ghs_benchlineTestToken0123456789';
const REAL_GIT = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

/** A bare "GitHub" remote, a main checkout of it, and a git on PATH that logs every command line it is given. */
function ghSandbox(name) {
  const dir = join(tmp, name);
  const bare = join(dir, 'remote.git');
  const main = join(dir, 'main');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'bin', 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${join(dir, 'argv.log')}"\nexec "${REAL_GIT}" "$@"\n`, { mode: 0o755 });
  const g = (args, cwd = dir) => {
    const r = spawnSync(REAL_GIT, ['-c', 'user.name=t', '-c', 'user.email=t@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  g(['init', '-q', '--bare', '-b', 'main', bare]);
  g(['clone', '-q', bare, main]);
  writeFileSync(join(main, 'README.md'), 'app\n');
  g(['add', '-A'], main);
  g(['commit', '-q', '-m', 'app'], main);
  g(['push', '-q', 'origin', 'HEAD:main'], main);
  const env = { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, GH_TOKEN: TOKEN, GITHUB_SERVER_URL: 'https://github.com', BENCHLINE_CLI: `${process.execPath} ${join(ROOT, 'ci/cli.js')}`, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@localhost', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@localhost' };
  let jobs = 0;
  /** A fresh clone, as each job's checkout is; `origin` is the bare remote. */
  const checkout = () => {
    const co = join(dir, `job-${++jobs}`);
    g(['clone', '-q', bare, co]);
    return co;
  };
  const sh = (cwd, cmd, extra = {}) => spawnSync('bash', [GH_PAGES, cmd], { cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout: 60000 });
  const standin = (cwd, name, extra) => spawnSync(process.execPath, [STANDIN], { cwd, encoding: 'utf8', env: { ...env, IN_NAME: name, IN_TOOL: 'customBiggerIsBetter', IN_BRANCH: 'gh-pages', IN_DIR: 'gab', IN_TOKEN: TOKEN, IN_AUTO_PUSH: 'false', IN_SKIP_FETCH: 'true', IN_THRESHOLD: '150%', STANDIN_LOG: join(dir, 'standin.log'), ...extra } });
  return { dir, bare, g, env, checkout, sh, standin, remoteLog: () => g(['--git-dir', bare, 'log', '--format=%s', 'gh-pages']).split('\n') };
}

/** A result document normalized from a captured ab output (its own run id each call). */
function abDoc(file, into) {
  const r = run(process.execPath, ['ci/cli.js', 'normalize', '--tool', 'ab', `test/fixtures/ab/${file}`]);
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(into, r.stdout);
  return JSON.parse(r.stdout);
}

/** One bench-publish run: build in one checkout, then take, two recording calls and push in another. */
function publishRound(box, doc, round) {
  const build = box.checkout();
  const handover = join(box.dir, `handover-${round}`);
  const b = box.sh(build, 'build', { RESULTS_DIR: doc, WORK_DIR: join(box.dir, `wt-${round}`), HANDOVER: handover, SOURCE_RUN: String(round), SOURCE_SHA: `sha${round}` });
  assert.equal(b.status, 0, `build: ${b.stdout}${b.stderr}`);
  const gabFile = join(box.dir, `gab-${round}.json`);
  writeFileSync(gabFile, JSON.stringify([{ name: 'orders-api/cache-on/ab/keepalive/throughput', unit: 'ops/s', value: 1000 * round }]));
  const record = box.checkout();
  const t = box.sh(record, 'take', { HANDOVER: handover });
  assert.equal(t.status, 0, `take: ${t.stdout}${t.stderr}`);
  for (const name of ['lower', 'higher']) {
    const c = box.standin(record, name, { IN_OUTPUT: gabFile, IN_REF: `measured-${round}` });
    assert.equal(c.status, 0, `${name}: ${c.stdout}${c.stderr}`);
  }
  const p = box.sh(record, 'push');
  assert.equal(p.status, 0, `push: ${p.stdout}${p.stderr}`);
  return { build, record, handover };
}

test('two main runs in a row each land on gh-pages as one history commit plus the action\'s two, recorded at the measured commit, the token never on a command line', { timeout: 120000 }, () => {
  const box = ghSandbox('gh-two-runs');
  const docs = [abDoc('keepalive.txt', join(box.dir, 'a.json')), abDoc('many.txt', join(box.dir, 'b.json'))];
  publishRound(box, join(box.dir, 'a.json'), 1);
  publishRound(box, join(box.dir, 'b.json'), 2);
  assert.deepEqual(box.remoteLog(), [
    'add higher (customBiggerIsBetter) benchmark result for measured-2', 'add lower (customBiggerIsBetter) benchmark result for measured-2', 'history: bench run 2 at sha2',
    'add higher (customBiggerIsBetter) benchmark result for measured-1', 'add lower (customBiggerIsBetter) benchmark result for measured-1', 'history: bench run 1 at sha1',
  ]);
  const files = box.g(['--git-dir', box.bare, 'ls-tree', '-r', '--name-only', 'gh-pages']).split('\n');
  for (const d of docs) assert.ok(files.some((f) => f.startsWith('history/') && f.includes(d.run.id)), `run ${d.run.id} is in the history`);
  assert.ok(files.includes('.nojekyll') && files.includes('gab/data.js'));
  const data = JSON.parse(box.g(['--git-dir', box.bare, 'show', 'gh-pages:gab/data.js']).slice('window.BENCHMARK_DATA = '.length));
  assert.deepEqual(data.entries.higher.map((e) => e.commit.id), ['measured-1', 'measured-2']);
  const argv = readFileSync(join(box.dir, 'argv.log'), 'utf8');
  assert.ok(argv.includes('bundle create'), 'the log holds the scripts\' git commands');
  assert.ok(!argv.includes(TOKEN) && !argv.includes(Buffer.from(`x-access-token:${TOKEN}`).toString('base64')), 'the token (or its header) was on a git command line');
  assert.equal(existsSync(join(box.dir, 'standin.log')), false, 'the action was never made to fetch, pull or push with the token');
});

test('the record job refuses a handed-over commit that is not on top of gh-pages or that touches files outside history/', { timeout: 120000 }, () => {
  const box = ghSandbox('gh-refuse');
  publishRound(box, (abDoc('keepalive.txt', join(box.dir, 'a.json')), join(box.dir, 'a.json')), 1);
  abDoc('many.txt', join(box.dir, 'b.json'));
  const build = box.checkout();
  const handover = join(box.dir, 'late');
  assert.equal(box.sh(build, 'build', { RESULTS_DIR: join(box.dir, 'b.json'), WORK_DIR: join(box.dir, 'wt-late'), HANDOVER: handover }).status, 0);
  const other = box.checkout();
  box.g(['fetch', '-q', 'origin', 'gh-pages:gh-pages'], other);
  box.g(['switch', '-q', 'gh-pages'], other);
  box.g(['commit', '-q', '--allow-empty', '-m', 'someone else'], other);
  box.g(['push', '-q', 'origin', 'gh-pages'], other);
  const stale = box.sh(box.checkout(), 'take', { HANDOVER: handover });
  assert.equal(stale.status, 1);
  assert.match(stale.stderr, /gh-pages moved from [0-9a-f]{40} to [0-9a-f]{40} since the build job/);

  const tip = box.g(['--git-dir', box.bare, 'rev-parse', 'gh-pages']);
  box.g(['commit', '-q', '--allow-empty', '-m', 'x'], other);
  writeFileSync(join(other, 'index.html'), '<script>steal()</script>');
  box.g(['reset', '-q', '--soft', 'HEAD~1'], other);
  box.g(['add', 'index.html'], other);
  box.g(['commit', '-q', '-m', 'history: not only history'], other);
  box.g(['branch', '-f', 'benchline-handover', 'HEAD'], other);
  const evil = join(box.dir, 'evil');
  mkdirSync(evil);
  writeFileSync(join(evil, 'base'), `${tip}\n`);
  box.g(['bundle', 'create', '-q', join(evil, 'history.bundle'), `${tip}..benchline-handover`], other);
  const foreign = box.sh(box.checkout(), 'take', { HANDOVER: evil });
  assert.equal(foreign.status, 1);
  assert.match(foreign.stderr, /touches paths outside history\/: index\.html/);
});

test('the record job refuses a handed-over commit that moves a file from outside history/ into it, or adds a link there', { timeout: 120000 }, () => {
  const box = ghSandbox('gh-escape');
  publishRound(box, (abDoc('keepalive.txt', join(box.dir, 'a.json')), join(box.dir, 'a.json')), 1);
  const tip = box.g(['--git-dir', box.bare, 'rev-parse', 'gh-pages']);
  const other = box.checkout();
  box.g(['fetch', '-q', 'origin', 'gh-pages:gh-pages'], other);
  box.g(['switch', '-q', 'gh-pages'], other);
  /** Hands over the commit `change` makes on top of gh-pages, as a build job would, and runs take on it. */
  const takeOf = (name, change) => {
    box.g(['reset', '-q', '--hard', tip], other);
    change();
    box.g(['commit', '-q', '-m', `history: ${name}`], other);
    box.g(['branch', '-f', 'benchline-handover', 'HEAD'], other);
    const handover = join(box.dir, name);
    mkdirSync(handover);
    writeFileSync(join(handover, 'base'), `${tip}\n`);
    box.g(['bundle', 'create', '-q', join(handover, 'history.bundle'), `${tip}..benchline-handover`], other);
    return box.sh(box.checkout(), 'take', { HANDOVER: handover });
  };
  // git diff lists a rename under its new name only: the file it took away from gab/ must be named too
  const moved = takeOf('moved', () => box.g(['mv', 'gab/data.js', 'history/data.js'], other));
  assert.equal(moved.status, 1, moved.stdout);
  assert.match(moved.stderr, /touches paths outside history\/: gab\/data\.js/);
  // a link in the store would make the next build read (and publish) whatever it points at on the runner
  const linked = takeOf('linked', () => {
    symlinkSync('/proc/self/environ', join(other, 'history', 'environ'));
    box.g(['add', 'history/environ'], other);
  });
  assert.equal(linked.status, 1, linked.stdout);
  assert.match(linked.stderr, /adds a link or submodule: history\/environ/);
  const fine = takeOf('fine', () => {
    writeFileSync(join(other, 'history', 'note.txt'), 'a regular file\n');
    box.g(['add', 'history/note.txt'], other);
  });
  assert.equal(fine.status, 0, fine.stderr);
});

test('the stand-in for github-action-benchmark fails as the action does when a second call fetches gh-pages, and passes with skip-fetch-gh-pages', { timeout: 60000 }, () => {
  const box = ghSandbox('gh-standin');
  const seed = box.checkout();
  box.g(['switch', '-q', '--orphan', 'gh-pages'], seed);
  box.g(['commit', '-q', '--allow-empty', '-m', 'pages'], seed);
  box.g(['push', '-q', 'origin', 'gh-pages'], seed);
  const file = join(box.dir, 'gab.json');
  writeFileSync(file, JSON.stringify([{ name: 'x', unit: 'ns', value: 1 }]));
  const job = box.checkout();
  const call = (name, skip) => box.standin(job, name, { IN_OUTPUT: file, IN_REF: 'abc', IN_TOKEN: '', IN_SKIP_FETCH: String(skip), BENCHLINE_GH_PAGES_REMOTE: box.bare });
  assert.equal(call('first', false).status, 0);
  const second = call('second', false);
  assert.equal(second.status, 1);
  assert.match(second.stderr, /rejected.*gh-pages.*non-fast-forward/);
  assert.equal(call('second', true).status, 0);
  assert.equal(box.g(['log', '-1', '--format=%s', 'gh-pages'], job), 'add second (customBiggerIsBetter) benchmark result for abc');
});

test('on a runner whose user is not root, apt packages install through passwordless sudo, and without it the error says what to run', () => {
  // GitHub-hosted runners run as a user with `sudo -n`; a stand-in sudo on PATH records how it was called.
  const bin = tempDir('sudo');
  const calls = join(bin, 'calls');
  writeFileSync(join(bin, 'sudo'), `#!/bin/sh\nprintf "%s\\n" "$*" >> ${calls}\n[ "$1 $2" = "-n true" ]\n`, { mode: 0o755 });
  const saved = process.env.PATH;
  try {
    process.env.PATH = `${bin}:${saved}`;
    assert.deepEqual(aptRunner(1001), ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get']);
    assert.equal(readFileSync(calls, 'utf8'), '-n true\n', 'asked sudo once, without a password prompt');
    writeFileSync(join(bin, 'sudo'), '#!/bin/sh\necho "sudo: a password is required" >&2\nexit 1\n', { mode: 0o755 });
    assert.equal(aptRunner(1001), null, 'sudo wants a password: the error names the packages to install instead');
    assert.deepEqual(aptRunner(0), ['apt-get'], 'root runs apt-get itself');
  } finally {
    process.env.PATH = saved;
  }
});

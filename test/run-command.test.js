// `benchline run`'s closing lines: what failed and why, with the last lines of the failing process's log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oneProcessProject } from './support/project.js';
import { closingLines } from '../ci/commands/run.js';

const CLI = fileURLToPath(new URL('../ci/cli.js', import.meta.url));

test('a subject that exits before it is healthy is named at the end of run with the last lines of its log, not a reason ending in a colon', () => {
  const repo = oneProcessProject('run-command', {
    subject: 'shop',
    command: '["sh", "-c", "echo \'shop: database file data/shop.db not found\' >&2; exit 2"]',
    config: 'version: 1\nsuites:\n  shop:\n    subject: shop\n    jobs: [{ tool: ab, scenario: product, trials: 1, params: { requests: 10 } }]\n',
  });
  const r = spawnSync(process.execPath, [CLI, 'run', '--no-progress'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const end = r.stderr.slice(r.stderr.indexOf('benchline: 0/1 jobs done')).split('\n');
  assert.match(end[1], /^ {2}failed shop\.default\.ab\.product: subject process shop\/api exited \(code 2\) before it was healthy\. Last lines of .*api\.log:$/);
  assert.equal(end[2], '      | shop: database file data/shop.db not found');
});

test('a failed job without a log is one line, and only the last five lines of a long log are shown', () => {
  const run = { jobs: [
    { id: 'a.default.ab.x', status: 'ok' },
    { id: 'a.default.wrk.y', status: 'failed', reason: 'wrk was not found' },
    { id: 'a.default.k6.z', status: 'failed', reason: 'subject process a/api exited (code 1) before it was healthy. Last lines of api.log:', logTail: '1\n2\n3\n4\n5\n6\n' },
  ] };
  assert.deepEqual(closingLines('results/r1', run), [
    'benchline: 1/3 jobs done; results in results/r1',
    '  failed a.default.wrk.y: wrk was not found',
    '  failed a.default.k6.z: subject process a/api exited (code 1) before it was healthy. Last lines of api.log:',
    '      | 2', '      | 3', '      | 4', '      | 5', '      | 6',
  ]);
});

test('the closing lines of a Node subject that crashed put its error line before the stack that follows it', () => {
  // captured from node v20.20.2 (test/fixtures/logs/node-crash.cmd)
  const logTail = readFileSync(new URL('./fixtures/logs/node-crash.log', import.meta.url), 'utf8');
  const lines = closingLines('results/r1', { jobs: [{ id: 'a.default.ab.x', status: 'failed', reason: 'subject process a/app exited (code 1) before it was healthy. Last lines of app.log:', logTail }] });
  assert.deepEqual(lines.slice(2), [
    '      | Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:htp',
    '      | …',
    "      |   code: 'ERR_UNKNOWN_BUILTIN_MODULE'",
    '      | }',
    '      | Node.js v20.20.2',
  ]);
});

test('run leaves a file named latest in its results root alone, replacing only the link an earlier run made', () => {
  const repo = oneProcessProject('run-latest', {
    subject: 'cli',
    command: '["true"]',
    config: 'version: 1\nsuites:\n  cli:\n    subject: cli\n    variants: { only: { processes: [] } }\n    jobs: [{ tool: hyperfine, scenario: t, trials: 1, params: { commands: "true", runs: 2, warmup: 0 } }]\n',
  });
  // a results root that is a folder of the user's (--out .), with notes of their own named latest
  mkdirSync(join(repo, 'out'));
  writeFileSync(join(repo, 'out', 'latest'), 'my notes\n');
  const r = spawnSync(process.execPath, [CLI, 'run', '--no-progress', '--out', 'out'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(repo, 'out', 'latest'), 'utf8'), 'my notes\n');
  // where latest is a link, as run makes it, the next run points it at itself
  mkdirSync(join(repo, 'res'));
  for (let i = 0; i < 2; i += 1) assert.equal(spawnSync(process.execPath, [CLI, 'run', '--no-progress', '--out', 'res'], { cwd: repo, encoding: 'utf8' }).status, 0);
  assert.ok(lstatSync(join(repo, 'res', 'latest')).isSymbolicLink());
  assert.ok(existsSync(join(repo, 'res', 'latest', 'run.json')));
});

test('run refuses the root or the home folder as its results root before anything is written', () => {
  const repo = oneProcessProject('run-home', {
    subject: 'cli',
    command: '["true"]',
    config: 'version: 1\nsuites:\n  cli:\n    subject: cli\n    variants: { only: { processes: [] } }\n    jobs: [{ tool: hyperfine, scenario: t, trials: 1, params: { commands: "true", runs: 2, warmup: 0 } }]\n',
  });
  const home = join(repo, 'home');
  mkdirSync(home);
  const r = spawnSync(process.execPath, [CLI, 'run', '--no-progress', '--out', home], { cwd: repo, encoding: 'utf8', env: { ...process.env, HOME: home } });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^benchline run: --out .*\/home: the results need a folder of their own \(each run adds a folder and a latest link there\); give a new folder, e\.g\. results in the project\n$/);
  assert.deepEqual(readdirSync(home), []);
});

// A subject manifest's target that load tools cannot use: the failure names the manifest and what to write there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../ci/config.js';
import { planJobs } from '../ci/plan.js';
import { runJobs, targetHint } from '../ci/runner.js';
import { freePort } from '../ci/subjects.js';
import { oneProcessProject } from './support/project.js';

// a server that answers /health (and everything else) on the port benchline gives it
const SERVER = "require('http').createServer((q, r) => r.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";

/** Runs one job against a subject whose manifest ends with `target` (YAML text, or '' for none). */
async function runWithTarget(job, target) {
  const repo = oneProcessProject('target', {
    subject: 'svc',
    command: `[${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(SERVER)}]`,
    env: '{ PORT: "${port.http}" }',
    target,
    config: `version: 1\nsuites:\n  s:\n    subject: svc\n    jobs: [${job}]\n`,
  });
  const config = loadConfig(join(repo, 'bench.config.yaml'));
  const { run } = await runJobs(planJobs(config), { config, out: join(repo, 'results'), progress: false });
  return run.jobs[0];
}

test('a subject manifest without target.url fails an ab job naming the manifest and what to add, not the job params', async () => {
  const job = await runWithTarget('{ tool: ab, scenario: x, trials: 1, params: { requests: 10 } }', '');
  assert.equal(job.status, 'failed');
  assert.equal(job.reason, 'subjects/svc/subject.yaml: ab: the job has no target URL (subject manifest: target.url); add target: { url: "http://127.0.0.1:${port.NAME}" } to it');
});

test('a target.url on a port that is none of the subject\'s ports says so when ab and wrk are refused, naming the manifest and ${port.NAME}', async () => {
  const closed = await freePort();
  for (const job of ['{ tool: ab, scenario: x, trials: 1, params: { requests: 10 } }', '{ tool: wrk, scenario: x, trials: 1, params: { duration: 1s, threads: 1, connections: 1 } }']) {
    const result = await runWithTarget(job, `target: { url: "http://127.0.0.1:${closed}" }`);
    assert.equal(result.status, 'failed');
    assert.match(result.reason, /[Cc]onnection refused/);
    assert.match(result.reason, new RegExp(`; target\\.url http://127\\.0\\.0\\.1:${closed} in subjects/svc/subject\\.yaml names port ${closed}, none of the subject's ports \\(http \\d+\\): write \\$\\{port\\.http\\} there$`));
  }
});

test('a refused connection on one of the subject\'s own ports, or another failure, gets no target hint', () => {
  const target = { url: 'http://127.0.0.1:4000' };
  assert.equal(targetHint('ab stopped before its report: apr_socket_recv: Connection refused (111)', target, { http: 4000 }, 'm.yaml'), '');
  assert.equal(targetHint('ab stopped before its report: apr_pollset_poll: The timeout specified has expired (70007)', target, { http: 4001 }, 'm.yaml'), '');
});

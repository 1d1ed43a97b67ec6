#!/usr/bin/env node
// bench-report.yml: the PR a finished bench run belongs to, from the workflow_run event and the API, never from its artifact.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { githubClient, parseRepo, findPullRequest } from '../../ci/github.js';

async function main() {
  const { owner, repo } = parseRepo(process.env.GITHUB_REPOSITORY);
  const event = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'));
  const octokit = githubClient({ token: process.env.GITHUB_TOKEN, baseUrl: process.env.GITHUB_API_URL || undefined });
  const number = await findPullRequest(octokit, { owner, repo, workflowRun: event.workflow_run });
  if (!number) {
    process.stderr.write(`find-pr: no open pull request has head ${event.workflow_run?.head_sha}; nothing to comment on\n`);
    return 0;
  }
  process.stdout.write(`number=${number}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode = code; }, (e) => {
    process.stderr.write(`find-pr: ${e.message}\n`);
    process.exitCode = 2;
  });
}

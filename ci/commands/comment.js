// `benchline comment --repo o/n --pr N --body-file F`: posts the sticky PR comment, or updates the one already there.
import { lstatSync, readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { githubClient, parseRepo, prepareBody, upsertComment } from '../github.js';

/** An artifact is untrusted: refuse links (they could point anywhere on the runner) and oversized files. */
const MAX_BODY_BYTES = 1024 * 1024;

export function readBodyFile(file) {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    throw new UserError(`${file}: no such file. Render one with: benchline report <results-dir> --format comment -o ${file}`);
  }
  if (!st.isFile()) throw new UserError(`${file}: not a regular file (links and folders are refused); pass the comment.md written by benchline report`);
  // a file of no size has nothing to post; /proc files also say 0 while their content (the environment, a token) is made
  // on reading, so they are refused before anything is read
  if (st.size === 0) throw new UserError(`${file}: empty comment body (0 bytes on disk); render one with benchline report <results-dir> --format comment`);
  if (st.size > MAX_BODY_BYTES) throw new UserError(`${file}: ${st.size} bytes is too large for a PR comment (limit ${MAX_BODY_BYTES}); render it again with benchline report --format comment`);
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) throw new UserError(`${file}: empty comment body; render one with benchline report <results-dir> --format comment`);
  return text;
}

/** Plain-words reasons for the API errors a workflow can actually hit. */
function explain(e, where, apiUrl) {
  // no HTTP answer at all (octokit reports a failed connection as status 500 without a response)
  if (!e.response) return `${where}: no answer from ${apiUrl} (${e.message}); check --api-url (GITHUB_API_URL) and the network`;
  const hints = {
    401: 'the token was rejected; pass a valid GITHUB_TOKEN',
    403: 'the token may not write comments; grant the job `pull-requests: write`',
    404: 'no such repository or pull request, or the token cannot see it',
  };
  return `${where}: GitHub answered ${e.status || 'with an error'}: ${hints[e.status] || e.message}`;
}

export default async function comment(opts) {
  const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN;
  if (!token) throw new UserError('no token: set GITHUB_TOKEN (in a workflow: env: GITHUB_TOKEN: ${{ github.token }})');
  let target;
  try {
    target = parseRepo(opts.repo);
  } catch (e) {
    throw new UserError(`--repo: ${e.message}`);
  }
  const issue = Number(opts.pr);
  if (!Number.isInteger(issue) || issue < 1) throw new UserError(`--pr: "${opts.pr}" is not a pull request number`);
  const body = prepareBody(readBodyFile(opts.bodyFile));
  const octokit = githubClient({ token, baseUrl: opts.apiUrl });
  let result;
  try {
    result = await upsertComment(octokit, { ...target, issue, body });
  } catch (e) {
    throw new UserError(explain(e, `${opts.repo}#${issue}`, opts.apiUrl));
  }
  process.stdout.write(`benchline comment: ${result.action} comment ${result.id} on ${opts.repo}#${issue}${result.url ? ` (${result.url})` : ''}\n`);
  return 0;
}

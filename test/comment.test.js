// The sticky PR comment: body hardening, finding our own comment, and create-then-update against a GitHub stand-in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MARKER, githubClient, prepareBody, isStickyComment, upsertComment, findPullRequest, parseRepo } from '../ci/github.js';
import { readBodyFile } from '../ci/commands/comment.js';
import { startFakeGitHub } from './support/fake-github.js';

const run = promisify(execFile);
const CLI = new URL('../ci/cli.js', import.meta.url).pathname;
const TOKENS = {
  'gh-installation': { installation: true, canWrite: true },
  'gh-readonly': { installation: true, canWrite: false },
  'pat-alice': { login: 'alice-bot', type: 'User', canWrite: true },
};

let gh;
let dir;
before(async () => {
  gh = await startFakeGitHub({ tokens: TOKENS });
  dir = mkdtempSync(join(tmpdir(), 'benchline-comment-'));
});
after(async () => {
  await gh.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args, token = 'gh-installation') => run(process.execPath, [CLI, 'comment', ...args, '--api-url', gh.url], {
  env: { ...process.env, GITHUB_TOKEN: token, GH_TOKEN: '' },
}).then((r) => ({ code: 0, ...r }), (e) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }));

test('puts the hidden marker first and keeps it only once', () => {
  const body = prepareBody(`${MARKER}\n## ✅ no regressions\n${MARKER}\n`);
  assert.equal(body, `${MARKER}\n## ✅ no regressions\n\n`);
  assert.equal(prepareBody('plain').startsWith(`${MARKER}\nplain`), true);
});

test('defuses @mentions from an untrusted body but leaves emails and tool@version alone', () => {
  assert.equal(prepareBody('ping @octocat and @org/team', {}).split('\n')[1], 'ping @\u200boctocat and @\u200borg/team');
  assert.equal(prepareBody('k6@v1.8.1 a@b.c').split('\n')[1], 'k6@v1.8.1 a@b.c');
  // GitHub mentions after any character that is not a letter, digit or _, and renders entities as @
  assert.equal(prepareBody('@@octocat x/@octocat a`@octocat &#64;octocat &#x40;octocat &commat;octocat').split('\n')[1],
    '@@\u200boctocat x/@\u200boctocat a`@\u200boctocat &#64;\u200boctocat &#x40;\u200boctocat &commat;\u200boctocat');
});

test('cuts a body at GitHub\'s 65,536-character limit and says so', () => {
  const body = prepareBody('x'.repeat(200000));
  assert.equal(body.length, 65536);
  assert.match(body, /comment cut at GitHub's size limit/);
  assert.equal(prepareBody('a\0b\r\nc'), `${MARKER}\nab\nc`);
});

test('recognises our comment by marker and author, never a person quoting the marker', () => {
  const bot = { body: `${MARKER}\nx`, user: { login: 'github-actions[bot]', type: 'Bot' } };
  const quote = { body: `> ${MARKER}`, user: { login: 'mallory', type: 'User' } };
  assert.equal(isStickyComment(bot), true);
  assert.equal(isStickyComment(quote), false);
  assert.equal(isStickyComment(bot, 'alice-bot'), false);
  assert.equal(isStickyComment({ ...quote, user: { login: 'alice-bot', type: 'User' } }, 'alice-bot'), true);
  assert.equal(isStickyComment({ body: 'no marker', user: bot.user }), false);
});

test('refuses repository names that are not owner/name', () => {
  assert.deepEqual(parseRepo('acme/bench-line'), { owner: 'acme', repo: 'bench-line' });
  assert.throws(() => parseRepo('acme/../x'), /not of the form owner\/name/);
  for (const bad of ['../..', 'acme/..', 'acme/.', '-acme/x', 'ac.me/x', `${'a'.repeat(101)}/x`]) assert.throws(() => parseRepo(bad), /not of the form owner\/name/, bad);
  assert.deepEqual(parseRepo('a1-b2/x.y_z'), { owner: 'a1-b2', repo: 'x.y_z' });
  assert.deepEqual(parseRepo('octo_acme/x'), { owner: 'octo_acme', repo: 'x' }, 'a managed user');
});

test('a body file that says it is empty is refused before it is read: /proc files say 0 bytes and hold the environment', () => {
  assert.throws(() => readBodyFile('/proc/self/environ'), /\/proc\/self\/environ: empty comment body \(0 bytes on disk\)/);
});

test('creates one comment, then a second run updates the same comment instead of adding one', async () => {
  const body = join(dir, 'first.md');
  writeFileSync(body, `${MARKER}\n## first run\n`);
  const first = await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', body]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /created comment 1\d{3} on acme\/app#7/);
  writeFileSync(body, `${MARKER}\n## second run\n`);
  const second = await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', body]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /updated comment/);
  const comments = gh.state.comments.get('acme/app#7');
  assert.equal(comments.length, 1);
  assert.equal(comments[0].body, `${MARKER}\n## second run\n`);
  assert.deepEqual(gh.requests.filter((r) => r.path.startsWith('/repos/acme/app')).map((r) => r.method), ['GET', 'POST', 'GET', 'PATCH']);
});

test('finds our comment on the third page of a long discussion and leaves people\'s comments alone', async () => {
  const key = 'acme/app#8';
  for (let i = 0; i < 230; i++) gh.addComment(key, { body: `comment ${i}`, login: `user${i % 7}` });
  gh.addComment(key, { body: `quoting ${MARKER}`, login: 'mallory' });
  const ours = gh.addComment(key, { body: `${MARKER}\nold`, login: 'github-actions[bot]', type: 'Bot' });
  const octokit = githubClient({ token: 'gh-installation', baseUrl: gh.url });
  const r = await upsertComment(octokit, { owner: 'acme', repo: 'app', issue: 8, body: `${MARKER}\nnew` });
  assert.deepEqual([r.action, r.id], ['updated', ours.id]);
  const list = gh.state.comments.get(key);
  assert.equal(list.length, 232);
  assert.equal(list.find((c) => c.user.login === 'mallory').body, `quoting ${MARKER}`);
  assert.equal(list.at(-1).body, `${MARKER}\nnew`);
  const pages = gh.requests.filter((q) => q.path === '/repos/acme/app/issues/8/comments' && q.method === 'GET').map((q) => q.query.page || '1');
  assert.deepEqual(pages, ['1', '2', '3']);
});

test('with a personal token, matches comments by the token\'s own login', async () => {
  const key = 'acme/app#9';
  gh.addComment(key, { body: `${MARKER}\nsomeone else's bot`, login: 'other[bot]', type: 'Bot' });
  const octokit = githubClient({ token: 'pat-alice', baseUrl: gh.url });
  const r1 = await upsertComment(octokit, { owner: 'acme', repo: 'app', issue: 9, body: `${MARKER}\nalice 1` });
  const r2 = await upsertComment(octokit, { owner: 'acme', repo: 'app', issue: 9, body: `${MARKER}\nalice 2` });
  assert.equal(r1.action, 'created');
  assert.deepEqual([r2.action, r2.id], ['updated', r1.id]);
  assert.deepEqual(gh.state.comments.get(key).map((c) => c.body), [`${MARKER}\nsomeone else's bot`, `${MARKER}\nalice 2`]);
});

test('explains a token without write access, naming the permission to grant', async () => {
  const body = join(dir, 'ro.md');
  writeFileSync(body, 'hello');
  const r = await cli(['--repo', 'acme/app', '--pr', '10', '--body-file', body], 'gh-readonly');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /acme\/app#10: GitHub answered 403: .*pull-requests: write/);
});

test('says no server answered when nothing listens at the API URL, instead of a GitHub status', async () => {
  const body = join(dir, 'nobody.md');
  writeFileSync(body, 'hello');
  // a port that was free a moment ago: nothing answers there
  const free = await new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
  const url = `http://127.0.0.1:${free}`;
  const r = await run(process.execPath, [CLI, 'comment', '--repo', 'acme/app', '--pr', '7', '--body-file', body, '--api-url', url], { env: { ...process.env, GITHUB_TOKEN: 'gh-installation', GH_TOKEN: '' } }).then(() => ({ code: 0 }), (e) => ({ code: e.code, stderr: e.stderr }));
  assert.equal(r.code, 2);
  assert.equal(r.stderr.split('\n')[0].startsWith(`benchline comment: acme/app#7: no answer from ${url} (`), true, r.stderr);
  assert.match(r.stderr, /check --api-url \(GITHUB_API_URL\) and the network/);
  assert.doesNotMatch(r.stderr, /GitHub answered/);
});

test('refuses a missing, linked or empty body file, naming it', async () => {
  const missing = await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', join(dir, 'nope.md')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.md: no such file\. Render one with: benchline report/);
  const link = join(dir, 'link.md');
  symlinkSync('/etc/passwd', link);
  const linked = await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', link]);
  assert.match(linked.stderr, /link\.md: not a regular file/);
  const empty = join(dir, 'empty.md');
  writeFileSync(empty, '\n');
  assert.match((await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', empty])).stderr, /empty\.md: empty comment body/);
  const noToken = await cli(['--repo', 'acme/app', '--pr', '7', '--body-file', empty], '');
  assert.match(noToken.stderr, /no token: set GITHUB_TOKEN/);
});

test('finds the PR of a fork\'s workflow run by head owner and branch, and only at the run\'s commit', async () => {
  const fork = (number, sha, st = 'open') => ({ number, state: st, head: { sha, ref: 'faster', repo: { owner: { login: 'forker' } } } });
  const srv = await startFakeGitHub({ tokens: TOKENS, pulls: { 'acme/app': [fork(41, 'aaa', 'closed'), fork(42, 'bbb'), fork(43, 'ccc')] } });
  try {
    const octokit = githubClient({ token: 'gh-installation', baseUrl: srv.url });
    const run0 = { head_sha: 'ccc', head_branch: 'faster', head_repository: { owner: { login: 'forker' } }, pull_requests: [] };
    assert.equal(await findPullRequest(octokit, { owner: 'acme', repo: 'app', workflowRun: run0 }), 43);
    assert.equal(await findPullRequest(octokit, { owner: 'acme', repo: 'app', workflowRun: { ...run0, head_sha: 'aaa' } }), undefined);
    const sameRepo = { ...run0, head_sha: 'ddd', pull_requests: [{ number: 5, head: { sha: 'ddd' } }] };
    assert.equal(await findPullRequest(octokit, { owner: 'acme', repo: 'app', workflowRun: sameRepo }), 5);
    assert.equal(srv.requests.filter((r) => r.path === '/repos/acme/app/pulls').length, 2);
    assert.equal(srv.requests[0].query.head, 'forker:faster');
  } finally {
    await srv.close();
  }
});

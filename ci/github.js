// GitHub API calls of the pipeline: the one sticky PR comment (found by a hidden marker) and PR lookup for workflow_run.
import { Octokit } from '@octokit/rest';

/** Hidden first line of every benchline PR comment; reports start with it, the poster looks for it. */
export const MARKER = '<!-- benchline:pr-comment -->';

/** GitHub rejects issue comments longer than this many characters. */
const MAX_COMMENT_CHARS = 65536;

/** An Octokit client; baseUrl points at GitHub Enterprise or a local stand-in in tests. */
export function githubClient({ token, baseUrl = 'https://api.github.com', userAgent = 'benchline' } = {}) {
  return new Octokit({ auth: token, baseUrl: baseUrl.replace(/\/+$/, ''), userAgent, log: { debug() {}, info() {}, warn() {}, error() {} } });
}

/** Splits "owner/name", refusing anything else (the value ends up in API paths). */
export function parseRepo(text) {
  // GitHub's rules: an owner of letters, digits, hyphens (and the underscore of managed users' names), starting with a
  // letter or digit; a name of letters, digits, '.', '-', '_' that is not '.' or '..' (a path, not a repository)
  const m = /^([A-Za-z0-9][A-Za-z0-9_-]{0,99})\/([A-Za-z0-9_.-]{1,100})$/.exec(String(text || ''));
  if (!m || m[2] === '.' || m[2] === '..') throw new Error(`repository "${text}" is not of the form owner/name`);
  return { owner: m[1], repo: m[2] };
}

/**
 * Makes a comment body safe to post. The body is read from an artifact of a run that a fork may have
 * controlled, so it is treated as untrusted: NUL bytes go, @mentions are defused (no notification spam),
 * the marker is put first so the comment stays findable, and the length is capped at GitHub's limit.
 */
export function prepareBody(text, { maxChars = MAX_COMMENT_CHARS } = {}) {
  let body = String(text).replace(/\0/g, '').replace(/\r\n/g, '\n');
  // an @ before a name after anything but a letter, digit or _ (@@name, x/@name, `@name` too; not a@b.c or k6@v1), and
  // the entities that render as an @
  body = body.replace(/(^|[^\w])@(?=[A-Za-z0-9])/g, '$1@\u200b').replace(/&(?:#0*64|#x0*40|commat);(?=[A-Za-z0-9])/gi, '$&\u200b');
  body = body.split(MARKER).join('');
  body = `${MARKER}\n${body.replace(/^\n+/, '')}`;
  if (body.length > maxChars) {
    const note = '\n\n_(comment cut at GitHub\'s size limit; the full report is in the job summary)_\n';
    body = body.slice(0, maxChars - note.length) + note;
  }
  return body;
}

/**
 * True for a comment this pipeline wrote: it carries the marker and was written by the token's own user,
 * or, when the token cannot tell who it is (GITHUB_TOKEN cannot call /user), by a bot.
 */
export function isStickyComment(comment, login) {
  if (!comment?.body?.includes(MARKER)) return false;
  if (login) return comment.user?.login === login;
  return comment.user?.type === 'Bot';
}

/** The login behind the token, or undefined for installation tokens, which GitHub refuses /user. */
async function tokenLogin(octokit) {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return data?.login;
  } catch (e) {
    if (e.status === 401 || e.status === 403 || e.status === 404) return undefined;
    throw e;
  }
}

/**
 * Creates the sticky comment on an issue or PR, or updates the one already there, so a PR carries one
 * benchline comment however many times it is benchmarked. Returns { action, id, url }.
 */
export async function upsertComment(octokit, { owner, repo, issue, body, login }) {
  const who = login === undefined ? await tokenLogin(octokit) : login || undefined;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issue, per_page: 100 });
  const existing = comments.find((c) => isStickyComment(c, who));
  if (existing) {
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body });
  return { action: 'created', id: data.id, url: data.html_url };
}

/**
 * The open PR a workflow_run event belongs to. Same-repository PRs are listed in the event itself; fork PRs
 * are not, so they are looked up by head owner and branch, and must still point at the run's head commit.
 */
export async function findPullRequest(octokit, { owner, repo, workflowRun }) {
  const sha = workflowRun?.head_sha;
  if (!sha) throw new Error('the workflow_run event has no head_sha');
  const listed = (workflowRun.pull_requests || []).find((p) => p.head?.sha === sha);
  if (listed) return listed.number;
  const headOwner = workflowRun.head_repository?.owner?.login;
  const branch = workflowRun.head_branch;
  if (!headOwner || !branch) return undefined;
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', head: `${headOwner}:${branch}`, per_page: 100 });
  return pulls.find((p) => p.head?.sha === sha)?.number;
}

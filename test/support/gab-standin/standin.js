// The github-action-benchmark stand-in's logic: the action's git sequence on gh-pages (write.js), its commit lookup and alert.
// Environment: the action's inputs as IN_* (see action.yml); BENCHLINE_GH_PAGES_REMOTE replaces the repository URL;
// STANDIN_LOG (optional) gets one JSON line per git command that would carry the token on its command line.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const env = process.env;
const git = (...args) => execFileSync('git', ['-c', 'user.name=github-action-benchmark', '-c', 'user.email=github@users.noreply.github.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const remote = env.BENCHLINE_GH_PAGES_REMOTE || 'origin';
// The action puts https://x-access-token:<token>@host/owner/repo.git on git's command line whenever it has a token.
const network = (op, ...args) => {
  if (env.IN_TOKEN && env.STANDIN_LOG) appendFileSync(env.STANDIN_LOG, `${JSON.stringify({ op, name: env.IN_NAME, tokenOnCommandLine: true })}\n`);
  return git(op, remote, ...args);
};
const branch = env.IN_BRANCH || 'gh-pages';
const skipFetch = env.IN_SKIP_FETCH === 'true';
const PREFIX = 'window.BENCHMARK_DATA = ';

/** The commit the action records: `ref`, else the event's head commit, else the workflow's ref (main's tip under workflow_run). */
function commitId() {
  if (env.IN_REF) return env.IN_REF;
  const payload = env.GITHUB_EVENT_PATH && existsSync(env.GITHUB_EVENT_PATH) ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {};
  if (payload.head_commit?.id) return payload.head_commit.id;
  if (payload.pull_request?.head?.sha) return payload.pull_request.head.sha;
  return git('rev-parse', env.GITHUB_REF || 'HEAD').trim();
}

function main() {
  const benches = JSON.parse(readFileSync(env.IN_OUTPUT, 'utf8'));
  const id = commitId();
  if (!skipFetch) network('fetch', `${branch}:${branch}`);
  git('switch', branch);
  try {
    if (!skipFetch) network('pull', branch);
    const dir = env.IN_DIR || 'dev/bench';
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'data.js');
    const data = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8').slice(PREFIX.length)) : { lastUpdate: 0, repoUrl: '', entries: {} };
    const suites = (data.entries[env.IN_NAME] ||= []);
    const prev = [...suites].reverse().find((s) => s.commit.id !== id);
    suites.push({ commit: { id }, date: Date.now(), tool: env.IN_TOOL, benches });
    data.lastUpdate = Date.now();
    writeFileSync(file, PREFIX + JSON.stringify(data, null, 2));
    git('add', file);
    if (!existsSync(join(dir, 'index.html'))) {
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>benchmarks</title>\n');
      git('add', join(dir, 'index.html'));
    }
    git('commit', '-m', `add ${env.IN_NAME} (${env.IN_TOOL}) benchmark result for ${id}`);
    if (env.IN_TOKEN && env.IN_AUTO_PUSH === 'true') network('push', `${branch}:${branch}`, '--no-verify');
    return prev && alerts(prev.benches, benches);
  } finally {
    git('checkout', '-');
  }
}

/** Metrics worse than the previous commit's by more than alert-threshold, as the action's findAlerts judges them. */
function alerts(before, now) {
  const threshold = Number.parseFloat(env.IN_THRESHOLD || '200%') / 100;
  const bigger = env.IN_TOOL === 'customBiggerIsBetter';
  const worse = now.filter((b) => {
    const p = before.find((x) => x.name === b.name);
    if (!p || (p.value === 0 && b.value === 0)) return false;
    return (bigger ? p.value / b.value : b.value / p.value) > threshold;
  });
  if (worse.length && (env.IN_COMMENT_ON_ALERT === 'true' || env.IN_FAIL_ON_ALERT === 'true')) {
    console.log(`Performance alert: ${worse.map((b) => b.name).join(', ')}`);
    if (env.IN_FAIL_ON_ALERT === 'true') process.exitCode = 1;
  } else if (!(env.IN_COMMENT_ON_ALERT === 'true' || env.IN_FAIL_ON_ALERT === 'true')) {
    console.log('Alert check was skipped because both comment-on-alert and fail-on-alert were disabled');
  }
}

try {
  main();
} catch (e) {
  console.error(`github-action-benchmark stand-in: ${e.stderr || e.message}`);
  process.exitCode = 1;
}

// Facts about this run and machine for result documents: commit, ref, trigger, runner hardware.
import { execFileSync } from 'node:child_process';
import { cpus, hostname, totalmem, platform, arch } from 'node:os';
import { randomBytes } from 'node:crypto';

const git = (args, cwd) => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};

/** The machine measured on; labels come from BENCHLINE_RUNNER_LABELS (comma separated). */
export function runnerInfo(env = process.env) {
  const c = cpus();
  return {
    name: env.RUNNER_NAME || hostname(),
    os: `${platform()}${env.RUNNER_OS ? ` (${env.RUNNER_OS})` : ''}`,
    arch: arch(),
    cpus: c.length || 1,
    cpuModel: (c[0]?.model || 'unknown').trim(),
    memoryBytes: totalmem(),
    labels: (env.BENCHLINE_RUNNER_LABELS || '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}

/** Trigger and PR number from GitHub's environment, or `local`. */
export function triggerInfo(env = process.env) {
  const known = ['pull_request', 'push', 'workflow_dispatch', 'schedule'];
  const trigger = known.includes(env.GITHUB_EVENT_NAME) ? env.GITHUB_EVENT_NAME : 'local';
  const m = /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF || '');
  return { trigger, pr: m ? Number(m[1]) : undefined };
}

/** Commit, ref and dirtiness of a checkout. */
export function commitInfo(cwd) {
  const commit = git(['rev-parse', 'HEAD'], cwd);
  const ref = process.env.GITHUB_HEAD_REF || process.env.GITHUB_REF_NAME || git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
  const dirty = commit ? git(['status', '--porcelain', '--untracked-files=no'], cwd) !== '' : false;
  return { commit, ref, dirty };
}

/** A sortable, unique run id: UTC time plus random suffix. */
export const newRunId = (now = new Date()) => `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;

/** The `run` block of a result document; ref: the ref a base side was checked out from (its worktree's HEAD is detached). */
export function runBlock({ id, startedAt, cwd, role, ref: baseRef, env = process.env }) {
  const { commit, ref: checkoutRef, dirty } = commitInfo(cwd);
  const ref = baseRef ?? checkoutRef;
  const { trigger, pr } = triggerInfo(env);
  const run = { id, startedAt, commit, ref, trigger, role };
  if (pr) run.pr = pr;
  if (dirty) run.dirty = true;
  return run;
}

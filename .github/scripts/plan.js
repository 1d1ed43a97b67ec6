#!/usr/bin/env node
// bench.yml's plan step: turns the event (PR, push, dispatch inputs) into `benchline plan` arguments and job outputs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// Extra plan arguments come from a repository variable: plain words only, no shell is ever involved.
const WORD = /^[A-Za-z0-9][A-Za-z0-9._=:/,-]*$|^--?[a-z][a-z-]*$/;

const PARAM = /^[A-Za-z][A-Za-z0-9_]*=[A-Za-z0-9._:/@+-]+$/;
const words = (text) => String(text || '').split(/[\s,]+/).filter(Boolean);

/**
 * Pure: the event and inputs (as the step's environment) -> { args, params, base }.
 * args go to `benchline plan`; params (`key=value` words) and base (commit or ref) go to every bench job,
 * because the matrix carries job identities only and each job resolves its parameters again.
 */
export function planInputs(env) {
  const args = [];
  const params = [];
  const event = env.EVENT_NAME;
  if (event === 'workflow_dispatch') {
    for (const s of words(env.IN_SUITES)) {
      if (!SLUG.test(s)) throw new Error(`input suites: "${s}" is not a suite name (letters, digits, . _ -)`);
      args.push('--suite', s);
    }
    if (env.IN_PROFILE) {
      if (!SLUG.test(env.IN_PROFILE)) throw new Error(`input profile: "${env.IN_PROFILE}" is not a profile name`);
      args.push('--profile', env.IN_PROFILE);
    }
    const trials = Number(env.IN_TRIALS || 0);
    if (!Number.isInteger(trials) || trials < 0 || trials > 1000) throw new Error(`input trials: "${env.IN_TRIALS}" is not a whole number from 0 to 1000`);
    if (trials > 0) args.push('--trials', String(trials));
    if (env.IN_DURATION) {
      if (!/^\d+(ms|s|m)$/.test(env.IN_DURATION)) throw new Error(`input duration: "${env.IN_DURATION}" is not a duration like 10s, 500ms or 2m`);
      params.push(`duration=${env.IN_DURATION}`);
    }
    const connections = Number(env.IN_CONNECTIONS || 0);
    if (!Number.isInteger(connections) || connections < 0 || connections > 100000) throw new Error(`input connections: "${env.IN_CONNECTIONS}" is not a whole number`);
    if (connections > 0) params.push(`connections=${connections}`);
    // Any parameter of the config (pageSize=500 dateEnd=2024-06-30T23:59:59 sizeKB=1024), as --param.
    for (const p of String(env.IN_PARAMS || '').split(/\s+/).filter(Boolean)) {
      if (!PARAM.test(p)) throw new Error(`input params: "${p}" is not key=value (a parameter name, =, then letters, digits or . _ : / @ + -)`);
      params.push(p);
    }
    // A subset of jobs within the suites: variant=cache-on tool=ab scenario=latency (each repeatable).
    for (const w of words(env.IN_ONLY)) {
      const m = /^(variant|tool|scenario)=([A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(w);
      if (!m) throw new Error(`input only: "${w}" is not variant=NAME, tool=NAME or scenario=NAME`);
      args.push(`--${m[1]}`, m[2]);
    }
  } else {
    const list = words(env.PLAN_ARGS);
    for (let i = 0; i < list.length; i++) {
      const w = list[i];
      if (!WORD.test(w)) throw new Error(`variable BENCHLINE_PLAN_ARGS: "${w}" is not a plain option or value`);
      // Parameter overrides must reach the jobs too, which resolve their parameters again.
      if (w === '--param' && list[i + 1]) params.push(list[++i]);
      else args.push(w);
    }
  }
  for (const p of params) args.push('--param', p);
  let base = '';
  if (event === 'pull_request') base = env.PR_BASE_SHA || '';
  if (event === 'workflow_dispatch') base = env.IN_BASE_REF || '';
  if (base && !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(base)) throw new Error(`base ref "${base}" is not a git ref or commit`);
  return { args, params: params.join(' '), base };
}

/** Pure: `matrix=<json>` from `benchline plan --github` -> the step's output lines. */
export function planOutputs(planStdout, { params, base }) {
  const line = planStdout.split('\n').find((l) => l.startsWith('matrix='));
  if (!line) throw new Error(`benchline plan --github printed no matrix= line:\n${planStdout.slice(0, 500)}`);
  const matrix = JSON.parse(line.slice('matrix='.length));
  const subjects = [...new Set(matrix.include.map((j) => j.subject))].sort();
  return [
    `matrix=${JSON.stringify(matrix)}`,
    `subjects=${JSON.stringify(subjects)}`,
    `jobs=${matrix.include.length}`,
    `params=${params}`,
    `base=${base}`,
  ].join('\n');
}

function main() {
  let inputs;
  try {
    inputs = planInputs(process.env);
  } catch (e) {
    process.stderr.write(`plan: ${e.message}\n`);
    return 2;
  }
  const r = spawnSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), 'plan', '--github', ...inputs.args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) return r.status || 1;
  process.stdout.write(`${planOutputs(r.stdout, inputs)}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();

// Loads bench.config.yaml, checks it against its schema, and resolves parameters per job and profile.
import { readFileSync, existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import YAML from 'yaml';
import Ajv from 'ajv/dist/2020.js';
import { TOOL_NAMES } from './adapters/index.js';
import { UserError } from './errors.js';
import { judgeListProblem } from './compare.js';

const schema = JSON.parse(readFileSync(new URL('./schema/config.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);

export class ConfigError extends UserError {}

/** A/B rounds: looks at 8, 12 and 20 rounds, spending a quarter, a quarter and half of alpha. */
export const ROUNDS = Object.freeze({ looks: [8, 12, 20], weights: [0.25, 0.25, 0.5] });
/** Seconds an A/B run may spend: per job, and for the whole run. */
export const BUDGET = Object.freeze({ job: 150, run: 540 });

/** Parses and checks config text; `file` names the source in every error. */
export function parseConfig(text, file = 'bench.config.yaml') {
  let raw;
  try {
    raw = YAML.parse(text, { prettyErrors: true });
  } catch (e) {
    throw new ConfigError(`${file}: not valid YAML: ${e.message}`);
  }
  if (!validate(raw)) {
    const lines = validate.errors.slice(0, 8).map((e) => `  ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` ("${e.params.additionalProperty}")` : ''}`);
    throw new ConfigError(`${file}: does not match the configuration schema (docs/config.md):\n${lines.join('\n')}`);
  }
  const config = {
    defaults: { suites: [], profile: 'quick', results: 'results', history: '.benchline/history', pinning: 'auto', ...raw.defaults },
    profiles: { quick: { trials: 5 }, full: { trials: 10 }, ...raw.profiles },
    compare: { confidence: 0.95, alpha: 0.05, minEffect: 0.02, metrics: {}, failOnRegression: true, ...raw.compare, rounds: { ...ROUNDS, ...raw.compare?.rounds }, budget: { ...BUDGET, ...raw.compare?.budget } },
    suites: raw.suites || {},
  };
  for (const [name, suite] of Object.entries(config.suites)) {
    suite.variants = suite.variants && Object.keys(suite.variants).length ? suite.variants : { default: {} };
    for (const [v, body] of Object.entries(suite.variants)) suite.variants[v] = body || {};
    suite.jobs.forEach((job, i) => {
      if (!TOOL_NAMES.includes(job.tool)) {
        throw new ConfigError(`${file}: suites.${name}.jobs[${i}].tool "${job.tool}" is not a known tool (${TOOL_NAMES.join(', ')})`);
      }
      const judgeProblem = judgeListProblem(job.judge);
      if (judgeProblem) throw new ConfigError(`${file}: suites.${name}.jobs[${i}] ${judgeProblem}`);
      for (const v of job.variants || []) {
        if (!suite.variants[v]) throw new ConfigError(`${file}: suites.${name}.jobs[${i}] names variant "${v}", which the suite does not define`);
      }
    });
  }
  const { looks, weights } = config.compare.rounds;
  if (looks.some((n, i) => i && n <= looks[i - 1])) throw new ConfigError(`${file}: compare.rounds.looks must rise (${looks.join(', ')})`);
  if (raw.compare?.rounds?.looks && !raw.compare.rounds.weights) config.compare.rounds.weights = looks.map(() => 1 / looks.length);
  else if (weights.length !== looks.length || Math.abs(weights.reduce((a, b) => a + b, 0) - 1) > 1e-9) {
    throw new ConfigError(`${file}: compare.rounds.weights must give one share of alpha per look and sum to 1 (looks ${looks.join(', ')}; weights ${weights.join(', ')})`);
  }
  for (const d of config.defaults.suites) {
    if (!config.suites[d]) throw new ConfigError(`${file}: defaults.suites names "${d}", which is not defined under suites`);
  }
  return config;
}

/** Reads a config file; relative paths in it are relative to the file's folder (the project root). */
export function loadConfig(path = 'bench.config.yaml') {
  const file = resolve(path);
  if (!existsSync(file)) throw new ConfigError(`${path}: no such configuration file (run from the project folder, or pass --config)`);
  const config = parseConfig(readFileSync(file, 'utf8'), path);
  config.file = file;
  config.root = dirname(file);
  return config;
}

/** Parses `key=value` overrides; values that look like numbers or booleans become them. */
export function parseOverrides(list = []) {
  const out = {};
  for (const item of list) {
    const i = item.indexOf('=');
    if (i < 1) throw new ConfigError(`--param "${item}": expected key=value`);
    const key = item.slice(0, i);
    const text = item.slice(i + 1);
    out[key] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;
  }
  return out;
}

/**
 * Parameters of one job: suite < variant < job < job.profiles[profile] < overrides.
 * An override `key` applies to every job; `tool.key` or `scenario.key` only to jobs of that tool or scenario.
 */
export function resolveParams({ suite, variant, job, profile, overrides = {} }) {
  const params = { ...suite.params, ...suite.variants[variant]?.params, ...job.params, ...job.profiles?.[profile] };
  for (const [k, v] of Object.entries(overrides)) {
    const dot = k.indexOf('.');
    if (dot < 0) params[k] = v;
    else if ([job.tool, job.scenario].includes(k.slice(0, dot))) params[k.slice(dot + 1)] = v;
  }
  return params;
}

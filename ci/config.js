// Loads bench.config.yaml, checks it against its schema, and resolves parameters per job and profile.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { resolve, dirname, isAbsolute, relative } from 'node:path';
import { createRequire } from 'node:module';
import { nearMiss } from './spelling.js';
import { ADAPTERS, TOOL_NAMES } from './adapters/index.js';
import { UserError } from './errors.js';
import { MAX_JOB_ID, nameProblem } from './names.js';
import { COMPARE_DEFAULTS, judgeListProblem } from './compare.js';
import { schemaText, validatorFor } from './schema/compile.js';

/**
 * A checker for a hand-written file's schema (`name`: config or subject, schema/compile.js; ajv with verbose: true, so
 * each error carries its schema, whose properties name what a misspelt key may have meant: didYouMean; its errors go to
 * schemaErrorLine, from its `errors` as ajv's own). Made on its first use: a command that reads no such file does not
 * pay for it at start.
 */
export const compileHandWritten = (name, text = schemaText(name)) => {
  const schemaOf = JSON.parse(text);
  let compiled = null;
  const check = (data) => {
    compiled ||= validatorFor(name, schemaOf, text);
    const ok = compiled(data);
    check.errors = compiled.errors;
    return ok;
  };
  return check;
};

const schemaFile = schemaText('config');
const schema = JSON.parse(schemaFile);
const validate = compileHandWritten('config', schemaFile);

/** Most trials a profile, a job or --trials may ask for (the schema's bound). */
export const MAX_TRIALS = schema.properties.profiles.additionalProperties.properties.trials.maximum;

export class ConfigError extends UserError {}

/** A/B rounds: looks at 8, 16 and 32 rounds, spending a quarter, a quarter and half of alpha. */
export const ROUNDS = Object.freeze({ looks: [8, 16, 32], weights: [0.25, 0.25, 0.5] });
/** Seconds an A/B run may spend: per job, and for the whole run. */
export const BUDGET = Object.freeze({ job: 240, run: 540 });

/**
 * ' (did you mean "params"?)' for a key the schema at the error's place does not know but nearly spells; else ''.
 * `e` is an error of an ajv validator compiled with verbose: true.
 */
function didYouMean(e) {
  const key = e.params?.additionalProperty;
  if (key === undefined) return '';
  const known = Object.keys(e.parentSchema?.properties || {});
  const near = nearMiss(key, known);
  return near ? ` (did you mean "${near}"?)` : '';
}

/**
 * A key in a job's own params (its profiles' and warm-up's too) that the job's tool does not read but nearly spells one
 * it does, as a line saying so; undefined when there is none. Only tools whose params are a closed set (the adapter's
 * `params`, and keys under its `paramPrefixes`: JMH's `p.NAME`); suite and variant params are shared by jobs of several tools and stay free, and so does a key the job's
 * params use as a `${param.NAME}` placeholder. A typo (`conections: 50`) would otherwise run the job with the default.
 */
function misspeltParam(job) {
  const known = ADAPTERS[job.tool]?.params;
  // a tool that checks its params when the run is planned (hyperfine, which also knows what the subject reads) is left to it
  if (!known || ADAPTERS[job.tool].paramsProblem) return undefined;
  const sources = [['params', job.params], ...Object.entries(job.profiles || {}).map(([p, v]) => [`profiles.${p}`, v]), ['warmup', job.warmup]];
  const used = JSON.stringify(sources.map(([, v]) => v ?? null));
  for (const [where, params] of sources) {
    for (const key of Object.keys(params || {})) {
      if (known.includes(key) || used.includes(`\${param.${key}}`)) continue;
      if ((ADAPTERS[job.tool].paramPrefixes || []).some((prefix) => key.startsWith(prefix))) continue;
      const near = nearMiss(key, known);
      if (near) return `${where}.${key} is not a parameter ${job.tool} reads (did you mean "${near}"?); ${job.tool} reads ${known.join(', ')}`;
    }
  }
  return undefined;
}

/** One schema error as a line: where, what, and for a key the schema does not know, the key it nearly spells. */
export const schemaErrorLine = (e) => `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? `: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : ''}${e.params?.additionalProperty ? ` ("${e.params.additionalProperty}")${didYouMean(e)}` : ''}`;

/** `head` and the schema's problems: one problem on the same line, several as an indented list below. */
export const schemaMismatch = (head, lines) => (lines.length === 1 ? `${head} ${lines[0]}` : `${head}\n  ${lines.join('\n  ')}`);

// the YAML parser (72 modules, about 45 ms to load) is loaded when a config is first parsed: a command without one (a
// site built from a store alone) never pays for it; its "node" export is the CommonJS build an import would load too
let YAML = null;
const yaml = () => (YAML ||= createRequire(import.meta.url)('yaml'));

/** Parses and checks config text; `file` names the source in every error. */
export function parseConfig(text, file = 'bench.config.yaml') {
  let raw;
  try {
    raw = yaml().parse(text, { prettyErrors: true });
  } catch (e) {
    throw new ConfigError(`${file}: not valid YAML: ${e.message}`);
  }
  if (!validate(raw)) {
    // a bad key (suite, variant or profile name) is reported once, as the name it is, not as ajv's three errors
    const lines = validate.errors.filter((e) => e.keyword !== 'propertyNames').slice(0, 8).map((e) => (e.propertyName !== undefined
      ? `${e.instancePath || '/'}: name "${e.propertyName.slice(0, 60)}${e.propertyName.length > 60 ? '...' : ''}" ${e.message} (names become folder and file names: letters, digits, ".", "_", "-", at most 64)`
      : schemaErrorLine(e)));
    throw new ConfigError(schemaMismatch(`${file}: does not match the configuration schema (docs/config.md):`, lines));
  }
  const config = {
    defaults: { suites: [], profile: 'quick', results: 'results', history: '.benchline/history', pinning: 'auto', ...raw.defaults },
    profiles: { quick: { trials: 5 }, full: { trials: 10 }, ...raw.profiles },
    compare: { ...COMPARE_DEFAULTS, failOnRegression: true, ...raw.compare, rounds: { ...ROUNDS, ...raw.compare?.rounds }, budget: { ...BUDGET, ...raw.compare?.budget } },
    suites: raw.suites || {},
  };
  // every job id of every suite and variant, with where it was defined
  const ids = new Map();
  for (const [name, suite] of Object.entries(config.suites)) {
    suite.variants = suite.variants && Object.keys(suite.variants).length ? suite.variants : { default: {} };
    for (const [v, body] of Object.entries(suite.variants)) suite.variants[v] = body || {};
    suite.jobs.forEach((job, i) => {
      if (!TOOL_NAMES.includes(job.tool)) {
        throw new ConfigError(`${file}: suites.${name}.jobs[${i}].tool "${job.tool}" is not a known tool (${TOOL_NAMES.join(', ')})`);
      }
      const misspelt = misspeltParam(job);
      if (misspelt) throw new ConfigError(`${file}: suites.${name}.jobs[${i}] (${job.tool}/${job.scenario}): ${misspelt}`);
      const judgeProblem = judgeListProblem(job.judge);
      if (judgeProblem) throw new ConfigError(`${file}: suites.${name}.jobs[${i}] ${judgeProblem}`);
      for (const [v, list] of Object.entries(job.judgeByVariant || {})) {
        if (!Object.hasOwn(suite.variants, v)) throw new ConfigError(`${file}: suites.${name}.jobs[${i}].judgeByVariant names variant "${v}", which the suite does not define (variants: ${Object.keys(suite.variants).join(', ')})`);
        const problem = judgeListProblem(list);
        if (problem) throw new ConfigError(`${file}: suites.${name}.jobs[${i}].judgeByVariant.${v}: ${problem}`);
      }
      for (const v of job.variants || []) {
        if (!Object.hasOwn(suite.variants, v)) throw new ConfigError(`${file}: suites.${name}.jobs[${i}] names variant "${v}", which the suite does not define`);
      }
      for (const [profile, list] of Object.entries(job.skipIn || {})) {
        if (!Object.hasOwn(config.profiles, profile)) throw new ConfigError(`${file}: suites.${name}.jobs[${i}].skipIn names profile "${profile}", which is not defined (profiles: ${Object.keys(config.profiles).join(', ')})`);
        for (const v of list) {
          if (!Object.hasOwn(suite.variants, v)) throw new ConfigError(`${file}: suites.${name}.jobs[${i}].skipIn.${profile} names variant "${v}", which the suite does not define`);
        }
      }
      // the job id names files and folders (raw outputs, result documents, store entries): it must fit in one, be
      // one job's alone (names may hold dots: suite a with variant b.c and suite a.b with variant c would share one)
      // and not read as a failure record's name (<job id>.failed.json in the store)
      for (const v of job.variants || Object.keys(suite.variants)) {
        const id = `${name}.${v}.${job.tool}.${job.scenario}`;
        const where = `suites.${name}.jobs[${i}] (${job.tool}/${job.scenario}, variant ${v})`;
        const problem = nameProblem(id, 'job id', MAX_JOB_ID);
        if (problem) throw new ConfigError(`${file}: suites.${name}.jobs[${i}]: ${problem}; shorten the suite, variant or scenario name`);
        if (id.endsWith('.failed')) throw new ConfigError(`${file}: ${where}: a scenario named "failed" or ending in ".failed" would be stored as ${id}.json, the name of the failure record of a job ${id.slice(0, -'.failed'.length)}; rename the scenario`);
        if (ids.has(id)) throw new ConfigError(`${file}: ${where} and ${ids.get(id)} have the same job id "${id}" (suite, variant, tool and scenario joined by dots), so their results would overwrite each other; rename one (a scenario of its own, or a suite or variant name without a dot)`);
        ids.set(id, where);
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
    if (!Object.hasOwn(config.suites, d)) throw new ConfigError(`${file}: defaults.suites names "${d}", which is not defined under suites`);
  }
  return config;
}

/**
 * Why a suite's `report:` cannot be its renderer (a .js file inside the project, relative to its root, that exists),
 * as a line naming the file and the key; undefined when it can, or when the suite has none.
 */
export function reportPathProblem(config, suite) {
  const name = config.suites?.[suite]?.report;
  if (!name) return undefined;
  const where = `${config.file || 'bench.config.yaml'}: suites.${suite}.report`;
  const root = resolve(config.root || '.');
  const file = resolve(root, name);
  if (!name.endsWith('.js') || isAbsolute(name) || relative(root, file).startsWith('..')) {
    return `${where} "${name}" must be a .js file inside the project, relative to its root (e.g. subjects/${suite}/report.js)`;
  }
  if (!existsSync(file)) return `${where} names "${name}", which does not exist; add it or remove \`report:\``;
  return undefined;
}

/** Reads a config file; relative paths in it are relative to the file's folder (the project root). */
export function loadConfig(path = 'bench.config.yaml') {
  const file = resolve(path);
  if (!existsSync(file)) throw new ConfigError(`${path}: no such configuration file (run from the project folder, or pass --config)`);
  if (statSync(file).isDirectory()) throw new ConfigError(`${path}: is a folder, not a configuration file; pass the YAML file (e.g. --config ${path.replace(/\/+$/, '')}/bench.config.yaml)`);
  // a pipe or a device (/dev/zero) would block or never end the read
  if (!statSync(file).isFile()) throw new ConfigError(`${path}: is not a regular file (a device or a pipe); pass the YAML file (--config bench.config.yaml)`);
  const config = parseConfig(readFileSync(file, 'utf8'), path);
  config.file = file;
  config.root = dirname(file);
  // a suite's own report is loaded after its jobs ran: a wrong path found only then would cost the whole run
  for (const suite of Object.keys(config.suites)) {
    const problem = reportPathProblem(config, suite);
    if (problem) throw new ConfigError(problem);
  }
  return config;
}

/** Parses `key=value` overrides; values that look like numbers or booleans become them. */
export function parseOverrides(list = []) {
  const out = {};
  for (const item of list) {
    const i = item.indexOf('=');
    if (i < 1) throw new ConfigError(`--param ${JSON.stringify(item)}: expected key=value`);
    const key = item.slice(0, i);
    const text = item.slice(i + 1);
    // would set the object's prototype instead of a parameter (and so pass every check unseen)
    if (['__proto__', 'constructor', 'prototype'].includes(key.slice(key.indexOf('.') + 1))) throw new ConfigError(`--param ${JSON.stringify(item)}: ${JSON.stringify(key)} is not a parameter name`);
    out[key] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;
  }
  return out;
}

/**
 * Parameters of one job: suite < variant < job < job.profiles[profile] < overrides.
 * An override `key` applies to every job; `tool.key` or `scenario.key` only to jobs of that tool or scenario. scopes: the
 * tools and scenarios of the selected jobs; a dotted key whose first part is none of them is a name of its own (JMH's
 * `p.size`) and applies to every job, as checkOverrides reads it.
 */
export function resolveParams({ suite, variant, job, profile, overrides = {}, scopes }) {
  const params = { ...suite.params, ...suite.variants[variant]?.params, ...job.params, ...job.profiles?.[profile] };
  for (const [k, v] of Object.entries(overrides)) {
    const dot = k.indexOf('.');
    if (dot < 0) params[k] = v;
    else if ([job.tool, job.scenario].includes(k.slice(0, dot))) params[k.slice(dot + 1)] = v;
    else if (scopes && !scopes.has(k.slice(0, dot))) params[k] = v;
  }
  return params;
}

/**
 * Parameter names a planned job can take: from the config at every level and profile, the adapter's own list when it
 * has one, and what the job's script reads when the adapter can tell (k6).
 */
function knownParams(config, job) {
  const suite = config.suites[job.suite];
  const def = suite.jobs.find((j) => j.tool === job.tool && j.scenario === job.scenario) || {};
  const sources = [suite.params, suite.variants[job.variant]?.params, def.params, def.warmup, ...Object.values(def.profiles || {})];
  const names = new Set(sources.flatMap((p) => Object.keys(p || {})));
  for (const n of ADAPTERS[job.tool]?.params || []) names.add(n);
  // a k6 script's own variables (VUS read as __ENV.VUS: --param k6.vus=10)
  for (const n of ADAPTERS[job.tool]?.scriptParams?.(def.script, config.root || '.') || []) names.add(n);
  return names;
}

/**
 * Refuses --param overrides no selected job would use (a typo must not run a benchmark without it). `key` must be a
 * parameter of some selected job; `tool.key` or `scenario.key` one of a job of that tool or scenario. jobs: planned jobs.
 */
export function checkOverrides(config, jobs, overrides) {
  for (const key of Object.keys(overrides)) {
    const dot = key.indexOf('.');
    const prefix = dot > 0 ? key.slice(0, dot) : undefined;
    const scoped = prefix && jobs.some((j) => j.tool === prefix || j.scenario === prefix);
    const targets = scoped ? jobs.filter((j) => j.tool === prefix || j.scenario === prefix) : jobs;
    const name = scoped ? key.slice(dot + 1) : key;
    const known = new Set(targets.flatMap((j) => [...knownParams(config, j)]));
    if (known.has(name)) continue;
    // names under a tool's own prefix are free (JMH's p.NAME for any @Param)
    if (targets.some((j) => (ADAPTERS[j.tool]?.paramPrefixes || []).some((pre) => name.startsWith(pre) && name.length > pre.length))) continue;
    const where = scoped ? `the selected ${prefix} jobs` : 'the selected jobs';
    throw new ConfigError(`--param ${JSON.stringify(key).slice(1, -1)}: ${where} have no parameter ${JSON.stringify(name)}; known: ${[...known].sort().join(', ') || 'none'} (a parameter a job does not list yet goes into its params in ${config.file ? 'the config' : 'bench.config.yaml'}; prefix a tool or scenario, e.g. wrk.duration, to set it for those jobs only)`);
  }
}

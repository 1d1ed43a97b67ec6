// Expands the config into the job matrix: suite x variant x (tool, scenario), filtered by the CLI selection.
import { accessSync, constants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveParams, parseOverrides, checkOverrides, ConfigError } from './config.js';
import { substituteDeep } from './subjects.js';
import { ADAPTERS } from './adapters/index.js';
import { nearMiss } from './spelling.js';

/** A name among the entries of `folder` that `name` nearly spells, or undefined (also when the folder is not there). */
function nearIn(folder, name) {
  try {
    return nearMiss(name, readdirSync(folder));
  } catch {
    return undefined;
  }
}

// the benchline package this runs from: in an adopting repository, node_modules/benchline
const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Why a job's `script:` cannot be run, or undefined when it is there: where the config names it, where it was looked
 * for, and a file it nearly spells. Checked when the run is planned, and again for the side's checkout by the runner.
 */
export function missingScript(job, root, configFile = 'bench.config.yaml') {
  const file = resolve(root, job.script);
  const where = `${relative(root, configFile)} suites.${job.suite} job ${job.tool}/${job.scenario}: script ${job.script}`;
  if (existsSync(file)) {
    // a tool handed a folder, a device or a FIFO as its script fails to load it, and wrk then runs without one
    const kind = fileKind(statSync(file));
    if (kind) return `${where} is ${kind}, not a file; point script: at the script file itself`;
    try {
      accessSync(file, constants.R_OK);
      return undefined;
    } catch {
      return `${where} cannot be read by this user; make the file readable (chmod a+r ${job.script})`;
    }
  }
  const near = nearIn(dirname(file), basename(file));
  // a script the package ships (loadtests/wrk/json.lua) named as in benchline's own repository, where it sits at the root
  const shipped = resolve(PACKAGE, job.script);
  const inPackage = !near && resolve(root) !== PACKAGE && shipped.startsWith(`${PACKAGE}/`) && existsSync(shipped);
  return `${where} does not exist `
    + `(script: paths are relative to the project root, ${root})${near ? `; did you mean ${relative(root, join(dirname(file), near))}?` : ''}`
    + (inPackage ? `; the benchline package ships it: script: ${relative(root, shipped)}` : '');
}

/** What a path that is no regular file is (a folder, a device, a FIFO, a socket), or undefined for a regular file. */
function fileKind(st) {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a socket or other special file';
}

/** Why a suite's subject has no manifest to start it from (subjects/<name>/subject.yaml), or undefined. */
function missingSubject(config, suiteName, subject) {
  const file = join(config.root, 'subjects', subject, 'subject.yaml');
  if (existsSync(file)) {
    // a pipe or a device would block or never end the read of it
    const kind = fileKind(statSync(file));
    return kind && `${relative(config.root, config.file || 'bench.config.yaml')} suites.${suiteName}: subject ${JSON.stringify(subject)}: ${relative(config.root, file)} is ${kind}, not a file; make it the subject's YAML manifest`;
  }
  const near = nearIn(join(config.root, 'subjects'), subject);
  return `${relative(config.root, config.file || 'bench.config.yaml')} suites.${suiteName}: subject ${JSON.stringify(subject)} has no ${relative(config.root, file)} `
    + `(each subject is a folder under subjects/ with a subject.yaml, docs/config.md)${near ? `; did you mean ${near}?` : ''}`;
}

/** Names a suite's params or its subject's manifest read as ${param.NAME}: a job param kept for them is no typo. */
function paramsRead(config, suite) {
  let text = JSON.stringify(suite);
  const manifest = config.root && join(config.root, 'subjects', suite.subject, 'subject.yaml');
  try {
    if (manifest && statSync(manifest).isFile()) text += readFileSync(manifest, 'utf8');
  } catch { /* no manifest yet: the run says so */ }
  return new Set([...text.matchAll(/\$\{param\.([\w-]+)\}/g)].map((m) => m[1]));
}

/**
 * Why a job's command line cannot be built from these params, or undefined: a value the tool refuses (runs=-1,
 * duration=0s, requests=1e99) is then refused before any subject starts, not in every trial. The command is built for a
 * stand-in target.
 */
function commandProblem(config, job, params) {
  const adapter = ADAPTERS[job.tool];
  if (!adapter?.command) return undefined;
  const root = config.root || '.';
  try {
    adapter.command({ bin: adapter.binary, params, rawParams: params, target: { url: 'http://127.0.0.1:1', host: '127.0.0.1', port: 1, grpc: '127.0.0.1:1', ports: {} }, script: job.script ? resolve(root, job.script) : undefined, outFile: '/dev/null', root, subjectDir: root, timeoutSeconds: 600 });
    return undefined;
  } catch (e) {
    return e.message;
  }
}

/** Whether params hold a placeholder (${port.http}, ${param.runs}): only the run knows their values. */
const holdsPlaceholder = (params) => JSON.stringify(params).includes('${');

/** A name from the command line as a one-line message shows it: control characters (a newline) escaped. */
const oneLine = (s) => String(s).replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));

export const jobId = ({ suite, variant, tool, scenario }) => `${suite}.${variant}.${tool}.${scenario}`;

/**
 * A suite's jobs of each of its variants that `sel` selects by variant, tool and scenario ({ variant, job }, variant by
 * variant in the config's order); `sel.job` is left to the caller.
 */
function* selectedIn(suite, sel) {
  for (const variant of Object.keys(suite.variants)) {
    if (sel.variant?.length && !sel.variant.includes(variant)) continue;
    for (const job of suite.jobs) {
      if (job.variants && !job.variants.includes(variant)) continue;
      if (sel.tool?.length && !sel.tool.includes(job.tool)) continue;
      if (sel.scenario?.length && !sel.scenario.includes(job.scenario)) continue;
      yield { variant, job };
    }
  }
}

/**
 * The first --variant, --tool, --scenario or --job value that no job of the selected suites has, with the ones they have
 * and the one it nearly spells ("; --variant idx: no such variant in suite shop (variants there: plain,
 * indexed); did you mean indexed?"), or '' when each value alone is known.
 */
function unknownSelection(config, suites, sel) {
  const known = { variant: new Set(), tool: new Set(), scenario: new Set(), job: new Set() };
  for (const suiteName of suites) {
    for (const { variant, job } of selectedIn(config.suites[suiteName], {})) {
      known.variant.add(variant);
      known.tool.add(job.tool);
      known.scenario.add(job.scenario);
      known.job.add(jobId({ suite: suiteName, variant, tool: job.tool, scenario: job.scenario }));
    }
  }
  for (const key of ['variant', 'tool', 'scenario', 'job']) {
    const have = [...known[key]];
    const bad = (sel[key] || []).find((v) => !known[key].has(v));
    if (bad === undefined) continue;
    const near = nearMiss(bad, have);
    const where = `${suites.length > 1 ? 'suites' : 'suite'} ${suites.join(', ')}`;
    return `; --${key} ${bad}: no such ${key} in ${where} (${key}s there: ${have.join(', ') || 'none'})${near ? `; did you mean ${near}?` : ''}`;
  }
  return '';
}

/**
 * Jobs selected by `sel` ({ suite[], variant[], tool[], scenario[], job[], profile, param[], trials }).
 * Each job carries what the runner needs; `skip` holds the reason for variants that cannot run natively;
 * `group` (suites with `interleave: variants`) names the jobs the runner runs side by side, trial by trial.
 */
export function planJobs(config, sel = {}) {
  const profile = sel.profile || config.defaults.profile;
  if (!Object.hasOwn(config.profiles, profile)) {
    throw new ConfigError(`profile ${JSON.stringify(profile)} is not defined; choose one of: ${Object.keys(config.profiles).join(', ')}`);
  }
  const suites = sel.suite?.length ? sel.suite : config.defaults.suites.length ? config.defaults.suites : Object.keys(config.suites);
  for (const s of suites) {
    if (!Object.hasOwn(config.suites, s)) throw new ConfigError(`suite ${JSON.stringify(s)} is not defined in ${config.file || 'the config'}; defined: ${Object.keys(config.suites).join(', ') || 'none'}`);
  }
  const overrides = parseOverrides(sel.param);
  // the tools and scenarios of the selected jobs: `x.key` is scoped to them when x is one of them (as checkOverrides
  // reads it), else a parameter of its own name, such as JMH's p.size
  const scopes = new Set();
  for (const suiteName of suites) {
    for (const { variant, job } of selectedIn(config.suites[suiteName], sel)) {
      if (sel.job?.length && !sel.job.includes(jobId({ suite: suiteName, variant, tool: job.tool, scenario: job.scenario }))) continue;
      scopes.add(job.tool).add(job.scenario);
    }
  }
  const jobs = [];
  for (const suiteName of suites) {
    const suite = config.suites[suiteName];
    // a config read from a file (config.root) names files of its project: ones that are not there fail here, not in the run
    const noSubject = config.root && missingSubject(config, suiteName, suite.subject);
    if (noSubject) throw new ConfigError(noSubject);
    // read once a suite, and only for a tool that checks its params when planned
    let used;
    for (const { variant, job } of selectedIn(suite, sel)) {
      const entry = {
        id: jobId({ suite: suiteName, variant, tool: job.tool, scenario: job.scenario }),
        suite: suiteName,
        subject: suite.subject,
        variant,
        tool: job.tool,
        scenario: job.scenario,
        profile,
        trials: sel.trials || job.trials || config.profiles[profile].trials,
        params: resolveParams({ suite, variant, job, profile, overrides, scopes }),
      };
      const noScript = job.script && config.root && missingScript({ ...job, suite: suiteName }, config.root, config.file);
      if (noScript) throw new ConfigError(noScript);
      // params no command line can be built from fail here, before any subject starts
      const own = [...new Set([job.params, ...Object.values(job.profiles || {})].flatMap((x) => Object.keys(x || {})))];
      const problem = ADAPTERS[job.tool]?.paramsProblem?.(entry.params, { script: job.script, own, used: (used ??= paramsRead(config, suite)), root: config.root || '.' })
        || ADAPTERS[job.tool]?.scriptProblem?.({ script: job.script, root: config.root || '.' })
        || ADAPTERS[job.tool]?.judgeProblem?.({ script: job.script, judge: job.judgeByVariant?.[variant] || job.judge, params: entry.params, root: config.root || '.' })
        || ADAPTERS[job.tool]?.filesProblem?.(entry.params, { root: config.root || '.' });
      if (problem) throw new ConfigError(`${config.file || 'bench.config.yaml'}: suites.${suiteName} job ${job.tool}/${job.scenario} (variant ${variant}): ${problem}`);
      // the same checks for the config's own params as for --param: a config's duration: 0s fails here, not in each trial
      const refused = commandProblem(config, job, entry.params);
      if (refused) {
        const configured = resolveParams({ suite, variant, job, profile });
        if (sel.param?.length && !commandProblem(config, job, configured)) {
          throw new ConfigError(`--param ${sel.param.map(oneLine).join(' --param ')}: ${refused} (job ${entry.id}); give a value the tool takes, or drop the --param`);
        }
        // a value only the run fills in is checked by the run
        if (!holdsPlaceholder(configured)) throw new ConfigError(`${config.file || 'bench.config.yaml'}: suites.${suiteName} job ${job.tool}/${job.scenario} (variant ${variant}): ${refused}; fix the job's params (docs/config.md)`);
      }
      // Trials named by --trials or the job itself are kept as they are; otherwise an A/B run adds rounds as needed.
      if (sel.trials || job.trials) entry.fixedTrials = true;
      const judge = job.judgeByVariant?.[variant] || job.judge;
      if (judge) entry.judge = judge;
      if (job.minEffect) entry.minEffect = job.minEffect;
      if (job.script) entry.script = job.script;
      if (job.timeout) entry.timeout = job.timeout;
      if (job.warmup) entry.warmup = job.warmup;
      if (job.restart || config.compare?.restart) entry.restart = job.restart || config.compare.restart;
      if (typeof job.duet === 'boolean') entry.duet = job.duet;
      else if (config.compare?.duet === 'never') entry.duet = false;
      const v = suite.variants[variant];
      if (v.env) entry.env = Object.fromEntries(Object.entries(v.env).map(([k, val]) => [k, String(val)]));
      if (v.processes) entry.processes = v.processes;
      if (v.skip) entry.skip = v.skip;
      else if (job.skipIn?.[profile]?.includes(variant)) entry.skip = `left out of the ${profile} profile (skipIn); other profiles run it`;
      else if (suite.interleave === 'variants') entry.group = `${suiteName}.${job.tool}.${job.scenario}`;
      if (sel.job?.length && !sel.job.includes(entry.id)) continue;
      jobs.push(entry);
    }
  }
  if (!jobs.length) throw new ConfigError(`the selection matches no job${unknownSelection(config, suites, sel) || '; no job has every one of the --variant/--tool/--scenario/--job values given together'} (bench.config.yaml)`);
  checkOverrides(config, jobs, overrides);
  return jobs;
}

/** Jobs run together: a planned `group` (variants interleaved trial by trial), else each job alone; first appearance order. */
export function jobGroups(jobs) {
  const groups = new Map();
  for (const job of jobs) {
    const key = job.group ? `group:${job.group}` : `job:${job.id}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(job);
  }
  return [...groups.values()];
}

/**
 * The GitHub strategy.matrix shape: small entries (params stay in the config, resolved again per job).
 * Interleaved variants stay together in one entry (one runner): `jobs` lists its job ids, space-separated.
 * `trials` is set only where it is fixed (--trials or the job's own); 0 lets the job re-plan from its profile, and an
 * A/B job add rounds until decided.
 */
export const toMatrix = (jobs) => ({
  include: jobGroups(jobs).map((g) => {
    const { id, suite, subject, variant, tool, scenario, profile } = g[0];
    const trials = g[0].fixedTrials ? g[0].trials : 0;
    if (g.length === 1) return { id, jobs: id, suite, subject, variant, tool, scenario, profile, trials };
    return { id: g[0].group, jobs: g.map((j) => j.id).join(' '), suite, subject, variant: g.map((j) => j.variant).join(' '), tool, scenario, profile, trials };
  }),
});

/** Tool names a job's params (warm-up included) refer to with ${tool.NAME}, so they are installed before the job runs. */
function toolsOfParams(job) {
  const text = JSON.stringify([job.params, job.warmup]);
  return [...text.matchAll(/\$\{tool\.([\w-]+)\}/g)].map((m) => m[1]);
}

/** Tool binaries a plan needs: the adapters' `binary`, and the tools its job params name. */
export function toolsFor(jobs, adapters) {
  const runnable = jobs.filter((j) => !j.skip);
  return [...new Set([...runnable.map((j) => adapters[j.tool].binary), ...runnable.flatMap(toolsOfParams)])];
}

/**
 * A job's params for one side (base or head), with the placeholders subject manifests know filled in:
 * ${dir} the side's checkout (so a hyperfine command times that side's binary), ${port.NAME} the side's
 * subject ports, ${tool.NAME}, ${run} (the side's raw folder of the job), ${env.NAME}, ${param.NAME}.
 * vars = { dir, run, ports, tool(name) -> path, env, params }; an unknown placeholder is an error naming `where`.
 */
export function expandParams(params, vars, where, shellParams = []) {
  const all = { ...vars, params: vars.params ?? params };
  // Two passes: a ${param.NAME} may bring in a value that holds placeholders itself (a variant's db: "${run}/orders.db").
  // Params the tool runs as shell command lines (shellParams: hyperfine's commands) get their paths quoted.
  const pass = (value) => Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, shellParams.includes(k) ? { ...all, shell: true } : all, where)]));
  return pass(pass(params || {}));
}

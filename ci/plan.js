// Expands the config into the job matrix: suite x variant x (tool, scenario), filtered by the CLI selection.
import { resolveParams, parseOverrides, checkOverrides, ConfigError } from './config.js';

export const jobId = ({ suite, variant, tool, scenario }) => `${suite}.${variant}.${tool}.${scenario}`;

/**
 * Jobs selected by `sel` ({ suite[], variant[], tool[], scenario[], job[], profile, param[], trials }).
 * Each job carries what the runner needs; `skip` holds the reason for variants that cannot run natively;
 * `group` (suites with `interleave: variants`) names the jobs the runner runs side by side, trial by trial.
 */
export function planJobs(config, sel = {}) {
  const profile = sel.profile || config.defaults.profile;
  if (!config.profiles[profile]) {
    throw new ConfigError(`profile "${profile}" is not defined; choose one of: ${Object.keys(config.profiles).join(', ')}`);
  }
  const suites = sel.suite?.length ? sel.suite : config.defaults.suites.length ? config.defaults.suites : Object.keys(config.suites);
  for (const s of suites) {
    if (!config.suites[s]) throw new ConfigError(`suite "${s}" is not defined in ${config.file || 'the config'}; defined: ${Object.keys(config.suites).join(', ') || 'none'}`);
  }
  const overrides = parseOverrides(sel.param);
  const jobs = [];
  for (const suiteName of suites) {
    const suite = config.suites[suiteName];
    for (const variant of Object.keys(suite.variants)) {
      if (sel.variant?.length && !sel.variant.includes(variant)) continue;
      for (const job of suite.jobs) {
        if (job.variants && !job.variants.includes(variant)) continue;
        if (sel.tool?.length && !sel.tool.includes(job.tool)) continue;
        if (sel.scenario?.length && !sel.scenario.includes(job.scenario)) continue;
        const entry = {
          id: jobId({ suite: suiteName, variant, tool: job.tool, scenario: job.scenario }),
          suite: suiteName,
          subject: suite.subject,
          variant,
          tool: job.tool,
          scenario: job.scenario,
          profile,
          trials: sel.trials || job.trials || config.profiles[profile].trials,
          params: resolveParams({ suite, variant, job, profile, overrides }),
        };
        if (job.script) entry.script = job.script;
        if (job.timeout) entry.timeout = job.timeout;
        if (job.warmup) entry.warmup = job.warmup;
        const v = suite.variants[variant];
        if (v.env) entry.env = Object.fromEntries(Object.entries(v.env).map(([k, val]) => [k, String(val)]));
        if (v.processes) entry.processes = v.processes;
        if (v.skip) entry.skip = v.skip;
        else if (suite.interleave === 'variants') entry.group = `${suiteName}.${job.tool}.${job.scenario}`;
        if (sel.job?.length && !sel.job.includes(entry.id)) continue;
        jobs.push(entry);
      }
    }
  }
  if (!jobs.length) throw new ConfigError('the selection matches no job; check --suite/--variant/--tool/--scenario/--job against bench.config.yaml');
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
 */
export const toMatrix = (jobs) => ({
  include: jobGroups(jobs).map((g) => {
    const { id, suite, subject, variant, tool, scenario, profile, trials } = g[0];
    if (g.length === 1) return { id, jobs: id, suite, subject, variant, tool, scenario, profile, trials };
    return { id: g[0].group, jobs: g.map((j) => j.id).join(' '), suite, subject, variant: g.map((j) => j.variant).join(' '), tool, scenario, profile, trials };
  }),
});

/** Tool binaries a plan needs, from the adapters' `binary`. */
export function toolsFor(jobs, adapters) {
  return [...new Set(jobs.filter((j) => !j.skip).map((j) => adapters[j.tool].binary))];
}

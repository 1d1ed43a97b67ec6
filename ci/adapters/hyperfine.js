// Adapter for hyperfine: reads its --export-json file; one case per benchmarked command.
import { readFileSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { ParseError, parseJson, shown } from './errors.js';
import { metric } from '../metrics.js';
import { wholeNumber } from './counts.js';
import { nearMiss } from '../spelling.js';
import { shellQuote } from '../shell.js';

export const name = 'hyperfine';

/**
 * Metrics that get a verdict by default (a job's `judge:` replaces them): the mean wall time of each command, and its
 * failed runs (kept with ignoreFailure): a change that makes a command fail at once must not pass for a faster one.
 */
export const judged = Object.freeze(['time.mean', 'errors']);
export const binary = 'hyperfine';
export const produce = "hyperfine --runs 10 --export-json out.json 'command one' 'command two'";
/** Every parameter command() reads (docs/config.md, hyperfine): `--param` may set these even when the config does not. */
export const params = Object.freeze(['commands', 'command', 'names', 'runs', 'warmup', 'prepare', 'parameterList', 'parameterScan', 'ignoreFailure', 'shell', 'args']);
/** Params hyperfine runs as shell command lines: a path placeholder in them (${dir}) is quoted, as a path may hold a space. */
export const shellParams = Object.freeze(['commands', 'command', 'prepare', 'args']);
/** Times its commands one run at a time: the cores it uses are the benchmark's, never a load tool's ceiling. */
export const selfTimed = true;

const fail = (reason) => { throw new ParseError(reason, produce); };
const sToNs = (s) => Math.round(s * 1e9);

// hyperfine's statistics per result and the metric each becomes.
const FIELDS = [['mean', 'time.mean'], ['stddev', 'time.stdev'], ['median', 'time.median'], ['min', 'time.min'],
  ['max', 'time.max'], ['user', 'time.user'], ['system', 'time.system']];

/** Longest time hyperfine could have measured, in seconds: a value beyond (1e6 s, 11.6 days) is a corrupted one. */
const MAX_SECONDS = 1e6;
/** A time in seconds as hyperfine writes it: a JSON number from 0 to MAX_SECONDS (a string, list or boolean is none). */
const isSeconds = (v) => typeof v === 'number' && v >= 0 && v <= MAX_SECONDS;

/**
 * What is wrong with one result's times, or undefined: each statistic is null (stddev after one run) or a number of
 * seconds, each run's time a number of seconds, and the command a name. Without this "12" read as 12 s, [] or false as 0.
 */
function resultProblem(r) {
  if (!r.command.trim()) return 'has an empty command, which hyperfine never writes';
  const bad = FIELDS.map(([field]) => field).find((f) => r[f] !== null && r[f] !== undefined && !isSeconds(r[f]));
  if (bad) return `has ${bad} ${shown(r[bad])}, where hyperfine writes a number of seconds from 0 to ${MAX_SECONDS}`;
  const run = r.times.findIndex((t) => !isSeconds(t));
  if (run >= 0) return `has run ${run + 1} timed as ${shown(r.times[run])} in times, where hyperfine writes a number of seconds from 0 to ${MAX_SECONDS}`;
  // hyperfine computes min and max from these times: a run outside them, kept as a sample, was edited or corrupted (a min
  // above its max, or a mean outside them, is left to ci/sanity.js, whose message names both metrics)
  const ordered = typeof r.min === 'number' && typeof r.max === 'number' && r.min <= r.max;
  const outside = ordered ? r.times.findIndex((t) => t < r.min * (1 - 1e-9) || t > r.max * (1 + 1e-9)) : -1;
  if (outside >= 0) return `has run ${outside + 1} timed as ${r.times[outside]} s, outside its own min ${r.min} s .. max ${r.max} s, which hyperfine computes from these times`;
  // and its mean: a run dropped from times, or one repeated, leaves samples that are not the runs it averaged
  const average = r.times.reduce((s, t) => s + t, 0) / r.times.length;
  if (ordered && r.mean >= r.min && r.mean <= r.max && r.times.length && Math.abs(average - r.mean) > 1e-9 * Math.max(r.mean, average)) return `has mean ${r.mean} s, which is not the mean of its ${r.times.length} run times (${average} s), from which hyperfine computes it`;
  return undefined;
}

function foreign(doc, text) {
  if (Array.isArray(doc) && doc.some((d) => d?.benchmark && d?.primaryMetric)) return 'JMH JSON';
  if (doc?.metrics && (doc.root_group || doc.state)) return 'a k6 summary';
  if (doc?.histogram && doc?.latencyDistribution !== undefined) return 'ghz JSON';
  if (/This is ApacheBench/.test(text)) return 'ApacheBench text';
  if (/^Running \S+ test @ /m.test(text)) return 'wrk text';
  return undefined;
}

/** hyperfine's own message from stderr (e.g. "Command terminated with non-zero exit code"), when kept. */
const stderrReason = (stderr) => {
  const m = /^\s*Error: (.*)$/m.exec(stderr || '');
  return m ? `hyperfine failed: "${m[1].trim()}"` : undefined;
};

/** Why hyperfine left no JSON file: the error it printed when it refused its command line (exit 2), when there is one. */
export function noOutput(ctx = {}) {
  let text = '';
  try {
    text = ctx.files?.stderr ? readFileSync(ctx.files.stderr, 'utf8') : '';
  } catch { /* no stderr file: nothing to quote */ }
  const m = /^\s*error: (.*)$/im.exec(text);
  return m ? `hyperfine refused its command line: "${m[1].trim()}" (the job's params, docs/config.md, hyperfine)` : undefined;
}

/**
 * When hyperfine stopped because a command it times exited non-zero: which command (the last "Benchmark N: NAME" it
 * printed) and how to fix the job; undefined for any other end. hyperfine keeps no output of the command.
 */
export function failedRun({ exitCode, stdout, stderr, params } = {}) {
  if (!exitCode || params?.ignoreFailure === true) return undefined;
  const m = /Command terminated with non-zero exit code: (-?\d+)/.exec(stderr || '');
  if (!m) return undefined;
  const started = [...String(stdout || '').matchAll(/^Benchmark \d+: (.*)$/gm)].pop()?.[1];
  return `the command ${started ? `${JSON.stringify(started.trim())} ` : ''}exited with code ${m[1]}, so hyperfine stopped `
    + '(it keeps no output of the command: run the command by hand in the checkout to see why). Fix the command, or set '
    + 'ignoreFailure: true in the job\'s params to time failing runs too and count them in errors';
}

/** A case name per result: the command as run (parameters substituted) or its --command-name, made unique. */
export function caseNames(results) {
  const base = results.map((r) => r.command);
  const count = (names) => names.reduce((m, n) => m.set(n, (m.get(n) || 0) + 1), new Map());
  // A --command-name without {param} placeholders repeats across a scan: add the values.
  const counts = count(base);
  const withParams = results.map((r, i) => {
    const params = Object.entries(r.parameters || {}).sort(([a], [b]) => a.localeCompare(b));
    return counts.get(base[i]) > 1 && params.length ? `${base[i]} (${params.map(([k, v]) => `${k}=${v}`).join(', ')})` : base[i];
  });
  const seen = new Map();
  const again = count(withParams);
  return withParams.map((n) => {
    if (again.get(n) === 1) return n;
    const k = (seen.get(n) || 0) + 1;
    seen.set(n, k);
    return `${n} #${k}`;
  });
}

/**
 * One hyperfine --export-json file -> metrics per command (case), times in ns. The per-run times
 * are the samples of time.mean and time.median. opts.stderr supplies hyperfine's message when the
 * file is empty because the run failed.
 */
export function parse(text, opts = {}) {
  const src = String(text ?? '');
  if (!src.trim()) fail(stderrReason(opts.stderr) || 'the file is empty: hyperfine wrote no results (it stops at the first failing command unless run with -i)');
  if (!/^\s*[[{]/.test(src)) {
    const other = foreign(undefined, src);
    fail(other ? `this is ${other}, not hyperfine's --export-json` : 'not JSON: read the file given to --export-json, not hyperfine\'s printed text');
  }
  const doc = parseJson(src, produce);
  if (!doc || !Array.isArray(doc.results)) {
    const other = foreign(doc, src);
    const keys = doc && typeof doc === 'object' ? Object.keys(doc).slice(0, 6).join(', ') : typeof doc;
    fail(other ? `this is ${other}, not hyperfine's --export-json` : `JSON without hyperfine's "results" array (top-level: ${keys || 'nothing'})`);
  }
  if (!doc.results.length) fail('hyperfine\'s "results" array is empty: no command was benchmarked');
  doc.results.forEach((r, i) => {
    if (typeof r?.command !== 'string' || !Array.isArray(r.times) || typeof r.mean !== 'number') {
      fail(`result ${i + 1} lacks command, mean or times; the file is not hyperfine --export-json output`);
    }
    const problem = resultProblem(r);
    if (problem) fail(`result ${i + 1} (${shown(r.command)}) ${problem}; the file is corrupted or edited`);
  });
  const names = caseNames(doc.results);
  const metrics = [];
  const notes = [];
  doc.results.forEach((r, i) => {
    const c = names[i];
    if (!r.times.length) fail(`result ${i + 1} ("${c}") has no runs`);
    const samples = r.times.map(sToNs);
    for (const [field, metricName] of FIELDS) {
      // stddev is null after a single run.
      if (r[field] === null || r[field] === undefined) continue;
      const extra = { case: c };
      if (field === 'mean' || field === 'median') extra.samples = samples;
      metrics.push(metric(metricName, sToNs(r[field]), extra));
    }
    // hyperfine writes one exit code per run: an integer, or null for a run a signal ended; anything else would read as a failure
    if (r.exit_codes !== undefined && !Array.isArray(r.exit_codes)) fail(`result ${i + 1} ("${c}") has exit_codes ${shown(r.exit_codes)}, not a list; the file is corrupted`);
    const codes = r.exit_codes || [];
    const odd = codes.find((x) => x !== null && !Number.isInteger(x));
    if (odd !== undefined) fail(`result ${i + 1} ("${c}") has exit code ${shown(odd)} in exit_codes, where hyperfine writes a whole number or null; the file is corrupted`);
    const failed = codes.filter((x) => x !== 0);
    metrics.push(metric('errors', failed.length, { case: c }));
    if (failed.length) {
      const distinct = [...new Set(failed.map(String))].join(', ');
      notes.push(`${c}: ${failed.length} of ${codes.length} runs exited non-zero (exit code ${distinct}); hyperfine -i kept their times`);
    }
    if (r.times.length === 1) notes.push(`${c}: a single run, so no standard deviation`);
    // hyperfine subtracts the shell's start-up from every run and writes 0 where the command took less than that
    const zeros = r.times.filter((t) => t === 0).length;
    if (zeros) {
      notes.push(`${c}: hyperfine timed ${zeros} of ${r.times.length} runs as 0 s: the command takes less than the shell start-up hyperfine `
        + 'subtracts from each run, so these times are not the command\'s; set shell: none in the job\'s params (nothing to subtract) or give the command more work per run');
    }
  });
  const extra = {
    commands: doc.results.map((r, i) => ({ case: names[i], command: r.command, runs: r.times.length, parameters: r.parameters || {}, exitCodes: Array.isArray(r.exit_codes) ? r.exit_codes : [] })),
  };
  return { metrics, notes, extra };
}

const hasValue = (v) => !(v === undefined || v === null || v === '');
const asList = (v) => (!hasValue(v) ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
const count = (v, what, min) => wholeNumber(v, { tool: 'hyperfine', what, min });

/** "t=0.1,0.2; mode=a,b" or { t: [0.1, 0.2] } -> [[name, "v1,v2"], ...] for --parameter-list. */
function parameterLists(v) {
  if (v === undefined || v === null || v === '') return [];
  const entries = typeof v === 'object' && !Array.isArray(v)
    ? Object.entries(v).map(([k, vals]) => [k, asList(vals).join(',')])
    : asList(v).flatMap((s) => s.split(';')).map((s) => s.trim()).filter(Boolean).map((s) => {
      const m = /^([A-Za-z_]\w*)=(.+)$/.exec(s);
      if (!m) throw new Error(`hyperfine: parameterList entry "${s}" must look like name=v1,v2`);
      return [m[1], m[2]];
    });
  return entries;
}

/** "t=1..5" or "t=0..1:0.25" -> [name, min, max, step?] for --parameter-scan. */
function parameterScan(v) {
  if (v === undefined || v === null || v === '') return undefined;
  const m = /^([A-Za-z_]\w*)=(-?[\d.]+)\.\.(-?[\d.]+)(?::([\d.]+))?$/.exec(String(v).trim());
  if (!m) throw new Error(`hyperfine: parameterScan "${v}" must look like name=1..5 or name=0..1:0.25`);
  return m.slice(1).filter((x) => x !== undefined);
}

/** How many values a "t=0..1:0.25" scan takes (hyperfine steps exactly, in decimal, from min up to max). */
function scanLength([, min, max, step = '1']) {
  const decimals = Math.max(...[min, max, step].map((x) => (x.split('.')[1] || '').length));
  const scaled = (x) => BigInt(Math.round(Number(x) * 10 ** decimals));
  const span = scaled(max) - scaled(min);
  const by = scaled(step);
  return span < 0n || by <= 0n ? 0 : Number(span / by) + 1;
}

/**
 * How many cases each command makes: the product of the parameterList's value counts, or the scan's steps; 1 without
 * either. hyperfine runs them value by value, every command for each (the first list's values changing fastest).
 */
function casesPerCommand(p) {
  const lists = parameterLists(p.parameterList);
  if (lists.length) return lists.reduce((n, [, vals]) => n * String(vals).split(',').length, 1);
  const scan = parameterScan(p.parameterScan);
  return scan ? scanLength(scan) : 1;
}

/** One entry per command -> one per case, in hyperfine's order (each parameter value, every command for it). */
const perCase = (perCommand, cases) => Array.from({ length: cases }, () => perCommand).flat();

// hyperfine options a user may write as params that benchline does not pass, and what to write instead
const UNPASSED = {
  setup: 'run it in prepare (before every run) or in the subject\'s build: steps',
  cleanup: 'clean up in prepare or in the command itself',
  conclude: 'do it in the command itself',
  minRuns: 'set runs (every trial makes exactly that many runs)',
  maxRuns: 'set runs (every trial makes exactly that many runs)',
  timeUnit: 'leave it out: benchline stores nanoseconds and picks the unit it shows',
  showOutput: 'leave it out: run the command by hand to see its output',
};
const kebab = (k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Why a param the job itself sets (`own`: its params and profiles) is one hyperfine would never see: a hyperfine
 * option benchline does not pass (setup, minRuns...) or a near miss of one it does (run, warmpu); undefined otherwise.
 * A name the subject or the job reads as ${param.NAME} (`used`) is never one.
 */
function unreadParam(own, used) {
  const kebabs = new Map([...params, ...Object.keys(UNPASSED)].map((k) => [kebab(k), k]));
  for (const key of own) {
    if (params.includes(key) || used.has(key)) continue;
    const camel = kebabs.get(key) || kebabs.get(kebab(key).toLowerCase());
    const unpassed = Object.hasOwn(UNPASSED, key) ? key : camel && Object.hasOwn(UNPASSED, camel) ? camel : undefined;
    if (unpassed) return `hyperfine: param ${key} (hyperfine --${kebab(unpassed)}) is not one benchline passes to hyperfine, so it would be ignored: ${UNPASSED[unpassed]}`;
    const near = camel || nearMiss(key, params, 4);
    if (near) return `hyperfine: param ${key} is not one benchline reads, so it would be ignored (did you mean ${near}?); hyperfine jobs read ${params.join(', ')} (docs/config.md, hyperfine)`;
  }
  return undefined;
}

/**
 * Why a job's params make no hyperfine command line, or undefined; checked when the run is planned (plan.js).
 * own: the names the job's own params and profiles set; used: names read as ${param.NAME} (by the subject or the job).
 */
export function paramsProblem(p = {}, { script, own = [], used = new Set() } = {}) {
  const unread = unreadParam(own, used);
  if (unread) return unread;
  const commands = [...asList(p.commands), ...asList(p.command)].length || (script ? 1 : 0);
  if (!commands) return 'hyperfine needs params.commands (one command or a list), or a script: to time with params.args (docs/config.md, hyperfine)';
  const names = asList(p.names).length;
  if (names && names !== commands) return `hyperfine: ${names} names for ${commands} command${commands === 1 ? '' : 's'}; give one name per command`;
  // hyperfine 1.15 takes one name per command with --parameter-scan, but gives the later values of every command
  // after the second the first command's name; with --parameter-list it takes one per case, which command() writes.
  const named = names || asList(p.commands).concat(asList(p.command)).some((c) => c.includes('${'));
  if (hasValue(p.parameterScan) && commands > 1 && named) return `hyperfine: parameterScan over ${commands} commands ${names ? 'with a name each' : 'holding placeholders (named as configured)'} would be mislabelled by hyperfine (it names later cases of one command after another); list the scan's values in parameterList instead (e.g. ${String(p.parameterScan).split('=')[0]}: [1, 2, 3]), where every command keeps its own name`;
  if (p.ignoreFailure !== undefined && typeof p.ignoreFailure !== 'boolean') return `hyperfine: param ignoreFailure must be true or false, got ${JSON.stringify(p.ignoreFailure)}${typeof p.ignoreFailure === 'string' ? ' (a string: write it without quotes)' : ''}`;
  if (hasValue(p.parameterList) && hasValue(p.parameterScan)) return 'hyperfine: parameterList and parameterScan cannot be used together (hyperfine refuses --parameter-list with --parameter-scan); list the scan\'s values in parameterList instead';
  // hyperfine takes one --prepare for all commands or one per command, in order
  const prepares = asList(p.prepare).length;
  if (prepares > 1 && prepares !== commands) return `hyperfine: ${prepares} prepare commands for ${commands} command${commands === 1 ? '' : 's'}; give one for all commands or one per command`;
  return undefined;
}

/**
 * The command line of one trial; hyperfine writes its JSON to ctx.outFile. params: runs, warmup,
 * commands (list or one string) or, without commands, the job's script file run with params.args;
 * names (--command-name, one per command; by default the commands as configured when they hold
 * placeholders, see ctx.rawParams), parameterList, parameterScan, prepare, ignoreFailure (-i),
 * shell ('none' runs commands without a shell, any other value is the shell to use).
 */
export function command(ctx) {
  const p = ctx.params || {};
  if (!ctx.outFile) throw new Error('hyperfine: no output file (ctx.outFile) for --export-json');
  const problem = paramsProblem(p, { script: ctx.script });
  if (problem) throw new Error(problem);
  let commands = [...asList(p.commands), ...asList(p.command)];
  const scripted = !commands.length;
  if (scripted) commands = [[shellQuote(ctx.script), ...asList(p.args)].join(' ')];
  let names = asList(p.names);
  // A command with placeholders (${dir}/bin/app) reads differently on each side: name it as configured, so base and head cases match.
  const raw = ctx.rawParams ? [...asList(ctx.rawParams.commands), ...asList(ctx.rawParams.command)] : [];
  if (!names.length && raw.length === commands.length && raw.some((c, i) => c !== commands[i])) names = raw;
  // The job's script: is run from its absolute path in the head checkout and its args hold the side's ${dir} or
  // ${port.NAME}: name it as configured (script path from the project root, args unfilled), the same on both sides
  // and in every checkout.
  if (!names.length && scripted) {
    const script = ctx.root && isAbsolute(ctx.script) ? relative(ctx.root, ctx.script) : ctx.script;
    const configured = [shellQuote(script), ...asList((ctx.rawParams || p).args)].join(' ');
    if (configured !== commands[0]) names = [configured];
  }
  const argv = [ctx.bin || binary, '--style', 'basic', '--export-json', ctx.outFile,
    '--runs', String(count(p.runs ?? 10, 'runs', 1)), '--warmup', String(count(p.warmup ?? 1, 'warmup', 0))];
  if (p.ignoreFailure === true) argv.push('-i');
  // none: no shell (hyperfine --shell=none); any other value is the shell to run the commands with (bash, "zsh -e")
  if (hasValue(p.shell)) argv.push(`--shell=${p.shell}`);
  // A name or prepare command per command becomes one per case: with a parameter list or scan hyperfine counts
  // cases, not commands (a scan takes its names per command, and several of those are refused above).
  const cases = casesPerCommand(p);
  const prepares = asList(p.prepare);
  for (const prep of prepares.length > 1 ? perCase(prepares, cases) : prepares) argv.push('--prepare', prep);
  for (const [k, vals] of parameterLists(p.parameterList)) argv.push('--parameter-list', k, vals);
  const scan = parameterScan(p.parameterScan);
  if (scan) argv.push('--parameter-scan', scan[0], scan[1], scan[2], ...(scan[3] ? ['--parameter-step-size', scan[3]] : []));
  if (hasValue(p.parameterList) && names.length > 1 && cases > 1) {
    for (const n of perCase(names, cases)) argv.push('--command-name', n);
    argv.push(...commands);
  } else {
    commands.forEach((c, i) => {
      if (names[i] !== undefined) argv.push('--command-name', names[i]);
      argv.push(c);
    });
  }
  return { argv, output: 'file' };
}

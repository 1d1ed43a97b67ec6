#!/usr/bin/env node
// benchline command line: parses arguments and hands each verb to its module in ci/commands/.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { TOOL_NAMES } from './adapters/index.js';
import { UserError } from './errors.js';
import { FORMATS as EXPORT_FORMATS } from './reports/exports.js';
import { MAX_TRIALS } from './config.js';
import { nameProblem } from './names.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const collect = (value, list) => [...list, value];

/** A parser for whole numbers within [min, max]: "2.7", "5abc", "" and 1e9 are refused, not rounded or cut. */
const wholeNumber = (min, max = Number.MAX_SAFE_INTEGER) => (text) => {
  const n = /^[-+]?\d+$/.test(String(text).trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(`Give a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : min > Number.MIN_SAFE_INTEGER ? ` of at least ${min}` : ''}.`);
  }
  return n;
};
/** A name that goes into result documents and from there into paths (at most 64 bytes, as in the config). */
const pathName = (what) => (text) => {
  const problem = nameProblem(text, what, 64);
  if (problem) throw new InvalidArgumentError(`Use letters, digits, ".", "_", "-", starting with a letter or digit, at most 64.`);
  return text;
};
/** A value that must not be empty (or blank), with what to give instead. */
const nonEmpty = (hint) => (text) => {
  if (!String(text).trim()) throw new InvalidArgumentError(hint);
  return text;
};
/** A file or folder given on the command line: an empty one would resolve to the current folder (a store made in the checkout). */
const path = nonEmpty('Give a path; an empty one would mean the current folder.');
/** A profile name: an empty one would quietly mean defaults.profile. */
const profileName = nonEmpty('Give a profile from the config (profiles:), or leave the option out for defaults.profile.');
/** path() for each value of a variadic argument. */
const paths = (text, list = []) => [...list, path(text)];
/** A repeatable option whose values must be among `choices` (commander's choices() does not combine with collecting). */
const collectChoice = (choices) => (value, list) => {
  if (!choices.includes(value)) throw new InvalidArgumentError(`Choose one of: ${choices.join(', ')}.`);
  return [...list, value];
};
/** File-system errors a path given on the command line causes, in words. */
const FS_PROBLEMS = {
  ENOTDIR: 'a part of that path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'a name in it is too long',
  ELOOP: 'too many symbolic links in it',
  ENOENT: 'no such file or folder',
  EEXIST: 'something else is already there',
  ENXIO: 'no device or reader there',
};
const verb = (name) => async (...args) => {
  const cmd = args.at(-1);
  const mod = await import(`./commands/${name}.js`);
  try {
    const code = await mod.default({ ...cmd.optsWithGlobals(), args: cmd.args });
    if (typeof code === 'number') process.exitCode = code;
  } catch (e) {
    const fsProblem = !(e instanceof UserError) && e?.syscall && e.path && FS_PROBLEMS[e.code];
    if (fsProblem) {
      // a path the user gave that cannot be written or read as asked (a file where a folder goes, a folder for a file)
      // an atomic write fails at its rename: the file named is the destination, not the temp file beside it
      const [what, path] = e.syscall === 'rename' && e.dest ? ['write', e.dest] : [e.syscall, e.path];
      process.stderr.write(`benchline ${name}: cannot ${what} ${path}: ${fsProblem}; give another path (--out, -o, --store, --history) or fix its permissions\n`);
      process.exitCode = 2;
      return;
    }
    if (!(e instanceof UserError)) throw e;
    process.stderr.write(`benchline ${name}: ${e.message}\n`);
    process.exitCode = e.exitCode;
  }
};

/** Options shared by the verbs that select jobs from bench.config.yaml. */
const selecting = (c) => c
  .option('-c, --config <file>', 'configuration file', path, 'bench.config.yaml')
  .addOption(new Option('-s, --suite <name>', 'suite to run (repeatable)').argParser(collect).default([], 'defaults.suites'))
  .option('--variant <name>', 'only these variants (repeatable)', collect, [])
  .addOption(new Option('--tool <name>', 'only jobs of these tools (repeatable)').choices(TOOL_NAMES).argParser(collectChoice(TOOL_NAMES)).default([]))
  .option('--scenario <name>', 'only these scenarios (repeatable)', collect, [])
  .option('-p, --profile <name>', 'profile from the config (quick, full, ...; default: defaults.profile)', profileName)
  .option('--param <key=value>', 'override a job parameter (repeatable)', collect, [])
  .option('--trials <n>', `trials per job and side, overriding the job's and the profile's (1 to ${MAX_TRIALS}); an A/B run then runs exactly that many rounds`, wholeNumber(1, MAX_TRIALS));

// Usage errors are one line and exit 2, like UserError; set before the verbs are added, which inherit it.
const program = new Command('benchline')
  .description(pkg.description)
  .version(pkg.version)
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(`benchline: ${text.replace(/^error: /, '').replace(/\s+/g, ' ').trim()} (see --help)\n`) });

program.command('doctor').description('list every tool, its version, where it came from and whether the config needs it')
  .option('-c, --config <file>', 'configuration file', path, 'bench.config.yaml')
  .action(verb('doctor'));

program.command('normalize')
  .description('turn one raw tool output into a result document (printed as JSON)')
  .addOption(new Option('-t, --tool <name>', 'tool that wrote the file').choices(TOOL_NAMES).makeOptionMandatory())
  .argument('<raw-file>', 'the tool output', path)
  .option('--suite <name>', 'suite name for the document', pathName('suite'), 'adhoc')
  .option('--variant <name>', 'variant name for the document', pathName('variant'), 'default')
  .option('--scenario <name>', "scenario name for the document (default: the file's name without its extension)", pathName('scenario'))
  .action(verb('normalize'));

selecting(program.command('plan').description("print the job matrix as JSON (the shape of strategy.matrix; \"trials\": 0 keeps the profile's, with rounds added as an A/B run needs them)"))
  .option('--github', 'print `matrix=<json>` for $GITHUB_OUTPUT')
  .action(verb('plan'));

const running = (c) => selecting(c)
  .option('-o, --out <dir>', 'results folder (default: defaults.results)', path)
  // an empty ref (an unset variable in --base "$BASE") would measure head alone, and a gate would pass having judged nothing
  .option('-b, --base <git-ref>', 'also measure this commit, interleaved with the working tree', nonEmpty('Give a branch, tag or commit; an empty one (an unset variable?) would measure head alone. Leave out --base for that.'))
  .addOption(new Option('--order <order>', 'order of base and head within each round: random (a seeded coin per round) or abab (base first)').choices(['abab', 'random']).default('random'))
  .option('--budget <seconds>', 'A/B runs: seconds the whole run may spend adding rounds (compare.budget.run)', (v) => {
    // decimal seconds only (Number would read 0x10 as 16), and at least one: less could never add a round
    const n = /^\d+(\.\d+)?$/.test(String(v).trim()) ? Number(v) : NaN;
    if (!(n >= 1) || !Number.isFinite(n)) throw new InvalidArgumentError('Give a number of seconds, at least 1, e.g. --budget 600.');
    return n;
  })
  .option('--job <id>', 'run only this matrix job id (repeatable)', collect, [])
  .option('--seed <n>', 'seed of the round order (default: a new one each run, kept in run.json as seed) and of bootstrap intervals (default 1); a whole number', wholeNumber(Number.MIN_SAFE_INTEGER))
  .option('--no-progress', 'no progress bar');

running(program.command('run').description('run the selected jobs and write raw outputs and result documents')).action(verb('run'));

running(program.command('bench').description('the main job: run, compare against --base, report, publish locally, build the site'))
  .option('--no-publish', 'do not append to the local history')
  .option('--no-site', 'do not build the site')
  .option('--history <dir>', 'history store folder (default: defaults.history); the site is built beside it (../site for a folder named history, else <dir>-site)', path)
  .option('--fail-on-regression', 'exit 1 when a judged metric regressed')
  .action(verb('bench'));

program.command('compare')
  .description('compare base and head result documents and print verdicts as JSON')
  .argument('<base>', 'folder or result file of the base', path)
  .argument('[head]', 'folder or result file of the head (default: same folder, role head)', path)
  .option('-c, --config <file>', 'configuration file (thresholds)', path, 'bench.config.yaml')
  .option('--fail-on-regression', 'exit 1 when a judged metric regressed')
  .action(verb('compare'));

program.command('report')
  .description('render a report of a results folder')
  .argument('<results-dir>', 'a folder written by run or bench', path)
  .addOption(new Option('-f, --format <format>', 'report format').choices(['console', 'comment', 'summary', 'suite']).default('console'))
  .option('-c, --config <file>', 'configuration file', path, 'bench.config.yaml')
  .option('-o, --output <file>', 'write here instead of stdout', path)
  .option('--detail', 'console format: also the breakdown metrics it leaves out (connect and processing times, stdev, p66-p98, counts)')
  .action(verb('report'));

program.command('export')
  .description('export result documents for other tools')
  .argument('<path>', 'a folder written by run or bench, a folder of result documents, or one document', path)
  .addOption(new Option('-f, --format <format>', 'export format').choices(Object.keys(EXPORT_FORMATS)).makeOptionMandatory())
  .option('-o, --output <file>', 'write here instead of stdout', path)
  .action(verb('export'));

program.command('publish')
  .description('append result documents to the history store (atomic, idempotent)')
  .argument('<paths...>', 'result files, folders of them, run folders or results roots', paths)
  .option('--store <dir>', 'history store folder', path, '.benchline/history')
  .action(verb('publish'));

program.command('site')
  .description('build the static history site from the store')
  .option('--store <dir>', 'history store folder', path, '.benchline/history')
  .option('-o, --out <dir>', 'site folder', path, '.benchline/site')
  .option('--base-path <path>', 'URL path the site is served under (e.g. /repo/)', './')
  .option('--verify', 'the out folder came from elsewhere (a CI cache): check every kept file\'s content, remove files no build wrote')
  .option('--cache <dir>', 'keep a parsed copy of the store here (outside --out), so a rebuild reads only new runs', path)
  .action(verb('site'));

program.command('comment')
  .description('post or update the sticky PR comment with a rendered body')
  .requiredOption('--repo <owner/name>', 'repository')
  .requiredOption('--pr <number>', 'pull request number', wholeNumber(1))
  .requiredOption('--body-file <file>', 'markdown body', path)
  .option('--api-url <url>', 'GitHub API base URL', process.env.GITHUB_API_URL || 'https://api.github.com')
  .action(verb('comment'));

try {
  await program.parseAsync();
} catch (e) {
  if (!(e instanceof CommanderError)) throw e;
  // --help and --version end through here too, with their own exit code 0
  process.exitCode = e.exitCode === 0 ? 0 : 2;
}

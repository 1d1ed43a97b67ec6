// `benchline normalize --tool T FILE`: one raw output -> one result document on stdout; nothing written.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { adapterFor, TOOL_NAMES } from '../adapters/index.js';
import { ScriptProblem, unreadable } from '../adapters/errors.js';
import { buildResult } from '../result.js';
import { newRunId, runBlock, runnerInfo } from '../context.js';
import { versionOf } from '../tools.js';
import { nameProblem } from '../names.js';

/** Larger than any tool output benchline reads: a wrong file, refused before it is read into memory. */
const MAX_BYTES = 256 * 2 ** 20;

/** The text of one tool output file, or an Error naming the file, the tool and what to pass instead. */
function readOutput(file, toolName) {
  const tool = `tool ${toolName}`;
  if (file === '-') throw new Error(`-: standard input is not read (${tool}); save the tool's output to a file and pass that`);
  if (!existsSync(file)) throw new Error(`${file}: no such file (${tool})`);
  const st = statSync(file);
  if (st.isDirectory()) throw new Error(`${file}: is a folder, not an output file (${tool}); pass the file ${toolName} wrote`);
  if (!st.isFile()) throw new Error(`${file}: not a regular file (a pipe or device; ${tool}); save the tool's output to a file and pass that`);
  if (st.size > MAX_BYTES) throw new Error(`${file}: ${Math.round(st.size / 2 ** 20)} MiB, larger than any ${toolName} output benchline reads (256 MiB; ${tool}); pass the file ${toolName} wrote`);
  try {
    // a byte-order mark some editors add is not part of the output
    return readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new Error(`${file}: cannot be read (${e.code || e.message}; ${tool}); check its permissions`);
  }
}

/** Whether a scenario would end a job id in `.failed`, the store's name for a failure record (`<job>.failed.json`). */
const failureLike = (scenario) => /(?:^|\.)failed$/i.test(scenario);

/** Longest scenario `--scenario` takes, as in the config. */
const MAX_SCENARIO = 64;

/**
 * The scenario a document gets without --scenario: the file's name without its extension, other characters than
 * letters, digits, ".", "_" and "-" as "-". One the flag would not take (too long), or ending in ".failed" (the store
 * names failure records <job>.failed.json, so the document would be read as one), is an Error saying to pass --scenario.
 */
function defaultScenario(file, toolName) {
  const name = basename(file).replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'default';
  const what = `the scenario taken from the file's name,`;
  const problem = failureLike(name) ? `${what} "${name}", ends in "failed", which the store keeps for failure records` : nameProblem(name, what, MAX_SCENARIO);
  if (problem) throw new Error(`${file} (tool ${toolName}): ${problem}; pass --scenario NAME (letters, digits, ".", "_", "-", at most ${MAX_SCENARIO}, not ending in ".failed")`);
  return name;
}

/** The other tool whose adapter reads `text`, or undefined: an output given with the wrong --tool says whose it is. */
function readsAs(text, toolName) {
  return TOOL_NAMES.find((name) => {
    if (name === toolName) return false;
    try {
      adapterFor(name).parse(text, {});
      return true;
    } catch {
      return false;
    }
  });
}

/** Reads and parses one file, turning any adapter failure into a message naming file, tool and fix. */
export function normalizeFile(file, toolName, opts = {}) {
  const adapter = adapterFor(toolName);
  const text = readOutput(file, toolName);
  try {
    return adapter.parse(text, opts);
  } catch (e) {
    const other = e instanceof ScriptProblem ? undefined : readsAs(text, toolName);
    const whose = other ? ` It reads as ${other} output: pass --tool ${other}.` : '';
    const hint = e instanceof ScriptProblem ? '' : ` Produce valid output with: ${e.hint || adapter.produce}`;
    throw new Error(`${file}: ${unreadable(e, toolName)}: ${e.message.replace(/\.?\s*$/, '').replace(/\n\s*/g, '; ')}.${whose}${hint}`);
  }
}

export default function normalize(opts) {
  const [file] = opts.args;
  let parsed;
  let scenario;
  try {
    if (opts.scenario && failureLike(opts.scenario)) throw new Error(`--scenario ${opts.scenario}: a scenario named "failed" or ending in ".failed" would be stored under the name of a failure record (<job>.failed.json); give another name`);
    scenario = opts.scenario || defaultScenario(file, opts.tool);
    parsed = normalizeFile(file, opts.tool);
  } catch (e) {
    process.stderr.write(`benchline normalize: ${e.message}\n`);
    return 2;
  }
  const started = new Date();
  const doc = buildResult({
    run: runBlock({ id: newRunId(started), startedAt: started.toISOString(), cwd: process.cwd(), role: 'local' }),
    runner: runnerInfo(),
    suite: opts.suite,
    subject: 'external',
    variant: opts.variant,
    scenario,
    tool: { name: opts.tool, version: parsed.toolVersion || versionOf(adapterFor(opts.tool).binary) || 'unknown' },
    params: {},
    trials: [parsed],
    artifacts: [{ path: file, kind: 'raw' }],
  }, `${file} (${opts.tool})`);
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return 0;
}

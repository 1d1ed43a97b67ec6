// The only list of tools benchline understands: config validation, docs and workflow choices derive from it.
//
// Each adapter module exports:
//   name       the tool name used in bench.config.yaml and in result documents
//   binary     the entry of ci/tools.js that runs it (jmh runs on `java`)
//   produce    one line telling a user how to make output this adapter reads (used in errors)
//   params?    every job parameter command() reads, when that set is closed: `--param` may set these
//              although the config does not (other keys must appear in the config to be overridden)
//   paramsProblem(params, { script, own, used, root }) -> string   optional: why the job's params cannot work
//              with its script, checked when the run is planned (k6: a param that nearly spells a variable it reads)
//   scriptParams(script, root) -> [key]   optional: params the job's script reads, which --param may set though the
//              config does not list them (k6: the __ENV variables it reads, MAX_VUS as maxVus)
//   scriptProblem({ script, root }) -> string   optional: why the job's script cannot work, checked when the run is
//              planned (k6: a custom metric it makes under a name of k6's built-in metrics)
//   judgeProblem({ script, judge, params, root }) -> string   optional: why the job may not judge what its judge list names,
//              checked when the run is planned (k6: throughput of the arrival-rate scenario it measures)
//   freeMeans  optional: metric families whose `.mean` is not the mean of the measured values (ab's latency.mean is
//              its "Time per request"), so ci/sanity.js does not hold it within min..max in trials or documents
//   noOutput(ctx) -> string   optional: why a trial left no output file and how to fix it (else `produce`)
//   failedRun(ctx) -> string  optional: ctx = { exitCode, stdout, stderr, params, script }, asked after every trial
//              whatever its exit status; when the tool stopped because a command it measures failed (not because
//              its output is bad), or measured something other than the job (wrk without a script that did not
//              load), what failed and how to fix the job
//   parse(text, opts) -> { metrics, distributions?, toolVersion?, notes? }
//              pure: one trial's raw output -> metrics built with ci/metrics.js `metric()`;
//              throws ParseError (ci/adapters/errors.js) for empty, truncated or foreign text.
//   command(ctx) -> { argv, env?, output: 'stdout' | 'file', fallback? }
//              pure: the command line of one trial. ctx = { bin, params, rawParams, target, script, outFile,
//              root, subjectDir, timeoutSeconds }; params have their placeholders filled for the side
//              (rawParams as configured); target = { url, host, port, ...named ports }; `script` is the
//              job's loadtests file resolved to an absolute path; with output 'file' the tool must
//              write its machine-readable output to ctx.outFile. fallback = { file, note }: a second output
//              the tool writes beside it, read (and the note added to the trial's notes) when ctx.outFile is
//              missing (k6: its --summary-export, for a script without handleSummary).
import * as k6 from './k6.js';
import * as ghz from './ghz.js';
import * as wrk from './wrk.js';
import * as ab from './ab.js';
import * as jmh from './jmh.js';
import * as hyperfine from './hyperfine.js';
import * as grpcClient from './grpc-client.js';

export const ADAPTERS = Object.freeze({ k6, ghz, wrk, ab, jmh, hyperfine, 'grpc-client': grpcClient });
export const TOOL_NAMES = Object.freeze(Object.keys(ADAPTERS));

/** The adapter for a tool name, or an error listing the known ones. */
export function adapterFor(name) {
  const a = ADAPTERS[name];
  if (!a) throw new Error(`unknown tool "${name}"; benchline knows: ${TOOL_NAMES.join(', ')}`);
  return a;
}

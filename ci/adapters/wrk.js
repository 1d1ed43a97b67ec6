// Adapter for wrk: reads the JSON block of loadtests/wrk/json.lua, or wrk's own text report when no script ran.
import { basename } from 'node:path';
import { ParseError, appendedReports, lostRankRows, parseJson, shown } from './errors.js';
import { metric } from '../metrics.js';
import { durationStep, parseDuration, parseSize } from '../units.js';
import { INT_MAX, wholeNumber } from './counts.js';

export const name = 'wrk';

/** Metrics that get a verdict by default (a job's `judge:` replaces them): peak throughput and typical and tail latency at that load, and whether errors appeared. */
export const judged = Object.freeze(['throughput', 'latency.p50', 'latency.p99', 'error_rate']);
export const binary = 'wrk';
/** A/B rounds run as duets by default: wrk drives the subject as hard as it goes for a fixed time (see runner.js duetRounds). */
export const duet = true;
export const produce = 'wrk -t2 -c50 -d5s --latency -s loadtests/wrk/json.lua http://127.0.0.1:PORT/path > out.txt';

/** Every parameter command() reads: `--param` may set these even when the config does not. */
export const params = Object.freeze(['threads', 'connections', 'duration', 'timeout', 'path', 'header', 'headers', 'method', 'body', 'count']);

export const JSON_BEGIN = '--- benchline-json ---';
export const JSON_END = '--- end benchline-json ---';
const FORMAT = 'benchline-wrk@1';

// The percentiles that become metrics (latency.pNN); the rest of the script's curve is a distribution only.
const METRIC_PERCENTILES = ['50', '75', '90', '99', '99.9'];
const REPORT_LINES = 1000;

const fail = (reason) => { throw new ParseError(reason, produce); };
const usToNs = (us) => Math.round(us * 1000);
/**
 * wrk times each request in whole microseconds, so its percentiles, minimum and maximum are whole microseconds whatever
 * it prints ("66.00us"): at 30 µs on loopback one step is 3%, which rounding alone can make. Its mean and stdev are
 * averages, finer than that.
 */
const WRK_STEP_NS = 1000;
const wholeUs = { resolution: WRK_STEP_NS };
const num = (s) => Number(s.replace(/,/g, ''));

/** What another tool's output looks like, so the error can say which tool wrote it. */
function foreignTool(text) {
  const t = text.trimStart();
  if (/This is ApacheBench/.test(text)) return 'ApacheBench (ab) output';
  if (/^Benchmark \d+: /m.test(text) || /"exit_codes"/.test(text)) return 'hyperfine output';
  if (/^\s*[[{]/.test(t)) return 'JSON from another tool (it has no wrk report and no benchline-json block)';
  return undefined;
}

/** Reason for a run that printed no report: wrk's own message when it left one (stdout or stderr). */
function noReportReason(text, stderr) {
  const all = `${text}\n${stderr || ''}`;
  const unable = /unable to connect to [^\n]*/.exec(all);
  if (unable) return `wrk could not reach the target: "${unable[0].trim()}"; start the subject and check the URL`;
  const other = String(stderr || '').split('\n').find((l) => /^(?:wrk: |PANIC: )/i.test(l) || /error/i.test(l));
  if (other) return `wrk failed: "${other.trim().slice(0, 200)}"`;
  return undefined;
}

/**
 * What wrk said when the job's script did not load, or undefined. wrk 4.x prints "<script>: <Lua error>" on stderr (once
 * for its main thread and once per load thread), "<script>: cannot read <script>: Is a directory" for a folder, and then
 * runs without the script (plain GET requests) and exits 0 (test/fixtures/wrk/lua-syntax-error.*, lua-folder.*).
 */
function scriptLoadError(stderr, script) {
  if (!script) return undefined;
  const head = `${script}: `;
  return String(stderr || '').split('\n').find((l) => l.startsWith(head))?.slice(head.length).trim() || undefined;
}

/**
 * Why a trial measures something other than its job, though wrk exited 0: the job's script did not load, so wrk sent
 * plain GET requests instead of what the script defines. ctx = { stderr, script } (script as wrk was given it).
 */
export function failedRun({ stderr, script } = {}) {
  const said = scriptLoadError(stderr, script);
  if (!said) return undefined;
  return `wrk could not load the job's script ${script} and ran without it (plain GET requests, not what the script defines), `
    + `so this trial is not kept; wrk said: ${JSON.stringify(said.slice(0, 300))}; fix the script (wrk -s ${script} shows the same error)`;
}

/** The JSON object between the marker lines, or undefined when the script did not run. */
function jsonBlock(text) {
  const begin = text.indexOf(JSON_BEGIN);
  // the block without its opening line: read as wrk's rounded text report, its values and counts would go without a word
  if (begin < 0 && (text.includes(JSON_END) || text.includes(`"${FORMAT}"`))) fail(`the output holds json.lua's block without its opening "${JSON_BEGIN}" line; the output is corrupted`);
  if (begin < 0) return undefined;
  const end = text.indexOf(JSON_END, begin);
  if (end < 0) fail(`the ${JSON_BEGIN} block has no closing "${JSON_END}" line; the output is truncated`);
  const doc = parseJson(text.slice(begin + JSON_BEGIN.length, end), produce);
  if (doc?.format !== FORMAT || typeof doc.requests !== 'number' || typeof doc.duration_us !== 'number' || !doc.errors) {
    fail(`the ${JSON_BEGIN} block is not ${FORMAT} (needs format, requests, duration_us, errors); use loadtests/wrk/json.lua`);
  }
  const problem = blockProblem(doc);
  if (problem) fail(`the ${JSON_BEGIN} block's ${problem}, which json.lua never writes; the output is corrupted or edited`);
  return doc;
}

const isCount = (v) => Number.isSafeInteger(v) && v >= 0;
/** Most microseconds (11.6 days) and bytes (1 PB) any run measures: 1e308 us would become Infinity ns. */
const MAX_US = 1e12;
const MAX_BYTES = 1e15;
const isAmount = (v, max) => typeof v === 'number' && v >= 0 && v <= max;

/**
 * The first field of a json.lua block that is not what the script writes, in words, or undefined: whole counts for
 * requests and each error kind, and amounts (0 or more) for the duration, bytes and every latency statistic and
 * percentile (ranks 0 to 100). Unchecked, a missing or text field failed as a bare "value NaN is not a finite number".
 */
function blockProblem(doc) {
  const counts = [['requests', doc.requests], ...['connect', 'read', 'write', 'timeout', 'status'].map((k) => [`errors.${k}`, doc.errors[k]])];
  const amounts = [['duration_us', doc.duration_us, MAX_US], ['bytes', doc.bytes, MAX_BYTES]];
  const bad = counts.find(([, v]) => !isCount(v));
  if (bad) return `${bad[0]} is ${shown(bad[1])}, not a whole number of 0 or more`;
  // every run lasts: a duration of 0 (or -0) would divide the throughput into Infinity
  if (!(doc.duration_us > 0)) return `duration_us is ${shown(doc.duration_us)}, not a time above 0`;
  const l = doc.latency;
  if (l !== undefined && l !== null) {
    if (typeof l !== 'object' || Array.isArray(l)) return `latency is ${shown(l)}, not an object`;
    amounts.push(...['mean', 'stdev', 'min', 'max'].map((k) => [`latency.${k}`, l[k], MAX_US]));
    if (l.percentiles !== undefined && (typeof l.percentiles !== 'object' || l.percentiles === null || Array.isArray(l.percentiles))) return `latency.percentiles is ${shown(l.percentiles)}, not an object`;
    for (const [p, v] of Object.entries(l.percentiles || {})) {
      if (!/^\d+(\.\d+)?$/.test(p) || Number(p) > 100) return `latency.percentiles has the rank ${shown(p)}, not a number from 0 to 100`;
      amounts.push([`latency.percentiles[${shown(p)}]`, v, MAX_US]);
    }
  }
  const off = amounts.find(([, v, max]) => !isAmount(v, max));
  return off ? `${off[0]} is ${shown(off[1])}, not a number from 0 to ${off[2]}` : undefined;
}

/** A time or size of wrk's report as `read` (parseDuration, parseSize) reads it, or a ParseError quoting the line. */
function unitValue(read, text, line, what) {
  let v;
  try {
    v = read(text);
  } catch { /* v stays undefined */ }
  if (!Number.isFinite(v)) fail(`wrk's report line "${line.slice(0, 100)}" holds "${text.slice(0, 40)}", not ${what} wrk prints; the output is corrupted`);
  return v;
}
const durationIn = (text, line) => unitValue(parseDuration, text, line, 'a time');
const sizeIn = (text, line) => unitValue(parseSize, text, line, 'a size');

/**
 * wrk's text report: header, thread stats, optional latency distribution, totals, errors. Read line by line with
 * anchored patterns, so the time grows with the length of the output and no more (padded or huge outputs included).
 * `unknown` holds the first line among the totals that wrk does not print (a corrupted error line must not read as 0);
 * `complete` is true once both closing lines (Requests/sec, Transfer/sec) were seen.
 */
function parseText(text) {
  const out = {};
  const sock = { connect: 0, read: 0, write: 0, timeout: 0 };
  let status = 0;
  let section = 'head';
  let expectThreads = false;
  // Reading starts at the report's first line and ends after its last, so whatever surrounds it costs nothing;
  // each match is one line from its first visible character, so blank lines cost nothing either.
  const start = /^Running \S+ test @ /m.exec(text);
  const lines = /\S[^\n]*/g;
  lines.lastIndex = start ? start.index : text.length;
  let read = 0;
  for (let hit = lines.exec(text); hit && section !== 'end'; hit = lines.exec(text)) {
    // wrk's report is a few dozen lines; thousands mean something else was written into it
    if ((read += 1) > REPORT_LINES) {
      out.unknown ??= `${REPORT_LINES} lines without wrk's closing "Transfer/sec" line`;
      break;
    }
    const line = hit[0].trimEnd();
    if (expectThreads) {
      expectThreads = false;
      const th = /^(\d+) threads? and (\d+) connections?$/.exec(line);
      if (th) Object.assign(out, { threads: Number(th[1]), connections: Number(th[2]) });
    }
    if (section === 'dist') {
      const pt = /^([\d.]+)%\s+(\S+)$/.exec(line);
      const value = pt ? durationIn(pt[2], line) : undefined;
      // a negative time is no row wrk prints: left unread, lostRankRows names it
      if (value >= 0) {
        out.percentiles.push({ p: Number(pt[1]), value, step: durationStep(pt[2]) });
        continue;
      }
      section = 'stats';
    }
    if (section === 'totals') {
      let m;
      if ((m = /^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/.exec(line))) {
        Object.assign(sock, { connect: Number(m[1]), read: Number(m[2]), write: Number(m[3]), timeout: Number(m[4]) });
      } else if ((m = /^Non-2xx or 3xx responses: (\d+)$/.exec(line))) {
        status = Number(m[1]);
      } else if ((m = /^Requests\/sec:\s+([\d.,]+)$/.exec(line))) {
        out.rps = num(m[1]);
      } else if ((m = /^Transfer\/sec:\s+(\S+)$/.exec(line))) {
        out.transferPerSec = sizeIn(m[1], line);
        section = 'end';
      } else if (out.rps === undefined && out.unknown === undefined) {
        out.unknown = line;
      }
      continue;
    }
    // cheap first-character guards: a long output of other lines costs one comparison per line
    const c = line.charCodeAt(0);
    let m;
    if (c === 82 /* R */ && (m = /^Running (\S+) test @ (\S+)$/.exec(line))) {
      out.url = m[2];
      expectThreads = true;
    } else if (c === 76 /* L */ && out.latency === undefined && (m = /^Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%$/.exec(line))) {
      out.latency = { mean: durationIn(m[1], line), stdev: durationIn(m[2], line), max: durationIn(m[3], line), steps: { mean: durationStep(m[1]), stdev: durationStep(m[2]), max: durationStep(m[3]) }, shown: `Avg ${m[1]}, Stdev ${m[2]}, Max ${m[3]}` };
    } else if (c === 76 && line === 'Latency Distribution' && !out.percentiles) {
      out.percentiles = [];
      section = 'dist';
    } else if (c >= 48 && c <= 57 && (m = /^(\d+) requests in (\S+), (\S+) read$/.exec(line))) {
      Object.assign(out, { requests: Number(m[1]), duration: durationIn(m[2], line), bytes: sizeIn(m[3], line) });
      section = 'totals';
    }
  }
  out.errors = { ...sock, status };
  out.complete = out.rps !== undefined && out.transferPerSec !== undefined;
  return out;
}

/**
 * What is wrong with the Thread Stats "Latency" row of a run with requests, or undefined: wrk prints no negative
 * time, a Max below the Avg (it rounds both the same way), or a row of zeros unless no response was timed because
 * each one outlived --timeout (then it counts timeouts). fromText drops the row's metrics when Max is 0, so a
 * damaged Max must not pass for that case.
 */
function latencyRowProblem({ mean, stdev, max }, errors) {
  if (![mean, stdev, max].every((v) => Number.isFinite(v) && v >= 0)) return 'holds a negative time';
  if (max < mean) return 'has a Max below its Avg';
  if (max === 0 && !errors.timeout) return 'is all zero, which wrk prints only when every response timed out, yet it counted no timeout';
  return undefined;
}

/** The ranks wrk --latency always lists under "Latency Distribution". */
const WRK_RANKS = [50, 75, 90, 99];

/**
 * Most socket errors (connect, read, write, timeout) one wrk thread can run into a second: each thread drives its
 * connections on one core and reconnects at once after an error, and a refused connect on loopback costs it several
 * microseconds, so 10^6 is far above any real run and far below what a corrupted count gives. Without the report's
 * header the threads are taken to be 256, more than wrk is run with.
 */
const SOCKET_ERRORS_PER_THREAD_SECOND = 1e6;
const THREADS_UNKNOWN = 256;

/**
 * Why the error counts cannot come from this run, or undefined: more socket errors than its threads could meet in
 * its time, or (json.lua counting statuses) HTTP errors other than its responses of status 400 and above.
 */
function errorCountProblem(errs, { seconds, threads, doc }) {
  const socket = errs.connect + errs.read + errs.write + errs.timeout;
  const cap = SOCKET_ERRORS_PER_THREAD_SECOND * Math.max(seconds, 1) * (threads ?? THREADS_UNKNOWN);
  if (socket > cap) {
    return `counts ${socket} socket errors (connect ${errs.connect}, read ${errs.read}, write ${errs.write}, timeout ${errs.timeout}) in ${seconds.toFixed(2)} s over ${threads ?? `at most ${THREADS_UNKNOWN}`} threads, more than ${SOCKET_ERRORS_PER_THREAD_SECOND} a second per thread, which no run makes`;
  }
  if (doc && doc.counted !== false && doc.statuses && typeof doc.statuses === 'object' && Number.isFinite(errs.status)) {
    const failed = Object.entries(doc.statuses).filter(([code]) => Number(code) >= 400).reduce((a, [, n]) => a + n, 0);
    if (failed !== errs.status) return `counts ${errs.status} status errors, but its statuses hold ${failed} responses with a status of 400 or above (wrk counts the same responses for both)`;
  }
  return undefined;
}

/** Requests tried: the completed ones plus the connections that never got a response. */
const attemptsOf = (requests, e) => requests + e.connect + e.read + e.write;

/** errors = socket errors + HTTP status >= 400, counted against the attempts. */
function errorMetrics(requests, e) {
  const errors = e.connect + e.read + e.write + e.timeout + e.status;
  const attempts = attemptsOf(requests, e);
  return [
    metric('errors', errors),
    metric('error_rate', attempts > 0 ? Math.min(1, errors / attempts) : 0),
  ];
}

const countsNote = (label, counts) => {
  const entries = Object.entries(counts || {});
  return entries.length ? `${label}: ${entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ')}` : undefined;
};

function fromJson(doc, head) {
  const seconds = doc.duration_us / 1e6;
  const metrics = [
    metric('requests', doc.requests),
    metric('throughput', doc.requests / seconds),
    metric('duration', usToNs(doc.duration_us)),
    metric('bytes_received', doc.bytes),
    metric('transfer_rate', doc.bytes / seconds),
    ...errorMetrics(doc.requests, doc.errors),
  ];
  const distributions = [];
  const l = doc.latency;
  if (l) {
    metrics.push(metric('latency.mean', usToNs(l.mean)), metric('latency.stdev', usToNs(l.stdev)),
      metric('latency.min', usToNs(l.min), wholeUs), metric('latency.max', usToNs(l.max), wholeUs));
    for (const p of METRIC_PERCENTILES) if (l.percentiles?.[p] !== undefined) metrics.push(metric(`latency.p${p}`, usToNs(l.percentiles[p]), wholeUs));
    const curve = Object.entries(l.percentiles || {}).map(([p, v]) => ({ p: Number(p), value: usToNs(v) })).sort((a, b) => a.p - b.p);
    if (curve.length) distributions.push({ name: 'latency', unit: 'ns', percentiles: curve });
  }
  const extra = {
    url: head.url,
    threads: head.threads ?? doc.threads,
    connections: head.connections,
    responses: doc.responses,
    statuses: doc.statuses || {},
    backends: doc.backends || {},
    counted: doc.counted !== false,
    errors: doc.errors,
    attempts: attemptsOf(doc.requests, doc.errors),
  };
  const notes = [countsNote('responses per backend (X-Backend)', extra.backends), countsNote('responses per HTTP status', extra.statuses)].filter(Boolean);
  return { metrics, distributions, notes, extra };
}

function fromText(t) {
  const metrics = [
    metric('requests', t.requests),
    metric('throughput', t.rps ?? t.requests / (t.duration / 1e9)),
    metric('duration', Math.round(t.duration)),
    metric('bytes_received', Math.round(t.bytes)),
    ...errorMetrics(t.requests, t.errors),
  ];
  if (t.transferPerSec !== undefined) metrics.push(metric('transfer_rate', Math.round(t.transferPerSec)));
  const distributions = [];
  // With no completed request wrk still prints a latency table of zeros: it measured nothing.
  // wrk prints two decimals of the unit it picks ("1.41ms"): each time is known to that step, its resolution
  if (t.latency && t.requests > 0 && t.latency.max > 0) {
    const { steps } = t.latency;
    metrics.push(metric('latency.mean', Math.round(t.latency.mean), { resolution: steps.mean }), metric('latency.stdev', Math.round(t.latency.stdev), { resolution: steps.stdev }),
      metric('latency.max', Math.round(t.latency.max), { resolution: Math.max(steps.max, WRK_STEP_NS) }));
    for (const { p, value, step } of t.percentiles || []) metrics.push(metric(`latency.p${p}`, Math.round(value), { resolution: Math.max(step, WRK_STEP_NS) }));
    if (t.percentiles?.length) distributions.push({ name: 'latency', unit: 'ns', percentiles: t.percentiles.map(({ p, value }) => ({ p, value: Math.round(value) })) });
  }
  const notes = ['wrk ran without loadtests/wrk/json.lua: values come from its rounded text report (no latency.min, no p99.9, no per-backend counts)'];
  if (!t.percentiles) notes.push('wrk ran without --latency: no percentiles');
  const extra = { url: t.url, threads: t.threads, connections: t.connections, errors: t.errors, attempts: attemptsOf(t.requests, t.errors) };
  return { metrics, distributions, notes, extra };
}

/**
 * One wrk run's output -> metrics in canonical units. opts.stderr, when the runner kept it apart,
 * supplies wrk's own message for runs that printed no report.
 * Returns { metrics, distributions, notes, extra: { url, threads, connections, responses, statuses, backends, counted, errors } }.
 */
export function parse(text, opts = {}) {
  const src = String(text ?? '');
  if (!src.trim()) fail(noReportReason('', opts.stderr) || 'the output is empty: wrk printed nothing (did it start? run it by hand to see its error)');
  // one run prints one "Running" header and one script block; reading stops after the first report, so a second
  // one appended into the file would be dropped without a word
  const reports = Math.max(src.match(/^Running \S+ test @ /gm)?.length ?? 0, src.split(JSON_BEGIN).length - 1);
  if (reports > 1) throw appendedReports(reports, 'wrk', produce);
  const doc = jsonBlock(src);
  const hasReport = /^Running \S+ test @ /m.test(src);
  if (!doc && !hasReport) {
    fail(noReportReason(src, opts.stderr) || (foreignTool(src) ? `this is ${foreignTool(src)}, not wrk's` : 'no wrk report here (no "Running ... test @" line and no benchline-json block)'));
  }
  const rep = parseText(src);
  if (!doc && rep.requests === undefined) fail('wrk\'s report stops before its "N requests in T, S read" line; the output is truncated');
  // without the script's block the text is all there is: a cut-off tail would read its error lines as 0
  if (!doc && rep.unknown !== undefined) fail(`wrk's totals hold a line wrk does not print: "${rep.unknown.slice(0, 80)}"; the output is corrupted`);
  if (!doc && !rep.complete) fail('wrk\'s report stops before its "Requests/sec" and "Transfer/sec" lines (its error counts come just before them); the output is truncated');
  // the rows wrk always prints for a run with requests: a damaged one would drop those metrics without a word
  if (!doc && rep.requests > 0 && !rep.latency) fail('wrk\'s report has no readable "Latency" row in its Thread Stats table; the output is corrupted');
  const badRow = !doc && rep.requests > 0 ? latencyRowProblem(rep.latency, rep.errors) : undefined;
  if (badRow) fail(`wrk's "Latency" row in its Thread Stats table (${rep.latency.shown}) ${badRow}; the output is corrupted`);
  const lost = !doc && rep.percentiles ? lostRankRows(WRK_RANKS, rep.percentiles) : '';
  if (lost) fail(`wrk's "Latency Distribution" has no readable ${lost}; the output is corrupted`);
  const requests = doc ? doc.requests : rep.requests;
  const duration = doc ? doc.duration_us * 1000 : rep.duration;
  const errs = doc ? doc.errors : rep.errors;
  const countProblem = errorCountProblem(errs, { seconds: duration / 1e9, threads: rep.threads ?? doc?.threads, doc });
  if (countProblem) fail(`wrk's ${doc ? 'json.lua block' : 'report'} ${countProblem}; the output is corrupted or edited`);
  if (requests === 0) {
    const socket = errs.connect + errs.read + errs.write + errs.timeout;
    fail(`wrk completed 0 requests in ${(duration / 1e9).toFixed(2)} s${socket ? ` (socket errors: connect ${errs.connect}, read ${errs.read}, write ${errs.write}, timeout ${errs.timeout})` : ': the target accepted connections but never answered'}; check that the subject is healthy`);
  }
  return doc ? fromJson(doc, rep) : fromText(rep);
}

const asList = (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : typeof v === 'object' ? Object.entries(v).map(([k, x]) => `${k}: ${x}`) : String(v).split('\n'));
// wrk reads -d and --timeout as a whole number of seconds, minutes or hours ("500ms" or "0.5s" print its usage).
// At most INT_MAX seconds in all, in plain digits (1e+21s is no time wrk reads).
const UNIT_SECONDS = { s: 1, m: 60, h: 3600 };
const seconds = (v, what) => {
  const m = typeof v === 'number' ? [String(v), v, 's'] : typeof v === 'string' ? /^([1-9]\d*)(s|m|h)?$/.exec(v) : null;
  const n = m ? Number(m[1]) : NaN;
  if (Number.isInteger(n) && n > 0 && n * UNIT_SECONDS[m[2] || 's'] <= INT_MAX) return `${n}${m[2] || 's'}`;
  throw new Error(`wrk: param ${what} must be a whole number of seconds, minutes or hours such as "5s", "1m" or 5, in plain digits and at most ${INT_MAX} seconds (wrk takes no fractions or milliseconds), got ${JSON.stringify(v)}`);
};
const positiveInt = (v, what) => wholeNumber(v, { tool: 'wrk', what });

/** Joins the target's base URL and a path without doubling or dropping the slash. */
const joinUrl = (base, path = '/') => `${String(base).replace(/\/+$/, '')}/${String(path ?? '/').replace(/^\/+/, '')}`;

/**
 * The command line of one trial. params: threads, connections, duration, timeout?, path?, header|headers?,
 * and, with the json.lua script, method?, body?, count ('off' drops the per-backend tally).
 */
export function command(ctx) {
  const p = ctx.params || {};
  const threads = positiveInt(p.threads ?? 2, 'threads');
  const connections = positiveInt(p.connections ?? 10, 'connections');
  if (connections < threads) throw new Error(`wrk: connections (${connections}) must be at least threads (${threads})`);
  const argv = [ctx.bin || binary, '-t', String(threads), '-c', String(connections), '-d', seconds(p.duration ?? '5s', 'duration'), '--latency'];
  if (p.timeout !== undefined) argv.push('--timeout', seconds(p.timeout, 'timeout'));
  for (const h of [...asList(p.header), ...asList(p.headers)]) argv.push('-H', h);
  const scriptArgs = [];
  if (p.method !== undefined) scriptArgs.push(`method=${p.method}`);
  if (p.body !== undefined) scriptArgs.push(`body=${typeof p.body === 'string' ? p.body : JSON.stringify(p.body)}`);
  if (p.count === 'off' || p.count === false) scriptArgs.push('count=off');
  if (scriptArgs.length && !ctx.script) throw new Error('wrk: params method, body and count need the job script loadtests/wrk/json.lua');
  // another script gets them only as arguments after `--`, which wrk's own scripts never read: wrk would send what the
  // script sets (GET without a body by default) while the job says POST
  if (scriptArgs.length && basename(String(ctx.script)) !== 'json.lua') {
    const given = ['method', 'body', 'count'].filter((k) => p[k] !== undefined);
    throw new Error(`wrk: params ${given.join(', ')} are read by loadtests/wrk/json.lua only; the job's script ${basename(String(ctx.script))} would get them as arguments after "--" and wrk would send what the script sets instead: set wrk.method, wrk.body and wrk.headers in the script and remove ${given.length > 1 ? 'these params' : 'this param'}, or use loadtests/wrk/json.lua`);
  }
  if (ctx.script) argv.push('-s', ctx.script);
  if (!ctx.target?.url) throw new Error('wrk: the job has no target URL (subject manifest: target.url)');
  argv.push(joinUrl(ctx.target.url, p.path));
  if (scriptArgs.length) argv.push('--', ...scriptArgs);
  return { argv, output: 'stdout' };
}

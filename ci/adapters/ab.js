// Adapter for ApacheBench (ab 2.3): reads its text report, the only output ab has.
import { ParseError, appendedReports, lostRankRows } from './errors.js';
import { metric } from '../metrics.js';
import { wholeNumber } from './counts.js';

export const name = 'ab';

/** Metrics that get a verdict by default (a job's `judge:` replaces them): throughput and the mean time per request (ab's percentiles are whole milliseconds), and errors. */
export const judged = Object.freeze(['throughput', 'latency.mean', 'error_rate']);
export const binary = 'ab';
export const produce = 'ab -n 1000 -c 10 http://127.0.0.1:PORT/path > out.txt 2>&1';

/** Every parameter command() reads: `--param` may set these even when the config does not. */
export const params = Object.freeze(['requests', 'concurrency', 'keepalive', 'timeout', 'duration', 'path', 'header', 'headers', 'method', 'variableLength']);

/** ab's own cap on requests under a time limit (-t without -n). */
export const TIME_LIMIT_CAP = 50000;

/** A time-limited job (`duration`, ab -t) runs its A/B rounds as duets: both sides load for the same time (see runner.js duetRounds). */
export const duet = (params = {}) => params.duration !== undefined && params.duration !== null;

/**
 * Families whose mean is not the mean of their measured times (ci/sanity.js holds it to no min..max, in trials and in
 * documents read back): latency.mean is ab's "Time per request", concurrency x time taken / complete requests, and
 * requests in flight when a time limit (-t) ends are left out, so a stalled run's can pass its slowest request
 * (10 x 3.0 s / 2 requests).
 */
export const freeMeans = Object.freeze(['latency']);

const MS = 1e6; // ns per ms
const US = 1e3; // ns per µs
const fail = (reason) => { throw new ParseError(reason, produce); };

// Rows of the "Connection Times (ms)" table and the metric family each becomes.
// Waiting is the time to the first response byte; Total is the whole request as ab saw it.
const ROWS = { Connect: 'connect', Processing: 'processing', Waiting: 'ttfb', Total: 'latency' };

const field = (text, label) => {
  const m = new RegExp(`^${label}:[ \\t]*(.*)$`, 'm').exec(text);
  return m ? m[1].trim() : undefined;
};
/** Largest number any line of ab's report holds (1e15 bytes, 1e15 requests, a time of 1e15 s is far beyond any run). */
const MAX_FIELD = 1e15;
// The whole number ab printed, exponent included: "1e308" must not read as 1.
const numberField = (text, label) => {
  const v = field(text, label);
  if (v === undefined) return undefined;
  const m = /^(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s|$)/i.exec(v);
  // 1e999 is no number ab prints: it would read as Infinity
  if (!m || !Number.isFinite(Number(m[1]))) fail(`ab's "${label}:" line holds "${v.slice(0, 40)}", not a number; the output is corrupted`);
  // nor is 1e308, which becomes Infinity once scaled (Kbytes/sec to bytes/s, seconds to ns)
  if (Math.abs(Number(m[1])) > MAX_FIELD) fail(`ab's "${label}:" line holds "${v.slice(0, 40)}", beyond any run (at most ${MAX_FIELD}); the output is corrupted`);
  return Number(m[1]);
};

/** "Document Length:" in bytes; undefined when absent or, under -l, "Variable". */
function documentLengthOf(text) {
  return field(text, 'Document Length') === 'Variable' ? undefined : numberField(text, 'Document Length');
}

/** ab's error lines (apr_* calls, "ab: ...", "Total of N requests completed"), from stdout or stderr. */
function abErrors(text) {
  const lines = text.split('\n').map((l) => l.trim());
  return lines.filter((l) => /^apr_\w+: /.test(l) || /^ab: /.test(l) || /^Total of \d+ requests completed/.test(l)
    || /^(?:Invalid|Cannot|Could not|Too many|socket:|connect:|SSL)/.test(l));
}

/**
 * The other tool whose output `text` holds: wrk's, hyperfine's or JSON, or undefined. beside: the text holds ab's
 * report too, so JSON is a line that opens a document, unless ab printed the responses (-v 2 and up, each after
 * "LOG: header received:"), whose bodies may be JSON.
 */
function foreignTool(text, { beside = false } = {}) {
  if (/^Running \S+ test @ /m.test(text) || text.includes('--- benchline-json ---')) return 'wrk output';
  if (/^Benchmark \d+: /m.test(text)) return 'hyperfine output';
  if (!beside && /^\s*[[{]/.test(text)) return 'JSON from another tool (ab prints text)';
  if (beside && !/^LOG: header received:/m.test(text) && /^[ \t]*(?:\{[ \t]*"|\[[ \t]*\{?[ \t]*$)/m.test(text)) return 'JSON from another tool';
  return undefined;
}

/** The connection-times table: { Connect: {min, mean, sd, median, max}, ... } in ms. */
function connectionTimes(text) {
  const out = {};
  const re = /^(Connect|Processing|Waiting|Total):[ \t]+(-?\d+)[ \t]+(-?\d+)[ \t]+(\d+(?:\.\d+)?)[ \t]+(-?\d+)[ \t]+(-?\d+)[ \t]*$/gm;
  for (const m of text.matchAll(re)) {
    out[m[1]] = { min: Number(m[2]), mean: Number(m[3]), sd: Number(m[4]), median: Number(m[5]), max: Number(m[6]) };
  }
  return out;
}

/** The ranks ab's percentage table always lists. */
const AB_RANKS = [50, 66, 75, 80, 90, 95, 98, 99, 100];

const TABLE_HEADER = 'Percentage of the requests served within a certain time (ms)';
const TABLE_HEADER_LINE = /^Percentage of the requests served within a certain time \(ms\)[ \t\r]*$/m;

/**
 * The "Percentage of the requests served within a certain time (ms)" table: [{ p, ms }]; all nine rows, or none for a
 * single request. ab prints it after every run of more than one request (unless run with -d, which benchline never
 * passes), so without it, or under a damaged header, the report was cut or garbled and would lose its percentiles.
 */
function percentageTable(text, complete) {
  const at = text.search(TABLE_HEADER_LINE);
  if (at < 0) {
    if (complete > 1) fail(`ab's report has no "${TABLE_HEADER}" line, which ab prints for every run of more than one request (this one completed ${complete}); the output is truncated or corrupted (or ab ran with -d: run it again without -d)`);
    return [];
  }
  // a row is whole ms and nothing else (the last one adds "(longest request)"): "88.5" must not read as 88
  const rows = [...text.slice(at).matchAll(/^[ \t]+(\d+)%[ \t]+(\d+)(?:[ \t]+\(longest request\))?[ \t]*\r?$/gm)].map((m) => ({ p: Number(m[1]), ms: Number(m[2]) }));
  const lost = lostRankRows(AB_RANKS, rows);
  if (lost) fail(`ab's percentage table has no readable ${lost}; the output is truncated or corrupted`);
  return rows;
}

/**
 * One ab run's output -> metrics in canonical units. ab writes failures to stderr: pass it as
 * opts.stderr (or append it to the text) so the error carries ab's own message.
 * Returns { metrics, distributions, toolVersion, notes, extra }.
 */
export function parse(text, opts = {}) {
  const src = String(text ?? '');
  const all = `${src}\n${opts.stderr || ''}`;
  if (!all.trim()) fail('the output is empty: ab printed nothing (run it by hand to see its error)');
  // ab prints its banner and its server block once a run: more of them are outputs appended into one file, whose
  // lines, read one field at a time, would mix the runs' values
  const reports = Math.max(...[/^This is ApacheBench/gm, /^Server Software:/gm, /^Document Path:/gm].map((re) => src.match(re)?.length ?? 0));
  if (reports > 1) throw appendedReports(reports, 'ab', produce);
  // another tool's output after (or before) ab's report: ab's lines would be read and the rest dropped without a word
  const mixed = reports === 1 && foreignTool(src, { beside: true });
  if (mixed) fail(`the file holds ${mixed} as well as ab's report (outputs appended into one file?); give one run's output`);
  const complete = numberField(src, 'Complete requests');
  if (complete === undefined) {
    const errors = abErrors(all);
    if (errors.length) fail(`ab stopped before its report: ${errors.join('; ')}`);
    if (!/This is ApacheBench/.test(src)) fail(foreignTool(src) ? `this is ${foreignTool(src)}, not ApacheBench's` : 'not ApacheBench output (no "This is ApacheBench" banner and no "Complete requests:" line)');
    fail('ab\'s report stops before its "Complete requests:" line; the output is truncated (ab\'s error message goes to stderr: keep it with 2>&1)');
  }
  // ab prints two "Time per request:" lines, each a time in ms that is never negative: one that does not read so is damaged, not absent
  for (const [line, v] of src.matchAll(/^Time per request:[ \t]*(.*)$/gm)) {
    if (!/^\d+(?:\.\d+)? \[ms\] \((?:mean|mean, across all concurrent requests)\)$/.test(v.trim())) {
      fail(`ab's "${line.trim().replace(/\s+/g, ' ').slice(0, 100)}" line does not hold a time in ms (ab prints "Time per request: 1.234 [ms] (mean)" and "(mean, across all concurrent requests)"); the output is corrupted`);
    }
  }
  const rps = numberField(src, 'Requests per second');
  const taken = numberField(src, 'Time taken for tests');
  const meanTime = /^Time per request:\s+([\d.]+) \[ms\] \(mean\)$/m.exec(src);
  const acrossTime = /^Time per request:\s+([\d.]+) \[ms\] \(mean, across all concurrent requests\)$/m.exec(src);
  const transferred = numberField(src, 'Total transferred');
  const rate = numberField(src, 'Transfer rate');
  if ([rps, taken, meanTime, transferred, rate].some((v) => v === undefined || v === null)) {
    fail('ab\'s report lacks one of "Time taken for tests", "Total transferred", "Requests per second", "Time per request", "Transfer rate"; the output is truncated');
  }
  // ab computes both from the run's time, its concurrency and the requests completed: concurrency x time taken / complete
  // requests, and time taken / complete requests (latency.mean, judged by default, is the first); the time is printed to
  // a millisecond and each result to a microsecond, so an edited or corrupted one is off by more than that
  const concurrency = numberField(src, 'Concurrency Level');
  if (complete > 0 && concurrency > 0 && taken >= 0) {
    for (const [line, times, what] of [[meanTime, concurrency, 'concurrency x time taken'], [acrossTime, 1, 'time taken']]) {
      if (!line) continue;
      const [lo, hi] = [-1, 1].map((d) => (times * (taken + d * 0.001) * 1000) / complete + d * 0.0005);
      const v = Number(line[1]);
      if (v < lo || v > hi) fail(`ab's "${line[0].replace(/\s+/g, ' ').slice(0, 100)}" line is not ${what} / complete requests (${times > 1 ? `${concurrency} x ` : ''}${taken} s / ${complete} = ${((times * taken * 1000) / complete).toFixed(3)} ms), as ab computes it; the output is corrupted or edited`);
    }
  }
  // the count and, when it is not 0, the breakdown on the next line: "1,2" must not read as 1, nor a damaged breakdown as none
  const failedLine = /^Failed requests:[ \t]+(\d+)[ \t]*\r?$(?:\n[ \t]*\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)[ \t]*\r?$)?/m.exec(src);
  // ab always prints this line: without it, failures would read as none
  if (!failedLine) fail(field(src, 'Failed requests') === undefined ? 'ab\'s report lacks its "Failed requests:" line; the output is truncated or corrupted' : `ab's "Failed requests:" line holds "${field(src, 'Failed requests').slice(0, 40)}", not a count; the output is corrupted`);
  const breakdown = src.slice(failedLine.index + failedLine[0].length).match(/^\n[ \t]*\(([^\n]*)/);
  if (failedLine[2] === undefined && breakdown && /^Connect:/.test(breakdown[1])) fail(`ab's line under "Failed requests:" holds "(${breakdown[1].trim().slice(0, 60)}", not the counts ab prints ("(Connect: N, Receive: N, Length: N, Exceptions: N)"); the output is corrupted`);
  const failed = Number(failedLine[1]);
  const failedBy = failedLine?.[2] !== undefined
    ? { connect: Number(failedLine[2]), receive: Number(failedLine[3]), length: Number(failedLine[4]), exceptions: Number(failedLine[5]) }
    : { connect: 0, receive: 0, length: 0, exceptions: 0 };
  const non2xx = numberField(src, 'Non-2xx responses') ?? 0;
  // ab puts a non-2xx response whose length differs from the first response's in both counts (Failed: Length, and
  // Non-2xx), so their sum can pass the requests (a rate limiter's 503 pages after a first 200): each response counts
  // once, the Length failures taken to be the non-2xx ones as far as they go (exact with -l, which counts no Length)
  const overlap = Math.min(failedBy.length, non2xx);
  const errors = failed + non2xx - overlap;

  const metrics = [
    metric('requests', complete),
    metric('throughput', rps),
    metric('duration', Math.round(taken * 1e9)),
    // ab prints both "Time per request" lines with three decimals of a millisecond: known to a microsecond
    metric('latency.mean', Math.round(Number(meanTime[1]) * MS), { resolution: US }),
    metric('bytes_received', transferred),
    // ab's "Kbytes" are 1024 bytes.
    metric('transfer_rate', Math.round(rate * 1024)),
    metric('errors', errors),
    metric('error_rate', complete > 0 ? Math.min(1, errors / complete) : 1),
  ];
  // "HTML transferred" (bodies only) and the mean time per request across all concurrent requests (wall time / requests):
  // two of ab's report lines the seeds quote.
  const html = numberField(src, 'HTML transferred');
  if (html !== undefined) metrics.push(metric('body_bytes_received', html));
  if (acrossTime) metrics.push(metric('time_per_request', Math.round(Number(acrossTime[1]) * MS), { resolution: US }));
  // The body size of the first response ("Document Length"): the seed's payload-size row. With -l (variableLength)
  // ab prints "Variable" there instead: no size to report.
  const documentLength = documentLengthOf(src);
  if (documentLength !== undefined) metrics.push(metric('response_bytes', documentLength));

  const table = connectionTimes(src);
  // a report with the table has all four rows; one that does not parse is damaged, not absent
  if (src.includes('Connection Times (ms)')) {
    const lost = ['Connect', 'Processing', 'Waiting', 'Total'].filter((row) => !table[row]);
    if (lost.length) fail(`ab's "Connection Times (ms)" table has no readable ${lost.join(', ')} row; the output is truncated or corrupted`);
  }
  // Total's mean and median become latency.total_mean and total_median, which the shared check does not hold within
  // min..max: a value ab computed from the requests lies there (a whole ms of slack for its rounding)
  const total = table.Total;
  for (const k of ['mean', 'median']) {
    if (total && (total[k] < total.min - 1 || total[k] > total.max + 1)) fail(`ab's "Connection Times (ms)" Total row has ${k} ${total[k]} ms outside its min ${total.min} .. max ${total.max} ms; the output is corrupted or edited`);
  }
  for (const [row, family] of Object.entries(ROWS)) {
    const r = table[row];
    if (!r) continue;
    // Total's mean and median are the table's own (latency.mean and p50 come from other lines of the report).
    const stats = family === 'latency' ? { min: r.min, total_mean: r.mean, stdev: r.sd, total_median: r.median } : { min: r.min, mean: r.mean, stdev: r.sd, median: r.median, max: r.max };
    // ab prints this table in whole milliseconds, the standard deviation with one decimal (a tenth of a millisecond).
    for (const [k, v] of Object.entries(stats)) metrics.push(metric(`${family}.${k}`, Math.round(v * MS), { resolution: k === 'stdev' ? MS / 10 : MS }));
  }

  const pct = percentageTable(src, complete);
  const distributions = [];
  for (const { p, ms } of pct) metrics.push(metric(p === 100 ? 'latency.max' : `latency.p${p}`, ms * MS, { resolution: MS }));
  if (!pct.length && table.Total) metrics.push(metric('latency.max', table.Total.max * MS, { resolution: MS }));
  if (pct.length) distributions.push({ name: 'latency', unit: 'ns', count: complete, percentiles: pct.map(({ p, ms }) => ({ p, value: ms * MS })) });

  const version = /This is ApacheBench, Version ([\d.]+)/.exec(src);
  const keepAlive = numberField(src, 'Keep-Alive requests');
  const notes = [];
  if (overlap > 0) {
    notes.push(`ab counted ${failedBy.length} responses as failed because their length differed from the first one, and ${non2xx} non-2xx responses; it puts a non-2xx response of another length in both counts, so errors counts ${errors} (each response once, the Length failures taken to be non-2xx ones as far as they go); for an exact count of statuses, run ab with -l (param variableLength: true)`);
  } else if (failedBy.length > 0) {
    notes.push(`ab counted ${failedBy.length} responses as failed because their length differed from the first one; for pages whose size varies, run ab with -l (param variableLength: true)`);
  }
  // every response an error (a path the subject does not serve): the figures are of error responses, which the
  // table shows as if measured; say what to check
  if (non2xx > 0 && non2xx === complete) {
    const path = field(src, 'Document Path');
    notes.push(`${non2xx} of ${complete} responses had a non-2xx status: every one, so these figures are of error responses (a 404 answers fast), `
      + `not of what the job meant to measure; check that the subject serves ${path ? `path ${path}` : 'the job\'s path'} (the job's path param, after the manifest's target.url), e.g. with curl -i`);
  } else if (non2xx > 0) notes.push(`${non2xx} of ${complete} responses had a non-2xx status`);
  if (!pct.length) notes.push('ab printed no percentage table (it prints one only for more than one request): no latency percentiles');
  if (duet(opts.params) && complete >= (opts.params.requests ?? TIME_LIMIT_CAP)) {
    notes.push(`ab reached its cap of ${complete} requests before the time limit (duration), so this trial was bounded by the count, not the time; raise the job's requests param (with duration it is only a cap)`);
  }
  const extra = {
    server: field(src, 'Server Software') || undefined,
    host: field(src, 'Server Hostname'),
    port: numberField(src, 'Server Port'),
    path: field(src, 'Document Path'),
    documentLength,
    concurrency,
    keepAliveRequests: keepAlive ?? 0,
    failed: { total: failed, ...failedBy },
    non2xx,
    htmlTransferred: numberField(src, 'HTML transferred'),
    // Mean time per request divided by concurrency: a throughput view, not a latency one.
    timePerRequestAcrossConcurrent: acrossTime ? Math.round(Number(acrossTime[1]) * MS) : undefined,
    freeMeans: [...freeMeans],
  };
  return { metrics, distributions, toolVersion: version?.[1], notes, extra };
}

// ab reads -n, -c, -t and -s as C ints
const positiveInt = (v, what) => wholeNumber(v, { tool: 'ab', what });
const asList = (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : typeof v === 'object' ? Object.entries(v).map(([k, x]) => `${k}: ${x}`) : String(v).split('\n'));

/**
 * A switch param: true or false (a --param gives the text "true"/"false"). YAML reads `yes`, `on` or a quoted "true" as
 * text, which read as "off" would run the job without the switch (no keep-alive) and say nothing.
 */
function flag(v, what, abFlag) {
  if (v === undefined || v === null || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  throw new Error(`ab: param ${what} (ab ${abFlag}) is true or false, got ${JSON.stringify(v)} (write ${what}: true; YAML reads yes and on as text)`);
}

/** Whole seconds from 2, "2" or "2s" (ab's -t and -s take nothing finer). */
function wholeSeconds(v, what, flag) {
  return wholeNumber(v, { tool: 'ab', what: `${what} (ab ${flag})`, unit: 'seconds', suffix: 's' });
}

/**
 * The command line of one trial. params: requests (-n), concurrency (-c), keepalive (-k), timeout
 * (-s, seconds), duration (-t, seconds: ab runs that long and `requests` only caps the count, by default at ab's own
 * 50,000), path, header|headers (-H), method (-m), variableLength (-l).
 */
export function command(ctx) {
  const p = ctx.params || {};
  const timed = duet(p);
  const requests = positiveInt(p.requests ?? (timed ? TIME_LIMIT_CAP : 1000), 'requests');
  const concurrency = positiveInt(p.concurrency ?? 1, 'concurrency');
  if (concurrency > requests) throw new Error(`ab: concurrency (${concurrency}) cannot exceed requests (${requests})`);
  // -q: no progress lines on stderr, so stderr holds only ab's error message.
  // -t before -n: ab's -t resets the count to its own cap, a later -n sets it.
  const argv = [ctx.bin || binary, '-q', ...(timed ? ['-t', String(wholeSeconds(p.duration, 'duration', '-t'))] : []), '-n', String(requests), '-c', String(concurrency)];
  if (flag(p.keepalive, 'keepalive', '-k')) argv.push('-k');
  if (flag(p.variableLength, 'variableLength', '-l')) argv.push('-l');
  if (p.timeout !== undefined) argv.push('-s', String(wholeSeconds(p.timeout, 'timeout', '-s')));
  if (p.method !== undefined) argv.push('-m', String(p.method));
  for (const h of [...asList(p.header), ...asList(p.headers)]) argv.push('-H', h);
  if (!ctx.target?.url) throw new Error('ab: the job has no target URL (subject manifest: target.url)');
  // ab rejects a URL without a path, so the root is spelled "/".
  argv.push(`${String(ctx.target.url).replace(/\/+$/, '')}/${String(p.path ?? '/').replace(/^\/+/, '')}`);
  return { argv, output: 'stdout' };
}

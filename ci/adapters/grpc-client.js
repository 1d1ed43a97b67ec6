// Adapter for the grpc-streaming subject's own client: reads the one JSON line it prints per run into metrics.
//
// The client (subjects/grpc-streaming, `client <netty|helidon> <host:port> <numMsg> <sizeKB>`) sends
// numMsg payloads with at most 4 in flight and prints, on stdout, one JSON object: what it sent
// (messagesSent, bytesSent), what the server says it received (serverMessages, bytesReceived), the
// wall time (durationNs) and MB/s (MiB per second, as the seed's table counts them). It read as:
//   messagesSent / duration                       -> throughput (messages per second)
//   bytesSent / duration                          -> transfer_rate (bytes per second)
//   durationNs                                    -> duration
//   messages lost or truncated, bytes mismatch    -> errors
// A transfer that failed (the client's "error" field) is not a measurement: parse() refuses it and
// says why, so the job fails with the client's own message.
import { isAbsolute, join } from 'node:path';
import { ParseError, repeatedKey, shown, tooDeep, whereJsonBroke } from './errors.js';
import { metric } from '../metrics.js';
import { wholeNumber } from './counts.js';

export const name = 'grpc-client';

/** Metrics that get a verdict by default (a job's `judge:` replaces them): the rate the client moved data at, and failed calls. */
export const judged = Object.freeze(['transfer_rate', 'errors']);
export const binary = 'java';
export const produce = 'java -jar subjects/grpc-streaming/target/grpc-streaming.jar client netty 127.0.0.1:PORT 1000 500 > out.json (build it with mvn -q package in subjects/grpc-streaming)';

const TOOL_ID = 'benchline-grpc-streaming-client';
const fail = (reason) => { throw new ParseError(reason, produce); };
const isCount = (v) => Number.isSafeInteger(v) && v >= 0;
/** A field the client writes as text or a number, as a message quotes it; '?' when absent, JSON when edited into something else. */
const said = (v, max = 100) => (v === undefined || v === null || v === '' ? '?' : typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, max) : shown(v));
const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** What else the text could be, for a message that helps. */
function foreign(text) {
  if (/"latencyDistribution"|"statusCodeDistribution"/.test(text)) return 'ghz JSON';
  if (/"root_group"|"metrics"\s*:\s*\{\s*"(http_reqs|iterations|checks)"/.test(text)) return 'a k6 summary';
  if (/"primaryMetric"/.test(text)) return 'JMH JSON';
  if (/^Running \S+ test @ /m.test(text)) return 'wrk text';
  if (/This is ApacheBench/.test(text)) return 'ApacheBench text';
  if (/^usage:\s*$/m.test(text) && /client <netty\|helidon>/.test(text)) return "the client's usage text (its arguments were wrong)";
  return undefined;
}

/** The client's last stderr line that says what went wrong, for empty stdout. */
function stderrReason(stderr = '') {
  const lines = String(stderr).split('\n').map((l) => l.trim()).filter(Boolean);
  const hit = [...lines].reverse().find((l) => /^(grpc-streaming|Exception|Error|Caused by)|Exception:|Error:/.test(l));
  return hit ? `; its stderr says: ${hit.slice(0, 300)}` : '';
}

/** The one client JSON line of a run's stdout (other lines, e.g. from JVM options, are ignored). */
function clientLine(text) {
  const docs = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    let doc;
    try {
      doc = JSON.parse(t);
    } catch (e) {
      fail(`a line starts like JSON but does not parse ${whereJsonBroke(t, e.message)}; the output may be truncated (the client was killed mid-line?)`);
    }
    const deep = tooDeep(t);
    if (deep) fail(`in a JSON line ${deep}; the output is corrupted`);
    // the client never repeats a key, and JSON.parse would keep the last value without a word
    const twice = repeatedKey(t);
    if (twice) fail(`in a JSON line ${twice}, which the client never writes; the output was edited or corrupted`);
    if (doc?.tool === TOOL_ID) docs.push(doc);
  }
  if (docs.length > 1) fail(`${docs.length} client result lines in one output; give each trial its own file`);
  return docs[0];
}

const NUMBERS = ['messages', 'sizeBytes', 'inFlight', 'messagesSent', 'messagesAcked', 'sizeMismatches', 'serverMessages', 'bytesSent', 'bytesReceived', 'durationNs'];

/** One client stdout -> { metrics, toolVersion, notes }; opts.stderr explains an empty stdout. */
export function parse(text, opts = {}) {
  const src = String(text ?? '');
  if (!src.trim()) fail(`the client printed nothing on stdout: it stopped before its transfer finished (wrong jar path, JVM error or killed)${stderrReason(opts.stderr)}`);
  const doc = clientLine(src);
  if (!doc) {
    const other = foreign(src);
    fail(other ? `this is ${other}, not the grpc-streaming client's JSON line` : `no line is the grpc-streaming client's JSON ({"tool":"${TOOL_ID}", ...})`);
  }
  // Counts may be -1 when the server never sent its totals; that only matters for a transfer that did not fail.
  if (doc.error !== null && doc.error !== undefined) {
    const sent = Number.isSafeInteger(doc.messagesSent) ? doc.messagesSent : '?';
    fail(`the ${said(doc.client)} client's transfer to ${said(doc.target)} failed after ${sent} of ${said(doc.messages)} messages: ${said(doc.error, 500)}`);
  }
  const missing = NUMBERS.filter((k) => !isCount(doc[k]));
  if (missing.length) fail(`field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing or not whole numbers >= 0; the line may come from another client version`);
  if (typeof doc.bytesMatch !== 'boolean' || typeof doc.mbPerSec !== 'number') fail('fields bytesMatch or mbPerSec missing; the line may come from another client version');
  if (doc.durationNs === 0) fail('durationNs is 0: nothing was timed');
  if (doc.messagesSent === 0) fail('the client sent no message');
  if (doc.bytesSent !== doc.messagesSent * doc.sizeBytes) {
    fail(`bytesSent ${doc.bytesSent} is not messagesSent x sizeBytes (${doc.messagesSent} x ${doc.sizeBytes}); the line is inconsistent`);
  }
  const seconds = doc.durationNs / 1e9;
  const mib = doc.bytesSent / 1048576 / seconds;
  // The client rounds MB/s to 6 decimals; anything further off means the fields were edited or mixed up.
  if (Math.abs(mib - doc.mbPerSec) > 1e-4 * Math.max(1, mib)) fail(`mbPerSec ${doc.mbPerSec} does not match bytesSent / durationNs (${mib.toFixed(6)}); the line is inconsistent`);

  const notes = [];
  const lost = Math.max(doc.messagesSent - doc.serverMessages, 0);
  let errors = lost + doc.sizeMismatches;
  if (lost) notes.push(`the server confirmed ${plural(doc.serverMessages, 'message')} of ${plural(doc.messagesSent, 'message')} sent`);
  if (doc.sizeMismatches) notes.push(`${plural(doc.sizeMismatches, 'message')} arrived with another size than sent`);
  if (doc.bytesReceived !== doc.bytesSent) {
    notes.push(`bytes received != bytes sent: the server received ${doc.bytesReceived.toLocaleString('en-US')} of ${doc.bytesSent.toLocaleString('en-US')} bytes`);
    if (!errors) errors = 1;
  }
  if (doc.messagesSent < doc.messages) notes.push(`only ${plural(doc.messagesSent, 'message')} of ${doc.messages} were sent`);

  const metrics = [
    metric('throughput', doc.messagesSent / seconds),
    metric('transfer_rate', doc.bytesSent / seconds),
    metric('duration', doc.durationNs),
    metric('errors', errors),
  ];
  const versions = [doc.grpcJava && `grpc-java ${doc.grpcJava}`, doc.helidon && `Helidon ${doc.helidon}`, doc.java && `Java ${doc.java}`].filter(Boolean);
  return { metrics, notes, toolVersion: `${doc.version || 'unknown'}${versions.length ? ` (${versions.join(', ')})` : ''}` };
}

/** "host:port" the client connects to: target.grpc, else target.host and target.port. */
function targetAddress(target = {}) {
  if (target.grpc) return String(target.grpc).replace(/^[a-z]+:\/\//, '');
  if (target.host && target.port) return `${target.host}:${target.port}`;
  throw new Error('grpc-client needs a gRPC target: give the subject a target.grpc of "127.0.0.1:${port.grpc}"');
}

const words = (v) => (Array.isArray(v) ? v.map(String) : String(v).split(/\s+/)).filter(Boolean);

/**
 * The client's command line of one trial. params: jar (relative to the subject folder), client
 * (netty|helidon), messages, sizeKB, and optionally inflight, warmup (messages), mode (unary|stream),
 * deadline (seconds; default: a little under the trial's timeout) and jvmArgs (a list or a string).
 */
export function command(ctx) {
  const { bin, params = {}, target, subjectDir = process.cwd(), timeoutSeconds } = ctx;
  for (const k of ['jar', 'client', 'messages', 'sizeKB']) {
    if (params[k] === undefined || params[k] === null || params[k] === '') throw new Error(`grpc-client jobs need params.${k} (e.g. jar: target/grpc-streaming.jar, client: netty, messages: 1000, sizeKB: 500)`);
  }
  if (!['netty', 'helidon'].includes(String(params.client))) throw new Error(`grpc-client params.client must be netty or helidon, not "${params.client}"`);
  // the client reads it as a Java int
  const messages = wholeNumber(params.messages, { tool: 'grpc-client', what: 'messages' });
  if (!(Number(params.sizeKB) > 0)) throw new Error(`grpc-client params.sizeKB must be a positive number, not "${params.sizeKB}"`);
  const jar = isAbsolute(String(params.jar)) ? String(params.jar) : join(subjectDir, String(params.jar));
  const props = [];
  if (params.inflight !== undefined) props.push(`-Dbenchline.inflight=${params.inflight}`);
  if (params.warmup !== undefined) props.push(`-Dbenchline.warmup=${params.warmup}`);
  if (params.mode !== undefined) props.push(`-Dbenchline.mode=${params.mode}`);
  // The client stops itself (and says so) before the runner would kill it without output.
  const deadline = params.deadline ?? (timeoutSeconds ? Math.max(5, timeoutSeconds - 10) : undefined);
  if (deadline !== undefined) props.push(`-Dbenchline.deadline=${deadline}`);
  const argv = [bin, ...words(params.jvmArgs ?? []), ...props, '-jar', jar, 'client', String(params.client), targetAddress(target), String(messages), String(params.sizeKB)];
  return { argv, output: 'stdout' };
}

// The grpc-client adapter against outputs captured from the real grpc-streaming client (test/fixtures/grpc-client).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, command, name, binary } from '../ci/adapters/grpc-client.js';
import { ParseError } from '../ci/adapters/errors.js';
import { adapterFor, TOOL_NAMES } from '../ci/adapters/index.js';

const FIX = 'test/fixtures/grpc-client';
const read = (c, ext = 'json') => readFileSync(join(FIX, `${c}.${ext}`), 'utf8');
const value = (r, n) => r.metrics.find((m) => m.name === n)?.value;
const fixed6 = (v) => v.toFixed(6);

test('is registered in the list of tools and runs on the JDK 25 java', () => {
  assert.equal(adapterFor('grpc-client').name, 'grpc-client');
  assert.equal(name, 'grpc-client');
  assert.equal(binary, 'java');
  assert.ok(TOOL_NAMES.includes('grpc-client'), TOOL_NAMES.join(', '));
});

test("reads the client's JSON line into messages/s, bytes/s, duration in ns and zero errors", () => {
  const r = parse(read('loopback-netty-server-netty-client-500kb'));
  assert.deepEqual(r.metrics.map((m) => [m.name, m.unit, m.better]), [
    ['throughput', 'ops/s', 'higher'], ['transfer_rate', 'bytes/s', 'higher'], ['duration', 'ns', 'lower'], ['errors', 'count', 'lower'],
  ]);
  // 100 messages of 512000 bytes in 1334837367 ns; the client's own messagesPerSec and mbPerSec agree.
  assert.equal(fixed6(value(r, 'throughput')), '74.915493');
  assert.equal(value(r, 'transfer_rate'), 51200000 / 1.334837367);
  assert.equal(fixed6(value(r, 'transfer_rate') / 1048576), '36.579831');
  assert.equal(value(r, 'duration'), 1334837367);
  assert.equal(value(r, 'errors'), 0);
  assert.deepEqual(r.notes, []);
  assert.equal(r.toolVersion, '1.0.0 (grpc-java 1.85.1, Helidon 4.5.0, Java 25.0.3)');
});

test('reads a slow Helidon-to-Helidon run over the veth pair and a 1 KB cross-stack round trip the same way', () => {
  const slow = parse(read('network-helidon-server-helidon-client-1mb'));
  assert.equal(value(slow, 'duration'), 8510652259);
  assert.equal(fixed6(value(slow, 'transfer_rate') / 1048576), '11.749981');
  assert.equal(fixed6(value(slow, 'throughput')), '11.749981');
  const tiny = parse(read('tiny-netty-client-helidon-server'));
  assert.equal(value(tiny, 'transfer_rate'), 10240 / 0.861046483);
  assert.equal(value(tiny, 'errors'), 0);
});

test('reads stream mode (one bidirectional stream) like unary mode', () => {
  const r = parse(read('stream-netty-client-netty-server'));
  assert.equal(fixed6(value(r, 'throughput')), '160.636574');
  assert.equal(value(r, 'duration'), 622523236);
});

test("refuses a failed transfer with the client's own error, so the job fails with it", () => {
  assert.throws(() => parse(read('failed-stream-helidon-client-netty-server')), (e) => e instanceof ParseError
    && e.message === 'the helidon client\'s transfer to 127.0.0.1:36139 failed after 22 of 100 messages: io.grpc.StatusRuntimeException: UNKNOWN: Reset of 1 stream received'
    && /java -jar subjects\/grpc-streaming\/target\/grpc-streaming\.jar client/.test(e.hint));
  assert.throws(() => parse(read('refused')), /netty client's transfer to 127\.0\.0\.1:46703 failed after 4 of 10 messages: .*UNAVAILABLE: io exception/);
});

test("says why stdout is empty from the client's stderr", () => {
  assert.throws(() => parse(read('usage-wrong-size'), { stderr: read('usage-wrong-size', 'stderr') }),
    /printed nothing on stdout.*its stderr says: grpc-streaming: sizeKB "big" is not a number/);
  assert.throws(() => parse('', {}), /printed nothing on stdout: it stopped before its transfer finished \(wrong jar path, JVM error or killed\)$/);
});

test("counts the server's missing bytes as an error and says bytes received != bytes sent", () => {
  const doc = JSON.parse(read('loopback-netty-server-netty-client-500kb'));
  const r = parse(JSON.stringify({ ...doc, bytesReceived: doc.bytesSent - 10, bytesMatch: false }));
  assert.equal(value(r, 'errors'), 1);
  assert.deepEqual(r.notes, ['bytes received != bytes sent: the server received 51,199,990 of 51,200,000 bytes']);
  const lost = parse(JSON.stringify({ ...doc, serverMessages: 97, messagesAcked: 97, bytesReceived: 97 * 512000, bytesMatch: false }));
  assert.equal(value(lost, 'errors'), 3);
  assert.equal(lost.notes[0], 'the server confirmed 97 messages of 100 messages sent');
});

test('refuses foreign, truncated, doubled and inconsistent output, naming what it is', () => {
  const line = read('loopback-netty-server-netty-client-500kb').trim();
  assert.throws(() => parse(readFileSync('test/fixtures/ghz/one.json', 'utf8')), /this is ghz JSON, not the grpc-streaming client's JSON line/);
  assert.throws(() => parse(line.slice(0, 200)), /starts like JSON but does not parse .*truncated/);
  assert.throws(() => parse(`${line}\n${line}\n`), /2 client result lines in one output/);
  assert.throws(() => parse(line.replace('"mbPerSec":36.579831', '"mbPerSec":890.04')), /mbPerSec 890.04 does not match bytesSent \/ durationNs \(36\.579831\)/);
  assert.throws(() => parse(line.replace('"bytesSent":51200000', '"bytesSent":51200001')), /bytesSent 51200001 is not messagesSent x sizeBytes \(100 x 512000\)/);
  assert.throws(() => parse(line.replace('"durationNs":1334837367,', '')), /field durationNs missing/);
  assert.throws(() => parse('{"hello":1}\n'), /no line is the grpc-streaming client's JSON/);
});

test('ignores lines other programs print before the JSON line', () => {
  const r = parse(`Picked up JAVA_TOOL_OPTIONS: -Xmx1g\n${read('loopback-netty-server-netty-client-500kb')}`);
  assert.equal(value(r, 'duration'), 1334837367);
});

test('builds the client command from params, the subject folder and the target, with a deadline under the trial timeout', () => {
  const { argv, output } = command({
    bin: '/jdk/bin/java',
    params: { jar: 'target/grpc-streaming.jar', client: 'helidon', messages: 60, sizeKB: 500, inflight: 4, warmup: 20, mode: 'unary', jvmArgs: '-Xmx512m  -XX:+UseSerialGC' },
    target: { grpc: '10.200.203.2:41000' },
    subjectDir: '/repo/subjects/grpc-streaming',
    timeoutSeconds: 120,
  });
  assert.equal(output, 'stdout');
  assert.deepEqual(argv, ['/jdk/bin/java', '-Xmx512m', '-XX:+UseSerialGC', '-Dbenchline.inflight=4', '-Dbenchline.warmup=20', '-Dbenchline.mode=unary',
    '-Dbenchline.deadline=110', '-jar', '/repo/subjects/grpc-streaming/target/grpc-streaming.jar', 'client', 'helidon', '10.200.203.2:41000', '60', '500']);
  const plain = command({ bin: 'java', params: { jar: '/abs/g.jar', client: 'netty', messages: 1, sizeKB: 0.5, deadline: 30 }, target: { host: '127.0.0.1', port: 9 } });
  assert.deepEqual(plain.argv, ['java', '-Dbenchline.deadline=30', '-jar', '/abs/g.jar', 'client', 'netty', '127.0.0.1:9', '1', '0.5']);
});

test('refuses a command without client, messages, size or target, saying what to set', () => {
  const base = { bin: 'java', params: { jar: 'j.jar', client: 'netty', messages: 10, sizeKB: 1 }, target: { grpc: '127.0.0.1:1' } };
  assert.throws(() => command({ ...base, params: { ...base.params, client: 'grpc-go' } }), /params.client must be netty or helidon, not "grpc-go"/);
  assert.throws(() => command({ ...base, params: { ...base.params, messages: 0 } }), /grpc-client: param messages must be a whole number from 1 to 2147483647 in plain digits, got 0/);
  assert.throws(() => command({ ...base, params: { ...base.params, sizeKB: undefined } }), /need params.sizeKB/);
  assert.throws(() => command({ ...base, target: { url: 'http://127.0.0.1:1' } }), /needs a gRPC target: give the subject a target.grpc/);
});

test('a key repeated in the client line (tiny-netty-client-helidon-server.json with "sizeMismatches": 3 added after the real one) is refused, not read as its last value', () => {
  const text = read('tiny-netty-client-helidon-server');
  const mutant = text.replace(/("sizeMismatches":\d+)/, '$1,"sizeMismatches":3');
  assert.notEqual(mutant, text);
  assert.throws(() => parse(mutant), (e) => e instanceof ParseError && /the key "sizeMismatches" appears twice in one object/.test(e.message));
  assert.equal(value(parse(text), 'errors'), 0);
});

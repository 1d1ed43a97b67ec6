// Core pinning and load-tool saturation: the split of cores, taskset for real, the note a saturated job carries and the reports' line.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowedCpus, formatCpuList, groupProcesses, parseCpuList, pinned, pinningInfo, planSplit, saturationNote, toolSaturation, usePinning } from '../ci/cpuset.js';
import { parsePidStat } from '../ci/cpu.js';
import { startSubject } from '../ci/subjects.js';
import { buildResult } from '../ci/result.js';
import { metric } from '../ci/metrics.js';
import { bottleneckDocs, bottleneckLine } from '../ci/reports/format.js';
import { render as renderConsole } from '../ci/reports/console.js';
import { render as renderComment } from '../ci/reports/comment.js';
import { render as renderSummary } from '../ci/reports/summary.js';
import { loadConfig } from '../ci/config.js';
import { compare } from '../ci/compare.js';

const RUNNER = { name: 't', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 't', memoryBytes: 1, labels: [], pinning: { mode: 'auto', tool: '1', subject: '0' } };
const RUN = { id: 'r1', startedAt: '2026-11-23T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };

/** A result document of `variant` whose trials' load tool used `toolUse` cores of `toolCores` each. */
function doc(variant, throughputs, toolUse, toolCores = 1) {
  const trials = throughputs.map((v, i) => ({
    metrics: [metric('throughput', v)],
    load: { seconds: 3, tool: toolUse[i], subject: 0.8, other: 0.1, toolCores },
  }));
  return buildResult({ run: RUN, runner: RUNNER, suite: 'orders-api', subject: 'orders-api', variant, scenario: 'no-keepalive', tool: { name: 'ab', version: '2.3' }, params: {}, trials }, 'test');
}

describe('splitting cores between the load tool and the subject', () => {
  test('CPU lists read and write in taskset\'s -c form', () => {
    assert.deepEqual(parseCpuList('0-3,6,8-9'), [0, 1, 2, 3, 6, 8, 9]);
    assert.equal(parseCpuList('0-1 junk'), undefined);
    assert.equal(formatCpuList([0, 1, 2, 5, 7, 8]), '0-2,5,7-8');
  });

  test('the affinity comes from Cpus_allowed_list in /proc/<pid>/status', () => {
    assert.deepEqual(allowedCpus('Name:\tnode\nCpus_allowed_list:\t2-3,5\n'), [2, 3, 5]);
  });

  test('on two cores the load tool gets one and the subject the other', () => {
    assert.deepEqual(planSplit('auto', [0, 1]), { mode: 'auto', subject: [0], tool: [1] });
  });

  test('on more cores the tool gets the upper half, the smaller one when the count is odd', () => {
    assert.deepEqual(planSplit('auto', [0, 1, 2, 3]), { mode: 'auto', subject: [0, 1], tool: [2, 3] });
    assert.deepEqual(planSplit('auto', [4, 5, 6]), { mode: 'auto', subject: [4, 5], tool: [6] });
  });

  test('nothing is pinned with one core, without taskset or with pinning off, and the reason is kept', () => {
    assert.match(planSplit('auto', [0]).reason, /only 1 core/);
    assert.match(planSplit('auto', [0, 1], { taskset: false }).reason, /taskset/);
    assert.deepEqual(pinningInfo(planSplit('off', [0, 1])), { mode: 'off', reason: 'pinning is off (defaults.pinning)' });
    assert.throws(() => planSplit('always', [0, 1]), /pinning: "always" is not one of auto, off/);
  });

  test('a pinned command runs under taskset with its role\'s cores, and an unpinned one is left alone', () => {
    const split = planSplit('auto', [0, 1, 2, 3]);
    assert.deepEqual(pinned(['wrk', '-t2'], 'tool', split, '/usr/bin/taskset'), ['/usr/bin/taskset', '-c', '2-3', 'wrk', '-t2']);
    assert.deepEqual(pinned(['wrk'], 'tool', planSplit('off', [0, 1]), '/usr/bin/taskset'), ['wrk']);
  });

  test('a process started through pinned() really runs on the tool\'s core only', { skip: allowedCpus().length < 2 || spawnSync('taskset', ['-V']).status !== 0 }, () => {
    const split = planSplit('auto', allowedCpus());
    const argv = pinned(['cat', '/proc/self/status'], 'tool', split, 'taskset');
    const out = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' }).stdout;
    assert.equal(/^Cpus_allowed_list:\s*(\S+)$/m.exec(out)[1], formatCpuList(split.tool));
  });

  test('the process group is the fifth field of /proc/<pid>/stat, even when the command name holds spaces and parentheses', () => {
    assert.equal(parsePidStat('4242 (java) S 1 4240 4240 0 -1 4194560')?.pgrp, 4240);
    assert.equal(parsePidStat('77 (Web Content (x)) R 5 70 70 0')?.pgrp, 70);
    assert.equal(parsePidStat('')?.pgrp, undefined);
  });

  const canPin = allowedCpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
  test('a subject starts on every core and, once healthy, every thread of each of its processes runs on the subject\'s cores only', { skip: !canPin, timeout: 60000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchline-pin-'));
    // The subject records its affinity as it starts, leaves a child in its process group and serves HTTP from node (several threads).
    const server = "require('http').createServer((q, r) => r.end('ok')).listen(Number(process.argv[1]), '127.0.0.1')";
    const manifest = {
      name: 'pin-probe', dir, file: join(dir, 'subject.yaml'), ports: ['http'],
      processes: { app: { command: ['sh', '-c', `grep Cpus_allowed_list /proc/self/status > started.txt; sleep 120 & exec "${process.execPath}" -e "${server}" \${port.http}`], health: { http: 'http://127.0.0.1:${port.http}/', timeout: 30 } } },
    };
    const info = usePinning('auto');
    const live = await startSubject({ manifest, runDir: join(dir, 'run') });
    try {
      assert.equal(/Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(join(dir, 'started.txt'), 'utf8'))[1], formatCpuList(allowedCpus()), 'unpinned while it starts');
      const pids = groupProcesses(live.procs[0].pid);
      assert.ok(pids.length >= 2, `node and its sleeping child, got ${pids}`);
      const affinity = pids.flatMap((pid) => readdirSync(`/proc/${pid}/task`).map((tid) => /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))[1]));
      assert.ok(affinity.length > pids.length, 'node runs more than one thread');
      assert.deepEqual([...new Set(affinity)], [info.subject]);
    } finally {
      await live.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the configuration defaults to auto pinning', () => {
    assert.equal(loadConfig('bench.config.yaml').defaults.pinning, 'auto');
  });
});

describe('load-tool saturation', () => {
  test('the median trial decides: 0.95 of one core is saturated, 0.85 is not', () => {
    assert.deepEqual(toolSaturation([{ tool: 0.2, toolCores: 1 }, { tool: 0.95, toolCores: 1 }, { tool: 0.99, toolCores: 1 }]), { saturated: true, used: 0.95, cores: 1, share: 0.95 });
    assert.equal(toolSaturation([{ tool: 0.85, toolCores: 1 }, { tool: 0.99, toolCores: 1 }, { tool: 0.8, toolCores: 1 }]).saturated, false);
    assert.equal(toolSaturation([{ tool: 1.9, toolCores: 2 }]).saturated, true);
    assert.equal(toolSaturation([{ tool: 0.99, subject: 1, other: 0, seconds: 1 }]), undefined, 'no toolCores, no verdict');
  });

  test('a saturated job\'s result document carries the note first and an idle one none', () => {
    const busy = doc('cache-on', [9000, 9100, 9050], [0.97, 0.99, 0.98]);
    assert.equal(busy.notes[0], "the load tool was the bottleneck: ab used 0.98 of the 1 core it may use (median trial); these figures are ab's ceiling, not the subject's");
    assert.equal(saturationNote(busy.load, 'ab'), busy.notes[0]);
    assert.equal(doc('cache-off', [3000, 3100, 3050], [0.4, 0.5, 0.45]).notes, undefined);
  });

  test('a comparison of variants becomes the bottleneck line when either side saturated its tool', () => {
    const off = doc('cache-off', [3000, 3100, 3050], [0.4, 0.5, 0.45]);
    const on = doc('cache-on', [9000, 9100, 9050], [0.97, 0.99, 0.98]);
    assert.equal(bottleneckLine([off, on]), 'the load tool was the bottleneck (cache-on: ab used 0.98 of its 1 core); not compared');
    assert.equal(bottleneckLine([off, off]), undefined);
    assert.deepEqual(bottleneckDocs([off, on, on]).map((x) => x.name), ['orders-api/cache-on/ab/no-keepalive']);
  });

  test('the console report and job summary say the load tool was the bottleneck instead of comparing the variants, and the PR comment warns', () => {
    const off = doc('cache-off', [3000, 3100, 3050], [0.4, 0.5, 0.45]);
    const on = doc('cache-on', [9000, 9100, 9050], [0.97, 0.99, 0.98]);
    const text = renderConsole({ docs: [off, on] });
    assert.match(text, /\n {2}cache-on vs cache-off: the load tool was the bottleneck \(cache-on: ab used 0\.98 of its 1 core\); not compared\n/);
    assert.doesNotMatch(text, /Throughput: .*higher/);
    assert.match(text, /The load tool was the bottleneck in this job; .*\n {4}orders-api\/cache-on\/ab\/no-keepalive: ab used 0\.98 of its 1 core/);
    assert.match(renderComment({ docs: [off, on] }), /⚠️ The load tool was the bottleneck in orders-api\/cache-on\/ab\/no-keepalive \(ab used 0\.98 of its 1 core\)/);
    assert.match(renderSummary({ docs: [off, on] }), /\n- \*\*cache-on\*\* vs \*\*cache-off\*\*: the load tool was the bottleneck \(cache-on: ab used 0\.98 of its 1 core\); not compared\n/);
  });
});

test('the PR comment warns of a saturated load tool only where a judged verdict could hide behind it, not for errors that were zero on both sides', () => {
  const withErrors = (variant, role, throughputs) => {
    const d = doc(variant, throughputs, [0.97, 0.99, 0.98, 0.97, 0.98]);
    d.run = { ...d.run, role };
    d.metrics.push(metric('error_rate', 0, { samples: [0, 0, 0, 0, 0] }));
    return d;
  };
  const tps = [9000, 9100, 9050, 9020, 9080];
  const base = withErrors('cache-on', 'base', tps);
  const head = withErrors('cache-on', 'head', tps.map((x) => x * 1.001));
  const onlyErrors = [base, head].map((d) => ({ ...d, judge: ['error_rate'] }));
  const quiet = renderComment({ docs: [onlyErrors[1]], comparisons: compare([onlyErrors[0]], [onlyErrors[1]], { minEffect: 0.02 }) });
  assert.doesNotMatch(quiet, /bottleneck/, 'zero errors on both sides: nothing for the ceiling to hide');
  const speed = renderComment({ docs: [head], comparisons: compare([base], [head], { minEffect: 0.02 }) });
  assert.match(speed, /⚠️ The load tool was the bottleneck in orders-api\/cache-on\/ab\/no-keepalive/, 'throughput is judged: the warning stays');
  // medians of zero but an error on one trial: a test ran under the ceiling, so the warning stays
  const flaky = onlyErrors.map((d, i) => ({ ...d, metrics: d.metrics.map((m) => (m.name === 'error_rate' && i === 1 ? metric('error_rate', 0, { samples: [0, 0, 0, 0, 0.01] }) : m)) }));
  const tested = compare([flaky[0]], [flaky[1]], { minEffect: 0.02 });
  assert.match(tested.comparisons.find((c) => c.metric === 'error_rate').capped, /^the load tool was the bottleneck/);
  assert.match(renderComment({ docs: [flaky[1]], comparisons: tested }), /⚠️ The load tool was the bottleneck in orders-api\/cache-on\/ab\/no-keepalive/, 'an error rate tested under the ceiling: the warning stays');
});


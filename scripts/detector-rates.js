#!/usr/bin/env node
// Measures the detector on this machine: false alarms in A/A runs and detection of a known slowdown in A/B runs.
//
//   node scripts/detector-rates.js --runs 10 --slowdown 0.05 [--variant cache-off] [--tool wrk]
//
// A/A: `bench --base HEAD` on an unchanged copy of the project; every regression is a false alarm.
// A/B: the head copy's orders-api gets WORK_US (the calibration knob) sized for the requested
// throughput loss, from a throughput measured first; a throughput regression is a detection.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({ options: {
  runs: { type: 'string', default: '10' },
  slowdown: { type: 'string', default: '0.05' },
  variant: { type: 'string', default: 'cache-off' },
  tool: { type: 'string', default: 'wrk' },
  trials: { type: 'string', default: '5' },
  mode: { type: 'string', default: 'both' },
} });
const root = resolve(new URL('..', import.meta.url).pathname);

/** A committed copy of the project (tracked files only) sharing node_modules, so worktrees work. */
function copyProject() {
  const dir = mkdtempSync(join(tmpdir(), 'benchline-detector-'));
  execFileSync('git', ['clone', '-q', root, dir]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function bench(dir, extra = []) {
  const args = ['ci/cli.js', 'bench', '--suite', 'orders-api', '--variant', o.variant, '--tool', o.tool, '--trials', o.trials, '--no-publish', '--no-progress', '--out', join(dir, 'results'), ...extra];
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  const runs = readdirSync(join(dir, 'results')).filter((d) => d !== 'latest').sort();
  const last = join(dir, 'results', runs.at(-1));
  const comparisons = extra.includes('--base') ? JSON.parse(readFileSync(join(last, 'comparisons.json'), 'utf8')).comparisons : [];
  return { code: r.status, comparisons, last };
}

function setWorkUs(dir, us) {
  const f = join(dir, 'subjects/orders-api/subject.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace(/WORK_US: "\$\{env\.WORK_US\}"/, `WORK_US: "${us}"`));
}

const dir = copyProject();
const lines = [];
const say = (m) => { lines.push(m); process.stdout.write(`${m}\n`); };
try {
  if (o.mode !== 'ab') {
    let metrics = 0; let alarms = 0; let runsWithAlarm = 0; const verdicts = {};
    for (let i = 0; i < Number(o.runs); i += 1) {
      const { comparisons } = bench(dir, ['--base', 'HEAD']);
      const reg = comparisons.filter((c) => c.verdict === 'regression');
      metrics += comparisons.length; alarms += reg.length; runsWithAlarm += reg.length ? 1 : 0;
      for (const c of comparisons) verdicts[c.verdict] = (verdicts[c.verdict] || 0) + 1;
      say(`A/A run ${i + 1}: ${comparisons.length} metrics, ${reg.length} regressions${reg.length ? ` (${reg.map((c) => c.metric).join(', ')})` : ''}`);
    }
    say(`A/A: ${alarms}/${metrics} metric comparisons flagged as regression (false-alarm rate ${(100 * alarms / metrics).toFixed(1)}%); ${runsWithAlarm}/${o.runs} runs had any; verdicts ${JSON.stringify(verdicts)}`);
  }
  if (o.mode !== 'aa') {
    const probe = bench(dir, []);
    const docFile = readdirSync(join(probe.last, 'docs', 'local'))[0];
    const doc = JSON.parse(readFileSync(join(probe.last, 'docs', 'local', docFile), 'utf8'));
    const t0 = doc.metrics.find((m) => m.name === 'throughput').value;
    // A single-threaded server at saturation: 1/T = 1/T0 + w, so w = (1/(1-s) - 1) / T0.
    const s = Number(o.slowdown);
    const us = Number(((1 / (1 - s) - 1) / t0 * 1e6).toFixed(2));
    say(`A/B: throughput without the knob ${Math.round(t0)} req/s; WORK_US=${us} aims at a ${(s * 100).toFixed(1)}% loss`);
    setWorkUs(dir, us);
    let detected = 0; const changes = [];
    for (let i = 0; i < Number(o.runs); i += 1) {
      const { comparisons } = bench(dir, ['--base', 'HEAD']);
      const thr = comparisons.find((c) => c.metric === 'throughput' && !c.case);
      changes.push(thr.change);
      if (thr.verdict === 'regression') detected += 1;
      say(`A/B run ${i + 1}: throughput ${(thr.change * 100).toFixed(1)}% [${(thr.lower * 100).toFixed(1)}%, ${(thr.upper * 100).toFixed(1)}%] p=${thr.p.toFixed(4)} -> ${thr.verdict}`);
    }
    const sorted = [...changes].sort((a, b) => a - b);
    say(`A/B: ${detected}/${o.runs} runs reported the throughput regression (detection rate ${(100 * detected / Number(o.runs)).toFixed(0)}%); median measured change ${(sorted[Math.floor(sorted.length / 2)] * 100).toFixed(1)}%`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

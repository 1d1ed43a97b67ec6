#!/usr/bin/env node
// Pipeline overhead: wrk launched by `benchline run` vs the same wrk command run directly, alternating.
//
//   node scripts/overhead.js --pairs 5 [--variant cache-on]
//
// Both sides start orders-api the same way (ci/subjects.js) and run the argv the wrk adapter builds;
// the ratio of median throughputs is what the pipeline costs the measurement.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from 'simple-statistics';
import { loadConfig } from '../ci/config.js';
import { planJobs } from '../ci/plan.js';
import * as wrk from '../ci/adapters/wrk.js';
import { loadManifest, startSubject } from '../ci/subjects.js';
import { locate } from '../ci/tools.js';
import { decide, pairedStats } from '../ci/compare.js';
import { scriptArgs } from './args.js';

const o = scriptArgs(import.meta.url, { pairs: { type: 'string', default: '5' }, variant: { type: 'string', default: 'cache-on' } });
const root = resolve(new URL('..', import.meta.url).pathname);
const config = loadConfig(join(root, 'bench.config.yaml'));
const [job] = planJobs(config, { suite: ['orders-api'], variant: [o.variant], tool: ['wrk'] });
const out = mkdtempSync(join(tmpdir(), 'benchline-overhead-'));

async function direct(i) {
  const subject = await startSubject({ manifest: loadManifest(root, 'orders-api'), runDir: join(out, `direct-${i}`), env: job.env });
  try {
    const cmd = wrk.command({ bin: locate('wrk').path, params: job.params, target: subject.target, script: join(root, job.script) });
    if (job.warmup) spawnSync(cmd.argv[0], wrk.command({ bin: locate('wrk').path, params: { ...job.params, ...job.warmup }, target: subject.target, script: join(root, job.script) }).argv.slice(1));
    const r = spawnSync(cmd.argv[0], cmd.argv.slice(1), { encoding: 'utf8' });
    return wrk.parse(r.stdout).metrics.find((m) => m.name === 'throughput').value;
  } finally {
    await subject.stop();
  }
}

function viaBenchline(i) {
  const dir = join(out, `benchline-${i}`);
  spawnSync(process.execPath, [join(root, 'ci/cli.js'), 'run', '--suite', 'orders-api', '--variant', o.variant, '--tool', 'wrk', '--trials', '1', '--no-progress', '--out', dir], { cwd: root, encoding: 'utf8' });
  const run = readdirSync(dir).find((d) => d !== 'latest');
  const doc = JSON.parse(readFileSync(join(dir, run, 'docs', 'local', `${job.id}.json`), 'utf8'));
  return doc.metrics.find((m) => m.name === 'throughput').value;
}

const a = []; const b = [];
for (let i = 0; i < Number(o.pairs); i += 1) {
  const first = i % 2 === 0;
  if (first) { a.push(await direct(i)); b.push(viaBenchline(i)); } else { b.push(viaBenchline(i)); a.push(await direct(i)); }
  process.stdout.write(`pair ${i + 1}: direct ${Math.round(a.at(-1))} req/s, via benchline ${Math.round(b.at(-1))} req/s\n`);
}
const ratio = median(b) / median(a);
process.stdout.write(`median direct ${Math.round(median(a))} req/s, via benchline ${Math.round(median(b))} req/s: benchline reaches ${(ratio * 100).toFixed(1)}% of direct (target >= 98%)\n`);
// the same test benchline applies to a pull request, with direct as the base: a real 2% cost shows as a regression
// (each pair ran side by side in time, so the paired test, as for a pull request's rounds)
const alpha = config.compare?.alpha ?? 0.05;
const s = pairedStats(a, b, { alpha });
const v = { ...s, ...decide({ ...s, base: { n: a.length }, head: { n: b.length }, better: 'higher', minEffect: 0.02, alpha }, s.p <= alpha) };
const pctOf = (x) => (Number.isFinite(x) ? `${((1 + x) * 100).toFixed(1)}%` : '–');
process.stdout.write(`${+(v.level * 100).toFixed(2)}% interval of via/direct: ${pctOf(v.lower)}..${pctOf(v.upper)}, p=${v.p.toPrecision(2)}: ${v.verdict} (${v.reason})\n`);

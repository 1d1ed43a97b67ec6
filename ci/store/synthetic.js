// Generated histories of valid result documents, for the site's scale benchmark and tests: seeded, with steps where asked.
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { metric } from '../metrics.js';
import { median } from '../stats.js';
import { SCHEMA_ID } from '../schema/index.js';

const METRICS = [
  ['throughput', 12000], ['requests', 60000], ['latency.mean', 4.1e6], ['latency.p50', 3.8e6], ['latency.p75', 4.6e6],
  ['latency.p90', 6.2e6], ['latency.p99', 11e6], ['latency.max', 25e6], ['transfer_rate', 8.5e6], ['errors', 0],
];

/** Default jobs: five suites' worth of variants, ten metrics each (50 metrics per run). */
export const DEFAULT_JOBS = [
  { suite: 'orders-api', variant: 'cache-off', tool: 'ab', scenario: 'keepalive', scale: 1 },
  { suite: 'orders-api', variant: 'cache-on', tool: 'ab', scenario: 'keepalive', scale: 2.3 },
  { suite: 'catalog-api', variant: 'hateoas', tool: 'k6', scenario: 'page', scale: 0.4 },
  { suite: 'catalog-api', variant: 'keyset', tool: 'k6', scenario: 'page', scale: 1.1 },
  { suite: 'gateways', variant: 'nginx', tool: 'wrk', scenario: 'peak', scale: 3.5 },
];

export const commitOf = (i) => createHash('sha1').update(`commit-${i}`).digest('hex');

/**
 * `runs` runs, `every` ms apart from `start`, each with every job of `jobs`; values carry `noise`
 * (relative sd) around per-job levels. steps: [{ from: run index, job: 'suite.variant', metric, factor }]
 * multiply a metric from that run on. sameCommit: how many consecutive runs share a commit. metrics: [[name, level]],
 * or [name, level, { unit, better }] for a name benchline does not register.
 */
export function* syntheticDocs({ runs = 100, jobs = DEFAULT_JOBS, start = Date.UTC(2025, 0, 1), every = 3600e3, noise = 0.02, trials = 5, steps = [], sameCommit = 1, seed = 1, role = 'main', distributions = true, metrics = METRICS } = {}) {
  const random = seedrandom(String(seed));
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  for (let i = 0; i < runs; i += 1) {
    const startedAt = new Date(start + i * every).toISOString();
    const id = `${startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${createHash('sha1').update(`run-${seed}-${i}`).digest('hex').slice(0, 6)}`;
    const run = { id, startedAt, commit: commitOf(Math.floor(i / sameCommit)), ref: 'main', trigger: role === 'main' ? 'push' : 'local', role };
    for (const job of jobs) {
      const ms = metrics.map(([name, level, described = {}]) => {
        let factor = job.scale;
        for (const s of steps) if (i >= s.from && s.job === `${job.suite}.${job.variant}` && s.metric === name) factor *= s.factor;
        if (name.startsWith('latency')) factor = 1 / factor;
        const samples = Array.from({ length: trials }, () => Number((level * factor * (1 + noise * gauss())).toPrecision(7)));
        const value = median(samples);
        return metric(name, value, { ...described, samples, lower: Math.min(...samples), upper: Math.max(...samples), confidence: 0.95 });
      });
      const doc = {
        schema: SCHEMA_ID,
        run,
        runner: { name: 'bench-runner-1', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Synthetic CPU @ 2.0GHz', memoryBytes: 25769803776, labels: ['synthetic'] },
        suite: job.suite,
        subject: job.suite,
        variant: job.variant,
        scenario: job.scenario,
        tool: { name: job.tool, version: '1.0.0' },
        params: { connections: 50, duration: '5s' },
        trials,
        metrics: ms,
      };
      if (distributions) {
        const lat = (p) => ms.find((m) => m.name === p)?.value;
        doc.distributions = [{ name: 'latency', unit: 'ns', count: 60000, percentiles: [[50, 'latency.p50'], [75, 'latency.p75'], [90, 'latency.p90'], [99, 'latency.p99'], [100, 'latency.max']].filter(([, n]) => lat(n) !== undefined).map(([p, n]) => ({ p, value: lat(n) })) }];
      }
      yield doc;
    }
  }
}

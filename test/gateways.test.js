// The gateways suite: its subject started for real (backends, nginx, HAProxy, Bun gateway), its config, and its report.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseWrk } from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { compare } from '../ci/compare.js';
import { loadConfig } from '../ci/config.js';
import { planJobs } from '../ci/plan.js';
import { runJobs } from '../ci/runner.js';
import { loadResultsDir } from '../ci/results-dir.js';
import { loadManifest, startSubject, substitute } from '../ci/subjects.js';
import YAML from 'yaml';
import { locate, versionOf } from '../ci/tools.js';
import { allowedCpus, pinningInfo, planSplit } from '../ci/cpuset.js';
import { render, markdown, model, distribution, rankTiers, wrkOutputs } from '../subjects/gateways/report.js';

const ROOT = resolve('.');
const FIX = join(ROOT, 'test', 'fixtures', 'wrk');
const LUA = join(ROOT, 'loadtests', 'wrk', 'json.lua');
const BACKENDS = ['backend-1', 'backend-2', 'backend-3'];
const NATIVE = { nginx: 'nginx', haproxy: 'haproxy', bun: 'bun-gateway', envoy: 'envoy' };

// ---------------------------------------------------------------- helpers

/** Runs wrk with the json.lua script against `url` and resolves its stdout (bounded by wrk's -d and a timeout). */
function wrk(url, seconds) {
  return new Promise((res, rej) => {
    execFile(locate('wrk').path, ['-t2', '-c20', `-d${seconds}s`, '--latency', '-s', LUA, `${url}/`], { encoding: 'utf8', timeout: (seconds + 20) * 1000 }, (err, stdout, stderr) => {
      if (err?.killed) rej(new Error(`wrk did not finish: ${stderr}`));
      else res(stdout);
    });
  });
}

/** Backends plus one gateway from subjects/gateways/subject.yaml, through the runner's own start code. */
async function startGateway(gateway) {
  const runDir = mkdtempSync(join(tmpdir(), 'benchline-gateways-test-'));
  const subject = await startSubject({ manifest: loadManifest(ROOT, 'gateways'), runDir, select: [...BACKENDS, gateway] });
  return {
    ...subject,
    stop: async () => { await subject.stop(); rmSync(runDir, { recursive: true, force: true }); },
  };
}

/** Largest relative distance of a backend's share from an even split. */
function maxDeviation(backends, names = BACKENDS) {
  const total = names.reduce((s, n) => s + (backends[n] || 0), 0);
  return Math.max(...names.map((n) => Math.abs((backends[n] || 0) / total - 1 / names.length) * names.length));
}

const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] };
const RUN = { id: 'r1', startedAt: '2026-11-22T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const PARAMS = { path: '/', backends: BACKENDS.join(','), threads: 2, connections: 50, duration: '3s' };

/** A result document of one gateway from captured wrk outputs (test/fixtures/wrk/<name>.txt), as the runner builds it. */
function docFrom(variant, names, run = RUN, { confidence } = {}) {
  return buildResult({
    run, runner: RUNNER, suite: 'gateways', subject: 'gateways', variant, scenario: 'round-robin', confidence,
    tool: { name: 'wrk', version: 'debian/4.1.0-3+b2' }, params: PARAMS,
    trials: names.map((n) => parseWrk(readFileSync(join(FIX, `${n}.txt`), 'utf8'))),
    artifacts: names.map((n, i) => ({ path: `raw/local/gateways.${variant}.wrk.round-robin/trial-${i + 1}.stdout.txt`, kind: 'raw' })),
  }, `${variant} fixtures`);
}

const trials = (variant) => [1, 2, 3].map((i) => `gateways-${variant}-${i}`);
let config;
let healthy;
before(() => {
  config = loadConfig(join(ROOT, 'bench.config.yaml'));
  healthy = ['nginx', 'haproxy', 'bun'].map((v) => docFrom(v, trials(v)));
});

// ---------------------------------------------------------------- the subject, for real

describe('the gateways subject on loopback', { timeout: 90000 }, () => {
  test('each echo backend names itself in the X-Backend header and in the body, and echoes method and path', async () => {
    const g = await startGateway('haproxy');
    try {
      const seen = new Set();
      for (let i = 0; i < 6; i += 1) {
        const res = await fetch(`${g.target.url}/echo/${i}?q=1`);
        const body = await res.json();
        assert.equal(res.status, 200);
        assert.equal(body.backend, res.headers.get('x-backend'));
        assert.deepEqual({ method: body.method, path: body.path }, { method: 'GET', path: `/echo/${i}?q=1` });
        seen.add(body.backend);
      }
      assert.deepEqual([...seen].sort(), BACKENDS);
    } finally {
      await g.stop();
    }
  });

  for (const [variant, gateway] of Object.entries(NATIVE)) {
    test(`${variant} spreads a 2 s wrk run evenly (within 5%) over the three backends with zero errors`, async () => {
      const g = await startGateway(gateway);
      let parsed;
      try {
        parsed = parseWrk(await wrk(g.target.url, 2));
      } finally {
        await g.stop();
      }
      const value = (name) => parsed.metrics.find((m) => m.name === name).value;
      assert.deepEqual(Object.keys(parsed.extra.backends).sort(), BACKENDS);
      assert.ok(maxDeviation(parsed.extra.backends) <= 0.05, `uneven: ${JSON.stringify(parsed.extra.backends)}`);
      assert.equal(value('errors'), 0);
      assert.deepEqual(parsed.extra.errors, { connect: 0, read: 0, write: 0, status: 0, timeout: 0 });
      assert.ok(value('requests') > 1000, `only ${value('requests')} requests in 2 s`);
      assert.equal(parsed.extra.responses, value('requests'));
    });

    test(`${variant} answers with counted errors when a backend is stopped by PID during the run`, async () => {
      const g = await startGateway(gateway);
      let parsed;
      try {
        // 3 s of load, backend-2 stopped 0.6 s after wrk was started: on a busy machine wrk's first requests and the
        // stop itself can lag by a second, so backend-2 is only required to fall well behind, not to a third.
        const running = wrk(g.target.url, 3);
        await new Promise((r) => setTimeout(r, 600));
        const victim = g.procs.find((p) => p.name === 'backend-2');
        process.kill(victim.pid, 'SIGTERM');
        await victim.exit;
        parsed = parseWrk(await running);
      } finally {
        await g.stop();
      }
      const errors = parsed.metrics.find((m) => m.name === 'errors').value;
      const b = parsed.extra.backends;
      assert.ok(errors > 0, 'the dead backend must show up as errors');
      assert.ok(b['backend-2'] < 0.75 * Math.min(b['backend-1'], b['backend-3']), `backend-2 kept its share: ${JSON.stringify(b)}`);
      // Every failed request is a gateway error status (502 nginx/Bun, 503 HAProxy) or a socket error.
      const failedStatuses = Object.entries(parsed.extra.statuses).filter(([s]) => s !== '200').reduce((s, [, n]) => s + n, 0);
      const socket = parsed.extra.errors.connect + parsed.extra.errors.read + parsed.extra.errors.write + parsed.extra.errors.timeout;
      assert.equal(errors, failedStatuses + socket);
    });
  }
});

describe('the gateways suite through the runner', { timeout: 60000 }, () => {
  test('one short trial per gateway measures nginx, HAProxy, Bun and Envoy evenly with no errors, and names no winner from one trial', async () => {
    const out = mkdtempSync(join(tmpdir(), 'benchline-gateways-run-'));
    try {
      const jobs = planJobs(config, { suite: ['gateways'], trials: 1, param: ['duration=1s', 'connections=20'] });
      const { dir, run } = await runJobs(jobs, { config, out, progress: false });
      assert.deepEqual(run.jobs.map((j) => [j.variant, j.status]), [['nginx', 'ok'], ['haproxy', 'ok'], ['bun', 'ok'], ['envoy', 'ok']]);
      const loaded = loadResultsDir(dir);
      const m = model({ suite: 'gateways', docs: loaded.byRole.local, run: loaded.run, config });
      assert.deepEqual(m.measured.map((g) => [g.variant, g.errors, g.distribution.names, g.distribution.even]), [
        ['nginx', 0, BACKENDS, true], ['haproxy', 0, BACKENDS, true], ['bun', 0, BACKENDS, true], ['envoy', 0, BACKENDS, true],
      ]);
      assert.deepEqual(m.ranking.map((g) => [g.medal, g.tied]), [['🏆', true], ['🏆', true], ['🏆', true], ['🏆', true]]);
      assert.doesNotMatch(render({ suite: 'gateways', docs: loaded.byRole.local, run: loaded.run, config }), /Winner/);
      // wrk and the gateway's processes ran on separate cores, and every document says which.
      const split = planSplit('auto', allowedCpus());
      for (const d of loaded.byRole.local) {
        assert.deepEqual(d.runner.pinning, pinningInfo(split));
        assert.ok(d.load.every((l) => l.toolCores === (split.tool?.length || allowedCpus().length)), JSON.stringify(d.load));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- manifest and config

describe('the gateways manifest and config', () => {
  test('the nginx and HAProxy templates render into configs that nginx -t and haproxy -c accept', () => {
    const manifest = loadManifest(ROOT, 'gateways');
    const run = mkdtempSync(join(tmpdir(), 'benchline-gateways-conf-'));
    try {
      const vars = { dir: manifest.dir, run, ports: { backend1: 18081, backend2: 18082, backend3: 18083, gateway: 18080 }, tool: (n) => locate(n).path, env: {} };
      for (const name of ['nginx', 'haproxy']) {
        const t = manifest.processes[name].templates[0];
        writeFileSync(substitute(t.to, vars, name), substitute(readFileSync(join(manifest.dir, t.from), 'utf8'), vars, t.from));
      }
      const nginx = spawnSync(locate('nginx').path, ['-t', '-p', run, '-c', join(run, 'nginx.conf'), '-e', join(run, 'test-error.log')], { encoding: 'utf8' });
      assert.equal(nginx.status, 0, nginx.stderr);
      assert.match(nginx.stderr, /syntax is ok/);
      const haproxy = spawnSync(locate('haproxy').path, ['-c', '-f', join(run, 'haproxy.cfg')], { encoding: 'utf8' });
      assert.equal(haproxy.status, 0, `${haproxy.stdout}${haproxy.stderr}`);
      assert.match(readFileSync(join(run, 'haproxy.cfg'), 'utf8'), /server backend-2 127\.0\.0\.1:18082\n/);
    } finally {
      rmSync(run, { recursive: true, force: true });
    }
  });

  test('the Envoy template renders into a config that envoy --mode validate accepts, round robin over the three backends', () => {
    const manifest = loadManifest(ROOT, 'gateways');
    const run = mkdtempSync(join(tmpdir(), 'benchline-gateways-envoy-'));
    try {
      const vars = { dir: manifest.dir, run, ports: { backend1: 18081, backend2: 18082, backend3: 18083, gateway: 18080 }, tool: (n) => locate(n).path, env: {} };
      const t = manifest.processes.envoy.templates[0];
      writeFileSync(substitute(t.to, vars, 'envoy'), substitute(readFileSync(join(manifest.dir, t.from), 'utf8'), vars, t.from));
      const text = readFileSync(join(run, 'envoy.yaml'), 'utf8');
      assert.match(text, /lb_policy: ROUND_ROBIN/);
      assert.match(text, /port_value: 18082/);
      const envoy = spawnSync(locate('envoy').path, ['--mode', 'validate', '-c', join(run, 'envoy.yaml'), '--disable-hot-restart'], { encoding: 'utf8' });
      assert.equal(envoy.status, 0, `${envoy.stdout}${envoy.stderr}`);
      assert.match(`${envoy.stdout}${envoy.stderr}`, /configuration '.*envoy\.yaml' OK/);
    } finally {
      rmSync(run, { recursive: true, force: true });
    }
  });

  test('docker-compose runs the Envoy release measured natively, with a config envoy --mode validate accepts and the native cluster settings', () => {
    const version = versionOf('envoy');
    assert.match(version, /^\d+\.\d+\.\d+$/);
    const image = `envoyproxy/envoy:v${version}`;
    assert.equal(YAML.parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).services.envoy.image, image);
    assert.equal(loadManifest(ROOT, 'gateways').docker.services.envoy.image, image);
    const file = join(ROOT, 'subjects', 'gateways', 'docker', 'envoy.yaml');
    const envoy = spawnSync(locate('envoy').path, ['--mode', 'validate', '-c', file, '--disable-hot-restart'], { encoding: 'utf8' });
    assert.equal(envoy.status, 0, `${envoy.stdout}${envoy.stderr}`);
    assert.match(`${envoy.stdout}${envoy.stderr}`, /configuration '.*envoy\.yaml' OK/);
    const cluster = (text) => {
      const { lb_policy: lb, circuit_breakers: cb, outlier_detection: od } = YAML.parse(text).static_resources.clusters[0];
      return { lb, cb, od };
    };
    const template = readFileSync(join(ROOT, 'subjects', 'gateways', 'envoy.yaml.tmpl'), 'utf8').replace(/\$\{port\.\w+\}/g, '1');
    assert.deepEqual(cluster(readFileSync(file, 'utf8')), cluster(template));
  });

  test('the suite plans nginx, haproxy, bun and envoy, each on the backends plus its gateway, none skipped', () => {
    const jobs = planJobs(config, { suite: ['gateways'] });
    assert.deepEqual(jobs.map((j) => j.id), ['gateways.nginx.wrk.round-robin', 'gateways.haproxy.wrk.round-robin', 'gateways.bun.wrk.round-robin', 'gateways.envoy.wrk.round-robin']);
    assert.deepEqual(jobs.map((j) => j.processes.at(-1)), ['nginx', 'haproxy', 'bun-gateway', 'envoy']);
    assert.deepEqual(jobs.map((j) => Boolean(j.skip)), [false, false, false, false]);
    assert.deepEqual(jobs[0].params, { path: '/', backends: BACKENDS, threads: 2, connections: 50, duration: '3s' });
    assert.deepEqual(planJobs(config, { suite: ['gateways'], profile: 'full' })[0].params, { path: '/', backends: BACKENDS, threads: 8, connections: 150, duration: '30s' });
  });
});

// ---------------------------------------------------------------- the report, from captured wrk outputs

describe('the gateways report', () => {
  test('distribution() sums the per-backend counts of all trials into shares and the largest deviation from 1/3', () => {
    const d = distribution(healthy[0]);
    // nginx trials 1-3: backend-1 32334 + 33437 + 30078, backend-2 32337 + 33441 + 30079, backend-3 32335 + 33438 + 30080.
    assert.deepEqual(d.counts, { 'backend-1': 95849, 'backend-2': 95857, 'backend-3': 95853 });
    assert.equal(d.total, 287559);
    assert.equal(d.trials, 3);
    assert.equal(d.shares['backend-2'], 95857 / 287559);
    assert.equal(d.maxDeviation, Math.abs(95849 / 287559 - 1 / 3) * 3);
    assert.equal(d.even, true);
  });

  test('render() reproduces the seed\'s comparison table: median requests/sec, latency avg and p99, errors with the seed\'s error rate', () => {
    const text = render({ suite: 'gateways', docs: healthy, config });
    assert.match(text, /wrk debian\/4\.1\.0-3\+b2: 2 threads, 50 connections, 3s per trial, 1s warm-up, 3 trials per gateway/);
    assert.match(text, /\n  Gateway {6}Requests\/sec  95% CI  Latency avg  Latency p99  Errors \(all trials\)  Failed responses\n/);
    assert.match(text, /\n  Nginx {11}32,287\.93   ±6\.9%     1\.528 ms     4\.089 ms {12}0 \(0\.00%\)\n/);
    assert.match(text, /\n  HAProxy {9}27,840\.88  ±19\.1%     1\.856 ms     4\.684 ms {12}0 \(0\.00%\)\n/);
    assert.match(text, /\n  Bun gateway {5}12,310\.77  ±24\.1%     3\.021 ms     12\.45 ms {12}0 \(0\.00%\)\n/);
    // The median of 97006 / 3.004404 s, 100316 / 3.100054 s and 90237 / 3.002971 s.
    const nginx = model({ suite: 'gateways', docs: healthy, config }).gateways[0];
    assert.equal(nginx.throughput, 97006 / 3.004404);
    assert.equal(nginx.errors, 0);
  });

  test('the interval column names the confidence the run used: 90% CI under compare.confidence 0.9', () => {
    const at90 = ['nginx', 'haproxy', 'bun'].map((v) => docFrom(v, trials(v), RUN, { confidence: 0.9 }));
    assert.match(render({ suite: 'gateways', docs: at90, config }), /\n {2}Gateway +Requests\/sec +90% CI +Latency avg /);
    assert.match(markdown({ suite: 'gateways', docs: at90, config }), /\| Gateway \| Requests\/sec \| 90% CI \|/);
    assert.match(render({ suite: 'gateways', docs: healthy, config }), /\n {2}Gateway +Requests\/sec +95% CI +Latency avg /);
  });

  test('render() shows each gateway\'s share per backend, its max deviation and a ✓ for an even split', () => {
    const text = render({ suite: 'gateways', docs: healthy, config });
    assert.match(text, /\n  Nginx {8}33\.33% \(95,849\)  33\.33% \(95,857\)  33\.33% \(95,853\) {10}0\.00% {11}✓\n/);
    assert.match(text, /\n  HAProxy {6}33\.33% \(82,082\)  33\.33% \(82,079\)  33\.33% \(82,079\) {10}0\.00% {11}✓\n/);
    assert.match(text, /\n  Bun gateway  33\.33% \(40,060\)  33\.33% \(40,058\)  33\.33% \(40,059\) {10}0\.00% {11}✓\n/);
  });

  test('render() names no winner from three trials a gateway: they cannot show a significant difference, so all are tied', () => {
    const text = render({ suite: 'gateways', docs: healthy, config });
    assert.match(text, /Performance Results Summary:\n\n🏆 Nginx: 32287\.93 RPS \(tied\)\n🏆 HAProxy: 27840\.88 RPS \(tied\)\n🏆 Bun gateway: 12310\.77 RPS \(tied\)\n/);
    assert.match(text, /\nNo winner: Nginx, HAProxy and Bun gateway are tied: 3 trials a gateway cannot show a significant difference; run 4 or more\.\n/);
    assert.doesNotMatch(text, /Winner\)/);
  });

  test('rankTiers() separates gateways only where Mann-Whitney over five trials each says the throughput differs', () => {
    const g = (label, samples) => ({ label, throughputMetric: { samples } });
    const tiers = rankTiers([g('A', [105, 106, 107, 108, 109]), g('B', [100, 101, 102, 103, 104]), g('C', [99, 103.5, 100.5, 104.5, 101.5])]);
    // A vs B: every A trial above every B trial, exact p = 2/252 = 0.0079; C overlaps B completely (p = 0.84).
    assert.deepEqual(tiers.map((t) => t.members.map((m) => m.label)), [['A'], ['B', 'C']]);
    assert.ok(Math.abs(tiers[1].p - 2 / 252) < 1e-12);
    assert.equal(rankTiers([g('A', [5, 6, 7]), g('B', [1, 2, 3])]).length, 1, 'three trials a side can never reach p < 0.05');
  });

  test('render() gives no lower medal to a gateway the trials cannot tell apart from one ranked above it (five trials of each gateway from one quick run)', () => {
    const five = (v) => [1, 2, 3, 4, 5].map((i) => `gateways-tiers-${v}-${i}`);
    const docs = ['nginx', 'haproxy', 'bun', 'envoy'].map((v) => docFrom(v, five(v)));
    const m = model({ suite: 'gateways', docs, config });
    // HAProxy leads; Nginx is within reach of HAProxy, and the Bun gateway of Nginx, so neither starts a lower tier.
    assert.deepEqual(m.ranking.map((g) => [g.label, g.medal]), [['HAProxy', '🏆'], ['Nginx', '🏆'], ['Bun gateway', '🏆'], ['Envoy', '🏆']]);
    const text = render({ suite: 'gateways', docs, config });
    assert.doesNotMatch(text, /🥈/);
    assert.match(text, /\nNo winner: HAProxy, Nginx, Bun gateway and Envoy cannot be ranked: each is within what the trials can tell apart of one ranked above it \(Mann-Whitney against HAProxy: Nginx p = 0\.15; against Nginx: Bun gateway p = 0\.22; against Bun gateway: Envoy p = 0\.06; significant below 0\.05\), though HAProxy is ahead of Bun gateway \(p = 0\.032\), HAProxy is ahead of Envoy \(p = 0\.008\), Nginx is ahead of Envoy \(p = 0\.008\)\.\n/);
  });

  test('render() checks the seed\'s ranking (Envoy, Nginx, BunGate) pair by pair and says where ours runs the other way (five trials of each gateway from one quick run)', () => {
    const five = (v) => [1, 2, 3, 4, 5].map((i) => `gateways-tiers-${v}-${i}`);
    const docs = ['nginx', 'haproxy', 'bun', 'envoy'].map((v) => docFrom(v, five(v)));
    const text = render({ suite: 'gateways', docs, config });
    // Nginx beat Envoy in all five trials (exact p = 2/252); the Bun gateway's lead over Envoy and Nginx's over it are not significant.
    assert.match(text, /\nThe seed's ranking \(Envoy, Nginx, BunGate\) does not reproduce: Envoy over Nginx: [\d,.]+ vs [\d,.]+ RPS, opposite \(p = 0\.008\); Envoy over Bun gateway: [\d,.]+ vs [\d,.]+ RPS, opposite, not significant \(p = 0\.0\d\d\); Nginx over Bun gateway: [\d,.]+ vs [\d,.]+ RPS, same order, not significant \(p = 0\.\d+\)\.\n/);
    assert.match(markdown({ suite: 'gateways', docs, config }), /\nThe seed's ranking \(Envoy, Nginx, BunGate\) does not reproduce: /);
    // Three trials a gateway and no Envoy: the pair left is shown, untested.
    assert.match(render({ suite: 'gateways', docs: healthy, config }), /\nThe seed's ranking \(Nginx, BunGate\) shows in our medians, but the trials do not settle it: Nginx over Bun gateway: 32,287\.93 vs 12,310\.77 RPS, same order, not significant \(too few trials to test\)\.\n/);
  });

  test('render() names the winner when the first gateway is significantly ahead and says which ones are tied below it', () => {
    const five = (base) => [0, 1, 2, 3, 4].map((i) => base + i * 10);
    const docs = ['nginx', 'haproxy', 'bun'].map((v, i) => {
      const d = structuredClone(healthy[i]);
      const tp = d.metrics.find((m) => m.name === 'throughput');
      tp.samples = five([40000, 20000, 20005][i]);
      tp.value = tp.samples[2];
      return d;
    });
    const text = render({ suite: 'gateways', docs, config });
    assert.match(text, /🏆 Nginx: 40020\.00 RPS \(Winner\)\n🥈 Bun gateway: 20025\.00 RPS \(tied\)\n🥈 HAProxy: 20020\.00 RPS \(tied\)\n/);
    assert.match(text, /\nBun gateway and HAProxy are tied: their throughputs differ by less than the trials can tell apart \(Mann-Whitney against Bun gateway: HAProxy p = 0\.\d\d; significant below 0\.05\)\.\n/);
  });

  test('the report says the Bun gateway stands in for BunGate, which was not measured', () => {
    assert.match(render({ suite: 'gateways', docs: healthy, config }), /\nThe Bun gateway \(subjects\/gateways\/gateway\.js, round robin on Bun\.serve and fetch\) stands in for BunGate: the BunGate library is not available from the npm registry here, so BunGate itself was not measured\.\n/);
  });

  test('no gateway is ranked when wrk used all of its core: the figures are wrk\'s ceiling', () => {
    const docs = healthy.map((h) => ({ ...structuredClone(h), load: [1, 2, 3].map(() => ({ seconds: 3, tool: 0.97, subject: 0.9, other: 0.05, toolCores: 1 })) }));
    const text = render({ suite: 'gateways', docs, config });
    assert.match(text, /\nNo ranking: the load tool was the bottleneck \(Nginx: wrk used 0\.97 of its 1 core; HAProxy: wrk used 0\.97 of its 1 core; Bun gateway: wrk used 0\.97 of its 1 core\), so these figures are wrk's ceiling, not the gateways'\.\n/);
    assert.doesNotMatch(text, /🏆/);
  });

  test('a backend stopped mid-trial shows as errors and a failed even split for that gateway, which loses its medal while the others keep theirs', () => {
    const docs = [docFrom('nginx', ['gateways-nginx-1', 'gateways-nginx-backend-down', 'gateways-nginx-3']), healthy[1], healthy[2]];
    const text = render({ suite: 'gateways', docs, config });
    // 18,856 of the 90,383 requests of the backend-down trial were nginx's 502s; the other two trials had none.
    assert.match(text, /\n  Nginx {11}30,099\.81   ±7\.3%     1\.646 ms     4\.089 ms       18,856 \(6\.79%\) {8}502×18,856\n/);
    const nginx = model({ suite: 'gateways', docs, config }).gateways[0];
    assert.equal(nginx.errorRate, 18856 / (97006 + 90383 + 90237));
    const d = distribution(docs[0]);
    assert.deepEqual(d.counts, { 'backend-1': 32334 + 30127 + 30078, 'backend-2': 32337 + 11272 + 30079, 'backend-3': 32335 + 30128 + 30080 });
    assert.equal(d.maxDeviation, Math.abs(73688 / 258770 - 1 / 3) * 3);
    assert.equal(d.even, false);
    assert.match(text, /\n  Nginx {8}35\.76% \(92,539\)  28\.48% \(73,688\)  35\.76% \(92,543\) {9}14\.57% {11}✗\n/);
    assert.match(text, /🏆 HAProxy: 27840\.88 RPS \(tied\)\n🏆 Bun gateway: 12310\.77 RPS \(tied\)\n✗ Nginx: 30099\.81 RPS \(not ranked: 18,856 errors\)\n/);
  });

  test('a gateway without a result is listed with the reason from run.json, or as missing when there is no run', () => {
    const run = { jobs: [{ suite: 'gateways', variant: 'envoy', tool: 'wrk', status: 'skipped', reason: 'no Envoy here' }] };
    assert.match(render({ suite: 'gateways', docs: healthy, config, run }), /Not measured\n  Envoy: skipped: no Envoy here\n/);
    assert.match(render({ suite: 'gateways', docs: healthy, config }), /  Envoy: missing: no result document in this run/);
  });

  test('a gateway measured alone, the others failed or missing, is named with its figure but not crowned winner of a race it ran alone', () => {
    const run = { jobs: ['haproxy', 'bun'].map((variant) => ({ suite: 'gateways', variant, tool: 'wrk', status: 'failed', reason: 'port in use' })) };
    const text = render({ suite: 'gateways', docs: healthy.slice(0, 1), config, run });
    assert.match(text, /\nNginx: \d+\.\d\d RPS \(the only gateway ranked, so no winner\)\n/);
    assert.doesNotMatch(text, /Winner|🏆/);
    assert.match(text, /  HAProxy: failed: port in use\n/);
  });

  test('a gateway the run did not select is "not selected", not "missing", beside the failed ones (a real run.json of nginx and bun)', () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'runs', 'gateways-wrk-timeout', 'run.json'), 'utf8'));
    const text = render({ suite: 'gateways', docs: [], config, run });
    assert.match(text, /\nNot measured\n {2}Nginx: failed: wrk did not finish within 1 s \(trial 1, local\); it was stopped\n {2}HAProxy: not selected: this run did not include it \(--variant or --job\)\n {2}Bun gateway: failed: .*\n {2}Envoy: not selected: /);
    assert.doesNotMatch(text, /missing/);
  });

  test('a gateway whose job failed is listed with the runner\'s reason and the others are still ranked', () => {
    const run = { jobs: [{ suite: 'gateways', variant: 'nginx', tool: 'wrk', status: 'failed', reason: 'gateways/backend-2 (local) died during trial 3 (exit SIGTERM)' }] };
    const text = render({ suite: 'gateways', docs: healthy.slice(1), config, run });
    assert.match(text, /  Nginx: failed: gateways\/backend-2 \(local\) died during trial 3 \(exit SIGTERM\)\n/);
    assert.match(text, /🏆 HAProxy: 27840\.88 RPS \(tied\)\n🏆 Bun gateway: 12310\.77 RPS \(tied\)\n/);
    assert.doesNotMatch(text, /🥉/);
  });

  test('a backend that answered nothing at all is shown at 0 % and fails the even split', () => {
    const doc = structuredClone(healthy[2]);
    doc.notes = doc.notes.map((n) => n.replace(/, backend-3 \d+$/, ''));
    const d = distribution(doc);
    assert.equal(d.shares['backend-3'], 0);
    assert.deepEqual(d.missing, ['backend-3']);
    assert.equal(d.even, false);
    assert.match(render({ suite: 'gateways', docs: [doc], config }), /0\.00% \(0\) +100\.00% +✗ \(backend-3 got nothing\)\n/);
  });

  test('with a base, the report gives each gateway\'s change, interval and verdict for throughput, latency and errors', () => {
    const base = ['nginx', 'haproxy', 'bun'].map((v) => docFrom(v, trials(v), { ...RUN, role: 'base' }));
    const head = ['nginx', 'haproxy', 'bun'].map((v) => docFrom(v, trials(v), { ...RUN, role: 'head' }));
    const comparisons = compare(base, head, config.compare);
    const text = render({ suite: 'gateways', docs: head, config, comparisons });
    // The same three trials on both sides: no change in any median, but three paired rounds can never be significant,
    // so throughput is inconclusive; p99 moved by less than wrk's step of 1 µs in every round, below its resolution;
    // the rest are information.
    assert.match(text, /Against base: no regression shown, 3 inconclusive\n/);
    assert.ok(text.includes([
      '  Nginx          throughput   +0.0%               –      inconclusive',
      '  Nginx        latency.mean   +0.0%               –       information',
      '  Nginx         latency.p99   +0.0%               –  below resolution',
      '  Nginx              errors   +0.0%  [+0.0%, +0.0%]       information',
      '  HAProxy        throughput   +0.0%               –      inconclusive',
    ].join('\n')), text);
    const nginx = comparisons.comparisons.find((c) => c.variant === 'nginx' && c.metric === 'throughput');
    assert.match(nginx.reason, /^3 rounds can never be significant/);
  });

  test('markdown() gives the same tables as GitHub markdown and escapes labels that come from the config', () => {
    const cfg = structuredClone(config);
    cfg.suites.gateways.variants.nginx.description = 'Nginx <b>|x|</b>';
    const md = markdown({ suite: 'gateways', docs: healthy, config: cfg });
    assert.match(md, /^\| Gateway \| Requests\/sec \| 95% CI \| Latency avg \| Latency p99 \| Errors \(all trials\) \| Failed responses \|$/m);
    assert.match(md, /^\| Nginx &lt;b&gt;\\\|x\\\|&lt;\/b&gt; \| 32,287\.93 \|/m);
    assert.match(md, /^- 🏆 Nginx &lt;b&gt;\\\|x\\\|&lt;\/b&gt;: 32287\.93 RPS \(tied\)$/m);
    assert.match(md, /^- 🏆 HAProxy: 27840\.88 RPS \(tied\)$/m);
    assert.match(md, /^- Envoy: missing: no result document/m);
  });

  test('wrkOutputs() collects every trial\'s full wrk output per gateway for the detailed-results artifact', () => {
    const files = Object.fromEntries(trials('nginx').map((n, i) => [`raw/local/gateways.nginx.wrk.round-robin/trial-${i + 1}.stdout.txt`, readFileSync(join(FIX, `${n}.txt`), 'utf8')]));
    const text = wrkOutputs({ suite: 'gateways', docs: [healthy[0]], config }, (p) => {
      if (!files[p]) throw new Error('ENOENT');
      return files[p];
    });
    assert.match(text, /^═══ Nginx · trial 1 of 3 · raw\/local\/gateways\.nginx\.wrk\.round-robin\/trial-1\.stdout\.txt ═══\nRunning 3s test @ http:\/\/127\.0\.0\.1:\d+\/\n/);
    assert.equal(text.match(/Requests\/sec:/g).length, 3);
    assert.match(text, /Requests\/sec: +32287\.93/);
  });

  test('bench writes every trial\'s full wrk output into gateways-wrk-output.txt beside the report, as the seed\'s detailed results', async (t) => {
    const { writeReports } = await import('../ci/commands/bench.js');
    const { reportData } = await import('../ci/commands/report.js');
    const root = mkdtempSync(join(tmpdir(), 'benchline-gateways-outputs-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const rawDir = join(root, 'raw', 'local', 'gateways.nginx.wrk.round-robin');
    mkdirSync(rawDir, { recursive: true });
    mkdirSync(join(root, 'docs', 'local'), { recursive: true });
    trials('nginx').forEach((n, i) => writeFileSync(join(rawDir, `trial-${i + 1}.stdout.txt`), readFileSync(join(FIX, `${n}.txt`), 'utf8')));
    writeFileSync(join(root, 'docs', 'local', 'nginx.json'), JSON.stringify(healthy[0]));
    writeFileSync(join(root, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'r1', jobs: [{ id: 'gateways.nginx.wrk.round-robin', suite: 'gateways', variant: 'nginx', tool: 'wrk', scenario: 'round-robin', status: 'ok', docs: { local: 'docs/local/nginx.json' } }] }));
    const { texts } = await writeReports(root, reportData(root, config));
    assert.match(texts.suite, /all of it in gateways-wrk-output\.txt after npm run bench/);
    const text = readFileSync(join(root, 'gateways-wrk-output.txt'), 'utf8');
    assert.match(text, /^═══ Nginx · trial 1 of 3 · raw\/local\/gateways\.nginx\.wrk\.round-robin\/trial-1\.stdout\.txt ═══\n/);
    assert.equal(text.match(/Requests\/sec:/g).length, 3);
  });
});

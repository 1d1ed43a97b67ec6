#!/usr/bin/env node
// Measures the verdict detector on this machine: false alarms in A/A runs, detection of known slowdowns in A/B runs,
// with and without a seeded noisy neighbour, and prints the table of rates.
//
//   node scripts/detector-rates.js [--case NAME ...] [--runs N] [--neighbour on|off|both] [--seed S] [--shield] [--param k=v ...]
//                                  [--looks 10,20,40] [--pinning auto|off] [--restart auto|round|never] [--duet auto|never] [--keep]
//                                  [--work-iters N | --work-us US]
// (--param passes job parameters to every bench, e.g. --param duration=1s to try shorter trials in more rounds;
// --keep leaves each case's copy with its results folders, reports and comment.md in place;
// --looks 10,20,40 sets compare.rounds.looks in the copy, committed so base and head share it; --pinning, --restart
// and --duet set defaults.pinning, compare.restart and compare.duet the same way, to measure what core pinning, fresh
// processes and duet rounds pay)
// The A/B cases' slowdown is orders-api's WORK_ITERS knob: a count of integer steps every request runs (work.js), which
// costs CPU as the request's own work does, so a neighbour taking part of the core slows both alike and the share the
// knob adds holds. It is sized from probe trials (taken before the neighbour starts) and from what a step costs here
// (work.js, the fastest of 7 timings); --work-iters gives the count instead, e.g. sized on a quiet machine. --work-us
// uses the older WORK_US knob, a spin of that many microseconds on the clock: it costs the same wall time however much
// CPU the server gets, so its share of a request changes with what else runs (measured: -4.3 to -5.5% shielded, -6.9%
// beside other work at equal weight, for the same 7 µs).
//
// Cases (default: all):
//   aa-wrk         A/A, orders-api cache-off wrk: any regression or improvement is a false alarm
//   aa-startup     A/A, the orders-startup suite (hyperfine start-to-healthy, both variants)
//   aa-k6          A/A, orders-api k6 at a fixed rate, both variants (the tail percentiles are the noisiest judged metrics)
//   ab-wrk-5       head's orders-api made slower by the WORK_ITERS knob, sized for a 5% wrk throughput loss
//   ab-wrk-3       the same, sized for 3%
//   ab-k6-5        the knob sized for a 5% rise of k6 fixed-rate p50 latency (cache-off)
//   ab-ab-5        the knob sized for a 5% loss of ab throughput (cache-off, no keep-alive, time-limited: duets)
//   aa-suite       A/A of the whole default suite: a run with any flagged metric is a false alarm; also the share
//                  of judged metrics that end "no change" (inconclusive ones whose load tool sat at its ceiling are
//                  counted apart: no number of rounds can make them "no change" on this machine)
// The neighbour (started by this script, seed printed): one core busy in bursts of 0.5-5 s with idle gaps of
// 0.5-5 s, half a core on average. --shield (root, cgroup v1 or v2 cpu controller): this script, the benchmark and
// the neighbour run in a cgroup with 256x the CPU weight of everything else, so other work on a shared development
// machine does not add to the defined neighbour; say so when quoting the figures.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scriptArgs } from './args.js';

const CASES = ['aa-wrk', 'aa-startup', 'aa-k6', 'ab-wrk-5', 'ab-wrk-3', 'ab-k6-5', 'ab-ab-5', 'aa-suite'];
const o = scriptArgs(import.meta.url, {
  case: { type: 'string', multiple: true, default: CASES },
  runs: { type: 'string', default: '10' },
  neighbour: { type: 'string', default: 'on' },
  seed: { type: 'string', default: String(Date.now() % 100000) },
  shield: { type: 'boolean', default: false },
  param: { type: 'string', multiple: true, default: [] },
  keep: { type: 'boolean', default: false },
  looks: { type: 'string' },
  pinning: { type: 'string' },
  restart: { type: 'string' },
  duet: { type: 'string' },
  'work-us': { type: 'string' },
  'work-iters': { type: 'string' },
});
const extra = o.param.flatMap((p) => ['--param', p]);
const fixedUs = o['work-us'] === undefined ? null : Number(o['work-us']);
const fixedIters = o['work-iters'] === undefined ? null : Number(o['work-iters']);
const refuse = (m) => { console.error(`detector-rates: ${m}`); process.exit(2); };
if (fixedUs !== null && !(fixedUs > 0)) refuse(`--work-us ${o['work-us']}: give a number of microseconds above 0`);
if (fixedIters !== null && !(Number.isInteger(fixedIters) && fixedIters > 0)) refuse(`--work-iters ${o['work-iters']}: give a whole number of steps above 0`);
if (fixedUs !== null && fixedIters !== null) refuse('--work-us and --work-iters: give one knob, not both');
for (const c of o.case) if (!CASES.includes(c)) refuse(`--case ${c}: choose from ${CASES.join(', ')}`);
const runs = Number(o.runs);
const root = resolve(new URL('..', import.meta.url).pathname);
const say = (m) => process.stdout.write(`${m}\n`);

/** Moves this process into a high-weight cgroup (children inherit it); returns a description or null. */
function shield() {
  const v1 = '/sys/fs/cgroup/cpu';
  const v2 = '/sys/fs/cgroup/cgroup.controllers';
  try {
    if (existsSync(v2) && readFileSync(v2, 'utf8').includes('cpu')) {
      const dir = '/sys/fs/cgroup/benchline-detector';
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.weight'), '10000');
      writeFileSync(join(dir, 'cgroup.procs'), String(process.pid));
      return 'cgroup v2, cpu.weight 10000 (others 100)';
    }
    if (existsSync(join(v1, 'cpu.shares'))) {
      const dir = join(v1, 'benchline-detector');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.shares'), '262144');
      writeFileSync(join(dir, 'cgroup.procs'), String(process.pid));
      return 'cgroup v1, cpu.shares 262144 (others 1024)';
    }
  } catch (e) {
    return `not shielded (${e.message.split('\n')[0]})`;
  }
  return 'not shielded (no cpu cgroup controller)';
}

const neighbours = new Set();
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    for (const n of neighbours) n.kill('SIGKILL');
    process.exit(130);
  });
}

/** The seeded neighbour: a child process that busy-loops one core in bursts (killed with this script). */
function startNeighbour(seed) {
  const code = `let x=${seed};const r=()=>{x=(x*1103515245+12345)%2147483648;return x/2147483648};
(async()=>{for(;;){const b=500+r()*4500,t=Date.now();while(Date.now()-t<b){}await new Promise(f=>setTimeout(f,500+r()*4500));}})();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  neighbours.add(child);
  return child;
}

/** A committed copy of the project (tracked files only) sharing node_modules, so worktrees work. */
function copyProject() {
  const dir = mkdtempSync(join(tmpdir(), 'benchline-detector-'));
  execFileSync('git', ['clone', '-q', root, dir]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function bench(dir, args) {
  const out = join(dir, 'results');
  const started = Date.now();
  const r = spawnSync(process.execPath, ['ci/cli.js', 'bench', '--no-publish', '--no-progress', '--out', out, ...extra, ...args], { cwd: dir, encoding: 'utf8' });
  const seconds = (Date.now() - started) / 1000;
  const last = join(out, readdirSync(out).filter((d) => d !== 'latest').sort().at(-1));
  const file = join(last, 'comparisons.json');
  const cmp = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  if (args.includes('--base') && !cmp) throw new Error(`bench wrote no comparisons.json (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  return { code: r.status, comparisons: cmp?.comparisons || [], last, seconds };
}

/** Sets orders-api's knob `name` (WORK_ITERS or WORK_US) to `value` in the copy's subject.yaml. */
function setKnob(dir, name, value) {
  const f = join(dir, 'subjects/orders-api/subject.yaml');
  const text = readFileSync(f, 'utf8');
  const next = text.replace(new RegExp(`${name}: "[^"]*"`), `${name}: "${value}"`);
  if (next === text) throw new Error(`${f}: no ${name} line to set`);
  writeFileSync(f, next);
}

/** Nanoseconds one WORK_ITERS step takes on this machine (subjects/orders-api/work.js, the fastest of 7 timings). */
function stepNs(dir) {
  const r = spawnSync(join(dir, 'node_modules', '.bin', 'bun'), [join(dir, 'subjects/orders-api/work.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`timing a WORK_ITERS step failed (exit ${r.status}): ${r.stderr || r.error?.message}`);
  return JSON.parse(r.stdout).nsPerStep;
}

/** Adds `line` at the top of the copy's `section:` in bench.config.yaml and commits it, so base and head share it. */
function setConfig(dir, section, line) {
  const f = join(dir, 'bench.config.yaml');
  const text = readFileSync(f, 'utf8');
  const next = text.replace(new RegExp(`^${section}:\\n`, 'm'), `${section}:\n  ${line}\n`);
  if (next === text) throw new Error(`${f}: no ${section}: section to set ${line} in`);
  writeFileSync(f, next);
  execFileSync('git', ['-c', 'user.email=detector@localhost', '-c', 'user.name=detector', 'commit', '-qam', `detector: ${line}`], { cwd: dir });
}

/** compare.rounds.looks of the copy (weights: equal shares but the last, which takes half). */
function setLooks(dir, looks) {
  const weights = looks.map((_, i) => (i === looks.length - 1 ? 0.5 : 0.5 / (looks.length - 1)));
  setConfig(dir, 'compare', `rounds: { looks: [${looks.join(', ')}], weights: [${weights.join(', ')}] }`);
}

const ONE = {
  wrk: ['--suite', 'orders-api', '--variant', 'cache-off', '--tool', 'wrk'],
  k6: ['--suite', 'orders-api', '--variant', 'cache-off', '--tool', 'k6'],
  ab: ['--suite', 'orders-api', '--variant', 'cache-off', '--tool', 'ab', '--scenario', 'no-keepalive'],
  startup: ['--suite', 'orders-startup'],
};
/** What an A/A case runs, by its tool part; A/B cases run ONE's cache-off job. */
const AA = { ...ONE, k6: ['--suite', 'orders-api', '--tool', 'k6'] };
const samplesOf = (doc, name) => doc.metrics.find((m) => m.name === name && !m.case).samples;

/**
 * Microseconds of request work that make the probe's metric `change` worse: throughput of a saturated single thread, or p50 latency.
 * Throughput from the best of 5 probe trials alone: a busy host only slows a trial, and a knob sized on a slowed one
 * is too large for the rounds that follow (a duet side gets half the core, which leaves the ratio as it is). p50 from
 * the median head side of 5 A/A duet rounds: a fixed-rate request's latency is its service time plus what the other
 * side and the neighbour make it wait, so a knob sized on the fastest trial alone raised the judged p50 by 2.5-4%
 * instead of 5% at 500 req/s.
 */
function knobFor(dir, tool, change) {
  const duet = tool === 'k6';
  const probe = bench(dir, [...ONE[tool], '--trials', '5', ...(duet ? ['--base', 'HEAD'] : [])]);
  const docs = join(probe.last, 'docs', duet ? 'head' : 'local');
  const doc = JSON.parse(readFileSync(join(docs, readdirSync(docs)[0]), 'utf8'));
  if (!duet) {
    // A single-threaded server at saturation: 1/T = 1/T0 + w, so w = (1/(1-s) - 1) / T0.
    const t0 = Math.max(...samplesOf(doc, 'throughput'));
    return { us: ((1 / (1 - change) - 1) / t0) * 1e6, probe: `throughput ${Math.round(t0)} req/s` };
  }
  const p50 = median(samplesOf(doc, 'latency.p50'));
  return { us: (p50 * change) / 1000, probe: `p50 ${(p50 / 1e6).toFixed(3)} ms (median of 5 duet rounds)` };
}

/** The A/B case's knob: { name, value, note }, given (--work-iters, --work-us) or sized by knobFor in counted steps. */
function knobOf(dir, tool, change) {
  if (fixedUs !== null) return { name: 'WORK_US', value: fixedUs, note: `knob given (--work-us); WORK_US=${fixedUs}` };
  if (fixedIters !== null) return { name: 'WORK_ITERS', value: fixedIters, note: `knob given (--work-iters); WORK_ITERS=${fixedIters}` };
  const { us, probe } = knobFor(dir, tool, change);
  const ns = stepNs(dir);
  const value = Math.max(1, Math.round((us * 1000) / ns));
  return { name: 'WORK_ITERS', value, note: `${probe}; ${us.toFixed(2)} µs at ${ns.toFixed(3)} ns a step: WORK_ITERS=${value}` };
}

/** A comparison's name in the campaign's lines: variant/tool/scenario/metric (and its case). */
const label = (c) => [c.variant, c.tool, c.scenario, c.case, c.metric].filter(Boolean).join('/');
const judged = (cs) => cs.filter((c) => c.judged && c.verdict && c.verdict !== 'below resolution');
const flagged = (cs) => judged(cs).filter((c) => c.verdict === 'regression' || c.verdict === 'improvement');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

function runCase(name, neighbourOn, seed) {
  const dir = copyProject();
  const rows = { name, neighbour: neighbourOn ? 'on' : 'off', runs: 0, hits: 0, changes: [], rounds: [], seconds: [], verdicts: {}, open: {}, note: '' };
  let neighbour;
  try {
    if (o.looks) setLooks(dir, o.looks.split(',').map(Number));
    if (o.pinning) setConfig(dir, 'defaults', `pinning: ${o.pinning}`);
    if (o.restart) setConfig(dir, 'compare', `restart: ${o.restart}`);
    if (o.duet) setConfig(dir, 'compare', `duet: ${o.duet}`);
    const [kind, tool, pctText] = name.split('-');
    if (kind === 'ab') {
      const knob = knobOf(dir, tool, Number(pctText) / 100);
      setKnob(dir, knob.name, knob.value);
      rows.note = knob.note;
    }
    if (neighbourOn) neighbour = startNeighbour(seed);
    for (let i = 0; i < (name === 'aa-suite' ? Math.max(1, Math.ceil(runs / 2)) : runs); i += 1) {
      const args = name === 'aa-suite' ? ['--base', 'HEAD'] : [...(kind === 'aa' ? AA : ONE)[tool], '--base', 'HEAD'];
      const { comparisons, seconds } = bench(dir, args);
      rows.runs += 1;
      rows.seconds.push(seconds);
      for (const c of judged(comparisons)) {
        const v = c.verdict === 'inconclusive' && /^the load tool was the bottleneck/.test(c.reason) ? 'inconclusive (load tool at its ceiling)' : c.verdict;
        rows.verdicts[v] = (rows.verdicts[v] || 0) + 1;
      }
      let line;
      if (kind === 'aa') {
        const f = flagged(comparisons);
        if (f.length) rows.hits += 1;
        // which metrics stayed open, so a campaign's summary can say what keeps it from "no change"
        const open = judged(comparisons).filter((c) => c.verdict === 'inconclusive');
        for (const c of open) rows.open[label(c)] = (rows.open[label(c)] || 0) + 1;
        const same = judged(comparisons).filter((c) => c.verdict === 'no change').length;
        line = `${judged(comparisons).length} judged, ${same} no change, ${f.length} flagged${f.length ? ` (${f.map((c) => `${label(c)} ${c.verdict}`).join(', ')})` : ''}${open.length ? `; inconclusive: ${open.map(label).join(', ')}` : ''}`;
      } else {
        const metric = tool === 'k6' ? 'latency.p50' : 'throughput';
        const c = comparisons.find((x) => x.metric === metric && !x.case);
        if (c.verdict === 'regression') rows.hits += 1;
        rows.changes.push(c.change);
        line = `${metric} ${(c.change * 100).toFixed(1)}% [${(c.lower * 100).toFixed(1)}%, ${(c.upper * 100).toFixed(1)}%] p=${c.p?.toPrecision(2)} ${c.head.n} rounds${c.disturbed ? ` (${c.disturbed} disturbed)` : ''} -> ${c.verdict}`;
      }
      rows.rounds.push(Math.max(0, ...comparisons.map((c) => c.head?.n || 0)));
      say(`  ${name} neighbour ${rows.neighbour} run ${i + 1}: ${line} (${seconds.toFixed(0)} s)`);
    }
  } finally {
    if (neighbour) neighbour.kill('SIGKILL');
    if (o.keep) say(`  kept ${dir}`); else rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const seed = Number(o.seed);
say(`detector-rates ${new Date().toISOString()} on ${cpus().length} x ${cpus()[0]?.model?.trim()}; neighbour seed ${seed}${o.param.length ? `; params ${o.param.join(' ')}` : ''}${o.looks ? `; looks ${o.looks}` : ''}${o.pinning ? `; pinning ${o.pinning}` : ''}${o.restart ? `; restart ${o.restart}` : ''}${o.duet ? `; duet ${o.duet}` : ''}`);
if (o.shield) say(`shield: ${shield()}`);
const settings = o.neighbour === 'both' ? [true, false] : [o.neighbour !== 'off'];
const table = [];
for (const name of o.case) for (const on of settings) table.push(runCase(name, on, seed));

say('\n| case | neighbour | runs | reported | median change | median rounds | median time | judged verdicts | note |');
say('|---|---|---:|---:|---:|---:|---:|---|---|');
for (const r of table) {
  const what = r.name.startsWith('aa') ? `${r.hits}/${r.runs} runs with a false alarm` : `${r.hits}/${r.runs} regressions`;
  const total = Object.values(r.verdicts).reduce((a, b) => a + b, 0);
  const mix = Object.entries(r.verdicts).map(([v, n]) => `${v} ${((100 * n) / total).toFixed(0)}%`).join(', ');
  const open = Object.entries(r.open).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}/${r.runs}`).join(', ');
  if (open) r.note = [r.note, `inconclusive: ${open}`].filter(Boolean).join('; ');
  say(`| ${r.name} | ${r.neighbour} | ${r.runs} | ${what} | ${r.changes.length ? `${(median(r.changes) * 100).toFixed(1)}%` : '–'} | ${median(r.rounds)} | ${median(r.seconds).toFixed(0)} s | ${mix} | ${r.note} |`);
}

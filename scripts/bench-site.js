#!/usr/bin/env node
// Scale benchmark of the history site: generates N runs x S series, times the site build and the page in Chromium.
//
//   node scripts/bench-site.js [--runs 8760] [--series 500] [--hours 1] [--dir /tmp/benchline-bench-site] [--keep]
//
// --runs runs of main, one every --hours hours; --series metrics per run (ten per job, so jobs = series / 10: the
// five default jobs, then copies of them in suites named <suite>-2, <suite>-3, ...). The default is a year of
// hourly pushes across 500 series (ten suites of 50 metrics). Ends with the targets (first build under 5 s, rebuild
// after one more run under 1 s, overview plus one trend chart under 1 s in Chromium, site under 250 MiB) and
// whether this run met them; exits 2 when one was missed, so a scheduled job can watch them. Beside the first build's
// target it prints what no first build can go below on this machine (reading and parsing every stored file, creating as
// many files as the build created), so a miss can be told apart as the code's or the machine's.
// Builds with a store cache beside the site (benchline site --cache) and rebuilds with --verify, as the publish job does:
// after each of three more runs, twice in this process and once in a new one (`benchline site`), the slowest counting.
// Months older than the retention window are written as compaction writes them (archive/<month>.json, folded
// with the store's own functions) instead of publishing 50,000 documents one fsync at a time; the newest
// 90 days go through publish() as `npm run bench` does, so publish throughput is measured too.
import { closeSync, mkdirSync, openSync, rmSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { scriptArgs } from './args.js';
import { publish, DEFAULT_POLICY, ensureStore } from '../ci/store/store.js';
import { emptyArchive, foldDoc, indexArchive } from '../ci/store/archive.js';
import { listFiles, writeReplace } from '../ci/store/files.js';
import { syntheticDocs, DEFAULT_JOBS } from '../ci/store/synthetic.js';
import { buildSite } from '../ci/store/site.js';
import { serveStatic } from '../ci/store/serve.js';
import { launchChromium } from '../ci/store/browser.js';

const args = scriptArgs(import.meta.url, {
  runs: { type: 'string', default: '8760' },
  series: { type: 'string', default: '500' },
  hours: { type: 'string', default: '1' },
  dir: { type: 'string', default: join(tmpdir(), 'benchline-bench-site') },
  keep: { type: 'boolean', default: false },
});
const RUNS = Number(args.runs);
const SERIES = Number(args.series);
const EVERY = Number(args.hours) * 3600e3;
for (const [flag, v] of [['--runs', RUNS], ['--series', SERIES], ['--hours', EVERY]]) {
  if (!(v > 0) || (flag === '--series' && (!Number.isInteger(v / 10)))) {
    console.error(`bench-site: ${flag} must be a positive number${flag === '--series' ? ' and a multiple of 10 (ten metrics per job)' : ''}`);
    process.exit(2);
  }
}
/** SERIES / 10 jobs: the default five, then the same five again under suite names with a number. */
const JOBS = Array.from({ length: SERIES / 10 }, (_, k) => {
  const j = DEFAULT_JOBS[k % DEFAULT_JOBS.length];
  const copy = Math.floor(k / DEFAULT_JOBS.length);
  return copy ? { ...j, suite: `${j.suite}-${copy + 1}` } : j;
});
const CLI = fileURLToPath(new URL('../ci/cli.js', import.meta.url));
const store = join(args.dir, 'store');
const out = join(args.dir, 'site');
// the parsed store the publish job keeps beside the site (benchline site --cache)
const cache = join(args.dir, 'site-cache');

const size = (dir) => {
  let total = 0;
  let files = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else {
        total += statSync(join(d, e.name)).size;
        files += 1;
      }
    }
  };
  walk(dir);
  return { mb: Number((total / 1024 ** 2).toFixed(1)), files };
};
const log = (...m) => console.log(...m);
// runs held back from the generated history: two rebuilt in this process, the last in a new one as the publish job runs it
const LATER = 3;
/** Result documents of the runs held back from the generated history, by run id, oldest first. */
const later = new Map();

async function generate() {
  rmSync(args.dir, { recursive: true, force: true });
  mkdirSync(args.dir, { recursive: true });
  await ensureStore(store);
  const start = Date.UTC(2024, 0, 1);
  const newest = start + (RUNS - 1) * EVERY;
  const cutoffMonth = new Date(newest - DEFAULT_POLICY.keepDays * 86400e3).toISOString().slice(0, 7);
  const steps = [{ from: Math.floor(RUNS * 0.7), job: 'orders-api.cache-on', metric: 'throughput', factor: 0.9 }];
  const archives = new Map();
  const recent = [];
  const t0 = performance.now();
  // more runs than the history holds: each rebuild below first publishes one of them, as a push to main does
  const firstLater = new Date(start + RUNS * EVERY).toISOString();
  for (const doc of syntheticDocs({ runs: RUNS + LATER, jobs: JOBS, start, every: EVERY, steps, distributions: true })) {
    if (doc.run.startedAt >= firstLater) {
      if (!later.has(doc.run.id)) later.set(doc.run.id, []);
      later.get(doc.run.id).push(doc);
      continue;
    }
    const month = doc.run.startedAt.slice(0, 7);
    if (month < cutoffMonth) {
      if (!archives.has(month)) {
        const a = emptyArchive(month, DEFAULT_POLICY);
        archives.set(month, { a, idx: indexArchive(a) });
      }
      const { a, idx } = archives.get(month);
      foldDoc(a, idx, doc, DEFAULT_POLICY.digits);
    } else {
      recent.push(doc);
    }
  }
  for (const [month, { a }] of archives) writeReplace(join(store, 'archive', `${month}.json`), `${JSON.stringify(a)}\n`, { sync: true });
  const t1 = performance.now();
  const r = await publish({ store, docs: recent });
  const t2 = performance.now();
  if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('\n'));
  log(`history: ${RUNS} runs x ${JOBS.length * 10} metrics (${RUNS * JOBS.length} result documents), one run every ${args.hours} h`);
  log(`  ${archives.size} archived months written in ${Math.round(t1 - t0)} ms; ${r.added} recent documents published in ${Math.round(t2 - t1)} ms (${Math.round(r.added / ((t2 - t1) / 1000))} docs/s, compaction included)`);
  const s = size(store);
  log(`  store: ${s.mb} MiB in ${s.files} files`);
}

// CPU time beside wall time: on a shared machine wall time grows with the neighbours' load, CPU time much less.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

async function timeBuild() {
  let c0 = cpuMs();
  let result = await buildSite({ store, out, basePath: '/benchline/', cache });
  const first = result.ms;
  const times = [`${first} ms into an empty folder (bundling the page and writing the store cache included; ${Math.round(cpuMs() - c0)} ms CPU)`];
  const floor = await firstBuildFloor({ site: listFiles(out), cache: listFiles(cache) });
  const rebuilds = [];
  const held = [...later.values()];
  for (const [k, docs] of held.entries()) {
    await publish({ store, docs });
    if (k === held.length - 1) {
      rebuilds.push(rebuildInNewProcess(times));
      continue;
    }
    // as the publish job does: the previous site restored from the cache, every kept file's content checked
    c0 = cpuMs();
    result = await buildSite({ store, out, basePath: '/benchline/', verify: true, cache });
    rebuilds.push(result.ms);
    const cpu = Math.round(cpuMs() - c0);
    const writtenMiB = (result.written.reduce((sum, f) => sum + statSync(join(out, f)).size, 0) / 1024 ** 2).toFixed(1);
    times.push(`${result.ms} ms after publishing one more run (${result.appended ? 'appended to the last build\'s snapshot' : 'laid out in full'}, ${result.read} run folders read, ${result.written.length} files written (${writtenMiB} MiB), verify on; ${cpu} ms CPU)`);
  }
  const s = size(out);
  log(`  store cache: ${size(cache).mb} MiB in ${size(cache).files} files (kept beside the site, not deployed)`);
  log(`site build: ${times.join(', ')}; ${result.series} series, ${result.runs} runs, ${result.pages} files, ${s.mb} MiB`);
  for (const f of ['data/index.js', 'data/runs.js']) log(`  ${f}: ${(statSync(join(out, f)).size / 1024).toFixed(0)} KiB`);
  return { first, floor, rebuild: Math.max(...rebuilds), mib: s.mb };
}

/**
 * A rebuild as the publish job runs it, `benchline site --cache --verify` in a process of its own (so nothing of the
 * builder is warm), from a folder without a config or a git remote, as the builds above have none. Adds its line to
 * `times` and returns the build's own milliseconds, as the CLI prints them.
 */
function rebuildInNewProcess(times) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  const t = performance.now();
  const p = spawnSync(process.execPath, [CLI, 'site', '--store', resolve(store), '--out', resolve(out), '--cache', resolve(cache), '--base-path', '/benchline/', '--verify'], { cwd: resolve(args.dir), env, encoding: 'utf8' });
  const wall = Math.round(performance.now() - t);
  const ms = Number(/ in (\d+) ms\n/.exec(p.stdout || '')?.[1]);
  if (p.status !== 0 || !ms) throw new Error(`benchline site exited with ${p.status}: ${p.stderr || p.stdout}`);
  const how = /; (\d+ run folders? read, [^)]*)\)/.exec(p.stdout)?.[1] ?? '';
  times.push(`${ms} ms in a new process as the publish job runs it (${how}, verify on; ${wall} ms for the whole process, starting node and importing the builder included)`);
  return ms;
}

/** Milliseconds from navigation start to the view's "drawn" mark, and from a click to the next view's mark. */
async function timePage(page, url) {
  const ready = (name) => page.waitForFunction((n) => performance.getEntriesByName(`benchline:${n}`).length > 0, name, { timeout: 30000 });
  await page.goto(url);
  await ready('overview');
  const overview = await page.evaluate(() => performance.getEntriesByName('benchline:overview')[0].startTime);
  const chart = 'orders-api/ab/keepalive/throughput';
  const t = await page.evaluate(() => performance.now());
  await page.evaluate((c) => { location.hash = `#/trend/${encodeURIComponent(c)}`; }, chart);
  await ready('trend');
  const trend = await page.evaluate((t0) => performance.getEntriesByName('benchline:trend')[0].startTime - t0, t);
  const drawn = await page.evaluate(() => window.__benchlineCharts.at(-1));
  return { overview, trend, total: overview + trend, points: drawn.points, markers: drawn.markers };
}

// a thread reading and parsing its share of the store's files, as every first build must (nothing else done with them)
const READER = `const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let bytes = 0;
for (const f of workerData) {
  const text = readFileSync(f, 'utf8');
  JSON.parse(text);
  bytes += text.length;
}
parentPort.postMessage(bytes);`;

/**
 * What a first build of this store cannot go below on this machine, whatever its code: every store file read and
 * parsed in as many threads as the build reads run folders in (site.js, at most four), and the files the build created
 * (`made`: folder -> its files) created again, empty, in folders of the same names (a new file's cost is the file
 * system's work, which more threads do not share out). Returns { files, readMs, created, createMs, threads }.
 */
async function firstBuildFloor(made) {
  const paths = listFiles(store).filter((rel) => rel.endsWith('.json')).map((rel) => join(store, rel));
  const threads = Math.min(availableParallelism(), 4);
  let t = performance.now();
  await Promise.all(Array.from({ length: threads }, (_, k) => new Promise((done, fail) => {
    const w = new Worker(READER, { eval: true, workerData: paths.filter((_, i) => i % threads === k) });
    w.once('message', done);
    w.once('error', fail);
  })));
  const readMs = performance.now() - t;
  const scratch = join(args.dir, 'create-test');
  let created = 0;
  t = performance.now();
  for (const [dir, rels] of Object.entries(made)) {
    for (const rel of rels) {
      const path = join(scratch, dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      closeSync(openSync(path, 'wx'));
      created += 1;
    }
  }
  const createMs = performance.now() - t;
  rmSync(scratch, { recursive: true, force: true });
  return { files: paths.length, readMs: Math.round(readMs), created, createMs: Math.round(createMs), threads };
}

const TARGETS = { buildMs: 5000, rebuildMs: 1000, pageMs: 1000, siteMiB: 250 };

async function main() {
  await generate();
  const build = await timeBuild();
  const pageTotals = [];
  const server = await serveStatic(out, { prefix: '/benchline/' });
  const browser = await launchChromium();
  try {
    for (const [label, url] of [['http (Pages-like sub-path)', server.url], ['file://', `file://${out}/index.html`]]) {
      const results = [];
      for (let i = 0; i < 3; i += 1) {
        const page = await browser.context.newPage();
        results.push(await timePage(page, url));
        await page.close();
      }
      pageTotals.push(...results.map((r) => r.total));
      const fmt = (k) => results.map((r) => Math.round(r[k])).join('/');
      log(`chromium ${browser.version}, ${label}: overview ${fmt('overview')} ms, trend chart ${fmt('trend')} ms, overview + trend ${fmt('total')} ms (3 loads; ${results[0].points} points, ${results[0].markers} change points drawn)`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (!args.keep) rmSync(args.dir, { recursive: true, force: true });
  else log(`kept ${args.dir}`);
  // the slowest page load counts: a target met only on a warm second load is not met
  const page = Math.round(Math.max(...pageTotals));
  const verdicts = [
    ['first site build', build.first, TARGETS.buildMs, 'ms'],
    ['rebuild after one more run, slowest', build.rebuild, TARGETS.rebuildMs, 'ms'],
    ['overview + trend chart, slowest load', page, TARGETS.pageMs, 'ms'],
    ['site size', build.mib, TARGETS.siteMiB, 'MiB'],
  ].map(([what, value, target, unit]) => ({ what, value, target, unit, met: value < target }));
  for (const v of verdicts) log(`target: ${v.what} under ${v.target} ${v.unit}: ${v.value} ${v.unit}, ${v.met ? 'met' : 'MISSED'}`);
  const f = build.floor;
  const least = f.readMs + f.createMs;
  log(`  no first build of this store goes below ${least} ms on this machine: reading and parsing its ${f.files} files took ${f.readMs} ms in ${f.threads} threads, creating the ${f.created} files it created ${f.createMs} ms (${(f.createMs / f.created).toFixed(2)} ms a file); the first build took ${(build.first / least).toFixed(1)}x that${least >= TARGETS.buildMs ? ', and its target is below it' : ''}`);
  if (verdicts.some((v) => !v.met)) process.exitCode = 2;
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});

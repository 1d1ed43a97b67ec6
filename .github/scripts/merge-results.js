#!/usr/bin/env node
// Merges the results folders of a workflow's matrix jobs (one run each) into one run, so reports see the whole PR.
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../ci/fsutil.js';

/**
 * Pure: run.json documents of the jobs -> the merged run.json. The id keeps benchline's sortable
 * `<UTC time>-<hex>` shape: the earliest start, and a hash of all ids so re-running the merge is stable.
 */
export function mergeRuns(runs) {
  if (!runs.length) throw new Error('no run.json found: did the bench jobs upload their results?');
  const sorted = [...runs].sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const first = sorted[0];
  const hash = createHash('sha256').update(sorted.map((r) => r.id).join('\n')).digest('hex').slice(0, 6);
  const time = /^(\d{8}T\d{6}Z)-/.exec(first.id)?.[1] || String(first.startedAt || '').replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const seen = new Map();
  const jobs = [];
  for (const r of sorted) {
    for (const j of r.jobs || []) {
      if (seen.has(j.id)) throw new Error(`job ${j.id} appears in runs ${seen.get(j.id)} and ${r.id}; each matrix job must upload its own results`);
      seen.set(j.id, r.id);
      jobs.push(j);
    }
  }
  const merged = {
    ...first,
    id: `${time}-${hash}`,
    startedAt: sorted.map((r) => r.startedAt).filter(Boolean).sort()[0] ?? first.startedAt,
    finishedAt: sorted.map((r) => r.finishedAt).filter(Boolean).sort().at(-1) ?? first.finishedAt,
    jobs: jobs.sort((a, b) => a.id.localeCompare(b.id)),
  };
  const base = sorted.find((r) => r.base)?.base;
  if (base) merged.base = base;
  merged.mergedFrom = sorted.map((r) => r.id);
  return merged;
}

/** Every run.json under `dir` (artifact folders hold `<runId>/run.json`); links are skipped, as `latest` is one. */
export function findRunFiles(dir, depth = 4) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isFile() && name === 'run.json') out.push(p);
    if (st.isDirectory() && depth > 0 && name !== 'docs' && name !== 'raw') out.push(...findRunFiles(p, depth - 1));
  }
  return out.sort();
}

/** Copies every job's docs/ and raw/ into `<out>/<mergedId>/`, rewrites the run id, points `latest` at it. */
export function mergeResultsDirs(inDir, outDir) {
  if (!existsSync(inDir)) throw new Error(`${inDir}: no such folder (download the results-* artifacts into it first)`);
  const files = findRunFiles(inDir);
  const runs = files.map((f) => {
    try {
      return { ...JSON.parse(readFileSync(f, 'utf8')), dir: join(f, '..') };
    } catch (e) {
      throw new Error(`${f}: not valid JSON (${e.message}); it should be a run.json written by benchline run`);
    }
  });
  const merged = mergeRuns(runs.map(({ dir, ...run }) => run));
  const target = join(outDir, merged.id);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const r of runs) {
    for (const sub of ['docs', 'raw']) {
      if (existsSync(join(r.dir, sub))) cpSync(join(r.dir, sub), join(target, sub), { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    }
  }
  // Reports and the history group documents by run id: one workflow run is one run.
  const docsDir = join(target, 'docs');
  if (existsSync(docsDir)) {
    for (const role of readdirSync(docsDir)) {
      for (const name of readdirSync(join(docsDir, role)).filter((n) => n.endsWith('.json'))) {
        const p = join(docsDir, role, name);
        const doc = JSON.parse(readFileSync(p, 'utf8'));
        if (doc.run) doc.run.id = merged.id;
        writeFileAtomic(p, `${JSON.stringify(doc, null, 2)}\n`);
      }
    }
  }
  writeFileAtomic(join(target, 'run.json'), `${JSON.stringify(merged, null, 2)}\n`);
  const latest = join(outDir, 'latest');
  rmSync(latest, { force: true });
  symlinkSync(merged.id, latest);
  return { dir: target, run: merged, sources: files.map((f) => relative(inDir, f)) };
}

function main([inDir, outDir] = process.argv.slice(2)) {
  if (!inDir || !outDir) {
    process.stderr.write('usage: merge-results.js <artifacts-dir> <results-dir>\n');
    return 2;
  }
  try {
    const r = mergeResultsDirs(inDir, outDir);
    process.stderr.write(`merge-results: ${r.sources.length} run(s), ${r.run.jobs.length} job(s) -> ${r.dir}\n`);
    process.stdout.write(`dir=${r.dir}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`merge-results: ${e.message}\n`);
    return 2;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();

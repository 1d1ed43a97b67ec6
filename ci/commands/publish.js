// `benchline publish <paths...>`: appends result documents and job failures to the history store, then compacts it.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { publish } from '../store/store.js';

/** One line per outcome, so a CI log says what the store gained. */
export function summary(result, store) {
  const lines = [`benchline publish: ${result.added} added, ${result.skipped} already in ${store}`];
  if (result.duets) lines.push(`  ${result.duets} left out: A/B results measured as duets (each side beside the other, about half of a run alone) are no trend point; run one side (no --base) for the history`);
  const c = result.compacted;
  if (c?.months.length) lines.push(`  compacted ${c.months.join(', ')}: ${c.folded} documents folded into archive/, ${c.removed} removed from runs/`);
  if (c?.leftovers) lines.push(`  removed ${c.leftovers} temp file${c.leftovers === 1 ? '' : 's'} a stopped publish left behind`);
  for (const p of c?.problems || []) lines.push(`  skipped ${p.message}`);
  return lines.join('\n');
}

export default async function publishCommand(opts) {
  const store = resolve(opts.store);
  if (existsSync(store) && !statSync(store).isDirectory()) {
    process.stderr.write(`benchline publish: ${opts.store}: is a file, not a history store folder; pass a folder (it is created when missing)\n`);
    return 2;
  }
  let result;
  try {
    result = await publish({ store, files: opts.args });
  } catch (e) {
    // a store path that cannot be made or written: the CLI names the path and what is wrong with it (cli.js)
    if (e.syscall && e.path) throw e;
    process.stderr.write(`benchline publish: ${e.message}\n`);
    return e.exitCode || 1;
  }
  process.stdout.write(`${summary(result, opts.store)}\n`);
  for (const e of result.errors) process.stderr.write(`benchline publish: not published: ${e.message}\n`);
  return result.errors.length ? 2 : 0;
}

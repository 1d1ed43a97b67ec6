// `benchline publish <paths...>`: appends result documents and job failures to the history store, then compacts it.
import { resolve } from 'node:path';
import { publish } from '../store/store.js';
import { onFirstSignal, sayOnStop, signalExit, whileListening } from '../live.js';

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
  // a store path that is a file, or under one, is refused by publish (storePlaceProblem) before anything is written
  const store = resolve(opts.store);
  // a signal stops the publish at the next document and exits as the signal says: each document is written whole and
  // compaction runs under the store's lock, archive first, so what is there stays readable, and publishing the same
  // results again adds the rest; the lock goes with the process
  const onSignal = onFirstSignal((sig) => {
    sayOnStop(`\nbenchline publish: ${sig}: stopped; what was published so far is in ${opts.store}, and publishing the same results again adds the rest\n`);
    process.exit(signalExit(sig));
  });
  let result;
  try {
    result = await whileListening(onSignal, () => publish({ store, files: opts.args }));
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

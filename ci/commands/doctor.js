// `benchline doctor`: every tool, its version, where it came from and whether this project's config needs it, as a table.
import Table from 'cli-table3';
import { doctorRows, TOOLS_DIR } from '../tools.js';
import { loadConfig } from '../config.js';
import { planJobs, toolsFor } from '../plan.js';
import { ADAPTERS } from '../adapters/index.js';
import { loadManifest, toolsOfManifest } from '../subjects.js';

/** Tools the config's jobs (every suite) and their subjects' manifests use: a Set, or an Error saying why it is not known. */
function neededTools(configFile) {
  try {
    const config = loadConfig(configFile);
    const jobs = planJobs(config, { suite: Object.keys(config.suites) });
    const subjects = [...new Set(jobs.map((j) => j.subject))];
    return new Set([...toolsFor(jobs, ADAPTERS), ...subjects.flatMap((s) => toolsOfManifest(loadManifest(config.root, s)))]);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

export default function doctor(opts) {
  const needed = neededTools(opts.config);
  const known = !(needed instanceof Error);
  // what the project uses first; the others serve benchline's own suites and checks
  const rows = doctorRows().map((r) => ({ ...r, needed: known && needed.has(r.tool) }))
    .sort((a, b) => Number(b.needed) - Number(a.needed));
  const plain = !process.stdout.isTTY || process.env.NO_COLOR;
  const table = new Table({ head: ['tool', 'needed', 'version', 'source', 'path'], ...(plain ? { style: { head: [], border: [] } } : {}) });
  for (const r of rows) table.push([r.tool, known ? (r.needed ? 'yes' : '') : '?', r.version, r.source, r.path]);
  console.log(table.toString());
  console.log(known
    ? `needed: by the jobs of every suite in ${opts.config} or by their subjects' manifests (${rows.filter((r) => r.needed).length} of ${rows.length}); a missing one is installed when a run needs it`
    : `needed: not known, ${opts.config} could not be read (${needed.message.split('\n')[0]})`);
  console.log(`tools built by benchline live in ${TOOLS_DIR}`);
  return 0;
}

// `benchline bench` (npm run bench): run, compare against --base, report, publish locally, build the site.
import { basename, dirname, join, relative, resolve } from 'node:path';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { runSelected, runExitCode } from './run.js';
import { reportData, renderReport, loadSuiteRenderer, suiteInput } from './report.js';
import { renderExport } from '../reports/exports.js';
import { UserError } from '../errors.js';
import { writeFileAtomic, writeJsonAtomic } from '../fsutil.js';
import { SIGNALS, onFirstSignal, sayOnStop, signalExit } from '../live.js';

// the exports a run writes beside its reports, and the file each goes into
const EXPORTS = ['bmf', 'gab-smaller', 'gab-bigger'];
const exportFile = (format) => `export-${format}.json`;

/**
 * Writes every report of a run into its folder; returns { texts: { console, suite, comment, summary } for the terminal,
 * unexported: [line] } where each line names an export the run's metrics cannot be written in and why (a format's own
 * limits, as a Bencher measure holding two units), or a file a suite's report adds that is not written and why (a name
 * with a folder in it or taken, content not text, its plots() or outputs() failing): the other reports still are.
 */
export async function writeReports(dir, data) {
  const texts = {};
  for (const [format, file] of [['console', 'report.txt'], ['suite', 'suite-report.txt'], ['comment', 'comment.md'], ['summary', 'summary.md']]) {
    texts[format] = await renderReport(format, data);
    writeFileAtomic(join(dir, file), texts[format]);
  }
  const unexported = [];
  for (const format of EXPORTS) {
    const file = join(dir, exportFile(format));
    let text;
    try {
      text = renderExport(data.docs, format);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      unexported.push(`${file} not written: ${e.message}`);
      continue;
    }
    writeFileAtomic(file, text);
  }
  if (data.comparisons) writeJsonAtomic(join(dir, 'comparisons.json'), data.comparisons);
  // the run's own files and the reports above are never replaced by a file a suite's report adds
  const taken = new Set([...readdirSync(dir), 'comparisons.json', ...EXPORTS.map(exportFile)]);
  for (const suite of new Set(data.docs.map((d) => d.suite))) {
    const mod = await loadSuiteRenderer(data.config, suite);
    const name = `${data.config.suites?.[suite]?.report} (suite ${suite})`;
    // A suite renderer may draw figures: plots() gives [{ file, title, svg }] to write beside the report, and outputs()
    // texts built from the run folder's files (read(path), a path relative to the folder).
    const read = (p) => readFileSync(join(dir, p), 'utf8');
    for (const [hook, key, call] of [['plots', 'svg', () => mod.plots(suiteInput(data, suite))], ['outputs', 'text', () => mod.outputs(suiteInput(data, suite), read)]]) {
      if (typeof mod?.[hook] !== 'function') continue;
      let files;
      try {
        files = call();
        if (!Array.isArray(files)) throw new Error(`it returned ${files === null ? 'null' : typeof files}, not a list of { file, ${key} }`);
      } catch (e) {
        unexported.push(`${name}: ${hook}() failed, so none of its files is written: ${e.message}`);
        continue;
      }
      for (const entry of files) {
        const problem = extraFileProblem(entry?.file, entry?.[key], key, taken);
        if (problem) {
          unexported.push(`${name}: ${hook}() ${problem}`);
          continue;
        }
        taken.add(entry.file);
        writeFileAtomic(join(dir, entry.file), entry[key]);
      }
    }
  }
  return { texts, unexported };
}

/**
 * Why a file a suite's report adds cannot be written into the run folder, or undefined: its name must be a plain file
 * name (no folder in it, at most 255 bytes) that no file of the run, report or earlier added file has, its content text.
 */
function extraFileProblem(file, content, key, taken) {
  if (typeof file !== 'string' || !file || file === '.' || file === '..' || /[/\\\0]/.test(file)) {
    return `file ${JSON.stringify(file) ?? String(file)} not written: give a file name without a folder (it is written into the run folder)`;
  }
  if (Buffer.byteLength(file) > 255) return `file ${file.slice(0, 40)}… not written: its name is ${Buffer.byteLength(file)} bytes, longer than the 255 a file name can be`;
  if (taken.has(file)) return `file ${file} not written: the run folder has a file of that name already (benchline's own, or one written before it): name it otherwise`;
  if (typeof content !== 'string') return `file ${file} not written: its ${key} is ${content === null ? 'null' : typeof content}, not text`;
  return undefined;
}

export default async function bench(opts) {
  // once the run is written, a signal stops the reports, publish or site build it interrupts, says what is where, and
  // exits as the signal says; the runner hands its signals over to this handler as it ends, so none is lost between
  const rel = (p) => relative(process.cwd(), p) || '.';
  let dir;
  const onSignal = onFirstSignal((sig) => {
    sayOnStop(dir
      ? `\nbenchline: ${sig}: stopped after the run; its results are in ${rel(dir)}. Publishing is idempotent: \`benchline publish\` of that folder adds what the history lacks, and the next site build mends the site\n`
      : `\nbenchline: ${sig}: stopped\n`);
    process.exit(signalExit(sig));
  });
  // a history folder that cannot be a store is said before the run, not after it
  if (opts.publish !== false && opts.history) {
    const { storePlaceProblem } = await import('../store/store.js');
    const place = storePlaceProblem(resolve(dirname(resolve(opts.config || 'bench.config.yaml')), opts.history));
    if (place) throw new UserError(`--history ${place}`);
  }
  try {
    const ran = await runSelected({ ...opts, onSignalAfter: onSignal });
    dir = ran.dir;
    return await afterRun(opts, { ...ran, rel });
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }
}

/**
 * Where bench builds the site of a history folder: beside a folder named history (.benchline/site by default), else
 * `<history>-site`, so `--history /tmp/x` never writes /tmp/site.
 */
export const siteFolderOf = (store) => (basename(store) === 'history' ? join(dirname(store), 'site') : `${store}-site`);

/** Reports, the local history and the site, once the run is written. */
async function afterRun(opts, { dir, run, config, rel }) {
  const data = reportData(dir, config, { seed: opts.seed });
  const { texts, unexported } = await writeReports(dir, data);
  // The suites' own reports after the console one; generic suite tables are in the console report already.
  const own = await renderReport('suite', data, { generic: false });
  process.stdout.write(own ? `${texts.console}\n${own}` : texts.console);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, texts.summary);
  process.stdout.write(`\nresults: ${rel(dir)} (report.txt, suite-report.txt, comment.md, summary.md, exports)\n`);
  if (opts.publish !== false) {
    const { publish } = await import('../store/publish.js');
    const store = resolve(config.root, opts.history || config.defaults.history);
    const r = await publish({ store, files: [dir] });
    process.stdout.write(`history: ${rel(store)} (${r.added} added, ${r.skipped} already there${r.duets ? `, ${r.duets} duet results left out: measured beside the other side, not a run alone` : ''}${r.errors?.length ? `, ${r.errors.length} refused` : ''})\n`);
    if (opts.site !== false) {
      const { buildSite } = await import('../store/site.js');
      const { repoUrlFrom } = await import('./site.js');
      const out = siteFolderOf(store);
      const s = await buildSite({ store, out, basePath: './', config, repoUrl: repoUrlFrom(process.env), log: (m) => process.stderr.write(`benchline: site: ${m}\n`) });
      process.stdout.write(`site: open ${join(rel(out), 'index.html')} (${s.series} series, built in ${Math.round(s.ms)} ms)\n`);
    }
  }
  // said last, where it is seen, once the history and site hold the run: an export missing is an error of its own
  for (const line of unexported) process.stderr.write(`benchline bench: ${line}\n`);
  const regressions = data.comparisons?.counts?.regression || 0;
  if (opts.failOnRegression && regressions) return 1;
  return unexported.length ? 2 : runExitCode(run);
}

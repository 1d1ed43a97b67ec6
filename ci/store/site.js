// Builds the static history site from the store: page code bundled from reports-site/, data files from the store.
import { existsSync, lstatSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readStore } from './store.js';
import { buildModel } from './model.js';
import { dataScript, dataScriptFromJson, siteData } from './site-data.js';
import { loadReportModules, suiteReportPages } from './suite-pages.js';
import { INDEX_PATH, RUNS_PATH } from './paths.js';
import { listFiles, pruneEmptyDirs, writeReplace } from './files.js';
import { insideDir } from '../names.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE_SRC = join(ROOT, 'reports-site');
const MANIFEST = '.benchline-site.json';

// The compare view bundles ci/compare.js, which reads each tool's judged metrics from its adapter; a few adapters
// import node:path for building commands, which the page never does. Node built-ins become an empty module there,
// so such a call would fail loudly instead of the bundle failing to build.
const nodeBuiltinsStub = {
  name: 'node-builtins-stub',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

let bundled;
/** The page's code as one classic script (modules do not load from file://), bundled once per process. */
async function bundle() {
  if (bundled) return bundled;
  const esbuild = await import('esbuild');
  const r = await esbuild.build({
    entryPoints: [join(SITE_SRC, 'src', 'main.js')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [nodeBuiltinsStub],
  });
  // Resolved like an import: installed as a dependency, uplot sits in the adopting project's node_modules, not ours.
  const css = readFileSync(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), 'utf8') + readFileSync(join(SITE_SRC, 'style.css'), 'utf8');
  bundled = { js: r.outputFiles[0].text, css };
  return bundled;
}

/**
 * What a previous build wrote: { files, hashes (path -> sha1 of the content) }, so a rebuild removes what no
 * longer exists and leaves unchanged files alone, without touching anything else in `out`.
 */
function previousBuild(out) {
  try {
    const m = JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'));
    return { files: Array.isArray(m.files) ? m.files : [], hashes: m.hashes && typeof m.hashes === 'object' ? m.hashes : {} };
  } catch {
    return { files: [], hashes: {} };
  }
}

/** Size of a file in bytes, or -1 when it is not there. */
function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

/**
 * Builds the site. store: history store folder; out: site folder; basePath: the URL path (or full URL)
 * the site is served under, used by the feed's links (the page itself uses relative links only).
 * Optional: config (loaded bench.config.yaml: suite descriptions, variant order, compare thresholds),
 * repoUrl (commit links), title, log. verify: `out` came from elsewhere (a CI cache): a file is left alone only when
 * its content hashes as this build's would, and files no build of ours wrote are removed, so the result is exactly
 * what a build into an empty folder gives.
 * Returns { pages (files in the site), unchanged (of those, left as the last build wrote them), removed, series, runs, charts, problems, ms, out }.
 */
export async function buildSite({ store, out, basePath = './', config, repoUrl = null, title, changeOptions, verify = false, log = () => {} } = {}) {
  const t0 = performance.now();
  const contents = readStore(store);
  for (const p of contents.problems) log(`skipped ${p.message}`);
  const model = buildModel({ docs: contents.docs.map((d) => d.doc), failures: contents.failures.map((f) => f.rec), archives: contents.archives.map((a) => a.archive) });
  const generatedAt = new Date().toISOString();
  // each suite's own report of its newest run, as a page; its module may also lay out the variant view
  const modules = await loadReportModules(config);
  for (const [suite, mod] of Object.entries(modules)) if (mod instanceof Error) log(`suite ${suite}: no report page: ${mod.message}`);
  const reports = suiteReportPages(modules, { docs: contents.docs.map((d) => d.doc), failures: contents.failures.map((f) => f.rec), config });
  const columns = Object.fromEntries(Object.entries(modules).filter(([, m]) => typeof m?.sideBySide === 'function').map(([suite, m]) => [suite, m.sideBySide]));
  const data = siteData(model, { config, repoUrl, basePath, problems: contents.problems, policy: contents.policy, generatedAt, title, changeOptions, reports: reports.pages, columns });
  data.index.build = createHash('sha256').update(generatedAt).digest('hex').slice(0, 12);
  const code = await bundle();

  // most of a rebuild's files (past runs, archived months) are as the last build wrote them: those are not
  // rewritten, which on a large history is most of the writing (and of the pages branch's churn)
  const previous = previousBuild(out);
  const files = [];
  const hashes = {};
  let unchanged = 0;
  const sha1 = (text) => createHash('sha1').update(text).digest('hex');
  const same = (path, hash, text) => {
    if (!verify) return sizeOf(path) === Buffer.byteLength(text);
    try {
      const st = lstatSync(path); // a link is never kept: it could point anywhere
      return st.isFile() && st.size === Buffer.byteLength(text) && sha1(readFileSync(path)) === hash;
    } catch {
      return false;
    }
  };
  const put = (rel, text) => {
    const hash = sha1(text);
    const path = join(out, rel);
    if (previous.hashes[rel] === hash && same(path, hash, text)) unchanged += 1;
    else writeReplace(path, text);
    files.push(rel);
    hashes[rel] = hash;
  };
  put('index.html', readFileSync(join(SITE_SRC, 'index.html'), 'utf8'));
  put('app.js', code.js);
  put('app.css', code.css);
  // the page bundles paths.js; the verbatim copy lets other readers of the site find series the same way
  put('paths.js', readFileSync(join(ROOT, 'ci', 'store', 'paths.js'), 'utf8'));
  put('.nojekyll', '');
  put('feed.xml', data.feed);
  put(INDEX_PATH, dataScript(INDEX_PATH, data.index));
  put(RUNS_PATH, dataScript(RUNS_PATH, data.runsTable));
  for (const f of data.seriesFiles) put(f.path, dataScript(f.path, f.payload));
  for (const f of data.runFiles) put(f.path, dataScript(f.path, f.payload));
  for (const f of reports.files) put(f.path, f.text ?? dataScript(f.path, f.payload));
  // archived months go out as stored: their JSON text is already the payload
  const storedText = new Map(contents.archives.map((a) => [a.archive, a.text]));
  for (const f of data.archiveFiles) {
    const text = storedText.get(f.payload);
    put(f.path, text === undefined ? dataScript(f.path, f.payload) : dataScriptFromJson(f.path, text));
  }

  const now = new Set(files);
  let removed = 0;
  for (const rel of verify ? listFiles(out).filter((f) => f !== MANIFEST) : previous.files) {
    if (now.has(rel)) continue;
    // the manifest is a file in the output folder anyone may edit: only paths inside `out` are ever removed
    const abs = insideDir(out, rel);
    if (abs instanceof Error) {
      log(`not removed: ${MANIFEST} lists ${JSON.stringify(String(rel).slice(0, 80))}: ${abs.message}`);
      continue;
    }
    removed += 1;
    if (existsSync(abs)) {
      unlinkSync(abs);
      pruneEmptyDirs(abs, resolve(out));
    }
  }
  writeReplace(join(out, MANIFEST), `${JSON.stringify({ generatedAt, files, hashes })}\n`);
  return { pages: files.length, unchanged, removed, series: data.seriesFiles.length, runs: data.runsTable.id.length, charts: data.index.charts.length, problems: contents.problems, ms: Math.round(performance.now() - t0), out };
}

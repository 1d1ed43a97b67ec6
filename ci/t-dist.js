// Student's t distribution (stdlib's cdf and quantile) from one bundled file, which loads in a few ms where the packages' 410 modules take over 100.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReplace } from './store/files.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The packages the bundle is made from. */
export const T_DIST_PACKAGES = Object.freeze(['@stdlib/stats-base-dists-t-cdf', '@stdlib/stats-base-dists-t-quantile']);

/** The installed packages' names and versions, and esbuild's: what the bundle is made from, and what its file is named by. */
export const tDistVersions = () => [...T_DIST_PACKAGES, 'esbuild'].map((name) => `${name}@${JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version}`).join(' ');

/**
 * Where the bundle of the installed packages is kept: benchline's cache (BENCHLINE_MODULES, else
 * $XDG_CACHE_HOME/benchline/modules or ~/.cache/benchline/modules), by a hash of tDistVersions, so an update of either
 * package or of esbuild makes a new one.
 */
export function tDistBundlePath() {
  const dir = process.env.BENCHLINE_MODULES || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'benchline', 'modules');
  return join(dir, `t-dist-${createHash('sha256').update(tDistVersions()).digest('hex').slice(0, 16)}.cjs`);
}

/** The bundle's text, made from the installed packages now (esbuild, CommonJS, their license notices kept at its end). */
export function tDistBundleSource() {
  const { buildSync } = require('esbuild');
  const r = buildSync({
    stdin: { contents: `module.exports = { cdf: require('${T_DIST_PACKAGES[0]}'), quantile: require('${T_DIST_PACKAGES[1]}') };\n`, resolveDir: ROOT, sourcefile: 't-dist-entry.cjs', loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    write: false,
    legalComments: 'eof',
    logLevel: 'silent',
  });
  return `// Made by benchline (ci/t-dist.js) from ${tDistVersions()}.\n${r.outputFiles[0].text}`;
}

/**
 * { cdf, quantile }: from the kept bundle, made on first use (about 0.1 s, once per installed version); from the
 * packages themselves when it cannot be made or kept (no esbuild binary, a read-only cache), which is only slower.
 */
function load() {
  const path = tDistBundlePath();
  try {
    return require(path);
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
  }
  try {
    writeReplace(path, tDistBundleSource());
    return require(path);
  } catch {
    return { cdf: require(T_DIST_PACKAGES[0]), quantile: require(T_DIST_PACKAGES[1]) };
  }
}

export const { cdf, quantile } = load();

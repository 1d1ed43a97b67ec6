// `benchline site`: builds the static history site from the store and says where to open it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { buildSite } from '../store/site.js';
import { loadConfig } from '../config.js';
import { onFirstSignal, sayOnStop, signalExit, whileListening } from '../live.js';

/**
 * https://host/owner/repo for commit links: GitHub's environment in CI, else the origin remote when it is a forge URL.
 * remote: the remote's URL, or a function giving it, called only without GitHub's environment (asking git takes a
 * process start, which a build in CI spares).
 */
export function repoUrlFrom(env = process.env, remote) {
  if (env.GITHUB_REPOSITORY) return `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}`;
  const url = typeof remote === 'function' ? remote() : remote;
  const m = /^(?:https:\/\/|git@)([^/:]+)[/:]([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url || '');
  return m ? `https://${m[1]}/${m[2]}` : null;
}

const originRemote = () => {
  try {
    return execFileSync('git', ['remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

export default async function siteCommand(opts) {
  const store = resolve(opts.store);
  const out = resolve(opts.out);
  // the config only adds descriptions, variant order and thresholds: a store alone still makes a site
  let config;
  if (existsSync(opts.config || 'bench.config.yaml')) {
    try {
      config = loadConfig(opts.config || 'bench.config.yaml');
    } catch (e) {
      process.stderr.write(`benchline site: ${e.message}\n`);
      return e.exitCode || 2;
    }
  }
  // a signal stops the build where it is and exits as the signal says: the site's manifest says a build was under way,
  // so the next build into it checks every kept file by content and writes the rest (the cache's snapshot went first)
  const onSignal = onFirstSignal((sig) => {
    sayOnStop(`\nbenchline site: ${sig}: stopped; what is in ${opts.out} may be half-built, and the next \`benchline site\` into it checks every file it keeps by content and writes the rest\n`);
    process.exit(signalExit(sig));
  });
  try {
    const r = await whileListening(onSignal, () => buildSite({ store, out, basePath: opts.basePath, verify: opts.verify, cache: opts.cache ? resolve(opts.cache) : null, config, repoUrl: repoUrlFrom(process.env, originRemote), log: (m) => process.stderr.write(`benchline site: ${m}\n`) }));
    const how = opts.cache ? `; ${r.read} run folder${r.read === 1 ? '' : 's'} read, ${r.appended ? 'appended to the last build' : 'the whole store laid out'}` : '';
    process.stdout.write(`benchline site: ${r.pages} files (${r.charts} charts, ${r.series} series, ${r.runs} runs; ${r.written.length} written${how}) in ${r.ms} ms\n  open ${pathToFileURL(resolve(out, 'index.html')).href}\n`);
    return 0;
  } catch (e) {
    // a path that cannot be made or written: the CLI names it and what is wrong with it (cli.js)
    if (e.syscall && e.path) throw e;
    process.stderr.write(`benchline site: ${e.message}\n`);
    return e.exitCode || 1;
  }
}

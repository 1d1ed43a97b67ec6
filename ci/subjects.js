// Subjects under test: reads manifests, fills placeholders, starts processes, waits for health, stops by PID.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, fstatSync, readFileSync, readSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { basename, join, resolve } from 'node:path';
import YAML from 'yaml';
import { UserError, SkipJob } from './errors.js';
import { compileHandWritten, schemaErrorLine, schemaMismatch } from './config.js';
import { locate, TOOLS } from './tools.js';
import { pinGroup } from './cpuset.js';
import { LIVE } from './live.js';
import { makeDirs } from './fsutil.js';
import { shellQuote } from './shell.js';
import { nearMiss } from './spelling.js';

const validateManifest = compileHandWritten('subject');

/** What is wrong with a parsed manifest, one line each (the schema's, then a health check that names no address); empty when none. */
export function manifestProblems(m) {
  if (!validateManifest(m)) {
    return validateManifest.errors.slice(0, 8).map(schemaErrorLine);
  }
  // a port named like a property every object has (__proto__, constructor) would be lost in the ports map; a ${tool.NAME}
  // that is no tool benchline installs would fail the install with a raw error
  const ports = (m.ports || []).filter((p) => p in Object.prototype).map((p) => `/ports: "${p}" is a name every JavaScript object has; give the port another name`);
  const tools = toolsOfManifest(m).filter((t) => !Object.hasOwn(TOOLS, t))
    .map((t) => `\${tool.${t}} names no tool benchline installs; the tools are ${Object.keys(TOOLS).join(', ')} (benchline doctor)`);
  return [...ports, ...tools, ...Object.entries(m.processes || {}).filter(([, p]) => p.health && !p.health.http && !p.health.tcp && !p.health.grpc)
    .map(([name]) => `/processes/${name}/health needs one of http, tcp or grpc (the address to probe)`)];
}

/** Reads subjects/<name>/subject.yaml under `root` (a checkout); a key it does not know or a missing command is an error naming the file. */
export function loadManifest(root, name) {
  const dir = join(root, 'subjects', name);
  const file = join(dir, 'subject.yaml');
  if (!existsSync(file)) throw new UserError(`subject "${name}": ${file} does not exist (each subject needs a subject.yaml, see docs/config.md)`);
  // a pipe or a device would block or never end the read
  if (!statSync(file).isFile()) throw new UserError(`subject "${name}": ${file} is not a regular file; make it the subject's YAML manifest`);
  let m;
  try {
    m = YAML.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: not valid YAML: ${e.message}`);
  }
  if (!m || typeof m !== 'object') throw new UserError(`${file}: empty manifest`);
  const problems = manifestProblems(m);
  if (problems.length) {
    throw new UserError(schemaMismatch(`${file}: does not match the subject manifest schema (docs/config.md, "subjects/<name>/subject.yaml"):`, problems));
  }
  m.processes ||= {};
  m.ports ||= [];
  // messages name the subject: a manifest without a name: is its folder's
  return { ...m, name: m.name || name, dir, file };
}

/** Tool names a manifest refers to with ${tool.NAME}, so they can be installed before it starts. */
export function toolsOfManifest(manifest) {
  const text = JSON.stringify({ build: manifest.build, processes: manifest.processes });
  return [...new Set([...text.matchAll(/\$\{tool\.([\w-]+)\}/g)].map((m) => m[1]))];
}

/** Whether position `at` of a shell command line is inside '...' or "..." quotes. */
function quotedAt(text, at) {
  let quote = null;
  for (let k = 0; k < at; k += 1) {
    const c = text[k];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') k += 1;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
  }
  return quote !== null;
}

/** o[key] when o holds key itself: `constructor` or `toString` is no port, param or variable, not Object's function. */
const ownValue = (o, key) => (o && Object.hasOwn(o, key) ? o[key] : undefined);

/**
 * Replaces ${port.x}, ${tool.x}, ${dir}, ${run}, ${env.X}, ${param.x}; an unknown placeholder is an error. With
 * vars.shell (the text is a shell command line), a path (${dir}, ${run}, ${tool.x}) outside quotes is quoted as
 * one word, so a checkout whose path holds a space still names one file.
 */
export function substitute(text, vars, where) {
  return String(text).replace(/\$\{([\w.-]+)\}/g, (_, key, at, whole) => {
    const [head, ...rest] = key.split('.');
    const name = rest.join('.');
    let value;
    // ${dir.x} is no path in the checkout and ${env} no variable: refused, not read as ${dir} or as empty
    if (head === 'dir' && !rest.length) value = vars.dir;
    else if (head === 'run' && !rest.length) value = vars.run;
    else if (['dir', 'run'].includes(head) || (head === 'env' && !name)) value = undefined;
    else if (head === 'port') value = ownValue(vars.ports, name);
    else if (head === 'tool') value = vars.tool ? vars.tool(name) : undefined;
    else if (head === 'env') value = ownValue(vars.env, name) ?? ownValue(process.env, name) ?? '';
    else if (head === 'param') value = ownValue(vars.params, name);
    if (value === undefined) {
      const known = head === 'port' ? Object.keys(vars.ports ?? {}) : head === 'param' ? Object.keys(vars.params ?? {}) : [];
      const near = ['port', 'param'].includes(head) ? nearMiss(name, known) : nearMiss(head, rest.length ? ['port', 'tool', 'env', 'param'] : ['dir', 'run']);
      const meant = near === undefined ? '' : ['port', 'param'].includes(head) ? `\${${head}.${near}}` : `\${${[near, ...rest].join('.')}}`;
      const why = ['dir', 'run'].includes(head) ? `\${${head}} takes no name after it: write \${${head}}/${name} for a path in that folder`
        : head === 'env' ? 'name the variable: ${env.NAME}'
        : head === 'tool' && vars.tool ? `no tool named ${JSON.stringify(name)}; the tools are ${Object.keys(TOOLS).join(', ')} (benchline doctor)`
        : head === 'port' ? `no port named ${JSON.stringify(name)} here: ${known.length ? `the subject's ports are ${known.join(', ')}` : 'the subject declares no ports'} (ports: in its subject.yaml)${meant && `; did you mean ${meant}?`}`
        : ['tool', 'param'].includes(head) ? `no ${head} named ${JSON.stringify(name)} here${meant && `: did you mean ${meant}?`}`
        : `${meant && `did you mean ${meant}? `}placeholders are \${dir}, \${run}, \${port.NAME}, \${tool.NAME}, \${env.NAME}, \${param.NAME}${rest.length && meant ? '' : `; write a shell variable as $${key} (no braces)`}`;
      throw new UserError(`${where}: unknown placeholder \${${key}} (${why})`);
    }
    return vars.shell && ['dir', 'run', 'tool'].includes(head) && !quotedAt(whole, at) ? shellQuote(String(value)) : String(value);
  });
}

/** substitute() over every string of a value (arrays and objects walked; other values kept). */
export const substituteDeep = (value, vars, where) => {
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, vars, where));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, vars, where)]));
  return typeof value === 'string' ? substitute(value, vars, where) : value;
};

export const toolPath = (name) => {
  // a name that is no tool of ci/tools.js: substitute() names the placeholder and where it was written
  if (!Object.hasOwn(TOOLS, name)) return undefined;
  const where = locate(name);
  if (!where) throw new UserError(`tool ${name} is not installed (run: npx benchline doctor)`);
  return where.path;
};

// Ports this process handed out: the kernel may offer a port again as soon as the probe closes, so two subjects
// started a moment apart (a duet round's restarts) could both get it and one would fail to listen.
const handedOut = new Set();

/** A free TCP port on 127.0.0.1, chosen by the kernel, never one this process handed out before. */
export async function freePort() {
  for (let i = 0; ; i += 1) {
    const port = await new Promise((res, rej) => {
      const srv = createServer();
      srv.unref();
      srv.on('error', rej);
      srv.listen(0, '127.0.0.1', () => {
        const { port: p } = srv.address();
        srv.close(() => res(p));
      });
    });
    if (!handedOut.has(port) || i >= 20) {
      if (handedOut.size > 10000) handedOut.clear();
      handedOut.add(port);
      return port;
    }
  }
}

/** How often a subject is started on fresh ports when its process could not listen on the ones it was given. */
const PORT_RETRIES = 3;
const portTaken = (e) => /EADDRINUSE|address already in use/i.test(String(e?.message));

/** True when nothing listens on 127.0.0.1:port. */
function portIsFree(port) {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

/** Longest a build step may take before it is stopped. */
const BUILD_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * Runs one build step in a process group of its own, listed in LIVE: a Ctrl-C or SIGTERM reaches benchline's handler
 * at once and stops the build with everything else (a spawnSync held the handler until the build ended, and a Maven
 * build went on after a kill -9). Resolves { status, signal, out } with the output's tail.
 */
function runBuildStep(cmd, cwd) {
  return new Promise((res) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = { name: 'build', pid: child.pid, child, exited: false };
    if (child.pid) LIVE.add(proc);
    let out = '';
    const keep = (d) => { out = (out + d).slice(-65536); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), BUILD_TIMEOUT_MS);
    let done = false;
    const end = (status, signal) => {
      if (done) return;
      done = true;
      proc.exited = true;
      clearTimeout(timer);
      LIVE.delete(proc);
      res({ status, signal, out });
    };
    child.on('error', (e) => end(null, e.code));
    child.on('close', end);
  });
}

/**
 * Runs the manifest's build steps once in `dir`; throws with the output tail when one fails. side: the side of an A/B
 * run being built (`base (main)`), named in each step's log line with the folder it runs in.
 */
export async function buildSubject(manifest, { log = () => {}, side } = {}) {
  for (const [i, step] of (manifest.build || []).entries()) {
    const argv = substituteDeep(step, { dir: manifest.dir, tool: toolPath, env: process.env, shell: !Array.isArray(step) }, `${manifest.file} build`);
    const cmd = Array.isArray(argv) ? argv : ['sh', '-c', argv];
    log(`building ${manifest.name}${side ? ` for ${side} in ${manifest.dir}` : ''}: ${cmd.join(' ')}`);
    const r = await runBuildStep(cmd, manifest.dir);
    if (r.status !== 0) {
      const out = r.out.trim().split('\n').slice(-25).join('\n');
      throw new UserError(`building subject ${manifest.name} failed: ${manifest.file} build step ${i + 1} (${cmd.join(' ')}, run in ${manifest.dir}) exited ${r.status ?? r.signal}; its last lines:\n${out}`);
    }
  }
}

export { LIVE };

/** Sends a signal to a process group we started; ignores groups that are already gone. */
function signalGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Stops one started process: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopProcess(proc, graceMs = 5000) {
  if (proc.exited) return LIVE.delete(proc);
  signalGroup(proc.pid, 'SIGTERM');
  const done = await Promise.race([proc.exit, new Promise((r) => setTimeout(() => r('timeout'), graceMs))]);
  if (done === 'timeout') {
    signalGroup(proc.pid, 'SIGKILL');
    await Promise.race([proc.exit, new Promise((r) => setTimeout(r, 2000))]);
  }
  LIVE.delete(proc);
  return true;
}

/** Milliseconds the process groups get to end after SIGTERM when benchline is stopped by a signal, before SIGKILL. */
export const STOP_GRACE_MS = 3000;

/** Of the process groups `pgids`, those with a process that has not ended yet (a zombie has; /proc, else kill -0). */
function livingGroups(pgids) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return pgids.filter((g) => signalGroup(g, 0));
  }
  const living = new Set();
  for (const pid of pids) {
    // /proc/PID/stat: "pid (comm) state ppid pgrp ...", comm may hold spaces and parentheses
    const stat = procText(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] && f[0] !== 'Z') living.add(Number(f[2]));
  }
  return pgids.filter((g) => living.has(g));
}

/**
 * Stops every live process group at once, without returning to the event loop (a signal handler's, which ends
 * benchline next): SIGTERM first, so a subject tidies up what outlives its processes (netns-server.sh removes its
 * network namespace and veth pair, which a SIGKILL left behind), then SIGKILL to the groups not ended after graceMs.
 */
export function stopAllNow(graceMs = STOP_GRACE_MS) {
  const groups = [...LIVE].map((p) => p.pid).filter(Number.isInteger);
  for (const g of groups) signalGroup(g, 'SIGTERM');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + graceMs;
  let left = livingGroups(groups);
  while (left.length && Date.now() < until) {
    Atomics.wait(nap, 0, 0, 20);
    left = livingGroups(left);
  }
  for (const g of left) signalGroup(g, 'SIGKILL');
  LIVE.clear();
}

/** Spawns a command in its own process group with output appended to logFile. */
export function spawnLogged(argv, { cwd, env, logFile, name }) {
  const fd = openSync(logFile, 'a');
  const child = spawn(argv[0], argv.slice(1), { cwd, env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const proc = { name, pid: child.pid, child, logFile, exited: false, code: null };
  proc.exit = new Promise((res) => {
    child.on('exit', (code, signal) => { Object.assign(proc, { exited: true, code: code ?? signal }); res(proc.code); });
    child.on('error', (e) => { Object.assign(proc, { exited: true, code: e.code, error: e }); res(e.code); });
  });
  if (child.pid) LIVE.add(proc);
  return proc;
}

/** Last lines of a log file, for error messages. */
export function logTail(file, lines = 20) {
  if (!file || !existsSync(file)) return '';
  // only the log's last 64 KiB are read (a chatty server's log can outgrow what a string holds), its first line, cut
  // by that, dropped, and a line longer than 1000 characters (a log without newlines) shown by its end
  const fd = openSync(file, 'r');
  let text;
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, LOG_TAIL_BYTES));
    text = buf.subarray(0, readSync(fd, buf, 0, buf.length, size - buf.length)).toString('utf8');
    if (size > buf.length && text.includes('\n')) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
  return text.trimEnd().split('\n').slice(-lines).map((l) => (l.length > 1000 ? `…${l.slice(-1000)}` : l)).join('\n');
}
const LOG_TAIL_BYTES = 64 * 1024;

/** One health probe: { ok, seen } where seen says what the last probe got (an HTTP status, a refused connection). */
async function healthy(check) {
  try {
    if (check.http) {
      const r = await fetch(check.http, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      return { ok: r.ok, seen: `it answered HTTP ${r.status}` };
    }
    const [host, port] = (check.tcp || check.grpc).split(':');
    return await new Promise((res) => {
      const s = connect({ host, port: Number(port) });
      s.setTimeout(1000);
      s.once('connect', () => { s.destroy(); res({ ok: true }); });
      s.once('error', (e) => res({ ok: false, seen: `connecting failed (${e.code || e.message})` }));
      s.once('timeout', () => { s.destroy(); res({ ok: false, seen: 'connecting timed out' }); });
    });
  } catch (e) {
    return { ok: false, seen: `the request failed (${e.cause?.code || e.name || e.message})` };
  }
}

/** Reads a file under /proc, or '' when it is gone (the process exited) or not there (not Linux). */
const procText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/**
 * The TCP ports the processes of process group `pgid` listen on (Linux /proc; [] elsewhere): a subject that is never
 * healthy because it listens on a port of its own instead of its ${port.NAME} is told which one.
 */
function listeningPorts(pgid) {
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const inodes = new Set();
  for (const pid of pids) {
    // /proc/PID/stat: "pid (comm) state ppid pgrp ...", comm may hold spaces and parentheses
    const stat = procText(`/proc/${pid}/stat`);
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch { /* gone meanwhile */ }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch { /* closed meanwhile */ }
    }
  }
  const ports = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of procText(table).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address HEX_IP:HEX_PORT, f[3] state (0A: listening), f[9] the socket's inode
      if (f[3] === '0A' && inodes.has(f[9])) ports.add(Number.parseInt(f[1].split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** For a health check whose port refused connections: where the process listens instead, and what to write. */
function portHint(proc, check, last) {
  if (proc.exited || !/ECONNREFUSED/.test(last || '')) return '';
  const address = check.http ? new URL(check.http).host : check.tcp || check.grpc;
  const port = Number(address.split(':').pop());
  const ports = listeningPorts(proc.pid).filter((p) => p !== port);
  if (!ports.length) return '';
  return `; the process listens on port ${ports.join(', ')}, not ${port}: pass it the port the check names (\${port.NAME} in its command or env)`;
}

const skipReason = (logFile) => logTail(logFile).trim().split('\n').filter((l) => l.trim()).pop()?.replace(/^.*?SKIP:\s*/, '') || 'exit code 77';

/** The error of a process whose command could not be started at all (not found, or not executable). */
function notStarted(proc, name, { where, argv, cwd, configured }) {
  const why = proc.error.code === 'ENOENT' ? 'was not found (not on PATH, nor a file relative to the subject folder)' : 'is not executable';
  // job params' ${dir} is the project folder, a manifest's the subject folder: say so when that is the likely slip
  const dirHint = proc.error.code === 'ENOENT' && String(configured ?? '').includes('${dir}') ? ` (in a manifest \${dir} is the subject folder, not the project folder: a file of the project's bin/ is ../../bin/NAME from subjects/<name>/)` : '';
  return Object.assign(new UserError(`subject process ${name} could not start: ${where}: command ${JSON.stringify(argv?.[0])} ${why}${dirHint}; run in ${cwd}. Fix its command, or write \${tool.NAME} for a tool benchline installs (benchline doctor lists them)`), { processFailed: true });
}

/**
 * Waits until `check` passes, the process exits, or the timeout runs out. where: the manifest and process the
 * command came from; argv: the command, to name it when it could not be started at all.
 */
async function waitHealthy(proc, check, name, { where, argv, cwd, configured, rendered = [] } = {}) {
  const deadline = Date.now() + (check.timeout ?? 60) * 1000;
  let last;
  while (Date.now() < deadline) {
    if (proc.exited) {
      // Exit 77 is the manifest's way to say "cannot run here" (automake's skip code); its last line says why.
      if (proc.code === 77) throw new SkipJob(`subject process ${name} cannot run here: ${skipReason(proc.logFile)}`);
      if (proc.error?.code === 'ENOENT' || proc.error?.code === 'EACCES') throw notStarted(proc, name, { where, argv, cwd, configured });
      const tail = logTail(proc.logFile);
      // a tool's complaint about a file benchline filled in names that file: point at the template to fix instead
      const from = rendered.filter((r) => tail.includes(r.to)).map((r) => `\n(${basename(r.to)} is filled in from the template ${r.from}: fix it there)`).join('');
      // exit 0 before the check passed: most often a server that went into the background (a daemon), out of the
      // process group benchline stops, and still running
      const daemon = proc.code === 0 ? `; a server that exits 0 at once has most likely put itself in the background: run it in the foreground (nginx: daemon off; in its config, haproxy: -db, others: their --foreground flag), since benchline waits for and stops only the process it started, and stop the copy left running${where ? ` (${where})` : ''}` : '';
      throw Object.assign(new UserError(`subject process ${name} exited (code ${proc.code}) before it was healthy${daemon}. Last lines of ${proc.logFile}:\n${tail}${from}`), { processFailed: true });
    }
    const probe = await healthy(check);
    if (probe.ok) return;
    last = probe.seen;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new UserError(`subject process ${name} was not healthy within ${check.timeout ?? 60} s (${check.http || check.tcp || check.grpc}${last ? `: ${last}` : ''}${portHint(proc, check, last)}; ${where ? `its health check is in ${where}` : 'check its health check'}). Last lines of ${proc.logFile}:\n${logTail(proc.logFile)}`);
}

/**
 * Starts a subject's processes in order and waits for each health check.
 * `fixedPorts` ({name: port}) pins ports instead of choosing free ones; a taken pinned port is an error.
 * Returns { ports, target, procs, run, stop(), deadProcess() }. On failure everything started is stopped.
 */
export async function startSubject(opts) {
  // a port free when chosen can be taken before the subject listens on it (another program's outgoing connection):
  // then the subject starts again on other ports, unless the ports were fixed
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(opts);
    } catch (e) {
      if (Object.keys(opts.fixedPorts || {}).length || !portTaken(e)) throw e;
      // taken again on ports chosen free each time: the process most likely listens on a port of its own choosing
      if (attempt >= PORT_RETRIES) {
        throw new UserError(`${e.message}\n(the port was taken at each of ${PORT_RETRIES} starts, on ports chosen free each time: does the process listen on a fixed port? `
          + `Write \${port.NAME} (a name under ports:) in its command or env in ${opts.manifest.file} instead, so each start gets a free one)`);
      }
      (opts.log || (() => {}))(`${opts.manifest.name}: a port was taken before the subject listened on it; starting again on other ports`);
    }
  }
}

/** One start of startSubject's: ports chosen, processes started in order, each health check waited for. */
async function startOnce({ manifest, runDir, env = {}, params = {}, select, fixedPorts = {}, log = () => {} }) {
  makeDirs(runDir);
  const ports = {};
  for (const name of manifest.ports) {
    if (fixedPorts[name]) {
      if (!(await portIsFree(fixedPorts[name]))) {
        throw new UserError(`port ${fixedPorts[name]} (${name}) for subject ${manifest.name} is already in use on 127.0.0.1; stop what holds it or let benchline choose a free port`);
      }
      ports[name] = fixedPorts[name];
    } else {
      ports[name] = await freePort();
    }
  }
  const vars = { dir: resolve(manifest.dir), run: resolve(runDir), ports, tool: toolPath, env: { ...process.env, ...env }, params };
  const names = select || Object.keys(manifest.processes);
  const procs = [];
  const handle = {
    ports,
    run: vars.run,
    procs,
    target: substituteDeep(manifest.target || {}, vars, `${manifest.file} target`),
    deadProcess: () => procs.find((p) => p.exited),
    stop: async () => { for (const p of [...procs].reverse()) await stopProcess(p); },
  };
  try {
    for (const name of names) {
      const spec = manifest.processes[name];
      if (!spec) throw new UserError(`${manifest.file}: no process named "${name}" (has: ${Object.keys(manifest.processes).join(', ')})`);
      const where = `${manifest.file} processes.${name}`;
      const rendered = [];
      for (const t of spec.templates || []) {
        let text;
        try {
          text = readFileSync(join(manifest.dir, t.from), 'utf8');
        } catch (e) {
          throw new UserError(`${where}: template ${t.from} cannot be read (${e.code === 'ENOENT' ? 'no such file' : e.code}: ${join(manifest.dir, t.from)}); templates[].from is a file in the subject folder`);
        }
        const to = substitute(t.to, vars, where);
        writeFileSync(to, substitute(text, vars, `${manifest.dir}/${t.from}`));
        rendered.push({ to, from: join(manifest.dir, t.from) });
      }
      const argv = substituteDeep(spec.command, vars, where);
      const penv = { ...process.env, ...env, ...substituteDeep(spec.env || {}, vars, where) };
      const check = spec.health && substituteDeep(spec.health, vars, where);
      // A check that passes before the process runs would pass for whatever answers there (a program on a fixed port
      // the subject then fails to bind), and the load would go to that program.
      if (check && (await healthy(check)).ok) {
        const fixed = !manifest.ports.some((p) => JSON.stringify(spec.health).includes(`\${port.${p}}`));
        throw new UserError(`subject process ${manifest.name}/${name} was not started: its health check ${check.http || check.tcp || check.grpc} `
          + 'already answers, so another program (or another copy of this subject: under --base both sides run at once) holds that address '
          + `and the check would pass for it; ${where}. `
          + (fixed ? 'Stop what holds it, or let benchline choose a free port: list a name under ports: and write ${port.NAME} in the process\'s env, its health check and target instead of a fixed port'
            : 'Its port was chosen free a moment ago (address already in use)'));
      }
      const logFile = join(vars.run, `${name}.log`);
      log(`starting ${manifest.name}/${name}`);
      // Started on every core: pinned to the subject's cores only once all are healthy (below).
      const proc = spawnLogged(argv, { cwd: manifest.dir, env: penv, logFile, name });
      procs.push(proc);
      if (check) await waitHealthy(proc, check, `${manifest.name}/${name}`, { where, argv, cwd: manifest.dir, configured: spec.command[0], rendered });
      else if (!proc.pid) {
        // no health check to wait for: a command that could not be started at all fails now, not in the first trial
        await proc.exit;
        if (proc.error?.code === 'ENOENT' || proc.error?.code === 'EACCES') throw notStarted(proc, `${manifest.name}/${name}`, { where, argv, cwd: manifest.dir, configured: spec.command[0] });
      }
    }
    // Every thread of every process the subject started moves to the subject's cores (when the run pins), so the
    // load tool keeps its own for the measurement; a start confined to one core of a busy machine can outlast its
    // health timeout (Spring Boot: 50-73 s at load 17), and start-up is not what is measured.
    for (const p of procs) if (!p.exited) pinGroup(p.pid, 'subject');
  } catch (e) {
    await handle.stop();
    throw e;
  }
  return handle;
}

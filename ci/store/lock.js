// proper-lockfile's lock, with the lock folder removed when benchline exits (by a signal too), and a lock whose holder is
// no longer running on this machine (killed with -9) taken over at once, also by a build already waiting for it.
import fs from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { onExit } from './files.js';

// Who holds a lock: written into its folder once taken. PID namespace and host tell whether the PID can be looked up here.
const OWNER = 'owner.json';
const pidNamespace = () => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
};
const ME = JSON.stringify({ pid: process.pid, host: hostname(), ns: pidNamespace() });
const removeOwner = (dir) => { try { fs.unlinkSync(join(dir, OWNER)); } catch { /* none written */ } };

// Lock folders this process made and has not released, removed when it exits. proper-lockfile removes a lock at exit
// only once it is fully taken (after probing the folder's mtime), and only if the folder is empty (it holds its owner
// file); and a process that a signal ends (Ctrl-C, a cancelled job's SIGTERM) has no 'exit' event, so signal-exit's
// hook runs this too (the signal then ends the process as before). Otherwise the next build waited for the folder to go
// stale: two minutes for the site.
const made = new Set();
const removeMade = () => {
  for (const dir of made) {
    removeOwner(dir);
    try { fs.rmdirSync(dir); } catch { /* removed already */ }
  }
  made.clear();
};
process.on('exit', removeMade);
onExit(removeMade);

/**
 * Makes the lock folder `path` with its owner file already in it: made beside it under a name of this process's,
 * then renamed into place (atomic, and refused when the folder is there), so no process killed outright (-9) while
 * taking a lock leaves a lock folder without an owner, which the next build would wait for until stale (two minutes
 * for the site). A folder a killed process left half-made under its own name is removed by the next taker.
 */
function makeOwned(path) {
  const prefix = `${path}.taking-`;
  const mine = `${prefix}${process.pid}`;
  for (const name of fs.readdirSync(dirname(path))) {
    const other = join(dirname(path), name);
    if (!other.startsWith(prefix)) continue;
    const pid = Number(other.slice(prefix.length));
    if (pid === process.pid || !gone(pid)) continue;
    fs.rmSync(other, { recursive: true, force: true });
  }
  fs.rmSync(mine, { recursive: true, force: true });
  fs.mkdirSync(mine);
  try {
    fs.writeFileSync(join(mine, OWNER), ME);
    // a folder there (a lock, or one left empty by a release stopped half-way) is proper-lockfile's to judge, never replaced
    if (fs.existsSync(path)) throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: 'EEXIST', path });
    fs.renameSync(mine, path);
  } catch (e) {
    fs.rmSync(mine, { recursive: true, force: true });
    if (e.code === 'ENOTEMPTY') throw Object.assign(e, { code: 'EEXIST' });
    throw e;
  }
}

/** Whether no process of this PID runs here (a PID of another user's process counts as running). */
function gone(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code === 'ESRCH';
  }
}

/**
 * The file system proper-lockfile uses, noting each lock folder this process creates. The folder is made synchronously:
 * a signal handled between an asynchronous mkdir and its callback would leave a folder nobody noted; and with its owner
 * file in it (makeOwned).
 */
const noting = {
  ...fs,
  mkdir: (path, ...rest) => {
    const cb = rest.pop();
    try {
      makeOwned(path);
      made.add(path);
    } catch (e) {
      return process.nextTick(cb, e);
    }
    return process.nextTick(cb, null);
  },
  // a lock folder holds its owner file: removed first (a lock released, or taken over as stale)
  rmdir: (path, ...rest) => {
    const cb = rest.pop();
    removeOwner(path);
    fs.rmdir(path, ...rest, (err) => {
      if (!err || err.code === 'ENOENT') made.delete(path);
      cb(err);
    });
  },
};

/**
 * lockfile.lock(file, options), always with realpath: false (so the folder is `<file>.lock` as resolved), whose lock
 * folder is gone once this process exits, however far the taking got. A lock released, or lost to another process as
 * stale, is no longer this process's to remove. options.retries (a count, or { retries, factor, minTimeout,
 * maxTimeout, randomize } as proper-lockfile takes them) are tried here, each try after taking over an abandoned lock
 * (takeOverAbandoned): a build that waits for one whose holder is then killed outright goes on at once.
 */
export async function lock(file, options) {
  const dir = options.lockfilePath || `${resolve(file)}.lock`;
  const { retries = 0, ...once } = options;
  const plan = typeof retries === 'number' ? { retries } : { retries: 10, ...retries };
  const onCompromised = (e) => { made.delete(dir); (options.onCompromised || ((err) => { throw err; }))(e); };
  let wait = plan.minTimeout ?? 1000;
  for (let attempt = 0; ; attempt += 1) {
    takeOverAbandoned(dir, { update: options.update });
    try {
      // the folder is made with its owner file in it (makeOwned)
      const release = await lockfile.lock(file, { ...once, retries: 0, realpath: false, onCompromised, fs: noting });
      return () => release().finally(() => made.delete(dir));
    } catch (e) {
      if (e.code !== 'ELOCKED' || attempt >= plan.retries) throw e;
    }
    await sleep(plan.randomize ? wait * (1 + Math.random()) : wait);
    wait = Math.min(plan.maxTimeout ?? Infinity, wait * (plan.factor ?? 2));
  }
}

/**
 * Removes a lock folder whose owner was a process of this machine (same host, same PID namespace) that no longer exists:
 * killed with -9, it could not remove its lock, which would otherwise hold the next build up until the lock went stale.
 * Also an empty lock folder not refreshed for three of the holder's refresh intervals (`update`, ms), when given: a
 * lock is only ever put in place with its owner file in it, so an empty one is a release cut short between removing
 * that file and the folder. A lock from elsewhere, of a live PID, or empty and fresh (an older version's) is left alone.
 */
export function takeOverAbandoned(dir, { update } = {}) {
  let text;
  try {
    text = fs.readFileSync(join(dir, OWNER), 'utf8');
  } catch (e) {
    if (e.code !== 'ENOENT' || !(update > 0)) return false;
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs < 3 * update || fs.readdirSync(dir).length) return false;
      fs.rmdirSync(dir);
      return true;
    } catch {
      return false;
    }
  }
  let owner;
  try {
    owner = JSON.parse(text);
  } catch {
    return false;
  }
  const me = JSON.parse(ME);
  if (!Number.isInteger(owner?.pid) || owner.pid <= 0 || owner.host !== me.host || owner.ns !== me.ns || owner.pid === me.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false; // alive (or another user's: EPERM below)
  } catch (e) {
    if (e.code !== 'ESRCH') return false;
  }
  // the same owner still (not a lock another waiter took over meanwhile): then gone for good
  try {
    if (fs.readFileSync(join(dir, OWNER), 'utf8') !== text) return false;
    removeOwner(dir);
    fs.rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

// Atomic file writes (data lands complete under its final name or not at all) and folder creation that cannot hang.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { homedir } from 'node:os';
import writeFileAtomicLib from 'write-file-atomic';

/** Whether `path` is the file system's root or the home folder, which no folder benchline fills and empties may be. */
export const isRootOrHome = (path) => [resolve('/'), resolve(homedir())].includes(resolve(path));

/**
 * `mkdir -p`: creates a folder and its missing parents. Node's own recursive mkdir retries for ever where the kernel
 * answers ENOENT for a folder whose parent exists (/proc/x): here each missing folder is created once, from the top,
 * and that error is thrown (its code, syscall and path as fs gives them).
 */
export function makeDirs(dir) {
  const missing = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    let st = null;
    try {
      st = statSync(d);
    } catch (e) {
      // named as the folder that could not be made (a file on the way: ENOTDIR), as Node's own mkdir names it
      if (e.code !== 'ENOENT') throw Object.assign(e, { syscall: 'mkdir', path: resolve(dir) });
    }
    if (st) {
      if (!st.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: resolve(dir) });
      break;
    }
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if (e.code !== 'EEXIST') throw e; // made by another process meanwhile
    }
  }
}

/**
 * Writes text to a temp file beside `path`, fsyncs it, then renames it into place. A path that is a device or a pipe
 * (/dev/stdout, a shell's process substitution) is written to in place: renaming over it would replace the device
 * with a file, and a write error (/dev/full: ENOSPC) reaches the caller.
 */
export function writeFileAtomic(path, text) {
  makeDirs(dirname(path));
  let st = null;
  try {
    st = statSync(path);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  // a folder is refused as a write of it: a temp file renamed over it fails (over / as EBUSY, a raw error)
  if (st?.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path} is a folder`), { code: 'EISDIR', syscall: 'write', path });
  if (!st || st.isFile()) {
    writeFileAtomicLib.sync(path, text);
    return;
  }
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw Object.assign(e, { path: e.path ?? path }); // a failed write() names no path
  }
}

/** Writes a value as pretty JSON, atomically. */
export const writeJsonAtomic = (path, value) => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

// File primitives of the history store and site: create-once writes, atomic replaces, and folder walks.
import { closeSync, constants as fsConstants, fchmodSync, fstatSync, fsyncSync, ftruncateSync, linkSync, lstatSync, openSync, readFileSync, readSync, readdirSync, rmdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import { createRequire } from 'node:module';
import { makeDirs } from '../fsutil.js';

const tempName = (path) => join(dirname(path), `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);

// a name starting .tmp- (in any folder), or ending .json.<number>: one test, as a rebuild asks it of a hundred thousand paths
const TEMP_NAME = /(?:^|\/)\.tmp-[^/]*$|\.json\.\d+$/;
/**
 * True for a writer's temp file: writeNew's `.tmp-<pid>-<hex>` and write-file-atomic's `<name>.<number>`
 * (left behind only by a writer killed mid-write); readers skip them.
 */
export const isTempFile = (rel) => {
  // most names a reader asks about are `<job>.json`: neither a .tmp- name nor one ending in a number, without the test
  if (rel.endsWith('.json') && rel.charCodeAt(rel.lastIndexOf('/') + 1) !== 46) return false;
  return TEMP_NAME.test(rel);
};

function writeTemp(path, text) {
  const tmp = tempName(path);
  const fd = openSync(tmp, 'wx');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/**
 * Writes `text` at `path` only if nothing is there yet, atomically: a complete temp file is hard-linked
 * into place, and link() refuses to replace an existing file, so concurrent writers of one name
 * cannot overwrite each other (rename would). Returns true when this call created the file.
 * A folder removed by a concurrent compaction between mkdir and link is recreated and the link retried.
 */
export function writeNew(path, text) {
  for (let attempt = 0; ; attempt += 1) {
    makeDirs(dirname(path));
    let tmp;
    try {
      tmp = writeTemp(path, text);
      linkSync(tmp, path);
      return true;
    } catch (e) {
      if (e.code === 'EEXIST') return false;
      if (e.code !== 'ENOENT' || attempt >= 5) throw e;
    } finally {
      if (tmp) try { unlinkSync(tmp); } catch { /* already gone with its folder */ }
    }
  }
}

/**
 * signal-exit's onExit(fn): fn runs when the process exits, also by a signal it does not handle itself (which is then
 * raised again, so the process still dies of it). Returns the function that removes fn. It is signal-exit as
 * write-file-atomic itself loads it: the same instance (another copy, or its ES module build, would keep only its own
 * listeners installed); a no-op if a later write-file-atomic no longer uses it.
 */
export const onExit = (() => {
  try {
    const atomic = createRequire(import.meta.url).resolve('write-file-atomic');
    return createRequire(atomic)('signal-exit').onExit;
  } catch {
    return () => () => {};
  }
})();

/**
 * Keeps write-file-atomic's exit handling set up until the returned function is called. Each of its writes registers a
 * handler with signal-exit (to remove its temp file on a signal) and drops it after; with no other handler registered,
 * signal-exit installs its listeners on a dozen signals for every write and removes them again, about a quarter of a
 * millisecond a file (a first site build writes ten thousand). One handler held for the length of a build keeps them
 * installed. It does nothing itself: a signal ends the process as before, or goes to the process's own listeners.
 */
export const holdExitHandlers = () => onExit(() => {});

/**
 * Replaces a file atomically (write-file-atomic). `sync` fsyncs first: on for store data, off for the derived site.
 * A link at `path` is removed first: write-file-atomic writes through links, and a folder restored from elsewhere
 * (a CI cache) must never make a write land outside it.
 */
export function writeReplace(path, text, { sync = false } = {}) {
  makeDirs(dirname(path));
  try {
    if (lstatSync(path).isSymbolicLink()) unlinkSync(path);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  writeFileAtomic.sync(path, text, { fsync: sync, mode: 0o644 });
}

/**
 * Writes `bytes` over the regular file at `path` in place (its own blocks reused, then cut to length), or, when there
 * is no such file of one link only (none, a link, a folder, a file hard-linked elsewhere), replaces it as writeOwn
 * does in `root`, the folder the build owns. For derived files whose writer can tell a half-written one afterwards (the site marks a build in progress):
 * replacing a file whose blocks are on disk frees them, which on a disk mounted with discard costs about a millisecond
 * a file, against a few microseconds for rewriting it. Returns whether it wrote in place.
 */
export function rewrite(path, bytes, root) {
  let opened = null;
  try {
    opened = openRegular(path, fsConstants.O_WRONLY);
  } catch (e) {
    // nothing there (a first build writes ten thousand new files): created in place, no temp file to rename
    if (e.code === 'ENOENT') {
      writeFresh(path, bytes, root);
      return false;
    }
    /* a link, a folder: replaced below */
  }
  if (!opened || opened.st.nlink !== 1) {
    if (opened) closeSync(opened.fd);
    writeOwn(path, bytes, root);
    return false;
  }
  const { fd, st } = opened;
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, done);
    if (st.size !== bytes.length) ftruncateSync(fd, bytes.length);
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a file of a folder a build owns (`root`) that is not there yet straight into place (created exclusively, never
 * through a link), or, when something is there after all, as writeOwn does. For files whose reader can tell one cut
 * short by a build stopped half-way (the site marks a build in progress; cache files carry a checksum): a temp file
 * renamed into place costs about three times as much as creating the file itself, on a first build of ten thousand.
 * A write that fails removes what it created.
 */
export function writeFresh(path, bytes, root) {
  let fd;
  try {
    makeDirs(dirname(path));
    fd = openSync(path, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW, 0o644);
  } catch {
    writeOwn(path, bytes, root);
    return;
  }
  try {
    // the mode write-file-atomic gives a replaced file, whatever the umask
    fchmodSync(fd, 0o644);
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, done);
  } catch (e) {
    try { unlinkSync(path); } catch { /* gone already */ }
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes room for a file at `path` inside `root`, a folder a build owns (the site, its cache): a folder, a link or a named
 * pipe where the file goes is removed (a folder with what it holds), and so is a file or link where one of its folders
 * goes (below `root`).
 */
export function clearWay(path, root) {
  let d = root;
  for (const part of relative(root, dirname(path)).split(sep).filter(Boolean)) {
    d = join(d, part);
    try {
      if (!lstatSync(d).isDirectory()) unlinkSync(d);
    } catch (e) {
      if (e.code === 'ENOENT') break;
      throw e;
    }
  }
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) rmSync(path, { recursive: true, force: true });
    else if (!st.isFile()) unlinkSync(path); // a link, a named pipe, a socket
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
}

/**
 * writeReplace into a folder a build owns (`root`: the site, its cache), whose files no one else should have made:
 * when a folder stands where the file goes, or a file where one of its folders goes, that is removed (clearWay) and
 * the write made again, so what another program left there costs a rewrite, never the build.
 */
export function writeOwn(path, text, root) {
  try {
    writeReplace(path, text);
  } catch (e) {
    if (!['EISDIR', 'ENOTDIR', 'EEXIST', 'EPERM', 'ELOOP'].includes(e.code)) throw e;
    clearWay(path, root);
    writeReplace(path, text);
  }
}

/** The SHA-1 of a text or bytes, as hex. */
export const sha1 = (data) => createHash('sha1').update(data).digest('hex');
const SEAL = /^\{"check":"([0-9a-f]{40})",/;

/**
 * A JSON object's text with a checksum of it as its first field (`{"check":"<sha1>",...}`), for a file a later build
 * trusts field by field (the site cache's): sealed(JSON.stringify(value)). Still JSON; `check` reads as one more field.
 */
export const sealed = (json) => `{"check":"${sha1(json)}",${json.slice(1)}`;

/** The JSON text sealed() was given, when `text` (a file's content) is as it wrote it; else null (edited, damaged, unsealed). */
export function unsealed(text) {
  const head = SEAL.exec(text);
  if (!head) return null;
  const json = `{${text.slice(head[0].length).trimEnd()}`;
  return sha1(json) === head[1] ? json : null;
}

/**
 * Removes every symbolic link under `dir` (not `dir` itself), to a file or a folder, without following any: a folder a
 * build owns (the site, its cache) holds none, and one restored from elsewhere must not make a write land outside it
 * or a kept file be read from anywhere. names: only these entries of `dir` and what is under them (the ones the build
 * owns), when given. Returns their paths relative to `dir`.
 */
export function removeLinks(dir, names = null) {
  const removed = [];
  const walk = (d, prefix) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return;
      throw e;
    }
    for (const e of entries) {
      if (!prefix && names && !names.includes(e.name)) continue;
      if (e.isSymbolicLink()) {
        unlinkSync(join(d, e.name));
        removed.push(`${prefix}${e.name}`);
      } else if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
    }
  };
  walk(dir, '');
  return removed;
}

/**
 * The text of the regular file at `path`, read without following a link or waiting for a writer (a named pipe put
 * where a build keeps a file would hold it up for good); anything but a regular file is an error naming the path.
 */
export function readRegular(path) {
  const { fd } = openRegular(path);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The regular file at `path` opened with `flags` (fs.constants, O_RDONLY by default) and its stat: { fd, st }. Never
 * through a link (ELOOP) nor waiting on a named pipe; anything but a regular file is closed again and an ENOTFILE error
 * naming the path.
 */
export function openRegular(path, flags = fsConstants.O_RDONLY) {
  const fd = openSync(path, flags | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  const st = fstatSync(fd);
  if (st.isFile()) return { fd, st };
  closeSync(fd);
  throw Object.assign(new Error(`${path}: not a regular file`), { code: 'ENOTFILE' });
}

// one buffer for the content of every kept file a build checks (a long history's site is thousands of files)
let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * The content of the regular file at path when it is `size` bytes long, else null (another size, a link, which is
 * never kept as it could point anywhere, or no file). Valid until the next call: it is read into one shared buffer.
 */
export function fileBytes(path, size) {
  let fd;
  try {
    let st;
    ({ fd, st } = openRegular(path));
    if (st.size !== size) return null;
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length));
    let got = 0;
    while (got < size) {
      const n = readSync(fd, scratch, got, size - got, got);
      if (!n) return null;
      got += n;
    }
    return scratch.subarray(0, size);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The 64-bit floats of the regular file at `path` when it holds exactly `length` of them: a Float64Array of its own
 * (aligned, whatever the read buffer was), else null. Nothing of that length is allocated before the file's size says
 * it is there, so a length named wrongly costs nothing.
 */
export function readFloats(path, length) {
  const bytes = Number.isInteger(length) && length >= 0 ? fileBytes(path, length * 8) : null;
  if (!bytes) return null;
  const floats = new Float64Array(length);
  new Uint8Array(floats.buffer).set(bytes);
  return floats;
}

/** writeOwn of a Float64Array's bytes; returns their SHA-1, by which a later build checks them (readFloats, sha1). */
export function writeFloats(path, floats, root) {
  writeOwn(path, Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength), root);
  return sha1(floats);
}

/** The entries of folder dir (readdir with file types), or null when it is not there. */
export function dirEntries(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Pushes every file under `dir` (recursively; anything but a folder counts as a file) onto `out` as `prefix` + its path
 * relative to `dir` with '/' separators, in no particular order; nothing when dir is absent.
 */
export function walkFiles(dir, prefix, out) {
  const entries = dirEntries(dir);
  if (!entries) return out;
  // relative paths built as the walk goes: path.relative per file is most of the cost on a store of 100,000 files
  // (and the folders' paths by hand: they only go to readdir, where a doubled '/' reads as one)
  for (const e of entries) {
    if (e.isDirectory()) walkFiles(`${dir}/${e.name}`, `${prefix}${e.name}/`, out);
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}

/** Every file under `dir` (recursively) as a path relative to `dir` with '/' separators, sorted; [] when dir is absent. */
export const listFiles = (dir) => walkFiles(dir, '', []).sort();

/** Removes now-empty folders from `path`'s folder up to (not including) `stop`; a non-empty one ends the climb. */
export function pruneEmptyDirs(path, stop) {
  let d = dirname(path);
  while (d.startsWith(stop) && d !== stop) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    d = dirname(d);
  }
}


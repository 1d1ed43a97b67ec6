// File primitives of the history store and site: create-once writes, atomic replaces, and folder walks.
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import { makeDirs } from '../fsutil.js';

const tempName = (path) => join(dirname(path), `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);

/**
 * True for a writer's temp file: writeNew's `.tmp-<pid>-<hex>` and write-file-atomic's `<name>.<number>`
 * (left behind only by a writer killed mid-write); readers skip them.
 */
export const isTempFile = (rel) => /^\.tmp-/.test(basename(rel)) || /\.json\.\d+$/.test(rel);

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

/** Every file under `dir` (recursively) as a path relative to `dir` with '/' separators, sorted; [] when dir is absent. */
export function listFiles(dir) {
  const out = [];
  // relative paths built as the walk goes: path.relative per file is most of the cost on a store of 100,000 files
  const walk = (d, prefix) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      if (e.code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out.push(`${prefix}${e.name}`);
    }
  };
  walk(dir, '');
  return out.sort();
}

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


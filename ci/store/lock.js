// proper-lockfile's lock, with the lock folder removed when benchline exits (a signal handled) while the lock is being taken.
import fs from 'node:fs';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';

// Lock folders this process made and has not released. proper-lockfile removes a lock at exit only once it is fully
// taken (after probing the folder's mtime); a signal handled in between (at the first turn of the event loop after a
// long synchronous stretch, which is where a pending Ctrl-C lands) exited with the folder left behind, and the next
// build waited for it to go stale: two minutes for the site.
const made = new Set();
process.on('exit', () => {
  for (const dir of made) try { fs.rmdirSync(dir); } catch { /* removed already */ }
});

/**
 * The file system proper-lockfile uses, noting each lock folder this process creates. The folder is made synchronously:
 * a signal handled between an asynchronous mkdir and its callback would leave a folder nobody noted.
 */
const noting = {
  ...fs,
  mkdir: (path, ...rest) => {
    const cb = rest.pop();
    try {
      fs.mkdirSync(path, ...rest);
      made.add(path);
    } catch (e) {
      return process.nextTick(cb, e);
    }
    return process.nextTick(cb, null);
  },
  rmdir: (path, ...rest) => {
    const cb = rest.pop();
    fs.rmdir(path, ...rest, (err) => {
      if (!err || err.code === 'ENOENT') made.delete(path);
      cb(err);
    });
  },
};

/**
 * lockfile.lock(file, options), always with realpath: false (so the folder is `<file>.lock` as resolved), whose lock
 * folder is gone once this process exits, however far the taking got. A lock released, or lost to another process as
 * stale, is no longer this process's to remove.
 */
export async function lock(file, options) {
  const dir = options.lockfilePath || `${resolve(file)}.lock`;
  const onCompromised = (e) => { made.delete(dir); (options.onCompromised || ((err) => { throw err; }))(e); };
  const release = await lockfile.lock(file, { ...options, realpath: false, onCompromised, fs: noting });
  return () => release().finally(() => made.delete(dir));
}

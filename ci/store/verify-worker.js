// Checks kept site files against the hashes the site cache records, in a worker thread, while a build lays out the rest.
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { fileBytes, sha1 } from './files.js';

// a file's slot in the shared verdicts: not read yet, as recorded, not as recorded, or not known (the build reads it)
const PENDING = 0;
const SAME = 1;
const OTHER = 2;
const UNKNOWN = 3;
const KIND = 'benchline-verify';

if (!isMainThread && workerData?.kind === KIND) {
  const { dir, files, verdicts } = workerData;
  for (let i = 0; i < files.length; i += 1) {
    let verdict;
    try {
      const [rel, size, hash] = files[i];
      const bytes = fileBytes(join(dir, rel), size);
      verdict = bytes && sha1(bytes) === hash ? SAME : OTHER;
    } catch {
      verdict = UNKNOWN;
    }
    Atomics.store(verdicts, i, verdict);
    Atomics.notify(verdicts, i);
  }
}

/**
 * Starts reading and hashing files of the folder dir ([{ rel, size, hash }], rel their path in dir, in the order the
 * build will ask for them) in a worker thread. Returns { check(rel, size, hash), close() }: check is true or false once
 * the worker has read that file (waiting for it when it has not yet), or null when the worker was not asked about that
 * file with that size and hash or cannot tell (it failed, or it stopped answering: its error cannot reach a thread that
 * waits), and then the caller reads the file itself. The verdicts are the same as the caller's own check would give.
 * Files go by their paths in dir, as the site's manifest names them: a build asks about thousands, and making each
 * one's full path is the worker's work, not the build's.
 */
export function verifyInBackground(dir, files, { patienceMs = 10000 } = {}) {
  const verdicts = new Int32Array(new SharedArrayBuffer(4 * Math.max(files.length, 1)));
  const at = new Map(files.map((f, i) => [f.rel, i]));
  let worker = null;
  try {
    worker = new Worker(new URL(import.meta.url), { workerData: { kind: KIND, dir, files: files.map((f) => [f.rel, f.size, f.hash]), verdicts } });
    worker.unref();
    // a failed worker leaves its files unknown, or pending until the caller stops waiting: the build checks them itself
    worker.on('error', () => {});
  } catch {
    worker = null;
  }
  return {
    check(rel, size, hash) {
      const i = at.get(rel);
      if (!worker || i === undefined || files[i].size !== size || files[i].hash !== hash) return null;
      if (Atomics.wait(verdicts, i, PENDING, patienceMs) === 'timed-out') {
        worker = null;
        return null;
      }
      const v = Atomics.load(verdicts, i);
      return v === SAME ? true : v === OTHER ? false : null;
    },
    close() {
      worker?.terminate();
      worker = null;
    },
  };
}

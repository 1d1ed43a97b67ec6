// Names that become parts of paths (suites, variants, scenarios, job and run ids, roles): checked where they enter, pure.
import { isAbsolute, relative, resolve, sep } from 'node:path';

export const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Longest file name most file systems take, in bytes. */
const MAX_SEGMENT_BYTES = 255;
/** Longest job id: leaves room for the longest suffix a store file gets (".failed.json") and temp names. */
export const MAX_JOB_ID = 200;

/** Why `name` cannot be one path segment, or undefined when it can. `what` names it in the message. */
export function nameProblem(name, what, max = MAX_JOB_ID) {
  if (typeof name !== 'string' || !SLUG.test(name)) {
    return `${what} ${JSON.stringify(name)} is not a name benchline can use in a path (letters, digits, ".", "_", "-", starting with a letter or digit)`;
  }
  if (Buffer.byteLength(name) > max) return `${what} "${name.slice(0, 40)}..." is ${Buffer.byteLength(name)} bytes long; keep it to ${max}`;
  return undefined;
}

/** Why a relative path is unsafe to write or delete under a folder (absolute, "..", overlong segments), or undefined. */
function relPathProblem(rel) {
  if (typeof rel !== 'string' || !rel) return `path ${JSON.stringify(rel)} is empty`;
  if (isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return `path "${rel}" is absolute`;
  const parts = rel.split(/[\\/]/);
  if (parts.some((p) => p === '..')) return `path "${rel}" climbs out with ".."`;
  const long = parts.find((p) => Buffer.byteLength(p) > MAX_SEGMENT_BYTES);
  if (long) return `path "${rel.slice(0, 60)}..." has a part of ${Buffer.byteLength(long)} bytes (at most ${MAX_SEGMENT_BYTES})`;
  return undefined;
}

/** The absolute path of `rel` under `base`, or an Error saying why it would land outside. */
export function insideDir(base, rel) {
  const problem = relPathProblem(rel);
  if (problem) return new Error(problem);
  const root = resolve(base);
  const abs = resolve(root, rel);
  const back = relative(root, abs);
  if (!back || back.startsWith(`..${sep}`) || back === '..' || isAbsolute(back)) return new Error(`path "${rel}" resolves outside ${root}`);
  return abs;
}

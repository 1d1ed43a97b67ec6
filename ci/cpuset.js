// Core pinning: splits the cores this process may use between the load tool and the subject, and wraps their commands in taskset.
//
// The seeds ran tool and subject in containers with their own CPUs; on one machine the same separation comes from CPU
// affinity. Without it, a load tool and the system it measures steal each other's cores and the tool's ceiling shows up
// as the subject's. Linux only: elsewhere, or without taskset, or with a single core, nothing is pinned and the run says why.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { processStats } from './cpu.js';

const PINNING_MODES = Object.freeze(['auto', 'off']);
const TASKSET = ['/usr/bin/taskset', '/bin/taskset'];

/** "0-3,6,8-9" -> [0,1,2,3,6,8,9]; undefined for text that is not a CPU list. */
export function parseCpuList(text) {
  const s = String(text ?? '').trim();
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(s)) return undefined;
  const out = new Set();
  for (const part of s.split(',')) {
    const [a, b = a] = part.split('-').map(Number);
    for (let c = a; c <= b; c += 1) out.add(c);
  }
  return [...out].sort((x, y) => x - y);
}

/** [0,1,2,5] -> "0-2,5" (taskset's -c form). */
export function formatCpuList(list) {
  const parts = [];
  for (let i = 0; i < list.length; i += 1) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === list[j] + 1) j += 1;
    parts.push(j > i ? `${list[i]}-${list[j]}` : String(list[i]));
    i = j;
  }
  return parts.join(',');
}

/** The cores this process may run on: its affinity from /proc (a cgroup or taskset may narrow it), else every CPU. */
export function allowedCpus(procStatus = readProc('/proc/self/status')) {
  const m = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(procStatus || '');
  return (m && parseCpuList(m[1])) || cpus().map((_, i) => i);
}

function readProc(path) {
  try { return readFileSync(path, 'utf8'); } catch { return undefined; }
}

/**
 * The split for a mode and a set of allowed cores: { mode, tool: [cores], subject: [cores] } when pinned, or
 * { mode, reason } when not. The load tool gets the upper half (at least one core), the subject the rest: on 2 cores,
 * one each. The tool half is the smaller one on odd counts, because the subject usually runs several processes.
 */
export function planSplit(mode, allowed, { taskset = true } = {}) {
  if (!PINNING_MODES.includes(mode)) throw new Error(`pinning: "${mode}" is not one of ${PINNING_MODES.join(', ')}`);
  if (mode === 'off') return { mode, reason: 'pinning is off (defaults.pinning)' };
  if (allowed.length < 2) return { mode, reason: `only ${allowed.length} core available: tool and subject share it` };
  if (!taskset) return { mode, reason: 'taskset (util-linux) is not installed' };
  const toolCount = Math.max(1, Math.floor(allowed.length / 2));
  return { mode, subject: allowed.slice(0, allowed.length - toolCount), tool: allowed.slice(allowed.length - toolCount) };
}

let current;
let tasksetPath;

/** Decides this run's split once (runJobs calls it with defaults.pinning) and returns the runner-info block. */
export function usePinning(mode = 'auto') {
  tasksetPath = process.platform === 'linux' ? TASKSET.find((p) => existsSync(p)) : undefined;
  current = process.platform === 'linux' ? planSplit(mode, allowedCpus(), { taskset: Boolean(tasksetPath) }) : { mode, reason: `no CPU affinity on ${process.platform}` };
  return pinningInfo();
}

/** The run's split as recorded in result documents: { mode, tool: "1", subject: "0" } or { mode, reason }. */
export function pinningInfo(split = current) {
  if (!split) return undefined;
  if (!split.tool) return { mode: split.mode, reason: split.reason };
  return { mode: split.mode, tool: formatCpuList(split.tool), subject: formatCpuList(split.subject) };
}

/** argv run under taskset on `role`'s cores ('tool' or 'subject'), or argv itself when nothing is pinned. */
export function pinned(argv, role, split = current, taskset = tasksetPath) {
  const cores = split?.[role];
  if (!cores?.length || !taskset) return argv;
  return [taskset, '-c', formatCpuList(cores), ...argv];
}

/** Every live process of process group `pgid` (its leader and each descendant that kept the group). */
export function groupProcesses(pgid) {
  return processStats().filter((st) => st.pgrp === pgid).map((st) => st.pid);
}

/** Threads of `pids` whose affinity is not exactly `cores`: [{ pid, tid, cpus }] from /proc/<pid>/task/<tid>/status. */
function threadsOffCores(pids, cores) {
  const want = formatCpuList(cores);
  const off = [];
  for (const pid of pids) {
    let tids = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      const m = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(readProc(`/proc/${pid}/task/${tid}/status`) || '');
      if (m && formatCpuList(parseCpuList(m[1]) || []) !== want) off.push({ pid, tid: Number(tid), cpus: m[1] });
    }
  }
  return off;
}

/**
 * Pins every thread of every process in group `pgid` to `role`'s cores (taskset -a -p), once the subject is healthy:
 * a JVM or Spring Boot start on one core of a busy machine can take longer than its health timeout, and the start
 * is not what is measured. Threads a not-yet-pinned thread starts meanwhile are caught by looking again (up to three
 * times); threads started later by pinned ones inherit the affinity. Returns the pids pinned ([] when nothing is).
 */
export function pinGroup(pgid, role = 'subject', split = current, taskset = tasksetPath) {
  const cores = split?.[role];
  if (!cores?.length || !taskset) return [];
  const list = formatCpuList(cores);
  let pids = [];
  for (let pass = 0; pass < 3; pass += 1) {
    pids = groupProcesses(pgid);
    const off = threadsOffCores(pids, cores);
    if (!off.length) break;
    for (const pid of new Set(off.map((t) => t.pid))) spawnSync(taskset, ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  }
  return pids;
}

/** How many cores the load tool may use: its pinned set when it was pinned, else every core this process may use. */
export function toolCoreCount(wasPinned = true, split = current) {
  return (wasPinned && split?.tool?.length) || allowedCpus().length;
}

/** A load tool that used at least this share of the cores it may use was the bottleneck of its trial. */
const SATURATION = 0.9;

/**
 * Whether the load tool saturated its cores, from a result document's load[] (per trial): the median trial's tool
 * cores against the cores it could use. Returns { saturated, used, cores, share } or undefined without CPU figures.
 */
export function toolSaturation(load, { threshold = SATURATION } = {}) {
  const trials = (load || []).filter((l) => Number.isFinite(l?.tool) && l.toolCores >= 1);
  if (!trials.length) return undefined;
  const shares = trials.map((l) => l.tool / l.toolCores).sort((a, b) => a - b);
  const mid = Math.floor(shares.length / 2);
  const share = shares.length % 2 ? shares[mid] : (shares[mid - 1] + shares[mid]) / 2;
  const cores = Math.min(...trials.map((l) => l.toolCores));
  return { saturated: share >= threshold, used: Math.round(share * cores * 100) / 100, cores, share: Math.round(share * 1000) / 1000 };
}

/**
 * Why a document's figures do not describe its subject, or undefined: its load tool used (nearly) all the cores it may
 * use in the median trial. "wrk used 0.98 of its 1 core", for a line that replaces a comparison or a verdict.
 */
export function bottleneck(doc) {
  const s = doc && toolSaturation(doc.load);
  if (!s?.saturated) return undefined;
  return `${doc.tool?.name ?? doc.tool ?? 'the tool'} used ${s.used} of its ${s.cores} core${s.cores === 1 ? '' : 's'}`;
}

/** The note a saturated job's result carries; undefined when the tool had headroom or nothing was measured. */
export function saturationNote(load, toolName) {
  const s = toolSaturation(load);
  if (!s?.saturated) return undefined;
  return `the load tool was the bottleneck: ${toolName} used ${s.used} of the ${s.cores} core${s.cores === 1 ? '' : 's'} it may use (median trial); these figures are ${toolName}'s ceiling, not the subject's`;
}

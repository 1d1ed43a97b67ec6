// CPU accounting of one trial from /proc: what the load tool, the subject and everything else on the machine used.
//
// Linux only (elsewhere every reading is null and nothing depends on it). Times come from /proc in clock ticks
// (USER_HZ, 100 on every Linux ABI). Irq and softirq time is left out of the machine's busy time: loopback traffic is
// processed there on behalf of our own processes, so counting it would charge the subject's own work to "others".
import { readFileSync, readdirSync } from 'node:fs';

const HZ = 100;

/** Busy ticks of the whole machine (user, nice, system, steal) from the text of /proc/stat; null if unreadable. */
function machineBusyTicks(procStat) {
  const line = /^cpu\s+(.*)$/m.exec(procStat || '');
  if (!line) return null;
  const [user, nice, system, , , , , steal = 0] = line[1].trim().split(/\s+/).map(Number);
  const busy = user + nice + system + steal;
  return Number.isFinite(busy) ? busy : null;
}

/** Fields of a /proc/<pid>/stat line after the command name (which may hold spaces and parentheses). */
export function parsePidStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const f = text.slice(close + 2).trim().split(/\s+/);
  // f[0] is field 3 (state): pgrp is field 5, utime..cstime fields 14..17.
  const n = (i) => Number(f[i - 3]);
  return { pgrp: n(5), self: n(14) + n(15), children: n(16) + n(17) };
}

const read = (path) => {
  try { return readFileSync(path, 'utf8'); } catch { return null; }
};

/** Every live process as { pid, pgrp, self, children } from /proc/<pid>/stat ([] without /proc). */
export function processStats() {
  let pids;
  try { pids = readdirSync('/proc'); } catch { return []; }
  const out = [];
  for (const pid of pids) {
    if (pid.charCodeAt(0) > 57) continue; // not a number
    const s = read(`/proc/${pid}/stat`);
    const st = s && parsePidStat(s);
    if (st) out.push({ pid: Number(pid), ...st });
  }
  return out;
}

/** Ticks used so far by every process in the given process groups (their reaped children included). */
function groupTicks(pgids) {
  if (!pgids.size) return 0;
  return processStats().reduce((sum, st) => (pgids.has(st.pgrp) ? sum + st.self + st.children : sum), 0);
}

/** A snapshot for cpuSince(): the machine's busy ticks, this process's own and reaped-children ticks, the subjects'. */
export function cpuSnapshot(subjectGroups = []) {
  const machine = machineBusyTicks(read('/proc/stat'));
  const me = read('/proc/self/stat');
  const self = me && parsePidStat(me);
  if (machine === null || !self) return null;
  const groups = new Set(subjectGroups.filter(Number.isInteger));
  return { at: process.hrtime.bigint(), machine, runner: self.self, tools: self.children, subjects: groupTicks(groups), groups };
}

/**
 * What a trial used between two snapshots, in cores (CPU seconds per second of wall time): the load tool (a child
 * this process reaped during the trial), the subjects' process groups, and everything else on the machine. `other`
 * is what neither we nor our subjects used: a neighbour's work, or a hypervisor's steal. Null without /proc.
 */
export function cpuSince(before, after = cpuSnapshot([...(before?.groups || [])])) {
  if (!before || !after) return null;
  const seconds = Number(after.at - before.at) / 1e9;
  if (!(seconds > 0)) return null;
  const cores = (ticks) => Math.max(0, ticks / HZ / seconds);
  const tool = after.tools - before.tools;
  const subject = Math.max(0, after.subjects - before.subjects);
  const ours = tool + subject + (after.runner - before.runner);
  const round3 = (x) => Math.round(x * 1000) / 1000;
  return {
    seconds: round3(seconds),
    tool: round3(cores(tool)),
    subject: round3(cores(subject)),
    other: round3(cores(after.machine - before.machine - ours)),
  };
}

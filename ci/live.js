// The process groups benchline started and has not stopped (a watchdog stops them if benchline is killed with -9), and how a stop by signal ends.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Waits for benchline ($0) to end, then kills the groups the file ($1) still names: after a clean end it names none.
const WATCH = 'while kill -0 "$0" 2>/dev/null; do sleep 0.5; done; [ -f "$1" ] && for g in $(cat "$1"); do kill -KILL "-$g" 2>/dev/null; done; rm -f "$1"';

/** A Set of started processes ({ pid } leading its own group) whose group ids are written to a file a watchdog reads. */
class LiveGroups extends Set {
  #file = null;

  #sync() {
    if (!this.#file) {
      if (!this.size) return;
      this.#file = join(tmpdir(), `benchline-live-${process.pid}`);
      writeFileSync(this.#file, '');
      // its own process group, so a Ctrl-C to benchline's group leaves it to do its one job; unref: never waited for
      const watchdog = spawn('sh', ['-c', WATCH, String(process.pid), this.#file], { detached: true, stdio: 'ignore' });
      watchdog.unref();
      // a clean end (a signal handled included) has stopped everything itself: the watchdog goes with it, by its group
      process.once('exit', () => {
        rmSync(this.#file, { force: true });
        try { process.kill(-watchdog.pid, 'SIGKILL'); } catch { /* already gone */ }
      });
    }
    try {
      writeFileSync(this.#file, [...this].map((p) => p.pid).filter(Number.isInteger).join('\n'));
    } catch { /* the temp folder is gone: nothing left to watch for */ }
  }

  add(proc) {
    super.add(proc);
    this.#sync();
    return this;
  }

  delete(proc) {
    const had = super.delete(proc);
    this.#sync();
    return had;
  }

  clear() {
    super.clear();
    this.#sync();
  }
}

/** Every process group benchline started and has not stopped yet (for Ctrl-C, and for the watchdog after kill -9). */
export const LIVE = new LiveGroups();

/** The signals that stop a run (Ctrl-C, a cancelled CI step, a closed terminal) and the exit status each ends it with. */
export const SIGNALS = Object.freeze(['SIGINT', 'SIGTERM', 'SIGHUP']);
export const signalExit = (sig) => 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[sig] || 0);

/** Writes to stderr while stopping on a signal, where the terminal that sent SIGHUP may be gone already. */
export function sayOnStop(text) {
  try {
    process.stderr.write(text);
  } catch { /* nobody left to read it */ }
}

/**
 * A signal handler that acts on the first signal only: later ones (npm passing on the same Ctrl-C, a second Ctrl-C) are
 * ignored while it stops. It stays installed meanwhile, since with no handler a signal's default action would end
 * benchline half-way through stopping.
 */
export function onFirstSignal(handler) {
  let stopping = false;
  return (sig) => {
    if (stopping) return;
    stopping = true;
    handler(sig);
  };
}

/** Runs `fn` with `onSignal` listening to SIGNALS, and takes it off again however `fn` ends. */
export async function whileListening(onSignal, fn) {
  for (const sig of SIGNALS) process.on(sig, onSignal);
  try {
    return await fn();
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }
}

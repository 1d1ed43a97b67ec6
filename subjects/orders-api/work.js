// The calibration knobs' work: a fixed count of integer steps (WORK_ITERS) and a spin on the clock (WORK_US).
//
// Counted steps cost CPU, as the request's own work does: a neighbour that takes half the core slows both alike, so
// the share of a request they add does not depend on what else runs on the machine. A spin on the clock costs the
// same wall time however much CPU the server gets, so beside a neighbour its share of a request changes.
// `bun work.js [iterations]` prints what one step costs on this machine (the fastest of 7 timed runs), which is how
// scripts/detector-rates.js turns a time into a number of steps.

let sink = 1;

/** Runs `n` steps of a linear congruential generator; the result is kept, so the loop cannot be left out. */
export function countedWork(n) {
  let x = sink;
  for (let i = 0; i < n; i += 1) x = (Math.imul(x, 1103515245) + 12345) | 0;
  sink = x | 1;
  return sink;
}

/** Holds the thread for `us` microseconds of wall time on a monotonic clock. */
export function busyWork(us) {
  if (us <= 0) return;
  const end = Bun.nanoseconds() + us * 1000;
  while (Bun.nanoseconds() < end) { /* spin */ }
}

if (import.meta.main) {
  const n = Number(process.argv[2] || 2e6);
  if (!Number.isInteger(n) || n < 1e4) {
    console.error(`work.js: ${process.argv[2]}: give a whole number of steps, at least 10000`);
    process.exit(2);
  }
  for (let k = 0; k < 3; k += 1) countedWork(n); // warm-up: the loop runs optimized, as in a server that has served a while
  let best = Infinity;
  for (let k = 0; k < 7; k += 1) {
    const t = Bun.nanoseconds();
    countedWork(n);
    best = Math.min(best, Bun.nanoseconds() - t);
  }
  console.log(JSON.stringify({ steps: n, nsPerStep: best / n }));
}

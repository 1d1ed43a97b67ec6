// The run's progress: a bar on a terminal, a line per trial in a log, and how much time is left.
/**
 * Progress: a bar on a terminal, one line per trial elsewhere (CI logs); shrink(n) when jobs stop early. until: when
 * the run's time budget ends (an A/B run stops adding rounds then), or a function that says so once the runner's
 * clock has started, so the time left is never said to be past it.
 * stream: where it goes (stderr).
 */
export async function makeProgress(total, enabled, { until = Infinity, stream = process.stderr } = {}) {
  const started = Date.now();
  // the pace so far times the trials to go, never more than the run's budget has left (none once it is spent: what runs
  // then is the last round finishing); in whole seconds
  const secondsLeft = (done) => {
    const budgetLeft = (typeof until === 'function' ? until() : until) - Date.now();
    const estimate = done ? ((Date.now() - started) / done) * (total - done) : 0;
    return Math.round(Math.max(0, Math.min(estimate, budgetLeft)) / 1000);
  };
  if (!enabled || !stream.isTTY) {
    let done = 0;
    return {
      tick: (label) => {
        done += 1;
        stream.write(`[${done}/${total}] ${label}${total - done ? ` · ~${secondsLeft(done)} s left` : ''}\n`);
      },
      log: (m) => stream.write(`${m}\n`),
      shrink: (n) => { total -= n; },
      stop: () => {},
    };
  }
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar({ format: '{bar} {value}/{total} trials · ~{left} s left · {label}', stream, hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { label: 'starting', left: '?' });
  return {
    tick: (label) => bar.increment(1, { label, left: secondsLeft(bar.value + 1) }),
    log: (m) => { bar.stop(); stream.write(`${m}\n`); bar.start(total, bar.value, { label: m.slice(0, 60), left: secondsLeft(bar.value) }); },
    shrink: (n) => { total -= n; bar.setTotal(total); },
    stop: () => bar.stop(),
  };
}


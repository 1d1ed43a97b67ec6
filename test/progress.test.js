// The progress line and bar: what a run says of the time left, on a terminal and in a log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeProgress } from '../ci/progress.js';

/** A stream that says it is a terminal, keeping what is written to it (escape codes stripped). */
function terminal(tty) {
  const chunks = [];
  const stream = new Writable({ write(chunk, _enc, done) { chunks.push(String(chunk)); done(); } });
  Object.assign(stream, { isTTY: tty, columns: 160 });
  return { stream, text: () => chunks.join('').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') };
}

const saidLeft = (text) => [...text.matchAll(/~(\d+) s left/g)].map((m) => Number(m[1]));

for (const tty of [true, false]) {
  test(`${tty ? 'the bar on a terminal' : 'the line in a log'} says the pace times the trials to go, and never more than the budget has left`, async () => {
    for (const budget of [Infinity, 3000]) {
      const { stream, text } = terminal(tty);
      const p = await makeProgress(100, true, { until: Date.now() + budget, stream });
      await sleep(250);
      p.tick('job a, trial 1');
      await sleep(50);
      p.stop();
      const said = saidLeft(text());
      assert.ok(said.length, `a time left is said: ${JSON.stringify(text())}`);
      // 250 ms for one trial, 99 to go: at least 24 s at that pace
      if (budget === Infinity) assert.ok(said.every((s) => s >= 24), `the pace so far: ${said}`);
      else assert.ok(said.every((s) => s <= 3), `within the 3-s budget: ${said}`);
    }
  });
}

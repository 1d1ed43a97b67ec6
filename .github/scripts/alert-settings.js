#!/usr/bin/env node
// Prints the workflows' settings from bench.config.yaml as $GITHUB_OUTPUT lines: compare.failOnRegression and compare.alert.
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../ci/config.js';

/** github-action-benchmark's own defaults, used for whatever compare.alert leaves out. */
export const ALERT_DEFAULTS = Object.freeze({ threshold: '200%', failOnAlert: false, commentOnAlert: false });

/** Pure: a loaded config -> the output lines the workflows pass on (the action's inputs, and whether a regression fails the check). */
export function alertOutputs(config) {
  const a = { ...ALERT_DEFAULTS, ...(config.compare?.alert || {}) };
  return [`alert-threshold=${a.threshold}`, `fail-on-alert=${a.failOnAlert}`, `comment-on-alert=${a.commentOnAlert}`,
    `fail-on-regression=${config.compare?.failOnRegression !== false}`].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] || 'bench.config.yaml';
  try {
    process.stdout.write(`${alertOutputs(loadConfig(file))}\n`);
  } catch (e) {
    process.stderr.write(`alert-settings: ${e.message}\n`);
    process.exitCode = 2;
  }
}

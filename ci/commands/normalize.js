// `benchline normalize --tool T FILE`: one raw output -> one result document on stdout; nothing written.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { adapterFor } from '../adapters/index.js';
import { buildResult } from '../result.js';
import { newRunId, runBlock, runnerInfo } from '../context.js';
import { versionOf } from '../tools.js';

/** Reads and parses one file, turning any adapter failure into a message naming file, tool and fix. */
export function normalizeFile(file, toolName, opts = {}) {
  const adapter = adapterFor(toolName);
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`${file}: no such file (tool ${toolName})`);
  const text = readFileSync(file, 'utf8');
  try {
    return adapter.parse(text, opts);
  } catch (e) {
    const hint = e.hint || adapter.produce;
    throw new Error(`${file}: not valid ${toolName} output: ${e.message.replace(/\.?\s*$/, '').replace(/\n\s*/g, '; ')}. Produce valid output with: ${hint}`);
  }
}

export default function normalize(opts) {
  const [file] = opts.args;
  let parsed;
  try {
    parsed = normalizeFile(file, opts.tool);
  } catch (e) {
    process.stderr.write(`benchline normalize: ${e.message}\n`);
    return 2;
  }
  const started = new Date();
  const doc = buildResult({
    run: runBlock({ id: newRunId(started), startedAt: started.toISOString(), cwd: process.cwd(), role: 'local' }),
    runner: runnerInfo(),
    suite: opts.suite,
    subject: 'external',
    variant: opts.variant,
    scenario: opts.scenario || basename(file).replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'default',
    tool: { name: opts.tool, version: parsed.toolVersion || versionOf(adapterFor(opts.tool).binary) || 'unknown' },
    params: {},
    trials: [parsed],
    artifacts: [{ path: file, kind: 'raw' }],
  }, `${file} (${opts.tool})`);
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return 0;
}

// A scratch project for tests that run benchline: one subject of one process on port http, and a bench.config.yaml.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/**
 * Writes subjects/<subject>/subject.yaml (process `api`: `command`, a YAML flow list; `env`, a YAML mapping or none;
 * health at http://127.0.0.1:${port.http}/health; `target`, a YAML line or '' for none) and bench.config.yaml (`config`)
 * into a new temp folder; returns its path.
 */
export function oneProcessProject(name, { subject, command, env, target = 'target: { url: "http://127.0.0.1:${port.http}" }', config }) {
  const repo = tempDir(name);
  mkdirSync(join(repo, 'subjects', subject), { recursive: true });
  writeFileSync(join(repo, 'subjects', subject, 'subject.yaml'), [
    `name: ${subject}`,
    'ports: [http]',
    'processes:',
    '  api:',
    `    command: ${command}`,
    ...(env ? [`    env: ${env}`] : []),
    '    health: { http: "http://127.0.0.1:${port.http}/health", timeout: 10 }',
    target,
    '',
  ].join('\n'));
  writeFileSync(join(repo, 'bench.config.yaml'), config);
  return repo;
}

// Names that become paths: ../, absolute paths and overlong names in run.json, documents and the site manifest write or remove nothing outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { listFiles } from '../ci/store/files.js';
import { insideDir } from '../ci/names.js';
import { tempDir } from './support/temp.js';

const FIX = fileURLToPath(new URL('./fixtures/wrk/latency.txt', import.meta.url));
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] };
const parsed = parse(readFileSync(FIX, 'utf8'));

/** A real wrk result document of run `id` with the given names. */
const doc = (id, names = {}) => buildResult({
  run: { id, startedAt: '2026-11-23T10:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' },
  runner: RUNNER, suite: 'paths', subject: 'nginx', variant: 'default', scenario: 'latency', ...names,
  tool: { name: 'wrk', version: '4.1.0' }, params: {}, trials: [parsed],
}, 'test');

/** A sandbox: a parent folder that must stay untouched, holding the store and a run folder. */
function sandbox() {
  const root = tempDir('paths');
  const dir = join(root, 'deep', 'er', 'still', 'results', 'run-1');
  mkdirSync(join(dir, 'docs', 'local'), { recursive: true });
  return { root, dir, store: join(root, 'deep', 'er', 'still', 'store') };
}

test('a run.json whose failed job id climbs out with ../ is refused with its reason; its good document is still published', async () => {
  const { root, dir, store } = sandbox();
  writeFileSync(join(dir, 'docs', 'local', 'good.json'), JSON.stringify(doc('run-1')));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'run-1', startedAt: '2026-11-23T10:00:00.000Z', jobs: [
    { id: 'paths.default.wrk.latency', suite: 'paths', subject: 'nginx', variant: 'default', tool: 'wrk', scenario: 'latency', status: 'ok', docs: { local: 'docs/local/good.json' } },
    { id: '../../../../../../ESCAPED', suite: 'paths', subject: 'nginx', variant: 'default', tool: 'wrk', scenario: 'x', status: 'failed', reason: 'boom' },
  ] }));
  const r = await publish({ store, files: [dir] });
  assert.equal(r.added, 1);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, /job "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/ESCAPED" cannot be recorded as failed: \/job\/id must match pattern/);
  assert.deepEqual(listFiles(root).filter((f) => /ESCAPED/.test(f)), []);
});

test('run.json naming a document by ../ or an absolute path is refused, and the other documents are published', async () => {
  const { root, dir, store } = sandbox();
  writeFileSync(join(dir, 'docs', 'local', 'good.json'), JSON.stringify(doc('run-1')));
  writeFileSync(join(root, 'outside.json'), JSON.stringify(doc('run-1', { scenario: 'outside' })));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ schema: 'benchline/run@1', id: 'run-1', startedAt: '2026-11-23T10:00:00.000Z', jobs: [
    { id: 'a', status: 'ok', docs: { local: '../../../../../outside.json' } },
    { id: 'b', status: 'ok', docs: { local: join(root, 'outside.json') } },
    { id: 'paths.default.wrk.latency', status: 'ok', docs: { local: 'docs/local/good.json' } },
  ] }));
  const r = await publish({ store, files: [dir] });
  assert.deepEqual(r.errors.map((e) => e.message.replace(root, '<root>').match(/lists a document at "[^"]*": path .* (climbs out with "\.\."|is absolute)/)?.[1]), ['climbs out with ".."', 'is absolute']);
  assert.equal(r.added, 1, 'the good document is still published');
  assert.ok(r.paths.added[0].endsWith('/local/paths.default.wrk.latency.json'));
});

test('a document whose three 120-character names make a file name over 255 bytes is refused; the documents after it are published', async () => {
  const { store } = sandbox();
  const long = (c) => c.repeat(120);
  const docs = [doc('run-2', { suite: long('s'), variant: long('v'), scenario: long('c') }), doc('run-2'), doc('run-2', { scenario: 'second' })];
  const r = await publish({ store, docs });
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, /document #1 .*: its run id, role or job id cannot name a store file \(path .* has a part of 371 bytes \(at most 255\)\)/);
  assert.equal(r.added, 2);
});

test('a 300-character or ../ run id in a document is refused by the schema before any path is made', async () => {
  const { store, root } = sandbox();
  const bad = [doc('run-3'), doc('run-3')];
  bad[0].run.id = 'r'.repeat(300);
  bad[1].run.id = '../../../../x';
  const r = await publish({ store, docs: [...bad, doc('run-3')] });
  assert.equal(r.errors.length, 2);
  assert.match(r.errors[0].message, /\/run\/id must NOT have more than 120 characters/);
  assert.match(r.errors[1].message, /\/run\/id must match pattern/);
  assert.equal(r.added, 1);
  assert.deepEqual(listFiles(root).filter((f) => f.includes('/x/') || f.startsWith('x')), []);
});

test('site removes nothing outside its folder that an edited .benchline-site.json lists (absolute, ../, overlong)', async () => {
  const { root, store } = sandbox();
  await publish({ store, docs: [doc('run-4')] });
  const out = join(root, 'site');
  const victims = [join(root, 'victim-absolute.txt'), join(root, 'victim-relative.txt')];
  for (const v of victims) writeFileSync(v, 'keep me\n');
  mkdirSync(out, { recursive: true });
  const logged = [];
  writeFileSync(join(out, '.benchline-site.json'), JSON.stringify({ files: [victims[0], '../victim-relative.txt', 'data/../../victim-relative.txt', `${'x'.repeat(300)}.js`], hashes: {} }));
  await buildSite({ store, out, log: (m) => logged.push(m) });
  for (const v of victims) assert.equal(readFileSync(v, 'utf8'), 'keep me\n');
  assert.equal(logged.filter((m) => /^not removed: \.benchline-site\.json lists/.test(m)).length, 4);
});

test('insideDir accepts only relative paths that stay in their folder', () => {
  assert.equal(insideDir('/s', 'runs/2026/11/a.json'), '/s/runs/2026/11/a.json');
  for (const rel of ['../x', '/etc/passwd', 'a/../../x', '', `${'a'.repeat(256)}`]) assert.ok(insideDir('/s', rel) instanceof Error, rel);
  assert.ok(existsSync(tmpdir()));
});

test('a site build from a store that is not there is refused before it makes any folder, so nothing is left behind', async () => {
  const root = tempDir('paths');
  const store = join(root, 'no-store');
  const out = join(root, 'not-made', 'site');
  await assert.rejects(buildSite({ store, out }), { message: `${store}: no history store here; create one with \`benchline publish --store ${store} <results>\`` });
  assert.equal(existsSync(join(root, 'not-made')), false);
});

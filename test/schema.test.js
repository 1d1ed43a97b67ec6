// The schemas' standalone validators: each made from its schema as it is, and judging every document as Ajv compiling the schema does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import YAML from 'yaml';
import { schema } from '../ci/schema/index.js';
import { FILE_SCHEMA_NAMES, SCHEMA_NAMES, compileSchema, schemaText, standaloneSource, standaloneValidator } from '../ci/schema/compile.js';
import { storeFileProblems, storeSchemaText, ARCHIVE_SCHEMA, FAILURE_SCHEMA, STORE_SCHEMA } from '../ci/store/schemas.js';
import { emptyArchive, foldDoc, foldFailure, indexArchive } from '../ci/store/archive.js';
import { DEFAULT_POLICY } from '../ci/store/store.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { parse as parseWrk } from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { rng } from '../ci/stats.js';

// a schema's text: its file in ci/schema, or for the store's own files as ci/store/schemas.js builds it
const textOf = (name) => (FILE_SCHEMA_NAMES.includes(name) ? schemaText(name) : storeSchemaText(name));

test('each committed standalone validator is what Ajv makes of its schema today (run node scripts/gen-validators.js after changing a schema)', () => {
  assert.deepEqual(SCHEMA_NAMES, ['result', 'config', 'subject', 'store', 'failure', 'archive']);
  for (const name of SCHEMA_NAMES) assert.equal(readFileSync(new URL(`../ci/schema/${name}.validate.cjs`, import.meta.url), 'utf8'), standaloneSource(name, textOf(name)), `${name}.validate.cjs`);
});

test('a standalone validator is used only for the schema text it was made from', () => {
  for (const name of SCHEMA_NAMES) {
    const text = textOf(name);
    assert.equal(typeof standaloneValidator(name, text), 'function', name);
    assert.ok(/"additionalProperties": ?false/.test(text), name);
    assert.equal(standaloneValidator(name, text.replace(/"additionalProperties": ?false/, '"additionalProperties":true')), null, name);
    assert.equal(standaloneValidator(name, `${text} `), null, name);
  }
});

/** Valid documents and `count` seeded mutations of them: each judged alike (verdict and errors) by both validators. */
function sameVerdicts(name, docs, count, seed) {
  const standalone = standaloneValidator(name, textOf(name));
  const compiled = compileSchema(name, JSON.parse(textOf(name)));
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const odd = [null, 0, -1, 1.5, '', 'x', '2026-13-45T99:00:00Z', [], {}, true, Number.MAX_VALUE, 'a'.repeat(300)];
  // a path into the document to a value, chosen at random
  const somewhere = (doc) => {
    let parent = doc;
    let key = pick(Object.keys(doc));
    for (let depth = 0; depth < 4 && parent[key] && typeof parent[key] === 'object' && Object.keys(parent[key]).length && random() < 0.7; depth += 1) {
      parent = parent[key];
      key = pick(Object.keys(parent));
    }
    return [parent, key];
  };
  const outcome = (validate, doc) => [validate(doc), JSON.stringify(validate.errors)];
  for (const doc of docs) assert.deepEqual(outcome(standalone, doc), [true, 'null'], `${name}: a valid document`);
  let refused = 0;
  for (let i = 0; i < count; i += 1) {
    const doc = structuredClone(pick(docs));
    for (let k = 0; k < 1 + Math.floor(random() * 3); k += 1) {
      const [parent, key] = somewhere(doc);
      const how = random();
      if (how < 0.3) delete parent[key];
      else if (how < 0.9) parent[key] = pick(odd);
      else parent[`${key}Extra`] = pick(odd);
    }
    const got = outcome(standalone, doc);
    assert.deepEqual(got, outcome(compiled, doc), `${name}: mutation ${i}`);
    if (!got[0]) refused += 1;
  }
  return refused;
}

test('the config and subject schemas\' standalone validators and Ajv compiling them give the same verdicts and errors (with the schema each error names) on the shipped files and 1,000 mutations of each', () => {
  const configs = [YAML.parse(readFileSync(new URL('../bench.config.yaml', import.meta.url), 'utf8'))];
  const subjectsDir = new URL('../subjects/', import.meta.url);
  const manifests = readdirSync(subjectsDir).map((d) => YAML.parse(readFileSync(new URL(`${d}/subject.yaml`, subjectsDir), 'utf8')));
  assert.ok(manifests.length >= 5);
  assert.ok(sameVerdicts('config', configs, 1000, 11) > 300, 'many config mutations are refused');
  assert.ok(sameVerdicts('subject', manifests, 1000, 12) > 300, 'many manifest mutations are refused');
});

test('the result schema\'s standalone validator and Ajv compiling it accept and refuse the same documents with the same errors, on valid documents and 2,000 mutations of them', () => {
  const wrk = buildResult({
    run: { id: 'r1', startedAt: '2026-11-27T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' },
    runner: { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] },
    suite: 's', subject: 'nginx', variant: 'default', scenario: 'latency', tool: { name: 'wrk', version: '4.1.0' }, params: { connections: 4 },
    trials: [parseWrk(readFileSync(new URL('./fixtures/wrk/latency.txt', import.meta.url), 'utf8'))],
  }, 'test');
  assert.equal(schema.$id, 'urn:benchline:result:1');
  assert.ok(sameVerdicts('result', [wrk, ...syntheticDocs({ runs: 2 })], 2000, 20261127) > 1000, 'most mutations are refused');
});

test('the store file schemas\' standalone validators and Ajv compiling them give the same verdicts and errors on store.json, failure records and archived months, and 1,000 mutations of each', () => {
  const docs = [...syntheticDocs({ runs: 6, start: Date.UTC(2026, 0, 31, 20), every: 3600e3 })];
  const failures = docs.slice(0, 3).map((d, k) => ({
    schema: FAILURE_SCHEMA,
    run: d.run,
    job: { id: `${d.suite}.${d.variant}.${d.tool.name}.${d.scenario}`, suite: d.suite, subject: d.subject, variant: d.variant, tool: d.tool.name, scenario: d.scenario },
    status: k ? 'failed' : 'skipped',
    reason: `trial ${k + 1} exited with 1`,
  }));
  const archives = ['2026-01', '2026-02'].map((month) => {
    const a = emptyArchive(month, DEFAULT_POLICY);
    const idx = indexArchive(a);
    for (const d of docs.filter((x) => x.run.startedAt.startsWith(month))) foldDoc(a, idx, d, DEFAULT_POLICY.digits);
    for (const f of failures.filter((x) => x.run.startedAt.startsWith(month))) foldFailure(a, idx, f);
    return JSON.parse(JSON.stringify(a));
  });
  assert.ok(archives.every((a) => a.runs.length && a.jobs.length), 'both months hold runs');
  const cases = [['store', STORE_SCHEMA, [{ schema: STORE_SCHEMA, policy: DEFAULT_POLICY }, { schema: STORE_SCHEMA, policy: { keepDays: null } }]], ['failure', FAILURE_SCHEMA, failures], ['archive', ARCHIVE_SCHEMA, archives]];
  for (const [name, id, files] of cases) {
    for (const f of files) assert.deepEqual(storeFileProblems(f, id), [], `${name}: a valid file`);
    assert.ok(sameVerdicts(name, files, 1000, name.length) > 300, `many ${name} mutations are refused`);
  }
});

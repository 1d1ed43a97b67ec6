// The result schema's standalone validator: made from the schema as it is, and judging every document as Ajv compiling the schema does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { schema, standaloneValidator } from '../ci/schema/index.js';
import { compileResult, standaloneSource } from '../ci/schema/compile.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { parse as parseWrk } from '../ci/adapters/wrk.js';
import { buildResult } from '../ci/result.js';
import { rng } from '../ci/stats.js';

const schemaText = readFileSync(new URL('../ci/schema/result.schema.json', import.meta.url), 'utf8');

test('the committed standalone validator is what Ajv makes of result.schema.json today (run node scripts/gen-result-validator.js after changing the schema)', () => {
  assert.equal(readFileSync(new URL('../ci/schema/result.validate.cjs', import.meta.url), 'utf8'), standaloneSource(schemaText));
});

test('the standalone validator is used only for the schema text it was made from', () => {
  assert.equal(typeof standaloneValidator(), 'function');
  assert.equal(standaloneValidator(schemaText.replace('"additionalProperties": false', '"additionalProperties": true')), null);
  assert.equal(standaloneValidator(`${schemaText} `), null);
});

test('the standalone validator and Ajv compiling the schema accept and refuse the same documents with the same errors, on valid documents and 2,000 mutations of them', () => {
  const standalone = standaloneValidator();
  const compiled = compileResult(schema);
  const wrk = buildResult({
    run: { id: 'r1', startedAt: '2026-11-27T00:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' },
    runner: { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] },
    suite: 's', subject: 'nginx', variant: 'default', scenario: 'latency', tool: { name: 'wrk', version: '4.1.0' }, params: { connections: 4 },
    trials: [parseWrk(readFileSync(new URL('./fixtures/wrk/latency.txt', import.meta.url), 'utf8'))],
  }, 'test');
  const docs = [wrk, ...syntheticDocs({ runs: 2 })];
  const random = rng(20261127);
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
  let refused = 0;
  for (const doc of docs) assert.deepEqual(outcome(standalone, doc), [true, 'null']);
  for (let i = 0; i < 2000; i += 1) {
    const doc = structuredClone(pick(docs));
    for (let k = 0; k < 1 + Math.floor(random() * 3); k += 1) {
      const [parent, key] = somewhere(doc);
      const how = random();
      if (how < 0.3) delete parent[key];
      else if (how < 0.9) parent[key] = pick(odd);
      else parent[`${key}Extra`] = pick(odd);
    }
    const got = outcome(standalone, doc);
    assert.deepEqual(got, outcome(compiled, doc), `mutation ${i}`);
    if (!got[0]) refused += 1;
  }
  assert.ok(refused > 1000, `most mutations are refused (${refused})`);
});

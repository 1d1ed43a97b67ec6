// Validates result documents against the JSON Schema contract; every writer calls assertResult first.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { documentProblems } from '../sanity.js';
import { compileResult, schemaStamp } from './compile.js';

const schemaText = readFileSync(new URL('./result.schema.json', import.meta.url), 'utf8');
const schema = JSON.parse(schemaText);

/**
 * The standalone validator (result.validate.cjs, scripts/gen-result-validator.js) when it was made from this schema
 * text, else null. Loading it takes a few milliseconds; compiling the schema with Ajv over 100.
 */
export function standaloneValidator(text = schemaText) {
  try {
    const file = new URL('./result.validate.cjs', import.meta.url);
    if (!readFileSync(file, 'utf8').includes(`\n${schemaStamp(text)}\n`)) return null;
    return createRequire(import.meta.url)(fileURLToPath(file));
  } catch {
    return null;
  }
}

let validate = null;
// made on first use, as the commands that read no result document never need it
const validator = () => {
  validate ||= standaloneValidator() || compileResult(schema);
  return validate;
};

export const SCHEMA_ID = 'benchline/result@1';
export { schema };

/** Returns a list of readable problems (the schema's, then impossible values); empty when the document is valid. */
export function resultProblems(doc) {
  const check = validator();
  if (check(doc)) return documentProblems(doc);
  return check.errors.map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`);
}

export class InvalidResultError extends UserError {}

/** Throws InvalidResultError naming `where` when the document breaks the schema. */
export function assertResult(doc, where = 'result document') {
  const problems = resultProblems(doc);
  if (problems.length) {
    throw new InvalidResultError(`${where} does not match ${SCHEMA_ID}:\n  ${problems.slice(0, 10).join('\n  ')}`);
  }
  return doc;
}

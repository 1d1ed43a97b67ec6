// Validates result documents against the JSON Schema contract; every writer calls assertResult first.
import { UserError } from '../errors.js';
import { documentProblems } from '../sanity.js';
import { schemaText, validatorFor } from './compile.js';

const text = schemaText('result');
const schema = JSON.parse(text);

let validate = null;
// made on first use, as the commands that read no result document never need it: the standalone validator
// (result.validate.cjs) in a few milliseconds, else compiled
const validator = () => {
  validate ||= validatorFor('result', schema, text);
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

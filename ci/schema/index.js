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

/**
 * When `found` (a file's `schema`) names another version of the benchline schema `expected` ("benchline/run@2" where
 * "benchline/run@1" is read): that it was written by another benchline and what to do, else null.
 */
export function otherVersion(found, expected) {
  const at = expected.lastIndexOf('@');
  const m = typeof found === 'string' ? /^(.+)@(\d+)$/.exec(found) : null;
  if (!m || m[1] !== expected.slice(0, at) || m[2] === expected.slice(at + 1)) return null;
  const newer = Number(m[2]) > Number(expected.slice(at + 1));
  return `written by ${newer ? 'a newer' : 'an older'} benchline (schema "${found}"; this one reads "${expected}"): `
    + `use the benchline version that wrote it${newer ? ', or upgrade benchline' : ''}`;
}

class InvalidResultError extends UserError {}

/** Throws InvalidResultError naming `where` when the document breaks the schema. */
export function assertResult(doc, where = 'result document') {
  const problems = resultProblems(doc);
  if (problems.length) {
    throw new InvalidResultError(`${where} does not match ${SCHEMA_ID}:\n  ${problems.slice(0, 10).join('\n  ')}`);
  }
  return doc;
}

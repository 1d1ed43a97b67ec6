// Schemas of the history store's own files (store settings, job failures, compacted months), checked on every read.
import Ajv from 'ajv/dist/2020.js';
import { ARCHIVE_SCHEMA } from './archive.js';

export { ARCHIVE_SCHEMA };
export const STORE_SCHEMA = 'benchline/store@1';
export const FAILURE_SCHEMA = 'benchline/failure@1';

const slug = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' };
const nullableNumber = { type: ['number', 'null'] };
const policy = {
  type: 'object',
  additionalProperties: false,
  properties: {
    keepDays: { type: ['integer', 'null'], minimum: 0 },
    keepRuns: { type: 'integer', minimum: 0 },
    digits: { type: 'integer', minimum: 3, maximum: 17 },
  },
};

const schemas = {
  [STORE_SCHEMA]: {
    type: 'object',
    required: ['schema', 'policy'],
    additionalProperties: false,
    properties: { schema: { const: STORE_SCHEMA }, policy },
  },
  [FAILURE_SCHEMA]: {
    type: 'object',
    required: ['schema', 'run', 'job', 'status', 'reason'],
    additionalProperties: false,
    properties: {
      schema: { const: FAILURE_SCHEMA },
      run: {
        type: 'object',
        required: ['id', 'startedAt', 'commit', 'ref', 'role'],
        additionalProperties: false,
        properties: {
          id: slug,
          startedAt: { type: 'string', format: 'date-time' },
          commit: { type: ['string', 'null'] },
          ref: { type: ['string', 'null'] },
          trigger: { type: 'string' },
          role: { enum: ['head', 'base', 'main', 'local'] },
          dirty: { type: 'boolean' },
          pr: { type: 'integer' },
        },
      },
      job: {
        type: 'object',
        required: ['id', 'suite', 'variant', 'tool', 'scenario'],
        additionalProperties: false,
        properties: { id: slug, suite: slug, subject: { type: 'string' }, variant: slug, tool: slug, scenario: slug },
      },
      status: { enum: ['failed', 'skipped'] },
      reason: { type: 'string' },
      logTail: { type: 'string' },
      runner: { type: 'object' },
    },
  },
  [ARCHIVE_SCHEMA]: {
    type: 'object',
    required: ['schema', 'month', 'policy', 'runners', 'params', 'runs', 'jobs', 'failures'],
    additionalProperties: false,
    properties: {
      schema: { const: ARCHIVE_SCHEMA },
      month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
      policy,
      runners: { type: 'array', items: { type: 'object' } },
      params: { type: 'array', items: { type: 'object' } },
      runs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'startedAt', 'commit', 'ref', 'trigger', 'role', 'runner'],
          properties: { id: slug, startedAt: { type: 'string' }, runner: { type: 'integer', minimum: 0 } },
        },
      },
      jobs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['suite', 'subject', 'variant', 'tool', 'scenario', 'metrics', 'points'],
          properties: {
            suite: slug,
            variant: slug,
            tool: slug,
            scenario: slug,
            metrics: {
              type: 'array',
              items: { type: 'object', required: ['name', 'unit', 'better'], properties: { name: { type: 'string' }, case: { type: 'string' }, unit: { type: 'string' }, better: { enum: ['lower', 'higher'] } } },
            },
            points: {
              type: 'array',
              items: {
                type: 'object',
                required: ['runs', 'params', 'version', 'trials', 'v', 'lo', 'hi'],
                properties: {
                  runs: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0 } },
                  params: { type: 'integer', minimum: 0 },
                  version: { type: 'string' },
                  trials: { type: 'integer', minimum: 1 },
                  v: { type: 'array', items: { anyOf: [nullableNumber, { type: 'array', items: nullableNumber }] } },
                  lo: { type: 'array', items: nullableNumber },
                  hi: { type: 'array', items: nullableNumber },
                },
              },
            },
          },
        },
      },
      failures: {
        type: 'array',
        items: { type: 'object', required: ['run', 'job', 'status', 'reason'], properties: { run: { type: 'integer', minimum: 0 } } },
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: false, validateFormats: false });
const validators = Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, ajv.compile(s)]));

/** Problems of a store file against its declared schema; empty when it is fine. */
export function storeFileProblems(doc, id) {
  const validate = validators[id];
  if (validate(doc)) return [];
  return validate.errors.slice(0, 6).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

// Schemas of the history store's own files (store settings, job failures, compacted months), checked on every read.
import { validatorFor } from '../schema/compile.js';
import { ARCHIVE_SCHEMA, jobIdOf } from './archive.js';
import { metricId } from './paths.js';
import { BOUNDS, UNIT_WORD } from '../sanity.js';

export { ARCHIVE_SCHEMA };
export const STORE_SCHEMA = 'benchline/store@1';
export const FAILURE_SCHEMA = 'benchline/failure@1';

const slug = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' };
const nullableNumber = { type: ['number', 'null'] };
// as in result documents (ci/schema/result.schema.json), whose fields archives and failure records copy
const metricName = { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_.]+)?$' };
const unit = { enum: ['ns', 'ops/s', 'bytes', 'bytes/s', 'count', 'ratio'] };
const role = { enum: ['head', 'base', 'main', 'local'] };
const params = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } };
// a document's runner; none of its fields required, since a run folded from failure records alone has runner {}
const runner = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    os: { type: 'string' },
    arch: { type: 'string' },
    cpus: { type: 'integer', minimum: 1 },
    cpuModel: { type: 'string' },
    memoryBytes: { type: 'integer', minimum: 0 },
    labels: { type: 'array', items: { type: 'string' } },
    pinning: { type: 'object' },
  },
};
const failedJob = {
  type: 'object',
  required: ['id', 'suite', 'variant', 'tool', 'scenario'],
  additionalProperties: false,
  properties: { id: slug, suite: slug, subject: { type: 'string' }, variant: slug, tool: slug, scenario: slug },
};
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
          role,
          dirty: { type: 'boolean' },
          pr: { type: 'integer' },
        },
      },
      job: failedJob,
      status: { enum: ['failed', 'skipped'] },
      reason: { type: 'string' },
      logTail: { type: 'string' },
      runner,
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
      runners: { type: 'array', items: runner },
      params: { type: 'array', items: params },
      runs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'startedAt', 'commit', 'ref', 'trigger', 'role', 'runner'],
          properties: {
            id: slug,
            startedAt: { type: 'string' },
            commit: { type: ['string', 'null'] },
            ref: { type: ['string', 'null'] },
            trigger: { type: 'string' },
            role,
            runner: { type: 'integer', minimum: 0 },
            pr: { type: 'integer' },
            dirty: { type: 'boolean' },
          },
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
              items: { type: 'object', required: ['name', 'unit', 'better'], properties: { name: metricName, case: { type: 'string', minLength: 1 }, unit, better: { enum: ['lower', 'higher'] } } },
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
        items: {
          type: 'object',
          required: ['run', 'job', 'status', 'reason'],
          properties: { run: { type: 'integer', minimum: 0 }, job: failedJob, status: { enum: ['failed', 'skipped'] }, reason: { type: 'string' } },
        },
      },
    },
  },
};

/** Each store file schema's name among benchline's schemas (ci/schema/compile.js), by its id. */
const NAMES = Object.freeze({ [STORE_SCHEMA]: 'store', [FAILURE_SCHEMA]: 'failure', [ARCHIVE_SCHEMA]: 'archive' });
/** The JSON text of a store file schema by its name there (store, failure, archive): what its standalone validator is made from. */
export const storeSchemaText = (name) => JSON.stringify(schemas[Object.keys(NAMES).find((id) => NAMES[id] === name)]);
// each made on first use: the standalone validator (ci/schema/<name>.validate.cjs) when it was made from this schema,
// else compiled (compiling the store file schema alone took 57 ms of every site build)
const validators = {};
const validatorOf = (id) => (validators[id] ||= validatorFor(NAMES[id], schemas[id], JSON.stringify(schemas[id])));

const MAX_PROBLEMS = 6;

/**
 * Problems of a store file against its declared schema; empty when it is fine. An archive is also checked value by
 * value and index by index (archiveProblems), so what passes here can be read by compaction, the model and the site.
 */
export function storeFileProblems(doc, id) {
  const validate = validatorOf(id);
  if (!validate(doc)) return validate.errors.slice(0, MAX_PROBLEMS).map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty === undefined ? '' : ` ("${e.params.additionalProperty}")`}`);
  // formats are not checked by the schema: a run's start must still be a time, which dates the record's month
  if (id === FAILURE_SCHEMA && !Number.isFinite(Date.parse(doc.run.startedAt))) return [`/run/startedAt ${JSON.stringify(String(doc.run.startedAt).slice(0, 40))} is not a date and time`];
  return id === ARCHIVE_SCHEMA ? archiveContentProblems(doc) : [];
}

/** Every problem of an archive month (benchline/archive@1): its schema's, then what archiveContentProblems finds. */
export const archiveProblems = (archive) => storeFileProblems(archive, ARCHIVE_SCHEMA);

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Why an archived value outside 0..BOUNDS[unit] is impossible, in the words documentProblems uses for a document's
 * values (finite, not negative, a ratio within 0..1, within the unit's physical bound).
 */
function valueFault(v, unit) {
  if (!Number.isFinite(v)) return 'not a finite number';
  if (v < 0) return `${UNIT_WORD[unit] || 'this value'} cannot be negative`;
  if (unit === 'ratio') return 'a ratio must lie within 0..1';
  return `above ${BOUNDS[unit]} ${unit}, beyond any real measurement`;
}

/** `jobs[0].points[3].v[2] = -1 ns (orders-api.cache-off.ab.keepalive latency.mean)`: made only for a problem. */
const valueLabel = (job, j, p, path, i, x) => `jobs[${j}].points[${p}].${path} = ${x} ${job.metrics[i].unit} (${jobIdOf(job)} ${metricId(job.metrics[i])})`;

/**
 * What the schema cannot say about an archive that passed it: every index points into its table (a run's runner, a
 * point's runs and parameter set, a failure's run), no run or job or metric is listed twice and no run twice in one
 * job, each run lies in the archive's month, a point's v, lo and hi have one entry each per metric of its job (fewer
 * for a point made before the job gained a metric, as foldDoc leaves it), a value listed per run has one entry per run
 * of its point, and every value is possible (finite, not negative, a ratio within 0..1, within BOUNDS per unit) with
 * lo <= hi. Intervals, like a document's, need only be finite and in order: a tool's confidence interval (JMH's) may
 * reach below zero. Archives compaction writes always pass (they are folded from checked documents). A plain loop:
 * a long history's archives hold ~100 MiB of values, so a message is made only for a problem, and at most
 * MAX_PROBLEMS of them.
 */
function archiveContentProblems(archive) {
  const out = [];
  const full = () => out.length >= MAX_PROBLEMS;
  const { runs, runners, params, jobs, failures, month } = archive;
  const [y, mo] = month.split('-').map(Number);
  const from = Date.UTC(y, mo - 1, 1);
  const to = Date.UTC(y, mo, 1);
  const runKeys = new Map();
  for (let r = 0; r < runs.length && !full(); r += 1) {
    const run = runs[r];
    if (run.runner >= runners.length) out.push(`runs[${r}] names runner ${run.runner}, the month has ${plural(runners.length, 'runner')}`);
    const t = Date.parse(run.startedAt);
    if (!Number.isFinite(t)) out.push(`runs[${r}].startedAt ${JSON.stringify(run.startedAt)} is not a time`);
    else if (!(t >= from && t < to)) out.push(`runs[${r}] (${run.id}) started ${run.startedAt}, outside the archive's month ${month}`);
    const key = `${run.id}\u0000${run.role}`;
    if (runKeys.has(key)) out.push(`runs[${r}] repeats runs[${runKeys.get(key)}] (run ${run.id}, role ${run.role})`);
    else runKeys.set(key, r);
  }
  // per run, the last job (j + 1) and point that named it: a run counted twice in one job would be plotted twice
  const lastJob = new Int32Array(runs.length);
  const lastPoint = new Int32Array(runs.length);
  const jobIds = new Map();
  for (let j = 0; j < jobs.length && !full(); j += 1) {
    const job = jobs[j];
    const at = `jobs[${j}]`;
    const id = jobIdOf(job);
    if (jobIds.has(id)) out.push(`${at} repeats jobs[${jobIds.get(id)}] (${id})`);
    else jobIds.set(id, j);
    const { metrics, points } = job;
    const m = metrics.length;
    const units = new Array(m);
    const bounds = new Float64Array(m); // the largest possible value per metric: one comparison for a sane value
    const names = new Map();
    for (let i = 0; i < m; i += 1) {
      units[i] = metrics[i].unit;
      bounds[i] = BOUNDS[units[i]] ?? Infinity;
      const name = metricId(metrics[i]);
      if (names.has(name)) out.push(`${at}.metrics[${i}] repeats metrics[${names.get(name)}] (${name})`);
      else names.set(name, i);
    }
    for (let p = 0; p < points.length && !full(); p += 1) {
      const point = points[p];
      const pr = point.runs;
      const n = pr.length;
      for (let k = 0; k < n; k += 1) {
        const r = pr[k];
        if (r >= runs.length) out.push(`${at}.points[${p}] names run ${r}, the month has ${plural(runs.length, 'run')}`);
        else if (lastJob[r] === j + 1) out.push(`${at}.points[${p}] names run ${r} (${runs[r].id}) again, as points[${lastPoint[r]}] did: a run has one point per job`);
        else {
          lastJob[r] = j + 1;
          lastPoint[r] = p;
        }
      }
      if (point.params >= params.length) out.push(`${at}.points[${p}] names parameter set ${point.params}, the month has ${plural(params.length, 'parameter set')}`);
      const { v, lo, hi } = point;
      if (v.length > m || lo.length !== v.length || hi.length !== v.length) {
        out.push(`${at}.points[${p}] has ${plural(v.length, 'value')}, ${plural(lo.length, 'lower bound')} and ${plural(hi.length, 'upper bound')} for the job's ${plural(m, 'metric')}: v, lo and hi need one entry each per metric`);
        continue;
      }
      let miscounted = false; // said once per point
      for (let i = 0; i < v.length; i += 1) {
        const x = v[i];
        const bound = bounds[i];
        if (x === null) {
          // no value for this metric in this point
        } else if (typeof x === 'number') {
          if (!(x >= 0 && x <= bound)) out.push(`${valueLabel(job, j, p, `v[${i}]`, i, x)}: ${valueFault(x, units[i])}`);
        } else if (x.length !== n) {
          if (!miscounted) out.push(`${at}.points[${p}].v[${i}] lists ${plural(x.length, 'value')} for the point's ${plural(n, 'run')} (${id} ${metricId(metrics[i])})`);
          miscounted = true;
        } else {
          for (let k = 0; k < x.length; k += 1) {
            const y = x[k];
            if (y !== null && !(y >= 0 && y <= bound)) {
              out.push(`${valueLabel(job, j, p, `v[${i}][${k}]`, i, y)}: ${valueFault(y, units[i])}`);
              break;
            }
          }
        }
        const a = lo[i];
        const b = hi[i];
        if (a !== null && !Number.isFinite(a)) out.push(`${valueLabel(job, j, p, `lo[${i}]`, i, a)}: not a finite number`);
        if (b !== null && !Number.isFinite(b)) out.push(`${valueLabel(job, j, p, `hi[${i}]`, i, b)}: not a finite number`);
        if (a !== null && b !== null && !(a <= b)) out.push(`${at}.points[${p}] (${id} ${metricId(metrics[i])}): interval lower ${a} above upper ${b} (lo[${i}], hi[${i}])`);
        if (full()) break;
      }
    }
  }
  for (let f = 0; f < failures.length && !full(); f += 1) {
    if (failures[f].run >= runs.length) out.push(`failures[${f}] names run ${failures[f].run}, the month has ${plural(runs.length, 'run')}`);
  }
  return out.slice(0, MAX_PROBLEMS);
}

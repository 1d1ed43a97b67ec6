// Configuration loading and job planning: validation messages, parameter precedence, matrix shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, parseOverrides, loadConfig } from '../ci/config.js';
import { minEffectFor } from '../ci/compare.js';
import { planJobs, toMatrix } from '../ci/plan.js';
import { TOOL_NAMES } from '../ci/adapters/index.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './support/temp.js';
const ROOT = new URL('..', import.meta.url).pathname;

const yaml = `
version: 1
defaults: { suites: [api], profile: quick }
profiles: { quick: { trials: 3 }, full: { trials: 9 } }
suites:
  api:
    subject: api
    params: { path: /x }
    variants:
      off: { env: { CACHE: "off" } }
      on: { env: { CACHE: on }, params: { connections: 8 } }
    jobs:
      - tool: wrk
        scenario: peak
        params: { connections: 4, duration: 2s }
        profiles: { full: { duration: 30s } }
      - tool: ab
        scenario: keepalive
        variants: [on]
        trials: 2
        params: { requests: 100, keepalive: true }
`;

test('a suite expands to variant x job entries with ids suite.variant.tool.scenario', () => {
  const jobs = planJobs(parseConfig(yaml));
  assert.deepEqual(jobs.map((j) => j.id), ['api.off.wrk.peak', 'api.on.wrk.peak', 'api.on.ab.keepalive']);
  assert.deepEqual(jobs.map((j) => j.trials), [3, 3, 2]);
  assert.deepEqual(jobs[1].env, { CACHE: 'on' });
});

test('parameters resolve suite < variant < job < profile < command line', () => {
  const config = parseConfig(yaml);
  const [off, on] = planJobs(config, { profile: 'full' });
  assert.deepEqual(off.params, { path: '/x', connections: 4, duration: '30s' });
  assert.equal(on.params.connections, 4, 'the job overrides the variant');
  const [overridden] = planJobs(config, { param: ['duration=5s', 'ab.requests=7', 'wrk.threads=2'] });
  assert.deepEqual(overridden.params, { path: '/x', connections: 4, duration: '5s', threads: 2 });
  const ab = planJobs(config, { param: ['ab.requests=7'], tool: ['ab'] })[0];
  assert.equal(ab.params.requests, 7);
});

test('the matrix has the shape of a GitHub strategy.matrix include list, with trials only where they are fixed', () => {
  const m = toMatrix(planJobs(parseConfig(yaml), { variant: ['on'] }));
  assert.deepEqual(m, { include: [
    { id: 'api.on.wrk.peak', jobs: 'api.on.wrk.peak', suite: 'api', subject: 'api', variant: 'on', tool: 'wrk', scenario: 'peak', profile: 'quick', trials: 0 },
    { id: 'api.on.ab.keepalive', jobs: 'api.on.ab.keepalive', suite: 'api', subject: 'api', variant: 'on', tool: 'ab', scenario: 'keepalive', profile: 'quick', trials: 2 },
  ] });
  assert.equal(toMatrix(planJobs(parseConfig(yaml), { variant: ['on'], trials: 7 })).include[0].trials, 7, '--trials fixes every entry');
});

test('interleaved variants share one matrix entry, so they run side by side on one runner', () => {
  const config = parseConfig(yaml.replace('subject: api', 'subject: api\n    interleave: variants'));
  const jobs = planJobs(config);
  assert.deepEqual(jobs.map((j) => j.group), ['api.wrk.peak', 'api.wrk.peak', 'api.ab.keepalive']);
  assert.deepEqual(toMatrix(jobs).include.map((e) => [e.id, e.jobs, e.variant]), [
    ['api.wrk.peak', 'api.off.wrk.peak api.on.wrk.peak', 'off on'],
    ['api.on.ab.keepalive', 'api.on.ab.keepalive', 'on'],
  ], 'a group of one keeps its job id');
  assert.throws(() => parseConfig(yaml.replace('subject: api', 'subject: api\n    interleave: always'), 'b.yaml'), /b\.yaml: does not match the configuration schema[\s\S]*interleave/);
});

test('an unknown tool is refused with the file, the path in the config and the known tools', () => {
  assert.throws(() => parseConfig(yaml.replace('tool: ab', 'tool: siege'), 'x.yaml'),
    new RegExp(`x\\.yaml: suites\\.api\\.jobs\\[1\\]\\.tool "siege" is not a known tool \\(k6, ghz, wrk, ab, jmh, hyperfine, ${TOOL_NAMES.slice(6).join(', ')}\\)`));
});

test('skipIn leaves a job\'s variants out of one profile as skipped jobs with the reason, and names only known profiles and variants', () => {
  const skipping = yaml.replace('        profiles: { full: { duration: 30s } }\n', '        profiles: { full: { duration: 30s } }\n        skipIn: { quick: [on] }\n');
  const quick = planJobs(parseConfig(skipping)).filter((j) => j.tool === 'wrk');
  assert.deepEqual(quick.map((j) => [j.variant, j.skip]), [['off', undefined], ['on', 'left out of the quick profile (skipIn); other profiles run it']]);
  assert.deepEqual(planJobs(parseConfig(skipping), { profile: 'full' }).filter((j) => j.skip), []);
  assert.throws(() => parseConfig(skipping.replace('skipIn: { quick: [on] }', 'skipIn: { quick: [middle] }')), /suites\.api\.jobs\[0\]\.skipIn\.quick names variant "middle", which the suite does not define/);
  assert.throws(() => parseConfig(skipping.replace('skipIn: { quick: [on] }', 'skipIn: { nightly: [on] }')), /skipIn names profile "nightly", which is not defined \(profiles: quick, full\)/);
});

test('schema violations name the file and the offending key', () => {
  assert.throws(() => parseConfig(yaml.replace('trials: 3', 'trials: 0'), 'b.yaml'), /b\.yaml: does not match the configuration schema[\s\S]*\/profiles\/quick\/trials must be >= 1/);
  assert.throws(() => parseConfig(yaml.replace('scenario: peak', 'scenario: peak\n        sript: x'), 'b.yaml'), /must NOT have additional properties \("sript"\)/);
  assert.throws(() => parseConfig('version: 1\nsuites: [', 'c.yaml'), /c\.yaml: not valid YAML/);
});

test('a job param its tool does not read but nearly spells one it does is refused with the file, the job, the key and the param it means', () => {
  const at = (text) => { try { parseConfig(text, 'u.yaml'); } catch (e) { return e.message; } return 'accepted'; };
  // a typo ran the job with wrk's defaults (2 threads, 10 connections) and said nothing
  assert.equal(at(yaml.replace('params: { connections: 4, duration: 2s }', 'params: { conections: 4, duration: 2s }')),
    'u.yaml: suites.api.jobs[0] (wrk/peak): params.conections is not a parameter wrk reads (did you mean "connections"?); wrk reads threads, connections, duration, timeout, path, header, headers, method, body, count');
  assert.match(at(yaml.replace('profiles: { full: { duration: 30s } }', 'profiles: { full: { Duration: 30s } }')), /suites\.api\.jobs\[0\] \(wrk\/peak\): profiles\.full\.Duration is not a parameter wrk reads \(did you mean "duration"\?\)/);
  assert.match(at(yaml.replace('params: { requests: 100, keepalive: true }', 'params: { requests: 100, keepalive: true, concurency: 10 }')), /jobs\[1\] \(ab\/keepalive\): params\.concurency is not a parameter ab reads \(did you mean "concurrency"\?\)/);
  const ghzJob = (params) => `version: 1\nsuites:\n  g:\n    subject: x\n    jobs: [{ tool: ghz, scenario: s, params: ${params} }]\n`;
  assert.match(at(ghzJob('{ call: a.B/C, totl: 100 }')), /\(ghz\/s\): params\.totl is not a parameter ghz reads \(did you mean "total"\?\)/);
  // a JMH typo ran JMH's defaults (5 warm-up iterations of 10 s per fork and benchmark) and said nothing
  const jmhJob = (params) => `version: 1\nsuites:\n  j:\n    subject: x\n    jobs: [{ tool: jmh, scenario: s, params: ${params} }]\n`;
  assert.match(at(jmhJob('{ jar: b.jar, warmupIteration: 2 }')), /\(jmh\/s\): params\.warmupIteration is not a parameter jmh reads \(did you mean "warmupIterations"\?\)/);
  assert.equal(at(jmhJob('{ jar: b.jar, p.mode: "a,b", p.n: 10, forks: 1 }')), 'accepted');
  // free: keys like no param (a label for the reports), one used as a placeholder, suite-wide params, and k6's (its script reads them)
  assert.equal(at(ghzJob('{ call: a.B/C, total: 100, label: cold }')), 'accepted');
  assert.equal(at(ghzJob('{ call: "${param.cal}", cal: a.B/C }')), 'accepted');
  assert.equal(at(yaml.replace('params: { path: /x }', 'params: { path: /x, thread: 1 }')), 'accepted');
  assert.equal(at('version: 1\nsuites:\n  k:\n    subject: x\n    jobs: [{ tool: k6, scenario: s, script: a.js, params: { thread: 1 } }]\n'), 'accepted');
});

test("ghz's data and metadata may be written as YAML mappings, since they are JSON", () => {
  // refused before with "/suites/g/jobs/0/params/data must be string,number,boolean,null,array"
  const config = parseConfig('version: 1\nsuites:\n  g:\n    subject: x\n    jobs: [{ tool: ghz, scenario: s, params: { call: a.B/C, data: { service: "", n: 1 }, metadata: { x-user: u3 } } }]\n', 'g.yaml');
  assert.deepEqual(config.suites.g.jobs[0].params.data, { service: '', n: 1 });
  assert.throws(() => parseConfig('version: 1\nsuites:\n  g:\n    subject: x\n    jobs: [{ tool: ghz, scenario: s, params: { call: a.B/C, total: { n: 1 } } }]\n', 'g.yaml'),
    /\/suites\/g\/jobs\/0\/params\/total must be string,number,boolean,null,array/);
});

test('selections that match nothing, unknown suites and unknown profiles are errors', () => {
  const config = parseConfig(yaml);
  assert.throws(() => planJobs(config, { suite: ['nope'] }), /suite "nope" is not defined/);
  assert.throws(() => planJobs(config, { profile: 'huge' }), /profile "huge" is not defined; choose one of: quick, full/);
  assert.throws(() => planJobs(config, { tool: ['k6'] }), /matches no job/);
});

test('a --variant, --tool, --scenario or --job that no selected suite has is named with the ones there are and the one it nearly spells', () => {
  const config = parseConfig(yaml);
  assert.throws(() => planJobs(config, { variant: ['onn'] }), { message: 'the selection matches no job; --variant onn: no such variant in suite api (variants there: off, on); did you mean on? (bench.config.yaml)' });
  assert.throws(() => planJobs(config, { scenario: ['peek'] }), /; --scenario peek: no such scenario in suite api \(scenarios there: peak, keepalive\); did you mean peak\?/);
  assert.throws(() => planJobs(config, { tool: ['k6'] }), /; --tool k6: no such tool in suite api \(tools there: wrk, ab\) \(bench/);
  assert.throws(() => planJobs(config, { job: ['api.on.wrk.peek'] }), /; --job api\.on\.wrk\.peek: no such job in suite api \(jobs there: api\.off\.wrk\.peak, api\.on\.wrk\.peak, api\.on\.ab\.keepalive\); did you mean api\.on\.wrk\.peak\?/);
  // each value known, but no job has them together (ab runs only in variant on)
  assert.throws(() => planJobs(config, { variant: ['off'], tool: ['ab'] }), { message: 'the selection matches no job; no job has every one of the --variant/--tool/--scenario/--job values given together (bench.config.yaml)' });
});

test('--param values become numbers and booleans where they look like them', () => {
  assert.deepEqual(parseOverrides(['a=1', 'b=2.5', 'c=true', 'd=5s', 'e=a=b']), { a: 1, b: 2.5, c: true, d: '5s', e: 'a=b' });
  assert.throws(() => parseOverrides(['novalue']), /expected key=value/);
});

test('--param may set any parameter a hyperfine job\'s command line reads, like wrk\'s and ab\'s, even one its config leaves at the default', () => {
  const cfg = parseConfig('version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: cli\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true" } }\n', 'bench.config.yaml');
  const [job] = planJobs(cfg, { param: ['warmup=3', 'hyperfine.ignoreFailure=true', 's.runs=50'] });
  assert.deepEqual(job.params, { commands: 'true', warmup: 3, ignoreFailure: true, runs: 50 });
  assert.throws(() => planJobs(cfg, { param: ['run=50'] }), /--param run: the selected jobs have no parameter "run"; known: args, command, commands, ignoreFailure, names, parameterList, parameterScan, prepare, runs, shell, warmup/);
});

test('--param p.NAME sets a JMH @Param, as the job\'s params write it, instead of being accepted and dropped as a job named p', () => {
  const cfg = parseConfig('version: 1\ndefaults: { suites: [j], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  j:\n    subject: sum\n    variants: { only: {} }\n    jobs:\n      - { tool: jmh, scenario: avgt, params: { jar: b.jar, p.size: "100,1000" } }\n      - { tool: hyperfine, scenario: cli, params: { commands: "true" } }\n', 'bench.config.yaml');
  const paramsOf = (param) => Object.fromEntries(planJobs(cfg, { param }).map((j) => [j.tool, j.params]));
  assert.deepEqual(paramsOf(['p.size=10']).jmh, { jar: 'b.jar', 'p.size': 10 });
  assert.deepEqual(paramsOf(['jmh.p.size=20']).jmh, { jar: 'b.jar', 'p.size': 20 });
  assert.deepEqual(paramsOf(['avgt.p.depth=3']).jmh, { jar: 'b.jar', 'p.size': '100,1000', 'p.depth': 3 }, 'any @Param, as in the config');
  assert.deepEqual(paramsOf(['p.depth=3']).jmh, { jar: 'b.jar', 'p.size': '100,1000', 'p.depth': 3 });
  assert.deepEqual(paramsOf(['cli.runs=2']).jmh, { jar: 'b.jar', 'p.size': '100,1000' }, 'a scenario\'s prefix still scopes');
  assert.throws(() => planJobs(cfg, { param: ['x.size=1'] }), /--param x\.size: the selected jobs have no parameter "x\.size"/);
});

test('--param may set a variable a k6 job\'s script reads (VUS, read by its helper) though the config does not list it, and a misspelt one is still refused', () => {
  const dir = tempDir('k6-param-');
  mkdirSync(join(dir, 'loadtests', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  writeFileSync(join(dir, 'loadtests', 'shop.js'), "import http from 'k6/http';\nimport { vus } from './lib/options.js';\nexport const options = { vus: vus(), duration: __ENV.DURATION || '5s' };\nexport default function () { http.get(`${__ENV.BASE_URL}/`); }\n");
  writeFileSync(join(dir, 'loadtests', 'lib', 'options.js'), "export const vus = () => Number(__ENV.VUS || 2);\nexport const maxVus = () => Number(__ENV['MAX_VUS'] || 4);\n");
  writeFileSync(join(dir, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: browse, script: loadtests/shop.js, params: { duration: 2s } }\n');
  const cfg = loadConfig(join(dir, 'bench.config.yaml'));
  const [job] = planJobs(cfg, { param: ['k6.vus=10', 'maxVus=20'] });
  assert.deepEqual(job.params, { duration: '2s', vus: 10, maxVus: 20 });
  assert.throws(() => planJobs(cfg, { param: ['k6.vsu=10'] }), /--param k6\.vsu: the selected k6 jobs have no parameter "vsu"; known: duration, maxVus, vus /);
  assert.throws(() => planJobs(cfg, { param: ['k6.benchlineSummary=x'] }), /k6: param benchlineSummary would set BENCHLINE_SUMMARY, the path of the summary benchline reads, which benchline sets itself/, 'what benchline sets itself is no param');
});

test('--param may set a variable a k6 script reads through a name bound to __ENV or by destructuring it, as the shipped catalog-api traversal reads TRAVERSALS', () => {
  const dir = tempDir('k6-param-alias-');
  mkdirSync(join(dir, 'loadtests'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  writeFileSync(join(dir, 'loadtests', 'shop.js'), [
    "import http from 'k6/http';",
    "const env = typeof __ENV === 'undefined' ? {} : __ENV;",
    'const vars = () => __ENV;',
    "const { RATE, PAGE_SIZE: size = '20' } = __ENV;",
    'const base = __ENV.BASE_URL || "http://localhost";',
    "export const options = { vus: Number(env.VUS || 2), iterations: Number(env['WALKS'] || 1), duration: vars().DURATION || '5s' };",
    'export default function () { http.get(`${base}/?rate=${RATE}&size=${size}&n=${base.length}`); }',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: browse, script: loadtests/shop.js }\n');
  const cfg = loadConfig(join(dir, 'bench.config.yaml'));
  const [job] = planJobs(cfg, { param: ['vus=3', 'walks=2', 'duration=1s', 'rate=5', 'pageSize=10'] });
  assert.deepEqual(job.params, { vus: 3, walks: 2, duration: '1s', rate: 5, pageSize: 10 });
  // `base` holds a value read from __ENV, not __ENV itself: what it has is no variable
  assert.throws(() => planJobs(cfg, { param: ['length=1'] }), /--param length: the selected jobs have no parameter "length"; known: duration, pageSize, rate, vus, walks /);
  const shipped = loadConfig(join(ROOT, 'bench.config.yaml'));
  const traversal = planJobs(shipped, { suite: ['catalog-api'], param: ['traversal.traversals=2'] }).filter((j) => j.scenario === 'traversal');
  assert.ok(traversal.length > 0 && traversal.every((j) => j.params.traversals === 2), 'catalog-traversal.js reads env.TRAVERSALS');
});

test('a k6 job may not judge the throughput of an arrival-rate scenario it measures (the rate it sets), and may judge that of a closed-model one', () => {
  const dir = tempDir('k6-judge-rate-');
  mkdirSync(join(dir, 'loadtests', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  // the shipped fixed-rate script (benchOptions), a closed-model one, and one of k6's docs with both kinds of scenario
  writeFileSync(join(dir, 'loadtests', 'fixed.js'), readFileSync(join(ROOT, 'loadtests', 'k6', 'orders-fixed-rate.js'), 'utf8'));
  writeFileSync(join(dir, 'loadtests', 'ramp.js'), "import http from 'k6/http';\nexport const options = { scenarios: { s: { executor: 'ramping-arrival-rate', startRate: 5, timeUnit: '1s', preAllocatedVUs: 2, stages: [{ target: 20, duration: '2s' }] } } };\nexport default function () { http.get(__ENV.BASE_URL); }\n");
  writeFileSync(join(dir, 'loadtests', 'closed.js'), "import http from 'k6/http';\nexport const options = { vus: 10, duration: '2s' };\nexport default function () { http.get(__ENV.BASE_URL); }\n");
  writeFileSync(join(dir, 'loadtests', 'mixed.js'), readFileSync(join(ROOT, 'test', 'fixtures', 'k6', 'scripts', 'two-scenarios.k6'), 'utf8'));
  writeFileSync(join(dir, 'loadtests', 'both.js'), readFileSync(join(ROOT, 'test', 'fixtures', 'k6', 'scripts', 'scenario-thresholds.k6'), 'utf8'));
  const plan = (script, judge, params = {}) => {
    writeFileSync(join(dir, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: s, script: loadtests/${script}, judge: ${JSON.stringify(judge)}, params: ${JSON.stringify(params)} }\n`);
    return planJobs(loadConfig(join(dir, 'bench.config.yaml')));
  };
  assert.throws(() => plan('fixed.js', ['throughput', 'latency.p50']), /bench\.config\.yaml: suites\.shop job k6\/s \(variant only\): k6: judge names throughput, but loadtests\/fixed\.js starts its iterations at a fixed rate .*its throughput is the rate the script sets/);
  assert.throws(() => plan('ramp.js', ['through*']), /k6: judge names "through\*", which takes in throughput, but loadtests\/ramp\.js starts its iterations at a fixed rate/);
  assert.equal(plan('fixed.js', ['latency.p50', 'error_rate'])[0].judge.length, 2, 'latency of a fixed-rate script is judged');
  assert.deepEqual(plan('closed.js', ['throughput'])[0].judge, ['throughput']);
  // two-scenarios.k6's thresholds name scenario bench's submetrics, so its figures are bench's: 20 requests a second
  // (test/fixtures/k6/two-scenarios.json), whatever its closed-model scenario browse does
  assert.throws(() => plan('mixed.js', ['throughput']), /but scenario bench of loadtests\/mixed\.js, the one measured, is constant-arrival-rate: it starts its iterations at a fixed rate, so its throughput is the rate the script sets/);
  assert.throws(() => plan('both.js', ['throughput'], { k6Scenario: 'buy' }), /but scenario buy of loadtests\/both\.js, the one measured \(k6Scenario\), is constant-arrival-rate/);
  assert.deepEqual(plan('both.js', ['throughput'], { k6Scenario: 'browse' })[0].judge, ['throughput'], 'the closed-model scenario measured: its throughput is the subject\'s');
  assert.deepEqual(plan('both.js', ['throughput'])[0].judge, ['throughput'], 'no scenario measured alone: the whole test, a closed scenario in it, is not refused');
});

test('a k6 job whose k6Scenario is a number or a boolean in YAML is planned with its scenario read as that text, not a TypeError', () => {
  const dir = tempDir('k6-scenario-type-');
  mkdirSync(join(dir, 'loadtests'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  writeFileSync(join(dir, 'loadtests', 'both.js'), readFileSync(join(ROOT, 'test', 'fixtures', 'k6', 'scripts', 'scenario-thresholds.k6'), 'utf8')
    .replace(/\bbuy(\s*:)/, '123$1'));
  const plan = (k6Scenario) => {
    writeFileSync(join(dir, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: s, script: loadtests/both.js, judge: [throughput], params: { k6Scenario: ${k6Scenario} } }\n`);
    return planJobs(loadConfig(join(dir, 'bench.config.yaml')));
  };
  // scenario 123 (a YAML number) is constant-arrival-rate, as buy was; true names no scenario of the script, which is refused by its text
  assert.throws(() => plan('123'), /but scenario 123 of loadtests\/both\.js, the one measured \(k6Scenario\), is constant-arrival-rate/);
  assert.throws(() => plan('true'), /k6: k6Scenario is true, but loadtests\/both\.js has no scenario of that name \(its scenarios: browse, 123\)/);
});

test('a k6 script of many unclosed scenario objects is planned in a moment, not scanned to its end once for each', () => {
  const dir = tempDir('k6-scenario-scan-');
  mkdirSync(join(dir, 'loadtests'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  // 360 KB: a threshold on {scenario:bench} makes bench the scenario measured, and each `bench: {` is left open (scanned
  // to the end once for each, it took over 15 s of CPU)
  writeFileSync(join(dir, 'loadtests', 'open.js'), `// {scenario:bench}\n${' bench: {'.repeat(40000)}\n`);
  writeFileSync(join(dir, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: s, script: loadtests/open.js, judge: [throughput] }\n');
  const started = Date.now();
  assert.deepEqual(planJobs(loadConfig(join(dir, 'bench.config.yaml')))[0].judge, ['throughput']);
  assert.ok(Date.now() - started < 4000, `planned in ${Date.now() - started} ms`);
});

test('a k6 job may not judge a Counter of sizes or times of a script that runs for a set time (a faster subject makes it sum more), and may in one of a fixed amount of work', () => {
  const dir = tempDir('k6-judge-sums-');
  mkdirSync(join(dir, 'loadtests'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  // counter-sums.k6: vus and duration, Counters received_bytes and wait_total (isTime); the shipped traversal runs
  // per-vu-iterations and keeps the time of its walks in the Counter bl_traversal_time (kept as traversal_time)
  writeFileSync(join(dir, 'loadtests', 'sums.js'), readFileSync(join(ROOT, 'test', 'fixtures', 'k6', 'scripts', 'counter-sums.k6'), 'utf8'));
  writeFileSync(join(dir, 'loadtests', 'walk.js'), readFileSync(join(ROOT, 'loadtests', 'k6', 'catalog-traversal.js'), 'utf8'));
  const plan = (script, judge) => {
    writeFileSync(join(dir, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: s, script: loadtests/${script}, judge: ${JSON.stringify(judge)} }\n`);
    return planJobs(loadConfig(join(dir, 'bench.config.yaml')));
  };
  assert.throws(() => plan('sums.js', ['latency.p50', 'received_bytes']), /k6: judge names received_bytes, a Counter of sizes that loadtests\/sums\.js adds to in its iterations, but it runs for a set time \(constant-vus\), so the Counter sums over as many iterations as the subject let it make/);
  assert.throws(() => plan('sums.js', ['*_bytes']), /k6: judge names "\*_bytes", which takes in received_bytes, a Counter of sizes/);
  assert.throws(() => plan('sums.js', ['wait_*']), /judge names "wait_\*", which takes in wait_total, a Counter of times/);
  assert.deepEqual(plan('sums.js', ['throughput', 'latency.p50'])[0].judge, ['throughput', 'latency.p50'], 'its other metrics stay judgeable');
  assert.deepEqual(plan('walk.js', ['traversal_time'])[0].judge, ['traversal_time'], 'a fixed amount of work: the time of the walks is the subject\'s');
});

test('a k6 param that would replace a variable benchline sets for the script (BASE_URL, GRPC_TARGET) is refused when the run is planned, from --param or the config, naming the param and what it overrides', () => {
  const dir = tempDir('k6-base-url-');
  mkdirSync(join(dir, 'loadtests'), { recursive: true });
  mkdirSync(join(dir, 'subjects', 'shop'), { recursive: true });
  writeFileSync(join(dir, 'subjects', 'shop', 'subject.yaml'), 'name: shop\nprocesses: {}\n');
  writeFileSync(join(dir, 'loadtests', 'shop.js'), "import http from 'k6/http';\nexport default function () { http.get(`${__ENV.BASE_URL}/`); }\n");
  const write = (params) => writeFileSync(join(dir, 'bench.config.yaml'), `version: 1\ndefaults: { suites: [shop], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  shop:\n    subject: shop\n    variants: { only: {} }\n    jobs:\n      - { tool: k6, scenario: browse, script: loadtests/shop.js, params: ${params} }\n`);
  write('{ vus: 2 }');
  const cfg = loadConfig(join(dir, 'bench.config.yaml'));
  assert.throws(() => planJobs(cfg, { param: ['k6.baseUrl=http://203.0.113.5:80'] }), { message: "--param k6.baseUrl=http://203.0.113.5:80: k6: param baseUrl would set BASE_URL, the subject's address (its manifest's target.url), which benchline sets itself; k6 would then load something else and its numbers be kept as the subject's: remove the param (the subject's manifest sets its address) (job shop.only.k6.browse); give a value the tool takes, or drop the --param" });
  assert.throws(() => planJobs(cfg, { param: ['grpcTarget=203.0.113.5:443'] }), /--param grpcTarget=203\.0\.113\.5:443: k6: param grpcTarget would set GRPC_TARGET, the subject's gRPC address/);
  write('{ vus: 2, base_url: "http://203.0.113.5" }');
  assert.throws(() => planJobs(loadConfig(join(dir, 'bench.config.yaml'))), /bench\.config\.yaml: suites\.shop job k6\/browse \(variant only\): k6: param base_url would set BASE_URL, .*; fix the job's params/);
});

test('a job\'s own params go through the checks --param does when the run is planned: a duration of 0s or a count above the tool\'s int is refused naming the file, the job and the fix', () => {
  const wrkJob = (params) => parseConfig(`version: 1\ndefaults: { suites: [web], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  web:\n    subject: web\n    variants: { only: {} }\n    jobs:\n      - { tool: wrk, scenario: peak, params: ${params} }\n      - { tool: ab, scenario: n, params: { requests: 100 } }\n`, 'bench.config.yaml');
  const at = 'bench.config.yaml: suites.web job wrk/peak (variant only): wrk: param';
  assert.throws(() => planJobs(wrkJob('{ duration: 0s }')), { message: `${at} duration must be a whole number of seconds, minutes or hours such as "5s", "1m" or 5, in plain digits and at most 2147483647 seconds (wrk takes no fractions or milliseconds), got "0s"; fix the job's params (docs/config.md)` });
  assert.throws(() => planJobs(wrkJob('{ duration: 1s, threads: 1e99 }')), { message: `${at} threads must be a whole number from 1 to 2147483647 in plain digits, got 1e+99 (2147483647 is the most wrk takes); fix the job's params (docs/config.md)` });
  assert.throws(() => planJobs(wrkJob('{ duration: 1s }'), { param: ['ab.requests=3000000000'] }), /--param ab\.requests=3000000000: ab: param requests must be a whole number from 1 to 2147483647/);
  // a value only the run fills in is left to the run
  assert.equal(planJobs(wrkJob('{ duration: "${param.d}s" }')).length, 2);
  assert.deepEqual(planJobs(wrkJob('{ duration: 1s, threads: 2147483647, connections: 2147483647 }'))[0].params, { duration: '1s', threads: 2147483647, connections: 2147483647 });
});

test('a hyperfine job param hyperfine would never see (a misspelt one, or a hyperfine option benchline does not pass) is refused with the file, the job, the key and what to write', () => {
  const hf = (params, extra = '') => parseConfig(`version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: cli\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: ${params}${extra} }\n`, 'bench.config.yaml');
  const at = 'bench.config.yaml: suites.cli job hyperfine/s (variant only): hyperfine: param';
  assert.throws(() => planJobs(hf('{ commands: "true", run: 50 }')), { message: `${at} run is not one benchline reads, so it would be ignored (did you mean runs?); hyperfine jobs read commands, command, names, runs, warmup, prepare, parameterList, parameterScan, ignoreFailure, shell, args (docs/config.md, hyperfine)` });
  assert.throws(() => planJobs(hf('{ commands: "true", warmpu: 3 }')), /param warmpu is not one benchline reads, so it would be ignored \(did you mean warmup\?\)/);
  assert.throws(() => planJobs(hf('{ commands: "true", ignore-failure: true }')), /param ignore-failure is not one benchline reads.*\(did you mean ignoreFailure\?\)/);
  assert.throws(() => planJobs(hf('{ commands: "true" }', ', profiles: { quick: { runs: 5, minRuns: 20 } }')), { message: `${at} minRuns (hyperfine --min-runs) is not one benchline passes to hyperfine, so it would be ignored: set runs (every trial makes exactly that many runs)` });
  assert.throws(() => planJobs(hf('{ commands: "cat f", setup: "echo > f" }')), /param setup \(hyperfine --setup\) is not one benchline passes to hyperfine, so it would be ignored: run it in prepare/);
  // names a command or the subject reads as \${param.NAME}, and other names, are the job's own business
  assert.equal(planJobs(hf('{ commands: "sleep ${param.run}", run: 0.01, path: /x, pageSize: 20 }'))[0].params.run, 0.01);
  const root = tempDir('hf-params');
  mkdirSync(join(root, 'subjects', 'cli'), { recursive: true });
  writeFileSync(join(root, 'subjects', 'cli', 'subject.yaml'), 'name: cli\nprocesses:\n  app:\n    command: ["./app", "--name", "${param.name}"]\n');
  writeFileSync(join(root, 'bench.config.yaml'), 'version: 1\ndefaults: { suites: [cli], profile: quick }\nprofiles: { quick: { trials: 1 } }\nsuites:\n  cli:\n    subject: cli\n    variants: { only: {} }\n    jobs:\n      - { tool: hyperfine, scenario: s, params: { commands: "true", name: x } }\n');
  assert.equal(planJobs(loadConfig(join(root, 'bench.config.yaml')))[0].params.name, 'x', 'the subject reads it');
});

test('the shipped bench.config.yaml is valid and every suite names an existing subject folder', async () => {
  const { existsSync } = await import('node:fs');
  const config = loadConfig('bench.config.yaml');
  for (const [name, suite] of Object.entries(config.suites)) {
    assert.ok(existsSync(`subjects/${suite.subject}/subject.yaml`), `suite ${name}: subjects/${suite.subject}/subject.yaml`);
    for (const job of suite.jobs) if (job.script) assert.ok(existsSync(job.script), `suite ${name}: ${job.script}`);
  }
});

test('a judge list may not name a metric that restates a run parameter, and rounds need rising looks with one share of alpha each', () => {
  assert.throws(() => parseConfig(yaml.replace('params: { connections: 4, duration: 2s }', 'params: { connections: 4, duration: 2s }\n        judge: [throughput, bytes_received]'), 'x.yaml'),
    /^\w*Error: x\.yaml: suites\.api\.jobs\[0\] judge lists bytes_received, which restates a run parameter/);
  const withCompare = (c) => parseConfig(`${yaml}compare:\n  rounds: ${c}\n`, 'x.yaml');
  assert.throws(() => withCompare('{ looks: [8, 8] }'), /x\.yaml: compare\.rounds\.looks must rise \(8, 8\)/);
  assert.throws(() => withCompare('{ looks: [8, 12], weights: [0.5, 0.3] }'), /x\.yaml: compare\.rounds\.weights must give one share of alpha per look and sum to 1/);
  assert.deepEqual(withCompare('{ looks: [6, 10] }').compare.rounds, { looks: [6, 10], weights: [0.5, 0.5] }, 'weights default to equal shares');
  assert.deepEqual(parseConfig(yaml).compare.rounds, { looks: [8, 16, 32], weights: [0.25, 0.25, 0.5] });
  assert.deepEqual(parseConfig(yaml).compare.budget, { job: 240, run: 540 });
});

test('a job judges other metrics in a variant named in judgeByVariant, and the variant and list are checked when the config is loaded', () => {
  const withJudge = (j) => parseConfig(yaml.replace('params: { connections: 4, duration: 2s }', `params: { connections: 4, duration: 2s }\n        judge: [throughput, latency.p50]\n        judgeByVariant: ${j}`), 'x.yaml');
  const jobs = planJobs(withJudge('{ on: [error_rate] }'));
  assert.deepEqual(jobs.map((j) => [j.id, j.judge]), [['api.off.wrk.peak', ['throughput', 'latency.p50']], ['api.on.wrk.peak', ['error_rate']], ['api.on.ab.keepalive', undefined]]);
  assert.throws(() => withJudge('{ onn: [error_rate] }'), /^\w*Error: x\.yaml: suites\.api\.jobs\[0\]\.judgeByVariant names variant "onn", which the suite does not define \(variants: off, on\)$/);
  assert.throws(() => withJudge('{ on: [requests] }'), /^\w*Error: x\.yaml: suites\.api\.jobs\[0\]\.judgeByVariant\.on: judge lists requests, which restates a run parameter/);
});

test('restart is auto, round or never, from compare.restart unless a job sets its own', () => {
  assert.equal(planJobs(parseConfig(yaml))[0].restart, undefined, 'unset: the runner applies auto');
  const cfg = parseConfig(`${yaml}compare:\n  restart: never\n`.replace('params: { connections: 4, duration: 2s }', 'params: { connections: 4, duration: 2s }\n        restart: round'));
  assert.deepEqual(planJobs(cfg).map((j) => [j.tool, j.restart]), [['wrk', 'round'], ['wrk', 'round'], ['ab', 'never']]);
  assert.throws(() => parseConfig(`${yaml}compare:\n  restart: sometimes\n`, 'x.yaml'), /x\.yaml: does not match the configuration schema.*\/compare\/restart must be equal to one of the allowed values/s);
});

test('a value outside a key\'s allowed values is refused with the values it may take', () => {
  assert.throws(() => parseConfig(`${yaml}compare:\n  restart: sometimes\n`, 'x.yaml'), { message: 'x.yaml: does not match the configuration schema (docs/config.md): /compare/restart must be equal to one of the allowed values: "auto", "round", "never"' });
  assert.throws(() => parseConfig(yaml.replace('params: { path: /x }', 'params: { path: /x }\n    interleave: yes'), 'x.yaml'), /\/suites\/api\/interleave must be equal to one of the allowed values: "variants"$/);
});

test('a suite\'s report outside the project, or one that does not exist, is refused when the config is loaded, before any job runs', () => {
  const root = tempDir('report-path');
  mkdirSync(join(root, 'subjects', 'api'), { recursive: true });
  writeFileSync(join(root, 'subjects', 'api', 'report.js'), 'export const render = () => "";\n');
  const load = (report) => {
    writeFileSync(join(root, 'bench.config.yaml'), yaml.replace('    subject: api\n', `    subject: api\n    report: ${report}\n`));
    return loadConfig(join(root, 'bench.config.yaml'));
  };
  assert.equal(load('subjects/api/report.js').suites.api.report, 'subjects/api/report.js');
  const file = join(root, 'bench.config.yaml');
  assert.throws(() => load('../etc/report.js'), { message: `${file}: suites.api.report "../etc/report.js" must be a .js file inside the project, relative to its root (e.g. subjects/api/report.js)` });
  assert.throws(() => load('subjects/api/reprot.js'), { message: `${file}: suites.api.report names "subjects/api/reprot.js", which does not exist; add it or remove \`report:\`` });
});

test('duet is the tool\'s default unless compare.duet is never or a job sets its own', () => {
  assert.deepEqual(planJobs(parseConfig(yaml)).map((j) => j.duet), [undefined, undefined, undefined], 'unset: the runner asks the tool');
  const cfg = parseConfig(`${yaml}compare:\n  duet: never\n`.replace('params: { connections: 4, duration: 2s }', 'params: { connections: 4, duration: 2s }\n        duet: true'));
  assert.deepEqual(planJobs(cfg).map((j) => [j.tool, j.duet]), [['wrk', true], ['wrk', true], ['ab', false]]);
  assert.throws(() => parseConfig(`${yaml}compare:\n  duet: always\n`, 'x.yaml'), /x\.yaml: does not match the configuration schema.*\/compare\/duet must be equal to one of the allowed values/s);
  assert.throws(() => parseConfig(yaml.replace('params: { connections: 4, duration: 2s }', 'params: { connections: 4, duration: 2s }\n        duet: yes please'), 'x.yaml'), /\/suites\/api\/jobs\/0\/duet must be boolean/s);
});

test('a misspelt config key, two swapped letters included, is named with the key it nearly spells; a key like none gets no guess', () => {
  const at = (yaml) => { try { parseConfig(yaml); } catch (e) { return e.message; } return 'accepted'; };
  assert.match(at('version: 1\nsuites:\n  a:\n    subject: x\n    jobs: [{ tool: wrk, scenario: s, parms: {} }]\n'), /\/suites\/a\/jobs\/0 must NOT have additional properties \("parms"\) \(did you mean "params"\?\)$/);
  assert.match(at('version: 1\nsuites:\n  a:\n    subject: x\n    varients: {}\n    jobs: [{ tool: wrk, scenario: s }]\n'), /\("varients"\) \(did you mean "variants"\?\)$/);
  // two letters swapped is one slip, as in a quick "judge"
  assert.match(at('version: 1\nsuites:\n  a:\n    subject: x\n    jobs: [{ tool: wrk, scenario: s, jugde: [throughput] }]\n'), /\("jugde"\) \(did you mean "judge"\?\)$/);
  assert.match(at('version: 1\nprofiles:\n  quick: { trails: 3 }\nsuites: {}\n'), /\("trails"\) \(did you mean "trials"\?\)$/);
  assert.match(at('version: 1\nsuites:\n  a:\n    subject: x\n    jobs: [{ tool: wrk, scenario: s, zzzzzz: 1 }]\n'), /\("zzzzzz"\)$/);
});

test('a profile without trials is refused when the config is loaded, since its jobs would be planned with no trial count', () => {
  const yaml = 'version: 1\nprofiles: { smoke: { description: a quick look } }\nsuites:\n  a:\n    subject: x\n    jobs: [{ tool: wrk, scenario: s }]\n';
  assert.throws(() => parseConfig(yaml, 'x.yaml'), { message: "x.yaml: does not match the configuration schema (docs/config.md): /profiles/smoke must have required property 'trials'" });
});

test('a variant key the runner never reads is refused, not accepted and ignored', () => {
  const yaml = 'version: 1\nsuites:\n  a:\n    subject: x\n    variants: { v: { native: true } }\n    jobs: [{ tool: wrk, scenario: s }]\n';
  assert.throws(() => parseConfig(yaml, 'x.yaml'), /\/suites\/a\/variants\/v must NOT have additional properties \("native"\)/);
});

test('a config without compare.metrics judges tail latencies at 10-15% and the rest at compare.minEffect, and one of its own replaces that table', () => {
  const plain = parseConfig(yaml, 'bench.config.yaml').compare;
  assert.equal(minEffectFor('latency.p50', plain), 0.02);
  assert.equal(minEffectFor('latency.p95', plain), 0.1);
  assert.equal(minEffectFor('latency.p99', plain), 0.1);
  assert.equal(minEffectFor('latency.p99.9', plain), 0.15);
  assert.equal(minEffectFor('throughput', plain), 0.02);
  const own = parseConfig(`${yaml}\ncompare:\n  minEffect: 0.03\n  metrics: { "latency.*": 0.05 }\n`, 'bench.config.yaml').compare;
  assert.equal(minEffectFor('latency.p95', own), 0.05, 'its glob, not the default exact entry');
  assert.equal(minEffectFor('throughput', own), 0.03);
  const none = parseConfig(`${yaml}\ncompare:\n  metrics: {}\n`, 'bench.config.yaml').compare;
  assert.equal(minEffectFor('latency.p99', none), 0.02, 'an empty table of its own turns the tail defaults off');
});

test('two jobs whose ids would be one (dots in suite or variant names), or a scenario ending in .failed, are refused when the config is loaded', () => {
  const job = '{ tool: wrk, scenario: x, params: { path: / } }';
  const collide = `version: 1\nsuites:\n  a:\n    subject: s\n    variants: { b.c: {} }\n    jobs: [${job}]\n  a.b:\n    subject: s\n    variants: { c: {} }\n    jobs: [${job}]\n`;
  assert.throws(() => parseConfig(collide, 'x.yaml'), { message: 'x.yaml: suites.a.b.jobs[0] (wrk/x, variant c) and suites.a.jobs[0] (wrk/x, variant b.c) have the same job id "a.b.c.wrk.x" (suite, variant, tool and scenario joined by dots), so their results would overwrite each other; rename one (a scenario of its own, or a suite or variant name without a dot)' });
  assert.throws(() => parseConfig(`version: 1\nsuites:\n  a:\n    subject: s\n    jobs: [${job}, ${job}]\n`, 'x.yaml'), /suites\.a\.jobs\[1\] \(wrk\/x, variant default\) and suites\.a\.jobs\[0\] \(wrk\/x, variant default\) have the same job id "a\.default\.wrk\.x"/);
  assert.throws(() => parseConfig(`version: 1\nsuites:\n  a:\n    subject: s\n    jobs: [{ tool: wrk, scenario: nightly.failed }]\n`, 'x.yaml'), /x\.yaml: suites\.a\.jobs\[0\] \(wrk\/nightly\.failed, variant default\): a scenario named "failed" or ending in "\.failed" would be stored as a\.default\.wrk\.nightly\.failed\.json, the name of the failure record of a job a\.default\.wrk\.nightly; rename the scenario/);
  assert.doesNotThrow(() => parseConfig(collide.replace('scenario: x, params: { path: / } }]\n  a.b', 'scenario: y, params: { path: / } }]\n  a.b'), 'x.yaml'));
});

test('the YAML parser is loaded when a config is first parsed, not when a command that reads none starts', () => {
  // `benchline site` from a store alone imports config.js but parses no YAML: loading the parser would only cost it time
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const loaded = () => Object.keys(require.cache).some((f) => f.includes('/node_modules/yaml/'));
    await import('./ci/commands/site.js');
    const atStart = loaded();
    const { parseConfig } = await import('./ci/config.js');
    try { parseConfig('suites: {}\\n'); } catch { /* only the parser's loading matters here */ }
    process.stdout.write(JSON.stringify({ atStart, afterParse: loaded() }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { atStart: false, afterParse: true });
});

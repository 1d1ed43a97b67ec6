// The reference tables in docs/ against the code they describe: a key, flag or param added, renamed or removed in
// the code without the docs (or the other way round) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { parseConfig } from '../ci/config.js';
import { planJobs } from '../ci/plan.js';
import { manifestProblems } from '../ci/subjects.js';
import { ADAPTERS } from '../ci/adapters/index.js';
import { PER_MEASUREMENT_TIME, RESTATED, isExtreme, isJudged } from '../ci/compare.js';
import { DEFAULT_POLICY } from '../ci/store/store.js';
import { ALERT_DEFAULTS } from '../.github/scripts/alert-settings.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (...p) => readFileSync(join(ROOT, ...p), 'utf8');
const CONFIG_DOC = read('docs', 'config.md');

/** The text of a doc from the heading `title` (a whole line) to the next heading of the same or a higher level. */
function section(doc, title) {
  const lines = doc.split('\n');
  const start = lines.indexOf(title);
  assert.ok(start >= 0, `no heading "${title}"`);
  const level = title.match(/^#+/)[0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.match(/^#+/)[0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** Rows of the `| key | type | default | effect |` table in `text`: { key, type, def, effect } by key. */
function keyTable(text) {
  const rows = new Map();
  let inTable = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('| key | type | default | effect |')) { inTable = true; continue; }
    if (!inTable) continue;
    if (!line.startsWith('|')) { inTable = false; continue; }
    const cells = line.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, ''));
    const key = cells[0].match(/^`([^`]+)`$/)?.[1];
    if (!key) continue; // the |---| line
    assert.ok(!rows.has(key), `${key} has two rows`);
    rows.set(key, { key, type: cells[1], def: cells[2], effect: cells[3] });
  }
  return rows;
}

/**
 * The keys a JSON Schema lets one write, as dotted paths: `<name>` for a map of named entries whose entries have keys
 * of their own (`names` gives the word per map key), `[]` for a list of such entries. Keys that only hold others (a
 * section such as `compare.rounds`) are left out; a map of free names (`env`, `params`) is one key.
 */
function schemaKeys(schema, names) {
  const deref = (s) => (s?.$ref?.startsWith('#/$defs/') ? schema.$defs[s.$ref.slice(8)] : s);
  const nested = (s) => Boolean(deref(s)?.properties);
  const out = [];
  const walk = (s, path, key) => {
    s = deref(s);
    const isMap = s.additionalProperties && nested(s.additionalProperties) && names[key];
    const isList = s.items && nested(s.items);
    // a map of free names whose entries are plain values (params: a tool's own names, in the tools' sections) is one key
    const free = s.additionalProperties && s.additionalProperties !== false && !nested(s.additionalProperties);
    if (path && (free || (!s.properties && !isMap && !isList))) { out.push(path); if (free) return; }
    for (const [k, v] of Object.entries(s.properties || {})) walk(v, path ? `${path}.${k}` : k, k);
    if (isMap) walk(s.additionalProperties, `${path}.<${names[key]}>`, null);
    if (isList) walk(s.items, `${path}[]`, null);
  };
  walk(schema, '', null);
  return out;
}

const configSchema = JSON.parse(read('ci', 'schema', 'config.schema.json'));
const subjectSchema = JSON.parse(read('ci', 'schema', 'subject.schema.json'));

test('every key bench.config.yaml takes has a row in docs/config.md\'s key table, and every row is a key the loader takes', () => {
  const documented = [...keyTable(section(CONFIG_DOC, '### Every key')).keys()];
  const keys = schemaKeys(configSchema, { profiles: 'profile', suites: 'suite', variants: 'variant' });
  assert.ok(keys.includes('suites.<suite>.jobs[].judge') && keys.includes('compare.rounds.looks'), 'the walk reaches jobs and nested sections');
  assert.deepEqual(keys.filter((k) => !documented.includes(k)), [], 'keys of ci/schema/config.schema.json missing from docs/config.md, "Every key"');
  assert.deepEqual(documented.filter((k) => !keys.includes(k)), [], 'rows of docs/config.md, "Every key", the schema does not have');
});

test('the defaults docs/config.md\'s key table gives are the ones the loader and the publish workflow fill in', () => {
  const rows = keyTable(section(CONFIG_DOC, '### Every key'));
  const loaded = parseConfig('version: 1\nsuites: {}\n');
  const actual = { ...loaded, compare: { ...loaded.compare, alert: ALERT_DEFAULTS } };
  let checked = 0;
  for (const { key, def } of rows.values()) {
    const path = key.split('.');
    if (path.some((p) => p.startsWith('<') || p.endsWith('[]'))) continue;
    const value = path.reduce((o, p) => o?.[p], actual);
    const literal = def.match(/^`([^`]+)`/)?.[1];
    if (value === undefined) continue; // filled in where it is used (compare.restart: the runner), checked by its own tests
    assert.ok(literal !== undefined, `${key}: the loader fills in ${JSON.stringify(value)}, the docs give no literal default ("${def}")`);
    assert.deepEqual(YAML.parse(literal), value, `${key}: docs/config.md says ${literal}, the code ${JSON.stringify(value)}`);
    checked += 1;
  }
  assert.ok(checked >= 15, `only ${checked} defaults checked`);
});

test('every key of a subject manifest has a row in docs/config.md\'s subject.yaml table, and every row is a key the manifest schema takes', () => {
  const documented = [...keyTable(section(CONFIG_DOC, '## subjects/<name>/subject.yaml')).keys()];
  const keys = schemaKeys(subjectSchema, { processes: 'process' });
  assert.ok(keys.includes('processes.<process>.health.timeout') && keys.includes('processes.<process>.templates[].to'), 'the walk reaches processes');
  assert.deepEqual(keys.filter((k) => !documented.includes(k)), [], 'keys of ci/schema/subject.schema.json missing from docs/config.md');
  assert.deepEqual(documented.filter((k) => !keys.includes(k)), [], 'rows of the subject.yaml table the schema does not have');
});

const CLI_DOC = read('docs', 'cli.md');
/** `benchline ...args` as run from the checkout, without a GitHub API address from the environment (--api-url's default). */
const helpTexts = new Map();
const cliHelp = (...args) => {
  const key = args.join(' ');
  if (!helpTexts.has(key)) {
    const env = { ...process.env };
    delete env.GITHUB_API_URL;
    helpTexts.set(key, execFileSync(process.execPath, [join(ROOT, 'ci', 'cli.js'), ...args, '--help'], { encoding: 'utf8', env, cwd: ROOT }));
  }
  return helpTexts.get(key);
};
const COMMANDS = [...cliHelp().split(/\nCommands:\n/)[1].matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]).filter((c) => c !== 'help');

/** A command's options as --help prints them: { spec ("-c, --config <file>"), text, default, choices } by long name. */
function helpOptions(command) {
  const text = cliHelp(command).split(/\nOptions:\n/)[1];
  const options = new Map();
  let last;
  for (const line of text.split('\n')) {
    const m = /^ {2}((?:-\w, )?--[\w-]+(?: <[^>]+>)?) {2,}(.*)$/.exec(line);
    if (m) {
      last = { spec: m[1], text: m[2] };
      options.set(m[1].match(/--[\w-]+/)[0], last);
    } else if (last && /^ {10,}\S/.test(line)) last.text += ` ${line.trim()}`;
  }
  options.delete('--help');
  for (const o of options.values()) {
    o.choices = [...(o.text.match(/\(choices: ([^)]*)\)/)?.[1] || '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    o.default = o.text.match(/default: ("[^"]*"|[^,)]+)\)?$/)?.[1]?.replace(/^"|"$/g, '');
  }
  return options;
}

/** Rows of the `| option | default | meaning |` table of docs/cli.md's section of `command`, by long name. */
function docOptions(command) {
  const rows = new Map();
  for (const line of section(CLI_DOC, `## benchline ${command}`).split('\n')) {
    const m = /^\| `([^`]+)` \| (.*) \| (.*) \|$/.exec(line);
    if (m) rows.set(m[1].match(/--[\w-]+/)[0], { spec: m[1], def: m[2], meaning: m[3] });
  }
  return rows;
}
/** Commands whose section says they take another command's options (bench: all of run's; plan: run's selection). */
const TAKES = { bench: 'run', plan: 'run' };

test('docs/cli.md has a section for every benchline command, and every section is a command', () => {
  assert.ok(COMMANDS.length >= 10, COMMANDS.join(' '));
  const sections = [...CLI_DOC.matchAll(/^## benchline ([a-z]+)$/gm)].map((m) => m[1]);
  assert.deepEqual([...sections].sort(), [...COMMANDS].sort());
});

test('every option a command\'s --help lists is in docs/cli.md with the same spelling, default and choices, and every documented option exists', () => {
  for (const command of COMMANDS) {
    const help = helpOptions(command);
    const own = docOptions(command);
    const documented = new Map([...(TAKES[command] ? docOptions(TAKES[command]) : []), ...own]);
    for (const [name, o] of help) {
      const row = documented.get(name);
      assert.ok(row, `benchline ${command} ${name} is not in docs/cli.md`);
      assert.equal(row.spec, o.spec, `benchline ${command} ${name}: docs/cli.md writes it differently`);
      if (o.default && o.default !== '[]') assert.ok(row.def.includes(o.default), `benchline ${command} ${name}: --help's default is ${o.default}, docs/cli.md says "${row.def}"`);
      for (const c of o.choices) assert.ok(`${row.def} ${row.meaning}`.includes(`\`${c}\``), `benchline ${command} ${name}: choice ${c} is not in docs/cli.md`);
    }
    for (const name of own.keys()) assert.ok(help.has(name), `docs/cli.md documents ${name} for benchline ${command}, whose --help has no such option`);
  }
});

test('every --option a benchline command line in README.md and docs/ uses is one that command takes', () => {
  const files = ['README.md', 'reports-site/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const known = Object.fromEntries(COMMANDS.map((c) => [c, new Set([...helpOptions(c).keys(), '--help'].flatMap((n) => [n, n.replace(/^--no-/, '--')]))]));
  const problems = [];
  let seen = 0;
  for (const file of files) {
    for (const line of read(file).split('\n')) {
      for (const m of line.matchAll(/(?:benchline|node ci\/cli\.js) ([a-z]+)([^`#|]*)|npm run bench -- ([^`#|]*)/g)) {
        const [command, rest] = m[3] !== undefined ? ['bench', m[3]] : [m[1], m[2]];
        if (!known[command]) continue; // prose: "benchline passes ..."
        for (const flag of rest.match(/(?<![\w-])--[a-z][\w-]*/g) || []) {
          seen += 1;
          if (!known[command].has(flag)) problems.push(`${file}: benchline ${command} ${flag}`);
        }
      }
    }
  }
  assert.ok(seen >= 20, `only ${seen} flags found`);
  assert.deepEqual(problems, []);
});

/** The ```yaml blocks of a doc: { line, text }. */
const yamlBlocks = (doc) => [...doc.matchAll(/^```yaml[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => ({ line: doc.slice(0, m.index).split('\n').length, text: m[1] }));

test('every bench.config.yaml, job and subject.yaml snippet in docs/ passes the loader, the planner and the manifest schema', () => {
  let checked = 0;
  for (const file of ['config.md', 'github-actions.md']) {
    for (const { line, text } of yamlBlocks(read('docs', file))) {
      const where = `docs/${file}:${line}`;
      const parsed = YAML.parse(text);
      let configText;
      if (parsed?.version !== undefined) configText = text;
      else if (Array.isArray(parsed) && parsed.every((j) => j.tool)) configText = `version: 1\nsuites:\n  s:\n    subject: x\n    jobs:\n${text.replace(/^/gm, '      ')}`;
      else if (parsed?.jobs && parsed.variants) configText = `version: 1\nsuites:\n  s:\n    subject: x\n${text.replace(/^/gm, '    ')}`;
      if (configText) {
        const config = parseConfig(configText, where);
        assert.ok(planJobs(config, { suite: Object.keys(config.suites) }).length > 0, where);
        checked += 1;
      } else if (parsed?.processes || parsed?.target) {
        assert.deepEqual(manifestProblems(parsed), [], where);
        checked += 1;
      }
    }
  }
  assert.ok(checked >= 12, `only ${checked} snippets checked`);
});

test('each tool\'s section in docs/config.md names every param its adapter reads and shows a job of that tool', () => {
  const tools = section(CONFIG_DOC, '## Tools and their job params');
  for (const [tool, adapter] of Object.entries(ADAPTERS)) {
    const title = tools.split('\n').find((l) => l.toLowerCase().startsWith(`### ${tool} `) || l.toLowerCase() === `### ${tool}`);
    assert.ok(title, `docs/config.md has no section for ${tool}`);
    const text = section(tools, title);
    const params = [...(adapter.params || []), ...(adapter.ADAPTER_PARAMS || []), ...(adapter.paramPrefixes || []).map((p) => `${p}NAME`)];
    for (const p of params) assert.ok(text.includes(`\`${p}\``), `docs/config.md, "${title}": param ${p} of ci/adapters is not named`);
    assert.match(text, new RegExp(`^-? *tool: ${tool}$`, 'm'), `docs/config.md, "${title}" shows no job of ${tool}`);
  }
});

test('every metric a tool\'s captured outputs give is named in that tool\'s section of docs/config.md (k6 keeps a script\'s own names)', () => {
  const tools = section(CONFIG_DOC, '## Tools and their job params');
  const isRaw = (f) => /\.(txt|json|csv)$/.test(f) && !f.endsWith('.stdout.txt');
  for (const tool of Object.keys(ADAPTERS).filter((t) => t !== 'k6')) {
    const title = tools.split('\n').find((l) => l.toLowerCase().startsWith(`### ${tool} `) || l.toLowerCase() === `### ${tool}`);
    const text = section(tools, title);
    const dir = join(ROOT, 'test', 'fixtures', tool);
    const names = new Set();
    for (const f of readdirSync(dir).filter(isRaw)) {
      try {
        for (const m of ADAPTERS[tool].parse(readFileSync(join(dir, f), 'utf8'), { params: {} }).metrics) names.add(m.name);
      } catch { /* the broken outputs among the fixtures: test/normalize.test.js */ }
    }
    assert.ok(names.size >= 4, `${tool}: only ${names.size} metric names from test/fixtures/${tool}`);
    for (const n of names) assert.ok(text.includes(`\`${n}\``), `docs/config.md, "${title}": metric ${n} (from test/fixtures/${tool}) is not named`);
  }
});

test('each tool\'s metric table in docs/config.md gives the unit, direction, default verdict and resolution its captured outputs carry', () => {
  const tools = section(CONFIG_DOC, '## Tools and their job params');
  const fixtures = { ghz: ['ghz', 'grpc-streaming'] };
  for (const tool of Object.keys(ADAPTERS)) {
    const title = tools.split('\n').find((l) => l.toLowerCase().startsWith(`### ${tool} `) || l.toLowerCase() === `### ${tool}`);
    const rows = new Map();
    // rows of the section's metric table only (its header starts | metric | unit |), not of other tables beside it
    let inTable = false;
    for (const line of section(tools, title).split('\n')) {
      if (!line.startsWith('|')) inTable = false;
      else if (/^\| metric \| unit \|/.test(line)) inTable = true;
      if (!inTable || !/^\| `/.test(line)) continue;
      const [names, unit, better, judged, resolution] = line.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, ''));
      for (const [, n] of names.matchAll(/`([^`]+)`/g)) rows.set(n, { unit, better, judged, resolution });
    }
    assert.ok(rows.size >= 4, `docs/config.md, "${title}" has no metric table`);
    const seen = new Map();
    for (const d of fixtures[tool] || [tool]) {
      const dir = join(ROOT, 'test', 'fixtures', d);
      for (const f of readdirSync(dir).filter((x) => /\.(txt|json)$/.test(x) && !/stdout|stderr|summary-export/.test(x))) {
        let metrics;
        try {
          metrics = ADAPTERS[tool].parse(readFileSync(join(dir, f), 'utf8'), { params: {} }).metrics;
        } catch { continue; }
        for (const m of metrics) seen.set(m.name, { ...m, stepped: seen.get(m.name)?.stepped || m.resolution > 0 });
      }
    }
    for (const [name, m] of seen) {
      const row = rows.get(name);
      // k6 keeps a script's own metrics under their own names: the table covers those k6 itself reports
      if (!row && tool === 'k6') continue;
      assert.ok(row, `docs/config.md, "${title}": no row for ${name}`);
      const never = RESTATED.includes(name) || PER_MEASUREMENT_TIME.includes(name) || isExtreme(name);
      const judged = never ? 'never' : isJudged({ tool }, name) ? 'yes' : 'no';
      assert.deepEqual([row.unit, row.better, row.judged.split(' ')[0]], [m.unit, m.better, judged], `docs/config.md, "${title}", ${name}: unit, better, judged by default`);
      assert.equal(row.resolution !== '—', m.stepped, `docs/config.md, "${title}", ${name}: the resolution column says ${row.resolution}, its outputs ${m.stepped ? 'carry' : 'carry no'} resolution`);
    }
  }
});

test('the table of metrics judged by default in docs/config.md gives each tool\'s own list, and the restated metrics are the ones never judged', () => {
  const verdicts = section(CONFIG_DOC, '### Verdicts: which metrics are judged, and how');
  for (const [tool, adapter] of Object.entries(ADAPTERS)) {
    const row = verdicts.split('\n').find((l) => l.startsWith(`| ${tool} |`));
    assert.ok(row, `no row for ${tool}`);
    const listed = [...row.split(' | ')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.deepEqual(listed, [...adapter.judged], `${tool}: docs/config.md judges ${listed.join(', ')} by default, ci/adapters/${tool}.js ${adapter.judged.join(', ')}`);
  }
  const never = verdicts.split('\n\n').find((p) => p.includes('are never\njudged') || /are never\s+judged/.test(p));
  assert.ok(never, 'the paragraph on metrics that are never judged');
  assert.deepEqual([...never.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).filter((n) => n !== 'judge'), [...RESTATED]);
});

test('the dispatch inputs table of docs/github-actions.md lists bench.yml\'s inputs with their types and defaults', () => {
  const inputs = YAML.parse(read('.github', 'workflows', 'bench.yml')).on.workflow_dispatch.inputs;
  const doc = section(read('docs', 'github-actions.md'), '## Running benchmarks by hand: the dispatch inputs');
  const rows = new Map([...doc.matchAll(/^\| `([^`]+)` \| (\w+) \| ([^|]+) \|/gm)].map((m) => [m[1], { type: m[2], def: m[3].trim() }]));
  assert.deepEqual([...rows.keys()], Object.keys(inputs));
  for (const [name, input] of Object.entries(inputs)) {
    const row = rows.get(name);
    assert.equal(row.type, input.type, `${name}: type`);
    assert.equal(row.def, input.default === '' ? 'empty' : `\`${input.default}\``, `${name}: default`);
  }
});

test('every environment variable the pipeline reads is in docs/cli.md\'s table of them', () => {
  const table = section(CLI_DOC, '## Environment variables');
  const files = (dir) => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
  const used = new Set();
  for (const file of files('ci')) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b|\benv: '([A-Z][A-Z0-9_]+)'/g)) used.add(m[1] || m[2]);
  }
  // PATH is the shell's; NAME is the placeholder ${env.NAME} in comments
  for (const name of ['PATH', 'NAME']) used.delete(name);
  assert.ok(used.size >= 10, [...used].join(' '));
  assert.deepEqual([...used].filter((v) => !table.includes(`\`${v}\``)).sort(), []);
});

test('every field of a result document has a row in docs/reports.md, and every row is a field of the schema', () => {
  const rows = section(read('docs', 'reports.md'), '## Result documents').split('\n').filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split(' | ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  const keys = schemaKeys(JSON.parse(read('ci', 'schema', 'result.schema.json')), {});
  assert.ok(keys.includes('load[].toolCores') && keys.includes('distributions[].percentiles[].p'), 'the walk reaches lists');
  assert.deepEqual(keys.filter((k) => !rows.includes(k)), [], 'fields of ci/schema/result.schema.json missing from docs/reports.md');
  assert.deepEqual(rows.filter((k) => !keys.includes(k)), [], 'rows of docs/reports.md, "Result documents", the schema does not have');
});

test('docs/config.md\'s table of the store.json policy has every key of it with the store\'s own default', () => {
  const rows = keyTable(section(CONFIG_DOC, '## The history store: store.json'));
  assert.deepEqual([...rows.keys()], Object.keys(DEFAULT_POLICY));
  for (const [key, value] of Object.entries(DEFAULT_POLICY)) assert.equal(rows.get(key).def, `\`${value}\``, key);
});

test('every column of the suites\' own report tables is named in docs/reports.md, "The suites\' own reports"', async () => {
  const text = section(read('docs', 'reports.md'), '## The suites\' own reports').replace(/\s+/g, ' ');
  const orders = await import('../subjects/orders-api/report.js');
  const gateways = await import('../subjects/gateways/report.js');
  const serialization = await import('../subjects/serialization/report.js');
  const grpc = await import('../subjects/grpc-streaming/report.js');
  const heads = {
    'orders-api': orders.CONNECTION_HEAD,
    gateways: gateways.COMPARISON_HEAD,
    serialization: [...serialization.JMH_HEAD, ...serialization.HTTP_HEAD],
    'grpc-streaming': [...grpc.SUMMARY_HEAD, ...grpc.FINDING_HEAD, ...grpc.EFFECT_HEAD, ...grpc.LATENCY_HEAD],
  };
  for (const [suite, head] of Object.entries(heads)) {
    assert.ok(text.includes(`**${suite}**`), `no paragraph for ${suite}`);
    assert.deepEqual(head.filter((c) => c && !text.includes(`\`${c}\``)), [], `${suite}: columns missing from docs/reports.md`);
  }
});

test('every fenced block in README.md and docs/ ends on a fence line of its own, so the prose after it is not shown as code', () => {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
  const unclosed = [];
  for (const file of files) {
    let open = null;
    read(file).split('\n').forEach((line, i) => {
      const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (!fence) return;
      if (!open) open = { fence: fence[1], at: i + 1 };
      else if (fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length) {
        // a closing fence takes nothing after it: "``` text" leaves the block open until the next fence
        if (fence[2].trim()) unclosed.push(`${file}:${i + 1}: text after the fence that should close the block opened on line ${open.at}`);
        else open = null;
      }
    });
    if (open) unclosed.push(`${file}:${open.at}: a block never closed`);
  }
  assert.deepEqual(unclosed, []);
});

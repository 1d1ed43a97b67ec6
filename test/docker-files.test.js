// Dockerfiles, docker-bake.hcl and docker-compose.yml, checked without a Docker engine: hadolint, rendered configs, coverage.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT, ensureTools } from '../ci/tools.js';


let tools;
before(() => {
  tools = ensureTools(['hadolint', 'check-jsonschema', 'docker-compose', 'hcl2tojson']);
});

const run = (bin, args, opts = {}) => spawnSync(bin, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000, ...opts });

/** Subjects are the folders under subjects/ with a manifest; their docker: section names images and services. */
function subjects() {
  const dir = join(ROOT, 'subjects');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'subject.yaml')))
    .map((d) => ({ name: d.name, manifest: YAML.parse(readFileSync(join(dir, d.name, 'subject.yaml'), 'utf8')) }));
}

function dockerfiles() {
  const out = [];
  const dir = join(ROOT, 'subjects');
  for (const s of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(join(dir, s.name))) if (/^Dockerfile(\..+)?$/.test(f)) out.push(join('subjects', s.name, f));
  }
  return out.sort();
}

/**
 * Resolves a bake file the way `docker buildx bake --print` does for what this project uses:
 * variables with defaults, `inherits`, and groups (nested) flattened to target lists.
 */
function renderBake(parsed, vars = {}) {
  const blocks = (kind) => Object.assign({}, ...(parsed[kind] || []));
  const variables = Object.fromEntries(Object.entries(blocks('variable')).map(([k, v]) => [k, vars[k] ?? v.default ?? '']));
  const interpolate = (v) => (typeof v === 'string' ? v.replace(/\$\{(\w+)\}/g, (_, n) => {
    if (!(n in variables)) throw new Error(`docker-bake.hcl: unknown variable ${n}`);
    return variables[n];
  }) : Array.isArray(v) ? v.map(interpolate) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, interpolate(x)])) : v);
  const raw = blocks('target');
  const resolve = (name, seen = []) => {
    if (seen.includes(name)) throw new Error(`docker-bake.hcl: inherits loop ${[...seen, name].join(' -> ')}`);
    const t = raw[name];
    if (!t) throw new Error(`docker-bake.hcl: no target "${name}"`);
    const { inherits = [], __is_block__, ...own } = t;
    const parents = inherits.map((p) => resolve(p, [...seen, name]));
    const merged = Object.assign({}, ...parents, interpolate(own));
    const labels = Object.assign({}, ...parents.map((p) => p.labels || {}), interpolate(own.labels || {}));
    if (Object.keys(labels).length) merged.labels = labels;
    return merged;
  };
  const groups = blocks('group');
  const expand = (name, seen = []) => {
    if (seen.includes(name)) throw new Error(`docker-bake.hcl: group loop ${[...seen, name].join(' -> ')}`);
    if (groups[name]) return groups[name].targets.flatMap((t) => expand(t, [...seen, name]));
    if (!raw[name]) throw new Error(`docker-bake.hcl: group names unknown target "${name}"`);
    return [name];
  };
  const target = Object.fromEntries(Object.keys(raw).filter((n) => !n.startsWith('_')).map((n) => [n, resolve(n)]));
  const group = Object.fromEntries(Object.keys(groups).map((g) => [g, { targets: [...new Set(expand(g))] }]));
  return { group, target };
}

function bake() {
  const dir = mkdtempSync(join(tmpdir(), 'benchline-bake-'));
  try {
    const out = join(dir, 'bake.json');
    const r = run(tools.hcl2tojson.path, ['-q', '--strip-string-quotes', '-o', out, 'docker-bake.hcl']);
    assert.equal(r.status, 0, `hcl2tojson could not parse docker-bake.hcl:\n${r.stderr}`);
    return renderBake(JSON.parse(readFileSync(out, 'utf8')), { TAG: 'ci' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function compose() {
  const r = run(tools['docker-compose'].path, ['-f', 'docker-compose.yml', '--profile', 'tools', 'config'], { env: { ...process.env, TAG: 'ci' } });
  assert.equal(r.status, 0, `docker-compose config failed:\n${r.stderr}`);
  return YAML.parse(r.stdout);
}

test('every Dockerfile under subjects/ passes hadolint', () => {
  const files = dockerfiles();
  assert.ok(files.length >= 2, `expected the subjects' Dockerfiles, found ${files.join(', ')}`);
  const r = run(tools.hadolint.path, ['--no-color', ...files]);
  assert.equal(`${r.stdout}${r.stderr}`, '');
  assert.equal(r.status, 0);
});

test('every Dockerfile pins its base images and runs as a non-root user', () => {
  for (const f of dockerfiles()) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const stages = [...text.matchAll(/^FROM\s+(?:--\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/gim)];
    const names = stages.map((m) => m[2]).filter(Boolean);
    for (const [, image] of stages) {
      if (names.includes(image)) continue;
      assert.match(image, /(:[\w.-]+|@sha256:[0-9a-f]{64})$/, `${f}: base image ${image} has no pinned tag or digest`);
      assert.doesNotMatch(image, /:latest$/, `${f}: base image ${image} uses :latest`);
    }
    const users = [...text.matchAll(/^USER\s+(\S+)/gim)].map((m) => m[1]);
    assert.ok(users.length, `${f}: no USER line; the image would run as root`);
    assert.doesNotMatch(users.at(-1), /^(root|0)(:|$)/, `${f}: the last USER is root`);
  }
});

test('docker-bake.hcl renders to one target per subject, each with an existing context and Dockerfile', () => {
  const { group, target } = bake();
  for (const s of subjects()) {
    assert.ok(target[s.name], `subjects/${s.name} has a subject.yaml but docker-bake.hcl has no target "${s.name}"`);
    const image = s.manifest.docker?.image;
    if (image) assert.ok(target[s.name].tags.includes(`${image}:ci`), `target ${s.name} should be tagged ${image}:ci, has ${target[s.name].tags}`);
    for (const [svc, def] of Object.entries(s.manifest.docker?.services || {})) {
      if (!def.dockerfile) continue;
      assert.ok(Object.values(target).some((t) => t.context === `subjects/${s.name}` && t.dockerfile === def.dockerfile),
        `subjects/${s.name}: service ${svc} builds ${def.dockerfile}, which no bake target builds`);
    }
  }
  for (const [name, t] of Object.entries(target)) {
    assert.ok(existsSync(join(ROOT, t.context, t.dockerfile)), `bake target ${name}: ${t.context}/${t.dockerfile} does not exist`);
    assert.equal(t.labels['org.opencontainers.image.licenses'], 'MIT');
  }
  assert.deepEqual(group.default.targets.sort(), Object.keys(target).sort());
  assert.deepEqual(target['orders-api'].tags, ['benchline/orders-api:ci']);
});

test('docker-compose.yml renders with a service for every subject, publishing ports on loopback only', () => {
  const { services } = compose();
  for (const s of subjects()) {
    const wanted = Object.keys(s.manifest.docker?.services || { [s.name]: {} });
    for (const svc of wanted) assert.ok(services[svc], `subjects/${s.name}: docker-compose.yml has no service "${svc}"`);
  }
  for (const [name, svc] of Object.entries(services)) {
    for (const p of svc.ports || []) {
      const text = typeof p === 'string' ? p : `${p.host_ip || ''}:${p.published}:${p.target}`;
      assert.match(text, /^127\.0\.0\.1:/, `service ${name} publishes ${text} beyond loopback`);
    }
    if (svc.build) assert.ok(existsSync(join(svc.build.context, svc.build.dockerfile || 'Dockerfile')), `service ${name}: missing ${svc.build.context}/${svc.build.dockerfile}`);
    // Read-only mounts are inputs (configs, scripts) and must exist; writable ones are outputs compose creates.
    for (const v of (svc.volumes || []).filter((x) => (typeof x === 'string' ? /:ro$/.test(x) : x.read_only))) {
      const src = typeof v === 'string' ? v.split(':')[0] : v.source;
      assert.ok(existsSync(src), `service ${name} mounts ${src}, which does not exist`);
    }
  }
  assert.deepEqual(services['bun-gateway'].depends_on && Object.keys(services['bun-gateway'].depends_on).sort(), ['backend-1', 'backend-2', 'backend-3']);
  assert.equal(services['orders-api'].image, 'benchline/orders-api:ci');
  assert.deepEqual(services.wrk.profiles, ['tools']);
});

test('docker-compose.yml matches the Compose Specification schema', () => {
  const r = run(tools['check-jsonschema'].path, ['--builtin-schema', 'vendor.compose-spec', 'docker-compose.yml']);
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /ok -- validation done/);
});

test('the bake renderer reports unknown targets and inherits loops', () => {
  assert.throws(() => renderBake({ group: [{ default: { targets: ['ghost'] } }], target: [] }), /unknown target "ghost"/);
  assert.throws(() => renderBake({ target: [{ a: { inherits: ['b'] } }, { b: { inherits: ['a'] } }] }), /inherits loop a -> b -> a/);
  assert.deepEqual(renderBake({ variable: [{ V: { default: '1' } }], target: [{ _c: { labels: { x: 'y' } } }, { t: { inherits: ['_c'], tags: ['i:${V}'] } }] }, {}).target.t,
    { labels: { x: 'y' }, tags: ['i:1'] });
});

test('docker-compose.yml passes orders-api every knob its subject.yaml takes from the environment', () => {
  const manifest = YAML.parse(readFileSync(join(ROOT, 'subjects/orders-api/subject.yaml'), 'utf8'));
  const knobs = Object.values(manifest.processes).flatMap((p) => Object.entries(p.env || {})).filter(([, v]) => /^\$\{env\.\w+\}$/.test(String(v))).map(([k]) => k);
  assert.ok(knobs.includes('WORK_US') && knobs.includes('WORK_ITERS'), knobs.join(', '));
  const service = YAML.parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).services['orders-api'];
  for (const k of knobs) assert.ok(k in service.environment, `docker-compose.yml's orders-api has no ${k}`);
});

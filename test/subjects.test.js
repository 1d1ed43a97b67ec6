// Subject processes that cannot start or never get healthy: the error names the command or what the health check got.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { buildSubject, freePort, loadManifest, logTail, startSubject, substitute, toolPath } from '../ci/subjects.js';
import { UserError } from '../ci/errors.js';
import { shellQuote } from '../ci/shell.js';
import { tempDir } from './support/temp.js';

const manifestWith = (dir, processSpec) => ({ name: 'probe', dir, file: join(dir, 'subject.yaml'), ports: ['http'], processes: { server: processSpec } });

test('a command that is not on PATH fails at once, naming the command, its manifest entry and how to fix it', async () => {
  const dir = tempDir('subjects');
  const manifest = manifestWith(dir, { command: ['pyhton3', 'server.py'], health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 20 } });
  const started = Date.now();
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.match(e.message, /subject process probe\/server could not start: .*subject\.yaml processes\.server: command "pyhton3" was not found/);
    assert.match(e.message, /\$\{tool\.NAME\}/);
    return true;
  });
  assert.ok(Date.now() - started < 10000, 'it does not wait out the health timeout');
});

test('a command written as ${dir}/bin/NAME that is not there says that a manifest\'s ${dir} is the subject folder, not the project folder', async () => {
  const dir = tempDir('subjects');
  const manifest = manifestWith(dir, { command: ['${dir}/bin/server'], health: { grpc: '127.0.0.1:${port.http}', timeout: 20 } });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.ok(e.message.includes(`command "${dir}/bin/server" was not found`), e.message);
    assert.match(e.message, /in a manifest \$\{dir\} is the subject folder, not the project folder: .*\.\.\/\.\.\/bin\/NAME/);
    return true;
  });
});

test('a process without a health check whose command is not there fails at its start naming its manifest entry, with the ${dir} hint, not in the first trial', async () => {
  const dir = tempDir('subjects');
  const manifest = manifestWith(dir, { command: ['${dir}/bin/server'] });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.ok(e.message.includes(`subject process probe/server could not start: ${join(dir, 'subject.yaml')} processes.server: command "${dir}/bin/server" was not found`), e.message);
    assert.match(e.message, /in a manifest \$\{dir\} is the subject folder, not the project folder/);
    return true;
  });
});

test('a template that is not there fails the start naming the manifest entry and the file, not with a raw ENOENT', async () => {
  const dir = tempDir('subjects');
  const manifest = manifestWith(dir, { command: ['true'], templates: [{ from: 'nginx.conf.in', to: '${run}/nginx.conf' }] });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.equal(e.name, 'UserError');
    assert.ok(e.message.startsWith(`${join(dir, 'subject.yaml')} processes.server: template nginx.conf.in cannot be read (no such file: ${join(dir, 'nginx.conf.in')})`), e.message);
    return true;
  });
});

test('a process that exits complaining about a file filled in from a template points at the template to fix', async () => {
  const dir = tempDir('subjects');
  writeFileSync(join(dir, 'proxy.conf.in'), 'listen ${port.http}\n');
  const manifest = manifestWith(dir, {
    command: ['sh', '-c', 'echo "proxy: [emerg] unknown directive in $1:1" >&2; exit 1', 'sh', '${run}/proxy.conf'],
    templates: [{ from: 'proxy.conf.in', to: '${run}/proxy.conf' }],
    health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 20 },
  });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.match(e.message, /subject process probe\/server exited \(code 1\) before it was healthy/);
    assert.ok(e.message.includes(`(proxy.conf is filled in from the template ${join(dir, 'proxy.conf.in')}: fix it there)`), e.message);
    return true;
  });
  // a log that names no filled-in file gets no such line
  const plain = manifestWith(dir, { command: ['sh', '-c', 'echo boom >&2; exit 1'], templates: [{ from: 'proxy.conf.in', to: '${run}/proxy.conf' }], health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 20 } });
  await assert.rejects(startSubject({ manifest: plain, runDir: join(dir, 'run2') }), (e) => !e.message.includes('filled in from'));
});

test('a process that exits 0 before it is healthy is taken for a server gone into the background, with how to keep it in the foreground', async () => {
  const dir = tempDir('subjects');
  const manifest = manifestWith(dir, { command: ['sh', '-c', 'exit 0'], health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 20 } });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.match(e.message, /^subject process probe\/server exited \(code 0\) before it was healthy; a server that exits 0 at once has most likely put itself in the background: run it in the foreground \(nginx: daemon off; in its config, haproxy: -db/);
    assert.ok(e.message.includes(`(${join(dir, 'subject.yaml')} processes.server)`), e.message);
    return true;
  });
  const failing = manifestWith(dir, { command: ['sh', '-c', 'exit 3'], health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 20 } });
  await assert.rejects(startSubject({ manifest: failing, runDir: join(dir, 'run2') }), (e) => /exited \(code 3\) before it was healthy\. Last lines/.test(e.message));
});

test('a health check that keeps getting an error status says which status it got and where the check is set', async () => {
  const dir = tempDir('subjects');
  // answers 404 on every path, so /health never passes
  const server = "require('http').createServer((q, r) => { r.statusCode = 404; r.end('no'); }).listen(Number(process.argv[1]), '127.0.0.1')";
  const manifest = manifestWith(dir, { command: [process.execPath, '-e', server, '${port.http}'], health: { http: 'http://127.0.0.1:${port.http}/healthz', timeout: 2 } });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    assert.match(e.message, /subject process probe\/server was not healthy within 2 s \(http:\/\/127\.0\.0\.1:\d+\/healthz: it answered HTTP 404; its health check is in .*subject\.yaml processes\.server\)/);
    return true;
  });
});

test('a process that listens on a port of its own instead of its ${port.http} is told which port it listens on and what to pass it', async () => {
  const dir = tempDir('subjects');
  // listens on a port the kernel picks (0), ignoring the one benchline gives it
  const server = "require('http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', function () { console.log('listening on ' + this.address().port); })";
  const manifest = manifestWith(dir, { command: [process.execPath, '-e', server, '${port.http}'], health: { http: 'http://127.0.0.1:${port.http}/health', timeout: 2 } });
  await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
    const own = /listening on (\d+)/.exec(e.message)?.[1];
    assert.ok(own, e.message);
    assert.match(e.message, new RegExp(`http://127\\.0\\.0\\.1:(\\d+)/health: the request failed \\(ECONNREFUSED\\); the process listens on port ${own}, not \\d+: pass it the port the check names \\(\\$\\{port\\.NAME\\} in its command or env\\); its health check is in .*subject\\.yaml processes\\.server`));
    return true;
  });
});

test('a build step that fails names the manifest, which step, where it ran and its last lines', async () => {
  const dir = tempDir('subjects');
  const manifest = { name: 'probe', dir, file: join(dir, 'subject.yaml'), ports: [], processes: {}, build: [['true'], ['sh', '-c', 'echo "seed: data/shop.db: disk full" >&2; exit 3']] };
  await assert.rejects(buildSubject(manifest), {
    message: `building subject probe failed: ${dir}/subject.yaml build step 2 (sh -c echo "seed: data/shop.db: disk full" >&2; exit 3, run in ${dir}) exited 3; its last lines:\nseed: data/shop.db: disk full`,
  });
});

test('under --base each build step\'s log line names the side it builds and the folder it runs in', async () => {
  const dir = tempDir('subjects');
  const manifest = { name: 'probe', dir, file: join(dir, 'subject.yaml'), ports: [], processes: {}, build: [['true']] };
  const lines = [];
  await buildSubject(manifest, { log: (m) => lines.push(m), side: 'base (HEAD~1)' });
  await buildSubject(manifest, { log: (m) => lines.push(m) });
  assert.deepEqual(lines, [`building probe for base (HEAD~1) in ${dir}: true`, 'building probe: true']);
});

/** A checkout under a new temp folder whose subjects/probe/subject.yaml holds `text`. */
const checkoutWith = (text) => {
  const root = tempDir('manifest');
  mkdirSync(join(root, 'subjects', 'probe'), { recursive: true });
  writeFileSync(join(root, 'subjects', 'probe', 'subject.yaml'), text);
  return root;
};
const MANIFEST = [
  'name: probe',
  'ports: [http]',
  'processes:',
  '  server:',
  '    command: ["python3", "server.py"]',
  '    env: { PORT: "${port.http}" }',
  '    health: { http: "http://127.0.0.1:${port.http}/health", timeout: 10 }',
  'target:',
  '  url: "http://127.0.0.1:${port.http}"',
  '',
].join('\n');

test('a misspelt key in subject.yaml is refused with the file, where it is and the key it nearly spells, instead of being ignored', () => {
  const cases = [
    ['health:', '/processes/server must NOT have additional properties ("helth") (did you mean "health"?)'],
    ['timeout: 10', '/processes/server/health must NOT have additional properties ("timout") (did you mean "timeout"?)', 'timout: 10'],
    ['target:', '/ must NOT have additional properties ("targt") (did you mean "target"?)', 'targt:'],
  ];
  for (const [from, message, to = from.replace('health', 'helth')] of cases) {
    const root = checkoutWith(MANIFEST.replace(from, to));
    assert.throws(() => loadManifest(root, 'probe'), (e) => {
      assert.equal(e.name, 'UserError');
      assert.ok(e.message.startsWith(`${join(root, 'subjects', 'probe', 'subject.yaml')}: does not match the subject manifest schema (docs/config.md`), e.message);
      assert.ok(e.message.includes(message), e.message);
      return true;
    });
  }
});

test('a manifest without name: is named after its folder, as docs/config.md says, so messages name the subject', () => {
  assert.equal(loadManifest(checkoutWith(MANIFEST.replace('name: probe\n', '')), 'probe').name, 'probe');
});

test('a process without a command, or a health check without an address, is refused when the manifest is read, not with a crash at start', () => {
  assert.throws(() => loadManifest(checkoutWith(MANIFEST.replace('command:', 'cmd:')), 'probe'), /subject\.yaml: does not match the subject manifest schema[^\n]*:\n {2}\/processes\/server must have required property 'command'\n {2}\/processes\/server must NOT have additional properties \("cmd"\)/);
  assert.throws(() => loadManifest(checkoutWith(MANIFEST.replace('http: "http://127.0.0.1:${port.http}/health", ', '')), 'probe'), /\/processes\/server\/health needs one of http, tcp or grpc/);
});

test('every subject manifest shipped with benchline and the adoption example passes the manifest check', () => {
  const root = join(import.meta.dirname, '..');
  for (const name of readdirSync(join(root, 'subjects'))) assert.equal(loadManifest(root, name).name, name);
  const doc = readFileSync(join(root, 'docs', 'github-actions.md'), 'utf8');
  const example = /```yaml file=subjects\/hello\/subject\.yaml\n([\s\S]*?)```/.exec(doc)[1];
  assert.equal(loadManifest(checkoutWith(example), 'probe').name, 'hello');
});

test('a manifest port named __proto__ or constructor, or a ${tool.NAME} naming no tool, is refused when the manifest is loaded, naming the file', () => {
  const root = checkoutWith('name: probe\nports: [__proto__, http]\nprocesses:\n  api:\n    command: ["${tool.__proto__}", "${port.http}"]\n');
  assert.throws(() => loadManifest(root, 'probe'), (e) => {
    assert.equal(e.name, 'UserError');
    assert.match(e.message, /subject\.yaml/);
    assert.match(e.message, /\/ports: "__proto__" is a name every JavaScript object has; give the port another name/);
    assert.match(e.message, /\$\{tool\.__proto__\} names no tool benchline installs; the tools are k6, ghz, /);
    return true;
  });
  assert.equal(loadManifest(checkoutWith('name: probe\nports: [http]\nprocesses:\n  api:\n    command: ["${tool.bun}", "${port.http}"]\n'), 'probe').name, 'probe');
});

test('an unknown placeholder names where it is and, for a shell variable written with braces, how to write it', () => {
  assert.throws(() => substitute('${HOME}/data', { ports: {} }, 'bench.config.yaml suites.x job k6/y params'), /bench\.config\.yaml suites\.x job k6\/y params: unknown placeholder \$\{HOME\} \(placeholders are .*; write a shell variable as \$HOME \(no braces\)\)/);
  assert.throws(() => substitute('${port.grpc}', { ports: { http: 8080 } }, 'subject.yaml'), /unknown placeholder \$\{port\.grpc\} \(no port named "grpc" here: the subject's ports are http \(ports: in its subject\.yaml\)\)/);
  // names every object has by inheritance are no port, param or variable, never a function's source
  assert.throws(() => substitute('${port.constructor}', { ports: { http: 8080 } }, 'subject.yaml'), /unknown placeholder \$\{port\.constructor\} \(no port named "constructor" here: /);
  assert.throws(() => substitute('${param.toString}', { ports: {}, params: { rate: 5 } }, 'subject.yaml'), /unknown placeholder \$\{param\.toString\} \(no param named "toString" here\)/);
  assert.equal(substitute('[${env.constructor}]', { ports: {}, env: { A: '1' } }, 'subject.yaml'), '[]', 'an unset variable is empty');
  assert.equal(substitute('${port.http}', { ports: { http: 8080 } }, 'subject.yaml'), '8080');
});

test('a misspelt placeholder in a template or a job param says which one it nearly spells and lists the subject\'s ports', () => {
  const vars = { ports: { app: 4001, http: 4002 }, params: { rate: 5 } };
  assert.throws(() => substitute('server 127.0.0.1:${port.api};', vars, 'subjects/api/nginx.conf.tmpl'),
    (e) => e instanceof UserError && /^subjects\/api\/nginx\.conf\.tmpl: unknown placeholder \$\{port\.api\} \(no port named "api" here: the subject's ports are app, http \(ports: in its subject\.yaml\); did you mean \$\{port\.app\}\?\)$/.test(e.message));
  assert.throws(() => substitute('${ports.app}', vars, 'nginx.conf.tmpl'), /unknown placeholder \$\{ports\.app\} \(did you mean \$\{port\.app\}\? placeholders are \$\{dir\}.*\$\{param\.NAME\}\)$/);
  assert.throws(() => substitute('${params.rate}', vars, 'bench.config.yaml'), /did you mean \$\{param\.rate\}\?/);
  assert.throws(() => substitute('${param.rte}', vars, 'bench.config.yaml'), /no param named "rte" here: did you mean \$\{param\.rate\}\?/);
  assert.throws(() => substitute('${port.http}', { ports: {} }, 'subject.yaml'), /no port named "http" here: the subject declares no ports/);
});

test('a ${dir} or ${run} with a name after it, or an ${env} naming no variable, is an unknown placeholder, not the folder or an empty string', () => {
  const vars = { dir: '/checkout', run: '/results/r1', ports: {}, env: {} };
  assert.equal(substitute('${dir}/x ${run} ${env.UNSET_IN_TEST}', vars, 'w'), '/checkout/x /results/r1 ');
  assert.throws(() => substitute('--conf ${dir.conf}', vars, 'subjects/api/subject.yaml processes.app.command'),
    (e) => e instanceof UserError && e.message === 'subjects/api/subject.yaml processes.app.command: unknown placeholder ${dir.conf} (${dir} takes no name after it: write ${dir}/conf for a path in that folder)');
  assert.throws(() => substitute('${run.log}', vars, 'w'), /unknown placeholder \$\{run\.log\} \(\$\{run\} takes no name after it: write \$\{run\}\/log/);
  for (const key of ['env', 'env.']) assert.throws(() => substitute(`\${${key}}`, vars, 'w'), new RegExp(`unknown placeholder \\$\\{${key.replace('.', '\\.')}\\} \\(name the variable: \\$\\{env\\.NAME\\}\\)$`));
});

test('the last lines of a log larger than a string can hold, or of one long line without newlines, are its end, not an error or megabytes', () => {
  const dir = tempDir('subjects');
  // a 520 MB log (sparse: its start is zeros) whose end says what failed
  const big = join(dir, 'big.log');
  writeFileSync(big, '');
  truncateSync(big, 520 * 1024 * 1024);
  appendFileSync(big, '\nstarting\nError: listen EADDRINUSE: address already in use 127.0.0.1:8080\n');
  assert.equal(logTail(big, 2), 'starting\nError: listen EADDRINUSE: address already in use 127.0.0.1:8080');
  const oneLine = join(dir, 'one-line.log');
  writeFileSync(oneLine, `${'.'.repeat(2e6)}fatal: no config`);
  assert.equal(logTail(oneLine), `…${'.'.repeat(1000 - 'fatal: no config'.length)}fatal: no config`);
  writeFileSync(oneLine, '');
  assert.equal(logTail(oneLine), '');
});

test('a ${tool.NAME} that names no tool benchline installs is an unknown placeholder naming where it is and the tools, not a raw error', () => {
  for (const name of ['nope', '__proto__', 'constructor']) {
    assert.throws(() => substitute(`echo \${tool.${name}}`, { ports: {}, tool: toolPath, shell: true }, 'bench.config.yaml suites.x job hyperfine/y params'),
      (e) => e instanceof UserError && new RegExp(`^bench\\.config\\.yaml suites\\.x job hyperfine/y params: unknown placeholder \\$\\{tool\\.${name}\\} \\(no tool named "${name}"; the tools are k6, ghz, .*\\(benchline doctor\\)\\)$`).test(e.message));
  }
});

test('a subject whose port was taken before it listened starts again on other ports, and the run goes on', async () => {
  const dir = tempDir('subjects');
  // the first start fails as a server does when its port is in use; the second listens
  const server = `const fs = require('fs');
if (!fs.existsSync('first.txt')) { fs.writeFileSync('first.txt', process.argv[1]); console.error('error: listen EADDRINUSE: address already in use 127.0.0.1:' + process.argv[1]); process.exit(1); }
require('http').createServer((q, r) => r.end('ok')).listen(Number(process.argv[1]), '127.0.0.1');`;
  const manifest = manifestWith(dir, { command: [process.execPath, '-e', server, '${port.http}'], health: { http: 'http://127.0.0.1:${port.http}/', timeout: 20 } });
  const said = [];
  const live = await startSubject({ manifest, runDir: join(dir, 'run'), log: (m) => said.push(m) });
  try {
    assert.notEqual(String(live.ports.http), readFileSync(join(dir, 'first.txt'), 'utf8'), 'the second start got another port');
    assert.ok(said.some((m) => /a port was taken before the subject listened on it; starting again on other ports/.test(m)));
  } finally {
    await live.stop();
  }
});

test('a subject on a fixed port that another program already answers on is not started, and the error says to let benchline choose the port', async () => {
  const dir = tempDir('subjects');
  const port = await freePort();
  const other = createServer((q, r) => r.end('ok')).listen(port, '127.0.0.1');
  await once(other, 'listening');
  try {
    // the subject would fail to bind and exit a moment later, after its health check had passed against the other program
    const server = `require('fs').writeFileSync('started.txt', 'yes'); require('http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1');`;
    const manifest = manifestWith(dir, { command: [process.execPath, '-e', server], env: { PORT: String(port) }, health: { http: `http://127.0.0.1:${port}/health`, timeout: 10 } });
    await assert.rejects(startSubject({ manifest, runDir: join(dir, 'run') }), (e) => {
      assert.equal(e.name, 'UserError');
      assert.match(e.message, new RegExp(`^subject process probe/server was not started: its health check http://127\\.0\\.0\\.1:${port}/health already answers, so another program .* holds that address .*subject\\.yaml processes\\.server\\. Stop what holds it, or let benchline choose a free port: .*\\$\\{port\\.NAME\\}`));
      return true;
    });
    assert.ok(!existsSync(join(dir, 'started.txt')), 'the subject\'s process never ran');
  } finally {
    other.close();
  }
});

test('freePort never hands out the same port twice in one process', async () => {
  const ports = [];
  for (let i = 0; i < 200; i += 1) ports.push(await freePort());
  assert.equal(new Set(ports).size, ports.length);
});

test('shellQuote gives words sh reads back as they were: plain ones as they are, the empty word, spaces, quotes and $ in single quotes', () => {
  const words = ['plain/path-1.js', '', 'a b', "it's", '$HOME', 'x;y', '*'];
  assert.equal(shellQuote('plain/path-1.js'), 'plain/path-1.js');
  const line = words.map(shellQuote).join(' ');
  assert.deepEqual(execFileSync('sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' }).split('\n').slice(0, -1), words);
});

// Tool lookup: a home folder the user names (JAVA25_HOME) is the one used, or the tool is refused saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './support/temp.js';
import { ensureTools, locate } from '../ci/tools.js';

const JDK17 = '/usr/lib/jvm/java-17-openjdk-amd64';

/** Runs fn with JAVA25_HOME set to home, restoring it after. */
function withJavaHome(home, fn) {
  const saved = process.env.JAVA25_HOME;
  process.env.JAVA25_HOME = home;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.JAVA25_HOME; else process.env.JAVA25_HOME = saved;
  }
}

test('a JAVA25_HOME without bin/java is refused naming it, instead of another JDK being used in its place', () => {
  withJavaHome('/nonexistent/jdk', () => {
    assert.equal(locate('java'), undefined);
    assert.throws(() => ensureTools(['java'], { log: () => {} }), { message: 'java: JAVA25_HOME points to /nonexistent/jdk, which has no bin/java; fix the path or unset JAVA25_HOME' });
  });
});

test('a JAVA25_HOME naming a JDK older than 25 is refused with its version, before JMH meets a jar it cannot load', { skip: !existsSync(`${JDK17}/bin/java`) && 'no JDK 17 here' }, () => {
  withJavaHome(JDK17, () => {
    assert.throws(() => ensureTools(['java'], { log: () => {} }), (e) => /^java: \/usr\/lib\/jvm\/java-17-openjdk-amd64\/bin\/java \(from JAVA25_HOME\) is version 17[\d.]*, older than 25; install a JDK 25 \(Temurin\) and set JAVA25_HOME$/.test(e.message));
  });
});

test('benchline installed as a dependency finds the bun the project installed, also when run without npx (no node_modules/.bin on PATH)', () => {
  const bun = locate('bun')?.path;
  if (!bun) return; // no bun in this checkout: nothing to link
  const project = tempDir('tools-project');
  mkdirSync(join(project, 'node_modules', 'benchline', 'ci'), { recursive: true });
  mkdirSync(join(project, 'node_modules', '.bin'));
  cpSync(new URL('../ci/tools.js', import.meta.url), join(project, 'node_modules', 'benchline', 'ci', 'tools.js'));
  symlinkSync(realpathSync(bun), join(project, 'node_modules', '.bin', 'bun'));
  writeFileSync(join(project, 'node_modules', 'benchline', 'package.json'), '{ "type": "module" }\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const t = await import(process.argv[1]); process.stdout.write(JSON.stringify(t.locate('bun')))",
    join(project, 'node_modules', 'benchline', 'ci', 'tools.js')], { encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin' } });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { path: join(project, 'node_modules', '.bin', 'bun'), from: 'npm bun' });
});

// Tool lookup: a home folder the user names (JAVA25_HOME) is the one used, or the tool is refused saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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

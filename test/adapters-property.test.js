// Seeded mutations of the real fixtures through every adapter and the shared document builder: each is refused clearly or sane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { ADAPTERS, TOOL_NAMES } from '../ci/adapters/index.js';
import { buildResult } from '../ci/result.js';
import { describeMetric } from '../ci/metrics.js';

const FIX = fileURLToPath(new URL('./fixtures/', import.meta.url));
const PER_TOOL = 160; // 7 tools: 1,120 mutants per run
// fixed, so a failure reproduces; BENCHLINE_PROPERTY_SEED explores other mutants
const SEED = process.env.BENCHLINE_PROPERTY_SEED || 'benchline-property-1';
const RAW_JS = /is not iterable|Cannot read propert|Cannot convert|undefined|is not a function|is not defined|Maximum call stack|Unexpected token/;
const RUN = { id: 'prop', startedAt: '2026-11-23T10:00:00.000Z', commit: null, ref: null, trigger: 'local', role: 'local' };
const RUNNER = { name: 'test', os: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test', memoryBytes: 1, labels: [] };

/** Every captured output of a tool (ghz also in grpc-streaming), stderr kept beside it. */
function fixturesOf(tool) {
  const dirs = tool === 'ghz' ? ['ghz', 'grpc-streaming'] : [tool];
  return dirs.flatMap((d) => readdirSync(`${FIX}${d}`)
    .filter((f) => /\.(txt|json|csv)$/.test(f) && !/stderr/.test(f))
    .filter((f) => !(d === 'grpc-streaming' && !f.startsWith('ghz-')))
    .map((f) => ({ name: `${d}/${f}`, text: readFileSync(`${FIX}${d}/${f}`, 'utf8') })));
}
const FIXTURES = Object.fromEntries(TOOL_NAMES.map((t) => [t, fixturesOf(t)]));

const NUMBERS = ['NaN', '-1', '-0.5', '1e308', '-1e308', '99999999999999999999999', '0', '0.5', 'Infinity', '', 'null', '"7"', '3.999', '1e-300'];

/** Mutations a careless copy, a full disk or a hostile user make; each takes (text, random) and returns text. */
const MUTATIONS = {
  truncate: (s, r) => s.slice(0, Math.floor(r() * s.length)),
  flipByte: (s, r) => {
    const i = Math.floor(r() * s.length);
    return s.slice(0, i) + String.fromCharCode(Math.floor(r() * 256)) + s.slice(i + 1);
  },
  number: (s, r) => {
    const spots = [...s.matchAll(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g)];
    if (!spots.length) return s;
    const m = spots[Math.floor(r() * spots.length)];
    const pick = r();
    const value = pick < 0.2 ? `-${m[0]}` : pick < 0.35 ? String(Number(m[0]) * 1e6) : NUMBERS[Math.floor(r() * NUMBERS.length)];
    return s.slice(0, m.index) + value + s.slice(m.index + m[0].length);
  },
  dropLine: (s, r) => {
    const lines = s.split('\n');
    lines.splice(Math.floor(r() * lines.length), 1);
    return lines.join('\n');
  },
  repeatLine: (s, r) => {
    const lines = s.split('\n');
    const i = Math.floor(r() * lines.length);
    lines.splice(i, 0, lines[i]);
    return lines.join('\n');
  },
  jsonKey: (s, r) => {
    let doc;
    try { doc = JSON.parse(s); } catch { return s; }
    const holders = [];
    const walk = (v) => {
      if (v && typeof v === 'object') {
        holders.push(v);
        for (const x of Object.values(v)) walk(x);
      }
    };
    walk(doc);
    if (!holders.length) return s;
    const h = holders[Math.floor(r() * holders.length)];
    const keys = Object.keys(h);
    if (!keys.length) return s;
    const k = keys[Math.floor(r() * keys.length)];
    const how = r();
    if (how < 0.4) delete h[k];
    else h[k] = [null, 'x', [], {}, -1, 1e300][Math.floor(r() * 6)];
    return JSON.stringify(doc);
  },
  otherTool: (s, r) => {
    const all = Object.values(FIXTURES).flat();
    return all[Math.floor(r() * all.length)].text;
  },
  padding: (s, r) => {
    const i = Math.floor(r() * s.length);
    const pad = [' ', '\n', '\t', '9'][Math.floor(r() * 4)].repeat(Math.floor(r() * 200000));
    return s.slice(0, i) + pad + s.slice(i);
  },
};
const KINDS = Object.keys(MUTATIONS);

/** What benchline makes of one output: { doc } when accepted, { error } when refused. */
function decide(tool, text) {
  try {
    const parsed = ADAPTERS[tool].parse(text, {});
    const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'property', subject: 'external', variant: 'default', scenario: 'mutant', tool: { name: tool, version: 'fixture' }, params: {}, trials: [parsed] }, `mutant (${tool})`);
    return { doc, extra: parsed.extra };
  } catch (error) {
    return { error };
  }
}

/** The test's own view of an impossible value, written apart from ci/sanity.js so the two can disagree. */
function impossible(doc, extra) {
  const found = [];
  const byName = new Map(doc.metrics.filter((m) => !m.case).map((m) => [m.name, m.value]));
  for (const m of doc.metrics) {
    for (const v of m.samples) {
      if (!Number.isFinite(v) || v < 0) found.push(`${m.name} = ${v}`);
      // tallies (requests, errors, iterations...) are whole; a script's own metric of unit count is any number (a k6 Gauge of 0.75)
      if (m.unit === 'count' && describeMetric(m.name)?.unit === 'count' && !Number.isInteger(v)) found.push(`${m.name} = ${v} (count)`);
      if (m.unit === 'ratio' && v > 1) found.push(`${m.name} = ${v} (ratio)`);
    }
    const p = /^(.+)\.p([\d.]+)$/.exec(m.name);
    if (p) {
      const same = (stat) => doc.metrics.find((x) => x.name === `${p[1]}.${stat}` && x.case === m.case)?.value;
      if (same('min') !== undefined && m.value < same('min')) found.push(`${m.name} below min`);
      if (same('max') !== undefined && m.value > same('max')) found.push(`${m.name} above max`);
    }
  }
  if (byName.get('requests') === 0 && byName.has('throughput') && byName.get('throughput') !== 0) found.push('throughput without requests');
  if (byName.has('errors') && byName.has('requests') && byName.get('errors') > (extra?.attempts ?? byName.get('requests'))) found.push('more errors than requests');
  for (const d of doc.distributions || []) {
    d.percentiles.forEach((pt, i) => {
      if (pt.value < 0 || (i && pt.value < d.percentiles[i - 1].value)) found.push(`distribution ${d.name} p${pt.p}`);
    });
  }
  return found;
}

test('every adapter refuses its fixtures\' mutants with a clear message or accepts them with possible values only', () => {
  const random = seedrandom(SEED);
  const tally = { mutants: 0, accepted: 0, refused: 0, slowest: 0 };
  const bad = [];
  for (const tool of TOOL_NAMES) {
    const fixtures = FIXTURES[tool];
    for (let i = 0; i < PER_TOOL; i += 1) {
      const source = fixtures[Math.floor(random() * fixtures.length)];
      let text = source.text;
      const kinds = [];
      for (let k = 0, n = 1 + Math.floor(random() * 3); k < n; k += 1) {
        const kind = KINDS[Math.floor(random() * KINDS.length)];
        kinds.push(kind);
        text = MUTATIONS[kind](text, random);
      }
      // a slow decision is timed twice more and the fastest counts: a shared machine's pause is not a slow parser
      let r;
      let ms = Infinity;
      for (let k = 0; k < 3 && ms > 1000; k += 1) {
        const t0 = performance.now();
        r = decide(tool, text);
        ms = Math.min(ms, performance.now() - t0);
      }
      tally.mutants += 1;
      tally.slowest = Math.max(tally.slowest, ms);
      const label = `${tool} #${i} from ${source.name} (${kinds.join(' + ')})`;
      if (ms > 1000) bad.push(`${label}: took ${Math.round(ms)} ms`);
      if (r.error) {
        tally.refused += 1;
        const e = r.error;
        if (!['Error', 'ParseError'].includes(e.constructor.name) && !(e.exitCode >= 1)) bad.push(`${label}: ${e.constructor.name} ${e.message.split('\n')[0]}`);
        else if (RAW_JS.test(e.message)) bad.push(`${label}: raw JS text in "${e.message.split('\n').find((l) => RAW_JS.test(l))}"`);
        continue;
      }
      tally.accepted += 1;
      const found = impossible(r.doc, r.extra);
      if (found.length) bad.push(`${label}: accepted with ${found.join(', ')}`);
    }
  }
  process.stderr.write(`property: ${tally.mutants} mutants, ${tally.accepted} accepted, ${tally.refused} refused, slowest ${Math.round(tally.slowest)} ms\n`);
  assert.ok(tally.mutants >= 1000);
  assert.deepEqual(bad.slice(0, 80), [], `${bad.length} mutants broke the rules`);
});

test('wrk reads a padded report in time proportional to its size (10 MiB in about ten times the time of 1 MiB)', (t) => {
  const report = readFileSync(`${FIX}wrk/latency.txt`, 'utf8');
  // the shapes that were quadratic: blank lines before the report, and long lines of spaces or digits inside it
  const shapes = {
    blankLines: (bytes) => '\n'.repeat(bytes) + report,
    spaceLines: (bytes) => `${' '.repeat(99)}\n`.repeat(bytes / 100) + report,
    shortLines: (bytes) => 'x\n'.repeat(bytes / 2) + report,
    longLine: (bytes) => report.replace('Requests/sec', `${'9'.repeat(bytes)}\nRequests/sec`),
  };
  const fastest = (text) => {
    let best = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const t0 = performance.now();
      try { ADAPTERS.wrk.parse(text); } catch { /* refusing is a decision too */ }
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  for (const [name, make] of Object.entries(shapes)) {
    const small = fastest(make(1024 * 1024));
    const big = fastest(make(10 * 1024 * 1024));
    t.diagnostic(`${name}: 1 MiB ${small.toFixed(1)} ms, 10 MiB ${big.toFixed(1)} ms`);
    // linear is 10x; quadratic would be 100x. Times under 20 ms count as 20 ms, so timer noise on tiny times decides nothing.
    assert.ok(big < 30 * Math.max(small, 20), `${name}: 10 MiB took ${big.toFixed(0)} ms, 1 MiB ${small.toFixed(0)} ms`);
  }
});

test('a JSON output with a value nested thousands of levels deep is refused by every JSON adapter as corrupted, not with a stack overflow', () => {
  // one real fixture per tool whose output is JSON (wrk's is the JSON block its Lua script prints after the report)
  const sources = { k6: 'k6/many.json', ghz: 'ghz/many.json', hyperfine: 'hyperfine/scan.json', jmh: 'jmh/avgt-gc.json', 'grpc-client': 'grpc-client/loopback-netty-server-netty-client-500kb.json', wrk: 'wrk/gateways-bun-1.txt' };
  const nest = { array: `${'['.repeat(20000)}${']'.repeat(20000)}`, object: `${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}` };
  for (const [tool, file] of Object.entries(sources)) {
    const text = readFileSync(`${FIX}${file}`, 'utf8');
    // the first number after a key becomes the deep value: a count, a time, a version field
    const at = /"[^"]+"\s*:\s*(-?\d[\d.eE+-]*)/.exec(text);
    assert.ok(at, file);
    for (const [shape, deep] of Object.entries(nest)) {
      const mutant = text.slice(0, at.index) + at[0].replace(at[1], deep) + text.slice(at.index + at[0].length);
      assert.throws(() => ADAPTERS[tool].parse(mutant, {}), (e) => {
        assert.equal(e.name, 'ParseError', `${tool} ${shape}: ${e.name}: ${e.message.slice(0, 200)}`);
        assert.match(e.message, /nest more than 64 levels deep \(at line \d+, column \d+\), which no tool writes/, `${tool} ${shape}`);
        return true;
      });
    }
    assert.ok(ADAPTERS[tool].parse(text, {}).metrics.length, `${file} itself is read`);
  }
});

test('two JSON outputs appended into one file are refused by every JSON adapter as appended runs, not as a truncated file', () => {
  const sources = { k6: 'k6/many.json', ghz: 'ghz/many.json', hyperfine: 'hyperfine/scan.json', jmh: 'jmh/avgt-gc.json', 'grpc-client': 'grpc-client/loopback-netty-server-netty-client-500kb.json' };
  for (const [tool, file] of Object.entries(sources)) {
    const text = readFileSync(`${FIX}${file}`, 'utf8');
    // the client prints one line and its newline: only its whole outputs are appended
    for (const joined of tool === 'grpc-client' ? [`${text}${text}`] : [`${text}${text}`, `${text.trimEnd()}${text.trimStart()}`]) {
      assert.throws(() => ADAPTERS[tool].parse(joined, {}), (e) => {
        assert.equal(e.name, 'ParseError', `${tool}: ${e.message.slice(0, 200)}`);
        assert.match(e.message, tool === 'grpc-client' ? /2 client result lines in one output; give each trial its own file/ : /second JSON document after the first, from line \d+ \(two or more runs appended into one file\?\); give one run's output/, tool);
        return true;
      });
    }
  }
});

test('a corrupted value is quoted in an error in at most about a hundred characters, however long it is', () => {
  const huge = 'x'.repeat(100000);
  const cases = [
    ['k6', 'k6/many.json', (t) => t.replace(/("count":\s*)\d+/, `$1${JSON.stringify(huge)}`)],
    ['k6', 'k6/many.json', (t) => t.replace('"p(95)"', JSON.stringify(`p(${'9'.repeat(100000)})`))],
    ['ghz', 'ghz/many.json', (t) => t.replace(/"statusCodeDistribution":\s*\{[^}]*\}/, `"statusCodeDistribution": ${JSON.stringify(huge)}`)],
    ['hyperfine', 'hyperfine/one-command.json', (t) => t.replace(/"exit_codes":\s*\[\s*0/, `"exit_codes": [${JSON.stringify(huge)}`)],
    ['jmh', 'jmh/avgt-gc.json', (t) => t.replace(/"mode"\s*:\s*"avgt"/, `"mode": ${JSON.stringify(huge)}`)],
    ['grpc-client', 'grpc-client/failed-stream-helidon-client-netty-server.json', (t) => t.replace(/"error":\s*"[^"]*"/, `"error": ${JSON.stringify({ nested: huge })}`)],
  ];
  for (const [tool, file, mutate] of cases) {
    const text = readFileSync(`${FIX}${file}`, 'utf8');
    const mutant = mutate(text);
    assert.notEqual(mutant, text, `${file}: the mutation applies`);
    assert.throws(() => ADAPTERS[tool].parse(mutant, {}), (e) => {
      assert.equal(e.name, 'ParseError', `${tool}: ${e.name}: ${e.message.slice(0, 200)}`);
      assert.ok(e.message.length < 600, `${tool} (${file}): a ${e.message.length}-character message: ${e.message.slice(0, 200)}`);
      assert.doesNotMatch(e.message, /\[object Object\]/, tool);
      return true;
    });
  }
});

test('a wrk duration or a k6 top-level key padded to tens of thousands of characters is quoted cut short in the error', () => {
  const wrk = readFileSync(`${FIX}wrk/latency.txt`, 'utf8');
  const k6 = readFileSync(`${FIX}k6/throws.json`, 'utf8');
  const cases = [
    ['wrk', wrk.replace(/(Latency\s+)(\d+\.\d+)(\w+)/, (m, a, v, u) => `${a}${v}${u}${'9'.repeat(50000)}`)],
    ['k6', k6.replace('"metrics"', JSON.stringify(' '.repeat(50000)))],
  ];
  for (const [tool, mutant] of cases) {
    assert.throws(() => ADAPTERS[tool].parse(mutant, {}), (e) => {
      assert.ok(e.message.length < 600, `${tool}: a ${e.message.length}-character message: ${e.message.slice(0, 200)}`);
      return true;
    });
  }
});

test('names every object has (constructor, toString) as a JMH mode, a JMH secondary result or a k6 metric are read as any other name', () => {
  const jmh = JSON.parse(readFileSync(`${FIX}jmh/avgt-gc.json`, 'utf8'));
  const mode = structuredClone(jmh);
  mode[0].mode = 'toString';
  assert.throws(() => ADAPTERS.jmh.parse(JSON.stringify(mode)), /unknown mode "toString" \(JMH writes thrpt, avgt, sample or ss\)/);
  const secondary = structuredClone(jmh);
  secondary[0].secondaryMetrics.constructor = { score: 1, scoreUnit: 'B/op' };
  assert.ok(ADAPTERS.jmh.parse(JSON.stringify(secondary)).notes.some((n) => /secondary result "constructor" \(B\/op\) is not mapped/.test(n)));
  const k6 = JSON.parse(readFileSync(`${FIX}k6/summary-throws.summary-export.json`, 'utf8'));
  // at the rate k6 would write: every Counter's count over the run its iterations give
  k6.metrics.constructor = { count: 3, rate: (3 / k6.metrics.iterations.count) * k6.metrics.iterations.rate };
  const parsed = ADAPTERS.k6.parse(JSON.stringify(k6));
  const doc = buildResult({ run: RUN, runner: RUNNER, suite: 'property', subject: 'external', variant: 'default', scenario: 'proto', tool: { name: 'k6', version: 'fixture' }, params: {}, trials: [parsed] }, 'proto (k6)');
  assert.deepEqual(doc.metrics.filter((m) => m.name === 'constructor').map((m) => [m.value, m.unit, m.better]), [[3, 'count', 'higher']]);
});

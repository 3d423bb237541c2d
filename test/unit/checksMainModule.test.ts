// src/core/checks/buildFailures.ts: a Node module that cannot be found is a load failure of the run's tests — unless it
// is the script Node was asked to run (its main-module frame, an empty requireStack): a test that spawns an example
// the change adds fails as a test case, with its child's error in the output, and the run still reached its tests.
import * as assert from 'assert';
import { buildFailed } from '../../src/core/checks/buildFailures';
import { readTestCases } from '../../src/core';

/** The error Node prints when the script it was asked to run is not there (Node 20), as a child's stderr shows it. */
const MAIN_MISSING = [
  'node:internal/modules/cjs/loader:1210',
  '  throw err;',
  '  ^',
  '',
  "Error: Cannot find module '/w/examples/greet.js'",
  '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
  '    at Module._load (node:internal/modules/cjs/loader:1038:27)',
  '    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)',
  '    at node:internal/main/run_main_module:28:49 {',
  "  code: 'MODULE_NOT_FOUND',",
  '  requireStack: []',
  '}',
  '',
  'Node.js v20.20.2',
];

describe('checks: a missing script a test runs is no load failure', () => {
  it('jest: the spawned example that is not there fails its test case; the run reached the tests', () => {
    const out = [
      ...MAIN_MISSING,
      'FAIL tests/greet.test.js',
      '  greet',
      '    ✕ prints the greeting (3 ms)',
      '    ✓ keeps the old help (1 ms)',
      '',
      '  ● greet › prints the greeting',
      '',
      '    Command failed: /usr/bin/node /w/examples/greet.js --help',
      '    node:internal/modules/cjs/loader:1210',
      '      throw err;',
      '      ^',
      '',
      "    Error: Cannot find module '/w/examples/greet.js'",
      '',
      '      10 |   test("prints the greeting", () => {',
      "    > 11 |     const out = childProcess.execFileSync(process.execPath, [example, '--help']);",
      '         |                              ^',
      '      12 |     expect(out).toBe("hello");',
      '',
      '      at node:internal/main/run_main_module:28:49 {',
      "        code: 'MODULE_NOT_FOUND',",
      '        requireStack: []',
      '      }',
      '',
      'Tests:       1 failed, 1 passed, 2 total',
    ].join('\n');
    assert.strictEqual(buildFailed(out), false);
    const cases = readTestCases(out)?.cases ?? [];
    assert.deepStrictEqual(cases.map((c) => [c.name, c.passed]), [
      ['prints the greeting', false],
      ['keeps the old help', true],
      ['greet › prints the greeting', false],
    ]);
  });

  it('a module a test file requires, or a missing one with nothing after it, is still a load failure', () => {
    assert.strictEqual(buildFailed("Error: Cannot find module '../lib/greet'\nRequire stack:\n- /w/tests/greet.test.js"), true);
    assert.strictEqual(buildFailed("Error: Cannot find module '../src/sq'"), true);
    // far from its error, an empty requireStack is another error's
    const far = ["Error: Cannot find module '../lib/greet'", ...Array.from({ length: 30 }, (_, i) => `    at frame ${i}`), '  requireStack: []'];
    assert.strictEqual(buildFailed(far.join('\n')), true);
  });
});

// A JavaScript test file its runner reported failed before any test of it ran — a syntax error, a module it imports
// that does not exist — did not load (checks/unloadedFiles.ts, kept by the test case reader): real `node --test` runs on tiny
// workspaces read it so, not as a failed test case, and fail-first, DevA's fix request and the retrospective say it did
// not load, where a test whose assertion failed still reads "failed"; mocha's, jest's and vitest's words for it too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checksForRetro, fixRequest, runCheck, runCheckLoop, runUnbuiltTestFiles, type CheckRun, type ChecksOutcome, type ProposedFile } from '../../src/core';
import { failFirstStatus, computeTsr, type NamedTest } from '../../src/core/metrics/tsr';

/** A workspace of a package.json and `files` (path → text). */
function workspace(files: Record<string, string>): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unloaded-'));
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  return ws;
}

const SYNTAX = "const test = require('node:test');\ntest('parses a price', () => { const x = ; });\n";
const MISSING = "const test = require('node:test');\nconst { mul } = require('../src/mul');\ntest('multiplies two prices', () => { mul(2, 3); });\n";
const ASSERTION = "const test = require('node:test');\nconst assert = require('assert');\ntest('adds two prices', () => { assert.strictEqual(1 + 1, 3); });\n";
const PASSING = "const test = require('node:test');\ntest('keeps the currency', () => {});\n";

const inSyntax: NamedTest = { file: 'test/syntax.test.js', name: 'parses a price', expect: 'fail' };
const inMissing: NamedTest = { file: 'test/mul.test.js', name: 'multiplies two prices', expect: 'fail' };
const inAssertion: NamedTest = { file: 'test/add.test.js', name: 'adds two prices', expect: 'fail' };
const yes = () => true;

/** A check outcome whose fail-first run is `run` (the proposal's passed), for the retrospective's lines. */
function withBefore(run: CheckRun, testFiles: string[]): ChecksOutcome {
  const passed: CheckRun = { ...run, status: 'passed', passed: true, exitCode: 0, tests: [] };
  return { commands: [run.command], runs: [passed], fixRounds: [], maxFixRounds: 2, passed: true, before: { testFiles, runs: [run], notWritten: [] } };
}

describe('checks: a test file that did not load is no failed test', () => {
  it('a syntax error: the file did not load, no test case is named by it, fail-first reads `unbuilt`', async () => {
    const run = await runCheck({ command: 'node --test', cwd: workspace({ 'test/syntax.test.js': SYNTAX, 'test/keep.test.js': PASSING }), round: 0 });
    assert.strictEqual(run.status, 'failed');
    assert.deepStrictEqual(run.unbuiltTestFiles, ['test/syntax.test.js'], run.output);
    assert.strictEqual(run.unbuilt, true);
    assert.deepStrictEqual(run.tests, [{ name: 'keeps the currency', passed: true }], 'the file is no failing test case');
    assert.strictEqual(failFirstStatus([inSyntax], yes, [run]), 'unbuilt');
    const request = fixRequest([run], 1, 2, [], [{ name: inSyntax.name!, file: inSyntax.file }]);
    assert.match(request, /^test\/syntax\.test\.js did not load: the runner reported it failed before any test of it ran/m);
    assert.match(request, /^Test cases the runner reported: 1 passed, 0 failed\.$/m);
    assert.match(request, /you named in criteria_tests: 0 passed, 0 failed, 1 in a file that did not load\./);
    assert.match(checksForRetro(withBefore(run, [inSyntax.file])), /`node --test` failed: test\/syntax\.test\.js did not load without the change \(no test of theirs ran\)[;.]/);
  });

  it('a missing import: the same, in the spec reporter too (the default from Node 23 on)', async () => {
    const ws = workspace({ 'test/mul.test.js': MISSING });
    for (const command of ['node --test', 'node --test --test-reporter=spec']) {
      const run = await runCheck({ command, cwd: ws, round: 0 });
      assert.deepStrictEqual(run.unbuiltTestFiles, ['test/mul.test.js'], run.output);
      assert.strictEqual(run.tests, undefined, `${command}: no test case`);
      assert.strictEqual(failFirstStatus([inMissing], yes, [run]), 'unbuilt', command);
    }
  });

  it('an assertion that fails is still a failed test: nothing did not load', async () => {
    const run = await runCheck({ command: 'node --test', cwd: workspace({ 'test/add.test.js': ASSERTION }), round: 0 });
    assert.deepStrictEqual(run.unbuiltTestFiles, []);
    assert.strictEqual(run.unbuilt, undefined);
    assert.deepStrictEqual(run.tests?.map((t) => t.name), ['adds two prices']);
    assert.strictEqual(run.tests?.[0].passed, false);
    assert.strictEqual(failFirstStatus([inAssertion], yes, [run]), 'fail');
    assert.doesNotMatch(fixRequest([run], 1, 2), /did not load/);
    assert.match(checksForRetro(withBefore(run, [inAssertion.file])), /`node --test` failed \(failing: "adds two prices"\)/);
  });

  it('a mix: each file read for what it did, in both reporters', async () => {
    const ws = workspace({ 'test/syntax.test.js': SYNTAX, 'test/mul.test.js': MISSING, 'test/add.test.js': ASSERTION, 'test/keep.test.js': PASSING });
    for (const command of ['node --test', 'node --test --test-reporter=spec']) {
      const run = await runCheck({ command, cwd: ws, round: 0 });
      assert.deepStrictEqual([...(run.unbuiltTestFiles ?? [])].sort(), ['test/mul.test.js', 'test/syntax.test.js'], run.output);
      assert.deepStrictEqual(run.tests?.filter((t) => !t.passed).map((t) => t.name), ['adds two prices'], command);
      assert.strictEqual(failFirstStatus([inSyntax], yes, [run]), 'unbuilt');
      assert.strictEqual(failFirstStatus([inMissing], yes, [run]), 'unbuilt');
      assert.strictEqual(failFirstStatus([inAssertion], yes, [run]), 'fail');
      const request = fixRequest([run], 1, 2);
      assert.match(request, /^test\/\S+\.test\.js, test\/\S+\.test\.js did not load: the runner reported each failed/m);
      // the failure's own words beside its name, from the TAP block and from the spec reporter's lines alike
      assert.match(request, /^Test cases the runner reported: 1 passed, 1 failed:\n- adds two prices — AssertionError.*: Expected values to be strictly equal: 2 !== 3\n/m);
      const retro = checksForRetro({ ...withBefore(run, []), runs: [run], passed: false, before: undefined, fixRounds: [{ round: 1, request: '', reply: '', files: [], problems: [] }] } as ChecksOutcome);
      assert.match(retro, /after `node --test[^`]*` failed \(failing: "adds two prices"; test\/\S+, test\/\S+ did not load\)/);
    }
  });

  it('in the loop with fail-first: the criterion whose test file needs the change did not load without it, the other failed', async () => {
    const ws = workspace({ 'src/add.js': 'exports.add = (a, b) => a - b;\n' });
    const files = [
      { path: 'src/add.js', relPath: 'src/add.js', content: 'exports.add = (a, b) => a + b;\n', status: 'proposed', action: 'modify' },
      { path: 'src/mul.js', relPath: 'src/mul.js', content: 'exports.mul = (a, b) => a * b;\n', status: 'proposed', action: 'create' },
      { path: 'test/add.test.js', relPath: 'test/add.test.js', content: "const test = require('node:test');\nconst assert = require('assert');\nconst { add } = require('../src/add');\ntest('adds two prices', () => assert.strictEqual(add(2, 3), 5));\n", status: 'proposed', action: 'create' },
      { path: 'test/mul.test.js', relPath: 'test/mul.test.js', content: "const test = require('node:test');\nconst assert = require('assert');\nconst { mul } = require('../src/mul');\ntest('multiplies two prices', () => assert.strictEqual(mul(2, 3), 6));\n", status: 'proposed', action: 'create' },
    ] as ProposedFile[];
    const { outcome } = await runCheckLoop({ commands: ['node --test'], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: () => undefined });
    assert.strictEqual(outcome.passed, true);
    const tsr = computeTsr({
      poaOutput: { acceptance_criteria: [{ id: 'AC-1', criterion: 'adds' }, { id: 'AC-2', criterion: 'multiplies' }] },
      devaOutput: { criteria_tests: [{ criterion: 'AC-1', ...inAssertion }, { criterion: 'AC-2', ...inMissing }] },
      checks: outcome.runs,
      before: outcome.before!.runs,
      fileExists: yes,
    });
    assert.deepStrictEqual(tsr.criteria.map((c) => [c.id, c.computed, c.before]), [
      ['AC-1', 'pass', 'fail'],
      ['AC-2', 'pass', 'unbuilt'],
    ]);
    assert.match(checksForRetro(outcome), /failed: test\/mul\.test\.js did not load without the change \(no test of theirs ran\), and 1 test case failed/);
  });

  it("mocha's `Exception during run` (a file it could not load stops the run) reads as a build or load failure", async () => {
    const mocha = require.resolve('mocha/bin/mocha.js');
    const ws = workspace({ 'test/syntax.test.js': "it('parses a price', () => { const x = ; });\n", 'test/keep.test.js': "it('keeps the currency', () => {});\n" });
    const run = await runCheck({ command: `node "${mocha}" test/keep.test.js test/syntax.test.js`, cwd: ws, round: 0 });
    assert.strictEqual(run.status, 'failed');
    assert.strictEqual(run.unbuilt, true, run.output);
    assert.strictEqual(failFirstStatus([inSyntax], yes, [run]), 'unbuilt');
  });

  it("reads jest's and vitest's words for a test file that did not load, and not a file whose tests ran", () => {
    const jest = ['PASS tests/keep.test.js', 'FAIL tests/price.test.js', '  ● Test suite failed to run', '', "    Cannot find module '../src/price' from 'tests/price.test.js'", 'FAIL tests/add.test.js', '  ● adds › two prices', 'Tests:       1 failed, 1 passed, 2 total'].join('\n');
    assert.deepStrictEqual([...runUnbuiltTestFiles({ command: 'npx jest', output: jest })], ['tests/price.test.js']);
    const vitest = [' ✓ test/keep.test.ts (1 test) 2ms', ' ❯ test/price.test.ts (0 test)', ' ❯ test/add.test.ts (2 tests | 1 failed) 4ms', '   × adds two prices 3ms'].join('\n');
    assert.deepStrictEqual([...runUnbuiltTestFiles({ command: 'cd web && npx vitest run', output: vitest })], ['web/test/price.test.ts'], 'workspace-relative');
    // node:test's point for a whole file with no crash before it (a file whose tests ran, then its process exited 1)
    const ranThenExited = ['# Subtest: keeps the currency', 'ok 1 - keeps the currency', '# Subtest: test/keep.test.js', 'not ok 2 - test/keep.test.js', '# fail 1'].join('\n');
    assert.deepStrictEqual([...runUnbuiltTestFiles({ command: 'node --test', output: ranThenExited })], []);
  });
});

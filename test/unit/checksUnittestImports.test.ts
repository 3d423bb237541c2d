// src/core/checks/unloadedFiles.ts failedImports: a test module unittest could not import is a test file that did not
// load, named by its file (its traceback's frame, else its dotted name), and its stand-in test is no case — the other
// modules' tests still ran. Fail-first says so ("tests/test_b.py did not load without the change") instead of "DevA's
// tests did not build or load". pytest's collection error (`ERROR tests/test_b.py`) is such a file too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { readAllLines } from '../../src/core/text/lines';
import { testCaseReader } from '../../src/core/checks/testCases';
import { runCheck } from '../../src/core/checks/run';
import { beforeFailureSaying } from '../../src/core/checks/verdict';
import { fixRequest } from '../../src/core/checks/fixRequest';
import { pythonWithPytest } from '../helpers/fakeSuite';

/** `python3 -m unittest discover -s tests -t .` as Python 3.11 printed it, the run's folder cut from its paths as the checks cut it. */
const DISCOVERED = `F.E
======================================================================
ERROR: tests.test_b (unittest.loader._FailedTest.tests.test_b)
----------------------------------------------------------------------
ImportError: Failed to import test module: tests.test_b
Traceback (most recent call last):
  File "/usr/lib/python3.11/unittest/loader.py", line 419, in _find_test_path
    module = self._get_module_from_name(name)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/unittest/loader.py", line 362, in _get_module_from_name
    __import__(name)
  File "tests/test_b.py", line 2, in <module>
    from pkg.spoiler import Spoiler
ModuleNotFoundError: No module named 'pkg.spoiler'


======================================================================
FAIL: test_bad (tests.test_a.T.test_bad)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "tests/test_a.py", line 4, in test_bad
    def test_bad(self): self.assertEqual(1, 2)
                        ^^^^^^^^^^^^^^^^^^^^^^
AssertionError: 1 != 2

----------------------------------------------------------------------
Ran 3 tests in 0.000s

FAILED (failures=1, errors=1)`;

function read(out: string) {
  const r = readAllLines(testCaseReader(), out);
  return { cases: r.result()?.cases.map((c) => [c.name, c.passed]), unloaded: r.unloadedFiles() };
}

/** Runs `command` in a Python project of `files` (with an empty package `pkg/`), removed after. */
async function runInProject(files: Record<string, string>, command: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-py-import-'));
  try {
    for (const [rel, text] of Object.entries({ 'pkg/__init__.py': '', ...files })) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    return await runCheck({ command, cwd: fs.realpathSync(dir), round: 0 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('checks: a test module unittest could not import', () => {
  it('is the file that did not load, by its own frame; its stand-in test is no case', () => {
    assert.deepStrictEqual(read(DISCOVERED), { cases: [['test_bad (tests.test_a.T.test_bad)', false]], unloaded: ['tests/test_b.py'] });
    // -v names the stand-in on its line too; `-s tests` without `-t` names the module `test_b`, its frame tells the folder
    const verbose = DISCOVERED.replace('F.E\n', 'test_b (unittest.loader._FailedTest.test_b) ... ERROR\ntest_bad (tests.test_a.T.test_bad) ... FAIL\ntest_ok (tests.test_a.T.test_ok) ... ok\n\n')
      .replace('ERROR: tests.test_b (unittest.loader._FailedTest.tests.test_b)', 'ERROR: test_b (unittest.loader._FailedTest.test_b)')
      .replace('test module: tests.test_b', 'test module: test_b');
    assert.deepStrictEqual(read(verbose), {
      cases: [
        ['test_bad (tests.test_a.T.test_bad)', false],
        ['test_ok (tests.test_a.T.test_ok)', true],
      ],
      unloaded: ['tests/test_b.py'],
    });
  });

  it('without a frame of its own in the run folder (a syntax error, an absolute path), its dotted name is its path', () => {
    const syntax = DISCOVERED.replace(/ {2}File "tests\/test_b\.py", line 2, in <module>\n[^\n]*\n/, '  File "/elsewhere/tests/test_b.py", line 2\n');
    assert.deepStrictEqual(read(syntax).unloaded, ['tests/test_b.py']);
    // a frame after the block's rule belongs to another block
    const later = DISCOVERED.replace(/ {2}File "tests\/test_b\.py"[^\n]*\n/, '').replace('FAIL: test_bad (tests.test_a.T.test_bad)', 'FAIL: test_bad (tests.test_a.T.test_bad)\n  File "lib/tests/test_b.py", line 1, in <module>');
    assert.deepStrictEqual(read(later).unloaded, ['tests/test_b.py']);
  });

  it('a stand-in test that is not a failed import (a name the loader could not find) stays a failing case', () => {
    const missing = [
      'E',
      '======================================================================',
      'ERROR: test_nope (unittest.loader._FailedTest.test_nope)',
      '----------------------------------------------------------------------',
      "AttributeError: module 'tests.test_a' has no attribute 'test_nope'",
      '',
      '----------------------------------------------------------------------',
      'Ran 1 test in 0.000s',
      '',
      'FAILED (errors=1)',
    ].join('\n');
    assert.deepStrictEqual(read(missing), { cases: [['test_nope (unittest.loader._FailedTest.test_nope)', false]], unloaded: [] });
  });

  it('a real run: the check names the file, and fail-first says it did not load while the other tests ran', async function () {
    try {
      execFileSync('python3', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const test_a = 'import unittest\nclass T(unittest.TestCase):\n    def test_ok(self): self.assertEqual(1, 1)\n    def test_bad(self): self.assertEqual(1, 2)\n';
    const test_b = 'import unittest\nfrom pkg.spoiler import Spoiler\nclass T(unittest.TestCase):\n    def test_x(self): Spoiler()\n';
    const run = await runInProject({ 'tests/test_a.py': test_a, 'tests/test_b.py': test_b }, 'python3 -m unittest discover -s tests');
    assert.strictEqual(run.status, 'failed');
    assert.deepStrictEqual(run.unbuiltTestFiles, ['tests/test_b.py']);
    assert.deepStrictEqual(run.tests?.map((c) => [c.name, c.passed]), [['test_bad (test_a.T.test_bad)', false]]);
    assert.strictEqual(beforeFailureSaying(run), 'failed: tests/test_b.py did not load without the change (no test of theirs ran), and 1 test case failed');
  });
});

describe('checks: a test file pytest could not collect', () => {
  it('a real run: the file did not load, no case is named by it, and fail-first and the fix request say so', async function () {
    const python = pythonWithPytest();
    if (!python) this.skip();
    const files = { 'tests/test_a.py': 'def test_ok():\n    assert 1 == 1\n', 'tests/test_b.py': 'from pkg.spoiler import Spoiler\ndef test_x():\n    Spoiler()\n' };
    const run = await runInProject(files, `${python} -m pytest -p no:cacheprovider`);
    assert.strictEqual(run.status, 'failed', run.output);
    assert.deepStrictEqual(run.unbuiltTestFiles, ['tests/test_b.py'], run.output);
    assert.deepStrictEqual(run.tests ?? [], [], 'the file is no failing case');
    assert.strictEqual(beforeFailureSaying(run), 'failed: tests/test_b.py did not load without the change (no test of theirs ran)');
    assert.match(fixRequest([run], 1, 2), /^tests\/test_b\.py did not load: the runner reported it failed before any test of it ran/m);
  });
});

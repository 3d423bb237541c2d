// src/core/checks/detectPython.ts, pythonUnittest.ts and toxIni.ts: a Python project's unittest suite where pytest is
// not configured (the command its tox.ini or Makefile runs, else its tests/ folder's TestCase modules), flake8 where it
// is configured and installed, tox.ini read as tox runs it; and the detected unittest command run on a small project,
// its failing case named from unittest's output; text/ini.ts reading a large file in linear time.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { detectedChecks, isStaticCheck, runCheck } from '../../src/core';
import { toxConfig } from '../../src/core/checks/toxIni';
import { parseIni } from '../../src/core/text/ini';
import { tempDir } from '../helpers/cli';
import { putFile as write } from '../helpers/codebase';

const tmp = () => tempDir('cape-unit-detect-py-');

/** An executable that does nothing, at `rel` under `dir` (a program on a fake PATH, or a virtual environment's). */
function fakeProgram(dir: string, rel: string): void {
  write(dir, rel, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(path.join(dir, rel), 0o755);
}

const commandsOf = async (ws: string) => (await detectedChecks(ws)).commands.map((c) => [c.command, c.reason]);

/** A tox.ini as a Python library writes one: its suite run under coverage, flake8 in an environment of its own. */
const TOX_INI = [
  '[tox]',
  'envlist = py{310, 311}, flake8',
  '',
  '[testenv]',
  'deps = pytidylib',
  'commands =',
  '    coverage run --source=calc -m unittest discover {toxinidir}/tests',
  '    coverage report',
  '',
  '[testenv:flake8]',
  'deps = flake8',
  'commands = flake8 {toxinidir}/calc {toxinidir}/tests',
  '',
  '[flake8]',
  'max-line-length = 119',
  '',
].join('\n');

const UNITTEST_MODULE = 'import unittest\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n';

describe('checks: a Python project tested with unittest and linted with flake8', function () {
  let savedPath: string | undefined;
  let bin: string;
  before(function () {
    if (process.platform === 'win32') this.skip(); // the fake programs below are shell scripts
  });
  beforeEach(() => {
    savedPath = process.env.PATH;
    bin = tmp();
    process.env.PATH = bin; // nothing but the fake programs
    fakeProgram(bin, 'python3');
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it("runs the unittest command of the project's tox.ini (coverage and {toxinidir} left out) or Makefile, by its environment's Python", async () => {
    const ws = tmp();
    write(ws, 'tox.ini', TOX_INI);
    write(ws, 'tests/test_calc.py', UNITTEST_MODULE);
    assert.deepStrictEqual(await commandsOf(ws), [['python3 -m unittest discover tests', 'tox.ini runs unittest']]);
    fakeProgram(ws, '.venv/bin/python');
    assert.deepStrictEqual(await commandsOf(ws), [['.venv/bin/python -m unittest discover tests', 'tox.ini runs unittest']]);

    const make = tmp();
    write(
      make,
      'makefile',
      'TESTS = tests\n\n.PHONY: test\ntest:\n\t@coverage run -m unittest discover -v $(TESTS)\n\tcoverage report\n\ndocs:\n\tcd docs && python -m unittest\n\n' +
        'check: lint\n\tpython -m unittest \\\n\t  discover -s tests -p "*_test.py"\n',
    );
    assert.deepStrictEqual(
      await commandsOf(make),
      [['python3 -m unittest discover -s tests -p "*_test.py"', 'makefile runs unittest']],
      "a command holding make's variable, or run after a `cd`, is not run; the next that runs unittest is, its continued line joined",
    );
    write(make, 'tox.ini', '[testenv]\ncommands = python -m unittest {posargs:discover -s tests -t .}\n');
    assert.deepStrictEqual(await commandsOf(make), [['python3 -m unittest discover -s tests -t .', 'tox.ini runs unittest']], "tox.ini's first; {posargs} is its default");
    write(make, 'tox.ini', '[testenv]\ncommands =\n    ! python -m unittest discover -s broken\n    -python -m unittest discover -s tests\n');
    assert.deepStrictEqual(
      await commandsOf(make),
      [['python3 -m unittest discover -s tests', 'tox.ini runs unittest']],
      'a command tox expects to fail (`!`) is no check; one whose exit it ignores (`-`) is',
    );
  });

  it("else a tests/ or test/ folder whose test module defines unittest's TestCase; pytest, when configured, stays the one test command", async () => {
    const ws = tmp();
    write(ws, 'pyproject.toml', '[project]\nname = "calc"\n');
    write(ws, 'tests/helpers.py', UNITTEST_MODULE);
    write(ws, 'tests/test_mock.py', 'from unittest import mock\n\n\ndef test_patch():\n    assert mock\n');
    assert.deepStrictEqual(await commandsOf(ws), [], 'a pytest-style module that only uses unittest.mock, and a module unittest does not discover, are no unittest suite');
    write(ws, 'tests/test_calc.py', 'from unittest import TestCase\n\n\nclass TestCalc(TestCase):\n    pass\n');
    assert.deepStrictEqual(await commandsOf(ws), [['python3 -m unittest discover -s tests', 'tests/test_calc.py defines unittest test cases']]);
    write(ws, 'tests/__init__.py', '');
    assert.deepStrictEqual(await commandsOf(ws), [['python3 -m unittest discover -s tests -t .', 'tests/test_calc.py defines unittest test cases']], 'a package: its modules import as tests.…');
    const other = tmp();
    write(other, 'test/test_calc.py', UNITTEST_MODULE);
    assert.deepStrictEqual(await commandsOf(other), [['python3 -m unittest discover -s test', 'test/test_calc.py defines unittest test cases']]);

    write(ws, 'tox.ini', TOX_INI);
    write(ws, 'pytest.ini', '[pytest]\n');
    assert.deepStrictEqual(await commandsOf(ws), [['python3 -m pytest', 'pytest.ini']], 'pytest runs the TestCases too');
    fs.rmSync(path.join(bin, 'python3'));
    fs.rmSync(path.join(ws, 'pytest.ini'));
    assert.deepStrictEqual(await commandsOf(ws), [], 'no Python to run them with');
  });

  it('flake8 where .flake8, setup.cfg or tox.ini configures it and it is installed, on the files the project lints', async () => {
    const ws = tmp();
    write(ws, 'tox.ini', TOX_INI);
    write(ws, 'tests/test_calc.py', UNITTEST_MODULE);
    assert.deepStrictEqual((await commandsOf(ws)).map(([c]) => c), ['python3 -m unittest discover tests'], 'flake8 is installed nowhere');
    fakeProgram(bin, 'flake8');
    assert.deepStrictEqual(await commandsOf(ws), [
      ['flake8 calc tests', 'tox.ini [flake8]'],
      ['python3 -m unittest discover tests', 'tox.ini runs unittest'],
    ]);
    fakeProgram(ws, '.venv/bin/flake8');
    assert.strictEqual((await commandsOf(ws))[0][0], '.venv/bin/flake8 calc tests', "the environment's flake8 first");
    write(ws, 'tox.ini', TOX_INI.replace('commands = flake8', 'commands = - flake8'));
    assert.strictEqual((await commandsOf(ws))[0][0], '.venv/bin/flake8 calc tests', 'a command whose exit tox ignores still names the files linted');
    for (const [file, text] of [
      ['.flake8', '[flake8]\nexclude = build\n'],
      ['setup.cfg', '[metadata]\nname = calc\n\n[flake8]\nmax-line-length = 100\n'],
    ]) {
      const p = tmp();
      write(p, file, text);
      assert.deepStrictEqual(await commandsOf(p), [['flake8 .', `${file} [flake8]`]], file);
    }
    const none = tmp();
    write(none, 'setup.cfg', '[metadata]\nname = calc\n# [flake8]\n');
    assert.deepStrictEqual(await commandsOf(none), [], 'no [flake8] section: not configured');
    assert.ok(isStaticCheck('.venv/bin/flake8 calc tests'), 'flake8 on a folder named tests runs no test');
    assert.ok(!isStaticCheck('.venv/bin/python -m unittest discover -s tests'));
  });
});

describe('checks: tox.ini read as tox runs it', () => {
  it("its envlist, [testenv]'s commands first, then each environment's, {toxinidir} dropped and continued lines joined", () => {
    const text = [
      '; a comment',
      '[tox]',
      'envlist =',
      '    py311,',
      '    lint',
      '[testenv:lint]',
      'commands = - flake8 {toxinidir}/src \\',
      '    {toxinidir}/tests',
      '[testenv]',
      'commands =',
      '    # the suite',
      '    python -m unittest discover {toxinidir}',
      '',
      '    python -m build',
      '[testenv:docs]',
      'deps = mkdocs',
    ].join('\r\n');
    assert.deepStrictEqual(toxConfig(text), {
      envlist: 'py311, lint',
      envs: [
        { name: null, commands: ['python -m unittest discover .', 'python -m build'] },
        { name: 'lint', commands: ['- flake8 src tests'] },
        { name: 'docs', commands: [] },
      ],
    });
    assert.deepStrictEqual(toxConfig('not an ini file\n'), { envlist: null, envs: [] });
    assert.strictEqual(toxConfig('[tox]\nenv_list =\n    py312\n    lint\n').envlist, 'py312, lint', "tox 4's env_list");
    assert.deepStrictEqual(
      parseIni('\uFEFF[flake8]\nMax-Line-Length: 119\nexclude =\n  .git,\n  build\n[flake8]\nselect = E\n').map((s) => [s.name, [...s.values]]),
      [['flake8', [['max-line-length', '119'], ['exclude', '\n.git,\nbuild'], ['select', 'E']]]],
      "keys lower-cased as configparser folds them; a section written twice is one; the byte-order mark ignored",
    );
  });
});

describe('text/ini: parseIni on a large text', () => {
  it('reads 100,000 sections in linear time, a section written again merged into its first', () => {
    // a walk over the sections read before each header took about 25 s here (the suite's timeout fails it); reading
    // them by a map, a quarter of a second. No time is asserted here.
    const n = 100_000;
    const text = Array.from({ length: n }, (_, i) => `[s${i}]\nk = ${i}\n`).join('') + '[s0]\nagain = yes\n';
    const sections = parseIni(text);
    assert.strictEqual(sections.length, n);
    assert.deepStrictEqual([...sections[0].values], [['k', '0'], ['again', 'yes']]);
    assert.deepStrictEqual([sections[n - 1].name, sections[n - 1].values.get('k')], [`s${n - 1}`, `${n - 1}`]);
  });
});

describe('checks: the detected unittest command run end to end', function () {
  this.timeout(60000);
  before(function () {
    if (spawnSync('python3', ['--version']).status !== 0) this.skip(); // no Python on this machine
  });

  it("names the failing test case from unittest's output, and not the passing one", async () => {
    const ws = tmp();
    write(ws, 'calc.py', 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n');
    write(ws, 'tests/__init__.py', '');
    write(
      ws,
      'tests/test_calc.py',
      'import unittest\n\nfrom calc import add, mul\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n',
    );
    write(ws, 'tox.ini', TOX_INI);
    const [unittest] = (await detectedChecks(ws)).commands;
    assert.strictEqual(unittest.command, 'python3 -m unittest discover tests');
    const run = await runCheck({ command: unittest.command, cwd: ws, round: 0 });
    assert.strictEqual(run.passed, false, run.output);
    // `test_mul (test_calc.TestCalc.test_mul)` (Python 3.11 and later; `(test_calc.TestCalc)` before)
    assert.deepStrictEqual(
      run.tests?.map((t) => [t.name.split(' ')[0], t.passed]),
      [['test_mul', false]],
      run.output,
    );
    assert.match(run.tests![0].name, /^test_mul \(test_calc\.TestCalc/);
    assert.strictEqual(run.onlyFailuresNamed, true, 'unittest without -v names only its failures: test_add passed');
  });
});

// `--check auto` on a workspace whose Python project lives in `backend/` (the shape of
// fastapi/full-stack-fastapi-template: the environment at the root, where uv keeps a workspace's), with the real
// pytest: the sub-folder's pytest is detected and runs there in the scratch copy, and the test DevA names by its
// workspace path — a parametrized one, which pytest names from backend/ — is found in its runs, on the proposal and
// in fail-first.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { usePytest } from '../helpers/fakeSuite';
import { checksWorkspace, runWithChecks } from '../helpers/toolchainSession';

/** The detected check: backend/'s pytest, by the root's environment, from backend/. */
const COMMAND = 'cd backend && ../.venv/bin/python -m pytest';

/** The workspace's Python project, mul wrong; a root pyproject.toml that only declares the uv workspace. */
const FILES = {
  'pyproject.toml': '[tool.uv.workspace]\nmembers = ["backend"]\n',
  'backend/pyproject.toml': '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\ntestpaths = ["tests"]\n',
  'backend/calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n',
  'backend/tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};

/** DevA's fix of mul and its parametrized test of it. */
const BLOCKS =
  '<edit path="backend/calc.py">\n<<<<<<< SEARCH\ndef mul(a, b):\n    return a + b\n=======\ndef mul(a, b):\n    return a * b\n>>>>>>> REPLACE\n</edit>\n\n' +
  '<file path="backend/tests/test_mul.py">\nimport pytest\n\nfrom calc import mul\n\n\n@pytest.mark.parametrize("a,b,product", [(2, 3, 6), (4, 5, 20)])\ndef test_mul(a, b, product):\n    assert mul(a, b) == product\n</file>';

describe('CLI: --check auto finds the checks of a Python project in backend/', function () {
  this.timeout(120000);
  let fake: FakeAnthropic;
  let python = '';
  before(function () {
    if (process.platform === 'win32') this.skip(); // the environment below is a POSIX one (.venv/bin/python)
  });
  usePytest((f, py) => {
    fake = f;
    python = execFileSync(py, ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], { encoding: 'utf8' }).trim();
  });

  it("backend/'s pytest runs in its folder of the copy; DevA's parametrized test, named by its workspace path, fails first and passes", async () => {
    const criteria = [
      { criterion: 'AC-1', file: 'backend/tests/test_mul.py', test: 'backend/tests/test_mul.py::test_mul', expect: 'fail' as const },
      { criterion: 'AC-2', file: 'backend/tests/test_calc.py', test: 'test_add', expect: 'pass' as const },
      { criterion: 'AC-3', check: COMMAND },
    ];
    const ws = checksWorkspace(fake, 'task-pysub', FILES, BLOCKS, criteria);
    // the uv workspace's environment, at the root: its python runs pytest
    fs.mkdirSync(path.join(ws, '.venv', 'bin'), { recursive: true });
    fs.symlinkSync(python, path.join(ws, '.venv', 'bin', 'python'));
    const run = await runWithChecks(fake, ws, 'task-pysub', 'Fix mul', 'auto');
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(run.stderr.includes(`Checks on DevA's proposal: ${COMMAND} (`), run.stderr);
    assert.deepStrictEqual(
      run.json.checks.map((c: { command: string; passed: boolean }) => [c.command, c.passed]),
      [[COMMAND, true]],
    );
    assert.strictEqual(fake.requests.length, 5, 'it passed at once: no fix round');
    assert.ok(!fs.existsSync(path.join(ws, 'backend', 'tests', 'test_mul.py')), "DevA's test ran in the copy; your tree is untouched");
    assert.deepStrictEqual(run.json.failFirst.testFiles, ['backend/tests/test_mul.py']);
    // on the unchanged code pytest names `tests/test_mul.py::test_mul[2-3-6]` from backend/: DevA's test, failing there
    assert.deepStrictEqual(
      run.json.metrics.criteria.map((c: { id: string; computed: string; before?: string }) => [c.id, c.computed, c.before ?? null]),
      [
        ['AC-1', 'pass', 'fail'],
        ['AC-2', 'pass', 'pass'],
        ['AC-3', 'pass', null],
      ],
    );
    assert.strictEqual(run.json.metrics.tsr, 1);
  });
});

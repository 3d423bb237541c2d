// The checks on a Python project, with the real pytest (scripts/install-pytest.sh puts it on the test machines):
// pytest's cases are recognised, a failure already in the project gets no fix round, TSR clears a named test whose
// file pytest's progress line names beside a failing one, and fail-first runs DevA's new test file alone.
import * as assert from 'assert';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { usePytest } from '../helpers/fakeSuite';
import { assertFailedAsBefore, checksWorkspace, runWithChecks } from '../helpers/toolchainSession';

describe('CLI: checks on a Python project (pytest)', function () {
  this.timeout(120000);
  let fake: FakeAnthropic;
  let python = 'python3';
  // `npm test` installs pytest first; a bare `mocha` on a machine without it says why it did not run
  usePytest((f, py) => ((fake = f), (python = py)));

  it('pytest\'s failing cases already there: no fix round; TSR and fail-first read pytest\'s output', async () => {
    const ws = checksWorkspace(
      fake,
      'task-py',
      {
        'pyproject.toml': '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\ntestpaths = ["tests"]\n',
        'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a * b\n',
        // the project's own suite: test_div fails before DevA touches anything
        'tests/test_calc.py': 'from calc import add, div\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_div():\n    assert div(6, 3) == 2\n',
      },
      '<edit path="calc.py">\n<<<<<<< SEARCH\ndef mul(a, b):\n    return a + b\n=======\ndef mul(a, b):\n    return a * b\n>>>>>>> REPLACE\n</edit>\n\n' +
        '<file path="tests/test_mul.py">\nfrom calc import mul\n\n\ndef test_mul_small():\n    assert mul(2, 3) == 6\n\n\ndef test_mul_two():\n    assert mul(2, 2) == 4\n</file>',
      [
        { criterion: 'AC-1', file: 'tests/test_mul.py', test: 'test_mul_small', expect: 'fail' },
        { criterion: 'AC-2', file: 'tests/test_calc.py', test: 'test_add', expect: 'pass' },
        { criterion: 'AC-3', file: 'tests/test_mul.py', test: 'test_mul_two', expect: 'pass' },
      ],
    );
    const run = await runWithChecks(fake, ws, 'task-py', 'Fix mul', `${python} -m pytest -q -p no:cacheprovider`);
    assertFailedAsBefore(run, fake, 'test_div fails on the unchanged code too', [
      // test_mul_small passes with the change and fails without it; test_add sits in the file whose test_div fails,
      // and pytest names only its failing cases, so it passed (there and before); test_mul_two passes either way
      ['AC-1', 'pass', 'fail'],
      ['AC-2', 'pass', 'pass'],
      ['AC-3', 'pass', 'pass'],
    ]);
    assert.strictEqual(run.json.checks[0].passed, false);
    assert.match(run.stderr, /Fails only as your unchanged code does|fails as (it does )?on the unchanged (code|workspace)/i);

    assert.strictEqual(run.json.metrics.tsr, 1);
    assert.deepStrictEqual(run.json.failFirst.testFiles, ['tests/test_mul.py']);
    // the retrospective hears the failing case by pytest's id, on the proposal and before it
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /tests\/test_calc\.py::test_div/);
    // before the change, the case the unchanged code fails without DevA's tests too is counted apart, not named among
    // DevA's (a Python-Markdown trial's suite failed 366 such cases beside its 15 new tests)
    assert.match(retroAsk, /DevA's test files alone \(tests\/test_mul\.py\) on the unchanged code: [^\\]*failed \(failing: \\"tests\/test_mul\.py::test_mul_small\\"\), beside 1 test case failing without DevA's test files too/);
    assert.match(run.stderr, /· before the change, \S+ -m pytest -q -p no:cacheprovider failed \(1 test case failing, and 1 that fails without DevA's test files too\), as a test of the change should/);
    assert.doesNotMatch(retroAsk, /tests\/test_mul\.py::test_mul_two/, 'a case that passed is not named as failing');
  });
});

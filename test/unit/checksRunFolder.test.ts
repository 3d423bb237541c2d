// src/core/checks/runFolder.ts: a check run in a sub-project's folder (`cd backend && …`) reports its test files from
// there; its test cases, the test files it passed and the Go folders it could not build are read as the workspace
// names them, so the criteria's tests (`backend/tests/api/test_items.py`) are found in its run, and a test outside
// its folder is none of its.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixRequest, inFolder, runCheck, runFolder, runPassedFiles, runUnbuiltGoFolders, testStatus, workspaceCaseName, type CheckRun } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-runfolder-'));
}

/** A run of `cd <folder> && node -e …` printing `lines` and exiting with `code`, in a workspace holding the folder. */
async function runIn(folder: string, lines: readonly string[], code: number): Promise<CheckRun> {
  const ws = tmp();
  fs.mkdirSync(path.join(ws, folder), { recursive: true });
  const script = `process.stdout.write(${JSON.stringify(lines.join('\n') + '\n')}); process.exit(${code})`;
  return runCheck({ command: inFolder(folder, `node -e ${JSON.stringify(script)}`), cwd: ws, round: 0 });
}

describe('checks: what a run in a sub-project\'s folder reports, as the workspace names it (runFolder.ts)', function () {
  this.timeout(30_000);

  it('the folder a command runs in, as inFolder writes it; none for the workspace itself or a folder outside it', () => {
    assert.strictEqual(runFolder(inFolder('backend', 'pytest')), 'backend');
    assert.strictEqual(runFolder(inFolder('services/api', 'go test ./...')), 'services/api');
    assert.strictEqual(runFolder("cd 'my app' && npm test"), 'my app');
    assert.strictEqual(runFolder('cd ./web/ && npm test'), 'web');
    for (const c of ['npm test', 'cd .. && npm test', 'cd /tmp && npm test', 'cd a/../.. && npm test', 'npm test && cd web']) assert.strictEqual(runFolder(c), '', c);
  });

  it("a case's test file is prefixed with the folder; a name that starts with no test file is left as it is", () => {
    assert.strictEqual(workspaceCaseName('backend', 'tests/api/test_items.py::test_create[a - b]'), 'backend/tests/api/test_items.py::test_create[a - b]');
    assert.strictEqual(workspaceCaseName('backend', 'tests/test_x.py'), 'backend/tests/test_x.py', "pytest's ERROR line for a file that did not load");
    assert.strictEqual(workspaceCaseName('web', 'src/calc.test.ts > calc > multiplies'), 'web/src/calc.test.ts > calc > multiplies');
    assert.strictEqual(workspaceCaseName('web', 'tests/a.test.js › Test suite failed to run'), 'web/tests/a.test.js › Test suite failed to run');
    for (const name of ['example.com/calc.TestTable/two', 'Theme › toggles', 'test_bad (tests.test_u.TestU.test_bad)', 'calc multiplies']) {
      assert.strictEqual(workspaceCaseName('api', name), name);
    }
    assert.strictEqual(workspaceCaseName('', 'tests/test_x.py::test_a'), 'tests/test_x.py::test_a');
  });

  it("pytest run in backend/ names DevA's test by its workspace path: a failing parametrized case is the named test's", async () => {
    const run = await runIn('backend', ['FAILED tests/api/test_items.py::test_create[x - y] - assert 1 == 2', '1 failed, 3 passed in 0.12s'], 1);
    assert.deepStrictEqual(run.tests, [{ name: 'backend/tests/api/test_items.py::test_create[x - y]', passed: false, message: 'assert 1 == 2' }]);
    const file = 'backend/tests/api/test_items.py';
    assert.strictEqual(testStatus({ file, name: 'backend/tests/api/test_items.py::test_create' }, true, [run]), 'fail');
    assert.strictEqual(testStatus({ file, name: 'test_create' }, true, [run]), 'fail');
    assert.strictEqual(testStatus({ file, name: 'test_read' }, true, [run]), 'pass', 'pytest names only failing cases: the others did not fail');
  });

  it("jest's and vitest's files passed as a whole, and go test's folders not built, are read with the folder, kept or read back from the output", async () => {
    const jest = await runIn('frontend', ['PASS src/a.test.js', 'FAIL src/b.test.js', '  ● b › breaks'], 1);
    assert.deepStrictEqual(jest.passedTestFiles, ['frontend/src/a.test.js']);
    assert.strictEqual(testStatus({ file: 'frontend/src/a.test.js', name: 'adds' }, true, [jest]), 'pass', 'its file passed, though the run failed elsewhere');
    const recorded = { ...jest, passedTestFiles: undefined };
    assert.deepStrictEqual([...runPassedFiles(recorded)], ['frontend/src/a.test.js'], 'a run recorded without them: read from its output');
    const go = await runIn('api', ['# example.com/calc [example.com/calc.test]', 'calc/sq_test.go:6:5: undefined: Sq', 'FAIL\texample.com/calc [build failed]', 'FAIL'], 1);
    assert.deepStrictEqual(go.unbuiltGoFolders, ['api/calc']);
    assert.deepStrictEqual([...runUnbuiltGoFolders({ ...go, unbuiltGoFolders: undefined })], ['api/calc']);
    assert.strictEqual(testStatus({ file: 'api/calc/add_test.go', name: 'TestAdd' }, true, [go], 'no_test', 'no_test'), 'no_test', 'its package did not build: it did not run');
  });

  it("the fix request tells DevA that a run's paths are from its folder, and counts only the named tests in it", async () => {
    const run = await runIn('backend', ['tests/test_mul.py:8: AssertionError', 'FAILED tests/test_mul.py::test_mul - assert 5 == 6', '1 failed in 0.10s'], 1);
    const request = fixRequest([run], 1, 2, [], [{ name: 'test_mul', file: 'backend/tests/test_mul.py' }, { name: 'adds', file: 'frontend/src/a.test.js' }]);
    assert.ok(request.includes('It runs in backend/: the relative paths in its output are from there (a file\'s path in your blocks starts with backend/).'), request);
    assert.ok(request.includes('Of the 1 test(s) you named in criteria_tests: 0 did not fail, 1 failed.'), request);
    assert.ok(!fixRequest([{ ...run, command: 'npm test' }], 1, 2).includes('It runs in'));
  });

  it("a test outside the run's folder is none of its: the backend's passing pytest does not pass the frontend's test", async () => {
    const backend = await runIn('backend', ['3 passed in 0.10s'], 0);
    assert.strictEqual(testStatus({ file: 'frontend/src/a.test.js', name: 'adds' }, true, [backend]), 'no_test');
    assert.strictEqual(testStatus({ file: 'backend/tests/test_a.py', name: 'test_adds' }, true, [backend]), 'pass');
  });
});

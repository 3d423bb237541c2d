// The checks on a Go project, with the real Go toolchain (scripts/install-go.sh puts it on the test machines): the
// checks are detected from go.mod (`go vet ./...`, `go test ./...`), `go test`'s cases are recognised, a failure
// already in the project gets no fix round, and fail-first runs DevA's new _test.go file on the unchanged code.
import * as assert from 'assert';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useToolchain } from '../helpers/fakeSuite';
import { assertFailedAsBefore, checksWorkspace, runWithChecks } from '../helpers/toolchainSession';
import { type CriterionTest } from '../helpers/demo';

describe('CLI: checks on a Go project (go vet, go test)', function () {
  this.timeout(180000);
  let fake: FakeAnthropic;
  useToolchain('go', ['version'], 'scripts/install-go.sh', { chunkSize: 256 }, (f) => (fake = f));

  /** A Go module `example.com/calc` with the package `calc/`, and a session whose DevA proposes `blocks`. */
  const goSession = (taskId: string, files: Record<string, string>, blocks: string, tests: CriterionTest[]) =>
    checksWorkspace(fake, taskId, { 'go.mod': 'module example.com/calc\n\ngo 1.19\n', ...files }, blocks, tests);
  const goTest = (name: string, body: string) => `func ${name}(t *testing.T) {\n\tif ${body} {\n\t\tt.Fatal("${name}")\n\t}\n}\n`;
  const testFile = (...tests: string[]) => `package calc\n\nimport "testing"\n\n${tests.join('\n')}`;

  it('detected from go.mod; a failure already there gets no fix round; TSR and fail-first read go test\'s output', async () => {
    const ws = goSession(
      'task-go',
      {
        'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Mul(a, b int) int {\n\treturn a + b\n}\n\nfunc Div(a, b int) int {\n\treturn a * b\n}\n',
        // the project's own suite: TestDiv fails before DevA touches anything
        'calc/calc_test.go': testFile(goTest('TestAdd', 'Add(2, 3) != 5'), goTest('TestDiv', 'Div(6, 3) != 2')),
      },
      '<edit path="calc/calc.go">\n<<<<<<< SEARCH\nfunc Mul(a, b int) int {\n\treturn a + b\n}\n=======\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n>>>>>>> REPLACE\n</edit>\n\n' +
        `<file path="calc/mul_test.go">\n${testFile(goTest('TestMulSmall', 'Mul(2, 3) != 6'), goTest('TestMulTwo', 'Mul(2, 2) != 4'))}</file>`,
      [
        { criterion: 'AC-1', file: 'calc/mul_test.go', test: 'TestMulSmall', expect: 'fail' },
        { criterion: 'AC-2', file: 'calc/calc_test.go', test: 'TestAdd', expect: 'pass' },
        { criterion: 'AC-3', file: 'calc/mul_test.go', test: 'TestMulTwo', expect: 'pass' },
      ],
    );
    const run = await runWithChecks(fake, ws, 'task-go', 'Fix Mul', 'auto', 150000);
    assertFailedAsBefore(run, fake, 'TestDiv fails on the unchanged code too', [
      // TestMulSmall passes with the change and fails without it; go test names only failing cases, so TestAdd (in
      // the file whose TestDiv fails) passed; TestMulTwo passes either way (2 + 2 = 2 × 2)
      ['AC-1', 'pass', 'fail'],
      ['AC-2', 'pass', 'pass'],
      ['AC-3', 'pass', 'pass'],
    ]);
    assert.deepStrictEqual(run.json.checks.map((c: any) => [c.command, c.passed]), [
      ['go vet ./...', true],
      ['go test ./...', false],
    ]);
    assert.deepStrictEqual(run.json.failFirst.testFiles, ['calc/mul_test.go']);
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /TestDiv/);
    assert.match(retroAsk, /TestMulSmall/);
  });

  it('a new test of a function the unchanged code lacks: its package does not build there, so its other tests are not told', async () => {
    const ws = goSession(
      'task-go2',
      {
        'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n',
        'calc/calc_test.go': testFile(goTest('TestAdd', 'Add(2, 3) != 5')),
      },
      '<edit path="calc/calc.go">\n<<<<<<< SEARCH\nfunc Add(a, b int) int {\n=======\nfunc Sq(a int) int {\n\treturn a * a\n}\n\nfunc Add(a, b int) int {\n>>>>>>> REPLACE\n</edit>\n\n' +
        `<file path="calc/sq_test.go">\n${testFile(goTest('TestSq', 'Sq(3) != 9'))}</file>`,
      [
        { criterion: 'AC-1', file: 'calc/sq_test.go', test: 'TestSq', expect: 'fail' },
        { criterion: 'AC-2', file: 'calc/calc_test.go', test: 'TestAdd', expect: 'pass' },
        { criterion: 'AC-3', check: 'go test ./...' },
      ],
    );
    const run = await runWithChecks(fake, ws, 'task-go2', 'Add Sq', 'auto', 150000);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(run.json.checks.every((c: any) => c.passed), 'the proposal builds and passes');
    // go vet is a static check: fail-first runs only the tests
    assert.deepStrictEqual(run.json.failFirst.checks.map((c: any) => [c.command, c.status, c.unbuilt]), [['go test ./...', 'failed', true]]);
    assert.deepStrictEqual(run.json.failFirst.skipped, ['go vet ./...']);
    assert.deepStrictEqual(
      run.json.metrics.criteria.map((c: any) => [c.id, c.computed, c.before ?? null]),
      [
        // TestSq did not build without Sq: no test of it ran there (not "failed")
        ['AC-1', 'pass', 'unbuilt'],
        // TestAdd never ran there: the package did not build without Sq
        ['AC-2', 'pass', 'no_test'],
        ['AC-3', 'pass', null],
      ],
    );
    assert.strictEqual(run.json.metrics.tsr, 1);
    // the transcript and the retrospective say the new test did not build there
    assert.match(run.stderr, /· before the change, go test \.\/\.\.\. failed: DevA's tests did not build or load without the change/);
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /on the unchanged code: `go test \.\/\.\.\.` failed: DevA's tests did not build or load without the change/);
    assert.match(retroAsk, /- AC-1: [^\\]*with only DevA's tests on the unchanged code: did not build or load without the change \(the test file needs it; no test ran\)\\n/);
  });
});

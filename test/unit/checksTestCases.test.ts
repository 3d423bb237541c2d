// src/core/checks/testCases.ts: the test cases real runners' output names, with the names their ids make awkward.
import * as assert from 'assert';
import { baselineLines, buildFailed, failsAsBefore, passedTestFiles, problemKeys, readTestCases, trimForModel, type CheckRun } from '../../src/core';

describe('checks: test cases with awkward names', () => {
  it('pytest: parametrized ids with spaces, " - " and "::" are read whole from its summary, and once with -v', () => {
    // pytest 8's default output (short test summary)
    const summary = [
      '=========================== short test summary info ============================',
      "FAILED test_p.py::test_words[hello world] - AssertionError: assert 'hello wor...",
      "FAILED test_p.py::test_words[a::b] - AssertionError: assert 'a::b' == 'nope'",
      "FAILED test_p.py::test_words[x - y] - AssertionError: assert 'x - y' == 'nope'",
      'FAILED tests/test_q.py::TestQ::test_it[] - assert 0',
      'FAILED tests/test_q.py::test_bare',
      'ERROR tests/test_broken.py - ModuleNotFoundError: No module named "nope"',
      '========================= 5 failed, 1 passed, 1 error in 0.20s ==========================',
    ].join('\n');
    // the file it could not collect (`ERROR tests/test_broken.py - …`) did not load: no case (unloadedFiles.ts)
    const failing = ['test_p.py::test_words[hello world]', 'test_p.py::test_words[a::b]', 'test_p.py::test_words[x - y]', 'tests/test_q.py::TestQ::test_it[]', 'tests/test_q.py::test_bare'];
    // each with the message after it on its line, as the fix request names it (failureMessages.ts)
    const said = ["AssertionError: assert 'hello wor...", "AssertionError: assert 'a::b' == 'nope'", "AssertionError: assert 'x - y' == 'nope'", 'assert 0', undefined];
    const failed = failing.map((name, i) => ({ name, passed: false, ...(said[i] ? { message: said[i] } : {}) }));
    assert.deepStrictEqual(readTestCases(summary), { cases: failed, listsPassed: false });
    // pytest -v: each case on its line, then the same summary
    const verbose = [
      'test_p.py::test_words[hello world] FAILED                                [ 25%]',
      'test_p.py::test_words[a::b] FAILED                                       [ 50%]',
      'test_p.py::test_words[x - y] FAILED                                      [ 75%]',
      'test_p.py::TestK::test_ok PASSED                                         [100%]',
      '=========================== short test summary info ============================',
      "FAILED test_p.py::test_words[hello world] - AssertionError: assert 'hello wor...",
      "FAILED test_p.py::test_words[a::b] - AssertionError: assert 'a::b' == 'nope'",
      "FAILED test_p.py::test_words[x - y] - AssertionError: assert 'x - y' == 'nope'",
    ].join('\n');
    assert.deepStrictEqual(readTestCases(verbose), {
      cases: [...failed.slice(0, 3), { name: 'test_p.py::TestK::test_ok', passed: true }],
      listsPassed: true,
    });
  });

  it("ESLint's summary (`✖ 2 problems (…)`) is no test case: a lint check's output names none", () => {
    // eslint 8's stylish formatter, as `npm run lint` printed it in a trial (with eslint-plugin-prettier)
    const out = [
      '> app@1.0.0 lint',
      '> eslint src --ignore-path .gitignore',
      '',
      'src/features/discussions/components/discussions-list.tsx',
      '  90:44  error  Replace `{announcement}` with `⏎········{announcement}⏎······`  prettier/prettier',
      '',
      '✖ 2 problems (2 errors, 0 warnings)',
      '  2 errors and 0 warnings potentially fixable with the `--fix` option.',
      '✖ 1 problem (0 errors, 1 warning)',
    ].join('\n');
    assert.strictEqual(readTestCases(out), undefined);
  });

  it('a diagnostic at a line and column (tsd, xo: `✖  686:31  …`) is no test case', () => {
    // tsd's output on a type test of a method not written yet
    const out = [
      '',
      '  typings/index.test-d.ts:686:0',
      '  ✖  686:0   Parameter type boolean is not identical to argument type any.  ',
      '  ✖  686:31  Property isDeprecated does not exist on type Option.           ',
      '',
      '  2 errors',
    ].join('\n');
    assert.strictEqual(readTestCases(out), undefined);
    // a test whose name starts with a number and a colon is still one
    assert.deepStrictEqual(readTestCases('  ✖ 12:30 meeting is listed (2ms)')?.cases.map((c) => c.passed), [false]);
  });

  it("node:test's spec reporter: describe() blocks (▶) and its \"failing tests:\" heading are not test cases", () => {
    // node 20's `node --test --test-reporter=spec` (the default reporter from node 23 on)
    const out = [
      '▶ math > ops',
      '  ✔ adds › twice (0.979617ms)',
      '  ✖ fails [x] (1.501471ms)',
      '    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '        at TestContext.<anonymous> (a.test.js:4:37)',
      '',
      '  ▶ inner',
      '    ✔ ok one (0.989716ms)',
      '  ✔ inner (1.582957ms)',
      '✖ math > ops (3.822385ms)',
      '✖ top level fails (0.153333ms)',
      '  Error: boom',
      'ℹ tests 4',
      'ℹ suites 2',
      'ℹ pass 2',
      'ℹ fail 2',
      '',
      '✖ failing tests:',
      '',
      'test at a.test.js:4:8',
      '✖ fails [x] (1.501471ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      'test at a.test.js:6:1',
      '✖ top level fails (0.153333ms)',
      '  Error: boom',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(out), {
      cases: [
        { name: 'adds › twice', passed: true },
        // its message line ends in a colon, and the line below it names the next failure's place: not its words
        { name: 'fails [x]', passed: false, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:' },
        { name: 'ok one', passed: true },
        { name: 'top level fails', passed: false, message: 'Error: boom' },
      ],
      listsPassed: true,
    });
  });

  it('go test -v: a failed test\'s message is the first log line it wrote before its verdict, in its package', () => {
    // `go test -v ./...` (go 1.19): the log comes under `=== RUN` (or `=== CONT` for a parallel test), the verdict after;
    // TestAdd is in both packages and logs only in the second
    const out = [
      '=== RUN   TestAdd',
      '--- FAIL: TestAdd (0.00s)',
      '=== RUN   TestTable',
      '=== RUN   TestTable/one',
      '    calc_test.go:16: bad one',
      '=== RUN   TestTable/two',
      '--- FAIL: TestTable (0.00s)',
      '    --- FAIL: TestTable/one (0.00s)',
      '    --- PASS: TestTable/two (0.00s)',
      '=== RUN   TestPar1',
      '=== PAUSE TestPar1',
      '=== RUN   TestPar2',
      '=== PAUSE TestPar2',
      '=== CONT  TestPar1',
      '    calc_test.go:23: par1 log',
      '    calc_test.go:24: par1 failed',
      '--- FAIL: TestPar1 (0.00s)',
      '=== CONT  TestPar2',
      '    calc_test.go:29: par2 failed',
      '--- FAIL: TestPar2 (0.00s)',
      'FAIL',
      'FAIL\texample.com/calc\t0.008s',
      '=== RUN   TestAdd',
      '    add_test.go:7: Add(2, 3) = 6, want 5',
      '--- FAIL: TestAdd (0.00s)',
      'FAIL',
      'FAIL\texample.com/calc/sub\t0.004s',
      'FAIL',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(out), {
      cases: [
        { name: 'example.com/calc.TestAdd', passed: false },
        { name: 'example.com/calc.TestTable', passed: false },
        { name: 'example.com/calc.TestTable/one', passed: false, message: 'calc_test.go:16: bad one' },
        { name: 'example.com/calc.TestTable/two', passed: true },
        { name: 'example.com/calc.TestPar1', passed: false, message: 'calc_test.go:23: par1 log' },
        { name: 'example.com/calc.TestPar2', passed: false, message: 'calc_test.go:29: par2 failed' },
        { name: 'example.com/calc/sub.TestAdd', passed: false, message: 'add_test.go:7: Add(2, 3) = 6, want 5' },
      ],
      listsPassed: true,
    });
  });

  it('go test over several packages: a test name in two packages is two cases, named with their package', () => {
    // `go test ./...` (go 1.22): TestTable fails in both packages
    const out = [
      '--- FAIL: TestTable (0.00s)',
      '    --- FAIL: TestTable/one_word (0.00s)',
      '        calc_test.go:5: bad one word',
      '    --- FAIL: TestTable/a/b (0.00s)',
      '        calc_test.go:5: bad a/b',
      'FAIL',
      'FAIL\texample.com/calc\t0.016s',
      'ok  \texample.com/calc/fine\t(cached)',
      '--- FAIL: TestTable (0.00s)',
      '    --- FAIL: TestTable/x (0.00s)',
      '        s_test.go:3: no',
      'FAIL',
      'FAIL\texample.com/calc/sub\t0.014s',
      'FAIL',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(out), {
      // a subtest's log line is its message; a parent's next line is its subtest's verdict, no message
      cases: [
        { name: 'example.com/calc.TestTable', passed: false },
        { name: 'example.com/calc.TestTable/one_word', passed: false, message: 'calc_test.go:5: bad one word' },
        { name: 'example.com/calc.TestTable/a/b', passed: false, message: 'calc_test.go:5: bad a/b' },
        { name: 'example.com/calc/sub.TestTable', passed: false },
        { name: 'example.com/calc/sub.TestTable/x', passed: false, message: 's_test.go:3: no' },
      ],
      listsPassed: false,
    });
    // on the unchanged code only sub's TestTable failed: calc's failing now is new, not a failure already there
    const run = (output: string): CheckRun => ({ command: 'go test ./...', round: 0, status: 'failed', passed: false, exitCode: 1, durationMs: 1, output, outputChars: output.length, tests: readTestCases(output)!.cases, onlyFailuresNamed: true });
    const sub = ['--- FAIL: TestTable (0.00s)', '    --- FAIL: TestTable/x (0.00s)', '        s_test.go:3: no', 'FAIL', 'FAIL\texample.com/calc/sub\t0.014s', 'FAIL'];
    const before = ['ok  \texample.com/calc\t0.01s', ...sub].join('\n');
    const after = ['--- FAIL: TestTable (0.00s)', '    calc_test.go:9: got 5, want 6', 'FAIL', 'FAIL\texample.com/calc\t0.01s', ...sub].join('\n');
    assert.strictEqual(failsAsBefore(run(after), run(before)), false);
    assert.strictEqual(failsAsBefore(run(before), run(before)), true);
  });

  it('go test: a case is named with its package however many packages the run names (the change may add one)', () => {
    // go 1.19, `go test ./...`: the module had one package with a failing test; the proposal adds util with its test
    const run = (output: string): CheckRun => ({ command: 'go test ./...', round: 0, status: 'failed', passed: false, exitCode: 1, durationMs: 1, output, outputChars: output.length, tests: readTestCases(output)!.cases, onlyFailuresNamed: true });
    const broken = ['--- FAIL: TestBroken (0.00s)', '    calc_test.go:6: pre-existing failure', 'FAIL', 'FAIL\texample.com/m/calc\t0.002s'];
    const before = [...broken, 'FAIL'].join('\n');
    const after = [...broken, 'ok  \texample.com/m/util\t0.002s', 'FAIL'].join('\n');
    // its log line under the verdict is its message
    assert.deepStrictEqual(readTestCases(before)!.cases, [{ name: 'example.com/m/calc.TestBroken', passed: false, message: 'calc_test.go:6: pre-existing failure' }]);
    assert.strictEqual(failsAsBefore(run(after), run(before)), true, 'the same failure, not a new one');
  });

  it("mocha: a failing test is named by its full title from the failure list (a leaf title like \"works\" recurs in suites), with the dot reporter too", () => {
    const summary = [
      '  2 passing (6ms)',
      '  2 failing',
      '',
      '  1) top works:',
      '     Error: x',
      '      at Context.<anonymous> (a.test.js:4:31)',
      '',
      '  2) Suite B',
      '       inner',
      '         works:',
      '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      '1 !== 2',
      '',
    ];
    // mocha 10's spec reporter
    const spec = ['', '', '  1) top works', '  Suite A', '    ✔ works', '    ✔ other', '', '  Suite B', '    inner', '      2) works', '', '', ...summary].join('\n');
    assert.deepStrictEqual(readTestCases(spec), {
      cases: [
        { name: 'top works', passed: false, message: 'Error: x' },
        { name: 'works', passed: true },
        { name: 'other', passed: true },
        // Node's assert writes its words under the line that ends in a colon
        { name: 'Suite B inner works', passed: false, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 1 !== 2' },
      ],
      listsPassed: true,
    });
    // the dot reporter names only the failures, in its failure list
    const dot = ['', '', '  !..!', '', ...summary].join('\n');
    assert.deepStrictEqual(readTestCases(dot), {
      cases: [
        { name: 'top works', passed: false, message: 'Error: x' },
        { name: 'Suite B inner works', passed: false, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 1 !== 2' },
      ],
      listsPassed: false,
    });
  });
});

describe('checks: a megabyte of output read in linear time', () => {
  // Each call below reads a megabyte: a pattern retried from every character of a run takes minutes there (the suite's
  // timeout fails the test), a linear one milliseconds. No time is asserted here: the figures are the benchmark's.
  const MB = 1_000_000;

  it("a case's line with a long run of blanks inside or after its name (the spec marks, TAP, jest's ●, mocha's numbers)", () => {
    for (const head of ['✓ x', '  ✖ x', 'ok 1 - x', '  ● x', '  1) x', '▶ x', ' FAIL  test/a.test.ts > x']) {
      assert.strictEqual(readTestCases(head + ' '.repeat(MB) + 'y'), undefined, `${head}: a name that long is none`);
      assert.strictEqual(readTestCases(`${head}${'\t'.repeat(MB)}y\n`), undefined, `${head}, tabs`);
    }
    // a name's time after a run of blanks; a name with a megabyte of blanks after it keeps its name
    assert.deepStrictEqual(readTestCases(`  ✓ adds${' '.repeat(400)}(3 ms)\n  ✓ subtracts${' '.repeat(MB)}\n`), {
      cases: [{ name: 'adds', passed: true }, { name: 'subtracts', passed: true }],
      listsPassed: true,
    });
    assert.strictEqual(passedTestFiles(' ✓ x' + ' '.repeat(MB) + 'y').size, 0);
  });

  it("a case named on a line longer than it reads: pytest's summary (CI=1: pytest does not cut the message), a subTest's", () => {
    const long = `FAILED tests/test_a.py::test_big - AssertionError: assert [${'1, '.repeat(MB / 3)}] == []`;
    const big = readTestCases(long)!;
    assert.deepStrictEqual(big.cases.map(({ name, passed }) => ({ name, passed })), [{ name: 'tests/test_a.py::test_big', passed: false }]);
    assert.ok(big.cases[0].message!.startsWith('AssertionError: assert [1, 1') && big.cases[0].message!.length <= 240, 'its message, cut');
    assert.deepStrictEqual(readTestCases(`test_x (t.T.test_x) (${'a'.repeat(MB)}) ... ok`), { cases: [{ name: 'test_x (t.T.test_x)', passed: true }], listsPassed: true }, "a subTest's parameters");
  });

  it(".NET's `error CS` lines, with `Build FAILED` before, after or nowhere", () => {
    const errors = 'error CS0001: x\n'.repeat(MB / 16);
    assert.strictEqual(buildFailed(errors), false);
    assert.strictEqual(buildFailed(errors + 'Build FAILED.\n'), true);
    assert.strictEqual(buildFailed('Build FAILED.\n' + errors), true);
    assert.strictEqual(buildFailed('Build FAILED.\n'), false, 'no compiler error');
  });

  it('a linter\'s problems and the trimmed output, after a long run of path characters or blanks', () => {
    assert.deepStrictEqual(problemKeys(`src/a.ts${'a.'.repeat(MB / 2)}\nsrc/b.ts:3:1: bad thing`), ['src/b.ts: bad thing']);
    assert.deepStrictEqual(problemKeys(`x${' '.repeat(MB)}y\nsrc/b.ts:3:1: bad thing   `), ['src/b.ts: bad thing']);
    const out = trimForModel(`src/a.js:3:1 boom${'\n '.repeat(MB / 2)}\nend\n\n`);
    assert.match(out, /^\[lines naming files\]\nsrc\/a\.js:3:1 boom\n/);
    assert.match(out, /\nend$/);
  });
});

describe('checks: a failure as before only when the run reported all the cases the unchanged workspace did', () => {
  const run = (tests: [string, boolean][], extra: Partial<CheckRun> = {}): CheckRun => ({
    command: 'npx mocha',
    round: 0,
    status: 'failed',
    passed: false,
    exitCode: 1,
    durationMs: 1,
    output: '',
    outputChars: 0,
    tests: tests.map(([name, passed]) => ({ name, passed })),
    ...extra,
  });

  it('the proposal ended the run early (process.exit in the code under test): the cases after it are missing, not as before', () => {
    const base = run([['old broken', false], ['adds', true], ['multiplies', true]]);
    const ended = run([['old broken', false], ['adds', true]]);
    assert.strictEqual(failsAsBefore(ended, base), false);
    assert.deepStrictEqual(baselineLines(ended, base).slice(1), [
      'Failing there too (not caused by your files; leave them alone):',
      '- old broken',
      'Passed there but not reported with your proposal (did the run end before them?):',
      '- multiplies',
    ]);
    assert.strictEqual(failsAsBefore(run([['old broken', false], ['adds', true], ['multiplies', true], ['divides', true]]), base), true, 'all there, and one more');
    // a runner that names only failures says nothing of the cases it does not name
    const only = (tests: [string, boolean][]) => run(tests, { onlyFailuresNamed: true });
    assert.strictEqual(failsAsBefore(only([['old broken', false]]), only([['old broken', false]])), true);
  });

  it('a run that named more cases than it keeps is compared by none of them', () => {
    const base = run([['legacy', false], ['case 1', true]]);
    assert.strictEqual(failsAsBefore(run([['legacy', false], ['case 1', true]], { testsIncomplete: true }), base), false);
    assert.strictEqual(failsAsBefore(run([['legacy', false], ['case 1', true]]), { ...base, testsIncomplete: true }), false);
    assert.strictEqual(failsAsBefore(run([['legacy', false], ['case 1', true]]), base), true);
  });
});

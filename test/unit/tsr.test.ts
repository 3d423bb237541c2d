// TSR (issue 10 §4): POA's criteria found by id in any output shape, DevA's named tests, CM's judgements read
// tolerantly, the checks' verdict per criterion, and both rates in the metrics and the retrospective markdown.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { renderSources } from '../../src/core/session/sources';
import { REVIEW_CHARS, REVIEW_TOTAL_CHARS } from '../../src/core/session/retroReview';
import type { ContextInputs } from '../../src/core/session/context';
import { acceptanceCriteria, beforeText, computeTsr, criterionStatus, existsInWorkspace, failFirstOf, failFirstStatus, failFirstSurprise, lastRuns, namedTests, testLabel, testStatus, type CheckOutcome, type NamedTest } from '../../src/core/metrics/tsr';
import { judgementsOf, unreadableJudgements } from '../../src/core/metrics/judgements';
import { isFileTest, type FileTest } from '../../src/core/model/types';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { isStaticCheck } from '../../src/core/checks/commands';
import { readTestCases } from '../../src/core/checks/testCases';
import { validateEnvelope } from '../../src/core/reply/envelope';

const POA = {
  user_stories: [
    {
      id: 'US-1',
      acceptance_criteria: [
        { id: 'AC-1', given: 'no saved choice', when: 'I open the app', then: 'the OS theme is used' },
        { id: 'ac_2', criterion: 'The toggle switches theme' },
      ],
    },
    { id: 'US-2', acceptance_criteria: [{ id: 'AC-3', given: 'a choice', when: 'I reload', then: 'it is kept' }] },
  ],
  priority: { must: ['AC-1', 'AC-2', 'AC-3', 'AC-9'] },
};

const DEVA = {
  criteria_tests: [
    { criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme' },
    { criterion: 'AC-2', file: './test/toggle.test.js', test: 'switches theme' },
    { criterion: 'AC-7', file: 'test/other.test.js', test: 'x' },
    { criterion: 'AC-3' },
  ],
};

describe('TSR: criteria, named tests, judgements', () => {
  it('finds POA\'s criteria by id in nested objects, normalising ids, and not from mere mentions', () => {
    const c = acceptanceCriteria(POA);
    assert.deepStrictEqual(c.map((x) => x.id), ['AC-1', 'AC-2', 'AC-3']);
    assert.strictEqual(c[0].text, 'Given no saved choice, When I open the app, Then the OS theme is used');
    assert.strictEqual(c[1].text, 'The toggle switches theme');
  });

  it('finds criteria in a markdown output (the CAPE paper\'s string output)', () => {
    const md = '## Acceptance criteria\n- **AC-1**: Given a note, when I save, then it is stored\n- AC-2 — the list shows it\n\nSee AC-1 above.';
    assert.deepStrictEqual(acceptanceCriteria(md), [
      { id: 'AC-1', text: 'Given a note, when I save, then it is stored' },
      { id: 'AC-2', text: 'the list shows it' },
    ]);
  });

  it('reads a markdown criterion line with a long run of spaces once, where the run stands (200 KB took 45 s)', () => {
    const run = ' '.repeat(200_000);
    const md = [`-${run}x`, `-${run}**AC-1**${run}: Given a note`, `AC-2${run}x\ry`, `#${run}AC-3 —${run}the list shows it${run}`].join('\n');
    assert.deepStrictEqual(acceptanceCriteria(md), [
      { id: 'AC-1', text: 'Given a note' },
      { id: 'AC-3', text: 'the list shows it' },
    ]);
  });

  it('reads DevA\'s criteria_tests: a file is required; every test named for a criterion counts, in order, each once', () => {
    const t = namedTests(DEVA);
    assert.deepStrictEqual([...t.keys()], ['AC-1', 'AC-2', 'AC-7']);
    assert.deepStrictEqual(t.get('AC-2'), [{ file: 'test/toggle.test.js', name: 'switches theme' }]);
    const several = namedTests({
      criteria_tests: [
        { criterion: 'AC-1', file: 'test/a.test.js', test: 'keeps a vendor type' },
        { criterion: 'AC-2', file: 'test/a.test.js', test: 'overrides text' },
        { criterion: 'ac_1', file: './test/a.test.js', test: 'keeps a charset' },
        { criterion: 'AC-1', file: 'test/a.test.js', test: 'keeps a vendor type' },
      ],
    });
    assert.deepStrictEqual(several.get('AC-1'), [
      { file: 'test/a.test.js', name: 'keeps a vendor type' },
      { file: 'test/a.test.js', name: 'keeps a charset' },
    ]);
    assert.strictEqual(namedTests('markdown output').size, 0);
    assert.strictEqual(namedTests({ criteria_tests: 'AC-1: test/x.js' }).size, 0);
  });

  it('reads CM\'s judgements tolerantly; a status it cannot read is kept as unknown, with the words CM wrote', () => {
    assert.deepStrictEqual(
      judgementsOf([
        { id: 'AC-1', status: 'met', reason: 'toggle and test present' },
        { id: 'ac 2', status: 'Not met', reason: 'no persistence' },
        { criterion: 'AC-3', status: 'UNKNOWN' },
        { id: 'AC-4', status: 'maybe' },
        { id: 'US-1', status: 'met' },
        'AC-5 met',
      ]),
      [
        { id: 'AC-1', status: 'met', reason: 'toggle and test present' },
        { id: 'AC-2', status: 'not_met', reason: 'no persistence' },
        { id: 'AC-3', status: 'unknown', reason: '' },
        { id: 'AC-4', status: 'unknown', reason: '', unreadable: 'maybe' },
      ],
    );
    assert.deepStrictEqual(judgementsOf({ 'AC-1': 'met' }), []);
  });

  it('reads Japanese, decorated and boolean-like judgements (the odd replies of a real retrospective)', () => {
    const read = (e: Record<string, unknown>) => judgementsOf([{ id: 'AC-1', ...e }])[0];
    for (const status of ['達成', 'met ✅', '✔️ met', 'met ✔️', '✅ Met', 'MET.', 'Met!', '**met**', 'true', 'yes', 'passed', '満たしている', true]) assert.strictEqual(read({ status }).status, 'met', String(status));
    for (const status of ['未達', '未達成', 'partially met', '⚠️ partially met', 'Partially-met', 'not met ❌', 'not-met', 'false', '一部達成', false]) assert.strictEqual(read({ status }).status, 'not_met', String(status));
    for (const status of ['不明', 'unknown ❓', 'N/A']) assert.strictEqual(read({ status }).status, 'unknown', status);
    assert.strictEqual(read({ met: 'true' }).status, 'met');
    assert.strictEqual(read({ met: 'false' }).status, 'not_met');
    assert.strictEqual(read({ met: true }).status, 'met');
    assert.strictEqual(read({ status: 'toString' }).unreadable, 'toString', 'a name of Object.prototype is no judgement');
    assert.deepStrictEqual(read({ reason: 'no status' }), { id: 'AC-1', status: 'unknown', reason: 'no status', unreadable: 'null' });
    const judged = judgementsOf([{ id: 'AC-1', status: 'met' }, { id: 'AC-2', status: 'half done' }, { id: 'AC-3', status: 7 }]);
    assert.strictEqual(unreadableJudgements(judged), 'The Cape Master\'s judgement of AC-2 ("half done"), AC-3 ("7") could not be read as met, not met or unknown: counted as unknown (not met) in the judged TSR.');
    assert.strictEqual(unreadableJudgements(judged.slice(0, 1)), null);
    assert.strictEqual(unreadableJudgements(undefined), null);
  });

  it('the retrospective envelope keeps CM\'s criteria and never fails on a bad one', () => {
    const retro = (criteria: unknown) => ({ agent: 'CM', phase: 'retrospective', task_id: 't', voice: 'v', conversation: [{ speaker: 'CM', text: 'hi' }], kpt: { keep: ['k'], problem: [], try: [] }, metrics: {}, criteria });
    const ok = validateEnvelope('cm_retro', retro([{ id: 'AC-1', status: 'met', reason: 'r' }]));
    assert.ok(ok.ok);
    assert.deepStrictEqual(ok.ok && ok.envelope.criteria, [{ id: 'AC-1', status: 'met', reason: 'r' }]);
    const bad = validateEnvelope('cm_retro', retro('everything met'));
    assert.ok(bad.ok, 'a malformed criteria list is not a reason to repair the retrospective');
    assert.strictEqual(bad.ok && bad.envelope.criteria, undefined);
  });
});

describe('TSR: from the checks', () => {
  const test = { file: 'test/theme.test.js', name: 'uses the OS theme' };
  const pass: CheckOutcome = { command: 'npm test', passed: true, output: '3 passing' };

  it('a named, existing test passes when every check passed', () => {
    assert.strictEqual(testStatus(test, true, [pass]), 'pass');
    assert.strictEqual(testStatus(test, false, [pass]), 'no_test', 'the named file does not exist');
    assert.strictEqual(testStatus(null, true, [pass]), 'no_test');
  });

  it('a linter\'s or type checker\'s pass alone proves no test: the test has no verdict until something ran it', () => {
    const lint: CheckOutcome = { command: 'npx standard', passed: true, output: '' };
    const tsc: CheckOutcome = { command: 'node node_modules/typescript/bin/tsc --noEmit', passed: true, output: '' };
    assert.strictEqual(testStatus(test, true, [lint]), 'no_test');
    assert.strictEqual(testStatus(test, true, [lint, tsc, { command: 'npm run typecheck', passed: true, output: '' }]), 'no_test');
    assert.strictEqual(testStatus(test, true, [lint, pass]), 'pass', 'npm test passed too');
    assert.strictEqual(testStatus(test, true, [{ ...lint, tests: [{ name: 'uses the OS theme', passed: true }] }]), 'pass', 'a run that names it passed');
    for (const c of ['npm run lint', 'pnpm run lint:fix', 'npx eslint .', 'npx prettier --check .', 'npx tsc -p .', 'yarn run typecheck', 'npx biome check']) assert.ok(isStaticCheck(c), c);
    for (const c of ['ruff check .', '.venv/bin/mypy .', 'go vet ./...', 'cargo clippy', 'cargo check --all', 'black --check .', 'bundle exec rubocop']) assert.ok(isStaticCheck(c), c);
    for (const c of ['npm test', 'node --test', 'npx vitest run', 'npm run test:types', 'npx jest --coverage', 'make check', 'python -m pytest', 'go test ./...', 'cargo test']) assert.ok(!isStaticCheck(c), c);
    // a command that lints and then runs the tests runs tests
    for (const c of ['npm run lint && npm test', 'make lint test', 'yarn lint && yarn test:unit', 'eslint . && node --test', 'npx tsc --noEmit && npx vitest run', 'ruff check . && .venv/bin/python -m pytest', './scripts/lint.sh; ./scripts/test.sh', 'go vet ./... && go test ./...']) {
      assert.ok(!isStaticCheck(c), c);
    }
    for (const c of ['npm run lint && npm run typecheck', 'npx eslint src/test-utils', 'npx eslint --ext .test.js .']) assert.ok(isStaticCheck(c), c);
    // a folder named test given to a linter or type checker runs no test
    for (const c of ['mypy src tests', 'ruff check src tests', 'npx eslint src test', 'flake8 app tests', 'black --check src tests', 'tsc -p test', 'cargo clippy --tests', 'npx eslint test/']) assert.ok(isStaticCheck(c), c);
    for (const c of ['npx eslint . && ./gradlew test', 'rubocop && bundle exec rspec', 'npm run lint; yarn jest', 'ruff check . && uv run pytest tests', 'npm run lint && CI=1 npm test', 'eslint . && ./run-tests.sh', 'mypy . && python3 -m unittest discover']) {
      assert.ok(!isStaticCheck(c), c);
    }
  });

  it('a failing check counts against a test it names, or against every test when it names no file', () => {
    const namesIt: CheckOutcome = { command: 'npm test', passed: false, output: '1 failing\n  1) theme\n     uses the OS theme:\n  AssertionError at test/theme.test.js:12:5' };
    const namesOther: CheckOutcome = { command: 'npm test', passed: false, output: '1 failing\n  AssertionError at test/toggle.test.js:8:3' };
    const tscOther: CheckOutcome = { command: 'tsc --noEmit', passed: false, output: "src/notes.ts(4,7): error TS2322: Type 'string' is not assignable" };
    const anonymous: CheckOutcome = { command: 'npm run lint', passed: false, output: 'Command failed with exit code 1.' };
    assert.strictEqual(testStatus(test, true, [namesIt]), 'fail');
    assert.strictEqual(testStatus(test, true, [{ ...namesIt, output: 'x.js:1 failing: uses the OS theme' }]), 'fail', 'named by its title');
    assert.strictEqual(testStatus(test, true, [namesOther, pass]), 'pass', 'blamed on another file');
    assert.strictEqual(testStatus(test, true, [tscOther]), 'no_test', 'a type checker failing elsewhere ran no test');
    assert.strictEqual(testStatus(test, true, [tscOther, pass]), 'pass');
    assert.strictEqual(testStatus(test, true, [anonymous]), 'fail', 'a failure that names nothing counts against every criterion');
  });

  it('an output of one long run of path characters is read once a test: it names no file, so it fails every test (6,000 characters took 67 ms a test)', () => {
    // what a run keeps of its output (6,000 characters), asked about once per criterion
    for (const output of ['a'.repeat(6_000), 'a.'.repeat(3_000), `${'test-'.repeat(1_200)}x1`]) {
      const run: CheckOutcome = { command: 'npm test', passed: false, output };
      for (let i = 0; i < 40; i++) assert.strictEqual(testStatus({ file: `test/t${i}.test.js`, name: `case ${i}` }, true, [run]), 'fail');
    }
    // a long run that does end in a file and a position names that file, and blames no other test
    const named: CheckOutcome = { command: 'tsc --noEmit', passed: false, output: `${'a/'.repeat(3_000)}notes.ts(4,7): error TS2322` };
    assert.strictEqual(testStatus({ file: 'test/t2.test.js', name: 'case 2' }, true, [named, pass]), 'pass');
  });

  it('a failure is blamed on a test whose file or name the output names whole, not inside a longer one', () => {
    const run = (output: string): CheckOutcome => ({ command: 'npm test', passed: false, output: `running 12 checks\n${output}\n11 passed, 1 failed` });
    const a = { file: 'test/a.test.js', name: 'adds two numbers' };
    // test/data.test.js ends in a.test.js, spec/data_spec.rb in a_spec.rb: neither names the other file
    assert.strictEqual(testStatus(a, true, [run('Assertion failed at test/data.test.js:12: expected 3, got 4')]), 'pass');
    assert.strictEqual(testStatus({ file: 'spec/a_spec.rb', name: 'adds two numbers' }, true, [run('# ./spec/data_spec.rb:12:in `block`')]), 'pass');
    assert.strictEqual(testStatus(a, true, [run('Assertion failed at test/a.test.jsx:12')]), 'pass');
    assert.strictEqual(testStatus(a, true, [run('Assertion failed at test/a.test.js.map:12')]), 'pass');
    for (const at of ['test/a.test.js:12', './test/A.TEST.JS:12', 'C:\\w\\test\\a.test.js:12', '(a.test.js:12:5)', '"a.test.js", line 12']) {
      assert.strictEqual(testStatus(a, true, [run(`Assertion failed at ${at}`)]), 'fail', at);
    }
    // the test's name: whole words only, and a name with RegExp syntax is a literal
    assert.strictEqual(testStatus(a, true, [run('x.js:1 readds two numbers failed')]), 'pass');
    assert.strictEqual(testStatus(a, true, [run('x.js:1 "Adds two numbers" failed')]), 'fail');
    const odd = { file: 'test/b.test.js', name: 'sums (a+b)*2 [x]' };
    assert.strictEqual(testStatus(odd, true, [run('x.js:1 sums (a+b)*2 [x] failed')]), 'fail');
    assert.strictEqual(testStatus(odd, true, [run('x.js:1 sums aab2 x failed')]), 'pass');
  });

  // what the runners print when one test file does not load (taken from mocha 12, pytest 9, RSpec 3.12, go 1.19)
  const STOPPED = {
    mocha: " Exception during run: Error: Cannot find module '../nothere'\nRequire stack:\n- /w/test/b.test.js\n    at Object.<anonymous> (/w/test/b.test.js:1:12)",
    pytest:
      '==================================== ERRORS ====================================\n______________________ ERROR collecting tests/test_sq.py _______________________\n' +
      "tests/test_sq.py:1: in <module>\n    from calc import sq\nE   ImportError: cannot import name 'sq' from 'calc' (/w/calc.py)\n" +
      '=========================== short test summary info ============================\nERROR tests/test_sq.py\n' +
      '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.31s',
    rspec:
      "An error occurred while loading ./spec/broken_spec.rb.\nFailure/Error: require_relative '../lib/nothere'\n\nLoadError:\n  cannot load such file -- /w/lib/nothere\n" +
      "# ./spec/broken_spec.rb:1:in `require_relative'\n\nFinished in 0.00027 seconds (files took 0.12622 seconds to load)\n0 examples, 0 failures, 1 error occurred outside of examples",
    go: '# example.com/calc/calc [example.com/calc/calc.test]\ncalc/sq_test.go:6:5: undefined: Sq\nFAIL\texample.com/calc/calc [build failed]\nok  \texample.com/calc/fmt\t0.004s\nFAIL',
  };

  it('a test runner that failed before any test ran (a test file that does not load) ran none: no pass for the others', () => {
    const cases: [string, CheckOutcome, FileTest][] = [
      ['mocha', { command: 'npx mocha', passed: false, output: STOPPED.mocha }, { file: 'test/a.test.js', name: 'adds two numbers' }],
      ['pytest', { command: 'python3 -m pytest', passed: false, output: STOPPED.pytest }, { file: 'tests/test_calc.py', name: 'test_add' }],
      ['rspec', { command: 'bundle exec rspec', passed: false, output: STOPPED.rspec }, { file: 'spec/calc_spec.rb', name: 'Calc adds' }],
      ['lint && test', { command: 'npm test', passed: false, output: "/w/src/a.js:3:7: 'x' is assigned a value but never used. [Error/no-unused-vars]\n\n1 problem" }, test],
    ];
    for (const [what, run, t] of cases) {
      assert.strictEqual(testStatus(t, true, [run]), 'fail', `${what}: on the proposal, a failure`);
      assert.strictEqual(testStatus(t, true, [run], 'no_test'), 'no_test', `${what}: fail-first cannot tell`);
      assert.strictEqual(failFirstStatus([{ ...t, expect: 'pass' }], () => true, [run]), 'no_test', what);
    }
    // the file that did not load is named: its own test failed, on the proposal and before it
    assert.strictEqual(testStatus({ file: 'tests/test_sq.py', name: 'test_sq' }, true, [{ command: 'python3 -m pytest', passed: false, output: STOPPED.pytest }], 'no_test'), 'fail');
    // a run that shows tests ran still blames the file it names
    const ran: CheckOutcome = { command: 'python3 -m pytest', passed: false, output: STOPPED.pytest.replace('1 error in', '3 passed, 1 error in') };
    assert.strictEqual(testStatus({ file: 'tests/test_calc.py', name: 'test_add' }, true, [ran]), 'pass');
  });

  it('go test: a package that did not build ran none of its tests, whichever of its files the compiler names', () => {
    const run: CheckOutcome = { command: 'go test ./...', passed: false, output: STOPPED.go };
    assert.strictEqual(testStatus({ file: 'calc/calc_test.go', name: 'TestAdd' }, true, [run]), 'fail', 'same package as sq_test.go');
    assert.strictEqual(failFirstStatus([{ file: 'calc/calc_test.go', name: 'TestAdd', expect: 'pass' }], () => true, [run]), 'no_test', 'it did not run there');
    assert.strictEqual(testStatus({ file: 'fmt/fmt_test.go', name: 'TestFormat' }, true, [run]), 'pass', 'another package built and passed');
    assert.strictEqual(failFirstStatus([{ file: 'calc/sq_test.go', name: 'TestSq', expect: 'fail' }], () => true, [run]), 'fail');
    const root: CheckOutcome = { command: 'go test ./...', passed: false, output: '# example.com/calc [example.com/calc.test]\n./sq_test.go:6:5: undefined: Sq\nFAIL\texample.com/calc [build failed]\nFAIL' };
    assert.strictEqual(testStatus({ file: 'calc_test.go', name: 'TestAdd' }, true, [root]), 'fail', 'a package at the module root');
  });

  it('a runner that names only its failing cases (pytest, go test) clears the tests it did not name, though their file is named', () => {
    const py = { file: 'tests/test_calc.py', name: 'test_add' };
    // plain pytest: the progress line names the test file, the summary only the failing cases
    const output = 'tests/test_calc.py .F.\nFAILED tests/test_calc.py::test_mul - assert 5 == 6\n1 failed, 2 passed';
    const run: CheckOutcome = { command: 'python -m pytest', passed: false, output, tests: [{ name: 'tests/test_calc.py::test_mul', passed: false }], onlyFailuresNamed: true };
    assert.strictEqual(testStatus(py, true, [run]), 'pass');
    assert.strictEqual(testStatus({ ...py, name: 'test_mul' }, true, [run]), 'fail');
    assert.strictEqual(testStatus(py, true, [{ ...run, onlyFailuresNamed: undefined }]), 'fail', 'a runner that lists passing cases too and did not name it: its file in a failing run counts against it');
  });

  it('a subtest is not blamed for its parent test, which fails whenever another of its subtests does (go test, a chi trial)', () => {
    // go test without -v names every failing test and subtest, and the parent of a failing subtest fails too
    const output = [
      '--- FAIL: TestPatterns (0.00s)',
      '    --- FAIL: TestPatterns/with_a_tab (0.00s)',
      '        mux_test.go:40: got 404, want 200',
      '    --- FAIL: TestPatterns/with_spaces (0.00s)',
      '        mux_test.go:40: got 404, want 200',
      'FAIL',
      'FAIL\texample.com/router\t0.01s',
      'FAIL',
    ].join('\n');
    const read = readTestCases(output)!;
    const run: CheckOutcome = { command: 'go test ./...', passed: false, output, tests: read.cases, onlyFailuresNamed: !read.listsPassed };
    const guard: NamedTest = { file: 'mux_test.go', name: 'TestPatterns/with_one_space' };
    // a regression guard in the same table: not named, so it passed
    assert.strictEqual(testStatus(guard, true, [run]), 'pass');
    assert.strictEqual(failFirstStatus([guard], () => true, [run]), 'pass');
    // the named failing subtests and the parent itself still fail; a name that only starts like one is another test
    assert.strictEqual(testStatus({ file: 'mux_test.go', name: 'TestPatterns/with_a_tab' }, true, [run]), 'fail');
    assert.strictEqual(testStatus({ file: 'mux_test.go', name: 'TestPatterns' }, true, [run]), 'fail');
    assert.strictEqual(testStatus({ file: 'mux_test.go', name: 'TestPatterns/with_a' }, true, [run]), 'pass');
    // the criterion's verdict comes from its tests of the change; its regression guards are checked beside them
    const change: NamedTest = { file: 'mux_test.go', name: 'TestPatterns/with_a_tab', expect: 'fail' };
    assert.deepStrictEqual(failFirstOf([{ ...guard, expect: 'pass' }, change], () => true, [run]), { before: 'fail', guardsRan: 'pass' });
    // said so: "failed" alone read as if the guard had failed too
    assert.strictEqual(beforeText({ before: 'fail', guardsRan: 'pass' }), 'failed (fail-first observed); its regression guards passed there, as DevA meant');
    assert.strictEqual(beforeText({ before: 'fail' }), 'failed (fail-first observed)');
    assert.deepStrictEqual(failFirstOf([{ ...guard, expect: 'pass' }], () => true, [run]), { before: 'pass', guard: true });
    assert.strictEqual(beforeText({ before: 'pass', guard: true }), 'passed (a regression guard, as DevA meant)');
    assert.strictEqual(beforeText({ before: 'pass' }), 'passed too (it does not show the change)');
    assert.deepStrictEqual(failFirstOf([{ file: 'mux_test.go', name: 'TestPatterns/with_spaces', expect: 'pass' }, change], () => true, [run]), {
      before: 'fail',
      surprise: 'DevA meant TestPatterns/with_spaces as a regression guard: it fails without the change',
    });
    // a parent that failed in its own body, with no failing subtest named, still counts against its subtests
    const own = '--- FAIL: TestPatterns (0.00s)\n    mux_test.go:12: setup failed\nFAIL\nFAIL\texample.com/router\t0.01s\nFAIL';
    const ownRead = readTestCases(own)!;
    assert.strictEqual(testStatus(guard, true, [{ command: 'go test ./...', passed: false, output: own, tests: ownRead.cases, onlyFailuresNamed: !ownRead.listsPassed }]), 'fail');
    // with -v the passing subtest is listed: it passed, whatever its parent did
    const verbose = ['=== RUN   TestPatterns', '=== RUN   TestPatterns/with_one_space', '=== RUN   TestPatterns/with_a_tab', '--- FAIL: TestPatterns (0.00s)', '    --- PASS: TestPatterns/with_one_space (0.00s)', '    --- FAIL: TestPatterns/with_a_tab (0.00s)', 'FAIL'].join('\n');
    const vRead = readTestCases(verbose)!;
    assert.strictEqual(testStatus(guard, true, [{ command: 'go test -v ./...', passed: false, output: verbose, tests: vRead.cases, onlyFailuresNamed: !vRead.listsPassed }]), 'pass');
  });

  it('a regression guard in a test file that does not build without the change: fail-first cannot tell (a Rust trial)', () => {
    // cargo test on the unchanged code with DevA's tests/test_version.rs: the new tests call methods that do not exist
    const output = [
      '   Compiling semver v1.0.27 (/tmp/x)',
      'error[E0599]: no method named `checked_next_patch` found for struct `Version` in the current scope',
      '  --> tests/test_version.rs:260:24',
      'error: could not compile `semver` (test "test_version") due to 3 previous errors',
    ].join('\n');
    const run: CheckOutcome = { command: 'cargo test', passed: false, output, unbuilt: true };
    const change: NamedTest = { file: 'tests/test_version.rs', name: 'test_checked_next_patch_increments_patch', expect: 'fail' };
    const guard: NamedTest = { file: 'tests/test_version.rs', name: 'test_parse', expect: 'pass' };
    // a test of the change that does not build without it: it needs the change, though no test ran (failFirstUnbuilt.test.ts)
    assert.strictEqual(testStatus(change, true, [run], 'no_test'), 'fail');
    assert.deepStrictEqual(failFirstOf([change], () => true, [run]), { before: 'unbuilt' });
    // a guard beside it is not said to fail without the change
    assert.deepStrictEqual(failFirstOf([guard, change], () => true, [run]), { before: 'unbuilt' });
    assert.deepStrictEqual(failFirstOf([guard], () => true, [run]), { before: 'no_test', guard: true });
    // on the proposal, a run that does not build is a failure for every test it names (unchanged)
    assert.strictEqual(testStatus(guard, true, [run]), 'fail');
    // and a guard that ran and failed there is still a surprise
    const ran: CheckOutcome = { command: 'cargo test', passed: false, output: 'test test_parse ... FAILED\n\ntest result: FAILED. 0 passed; 1 failed', tests: [{ name: 'test_parse', passed: false }] };
    assert.strictEqual(failFirstOf([guard, change], () => true, [ran])?.surprise, 'DevA meant test_parse as a regression guard: it fails without the change');
    const unnamed: FileTest = { file: 'tests/test_version.rs', expect: 'pass' };
    assert.strictEqual(failFirstOf([unnamed, change], () => true, [ran])?.surprise, 'DevA meant tests/test_version.rs as a regression guard: it fails without the change', 'a guard DevA gave no name goes by its file');
  });

  it('a test DevA names in a source file (a Rust unit test in src/lib.rs) is not judged by fail-first, which applies test files alone', () => {
    // on the unchanged code the source file is the old one: its new unit test is not there, and the run passes
    const before: CheckOutcome = { command: 'cargo test', passed: true, output: 'test tests::parses ... ok\n\ntest result: ok. 1 passed; 0 failed', tests: [{ name: 'tests::parses', passed: true }] };
    const unit: NamedTest = { file: 'src/lib.rs', name: 'tests::bumps_patch', expect: 'fail' };
    const integration: NamedTest = { file: 'tests/test_version.rs', name: 'test_bump', expect: 'fail' };
    assert.strictEqual(failFirstStatus([unit], () => true, [before]), null, 'not "passed too": it did not run there');
    assert.strictEqual(failFirstOf([unit], () => true, [before]), null);
    // beside a test in a test file, that one decides
    const failed: CheckOutcome = { command: 'cargo test', passed: false, output: 'test test_bump ... FAILED\n\ntest result: FAILED. 0 passed; 1 failed', tests: [{ name: 'test_bump', passed: false }] };
    assert.deepStrictEqual(failFirstOf([unit, integration], () => true, [failed]), { before: 'fail' });
    // and cargo's doc tests are test cases, named by their item: DevA's `Version::checked_next_patch` is one
    const doc = readTestCases('   Doc-tests semver\n\nrunning 2 tests\ntest src/lib.rs - Version::checked_next_patch (line 480) ... ok\ntest src/lib.rs - Version::checked_next_minor (line 501) ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed')!;
    assert.deepStrictEqual(doc.cases, [
      { name: 'src/lib.rs - Version::checked_next_patch (line 480)', passed: true },
      { name: 'src/lib.rs - Version::checked_next_minor (line 501)', passed: false },
    ]);
    const run: CheckOutcome = { command: 'cargo test', passed: false, output: '', tests: doc.cases };
    assert.strictEqual(testStatus({ file: 'src/lib.rs', name: 'Version::checked_next_patch' }, true, [run]), 'pass');
    assert.strictEqual(testStatus({ file: 'src/lib.rs', name: 'Version::checked_next_minor' }, true, [run]), 'fail');
  });

  it('a test in a file jest or vitest reports passed as a whole passes, though the run failed elsewhere and names the file', () => {
    const mine = { file: 'tests/excess.test.js', name: 'lists the extra arguments' };
    // jest over several files: the passing file is one line, the failing one's cases are its ● headers
    const jest = ['PASS tests/excess.test.js', 'FAIL tests/colour.test.js (5.2 s)', '  ● colour › when FORCE_COLOR then returns true', 'Tests:       1 failed, 30 passed, 31 total'].join('\n');
    const jestRun: CheckOutcome = { command: 'npm test', passed: false, output: jest, tests: readTestCases(jest)!.cases, onlyFailuresNamed: true };
    assert.strictEqual(testStatus(mine, true, [{ ...jestRun, onlyFailuresNamed: undefined }]), 'pass');
    // vitest: `✓ file (N tests)` for a passing file; its failing file's cases by name, durations aside
    const vitest = [' ✓ tests/excess.test.js (2 tests) 3ms', ' ❯ tests/colour.test.js (2 tests | 1 failed) 10ms', '   ✓ colour > adds 1ms', '   × colour > multiplies 8ms', ' FAIL  tests/colour.test.js > colour > multiplies', '      Tests  1 failed | 3 passed (4)'].join('\n');
    const cases = readTestCases(vitest)!;
    assert.deepStrictEqual(cases.cases.filter((c) => c.name.startsWith('colour')), [{ name: 'colour > adds', passed: true }, { name: 'colour > multiplies', passed: false }], 'durations aside, each case once');
    const vitestRun: CheckOutcome = { command: 'npx vitest run', passed: false, output: vitest, tests: cases.cases };
    assert.strictEqual(testStatus(mine, true, [vitestRun]), 'pass');
    // a test in the failing file still fails
    assert.strictEqual(testStatus({ file: 'tests/colour.test.js', name: 'multiplies' }, true, [vitestRun]), 'fail');
    // vitest 2 (an h3 trial, pre-existing failures): a file's line has two spaces and its skips, a type test file is
    // `TS`, and a failing file names only its failing cases — so every failure is named, and the other tests passed
    const v2 = [
      ' ✓ test/unit/cors.test.ts  (37 tests | 1 skipped) 66ms',
      ' ❯ test/utils.test.ts  (58 tests | 2 failed) 378ms',
      '   × utils > node > fingerprint (node)',
      '     → expected 1 to be 2',
      ' ✓  TS  test/unit/types.test-d.ts  (11 tests)',
      ' FAIL  test/utils.test.ts > utils > node > fingerprint (node)',
      '      Tests  1 failed | 150 passed (151)',
    ].join('\n');
    const v2Cases = readTestCases(v2)!;
    assert.deepStrictEqual(v2Cases, { cases: [{ name: 'utils > node > fingerprint (node)', passed: false }], listsPassed: false }, 'a file\'s line is no case');
    const v2Run: CheckOutcome = { command: 'pnpm run test', passed: false, output: v2, tests: v2Cases.cases, onlyFailuresNamed: true };
    assert.strictEqual(testStatus({ file: 'test/unit/cors.test.ts', name: 'sends max-age on a preflight' }, true, [v2Run]), 'pass');
    assert.strictEqual(testStatus({ file: 'test/utils.test.ts', name: 'reads the ip' }, true, [v2Run]), 'pass', 'not among the failures vitest names');
    assert.strictEqual(testStatus({ file: 'test/utils.test.ts', name: 'fingerprint (node)' }, true, [v2Run]), 'fail');
    // vitest 4 (a tinyhttp trial): the spec lines name only the case, indented under its file; the file line names its
    // suites — each failing case is counted once, not once more by its FAIL line ("16 failing" for 8)
    const v4 = [
      ' ❯ tests/core/onError.test.ts (3 tests | 2 failed) 218ms',
      '     × declares a plain-text body 85ms',
      '     ✓ keeps the status code 12ms',
      '     × hides the message in production 19ms',
      ' FAIL  tests/core/onError.test.ts > Default error handler (GHSA-1) > declares a plain-text body',
      ' FAIL  tests/core/onError.test.ts > Default error handler (GHSA-1) > hides the message in production',
      '      Tests  2 failed | 1 passed (3)',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(v4)!.cases, [
      { name: 'declares a plain-text body', passed: false },
      { name: 'keeps the status code', passed: true },
      { name: 'hides the message in production', passed: false },
    ]);
  });

  it('a named test is a whole reported name, not the start of a longer one (test_max_age is not test_max_age_timedelta)', () => {
    const pytest: CheckOutcome = {
      command: 'python3 -m pytest -q tests',
      passed: false,
      output: 'FAILED tests/t.py::TestA::test_max_age_timedelta - TypeError\n1 failed, 9 passed',
      tests: [{ name: 'tests/t.py::TestA::test_max_age_timedelta', passed: false }],
      onlyFailuresNamed: true,
    };
    assert.strictEqual(testStatus({ file: 'tests/t.py', name: 'test_max_age' }, true, [pytest]), 'pass', 'a guard whose name starts the failing one still passed');
    assert.strictEqual(testStatus({ file: 'tests/t.py', name: 'test_max_age_timedelta' }, true, [pytest]), 'fail');
    assert.strictEqual(testStatus({ file: 'tests/t.py', name: 'TestA::test_max_age_timedelta' }, true, [pytest]), 'fail', 'a suite prefix DevA wrote too');
    const surefire: CheckOutcome = {
      command: 'mvn test',
      passed: false,
      output: 'Tests run: 3, Failures: 1\ncalc.CalcTest.testDivByZero',
      tests: [
        { name: 'calc.CalcTest.testDiv', passed: true },
        { name: 'calc.CalcTest.testDivByZero', passed: false },
      ],
    };
    assert.strictEqual(testStatus({ file: 'src/test/java/calc/CalcTest.java', name: 'testDiv' }, true, [surefire]), 'pass');
    assert.strictEqual(testStatus({ file: 'src/test/java/calc/CalcTest.java', name: 'CalcTest' }, true, [surefire]), 'fail', 'a class names all its cases');
  });

  it('computes TSR = passing named tests ÷ criteria when checks ran, and the judged rate beside it', () => {
    const exists = (rel: string) => rel !== 'test/other.test.js';
    const r = computeTsr({
      poaOutput: POA,
      devaOutput: DEVA,
      judgements: [
        { id: 'AC-1', status: 'met', reason: 'a' },
        { id: 'AC-3', status: 'unknown', reason: 'b' },
      ],
      checks: [{ command: 'npm test', passed: false, output: '2 passing\n1 failing\n  AssertionError at test/toggle.test.js:8:3' }],
      fileExists: exists,
    });
    assert.deepStrictEqual(r.criteria.map((c) => [c.id, c.computed, c.judged]), [
      ['AC-1', 'pass', 'met'],
      ['AC-2', 'fail', undefined],
      ['AC-3', 'no_test', 'unknown'],
    ]);
    assert.strictEqual(r.tsr, 1 / 3);
    assert.strictEqual(r.tsrJudged, 1 / 3, 'a criterion CM did not judge counts as not met');

    const noChecks = computeTsr({ poaOutput: POA, devaOutput: DEVA, checks: null, fileExists: exists });
    assert.strictEqual(noChecks.tsr, null, 'no check ran: no computed TSR');
    assert.strictEqual(noChecks.tsrJudged, null, 'CM judged none');
    assert.ok(noChecks.criteria.every((c) => c.computed === undefined));
    assert.deepStrictEqual(computeTsr({ poaOutput: {}, devaOutput: DEVA, checks: [], fileExists: exists }), { tsr: null, tsrJudged: null, criteria: [] });
  });

  it('a criterion with several tests is fulfilled only when every one passes: the worst of them counts', () => {
    const a = { file: 'test/a.test.js', name: 'keeps a vendor type' };
    const b = { file: 'test/a.test.js', name: 'keeps a charset' };
    const c = { file: 'test/gone.test.js', name: 'is nowhere' };
    const run = (passedB: boolean): CheckOutcome => ({
      command: 'node --test',
      passed: passedB,
      output: '',
      tests: [
        { name: 'type › keeps a vendor type', passed: true },
        { name: 'type › keeps a charset', passed: passedB },
      ],
    });
    const exists = (rel: string) => rel !== c.file;
    assert.strictEqual(criterionStatus([a, b], exists, [run(true)]), 'pass');
    assert.strictEqual(criterionStatus([a, b], exists, [run(false)]), 'fail', 'the second test failed');
    assert.strictEqual(criterionStatus([a, c], exists, [run(true)]), 'no_test', 'a named test whose file does not exist');
    assert.strictEqual(criterionStatus([c, b], exists, [run(false)]), 'fail', 'failed before no test');
    assert.strictEqual(criterionStatus([], exists, [run(true)]), 'no_test');
    const r = computeTsr({
      poaOutput: POA,
      devaOutput: { criteria_tests: [{ criterion: 'AC-1', file: a.file, test: a.name }, { criterion: 'AC-1', file: b.file, test: b.name }] },
      checks: [run(false)],
      fileExists: exists,
    });
    assert.deepStrictEqual(r.criteria[0].tests, [a, b]);
    assert.strictEqual(r.criteria[0].computed, 'fail');
    // the retrospective hears every one of them
    const retro = renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-1', file: a.file, test: a.name }, { criterion: 'AC-1', file: b.file, test: b.name }] } } } } as unknown as ContextInputs);
    assert.match(retro, /- AC-1: .* — DevA's tests: test\/a\.test\.js › keeps a vendor type; test\/a\.test\.js › keeps a charset\n- AC-2: .* — DevA's test: \(none named\)/);
  });

  it('a criterion the checks prove as a whole names the check command: it passed when that command passed', () => {
    const suite = (passed: boolean): CheckOutcome => ({ command: 'node --test', passed, output: passed ? '' : '1 failing: test/other.test.js:3' });
    const named = namedTests({
      criteria_tests: [
        { criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme' },
        { criterion: 'AC-3', check: '  `node  --test` ' },
        { criterion: 'AC-3', check: 'node --test' },
        { criterion: 'AC-2', check: '' },
        { criterion: 'AC-1', check: `npm test ${'x'.repeat(600)}` },
      ],
    });
    assert.strictEqual(named.get('AC-1')!.length, 1, 'a 600-character "command" is left out');
    assert.deepStrictEqual(named.get('AC-3'), [{ check: 'node --test' }], 'backticks and spacing aside, once: the command alone');
    assert.ok(!named.has('AC-2'), 'an empty check names nothing');
    const check = named.get('AC-3')!;
    const none = () => false; // no file is looked up for a check
    assert.strictEqual(criterionStatus(check, none, [suite(true)]), 'pass');
    assert.strictEqual(criterionStatus(check, none, [suite(false)]), 'fail', 'even when the failure names another file');
    assert.strictEqual(criterionStatus(check, none, [{ command: 'npm run lint', passed: true, output: '' }]), 'no_test', 'the command did not run');
    const r = computeTsr({
      poaOutput: POA,
      devaOutput: { criteria_tests: [{ criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme' }, { criterion: 'AC-2', file: 'test/toggle.test.js', test: 'switches theme' }, { criterion: 'AC-3', check: 'node --test' }] },
      checks: [suite(true)],
      fileExists: () => true,
    });
    assert.strictEqual(r.tsr, 1);
    const retro = renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-3', check: 'node --test' }] } } } } as unknown as ContextInputs);
    assert.match(retro, /- AC-3: .* — DevA's test: node --test \(the whole check\)/);
    // with the checks' results, each criterion says how its tests fared, as the computed TSR counts them
    const checks = { commands: ['node --test'], runs: [{ ...suite(false), round: 0, status: 'failed' as const, exitCode: 1, durationMs: 1, outputChars: 0 }], fixRounds: [], maxFixRounds: 0, passed: false };
    const judged = renderSources('cm_retro', ['retro:criteria'], {
      envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme' }, { criterion: 'AC-3', check: 'node --test' }] } } },
      checks,
      fileExists: (rel: string) => rel === 'test/theme.test.js',
    } as unknown as ContextInputs);
    assert.match(judged, /with the tests DevA named for each and how they fared/);
    assert.match(judged, /- AC-1: .* — DevA's test: test\/theme\.test\.js › uses the OS theme — in the checks' last run: passed\n/, 'the failure names another file');
    assert.match(judged, /- AC-2: .* — DevA's test: \(none named\) — in the checks' last run: no test\n/);
    assert.match(judged, /- AC-3: .* — DevA's test: node --test \(the whole check\) — in the checks' last run: failed$/);
    const md = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr: r }));
    assert.match(md, /\| AC-3 .* \| node --test \(the whole check\) \| passed \|/);
  });

  it('a criterion proved by a whole check passes when its command failed only as on the unchanged workspace', () => {
    // an h3 trial: `pnpm run test` failed on three environment-bound tests before any change, and as much after it
    const out = (extra: string[]) =>
      [' FAIL  test/utils.test.ts > utils > node > getRequestFingerprint > returns the same hash', ' FAIL  test/bench/bundle.test.ts > benchmark > bundle size', ...extra, ' Test Files  2 failed | 25 passed (27)'].join('\n');
    const run = (output: string, round = 0) => ({ command: 'pnpm run test', passed: false, output, round, status: 'failed' as const, exitCode: 1, durationMs: 1, outputChars: output.length });
    const base = run(out([]));
    const outcome = (last: ReturnType<typeof run>) => ({ commands: ['pnpm run test'], runs: [last], baseline: [base], fixRounds: [], maxFixRounds: 2, passed: false });
    const check = [{ check: 'pnpm run test' }];
    const asBefore = lastRuns(outcome(run(out([]))))!;
    assert.strictEqual(asBefore[0].failedAsBefore, true);
    assert.strictEqual(criterionStatus(check, () => false, asBefore), 'pass');
    // a test failing anew, or no run on the unchanged workspace to compare with: failed
    const worse = lastRuns(outcome(run(out([' FAIL  test/cors.test.ts > cors > sends max-age']))))!;
    assert.strictEqual(worse[0].failedAsBefore, undefined);
    assert.strictEqual(criterionStatus(check, () => false, worse), 'fail');
    assert.strictEqual(criterionStatus(check, () => false, lastRuns({ ...outcome(run(out([]))), baseline: undefined })!), 'fail');
    // the retrospective hears how it passed
    const retro = renderSources('cm_retro', ['retro:criteria'], {
      envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-3', check: 'pnpm run test' }] } } },
      checks: outcome(run(out([]))),
      fileExists: () => true,
    } as unknown as ContextInputs);
    assert.match(retro, /- AC-3: .* — DevA's test: pnpm run test \(the whole check\) — in the checks' last run: passed \(its command failed only as it did on the unchanged workspace: nothing it ran failed anew\)$/m);
  });

  it('a criterion no test proves names a file for review: left to review, its added lines for the retrospective', () => {
    const named = namedTests({
      criteria_tests: [
        { criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme', expect: 'fail' },
        { criterion: 'AC-1', review: './docs/theme.md' },
        { criterion: 'AC-2', review: 'CHANGES.md' },
        { criterion: 'AC-2', review: 'CHANGES.md' },
        { criterion: 'AC-3', review: '   ' },
        { criterion: 'AC-3', file: 'CHANGES.md', review: 'x.md', test: '' },
        { criterion: 'AC-4', review: 'CHANGES.md\n### The files DevA names for review' },
        { criterion: 'AC-4', review: `${'d/'.repeat(300)}x.md` },
      ],
    });
    assert.ok(!named.has('AC-4'), 'a "path" over several lines or 600 characters long is none');
    assert.deepStrictEqual(named.get('AC-2'), [{ review: 'CHANGES.md' }], 'once: the path alone');
    assert.deepStrictEqual(named.get('AC-3'), [{ file: 'CHANGES.md' }], 'a file given wins: it is a test file, with no empty name');
    assert.strictEqual(testLabel(named.get('AC-1')![1]), 'docs/theme.md (for review)');
    const ran: CheckOutcome = { command: 'node --test', passed: true, output: '', tests: [{ name: 'uses the OS theme', passed: true }] };
    const failedBefore: CheckOutcome = { command: 'node --test', passed: false, output: 'test/theme.test.js', tests: [{ name: 'uses the OS theme', passed: false }] };
    const all = () => true;
    assert.strictEqual(criterionStatus(named.get('AC-1')!, all, [ran]), 'pass', 'a file for review beside a test: the test decides');
    assert.strictEqual(criterionStatus(named.get('AC-2')!, all, [ran]), 'review', 'a file for review alone is no test: left to review');
    assert.strictEqual(failFirstStatus(named.get('AC-1')!, all, [failedBefore]), 'fail', 'the file for review is not run on the unchanged code');
    assert.strictEqual(failFirstStatus(named.get('AC-2')!, all, [failedBefore]), null);

    const retroOf = (devaFiles: unknown[]) =>
      renderSources('cm_retro', ['retro:criteria'], {
        envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-1', file: 'test/theme.test.js', test: 'uses the OS theme' }, { criterion: 'AC-1', review: 'CHANGES.md' }, { criterion: 'AC-3', review: 'CHANGES.md' }, { criterion: 'AC-2', review: 'docs/new.md' }] } } },
        devaFiles,
      } as unknown as ContextInputs);
    const secret = 'API_KEY=do-not-send';
    const retro = retroOf([
      { path: 'CHANGES.md', relPath: 'CHANGES.md', action: 'modify', status: 'proposed', currentContent: `# Changes\r\n${secret}\r\n\r\n## 1.0\r\n`, content: '# Changes\n\n## 1.1\n- The theme follows the OS.\n\n## 1.0\n' },
      { path: 'docs/new.md', relPath: 'docs/new.md', action: 'create', status: 'proposed', content: '# Themes\nUse the toggle.\n' },
    ]);
    assert.match(retro, /- AC-1: .* — DevA's tests: test\/theme\.test\.js › uses the OS theme; CHANGES\.md \(for review\)/);
    assert.match(retro, /### The files DevA names for review, as its proposal changes them\nCHANGES\.md \(for AC-1, AC-3\), where DevA changes it and the lines it adds:\n```diff\n@@ line 2, 1 line\(s\) removed\n@@ line 4\n\+## 1\.1\n\+- The theme follows the OS\.\n\+\n```/);
    assert.match(retro, /docs\/new\.md \(for AC-2\), a new file:\n```diff\n@@ line 1\n\+# Themes\n\+Use the toggle\.\n```/);
    assert.ok(!retro.includes(secret), 'the current file\'s lines are never sent: a whole <file> may replace one the model could not read');
    assert.strictEqual(retro.match(/CHANGES\.md \(for AC/g)!.length, 1, 'each file once');
    // a file not proposed, refused, or whose base is not at hand says so
    const missing = retroOf([{ path: 'CHANGES.md', relPath: 'CHANGES.md', action: 'modify', status: 'refused', reason: 'outside the workspace', content: '' }]);
    assert.match(missing, /CHANGES\.md \(for AC-1, AC-3\): refused \(outside the workspace\) — nothing changes there\./);
    assert.match(missing, /docs\/new\.md \(for AC-2\): not among DevA's files — nothing changes there\./);
    const noBase = retroOf([{ path: 'CHANGES.md', relPath: 'CHANGES.md', action: 'modify', status: 'proposed', content: 'x\n' }]);
    assert.match(noBase, /CHANGES\.md \(for AC-1, AC-3\): modified; its changed lines are not at hand\./);
    // each file's lines within REVIEW_CHARS, all of them within REVIEW_TOTAL_CHARS
    const big = (p: string) => ({ path: p, relPath: p, action: 'create', status: 'proposed', content: `${'x'.repeat(49)}\n`.repeat(100) });
    const three = renderSources('cm_retro', ['retro:criteria'], {
      envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: ['a.md', 'b.md', 'c.md'].map((f) => ({ criterion: 'AC-1', review: f })) } } },
      devaFiles: [big('a.md'), big('b.md'), big('c.md')],
    } as unknown as ContextInputs);
    const shown = (f: string) => new RegExp(`${f.replace('.', '\\.')} \\(for AC-1\\), a new file:\\n\`\`\`diff\\n([^\`]*)\`\`\``).exec(three)![1];
    assert.ok(shown('a.md').length <= REVIEW_CHARS + 40 && shown('a.md').length > REVIEW_CHARS - 100, String(shown('a.md').length));
    assert.ok(shown('a.md').length + shown('b.md').length + shown('c.md').length <= REVIEW_TOTAL_CHARS + 400);
    assert.match(shown('c.md'), /… \d+ more added line\(s\)\n$/);
    // a file alone gets the whole room
    const one = renderSources('cm_retro', ['retro:criteria'], {
      envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [{ criterion: 'AC-1', review: 'a.md' }] } } },
      devaFiles: [big('a.md')],
    } as unknown as ContextInputs);
    const alone = /a\.md \(for AC-1\), a new file:\n```diff\n([^`]*)```/.exec(one)![1];
    assert.ok(alone.length > REVIEW_CHARS + 1000 && alone.length <= REVIEW_TOTAL_CHARS + 40, String(alone.length));
    // without files for review, no such section
    assert.ok(!renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: POA }, deva: { output: DEVA } } } as unknown as ContextInputs).includes('for review'));
  });

  it("the retrospective's request gives a long criterion whole, its Then's expected output included", () => {
    // a Python trial's POA wrote criteria of 500–860 characters; at 400 the expected output was cut
    const then = `the HTML is ${'<abbr title="Hyper Text Markup Language">html</abbr>, '.repeat(15)}and the text keeps its spelling`;
    const poa = { user_stories: [{ id: 'US-1', acceptance_criteria: [{ id: 'AC-1', given: 'a document defining HTML', when: 'it is converted with the option False', then }] }] };
    const retro = renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: poa }, deva: { output: { criteria_tests: [] } } } } as unknown as ContextInputs);
    assert.ok(then.length > 800, String(then.length));
    assert.ok(retro.includes(then), retro);
    assert.ok(!retro.includes('[…]'));
  });

  it('fail-first: a criterion failed before when every test it names in a file failed on the unchanged code', () => {
    const theme = { file: 'test/theme.test.js', name: 'uses the OS theme' };
    const toggle = { file: 'test/toggle.test.js', name: 'switches theme' };
    const before: CheckOutcome = {
      command: 'node --test',
      passed: false,
      output: '',
      tests: [
        { name: 'uses the OS theme', passed: false },
        { name: 'switches theme', passed: true },
      ],
    };
    const yes = () => true;
    assert.strictEqual(failFirstStatus([theme], yes, [before]), 'fail', 'fail-first observed');
    assert.strictEqual(failFirstStatus([toggle], yes, [before]), 'pass', 'it passes without the change too');
    assert.strictEqual(failFirstStatus([theme, toggle], yes, [before]), 'pass', 'one test that does not show the change is named');
    assert.strictEqual(failFirstStatus([theme, { file: 'test/gone.test.js', name: 'gone' }], (rel) => rel !== 'test/gone.test.js', [before]), 'no_test');
    assert.strictEqual(failFirstStatus([{ check: 'node --test' }], yes, [before]), null, 'a whole check has no fail-first verdict');
    assert.strictEqual(failFirstStatus([], yes, [before]), null);
    assert.strictEqual(failFirstStatus([theme], yes, []), null, 'nothing ran');
    const r = computeTsr({
      poaOutput: POA,
      devaOutput: { criteria_tests: [{ criterion: 'AC-1', ...{ file: theme.file, test: theme.name } }, { criterion: 'AC-2', file: toggle.file, test: toggle.name }] },
      checks: [{ command: 'node --test', passed: true, output: '' }],
      before: [before],
      fileExists: yes,
    });
    assert.deepStrictEqual(
      r.criteria.map((c) => [c.id, c.computed, c.before]),
      [
        ['AC-1', 'pass', 'fail'],
        ['AC-2', 'pass', 'pass'],
        ['AC-3', 'no_test', undefined],
      ],
    );
    assert.strictEqual(r.tsr, 2 / 3, 'fail-first is no part of TSR');
    // DevA's expectation, when it gave one, is compared with what happened on the unchanged code
    const expected = namedTests({
      criteria_tests: [
        { criterion: 'AC-1', file: theme.file, test: theme.name, expect: 'Fail-first' },
        { criterion: 'AC-2', file: toggle.file, test: toggle.name, expect: 'fail' },
        { criterion: 'AC-3', file: toggle.file, test: 'kept', expect: 'regression guard' },
        { criterion: 'AC-4', file: toggle.file, test: 'odd', expect: 'maybe' },
        { criterion: 'AC-5', check: 'node --test', expect: 'fail' },
      ],
    });
    assert.deepStrictEqual([...expected.values()].map(([t]) => (isFileTest(t) ? t.expect : 'a check')), ['fail', 'fail', 'pass', undefined, 'a check']);
    assert.strictEqual(testLabel(expected.get('AC-1')![0]), 'test/theme.test.js › uses the OS theme (fail-first)');
    assert.strictEqual(testLabel(expected.get('AC-3')![0]), 'test/toggle.test.js › kept (regression guard)');
    assert.strictEqual(failFirstSurprise(expected.get('AC-1')!, 'fail'), null, 'as expected');
    assert.strictEqual(failFirstSurprise(expected.get('AC-2')!, 'pass'), 'DevA meant it to fail there: it may not test the change');
    assert.strictEqual(failFirstSurprise(expected.get('AC-3')!, 'fail'), 'DevA meant it as a regression guard: it fails without the change');
    assert.strictEqual(failFirstSurprise(expected.get('AC-4')!, 'pass'), null, 'nothing expected');
    const withExpect = computeTsr({
      poaOutput: POA,
      devaOutput: { criteria_tests: [{ criterion: 'AC-2', file: toggle.file, test: toggle.name, expect: 'fail' }] },
      checks: [{ command: 'node --test', passed: true, output: '' }],
      before: [before],
      fileExists: yes,
    });
    assert.deepStrictEqual(withExpect.criteria[1], {
      id: 'AC-2',
      text: 'The toggle switches theme',
      tests: [{ file: toggle.file, name: toggle.name, expect: 'fail' }],
      computed: 'pass',
      before: 'pass',
      surprise: 'DevA meant it to fail there: it may not test the change',
    });
    const mdSurprise = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr: withExpect }));
    assert.match(mdSurprise, /\| AC-2 .* \| test\/toggle\.test\.js › switches theme \(fail-first\) \| passed \| passed too \(it does not show the change\) — DevA meant it to fail there: it may not test the change \| — \|/);
    const md = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr: r }));
    assert.match(md, /\| Criterion \| Test \| Checks \| Before the change \| Judged \| Reason \|\n\|---\|---\|---\|---\|---\|---\|/);
    assert.match(md, /\| AC-2 .* \| passed \| passed too \(it does not show the change\) \| — \|/);
    assert.match(md, /\| AC-3 .* \| no test \| — \| — \|/);
  });

  it('looks for a named test file only inside the workspace', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tsr-'));
    fs.mkdirSync(path.join(ws, 'test'));
    fs.writeFileSync(path.join(ws, 'test', 'a.test.js'), '');
    assert.ok(existsInWorkspace(ws, 'test/a.test.js'));
    assert.ok(existsInWorkspace(ws, './test/a.test.js'));
    assert.ok(!existsInWorkspace(ws, 'test/../test/a.test.js'), 'the one path rule refuses any ..');
    assert.ok(!existsInWorkspace(ws, 'test'), 'a folder is not a test file');
    assert.ok(!existsInWorkspace(ws, `../${path.basename(ws)}/test/a.test.js`));
    assert.ok(!existsInWorkspace(ws, path.join(ws, 'test/a.test.js')));
  });

  it('appears in the metrics and the retrospective markdown, with a row per criterion', () => {
    const tsr = computeTsr({ poaOutput: POA, devaOutput: DEVA, judgements: [{ id: 'AC-2', status: 'not_met', reason: 'no | pipe\nsafe' }], checks: [{ command: 'npm test', passed: true, output: '' }], fileExists: () => true });
    const m = computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr });
    assert.strictEqual(m.tsr, 2 / 3);
    assert.strictEqual(m.tsrJudged, 0);
    const md = formatMetricsMarkdown(m);
    assert.match(md, /\| TSR \| 67% \(2 of 3\) \|/);
    assert.match(md, /\| TSR \(judged\) \| 0% \(0 of 3\) \|/);
    assert.match(md, /\| AC-2 The toggle switches theme \| test\/toggle\.test\.js › switches theme \| passed \| not met \| no \\\| pipe safe \|/);
    assert.match(md, /\| AC-3 .* \| — \| no test \| — \| — \|/);
    const none = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {} }));
    assert.match(none, /\| TSR \| — \|/);
    assert.doesNotMatch(none, /\| Criterion \|/);
  });
});

describe('fail-first: one test program whose run names no test case (a C project\'s make test)', () => {
  // tests.c is one program: on the unchanged code its tests of the change fail, and the program's exit code is all
  // the run says; its regression guards' own results are not known (a parson trial read each as "fails without the change")
  const output = (extra = '') =>
    `gcc -O0 -o test tests.c parson.c\n./test\nRunning parson tests\n${extra}Testing failing allocations: OK (tested 536 failing allocations)\nTests failed: 3\nTests passed: 352\nmake: *** [Makefile:11: test] Error 1`;
  const run = (extra = ''): CheckOutcome => ({ command: 'make test', passed: false, output: output(extra) });
  const exists = () => true;
  const change: NamedTest = { file: 'tests.c', name: 'test_dotget_array_index', expect: 'fail' };
  const guard: NamedTest = { file: 'tests.c', name: 'test_dotget_paths_as_today', expect: 'pass' };

  it('a criterion of guards alone: could not be told, no surprise; a test of the change: observed failing', () => {
    assert.deepStrictEqual(failFirstOf([guard], exists, [run()]), { before: 'no_test', guard: true });
    assert.deepStrictEqual(failFirstOf([change], exists, [run()]), { before: 'fail' });
    assert.deepStrictEqual(failFirstOf([change, guard], exists, [run()]), { before: 'fail' }, 'the guard beside it is not said to fail');
  });

  it('a guard the output names as failing still fails there, and is named', () => {
    const named = run('test_dotget_paths_as_today: FAILED\n');
    assert.deepStrictEqual(failFirstOf([guard], exists, [named]), { before: 'fail', surprise: 'DevA meant it as a regression guard: it fails without the change', guard: true });
    assert.match(failFirstOf([change, guard], exists, [named])!.surprise ?? '', /DevA meant test_dotget_paths_as_today as a regression guard: it fails without the change/);
  });

  it('on the proposal a failing run that names nothing still counts against every test', () => {
    assert.strictEqual(criterionStatus([guard], exists, [run()]), 'fail');
  });
});

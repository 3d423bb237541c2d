// A failed test case's own message line (failureMessages.ts FailureRecord.said → TestCaseResult.message): read from
// where each runner writes it, cut, and named beside the case in a fix request — the trimmed output below it keeps the
// lines naming files and the output's end, and a Python failure's exception line, the last of its block, was never
// among them (a Python-Markdown trial's fix request showed the frames of DevA's new failures without their errors).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixRequest, readTestCases, runCheck } from '../../src/core';

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-failure-lines-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('checks: each failed case with its own message line', () => {
  it('unittest on a suite that already fails: the fix request names the new failure with its exception, which the trimmed output left out', async () => {
    // forty old failures with deep tracebacks fill the 6,000 characters; the new one's block is the output's first
    const helper = 'def deep(n, want, got):\n    if n:\n        return deep(n - 1, want, got)\n    assert want == got, f"{want!r} != {got!r}"\n';
    const old = Array.from({ length: 40 }, (_, i) => `    def test_old_${String(i).padStart(2, '0')}(self):\n        deep(6, ${i}, -1)\n`).join('');
    const fresh = "    def test_aa_spoiler(self):\n        self.assertEqual('<details>', '<div class=\"spoiler\">')\n";
    const ws = workspace({ 'tests/__init__.py': '', 'tests/test_md.py': `import unittest\n${helper}\nclass TestMd(unittest.TestCase):\n${old}${fresh}` });
    const run = await runCheck({ command: 'python3 -m unittest', cwd: ws, round: 1 });
    assert.strictEqual(run.status, 'failed', run.output);
    const spoiler = run.tests?.find((t) => t.name.includes('test_aa_spoiler'));
    assert.strictEqual(spoiler?.message, `AssertionError: '<details>' != '<div class="spoiler">'`);
    assert.strictEqual(run.tests?.find((t) => t.name.includes('test_old_07'))?.message, 'AssertionError: 7 != -1');
    assert.ok(!run.output.includes(spoiler.message), 'the trimmed output holds no line of the new failure’s exception');
    // the unchanged workspace failed the forty: the new one is named first, with its message
    const base = { ...run, tests: run.tests!.filter((t) => t !== spoiler) };
    const text = fixRequest([run], 1, 2, [], [], () => base);
    assert.match(text, /41 failed \(it names only failing ones\):\n- test_aa_spoiler \(tests\.test_md\.TestMd\.test_aa_spoiler\) — AssertionError: '<details>' != '<div class="spoiler">'\n- test_old_00 \(tests\.test_md\.TestMd\.test_old_00\) — AssertionError: 0 != -1\n/);
  });

  it("node:test's TAP: an error given as a YAML block is read for its words, as the spec reporter's lines are", () => {
    const tap = [
      'not ok 1 - adds two prices',
      '  ---',
      "  location: '/w/test/add.test.js:3:1'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    ',
      '    2 !== 3',
      '    ',
      "  code: 'ERR_ASSERTION'",
      "  name: 'AssertionError'",
      '  stack: |-',
      '    TestContext.<anonymous> (/w/test/add.test.js:3:38)',
      '  ...',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(tap)?.cases, [{ name: 'adds two prices', passed: false, message: 'AssertionError: Expected values to be strictly equal: 2 !== 3' }]);
    const spec = ['✖ adds two prices (2.4ms)', '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '  ', '  2 !== 3', '  ', '      at TestContext.<anonymous> (test/add.test.js:3:38)'].join('\n');
    assert.strictEqual(readTestCases(spec)?.cases[0].message, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 2 !== 3');
  });

  it("jest's expectation with its Expected and Received lines, RSpec's with its got line; a diff is not read", () => {
    const jest = [
      'FAIL src/calc.test.js',
      '  ● calc › adds',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      '    Expected: 3',
      '    Received: 2',
      '',
      "      3 | test('adds', () => {",
      '  ● calc › equals',
      '',
      '    expect(received).toEqual(expected) // deep equality',
      '',
      '    - Expected  - 1',
      '    + Received  + 1',
      '',
      'Tests:       2 failed, 2 total',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(jest)?.cases.map((c) => c.message), ['expect(received).toBe(expected) // Object.is equality — Expected: 3, Received: 2', 'expect(received).toEqual(expected) // deep equality']);
    // jest 22 (Day.js pins it): each label's value on the line below it
    const older = ['  ● DST › parses the overlap', '', '    expect(received).toBe(expected) // Object.is equality', '    ', '    Expected value to be:', '      "2012-11-04T01:00:00-04:00"', '    Received:', '      "2012-11-04T01:00:00-05:00"', '', '      28 |'].join('\n');
    assert.strictEqual(readTestCases(older)?.cases[0].message, 'expect(received).toBe(expected) // Object.is equality — Expected value to be: "2012-11-04T01:00:00-04:00", Received: "2012-11-04T01:00:00-05:00"');
    const rspec = ['  1) Calc adds', '     Failure/Error: expect(Calc.add(1, 1)).to eq(3)', '', '       expected: 3', '            got: 2', '', '       (compared using ==)', '     # ./spec/calc_spec.rb:4:in `block (2 levels) in <top (required)>\'', '', 'Failed examples:'].join('\n');
    assert.strictEqual(readTestCases(rspec)?.cases[0].message, 'expected: 3 — got: 2');
  });

  it('a message is cut to one line of 240 characters, and a passing case or a failure without one has none', () => {
    const long = `FAILED tests/test_a.py::test_big - AssertionError: assert '${'x'.repeat(500)}' == ''\nPASSED tests/test_a.py::test_ok`;
    const cases = readTestCases(['tests/test_a.py::test_ok PASSED', 'tests/test_a.py::test_bare FAILED', long].join('\n'))!.cases;
    const big = cases.find((c) => c.name.endsWith('test_big'))!;
    assert.ok(big.message!.length <= 240 && big.message!.startsWith("AssertionError: assert 'xxx") && big.message!.endsWith('…'), big.message);
    assert.strictEqual(cases.find((c) => c.name.endsWith('test_ok'))?.message, undefined);
    assert.strictEqual(cases.find((c) => c.name.endsWith('test_bare'))?.message, undefined);
  });
});

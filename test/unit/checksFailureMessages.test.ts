// src/core/checks/failureMessages.ts and missingNames.ts: a failed test case whose own message says only that a name
// the test uses is missing keeps that name (TestCaseResult.missing), read from each runner's failure message where it
// writes it; a case that failed otherwise, or whose message is not there, keeps none. The outputs are the runners'
// own (node:test, mocha and pytest as they printed them here; jest, vitest and RSpec as they print them).
import * as assert from 'assert';
import { readTestCases } from '../../src/core';
import { errorLine, missingNameIn } from '../../src/core/checks/missingNames';

/** Each case read from `output`: its name, and the name its message said was missing ('' for none). */
function missingOf(output: string): Record<string, string> {
  const cases = readTestCases(output)?.cases ?? [];
  return Object.fromEntries(cases.map((c) => [c.name, c.missing ? `${c.missing.name} (${c.missing.error})` : c.passed ? 'passed' : '']));
}

const STACK = ['    at TestContext.<anonymous> (/tmp/w/test/option.test.js:6:5)', '    at Test.runInAsyncScope (node:async_hooks:206:9)'];

describe('checks: a failed case whose message says only that a name was missing', () => {
  it("node:test's spec reporter: the error under its ✖ line, and again under `✖ failing tests:`", () => {
    const assertion = ['  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '  ', "  '-x' !== '-y'", '  ', ...STACK, '  }'];
    const out = [
      '✖ marks an option deprecated (1.184324ms)',
      '  TypeError [Error]: o.deprecated is not a function',
      ...STACK,
      '',
      '✖ keeps the flags (1.312058ms)',
      ...assertion,
      '',
      '✖ makes an option (0.083424ms)',
      '  ReferenceError [Error]: makeOption is not defined',
      ...STACK,
      '',
      '✔ parses flags (0.181036ms)',
      'ℹ tests 4',
      'ℹ fail 3',
      '',
      '✖ failing tests:',
      '',
      'test at test/option.test.js:4:1',
      '✖ marks an option deprecated (1.184324ms)',
      '  TypeError [Error]: o.deprecated is not a function',
      ...STACK,
      '',
      'test at test/option.test.js:9:1',
      '✖ keeps the flags (1.312058ms)',
      ...assertion,
    ].join('\n');
    assert.deepStrictEqual(missingOf(out), {
      'marks an option deprecated': 'deprecated (TypeError)',
      'keeps the flags': '',
      'makes an option': 'makeOption (ReferenceError)',
      'parses flags': 'passed',
    });
  });

  it("node:test's TAP reporter: the `error` and `name` of the failed point's YAML block, in a describe() too", () => {
    const point = (n: number, name: string, indent: string, fields: string[]) => [
      `${indent}# Subtest: ${name}`,
      `${indent}not ok ${n} - ${name}`,
      `${indent}  ---`,
      `${indent}  duration_ms: 0.973827`,
      `${indent}  location: '/tmp/w/test/option.test.js:4:1'`,
      `${indent}  failureType: 'testCodeFailure'`,
      ...fields.map((f) => `${indent}  ${f}`),
      `${indent}  stack: |-`,
      `${indent}    TestContext.<anonymous> (/tmp/w/test/option.test.js:6:5)`,
      `${indent}  ...`,
    ];
    const out = [
      'TAP version 13',
      '# Subtest: Option',
      ...point(1, 'marks an option deprecated', '    ', ["error: '(intermediate value).deprecated is not a function'", "code: 'ERR_TEST_FAILURE'", "name: 'TypeError'"]),
      ...point(2, 'keeps the flags', '    ', ['error: |-', '  Expected values to be strictly equal:', '  ', "  '-x' !== '-y'", "code: 'ERR_ASSERTION'", "name: 'AssertionError'"]),
      '    1..2',
      'not ok 1 - Option',
      '  ---',
      "  type: 'suite'",
      "  error: '2 subtests failed'",
      '  ...',
      ...point(2, 'throws a plain error', '', ["error: 'deprecated is not a function'", "code: 'ERR_TEST_FAILURE'", "name: 'Error'"]),
      '1..2',
      '# fail 3',
    ].join('\n');
    assert.deepStrictEqual(missingOf(out), { 'marks an option deprecated': 'deprecated (TypeError)', 'keeps the flags': '', 'throws a plain error': '' });
  });

  it("mocha: the error under each failure's title in its list, not the lines after its spec line", () => {
    const out = `
  Option
    1) marks an option deprecated
    2) keeps the flags
    ✔ parses flags

  1 passing (9ms)
  2 failing

  1) Option
       marks an option deprecated:
     TypeError: (intermediate value).deprecated is not a function
      at Context.<anonymous> (test/option.spec.js:4:61)

  2) Option
       keeps the flags:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

'-x' !== '-y'
      at Context.<anonymous> (test/option.spec.js:5:40)`.slice(1);
    assert.deepStrictEqual(missingOf(out), { 'Option marks an option deprecated': 'deprecated (TypeError)', 'Option keeps the flags': '', 'parses flags': 'passed' });
  });

  it("jest: the message under each `●` header, which its spec line's title alone takes from it", () => {
    const out = `
 FAIL  test/option.test.js
  Option
    ✕ marks an option deprecated (3 ms)
    ✕ keeps the flags (1 ms)
    ✓ parses flags (1 ms)

  ● Option › marks an option deprecated

    TypeError: option.deprecated is not a function

    > 6 |     option.deprecated('use -y');
        |            ^

      at Object.deprecated (test/option.test.js:6:12)

  ● Option › keeps the flags

    expect(received).toBe(expected) // Object.is equality

    Expected: "-y"
    Received: "-x"

Tests:       2 failed, 1 passed, 3 total`.slice(1);
    const headers = { 'Option › marks an option deprecated': 'deprecated (TypeError)', 'Option › keeps the flags': '' };
    assert.deepStrictEqual(missingOf(out), { 'marks an option deprecated': 'deprecated (TypeError)', 'keeps the flags': '', 'parses flags': 'passed', ...headers });
  });

  it("vitest: the message under `FAIL file > name`, kept by the case its spec line names", () => {
    const out = `
 ❯ test/option.test.ts (2 tests | 2 failed) 6ms
   × Option > marks an option deprecated 3ms
     → option.deprecated is not a function
   × Option > keeps the flags 1ms
     → expected '-x' to be '-y' // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/option.test.ts > Option > marks an option deprecated
TypeError: option.deprecated is not a function
 ❯ test/option.test.ts:6:12

 FAIL  test/option.test.ts > Option > keeps the flags
AssertionError: expected '-x' to be '-y' // Object.is equality`.slice(1);
    assert.deepStrictEqual(missingOf(out), { 'Option > marks an option deprecated': 'deprecated (TypeError)', 'Option > keeps the flags': '' });
  });

  it("pytest: the message on its short summary's line; one cut short (no CI) says nothing", () => {
    const out = `
tests/test_a.py FFFFF.                                                   [100%]
=========================== short test summary info ============================
FAILED tests/test_a.py::test_marks_deprecated - AttributeError: 'Foo' object has no attribute 'deprecate'
FAILED tests/test_a.py::test_keeps_flags - assert 1 == 2
FAILED tests/test_a.py::test_imports_new - ImportError: cannot import name 'make_foo' from 'pkg' (/tmp/w/pkg/__init__.py)
FAILED tests/test_a.py::test_module_attr - AttributeError: module 'pkg' has no attribute 'make_bar'. Did you mean: 'make_baz'?
FAILED tests/test_a.py::test_kw - TypeError: helper() got an unexpected keyword argument 'strict'
FAILED tests/test_a.py::test_none - AttributeError: 'NoneType' object has no attribute 'flags'
FAILED tests/test_a.py::test_cut - AttributeError: 'Foo' object ...
========================= 7 failed, 1 passed in 0.02s ==========================`.slice(1);
    assert.deepStrictEqual(missingOf(out), {
      'tests/test_a.py::test_marks_deprecated': 'deprecate (AttributeError)',
      'tests/test_a.py::test_keeps_flags': '',
      'tests/test_a.py::test_imports_new': 'make_foo (ImportError)',
      'tests/test_a.py::test_module_attr': 'make_bar (AttributeError)',
      'tests/test_a.py::test_kw': 'strict (TypeError)',
      // a call on None names no missing name of the change
      'tests/test_a.py::test_none': '',
      'tests/test_a.py::test_cut': '',
    });
  });

  it("unittest: the exception each failure block's traceback ends with, a chained one's last, a subTest's each", () => {
    // python3 -m unittest discover -v as Python 3.11 printed it (its own paths shortened)
    const out = `
test_assert (tests.test_a.TestAbbr.test_assert) ... FAIL
test_chained (tests.test_a.TestAbbr.test_chained) ... ERROR
test_method (tests.test_a.TestAbbr.test_method) ... ERROR
test_ok (tests.test_a.TestAbbr.test_ok) ... ok
test_option (tests.test_a.TestAbbr.test_option) ... ERROR
test_sub (tests.test_a.TestAbbr.test_sub) ... 
  test_sub (tests.test_a.TestAbbr.test_sub) (i=0) ... ERROR
  test_sub (tests.test_a.TestAbbr.test_sub) (i=1) ... ERROR
tests.test_b (unittest.loader._FailedTest.tests.test_b) ... ERROR

======================================================================
ERROR: test_chained (tests.test_a.TestAbbr.test_chained)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 13, in test_chained
    {}['k']
    ~~^^^^^
KeyError: 'k'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 15, in test_chained
    Abbr().missing_after
AttributeError: 'Abbr' object has no attribute 'missing_after'

======================================================================
ERROR: test_method (tests.test_a.TestAbbr.test_method)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 8, in test_method
    Abbr().glossary()
    ^^^^^^^^^^^^^^^
AttributeError: 'Abbr' object has no attribute 'glossary'

======================================================================
ERROR: test_option (tests.test_a.TestAbbr.test_option)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 6, in test_option
    Abbr(title='x', case_sensitive=True)
TypeError: Abbr.__init__() got an unexpected keyword argument 'case_sensitive'

======================================================================
ERROR: test_sub (tests.test_a.TestAbbr.test_sub) (i=0)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 19, in test_sub
    Abbr().sub_name
AttributeError: 'Abbr' object has no attribute 'sub_name'

======================================================================
ERROR: test_sub (tests.test_a.TestAbbr.test_sub) (i=1)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 19, in test_sub
    Abbr().sub_name
AttributeError: 'Abbr' object has no attribute 'sub_name'

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
  File "/tmp/ut/tests/test_b.py", line 1, in <module>
    from pkg import NotThere
ImportError: cannot import name 'NotThere' from 'pkg' (/tmp/ut/pkg/__init__.py)


======================================================================
FAIL: test_assert (tests.test_a.TestAbbr.test_assert)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut/tests/test_a.py", line 10, in test_assert
    self.assertEqual(render('a'), 'b')
AssertionError: 'a' != 'b'
- a
+ b


----------------------------------------------------------------------
Ran 7 tests in 0.001s

FAILED (failures=1, errors=6)`.slice(1);
    const expected = {
      'test_assert (tests.test_a.TestAbbr.test_assert)': '',
      // the KeyError was being handled when the AttributeError was raised: the test failed on the missing attribute
      'test_chained (tests.test_a.TestAbbr.test_chained)': 'missing_after (AttributeError)',
      'test_method (tests.test_a.TestAbbr.test_method)': 'glossary (AttributeError)',
      'test_ok (tests.test_a.TestAbbr.test_ok)': 'passed',
      'test_option (tests.test_a.TestAbbr.test_option)': 'case_sensitive (TypeError)',
      'test_sub (tests.test_a.TestAbbr.test_sub)': 'sub_name (AttributeError)',
    };
    assert.deepStrictEqual(missingOf(out), expected);
    // without -v: the same blocks under the dots
    const quiet = out.slice(out.indexOf('\n\n=====') + 2);
    const { 'test_ok (tests.test_a.TestAbbr.test_ok)': _ok, ...failed } = expected;
    assert.deepStrictEqual(missingOf(`FEE.EEEE\n${quiet}`), failed);
    // one subTest failing otherwise: the test did not fail only on the missing name
    const mixed = quiet.replace(/(\(i=1\)\n-+\n[\s\S]*?)AttributeError: [^\n]*/, "$1AssertionError: 1 != 2");
    assert.strictEqual(missingOf(mixed)['test_sub (tests.test_a.TestAbbr.test_sub)'], '');
    // a block cut short (no closing rule) says nothing
    const cut = quiet.slice(0, quiet.indexOf("AttributeError: 'Abbr' object has no attribute 'glossary'") + 60);
    assert.strictEqual(missingOf(cut)['test_method (tests.test_a.TestAbbr.test_method)'], '');
  });

  it("RSpec: the error after the failing source, its class on a line of its own, the message under it", () => {
    const out = `
Failures:

  1) Foo#deprecate marks it deprecated
     Failure/Error: foo.deprecate("use bar")

     NoMethodError:
       undefined method \`deprecate' for an instance of Foo
     # ./spec/foo_spec.rb:6:in \`block (3 levels) in <top (required)>'

  2) Foo#flags keeps the flags
     Failure/Error: expect(Foo.new.flags).to eq("-y")

       expected: "-y"
            got: "-x"

  3) Foo#parse reads nil
     Failure/Error: Foo.parse(nil).flags

     NoMethodError:
       undefined method 'flags' for nil

3 examples, 3 failures

Failed examples:

rspec ./spec/foo_spec.rb:5 # Foo#deprecate marks it deprecated
rspec ./spec/foo_spec.rb:11 # Foo#flags keeps the flags
rspec ./spec/foo_spec.rb:15 # Foo#parse reads nil`.slice(1);
    assert.deepStrictEqual(missingOf(out), { 'Foo#deprecate marks it deprecated': 'deprecate (NoMethodError)', 'Foo#flags keeps the flags': '', 'Foo#parse reads nil': '' });
  });

  it('the bounded set of missing-name errors, and what it leaves out', () => {
    const said = (line: string) => {
      const e = errorLine(line);
      const m = e && missingNameIn(e);
      return m ? `${m.name} (${m.error})` : '';
    };
    assert.strictEqual(said('TypeError: this.opts.parse is not a function'), 'parse (TypeError)');
    // a call's result in the receiver, as V8 writes a chain
    assert.strictEqual(said('TypeError: program.command(...).summary is not a function'), 'summary (TypeError)');
    assert.strictEqual(said('TypeError: make(...).with(...).strict is not a function'), 'strict (TypeError)');
    assert.strictEqual(said('TypeError: Option is not a constructor'), 'Option (TypeError)');
    assert.strictEqual(said("AttributeError: type object 'Foo' has no attribute 'create'"), 'create (AttributeError)');
    assert.strictEqual(said("NameError: name 'make_foo' is not defined"), 'make_foo (NameError)');
    assert.strictEqual(said('NameError: uninitialized constant Foo::Deprecation'), 'Foo::Deprecation (NameError)');
    assert.strictEqual(said('ArgumentError: unknown keyword: :strict'), 'strict (ArgumentError)');
    for (const other of [
      "TypeError: Cannot read properties of undefined (reading 'flags')",
      'TypeError: undefined is not a function',
      "ModuleNotFoundError: No module named 'pkg.new'",
      "ImportError: cannot import name 'x' from partially initialized module 'pkg'",
      'AssertionError [ERR_ASSERTION]: deprecated is not a function',
      "NoMethodError: undefined method `flags' for nil:NilClass",
    ])
      assert.strictEqual(said(other), '', other);
  });
});

// Fail-first of tests that failed on the unchanged code only because the name they call is not there yet
// (`TypeError: o.deprecated is not a function`, `AttributeError: 'Foo' object has no attribute 'bar'`): the criterion
// still reads `fail` (fail-first observed, TSR as it was), and its words say what that shows — the tests call the
// change, not yet that they check its behaviour (CriterionResult.missing, beforeText) — on every surface: the
// retrospective's request and file, the panel through beforeText. A criterion beside a test that failed otherwise,
// or whose failure's message was not read, reads as before.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runFailFirst, type CheckRun, type ChecksOutcome } from '../../src/core';
import { beforeText, computeTsr, failFirstOf } from '../../src/core/metrics/tsr';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { BEFORE_TEXT, type FileTest } from '../../src/core/model/types';
import { renderSources, type ContextInputs } from '../../src/core/session/context';
import { failedRun } from '../helpers/failedRun';
import { proposedFile } from '../helpers/cargoCrate';

const yes = () => true;
const ONLY_MISSING = 'it shows the tests call the change, not yet that they check its behaviour';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&');

const FILE = 'test/option.test.js';
const marks: FileTest = { file: FILE, name: 'marks an option deprecated', expect: 'fail' };
const lists: FileTest = { file: FILE, name: 'lists the deprecated options', expect: 'fail' };
const keeps: FileTest = { file: FILE, name: 'keeps the flags', expect: 'fail' };
const parses: FileTest = { file: FILE, name: 'parses flags', expect: 'pass' };

/** DevA's test file: two tests call what the change adds, one asserts what it changes, one guards what it keeps. */
const TEST_FILE = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { Option } = require('../lib/option');",
  "test('marks an option deprecated', () => {",
  "  const o = new Option('-x');",
  "  o.deprecated('use -y');",
  '  assert.strictEqual(o.isDeprecated, true);',
  '});',
  "test('lists the deprecated options', () => {",
  '  assert.deepStrictEqual(Option.deprecatedOptions(), []);',
  '});',
  "test('keeps the flags', () => {",
  "  assert.strictEqual(new Option(' -x ').flags, '-x');",
  '});',
  "test('parses flags', () => {",
  "  assert.strictEqual(new Option('-x').flags, '-x');",
  '});',
  '',
].join('\n');

/** The fail-first runs of DevA's test file on a workspace whose `Option` has no `deprecated` yet, by node:test's two reporters. */
async function failFirstRuns(): Promise<CheckRun[]> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-missing-'));
  fs.mkdirSync(path.join(ws, 'lib'));
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
  fs.writeFileSync(path.join(ws, 'lib/option.js'), 'class Option {\n  constructor(flags) {\n    this.flags = flags;\n  }\n}\nmodule.exports = { Option };\n');
  const files = [proposedFile('lib/option.js', 'class Option {}\n'), proposedFile(FILE, TEST_FILE)];
  const commands = [`node --test --test-reporter=spec ${FILE}`, `node --test --test-reporter=tap ${FILE}`];
  const result = await runFailFirst({ commands, workspace: ws, capeFolder: 'cape', files, emit: () => undefined });
  fs.rmSync(ws, { recursive: true, force: true });
  return result.runs;
}

const POA = { acceptance_criteria: [{ id: 'AC-1', criterion: 'mark an option deprecated' }, { id: 'AC-2', criterion: 'trim flags' }] };
const criterion = (id: string, tests: FileTest[]) => tests.map((t) => ({ criterion: id, file: t.file, test: t.name, expect: t.expect }));

describe('fail-first: tests that failed only because the name they call was missing', () => {
  it("with node:test's spec and TAP reporters: says what it shows, names each missing name; beside an assertion's failure, as before", async () => {
    const runs = await failFirstRuns();
    for (const r of runs) assert.deepStrictEqual(r.tests?.find((t) => t.name === marks.name)?.missing, { name: 'deprecated', error: 'TypeError' }, r.output);
    const first = failFirstOf([marks, lists], yes, runs);
    assert.deepStrictEqual(first, { before: 'fail', missing: [{ name: 'deprecated', error: 'TypeError' }, { name: 'deprecatedOptions', error: 'TypeError' }] });
    assert.strictEqual(beforeText(first!), `${BEFORE_TEXT.fail}, only because \`deprecated\` and \`deprecatedOptions\` were missing (TypeError) — ${ONLY_MISSING}`);
    // one test failed on its assertion: its criterion's tests are shown to check the behaviour, as before
    assert.deepStrictEqual(failFirstOf([marks, keeps], yes, runs), { before: 'fail' });
    // a regression guard that passed beside it is said after
    const guarded = failFirstOf([marks, parses], yes, runs);
    assert.strictEqual(beforeText(guarded!), `${BEFORE_TEXT.fail}, only because \`deprecated\` was missing (TypeError) — ${ONLY_MISSING}; its regression guards passed there, as DevA meant`);
  });

  it('on every surface; TSR as it was; mocha beside an assertion, pytest all missing, a message not read as before', () => {
    const mocha = failedRun(
      [
        '  2 failing',
        '',
        '  1) Option',
        '       marks an option deprecated:',
        '     TypeError: o.deprecated is not a function',
        '      at Context.<anonymous> (test/option.test.js:6:7)',
        '',
        '  2) Option',
        '       keeps the flags:',
        '',
        "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n' -x ' !== '-x'\n",
      ].join('\n'),
    );
    const devaOutput = { criteria_tests: [...criterion('AC-1', [marks]), ...criterion('AC-2', [marks, keeps])] };
    const passed: CheckRun = { ...failedRun('2 passing'), status: 'passed', passed: true, exitCode: 0 };
    const tsr = computeTsr({ poaOutput: POA, devaOutput, checks: [passed], before: [mocha], fileExists: yes });
    assert.deepStrictEqual(
      tsr.criteria.map((c) => [c.id, c.before, c.missing]),
      [
        ['AC-1', 'fail', [{ name: 'deprecated', error: 'TypeError' }]],
        ['AC-2', 'fail', undefined],
      ],
    );
    assert.strictEqual(tsr.tsr, 1, 'a fail-first failure still counts as observed; no part of TSR');
    const missingText = `${BEFORE_TEXT.fail}, only because \`deprecated\` was missing (TypeError) — ${ONLY_MISSING}`;
    const md = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr }));
    assert.ok(md.includes(`| passed | ${missingText} | — |`), md);
    assert.ok(md.includes(`| passed | ${BEFORE_TEXT.fail} | — |`), md);
    const outcome: ChecksOutcome = { commands: ['npm test'], runs: [passed], fixRounds: [], maxFixRounds: 2, passed: true, before: { testFiles: [FILE], runs: [mocha], notWritten: [] } };
    const request = renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: POA }, deva: { output: devaOutput } }, checks: outcome, fileExists: yes, devaFiles: [] } as unknown as ContextInputs);
    assert.match(request, new RegExp(`- AC-1: .* on the unchanged code: ${escape(missingText)}\\n- AC-2: .* on the unchanged code: ${escape(BEFORE_TEXT.fail)}$`));

    // pytest's summary: each a missing name, of a Python test file
    const py = (name: string) => ({ file: 'tests/test_foo.py', name, expect: 'fail' as const });
    const pytest = failedRun(
      [
        "FAILED tests/test_foo.py::test_deprecate - AttributeError: 'Foo' object has no attribute 'deprecate'",
        "FAILED tests/test_foo.py::test_make - ImportError: cannot import name 'make_foo' from 'foo' (/w/foo/__init__.py)",
        "FAILED tests/test_foo.py::test_cut - AttributeError: 'Foo' object has no attri...",
        '========================= 3 failed in 0.02s ==========================',
      ].join('\n'),
      { command: 'pytest' },
    );
    const both = failFirstOf([py('test_deprecate'), py('test_make')], yes, [pytest]);
    assert.strictEqual(beforeText(both!), `${BEFORE_TEXT.fail}, only because \`deprecate\` and \`make_foo\` were missing (AttributeError, ImportError) — ${ONLY_MISSING}`);
    // a summary cut short (pytest outside CI): its message cannot be read, so nothing is guessed
    assert.deepStrictEqual(failFirstOf([py('test_deprecate'), py('test_cut')], yes, [pytest]), { before: 'fail' });
    // a test whose failure was read from the output, not from a case (its runner names none): as before
    assert.deepStrictEqual(failFirstOf([marks], yes, [failedRun(`TypeError: o.deprecated is not a function\n    at ${FILE}:6:7`)]), { before: 'fail' });
  });

  it('metrics saved before, or a view of another shape, read as before', () => {
    assert.strictEqual(beforeText({ before: 'fail' }), BEFORE_TEXT.fail);
    assert.strictEqual(beforeText({ before: 'fail', missing: 'deprecated' }), BEFORE_TEXT.fail);
    assert.strictEqual(beforeText({ before: 'fail', missing: [{ name: 'deprecated' }] }), BEFORE_TEXT.fail);
    assert.strictEqual(beforeText({ before: 'pass', missing: [{ name: 'deprecated', error: 'TypeError' }] }), BEFORE_TEXT.pass, 'only of a failure');
    // many names: the first three, the others counted
    const many = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, error: 'NameError' }));
    assert.strictEqual(beforeText({ before: 'fail', missing: many }), `${BEFORE_TEXT.fail}, only because \`a\`, \`b\`, \`c\` and 2 more were missing (NameError) — ${ONLY_MISSING}`);
  });
});

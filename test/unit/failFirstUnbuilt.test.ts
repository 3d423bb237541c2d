// Fail-first whose run shows DevA's tests did not build or load without the change (CheckRun.unbuilt: a Rust test
// file calling a method that does not exist yet, a Go package whose new test calls a new function, a Node test that
// requires a module the change adds): no test ran there, so a criterion whose tests are in it reads `unbuilt` — "did
// not build or load without the change (the test file needs it; no test ran)" — not "failed (fail-first observed)",
// on every surface (the retrospective's request and file, the panel through beforeText, --json's metrics). A test
// that ran and failed there still decides `fail` (tsrGoUnbuilt.test.ts); a criterion's `before` is no part of TSR.
import * as assert from 'assert';
import { beforeText, computeTsr, failFirstOf, failFirstStatus, lastRuns, failFirstRuns, type NamedTest } from '../../src/core/metrics/tsr';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { BEFORE_TEXT } from '../../src/core/model/types';
import { checksForRetro, runCheckLoop, type CheckRun, type ChecksOutcome } from '../../src/core';
import { renderSources, type ContextInputs } from '../../src/core/session/context';
import { failedRun } from '../helpers/failedRun';
import { themeProposal, themeTsr } from '../helpers/themeProposal';

const UNBUILT_TEXT = 'did not build or load without the change (the test file needs it; no test ran)';

/** cargo test on the unchanged code with DevA's tests/test_bump.rs, whose tests call methods that do not exist yet (a Rust trial). */
const CARGO_UNBUILT = [
  '   Compiling semver v1.0.27 (/tmp/x)',
  'error[E0599]: no method named `bump_patch` found for struct `Version` in the current scope',
  '  --> tests/test_bump.rs:12:24',
  'error: could not compile `semver` (test "test_bump") due to 14 previous errors',
].join('\n');
const cargo = (output: string, extra: Partial<CheckRun> = {}): CheckRun => failedRun(output, { command: 'cargo test --offline', exitCode: 101, ...extra });
const passed: CheckRun = { ...cargo('test result: ok. 14 passed; 0 failed'), status: 'passed', passed: true, exitCode: 0 };
const yes = () => true;

const patch: NamedTest = { file: 'tests/test_bump.rs', name: 'test_ac1_bump_patch_of_release', expect: 'fail' };
const minor: NamedTest = { file: 'tests/test_bump.rs', name: 'test_ac5_bump_minor_resets_patch', expect: 'fail' };
const guard: NamedTest = { file: 'tests/test_bump.rs', name: 'test_parse', expect: 'pass' };

const POA = { acceptance_criteria: [{ id: 'AC-1', criterion: 'bump patch' }, { id: 'AC-2', criterion: 'bump minor' }] };
const DEVA = { criteria_tests: [{ criterion: 'AC-1', file: patch.file, test: patch.name, expect: 'fail' }, { criterion: 'AC-2', file: minor.file, test: minor.name, expect: 'fail' }] };

describe('fail-first: a criterion whose tests did not build or load without the change', () => {
  it('reads `unbuilt`, not `fail`, when the run shows they did not build (a Rust trial); a guard beside them is not told', () => {
    const run = cargo(CARGO_UNBUILT);
    assert.strictEqual(run.unbuilt, true, 'the checks read the build failure');
    assert.strictEqual(failFirstStatus([patch], yes, [run]), 'unbuilt');
    assert.deepStrictEqual(failFirstOf([patch, minor, guard], yes, [run]), { before: 'unbuilt' }, 'no surprise: the guard did not run either');
    // the same output from a run whose build failure the checks did not read (one recorded before they did): as before
    const unread: CheckRun = { ...run };
    delete unread.unbuilt;
    assert.strictEqual(failFirstStatus([patch], yes, [unread]), 'fail');
  });

  it('says so in words on every surface; TSR is as it was; a criterion saved as `fail` reads as before', () => {
    assert.strictEqual(beforeText({ before: 'unbuilt' }), UNBUILT_TEXT);
    assert.strictEqual(BEFORE_TEXT.unbuilt, UNBUILT_TEXT);
    assert.strictEqual(beforeText({ before: 'fail' }), 'failed (fail-first observed)', 'metrics saved before keep their words');
    const tsr = computeTsr({ poaOutput: POA, devaOutput: DEVA, checks: [passed], before: [cargo(CARGO_UNBUILT)], fileExists: yes });
    assert.deepStrictEqual(tsr.criteria.map((c) => [c.id, c.computed, c.before]), [
      ['AC-1', 'pass', 'unbuilt'],
      ['AC-2', 'pass', 'unbuilt'],
    ]);
    assert.strictEqual(tsr.tsr, 1, 'fail-first is no part of TSR');
    const md = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr }));
    assert.ok(md.includes(`| passed | ${UNBUILT_TEXT} | — |`), md);
    assert.doesNotMatch(md, /fail-first observed/);
    // the retrospective's request: each criterion, and the run's line as the checks tell it
    const outcome: ChecksOutcome = { commands: ['cargo test --offline'], runs: [passed], fixRounds: [], maxFixRounds: 2, passed: true, before: { testFiles: [patch.file], runs: [cargo(CARGO_UNBUILT)], notWritten: [] } };
    const request = renderSources('cm_retro', ['retro:criteria'], { envelopes: { poa: { output: POA }, deva: { output: DEVA } }, checks: outcome, fileExists: yes, devaFiles: [] } as unknown as ContextInputs);
    assert.match(request, new RegExp(`- AC-1: .* in the checks' last run: passed; with only DevA's tests on the unchanged code: ${UNBUILT_TEXT.replace(/[()]/g, '\\$&')}\\n- AC-2: `));
    assert.doesNotMatch(request, /fail-first observed/);
    assert.match(checksForRetro(outcome), /`cargo test --offline` failed: DevA's tests did not build or load without the change/);
  });

  it('in the loop: a Node test file that requires what the change adds does not load without it', async () => {
    const { ws, files } = themeProposal('cape-unit-unbuilt-');
    files[1].content = "const { theme } = require('../src/theme');\nif (theme !== 1) process.exit(1);\nconsole.log('ok - follows the OS theme');\n";
    const { outcome } = await runCheckLoop({ commands: ['node test/theme.test.js'], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: () => undefined });
    assert.strictEqual(outcome.passed, true);
    assert.strictEqual(outcome.before!.runs[0].unbuilt, true, outcome.before!.runs[0].output);
    assert.strictEqual(themeTsr(lastRuns(outcome), failFirstRuns(outcome)).criteria[0].before, 'unbuilt');
  });
});

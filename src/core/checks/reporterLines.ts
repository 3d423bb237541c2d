// How the reporters that mark each case write their lines, as testCases.ts reads them: the spec reporters of mocha,
// jest, vitest and node:test (a ✓ or ✖ before the case, a case's time after it), mocha's numbered failures, TAP's
// points, jest's failure headers and its and vitest's lines for a whole test file; and the lines that look like a
// failed case but name none (node:test's failures heading, ESLint's summary, a diagnostic at a line and column). The
// runners whose lines name a case plainly are in ./testLineFormats.ts.
import { toLineEnd } from './testLineFormats';

/**
 * A case's time after its name: `(3 ms)` (mocha, jest, node:test), or bare as vitest writes it (`7ms`, `1.52s`). It
 * starts where a run of blanks starts (the lookbehind): tried from every blank of a long run, it took time quadratic
 * in the run's length.
 */
export const DURATION = /(?<!\s)\s*(?:\((?:\d+(?:\.\d+)?\s*(?:ms|s|m))\)|\s\d+(?:\.\d+)?(?:ms|s))\s*$/;
/**
 * vitest's line for a whole test file, after its ✓ (passed) or ❯ (some failed): `test/a.test.ts  (37 tests | 1
 * skipped) 45ms`, `TS  test/types.test-d.ts  (11 tests)`. The file, not a case: its cases are named only when some
 * fail (vitest 2 then names only those; vitest 3 the passing ones too).
 */
export const VITEST_FILE = /^(?:TS\s+)?(\S+\.\w+)\s+\(\d+ tests?(?:\s*\|[^)]*)?\)(?:\s+\d+(?:\.\d+)?m?s)?$/;
/** vitest's failed-test line names the case with its file first (`test/calc.test.ts > calc > multiplies`). */
export const VITEST_FILE_PREFIX = /^\S+\.\w+ > /;
/** Spec reporters (mocha, jest, vitest, node:test): ✓ / ✔ passed, ✕ / ✖ / × failed. */
export const PASS = toLineEnd(String.raw`^\s*(?:✓|✔|√)\s+`);
export const FAIL = toLineEnd(String.raw`^\s*(?:✕|✖|×|✗)\s+`);
/**
 * mocha's (and RSpec's) numbered failures: "  1) name". After mocha's "N failing" each is listed again with its whole
 * title, one suite a line, the test's ending in ':' (`  2) Suite B` / `       works:`): the failure is named so, for a
 * leaf title like "works" recurs across suites (the dot reporter lists failures only there).
 */
export const NUMBERED_FAIL = toLineEnd(String.raw`^\s{2,}(\d+)\)\s+`);
export const TAP = toLineEnd(String.raw`^\s*(not )?ok \d+(?:\s+-)?\s+`);
/**
 * jest's failure headers, all its default reporter says of the cases when it runs several files: `  ● Suite › name`
 * (repeated in its summary). `● Console` heads logged output; `● Test suite failed to run` is a file that did not
 * load, named with the file of the `FAIL tests/x.test.js` line before it.
 */
export const JEST_FAILURE = toLineEnd(String.raw`^\s*● `);
/** jest's header for a test file that did not load (JEST_FAILURE). */
export const JEST_SUITE_FAILED = 'Test suite failed to run';
/** jest's line for a whole test file: `PASS tests/a.test.js`, `FAIL tests/b.test.js (5.2 s)`. */
export const JEST_FILE = /^\s*(PASS|FAIL)\s+(\S+?)(?:\s+\([\d.]+ m?s\))?\s*$/;
/** node:test's TAP reporter marks a describe() block in the point's YAML block. */
export const TAP_SUITE = /^\s+type:\s*'?suite'?\s*$/;
/**
 * node:test's spec reporter opens a describe() block with `▶ name` and closes it with a ✔ / ✖ line of the same name,
 * and heads its repeated failures with `✖ failing tests:`: neither is a test case.
 */
export const SPEC_SUITE = toLineEnd(String.raw`^\s*▶\s+`);
export const SPEC_FAILURES_HEADING = /^\s*✖ failing tests:\s*$/;
/** ESLint's summary (its stylish formatter): `✖ 2 problems (2 errors, 0 warnings)` — a linter's count, no test case. */
export const ESLINT_SUMMARY = /^\s*✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/;
/**
 * A diagnostic at a line and column (`✖  686:31  Property x does not exist on type Option.`: tsd's and xo's pretty
 * formatter, under the file's path; the mark, two spaces or more, then the position): a type or lint error, no test
 * case. A commander trial's fail-first run of `npx tsd` was reported as "10 test cases failing". A spec reporter's
 * failed test (`✖ 12:30 meeting is listed`) has one space after the mark.
 */
export const POSITIONED_DIAGNOSTIC = /^\s*[✖×✗]\s{2,}\d+:\d+\s/;

/** vitest's ✓ before a passed test file (VITEST_FILE). */
export const VITEST_PASSED = toLineEnd(String.raw`^\s*✓\s+`);
/** vitest's mark before a test file with a failure (`❯ test/a.test.ts (0 test)`, VITEST_FILE after it). */
export const VITEST_FAILED_FILE = toLineEnd(String.raw`^\s*[❯×]\s+`);
/** VITEST_FILE's count when the file collected no test: it did not load. */
export const NO_TEST_COLLECTED = /\(0 tests?\)/;

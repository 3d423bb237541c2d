// Which of the test cases a run reported (./testCases.ts) are the test DevA named in criteria_tests: names compared
// whole, whatever suite or file prefix the runner adds, and a parent test set aside when its subtests are named.
// One truth for TSR, fail-first and the fix request's count of named tests; and whether a run's output names a test
// file (namesTestFile), for TSR and for a fail-first run that did not reach DevA's tests (notReached.ts).
import * as path from 'path';
import { withoutGoPackage } from './testLineFormats';
import { escapeRegExp } from '../text/regexp';

/**
 * A reported test case is the named test: the same name, or one within the other (reporters prefix suites:
 * `Theme › toggles`, `calc.CalcTest.testDiv`, `tests/test_a.py::TestA::test_b[1]`) — as a whole name, not the start
 * of a longer identifier: `test_max_age` is not `test_max_age_timedelta`, nor `testDiv` `testDivByZero`. A Go case
 * named with its package (`example.com/calc.TestX`) is also the parent of a named subtest (`TestX/two`).
 */
export function sameTestName(reported: string, named: string): boolean {
  const a = reported.trim().toLowerCase();
  const b = named.trim().toLowerCase();
  const go = unqualified(reported);
  return b.length >= 4 && (a === b || within(a, b) || (a.length >= 4 && within(b, a)) || (go !== a && (go === b || isUnder(b, go))));
}

/** A reported name as sameTestName compares it, without its Go package (`example.com/calc.TestX` is TestX). */
const unqualified = (reported: string) => withoutGoPackage(reported.trim()).toLowerCase();

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/** Whether `name` lies under `parent` in a runner's hierarchy (`TestX/sub` under `TestX`, `suite › case` under `suite`). */
function isUnder(name: string, parent: string): boolean {
  return name.length > parent.length && name.startsWith(parent) && !IDENTIFIER_CHAR.test(name[parent.length]);
}

/**
 * The reported cases that are the named test (sameTestName). A parent of the named test (go test's `TestX` for a
 * named `TestX/with_spaces`) is left out when the run also reports cases under it: a parent fails whenever one of its
 * subtests does, and those are named themselves, so its failure says nothing of the others. A parent reported alone
 * (it failed in its own body) still counts.
 */
export function casesOfTest<T extends { name: string }>(cases: readonly T[], named: string): T[] {
  const b = named.trim().toLowerCase();
  const lower = cases.map((c) => c.name.trim().toLowerCase());
  return cases.filter((c, i) => {
    if (!sameTestName(c.name, named)) return false;
    const a = lower[i];
    return !((isUnder(b, a) || isUnder(b, unqualified(c.name))) && lower.some((other) => isUnder(other, a)));
  });
}

/** Whether `part` occurs in `whole` with no identifier character right before or after it. */
function within(whole: string, part: string): boolean {
  for (let at = whole.indexOf(part); at >= 0; at = whole.indexOf(part, at + 1)) {
    const before = at > 0 ? whole[at - 1] : '';
    const after = whole[at + part.length] ?? '';
    const edge = (c: string, inner: string) => !c || !IDENTIFIER_CHAR.test(c) || !IDENTIFIER_CHAR.test(inner);
    if (edge(before, part[0]) && edge(after, part[part.length - 1])) return true;
  }
  return false;
}

/**
 * Whether a run's output names a test file: its name on a path boundary (`test/a.test.js` is not named by
 * `test/data.test.js` nor by `a.test.jsx`), case-insensitive. The name is an escaped literal between one-character
 * lookarounds: no quantifier, so nothing to backtrack over (the output is up to 1 MB).
 */
export function namesTestFile(output: string, file: string): boolean {
  return fileNamePattern(file)?.test(output) ?? false;
}

/** What namesTestFile looks for: a file's name on a path boundary, case-insensitive; null for a path without a name. */
export function fileNamePattern(file: string): RegExp | null {
  const base = path.posix.basename(file);
  return base === '' ? null : new RegExp(`(?<![\\p{L}\\p{N}_@.-])${escapeRegExp(base)}(?![\\p{L}\\p{N}_-]|\\.[\\p{L}\\p{N}])`, 'iu');
}

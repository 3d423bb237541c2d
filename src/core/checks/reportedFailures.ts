// A test program that reports failed tests and still exits 0: a project's own harness whose `main` returns 0 whatever
// its assertions did (a trial on kgabis/parson: `make test` printed "Tests failed: 1" and passed, so a check of DevA's
// proposal could not fail on a failed assertion; DevA found `return 0;` and asked to change it), or a script that
// swallows its runner's status (`… || true`). Read from the whole output as it arrives, line by line like the other
// readers (run.ts); a run that exited 0 with such a line is failed, the line quoted first in its output
// (reportedFailureNote). Only lines shaped as a count of failed tests: "Tests failed: 1", "Failures: 2", "Failed = 1",
// "1 tests failed out of 2", "2 test(s) failed" — never a zero, and not a count of other things that failed
// ("tested 536 failing allocations").

import { sliceWhole } from '../text/cut';

/** A label, then the number of failed tests: `Tests failed: 1`, `Failures: 2`, `Failed = 1`, `# failed: 3`. */
const FAILED_LABEL = /^[\s#*>|-]*(?:(?:unit |integration )?tests?(?: cases?)?\s+failed|failures|failed)\s*[:=]\s*([1-9]\d*)(?![\d.%])/i;
/** A number of failed tests: `1 tests failed out of 2` (CTest's words), `2 test(s) failed`, `3 test cases failed`. */
const COUNT_FAILED = /\b([1-9]\d*)\s+tests?(?: cases?)?(?:\(s\))?\s+failed\b/i;
/** Characters of the line the note quotes at most. */
const QUOTED_CHARS = 120;

/** Reads an output's lines as they arrive, and keeps the first that reports failed tests (`first`, or null). */
export function reportedFailureReader(): { line: (line: string) => void; first: () => string | null } {
  let first: string | null = null;
  return {
    line: (line) => {
      if (first === null && (FAILED_LABEL.test(line) || COUNT_FAILED.test(line))) first = sliceWhole(line.trim(), 0, QUOTED_CHARS);
    },
    first: () => first,
  };
}

/** The note a run that exited 0 but reported failed tests starts its output with (run.ts): why it failed with exit code 0. */
export function reportedFailureNote(line: string): string {
  return `[exit code 0, but its output reports failed tests ("${line}"): not counted as passed]`;
}

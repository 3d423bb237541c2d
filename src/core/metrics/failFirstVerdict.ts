// A criterion's fail-first verdict (failFirstOf): its tests in the runs of DevA's test files alone on the unchanged
// workspace (checks/failFirst.ts), what DevA expected of them (a test of the change, a regression guard), and the
// contradiction in words when the two disagree; and whether its tests of the change failed there only because a name
// they use was missing, which shows they call the change, not yet that they check its behaviour. The rules are
// ./tsr.ts's header's.
import { isTestFile } from '../workspace/testFiles';
import { isFileTest, missingNamesOf, type BeforeStatus, type FileTest, type MissingName, type NamedTest, type TestStatus } from '../model/types';
import { sliceWhole } from '../text/cut';
import { failedCasesOf, testStatus, type CheckOutcome } from './testStatus';

/** The tests a criterion names in a file, which a run of DevA's test files alone can show: no check, no file for review. */
function inFileTests(tests: readonly NamedTest[]): FileTest[] {
  return tests.filter(isFileTest);
}

/**
 * The tests fail-first runs on the unchanged code: those in a test file (checks/failFirst.ts applies test files
 * alone). A test DevA names in a source file — a Rust unit test in `src/lib.rs`'s `mod tests`, a doc test — is not
 * there without the change, so a run that passes there says nothing of it ("passed too" would be wrong).
 */
function appliedTests(tests: readonly NamedTest[]): FileTest[] {
  return inFileTests(tests).filter((t) => isTestFile(t.file));
}

/**
 * When a criterion's fail-first verdict contradicts what DevA expected of its tests: a test meant to fail on the
 * unchanged code passed there (it may not test the change), or every test meant as a regression guard failed there
 * (the change alters what it guards, or the test needs the change). Null when they agree or nothing was expected.
 */
export function failFirstSurprise(tests: readonly NamedTest[], before: BeforeStatus): string | null {
  const inFiles = appliedTests(tests);
  if (before === 'pass' && inFiles.some((t) => t.expect === 'fail')) return 'DevA meant it to fail there: it may not test the change';
  if (before === 'fail' && inFiles.length && inFiles.every((t) => t.expect === 'pass')) return 'DevA meant it as a regression guard: it fails without the change';
  return null;
}

/**
 * How a regression guard fared on the unchanged workspace: a run that stopped before it, a file that did not build and
 * a run that failed as a whole naming no test case (one program's exit code: testStatus's `caseless`; a parson trial
 * read every guard beside the tests of the change as "fails without the change") tell nothing of it.
 */
function guardStatus(test: FileTest, exists: (rel: string) => boolean, before: CheckOutcome[]): TestStatus {
  return testStatus(test, exists(test.file), before, 'no_test', 'no_test', 'no_test');
}

/**
 * The tests that decide a criterion's fail-first verdict, each with how it fared there (failFirstStatus); null when it
 * names no test in a file or nothing ran.
 */
function decidingTests(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): { test: FileTest; status: TestStatus | 'unbuilt' }[] | null {
  const inFiles = appliedTests(tests);
  if (!inFiles.length || !before.length) return null;
  const change = inFiles.filter((t) => t.expect !== 'pass');
  // a guard whose file did not build there tells nothing; a test of the change did not build without it (testStatus's `unbuilt`)
  return (change.length ? change : inFiles).map((test) => ({
    test,
    status: test.expect === 'pass' ? guardStatus(test, exists, before) : testStatus(test, exists(test.file), before, 'no_test', 'unbuilt'),
  }));
}

/**
 * The names a criterion's deciding tests (decidingTests) were missing there, when each of them failed and every case
 * of theirs that failed said only that a name was missing (TestCaseResult.missing: checks/failureMessages.ts); null
 * otherwise — a failure whose message was not read, or said something else, leaves `fail` said as it was.
 */
function missingOnly(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): MissingName[] | null {
  const deciding = decidingTests(tests, exists, before);
  if (!deciding?.length || deciding.some((d) => d.status !== 'fail')) return null;
  const names = new Map<string, MissingName>();
  for (const { test } of deciding) {
    const failed = failedCasesOf(test, before);
    if (!failed?.length) return null;
    for (const c of failed) {
      // a stored run's case is read as its shape allows
      const [m] = missingNamesOf([c.missing]);
      if (!m) return null;
      names.set(`${m.error} ${m.name}`, m);
    }
  }
  return [...names.values()];
}

/**
 * A criterion's tests in the fail-first runs (see the header): `fail` when every test it names in a file failed
 * there, `unbuilt` when none of them ran as their file did not build or load there (and `fail` when some of them ran
 * and failed beside those), `pass` when one passed there, `no_test` otherwise; null when it names no test in a file or
 * nothing ran. When DevA marked some of them as regression guards (`expect: "pass"`) and others not, the others
 * decide: a guard passing there is what it is for, and says nothing of whether the change is tested.
 */
export function failFirstStatus(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): BeforeStatus | null {
  const deciding = decidingTests(tests, exists, before);
  if (!deciding) return null;
  const each = deciding.map((d) => d.status);
  if (each.includes('pass')) return 'pass';
  if (!each.every((s) => s === 'fail' || s === 'unbuilt')) return 'no_test';
  return each.includes('fail') ? 'fail' : 'unbuilt';
}

/** A criterion's fail-first verdict and what DevA expected of its tests, in words, where it bears on the verdict. */
export interface FailFirst {
  before: BeforeStatus;
  /** A contradiction: failFirstSurprise, or a guard beside tests of the change failing there. */
  surprise?: string;
  /** Every test it names in a file is a regression guard (DevA's `expect: "pass"`): passing there is what they are for. */
  guard?: true;
  /** `unbuilt` beside regression guards whose file built and ran there: `fail` when one of them failed, else `pass`. */
  guardsRan?: 'pass' | 'fail';
  /** `fail` only because names its tests use were missing there (missingOnly): those names. */
  missing?: MissingName[];
}

/** Longer than this, a guard's name in a fail-first note is cut. */
const GUARD_NAME_CHARS = 80;

/**
 * failFirstStatus with failFirstSurprise, and the regression guards beside the tests of the change checked too: one
 * failing there is named; where the tests of the change did not build (`unbuilt`) and the guards' file built and ran
 * (a cargo test run once per target), how they fared (FailFirst.guardsRan), as "unbuilt" alone read as if no test ran.
 */
export function failFirstOf(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): FailFirst | null {
  const status = failFirstStatus(tests, exists, before);
  if (!status) return null;
  const inFiles = appliedTests(tests);
  const guards = inFiles.filter((t) => t.expect === 'pass');
  const beside = guards.length < inFiles.length ? guards.map((t) => ({ t, status: guardStatus(t, exists, before) })) : [];
  const failed = beside.filter((g) => g.status === 'fail').map((g) => g.t);
  let surprise = failFirstSurprise(tests, status);
  // a guard DevA gave no name for goes by its file
  const name = ({ name = '', file }: FileTest) => (name.length > GUARD_NAME_CHARS ? `${sliceWhole(name, 0, GUARD_NAME_CHARS - 1)}…` : name || file);
  if (!surprise && failed.length) surprise = `DevA meant ${failed.map(name).join(', ')} as a regression guard: ${failed.length > 1 ? 'they fail' : 'it fails'} without the change`;
  // how the guards fared beside tests of the change that did not build; beside ones that failed, when all passed
  const ran = status === 'unbuilt' && beside.some((g) => g.status === 'pass' || g.status === 'fail');
  const passedBeside = status === 'fail' && beside.length > 0 && beside.every((g) => g.status === 'pass');
  const missing = status === 'fail' ? missingOnly(tests, exists, before) : null;
  return {
    before: status,
    ...(surprise ? { surprise } : {}),
    ...(guards.length === inFiles.length ? { guard: true as const } : {}),
    ...(ran ? { guardsRan: failed.length ? ('fail' as const) : ('pass' as const) } : passedBeside ? { guardsRan: 'pass' as const } : {}),
    ...(missing ? { missing } : {}),
  };
}

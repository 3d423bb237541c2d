// Whether one test DevA named passed in a set of check runs (testStatus): the per-test verdict that TSR (./tsr.ts)
// and fail-first (./failFirstVerdict.ts) both read — the test cases a runner recognised first, then what the run's
// output says of the test's file (named, passed as a whole, not built), each run's facts read once however many
// tests ask. Plain Node; the rules are ./tsr.ts's header's.
import * as path from 'path';
import type { CheckRun } from '../checks/types';
import { runPassedFiles } from '../checks/testCases';
import { testsRan } from '../checks/testSummary';
import { runUnbuiltCargoTests, runUnbuiltGoFolders, runUnbuiltTestFiles } from '../checks/buildFailures';
import { cargoTargetOf, ranTargetFile, sameCargoTarget, type CargoTarget } from '../checks/cargoTargetMatch';
import { casesOfTest, namesTestFile } from '../checks/testNames';
import { programsOf } from '../checks/ctestPrograms';
import { isStaticCheck } from '../checks/commands';
import { reachesFile } from '../checks/runFolder';
import { escapeRegExp } from '../text/regexp';
import type { CheckTest, FileTest, NamedTest, TestStatus } from '../model/types';
import type { TestCaseResult } from '../checks/types';

/** One check command's last run (a CheckRun of src/core/checks/; only these fields are read here). */
export type CheckOutcome = Pick<CheckRun, 'command' | 'passed' | 'output' | 'tests' | 'onlyFailuresNamed' | 'testSummary' | 'passedTestFiles' | 'unbuiltGoFolders' | 'unbuiltCargoTests' | 'unbuiltTestFiles' | 'byTarget' | 'ctestPrograms' | 'testsNotReached' | 'unbuilt' | 'failedAsBefore'>;

/** A check command as compared: trimmed, inner whitespace single, backticks DevA may wrap it in left out. */
export function commandKey(command: string): string {
  return command.replace(/`/g, '').trim().replace(/\s+/g, ' ');
}

/** A run of the characters a path in a check's output is written with. */
const PATH_RUN = /[\w@./-]+/g;
/** A position after a path: `:12`, `(3,1)`, `:[5,52]` (javac). */
const POSITION_AFTER = /:\d+|\(\d+,\d+\)|:\[\d+,\d+\]/y;

/**
 * Whether a check's output names a file: `src/a.ts:12`, `(src/a.ts,3,1)`, `Calc.java:[5,52]` (a path with an extension
 * and a position after it), or `test/x.test.ts` (a path with the word test or tests, then an extension). Read run of
 * path characters by run, each once: one regex for both tried every start inside a long run (a 6,000-character
 * output, what a run keeps, took 67 ms a test).
 */
function namesAFile(output: string): boolean {
  for (const m of output.matchAll(PATH_RUN)) {
    const run = m[0];
    if (/.\.[a-z]{1,5}$/i.test(run)) {
      POSITION_AFTER.lastIndex = m.index + run.length;
      if (POSITION_AFTER.test(output)) return true;
    }
    const word = /\btests?\b/i.exec(run);
    if (word && /\.[a-z]{1,5}\b/i.test(run.slice(word.index + word[0].length))) return true;
  }
  return false;
}

/**
 * Whether a run's output names the test: its file (checks/testNames.ts namesTestFile), or its name (4 characters or
 * more) as whole words (`parse` is not named by `parses csv`). Case-insensitive; the name is an escaped literal
 * between one-character lookarounds: no quantifier, so nothing to backtrack over (the output is up to 1 MB).
 */
function mentions(output: string, test: FileTest): boolean {
  return namesTestFile(output, test.file) || namesTest(output, test);
}

/** Whether the output names the test itself (a name of 4 characters or more, as a whole word). */
function namesTest(output: string, { name = '' }: FileTest): boolean {
  return name.length >= 4 && new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, 'iu').test(output);
}

/**
 * What a failing run's output says of all its tests, read once per run however many tests are asked about (a run
 * recorded before these were read from its whole output has them read from its kept output): whether tests ran
 * (testsRan: its testSummary), which Go packages did not build (runUnbuiltGoFolders: its unbuiltGoFolders), which
 * test files passed as a whole (runPassedFiles: its passedTestFiles) and whether its kept output names a file
 * (namesAFile).
 */
const runFacts = new WeakMap<CheckOutcome, RunFacts>();
interface RunFacts {
  ran?: boolean;
  unbuiltGo?: ReadonlySet<string>;
  unbuiltCargo?: readonly CargoTarget[];
  unloaded?: ReadonlySet<string>;
  passedFiles?: ReadonlySet<string>;
  namesFile?: boolean;
}
function factsOf(c: CheckOutcome): RunFacts {
  let f = runFacts.get(c);
  if (!f) runFacts.set(c, (f = {}));
  return f;
}
const ranTests = (c: CheckOutcome): boolean => (factsOf(c).ran ??= testsRan(c));

/**
 * A Go test whose package did not build (the compiler named another of its files), or a Rust test whose integration-test
 * target cargo could not compile (fail-first's runs per target: checks/cargoTargets.ts) — that target of its own crate,
 * not another workspace member's of the same name: it did not run.
 */
function inUnbuiltPart(c: CheckOutcome, test: FileTest): boolean {
  const target = cargoTargetOf(test.file);
  if (target !== null) return (factsOf(c).unbuiltCargo ??= runUnbuiltCargoTests(c)).some((u) => sameCargoTarget(u, target));
  if (!test.file.endsWith('.go')) return false;
  const dir = path.posix.dirname(test.file.replace(/^\.\//, ''));
  return (factsOf(c).unbuiltGo ??= runUnbuiltGoFolders(c)).has(dir === '.' ? '' : dir);
}

/**
 * Whether a run may have run the tests of `file`: a run in a sub-project's folder runs none of the tests outside it
 * (checks/runFolder.ts), nor does a cargo test run once per target the tests of another target, or of another crate's
 * target of that name.
 */
function runsFile(c: CheckOutcome, file: string): boolean {
  return reachesFile(c.command, file) && (!c.byTarget || ranTargetFile(c.byTarget, file));
}

/**
 * The cases of a named test that failed in the runs that may have run it (the cases testStatus decides by first), for
 * what their messages said (TestCaseResult.missing); null when a run that failed names none of its cases, as its
 * verdict there was read from the output instead.
 */
export function failedCasesOf(test: FileTest, checks: readonly CheckOutcome[]): TestCaseResult[] | null {
  const failed: TestCaseResult[] = [];
  for (const c of checks) {
    if (!runsFile(c, test.file)) continue;
    const cases = casesOfTest(c.tests ?? [], test.name ?? '');
    if (!c.passed && !cases.length) return null;
    failed.push(...cases.filter((t) => !t.passed));
  }
  return failed;
}

/**
 * What CTest said of the program a C or C++ test file builds (checks/ctestPrograms.ts programsOf: named after the
 * file, or as the project's CMake files say), in a run that failed: it passed as a whole, failed, or could not run
 * (`***Not Run`: it was not built); undefined when the run named no such program.
 */
function programVerdict(c: CheckOutcome, file: string): 'passed' | 'failed' | 'unbuilt' | undefined {
  const programs = c.passed ? [] : programsOf(c.ctestPrograms, file);
  if (!programs.length) return undefined;
  if (programs.some((p) => c.ctestPrograms?.notRun.includes(p))) return 'unbuilt';
  const named = (c.tests ?? []).filter((t) => programs.includes(t.name));
  if (!named.length) return undefined;
  return named.every((t) => t.passed) ? 'passed' : 'failed';
}

/** A test in a JavaScript test file its runner reported did not load (checks/buildFailures.ts): it did not run. */
function inUnloadedFile(c: CheckOutcome, test: FileTest): boolean {
  return (factsOf(c).unloaded ??= runUnbuiltTestFiles(c)).has(test.file.replace(/^\.\//, ''));
}

/**
 * Whether a criterion's named test passed in the checks' last round (see the header). `notRun`: the verdict when a
 * test runner failed before any test ran (on the proposal a failure, as one that names nothing; fail-first says it
 * could not tell). A test that no run named, where a run failed before it reached any test (CheckRun.testsNotReached)
 * and names nothing of it, was not run (`not_run`; fail-first reads that as could not tell). `unbuilt`: the verdict
 * when the output names the test's file but no test ran (its file, or its Go package, did not build or load), or its
 * runner reported its JavaScript test file did not load though other files' tests ran: a failure
 * by default; for a regression guard beside a test of the change in that file, fail-first says it could not tell (a
 * Rust trial: tests added to an existing test file stop the whole file building). `'unbuilt'` there says so of a test
 * of the change, which needs what the change adds, where the run's output shows the build failure (CheckRun.unbuilt,
 * as the run is told: checks/verdict.ts beforeFailureSaying); a failure otherwise. `caseless`: the verdict when a run
 * failed naming no test case at all, nor this test by its name — one test program's one exit code (a C project's
 * `make test`): a failure on the proposal, as a failure that names nothing; for fail-first's regression guard it tells
 * nothing (a parson trial read every guard beside the tests of the change as "fails without the change").
 */
export function testStatus<U extends TestStatus | 'unbuilt' = TestStatus>(
  test: FileTest | CheckTest | null,
  exists: boolean,
  checks: CheckOutcome[],
  notRun: TestStatus = 'fail',
  unbuilt: TestStatus | U = 'fail',
  caseless: TestStatus = 'fail',
): TestStatus | U {
  if (test && 'check' in test) {
    const runs = checks.filter((c) => commandKey(c.command) === test.check);
    if (runs.length === 0) return 'no_test';
    if (runs.every((c) => c.passed)) return 'pass';
    if (runs.every((c) => c.passed || c.testsNotReached)) return 'not_run';
    // failing only as on the unchanged workspace: nothing the check ran failed anew, which is what it proves as a whole
    return runs.every((c) => c.passed || c.failedAsBefore) ? 'pass' : 'fail';
  }
  if (!test || !exists) return 'no_test';
  // whether some run shows the test ran: it named the test (`named`), or a command that runs tests passed or failed
  // elsewhere (a linter's or type checker's run proves no test); and whether a run that reached no test left it out
  let ran = false;
  let named = false;
  let notReached = false;
  for (const c of checks) {
    if (!runsFile(c, test.file)) continue;
    // its file did not load: none of its tests ran, whatever a case of the same name in another file did
    if (!c.passed && inUnloadedFile(c, test)) return unbuilt !== 'unbuilt' || c.unbuilt ? unbuilt : 'fail';
    // The test cases the check runner recognised in the output decide first.
    const cases = casesOfTest(c.tests ?? [], test.name ?? '');
    if (cases.length) {
      if (cases.some((t) => !t.passed)) return 'fail';
      named = true;
      continue;
    }
    // its program, as CTest named it, where no case of it was named (CTest's `--output-on-failure` shows a passing
    // program's cases to no one): passed as a whole, failed, or not built — a fail-first run that kept going past
    // another program that did not build (checks/ctestPrograms.ts) ran it
    const program = programVerdict(c, test.file);
    if (program === 'passed') {
      named = true;
      continue;
    }
    if (program === 'unbuilt') return unbuilt !== 'unbuilt' || c.unbuilt ? unbuilt : 'fail';
    if (program === 'failed') return 'fail';
    // a runner that names only its failing cases (pytest's summary, go test without -v) named others, not this one:
    // it ran and did not fail, though its file is named (pytest's progress line names every test file) — unless its
    // Go package did not build (the failing cases named are another package's)
    if (c.onlyFailuresNamed && !isStaticCheck(c.command) && (c.passed || !inUnbuiltPart(c, test))) {
      ran = true;
      continue;
    }
    // its file passed as a whole (jest's `PASS file`, vitest's `✓ file (3 tests)`): the output names the file, not
    // this test, and the run failed elsewhere
    if ((factsOf(c).passedFiles ??= runPassedFiles(c)).has(test.file.replace(/^\.\//, ''))) {
      named = true;
      continue;
    }
    // a run that failed before it reached its tests (checks/notReached.ts) and names nothing of this one: not run
    if (c.testsNotReached && !mentions(c.output, test)) {
      notReached = true;
      continue;
    }
    if (!c.passed && (!(factsOf(c).namesFile ??= namesAFile(c.output)) || mentions(c.output, test))) {
      const didNotRun = unbuilt !== 'fail' && (inUnbuiltPart(c, test) || (!isStaticCheck(c.command) && !ranTests(c)));
      if (didNotRun && (unbuilt !== 'unbuilt' || c.unbuilt)) return unbuilt;
      // a run that named no test case, nor this test: its failure is the whole run's (one test program, one exit code)
      if (caseless !== 'fail' && !c.tests?.length && !namesTest(c.output, test)) return caseless;
      return 'fail';
    }
    if (!c.passed && inUnbuiltPart(c, test)) return notRun;
    if (!isStaticCheck(c.command)) {
      // failed elsewhere before any test ran (a test module that does not load stops mocha, pytest and RSpec): this
      // test did not run either
      if (!c.passed && !ranTests(c)) return notRun;
      // passed, or failed elsewhere: a test runner ran the suite
      ran = true;
    }
  }
  // a test no run named, beside a run that reached no test: that run, which had it to run, did not
  return named ? 'pass' : notReached ? 'not_run' : ran ? 'pass' : 'no_test';
}

/** What a criterion proved by a whole check passed on, when its command failed only as on the unchanged workspace. */
export const AS_BEFORE_TEXT = 'its command failed only as it did on the unchanged workspace: nothing it ran failed anew';

/** Whether one of `named` is a whole check whose last run failed only as before (CheckRun.failedAsBefore). */
export function provedAsBefore(named: readonly NamedTest[], checks: readonly CheckOutcome[]): boolean {
  return named.some((t) => 'check' in t && checks.some((c) => c.failedAsBefore && commandKey(c.command) === commandKey(t.check)));
}

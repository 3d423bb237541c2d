// TSR, the CAPE paper's Task Success Rate (acceptance criteria fulfilled ÷ criteria), computed in code — never by
// the model. Two figures, both from the session's own records:
//  - computed (`tsr`), when the project's checks ran on DevA's proposal: a criterion is fulfilled when DevA named
//    tests for it (`criteria_tests` in its output; every one it named, as a criterion often needs several cases), each
//    test's file exists (proposed or in the workspace), and in each command's last run: the test cases the check
//    runner recognised under that name passed, or — none recognised — the command passed, its runner names only
//    failing cases and named others (pytest's summary), or its failure is blamed elsewhere (its output names some
//    file, but neither the test's file nor the test's name, and shows that tests ran: checks/testCases.ts testsRan).
//    A failure that names nothing counts against every criterion, and so does a test runner's failure before any
//    test ran (a test module that does not load stops the whole run of mocha, pytest and RSpec: one file named, no
//    test run) or a Go test's package that did not build (the compiler names another of its files). Some run must
//    show the test ran: one that named it, or a command that runs tests — a linter's or type checker's run alone
//    (checks/detect.ts isStaticCheck) leaves it no test. For a criterion the checks prove as a
//    whole ("the existing suite still passes"), DevA names the check command instead of a test (`{criterion, check:
//    "npm test"}`): it passed when that command's last run passed; a command that did not run is no test. For one
//    no test can prove (a changelog line, documentation), DevA names the file to review (`{criterion, review:
//    "CHANGES.md"}`): the retrospective reads its changed lines, and the computed TSR sees no test in it. A criterion
//    without a named test counts as not fulfilled; one whose tests disagree takes the worst (failed, then no test).
//  - before (fail-first, per criterion), when the checks also ran with only DevA's test files on the unchanged
//    workspace (checks/failFirst.ts): every test file it names failed there (`fail`: fail-first observed), one passed
//    there too (`pass`: the test does not show the change), or neither could be told (`no_test`; so is a test the
//    runner never reached, stopped by another test file that does not load without the change). Where DevA marked
//    some tests as regression guards and others not, the others decide, and a guard failing there is named. It is no
//    part of TSR, and a criterion proved by a whole check command has none.
//  - judged (`tsrJudged`), when the Cape Master's retrospective judged the criteria (`criteria`: met / not_met /
//    unknown with a reason): met ÷ criteria; a criterion CM did not judge counts as unknown (not met).
// The criteria are POA's acceptance criteria, found by id (`AC-1`, `AC_2`, `ac-3`) wherever POA put them in its
// output (an object of any shape, or markdown text).
import * as fs from 'fs';
import * as path from 'path';
import { checkFilePath } from '../files/pathSafety';
import type { CheckRun, ChecksOutcome } from '../checks/types';
import { passedTestFiles, testsRan, unbuiltGoFolders } from '../checks/testCases';
import { casesOfTest } from '../checks/testNames';
import { isStaticCheck } from '../checks/detect';
import { isTestFile } from '../workspace/rank';
import { beforeText, COMPUTED_TEXT, isPlainObject, testLabel, type CriterionJudgement, type CriterionResult, type NamedTest, type ProposedFile } from '../model/types';

export { testLabel, COMPUTED_TEXT, beforeText, type NamedTest };

export interface Criterion {
  id: string;
  /** Given / when / then (or the criterion's text), for people and for the retrospective. */
  text: string;
}

/** One check command's last run (a CheckRun of src/core/checks/; only these fields are read here). */
export type CheckOutcome = Pick<CheckRun, 'command' | 'passed' | 'output' | 'tests' | 'onlyFailuresNamed'>;

/** The last run of each command of a check loop: the verdict TSR is computed from. */
export function lastRuns(outcome: ChecksOutcome): CheckRun[] {
  return outcome.commands.flatMap((command) => {
    const runs = outcome.runs.filter((r) => r.command === command);
    return runs.length ? [runs[runs.length - 1]] : [];
  });
}

export type ComputedStatus = NonNullable<CriterionResult['computed']>;

export interface TsrResult {
  /** Fulfilled ÷ criteria from the checks; null when no check ran or there are no criteria. */
  tsr: number | null;
  /** Met ÷ criteria as CM judged; null when CM judged none or there are no criteria. */
  tsrJudged: number | null;
  criteria: CriterionResult[];
}

const AC_ID = /^\s*AC[-_ ]?(\d+)\s*$/i;

/** `AC-1` for `ac_1`, `AC 1`, `AC-01`; null for anything that is not a criterion id. */
export function criterionId(x: unknown): string | null {
  if (typeof x !== 'string') return null;
  const m = AC_ID.exec(x);
  return m ? `AC-${Number(m[1])}` : null;
}

function textOf(o: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of ['given', 'when', 'then']) if (typeof o[k] === 'string' && o[k]) parts.push(`${k[0].toUpperCase()}${k.slice(1)} ${o[k] as string}`);
  if (parts.length) return parts.join(', ');
  for (const k of ['criterion', 'text', 'description', 'statement', 'gherkin']) if (typeof o[k] === 'string') return o[k] as string;
  return '';
}

/** POA's acceptance criteria, in order, each id once. */
export function acceptanceCriteria(poaOutput: unknown): Criterion[] {
  const found = new Map<string, Criterion>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isPlainObject(v)) {
      const id = criterionId(v.id);
      if (id && !found.has(id)) found.set(id, { id, text: textOf(v) });
      for (const x of Object.values(v)) walk(x, depth + 1);
    } else if (typeof v === 'string' && depth === 0) {
      // A markdown output: a line that starts with (or lists) a criterion id. (Inside an object, a string that only
      // mentions an id — a priority list, a reference — is not a criterion.)
      for (const line of v.split(/\r?\n/)) {
        const m = /^\s*(?:[-*+]\s+|\d+[.)]\s+|#+\s+)?\**\s*(AC[-_ ]?\d+)\b\**[:.)\s\-–—]*(.*)$/i.exec(line);
        const id = m ? criterionId(m[1]) : null;
        if (id && !found.has(id)) found.set(id, { id, text: m![2].replace(/\*\*/g, '').trim() });
      }
    }
  };
  walk(poaOutput, 0);
  return [...found.values()];
}

/** Tests kept per criterion (DevA names a handful; a longer list is cut, in its order). */
export const MAX_TESTS_PER_CRITERION = 8;

/** DevA's `criteria_tests`: criterion id → the tests it named, in its order, each once. */
export function namedTests(devaOutput: unknown): Map<string, NamedTest[]> {
  const out = new Map<string, NamedTest[]>();
  const list = isPlainObject(devaOutput) ? devaOutput.criteria_tests : undefined;
  if (!Array.isArray(list)) return out;
  for (const e of list) {
    if (!isPlainObject(e)) continue;
    const id = criterionId(e.criterion ?? e.id);
    const file = pathOf(e.file);
    const check = !file && typeof e.check === 'string' && e.check.length <= MAX_CHECK_CHARS ? commandKey(e.check) : '';
    const review = !file && !check ? pathOf(e.review) : '';
    if (!id || (!file && !check && !review)) continue;
    const expect = file ? expectationOf(e.expect) : null;
    const test: NamedTest = check
      ? { file: '', name: '', check }
      : review
        ? { file: review, name: '', review: true }
        : { file, name: typeof e.test === 'string' ? e.test.trim() : '', ...(expect ? { expect } : {}) };
    const named = out.get(id) ?? [];
    if (named.length >= MAX_TESTS_PER_CRITERION || named.some((t) => t.file === test.file && t.name === test.name && t.check === test.check && t.review === test.review)) continue;
    named.push(test);
    out.set(id, named);
  }
  return out;
}

/** Longer than this, or over several lines, what DevA wrote is no path (it would only bloat tables and requests). */
const MAX_PATH_CHARS = 500;

/** A workspace-relative path DevA wrote: forward slashes, no leading `./`; '' when it gave none or no path. */
function pathOf(x: unknown): string {
  if (typeof x !== 'string') return '';
  const p = x.trim();
  return p.length > MAX_PATH_CHARS || /\p{Cc}/u.test(p) ? '' : p.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** The tests a criterion names in a file, which a run of DevA's test files alone can show: no check, no file for review. */
function inFileTests(tests: readonly NamedTest[]): NamedTest[] {
  return tests.filter((t) => !t.check && !t.review);
}

/**
 * The tests fail-first runs on the unchanged code: those in a test file (checks/failFirst.ts applies test files
 * alone). A test DevA names in a source file — a Rust unit test in `src/lib.rs`'s `mod tests`, a doc test — is not
 * there without the change, so a run that passes there says nothing of it ("passed too" would be wrong).
 */
function appliedTests(tests: readonly NamedTest[]): NamedTest[] {
  return inFileTests(tests).filter((t) => isTestFile(t.file));
}

/** DevA's `expect` for a test, tolerant of wording ("fail", "fail-first"; "pass", "regression guard"); null otherwise. */
function expectationOf(x: unknown): 'fail' | 'pass' | null {
  if (typeof x !== 'string') return null;
  const v = x.trim().toLowerCase();
  return /^(fail|fails|fail[-_ ]first|failing)$/.test(v) ? 'fail' : /^(pass|passes|passing|guard|regression|regression[-_ ]guard)$/.test(v) ? 'pass' : null;
}

/**
 * When a criterion's fail-first verdict contradicts what DevA expected of its tests: a test meant to fail on the
 * unchanged code passed there (it may not test the change), or every test meant as a regression guard failed there
 * (the change alters what it guards, or the test needs the change). Null when they agree or nothing was expected.
 */
export function failFirstSurprise(tests: readonly NamedTest[], before: ComputedStatus): string | null {
  const inFiles = appliedTests(tests);
  if (before === 'pass' && inFiles.some((t) => t.expect === 'fail')) return 'DevA meant it to fail there: it may not test the change';
  if (before === 'fail' && inFiles.length && inFiles.every((t) => t.expect === 'pass')) return 'DevA meant it as a regression guard: it fails without the change';
  return null;
}

/** Longer than this, a `check` DevA names is no command the project runs: it is left out (it would only bloat tables). */
const MAX_CHECK_CHARS = 500;

/** A check command as compared: trimmed, inner whitespace single, backticks DevA may wrap it in left out. */
function commandKey(command: string): string {
  return command.replace(/`/g, '').trim().replace(/\s+/g, ' ');
}

/** CM's judgements as the envelope parser keeps them: `criteria: [{id, status, reason}]`, tolerant of wording. */
export function judgementsOf(x: unknown): CriterionJudgement[] {
  if (!Array.isArray(x)) return [];
  const out: CriterionJudgement[] = [];
  for (const e of x) {
    if (!isPlainObject(e)) continue;
    const id = criterionId(e.id ?? e.criterion);
    const raw = typeof e.status === 'string' ? e.status.trim().toLowerCase().replace(/[\s-]+/g, '_') : typeof e.met === 'boolean' ? (e.met ? 'met' : 'not_met') : '';
    const status: CriterionJudgement['status'] | null =
      raw === 'met' || raw === 'yes' || raw === 'pass' ? 'met' : raw === 'not_met' || raw === 'unmet' || raw === 'no' || raw === 'fail' ? 'not_met' : raw === 'unknown' ? 'unknown' : null;
    if (!id || !status) continue;
    out.push({ id, status, reason: typeof e.reason === 'string' ? e.reason.trim() : '' });
  }
  return out;
}

/** A file named in a check's output: `src/a.ts:12`, `test/x.test.ts`, `(src/a.ts,3,1)`, `Calc.java:[5,52]` (javac). */
const FILE_MENTION = /[\w@./-]+\.[a-z]{1,5}(?::\d+|\(\d+,\d+\)|:\[\d+,\d+\])|[\w@./-]*\btests?\b[\w@./-]*\.[a-z]{1,5}\b/i;

function mentions(output: string, test: NamedTest): boolean {
  const lower = output.toLowerCase();
  const base = path.posix.basename(test.file).toLowerCase();
  return (base !== '' && lower.includes(base)) || (test.name.length >= 4 && lower.includes(test.name.toLowerCase()));
}

/**
 * What a failing run's output says of all its tests, read once per run however many tests are asked about (the
 * output is up to 1 MB): whether tests ran (testsRan) and which Go packages did not build (unbuiltGoFolders).
 */
const runFacts = new WeakMap<CheckOutcome, RunFacts>();
interface RunFacts {
  ran?: boolean;
  unbuiltGo?: ReadonlySet<string>;
  passedFiles?: ReadonlySet<string>;
}
function factsOf(c: CheckOutcome): RunFacts {
  let f = runFacts.get(c);
  if (!f) runFacts.set(c, (f = {}));
  return f;
}
const ranTests = (c: CheckOutcome): boolean => (factsOf(c).ran ??= testsRan(c.output, c.tests));

/** A Go test whose package did not build (the compiler named another of its files): it did not run. */
function inUnbuiltGoPackage(c: CheckOutcome, test: NamedTest): boolean {
  if (!test.file.endsWith('.go')) return false;
  const dir = path.posix.dirname(test.file.replace(/^\.\//, ''));
  return (factsOf(c).unbuiltGo ??= unbuiltGoFolders(c.output)).has(dir === '.' ? '' : dir);
}

/**
 * Whether a criterion's named test passed in the checks' last round (see the header). `notRun`: the verdict when a
 * test runner failed before any test ran (on the proposal a failure, as one that names nothing; fail-first says it
 * could not tell). `unbuilt`: the verdict when the output names the test's file but no test ran (its file, or its Go
 * package, did not build or load): a failure by default — a test of the change that calls what the change adds does
 * not build without it, which is its failure there; for a regression guard beside it in that file, fail-first says
 * it could not tell (a Rust trial: tests added to an existing test file stop the whole file building).
 */
export function testStatus(test: NamedTest | null, exists: boolean, checks: CheckOutcome[], notRun: ComputedStatus = 'fail', unbuilt: ComputedStatus = 'fail'): ComputedStatus {
  if (test?.check) {
    const runs = checks.filter((c) => commandKey(c.command) === test.check);
    return runs.length === 0 ? 'no_test' : runs.every((c) => c.passed) ? 'pass' : 'fail';
  }
  if (!test || !exists) return 'no_test';
  // whether some run shows the test ran: it named the test, or a command that runs tests passed or failed elsewhere (a
  // linter's or type checker's run proves no test)
  let ran = false;
  for (const c of checks) {
    // The test cases the check runner recognised in the output decide first.
    const cases = casesOfTest(c.tests ?? [], test.name);
    if (cases.length) {
      if (cases.some((t) => !t.passed)) return 'fail';
      ran = true;
      continue;
    }
    // a runner that names only its failing cases (pytest's summary, go test without -v) named others, not this one:
    // it ran and did not fail, though its file is named (pytest's progress line names every test file)
    if (c.onlyFailuresNamed && !isStaticCheck(c.command)) {
      ran = true;
      continue;
    }
    // its file passed as a whole (jest's `PASS file`, vitest's `✓ file (3 tests)`): the output names the file, not
    // this test, and the run failed elsewhere
    if ((factsOf(c).passedFiles ??= passedTestFiles(c.output)).has(test.file.replace(/^\.\//, ''))) {
      ran = true;
      continue;
    }
    if (!c.passed && (!FILE_MENTION.test(c.output) || mentions(c.output, test))) {
      if (unbuilt !== 'fail' && (inUnbuiltGoPackage(c, test) || (!isStaticCheck(c.command) && !ranTests(c)))) return unbuilt;
      return 'fail';
    }
    if (!c.passed && inUnbuiltGoPackage(c, test)) return notRun;
    if (!isStaticCheck(c.command)) {
      // failed elsewhere before any test ran (a test module that does not load stops mocha, pytest and RSpec): this
      // test did not run either
      if (!c.passed && !ranTests(c)) return notRun;
      // passed, or failed elsewhere: a test runner ran the suite
      ran = true;
    }
  }
  return ran ? 'pass' : 'no_test';
}

export interface TsrInput {
  poaOutput: unknown;
  devaOutput: unknown;
  /** CM's judgements (the retrospective envelope's `criteria`). */
  judgements?: CriterionJudgement[];
  /** The checks' last round, or null when no check ran. */
  checks: CheckOutcome[] | null;
  /** The fail-first runs (DevA's test files alone on the unchanged workspace), when they ran. */
  before?: CheckOutcome[] | null;
  /** Whether a workspace-relative file exists (proposed by DevA, or in the workspace). */
  fileExists: (rel: string) => boolean;
}

/** The worst of a criterion's tests: failed, then no test (none named, or a file that does not exist), then passed. */
export function criterionStatus(named: readonly NamedTest[], exists: (rel: string) => boolean, checks: CheckOutcome[]): ComputedStatus {
  // a file for review is read, not run
  const tests = named.filter((t) => !t.review);
  if (!tests.length) return 'no_test';
  const each = tests.map((t) => testStatus(t, !!t.check || exists(t.file), checks));
  return each.includes('fail') ? 'fail' : each.includes('no_test') ? 'no_test' : 'pass';
}

/**
 * A criterion's tests in the fail-first runs (see the header): `fail` when every test it names in a file failed
 * there, `pass` when one passed there, `no_test` otherwise; null when it names no test in a file or nothing ran. When
 * DevA marked some of them as regression guards (`expect: "pass"`) and others not, the others decide: a guard passing
 * there is what it is for, and says nothing of whether the change is tested.
 */
export function failFirstStatus(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): ComputedStatus | null {
  const inFiles = appliedTests(tests);
  if (!inFiles.length || !before.length) return null;
  const change = inFiles.filter((t) => t.expect !== 'pass');
  // a guard whose file did not build there tells nothing (testStatus's `unbuilt`)
  const each = (change.length ? change : inFiles).map((t) => testStatus(t, exists(t.file), before, 'no_test', t.expect === 'pass' ? 'no_test' : 'fail'));
  return each.includes('pass') ? 'pass' : each.every((s) => s === 'fail') ? 'fail' : 'no_test';
}

/** A criterion's fail-first verdict and what DevA expected of its tests, in words, where it bears on the verdict. */
export interface FailFirst {
  before: ComputedStatus;
  /** A contradiction: failFirstSurprise, or a guard beside tests of the change failing there. */
  surprise?: string;
  /** Every test it names in a file is a regression guard (DevA's `expect: "pass"`): passing there is what they are for. */
  guard?: true;
}

/** Longer than this, a guard's name in a fail-first note is cut. */
const GUARD_NAME_CHARS = 80;

/** failFirstStatus with failFirstSurprise, and the regression guards beside the tests of the change checked too. */
export function failFirstOf(tests: readonly NamedTest[], exists: (rel: string) => boolean, before: CheckOutcome[]): FailFirst | null {
  const status = failFirstStatus(tests, exists, before);
  if (!status) return null;
  const inFiles = appliedTests(tests);
  const guards = inFiles.filter((t) => t.expect === 'pass');
  let surprise = failFirstSurprise(tests, status);
  if (!surprise && guards.length && guards.length < inFiles.length) {
    const failed = guards.filter((t) => testStatus(t, exists(t.file), before, 'no_test', 'no_test') === 'fail');
    const name = (t: NamedTest) => (t.name.length > GUARD_NAME_CHARS ? `${t.name.slice(0, GUARD_NAME_CHARS - 1)}…` : t.name);
    if (failed.length) surprise = `DevA meant ${failed.map(name).join(', ')} as a regression guard: ${failed.length > 1 ? 'they fail' : 'it fails'} without the change`;
  }
  return { before: status, ...(surprise ? { surprise } : {}), ...(guards.length === inFiles.length ? { guard: true as const } : {}) };
}

export function computeTsr(input: TsrInput): TsrResult {
  const criteria = acceptanceCriteria(input.poaOutput);
  const tests = namedTests(input.devaOutput);
  const judged = new Map((input.judgements ?? []).map((j) => [j.id, j]));
  const withBefore = (named: NamedTest[]) => (input.before ? (failFirstOf(named, input.fileExists, input.before) ?? {}) : {});
  const results: CriterionResult[] = criteria.map((c) => {
    const named = tests.get(c.id) ?? [];
    const j = judged.get(c.id);
    return {
      id: c.id,
      text: c.text,
      tests: named,
      ...(input.checks ? { computed: criterionStatus(named, input.fileExists, input.checks) } : {}),
      ...withBefore(named),
      ...(j ? { judged: j.status, reason: j.reason } : {}),
    };
  });
  const n = results.length;
  const tsr = n && input.checks ? results.filter((r) => r.computed === 'pass').length / n : null;
  const tsrJudged = n && results.some((r) => r.judged) ? results.filter((r) => r.judged === 'met').length / n : null;
  return { tsr, tsrJudged, criteria: results };
}

/** Whether a path DevA named is one of its proposed files (not refused) or an existing file of the workspace. */
export function proposedOrInWorkspace(workspace: string, files: readonly ProposedFile[]): (rel: string) => boolean {
  return (rel) => files.some((f) => f.status !== 'refused' && (f.relPath ?? f.path) === rel) || existsInWorkspace(workspace, rel);
}

/** Whether `rel` (a path DevA wrote) names an existing file inside `workspace`, by the one path rule (files/pathSafety). */
export function existsInWorkspace(workspace: string, rel: string): boolean {
  const check = checkFilePath(workspace, rel);
  if (!check.ok) return false;
  try {
    return fs.statSync(check.absPath).isFile();
  } catch {
    return false;
  }
}

/** `67% (2 of 3)`, or — */
export function formatTsr(rate: number | null, criteria: CriterionResult[], count: (r: CriterionResult) => boolean): string {
  if (rate === null) return '—';
  return `${Math.round(rate * 100)}% (${criteria.filter(count).length} of ${criteria.length})`;
}

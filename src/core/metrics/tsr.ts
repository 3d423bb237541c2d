// TSR, the CAPE paper's Task Success Rate (acceptance criteria fulfilled ÷ criteria), computed in code — never by
// the model. Two figures, both from the session's own records:
//  - computed (`tsr`), when the project's checks ran on DevA's proposal: fulfilled ÷ the criteria a test can prove
//    (all but those left to review or not run, below; null when none is left). A criterion is fulfilled when DevA named
//    tests for it (`criteria_tests` in its output; every one it named, as a criterion often needs several cases), each
//    test's file exists (proposed or in the workspace), and in each command's last run: the test cases the check
//    runner recognised under that name passed, or — none recognised — the command passed, its runner names only
//    failing cases and named others (pytest's summary), or its failure is blamed elsewhere (its output names some
//    file, but neither the test's file nor the test's name, and shows that tests ran: checks/testSummary.ts testsRan).
//    A failure that names nothing counts against every criterion (unless no test ran there nor on the unchanged
//    workspace: `not_run`, below), and so does a test runner's failure before any
//    test ran (a test module that does not load stops the whole run of mocha, pytest and RSpec: one file named, no
//    test run) or a Go test's package that did not build (the compiler names another of its files). Some run must
//    show the test ran: one that named it, or a command that runs tests — a linter's or type checker's run alone
//    (checks/detect.ts isStaticCheck) leaves it no test. For a criterion the checks prove as a
//    whole ("the existing suite still passes"), DevA names the check command instead of a test (`{criterion, check:
//    "npm test"}`): it passed when that command's last run passed, or failed only as it failed on the unchanged workspace
//    (every failing test case or problem already there: nothing it ran failed anew — a trial on h3, whose suite failed
//    on three environment-bound tests before any change, counted "the rest behaves as today" failed); a command that
//    did not run is no test. For one
//    no test can prove (a changelog line, documentation), DevA names the file to review (`{criterion, review:
//    "CHANGES.md"}`): the retrospective reads its changed lines. A criterion DevA named only such files for, each
//    existing (proposed or in the workspace), is left to review (`review`): out of the computed TSR's count, and said
//    so wherever it is shown (model/metrics.ts tsrCounts, formatTsr). Beside a test, a file for review changes
//    nothing: the tests decide. A criterion without a named test counts as not fulfilled (`no_test`), and so does one
//    with a file for review that exists nowhere. A test command that failed before it ran any test, as it did on the
//    unchanged workspace (a tool missing, a package manager refusing to start, a watcher killed at the time limit on
//    both: checks/notReached.ts, read by ./checkRuns.ts lastRuns), tested nothing: a test no run named, and that run's output does not name, was not run
//    (`not_run`), and so was a check named whole whose runs all failed so; such a criterion is out of the computed
//    TSR's count like one left to review, and said so. One whose tests disagree takes the worst (failed, then no test,
//    then not run).
//  - before (fail-first, per criterion), when the checks also ran with only DevA's test files on the unchanged
//    workspace (checks/failFirst.ts): every test file it names failed there (`fail`: fail-first observed), none ran as
//    its file did not build or load without the change (`unbuilt`, where the run's output shows it: observed too, but
//    no test failed for its own reason), one passed there too (`pass`: the test does not show the change), or none
//    could be told (`no_test`; so is a test the runner never reached, stopped by another test file that does not load
//    without the change, or by a command that failed before it ran DevA's tests: checks/notReached.ts). Where DevA
//    marked some tests as regression guards and others not, the others decide, and a guard failing there is named;
//    tests of the change that did not build beside guards whose file built and ran there (a cargo test run once per
//    target) read `unbuilt` with how the guards fared (`guardsRan`), not as if no test ran. A `fail` whose tests of the
//    change each failed only as a name they use was missing (checks/failureMessages.ts) names them (`missing`): still
//    observed, but they are shown to call the change, not yet to check its behaviour. It is no part of TSR, and a
//    criterion proved by a whole check command has none.
//  - judged (`tsrJudged`), when the Cape Master's retrospective judged the criteria (`criteria`: met / not_met /
//    unknown with a reason, in English or Japanese, decorated or not: judgements.ts): met ÷ criteria; a criterion
//    CM did not judge, or judged in words that cannot be read (the session warns), counts as unknown (not met).
// The criteria are POA's acceptance criteria, found by id (`AC-1`, `AC_2`, `ac-3`) wherever POA put them in its
// output (an object of any shape, or markdown text).
import * as fs from 'fs';
import { checkFilePath } from '../files/pathSafety';
import { commandKey, testStatus, type CheckOutcome } from './testStatus';
import { failFirstOf } from './failFirstVerdict';
import { LINE_BREAK } from '../text/lines';
import { beforeText, COMPUTED_TEXT, isPlainObject, testLabel, tsrCounts, type ComputedStatus, type CriterionJudgement, type CriterionResult, type NamedTest, type ProposedFile, type ReviewTest } from '../model/types';

export { testLabel, COMPUTED_TEXT, beforeText, type NamedTest };
export { AS_BEFORE_TEXT, provedAsBefore, testStatus, type CheckOutcome } from './testStatus';
export { failFirstOf, failFirstStatus, failFirstSurprise, type FailFirst } from './failFirstVerdict';
export { failFirstRuns, lastRuns } from './checkRuns';

export interface Criterion {
  id: string;
  /** Given / when / then (or the criterion's text), for people and for the retrospective. */
  text: string;
}

export interface TsrResult {
  /** Fulfilled ÷ criteria a test can prove, from the checks; null when no check ran or no such criterion is left. */
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

/**
 * A markdown line that starts with a criterion id (a list marker or heading and bold marks before it), to the text
 * after it: each run of spaces in one place only (`\s+\**\s*` split a long run every way).
 */
const CRITERION_LINE = /^\s*(?:(?:[-*+]|\d+[.)]|#+)\s+)?(?:\*+\s*)?(AC[-_ ]?\d+)\b\**[:.)\s\-–—]*/i;

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
        const m = CRITERION_LINE.exec(line);
        const rest = m ? line.slice(m[0].length) : '';
        const id = m && !LINE_BREAK.test(rest) ? criterionId(m[1]) : null;
        if (id && !found.has(id)) found.set(id, { id, text: rest.replace(/\*\*/g, '').trim() });
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
    const test = namedTestIn(e);
    if (!id || !test) continue;
    const named = out.get(id) ?? [];
    if (named.length >= MAX_TESTS_PER_CRITERION || named.some((t) => sameTest(t, test))) continue;
    named.push(test);
    out.set(id, named);
  }
  return out;
}

/**
 * One entry of DevA's `criteria_tests` as a test: a test in its file (the file given wins), else a whole check, else
 * a file to review; null for none of these.
 */
function namedTestIn(e: Record<string, unknown>): NamedTest | null {
  const file = pathOf(e.file);
  if (file) {
    const name = typeof e.test === 'string' ? e.test.trim() : '';
    const expect = expectationOf(e.expect);
    return { file, ...(name ? { name } : {}), ...(expect ? { expect } : {}) };
  }
  const check = typeof e.check === 'string' && e.check.length <= MAX_CHECK_CHARS ? commandKey(e.check) : '';
  if (check) return { check };
  const review = pathOf(e.review);
  return review ? { review } : null;
}

/** The same test twice (DevA's list repeats one): the same kind, and the same file and name, check or file to review. */
function sameTest(a: NamedTest, b: NamedTest): boolean {
  if ('check' in a || 'check' in b) return 'check' in a && 'check' in b && a.check === b.check;
  if ('review' in a || 'review' in b) return 'review' in a && 'review' in b && a.review === b.review;
  return a.file === b.file && a.name === b.name;
}

/** Longer than this, or over several lines, what DevA wrote is no path (it would only bloat tables and requests). */
const MAX_PATH_CHARS = 500;

/** A workspace-relative path DevA wrote: forward slashes, no leading `./`; '' when it gave none or no path. */
function pathOf(x: unknown): string {
  if (typeof x !== 'string') return '';
  const p = x.trim();
  return p.length > MAX_PATH_CHARS || /\p{Cc}/u.test(p) ? '' : p.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** DevA's `expect` for a test, tolerant of wording ("fail", "fail-first"; "pass", "regression guard"); null otherwise. */
function expectationOf(x: unknown): 'fail' | 'pass' | null {
  if (typeof x !== 'string') return null;
  const v = x.trim().toLowerCase();
  return /^(fail|fails|fail[-_ ]first|failing)$/.test(v) ? 'fail' : /^(pass|passes|passing|guard|regression|regression[-_ ]guard)$/.test(v) ? 'pass' : null;
}

/** Longer than this, a `check` DevA names is no command the project runs: it is left out (it would only bloat tables). */
const MAX_CHECK_CHARS = 500;

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

/**
 * The worst of a criterion's tests: failed, then no test (none named, or a file that does not exist), then not run,
 * then passed; `review` when it names only files for review, each existing (see the header).
 */
export function criterionStatus(named: readonly NamedTest[], exists: (rel: string) => boolean, checks: CheckOutcome[]): ComputedStatus {
  // a file for review is read, not run
  const tests = named.filter((t): t is Exclude<NamedTest, ReviewTest> => !('review' in t));
  if (!tests.length) return named.length && named.every((t) => 'review' in t && exists(t.review)) ? 'review' : 'no_test';
  const each = tests.map((t) => testStatus(t, 'check' in t || exists(t.file), checks));
  return each.includes('fail') ? 'fail' : each.includes('no_test') ? 'no_test' : each.includes('not_run') ? 'not_run' : 'pass';
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
  const { passed, tested } = tsrCounts(results);
  const tsr = tested && input.checks ? passed / tested : null;
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

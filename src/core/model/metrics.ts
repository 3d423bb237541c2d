// The session's metrics, computed in code, never by the model, and how their verdicts and the TSR read for people
// (the retrospective file, the CLI and the panel alike; a fail-first verdict's words are failFirstText.ts's). Part of
// the shared vocabulary of core (model/index.ts).
import { isPlainObject, type StepId, type WorkerAgent } from './steps';
import type { Usage } from './llm';
import type { CriterionJudgement } from './envelope';
import type { BeforeStatus, MissingName } from './failFirstText';

export interface AgentCost {
  usage: Usage;
  /** USD at list price (llm/pricing.ts); null when the model has no known price. */
  costUsd: number | null;
}

/** What DevA expects of a test on the unchanged code: fail (it tests the change) or pass (a regression guard). */
export type TestExpectation = 'fail' | 'pass';

/** A test case DevA named in a file: the file, the test's name (absent when DevA gave the file alone), its expectation. */
export interface FileTest {
  file: string;
  name?: string;
  expect?: TestExpectation;
}

/** A check command whose whole run proves the criterion (the existing suite still passes). */
export interface CheckTest {
  check: string;
}

/**
 * A file whose changes a reviewer reads, for a criterion no test can prove (a changelog line, documentation, wording).
 * It is no test: its criterion counts as tested only by the tests named beside it.
 */
export interface ReviewTest {
  review: string;
}

/** A test DevA named for a criterion (`criteria_tests`): a test case in a file, a whole check, or a file to review. */
export type NamedTest = FileTest | CheckTest | ReviewTest;

/** Whether a named test is a test case in a file (not a whole check, not a file to review). */
export const isFileTest = (t: NamedTest): t is FileTest => 'file' in t;

const textOf = (x: unknown): string => (typeof x === 'string' ? x : '');

/**
 * A named test read back from metrics (the panel's saved state): this shape, or the one metrics held before
 * 2026-12-06 — every kind with `file` and `name`, a check's both empty, a file to review as `file` with `review: true`;
 * null for anything else.
 */
export function namedTestOf(x: unknown): NamedTest | null {
  if (!isPlainObject(x)) return null;
  const [file, check, review] = [textOf(x.file), textOf(x.check), textOf(x.review)];
  if (check) return { check };
  if (review || (x.review === true && file)) return { review: review || file };
  if (!file) return null;
  const name = textOf(x.name);
  const expect = x.expect === 'fail' || x.expect === 'pass' ? x.expect : undefined;
  return { file, ...(name ? { name } : {}), ...(expect ? { expect } : {}) };
}

/** How DevA's expectation of a test on the unchanged code reads in its label. */
const EXPECT_TEXT = { fail: 'fail-first', pass: 'regression guard' } as const;

/**
 * "test/a.test.js › its name", the file alone when DevA gave no name, "npm test (the whole check)" for a check,
 * "CHANGES.md (for review)" for a file to review; with
 * DevA's expectation when it gave one ("… (fail-first)", "… (regression guard)").
 */
export function testLabel(t: NamedTest): string {
  if ('check' in t) return `${t.check} (the whole check)`;
  if ('review' in t) return `${t.review} (for review)`;
  return `${t.file}${t.name ? ` › ${t.name}` : ''}${t.expect ? ` (${EXPECT_TEXT[t.expect]})` : ''}`;
}

/**
 * How a criterion's checks verdict reads for people (the retrospective's request and file, the panel); `review`: no
 * test can prove it, a reviewer reads the files DevA named (testLabel's "(for review)" names them); `not_run`: the
 * test command failed before it ran any test, as on the unchanged workspace (checks/notReached.ts).
 */
export const COMPUTED_TEXT = { pass: 'passed', fail: 'failed', no_test: 'no test', review: 'to review', not_run: 'not run (no test ran)' } as const;
/** A criterion's checks verdict (CriterionResult.computed). */
export type ComputedStatus = keyof typeof COMPUTED_TEXT;
/** One test's verdict in a set of runs (metrics/testStatus.ts): no `review`. */
export type TestStatus = Exclude<ComputedStatus, 'review'>;
/** How the Cape Master's judgement of a criterion reads for people. */
export const JUDGED_TEXT = { met: 'met', not_met: 'not met', unknown: 'unknown' } as const;

/** One acceptance criterion in the TSR (metrics/tsr.ts): DevA's named test, the checks' verdict, CM's judgement. */
export interface CriterionResult {
  id: string;
  text: string;
  /** The tests DevA named for it, in its order (metrics saved before 2026-12 have `test`, the first one, instead). */
  tests: NamedTest[];
  /**
   * From the checks' last round; absent when no check ran. fail: one of its tests (or a check it named) failed;
   * no_test: DevA named none, a named test's file does not exist, or a check it named did not run; review: DevA named
   * only files for review, each of which exists (out of the computed TSR's count; metrics saved before 2026-12 have
   * no_test for it); not_run: its tests appear nowhere in a run of a test command that ran no test, as on the
   * unchanged workspace (out of the computed TSR's count too; metrics saved before have fail for it).
   */
  computed?: ComputedStatus;
  /**
   * Fail-first: its tests in the runs with only DevA's test files applied to the unchanged workspace; absent when
   * those runs did not happen or it names no test file. fail: every test failed there (fail-first observed), one at
   * least by running; unbuilt: none ran, their file did not build or load without the change (metrics saved before
   * have fail for it); pass: one passed there too (it does not show the change); no_test: none could be told.
   */
  before?: BeforeStatus;
  /**
   * How the regression guards beside its tests of the change fared there (metrics/failFirstVerdict.ts): with `unbuilt`,
   * those in a test file that built; with `fail`, `pass` when every one passed.
   */
  guardsRan?: 'pass' | 'fail';
  /**
   * With `before` fail: every test of the change that failed there failed only because a name it uses was missing
   * (its own failure message said so: metrics/failFirstVerdict.ts), those names; absent otherwise, and from metrics
   * saved before 2026-12-07 (still `fail`, said as before).
   */
  missing?: MissingName[];
  /** When `before` contradicts what DevA expected of its tests (metrics/tsr.ts failFirstOf), in words. */
  surprise?: string;
  /** Every test it names in a file is meant as a regression guard: `before` pass is what they are for. */
  guard?: true;
  /** CM's judgement; absent when CM did not judge this criterion. */
  judged?: CriterionJudgement['status'];
  reason?: string;
}

export interface SessionMetrics {
  /** ASS per worker agent (null when the agent did not report one). */
  ass: Partial<Record<WorkerAgent, number | null>>;
  assAverage: number | null;
  /** SV: population variance of the ASS scores. */
  satisfactionVariance: number | null;
  /** ST: least-squares slope of the per-session ASS average across sessions (null with < 2 sessions). */
  satisfactionTrend: number | null;
  /** XRF: count of `references` across envelopes. */
  crossReferenceFrequency: number;
  /** CI: number of retrospective dialogue turns. */
  conversationIndex: number;
  /** ETT: ms from session start to retrospective saved. */
  elapsedMs: number;
  /** CR: input size ÷ context passed, per agent step. */
  compressionRatio: Partial<Record<StepId, number>>;
  /** Tokens and cost per step. */
  perStep: Partial<Record<StepId, AgentCost>>;
  totalUsage: Usage;
  /** Sum of the steps' costs; null when any step's cost is unknown. */
  totalCostUsd: number | null;
  /**
   * TSR computed from the checks: criteria whose named tests passed ÷ criteria tested (all but those left to review,
   * `tsrReview`, and those whose tests did not run, `tsrNotRun`); null when no check ran or none was tested.
   */
  tsr: number | null;
  /** Criteria left to review (computed `review`), out of `tsr`'s count; absent from metrics saved before 2026-12. */
  tsrReview?: number;
  /** Criteria whose tests did not run (computed `not_run`), out of `tsr`'s count; absent from metrics saved before. */
  tsrNotRun?: number;
  /** TSR as CM judged it: criteria met ÷ criteria; null when CM judged none. */
  tsrJudged: number | null;
  /** POA's acceptance criteria with their tests and verdicts. */
  criteria: CriterionResult[];
}

/** A criterion as the TSR's figures count it: its checks verdict and CM's judgement, as a record or the panel keeps them. */
interface Counted {
  readonly computed?: string;
  readonly judged?: string;
}

/**
 * The computed TSR's counts, the one place its rule is counted (metrics/tsr.ts's header states it): the criteria the
 * checks fulfilled, those tested (all but the ones left to review and those whose tests did not run), those left to
 * review and those not run.
 */
export function tsrCounts(criteria: readonly Counted[]): { passed: number; tested: number; noTest: number; review: number; notRun: number } {
  const review = criteria.filter((c) => c.computed === 'review').length;
  const notRun = criteria.filter((c) => c.computed === 'not_run').length;
  const noTest = criteria.filter((c) => c.computed === 'no_test').length;
  return { passed: criteria.filter((c) => c.computed === 'pass').length, tested: criteria.length - review - notRun, noTest, review, notRun };
}

/**
 * The criteria the computed TSR counts, in words: `14 tested`, or — when some of them had no test at all (counted as
 * not fulfilled) — `2 counted` with `2 with no test` beside it (`sep` joins them: ', ' in a table cell, ' (' … ')' in
 * the closing line): "0% of 2 tested criteria" read as if two tests had failed, when a trial's two were the only
 * criteria DevA named no test for.
 */
function countedPhrase(c: { tested: number; noTest: number }, noun: string, inTable: boolean): string {
  if (!c.noTest) return `${c.tested} tested${noun}`;
  return inTable ? `${c.tested} counted${noun}, ${c.noTest} with no test` : `${c.tested} counted${noun} (${c.noTest} with no test)`;
}

/** The criteria out of the computed TSR's count, in words ("1 to review, 2 not run"); '' when none. */
function setAside(c: { review: number; notRun: number }): string {
  return [c.review ? `${c.review} to review` : '', c.notRun ? `${c.notRun} not run` : ''].filter(Boolean).join(', ');
}

/**
 * Every criterion is out of the count, in words: "all 3 to review", "all 3 not run" ("all to review", "all not run"
 * without the count, where the sentence gives it), or the mix ("1 to review, 2 not run").
 */
function allSetAside(c: { review: number; notRun: number }, withCount = true): string {
  if (c.review && c.notRun) return setAside(c);
  const kind = c.review ? 'to review' : 'not run';
  return withCount ? `all ${c.review || c.notRun} ${kind}` : `all ${kind}`;
}

/** `93%`, or null for no rate (none computed, or not a number in what a record kept). */
function percent(rate: unknown): string | null {
  return typeof rate === 'number' && Number.isFinite(rate) ? `${Math.round(rate * 100)}%` : null;
}

/**
 * A TSR for the retrospective file's and the panel's tables: `67% (2 of 3)`, or — when there is none (no check ran, CM
 * judged none); the computed one with criteria left to review or not run says so: `100% (14 of 14 tested, 1 to
 * review)`, `50% (1 of 2 tested, 3 not run)`, and `— (all 3 to review)`, `— (all 7 not run)` when none was tested.
 */
export function formatTsr(rate: unknown, criteria: readonly Counted[], which: 'computed' | 'judged'): string {
  const pct = percent(rate);
  if (which === 'judged') return pct ? `${pct} (${criteria.filter((c) => c.judged === 'met').length} of ${criteria.length})` : '—';
  const counts = tsrCounts(criteria);
  const { passed, tested } = counts;
  const aside = setAside(counts);
  if (!aside) return pct ? `${pct} (${passed} of ${tested})` : '—';
  return pct ? `${pct} (${passed} of ${countedPhrase(counts, '', true)}, ${aside})` : tested ? '—' : `— (${allSetAside(counts)})`;
}

/**
 * Both TSRs in one phrase (the CLI's closing line): `TSR 93% (judged 100%) of 15 criteria`; with criteria left to
 * review or not run, `TSR 100% of 14 tested criteria, 1 to review (judged 100%)`, or `TSR — of 7 criteria, all not
 * run (judged 86%)` when none was tested.
 */
export function tsrSummary(m: Pick<SessionMetrics, 'tsr' | 'tsrJudged' | 'criteria'>): string {
  const judged = `judged ${percent(m.tsrJudged) ?? '—'}`;
  const counts = tsrCounts(m.criteria);
  const aside = setAside(counts);
  if (!aside) return `TSR ${percent(m.tsr) ?? '—'} (${judged}) of ${m.criteria.length} criteria`;
  if (counts.tested) return `TSR ${percent(m.tsr) ?? '—'} of ${countedPhrase(counts, ' criteria', false)}, ${aside} (${judged})`;
  return `TSR — of ${m.criteria.length} criteria, ${allSetAside(counts, false)} (${judged})`;
}

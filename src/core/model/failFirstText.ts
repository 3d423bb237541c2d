// How a criterion's fail-first verdict (CriterionResult.before, metrics/failFirstVerdict.ts) reads for people: the
// words of each verdict, of a pass of regression guards alone, of tests of the change beside guards, and beforeText,
// the one place they are put together for the retrospective's request and file and the panel's "Before the change"
// cell. Part of the shared vocabulary of core (model/index.ts).

/** What a test file that needs the change did on the unchanged workspace (BEFORE_TEXT, UNBUILT_GUARDS_RAN_TEXT). */
const DID_NOT_BUILD = 'did not build or load without the change';
/**
 * How a criterion's fail-first status (CriterionResult.before) reads for people. `unbuilt`: its test file did not build
 * or load without the change, so no test of it ran there — it needs the change, which is fail-first observed too, but
 * no test failed for its own reason (a Rust trial: "failed" for each test of a file that did not compile overstated it).
 */
export const BEFORE_TEXT = {
  fail: 'failed (fail-first observed)',
  unbuilt: `${DID_NOT_BUILD} (the test file needs it; no test ran)`,
  pass: 'passed too (it does not show the change)',
  no_test: 'not told',
} as const;
/** A criterion's fail-first verdict (CriterionResult.before). */
export type BeforeStatus = keyof typeof BEFORE_TEXT;
/** `pass` for a criterion whose tests are all regression guards (CriterionResult.guard). */
export const GUARD_PASSED_TEXT = 'passed (a regression guard, as DevA meant)';
/** UNBUILT_GUARDS_RAN_TEXT's words before how the guards fared. */
const UNBUILT_BESIDE_GUARDS = `its tests of the change ${DID_NOT_BUILD} (their test file needs it); its regression guards, in a test file that built, ran and`;
/**
 * `unbuilt` beside regression guards whose test file built and ran there (CriterionResult.guardsRan): what each part
 * showed. "No test ran" was wrong of a Rust trial's criterion whose guard file ran beside a new-API file.
 */
export const UNBUILT_GUARDS_RAN_TEXT = { pass: `${UNBUILT_BESIDE_GUARDS} passed`, fail: `${UNBUILT_BESIDE_GUARDS} failed` } as const;
/**
 * `fail` beside regression guards that all passed there (CriterionResult.guardsRan): two commander trials' models read
 * "failed" of a criterion that held a guard as if the guard had failed too.
 */
export const FAIL_GUARDS_PASSED_TEXT = `${BEFORE_TEXT.fail}; its regression guards passed there, as DevA meant`;
/** What beforeText reads of a criterion: a CriterionResult, or the panel's view of one. */
export interface BeforeParts {
  readonly before?: string;
  readonly surprise?: string;
  readonly guard?: boolean;
  readonly guardsRan?: string;
}
/**
 * A criterion's fail-first verdict in words (the retrospective file's and the panel's "Before the change" cell), a
 * pass of regression guards alone said as such (`guard`), tests of the change that did not build beside guards that
 * ran with how those fared (`guardsRan`), with the surprise when it contradicts what DevA expected; — when there is
 * none (or it is not one BEFORE_TEXT knows).
 */
export function beforeText({ before, surprise, guard, guardsRan }: BeforeParts): string {
  if (!before || !Object.prototype.hasOwnProperty.call(BEFORE_TEXT, before)) return '—';
  const ran = guardsRan === 'pass' || guardsRan === 'fail' ? guardsRan : null;
  const verdict =
    guard && before === 'pass'
      ? GUARD_PASSED_TEXT
      : before === 'unbuilt' && ran
        ? UNBUILT_GUARDS_RAN_TEXT[ran]
        : before === 'fail' && ran === 'pass'
          ? FAIL_GUARDS_PASSED_TEXT
          : BEFORE_TEXT[before as BeforeStatus];
  return `${verdict}${surprise ? ` — ${surprise}` : ''}`;
}
/**
 * A name a failed test's own message said was missing on the unchanged code (checks/missingNames.ts): the method,
 * function, attribute, import or keyword the test uses — `deprecated` — with the error that said so, `TypeError`.
 */
export interface MissingName {
  name: string;
  error: string;
}

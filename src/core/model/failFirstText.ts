// How a criterion's fail-first verdict (CriterionResult.before, metrics/failFirstVerdict.ts) reads for people: the
// words of each verdict, of a pass of regression guards alone, of tests of the change beside guards, and beforeText,
// the one place they are put together for the retrospective's request and file and the panel's "Before the change"
// cell. Part of the shared vocabulary of core (model/index.ts).
import { isPlainObject } from './steps';

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
 * After `fail` (and what a failure only for a missing name showed) beside regression guards that all passed there
 * (CriterionResult.guardsRan): two commander trials' models read "failed" of a criterion that held a guard as if the
 * guard had failed too.
 */
const GUARDS_PASSED_AFTER = '; its regression guards passed there, as DevA meant';
/**
 * A name a failed test's own message said was missing on the unchanged code (checks/missingNames.ts): the method,
 * function, attribute, import or keyword the test uses — `deprecated` — with the error that said so, `TypeError`.
 */
export interface MissingName {
  name: string;
  error: string;
}
/** The missing names a record or the panel's view holds (CriterionResult.missing), each as MissingName; [] for none or another shape. */
export function missingNamesOf(x: unknown): MissingName[] {
  if (!Array.isArray(x)) return [];
  return x.filter((m): m is MissingName => isPlainObject(m) && typeof m.name === 'string' && !!m.name && typeof m.error === 'string' && !!m.error);
}
/** Missing names a verdict names; the others are counted. */
const MISSING_NAMED = 3;
/**
 * What `fail` showed when every test of the change failed there only because a name it uses was missing
 * (CriterionResult.missing), after the verdict: that its tests call the change, not that they check its behaviour —
 * "failed" alone read as if their assertions had caught the missing behaviour.
 */
export function missingOnlyText(missing: readonly MissingName[]): string {
  const names = missing.slice(0, MISSING_NAMED).map((m) => `\`${m.name}\``);
  const more = missing.length - names.length;
  const list = more ? `${names.join(', ')} and ${more} more` : names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  const errors = [...new Set(missing.map((m) => m.error))].join(', ');
  return `, only because ${list} ${missing.length > 1 ? 'were' : 'was'} missing (${errors}) — it shows the tests call the change, not yet that they check its behaviour`;
}
/** What beforeText reads of a criterion: a CriterionResult, or the panel's view of one. */
export interface BeforeParts {
  readonly before?: string;
  readonly surprise?: string;
  readonly guard?: boolean;
  readonly guardsRan?: string;
  readonly missing?: unknown;
}
/**
 * A criterion's fail-first verdict in words (the retrospective file's and the panel's "Before the change" cell), a
 * pass of regression guards alone said as such (`guard`), tests of the change that did not build beside guards that
 * ran with how those fared (`guardsRan`), a failure only because names were missing said so (`missing`), with the
 * surprise when it contradicts what DevA expected; — when there is none (or it is not one BEFORE_TEXT knows).
 */
export function beforeText({ before, surprise, guard, guardsRan, missing }: BeforeParts): string {
  if (!before || !Object.prototype.hasOwnProperty.call(BEFORE_TEXT, before)) return '—';
  const ran = guardsRan === 'pass' || guardsRan === 'fail' ? guardsRan : null;
  const names = before === 'fail' ? missingNamesOf(missing) : [];
  const verdict =
    guard && before === 'pass'
      ? GUARD_PASSED_TEXT
      : before === 'unbuilt' && ran
        ? UNBUILT_GUARDS_RAN_TEXT[ran]
        : before === 'fail'
          ? `${BEFORE_TEXT.fail}${names.length ? missingOnlyText(names) : ''}${ran === 'pass' ? GUARDS_PASSED_AFTER : ''}`
          : BEFORE_TEXT[before as BeforeStatus];
  return `${verdict}${surprise ? ` — ${surprise}` : ''}`;
}

// A check loop's outcome read back from a step record (a resume, a window reload): whether the stored value has the
// shape of types.ts's ChecksOutcome that the retrospective and --json rely on (its runs, fail-first runs and baseline
// runs among it), for store/stepRecordSchema.ts and store/stepRecords.ts. Split from types.ts, which declares it.
import type { CheckRun, ChecksOutcome, FailFirstRuns } from './types';

/** `x` as an object's fields, or null when it is no object. */
const fields = (x: unknown): Record<string, unknown> | null => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : null);

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** A stored outcome read back (resume): the shape the retrospective and --json rely on, checked. */
export function isChecksOutcome(x: unknown): x is ChecksOutcome {
  const o = fields(x);
  return (
    !!o &&
    isStrings(o.commands) &&
    isRunList(o.runs) &&
    Array.isArray(o.fixRounds) &&
    typeof o.maxFixRounds === 'number' &&
    typeof o.passed === 'boolean' &&
    (o.before === undefined || isFailFirstRuns(o.before)) &&
    (o.baseline === undefined || isRunList(o.baseline)) &&
    (o.notWritten === undefined || (Array.isArray(o.notWritten) && o.notWritten.every((n) => typeof n?.path === 'string' && typeof n.reason === 'string')))
  );
}

function isRunList(x: unknown): x is CheckRun[] {
  return Array.isArray(x) && x.every((r) => typeof fields(r)?.command === 'string' && typeof (r as CheckRun).passed === 'boolean');
}

function isFailFirstRuns(x: unknown): x is FailFirstRuns {
  const o = fields(x);
  return !!o && isStrings(o.testFiles) && isRunList(o.runs) && Array.isArray(o.notWritten) && (o.skipped === undefined || isStrings(o.skipped));
}

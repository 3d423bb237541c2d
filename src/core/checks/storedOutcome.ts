// A check loop's outcome read back from a step record (a resume, a window reload): whether the stored value has the
// shape of types.ts's ChecksOutcome that the retrospective and --json rely on (its runs, fail-first runs and baseline
// runs among it), for store/stepRecordSchema.ts and store/stepRecords.ts. Split from types.ts, which declares it.
import type { CheckRun, ChecksOutcome, FailFirstRuns } from './types';
import { isPlainObject } from '../model/types';

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** A stored outcome read back (resume): the shape the retrospective and --json rely on, checked. */
export function isChecksOutcome(x: unknown): x is ChecksOutcome {
  if (!isPlainObject(x)) return false;
  return (
    isStrings(x.commands) &&
    isRunList(x.runs) &&
    Array.isArray(x.fixRounds) &&
    typeof x.maxFixRounds === 'number' &&
    typeof x.passed === 'boolean' &&
    (x.before === undefined || isFailFirstRuns(x.before)) &&
    (x.baseline === undefined || isRunList(x.baseline)) &&
    (x.notWritten === undefined || (Array.isArray(x.notWritten) && x.notWritten.every((n) => typeof n?.path === 'string' && typeof n.reason === 'string')))
  );
}

function isRunList(x: unknown): x is CheckRun[] {
  return Array.isArray(x) && x.every((r) => isPlainObject(r) && typeof r.command === 'string' && typeof r.passed === 'boolean');
}

function isFailFirstRuns(x: unknown): x is FailFirstRuns {
  return isPlainObject(x) && isStrings(x.testFiles) && isRunList(x.runs) && Array.isArray(x.notWritten) && (x.skipped === undefined || isStrings(x.skipped));
}

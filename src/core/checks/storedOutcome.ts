// A check loop's outcome read back from a step record (a resume, a window reload): whether the stored value has the
// shape of types.ts's ChecksOutcome that the retrospective and --json rely on (its runs, fail-first runs and baseline
// runs among it), for store/stepRecordSchema.ts and store/stepRecords.ts. Split from types.ts, which declares it.
import type { CheckRun, ChecksOutcome, FailFirstRuns } from './types';

/** A stored outcome read back (resume): the shape the retrospective and --json rely on, checked. */
export function isChecksOutcome(x: unknown): x is ChecksOutcome {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    Array.isArray(o.commands) &&
    o.commands.every((c) => typeof c === 'string') &&
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
  return Array.isArray(x) && x.every((r) => typeof r === 'object' && r !== null && typeof (r as CheckRun).command === 'string' && typeof (r as CheckRun).passed === 'boolean');
}

function isFailFirstRuns(x: unknown): x is FailFirstRuns {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    Array.isArray(o.testFiles) &&
    o.testFiles.every((f) => typeof f === 'string') &&
    isRunList(o.runs) &&
    Array.isArray(o.notWritten) &&
    (o.skipped === undefined || (Array.isArray(o.skipped) && o.skipped.every((c) => typeof c === 'string')))
  );
}

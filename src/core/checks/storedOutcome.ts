// A check loop's outcome read back from a step record (a resume, a window reload): the shape of types.ts's
// ChecksOutcome that the retrospective, the panel and --json rely on — its runs, fail-first runs and baseline runs, and
// each run's optional parts (test cases, what did not build, a cargo run per target, CTest's programs…), each read
// somewhere as the type says (`run.ctestPrograms.notRun.join`). One schema, so a hand-edited or damaged part is a
// StoreError naming its field (store/stepRecordSchema.ts: `checks.runs[0].ctestPrograms.notRun: …`), never a
// TypeError later in the session. Split from types.ts, which declares the types; unknown fields are kept (looseObject).
import * as z from '../model/schema';
import type { ChecksOutcome } from './types';

const testCaseSchema = () =>
  z.looseObject({
    name: z.string(),
    passed: z.boolean(),
    missing: z.optional(z.looseObject({ name: z.string(), error: z.string() })),
    message: z.optional(z.string()),
    already: z.optional(z.literal(true)),
  });

const runSchema = () =>
  z.looseObject({
    command: z.string(),
    round: z.number(),
    status: z.enum(['passed', 'failed', 'timeout', 'cancelled', 'error']),
    passed: z.boolean(),
    exitCode: z.nullable(z.number()),
    durationMs: z.number(),
    output: z.string(),
    outputChars: z.number(),
    tests: z.optional(z.array(testCaseSchema())),
    onlyFailuresNamed: z.optional(z.boolean()),
    testsIncomplete: z.optional(z.literal(true)),
    testSummary: z.optional(z.boolean()),
    summaryKinds: z.optional(z.strings()),
    unbuilt: z.optional(z.literal(true)),
    passedTestFiles: z.optional(z.strings()),
    unbuiltGoPackages: z.optional(z.strings()),
    unbuiltGoFolders: z.optional(z.strings()),
    unbuiltCargoTests: z.optional(z.array(z.looseObject({ crate: z.optional(z.string()), name: z.string() }))),
    unbuiltTestFiles: z.optional(z.strings()),
    byTarget: z.optional(z.looseObject({ crate: z.string(), targets: z.strings(), unbuilt: z.strings(), passed: z.number(), failed: z.number() })),
    ctestPrograms: z.optional(z.looseObject({ passed: z.number(), failed: z.number(), notRun: z.strings(), sources: z.optional(z.record(z.string(), z.strings())), cases: z.optional(z.literal(true)) })),
    testsNotReached: z.optional(z.literal(true)),
  });

const notWrittenSchema = () => z.looseObject({ path: z.string(), reason: z.string() });

let built: ReturnType<typeof buildSchema> | null = null;

function buildSchema() {
  return z.looseObject({
    commands: z.strings(),
    runs: z.array(runSchema()),
    fixRounds: z.array(
      z.looseObject({
        round: z.number(),
        request: z.string(),
        reply: z.string(),
        files: z.array(z.looseObject({ path: z.string(), content: z.string() })),
        problems: z.strings(),
      }),
    ),
    maxFixRounds: z.number(),
    passed: z.boolean(),
    before: z.optional(z.looseObject({ testFiles: z.strings(), runs: z.array(runSchema()), skipped: z.optional(z.strings()), notWritten: z.strings() })),
    baseline: z.optional(z.array(runSchema())),
    failsAsBefore: z.optional(z.boolean()),
    fixDeclined: z.optional(z.boolean()),
    formatted: z.optional(z.array(z.looseObject({ round: z.number(), by: z.string(), files: z.strings(), check: z.optional(z.literal(true)) }))),
    notWritten: z.optional(z.array(notWrittenSchema())),
  });
}

/** The schema of a stored outcome: store/stepRecordSchema.ts nests it under the record's `checks`. */
export function checksOutcomeSchema(): ReturnType<typeof buildSchema> {
  built ??= buildSchema();
  return built;
}

/** A stored outcome read back (resume): the shape the retrospective and --json rely on, checked. */
export function isChecksOutcome(x: unknown): x is ChecksOutcome {
  return checksOutcomeSchema().safeParse(x).success;
}

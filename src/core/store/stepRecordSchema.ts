// The shape a step record of pair/ must have to be used again (a resume, a window reload, a rerun): every field
// CAPE writes, with its type, checked when the record is read back (stepRecords.ts) so a hand-edited or damaged
// field is a StoreError naming the file and the field, not a TypeError somewhere later in the session. Missing
// optional fields (older records) and nulls in them are allowed: the reader fills in the defaults.
import * as z from '../model/schema';
import { checksOutcomeSchema } from '../checks/storedOutcome';

/** An optional field: absent and null are both "not recorded". */
export function opt<T extends z.ZodMiniType>(schema: T) {
  return z.optional(z.nullable(schema));
}

const num = () => z.number();
const str = () => z.string();
export const usageSchema = () =>
  z.looseObject({
    inputTokens: opt(num()),
    outputTokens: opt(num()),
    cacheCreationInputTokens: opt(num()),
    cacheReadInputTokens: opt(num()),
    cacheCreation1hInputTokens: opt(num()),
  });

/** An envelope as CAPE stores it: already normalised (reply/envelope.ts), so every shared field is there. */
const envelopeSchema = () =>
  z.looseObject({
    agent: str(),
    role: str(),
    task_id: str(),
    phase: z.optional(z.enum(['opening', 'retrospective'])),
    voice: str(),
    output: z.unknown(),
    references: z.strings(),
    confidence: z.nullable(num()),
    ass: z.nullable(
      z.looseObject({ score: z.nullable(num()), positive: str(), improvement: str(), context_adequate: z.nullable(z.boolean()) }),
    ),
    conversation: opt(z.array(z.looseObject({ speaker: str(), text: str() }))),
    kpt: opt(z.looseObject({ keep: z.strings(), problem: z.strings(), try: z.strings() })),
    reportedMetrics: opt(z.record(z.string(), z.unknown())),
    criteria: opt(z.array(z.looseObject({ id: str(), status: z.enum(['met', 'not_met', 'unknown']), reason: str() }))),
    blockers: opt(z.array(z.looseObject({ to: str(), question: str() }))),
  });

const storedFileSchema = () =>
  z.looseObject({
    path: str(),
    content: str(),
    relPath: opt(str()),
    absPath: opt(str()),
    action: opt(z.enum(['create', 'modify'])),
    status: opt(z.enum(['proposed', 'applied', 'refused'])),
    reason: opt(str()),
    currentContent: opt(str()),
    baseSha256: opt(str()),
    edit: opt(z.boolean()),
    warning: opt(str()),
  });

export const toolCallSchema = () =>
  z.looseObject({
    id: opt(str()),
    tool: str(),
    target: str(),
    path: opt(str()),
    query: opt(str()),
    lines: opt(z.tuple([num(), num()])),
    chars: num(),
    hits: opt(num()),
    found: opt(z.array(z.tuple([str(), num()]))),
    refused: opt(str()),
    limited: opt(z.boolean()),
    truncated: opt(z.boolean()),
  });

export const feedbackSchema = () =>
  z.looseObject({
    round: num(),
    from: str(),
    to: str(),
    questions: z.strings(),
    blockedRaw: str(),
    answerRaw: str(),
    answer: opt(envelopeSchema()),
    answerText: str(),
    usage: usageSchema(),
    model: str(),
  });

let built: ReturnType<typeof buildSchema> | null = null;

function buildSchema() {
  return z.looseObject({
    raw: str(),
    envelope: envelopeSchema(),
    files: opt(z.array(storedFileSchema())),
    summary: opt(str()),
    usage: opt(usageSchema()),
    model: opt(str()),
    context: opt(z.looseObject({ input: num(), passed: num() })),
    toolCalls: opt(z.array(toolCallSchema())),
    editRepair: opt(str()),
    dorAnswers: opt(z.array(z.looseObject({ question: str(), answer: str() }))),
    feedback: opt(z.array(feedbackSchema())),
    startedAt: opt(num()),
    finishedAt: opt(num()),
    continuations: opt(num()),
    checks: opt(checksOutcomeSchema()),
    warnings: opt(z.strings()),
  });
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '') || '(the record)';
}

/** What is wrong with `data`'s fields by `schema` ("envelope.voice: Invalid input: expected string, received number"), or null. */
export function fieldProblems(schema: z.ZodMiniType, data: unknown): string[] | null {
  const r = schema.safeParse(data);
  if (r.success) return null;
  return r.error.issues.map((i) => `${fieldName(i.path)}: ${i.message.replace(/, received undefined$/, ' (the field is missing)')}`);
}

/** What is wrong with a step record's fields, or null. */
export function stepRecordProblems(data: unknown): string[] | null {
  built ??= buildSchema();
  return fieldProblems(built, data);
}

// The Cape Master's envelopes (zod/mini): the opening (session brief, DoR check with its blocking questions,
// watch-outs, coaching notes per role, go-ahead) and the retrospective (conversation turns, KPT under any spelling of
// its keys, metrics, the criteria's judgements), each tolerant the way ./envelope.ts's header says.
import * as z from '../model/schema';
import { isPlainObject, type WorkerAgent } from '../model/types';
import { kptKindOf } from '../kpt';
import { normaliseAgentName } from './agentNames';
import { agentCheck, assSchema, baseShape, booleanish, confidenceSchema, describe, expected, optionalText, stringList, text, toStringList, voiceSchema } from './lenientSchemas';

/** Finds a key case-insensitively and with agent-name tolerance (for coaching_notes). */
function coachingNotes(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  const out: Record<WorkerAgent, unknown> = { POA: '', DA: '', DevA: '' };
  for (const [k, note] of Object.entries(v)) {
    const agent = normaliseAgentName(k);
    if (agent === 'POA' || agent === 'DA' || agent === 'DevA') {
      out[agent] = Array.isArray(note) ? toStringList(note) : note;
      if (Array.isArray(out[agent])) out[agent] = (out[agent] as unknown[]).map(String).join('\n');
    }
  }
  return out;
}

const openingOutputSchema = z.lazy(() =>
  z.object(
    {
      session_brief: text,
      dor_check: z.object(
        {
          passed: z.preprocess(booleanish, z.boolean(expected('true or false'))),
          concerns: stringList,
          // Blocking questions for the user (session/dorQuestions.ts); absent in most replies.
          questions: stringList,
        },
        expected('an object {passed, concerns}'),
      ),
      watch_out: stringList,
      coaching_notes: z.preprocess(
        coachingNotes,
        z.object({ POA: optionalText, DA: optionalText, DevA: optionalText }, expected('an object {POA, DA, DevA}')),
      ),
      kpt_followups: z.preprocess((v) => (v === undefined || v === null ? undefined : toStringList(v)), z.optional(z.array(z.string()))),
      // ids of Tries from the digest; any shape is accepted (an object is kept as its JSON, where the id is found)
      adopted_tries: z.preprocess(
        (v) => (v === undefined || v === null ? undefined : (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : (JSON.stringify(x) ?? ''))).filter(Boolean)),
        z.optional(z.array(z.string())),
      ),
      go_ahead: z.preprocess(
        (v) => (v === undefined || v === null ? undefined : v),
        z.optional(
          z.object(
            {
              pre_approved: z.preprocess((v) => (v === undefined || v === null ? [] : v), stringList),
              needs_approval: z.preprocess((v) => (v === undefined || v === null ? [] : v), stringList),
            },
            expected('an object {pre_approved, needs_approval}'),
          ),
        ),
      ),
    },
    expected('an object {session_brief, dor_check, watch_out, coaching_notes}'),
  ),
);

function phaseSchema(phase: 'opening' | 'retrospective') {
  return z.preprocess(
    (v) => (v === undefined || v === null ? phase : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string(expected(`"${phase}"`)).check(
      z.refine((p) => p === phase || (phase === 'retrospective' && p === 'retro'), {
        error: (iss) => `this step is the ${phase}; got phase ${describe(iss.input)}`,
      }),
    ),
  );
}

export const openingSchema = z.lazy(() =>
  z
    .object({
      ...baseShape(),
      phase: phaseSchema('opening'),
      voice: voiceSchema,
      output: openingOutputSchema,
      references: stringList,
      confidence: confidenceSchema,
      ass: z.preprocess((v) => (v === undefined ? null : v), z.nullable(assSchema)),
    })
    .check(z.superRefine(agentCheck('cm_open'))),
);

/** Conversation turns: tolerates `agent`/`role`/`name` for the speaker and `message`/`content` for the text. */
function normaliseTurns(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.map((t) => {
    if (!isPlainObject(t)) return t;
    const speaker = t.speaker ?? t.agent ?? t.name ?? t.role;
    const said = t.text ?? t.message ?? t.content ?? t.utterance;
    return { speaker, text: said };
  });
}

const turnSchema = z.lazy(() => z.object({ speaker: text, text: text }, expected('an object {speaker, text}')));

/**
 * KPT: keys are named by kptKindOf (the rule kpt_merged.md's headings follow): any case, full-width (`ｋｅｅｐ`),
 * `Keep:`, plural, Japanese (`キープ`, `問題`, `トライ`). Two keys of one kind (`keep` and `キープ`) are both kept.
 * A key that names no kind keeps its name, so the schema rejects it (with a repair request) rather than dropping
 * its items; a missing list is empty.
 */
function normaliseKpt(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, list] of Object.entries(v)) {
    const kind = kptKindOf(k);
    if (!kind) {
      const items = toStringList(list);
      if (!Array.isArray(items) || items.length) out[k] = list;
      continue;
    }
    if (out[kind] === undefined) out[kind] = list;
    else {
      const a = toStringList(out[kind]);
      const b = toStringList(list);
      out[kind] = Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : a;
    }
  }
  return out;
}

const kptSchema = z.lazy(() =>
  z.preprocess(
    normaliseKpt,
    z.pipe(
      z
        .catchall(z.object({ keep: stringList, problem: stringList, try: stringList }, expected('an object {keep, problem, try}')), z.unknown())
        .check(
          z.superRefine((o, ctx) => {
            for (const k of Object.keys(o)) {
              if (k === 'keep' || k === 'problem' || k === 'try') continue;
              ctx.addIssue({
                code: 'custom',
                path: [k],
                message: `"${k}" is not a KPT list: put its items under "keep", "problem" or "try"`,
              });
            }
          }),
        ),
      z.transform((o: { keep: string[]; problem: string[]; try: string[] }) => ({ keep: o.keep, problem: o.problem, try: o.try })),
    ),
  ),
);

export const retroSchema = z.lazy(() =>
  z
    .object({
      ...baseShape(),
      phase: phaseSchema('retrospective'),
      voice: z.preprocess((v) => (v === null ? undefined : v), z.optional(z.string(expected('a string')))),
      conversation: z.preprocess(normaliseTurns, z.array(turnSchema, expected('a list of {speaker, text} turns'))),
      kpt: kptSchema,
      metrics: z.preprocess(
        (v) => (v === undefined || v === null ? {} : v),
        z.record(z.string(), z.unknown(), expected('an object')),
      ),
      // CM's judgement of each acceptance criterion: read tolerantly (metrics/tsr.ts), never a reason to reject.
      criteria: z.optional(z.unknown()),
      references: stringList,
      confidence: confidenceSchema,
    })
    .check(z.superRefine(agentCheck('cm_retro'))),
);

// Envelope schemas (zod/mini): validate a parsed JSON reply of one step and normalise it into the
// `Envelope` type of model/envelope.ts.
//
// Real model output varies, so the schemas are tolerant where the meaning is unambiguous and strict
// where it is not:
//   - tolerated: missing `references` (→ []) and `confidence` (→ null), numbers written as strings
//     ("4"), a single string where a list is expected, `ass`/`confidence`/`references` nested INSIDE
//     `output` (hoisted), agent names written as "Cape Master", "DEVA", "Developer Agent", …,
//     KPT keys in any case, full-width or Japanese (キープ / 問題 / トライ), list items written as objects ({ text: … }).
//   - a POA/DA/DevA `output` written as a string (the CAPE paper's own envelope example,
//     `"output": "Domain-specific content"`) is kept as is: markdown text, not an object.
//   - rejected: a missing or non-string voice (POA/DA/DevA/opening), a POA/DA/DevA output that is neither an
//     object nor non-empty text (the opening's must be an object), scores outside 1–5, a reply from a different
//     agent than the step expects.
// The schemas are z.lazy: zod builds them on the first validation, not when the extension is activated.
// The error string is short and concrete ("ass.score: must be between 1 and 5 (got 7)") so it can be
// quoted back to the model in the single repair request.
import * as z from '../model/schema';
import type { AgentId, Ass, Blocker, CmOpeningOutput, ConversationTurn, Envelope, KptLists, StepId } from '../model/types';
import { STEP_AGENT, isPlainObject } from '../model/types';
import { judgementsOf } from '../metrics/judgements';
import { DEFAULT_ROLE, normaliseAgentName } from './agentNames';
import { sliceWhole } from '../text/cut';
import { isPlaceholderItem } from '../text/placeholder';
import { agentCheck, assSchema, baseShape, confidenceSchema, describe, expected, stringList, voiceSchema } from './lenientSchemas';
import { openingSchema, retroSchema } from './cmSchemas';

export { DEFAULT_ROLE, normaliseAgentName } from './agentNames';

export type ValidationResult = { ok: true; envelope: Envelope } | { ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// Worker steps (POA, DA, DevA); the Cape Master's are in ./cmSchemas.ts

/**
 * A worker's output: an object of named parts, or markdown text (the paper's `"output": "Domain-specific content"`).
 * Whitespace-only text says nothing, so it is rejected like a missing output.
 */
const workerOutputSchema = z.lazy(() =>
  z.union(
    [z.record(z.string(), z.unknown()), z.string().check(z.refine((s) => s.trim() !== ''))],
    expected('an object with your step output, or your step output as markdown text'),
  ),
);

function workerSchema(step: StepId) {
  return z
    .object({
      ...baseShape(),
      voice: voiceSchema,
      output: workerOutputSchema,
      references: stringList,
      confidence: confidenceSchema,
      ass: assSchema,
    })
    .check(z.superRefine(agentCheck(step)));
}

// ---------------------------------------------------------------------------------------------
// Normalisation before validation

/**
 * Hoists `voice`, `ass`, `confidence` and `references` that a model nested inside `output` to the top level
 * (only when the top level lacks them), so the output keeps only the step's own content.
 */
function hoistFromOutput(obj: Record<string, unknown>): Record<string, unknown> {
  const output = obj.output;
  if (!isPlainObject(output)) return obj;
  const moved: Record<string, unknown> = {};
  let rest: Record<string, unknown> | null = null;
  for (const key of ['voice', 'ass', 'confidence', 'references'] as const) {
    if (obj[key] === undefined && output[key] !== undefined) {
      moved[key] = output[key];
      rest ??= { ...output };
      delete rest[key];
    }
  }
  return rest ? { ...obj, ...moved, output: rest } : obj;
}

// ---------------------------------------------------------------------------------------------
// Error rendering

function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += s === '' ? String(p) : `.${String(p)}`;
  }
  return s === '' ? '(envelope)' : s;
}

const MAX_ISSUES = 8;

/** "path: message" lines, one per zod issue (at most 8), suitable to quote to the model. */
export function formatIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const lines = issues.slice(0, MAX_ISSUES).map((i) => `${formatPath(i.path)}: ${i.message}`);
  if (issues.length > MAX_ISSUES) lines.push(`… and ${issues.length - MAX_ISSUES} more problem(s)`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Validates the parsed JSON of one step's reply and normalises it into an Envelope.
 * Never throws: hostile input (arrays, primitives, huge objects) yields `{ ok: false, error }`.
 */
export function validateEnvelope(step: StepId, json: unknown): ValidationResult {
  if (!isPlainObject(json)) {
    return { ok: false, error: `(envelope): expected a JSON object, got ${describe(json)}` };
  }
  const agent = STEP_AGENT[step];
  try {
    if (step === 'cm_open') {
      const r = openingSchema.safeParse(json);
      if (!r.success) return { ok: false, error: formatIssues(r.error.issues) };
      const d = r.data;
      const output: CmOpeningOutput = {
        session_brief: d.output.session_brief,
        dor_check: {
          passed: d.output.dor_check.passed,
          concerns: d.output.dor_check.concerns,
          ...(d.output.dor_check.questions.some((q) => q.trim()) ? { questions: d.output.dor_check.questions.filter((q) => q.trim()) } : {}),
        },
        watch_out: d.output.watch_out,
        coaching_notes: { POA: d.output.coaching_notes.POA, DA: d.output.coaching_notes.DA, DevA: d.output.coaching_notes.DevA },
      };
      if (d.output.kpt_followups) output.kpt_followups = d.output.kpt_followups;
      if (d.output.adopted_tries) output.adopted_tries = d.output.adopted_tries;
      if (d.output.go_ahead) output.go_ahead = d.output.go_ahead;
      return accepted(agent, d, 'opening', { voice: d.voice, output, ass: (d.ass as Ass | null) ?? null });
    }

    if (step === 'cm_retro') {
      const r = retroSchema.safeParse(json);
      if (!r.success) return { ok: false, error: formatIssues(r.error.issues) };
      const d = r.data;
      const conversation: ConversationTurn[] = d.conversation.map((t) => ({ speaker: t.speaker, text: t.text }));
      const kpt: KptLists = { keep: d.kpt.keep, problem: d.kpt.problem, try: d.kpt.try };
      const firstCm = conversation.find((t) => normaliseAgentName(t.speaker) === 'CM');
      const criteria = judgementsOf(d.criteria);
      return accepted(agent, d, 'retrospective', { voice: d.voice ?? firstCm?.text ?? '', output: null, ass: null }, {
        conversation,
        kpt,
        reportedMetrics: d.metrics,
        ...(criteria.length ? { criteria } : {}),
      });
    }

    const r = workerSchema(step).safeParse(hoistFromOutput(json));
    if (!r.success) return { ok: false, error: formatIssues(r.error.issues) };
    const d = r.data;
    const blockers = step === 'deva' ? blockersOf(d.output) : [];
    return accepted(agent, d, undefined, { voice: d.voice, output: d.output, ass: d.ass as Ass }, blockers.length ? { blockers } : {});
  } catch (e) {
    // zod does not throw on bad data; this guards against pathological input (e.g. getters that throw).
    return { ok: false, error: `(envelope): could not be validated: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** A valid envelope: the fields every step shares (in the order they are saved), then the step's own. */
function accepted(
  agent: AgentId,
  d: { role?: unknown; task_id: string; references: string[]; confidence: number | null },
  phase: Envelope['phase'],
  own: Pick<Envelope, 'voice' | 'output' | 'ass'>,
  retro: Pick<Envelope, 'conversation' | 'kpt' | 'reportedMetrics' | 'blockers' | 'criteria'> = {},
): ValidationResult {
  const head = { agent, role: roleOf(d.role, agent), task_id: d.task_id, ...(phase ? { phase } : {}) };
  const envelope: Envelope = { ...head, voice: own.voice, output: own.output, references: d.references, confidence: d.confidence, ass: own.ass, ...retro };
  return { ok: true, envelope };
}

function roleOf(role: unknown, agent: AgentId): string {
  return typeof role === 'string' && role.trim() !== '' ? role : DEFAULT_ROLE[agent];
}

/** Characters of one blocker question kept (a question, not a document). */
export const MAX_BLOCKER_CHARS = 2000;

/**
 * DevA's `output.blockers`, tolerant to absence and to shape: a list of `{to, question}` (the question may be
 * written as text/item/…, `to` as an agent name in any spelling; missing → DA), or of plain strings (→ DA). Items
 * without a question, or whose question only says there is none ("なし", "N/A": text/placeholder.ts), are dropped,
 * never a reason to reject the reply: blockers are optional.
 */
export function blockersOf(output: unknown): Blocker[] {
  if (!isPlainObject(output)) return [];
  const key = Object.keys(output).find((k) => /^blockers?$/i.test(k.trim()));
  const raw = key === undefined ? undefined : output[key];
  const items = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const out: Blocker[] = [];
  for (const item of items) {
    let to: AgentId = 'DA';
    let question: string | null = null;
    if (typeof item === 'string') question = item;
    else if (isPlainObject(item)) {
      to = normaliseAgentName(item.to ?? item.agent ?? item.for) ?? 'DA';
      const q = item.question ?? item.q ?? item.text ?? item.issue ?? item.description;
      question = typeof q === 'string' ? q : null;
    }
    if (question && question.trim() && !isPlaceholderItem(question)) out.push({ to, question: sliceWhole(question.trim(), 0, MAX_BLOCKER_CHARS) });
  }
  return out;
}

/** A compact description of the envelope each step must produce (used in repair requests). */
export function envelopeShapeHint(step: StepId): string {
  const agent = STEP_AGENT[step];
  const common = `"agent": "${agent}", "role": "${DEFAULT_ROLE[agent]}", "task_id": "<task id>"`;
  const selfReport =
    '"references": ["<agent or document you built on>"], "confidence": <1-5>, ' +
    '"ass": {"score": <1-5>, "positive": "<text>", "improvement": "<text>", "context_adequate": <true|false>}';
  switch (step) {
    case 'cm_open':
      return (
        `{${common}, "phase": "opening", "voice": "<text>", "output": {"session_brief": "<text>", ` +
        '"dor_check": {"passed": <true|false>, "concerns": ["<text>"]}, "watch_out": ["<text>"], ' +
        '"coaching_notes": {"POA": "<text>", "DA": "<text>", "DevA": "<text>"}}}'
      );
    case 'cm_retro':
      return (
        `{${common}, "phase": "retrospective", "conversation": [{"speaker": "<CM|POA|DA|DevA>", "text": "<text>"}], ` +
        '"kpt": {"keep": ["<text>"], "problem": ["<text>"], "try": ["<text>"]}, "metrics": {}}'
      );
    default:
      return `{${common}, "voice": "<text>", "output": {<your step output>}, ${selfReport}}`;
  }
}

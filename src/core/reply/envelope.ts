// Envelope schemas (zod/mini): validate a parsed JSON reply of one step and normalise it into the
// `Envelope` type of types.ts.
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
import type { AgentId, Ass, Blocker, CmOpeningOutput, ConversationTurn, Envelope, KptLists, StepId, WorkerAgent } from '../model/types';
import { STEP_AGENT, isPlainObject } from '../model/types';
import { kptKindOf } from '../kpt';
import { judgementsOf } from '../metrics/tsr';
import { shorten } from '../text/cut';

export type ValidationResult = { ok: true; envelope: Envelope } | { ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// Agent names

/** Aliases after lower-casing and removing spaces, `_`, `-`, `.` and `・`. */
const AGENT_ALIASES: Record<AgentId, string[]> = {
  CM: ['cm', 'capemaster', 'capemasteragent', 'cmagent', 'facilitator', 'ケープマスター'],
  POA: ['poa', 'po', 'productowner', 'productowneragent', 'poagent', 'プロダクトオーナー', 'プロダクトオーナーエージェント'],
  DA: ['da', 'designer', 'designeragent', 'designagent', 'daagent', 'デザイナー', 'デザイナーエージェント'],
  DevA: [
    'deva',
    'dev',
    'developer',
    'developeragent',
    'devagent',
    'developmentagent',
    'デベロッパー',
    '開発者',
    '開発エージェント',
    'デベロッパーエージェント',
  ],
};

const ALIAS_TO_AGENT = new Map<string, AgentId>();
for (const [agent, aliases] of Object.entries(AGENT_ALIASES) as [AgentId, string[]][]) {
  for (const a of aliases) ALIAS_TO_AGENT.set(a, agent);
}

/** Maps a free-form agent name ("Cape Master", "DEVA", "Developer Agent") to an AgentId, or null. */
export function normaliseAgentName(name: unknown): AgentId | null {
  if (typeof name !== 'string') return null;
  const key = name.normalize('NFKC').toLowerCase().replace(/[\s_\-.・()（）]+/g, '');
  return ALIAS_TO_AGENT.get(key) ?? null;
}

/** The role names the paper gives each agent (used when a reply omits or garbles `role`). */
export const DEFAULT_ROLE: Readonly<Record<AgentId, string>> = {
  CM: 'Cape Master',
  POA: 'Product Owner Agent',
  DA: 'Designer Agent',
  DevA: 'Developer Agent',
};

// ---------------------------------------------------------------------------------------------
// Small tolerant building blocks

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `a string ("${shorten(v, 37)}")` : `"${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Zod error customiser: "required (a string)" when missing, "expected a string, got 42" otherwise. */
function expected(what: string) {
  return {
    error: (iss: { input?: unknown; code?: string }) =>
      iss.input === undefined ? `required (${what})` : `expected ${what}, got ${describe(iss.input)}`,
  };
}


/** Numbers written as strings: "4", " 4.5 ", "4/5", "4 / 5". Anything else is left for zod to reject. */
function numberish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:\/\s*5\s*)?$/.exec(v);
  return m ? Number(m[1]) : v;
}

function booleanish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['true', 'yes', 'y', 'はい', 'passed', 'pass'].includes(s)) return true;
  if (['false', 'no', 'n', 'いいえ', 'failed', 'fail'].includes(s)) return false;
  return v;
}

/** Text of a list item written as an object: its `text`-like field, else its string values joined. */
function itemText(v: Record<string, unknown>): string | null {
  for (const k of ['text', 'item', 'content', 'description', 'title', 'name', 'summary']) {
    if (typeof v[k] === 'string') return v[k] as string;
  }
  const parts = Object.values(v).filter((x): x is string | number => typeof x === 'string' || typeof x === 'number');
  return parts.length > 0 ? parts.map(String).join(' — ') : null;
}

/** A list of strings, tolerating missing (→ []), a single string and scalar/object items. */
function toStringList(v: unknown): unknown {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.trim() === '' ? [] : [v];
  if (!Array.isArray(v)) return v;
  return v.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    if (isPlainObject(item)) return itemText(item) ?? item;
    return item;
  });
}

const stringList = z.lazy(() => z.preprocess(toStringList, z.array(z.string(expected('a string')), expected('a list of strings'))));

/** A required string; numbers are accepted and converted. */
const text = z.lazy(() => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string(expected('a string'))));
/** An optional string (missing/null → ''). */
const optionalText = z.lazy(() =>
  z.preprocess((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v), z.string(expected('a string'))),
);

function score(what: string) {
  return z.preprocess(
    numberish,
    z
      .number(expected(`a number from 1 to 5 (${what})`))
      .check(z.refine((n) => n >= 1 && n <= 5, { error: (iss) => `must be between 1 and 5 (got ${String(iss.input)})` })),
  );
}

const assSchema = z.lazy(() =>
  z.preprocess(
    (v) => v,
    z.object(
      {
        score: score('self-reported satisfaction'),
        positive: optionalText,
        improvement: optionalText,
        context_adequate: z.preprocess(
          (v) => (v === undefined ? null : booleanish(v)),
          z.nullable(z.boolean(expected('true or false'))),
        ),
      },
      expected('an object {score, positive, improvement, context_adequate}'),
    ),
  ),
);

const confidenceSchema = z.lazy(() => z.preprocess((v) => (v === undefined ? null : numberish(v)), z.nullable(score('confidence'))));

// ---------------------------------------------------------------------------------------------
// Agent check (shared by all steps)

function agentCheck(step: StepId) {
  const want = STEP_AGENT[step];
  return (obj: { agent?: unknown; role?: unknown }, ctx: z.core.$RefinementCtx) => {
    const byAgent = normaliseAgentName(obj.agent);
    const byRole = normaliseAgentName(obj.role);
    if (byAgent !== null) {
      if (byAgent !== want) {
        ctx.addIssue({
          code: 'custom',
          path: ['agent'],
          message: `this step must be answered by ${want}, but the reply says agent "${String(obj.agent)}" (${byAgent})`,
        });
      }
    } else if (byRole !== null && byRole !== want) {
      ctx.addIssue({
        code: 'custom',
        path: ['role'],
        message: `this step must be answered by ${want}, but the reply's role is "${String(obj.role)}" (${byRole})`,
      });
    } else if (obj.agent !== undefined && byRole !== want) {
      // An unrecognisable agent name with no role to confirm it: ask for the right one.
      ctx.addIssue({ code: 'custom', path: ['agent'], message: `unknown agent ${describe(obj.agent)}; expected "${want}"` });
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Step schemas

function baseShape() {
  return {
    agent: z.optional(z.unknown()),
    role: z.optional(z.unknown()),
    task_id: z.preprocess((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v), z.string(expected('a string'))),
  };
}

const voiceSchema = z.lazy(() => z.string(expected('a string: what you say to the team, in your own words')));

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

const openingSchema = z.lazy(() =>
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

const retroSchema = z.lazy(() =>
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
 * without a question are dropped, never a reason to reject the reply: blockers are optional.
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
    if (question && question.trim()) out.push({ to, question: question.trim().slice(0, MAX_BLOCKER_CHARS) });
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

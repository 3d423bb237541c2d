// The tolerant building blocks of the envelope schemas (zod/mini): numbers and booleans written as strings, lists
// written as one string (a line per item) or as objects, scores 1–5, the self-assessment and confidence, the fields
// every envelope shares (agent, role, task_id, voice) and the check that the right agent answered. Their error texts
// are short and concrete, so they can be quoted back to the model in the one repair request (./envelope.ts).
import * as z from '../model/schema';
import { STEP_AGENT, isPlainObject, type StepId } from '../model/types';
import { shorten } from '../text/cut';
import { listItems } from '../text/markdown';
import { isPlaceholderItem } from '../text/placeholder';
import { normaliseAgentName } from './agentNames';

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `a string ("${shorten(v, 37)}")` : `"${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Zod error customiser: "required (a string)" when missing, "expected a string, got 42" otherwise. */
export function expected(what: string) {
  return {
    error: (iss: { input?: unknown; code?: string }) =>
      iss.input === undefined ? `required (${what})` : `expected ${what}, got ${describe(iss.input)}`,
  };
}


/** Numbers written as strings: "4", " 4.5 ", "4/5", "4 / 5". Anything else is left for zod to reject. */
export function numberish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:\/\s*5\s*)?$/.exec(v);
  return m ? Number(m[1]) : v;
}

export function booleanish(v: unknown): unknown {
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

/**
 * A list of strings, tolerating missing (→ []), scalar/object items and a single string: one item when it is one line,
 * else its lines as items (`"- A\n- B"` → A, B: text/markdown.ts listItems). Items that only say there is nothing
 * ("なし", "N/A": text/placeholder.ts) are left out, so `["None"]` is an empty list.
 */
export function toStringList(v: unknown): unknown {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    const items = /[\r\n]/.test(v.trim()) ? listItems(v) : v.trim() === '' ? [] : [v];
    return items.filter((item) => !isPlaceholderItem(item));
  }
  if (!Array.isArray(v)) return v;
  return v
    .map((item) => {
      if (typeof item === 'string') return item;
      if (typeof item === 'number' || typeof item === 'boolean') return String(item);
      if (isPlainObject(item)) return itemText(item) ?? item;
      return item;
    })
    .filter((item) => typeof item !== 'string' || !isPlaceholderItem(item));
}

export const stringList = z.lazy(() => z.preprocess(toStringList, z.array(z.string(expected('a string')), expected('a list of strings'))));

/** A required string; numbers are accepted and converted. */
export const text = z.lazy(() => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string(expected('a string'))));
/** An optional string (missing/null → ''). */
export const optionalText = z.lazy(() =>
  z.preprocess((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v), z.string(expected('a string'))),
);

export function score(what: string) {
  return z.preprocess(
    numberish,
    z
      .number(expected(`a number from 1 to 5 (${what})`))
      .check(z.refine((n) => n >= 1 && n <= 5, { error: (iss) => `must be between 1 and 5 (got ${String(iss.input)})` })),
  );
}

export const assSchema = z.lazy(() =>
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

export const confidenceSchema = z.lazy(() => z.preprocess((v) => (v === undefined ? null : numberish(v)), z.nullable(score('confidence'))));

export function agentCheck(step: StepId) {
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

export function baseShape() {
  return {
    agent: z.optional(z.unknown()),
    role: z.optional(z.unknown()),
    task_id: z.preprocess((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v), z.string(expected('a string'))),
  };
}

export const voiceSchema = z.lazy(() => z.string(expected('a string: what you say to the team, in your own words')));

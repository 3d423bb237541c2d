// Reading what the host sends the panel: every value from the host (and thus from the model) is coerced
// defensively, so a malformed field degrades to an empty value instead of throwing — strings and lists, usage, KPT
// lists, the session's open questions, an envelope as the view keeps it (plain, serialisable data only).
import { isPlainObject as isObj, WORKER_AGENTS, type KptLists, type OpenQuestion, type Usage, type WorkerAgent } from '../../src/core/model/types';
import type { EnvelopeView } from './viewState';

export const str = (x: unknown): string => (typeof x === 'string' ? x : typeof x === 'number' || typeof x === 'boolean' ? String(x) : '');
export const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
export const strList = (x: unknown): string[] => (Array.isArray(x) ? x.map(str).filter((s) => s.trim() !== '') : []);

export function usageOf(x: unknown): Usage {
  const u = isObj(x) ? x : {};
  return {
    inputTokens: num(u.inputTokens) ?? 0,
    outputTokens: num(u.outputTokens) ?? 0,
    cacheCreationInputTokens: num(u.cacheCreationInputTokens) ?? 0,
    cacheReadInputTokens: num(u.cacheReadInputTokens) ?? 0,
  };
}

const WORKER_NAMES = new Set<string>(WORKER_AGENTS);

/** The session's open questions as the host sent them: items that are not well-formed are dropped. */
export function openQuestionsOf(x: unknown): OpenQuestion[] {
  if (!Array.isArray(x)) return [];
  const out: OpenQuestion[] = [];
  for (const q of x) {
    if (!isObj(q)) continue;
    const a = isObj(q.answer) && WORKER_NAMES.has(str(q.answer.by)) && str(q.answer.text) ? q.answer : null;
    const text = str(q.text);
    if (!text && !a) continue;
    out.push({
      id: str(q.id) || null,
      from: WORKER_NAMES.has(str(q.from)) ? (str(q.from) as WorkerAgent) : null,
      text,
      ...(a ? { answer: { by: str(a.by) as WorkerAgent, text: str(a.text), ...(str(a.evidence) ? { evidence: str(a.evidence) } : {}), ...openPartOf(a.openPartIn) } } : {}),
    });
  }
  return out;
}

/** An answer's `openPartIn` (the questions its open part went to), when it names any. */
function openPartOf(x: unknown): { openPartIn?: string[] } {
  const ids = strList(x);
  return ids.length ? { openPartIn: ids } : {};
}

export function kptOf(x: unknown): KptLists | null {
  if (!isObj(x)) return null;
  return { keep: strList(x.keep), problem: strList(x.problem), try: strList(x.try) };
}

/** Deep-copies plain JSON data, dropping functions/cycles, bounded in depth, so the state stays serialisable. */
export function plain(x: unknown, depth = 0): unknown {
  if (depth > 12) return null;
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return x;
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (Array.isArray(x)) return x.map((v) => plain(v, depth + 1));
  if (isObj(x)) {
    const out: Record<string, unknown> = {};
    // defined, not assigned: a "__proto__" key of the model's JSON is a key like any other, never the prototype
    for (const [k, v] of Object.entries(x)) {
      if (v !== undefined && typeof v !== 'function') Object.defineProperty(out, k, { value: plain(v, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return null;
}

export function envelopeView(x: unknown): EnvelopeView {
  const e = isObj(x) ? x : {};
  const ass = isObj(e.ass)
    ? {
        score: num(e.ass.score),
        positive: str(e.ass.positive),
        improvement: str(e.ass.improvement),
        contextAdequate: typeof e.ass.context_adequate === 'boolean' ? e.ass.context_adequate : null,
      }
    : null;
  const conversation = Array.isArray(e.conversation)
    ? e.conversation.filter(isObj).map((t) => ({ speaker: str(t.speaker), text: str(t.text) }))
    : [];
  return {
    role: str(e.role),
    voice: str(e.voice),
    output: plain(e.output),
    references: strList(e.references),
    confidence: num(e.confidence),
    ass,
    conversation,
    kpt: kptOf(e.kpt),
  };
}

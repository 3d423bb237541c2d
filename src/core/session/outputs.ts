// How agents' free-form outputs are cut down for the agents after them: compact serialisation, the top-level keys a
// step needs (pickKeys), and what the retrospective gets of each agent (retroAgentDigest: voice, a bounded outline
// of its output, its open questions, departures and self-assessment; a markdown output read section by section).
// ./sources.ts renders them into the steps' context sections.
import { isPlainObject as isObject, type Envelope } from '../model/types';
import { splitSections } from './packing';
import { boundedList, clip } from './clip';
import { isListItem, listItems } from '../text/markdown';

/** Compact, stable serialisation of structured output (no indentation: the model does not need it). */
export function compact(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export type Json = Record<string, unknown>;

/** Selects top-level keys of a free-form output object whose names match; falls back to the whole object. */
export function pickKeys(output: unknown, include: RegExp, exclude?: RegExp): unknown {
  if (!isObject(output)) return output;
  const picked: Json = {};
  for (const [k, v] of Object.entries(output)) {
    if (include.test(k) && !(exclude && exclude.test(k))) picked[k] = v;
  }
  return Object.keys(picked).length ? picked : output;
}

const OPEN_QUESTIONS = /question|質問|未解決/i;
/** A word naming answers: `answer(s)`, `response(s)`, `reply`/`replies`. */
const ANSWER_WORD = '(?:answers?|responses?|repl(?:y|ies))';
/**
 * A list of earlier roles' questions a role settled: `answered_questions`, `resolved…`, `answers`, questions' answers
 * (`question_answers`, `openQuestionResponses`: the answer word right after the question word) or answers to
 * questions (`responses_to_open_questions`, `質問への回答`). Not `unanswered_…` or `未回答…`, nor questions that wait
 * for an answer (`questions_to_answer`, `questions_needing_answers`, `questions_for_stakeholder_response`,
 * `回答待ちの質問`): those are open.
 */
const ANSWERED = new RegExp(
  [
    '(?<!un)answered',
    '(?<!un)resolved',
    '回答済',
    '解決済',
    `^${ANSWER_WORD}$`,
    `questions?[\\s_-]*${ANSWER_WORD}(?![a-z])`,
    `${ANSWER_WORD}[\\s_-]*(?:to|for|on)[\\s_-]*(?:[a-z]+[\\s_-]*)?questions?`,
    '質問(?:への|に対する|の)?回答(?!待)',
  ].join('|'),
  'i',
);

/** True for an output key that lists the role's open questions (`open_questions`, `質問`), not its answered ones. */
export function isOpenQuestionsKey(key: string): boolean {
  return OPEN_QUESTIONS.test(key) && !ANSWERED.test(key);
}

/** True for an output key that lists earlier roles' questions this role answered (`answered_questions`, `question_answers`). */
export function isAnsweredKey(key: string): boolean {
  return ANSWERED.test(key);
}
const DEPARTURES = /departure|deviation|逸脱|相違/i;
const IDENTIFYING = ['id', 'name', 'decision', 'story', 'path', 'title', 'component', 'priority', 'action'];

/** An output value as a list of items: a list as it is, a single value as one item, nothing as none. */
export function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
}

/** A short outline of an output value: strings clipped at a sentence end, list items reduced to what names them. */
function outline(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return clip(v, 240);
  if (!v || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const items = v.slice(0, 12).map((item) => {
      if (!isObject(item)) return outline(item, depth + 1);
      const named: Json = {};
      for (const k of IDENTIFYING) if (typeof item[k] === 'string') named[k] = clip(item[k] as string, 160);
      for (const [k, sub] of Object.entries(item)) {
        if (Array.isArray(sub) && sub.length && sub.every((x) => isObject(x) && typeof x.id === 'string')) named[k] = sub.map((x) => (x as Json).id);
      }
      return Object.keys(named).length ? named : clip(compact(item), 160);
    });
    return v.length > 12 ? [...items, `(${v.length - 12} more)`] : items;
  }
  if (depth >= 2) return clip(compact(v), 240);
  const out: Json = {};
  for (const [k, sub] of Object.entries(v)) out[k] = outline(sub, depth + 1);
  return out;
}

/** Characters of an agent's output outline in the retrospective request. */
export const RETRO_OUTLINE_BUDGET = 2000;

/**
 * A markdown output (the paper's `"output": "…"` string) as named parts, so the retrospective digest reads it like an
 * object output: one key per heading (the text before the first heading under "text"), a section that is only a list
 * becomes its items (text/markdown.ts listItems: `- `, `1. `, `・` … markers).
 */
export function markdownParts(markdown: string): Json {
  const parts: Json = {};
  for (const sec of splitSections(markdown)) {
    if (!sec.body) continue;
    const lines = sec.body.split(/\r?\n/).filter((l) => l.trim() !== '');
    const value = lines.every(isListItem) ? listItems(sec.body) : sec.body;
    let key = sec.level === 0 ? 'text' : sec.title;
    for (let n = 2; key in parts; n++) key = `${sec.level === 0 ? 'text' : sec.title} (${n})`;
    parts[key] = value;
  }
  return parts;
}

/**
 * What the retrospective gets of one agent: its voice, an outline of its output (bounded), and — whole, each item cut
 * only at a sentence end when very long — its open questions, its departures from the specs or criteria and its
 * self-assessment. Never a prefix of the raw output. A markdown output is read section by section (markdownParts).
 * `openQuestions`, when given, stands for the output's own (the session's list, named and with later roles' answers:
 * openQuestions.ts).
 */
export function retroAgentDigest(env: Envelope, openQuestions?: readonly string[]): Json {
  const output = typeof env.output === 'string' ? markdownParts(env.output) : isObject(env.output) ? env.output : {};
  const questions: unknown[] = [];
  const departures: unknown[] = [];
  const rest: Json = {};
  for (const [k, v] of Object.entries(output)) {
    if (isOpenQuestionsKey(k)) questions.push(...listOf(v));
    else if (DEPARTURES.test(k)) departures.push(...listOf(v));
    // DevA's criterion → test map reaches the retrospective whole in its own section ('retro:criteria').
    else if (k !== 'criteria_tests') rest[k] = v;
  }
  let delivered = outline(rest);
  if (compact(delivered).length > RETRO_OUTLINE_BUDGET) {
    const short: Json = {};
    const entries = Object.entries(rest);
    let used = 2;
    for (const [i, [k, v]] of entries.entries()) {
      const value = Array.isArray(v) ? `${v.length} item(s)` : clip(compact(v), 160);
      used += JSON.stringify(k).length + JSON.stringify(value).length + 2;
      // Many parts (a long markdown output has one per heading): name how many more rather than exceed the budget.
      if (used > RETRO_OUTLINE_BUDGET - 40) {
        short['…'] = `${entries.length - i} more part(s)`;
        break;
      }
      short[k] = value;
    }
    delivered = short;
  }
  return {
    voice: clip(env.voice, 800),
    delivered,
    open_questions: boundedList(openQuestions ?? questions, 2500),
    departures: boundedList(departures, 2000),
    references: boundedList(env.references, 800, 160),
    confidence: env.confidence,
    ass: env.ass
      ? { ...env.ass, positive: clip(env.ass.positive ?? '', 800), improvement: clip(env.ass.improvement ?? '', 800) }
      : null,
  };
}

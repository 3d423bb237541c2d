// The session's open questions for the human, in one place: each worker role's `open_questions`, numbered per role
// (`POA-Q1`, `DA-Q2`; model/questionIds.ts), and the answers later roles found in the workspace (`answered_questions`: DA,
// having read the code, knows the list is paged, which POA could only ask). A later role answers by the question's id
// (the earlier roles' questions reach it numbered: withQuestionIds), by the id the asking role gave it itself (`OQ-1`,
// kept as `asked_as`) or, failing that, by quoting it; an answer only settles a question of a role before it. Of a
// question that mixes a fact and a choice, the role answers the fact and carries the choice into its own open
// questions, naming the question by id (`POA-Q2, the open part: …`): the answer then records where (`openPartIn`),
// and the question is answered in part (model/questionState.ts). The retrospective file, the panel's results, the CLI and
// the Cape Master's retrospective request all read the same list (collectOpenQuestions).
import { isPlainObject, STEP_AGENT, type Envelope, type OpenQuestion, type StepId, type WorkerAgent } from '../model/types';
import { isAnsweredKey, isOpenQuestionsKey, listOf, markdownParts } from './outputs';
import { isPlaceholderItem } from '../text/placeholder';
import { answeredBy } from '../model/questionState';
import { ID_IN_TEXT, IDS_IN_TEXT, idOfMatch, questionId } from '../model/questionIds';
import { clip } from './clip';

/** The worker steps in session order: a role's answers settle questions of the roles before it. */
const WORKER_STEPS = ['poa', 'da', 'deva'] as const satisfies readonly StepId[];

/**
 * `POA-Q1: the answer` (ID_IN_TEXT's id, then its groups, then the answer, spaces around it included). Stars and the
 * spaces around them as one optional group: `\s*\**\s*` would retry a long run of spaces split every way.
 */
const ANSWER_LINE = new RegExp(String.raw`^\**\s*(${ID_IN_TEXT.source})\s*(?:\*+\s*)?[:：—–-]([\s\S]+)$`, 'i');

/** Our ids a text names (`POA-Q2`, `poa q2` read as `POA-Q2`; not `add-login/POA-Q2`, another session's). */
function idsNamed(text: string): Set<string> {
  return new Set(Array.from(text.matchAll(IDS_IN_TEXT), idOfMatch));
}
/** A question's text opening with an id of ours (`DA-Q1 (from POA-Q2): …`, `**DevA-Q1**: …`) and what follows it. */
const LEADING_ID = new RegExp(String.raw`^\**\s*${ID_IN_TEXT.source}\s*(?:\*+\s*)?(?:[:：—–.-]\s*)?`, 'i');

/**
 * A role's question without the id it wrote at its start when that id is the one the question gets (`questionId`):
 * a role that numbers its questions as we do would otherwise reach the human as "DA-Q1: DA-Q1 (from POA-Q2) …". Any
 * other id it opens with (another role's question it follows up) stays.
 */
function withoutOwnId(text: string, id: string): string {
  const m = LEADING_ID.exec(text);
  if (!m || idOfMatch(m) !== id) return text;
  return text.slice(m[0].length) || text;
}

function str(x: unknown): string {
  return typeof x === 'string' ? x.trim() : '';
}

/** A markdown output read as named parts (outputs.ts markdownParts); an object as it is. */
function partsOf(output: unknown): Record<string, unknown> {
  if (typeof output === 'string') return markdownParts(output);
  return isPlainObject(output) ? output : {};
}

/** The items of every part of an output whose key `listed` accepts, in the output's order. */
function itemsUnder(output: unknown, listed: (key: string) => boolean): unknown[] {
  return Object.entries(partsOf(output)).flatMap(([k, v]) => (listed(k) ? listOf(v) : []));
}

/**
 * A question item's text: the string, or an object's question (text, title); else its text values joined, an id
 * left out (`{"id": "OQ-01", "topic": "max-height", "detail": "…"}` → "max-height — …"); else the object, compact.
 * '' for an item that only says there is none ("N/A", `{"question": "なし"}`: text/placeholder.ts).
 */
function questionText(item: unknown): string {
  const text = questionWords(item);
  return isPlaceholderItem(text) ? '' : text;
}

/** questionText's words before the placeholder check: the string, the object's question, its text values, or it compact. */
function questionWords(item: unknown): string {
  if (typeof item === 'string') return item.trim();
  if (isPlainObject(item)) {
    const named = str(item.question) || str(item.text) || str(item.title);
    if (named) return named;
    const values = Object.entries(item).filter(([k, v]) => k !== 'id' && str(v)).map(([, v]) => str(v));
    return values.length ? values.join(' — ') : JSON.stringify(item);
  }
  return item === null || item === undefined ? '' : String(item);
}

/** `OQ-1`: an id a role gives a question of its own. */
const OWN_ID = String.raw`[A-Za-z]{1,6}[-_]?\d{1,3}`;
/** `OQ-1: …`: the id a role wrote at the start of a question of its own, as a string. */
const OWN_ID_IN_TEXT = new RegExp(String.raw`^\**\s*(${OWN_ID})\s*(?:\*+\s*)?[:：)]`);
/** A key naming a question by id, ours (`POA-Q1`) or the asking role's (`OQ-1`, `OQ-2_export`). */
const ID_KEY = new RegExp(String.raw`^\s*(?:${ID_IN_TEXT.source}|${OWN_ID}(?![\p{L}\p{N}]))`, 'iu');

/** The id the asking role gave a question itself (`{"id": "OQ-1", …}`, `"OQ-1: …"`), or ''. */
function ownIdOf(item: unknown): string {
  if (isPlainObject(item)) return typeof item.id === 'number' ? String(item.id) : str(item.id);
  return typeof item === 'string' ? (OWN_ID_IN_TEXT.exec(item.trim())?.[1] ?? '') : '';
}

/** A role's open questions in order (every key that lists them, in the output's order), with the ids it gave them. */
function openQuestionsOf(output: unknown, agent: WorkerAgent): { text: string; ownId: string }[] {
  return itemsUnder(output, isOpenQuestionsKey)
    .map((item) => ({ text: questionText(item), ownId: ownIdOf(item) }))
    .filter((q) => q.text)
    .map((q, i) => ({ ...q, text: withoutOwnId(q.text, questionId(agent, i + 1)) }));
}

/**
 * An output with its open questions named (`POA-Q1: …`; an object item's `id` is ours, the one the role gave it kept
 * as `asked_as`), for the roles after it: they answer a question by either id. A markdown output is left as it is (its
 * questions are matched by their words).
 */
export function withQuestionIds(output: unknown, agent: WorkerAgent): unknown {
  if (!isPlainObject(output)) return output;
  let n = 0;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(output)) {
    if (!isOpenQuestionsKey(k)) {
      copy[k] = v;
      continue;
    }
    const named = listOf(v).map((item) => {
      if (!questionText(item)) return item;
      const id = questionId(agent, ++n);
      if (!isPlainObject(item)) return `${id}: ${withoutOwnId(questionText(item), id)}`;
      // ours wins (an answer by it must find the question); the role's own id stays, by another name
      const { id: _own, ...rest } = item;
      const own = ownIdOf(item);
      return { id, ...rest, ...(own && own !== id ? { asked_as: own } : {}) };
    });
    copy[k] = Array.isArray(v) ? named : named[0];
  }
  return copy;
}

interface Answer {
  /** The question as the answering role named it: an id, its words, or both. */
  question: string;
  text: string;
  evidence?: string;
}

/** `POA-Q1: the list is paged (src/list.tsx:40)` or `{question, answer, evidence}`. */
function answerOf(item: unknown): Answer | null {
  if (isPlainObject(item)) {
    const question = str(item.question) || str(item.id) || str(item.ref) || str(item.for);
    const text = str(item.answer) || str(item.text) || str(item.resolution) || str(item.finding);
    const evidenceRaw = item.evidence ?? item.source ?? item.where ?? item.references;
    const evidence = Array.isArray(evidenceRaw) ? evidenceRaw.map(str).filter(Boolean).join(', ') : str(evidenceRaw);
    return question && text ? { question, text, ...(evidence ? { evidence } : {}) } : null;
  }
  const line = str(item);
  if (!line) return null;
  const m = ANSWER_LINE.exec(line);
  return m ? { question: m[1], text: m[4].trim() } : { question: line, text: line };
}

/**
 * An answers item as answers: `{"POA-Q1": "…", "OQ-2": {"answer": "…", "evidence": "…"}}` (keyed by question id) is
 * one answer a key (ID_KEY); a key that names no question (`"note": "both settled"`) is no answer and leaves the
 * others be. Any other item is one.
 */
function answerItems(item: unknown): unknown[] {
  if (!isPlainObject(item) || answerOf(item)) return [item];
  const byId = Object.entries(item).filter(([k]) => ID_KEY.test(k));
  if (!byId.length) return [item];
  return byId.map(([k, v]) => (isPlainObject(v) ? { ...v, question: k } : { question: k, answer: v }));
}

function answersOf(output: unknown): Answer[] {
  return itemsUnder(output, isAnsweredKey)
    .flatMap(answerItems)
    .map(answerOf)
    .filter((a): a is Answer => a !== null);
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]{3,}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{2}/gu) ?? []);
}

/** An id compared: case and leading zeros aside (`oq-01` is `OQ-1`). */
const idKey = (id: string) => id.toLowerCase().replace(/\d+/g, (d) => String(Number(d)));

/**
 * The earlier question an answer names: by our id when it gives one that exists, else by the id the asking role gave
 * it (`OQ-1`, when only one open question has it), else the one whose words it shares most (at least 3 of its words
 * and 60% of the shorter one's), else none.
 */
function questionFor(a: Answer, earlier: readonly OpenQuestion[], ownIds: ReadonlyMap<OpenQuestion, string>): OpenQuestion | null {
  const m = ID_IN_TEXT.exec(a.question);
  if (m) {
    const id = idOfMatch(m);
    const hit = earlier.find((q) => q.id === id);
    if (hit) return hit;
  }
  const named = idKey(a.question.replace(/^[\s*]+/, ''));
  const byOwnId = earlier.filter((q) => {
    const own = ownIds.get(q);
    return own && named.startsWith(idKey(own)) && !/[\p{L}\p{N}]/u.test(named.charAt(idKey(own).length));
  });
  if (byOwnId.length === 1) return byOwnId[0];
  const mine = words(a.question.replace(ID_IN_TEXT, ' '));
  let best: OpenQuestion | null = null;
  let bestShare = 0;
  for (const q of earlier) {
    const theirs = words(q.text);
    let shared = 0;
    for (const w of mine) if (theirs.has(w)) shared++;
    const share = shared / Math.max(1, Math.min(mine.size, theirs.size));
    if (shared >= 3 && share >= 0.6 && share > bestShare) {
      best = q;
      bestShare = share;
    }
  }
  return best;
}

/**
 * The session's open questions in step order, each with the answer a later role gave it; then the answers that named
 * no earlier question (id and from null). The first answer to a question is kept.
 */
export function collectOpenQuestions(envelopes: Partial<Record<StepId, Envelope>>): OpenQuestion[] {
  const questions: OpenQuestion[] = [];
  const loose: OpenQuestion[] = [];
  const ownIds = new Map<OpenQuestion, string>();
  for (const step of WORKER_STEPS) {
    const env = envelopes[step];
    if (!env) continue;
    const agent = STEP_AGENT[step] as WorkerAgent;
    const earlier = questions.slice();
    const settled: OpenQuestion[] = [];
    for (const a of answersOf(env.output)) {
      const answer = { by: agent, text: a.text, ...(a.evidence ? { evidence: a.evidence } : {}) };
      const q = questionFor(a, earlier.filter((x) => !x.answer), ownIds);
      if (q) {
        q.answer = answer;
        settled.push(q);
      } else loose.push({ id: null, from: null, text: a.question === a.text ? '' : a.question, answer });
    }
    const asked = openQuestionsOf(env.output, agent).map(({ text, ownId }, i) => {
      const q: OpenQuestion = { id: questionId(agent, i + 1), from: agent, text };
      if (ownId) ownIds.set(q, ownId);
      return q;
    });
    questions.push(...asked);
    carryOpenParts(settled, asked);
  }
  return [...questions, ...loose];
}

/**
 * The questions a role settled whose open part it carried into its own (`asked`, which name them by id: `DA-Q1 (from
 * POA-Q2): …`, `POA-Q2, the open part: …`) record where: they are answered in part. A later role naming one does not
 * count: the part left open is the answering role's to carry.
 */
function carryOpenParts(settled: readonly OpenQuestion[], asked: readonly OpenQuestion[]): void {
  if (!settled.length) return;
  const named = asked.map((q) => ({ id: q.id!, names: idsNamed(q.text) }));
  for (const q of settled) {
    const carriers = named.filter((c) => c.names.has(q.id!)).map((c) => c.id);
    if (carriers.length) q.answer!.openPartIn = carriers;
  }
}

/**
 * One question as a line for a model or a person: `POA-Q1: … — answered by DA: … (src/list.tsx:40)`, or `… — answered
 * in part by DA (open part carried to DA-Q2): …`.
 */
export function questionLine(q: OpenQuestion): string {
  const head = q.id ? `${q.id}: ${q.text}` : q.text;
  if (!q.answer) return head;
  const answered = `${answeredBy(q)}: ${q.answer.text}${q.answer.evidence ? ` (${q.answer.evidence})` : ''}`;
  return head ? `${head} — ${answered}` : answered;
}

/** Characters of a question's answer (and of its evidence) in a list a model reads (questionList): the question itself stays whole. */
const LISTED_ANSWER_CHARS = 400;
const LISTED_EVIDENCE_CHARS = 160;

/**
 * Questions as `- ` lines (questionLine) within `max` characters: each answer cut to LISTED_ANSWER_CHARS at a sentence
 * end, each question whole while it fits (a long one cut), and the ids of those left out named after the last — in a
 * Day.js trial DA's long answers filled DevA's 2,500 characters, the fourth question ended "[…]" and the fifth and
 * sixth were gone without a word, though DevA is told not to ask them again.
 */
export function questionList(questions: readonly OpenQuestion[], max: number): string {
  // the note of those left out: `(2 more not shown: POA-Q5, POA-Q6)`
  const rest = (from: readonly OpenQuestion[]) => {
    const ids = from.flatMap((o) => (o.id ? [o.id] : []));
    return from.length ? `(${from.length} more not shown${ids.length ? `: ${ids.join(', ')}` : ''})` : '';
  };
  const lines: string[] = [];
  let used = 0;
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i];
    const answer = q.answer && { ...q.answer, text: clip(q.answer.text, LISTED_ANSWER_CHARS), ...(q.answer.evidence ? { evidence: clip(q.answer.evidence, LISTED_EVIDENCE_CHARS) } : {}) };
    // room kept for the note of those after it, should this be the last line
    const left = questions.slice(i + 1);
    const room = max - used - (left.length ? rest(left).length + 1 : 0);
    let line = `- ${questionLine({ ...q, ...(answer ? { answer } : {}) })}`;
    if (line.length > room) line = room >= 200 ? clip(line, room) : '';
    if (!line) {
      lines.push(rest(questions.slice(i)));
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join('\n');
}

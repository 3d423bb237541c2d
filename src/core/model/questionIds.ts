// How a role's open question is named, in one place: `POA-Q1` (questionId) within its own session, and
// `add-login/DA-Q1` (qualifiedQuestionId) in a later one. Numbering restarts every session, so a past session's KPT
// item that says "DA-Q1 was left open" would read as this session's DA-Q1: past text shown to a later session (the
// KPT merge, the KPT digest) carries its ids qualified with their session's task id (qualifyQuestionIds), and the
// matching of this session's answers (session/openQuestions.ts) never takes a qualified id for one of its own.
// Plain functions on data.
import type { WorkerAgent } from './steps';

/** `POA-Q1`: how a role's n-th open question is named, to the roles after it and to the human. */
export function questionId(agent: WorkerAgent, n: number): string {
  return `${agent}-Q${n}`;
}

/** `add-login/DA-Q1`: a question of the session `taskId`, as a later session reads it. */
export function qualifiedQuestionId(taskId: string, id: string): string {
  return `${taskId}/${id}`;
}

/** A question id as people and models write it: any case, `-`, a Unicode hyphen, a space or nothing before the Q. */
const BARE_ID = String.raw`\b(POA|DA|DevA)[-‐‑ ]?Q(\d{1,3})\b`;
/**
 * What stands before a qualified id (qualifiedQuestionId): a word and a slash (a full-width one too, as a Japanese
 * input method types it), the word any `[tag]` of kpt_merged.md (`ログイン改修/DA-Q1`) but not itself an id: in
 * `DA-Q1/DA-Q2` both are bare ids.
 */
const QUALIFIER_BEFORE = String.raw`(?<!\S[/／])|(?<=${BARE_ID.replace(/\((?!\?)/g, '(?:')}[/／])`;

/**
 * A question id of this session in a text (`POA-Q1`, `poa q1`, `DevA‑Q2`): groups 1 and 2 are the role and the
 * number. An id a qualifier names another session of (`add-login/DA-Q1`) is no match.
 */
export const ID_IN_TEXT = new RegExp(String.raw`(?:${QUALIFIER_BEFORE})${BARE_ID}`, 'i');
/** ID_IN_TEXT anywhere in a text, every time (replace and matchAll leave it as they found it: one object serves all). */
export const IDS_IN_TEXT = new RegExp(ID_IN_TEXT.source, 'gi');

const AGENT_BY_LOWER: Record<string, WorkerAgent> = { poa: 'POA', da: 'DA', deva: 'DevA' };

/** Our id (`questionId`) of ID_IN_TEXT's groups: the role in any case, then the number (`poa`, `01` → `POA-Q1`). */
function ourId(role: string, n: string): string {
  return questionId(AGENT_BY_LOWER[role.toLowerCase()], Number(n));
}

/** Our id (`questionId`) of a match of ID_IN_TEXT. */
export function idOfMatch(m: RegExpMatchArray): string {
  return ourId(m[1], m[2]);
}

/**
 * `text` of the session `taskId` as a later session reads it: every bare question id in it qualified with the task id
 * (`DA-Q1 was left open` → `add-login/DA-Q1 was left open`), written as questionId writes it; ids already qualified
 * are left as they are, and so is everything else. In code spans too: `DA-Q1` there still names that session's
 * question.
 */
export function qualifyQuestionIds(text: string, taskId: string): string {
  return text.replace(IDS_IN_TEXT, (_id, role: string, n: string) => qualifiedQuestionId(taskId, ourId(role, n)));
}

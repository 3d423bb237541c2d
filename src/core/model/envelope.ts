// The agents' envelopes once normalised (the zod schemas that produce them: reply/envelope.ts), with the parsed
// reply's <file>/<edit> blocks and DevA's questions. Part of the shared vocabulary of core (model/index.ts).
import type { AgentId, WorkerAgent } from './steps';
import type { Usage } from './llm';
import type { KptLists } from './kpt';

export interface Ass {
  /** Self-reported satisfaction 1–5. */
  score: number | null;
  positive: string;
  improvement: string;
  context_adequate: boolean | null;
}

export interface CmOpeningOutput {
  session_brief: string;
  /** `questions`: what the team cannot reasonably assume, for the user before POA starts (absent when none). */
  dor_check: { passed: boolean; concerns: string[]; questions?: string[] };
  watch_out: string[];
  /** One coaching note per worker agent (missing notes are empty strings). */
  coaching_notes: Record<WorkerAgent, string>;
  /** Recurring Problems / adopted Tries the CM chose to flag (optional). */
  kpt_followups?: string[];
  /** Ids (from the KPT digest) of earlier open Tries this session adopts; the engine marks them adopted. */
  adopted_tries?: string[];
  /** Which kinds of change are pre-approved and which need the human's approval (optional: older sessions lack it). */
  go_ahead?: { pre_approved: string[]; needs_approval: string[] };
}

export interface ConversationTurn {
  speaker: string;
  text: string;
}

export interface Envelope {
  agent: AgentId;
  role: string;
  task_id: string;
  phase?: 'opening' | 'retrospective';
  voice: string;
  /**
   * Step-specific output: CmOpeningOutput for cm_open, null for the retro; for POA/DA/DevA a free-form object or
   * markdown text (the CAPE paper's envelope writes `"output": "Domain-specific content"`), stored as the reply gave it.
   */
  output: unknown;
  references: string[];
  confidence: number | null;
  ass: Ass | null;
  /** Retrospective only. */
  conversation?: ConversationTurn[];
  kpt?: KptLists;
  /** Whatever the model reported as metrics in the retro; informational only — real metrics are computed. */
  reportedMetrics?: Record<string, unknown>;
  /** Retrospective only: CM's judgement of each acceptance criterion (for the judged TSR). */
  criteria?: CriterionJudgement[];
  /** DevA only: questions that block it, read from `output.blockers` (absent when none). */
  blockers?: Blocker[];
}

/** One DevA → DA → DevA round, as kept in DevA's pair artifact: both extra requests' replies. */
export interface FeedbackRecord {
  round: number;
  from: AgentId;
  to: AgentId;
  questions: string[];
  /** DevA's reply that raised the blockers. */
  blockedRaw: string;
  /** The answering agent's raw reply (after its repair request, when one was needed). */
  answerRaw: string;
  /** Its envelope; absent when the reply could not be used (DevA then decided alone). */
  answer?: Envelope;
  /** The answer as DevA received it (empty when there was none). */
  answerText: string;
  /** The answer request's tokens (also counted in DevA's step usage). */
  usage: Usage;
  model: string;
}

/** A question DevA cannot settle itself, for the agent who owns the answer (today: DA about its specs). */
export interface Blocker {
  to: AgentId;
  question: string;
}

/** CM's judgement of one of POA's acceptance criteria. */
export interface CriterionJudgement {
  id: string;
  status: 'met' | 'not_met' | 'unknown';
  reason: string;
  /** The status as CM wrote it, when it could not be read as met, not met or unknown (then `status` is unknown). */
  unreadable?: string;
}

/** One SEARCH/REPLACE hunk of an <edit> block (lines without terminators; an empty `replace` deletes). */
export interface Hunk {
  search: string[];
  replace: string[];
  /**
   * Only when several lines of the hunk could be its ======= divider (e.g. a Markdown heading's underline): every way
   * of splitting it, the first being search/replace. The matcher applies the one whose SEARCH matches the file.
   */
  readings?: { search: string[]; replace: string[] }[];
}

/** A parsed reply: the envelope plus DevA's <file> and <edit> blocks and <summary>. */
export interface ParsedReply {
  envelope: Envelope;
  files: { path: string; content: string }[];
  /** <edit path="…"> blocks: SEARCH/REPLACE hunks for existing files (matched by src/core/edits/). */
  edits: { path: string; hunks: Hunk[] }[];
  summary: string | null;
}

/**
 * An open question a role left for the human (its `open_questions`), numbered per role (`POA-Q1`), and the answer a
 * later role found in the workspace when it settled it (DA, having read the code, knows the list is paged). An answer
 * whose question matched none of the earlier roles' has `id` and `from` null and `text` as the answering role quoted it.
 * `openPartIn`: the answering role's own open questions that name this one by id (`DA-Q2`), where it carried the part
 * it left open — the question is answered in part (model/questionState.ts).
 */
export interface OpenQuestion {
  id: string | null;
  from: WorkerAgent | null;
  text: string;
  answer?: { by: WorkerAgent; text: string; evidence?: string; openPartIn?: string[] };
}

// Shared types of the CAPE core. Plain TypeScript: nothing in src/core may import 'vscode'.

import type { CheckEvent } from '../checks/types';

/** The five steps of a session, strictly in this order. */
export const STEP_IDS = ['cm_open', 'poa', 'da', 'deva', 'cm_retro'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** The agents. CM runs twice (opening and retrospective). */
export type AgentId = 'CM' | 'POA' | 'DA' | 'DevA';
export const WORKER_AGENTS = ['POA', 'DA', 'DevA'] as const;
export type WorkerAgent = (typeof WORKER_AGENTS)[number];

export const STEP_AGENT: Record<StepId, AgentId> = {
  cm_open: 'CM',
  poa: 'POA',
  da: 'DA',
  deva: 'DevA',
  cm_retro: 'CM',
};

/** The workspace-relative folder of the team's context and session records when none is configured. */
export const DEFAULT_CAPE_FOLDER = 'cape';

/** The folder of the CAPE folder that holds the session records (store/layout.ts names what is inside); never assets. */
export const SESSIONS_FOLDER = '5_sessions';

/** Why a configured CAPE folder cannot be used, or null: it must be a single folder name inside the workspace. */
export function capeFolderRefusal(capeFolder: string): string | null {
  return !capeFolder || /[\\/]|^\.\.?$/.test(capeFolder) ? `Invalid CAPE folder name ${JSON.stringify(capeFolder)}: use a single folder name such as "cape".` : null;
}

/** The agents' names for people. */
export const AGENT_NAME: Record<AgentId, string> = {
  CM: 'Cape Master',
  POA: 'Product Owner',
  DA: 'Designer',
  DevA: 'Developer',
};

/** The steps' short names for people (the panel's step list, table rows). */
export const STEP_LABEL: Record<StepId, string> = {
  cm_open: 'Opening',
  poa: 'Product',
  da: 'Design',
  deva: 'Development',
  cm_retro: 'Retrospective',
};

/** Who speaks in a step, for people: "Product Owner", "Cape Master — opening", "Cape Master — retrospective". */
export function stepTitle(step: StepId): string {
  const name = AGENT_NAME[STEP_AGENT[step]];
  return step === 'cm_open' ? `${name} — opening` : step === 'cm_retro' ? `${name} — retrospective` : name;
}

/** A plain object (a JSON object): not null, not an array. The one such check of core and the webview. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Token usage of one model call, as reported by the Messages API. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** The part of cacheCreationInputTokens written with the 1-hour lifetime (billed 2× input instead of 1.25×). */
  cacheCreation1hInputTokens?: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    ...(a.cacheCreation1hInputTokens || b.cacheCreation1hInputTokens
      ? { cacheCreation1hInputTokens: (a.cacheCreation1hInputTokens ?? 0) + (b.cacheCreation1hInputTokens ?? 0) }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// LLM client

/** How long a cached prompt prefix lives after its last use: 5 minutes (the API's default) or 1 hour. */
export type CacheTtl = '5m' | '1h';

/**
 * One block of the system prompt. `cache` marks the end of a cacheable prefix (`true` = '5m'); the client drops a
 * mark whose prefix is below the model's minimum cacheable size.
 */
export interface SystemBlock {
  text: string;
  cache?: boolean | CacheTtl;
}

/** A tool the model may call during a step (provider-neutral; `inputSchema` is a JSON Schema object). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One tool call the model made. `input` is the parsed JSON the model wrote (unchecked). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /**
   * Why the input cannot be used as the model wrote it (not JSON, not an object, cut at the output limit): `input` is
   * then `{}` and the executor refuses the call with this reason.
   */
  problem?: string;
}

/** A block of a structured message: text, the model's tool calls, and our answers to them. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; content: string; isError: boolean };

export interface ChatMessage {
  role: 'user' | 'assistant';
  /** Plain text, or blocks when the turn carries tool calls / tool results. */
  content: string | ContentBlock[];
}

/** The text of a message's content (tool blocks contribute nothing). */
export function contentText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export interface LlmRequest {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  messages: ChatMessage[];
  /** Tools the model may call (only sent to clients whose `supportsTools` is true). */
  tools?: ToolSpec[];
  /** 'none' forbids further calls (the tool budget is spent: the model must write its answer). Default 'auto'. */
  toolChoice?: 'auto' | 'none';
  /** Mark the end of the last message as a 5-minute cache breakpoint (a tool-loop turn that another will likely follow). */
  cacheLastMessage?: boolean;
  signal?: AbortSignal;
}

export interface LlmResult {
  text: string;
  usage: Usage;
  stopReason: string | null;
  model: string;
  /** The tool calls of this turn, in order (stopReason 'tool_use'). */
  toolCalls?: ToolCall[];
}

/**
 * A streaming model client. `onText` receives text deltas in order as they arrive.
 * Implementations: AnthropicClient (src/core/llm/anthropic/client.ts), the VS Code LM adapter (src/providers).
 * Errors are thrown as LlmError (src/core/errors.ts) so callers can tell retryable from fatal ones.
 */
export interface LlmClient {
  stream(req: LlmRequest, onText: (delta: string) => void): Promise<LlmResult>;
  /** true when the client passes `tools` to the model and reports its tool calls (otherwise no tools are offered). */
  readonly supportsTools?: boolean;
}

/**
 * One tool call of a step, as recorded in the session events and the pair artifact: what was asked and how much
 * came back, never the body.
 */
export interface ToolCallRecord {
  id: string;
  tool: string;
  /** The path (read_file, list_files) or query (search_files) as shown to the user. */
  target: string;
  path?: string;
  query?: string;
  /** read_file of a line range. */
  lines?: [number, number];
  /** Characters returned to the model (0 for a refused call). */
  chars: number;
  /** search_files: matching lines; list_files: paths listed. */
  hits?: number;
  /** A focused search_files (few hits): where they are, as [path, line] — never the lines' text. */
  found?: [string, number][];
  /** Why the call was refused (policy, arguments). */
  refused?: string;
  /** The step's bound was reached: the call got "limit reached". */
  limited?: boolean;
  /** The result was cut at the step's character budget. */
  truncated?: boolean;
}

// ---------------------------------------------------------------------------------------------
// DevA's proposed files

export type FileAction = 'create' | 'modify';
export type FileStatus = 'proposed' | 'applied' | 'refused';

export interface ProposedFile {
  /** The path exactly as the model wrote it. */
  path: string;
  /** Normalised workspace-relative path with forward slashes (when safe). */
  relPath?: string;
  /** Absolute path inside the workspace (when safe). */
  absPath?: string;
  action: FileAction;
  status: FileStatus;
  /** Why the file was refused. */
  reason?: string;
  /** Proposed content. */
  content: string;
  /** Current content on disk for 'modify'. */
  currentContent?: string;
  /**
   * SHA-256 (hex, of the UTF-8 text) of the file as DevA's proposal was made against it, for 'modify': the step
   * record keeps it instead of the text, and proposals reloaded from the record (resume, window reload) check the
   * disk against it (files/proposalBase.ts), not against the disk at reload.
   */
  baseSha256?: string;
  /** From an <edit> block (search/replace hunks) rather than a whole <file>. */
  edit?: boolean;
  /** Shown with the proposal, e.g. WARNING_UNREAD_REWRITE. */
  warning?: string;
}

/** The warning on a <file> that rewrites an existing file DevA neither read nor received whole. */
export const WARNING_UNREAD_REWRITE = 'rewrites a file that was not read';

// ---------------------------------------------------------------------------------------------
// KPT

export type KptKind = 'keep' | 'problem' | 'try';

/**
 * Where an item stands: Tries `open | adopted | dropped`, Problems `open | resolved`; Keeps stay `open` (they have no
 * lifecycle and are never archived). Stored in kpt_merged.md as a trailing `<!-- cape-kpt: … -->` (see core/kpt).
 */
export type KptStatus = 'open' | 'adopted' | 'dropped' | 'resolved';

export interface KptItem {
  kind: KptKind;
  taskId: string | null;
  text: string;
  /** Absent = open. */
  status?: KptStatus;
  /** The session that set the status (e.g. the one whose opening adopted a Try), when a session did. */
  statusBy?: string;
}

export interface KptLists {
  keep: string[];
  problem: string[];
  try: string[];
}

// ---------------------------------------------------------------------------------------------
// Envelopes (normalised). The zod schemas that produce these live in src/core/envelope.ts.

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

// ---------------------------------------------------------------------------------------------
// Metrics (computed in code, never by the model)

export interface AgentCost {
  usage: Usage;
  /** USD at list price (llm/pricing.ts); null when the model has no known price. */
  costUsd: number | null;
}

/**
 * A test DevA named for a criterion (`criteria_tests`): a test case by its file and name, or — for a criterion the
 * project's checks prove as a whole (the existing suite still passes) — a check command (`check`; file and name empty),
 * or — for one no test can prove (a changelog line, documentation, wording) — the file whose changes a reviewer reads
 * (`review`: `file` is that file, name empty). A file for review is no test: its criterion counts as tested only by
 * the tests named beside it.
 */
export interface NamedTest {
  file: string;
  name: string;
  check?: string;
  review?: true;
  /** What DevA expects of it on the unchanged code: fail (it tests the change) or pass (a regression guard). */
  expect?: 'fail' | 'pass';
}

/** How DevA's expectation of a test on the unchanged code reads in its label. */
const EXPECT_TEXT = { fail: 'fail-first', pass: 'regression guard' } as const;

/**
 * "test/a.test.js › its name", the file alone when DevA gave no name, "npm test (the whole check)" for a check,
 * "CHANGES.md (for review)" for a file to review; with
 * DevA's expectation when it gave one ("… (fail-first)", "… (regression guard)").
 */
export function testLabel(t: NamedTest): string {
  if (t.check) return `${t.check} (the whole check)`;
  if (t.review) return `${t.file} (for review)`;
  return `${t.file}${t.name ? ` › ${t.name}` : ''}${t.expect ? ` (${EXPECT_TEXT[t.expect]})` : ''}`;
}

/** How a criterion's checks verdict reads for people (the retrospective's request and file, the panel). */
export const COMPUTED_TEXT = { pass: 'passed', fail: 'failed', no_test: 'no test' } as const;
/** How a criterion's fail-first status (CriterionResult.before) reads for people. */
export const BEFORE_TEXT = { fail: 'failed (fail-first observed)', pass: 'passed too (it does not show the change)', no_test: 'not told' } as const;
/** `pass` for a criterion whose tests are all regression guards (CriterionResult.guard). */
export const GUARD_PASSED_TEXT = 'passed (a regression guard, as DevA meant)';
/**
 * A criterion's fail-first verdict in words (the retrospective file's and the panel's "Before the change" cell), a
 * pass of regression guards alone said as such (`guard`), with the surprise when it contradicts what DevA expected;
 * — when there is none (or it is not one BEFORE_TEXT knows).
 */
export function beforeText(before: string | undefined, surprise?: string, guard?: boolean): string {
  if (!before || !Object.prototype.hasOwnProperty.call(BEFORE_TEXT, before)) return '—';
  const verdict = guard && before === 'pass' ? GUARD_PASSED_TEXT : BEFORE_TEXT[before as keyof typeof BEFORE_TEXT];
  return `${verdict}${surprise ? ` — ${surprise}` : ''}`;
}
/** How the Cape Master's judgement of a criterion reads for people. */
export const JUDGED_TEXT = { met: 'met', not_met: 'not met', unknown: 'unknown' } as const;

/** One acceptance criterion in the TSR (metrics/tsr.ts): DevA's named test, the checks' verdict, CM's judgement. */
export interface CriterionResult {
  id: string;
  text: string;
  /** The tests DevA named for it, in its order (metrics saved before 2026-12 have `test`, the first one, instead). */
  tests: NamedTest[];
  /**
   * From the checks' last round; absent when no check ran. fail: one of its tests (or a check it named) failed;
   * no_test: DevA named none, a named test's file does not exist, or a check it named did not run.
   */
  computed?: 'pass' | 'fail' | 'no_test';
  /**
   * Fail-first: its tests in the runs with only DevA's test files applied to the unchanged workspace; absent when
   * those runs did not happen or it names no test file. fail: every test failed there (fail-first observed); pass:
   * one passed there too (it does not show the change); no_test: neither could be told.
   */
  before?: 'pass' | 'fail' | 'no_test';
  /** When `before` contradicts what DevA expected of its tests (metrics/tsr.ts failFirstOf), in words. */
  surprise?: string;
  /** Every test it names in a file is meant as a regression guard: `before` pass is what they are for. */
  guard?: true;
  /** CM's judgement; absent when CM did not judge this criterion. */
  judged?: CriterionJudgement['status'];
  reason?: string;
}

export interface SessionMetrics {
  /** ASS per worker agent (null when the agent did not report one). */
  ass: Partial<Record<WorkerAgent, number | null>>;
  assAverage: number | null;
  /** SV: population variance of the ASS scores. */
  satisfactionVariance: number | null;
  /** ST: least-squares slope of the per-session ASS average across sessions (null with < 2 sessions). */
  satisfactionTrend: number | null;
  /** XRF: count of `references` across envelopes. */
  crossReferenceFrequency: number;
  /** CI: number of retrospective dialogue turns. */
  conversationIndex: number;
  /** ETT: ms from session start to retrospective saved. */
  elapsedMs: number;
  /** CR: input size ÷ context passed, per agent step. */
  compressionRatio: Partial<Record<StepId, number>>;
  /** Tokens and cost per step. */
  perStep: Partial<Record<StepId, AgentCost>>;
  totalUsage: Usage;
  /** Sum of the steps' costs; null when any step's cost is unknown. */
  totalCostUsd: number | null;
  /** TSR computed from the checks: criteria whose named test passed ÷ criteria; null when no check ran. */
  tsr: number | null;
  /** TSR as CM judged it: criteria met ÷ criteria; null when CM judged none. */
  tsrJudged: number | null;
  /** POA's acceptance criteria with their tests and verdicts. */
  criteria: CriterionResult[];
}

// ---------------------------------------------------------------------------------------------
// Session events (what the runner emits; the CLI prints them, the chat panel renders them)

export type ErrorKind =
  | 'auth' // bad or missing API key
  | 'rate_limit'
  | 'overloaded'
  | 'network'
  | 'stalled'
  | 'cancelled'
  | 'invalid_reply' // the reply failed validation even after the repair request
  | 'config' // missing cape/ files, bad options
  | 'io'
  | 'cost_cap' // the next request could take the session over its cost cap: stopped before it, resumable
  | 'unknown';

export type SessionEvent =
  | { type: 'session-started'; taskId: string; objective: string; language: string; steps: StepId[]; resumed: boolean }
  | { type: 'step-started'; step: StepId; agent: AgentId; attempt: number }
  | { type: 'voice-delta'; step: StepId; text: string }
  | { type: 'tool-call'; step: StepId; agent: AgentId; call: ToolCallRecord }
  | { type: 'output-delta'; step: StepId; text: string }
  | { type: 'retry'; step: StepId; attempt: number; reason: string; delayMs: number }
  | { type: 'repair'; step: StepId; error: string }
  /** Something about the step's reply the user should know (e.g. which of several envelopes was used); kept in its pair artifact. */
  | { type: 'warning'; step: StepId; message: string }
  /** The reply stopped at the output limit: continuation `continuation` of at most `max` is being requested. */
  | { type: 'continued'; step: StepId; continuation: number; max: number }
  | { type: 'envelope'; step: StepId; envelope: Envelope; summary: string | null }
  | { type: 'file-proposed'; step: StepId; file: ProposedFile }
  | { type: 'usage'; step: StepId; usage: Usage; model: string }
  /** After every response (and once at the start): what the session has spent in all (null: unknown), and its cap. */
  | { type: 'cost'; spentUsd: number | null; capUsd: number | null }
  | { type: 'step-finished'; step: StepId; artifactPath: string; durationMs: number }
  /** The project's checks on DevA's proposal and the fix rounds (src/core/checks/), during DevA's step. */
  | { type: 'check'; step: StepId; event: CheckEvent }
  /** DevA's reply raised blockers: `to` is asked once (round `round`), then DevA answers again. */
  | { type: 'blocker'; step: StepId; from: AgentId; to: AgentId; round: number; questions: string[]; voice: string }
  /** The CM opening asked blocking questions: the session pauses (state saved) until the user answers or skips them. */
  | { type: 'needs-answers'; step: StepId; taskId: string; questions: string[] }
  /** The answer to the blockers of round `round` (what DevA receives), with the answering agent's voice. */
  | { type: 'blocker-answer'; step: StepId; from: AgentId; round: number; voice: string; answer: string }
  | { type: 'error'; step: StepId | null; kind: ErrorKind; message: string; raw?: string }
  | {
      type: 'session-finished';
      taskId: string;
      retrospectivePath: string;
      kpt: KptLists;
      metrics: SessionMetrics;
      files: ProposedFile[];
    };

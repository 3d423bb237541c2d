// What a caller gives runSession and what it gets back: the session's options, each step's outcome, the session's
// result, and the default output budget per step. The runner (./runner.ts) and the step (./step.ts) read them.
import type { ChecksConfig, ChecksOutcome } from '../checks';
import type { PromptAssets } from '../cape/prompts';
import type { ToolBounds } from '../tools/specs';
import type { WorkspaceIndex } from '../workspace';
import type { Envelope, ErrorKind, FeedbackRecord, KptLists, OpenQuestion, LlmClient, ProposedFile, SessionEvent, SessionMetrics, StepId, Usage } from '../model/types';

export interface SessionOptions {
  workspace: string;
  /** The cape/ folder name, relative to the workspace. */
  capeFolder?: string;
  /** Required for a new session; read from the saved state when resuming. */
  objective?: string;
  language?: string;
  /** Defaults to task-<epoch ms>. */
  taskId?: string;
  model: string;
  llm: LlmClient;
  prompts: PromptAssets;
  onEvent?: (e: SessionEvent) => void;
  /** Problems with the cape/ files that do not stop the session (a file skipped, a project file missing). */
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
  /** Resume the saved session `taskId`: completed steps are loaded from disk, only the rest run. */
  resume?: boolean;
  /** With resume: run this step and every later one again, even if they were completed. */
  fromStep?: StepId;
  maxTokens?: Partial<Record<StepId, number>>;
  /**
   * Tools for DevA and DA (read_file, search_files, list_files) when the client supports them: per-step bounds
   * (defaults 12 calls, 80,000 characters), or false for none.
   */
  tools?: Partial<ToolBounds> | false;
  /**
   * The workspace index kept up to date by the caller (VS Code's file watcher). Without it the runner opens one
   * (from the cache file, refreshed from mtimes) when DA's or DevA's step needs it.
   */
  workspaceIndex?: WorkspaceIndex;
  /** Resume of a session paused for the CM's blocking questions: the user's answers, in the questions' order. */
  answers?: string[];
  /** Resume of a paused session without answers ("Continue anyway"): POA starts from the opening as it is. */
  skipQuestions?: boolean;
  /**
   * false: the CM opening's blocking questions never pause the session (they stay in its envelope), e.g. for
   * `cape repeat`, whose reruns nobody answers. Default true.
   */
  pauseForQuestions?: boolean;
  /** DevA → DA → DevA rounds per session when DevA raises blockers (default DEFAULT_FEEDBACK_ROUNDS = 1; 0 = none). */
  feedbackRounds?: number;
  /** Characters of the workspace section in DevA's prompt (default DEFAULT_WORKSPACE_BUDGET.deva). */
  workspaceBudget?: number;
  /** The project's checks on DevA's proposal, with fix rounds (src/core/checks/); none when absent or empty. */
  checks?: ChecksConfig;
  /**
   * The project's checks found in the workspace but not run in this session (none given with --check, the user chose
   * Skip): DevA and the retrospective are told, so nobody takes the proposal for tested.
   */
  checksNotRun?: readonly string[];
  /**
   * This session reruns the saved session `repeatOf` (`cape repeat`): the KPT digest leaves out the items of that
   * session and its reruns, and this one's KPT is not merged nor its satisfaction counted in the trend.
   */
  repeatOf?: string;
  /** The session's cost cap in USD (`cape.maxSessionCostUsd`, `--max-cost`): no request is sent whose worst case could exceed it. */
  maxCostUsd?: number;
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  now?: () => number;
}

export interface StepOutcome {
  step: StepId;
  ok: boolean;
  usage: Usage;
  model: string;
  envelope?: Envelope;
  /** How many times the reply was continued after stopping at the output limit (absent when never). */
  continuations?: number;
}

export interface SessionResult {
  taskId: string;
  ok: boolean;
  steps: StepOutcome[];
  files: ProposedFile[];
  kpt: KptLists | null;
  metrics: SessionMetrics | null;
  retrospectivePath: string | null;
  /** The roles' open questions for the human, with the answers later roles found (complete sessions only). */
  openQuestions?: OpenQuestion[];
  /** A failed session that `resume` can continue (its state records the failure). */
  resumable: boolean;
  /** The checks on DevA's proposal and their fix rounds, when checks ran (also when DevA's step was resumed). */
  checks?: ChecksOutcome;
  /** DevA → DA → DevA rounds of the session (absent when DevA raised no blocker). */
  feedback?: FeedbackRecord[];
  /** USD spent by every request of the session (all runs), or null when unknown (a model without a known price). */
  costUsd: number | null;
  /**
   * The CM opening asked these blocking questions: the session is paused (state `needs_answers`). Resume it with
   * `answers` (one more CM opening, then POA) or `skipQuestions`.
   */
  needsAnswers?: string[];
  error?: { step: StepId | null; kind: ErrorKind; message: string };
}

/**
 * Rounds of DevA → DA → DevA per session when nothing else is set (`cape.feedbackRounds`, `--feedback-rounds`; the
 * rounds themselves: ./blockers.ts).
 */
export const DEFAULT_FEEDBACK_ROUNDS = 1;

/**
 * Output budget per step: about twice the largest reply measured (9 recorded sessions and 2 trial sessions; tokens
 * estimated at 4 ASCII characters or 1 other character per token, so Japanese counts about three times more per
 * character): CM opening 2.1 K, POA 5.3 K, DA 7.5 K, DevA 17.6 K, retrospective 3.5 K.
 */
export const DEFAULT_MAX_TOKENS: Record<StepId, number> = {
  cm_open: 5000,
  poa: 11000,
  da: 15000,
  deva: 36000,
  cm_retro: 7000,
};

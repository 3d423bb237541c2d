// The panel's view state: its serialisable shape (what each session, step, check and question looks like on screen),
// the empty state, and the restore of one vscode.setState() saved, a malformed or older one degrading to empty or
// upgraded. No DOM here. How host messages change it is model.ts's reducer.
import { isPlainObject as isObj, STEP_IDS, type AgentId, type ErrorKind, type KptLists, type OpenQuestion, type SessionMetrics, type StepId, type Usage } from '../../src/core/model/types';
import type { FileView, PanelCapabilities } from '../../src/panel/protocol';
import type { ByTarget } from '../../src/core/checks/cargoTargetMatch';
import type { CTestPrograms } from '../../src/core/checks/ctestPrograms';
import { openQuestionsOf, str } from './hostValues';

export const VIEW_STATE_VERSION = 1;
/** Finished sessions kept (collapsed) above the current one. Older ones are dropped to bound the state size. */
export const MAX_HISTORY = 5;

export type StepStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface StepError {
  kind: ErrorKind | string;
  message: string;
}

/** The envelope as the panel keeps it: only what it renders, already coerced to safe primitive shapes. */
export interface EnvelopeView {
  role: string;
  voice: string;
  output: unknown;
  references: string[];
  confidence: number | null;
  ass: { score: number | null; positive: string; improvement: string; contextAdequate: boolean | null } | null;
  conversation: { speaker: string; text: string }[];
  kpt: KptLists | null;
}

/** One DevA → DA → DevA round: who asked whom, the questions, and the answer once it came. */
export interface Exchange {
  from: string;
  to: string;
  questions: string[];
  /** The answer (null while it is being asked; '' when it could not be used). */
  answer: string | null;
}
/** One row of DevA's checks: a command's run in a round, or a fix round DevA was asked for. */
export type CheckItemView =
  | {
      kind: 'run';
      round: number;
      command: string;
      status: 'running' | 'passed' | 'failed' | 'timeout' | 'cancelled' | 'error';
      exitCode: number | null;
      durationMs: number | null;
      /** The trimmed output (plain text, shown collapsed). */
      output: string;
      /** A fail-first run: DevA's test files alone on the unchanged workspace (a failure is what a new test should do). */
      before?: boolean;
      /** The command on the unchanged workspace, nothing applied, after its first failure on the proposal. */
      baseline?: boolean;
      /** Its output shows code or a test did not build or load (checks/types.ts CheckRun.unbuilt). */
      unbuilt?: boolean;
      /** A fail-first run that failed before it ran DevA's tests (checks/types.ts CheckRun.testsNotReached). */
      testsNotReached?: boolean;
      /** A cargo test run once per test target: which did not build, how the others fared (checks/types.ts CheckRun.byTarget). */
      byTarget?: ByTarget;
      /** What CTest said of its programs: how many passed and failed, which it could not run (checks/types.ts CheckRun.ctestPrograms). */
      ctestPrograms?: CTestPrograms;
      /** The test files a JavaScript runner reported did not load (CheckRun.unbuiltTestFiles), with the cases that failed beside them. */
      unbuiltTestFiles?: string[];
      tests?: { passed: false }[];
    }
  | { kind: 'fix'; round: number; max: number; failing: string[]; files: string[] | null; problems: string[] }
  /** The project's formatter, or a check that fixes as it runs (`check`), changed DevA's files (checks/types.ts TakenChange). */
  | { kind: 'formatted'; round: number; by: string; files: string[]; check?: true }
  /** Proposed files the scratch copy could not take before a round's checks, each "path: why": no check saw them. */
  | { kind: 'not-written'; round: number; files: string[] };

export interface StepView {
  step: StepId;
  agent: AgentId;
  status: StepStatus;
  attempt: number;
  /** Streamed voice (replaced by the envelope's voice when it arrives). */
  voice: string;
  /** Characters of the JSON output streamed so far (shown as a "working…" indicator, never as raw JSON). */
  outputChars: number;
  /** Retry / repair notes, oldest first. */
  notes: string[];
  /** Warnings about the step's reply (e.g. which of several envelopes was used), oldest first. */
  warnings?: string[];
  /** The step's tool calls as they happen ("DevA read src/app.ts · 2.1 KB"); warning = refused or bounded. */
  tools?: { text: string; tone: 'ok' | 'warning' }[];
  /** DevA's blockers and the answers (one entry per round), shown in DevA's turn as a short conversation. */
  exchanges?: Exchange[];
  /** DevA: the project's checks on the proposal and the fix rounds, in order; `checksOutcome` once they ended. */
  checks?: CheckItemView[];
  /** failsAsBefore: no fix round was asked, the same failure on the unchanged workspace (checks/verdict.ts AS_BEFORE_BY). */
  /** fixDeclined: no further fix round was asked, DevA's last one having changed no file. */
  /** notRun: no check could start, and why (src/core/checks/verdict.ts). */
  checksOutcome?: { passed: boolean; fixRounds: number; failsAsBefore?: boolean; fixDeclined?: boolean; notRun?: string; notChecked?: string[] };
  envelope: EnvelopeView | null;
  summary: string | null;
  usage: Usage | null;
  model: string | null;
  durationMs: number | null;
  error: StepError | null;
}

/**
 * The Cape Master's blocking questions: `open` while the session waits for the user, then what the user did with
 * them (answered: the answers, in the questions' order; skipped: "Continue anyway").
 */
export interface QuestionsView {
  questions: string[];
  status: 'open' | 'answered' | 'skipped';
  answers: string[];
}

export interface SessionView {
  taskId: string;
  objective: string;
  language: string;
  resumed: boolean;
  steps: Record<StepId, StepView>;
  files: FileView[];
  finished: { retrospectivePath: string; kpt: KptLists; metrics: SessionMetrics | null; openQuestions: OpenQuestion[] } | null;
  /** An error not tied to a step (config, auth before the first step…). */
  error: StepError | null;
  /** What the session has spent so far (null: unknown) and its cap, from the runner's `cost` events. */
  cost?: { spentUsd: number | null; capUsd: number | null };
  /** The CM opening's blocking questions, once it asked some. */
  questions?: QuestionsView;
}

export interface PanelViewState {
  version: typeof VIEW_STATE_VERSION;
  session: SessionView | null;
  history: SessionView[];
  capabilities: PanelCapabilities | null;
  busy: boolean;
  ask: { prompt: string } | null;
}

/** What changed, so the renderer can update only the affected parts. */
export interface Change {
  kind: 'all' | 'step' | 'voice-append' | 'output-progress' | 'files' | 'chrome' | 'header';
  step?: StepId;
  /** For voice-append: the text appended. */
  text?: string;
}

export function emptyState(): PanelViewState {
  return { version: VIEW_STATE_VERSION, session: null, history: [], capabilities: null, busy: false, ask: null };
}

/** A state is usable if it has our version and the expected top-level shape; anything else starts empty. */
export function restoreState(x: unknown): PanelViewState {
  if (!isObj(x) || x.version !== VIEW_STATE_VERSION || !Array.isArray(x.history)) return emptyState();
  const base = emptyState();
  const validSession = (s: unknown): s is SessionView => isObj(s) && typeof s.taskId === 'string' && isObj(s.steps) && STEP_IDS.every((id) => isObj((s.steps as Record<string, unknown>)[id])) && Array.isArray(s.files);
  // a state an earlier version saved lacks what was added since: a finished session's open questions
  const upgraded = (s: SessionView): SessionView => (s.finished ? { ...s, finished: { ...s.finished, openQuestions: openQuestionsOf(s.finished.openQuestions) } } : s);
  return {
    ...base,
    session: validSession(x.session) ? upgraded(x.session) : null,
    history: x.history.filter(validSession).slice(-MAX_HISTORY).map(upgraded),
    capabilities: isObj(x.capabilities) ? (x.capabilities as unknown as PanelCapabilities) : null,
    busy: x.busy === true,
    ask: isObj(x.ask) ? { prompt: str(x.ask.prompt) } : null,
  };
}

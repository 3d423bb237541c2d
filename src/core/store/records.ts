// What 5_sessions/ holds, as types: step records (pair/), session state (state/), the session and retrospective
// listings; the store's error, task-id rule and the file-name patterns of pair/ and retrospective/.

import { STEP_IDS, type AgentId, type Envelope, type ErrorKind, type FeedbackRecord, type ProposedFile, type StepId, type ToolCallRecord, type Usage } from '../model/types';
import type { ChecksOutcome } from '../checks/types';

/** A DevA file as stored in a step record: path and body always, the proposal details when known. */
export type StoredFile = Pick<ProposedFile, 'path' | 'content'> & Partial<Omit<ProposedFile, 'path' | 'content'>>;

/** Everything about one finished step. DevA's proposed file bodies are kept so they survive a crash. */
export interface StepRecord {
  step: StepId;
  /** Always STEP_AGENT[step] on disk, whatever is passed. */
  agent: AgentId;
  /** Step number 1..5; always derived from the step on disk (accepted for convenience). */
  n?: number;
  /** The model's raw reply text. */
  raw: string;
  envelope: Envelope;
  files: StoredFile[];
  summary: string | null;
  usage: Usage;
  model: string;
  /** Context sizes of the step (chars), for the CR metric on resume. */
  context?: { input: number; passed: number };
  /** The step's tool calls (tool, path or query, characters returned, refusal reason — never the bodies). */
  toolCalls?: ToolCallRecord[];
  /** DevA's reply to the edit repair request, when one was sent. */
  editRepair?: string;
  /** A second CM opening: the questions of the first one and the user's answers it received. */
  dorAnswers?: { question: string; answer: string }[];
  /** DevA → DA → DevA rounds: the reply that raised blockers and the answer (session/blockers.ts). */
  feedback?: FeedbackRecord[];
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms; also the timestamp in the pair file name. */
  finishedAt: number;
  /** Continuations after the reply stopped at the output limit (the stored raw is the stitched reply). */
  continuations?: number;
  /** DevA: the project's checks on the proposal, every run and fix round (request, reply, files it changed). */
  checks?: ChecksOutcome;
  /** What the parser warned about this reply (e.g. which of several envelopes was used). */
  warnings?: string[];
}

/** `needs_answers`: paused after the CM opening asked blocking questions (session/dorQuestions.ts). */
export type SessionStatus = 'running' | 'failed' | 'complete' | 'needs_answers';

/** The CM opening's blocking questions and what the user did with them. */
export interface DorPause {
  questions: string[];
  answers?: string[];
  skipped?: boolean;
}

export interface SessionState {
  taskId: string;
  objective: string;
  language: string;
  model: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last save (set by saveSessionState). */
  updatedAt?: number;
  status: SessionStatus;
  completedSteps: StepId[];
  error?: { step: StepId | null; kind: ErrorKind; message: string };
  /** Step → pair file, relative to the workspace with forward slashes. */
  stepFiles: Partial<Record<StepId, string>>;
  /** Workspace-relative path of the retrospective, once written. */
  retrospectivePath?: string;
  /** USD spent by every request of the session so far (all runs); null once a response had no known price. */
  costUsd?: number | null;
  /** The CM opening's blocking questions, once it asked some. */
  dor?: DorPause;
}

export interface SessionSummary {
  taskId: string;
  objective: string;
  status: SessionStatus;
  createdAt: number;
  updatedAt: number;
  completedSteps: StepId[];
  error?: SessionState['error'];
  /** Absolute path of the state file. */
  statePath: string;
}

export interface RetrospectiveInfo {
  /** Absolute path. */
  path: string;
  taskId: string;
  date: Date;
  objective: string | null;
  assAverage: number | null;
  /** The open questions the session left for the human to decide (frontmatter `open_questions`); absent when not recorded. */
  openQuestions?: number;
}

export class StoreError extends Error {
  constructor(
    message: string,
    /** The damaged or unusable file, when the error is about one. */
    readonly file?: string,
    /** What is wrong, without the file's path (for a message that names the file its own way). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export function dorPauseOf(x: unknown): DorPause | null {
  if (!x || typeof x !== 'object') return null;
  const d = x as Partial<DorPause>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((q): q is string => typeof q === 'string') : null);
  const questions = strings(d.questions);
  if (!questions) return null;
  const answers = strings(d.answers);
  return { questions, ...(answers ? { answers } : {}), ...(d.skipped === true ? { skipped: true } : {}) };
}

/** The longest task id, in characters. */
export const MAX_TASK_ID_CHARS = 128;
const TASK_ID = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${MAX_TASK_ID_CHARS - 1}}$`);

/** Task ids become file names: letters, digits, `.`, `_`, `-` only (e.g. task-1779077393991). */
export function assertTaskId(taskId: string): void {
  if (typeof taskId !== 'string' || !TASK_ID.test(taskId) || taskId.includes('..')) {
    throw new StoreError(
      `Invalid task id ${JSON.stringify(taskId)}: use 1–${MAX_TASK_ID_CHARS} letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
}

export const RETRO_NAME = /^(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})_(.+)\.md$/;

/** The local time and task id in a retrospective's file name (`YYYY-MM-DD_HH-MM_<task>.md`), or null for another name. */
export function parseRetrospectiveName(name: string): { date: Date; taskId: string } | null {
  const m = RETRO_NAME.exec(name);
  return m ? { date: new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]), taskId: m[6] } : null;
}
export const PAIR_NAME = /^(.+)_([1-5])_(CM|POA|DA|DevA)_(\d+)\.json$/;

export function isEnvelope(x: unknown): x is Envelope {
  return !!x && typeof x === 'object' && typeof (x as Envelope).agent === 'string' && typeof (x as Envelope).task_id === 'string';
}

export function isStepId(x: unknown): x is StepId {
  return typeof x === 'string' && (STEP_IDS as readonly string[]).includes(x);
}

// Session events: what the runner emits; the CLI prints them, the chat panel renders them. Part of the shared
// vocabulary of core (model/index.ts).
import type { CheckEvent } from '../checks/types';
import type { AgentId, StepId } from './steps';
import type { ToolCallRecord, Usage } from './llm';
import type { ProposedFile } from './files';
import type { KptLists } from './kpt';
import type { Envelope, OpenQuestion } from './envelope';
import type { SessionMetrics } from './metrics';

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
  /**
   * The step's envelope. `voiceNotStreamed`: its voice is not the one streamed as voice-delta (the reply held several
   * envelopes and a later one was used, or DevA's reply was kept from the previous run and none streamed): a transcript
   * shows this voice now (the panel shows the envelope's voice anyway).
   */
  | { type: 'envelope'; step: StepId; envelope: Envelope; summary: string | null; voiceNotStreamed?: true }
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
      /** The roles' open questions for the human, with the answers later roles found (session/openQuestions.ts). */
      openQuestions: OpenQuestion[];
    };

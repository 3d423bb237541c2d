// What a session knows so far, step after step: each step's envelope, raw reply, usage and context sizes, DevA's
// proposal and summary, the checks' outcome, the DevA → DA → DevA rounds and the steps' outcomes. The runner starts
// an empty record, a resume reloads the completed steps into it (reloadCompletedSteps), and each step run adds to
// it (./step.ts); the retrospective's metrics and the session's result are read from it.
import type { ChecksOutcome } from '../checks';
import { reloadProposals } from '../files/proposalBase';
import type { Envelope, FeedbackRecord, ProposedFile, StepId, ToolCallRecord, Usage } from '../model/types';
import type { SessionState, SessionStore } from '../store';
import type { StepOutcome } from './options';
import { loadCompletedStep } from './prepare';

export interface SessionRecord {
  envelopes: Partial<Record<StepId, Envelope>>;
  raws: Partial<Record<StepId, string>>;
  usage: Partial<Record<StepId, { usage: Usage; model: string }>>;
  contextChars: Partial<Record<StepId, { input: number; passed: number }>>;
  /** Each completed step's tool calls (DevA builds on what DA read). */
  toolCalls: Partial<Record<StepId, ToolCallRecord[]>>;
  devaFiles: ProposedFile[];
  devaSummary: string | null;
  checks?: ChecksOutcome;
  /** DevA → DA → DevA rounds (session/blockers.ts), from this run or DevA's saved record. */
  feedback: FeedbackRecord[];
  /** Each step's outcome in the order they completed (or failed), reloaded ones first. */
  steps: StepOutcome[];
}

export function emptyRecord(): SessionRecord {
  return { envelopes: {}, raws: {}, usage: {}, contextChars: {}, toolCalls: {}, devaFiles: [], devaSummary: null, feedback: [], steps: [] };
}

/** Reloads the completed steps' records (resume): their envelopes, replies and usage, DevA's proposal checked again. */
export async function reloadCompletedSteps(
  record: SessionRecord,
  store: SessionStore,
  state: SessionState,
  o: { workspace: string; capeFolder: string },
): Promise<void> {
  for (const s of state.completedSteps) {
    const rec = await loadCompletedStep(store, state.taskId, s);
    record.envelopes[s] = rec.envelope;
    record.raws[s] = rec.raw;
    record.usage[s] = { usage: rec.usage, model: rec.model };
    if (rec.context) record.contextChars[s] = rec.context;
    if (rec.toolCalls) record.toolCalls[s] = rec.toolCalls;
    if (s === 'deva') {
      record.devaFiles = [
        ...(await reloadProposals(o.workspace, rec.files, { capeFolder: o.capeFolder })),
        ...rec.files.filter((f) => f.status === 'refused').map((f): ProposedFile => ({ action: 'modify', ...f, status: 'refused', content: '' })),
      ];
      record.devaSummary = rec.summary;
      record.checks = rec.checks;
      record.feedback.push(...(rec.feedback ?? []));
    }
    record.steps.push({ step: s, ok: true, usage: rec.usage, model: rec.model, envelope: rec.envelope, ...(rec.continuations ? { continuations: rec.continuations } : {}) });
  }
}

// The last part of DevA's proposal (./devaProposal.ts): the project's checks on the proposal and the fix rounds
// (src/core/checks/), their progress as session events of DevA's step, Stop as the step's cancellation.
import { CheckCancelled, runCheckLoop, type ChecksConfig, type ChecksOutcome } from '../checks';
import type { NamedTestRef } from '../checks/loop';
import type { ProposedFile, SessionEvent, StepId } from '../model/types';
import { StepFailure } from './failure';

export interface DevaChecksOptions extends ChecksConfig {
  step: StepId;
  workspace: string;
  capeFolder: string;
  files: ProposedFile[];
  signal?: AbortSignal;
  emit: (e: SessionEvent) => void;
  /** One more request in DevA's conversation (the fix request as the user turn); resolves to the reply text. */
  ask: (request: string) => Promise<string>;
  /** The tests DevA named for the criteria, with their files (the fix request says how each fared). */
  namedTests?: readonly NamedTestRef[];
}

/** Runs the checks (and fix rounds) on DevA's proposal; returns the last proposal and the outcome. */
export async function checkDevaProposal(opts: DevaChecksOptions): Promise<{ files: ProposedFile[]; outcome: ChecksOutcome }> {
  try {
    return await runCheckLoop({
      commands: opts.commands,
      fixRounds: opts.fixRounds,
      timeoutMs: opts.timeoutMs,
      outputCap: opts.outputCap,
      failFirst: opts.failFirst,
      format: opts.format,
      copyLimit: opts.copyLimit,
      apiKey: opts.apiKey,
      workspace: opts.workspace,
      capeFolder: opts.capeFolder,
      files: opts.files,
      signal: opts.signal,
      askFix: opts.ask,
      namedTests: opts.namedTests,
      onEvent: (event) => opts.emit({ type: 'check', step: opts.step, event }),
      onWarning: (message) => opts.emit({ type: 'warning', step: opts.step, message }),
    });
  } catch (e) {
    if (e instanceof CheckCancelled) throw new StepFailure(opts.step, 'cancelled', e.message);
    throw e;
  }
}

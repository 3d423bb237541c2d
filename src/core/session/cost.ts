// The session's spend: what earlier runs spent (a state from before the cap counts its completed steps' usage at
// today's prices), the cap's tracker (llm/costCap.ts), and the client every request of the session goes through so
// the cap holds (steps, tool turns, continuations, repairs, DA's answers). What is spent is written to the session's
// state file after every request (a run killed mid-step loses at most the request in flight, and a step adopted on
// resume has its requests counted already) and reported as `cost` events.
import { CostTracker, capClient, capUnenforceable } from '../llm/costCap';
import { costUsd as priceOf } from '../llm/pricing';
import { stepTitle, type LlmClient, type SessionEvent, type StepId } from '../model/types';
import type { SessionState } from '../store';
import type { SessionRecord } from './record';

export interface SessionSpendOptions {
  llm: LlmClient;
  model: string;
  maxCostUsd?: number;
  state: SessionState;
  /** The completed steps' usage (a state written before the cap existed has no costUsd). */
  usage: SessionRecord['usage'];
  /** The step running now (named when the cap stops the next request), null during setup. */
  currentStep: () => StepId | null;
  emit: (e: SessionEvent) => void;
  warn: (message: string) => void;
  /** Writes the session's state to its file. */
  save: (state: SessionState) => Promise<unknown>;
}

/** The session's cost tracker and the capped client all its requests use. */
export function sessionSpend(o: SessionSpendOptions): { cost: CostTracker; llm: LlmClient } {
  const spentBefore =
    o.state.costUsd !== undefined
      ? o.state.costUsd
      : Object.values(o.usage).reduce<number | null>((sum, u) => (sum === null ? null : ((c) => (c === null ? null : sum + c))(priceOf(u.model, u.usage))), 0);
  const cost = new CostTracker(o.maxCostUsd ?? null, spentBefore);
  const unenforceable = capUnenforceable(cost.capUsd, o.model, spentBefore);
  if (unenforceable) o.warn(unenforceable);
  o.emit({ type: 'cost', spentUsd: cost.spentUsd, capUsd: cost.capUsd });
  let saveFailed = false;
  const llm = capClient(o.llm, cost, {
    what: () => {
      const step = o.currentStep();
      return `the next request (${step ? stepTitle(step) : 'setup'})`;
    },
    onRecorded: async () => {
      o.state.costUsd = cost.spentUsd;
      o.emit({ type: 'cost', spentUsd: cost.spentUsd, capUsd: cost.capUsd });
      try {
        await o.save(o.state);
      } catch (err) {
        // the response is kept (it is paid for); the step's own save will say what is wrong with the state file
        if (!saveFailed) o.warn(`The session's spend so far could not be saved to its state file (${err instanceof Error ? err.message : String(err)}): if this run stops before the step ends, a resume counts less than was spent.`);
        saveFailed = true;
      }
    },
  });
  return { cost, llm };
}

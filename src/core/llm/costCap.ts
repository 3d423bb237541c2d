// The session cost cap (`cape.maxSessionCostUsd`, `--max-cost`): before every request the runner asks whether the
// request's worst case still fits under the cap, given what the session has already spent. SDK-free; prices come
// from the one price table (./pricing.ts).
//
// The worst case of one request, decided once:
//  - input tokens are the high estimate of the text sent (system blocks, messages, tool definitions: ./tokens.ts
//    tokensAtMost), so this overestimates;
//  - what a cache mark covers is priced as a cache write at that mark's lifetime (1 hour: 2×, 5 minutes: 1.25× the
//    input price; the tools, first in the cached prefix, at the dearest mark's; the messages when the last one is
//    marked), the rest at the input price;
//  - the output is the request's whole `max_tokens` at the output price.
// What was spent is the sum of every response's usage at its model's price (repairs, continuations, tool turns and
// retries included, and what a request that broke off after its reply started had used), kept in the session state
// so a resumed session counts what earlier runs spent. A response that names a model without a price (a gateway's
// alias) is priced at the model asked for, so an alias does not switch the cap off.
import type { ChatMessage, LlmClient, LlmRequest, Usage } from '../model/types';
import { LlmError } from './errors';
import { costUsd, formatUsd, priceFor, pricedModel } from './pricing';
import { tokensAtMost } from './tokens';

/** A cap for people: `$0.50`, or 4 decimals below a cent. */
export function formatCap(capUsd: number): string {
  return formatUsd(capUsd, capUsd >= 0.01 ? 2 : 4);
}

function messageText(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  return m.content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? b.content : `${b.name} ${JSON.stringify(b.input ?? null)}`))
    .join('\n');
}

export interface RequestEstimate {
  /** Estimated input tokens priced as cache writes (the cacheable system prefix). */
  cacheableTokens: number;
  /** Estimated other input tokens. */
  inputTokens: number;
  /** max_tokens. */
  outputTokens: number;
  /** Worst-case cost in USD, or null when the model has no known price. */
  costUsd: number | null;
}

/** The worst case of one request (see the header). */
export function estimateRequest(
  req: Pick<LlmRequest, 'model' | 'maxTokens' | 'system' | 'messages' | 'tools' | 'cacheLastMessage'>,
): RequestEstimate {
  const p = priceFor(req.model);
  // Each system block up to a cache mark is written at that mark's lifetime (1 hour: 2×, 5 minutes: 1.25× input);
  // the tools precede the system prompt in the cached prefix, so they pay the dearest write of any mark.
  let cacheableTokens = 0;
  let inputTokens = 0;
  let writeUsd = 0;
  let pending = 0;
  let dearest = 0;
  const rate = (ttl: unknown) => (p ? (ttl === '1h' ? p.cacheWrite1h : p.cacheWrite) : 0);
  for (const b of req.system) {
    pending += tokensAtMost(b.text);
    if (b.cache) {
      cacheableTokens += pending;
      writeUsd += pending * rate(b.cache);
      dearest = Math.max(dearest, rate(b.cache));
      pending = 0;
    }
  }
  inputTokens += pending;
  let toolTokens = 0;
  for (const t of req.tools ?? []) toolTokens += tokensAtMost(`${t.name} ${t.description} ${JSON.stringify(t.inputSchema)}`);
  let messageTokens = 0;
  for (const m of req.messages) messageTokens += tokensAtMost(messageText(m));
  if (dearest > 0) {
    cacheableTokens += toolTokens;
    writeUsd += toolTokens * dearest;
  } else inputTokens += toolTokens;
  if (req.cacheLastMessage) {
    cacheableTokens += messageTokens;
    writeUsd += messageTokens * rate('5m');
  } else inputTokens += messageTokens;
  const outputTokens = Math.max(0, req.maxTokens);
  const cost = p ? (Math.max(writeUsd, cacheableTokens * p.input) + inputTokens * p.input + outputTokens * p.output) / 1_000_000 : null;
  return { cacheableTokens, inputTokens, outputTokens, costUsd: cost };
}

/** A cap as given by a user: a finite number > 0, else the problem in words. */
export function costCapProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? null : `the cost cap must be an amount in USD greater than 0 (got ${JSON.stringify(value)})`;
}

export type CapCheck = { ok: true; estimate: RequestEstimate } | { ok: false; estimate: RequestEstimate; message: string };

/**
 * What a session has spent and whether its next request fits under the cap. `spentUsd` is null once a response
 * came from a model without a known price: from then on the cap cannot be enforced (the runner says so).
 */
export class CostTracker {
  private spent: number | null;

  constructor(
    /** The cap in USD, or null for none. */
    readonly capUsd: number | null,
    /** What earlier runs of the session spent (resume). */
    spentBefore: number | null = 0,
  ) {
    this.spent = spentBefore;
  }

  get spentUsd(): number | null {
    return this.spent;
  }

  /** Adds one response's usage at its model's price (see pricedModel). */
  record(model: string, usage: Usage): void {
    const c = costUsd(model, usage);
    this.spent = this.spent === null || c === null ? null : this.spent + c;
  }

  /**
   * Whether `req` may be sent: with a cap, a known price and a known spend, its worst case must keep the session
   * at or under the cap. Without a cap, or when cost cannot be known, the request goes (the caller warns).
   */
  check(req: Pick<LlmRequest, 'model' | 'maxTokens' | 'system' | 'messages' | 'tools' | 'cacheLastMessage'>, what: string): CapCheck {
    const estimate = estimateRequest(req);
    if (this.capUsd === null || estimate.costUsd === null || this.spent === null) return { ok: true, estimate };
    if (this.spent + estimate.costUsd <= this.capUsd) return { ok: true, estimate };
    const input = estimate.cacheableTokens + estimate.inputTokens;
    return {
      ok: false,
      estimate,
      message:
        `Stopped before ${what} to stay within the session's cost cap of ${formatCap(this.capUsd)}: ` +
        `${formatUsd(this.spent)} spent so far, and this request could cost up to ${formatUsd(estimate.costUsd)} ` +
        `(about ${input.toLocaleString('en-US')} input tokens + ${estimate.outputTokens.toLocaleString('en-US')} output tokens at ${req.model}'s price), ` +
        `${formatUsd(this.spent + estimate.costUsd)} in all. Completed steps are saved: raise the cap (cape.maxSessionCostUsd, --max-cost) and resume.`,
    };
  }
}

/**
 * `llm` with the cap in front: every request is checked first (a request over the cap is an LlmError of kind
 * cost_cap, not retried) and every response recorded. `what` names the request in the message; `onRecorded` runs
 * (and is awaited) after each response is recorded: the runner saves and shows the running cost.
 */
export function capClient(llm: LlmClient, tracker: CostTracker, hooks: { what: () => string; onRecorded: () => void | Promise<void> }): LlmClient {
  return {
    supportsTools: llm.supportsTools,
    stream: async (req, onText) => {
      const gate = tracker.check(req, hooks.what());
      if (!gate.ok) throw new LlmError('cost_cap', gate.message, { retryable: false });
      let res;
      try {
        res = await llm.stream(req, onText);
      } catch (e) {
        // a request that broke off (dropped, an error event, Stop) after its reply started is billed for what it used
        if (e instanceof LlmError && e.usage) {
          tracker.record(req.model, e.usage);
          await hooks.onRecorded();
        }
        throw e;
      }
      tracker.record(pricedModel(res.model, req.model), res.usage);
      await hooks.onRecorded();
      return res;
    },
  };
}

/**
 * Why a cap cannot be enforced for a session on `model` that earlier runs spent `spentBefore` on (null: unknown, a
 * response came from a model without a price), or null when it can.
 */
export function capUnenforceable(capUsd: number | null, model: string, spentBefore: number | null = 0): string | null {
  if (capUsd === null) return null;
  const cannot = `The session's cost cap of ${formatCap(capUsd)} cannot be enforced:`;
  if (!priceFor(model)) {
    return `${cannot} the model "${model}" has no known price in CAPE's price table, so neither its requests nor what it spends can be costed. The session runs without a cap.`;
  }
  if (spentBefore === null) {
    return `${cannot} what earlier runs of this session spent is unknown (a response came from a model without a known price in CAPE's price table), so its total cannot be known. The session runs without a cap.`;
  }
  return null;
}

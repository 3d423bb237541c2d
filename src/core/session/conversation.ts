// One step's requests to the model (StepConversation): each turn streamed (voice and output deltas as events) and
// retried on its own, the tool loop answering the model's calls (llm/toolLoop.ts), a reply cut at the output limit
// continued (at most MAX_CONTINUATIONS), and a reply that does not validate repaired once before the step fails with
// its raw text saved. It counts what the step's requests used (usage, model, continuations, the parser's warnings);
// what the step does with the reply is ./step.ts's.
import * as path from 'path';
import { toLlmError } from '../llm/errors';
import { pricedModel } from '../llm/pricing';
import { withStepRetry } from '../llm/retry';
import { replyTurn, runToolLoop } from '../llm/toolLoop';
import { addUsage, STEP_AGENT, type ChatMessage, type LlmClient, type LlmResult, type ParsedReply, type SessionEvent, type StepId, type Usage } from '../model/types';
import { CONTINUE_PROMPT, MAX_CONTINUATIONS, replyWasCut, stitchContinuation } from '../reply/continuation';
import { parseReply, repairPrompt } from '../reply/parser';
import { VoiceExtractor } from '../reply/voiceStream';
import type { SessionStore } from '../store';
import type { ToolRunner } from '../tools/executor';
import { TOOL_SPECS } from '../tools/specs';
import { toRequest, type BuiltContext } from './context';
import { StepFailure } from './failure';
import type { SessionOptions } from './options';

export interface StepConversationOptions {
  step: StepId;
  taskId: string;
  workspace: string;
  store: SessionStore;
  /** The step's prompt (system blocks; the user turn is the first message the caller sends). */
  ctx: BuiltContext;
  /** The model requested. */
  model: string;
  maxTokens: number;
  llm: LlmClient;
  /** The step's tools, or null when it has none. */
  tools: ToolRunner | null;
  signal?: AbortSignal;
  retry?: SessionOptions['retry'];
  emit: (e: SessionEvent) => void;
  /** The step's usage before its first request (a resumed, answered opening carries the first opening's). */
  usage: Usage;
}

/** A validated reply, the conversation that produced it (without its own assistant turn) and the raw result. */
export interface Answer {
  res: LlmResult;
  sent: ChatMessage[];
  reply: ParsedReply;
  /**
   * The reply's voice did not stream (voice-delta): its envelope is a later one than the first, whose voice streamed,
   * or the reply was kept from the previous run (./keptReply.ts). The envelope event says so.
   */
  voiceNotStreamed?: true;
}

export class StepConversation {
  /** Usage after every request of the step so far. */
  usage: Usage;
  /** The model that answered, as the provider names it. */
  model: string;
  /** How many times a reply was continued after stopping at the output limit. */
  continuations = 0;
  /** What the parser noticed in the step's replies (e.g. several envelopes: the last complete one was used). */
  readonly warnings: string[] = [];

  constructor(private readonly o: StepConversationOptions) {
    this.usage = o.usage;
    this.model = o.model;
  }

  /** A request whose reply must validate: one repair request that quotes the error, then a clear failure keeping the raw text. */
  async ask(messages: ChatMessage[]): Promise<Answer> {
    const { step, emit } = this.o;
    let { res, messages: sent } = await this.call(messages, 0);
    await this.failOnRefusal(res);
    let parsed = parseReply(step, res.text);
    if (!parsed.ok) {
      emit({ type: 'repair', step, error: parsed.error });
      const firstRaw = res.text;
      ({ res, messages: sent } = await this.call(
        [...sent, replyTurn(firstRaw), { role: 'user', content: repairPrompt(step, parsed.error, firstRaw) }],
        1,
      ));
      await this.failOnRefusal(res, firstRaw);
      parsed = parseReply(step, res.text);
      if (!parsed.ok) {
        const rawPath = await this.o.store.saveFailedRaw(this.o.taskId, step, `${firstRaw}\n\n----- repair reply -----\n\n${res.text}`);
        throw new StepFailure(
          step,
          'invalid_reply',
          `${STEP_AGENT[step]}'s reply could not be used even after a repair request: ${parsed.error}. The raw replies are saved in ${path.relative(this.o.workspace, rawPath)}. Retry the step (or resume the session) to ask again.`,
          res.text,
        );
      }
    }
    for (const message of parsed.warnings) this.warn(message);
    // the engine's id, whatever the model wrote
    return {
      res,
      sent,
      reply: { ...parsed.reply, envelope: { ...parsed.reply.envelope, task_id: this.o.taskId } },
      ...(parsed.laterEnvelope ? { voiceNotStreamed: true as const } : {}),
    };
  }

  /**
   * A reply the model refused (stop_reason "refusal": the API's safety classifier stopped it, with or without some
   * text) is neither parsed nor repaired: its text is not a malformed envelope ("empty", "cut off at max_tokens"
   * would be the wrong diagnosis), and a refused conversation is not continued (the API's advice: change the prompt).
   * `firstRaw`: the unusable reply a refused repair request answered, kept with it.
   */
  private async failOnRefusal(res: LlmResult, firstRaw?: string): Promise<void> {
    if (res.stopReason !== 'refusal') return;
    const { step, taskId, store, workspace } = this.o;
    const raw = firstRaw === undefined ? res.text : `${firstRaw}\n\n----- repair reply -----\n\n${res.text}`;
    const what = firstRaw === undefined ? 'What it wrote before it stopped is' : 'The raw replies are';
    const saved = raw.trim() === '' ? '' : ` ${what} saved in ${path.relative(workspace, await store.saveFailedRaw(taskId, step, raw))}.`;
    throw new StepFailure(
      step,
      'invalid_reply',
      `${STEP_AGENT[step]}'s reply was refused by the model (stop_reason "refusal"), so there is no reply to use.${saved} ` +
        'Reword what it may have declined (the objective, the cape/ files or the earlier steps it read), then retry the step (or resume the session).',
      res.text,
    );
  }

  /**
   * A request of the step: with tools, the loop answers the model's calls until it writes its reply. A reply cut at
   * the output limit is continued, unless the tool loop already took its text as the answer (the limit cut a call
   * written after it, which is not run).
   */
  async call(messages: ChatMessage[], attemptBase: number, announce = true): Promise<{ res: LlmResult; messages: ChatMessage[] }> {
    const got = await this.toolCall(messages, attemptBase, announce);
    return { res: got.answered ? got.res : await this.continueIfCut(got.res, got.messages), messages: got.messages };
  }

  private async toolCall(messages: ChatMessage[], attemptBase: number, announceFirst: boolean): Promise<{ res: LlmResult; messages: ChatMessage[]; answered?: boolean }> {
    const tools = this.o.tools;
    if (!tools) return { res: await this.turn(messages, 'auto', attemptBase, announceFirst), messages };
    let announce = announceFirst;
    const loop = await runToolLoop({
      messages,
      send: (m, choice) => {
        const first = announce;
        announce = false;
        return this.turn(m, choice, attemptBase, first);
      },
      execute: (calls) => tools.execute(calls),
      spent: () => tools.spent(),
      note: () => tools.usedText(),
      signal: this.o.signal,
      answered: (r) => parseReply(this.o.step, r.text).ok,
    });
    if (loop.unrunCalls?.length) {
      const n = loop.unrunCalls.length;
      const message =
        `${STEP_AGENT[this.o.step]} called ${n === 1 ? 'a tool' : `${n} tools`} (${[...new Set(loop.unrunCalls.map((c) => c.name))].join(', ')}) ` +
        'after writing its answer in the same turn: the answer was used and those calls were not run.';
      this.warn(message);
    }
    return { res: loop.result, messages: loop.messages, answered: loop.unrunCalls !== undefined };
  }

  /** A warning about the step's reply: shown now and kept in its record. */
  private warn(message: string): void {
    this.warnings.push(message);
    this.o.emit({ type: 'warning', step: this.o.step, message });
  }

  /**
   * A reply cut at the output limit is continued (at most MAX_CONTINUATIONS per step). One still cut after them is
   * used when what it wrote already holds a valid reply (with a warning), else the step fails.
   */
  private async continueIfCut(first: LlmResult, sent: ChatMessage[]): Promise<LlmResult> {
    const { step, emit } = this.o;
    let res = first;
    for (;;) {
      const probe = res.stopReason === null ? parseReply(step, res.text) : null;
      if (!replyWasCut(res.stopReason, probe && !probe.ok ? probe.error : null)) return res;
      if (this.continuations >= MAX_CONTINUATIONS) {
        if (parseReply(step, res.text).ok) {
          this.warn(
            `${STEP_AGENT[step]}'s reply was still cut off at the output limit (${this.o.maxTokens} tokens) after ${MAX_CONTINUATIONS} continuations, ` +
              'but what it wrote already holds a complete, valid reply: that reply was used, and what the model was still writing after it was lost.',
          );
          return res;
        }
        const rawPath = await this.o.store.saveFailedRaw(this.o.taskId, step, res.text);
        throw new StepFailure(
          step,
          'invalid_reply',
          `${STEP_AGENT[step]}'s reply was still cut off at the output limit (${this.o.maxTokens} tokens) after ${MAX_CONTINUATIONS} continuations, so it was not used: ` +
            `a part of it would be lost. The partial reply is saved in ${path.relative(this.o.workspace, rawPath)}. Narrow the objective (less to write in one step), then resume.`,
          res.text,
        );
      }
      this.continuations++;
      emit({ type: 'continued', step, continuation: this.continuations, max: MAX_CONTINUATIONS });
      const more = await this.turn(
        [...sent, replyTurn(res.text), { role: 'user', content: CONTINUE_PROMPT }],
        'none',
        0,
        false,
        res.text,
      );
      res = { ...more, text: stitchContinuation(res.text, more.text) };
    }
  }

  /**
   * One model turn, retried on its own (so a retry never repeats the tool calls already answered). `prefix`: the
   * reply so far, when this turn continues a reply cut at the output limit (its voice was shown).
   */
  private turn(messages: ChatMessage[], toolChoice: 'auto' | 'none', attemptBase: number, announce: boolean, prefix = ''): Promise<LlmResult> {
    const { step, emit, tools, signal, retry } = this.o;
    return withStepRetry(
      async (attempt) => {
        if (announce || attempt > 1) emit({ type: 'step-started', step, agent: STEP_AGENT[step], attempt: attemptBase + attempt });
        let muted = prefix !== '' && attempt === 1; // a retry has cleared the shown voice: show the prefix again
        const extractor = new VoiceExtractor({
          onVoice: (text) => muted || emit({ type: 'voice-delta', step, text }),
          onOutput: (text) => muted || emit({ type: 'output-delta', step, text }),
        });
        if (prefix) extractor.push(prefix);
        muted = false;
        const request = {
          ...toRequest(this.o.ctx, this.o.model, this.o.maxTokens, signal),
          messages,
          ...(tools ? { tools: [...TOOL_SPECS], toolChoice } : {}),
          // A turn answering tool calls is likely followed by another (more calls, then the reply): cache it.
          cacheLastMessage: answersToolCalls(messages),
        };
        try {
          const res = await this.o.llm.stream(request, (d) => extractor.push(d));
          extractor.end();
          this.usage = addUsage(this.usage, res.usage);
          // the model its step record prices it at: a gateway's alias without a price is the model asked for
          this.model = pricedModel(res.model, this.model);
          return res;
        } catch (e) {
          const err = toLlmError(e, {});
          // an attempt that broke off after its reply started used tokens too: the step's usage counts them
          if (err.usage) this.usage = addUsage(this.usage, err.usage);
          throw err;
        }
      },
      {
        maxAttempts: retry?.maxAttempts,
        baseDelayMs: retry?.baseDelayMs,
        maxDelayMs: retry?.maxDelayMs,
        signal,
        // the attempt about to start, numbered as its step-started event will be
        onRetry: ({ attempt, error, delayMs }) => emit({ type: 'retry', step, attempt: attemptBase + attempt, reason: error.message, delayMs }),
      },
    );
  }
}

/** Whether the last message carries tool results (a turn inside the tool loop). */
function answersToolCalls(messages: ChatMessage[]): boolean {
  const last = messages[messages.length - 1]?.content;
  return Array.isArray(last) && last.some((b) => b.type === 'tool_result');
}

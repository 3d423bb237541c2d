// DevA's reply kept on disk the moment it validates (the store's pending/), with what its step had done by then, so a
// step that fails afterwards — the edit repair request breaks, a fix request of the checks breaks, Stop while a check
// runs — is not paid for twice: a plain resume restores the reply, DevA's conversation, the usage, the tool calls and
// the DevA → DA rounds, and redoes only what had not finished (the repair request, or the checks and their fix
// rounds). A resume from a given step (--from-step) asks again; a reply built on other records of the earlier steps
// is not used. Once the step's record is saved the kept reply is removed. ./step.ts drives it.
import * as path from 'path';
import { STEP_AGENT, STEP_IDS, ZERO_USAGE, type ChatMessage, type FeedbackRecord, type StepId } from '../model/types';
import { parseReply } from '../reply/parser';
import type { PendingReply } from '../store';
import type { ToolRunner } from '../tools/executor';
import type { Answer, StepConversation } from './conversation';
import type { SessionRun } from './step';
import { pricedModel } from '../llm/pricing';

/** Whether a step's reply is kept: only DevA's step has requests and checks after its reply validated. */
export function keepsReply(step: StepId): boolean {
  return step === 'deva';
}

/** DevA's edit repair as kept: its reply and the conversation that asked for it. */
export interface KeptRepair {
  raw: string;
  sent: ChatMessage[];
}

interface Parts {
  answer: Answer;
  feedback: FeedbackRecord[];
  receivedWhole: ReadonlySet<string>;
  editRepair?: KeptRepair;
}

export class KeptReply {
  private constructor(
    private readonly run: SessionRun,
    private readonly step: StepId,
    private readonly talk: StepConversation,
    private readonly tools: ToolRunner | null,
    private parts: Parts,
  ) {}

  get answer(): Answer {
    return this.parts.answer;
  }
  get feedback(): FeedbackRecord[] {
    return this.parts.feedback;
  }
  get receivedWhole(): ReadonlySet<string> {
    return this.parts.receivedWhole;
  }
  get editRepair(): KeptRepair | undefined {
    return this.parts.editRepair;
  }

  /** Keeps a reply that just validated (a write that fails costs only the resume's shortcut: a warning). */
  static async keep(run: SessionRun, step: StepId, talk: StepConversation, tools: ToolRunner | null, parts: Parts): Promise<KeptReply> {
    const kept = new KeptReply(run, step, talk, tools, parts);
    await kept.save();
    return kept;
  }

  /**
   * The reply a resume goes on from, restored into the step's conversation and tools; null when the model is to be
   * asked (a new session, --from-step at or before the step, no kept reply, a damaged or outdated one).
   */
  static async resume(run: SessionRun, step: StepId, talk: StepConversation, tools: ToolRunner | null): Promise<KeptReply | null> {
    const { opts, store, state } = run;
    const from = opts.fromStep ? STEP_IDS.indexOf(opts.fromStep) : -1;
    if (!opts.resume || (from >= 0 && from <= STEP_IDS.indexOf(step))) {
      await store.removePendingReply(state.taskId, step).catch(() => undefined);
      return null;
    }
    const again = `${STEP_AGENT[step]} is asked again.`;
    let loaded: Awaited<ReturnType<typeof store.loadPendingReply>>;
    try {
      loaded = await store.loadPendingReply(state.taskId, step);
    } catch (err) {
      run.warn(`${STEP_AGENT[step]}'s reply kept from the previous run cannot be used (${(err as Error).message}); ${again}`);
      return null;
    }
    if (!loaded) return null;
    const { reply, file } = loaded;
    const where = store.relative(file);
    if (!sameBasis(run, reply.basis, basisOf(run, step))) {
      run.warn(`${STEP_AGENT[step]}'s reply kept in ${where} was written on other records of the earlier steps; ${again}`);
      return null;
    }
    const parsed = parseReply(step, reply.raw);
    if (!parsed.ok) {
      run.warn(`${STEP_AGENT[step]}'s reply kept in ${where} does not validate (${parsed.error.split('\n')[0]}); ${again}`);
      return null;
    }
    talk.usage = { ...ZERO_USAGE, ...reply.usage };
    talk.model = pricedModel(reply.model, talk.model);
    talk.continuations = reply.continuations;
    talk.warnings.push(...reply.warnings);
    tools?.restore(reply.toolCalls, reply.readPaths);
    const answer: Answer = {
      res: { text: reply.raw, usage: { ...ZERO_USAGE }, stopReason: 'end_turn', model: talk.model },
      sent: reply.sent,
      reply: { ...parsed.reply, envelope: { ...parsed.reply.envelope, task_id: state.taskId } },
      // nothing streamed in this run: the envelope event says so, and a transcript shows the kept reply's voice
      voiceNotStreamed: true,
    };
    run.emit({ type: 'step-started', step, agent: STEP_AGENT[step], attempt: 1 });
    run.warn(
      `${STEP_AGENT[step]}'s reply from the previous run is used (kept in ${where}), so ${STEP_AGENT[step]} is not asked again: ` +
        `${reply.editRepair ? 'its edit repair is kept too; ' : ''}only what came after it runs again.`,
    );
    return new KeptReply(run, step, talk, tools, {
      answer,
      feedback: reply.feedback,
      receivedWhole: new Set(reply.receivedWhole),
      ...(reply.editRepair ? { editRepair: reply.editRepair } : {}),
    });
  }

  /** DevA's edit repair answered: kept too, with the usage it added. */
  async repaired(editRepair: KeptRepair): Promise<void> {
    this.parts = { ...this.parts, editRepair };
    await this.save();
  }

  /** The step's record is saved: the kept reply has served. */
  async done(): Promise<void> {
    await this.run.store.removePendingReply(this.run.state.taskId, this.step).catch(() => undefined);
  }

  private async save(): Promise<void> {
    const { answer, feedback, receivedWhole, editRepair } = this.parts;
    const reply: PendingReply = {
      step: this.step,
      basis: basisOf(this.run, this.step),
      raw: answer.res.text,
      sent: answer.sent,
      usage: this.talk.usage,
      model: this.talk.model,
      continuations: this.talk.continuations,
      warnings: [...this.talk.warnings],
      toolCalls: [...(this.tools?.records ?? [])],
      readPaths: [...(this.tools?.readPaths ?? [])],
      receivedWhole: [...receivedWhole],
      feedback,
      ...(editRepair ? { editRepair } : {}),
      keptAt: this.run.now(),
    };
    try {
      await this.run.store.savePendingReply(this.run.state.taskId, reply);
    } catch (err) {
      this.run.warn(`${STEP_AGENT[this.step]}'s reply could not be kept for a resume (${(err as Error).message}); if the step fails now, a resume asks again.`);
    }
  }
}

/** The records of the steps before `step` as the state names them: what its reply was built on. */
function basisOf(run: SessionRun, step: StepId): Partial<Record<StepId, string>> {
  const out: Partial<Record<StepId, string>> = {};
  for (const s of STEP_IDS.slice(0, STEP_IDS.indexOf(step))) {
    const file = run.state.stepFiles[s];
    if (file) out[s] = run.store.relative(path.resolve(run.store.workspace, file));
  }
  return out;
}

function sameBasis(run: SessionRun, a: Partial<Record<string, string>>, b: Partial<Record<StepId, string>>): boolean {
  const norm = (p: string | undefined) => (p ? run.store.relative(path.resolve(run.store.workspace, p)) : '');
  return STEP_IDS.every((s) => norm(a[s]) === norm(b[s]));
}

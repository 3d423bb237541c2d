// The validated replies of pending/: `<task>_<n>_<agent>.json`, a step's reply kept the moment it validated, with
// what the step needs to go on from it (the conversation that produced it, the usage so far, the tool calls, the
// DevA → DA rounds, the edit repair once answered), so a step that fails afterwards — the edit repair request breaks,
// the checks are stopped — resumes from it instead of asking the model again (session/keptReply.ts). Written
// atomically, replaced as the step goes on, removed once the step's record is in pair/; read back checked (a
// damaged one is a StoreError naming the file and the field).
import { promises as fsp } from 'fs';
import * as z from '../model/schema';
import { STEP_AGENT, STEP_IDS, type ChatMessage, type FeedbackRecord, type StepId, type ToolCallRecord, type Usage } from '../model/types';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { StoreError, assertTaskId } from './records';
import { jsonFileText, readJsonFileIfAny } from './jsonFile';
import { feedbackSchema, fieldProblems, toolCallSchema, usageSchema } from './stepRecordSchema';
import type { SessionLayout } from './layout';

/** A step's validated reply and what its step had done when it was kept. */
export interface PendingReply {
  step: StepId;
  /** The records of the earlier steps the reply was built on (their state entries): another basis, another reply. */
  basis: Partial<Record<StepId, string>>;
  /** The validated reply (stitched, when it was continued). */
  raw: string;
  /** The conversation that produced it, without its own assistant turn. */
  sent: ChatMessage[];
  /** The step's usage so far (its requests, DA's answers) and the model that answered. */
  usage: Usage;
  model: string;
  continuations: number;
  warnings: string[];
  toolCalls: ToolCallRecord[];
  /** The files the tool calls read (a <file> rewriting one of them was not written blind). */
  readPaths: string[];
  /** The files the step's prompt carried whole (same). */
  receivedWhole: string[];
  feedback: FeedbackRecord[];
  /** DevA's edit repair, once answered: its reply and the conversation that asked for it. */
  editRepair?: { raw: string; sent: ChatMessage[] };
  /** Epoch ms. */
  keptAt: number;
}

let schema: z.ZodMiniType | null = null;

function buildSchema(): z.ZodMiniType {
  const messages = z.array(
    z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) }),
  );
  return z.looseObject({
    step: z.enum(STEP_IDS),
    basis: z.record(z.string(), z.string()),
    raw: z.string(),
    sent: messages,
    usage: usageSchema(),
    model: z.string(),
    continuations: z.number(),
    warnings: z.array(z.string()),
    toolCalls: z.array(toolCallSchema()),
    readPaths: z.array(z.string()),
    receivedWhole: z.array(z.string()),
    feedback: z.array(feedbackSchema()),
    editRepair: z.optional(z.looseObject({ raw: z.string(), sent: messages })),
    keptAt: z.number(),
  });
}

export class PendingReplies {
  constructor(private readonly layout: SessionLayout) {}

  private file(taskId: string, step: StepId): string {
    return this.layout.pendingPath(taskId, STEP_IDS.indexOf(step) + 1, STEP_AGENT[step]);
  }

  /** Writes (or replaces) a step's pending reply atomically; returns its absolute path. */
  async save(taskId: string, reply: PendingReply): Promise<string> {
    const file = this.file(taskId, reply.step);
    await ensureDir(this.layout.pendingDir);
    await writeFileAtomic(file, jsonFileText({ format: 'cape-pending-reply/1', taskId, ...reply }));
    return file;
  }

  /** A step's pending reply with its path, or null when there is none. A damaged one is a StoreError naming the file. */
  async load(taskId: string, step: StepId): Promise<{ reply: PendingReply; file: string } | null> {
    assertTaskId(taskId);
    const file = this.file(taskId, step);
    const data = await readJsonFileIfAny(file);
    if (data === undefined) return null;
    schema ??= buildSchema();
    const problems = fieldProblems(schema, data);
    if (problems) throw new StoreError(`${file} is not a reply CAPE can go on from (${problems.slice(0, 3).join('; ')}).`, file);
    const reply = data as PendingReply & { format?: unknown; taskId?: unknown };
    if (reply.step !== step) throw new StoreError(`${file} holds a reply of step ${reply.step}, not ${step}.`, file);
    const { format: _format, taskId: _taskId, ...rest } = reply;
    return { reply: rest, file };
  }

  /** Removes a step's pending reply (none: nothing to do). */
  async remove(taskId: string, step: StepId): Promise<void> {
    await fsp.rm(this.file(taskId, step), { force: true });
  }

  /**
   * Removes every pending reply of a finished session — one a crash left between its step's record and its removal
   * would stay for good — and pending/ itself once it holds nothing.
   */
  async removeAll(taskId: string): Promise<void> {
    for (const step of STEP_IDS) await this.remove(taskId, step);
    await fsp.rmdir(this.layout.pendingDir).catch(() => undefined); // not empty (another session's), or not there
  }
}

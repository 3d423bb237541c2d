// DevA's reply becomes the session's proposal: its <edit> hunks matched against the workspace (edits/propose.ts), one
// repair request for the hunks that did not apply (whatever still fails is refused, the other files go on), its
// <file> blocks checked by the path rules (files/pathSafety.ts), then the project's checks and their fix rounds
// (./devaChecks.ts) in DevA's same conversation. Nothing is written to the workspace: the files are only proposed.
import type { ChecksConfig, ChecksOutcome } from '../checks';
import { combineProposals, editRepairPrompt, mergeRepaired, resolveEdits, rewritesOf, type EditResolution } from '../edits/propose';
import { proposeFiles } from '../files/proposals';
import { isFileTest, type ChatMessage, type ProposedFile, type SessionEvent, type StepId } from '../model/types';
import { replyTurn } from '../llm/toolLoop';
import { extractFiles } from '../reply/blocks';
import type { ToolRunner } from '../tools/executor';
import type { Answer, StepConversation } from './conversation';
import { checkDevaProposal } from './devaChecks';
import type { KeptRepair } from './keptReply';
import { namedTests } from '../metrics/tsr';

export interface DevaProposalOptions {
  step: StepId;
  workspace: string;
  capeFolder: string;
  /** DevA's validated reply. */
  answer: Answer;
  /** DevA's step conversation: the edit repair and the fix rounds continue it. */
  conversation: StepConversation;
  /** Files DevA's prompt carried whole (a <file> rewriting one of them was not written blind). */
  receivedWhole: ReadonlySet<string>;
  /** DevA's tools (the files it read were not rewritten blind either). */
  tools: ToolRunner | null;
  checks?: ChecksConfig;
  signal?: AbortSignal;
  emit: (e: SessionEvent) => void;
  /** The edit repair a previous run received (./keptReply.ts): used instead of asking again. */
  repaired?: KeptRepair;
  /** Called once the edit repair is answered (before the checks run), so it is kept too. */
  onRepaired?: (repair: KeptRepair) => Promise<void>;
}

export interface DevaProposal {
  files: ProposedFile[];
  /** The reply to the edit repair request, when one was sent. */
  editRepair?: string;
  /** The checks' outcome, when the project has checks. */
  checks?: ChecksOutcome;
}

export async function proposeDevaFiles(o: DevaProposalOptions): Promise<DevaProposal> {
  const { step, workspace, capeFolder, emit } = o;
  const { res, sent, reply } = o.answer;
  /** DevA's conversation so far: a fix round continues it. */
  let conversation: ChatMessage[] = [...sent, replyTurn(res.text)];
  let fileBlocks = reply.files;
  let editRepair: string | undefined;
  let edits: EditResolution[] = await resolveEdits(workspace, reply.edits, { capeFolder });
  const failing = edits.filter((e) => !e.ok && e.repairable);
  if (failing.length > 0) {
    // One repair request naming each failing hunk; whatever still fails is refused, the other files go on.
    let again = o.repaired;
    if (!again) {
      const prompt = editRepairPrompt(failing);
      emit({ type: 'repair', step, error: `edits that did not apply — ${failing.map((f) => `${f.relPath ?? f.path}: ${f.ok ? '' : f.reason}`).join('; ')}` });
      const got = await o.conversation.call([...sent, replyTurn(res.text), { role: 'user', content: prompt }], 1);
      again = { raw: got.res.text, sent: got.messages };
      await o.onRepaired?.(again);
    }
    editRepair = again.raw;
    conversation = [...again.sent, replyTurn(editRepair)];
    const scan = extractFiles(editRepair);
    const fixedEdits = scan.ok ? await resolveEdits(workspace, scan.scan.edits, { capeFolder }) : [];
    const rewrites = scan.ok ? rewritesOf(workspace, scan.scan.files, failing, { capeFolder }) : [];
    edits = mergeRepaired(edits, fixedEdits, new Set(rewrites.map((f) => f.key)), scan.ok ? undefined : scan.error);
    fileBlocks = [...fileBlocks, ...rewrites.map((f) => ({ path: f.path, content: f.content }))];
  }
  const seen = new Set([...o.receivedWhole, ...(o.tools?.readPaths ?? [])]);
  const files = combineProposals(await proposeFiles(workspace, fileBlocks, { capeFolder }), edits, seen);
  if (!o.checks?.commands.length) return { files, editRepair };
  const checked = await checkDevaProposal({
    ...o.checks,
    step,
    workspace,
    capeFolder,
    files,
    signal: o.signal,
    emit,
    namedTests: [...namedTests(reply.envelope.output).values()].flat().flatMap((t) => (isFileTest(t) && t.name ? [{ name: t.name, file: t.file }] : [])),
    ask: async (request) => {
      const got = await o.conversation.call([...conversation, { role: 'user', content: request }], 1, false);
      conversation = [...got.messages, replyTurn(got.res.text)];
      return got.res.text;
    },
  });
  return { files: checked.files, editRepair, checks: checked.outcome };
}

// One agent step of a session, from its prompt to its saved artifact: the step's context inputs (./context.ts
// decides what it sees), its tools, its requests (./conversation.ts: streaming, tool loop, continuation, repair),
// DevA's blockers sent to DA (./blockers.ts), DevA's reply kept until the step is saved (./keptReply.ts: a resume
// goes on from it), DevA's proposal and checks (./devaProposal.ts), then the step's usage, its pair artifact written
// atomically before anything downstream runs, the session state and record updated, and the step's events. The order of the steps, pausing, stopping and failures are the runner's (./runner.ts).
import { renderPrompt } from '../cape/prompts';
import { storedFiles } from '../files/proposalBase';
import { kptDigest } from '../kpt';
import { proposedOrInWorkspace } from '../metrics/tsr';
import { replyTurn } from '../llm/toolLoop';
import { recordAdoptedTries } from '../kpt/status';
import { addUsage, STEP_AGENT, STEP_IDS, ZERO_USAGE, type CmOpeningOutput, type Envelope, type LlmClient, type ProposedFile, type SessionEvent, type StepId, type Usage } from '../model/types';
import type { SessionState, SessionStore } from '../store';
import { resolveBounds, ToolRunner } from '../tools/executor';
import { TOOL_STEPS } from '../tools/specs';
import { askAnswer, blockerRequest, resolveBlockers } from './blockers';
import { buildStepContext, type ContextInputs } from './context';
import { StepConversation } from './conversation';
import { proposeDevaFiles } from './devaProposal';
import { KeptReply, keepsReply } from './keptReply';
import { answeredPairs } from './dorQuestions';
import type { SharedInputs, WorkspaceSection } from './inputs';
import { DEFAULT_FEEDBACK_ROUNDS, DEFAULT_MAX_TOKENS, type SessionOptions } from './options';
import type { SessionRecord } from './record';

/** What every step of one run shares. */
export interface SessionRun {
  opts: SessionOptions;
  capeFolder: string;
  store: SessionStore;
  state: SessionState;
  /** The capped client (./cost.ts): every request of the session goes through it. */
  llm: LlmClient;
  record: SessionRecord;
  shared: SharedInputs;
  workspace: WorkspaceSection;
  /** A resumed, answered opening: the usage of the first opening (the one that asked), added to the second's. */
  openingCarry: Usage | null;
  emit: (e: SessionEvent) => void;
  warn: (message: string) => void;
  now: () => number;
  /** The running step's requests so far (usage, model): what a failed step used is reported from here. */
  current?: { usage: Usage; model: string } | null;
}

function stepNumber(step: StepId): number {
  return STEP_IDS.indexOf(step) + 1;
}

/** Runs one step and saves it; returns its envelope. Throws (StepFailure, LlmError, I/O errors) when it cannot. */
export async function runStep(run: SessionRun, step: StepId): Promise<Envelope> {
  const { opts, capeFolder, store, state, record, emit, warn } = run;
  const taskId = state.taskId;
  const dorAnswers = step === 'cm_open' ? answeredPairs(state) : undefined;
  // the step's tools, when it has them: its request states their bounds
  const bounds = opts.tools !== false && opts.llm.supportsTools && TOOL_STEPS.includes(step) ? resolveBounds(opts.tools || {}) : null;
  const inputs: ContextInputs = {
    dorAnswers,
    ...((step === 'deva' || step === 'cm_open') && opts.checks?.commands.length ? { plannedChecks: opts.checks.commands, ...(opts.checks.failFirst ? { plannedFailFirst: true } : {}) } : {}),
    ...(!opts.checks?.commands.length && opts.checksNotRun?.length ? { checksNotRun: opts.checksNotRun } : {}),
    taskId,
    objective: state.objective,
    language: state.language,
    preamble: renderPrompt(opts.prompts.preamble, {}),
    // No task id in the role prompt: it stays the same from session to session, so it is read from the cache.
    rolePrompt: renderPrompt(opts.prompts.roles[step], { language: state.language }),
    assets: run.shared.assets,
    kptDigest: kptDigest(run.shared.kptItems),
    kptFull: run.shared.kptFull,
    workspace: step === 'da' || step === 'deva' ? await run.workspace.renderer() : undefined,
    ...(bounds ? { toolBounds: bounds } : {}),
    envelopes: record.envelopes,
    raws: record.raws,
    toolCalls: record.toolCalls,
    devaFiles: record.devaFiles,
    devaSummary: record.devaSummary,
    checks: record.checks,
    ...(step === 'cm_retro' && record.checks ? { fileExists: proposedOrInWorkspace(opts.workspace, record.devaFiles) } : {}),
    feedback: record.feedback,
  };
  const ctx = buildStepContext(step, inputs);
  record.contextChars[step] = { input: ctx.baselineChars, passed: ctx.passedChars };
  const startedAt = run.now();
  const tools = bounds
    ? new ToolRunner({
        workspace: opts.workspace,
        capeFolder,
        bounds,
        signal: opts.signal,
        onCall: (call) => emit({ type: 'tool-call', step, agent: STEP_AGENT[step], call }),
      })
    : null;
  const talk = new StepConversation({
    step,
    taskId,
    workspace: opts.workspace,
    store,
    ctx,
    model: opts.model,
    maxTokens: opts.maxTokens?.[step] ?? DEFAULT_MAX_TOKENS[step],
    llm: run.llm,
    tools,
    signal: opts.signal,
    retry: opts.retry,
    emit,
    usage: step === 'cm_open' && run.openingCarry ? { ...run.openingCarry } : { ...ZERO_USAGE },
  });
  run.current = talk;
  // A resumed DevA step goes on from the reply its previous run kept once it validated (./keptReply.ts).
  let kept = keepsReply(step) ? await KeptReply.resume(run, step, talk, tools) : null;
  let answer = kept?.answer ?? (await talk.ask([{ role: 'user', content: ctx.user }]));

  // DevA's blockers go to DA, and DevA answers again (session/blockers.ts).
  const feedback = kept
    ? kept.feedback
    : step === 'deva'
      ? await resolveBlockers({
          current: () => ({ raw: answer.res.text, envelope: answer.reply.envelope }),
          rounds: opts.feedbackRounds ?? DEFAULT_FEEDBACK_ROUNDS,
          ask: (_to, questions) =>
            askAnswer({
              llm: run.llm,
              model: opts.model,
              ...blockerRequest(inputs, renderPrompt(opts.prompts.roles.da_answer, { language: state.language, task_id: taskId }), questions),
              signal: opts.signal,
              retry: { ...opts.retry, onRetry: ({ attempt, error, delayMs }) => emit({ type: 'retry', step, attempt, reason: error.message, delayMs }) },
            }),
          rerun: async (prompt) => {
            answer = await talk.ask([...answer.sent, replyTurn(answer.res.text), { role: 'user', content: prompt }]);
          },
          emit,
          warn,
        })
      : [];
  if (!kept) for (const f of feedback) talk.usage = addUsage(talk.usage, f.usage);
  // DevA's reply is on disk before the requests and checks that follow it (a failure there does not lose it).
  if (!kept && keepsReply(step)) kept = await KeptReply.keep(run, step, talk, tools, { answer, feedback, receivedWhole: new Set(run.workspace.devaReceivedWhole) });
  record.feedback.push(...feedback);
  const { res, reply } = answer;

  let files: ProposedFile[] = [];
  let editRepair: string | undefined;
  if (step === 'deva') {
    const proposal = await proposeDevaFiles({
      step,
      workspace: opts.workspace,
      capeFolder,
      answer,
      conversation: talk,
      receivedWhole: kept?.receivedWhole ?? run.workspace.devaReceivedWhole,
      tools,
      // the session's key is hidden in the checks' output (checks/checkEnv.ts)
      checks: opts.checks && { ...opts.checks, apiKey: opts.llm.credential },
      signal: opts.signal,
      emit,
      repaired: kept?.editRepair,
      onRepaired: async (repair) => kept?.repaired(repair),
    });
    files = proposal.files;
    editRepair = proposal.editRepair;
    if (proposal.checks) record.checks = proposal.checks;
    record.devaFiles = files;
    record.devaSummary = reply.summary;
  }

  // Usage after every request of the step (edit repair and fix rounds included).
  const { usage: stepUsage, model, continuations } = talk;
  record.usage[step] = { usage: stepUsage, model };
  emit({ type: 'usage', step, usage: stepUsage, model });

  // Persist before anything downstream runs.
  const finishedAt = run.now();
  const checks = record.checks;
  const artifactPath = await store.saveStep(taskId, step, {
    step,
    agent: STEP_AGENT[step],
    n: stepNumber(step),
    raw: res.text,
    envelope: reply.envelope,
    files: storedFiles(files),
    summary: reply.summary,
    usage: stepUsage,
    model,
    startedAt,
    finishedAt,
    context: record.contextChars[step],
    ...(tools ? { toolCalls: tools.records } : {}),
    ...(editRepair !== undefined ? { editRepair } : {}),
    ...(continuations ? { continuations } : {}),
    ...(step === 'deva' && checks ? { checks } : {}),
    ...(talk.warnings.length ? { warnings: talk.warnings } : {}),
    ...(feedback.length ? { feedback } : {}),
    ...(dorAnswers ? { dorAnswers } : {}),
  });
  record.envelopes[step] = reply.envelope;
  record.raws[step] = res.text;
  if (tools) record.toolCalls[step] = tools.records;
  state.completedSteps.push(step);
  state.stepFiles[step] = store.relative(artifactPath); // workspace-relative, as records.ts says: the workspace may move
  await store.saveSessionState(state);
  await kept?.done();
  if (step === 'cm_open') {
    const adopted = (reply.envelope.output as CmOpeningOutput).adopted_tries;
    await recordAdoptedTries(store.kptPath, taskId, adopted, { workspaceRoot: opts.workspace, onWarning: warn });
  }

  emit({ type: 'envelope', step, envelope: reply.envelope, summary: reply.summary, ...(answer.voiceNotStreamed ? { voiceNotStreamed: true as const } : {}) });
  for (const f of files) emit({ type: 'file-proposed', step, file: f });
  emit({ type: 'step-finished', step, artifactPath, durationMs: finishedAt - startedAt });
  record.steps.push({ step, ok: true, usage: stepUsage, model, envelope: reply.envelope, ...(continuations ? { continuations } : {}) });
  return reply.envelope;
}

// The session runner: CM opening → POA → DA → DevA → CM retrospective, as typed events.
//
// Guarantees:
//  - each step's artifact is written (atomically) before the next step starts, so nothing completed is lost;
//  - a session that failed can be resumed from its last completed step (resume: true);
//  - the engine never writes a workspace file: DevA's files are only *proposed* (apply is the caller's decision);
//  - metrics are computed here from envelopes and timings, never by the model.

import * as fs from 'fs';
import * as path from 'path';
import { loadCape, type CapeIssue } from '../cape/assets';
import { DEFAULT_CAPE_FOLDER } from '../model/types';
import { buildStepContext, toRequest, type ContextInputs } from './context';
import { LlmError, toLlmError } from '../llm/errors';
import { kptDigest, parseKpt, readKptText } from '../kpt';
import { recordAdoptedTries } from '../kpt/status';
import { computeMetrics, historyFromRetrospectives } from '../metrics/metrics';
import { computeTsr, existsInWorkspace, lastRuns } from '../metrics/tsr';
import { isRepeatOf } from './repeatOf';
import { extractFiles, parseReply, repairPrompt } from '../reply/parser';
import { runToolLoop } from '../llm/toolLoop';
import { ToolRunner } from '../tools/executor';
import { TOOL_SPECS, TOOL_STEPS, type ToolBounds } from '../tools/specs';
import { combineProposals, editRepairPrompt, mergeRepaired, resolveEdits, rewritesOf, type EditResolution } from '../edits/propose';
import { proposeFiles } from '../files/pathSafety';
import { renderPrompt, templateBodies, type PromptAssets } from '../cape/prompts';
import { withStepRetry } from '../llm/retry';
import { CostTracker, capClient, capUnenforceable } from '../llm/costCap';
import { costUsd as priceOf } from '../llm/pricing';
import { SessionStore, type SessionState } from '../store';
import {
  STEP_AGENT,
  STEP_IDS,
  stepTitle,
  addUsage,
  ZERO_USAGE,
  type CmOpeningOutput,
  type Envelope,
  type ErrorKind,
  type KptLists,
  type LlmClient,
  type ProposedFile,
  type SessionEvent,
  type SessionMetrics,
  type StepId,
  type ChatMessage,
  type LlmResult,
  type Usage,
  type FeedbackRecord,
} from '../model/types';
import { askAnswer, blockerRequest, DEFAULT_FEEDBACK_ROUNDS, resolveBlockers } from './blockers';
import { answeredPairs, prepareAnswers, questionsToPause } from './dorQuestions';
import { CONTINUE_PROMPT, MAX_CONTINUATIONS, replyWasCut, stitchContinuation } from '../reply/continuation';
import { VoiceExtractor } from '../reply/voiceStream';
import { StepFailure } from './failure';
import { createSession, loadCompletedStep, loadSessionToResume } from './prepare';
import { packWorkspace, WorkspaceIndex, type ContextStep, type RankQuery } from '../workspace';
import type { ChecksConfig, ChecksOutcome } from '../checks';
import { checkDevaProposal } from './devaChecks';

export interface SessionOptions {
  workspace: string;
  /** The cape/ folder name, relative to the workspace. */
  capeFolder?: string;
  /** Required for a new session; read from the saved state when resuming. */
  objective?: string;
  language?: string;
  /** Defaults to task-<epoch ms>. */
  taskId?: string;
  model: string;
  llm: LlmClient;
  prompts: PromptAssets;
  onEvent?: (e: SessionEvent) => void;
  /** Problems with the cape/ files that do not stop the session (a file skipped, a project file missing). */
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
  /** Resume the saved session `taskId`: completed steps are loaded from disk, only the rest run. */
  resume?: boolean;
  /** With resume: run this step and every later one again, even if they were completed. */
  fromStep?: StepId;
  maxTokens?: Partial<Record<StepId, number>>;
  /**
   * Tools for DevA and DA (read_file, search_files, list_files) when the client supports them: per-step bounds
   * (defaults 12 calls, 80,000 characters), or false for none.
   */
  tools?: Partial<ToolBounds> | false;
  /**
   * The workspace index kept up to date by the caller (VS Code's file watcher). Without it the runner opens one
   * (from the cache file, refreshed from mtimes) when DA's or DevA's step needs it.
   */
  workspaceIndex?: WorkspaceIndex;
  /** Resume of a session paused for the CM's blocking questions: the user's answers, in the questions' order. */
  answers?: string[];
  /** Resume of a paused session without answers ("Continue anyway"): POA starts from the opening as it is. */
  skipQuestions?: boolean;
  /**
   * false: the CM opening's blocking questions never pause the session (they stay in its envelope), e.g. for
   * `cape repeat`, whose reruns nobody answers. Default true.
   */
  pauseForQuestions?: boolean;
  /** DevA → DA → DevA rounds per session when DevA raises blockers (default DEFAULT_FEEDBACK_ROUNDS = 1; 0 = none). */
  feedbackRounds?: number;
  /** Characters of the workspace section in DevA's prompt (default DEFAULT_WORKSPACE_BUDGET.deva). */
  workspaceBudget?: number;
  /** The project's checks on DevA's proposal, with fix rounds (src/core/checks/); none when absent or empty. */
  checks?: ChecksConfig;
  /**
   * This session reruns the saved session `repeatOf` (`cape repeat`): the KPT digest leaves out the items of that
   * session and its reruns, and this one's KPT is not merged nor its satisfaction counted in the trend.
   */
  repeatOf?: string;
  /** The session's cost cap in USD (`cape.maxSessionCostUsd`, `--max-cost`): no request is sent whose worst case could exceed it. */
  maxCostUsd?: number;
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  now?: () => number;
}

export interface StepOutcome {
  step: StepId;
  ok: boolean;
  usage: Usage;
  model: string;
  envelope?: Envelope;
  /** How many times the reply was continued after stopping at the output limit (absent when never). */
  continuations?: number;
}

export interface SessionResult {
  taskId: string;
  ok: boolean;
  steps: StepOutcome[];
  files: ProposedFile[];
  kpt: KptLists | null;
  metrics: SessionMetrics | null;
  retrospectivePath: string | null;
  /** A failed session that `resume` can continue (its state records the failure). */
  resumable: boolean;
  /** The checks on DevA's proposal and their fix rounds, when checks ran (also when DevA's step was resumed). */
  checks?: ChecksOutcome;
  /** DevA → DA → DevA rounds of the session (absent when DevA raised no blocker). */
  feedback?: FeedbackRecord[];
  /** USD spent by every request of the session (all runs), or null when unknown (a model without a known price). */
  costUsd: number | null;
  /**
   * The CM opening asked these blocking questions: the session is paused (state `needs_answers`). Resume it with
   * `answers` (one more CM opening, then POA) or `skipQuestions`.
   */
  needsAnswers?: string[];
  error?: { step: StepId | null; kind: ErrorKind; message: string };
}

/**
 * Output budget per step: about twice the largest reply measured (9 recorded sessions and 2 trial sessions; tokens
 * estimated at 4 ASCII characters or 1 other character per token, so Japanese counts about three times more per
 * character): CM opening 2.1 K, POA 5.3 K, DA 7.5 K, DevA 17.6 K, retrospective 3.5 K.
 */
export const DEFAULT_MAX_TOKENS: Record<StepId, number> = {
  cm_open: 5000,
  poa: 11000,
  da: 15000,
  deva: 36000,
  cm_retro: 7000,
};

/** Thrown (and reported as an error event) when a step cannot produce a valid envelope. */
export { StepFailure } from './failure';

function stepNumber(step: StepId): number {
  return STEP_IDS.indexOf(step) + 1;
}

/** Runs (or resumes) a session. Never throws for model/config failures: they come back in the result + events. */
export async function runSession(opts: SessionOptions): Promise<SessionResult> {
  const emit = (e: SessionEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      /* a listener's bug must not break the session */
    }
  };
  const now = opts.now ?? Date.now;
  const capeFolder = opts.capeFolder ?? DEFAULT_CAPE_FOLDER;
  const capeDir = path.join(opts.workspace, capeFolder);
  const store = new SessionStore(opts.workspace, capeFolder);
  const steps: StepOutcome[] = [];
  let state: SessionState | null = null;
  /** True once this run has written the session's state: only then may a failure be recorded in it. */
  let stateSaved = false;
  let currentStep: StepId | null = null;
  /** A resumed, answered opening: the usage of the first opening (the one that asked), added to the second's. */
  let openingCarry: Usage | null = null;
  let cost: CostTracker | null = null;
  const warn = (message: string) => {
    try {
      opts.onWarning?.(message);
    } catch {
      /* a listener's bug must not break the session */
    }
  };

  try {
    if (!fs.existsSync(capeDir)) {
      throw new StepFailure(
        null,
        'config',
        `No ${capeFolder}/ folder in ${opts.workspace}. Create it first: run \`cape init --workspace ${opts.workspace}\` (CLI) or "CAPE: Initialize Project" (VS Code).`,
      );
    }
    const outside = store.locationProblem();
    if (outside) throw new StepFailure(null, 'config', outside);

    // --- session state: new or resumed ---------------------------------------------------------------------------
    // What a killed process left (hidden temporary files of interrupted writes) goes first.
    const leftovers = await store.removeLeftovers().catch(() => [] as string[]);
    if (leftovers.length) warn(`Removed ${leftovers.length} leftover temporary file(s) of an interrupted write: ${leftovers.join(', ')}.`);
    if (opts.resume) {
      const loaded = await loadSessionToResume(store, opts.taskId, opts.fromStep);
      state = loaded.state;
      // Blocking questions of the CM opening (session/dorQuestions.ts): still unanswered → nothing runs.
      const wasWaiting = state.status === 'needs_answers';
      const waiting = prepareAnswers(state, { answers: opts.answers, skipQuestions: opts.skipQuestions, fromStep: opts.fromStep });
      if (waiting) return paused(state, waiting, state.costUsd ?? null, emit);
      // Answered (prepareAnswers took the opening out of the completed steps): the opening runs again, and its step
      // usage counts the first opening's request too.
      if (wasWaiting && !state.completedSteps.includes('cm_open')) {
        openingCarry = (await store.loadStep(state.taskId, 'cm_open').catch(() => null))?.usage ?? null;
      }
      for (const s of loaded.adopted) {
        warn(`Step ${s} was saved before the previous run stopped (${state.stepFiles[s]}); it is taken as completed and not run again.`);
      }
      state.status = 'running';
      state.error = undefined;
      await store.saveSessionState(state);
    } else {
      state = await createSession(store, {
        objective: opts.objective ?? '',
        language: opts.language ?? 'English',
        model: opts.model,
        taskId: opts.taskId,
        now,
      });
    }
    stateSaved = true;
    const taskId = state.taskId;

    const remaining = STEP_IDS.filter((s) => !state!.completedSteps.includes(s));
    emit({ type: 'session-started', taskId, objective: state.objective, language: state.language, steps: remaining, resumed: !!opts.resume });

    // --- context inputs --------------------------------------------------------------------------------------------
    const cape = await loadCape(capeDir);
    for (const warning of capeWarnings(cape.issues, capeFolder, new Set(templateBodies(opts.prompts).keys()))) warn(warning);
    const assets = new Map<string, string>();
    for (const f of cape.files.values()) assets.set(f.relPath, f.body);
    // A cape/ made by the original CLI has only the project's input files: the framework's generic files come from
    // the extension's own templates.
    for (const [rel, body] of templateBodies(opts.prompts)) if (!assets.has(rel)) assets.set(rel, body);

    const kptRead = await readKptText(store.kptPath, opts.workspace);
    if (kptRead.warning) warn(kptRead.warning);
    const kptFull = kptRead.text;
    const repeatOf = opts.repeatOf;
    const kptItems = parseKpt(kptFull).filter((i) => !repeatOf || !isRepeatOf(i.taskId, repeatOf));

    const envelopes: Partial<Record<StepId, Envelope>> = {};
    const raws: Partial<Record<StepId, string>> = {};
    const usage: Partial<Record<StepId, { usage: Usage; model: string }>> = {};
    const contextChars: Partial<Record<StepId, { input: number; passed: number }>> = {};
    let devaFiles: ProposedFile[] = [];
    let devaSummary: string | null = null;
    let checks: ChecksOutcome | undefined;
    /** DevA → DA → DevA rounds (session/blockers.ts), from this run or DevA's saved record. */
    const allFeedback: FeedbackRecord[] = [];

    // Reload completed steps' records (resume).
    for (const s of state.completedSteps) {
      const rec = await loadCompletedStep(store, taskId, s);
      envelopes[s] = rec.envelope;
      raws[s] = rec.raw;
      usage[s] = { usage: rec.usage, model: rec.model };
      if (rec.context) contextChars[s] = rec.context;
      if (s === 'deva') {
        const kept = rec.files.filter((f) => f.status !== 'refused');
        devaFiles = [
          ...(await proposeFiles(opts.workspace, kept.map((f) => ({ path: f.path, content: f.content })), { capeFolder })),
          ...rec.files.filter((f) => f.status === 'refused').map((f): ProposedFile => ({ action: 'modify', ...f, status: 'refused', content: '' })),
        ];
        devaSummary = rec.summary;
        checks = rec.checks;
        allFeedback.push(...(rec.feedback ?? []));
      }
      steps.push({ step: s, ok: true, usage: rec.usage, model: rec.model, envelope: rec.envelope, ...(rec.continuations ? { continuations: rec.continuations } : {}) });
    }

    // What the session spent (earlier runs included; a state from before the cap counts its completed steps) and its cap.
    const spentBefore =
      state.costUsd !== undefined
        ? state.costUsd
        : Object.values(usage).reduce<number | null>((sum, u) => (sum === null ? null : ((c) => (c === null ? null : sum + c))(priceOf(u.model, u.usage))), 0);
    cost = new CostTracker(opts.maxCostUsd ?? null, spentBefore);
    const unenforceable = capUnenforceable(cost.capUsd, opts.model);
    if (unenforceable) warn(unenforceable);
    emit({ type: 'cost', spentUsd: cost.spentUsd, capUsd: cost.capUsd });
    // Every request of the session goes through the cap (steps, tool turns, continuations, repairs, DA's answers).
    const tracker = cost;
    const llm = capClient(opts.llm, tracker, {
      what: () => `the next request (${currentStep ? stepTitle(currentStep) : 'setup'})`,
      onRecorded: () => {
        state!.costUsd = tracker.spentUsd;
        emit({ type: 'cost', spentUsd: tracker.spentUsd, capUsd: tracker.capUsd });
      },
    });

    // The workspace index for DA's and DevA's sections: the caller's (kept current by a watcher) or one opened once,
    // brought up to date from mtimes. A workspace that cannot be indexed costs the section, not the session.
    let wsIndex: WorkspaceIndex | null = opts.workspaceIndex ?? null;
    let wsIndexFailed = false;
    const workspaceSection = async (): Promise<((s: ContextStep, q: RankQuery) => string) | undefined> => {
      if (!wsIndex && !wsIndexFailed) {
        try {
          wsIndex = (await WorkspaceIndex.open(opts.workspace, { capeFolder })).index;
        } catch (err) {
          wsIndexFailed = true;
          opts.onWarning?.(`The workspace could not be indexed (${(err as Error).message}); DA and DevA get no workspace files.`);
        }
      }
      const index = wsIndex;
      if (!index) return undefined;
      return (s, q) => {
        const packed = packWorkspace(index, q, {
          step: s,
          budget: s === 'deva' ? opts.workspaceBudget : undefined,
          readText: (rel) => {
            const r = index.policy.readSync(rel);
            return r.ok ? r.text : null;
          },
        });
        if (s === 'deva') for (const f of packed.files) if (f.whole) devaReceivedWhole.add(f.path);
        return packed.text;
      };
    };
    /** Files DevA's prompt carried whole: a <file> rewriting one of them was not written blind. */
    const devaReceivedWhole = new Set<string>();

    // --- the steps -------------------------------------------------------------------------------------------------
    for (const step of remaining) {
      currentStep = step;
      if (opts.signal?.aborted) throw new StepFailure(step, 'cancelled', 'Session cancelled.');
      const dorAnswers = step === 'cm_open' ? answeredPairs(state) : undefined;
      const inputs: ContextInputs = {
        dorAnswers,
        ...(step === 'deva' && opts.checks?.commands.length ? { plannedChecks: opts.checks.commands } : {}),
        taskId,
        objective: state.objective,
        language: state.language,
        preamble: renderPrompt(opts.prompts.preamble, {}),
        // No task id in the role prompt: it stays the same from session to session, so it is read from the cache.
        rolePrompt: renderPrompt(opts.prompts.roles[step], { language: state.language }),
        assets,
        kptDigest: kptDigest(kptItems),
        kptFull,
        workspace: step === 'da' || step === 'deva' ? await workspaceSection() : undefined,
        envelopes,
        raws,
        devaFiles,
        devaSummary,
        checks,
        feedback: allFeedback,
      };
      const ctx = buildStepContext(step, inputs);
      contextChars[step] = { input: ctx.baselineChars, passed: ctx.passedChars };
      const startedAt = now();
      const maxTokens = opts.maxTokens?.[step] ?? DEFAULT_MAX_TOKENS[step];
      let stepUsage: Usage = step === 'cm_open' && openingCarry ? { ...openingCarry } : { ...ZERO_USAGE };
      let model = opts.model;

      const tools =
        opts.tools !== false && opts.llm.supportsTools && TOOL_STEPS.includes(step)
          ? new ToolRunner({
              workspace: opts.workspace,
              capeFolder,
              bounds: opts.tools || {},
              signal: opts.signal,
              onCall: (call) => emit({ type: 'tool-call', step, agent: STEP_AGENT[step], call }),
            })
          : null;

      /** One model turn, retried on its own (so a retry never repeats the tool calls already answered). */
      // `prefix`: the reply so far, when this turn continues a reply cut at the output limit (its voice was shown).
      const turn = async (messages: ChatMessage[], toolChoice: 'auto' | 'none', attemptBase: number, announce: boolean, prefix = '') =>
        withStepRetry(
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
              ...toRequest(ctx, opts.model, maxTokens, opts.signal),
              messages,
              ...(tools ? { tools: [...TOOL_SPECS], toolChoice } : {}),
              // A turn answering tool calls is likely followed by another (more calls, then the reply): cache it.
              cacheLastMessage: answersToolCalls(messages),
            };
            try {
              const res = await llm.stream(request, (d) => extractor.push(d));
              extractor.end();
              stepUsage = addUsage(stepUsage, res.usage);
              model = res.model || model;
              return res;
            } catch (e) {
              throw toLlmError(e, {});
            }
          },
          {
            maxAttempts: opts.retry?.maxAttempts,
            baseDelayMs: opts.retry?.baseDelayMs,
            maxDelayMs: opts.retry?.maxDelayMs,
            signal: opts.signal,
            onRetry: ({ attempt, error, delayMs }) =>
              emit({ type: 'retry', step, attempt: attempt + 1, reason: error.message, delayMs }),
          },
        );

      /** A request of the step: with tools, the loop answers the model's calls until it writes its reply. */
      const call = async (messages: ChatMessage[], attemptBase: number, announce = true) => {
        const got = await toolCall(messages, attemptBase, announce);
        return { res: await continueIfCut(got.res, got.messages), messages: got.messages };
      };

      /** A reply cut at the output limit is continued (at most MAX_CONTINUATIONS per step), else the step fails. */
      let continuations = 0;
      const continueIfCut = async (first: LlmResult, sent: ChatMessage[]): Promise<LlmResult> => {
        let res = first;
        for (;;) {
          const probe = res.stopReason === null ? parseReply(step, res.text) : null;
          if (!replyWasCut(res.stopReason, probe && !probe.ok ? probe.error : null)) return res;
          if (continuations >= MAX_CONTINUATIONS) {
            const rawPath = await store.saveFailedRaw(taskId, step, res.text);
            throw new StepFailure(
              step,
              'invalid_reply',
              `${STEP_AGENT[step]}'s reply was still cut off at the output limit (${maxTokens} tokens) after ${MAX_CONTINUATIONS} continuations, so it was not used: ` +
                `a part of it would be lost. The partial reply is saved in ${path.relative(opts.workspace, rawPath)}. Narrow the objective (less to write in one step), then resume.`,
              res.text,
            );
          }
          continuations++;
          emit({ type: 'continued', step, continuation: continuations, max: MAX_CONTINUATIONS });
          const more = await turn(
            [...sent, { role: 'assistant', content: res.text }, { role: 'user', content: CONTINUE_PROMPT }],
            'none',
            0,
            false,
            res.text,
          );
          res = { ...more, text: stitchContinuation(res.text, more.text) };
        }
      };

      const toolCall = async (messages: ChatMessage[], attemptBase: number, announceFirst = true) => {
        if (!tools) return { res: await turn(messages, 'auto', attemptBase, announceFirst), messages };
        let announce = announceFirst;
        const loop = await runToolLoop({
          messages,
          send: (m, choice) => {
            const first = announce;
            announce = false;
            return turn(m, choice, attemptBase, first);
          },
          execute: (calls) => tools.execute(calls),
          spent: () => tools.spent(),
          signal: opts.signal,
        });
        return { res: loop.result, messages: loop.messages };
      };

      /** What the parser noticed in the step's replies (e.g. several envelopes: the last complete one was used). */
      const replyWarnings: string[] = [];
      /** A request whose reply must validate: one repair request that quotes the error, then a clear failure keeping the raw text. */
      const ask = async (messages: ChatMessage[]) => {
        let { res, messages: sent } = await call(messages, 0);
        let parsed = parseReply(step, res.text);
        if (!parsed.ok) {
          emit({ type: 'repair', step, error: parsed.error });
          const firstRaw = res.text;
          ({ res, messages: sent } = await call(
            [...sent, { role: 'assistant', content: firstRaw }, { role: 'user', content: repairPrompt(step, parsed.error, firstRaw) }],
            1,
          ));
          parsed = parseReply(step, res.text);
          if (!parsed.ok) {
            const rawPath = await store.saveFailedRaw(taskId, step, `${firstRaw}\n\n----- repair reply -----\n\n${res.text}`);
            throw new StepFailure(
              step,
              'invalid_reply',
              `${STEP_AGENT[step]}'s reply could not be used even after a repair request: ${parsed.error}. The raw replies are saved in ${path.relative(opts.workspace, rawPath)}. Retry the step (or resume the session) to ask again.`,
              res.text,
            );
          }
        }
        replyWarnings.push(...parsed.warnings);
        for (const message of parsed.warnings) emit({ type: 'warning', step, message });
        // the engine's id, whatever the model wrote
        return { res, sent, reply: { ...parsed.reply, envelope: { ...parsed.reply.envelope, task_id: taskId } } };
      };
      let { res, sent, reply } = await ask([{ role: 'user', content: ctx.user }]);

      // DevA's blockers go to DA, and DevA answers again (session/blockers.ts).
      const feedback =
        step === 'deva'
          ? await resolveBlockers({
              current: () => ({ raw: res.text, envelope: reply.envelope }),
              rounds: opts.feedbackRounds ?? DEFAULT_FEEDBACK_ROUNDS,
              ask: (_to, questions) =>
                askAnswer({
                  llm,
                  model: opts.model,
                  ...blockerRequest(inputs, renderPrompt(opts.prompts.roles.da_answer, { language: state!.language, task_id: taskId }), questions),
                  signal: opts.signal,
                  retry: { ...opts.retry, onRetry: ({ attempt, error, delayMs }) => emit({ type: 'retry', step, attempt, reason: error.message, delayMs }) },
                }),
              rerun: async (prompt) => {
                ({ res, sent, reply } = await ask([...sent, { role: 'assistant', content: res.text }, { role: 'user', content: prompt }]));
              },
              emit,
              warn,
            })
          : [];
      for (const f of feedback) stepUsage = addUsage(stepUsage, f.usage);
      allFeedback.push(...feedback);

      let files: ProposedFile[] = [];
      let editRepair: string | undefined;
      if (step === 'deva') {
        /** DevA's conversation so far: a fix round continues it. */
        let conversation: ChatMessage[] = [...sent, { role: 'assistant', content: res.text }];
        let fileBlocks = reply.files;
        let edits: EditResolution[] = await resolveEdits(opts.workspace, reply.edits, { capeFolder });
        const failing = edits.filter((e) => !e.ok && e.repairable);
        if (failing.length > 0) {
          // One repair request naming each failing hunk; whatever still fails is refused, the other files go on.
          const prompt = editRepairPrompt(failing);
          emit({ type: 'repair', step, error: `edits that did not apply — ${failing.map((f) => `${f.relPath ?? f.path}: ${f.ok ? '' : f.reason}`).join('; ')}` });
          const again = await call([...sent, { role: 'assistant', content: res.text }, { role: 'user', content: prompt }], 1);
          editRepair = again.res.text;
          conversation = [...again.messages, { role: 'assistant', content: editRepair }];
          const scan = extractFiles(editRepair);
          const fixedEdits = scan.ok ? await resolveEdits(opts.workspace, scan.scan.edits, { capeFolder }) : [];
          const rewrites = scan.ok ? rewritesOf(opts.workspace, scan.scan.files, failing, { capeFolder }) : [];
          edits = mergeRepaired(edits, fixedEdits, new Set(rewrites.map((f) => f.key)));
          fileBlocks = [...fileBlocks, ...rewrites.map((f) => ({ path: f.path, content: f.content }))];
        }
        const seen = new Set([...devaReceivedWhole, ...(tools?.readPaths ?? [])]);
        files = combineProposals(await proposeFiles(opts.workspace, fileBlocks, { capeFolder }), edits, seen);
        if (opts.checks?.commands.length) {
          ({ files, outcome: checks } = await checkDevaProposal({
            ...opts.checks,
            step,
            workspace: opts.workspace,
            capeFolder,
            files,
            signal: opts.signal,
            emit,
            ask: async (request) => {
              const got = await call([...conversation, { role: 'user', content: request }], 1, false);
              conversation = [...got.messages, { role: 'assistant', content: got.res.text }];
              return got.res.text;
            },
          }));
        }
        devaFiles = files;
        devaSummary = reply.summary;
      }

      // Usage after every request of the step (edit repair and fix rounds included).
      usage[step] = { usage: stepUsage, model };
      emit({ type: 'usage', step, usage: stepUsage, model });

      // Persist before anything downstream runs.
      const finishedAt = now();
      const artifactPath = await store.saveStep(taskId, step, {
        step,
        agent: STEP_AGENT[step],
        n: stepNumber(step),
        raw: res.text,
        envelope: reply.envelope,
        files: files.map((f) => ({
          path: f.path,
          content: f.content,
          action: f.action,
          ...(f.status === 'refused' ? { status: f.status, reason: f.reason } : {}),
          ...(f.edit ? { edit: true } : {}),
          ...(f.warning ? { warning: f.warning } : {}),
        })),
        summary: reply.summary,
        usage: stepUsage,
        model,
        startedAt,
        finishedAt,
        context: contextChars[step],
        ...(tools ? { toolCalls: tools.records } : {}),
        ...(editRepair !== undefined ? { editRepair } : {}),
        ...(continuations ? { continuations } : {}),
        ...(step === 'deva' && checks ? { checks } : {}),
        ...(replyWarnings.length ? { warnings: replyWarnings } : {}),
        ...(feedback.length ? { feedback } : {}),
        ...(dorAnswers ? { dorAnswers } : {}),
      });
      envelopes[step] = reply.envelope;
      raws[step] = res.text;
      state.completedSteps.push(step);
      state.stepFiles[step] = artifactPath;
      await store.saveSessionState(state);
      if (step === 'cm_open') {
        const adopted = (reply.envelope.output as CmOpeningOutput).adopted_tries;
        await recordAdoptedTries(store.kptPath, taskId, adopted, { workspaceRoot: opts.workspace, onWarning: warn });
      }

      emit({ type: 'envelope', step, envelope: reply.envelope, summary: reply.summary });
      for (const f of files) emit({ type: 'file-proposed', step, file: f });
      emit({ type: 'step-finished', step, artifactPath, durationMs: finishedAt - startedAt });
      steps.push({ step, ok: true, usage: stepUsage, model, envelope: reply.envelope, ...(continuations ? { continuations } : {}) });

      // Blocking questions: the session pauses here (saved, resumable) until the user answers or skips them.
      const questions = step === 'cm_open' && opts.pauseForQuestions !== false ? questionsToPause(state, reply.envelope) : null;
      if (questions) {
        state.status = 'needs_answers';
        state.dor = { questions };
        await store.saveSessionState(state);
        return paused(state, questions, cost.spentUsd, emit, steps);
      }
    }
    currentStep = null;

    // --- retrospective artifacts ------------------------------------------------------------------------------------
    const retro = envelopes.cm_retro!;
    const kpt: KptLists = retro.kpt ?? { keep: [], problem: [], try: [] };
    if (!kpt.keep.length && !kpt.problem.length && !kpt.try.length) {
      warn(`The Cape Master's retrospective has no KPT items (keep, problem, try are all empty): nothing was added to ${capeFolder}/5_sessions/retrospective/kpt_merged.md.`);
    }
    if (!repeatOf) await store.mergeKpt(taskId, kpt, new Date(now()), { onWarning: warn });
    const history = await historyFromRetrospectives(path.join(capeDir, '5_sessions', 'retrospective'));
    const metricsAt = now();
    const metrics = computeMetrics({
      envelopes,
      usage,
      startedAt: state.createdAt,
      retroSavedAt: metricsAt,
      contextChars,
      history,
      tsr: computeTsr({
        poaOutput: envelopes.poa?.output,
        devaOutput: envelopes.deva?.output,
        judgements: retro.criteria,
        checks: checks ? lastRuns(checks) : null,
        fileExists: (rel) => devaFiles.some((f) => f.status !== 'refused' && (f.relPath ?? f.path) === rel) || existsInWorkspace(opts.workspace, rel),
      }),
    });
    const retrospectivePath = await store.saveRetrospective(taskId, state.objective, envelopes, metrics, devaFiles, new Date(metricsAt), repeatOf ? { repeatOf } : {});
    state.status = 'complete';
    await store.saveSessionState(state);
    emit({ type: 'session-finished', taskId, retrospectivePath, kpt, metrics, files: devaFiles });
    return {
      taskId,
      ok: true,
      resumable: false,
      costUsd: cost.spentUsd,
      steps,
      files: devaFiles,
      kpt,
      metrics,
      retrospectivePath,
      ...(checks ? { checks } : {}),
      ...(allFeedback.length ? { feedback: allFeedback } : {}),
    };
  } catch (err) {
    const failure = asFailure(err, currentStep);
    emit({ type: 'error', step: failure.step, kind: failure.kind, message: failure.message, raw: failure.raw });
    if (currentStep) steps.push({ step: currentStep, ok: false, usage: { ...ZERO_USAGE }, model: opts.model });
    // Resume can continue exactly when this run recorded the failure in a state it wrote itself (never a state it
    // could not read, a completed one, or one of another session) and the failure is not one resume repeats.
    let resumable = false;
    if (state && stateSaved) {
      state.status = 'failed';
      state.error = { step: failure.step, kind: failure.kind, message: failure.message };
      try {
        await store.saveSessionState(state);
        resumable = failure.resumable;
      } catch {
        /* keep the original error */
      }
    }
    return {
      taskId: state?.taskId ?? opts.taskId ?? '',
      ok: false,
      resumable,
      costUsd: cost ? cost.spentUsd : (state?.costUsd ?? null),
      steps,
      files: [],
      kpt: null,
      metrics: null,
      retrospectivePath: null,
      error: { step: failure.step, kind: failure.kind, message: failure.message },
    };
  }
}

/** Whether the last message carries tool results (a turn inside the tool loop). */
function answersToolCalls(messages: ChatMessage[]): boolean {
  const last = messages[messages.length - 1]?.content;
  return Array.isArray(last) && last.some((b) => b.type === 'tool_result');
}

/** The result of a session paused for the CM's blocking questions (also when a resume finds them unanswered). */
function paused(state: SessionState, questions: string[], costUsd: number | null, emit: (e: SessionEvent) => void, steps: StepOutcome[] = []): SessionResult {
  emit({ type: 'needs-answers', step: 'cm_open', taskId: state.taskId, questions });
  return { taskId: state.taskId, ok: false, resumable: true, needsAnswers: questions, costUsd, steps, files: [], kpt: null, metrics: null, retrospectivePath: null };
}

/**
 * The loader's issues worth telling the user: files skipped or cut (malformed or refused frontmatter, unreadable,
 * truncated) and missing project input files. Missing framework files are not mentioned: the extension's own templates
 * stand in for them (a cape/ made by the original CLI has none).
 */
export function capeWarnings(issues: CapeIssue[], capeFolder: string, templates: Set<string>): string[] {
  const out: string[] = [];
  for (const i of issues) {
    if (i.kind === 'missing' && (templates.has(i.path) || i.path === '.')) continue;
    const where = `${capeFolder}/${i.path}${i.line ? `:${i.line}` : ''}`;
    if (i.kind === 'missing') {
      out.push(`${where} is missing: the team works without it. Fill it with \`cape init --missing-only\` or "CAPE: Initialize Project" → Fill only missing files.`);
    } else if (i.kind === 'truncated') {
      out.push(`${where}: ${i.message}`);
    } else if (i.kind === 'too-deep') {
      out.push(`${where}/ ${i.message}`);
    } else {
      out.push(`${where} was skipped: ${i.message}`);
    }
  }
  return out;
}

function asFailure(err: unknown, step: StepId | null): StepFailure {
  if (err instanceof StepFailure) return err;
  if (err instanceof LlmError) return new StepFailure(step, err.kind, err.message);
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
    if ((e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS') && e.path) {
      // The path of a failed atomic write is its hidden temporary file: name the folder instead.
      const dir = path.basename(e.path).startsWith('.') ? path.dirname(e.path) : e.path;
      return new StepFailure(step, 'io', `Cannot write ${dir} (${e.code}: ${e.code === 'EROFS' ? 'read-only file system' : 'permission denied'}). CAPE keeps every session under 5_sessions/ of the cape folder: make it writable, then try again.`);
    }
    return new StepFailure(step, 'io', `File system error: ${e.message}`);
  }
  return new StepFailure(step, 'unknown', err instanceof Error ? err.message : String(err));
}

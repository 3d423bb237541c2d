// `cape start` and `cape resume`: the objective (flag, file or stdin), the session with its live transcript, the Cape
// Master's blocking questions (asked on a terminal; without one the session pauses with exit code 2), --apply and --json.
import {
  objectiveProblem,
  applyProposedFiles,
  refuseChangedSinceProposal,
  defaultPromptsDir,
  loadPromptAssets,
  runSession,
  type SessionResult,
  STEP_AGENT,
  STEP_IDS,
  stepTitle,
  DEFAULT_SESSION_MODEL,
  type ProposedFile,
  type StepId,
  summarizeChecks,
  notRunReason,
  shellWord,
  withoutControls,
} from '../core';
import { type Parsed, EXIT_INTERRUPTED, UsageError, abortOnStopSignals, capeFolderFlag, requireWorkspace } from './flags';
import { clientFrom, fileFlagText, wholeNumber, toolBoundsFrom, checksFrom, maxCostFrom, taskIdFrom } from './settings';
import { printer } from './printer';
import { lineReader } from './terminal';

/**
 * The Cape Master's blocking questions asked on the terminal, one by one; an empty answer lets the team assume (all
 * empty = go on without answers). The end of the input or `signal` (Ctrl-C) ends the asking with the answers so far.
 * Exported for tests.
 */
export async function askDorQuestions(
  questions: readonly string[],
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<string[]> {
  const reader = lineReader(input, output);
  const answers: string[] = [];
  try {
    output.write(`\nThe Cape Master asks before the team starts (press Enter to leave one to the team's judgement):\n`);
    for (const [i, q] of questions.entries()) {
      const line = await reader.ask(`${i + 1}. ${withoutControls(q)}\n> `, signal);
      if (line === undefined) break;
      answers.push(line.trim());
    }
  } finally {
    reader.close();
  }
  return answers;
}

/** The objective of `cape start`: --objective TEXT or --objective-file PATH (- = stdin), checked against the cap. */
async function objectiveFrom(flags: Parsed['flags']): Promise<string> {
  const text = flags.objective;
  const file = flags['objective-file'];
  if (text !== undefined && file !== undefined) throw new UsageError('Give the objective once: --objective TEXT or --objective-file PATH, not both.');
  let objective: string;
  let source: string;
  if (typeof file === 'string') {
    ({ text: objective, source } = await fileFlagText('objective-file', file, 'the objective'));
  } else if (typeof text === 'string') {
    objective = text;
    source = 'The objective (--objective)';
  } else {
    throw new UsageError('--objective TEXT (or --objective-file PATH) is required.');
  }
  const problem = objectiveProblem(objective, source);
  if (problem) throw new UsageError(problem);
  return objective.trim();
}

export async function cmdSession(resume: boolean, flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  const objective = resume ? undefined : await objectiveFrom(flags);
  const taskId = taskIdFrom(flags, resume ? '--task ID is required to resume a session.' : undefined);
  // --from-step, --answer and --skip-questions are `cape resume`'s alone, --objective `cape start`'s (flags.ts COMMAND_FLAGS)
  const fromStep = flags['from-step'];
  if (fromStep !== undefined && (typeof fromStep !== 'string' || !(STEP_IDS as readonly string[]).includes(fromStep))) {
    throw new UsageError(`--from-step takes one of ${STEP_IDS.join(', ')} (got "${String(fromStep)}").`);
  }
  const givenAnswers = (flags.answer as string[] | undefined) ?? [];
  if (givenAnswers.length && !givenAnswers.some((a) => a.trim())) throw new UsageError('--answer needs a non-empty answer (or use --skip-questions).');
  if (givenAnswers.length && flags['skip-questions']) throw new UsageError('Give --answer or --skip-questions, not both.');
  const { client } = await clientFrom(flags, env, stderr);
  const tools = toolBoundsFrom(flags);
  const feedbackRounds = wholeNumber(flags, 'feedback-rounds');
  const maxCostUsd = maxCostFrom(flags);
  const human = flags.json ? stderr : stdout;
  const { config: checks, notRun: checksNotRun } = await checksFrom(flags, workspace, human);
  const controller = new AbortController();
  const removeSignals = abortOnStopSignals(controller);
  let result: SessionResult;
  /** Every warning of the run (the cape/ loader's, the KPT merge's, a step's), for --json. */
  const warnings: string[] = [];
  const print = printer(human);
  /** Questions are asked on the terminal only when both ends are one and no JSON is expected. */
  const interactive = !flags.json && !!process.stdin.isTTY && !!(stderr as NodeJS.WriteStream).isTTY;
  let answers: { answers?: string[]; skipQuestions?: boolean } = givenAnswers.length
    ? { answers: givenAnswers }
    : flags['skip-questions']
      ? { skipQuestions: true }
      : {};
  try {
    for (let run = 0; ; run++) {
      result = await runSession({
        workspace,
        capeFolder: capeFolderFlag(flags['cape-folder']),
        objective,
        language: (flags.lang as string) ?? 'English',
        taskId: run ? result!.taskId : taskId,
        resume: resume || run > 0,
        ...answers,
        fromStep: run ? undefined : (fromStep as StepId | undefined),
        model: (flags.model as string) ?? DEFAULT_SESSION_MODEL,
        llm: client,
        prompts: loadPromptAssets(defaultPromptsDir()),
        tools,
        checks,
        ...(checksNotRun ? { checksNotRun } : {}),
        ...(feedbackRounds !== undefined ? { feedbackRounds } : {}),
        ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
        onEvent: (e) => {
          if (e.type === 'warning') warnings.push(`${stepTitle(e.step)}: ${e.message}`);
          print(e);
        },
        onWarning: (w) => {
          warnings.push(w);
          stderr.write(`⚠ ${withoutControls(w)}\n`);
        },
        signal: controller.signal,
      });
      // The Cape Master asked blocking questions: a terminal answers them here (once), else the session stays paused.
      if (!result.needsAnswers || !interactive || run > 0 || controller.signal.aborted) break;
      const typed = await askDorQuestions(result.needsAnswers, process.stdin, stderr, controller.signal);
      // Ctrl-C at a question: the session stays paused for its answers, as if no terminal had been there
      if (controller.signal.aborted) break;
      answers = typed.some((a) => a.trim()) ? { answers: typed } : { skipQuestions: true };
    }
  } finally {
    removeSignals();
  }

  if (result.needsAnswers) {
    const q = result.needsAnswers;
    // commands the user copies: POSIX shell lines, as the README's
    const ws = shellWord(workspace, 'posix');
    stderr.write(
      `\nSession ${result.taskId} is paused: the Cape Master needs ${q.length === 1 ? 'an answer' : `${q.length} answers`} before the team starts.\n` +
        q.map((x, i) => `  ${i + 1}. ${withoutControls(x)}\n`).join('') +
        `Answer with: cape resume --workspace ${ws} --task ${result.taskId} ${q.map(() => '--answer "…"').join(' ')}\n` +
        `(answers in the order of the questions), or go on without: cape resume --workspace ${ws} --task ${result.taskId} --skip-questions\n`,
    );
    if (flags.json) stdout.write(JSON.stringify({ taskId: result.taskId, status: 'needs_answers', questions: q }) + '\n');
    return controller.signal.aborted ? EXIT_INTERRUPTED : 2;
  }

  let files: ProposedFile[] = result.files;
  if (result.ok && flags.apply) {
    const capeFolder = capeFolderFlag(flags['cape-folder']);
    // a file changed since the proposal (by the user, or before a resume) keeps that change: nobody here to ask
    const before = files;
    files = await applyProposedFiles(refuseChangedSinceProposal(files, workspace, { capeFolder }), { workspaceRoot: workspace, capeFolder });
    files.forEach((f, i) => {
      if (f.status === 'applied') human.write(`  ✓ wrote ${f.relPath}\n`);
      // refused only now (changed since the proposal, a path that became unsafe, a failed write): say so here too
      else if (f.status === 'refused' && before[i].status === 'proposed') human.write(withoutControls(`  ✗ not written ${f.relPath ?? f.path} — ${f.reason}\n`));
    });
  } else if (result.ok && files.some((f) => f.status === 'proposed')) {
    human.write(`\n${files.filter((f) => f.status === 'proposed').length} file(s) proposed, nothing written. Re-run with --apply to write them.\n`);
  }
  if (!result.ok && result.resumable) {
    const first = result.error?.kind === 'auth' ? 'Once the key is fixed, resume' : 'Completed steps are saved. Resume';
    human.write(`\n${first} with: cape resume --workspace ${shellWord(workspace, 'posix')} --task ${result.taskId}\n`);
  }
  if (flags.json) {
    const checksNotRun = result.checks ? notRunReason(result.checks.runs) : null;
    stdout.write(
      JSON.stringify({
        taskId: result.taskId,
        ok: result.ok,
        error: result.error,
        costUsd: result.costUsd,
        ...(result.ok ? {} : { resumable: result.resumable }),
        steps: result.steps.map((s) => ({ step: s.step, agent: s.envelope?.agent ?? STEP_AGENT[s.step], ok: s.ok, usage: s.usage, ...(s.continuations ? { continued: s.continuations } : {}) })),
        files: files.map((f) => ({
          path: f.path,
          action: f.action,
          status: f.status,
          ...(f.edit ? { edit: true } : {}),
          ...(f.reason ? { reason: f.reason } : {}),
          ...(f.warning ? { warning: f.warning } : {}),
        })),
        checks: result.checks
          ? summarizeChecks(result.checks).map((c) => {
              // how the command fared on the unchanged workspace, when it failed on the proposal (checks/baseline.ts)
              const unchanged = result.checks!.baseline?.find((b) => b.command === c.command);
              // status: how its last run ended ('error': it could not start, so `passed: false` is no verdict)
              return { command: c.command, status: c.status, passed: c.passed, exitCode: c.exitCode, rounds: c.rounds, ...(unchanged ? { unchangedWorkspace: unchanged.status } : {}) };
            })
          : [],
        // no check could start (checks/verdict.ts): nothing tested the proposal, which is not a proposal that fails
        ...(checksNotRun ? { checksNotRun } : {}),
        ...(result.checks?.failsAsBefore ? { checksFailAsBefore: true } : {}),
        ...(result.checks?.fixDeclined ? { checksFixDeclined: true } : {}),
        ...(result.checks?.formatted?.length ? { formatted: result.checks.formatted } : {}),
        // proposed files no check saw (a link on their way, a write that failed): "passed" does not cover them
        ...(result.checks?.notWritten?.length ? { checksNotWritten: result.checks.notWritten } : {}),
        ...(result.checks?.before
          ? { failFirst: { testFiles: result.checks.before.testFiles, checks: result.checks.before.runs.map((r) => ({ command: r.command, passed: r.passed, exitCode: r.exitCode, status: r.status, ...(r.testsNotReached ? { testsNotReached: true } : r.unbuilt ? { unbuilt: true } : {}) })), ...(result.checks.before.skipped ? { skipped: result.checks.before.skipped } : {}) } }
          : {}),
        ...(result.feedback ? { feedback: result.feedback.map((f) => ({ round: f.round, from: f.from, to: f.to, questions: f.questions, answered: !!f.answer, answer: f.answerText })) } : {}),
        kpt: result.kpt,
        openQuestions: result.openQuestions ?? [],
        metrics: result.metrics,
        retrospectivePath: result.retrospectivePath,
        warnings,
      }) + '\n',
    );
  }
  return result.ok ? 0 : controller.signal.aborted ? EXIT_INTERRUPTED : 1;
}

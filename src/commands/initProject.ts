// CAPE: Initialize Project — the questionnaire (quick inputs), the existing-cape/ choice, then initCape with the
// init model under a cancellable progress notification. For automation (tests, other extensions) the command
// accepts `{ answers, mode? }` and skips every prompt; it resolves to an InitProjectResult.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DEFAULT_INIT_MODEL,
  checkInitTarget,
  describeFacts,
  initCape,
  inputsToGenerate,
  normaliseAnswers,
  workspaceHasCode,
  type InitAnswers,
  type InitMode,
  type InitResult,
} from '../core';
import type { Services } from '../services';
import { workspaceIndex } from '../workspace/indexService';
import {
  EXISTING_CAPE_PLACEHOLDER,
  INIT_TITLE,
  SKIP_LABEL,
  existingCapeChoices,
  initProjectFlow,
  progressMessage,
  summariseInit,
  typingMessage,
  useTypedLabel,
  validateAnswer,
  type QuestionnaireStep,
  type StepReply,
} from './questionnaire';
import { SHOW_LOG, errorMessage, registerCapeCommand, requireTrust, requireWorkspace } from './util';
import { showError, showInformation, showWarning } from '../notify';

export const COMMAND_ID = 'cape.initProject';
const INIT_MODES: readonly InitMode[] = ['fail-if-exists', 'overwrite', 'missing-only'];

/** The optional command argument (automation). */
export interface InitProjectArgs {
  answers: unknown;
  mode?: InitMode;
}

export type InitProjectResult =
  | { status: 'done'; mode: InitMode; result: InitResult }
  /** kept: the user chose "Keep existing"; cancelled: Esc during the questionnaire (nothing written). */
  | { status: 'kept' | 'cancelled' | 'no-client' | 'untrusted' | 'no-workspace' }
  | { status: 'error'; error: string };

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Initialize Project failed', (arg) =>
    initProject(services, arg as InitProjectArgs | undefined),
  );
}

async function capeExists(dir: string): Promise<boolean> {
  try {
    return (await fs.promises.readdir(dir)).length > 0;
  } catch {
    return false;
  }
}

export async function initProject(services: Services, arg?: InitProjectArgs): Promise<InitProjectResult> {
  const root = requireWorkspace(services, 'create the cape/ folder');
  if (!root) return { status: 'no-workspace' };
  if (!requireTrust('initialize the project (it writes the cape/ folder)')) return { status: 'untrusted' };
  const capeFolder = services.settings().capeFolder;

  if (arg !== undefined && arg !== null) {
    // automation: no prompts
    let answers: InitAnswers | null;
    try {
      if (typeof arg !== 'object') throw new Error('the argument must be { answers, mode? }');
      // no answers: only generic templates may be written (initCape says so if an input file is missing)
      answers = arg.answers === undefined ? null : normaliseAnswers(arg.answers, () => workspaceHasCode(root, capeFolder));
      if (arg.mode !== undefined && !INIT_MODES.includes(arg.mode)) {
        throw new Error(`mode must be one of ${INIT_MODES.join(', ')} (got ${JSON.stringify(arg.mode)})`);
      }
    } catch (err) {
      const error = `Invalid arguments for ${COMMAND_ID}: ${errorMessage(err)}`;
      services.output.error(error);
      void showError(error);
      return { status: 'error', error };
    }
    return runInit(services, root, answers, arg.mode ?? 'fail-if-exists');
  }

  const outcome = await initProjectFlow<InitProjectResult>({
    checkTarget: () => checkInitTarget(root, capeFolder),
    capeExists: () => capeExists(path.join(root, capeFolder)),
    chooseExistingMode: () => chooseExistingMode(capeFolder),
    answersNeeded: async (mode) => inputsToGenerate(root, capeFolder, services.prompts, mode).length > 0,
    hasCode: () => workspaceHasCode(root, capeFolder),
    ask: askStep,
    run: (answers, mode) => runInit(services, root, answers, mode),
  });
  if (outcome.status === 'done') return outcome.result;
  if (outcome.status === 'refused') {
    // a cape folder no run can write is said before any question
    services.output.error(`Initialize Project failed: ${outcome.error}`);
    void showError(`CAPE: Initialize Project failed: ${outcome.error}`);
    return { status: 'error', error: outcome.error };
  }
  services.output.info(outcome.status === 'kept' ? `Initialize Project: kept the existing ${capeFolder}/` : 'Initialize Project cancelled; nothing was written');
  return { status: outcome.status };
}

async function chooseExistingMode(capeFolder: string): Promise<InitMode | undefined> {
  const choices = existingCapeChoices(capeFolder);
  const picked = await vscode.window.showQuickPick(choices, {
    title: INIT_TITLE,
    placeHolder: EXISTING_CAPE_PLACEHOLDER.replace('cape/', `${capeFolder}/`),
    ignoreFocusOut: true,
  });
  return picked?.mode;
}

// ---------------------------------------------------------------------------------------------
// One questionnaire step as a VS Code quick input

function askStep(step: QuestionnaireStep): Promise<StepReply> {
  return step.kind === 'pick' ? askPick(step) : askInput(step);
}

/**
 * Shows a quick input and resolves once with its outcome: Back (the button), cancel (hidden, e.g. Esc) or what
 * `wire` submits. Listeners and the input are disposed when it settles.
 */
function runQuickInput(
  input: vscode.InputBox | vscode.QuickPick<PickItem>,
  wire: (submit: (value: string) => void) => vscode.Disposable[],
): Promise<StepReply> {
  return new Promise<StepReply>((resolve) => {
    let settled = false;
    const subs: vscode.Disposable[] = [];
    const finish = (r: StepReply) => {
      if (settled) return;
      settled = true;
      resolve(r);
      subs.forEach((d) => d.dispose());
      input.dispose();
    };
    subs.push(
      ...wire((value) => finish({ action: 'submit', value })),
      input.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish({ action: 'back' });
      }),
      input.onDidHide(() => finish({ action: 'cancel' })),
    );
    input.show();
  });
}

function askInput(step: QuestionnaireStep): Promise<StepReply> {
  const box = vscode.window.createInputBox();
  box.title = INIT_TITLE;
  box.step = step.step;
  box.totalSteps = step.totalSteps;
  box.prompt = step.prompt;
  box.placeholder = step.placeholder;
  box.value = step.value;
  box.ignoreFocusOut = true; // clicking elsewhere must not throw the answers away; Esc still cancels
  box.buttons = step.canGoBack ? [vscode.QuickInputButtons.Back] : [];
  box.validationMessage = step.error;
  return runQuickInput(box, (submit) => [
    box.onDidChangeValue((v) => {
      box.validationMessage = typingMessage(step.question, v);
    }),
    box.onDidAccept(() => {
      const error = validateAnswer(step.question, box.value);
      if (error) {
        box.validationMessage = error;
        return;
      }
      submit(box.value);
    }),
  ]);
}

interface PickItem extends vscode.QuickPickItem {
  value: string;
}

function askPick(step: QuestionnaireStep): Promise<StepReply> {
  const qp = vscode.window.createQuickPick<PickItem>();
  qp.title = INIT_TITLE;
  qp.step = step.step;
  qp.totalSteps = step.totalSteps;
  qp.placeholder = `${step.prompt} — pick one or type your own, e.g. ${step.placeholder.replace(/^e\.g\.\s*/, '')}`;
  qp.ignoreFocusOut = true;
  qp.matchOnDetail = false;
  qp.buttons = step.canGoBack ? [vscode.QuickInputButtons.Back] : [];
  const suggestions: PickItem[] = step.suggestions.map((s) => ({ label: s, value: s }));
  const skip: PickItem = { label: SKIP_LABEL, value: '', alwaysShow: true };
  const build = (typed: string): PickItem[] => {
    const t = typed.trim();
    const typedItem: PickItem[] =
      t && !step.suggestions.includes(t) ? [{ label: useTypedLabel(t), value: t, alwaysShow: true, description: 'your answer' }] : [];
    return [...typedItem, ...suggestions, ...(step.question.required ? [] : [skip])];
  };
  const prefilled = step.value && !step.suggestions.includes(step.value) ? step.value : '';
  qp.value = prefilled;
  qp.items = build(prefilled);
  const selected = qp.items.find((i) => i.value === step.value && step.value !== '');
  if (selected) qp.activeItems = [selected];
  return runQuickInput(qp, (submit) => [
    qp.onDidChangeValue((v) => {
      qp.items = build(v);
    }),
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      const value = item ? item.value : qp.value;
      if (step.question.required && value.trim() === '') return;
      submit(value);
    }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Running initCape

/** answers: null when only generic templates are written (no project input file to generate): no model is used. */
async function runInit(services: Services, root: string, answers: InitAnswers | null, mode: InitMode): Promise<InitProjectResult> {
  const s = services.settings();
  const info = answers ? await services.provider.getClient('init') : null;
  if (answers && !info) return { status: 'no-client' };
  services.output.info(
    `Initialize Project: ${s.capeFolder}/ in ${root}, mode ${mode}, ${info ? `model ${info.label}, language ${s.language}` : 'generic templates only (every project input file exists)'}`,
  );

  let result: InitResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `CAPE: Initializing ${s.capeFolder}/`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        let last = 0;
        progress.report({ message: info ? `writing the team files with ${info.model}…` : 'restoring the generic team files…' });
        try {
          return await initCape({
            workspace: root,
            capeFolder: s.capeFolder,
            answers,
            llm: info?.client ?? null,
            model: info?.model ?? DEFAULT_INIT_MODEL,
            language: s.language,
            mode,
            signal: ac.signal,
            prompts: services.prompts,
            // the watched index sessions use: the facts' code map, without a second index in memory
            index: () => workspaceIndex(services, root),
            onProgress: (p) => {
              progress.report({ message: progressMessage(p, s.capeFolder), increment: ((p.done - last) / Math.max(1, p.total)) * 100 });
              last = p.done;
            },
          });
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (err) {
    const error = errorMessage(err);
    services.output.error(`Initialize Project failed: ${error}`);
    void showError(`CAPE: Initialize Project failed: ${error}`, SHOW_LOG).then((c) => {
      if (c === SHOW_LOG) services.output.show(true);
    });
    return { status: 'error', error };
  }

  if (result.facts) services.output.info(`  ${describeFacts(result.facts, result.factsRequests)}`);
  for (const f of result.written) services.output.info(`  wrote ${f}`);
  for (const f of result.failed) services.output.warn(`  not written ${f.path}: ${f.error}`);
  services.refreshTrees();
  void showSummary(services, root, answers, result);
  return { status: 'done', mode, result };
}

const START_SESSION = 'Start Session';
const OPEN_FOLDER = 'Open cape/ folder';
const RETRY_MISSING = 'Retry missing';

/** The completion notification; its actions run later, so the command itself does not wait for a click. */
async function showSummary(services: Services, root: string, answers: InitAnswers | null, result: InitResult): Promise<void> {
  const capeFolder = services.settings().capeFolder;
  const summary = summariseInit(result, capeFolder);
  const choice =
    summary.level === 'info'
      ? await showInformation(summary.message, START_SESSION, OPEN_FOLDER)
      : await showWarning(summary.message, RETRY_MISSING, OPEN_FOLDER, SHOW_LOG);
  if (choice === START_SESSION) await vscode.commands.executeCommand('cape.startSession');
  else if (choice === OPEN_FOLDER) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(path.join(root, capeFolder)));
  else if (choice === SHOW_LOG) services.output.show(true);
  else if (choice === RETRY_MISSING && requireTrust('initialize the project')) await runInit(services, root, answers, 'missing-only');
}

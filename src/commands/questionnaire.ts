// The Initialize Project questionnaire as plain logic (no `vscode` import): the steps, validation, Back, Cancel,
// the "cape/ already exists" choice and the messages. src/commands/initProject.ts renders each step with a VS Code
// input box / quick pick; test/unit/questionnaire.test.ts drives it with a scripted UI.
//
// Stable UI strings (the Playwright e2e test relies on them):
//   title        "CAPE: Initialize Project" on every step; step x / total shown by VS Code
//   prompt       the question of initQuestions (src/core/cape/initAnswers.ts: the features question asks about the next
//                release where the workspace holds code), with " (optional)" appended for optional ones
//   placeholder  the question's example answer
//   pick steps   questions with `suggestions` (team size, design feel) are a quick pick: "Use “<typed text>”" (when
//                something is typed), the suggestions, and "Skip — let the team propose one"
//   existing     quick pick titled "CAPE: Initialize Project", placeholder EXISTING_CAPE_PLACEHOLDER, items
//                "Keep existing (cancel)" / "Overwrite" / "Fill only missing files"
import {
  capeFolderKey,
  INIT_QUESTIONS,
  initQuestions,
  MAX_ANSWER_CHARS,
  type InitAnswers,
  type InitMode,
  type InitProgress,
  type InitQuestion,
  type InitResult,
  INIT_ANSWER_IDS,
} from '../core';

export const INIT_TITLE = 'CAPE: Initialize Project';

export const SKIP_LABEL = 'Skip — let the team propose one';
export const useTypedLabel = (text: string): string => `Use “${text}”`;

export interface QuestionnaireStep {
  /** 1-based. */
  step: number;
  totalSteps: number;
  question: InitQuestion;
  /** The question, with " (optional)" for optional ones. */
  prompt: string;
  placeholder: string;
  /** The current answer (pre-filled when coming back to a step). */
  value: string;
  /** 'pick' = quick pick of the question's suggestions plus free text; 'input' = input box. */
  kind: 'input' | 'pick';
  suggestions: readonly string[];
  canGoBack: boolean;
  /** Why the last submitted value was refused (shown as the validation message). */
  error?: string;
}

export type StepReply = { action: 'submit'; value: string } | { action: 'back' } | { action: 'cancel' };

/** Why `value` is not an acceptable answer to `q`, or undefined when it is. */
export function validateAnswer(q: InitQuestion, value: string): string | undefined {
  const v = value.trim();
  if (q.required && v === '') return 'This answer is required (press Esc to cancel).';
  if (v.length > MAX_ANSWER_CHARS) return `Keep the answer under ${MAX_ANSWER_CHARS} characters (it has ${v.length}).`;
  return undefined;
}

/**
 * What the input box says while the user types: validateAnswer's word on the text so far, except "required" (every
 * answer starts empty; that one is said when an empty answer is submitted).
 */
export function typingMessage(q: InitQuestion, value: string): string | undefined {
  return value.trim() === '' ? undefined : validateAnswer(q, value);
}

/** The step machine: one question at a time, Back keeps what was typed, answers are only complete at the end. */
export class Questionnaire {
  private index = 0;
  private readonly values: Record<string, string>;
  private error: string | undefined;
  private finished = false;

  constructor(
    readonly questions: readonly InitQuestion[] = INIT_QUESTIONS,
    initial: Partial<Record<string, string>> = {},
  ) {
    if (questions.length === 0) throw new Error('the questionnaire has no questions');
    this.values = Object.fromEntries(questions.map((q) => [q.id, (initial[q.id] ?? '').trim()]));
  }

  get done(): boolean {
    return this.finished;
  }

  current(): QuestionnaireStep {
    const q = this.questions[this.index];
    const suggestions = q.suggestions ?? [];
    const pick = suggestions.length > 0;
    return {
      step: this.index + 1,
      totalSteps: this.questions.length,
      question: q,
      prompt: q.required ? q.prompt : `${q.prompt} (optional)`,
      placeholder: q.placeHolder,
      value: this.values[q.id],
      kind: pick ? 'pick' : 'input',
      suggestions,
      canGoBack: this.index > 0,
      error: this.error,
    };
  }

  /** Records the answer and moves on; false (with `current().error` set) when the answer is refused. */
  submit(value: string): boolean {
    if (this.finished) throw new Error('the questionnaire is already complete');
    const q = this.questions[this.index];
    const error = validateAnswer(q, value);
    this.error = error;
    if (error) return false;
    this.values[q.id] = value.trim();
    if (this.index === this.questions.length - 1) this.finished = true;
    else this.index++;
    return true;
  }

  /** Goes one step back (keeping every answer); false on the first step. */
  back(): boolean {
    if (this.finished || this.index === 0) return false;
    this.error = undefined;
    this.index--;
    return true;
  }

  answers(): InitAnswers {
    if (!this.finished) throw new Error('the questionnaire is not complete');
    return Object.fromEntries(INIT_ANSWER_IDS.map((id) => [id, this.values[id] ?? ''])) as InitAnswers;
  }
}

/**
 * Asks every question through `ask` until the last one is answered (→ the answers) or the user cancels (→
 * undefined). Back on the first step is ignored.
 */
export async function runQuestionnaire(
  ask: (step: QuestionnaireStep) => Promise<StepReply>,
  initial?: Partial<Record<string, string>>,
  questions: readonly InitQuestion[] = INIT_QUESTIONS,
): Promise<InitAnswers | undefined> {
  const q = new Questionnaire(questions, initial);
  while (!q.done) {
    const reply = await ask(q.current());
    if (reply.action === 'cancel') return undefined;
    if (reply.action === 'back') q.back();
    else q.submit(reply.value);
  }
  return q.answers();
}

// ---------------------------------------------------------------------------------------------
// Existing cape/ folder

export const EXISTING_CAPE_PLACEHOLDER = 'A cape/ folder already exists in this workspace. What should happen to it?';

export interface ExistingChoice {
  label: string;
  detail: string;
  /** undefined = keep everything and stop. */
  mode: InitMode | undefined;
}

export function existingCapeChoices(capeFolder: string): ExistingChoice[] {
  return [
    { label: 'Keep existing (cancel)', detail: `Leave ${capeFolder}/ as it is and stop.`, mode: undefined },
    {
      label: 'Overwrite',
      detail: `Regenerate every template and input file in ${capeFolder}/ (sessions and retrospectives are kept).`,
      mode: 'overwrite',
    },
    {
      label: 'Fill only missing files',
      detail: `Keep the files that exist and write only the missing ones.`,
      mode: 'missing-only',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The whole flow

export interface InitFlowDeps<R> {
  /** Throws when no run could write the cape folder (a file, a link out of the workspace, a refused name: checkInitTarget). */
  checkTarget(): void;
  /** True when the cape folder exists and is not empty. */
  capeExists(): Promise<boolean>;
  /** Asked only when cape/ exists: the mode, or undefined to keep it. */
  chooseExistingMode(): Promise<InitMode | undefined>;
  /**
   * True when the run in this mode writes a project input file, which needs the questionnaire's answers; false when
   * it only restores generic templates (every input file exists), and then nothing is asked.
   */
  answersNeeded(mode: InitMode): Promise<boolean>;
  /** True when the workspace holds code (workspaceHasCode): the questions are worded for it (initQuestions). */
  hasCode(): boolean;
  ask(step: QuestionnaireStep): Promise<StepReply>;
  /** Writes cape/ (called only after every question was answered, or with null when none was needed). */
  run(answers: InitAnswers | null, mode: InitMode): Promise<R>;
}

export type InitFlowOutcome<R> =
  /** The cape folder cannot be written, whatever the mode: nothing was asked. */
  | { status: 'refused'; error: string }
  | { status: 'kept' }
  | { status: 'cancelled' }
  | { status: 'done'; answers: InitAnswers | null; mode: InitMode; result: R };

/**
 * The interactive Initialize Project flow: a cape folder no run could write is refused first, then the existing-folder
 * choice (so nobody answers ten questions for nothing), then the questionnaire, then `run`. Nothing is written unless
 * the questionnaire completes.
 */
export async function initProjectFlow<R>(deps: InitFlowDeps<R>): Promise<InitFlowOutcome<R>> {
  try {
    deps.checkTarget();
  } catch (err) {
    return { status: 'refused', error: err instanceof Error ? err.message : String(err) };
  }
  let mode: InitMode = 'fail-if-exists';
  if (await deps.capeExists()) {
    const chosen = await deps.chooseExistingMode();
    if (!chosen) return { status: 'kept' };
    mode = chosen;
  }
  if (!(await deps.answersNeeded(mode))) return { status: 'done', answers: null, mode, result: await deps.run(null, mode) };
  const answers = await runQuestionnaire(deps.ask, undefined, initQuestions(deps.hasCode()));
  if (!answers) return { status: 'cancelled' };
  return { status: 'done', answers, mode, result: await deps.run(answers, mode) };
}

// ---------------------------------------------------------------------------------------------
// Progress and result messages

/** "3/9 · 1_product/2_persona.md": the file relative to the cape folder (the option's normal form, capeFolderKey). */
export function progressMessage(p: InitProgress, capeFolder: string): string {
  const prefix = capeFolderKey(capeFolder) + '/';
  const file = p.file.startsWith(prefix) ? p.file.slice(prefix.length) : p.file;
  return `${p.done}/${p.total} · ${file}`;
}

export interface InitSummary {
  level: 'info' | 'warning';
  message: string;
  /** Offer "Retry missing" (a missing-only re-run with the same answers). */
  retry: boolean;
}

export function summariseInit(res: InitResult, capeFolder: string): InitSummary {
  const kept = res.skipped.length ? `, ${res.skipped.length} existing kept` : '';
  if (res.cancelled) {
    return {
      level: 'warning',
      message:
        `Initialization cancelled: ${res.written.length} file(s) written${kept}, ${res.failed.length} not written. ` +
        `Use "Retry missing" to finish ${capeFolder}/.`,
      retry: true,
    };
  }
  if (res.failed.length > 0) {
    const shown = res.failed.slice(0, 3).map((f) => `${f.path} (${f.error})`).join('; ');
    const more = res.failed.length > 3 ? `; and ${res.failed.length - 3} more (see the CAPE output)` : '';
    return {
      level: 'warning',
      message: `${res.failed.length} file(s) could not be written: ${shown}${more}. ${res.written.length} written${kept}.`,
      retry: true,
    };
  }
  const repaired = res.repaired.length ? ` (${res.repaired.length} after one repair request)` : '';
  return {
    level: 'info',
    message: `CAPE project initialized: ${res.written.length} file(s) written in ${capeFolder}/${kept}${repaired}. Review the input files, then start a session.`,
    retry: false,
  };
}

// The panel's view model: a pure reducer over host messages, from one view state (viewState.ts) to the next. No DOM
// here, so it can be unit-tested in Node. Everything coming from the host (and thus from the model) is coerced
// defensively (hostValues.ts): a malformed field degrades to an empty value instead of throwing. DevA's check events
// are folded in by checksModel.ts.
import { isPlainObject as isObj, STEP_AGENT, STEP_IDS, type SessionMetrics, type StepId } from '../../src/core/model/types';
import type { FileView, HostMessage } from '../../src/panel/protocol';
import { envelopeView, kptOf, num, openQuestionsOf, plain, str, strList, usageOf } from './hostValues';
import { reduceCheck } from './checksModel';
import { describeToolCall } from '../../src/core/tools/describe';
import { formatDuration } from '../../src/core/model/dates';
import { emptyState, MAX_HISTORY, restoreState, type Change, type PanelViewState, type QuestionsView, type SessionView, type StepStatus, type StepView } from './viewState';

function newStep(step: StepId, status: StepStatus = 'pending'): StepView {
  return {
    step,
    agent: STEP_AGENT[step],
    status,
    attempt: 0,
    voice: '',
    outputChars: 0,
    notes: [],
    envelope: null,
    summary: null,
    usage: null,
    model: null,
    durationMs: null,
    error: null,
  };
}

function newSession(taskId: string, objective: string, language: string, resumed: boolean, steps: StepId[]): SessionView {
  const all = {} as Record<StepId, StepView>;
  for (const id of STEP_IDS) {
    // A resumed session runs only the remaining steps: the others were done earlier.
    const status: StepStatus = steps.includes(id) ? 'pending' : resumed ? 'done' : 'skipped';
    all[id] = newStep(id, status);
  }
  return { taskId, objective, language, resumed, steps: all, files: [], finished: null, error: null };
}

function upsertFile(files: FileView[], f: FileView): FileView[] {
  const i = files.findIndex((x) => x.path === f.path);
  if (i < 0) return [...files, f];
  const copy = files.slice();
  copy[i] = f;
  return copy;
}

// ─── reducer ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Applies one host message. Returns the new state (the input is not mutated) and what changed.
 * Messages that do not apply (e.g. a step event before any session-started) create an implicit session so
 * nothing the host sends is silently lost.
 */
export function reduce(state: PanelViewState, msg: HostMessage): { state: PanelViewState; change: Change } {
  switch (msg.type) {
    case 'reset':
      return { state: msg.state ? restoreState(msg.state) : emptyState(), change: { kind: 'all' } };
    case 'capabilities':
      return { state: { ...state, capabilities: { trusted: msg.trusted, provider: msg.provider, model: msg.model } }, change: { kind: 'files' } };
    case 'busy':
      return { state: { ...state, busy: msg.running }, change: { kind: 'chrome' } };
    case 'askObjective':
      return { state: { ...state, ask: { prompt: msg.prompt } }, change: { kind: 'chrome' } };
    case 'files': {
      const session = state.session ?? newSession('', '', '', false, [...STEP_IDS]);
      return { state: { ...state, session: { ...session, files: msg.files.map((f) => ({ ...f })) } }, change: { kind: 'files' } };
    }
    case 'event':
      return reduceEvent(state, msg.event);
  }
}

type Ev = Extract<HostMessage, { type: 'event' }>['event'];

function reduceEvent(state: PanelViewState, ev: Ev): { state: PanelViewState; change: Change } {
  if (ev.type === 'session-started') {
    const history = state.session && state.session.taskId ? [...state.history, state.session].slice(-MAX_HISTORY) : state.history;
    const steps = Array.isArray(ev.steps) && ev.steps.length ? ev.steps : [...STEP_IDS];
    const session = newSession(str(ev.taskId), str(ev.objective), str(ev.language), ev.resumed === true, steps);
    // A resume of the session on screen continues it rather than archiving it.
    if (state.session && state.session.taskId === session.taskId && session.resumed) {
      const prev = state.session;
      for (const id of STEP_IDS) if (!steps.includes(id)) session.steps[id] = { ...prev.steps[id], status: prev.steps[id].status === 'failed' ? 'done' : prev.steps[id].status };
      session.files = prev.files;
      if (prev.questions) session.questions = prev.questions;
      return { state: { ...state, session, ask: null }, change: { kind: 'all' } };
    }
    return { state: { ...state, history, session, ask: null }, change: { kind: 'all' } };
  }

  const session = state.session ?? newSession('', '', '', false, [...STEP_IDS]);
  if (ev.type === 'cost') {
    const usd = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);
    return { state: { ...state, session: { ...session, cost: { spentUsd: usd(ev.spentUsd), capUsd: usd(ev.capUsd) } } }, change: { kind: 'header' } };
  }
  if (ev.type === 'needs-answers') {
    const questions: QuestionsView = { questions: strList(ev.questions), status: 'open', answers: [] };
    return { state: { ...state, session: { ...session, taskId: session.taskId || str(ev.taskId), questions } }, change: { kind: 'all' } };
  }
  if (ev.type === 'error' && ev.step === null) {
    return { state: { ...state, session: { ...session, error: { kind: str(ev.kind) || 'unknown', message: str(ev.message) } } }, change: { kind: 'all' } };
  }
  if (ev.type === 'session-finished') {
    const files = session.files.length ? session.files : (Array.isArray(ev.files) ? ev.files : []).map((f) => ({ ...f }));
    const finished = {
      retrospectivePath: str(ev.retrospectivePath),
      kpt: kptOf(ev.kpt) ?? { keep: [], problem: [], try: [] },
      metrics: isObj(ev.metrics) ? (plain(ev.metrics) as SessionMetrics) : null,
      openQuestions: openQuestionsOf(ev.openQuestions),
    };
    return { state: { ...state, session: { ...session, taskId: session.taskId || str(ev.taskId), files, finished } }, change: { kind: 'all' } };
  }

  const stepId = ev.step as StepId;
  const prev = session.steps[stepId];
  let step: StepView = { ...prev };
  let change: Change = { kind: 'step', step: stepId };
  let files = session.files;

  switch (ev.type) {
    case 'step-started': {
      const attempt = num(ev.attempt) ?? prev.attempt + 1;
      step = { ...step, status: 'running', attempt, error: null };
      if (attempt > 1 || prev.voice || prev.envelope) step = { ...step, voice: '', outputChars: 0, envelope: null, summary: null };
      break;
    }
    case 'voice-delta':
      step = { ...step, voice: step.voice + str(ev.text), status: step.status === 'pending' ? 'running' : step.status };
      change = prev.status === 'pending' ? change : { kind: 'voice-append', step: stepId, text: str(ev.text) };
      break;
    case 'tool-call': {
      const call: Record<string, unknown> = isObj(ev.call) ? ev.call : {};
      const lines = call.lines;
      const chip = describeToolCall(step.agent, {
        id: str(call.id),
        tool: str(call.tool),
        target: str(call.target),
        chars: num(call.chars) ?? 0,
        ...(num(call.hits) !== null ? { hits: num(call.hits)! } : {}),
        ...(Array.isArray(lines) && lines.length === 2 && num(lines[0]) !== null && num(lines[1]) !== null ? { lines: [num(lines[0])!, num(lines[1])!] as [number, number] } : {}),
        ...(str(call.refused) ? { refused: str(call.refused) } : {}),
        ...(call.limited === true ? { limited: true } : {}),
        ...(call.truncated === true ? { truncated: true } : {}),
      });
      step = { ...step, tools: [...(step.tools ?? []), chip], status: step.status === 'pending' ? 'running' : step.status };
      break;
    }
    case 'output-delta':
      step = { ...step, outputChars: step.outputChars + (num(ev.chars) ?? 0), status: step.status === 'pending' ? 'running' : step.status };
      if (prev.status !== 'pending' && prev.outputChars > 0) change = { kind: 'output-progress', step: stepId };
      break;
    case 'retry': {
      const delay = num(ev.delayMs);
      const note = `Retrying after ${str(ev.reason) || 'an error'} (attempt ${num(ev.attempt) ?? step.attempt + 1}${delay ? `, in ${formatDuration(delay)}` : ''}).`;
      step = { ...step, voice: '', outputChars: 0, envelope: null, summary: null, error: null, status: 'running', notes: [...step.notes, note] };
      break;
    }
    case 'check':
      step = reduceCheck(step, ev.event);
      break;
    case 'continued':
      step = {
        ...step,
        notes: [...step.notes, `The reply reached the output limit; the model was asked to continue it (${num(ev.continuation) ?? 1} of at most ${num(ev.max) ?? 2}).`],
      };
      break;
    case 'warning':
      step = { ...step, warnings: [...(step.warnings ?? []), str(ev.message)] };
      break;
    case 'repair':
      step = {
        ...step,
        voice: '',
        outputChars: 0,
        notes: [...step.notes, `The reply did not validate (${str(ev.error) || 'invalid reply'}); asking the model to repair it.`],
      };
      break;
    case 'envelope': {
      const envelope = envelopeView(ev.envelope);
      step = { ...step, envelope, voice: envelope.voice || step.voice, summary: typeof ev.summary === 'string' ? ev.summary : null };
      break;
    }
    case 'file-proposed': {
      const f: FileView = { ...ev.file };
      if (!files.some((x) => x.path === f.path && x.status !== 'proposed' && f.status === 'proposed')) files = upsertFile(files, f);
      change = { kind: 'files' };
      break;
    }
    case 'usage': {
      const u = usageOf(ev.usage);
      const acc = step.usage;
      step = {
        ...step,
        model: str(ev.model) || step.model,
        usage: acc
          ? {
              inputTokens: acc.inputTokens + u.inputTokens,
              outputTokens: acc.outputTokens + u.outputTokens,
              cacheCreationInputTokens: acc.cacheCreationInputTokens + u.cacheCreationInputTokens,
              cacheReadInputTokens: acc.cacheReadInputTokens + u.cacheReadInputTokens,
            }
          : u,
      };
      break;
    }
    case 'step-finished':
      step = { ...step, status: 'done', durationMs: num(ev.durationMs), error: null };
      break;
    case 'blocker':
      step = { ...step, exchanges: [...(step.exchanges ?? []), { from: str(ev.from), to: str(ev.to), questions: strList(ev.questions), answer: null }] };
      break;
    case 'blocker-answer': {
      const list = (step.exchanges ?? []).slice();
      const last = list.length - 1;
      const answer = str(ev.voice) || str(ev.answer);
      if (last >= 0 && list[last].answer === null) list[last] = { ...list[last], answer };
      else list.push({ from: 'DevA', to: str(ev.from), questions: [], answer });
      step = { ...step, exchanges: list };
      break;
    }
    case 'error':
      step = { ...step, status: 'failed', error: { kind: str(ev.kind) || 'unknown', message: str(ev.message) || 'The step failed.' } };
      break;
  }
  const next: SessionView = { ...session, files, steps: { ...session.steps, [stepId]: step } };
  return { state: { ...state, session: next }, change };
}

/** The user answered the questions ("Submit answers") or skipped them ("Continue anyway"): shown at once, before the host resumes. */
export function decideQuestions(state: PanelViewState, answers: string[] | null): PanelViewState {
  const s = state.session;
  if (!s?.questions || s.questions.status !== 'open') return state;
  const questions: QuestionsView = answers ? { ...s.questions, status: 'answered', answers } : { ...s.questions, status: 'skipped', answers: [] };
  return { ...state, session: { ...s, questions } };
}

/** The step currently running, if any. */
export function runningStep(s: SessionView | null): StepId | null {
  if (!s) return null;
  return STEP_IDS.find((id) => s.steps[id].status === 'running') ?? null;
}

/** Stop is offered while the host says a run is in progress, or a step is visibly running. */
export function isRunning(state: PanelViewState): boolean {
  return state.busy || (runningStep(state.session) !== null && !state.session?.finished);
}

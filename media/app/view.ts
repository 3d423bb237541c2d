// Renders the panel from the view model and orchestrates the parts. The layout:
//   header (sticky, header.ts): title, task, provider/model, cost, Stop, and the five-step stepper
//   main (session.ts): earlier sessions (collapsed), the objective, one turn per started step (turn.ts, with
//     questions.ts and checks.ts), the files section after DevA (files.ts)
//   footer (footer.ts): the objective box when the host asks for the next objective
// This class owns the three regions, the incremental updates by `Change` (a step's turn, the files section, the voice
// and progress appended in place), keyboard focus kept across re-renders through data-focus-key, and scrolling.
import type { StepId } from '../../src/core/model/types';
import type { RenderMemory } from './checks';
import { h } from './dom';
import { filesSection } from './files';
import { renderFooter } from './footer';
import { renderHeader } from './header';
import type { Change, PanelViewState } from './viewState';
import { refreshAnswerButtons, typedAnswers } from './questions';
import { transcriptContent } from './session';
import { renderTurn, workingText } from './turn';

/** The longest a streamed voice waits to go into the page when no frame comes (a hidden panel's frames are paused). */
const VOICE_FLUSH_MS = 100;

export class PanelView {
  private header = h('header', { class: 'panel-header' });
  private main = h('main', { class: 'transcript', attrs: { 'aria-label': 'Session transcript' } });
  private footer = h('footer', { class: 'objective-footer' });
  /** Kept across re-renders (see RenderMemory). */
  private readonly memory: RenderMemory = { openOutputs: new Set<string>() };
  /** Streamed voice not yet in the page, in arrival order, and the latest state it came with (queueVoice). */
  private readonly voiceQueue: { step: StepId; text: string }[] = [];
  private voiceState: PanelViewState | null = null;
  private voiceTimer: ReturnType<typeof setTimeout> | null = null;
  private voiceFrame: number | null = null;

  constructor(private readonly root: HTMLElement) {
    root.replaceChildren(this.header, this.main, this.footer);
  }

  render(state: PanelViewState, change: Change = { kind: 'all' }): void {
    if (change.kind === 'voice-append') return this.queueVoice(state, change.step!, change.text ?? '');
    // what is queued goes in first: a change re-rendered from the state holds that text already, and replaces it
    this.flushVoice();
    const stick = this.nearBottom();
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    switch (change.kind) {
      case 'output-progress':
        if (!this.updateProgress(state, change.step!)) this.renderStep(state, change.step!);
        break;
      case 'step':
        renderHeader(this.header, state);
        this.renderStep(state, change.step!);
        break;
      case 'files':
        renderHeader(this.header, state);
        this.renderFiles(state);
        break;
      case 'header':
        renderHeader(this.header, state);
        break;
      case 'chrome':
        renderHeader(this.header, state);
        renderFooter(this.footer, state);
        this.renderFiles(state);
        // Retry/Resume depend on whether a run is in progress.
        this.main.querySelectorAll<HTMLButtonElement>('.session[data-current="true"] button[data-action="retry"], .session[data-current="true"] button[data-action="resume"]').forEach((b) => (b.disabled = state.busy));
        this.updateAnswerButtons(state);
        break;
      default:
        renderHeader(this.header, state);
        this.renderMain(state);
        renderFooter(this.footer, state);
    }
    if (focusKey && (document.activeElement === document.body || !document.activeElement?.isConnected)) {
      const again = this.root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again && !(again as HTMLButtonElement).disabled) again.focus();
    }
    if (stick && change.kind !== 'chrome') this.scrollToBottom();
  }

  private renderMain(state: PanelViewState): void {
    this.main.replaceChildren(...transcriptContent(state, this.memory));
  }

  private currentSession(): HTMLElement | null {
    return this.main.querySelector<HTMLElement>('.session[data-current="true"]');
  }

  private renderStep(state: PanelViewState, step: StepId): void {
    const container = this.currentSession();
    const s = state.session;
    if (!container || !s) return this.renderMain(state);
    const old = container.querySelector(`.turn[data-step="${step}"]`);
    const fresh = renderTurn(s, s.steps[step], state, false, this.memory);
    if (old && fresh) old.replaceWith(fresh);
    else if (old) old.remove();
    else if (fresh) {
      // Document order: the turns in step order, with the files section right after DevA's turn.
      const slots = ['cm_open', 'poa', 'da', 'deva', 'files', 'cm_retro'];
      const find = (slot: string) => (slot === 'files' ? container.querySelector('.files') : container.querySelector(`.turn[data-step="${slot}"]`));
      const before = slots.slice(slots.indexOf(step) + 1).map(find).find((x) => x) ?? null;
      container.insertBefore(fresh, before);
    }
  }

  /**
   * A streamed voice arrives a few tokens a message: each append measured where the view is scrolled and scrolled it,
   * a layout of the whole growing voice per message (a 60 KB voice took half a minute, a 5 MB one killed the page).
   * Appends are queued and go in together once a frame (or VOICE_FLUSH_MS, where frames are paused), with one look at
   * the scroll position and one scroll.
   */
  private queueVoice(state: PanelViewState, step: StepId, text: string): void {
    this.voiceState = state;
    const last = this.voiceQueue.at(-1);
    if (last && last.step === step) last.text += text;
    else this.voiceQueue.push({ step, text });
    if (this.voiceTimer !== null) return;
    const flush = () => this.flushVoice();
    this.voiceFrame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(flush) : null;
    this.voiceTimer = setTimeout(flush, VOICE_FLUSH_MS);
  }

  private flushVoice(): void {
    if (this.voiceTimer === null) return;
    clearTimeout(this.voiceTimer);
    if (this.voiceFrame !== null) cancelAnimationFrame(this.voiceFrame);
    this.voiceTimer = this.voiceFrame = null;
    const queued = this.voiceQueue.splice(0);
    const state = this.voiceState;
    this.voiceState = null;
    if (!queued.length || !state) return;
    const stick = this.nearBottom();
    const rendered = new Set<StepId>(); // a turn rendered from the state holds its later queued text already
    for (const { step, text } of queued) {
      if (rendered.has(step) || this.appendVoice(step, text)) continue;
      this.renderStep(state, step);
      rendered.add(step);
    }
    if (stick) this.scrollToBottom();
  }

  private appendVoice(step: StepId, text: string): boolean {
    const el = this.currentSession()?.querySelector(`.turn[data-step="${step}"] .voice`);
    if (!el) return false;
    el.classList.remove('voice-empty');
    el.append(document.createTextNode(text));
    return true;
  }

  private updateProgress(state: PanelViewState, step: StepId): boolean {
    const el = this.currentSession()?.querySelector(`.turn[data-step="${step}"] .working-count`);
    const s = state.session?.steps[step];
    if (!el || !s) return false;
    el.textContent = workingText(s.outputChars);
    return true;
  }

  /** Submit answers is enabled once an answer is typed (and no run is in progress); Continue anyway when idle. */
  updateAnswerButtons(state: PanelViewState): void {
    refreshAnswerButtons(this.currentSession(), state);
  }

  /** The typed answers, in the questions' order. */
  answers(): string[] {
    return typedAnswers(this.currentSession());
  }

  private renderFiles(state: PanelViewState): void {
    const container = this.currentSession();
    if (!container || !state.session) return this.renderMain(state);
    const old = container.querySelector('.files');
    const fresh = filesSection(state.session, state, false);
    if (old) old.replaceWith(fresh);
    else container.insertBefore(fresh, container.querySelector('.turn[data-step="cm_retro"]'));
  }

  // ─── scrolling ──────────────────────────────────────────────────────────────────────────────────────────

  private nearBottom(): boolean {
    const el = document.scrollingElement ?? document.documentElement;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 120;
  }

  private scrollToBottom(): void {
    const el = document.scrollingElement ?? document.documentElement;
    el.scrollTop = el.scrollHeight;
  }

  scrollToStep(step: StepId): void {
    const el = document.getElementById(`turn-${step}`);
    if (!el) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    el.focus?.();
  }
}

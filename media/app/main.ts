// Entry point of the chat panel webview (bundled by esbuild into dist/webview.js, see esbuild.mjs).
// Wires host messages → reducer → view, user actions → typed messages to the host, and persists the view-state
// with vscode.setState() so the panel survives reloads. No inline handlers: everything goes through
// addEventListener, delegated from the root element.
import type { StepId } from '../../src/core/model/types';
import { PANEL_ROOT_ID, type HostMessage, type WebviewMessage } from '../../src/panel/protocol';
import { isHostMessage, isStepId } from '../../src/panel/protocolGuards';
import { classifyHref } from './markdown';
import { decideQuestions, reduce } from './model';
import { restoreState, type PanelViewState } from './viewState';
import { PanelView } from './view';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

function acquireApi(): VsCodeApi {
  const acquire = (globalThis as { acquireVsCodeApi?: () => VsCodeApi }).acquireVsCodeApi;
  if (typeof acquire === 'function') return acquire();
  // Outside VS Code (e.g. opened directly in a browser): keep working, just without a host.
  let saved: unknown;
  return { postMessage: () => undefined, getState: () => saved, setState: (s) => void (saved = s) };
}

const SAVE_DELAY_MS = 200;

class App {
  private state: PanelViewState;
  private readonly view: PanelView;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly vscode: VsCodeApi,
  ) {
    this.state = restoreState(vscode.getState());
    this.view = new PanelView(root);
    this.view.render(this.state);
    window.addEventListener('message', (e: MessageEvent) => this.onHostMessage(e.data));
    root.addEventListener('click', (e) => this.onClick(e));
    root.addEventListener('keydown', (e) => this.onKeyDown(e));
    root.addEventListener('input', (e) => {
      if ((e.target as HTMLElement | null)?.classList.contains('answer-input')) this.view.updateAnswerButtons(this.state);
    });
    root.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submitObjective(false);
    });
    window.addEventListener('pagehide', () => this.saveNow());
    this.post({ type: 'ready' });
  }

  private post(msg: WebviewMessage): void {
    this.vscode.postMessage(msg);
  }

  private onHostMessage(data: unknown): void {
    if (!isHostMessage(data)) return; // not ours (or malformed): ignore
    this.apply(data);
  }

  private apply(msg: HostMessage): void {
    const { state, change } = reduce(this.state, msg);
    this.state = state;
    this.view.render(state, change);
    // The Cape Master's questions just arrived: the first answer box takes the keyboard.
    if (msg.type === 'event' && msg.event.type === 'needs-answers') this.root.querySelector<HTMLTextAreaElement>('#cape-answer-0')?.focus();
    // Streaming deltas are frequent: batch their saves. Anything else is saved at once.
    if (change.kind === 'voice-append' || change.kind === 'output-progress') this.saveSoon();
    else this.saveNow();
  }

  private saveSoon(): void {
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  private saveNow(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.vscode.setState(this.state);
  }

  /** Optimistic local update of a file decision; the host's next `files` message is authoritative. */
  private setLocalFiles(update: (path: string, status: string) => string | null): void {
    const s = this.state.session;
    if (!s) return;
    const files = s.files.map((f) => {
      const next = update(f.path, f.status);
      return next ? { ...f, status: next as typeof f.status } : f;
    });
    this.apply({ type: 'files', files });
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as Element | null;
    if (!target) return;

    // Links in rendered output: never navigate inside the webview.
    const link = target.closest('a');
    if (link && this.root.contains(link)) {
      e.preventDefault();
      const t = classifyHref(link.dataset.external ?? null) ?? (link.dataset.file ? { kind: 'file' as const, path: link.dataset.file } : null);
      if (t?.kind === 'external') this.post({ type: 'openLink', href: t.href });
      else if (t?.kind === 'file') this.post({ type: 'openFile', path: t.path });
      return;
    }

    const el = target.closest<HTMLElement>('[data-action]');
    if (!el || (el as HTMLButtonElement).disabled) return;
    const d = el.dataset;
    switch (d.action) {
      case 'stop':
        this.post({ type: 'stop' });
        break;
      case 'retry':
        if (isStepId(d.step)) this.post({ type: 'retry', step: d.step });
        break;
      case 'resume':
        if (d.taskId) this.post({ type: 'resume', taskId: d.taskId });
        break;
      case 'answerQuestions':
        this.decideQuestions(d.taskId, this.view.answers());
        break;
      case 'skipQuestions':
        this.decideQuestions(d.taskId, null);
        break;
      case 'diff':
        if (d.path) this.post({ type: 'openDiff', path: d.path });
        break;
      case 'openFile': {
        if (!d.path) break;
        const line = Number(d.line);
        const endLine = Number(d.endLine);
        this.post({ type: 'openFile', path: d.path, ...(line >= 1 ? { line } : {}), ...(endLine >= line && line >= 1 ? { endLine } : {}) });
        break;
      }
      case 'accept':
      case 'reject': {
        const path = d.path;
        if (!path) break;
        const decision = d.action;
        this.post({ type: 'setFileDecision', path, decision });
        this.setLocalFiles((p, st) => (p === path && st !== 'refused' && st !== 'applied' ? (decision === 'accept' ? 'accepted' : 'rejected') : null));
        break;
      }
      case 'acceptAll': {
        const pending = (this.state.session?.files ?? []).filter((f) => f.status === 'proposed').map((f) => f.path);
        for (const path of pending) this.post({ type: 'setFileDecision', path, decision: 'accept' });
        this.setLocalFiles((p) => (pending.includes(p) ? 'accepted' : null));
        break;
      }
      case 'apply':
        this.post({ type: 'applyFiles' });
        break;
      case 'reviewHunks':
        this.post({ type: 'reviewHunks' });
        break;
      case 'discard':
        this.post({ type: 'discardFiles' });
        break;
      case 'send':
        this.submitObjective(false);
        break;
      case 'endLoop':
        this.submitObjective(true);
        break;
      case 'copy': {
        const step = d.copyStep as StepId | undefined;
        const text = step && this.state.session ? this.state.session.steps[step]?.voice : undefined;
        if (text) this.post({ type: 'copy', text });
        break;
      }
      case 'scrollTo':
        if (isStepId(d.step)) this.view.scrollToStep(d.step);
        break;
    }
  }

  /** Sends the answers (null: "Continue anyway") and shows the decision at once; the host resumes the session. */
  private decideQuestions(taskId: string | undefined, answers: string[] | null): void {
    if (!taskId || this.state.session?.questions?.status !== 'open') return;
    if (answers) {
      if (!answers.some((a) => a.trim())) return;
      this.post({ type: 'answerQuestions', taskId, answers });
    } else {
      this.post({ type: 'skipQuestions', taskId });
    }
    this.state = decideQuestions(this.state, answers);
    this.view.render(this.state, { kind: 'step', step: 'cm_open' });
    this.saveNow();
  }

  private onKeyDown(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t?.classList.contains('answer-input') && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      const submit = this.root.querySelector<HTMLButtonElement>('.dor-questions-open button[data-action="answerQuestions"]');
      if (submit && !submit.disabled) this.decideQuestions(submit.dataset.taskId, this.view.answers());
      return;
    }
    if (t?.classList.contains('objective-input') && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      this.submitObjective(false);
    }
  }

  /** Sends the objective (empty ends the loop) and hides the box until the host asks again. */
  private submitObjective(end: boolean): void {
    const ta = this.root.querySelector<HTMLTextAreaElement>('.objective-input');
    if (!ta || !this.state.ask) return;
    const text = end ? '' : ta.value.trim();
    this.post({ type: 'submitObjective', text });
    this.state = { ...this.state, ask: null };
    this.view.render(this.state, { kind: 'chrome' });
    this.saveNow();
  }
}

function start(): void {
  const root = document.getElementById(PANEL_ROOT_ID);
  if (!root) {
    // The host page is wrong; say so visibly rather than failing silently.
    document.body.textContent = `CAPE panel: the page has no #${PANEL_ROOT_ID} element (see src/panel/html.ts).`;
    return;
  }
  new App(root, acquireApi());
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();


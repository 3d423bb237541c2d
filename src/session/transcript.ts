// The current session's events as the panel needs them to rebuild its view (view-shaped PanelEvents: no file
// contents are kept here): kept by the controller so that a panel opened (or re-opened) mid-session shows
// everything so far. Plain TypeScript, no `vscode`.
//
// Consecutive voice/output deltas of the same step are merged into one event, so the transcript stays about as
// large as the text itself however finely the model's stream was chunked.
import type { PanelEvent } from '../panel/protocol';

export class Transcript {
  private events: PanelEvent[] = [];
  private taskId: string | null = null;

  /** Records one event. A new (not resumed) session, or another task, starts a new transcript. */
  push(e: PanelEvent): void {
    if (e.type === 'session-started' && (!e.resumed || e.taskId !== this.taskId)) {
      this.events = [];
      this.taskId = e.taskId;
    }
    const last = this.events[this.events.length - 1];
    if (e.type === 'voice-delta' && last?.type === 'voice-delta' && last.step === e.step) {
      this.events[this.events.length - 1] = { ...last, text: last.text + e.text };
      return;
    }
    if (e.type === 'output-delta' && last?.type === 'output-delta' && last.step === e.step) {
      this.events[this.events.length - 1] = { ...last, chars: last.chars + e.chars };
      return;
    }
    this.events.push(e);
  }

  get currentTaskId(): string | null {
    return this.taskId;
  }

  list(): readonly PanelEvent[] {
    return this.events;
  }
}

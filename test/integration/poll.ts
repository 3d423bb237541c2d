// Small helpers shared by the integration suites: polling until a probe yields a value, driving a command that waits
// on a UI it opened until it ends (and "CAPE: Show Context for Objective" that way), and a tree item's label as text.
import * as vscode from 'vscode';
import type { ShowContextResult } from '../../src/commands/showContext';

/** Polls `probe` every `everyMs` until it returns something other than undefined; a throw counts as "not yet". */
export async function waitForValue<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Awaits `pending` — a command waiting on a UI it opened (a quick pick, the refactor preview) — while running `drive`,
 * the gesture that ends that UI, every `everyMs`. Until the UI is up the gesture does nothing, and once it has acted
 * running it again does nothing either, so it is repeated until the command ends; after `timeoutMs`, `what` fails.
 */
export async function driveUntilSettled<T>(pending: Thenable<T>, drive: () => Thenable<unknown>, what: string, everyMs: number, timeoutMs = 60_000): Promise<T> {
  const command = Promise.resolve(pending);
  let settled = false;
  void command.then(() => (settled = true), () => (settled = true));
  const until = Date.now() + timeoutMs;
  while (!settled) {
    if (Date.now() > until) throw new Error(`${what} did not end within ${timeoutMs / 1000} s`);
    await drive();
    for (const stop = Date.now() + everyMs; !settled && Date.now() < stop; ) await new Promise((r) => setTimeout(r, 50));
  }
  return command;
}

/** Runs CAPE: Show Context for Objective and, once its quick pick is open, accepts the focused (first) item or closes it. */
export function runShowContext(arg: { objective: string; step?: string }, accept: boolean): Promise<ShowContextResult | undefined> {
  return driveUntilSettled(
    vscode.commands.executeCommand<ShowContextResult | undefined>('cape.showContext', arg),
    () => vscode.commands.executeCommand(accept ? 'workbench.action.acceptSelectedQuickOpenItem' : 'workbench.action.closeQuickOpen'),
    `CAPE: Show Context for "${arg.objective}" (did its quick pick open?)`,
    250,
  );
}

/** A tree item's label as plain text. */
export function treeLabel(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : item.label?.label ?? '';
}

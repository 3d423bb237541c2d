// Small helpers shared by the integration suites that watch the tree views: polling until a probe yields a value,
// and a tree item's label as text.
import * as vscode from 'vscode';

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

/** A tree item's label as plain text. */
export function treeLabel(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : item.label?.label ?? '';
}

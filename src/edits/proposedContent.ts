// Read-only virtual documents for DevA's proposals (scheme `cape-proposed`). Nothing here touches the disk: the
// diff editor shows the proposal from memory, and the workspace is written only by applyEdits.ts after Apply.
//
// URI shape: cape-proposed:/<relPath>?side=proposed|original&g=<generation>
//   - the path ends with the real file name, so the editor picks the right language;
//   - `g` ties the document to one proposal set: a newer session's proposal of the same path is a different
//     document, and an older one that was replaced answers with a short note instead of stale content.
import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'cape-proposed';

export type ProposedSide = 'proposed' | 'original';

function storeKey(generation: number, side: ProposedSide, relPath: string): string {
  return `${generation}\u0000${side}\u0000${relPath}`;
}

/** The virtual document URI of one side of a proposal. */
export function proposedUri(relPath: string, side: ProposedSide, generation: number): vscode.Uri {
  const clean = relPath.replace(/^\/+/, '');
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${clean}`, query: `side=${side}&g=${generation}` });
}

/** Parses a cape-proposed URI back into its parts (undefined for anything else). */
export function parseProposedUri(uri: vscode.Uri): { relPath: string; side: ProposedSide; generation: number } | undefined {
  if (uri.scheme !== PROPOSED_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const side = q.get('side');
  const generation = Number(q.get('g'));
  if ((side !== 'proposed' && side !== 'original') || !Number.isInteger(generation)) return undefined;
  return { relPath: uri.path.replace(/^\/+/, ''), side, generation };
}

export class ProposedContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  /** The newest generation seen: documents of older ones were retired (replaced or discarded). */
  private latest = -1;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Makes one side of a proposal available (and refreshes an open document showing it). */
  set(relPath: string, side: ProposedSide, generation: number, content: string): vscode.Uri {
    const uri = proposedUri(relPath, side, generation);
    const key = storeKey(generation, side, relPath);
    const had = this.contents.has(key);
    this.latest = Math.max(this.latest, generation);
    this.contents.set(key, content);
    if (had) this.changed.fire(uri);
    return uri;
  }

  /** Forgets every document of older generations (their tabs then show a short note). */
  retainOnly(generation: number): void {
    this.latest = Math.max(this.latest, generation);
    for (const key of [...this.contents.keys()]) {
      if (!key.startsWith(`${generation}\u0000`)) this.contents.delete(key);
    }
  }

  /**
   * The content, or a short note for a document of a retired proposal (a tab left open from an earlier session).
   * Unknown newer generations answer undefined, so another provider of the scheme (if any) can answer.
   */
  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    const parts = parseProposedUri(uri);
    if (!parts) return undefined;
    const text = this.contents.get(storeKey(parts.generation, parts.side, parts.relPath));
    if (text !== undefined) return text;
    if (parts.generation > this.latest) return undefined;
    return `This CAPE proposal of ${parts.relPath} is no longer available (it was discarded, or a newer session replaced it).\n`;
  }

  dispose(): void {
    this.contents.clear();
    this.changed.dispose();
  }
}

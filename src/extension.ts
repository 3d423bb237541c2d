// The extension entry, dist/extension.js: what VS Code loads when it activates CAPE. It holds only stand-ins: one
// command per command package.json contributes, a tree data provider per contributed view and a serializer per
// `onWebviewPanel:` activation event. The first time one is used (a command runs, a view becomes visible, VS Code
// restores the chat panel), the session bundle (src/activation.ts, dist/session.js, via ./sessionBundle.ts) is
// loaded: the stand-ins are disposed (views: superseded), the real activation registers the real commands, views
// and serializer, and the command that triggered the load runs again, now on its real handler. Activation itself therefore loads
// neither the session machinery nor the Anthropic SDK. The manifest is the one list of what needs a stand-in.
import * as vscode from 'vscode';
import type { CapeExtensionApi as Api } from './activation';
import { loadSessionBundle } from './sessionBundle';
import { showError } from './notify';

/** What activate returns (`vscode.extensions.getExtension('cape-team.cape-vscode').exports`), used by tests. */
export type CapeExtensionApi = Api;

/** The parts of package.json read here. */
interface Manifest {
  activationEvents?: string[];
  contributes?: {
    commands?: { command: string }[];
    views?: Record<string, { id: string; type?: string }[]>;
  };
}

/** What needs a handler as soon as CAPE is active: contributed commands, tree views and restorable panels. */
export interface EntryPoints {
  commands: string[];
  views: string[];
  panels: string[];
}

export function contributedEntryPoints(manifest: Manifest): EntryPoints {
  const views = Object.values(manifest.contributes?.views ?? {})
    .flat()
    .filter((v) => v.type === undefined || v.type === 'tree')
    .map((v) => v.id);
  const panels = (manifest.activationEvents ?? []).filter((e) => e.startsWith('onWebviewPanel:')).map((e) => e.slice('onWebviewPanel:'.length));
  return { commands: (manifest.contributes?.commands ?? []).map((c) => c.command), views, panels };
}

/** The stand-ins and the load that replaces them. */
class LazyCape {
  private api: CapeExtensionApi | undefined;
  private failure: Error | undefined;
  private reported = false;
  private readonly shims: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    const points = contributedEntryPoints(context.extension.packageJSON as Manifest);
    for (const id of points.commands) {
      this.shims.push(vscode.commands.registerCommand(id, (...args: unknown[]) => this.runCommand(id, args)));
    }
    const tree: vscode.TreeDataProvider<vscode.TreeItem> = {
      getTreeItem: (item) => item,
      getChildren: () => {
        if (this.api) return [];
        // After this answer is sent: the load registers the real provider, which fills the view.
        setTimeout(() => this.tryLoad(), 0);
        return [new vscode.TreeItem('Loading…')]; // rather than the view's welcome text
      },
    };
    // A view's stand-in is superseded, never disposed: the extension host disposes a tree view asynchronously (it
    // awaits the registration, then forgets the view id), so a dispose followed at once by the real
    // createTreeView of the same id would forget the real view. A second registration of the id replaces the
    // first one's provider in the workbench; the stand-in then answers nothing more.
    for (const id of points.views) vscode.window.registerTreeDataProvider(id, tree);
    for (const viewType of points.panels) {
      this.shims.push(
        vscode.window.registerWebviewPanelSerializer(viewType, {
          deserializeWebviewPanel: async (panel, state) => loadSessionBundle().restorePanel(this.load(), panel, state),
        }),
      );
    }
    context.subscriptions.push({ dispose: () => this.disposeShims() });
  }

  /** The real activation's API, loading the session bundle on the first call. */
  load(): CapeExtensionApi {
    if (this.api) return this.api;
    if (this.failure) throw this.failure;
    let bundle: ReturnType<typeof loadSessionBundle>;
    try {
      bundle = loadSessionBundle();
    } catch (err) {
      // The stand-ins stay: the next use tries again and reports again.
      throw new Error(`CAPE could not load its session bundle (dist/session.js next to dist/extension.js): ${(err as Error).message}. Reinstall the extension.`);
    }
    this.disposeShims(); // before the real registrations, which use the same ids
    try {
      this.api = bundle.activateCape(this.context);
    } catch (err) {
      this.failure = err as Error;
      throw err;
    }
    return this.api;
  }

  private async runCommand(id: string, args: unknown[]): Promise<unknown> {
    try {
      this.load();
    } catch (err) {
      this.report(err as Error);
      throw err;
    }
    return vscode.commands.executeCommand(id, ...args);
  }

  private tryLoad(): void {
    try {
      this.load();
    } catch (err) {
      this.report(err as Error);
    }
  }

  private report(err: Error): void {
    if (this.reported) return;
    this.reported = true;
    void showError(err.message);
  }

  private disposeShims(): void {
    for (const d of this.shims.splice(0)) d.dispose();
  }
}

export function activate(context: vscode.ExtensionContext): CapeExtensionApi {
  const cape = new LazyCape(context);
  return {
    // Tests (and other extensions) reach the services through the exports: that is a use, so it loads.
    get services() {
      return cape.load().services;
    },
  };
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions
}

// The real activation, loaded on first need: creates the service container and registers the commands, views and
// the chat panel serializer; everything else lives in src/commands, src/session, src/panel, src/tree and src/core.
// This module is the root of dist/session.js; src/extension.ts (dist/extension.js, what VS Code loads) stands in
// for it with thin shims until a command, a visible view or a restored panel needs it (see src/sessionBundle.ts).
import * as vscode from 'vscode';
import { createServices, type CapeServices } from './servicesImpl';
import { registerTrees } from './tree';
import { registerChatPanelSerializer, restoreChatPanel } from './panel/ChatPanel';
import * as initProject from './commands/initProject';
import * as startSession from './commands/startSession';
import * as resumeSession from './commands/resumeSession';
import * as cancelSession from './commands/cancelSession';
import * as showPanel from './commands/showPanel';
import * as setApiKey from './commands/setApiKey';
import * as clearApiKey from './commands/clearApiKey';
import * as selectModel from './commands/selectModel';
import * as openRetrospective from './commands/openRetrospective';
import * as showContext from './commands/showContext';

/** What activate returns (`vscode.extensions.getExtension('cape-team.cape-vscode').exports`), used by tests. */
export interface CapeExtensionApi {
  services: CapeServices;
}

const COMMAND_MODULES: { name: string; register(services: CapeServices): vscode.Disposable }[] = [
  { name: 'initProject', ...initProject },
  { name: 'startSession', ...startSession },
  { name: 'resumeSession', ...resumeSession },
  { name: 'cancelSession', ...cancelSession },
  { name: 'showPanel', ...showPanel },
  { name: 'setApiKey', ...setApiKey },
  { name: 'clearApiKey', ...clearApiKey },
  { name: 'selectModel', ...selectModel },
  { name: 'openRetrospective', ...openRetrospective },
  { name: 'showContext', ...showContext },
];

export function activateCape(context: vscode.ExtensionContext): CapeExtensionApi {
  const services = createServices(context);
  // Each registration is isolated: one failing part must not take the other commands down with it.
  const parts: [string, () => vscode.Disposable][] = [
    ...COMMAND_MODULES.map((m) => [`command ${m.name}`, () => m.register(services)] as [string, () => vscode.Disposable]),
    ['tree views', () => registerTrees(services)],
    ['chat panel serializer', () => registerChatPanelSerializer(services)],
  ];
  for (const [what, register] of parts) {
    try {
      context.subscriptions.push(register());
    } catch (err) {
      services.output.error(`CAPE could not register the ${what}: ${(err as Error).stack ?? err}`);
    }
  }
  services.output.info(`CAPE activated (VS Code ${vscode.version}, workspace ${services.workspaceRoot() ?? 'none'})`);
  return { services };
}

/** Restores a chat panel VS Code recreated before this module was loaded (the entry's serializer shim asks). */
export function restorePanel(api: CapeExtensionApi, panel: vscode.WebviewPanel, state: unknown): void {
  restoreChatPanel(api.services, panel, state);
}

// Helpers shared by the command files.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { showError, showWarning } from '../notify';

export const SHOW_LOG = 'Show Log';

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Logs an error and shows it with a "Show Log" button (not awaited: a command must not hang on a toast). */
export function reportError(services: Services, what: string, err: unknown): void {
  const msg = errorMessage(err);
  services.output.error(`${what}: ${msg}`);
  void showError(`${what}: ${msg}`, SHOW_LOG).then((c) => {
    if (c === SHOW_LOG) services.output.show(true);
  });
}

/**
 * registerCommand with a safety net: an unexpected exception becomes a logged error notification instead of
 * VS Code's generic "command failed" toast. The handler's return value is passed through (tests use it).
 */
export function registerCapeCommand(
  services: Services,
  id: string,
  what: string,
  handler: (...args: unknown[]) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (err) {
      reportError(services, what, err);
      return undefined;
    }
  });
}

/** The workspace root, or undefined after telling the user to open a folder. */
export function requireWorkspace(services: Services, action: string): string | undefined {
  const root = services.workspaceRoot();
  if (!root) {
    void showWarning(`Open a folder first: CAPE needs a workspace folder to ${action}.`, 'Open Folder')
      .then((c) => {
        if (c === 'Open Folder') void vscode.commands.executeCommand('vscode.openFolder');
      });
  }
  return root;
}

/** False (after explaining why, with a "Manage Workspace Trust" button) in an untrusted workspace. */
export function requireTrust(action: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  warnRestricted(
    `CAPE cannot ${action} in Restricted Mode: in an untrusted workspace CAPE is read-only and writes nothing to ` +
      'the workspace (a session records every step in cape/ and proposes files). Trust this folder to run sessions; ' +
      'you can still read existing retrospectives and KPT.',
  );
  return false;
}

const MANAGE_TRUST = 'Manage Workspace Trust';

/** A warning about Restricted Mode, with the one button that opens VS Code's Workspace Trust editor. */
export function warnRestricted(message: string): void {
  void showWarning(message, MANAGE_TRUST).then((c) => {
    if (c === MANAGE_TRUST) void vscode.commands.executeCommand('workbench.trust.manage');
  });
}

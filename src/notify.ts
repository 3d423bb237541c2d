// Notifications: every message CAPE shows in a VS Code notification goes through here. VS Code renders
// `[label](command:…)`, `[label](https://…)` and `[label](file:…)` in a message as a link, and a command link runs the
// command when clicked; messages quote proposed paths, replies' words and servers' errors, so each passes
// text/controls.ts inertLinks. The lint rule (eslint.config.mjs) keeps VS Code's own show*Message calls to this file.
// Looked up on each call (not bound once), like any other use of the window.
import * as vscode from 'vscode';
import { inertLinks } from './core/text/controls';

/** The three have the same overloads: a message, then options and/or items. */
type Show = typeof vscode.window.showInformationMessage;

function inert(pick: () => (...args: unknown[]) => unknown): Show {
  return ((message: string, ...rest: unknown[]) => pick()(inertLinks(message), ...rest)) as Show;
}

export const showInformation: Show = inert(() => vscode.window.showInformationMessage as (...args: unknown[]) => unknown);
export const showWarning: Show = inert(() => vscode.window.showWarningMessage as (...args: unknown[]) => unknown);
export const showError: Show = inert(() => vscode.window.showErrorMessage as (...args: unknown[]) => unknown);

// CAPE: Show Chat Panel — opens the session panel, or reveals it.
import * as vscode from 'vscode';
import type { Services } from '../services';

export function register(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('cape.showPanel', () => services.controller.showPanel());
}

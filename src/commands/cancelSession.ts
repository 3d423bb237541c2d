// CAPE: Cancel Session — aborts the running model request; completed steps stay on disk (resume later).
import * as vscode from 'vscode';
import type { Services } from '../services';

export function register(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('cape.cancelSession', () => services.controller.cancel());
}

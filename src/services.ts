// The extension's service container: created once in activate(), handed to every command, view and panel.
// Each piece is a thin adapter over src/core; nothing here holds session logic of its own.
import type * as vscode from 'vscode';
import type { LlmClient, PromptAssets, TreeSize } from './core';
import type { FileWatcherApi } from './workspace/fileWatcher';

/** Settings under `cape.*` (see package.json contributes.configuration). */
export interface CapeSettings {
  provider: 'anthropic' | 'vscode-lm';
  language: string;
  model: string;
  initModel: string;
  /** Empty = https://api.anthropic.com */
  baseUrl: string;
  capeFolder: string;
  /** cape.tools.maxCalls / cape.tools.maxChars (0 calls: no tools). */
  tools?: { maxCalls: number; maxChars: number };
  /** cape.feedbackRounds: DevA → DA → DevA rounds per session (0: DevA's blockers are only reported). */
  feedbackRounds?: number;
  /**
   * cape.checks (configured commands; empty: detect and ask), cape.fixRounds, cape.checkTimeout (in ms here),
   * cape.checkCopyLimit (in MB there, files and bytes here), cape.failFirst, cape.formatProposal.
   */
  checks?: { commands: string[]; fixRounds: number; timeoutMs: number; copyLimit?: TreeSize; failFirst?: boolean; format?: boolean };
  /** cape.maxSessionCostUsd: the session's cost cap in USD (absent: no cap). */
  maxSessionCostUsd?: number;
}

/** Resolves the model client for the configured provider (asks for a key / offers "Set API Key" when missing). */
export interface LlmProvider {
  /** `purpose` selects the session or the init model. Returns undefined when the user cancelled a prompt. */
  getClient(purpose: 'session' | 'init'): Promise<{ client: LlmClient; model: string; label: string } | undefined>;
  /** What the panel header shows: the provider, e.g. "Anthropic API" or "VS Code Language Model", and the model. */
  describe(): { provider: string; model: string };
}

/** Runs sessions and owns the chat panel + proposed files. Implemented by src/session/SessionController.ts. */
export interface SessionControllerApi extends vscode.Disposable {
  readonly running: boolean;
  /** Starts a session (reveals the panel). Resolves when the session ends (ok or failed). */
  start(objective: string): Promise<void>;
  /** Resumes a failed session from its last completed step. */
  resume(taskId: string): Promise<void>;
  /** Aborts the running request; completed steps stay on disk. */
  cancel(): void;
  /** Opens or reveals the chat panel. */
  showPanel(): void;
}

export interface Services {
  context: vscode.ExtensionContext;
  settings(): CapeSettings;
  /** The first workspace folder (CAPE works on one folder), or undefined with no folder open. */
  workspaceRoot(): string | undefined;
  prompts: PromptAssets;
  provider: LlmProvider;
  controller: SessionControllerApi;
  output: vscode.LogOutputChannel;
  /**
   * Fires on refreshTrees(): CAPE itself wrote session files (a session ended, init ran). Changes on disk by
   * anyone else reach the trees through the shared file watcher (src/tree/sessionsWatcher.ts subscribes to it).
   */
  onDidChangeSessions: vscode.Event<void>;
  refreshTrees(): void;
  /** The one file watcher per workspace folder; the index and the tree views subscribe and filter (src/workspace/fileWatcher.ts). */
  fileWatcher: FileWatcherApi;
}

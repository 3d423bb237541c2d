// The Anthropic API key lives only in VS Code SecretStorage (the OS keychain on desktop) under one key name. It is
// never written to settings, globalState or logs.
import type * as vscode from 'vscode';

export const API_KEY_SECRET = 'cape.anthropicApiKey';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    const v = await this.secrets.get(API_KEY_SECRET);
    return v && v.trim() ? v.trim() : undefined;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(API_KEY_SECRET, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  /** Fires when the key is stored or deleted (also from another window). */
  get onDidChange(): vscode.Event<unknown> {
    return (listener, thisArgs, disposables) =>
      this.secrets.onDidChange((e) => {
        if (e.key === API_KEY_SECRET) listener.call(thisArgs, e);
      }, undefined, disposables);
  }
}

/** A short, safe description of a key for messages: never more than its prefix and last 4 characters. */
export function maskKey(key: string): string {
  const k = key.trim();
  if (k.length <= 12) return '•'.repeat(Math.min(8, k.length));
  return `${k.slice(0, 7)}…${k.slice(-4)}`;
}

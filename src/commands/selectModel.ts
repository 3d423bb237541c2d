// CAPE: Select Model — picks the session model (cape.model) and, through its last item, the init model
// (cape.initModel). Anthropic: the known Claude models plus "Other…" (any model id); VS Code LM: the chat models
// vscode.lm offers, a model that cannot call tools marked so (DevA then works from the map). For automation the command accepts `{ model?, initModel? }` and writes them without prompting.
import * as vscode from 'vscode';
import { DEFAULT_INIT_MODEL, DEFAULT_SESSION_MODEL, MOST_CAPABLE_MODEL, priceFor } from '../core';
import type { Services } from '../services';
import { updateSetting } from '../providers/settings';
import { chatModelCallsTools, describeChatModel, listChatModels } from '../providers/vscodeLm';
import { registerCapeCommand } from './util';
import { showInformation, showWarning } from '../notify';

export const COMMAND_ID = 'cape.selectModel';
export const SELECT_MODEL_TITLE = 'CAPE: Select Model';
/** Shown on a VS Code chat model that cannot call tools (or a VS Code without LM tool calling). */
export const NO_TOOLS_NOTE = 'no tool calling: DevA works from the workspace map without reading files';

/** The Claude models offered by name (any other id can be typed with "Other…"). */
export const KNOWN_CLAUDE_MODELS: readonly { id: string; detail: string }[] = Object.freeze([
  { id: DEFAULT_SESSION_MODEL, detail: 'Balanced quality and speed: the default for sessions.' },
  { id: MOST_CAPABLE_MODEL, detail: `Most capable; slower and ${priceRatio(MOST_CAPABLE_MODEL, DEFAULT_SESSION_MODEL)} the price of Sonnet.` },
  { id: DEFAULT_INIT_MODEL, detail: 'Fastest and cheapest: the default for Initialize Project.' },
]);

/** "about 1.7×" from the one pricing table (output price, the larger part of a session's cost). */
function priceRatio(model: string, base: string): string {
  const a = priceFor(model)?.output;
  const b = priceFor(base)?.output;
  return a && b ? `about ${Math.round((a / b) * 10) / 10}×` : 'a different';
}

export interface SelectModelArgs {
  model?: string;
  initModel?: string;
}

interface ModelItem extends vscode.QuickPickItem {
  action: 'model' | 'other' | 'init';
  value?: string;
}

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Select Model failed', (arg) =>
    selectModel(services, arg && typeof arg === 'object' ? (arg as SelectModelArgs) : undefined),
  );
}

function checkModelId(v: string): string | undefined {
  const t = v.trim();
  if (!t) return `Enter a model id, e.g. ${DEFAULT_SESSION_MODEL}.`;
  if (t.length > 200 || /\s/.test(t)) return `A model id has no spaces (e.g. ${DEFAULT_SESSION_MODEL}).`;
  return undefined;
}

/** Resolves to the settings after the change (undefined when the user cancelled). */
export async function selectModel(services: Services, arg?: SelectModelArgs): Promise<{ model: string; initModel: string } | undefined> {
  if (arg && (arg.model !== undefined || arg.initModel !== undefined)) {
    for (const [key, v] of [['model', arg.model], ['initModel', arg.initModel]] as const) {
      if (v === undefined) continue;
      const problem = typeof v === 'string' ? checkModelId(v) : 'must be a string';
      if (problem) throw new Error(`invalid ${key} ${JSON.stringify(v)}: ${problem}`);
      await updateSetting(key, v.trim());
    }
    const s = services.settings();
    services.output.info(`Models: session ${s.model}, init ${s.initModel}`);
    return { model: s.model, initModel: s.initModel };
  }

  const chosen = await pickModel(services, 'model');
  if (chosen === undefined) return undefined;
  if (chosen === 'init') {
    const init = await pickModel(services, 'initModel');
    if (init === undefined || init === 'init') return undefined;
    await updateSetting('initModel', init);
  } else {
    await updateSetting('model', chosen);
  }
  const s = services.settings();
  services.output.info(`Models: session ${s.model}, init ${s.initModel}`);
  void showInformation(`CAPE: session model ${s.model} · init model ${s.initModel}`);
  return { model: s.model, initModel: s.initModel };
}

/** One quick pick; resolves to a model id, 'init' (switch to the init model picker) or undefined. */
async function pickModel(services: Services, key: 'model' | 'initModel'): Promise<string | 'init' | undefined> {
  const s = services.settings();
  const current = key === 'model' ? s.model : s.initModel;
  const what = key === 'model' ? 'the session model (cape.model)' : 'the init model (cape.initModel), used by Initialize Project';
  const items: ModelItem[] = [];
  const mark = (id: string) => (id === current ? '$(check) current' : undefined);

  if (s.provider === 'vscode-lm') {
    const models = await listChatModels();
    if (models.length === 0) {
      void showWarning(
        'No VS Code language model is available. Install and sign in to an extension that provides chat models, or ' +
          'set cape.provider to "anthropic".',
      );
      return undefined;
    }
    for (const m of models) {
      const tools = chatModelCallsTools(m) ? '' : ` · ${NO_TOOLS_NOTE}`;
      items.push({ label: m.name, description: mark(m.id) ?? `${m.vendor} · ${m.family}`, detail: `${describeChatModel(m)} · id ${m.id}${tools}`, action: 'model', value: m.id });
    }
  } else {
    for (const m of KNOWN_CLAUDE_MODELS) items.push({ label: m.id, description: mark(m.id), detail: m.detail, action: 'model', value: m.id });
    if (!KNOWN_CLAUDE_MODELS.some((m) => m.id === current)) {
      items.unshift({ label: current, description: '$(check) current', detail: 'Set in your settings.', action: 'model', value: current });
    }
    items.push({ label: 'Other…', detail: 'Type any Anthropic model id.', action: 'other', alwaysShow: true });
  }
  if (key === 'model') {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, action: 'init' });
    items.push({ label: `$(zap) Init model: ${s.initModel}`, detail: 'Change the fast model that writes the cape/ files during Initialize Project…', action: 'init', alwaysShow: true });
  }

  const picked = await vscode.window.showQuickPick(items, {
    title: key === 'model' ? SELECT_MODEL_TITLE : `${SELECT_MODEL_TITLE}: Init Model`,
    placeHolder: `Choose ${what}; now ${current}`,
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  if (picked.action === 'init') return 'init';
  if (picked.action === 'other') {
    const typed = await vscode.window.showInputBox({
      title: SELECT_MODEL_TITLE,
      prompt: `Model id for ${what}`,
      placeHolder: `e.g. ${DEFAULT_SESSION_MODEL}`,
      value: current,
      validateInput: checkModelId,
    });
    return typed === undefined ? undefined : typed.trim();
  }
  return picked.value;
}

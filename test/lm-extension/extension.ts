// A test-only extension (never packaged; test/e2e/lmTools.test.ts assembles it from this folder's package.json and
// the compiled extension.js): it contributes chat models through VS Code 1.100's proposed API
// `lm.registerChatModelProvider` (proposal `chatProvider`), so CAPE's `vscode-lm` provider meets a model of another
// extension exactly as it meets Copilot's. What each model answers is decided by the test through this extension's
// exports (`respond`), and every request it receives is recorded (`requests`) for the test to inspect.
//
// Three models: `cape-fake-tools` (declares tool calling) and `cape-fake-plain` (declares none) declare no `auth`, so
// VS Code 1.100 asks the user no consent for CAPE to use them; `cape-fake-consent` declares `auth` (as Copilot's
// models do), so VS Code asks the user once, in a modal dialog, before another extension's first request reaches it.
//
// Without a test in the extension host to set `respond`, the environment variable CAPE_FAKE_LM_SCRIPT names a JSON
// file `{"steps":[{"match": regex source, "text": reply}]}`: the first step whose regex matches the request's first
// message answers, with `{{task_id}}` replaced by the request's "Task: …" id.
import * as fs from 'fs';
import * as vscode from 'vscode';

/** The Language Model API's part classes (VS Code 1.95+; the project builds against the 1.90 typings). */
export interface LmParts {
  LanguageModelTextPart: new (value: string) => { value: string };
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => { callId: string; name: string; input: object };
  LanguageModelToolResultPart: new (callId: string, content: unknown[]) => { callId: string; content: unknown[] };
}
/** A message as a provider receives it (1.100: content is an array of parts; role 1 user, 2 assistant). */
export interface LmMessage {
  role: number;
  content: unknown[];
}
type Part = InstanceType<LmParts['LanguageModelTextPart']> | InstanceType<LmParts['LanguageModelToolCallPart']>;

/** One scripted model turn: text, then tool calls. */
export interface FakeTurn {
  text?: string;
  calls?: { id: string; name: string; input: object }[];
  /**
   * After its text, the turn does not end until the test calls release() (a model still thinking when the user
   * stops) or the request is cancelled — which VS Code 1.100 never passes on to a provider once the response has
   * started (fixed later upstream, microsoft/vscode#319098).
   */
  hold?: boolean;
}

/** A request as the provider received it. */
export interface FakeRequest {
  model: string;
  /** The extension that sent it (e.g. cape-team.cape-vscode). */
  from: string;
  messages: readonly LmMessage[];
  /** LanguageModelChatRequestOptions as passed through (tools, toolMode, justification …). */
  options: { tools?: { name: string; description: string; inputSchema?: object }[]; toolMode?: number; justification?: string };
}

export interface FakeLmApi {
  requests: FakeRequest[];
  /** Decides the answer to each request; throws when unset. */
  respond: ((req: FakeRequest) => FakeTurn) | undefined;
  /** Ends every held turn. */
  release(): void;
}

/** VS Code 1.100's proposed provider API (vscode.proposed.chatProvider.d.ts at that release), as this test uses it. */
interface ChatModelProvider {
  provideLanguageModelResponse(
    messages: LmMessage[],
    options: FakeRequest['options'],
    extensionId: string,
    progress: vscode.Progress<{ index: number; part: Part }>,
    token: vscode.CancellationToken,
  ): Thenable<unknown>;
  provideTokenCount(text: string | LmMessage, token: vscode.CancellationToken): Thenable<number>;
}
interface ProposedLm {
  registerChatModelProvider(
    id: string,
    provider: ChatModelProvider,
    metadata: {
      vendor: string;
      name: string;
      family: string;
      version: string;
      maxInputTokens: number;
      maxOutputTokens: number;
      isUserSelectable?: boolean;
      /** Gates other extensions' requests behind the user's consent. */
      auth?: true;
      capabilities?: { vision?: boolean; toolCalling?: boolean };
    },
  ): vscode.Disposable;
}

/** The text parts of a message, joined. */
export function textOf(m: LmMessage, parts: LmParts): string {
  return m.content.map((p) => (p instanceof parts.LanguageModelTextPart ? p.value : '')).join('');
}

function scriptedResponder(file: string, parts: LmParts): (req: FakeRequest) => FakeTurn {
  const script = JSON.parse(fs.readFileSync(file, 'utf8')) as { steps: { match: string; text: string }[] };
  return (req) => {
    const first = textOf(req.messages[0], parts);
    const step = script.steps.find((s) => new RegExp(s.match).test(first));
    if (!step) throw new Error(`${file} has no reply for: ${first.slice(0, 200)}`);
    const task = /Task: (task-[\w-]+)/.exec(req.messages.map((m) => textOf(m, parts)).join('\n'))?.[1] ?? 'task-demo';
    return { text: step.text.split('{{task_id}}').join(task) };
  };
}

export function activate(context: vscode.ExtensionContext): FakeLmApi {
  const parts = vscode as unknown as LmParts;
  const script = process.env.CAPE_FAKE_LM_SCRIPT;
  const held: (() => void)[] = [];
  const api: FakeLmApi = {
    requests: [],
    respond: script ? scriptedResponder(script, parts) : undefined,
    release: () => held.splice(0).forEach((r) => r()),
  };
  const lm = vscode.lm as unknown as ProposedLm;
  const { LanguageModelTextPart: Text, LanguageModelToolCallPart: Call } = parts;
  const provider = (model: string): ChatModelProvider => ({
    async provideLanguageModelResponse(messages, options, extensionId, progress, token) {
      const req: FakeRequest = { model, from: extensionId, messages, options };
      api.requests.push(req);
      if (!api.respond) throw new Error('the fake model has no responder: set exports.respond or CAPE_FAKE_LM_SCRIPT');
      const turn = api.respond(req);
      // Every part on index 0: VS Code 1.100 hands the requester only the stream of the first index it sees.
      const t = turn.text ?? '';
      for (let i = 0; i < t.length; i += 200) progress.report({ index: 0, part: new Text(t.slice(i, i + 200)) });
      for (const c of turn.calls ?? []) progress.report({ index: 0, part: new Call(c.id, c.name, c.input) });
      if (turn.hold && !token.isCancellationRequested) {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          token.onCancellationRequested(() => resolve());
        });
      }
    },
    async provideTokenCount(text) {
      const s = typeof text === 'string' ? text : JSON.stringify(text.content);
      return Math.ceil(s.length / 4);
    },
  });
  const meta = { vendor: 'cape-fake', version: '1', maxInputTokens: 200_000, maxOutputTokens: 16_000, isUserSelectable: true };
  context.subscriptions.push(
    lm.registerChatModelProvider('cape-fake-tools', provider('cape-fake-tools'), { ...meta, name: 'CAPE Fake (tools)', family: 'cape-fake-tools', capabilities: { toolCalling: true } }),
    lm.registerChatModelProvider('cape-fake-plain', provider('cape-fake-plain'), { ...meta, name: 'CAPE Fake (no tools)', family: 'cape-fake-plain', capabilities: { toolCalling: false } }),
    lm.registerChatModelProvider('cape-fake-consent', provider('cape-fake-consent'), { ...meta, name: 'CAPE Fake (consent)', family: 'cape-fake-consent', auth: true, capabilities: { toolCalling: true } }),
  );
  return api;
}

export function deactivate(): void {}

// Tool calling through the VS Code Language Model API (VS Code 1.95+), in Node with look-alikes of its part classes:
// the client offers the step's tools, reads text and tool-call parts from the response stream, sends tool calls and
// results back as parts; without those classes it offers none. A whole session runs DevA's tool loop through it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { SessionStore } from '../../src/core/store';
import { TOOL_SPECS } from '../../src/core/tools/specs';
import type { LlmRequest, SessionEvent } from '../../src/core/model/types';
import { LmClient, type LmChatModelLike } from '../../src/providers/lmClient';
import { lmToolHost, modelCallsTools, type LmToolApi } from '../../src/providers/lmTools';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
const API: LmToolApi = { LanguageModelTextPart: TextPart, LanguageModelToolCallPart: ToolCallPart, LanguageModelToolResultPart: ToolResultPart };

type Msg = { role: 'user' | 'assistant'; content: string | unknown[] };
const FACTORIES = { User: (content: unknown[]): Msg => ({ role: 'user', content }), Assistant: (content: unknown[]): Msg => ({ role: 'assistant', content }) };

/** One scripted model turn: text parts, then tool calls. */
interface Turn {
  text?: string;
  calls?: { id: string; name: string; input: object }[];
}

function scriptedModel(turns: Turn[]) {
  const sent: { messages: Msg[]; options: { tools?: { name: string }[] } | undefined }[] = [];
  const model: LmChatModelLike<Msg> = {
    id: 'lm-fake',
    name: 'LM Fake',
    vendor: 'test',
    family: 'fake',
    maxInputTokens: 200_000,
    async sendRequest(messages, options) {
      sent.push({ messages, options: options as never });
      const turn = turns.shift();
      if (!turn) throw new Error('no scripted turn left');
      async function* stream() {
        const t = turn!.text ?? '';
        for (let i = 0; i < t.length; i += 50) yield new TextPart(t.slice(i, i + 50));
        yield { somethingElse: true }; // parts the client does not know are ignored
        for (const c of turn!.calls ?? []) yield new ToolCallPart(c.id, c.name, c.input);
      }
      async function* text() {
        if (turn!.text) yield turn!.text;
      }
      return { stream: stream(), text: text() };
    },
  };
  const host = {
    user: (text: string): Msg => ({ role: 'user', content: text }),
    assistant: (text: string): Msg => ({ role: 'assistant', content: text }),
    cancellationSource: () => ({ token: {}, cancel() {}, dispose() {} }),
    tools: lmToolHost(API, FACTORIES),
  };
  return { model, host, sent };
}

const request = (over: Partial<LlmRequest> = {}): LlmRequest => ({
  model: 'ignored',
  maxTokens: 100,
  system: [{ text: 'You are DevA.' }],
  messages: [{ role: 'user', content: 'Objective: due dates' }],
  tools: [...TOOL_SPECS],
  ...over,
});

describe('VS Code LM client: tool calling (VS Code 1.95+)', () => {
  it('offers no tools where VS Code has no tool parts (1.90–1.94)', () => {
    assert.strictEqual(lmToolHost({ LanguageModelTextPart: TextPart }, FACTORIES), undefined);
    const f = scriptedModel([]);
    assert.strictEqual(new LmClient(f.model, { ...f.host, tools: undefined }).supportsTools, false);
    assert.strictEqual(new LmClient(f.model, f.host).supportsTools, true);
  });

  it('a model is offered tools unless it says it cannot call them (capabilities.supportsToolCalling, VS Code 1.100+)', () => {
    assert.strictEqual(modelCallsTools({ id: 'm' }), true, 'VS Code before 1.100 reports no capabilities');
    assert.strictEqual(modelCallsTools({ capabilities: { supportsImageToText: false } }), true);
    assert.strictEqual(modelCallsTools({ capabilities: { supportsToolCalling: true } }), true);
    assert.strictEqual(modelCallsTools({ capabilities: { supportsToolCalling: false } }), false);
  });

  it('sends the tools, streams only text to onText, and reports the calls with stop reason tool_use', async () => {
    const f = scriptedModel([{ text: 'Let me read it.', calls: [{ id: 'c1', name: 'read_file', input: { path: 'src/app.js' } }, { id: 'c2', name: 'search_files', input: { query: 'theme' } }] }]);
    const deltas: string[] = [];
    const res = await new LmClient(f.model, f.host).stream(request(), (d) => deltas.push(d));
    assert.deepStrictEqual(f.sent[0].options?.tools?.map((t) => t.name), ['read_file', 'search_files', 'list_files']);
    assert.strictEqual(deltas.join(''), 'Let me read it.');
    assert.strictEqual(res.stopReason, 'tool_use');
    assert.deepStrictEqual(res.toolCalls, [
      { id: 'c1', name: 'read_file', input: { path: 'src/app.js' } },
      { id: 'c2', name: 'search_files', input: { query: 'theme' } },
    ]);
  });

  it('a turn without calls ends with stop reason null (unknown), and a request without tools sends none', async () => {
    const f = scriptedModel([{ text: 'done' }]);
    const res = await new LmClient(f.model, f.host).stream(request({ tools: undefined }), () => undefined);
    assert.strictEqual(res.stopReason, null);
    assert.strictEqual(res.toolCalls, undefined);
    assert.strictEqual(f.sent[0].options?.tools, undefined);
  });

  it('sends tool calls and results back as parts; a refused call says Error; the system text leads the first turn', async () => {
    const f = scriptedModel([{ text: 'ok' }]);
    await new LmClient(f.model, f.host).stream(
      request({
        messages: [
          { role: 'user', content: 'Objective: due dates' },
          { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: '.env' } }] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: 'refused: a secret file', isError: true }] },
        ],
      }),
      () => undefined,
    );
    const [first, assistant, results] = f.sent[0].messages;
    assert.strictEqual(first.content, 'You are DevA.\n\n---\n\nObjective: due dates');
    assert.deepStrictEqual(assistant.content, [new TextPart('Reading.'), new ToolCallPart('c1', 'read_file', { path: '.env' })]);
    assert.deepStrictEqual(results.content, [new ToolResultPart('c1', [new TextPart('Error: refused: a secret file')])]);
  });
});

describe('a session over the VS Code LM client with tools', function () {
  this.timeout(60000);
  it("DevA reads a workspace file through the LM API's tool calling, and the file reaches the model as a result part", async () => {
    const ws = workspaceWithOriginalCape('cape-lmtools-', path.join(demoDir(), 'workspace'));
    const [open, poa, da, deva, retro] = demoReplies('task-lm');
    const f = scriptedModel([
      { text: open },
      { text: poa },
      { text: da },
      { calls: [{ id: 'call-1', name: 'read_file', input: { path: 'src/app.js' } }] },
      { text: deva },
      { text: retro },
    ]);
    const events: SessionEvent[] = [];
    const res = await runSession({
      workspace: ws,
      objective: 'Add a dark mode',
      taskId: 'task-lm',
      model: 'lm-fake',
      llm: new LmClient(f.model, f.host),
      prompts: loadPromptAssets(defaultPromptsDir()),
      onEvent: (e) => events.push(e),
    });
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(f.sent.length, 6, 'five steps and one tool turn');
    assert.ok(f.sent[3].options?.tools?.some((t) => t.name === 'read_file'), 'DevA is offered the tools');
    assert.strictEqual(f.sent[0].options?.tools, undefined, 'the Cape Master is not');
    const results = f.sent[4].messages[f.sent[4].messages.length - 1].content as unknown[];
    assert.ok(results[0] instanceof ToolResultPart);
    const body = ((results[0] as ToolResultPart).content[0] as TextPart).value;
    const onDisk = fs.readFileSync(path.join(ws, 'src/app.js'), 'utf8');
    assert.ok(body.includes(onDisk.split('\n')[0]), 'the result carries the file');
    const calls = events.filter((e): e is Extract<SessionEvent, { type: 'tool-call' }> => e.type === 'tool-call');
    assert.deepStrictEqual(
      calls.map((c) => [c.step, c.call.tool, c.call.target, c.call.chars > 0]),
      [['deva', 'read_file', 'src/app.js', true]],
    );
    assert.strictEqual((await new SessionStore(ws).loadSessionState('task-lm'))?.status, 'complete');
  });
});

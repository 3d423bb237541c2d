// Runs inside code-server's extension host (VS Code 1.100), started by test/e2e/lmTools.test.ts with the test-only
// extension test/lm-extension installed beside CAPE: that extension contributes chat models through the proposed
// `lm.registerChatModelProvider`, and CAPE (cape.provider = vscode-lm) uses them like any other extension's model.
// Not part of the default integration run (it needs that extension): it lives outside test/integration/.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { FakeLmApi, FakeRequest, FakeTurn, LmMessage, LmParts } from '../lm-extension/extension';
import type { StepRecord } from '../../src/core/store/records';
import { demoReplies } from '../helpers/demo';
import { EXTENSION_ID, resetWorkspace, waitFor } from '../integration/sessionHarness';
import { SessionStore } from '../../src/core/store';

const FAKE_ID = 'cape-test.fake-lm';
const SECRET = 'sk-cape-lm-test-secret-0451';
const OUTSIDE = 'bytes-from-outside-the-workspace-0451';
const { LanguageModelTextPart: Text, LanguageModelToolCallPart: Call, LanguageModelToolResultPart: Result } = vscode as unknown as LmParts;

const STEPS: [RegExp, number][] = [
  [/# Role: Cape Master — session opening/, 0],
  [/# Role: Product Owner agent/, 1],
  [/# Role: Designer agent/, 2],
  [/# Role: Developer agent/, 3],
  [/# Role: Cape Master — retrospective/, 4],
];

const textOf = (m: LmMessage): string => m.content.map((p) => (p instanceof Text ? p.value : '')).join('');
/** The step (0 CM opening … 4 retrospective) a request belongs to, from the role prompt in its first message. */
const stepOf = (r: FakeRequest): number | undefined => STEPS.find(([re]) => re.test(textOf(r.messages[0])))?.[1];
const taskOf = (r: FakeRequest): string => /Task: (task-[\w-]+)/.exec(r.messages.map(textOf).join('\n'))?.[1] ?? 'task-lm';
type ResultPart = { callId: string; content: unknown[] };
/**
 * The tool results of a message. CAPE sends LanguageModelToolResultPart; VS Code 1.100 hands a provider each one as
 * its LanguageModelToolResultPart2 (same callId and content, another class), so they are recognised by shape.
 */
const resultsOf = (m: LmMessage | undefined): ResultPart[] =>
  (m?.content ?? []).filter((p): p is ResultPart => p instanceof Result || (!(p instanceof Call) && typeof (p as ResultPart).callId === 'string' && Array.isArray((p as ResultPart).content)));
const resultText = (r: ResultPart): string => r.content.map((p) => (p instanceof Text ? p.value : '')).join('');

const DEVA_CALLS = [
  { id: 'call-read', name: 'read_file', input: { path: 'src/app.js' } },
  { id: 'call-search', name: 'search_files', input: { query: 'localStorage' } },
  { id: 'call-env', name: 'read_file', input: { path: '.env' } },
  { id: 'call-out', name: 'read_file', input: { path: '../outside.txt' } },
];

/** The demo session; DevA first calls the tools, then (once it has their results) writes its envelope. */
function demoWithTools(req: FakeRequest): FakeTurn {
  const step = stepOf(req);
  if (step === undefined) throw new Error(`the fake model did not recognise the step of: ${textOf(req.messages[0]).slice(0, 200)}`);
  const reply = demoReplies(taskOf(req))[step];
  if (step === 3 && req.options.tools?.length && resultsOf(req.messages[req.messages.length - 1]).length === 0) {
    return { text: 'I read the app before changing it.', calls: DEVA_CALLS };
  }
  return { text: reply };
}

function pairRecord(root: string, agentStep: string): StepRecord {
  const dir = path.join(root, 'cape/5_sessions/pair');
  const files = fs.readdirSync(dir).filter((f) => f.includes(agentStep));
  assert.strictEqual(files.length, 1, `one ${agentStep} pair file: ${fs.readdirSync(dir).join(', ')}`);
  return JSON.parse(fs.readFileSync(path.join(dir, files[0]), 'utf8')) as StepRecord;
}

describe('vscode-lm: CAPE uses another extension’s chat model in VS Code 1.100', function () {
  this.timeout(180_000);
  let fake: FakeLmApi;
  let root: string;

  before(async () => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const ext = vscode.extensions.getExtension<FakeLmApi>(FAKE_ID);
    assert.ok(ext, `${FAKE_ID} is installed (test/e2e/lmTools.test.ts links it)`);
    fake = await ext.activate();
    fake.respond = demoWithTools;
  });
  beforeEach(() => {
    resetWorkspace(root);
    fs.writeFileSync(path.join(root, '.env'), `API_KEY=${SECRET}\n`);
    fs.writeFileSync(path.join(path.dirname(root), 'outside.txt'), `${OUTSIDE}\n`);
    fake.requests.length = 0;
  });
  after(() => {
    fs.rmSync(path.join(path.dirname(root), 'outside.txt'), { force: true });
  });

  it('DevA reads and searches the workspace through LM tool calling; refused calls say why and send no byte', async () => {
    await vscode.workspace.getConfiguration('cape').update('model', 'cape-fake-tools', vscode.ConfigurationTarget.Global);
    const models = await vscode.lm.selectChatModels({ vendor: 'cape-fake' });
    assert.deepStrictEqual(models.map((m) => m.id).sort(), ['cape-fake-consent', 'cape-fake-plain', 'cape-fake-tools'], 'the contributed models are selectable');

    await vscode.commands.executeCommand('cape.startSession', 'Add a dark mode toggle that remembers the choice');

    const reqs = fake.requests;
    assert.deepStrictEqual(
      reqs.map((r) => stepOf(r)),
      [0, 1, 2, 3, 3, 4],
      'five steps and one tool turn, all through the LM API (no consent prompt: the provider declares no auth)',
    );
    assert.ok(reqs.every((r) => r.model === 'cape-fake-tools' && r.from.toLowerCase() === EXTENSION_ID), `sent by CAPE: ${reqs.map((r) => r.from).join(', ')}`);
    assert.strictEqual(reqs[0].options.tools, undefined, 'the Cape Master is offered no tools');
    assert.deepStrictEqual(reqs[3].options.tools?.map((t) => t.name), ['read_file', 'search_files', 'list_files'], 'DevA is offered the tools');
    assert.ok(reqs[3].options.tools?.every((t) => t.description && t.inputSchema), 'each tool has a description and an input schema');

    // The second DevA turn carries the model's calls back (assistant) and CAPE's answers (user) as LM API parts.
    const turn = reqs[4].messages;
    const calls = turn[turn.length - 2].content.filter((p) => p instanceof Call);
    assert.deepStrictEqual(
      calls.map((c) => [c.callId, c.name, c.input]),
      DEVA_CALLS.map((c) => [c.id, c.name, c.input]),
    );
    const results = new Map(resultsOf(turn[turn.length - 1]).map((r) => [r.callId, resultText(r)]));
    assert.deepStrictEqual([...results.keys()], DEVA_CALLS.map((c) => c.id), 'one result part per call, in order');
    const app = fs.readFileSync(path.join(root, 'src/app.js'), 'utf8');
    assert.ok(results.get('call-read')!.includes(app.split('\n')[0]), `read_file returns the file: ${results.get('call-read')!.slice(0, 200)}`);
    assert.match(results.get('call-search')!, /src\/app\.js:\d+: .*localStorage/, 'search_files answers path:line: text');
    assert.match(results.get('call-env')!, /^Error: refused: .*secret/i, 'a secret file is refused, with the reason');
    assert.match(results.get('call-out')!, /^Error: refused: /, 'a path outside the workspace is refused');
    const everything = JSON.stringify(reqs.map((r) => r.messages));
    assert.ok(!everything.includes(SECRET) && !everything.includes(OUTSIDE), 'no byte of a refused file reached the model');

    // The pair artifact records each call (not its body); the session completed with DevA's envelope.
    const deva = pairRecord(root, '_4_DevA_');
    assert.strictEqual(deva.model, 'cape-fake-tools');
    const rec = deva.toolCalls ?? [];
    assert.deepStrictEqual(
      rec.map((c) => [c.tool, c.target, c.refused ? 'refused' : c.chars > 0]),
      [['read_file', 'src/app.js', true], ['search_files', 'localStorage', true], ['read_file', '.env', 'refused'], ['read_file', '../outside.txt', 'refused']],
    );
    assert.ok(!JSON.stringify(deva.toolCalls).includes(app.split('\n')[0]), 'the record holds no file body');
    assert.ok(deva.files.some((f) => f.path === 'src/theme.js'), 'DevA’s envelope was read after the tool turn');
    assert.strictEqual(pairRecord(root, '_1_CM_').toolCalls, undefined);
  });

  // VS Code 1.100 does not pass a requester's cancellation on to the provider once its response has started (fixed
  // upstream later, microsoft/vscode#319098): CAPE stops reading and sends nothing more, which is what it controls.
  it('Stop during DevA’s tool loop stops the step at once, sends no further request, keeps the completed steps; Resume completes', async () => {
    await vscode.workspace.getConfiguration('cape').update('model', 'cape-fake-tools', vscode.ConfigurationTarget.Global);
    const isAnswerTurn = (r: FakeRequest) => stepOf(r) === 3 && resultsOf(r.messages[r.messages.length - 1]).length > 0;
    // DevA asks for its tools; the turn that carries their results is still "thinking" when the user stops.
    fake.respond = (req) => (isAnswerTurn(req) ? { text: 'Reading what the tools returned', hold: true } : demoWithTools(req));
    try {
      const run = vscode.commands.executeCommand('cape.startSession', 'Add a dark mode toggle that remembers the choice');
      await waitFor(() => fake.requests.some(isAnswerTurn), 'the DevA request that carries the tool results', 90_000);
      await vscode.commands.executeCommand('cape.cancelSession');
      await run;
      assert.deepStrictEqual(fake.requests.map((r) => stepOf(r)), [0, 1, 2, 3, 3], 'no request after Stop');
      const [state] = await new SessionStore(root, 'cape').listSessions();
      assert.strictEqual(state.status, 'failed');
      assert.strictEqual(state.error?.kind, 'cancelled');
      assert.strictEqual(state.error?.step, 'deva');
      assert.deepStrictEqual(state.completedSteps, ['cm_open', 'poa', 'da']);
      assert.ok(!fs.readdirSync(path.join(root, 'cape/5_sessions/pair')).some((f) => f.includes('_4_DevA_')), 'no DevA record for a stopped step');

      // Resume runs DevA again (tools and all) and the retrospective.
      fake.respond = demoWithTools;
      fake.requests.length = 0;
      await vscode.commands.executeCommand('cape.resumeSession', state.taskId);
      assert.deepStrictEqual(fake.requests.map((r) => stepOf(r)), [3, 3, 4]);
      const after = (await new SessionStore(root, 'cape').listSessions()).find((s) => s.taskId === state.taskId)!;
      assert.strictEqual(after.status, 'complete');
      assert.strictEqual(pairRecord(root, '_4_DevA_').toolCalls?.length, DEVA_CALLS.length);
    } finally {
      fake.release();
      fake.respond = demoWithTools;
    }
  });

  it('a model that declares no tool calling gets no tools: DevA works from the map alone', async () => {
    await vscode.workspace.getConfiguration('cape').update('model', 'cape-fake-plain', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cape.startSession', 'Add a dark mode toggle that remembers the choice');
    const reqs = fake.requests;
    assert.deepStrictEqual(reqs.map((r) => [stepOf(r), r.model]), [0, 1, 2, 3, 4].map((s) => [s, 'cape-fake-plain']));
    assert.ok(reqs.every((r) => r.options.tools === undefined), 'no request offers tools');
    assert.match(textOf(reqs[3].messages[0]), /src\/app\.js/, 'DevA still receives the workspace (ranked files and map)');
    const deva = pairRecord(root, '_4_DevA_');
    assert.strictEqual(deva.toolCalls, undefined);
    assert.ok(deva.files.some((f) => f.path === 'src/theme.js'));
  });
});

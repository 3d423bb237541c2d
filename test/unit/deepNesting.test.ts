// Untrusted JSON and YAML nested 100,000 deep, at every place CAPE reads it: a model's reply and its tool calls (both
// providers), the store's state and pair files read on resume, cape/ frontmatter (YAML and JSON), init's answers file,
// a project's tsconfig, the index cache file, a webview message. Each is refused with a reason that says so, or
// skipped as it skips any unreadable file; none throws a RangeError (a stack overflow) or hands a value on that a
// later JSON.stringify cannot write.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseReply } from '../../src/core/reply/parser';
import { toolInput } from '../../src/core/llm/anthropic/replyAccumulator';
import { lmToolHost, type LmToolApi } from '../../src/providers/lmTools';
import { readJsonFile } from '../../src/core/store/jsonFile';
import { SessionStore, StoreError, type StepRecord } from '../../src/core/store';
import { parseFrontmatter } from '../../src/core/cape/frontmatter';
import { parseAnswersFile } from '../../src/core/cape/initAnswers';
import { parseConfig } from '../../src/core/workspace/moduleRules';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { isWebviewMessage } from '../../src/panel/protocolGuards';

const DEEP = 100_000;

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const deepObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** `[[…]]`, `levels` arrays deep. */
const deepArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** The same as a value: `{ a: { a: … 1 } }`. */
function deepValue(levels: number): object {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v as object;
}

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** The fields of a POA envelope but its voice and output (JSON text, without the braces). */
const POA_FIELDS = '"agent":"POA","role":"Product Owner Agent","task_id":"t","references":[],"confidence":4,"ass":{"score":4,"positive":"p","improvement":"i","context_adequate":true}';
/** A POA envelope whose output is `output` (JSON text). */
const poaEnvelope = (output: string) => `{${POA_FIELDS},"voice":"Here it is.","output":${output}}`;

function refusedReply(raw: string): string {
  const r = parseReply('poa', raw);
  if (r.ok) assert.fail('a reply nested this deep must not be used');
  assert.strictEqual(r.raw, raw, 'the raw reply is returned with the error (kept in failed/)');
  return r.error;
}

describe('deep nesting: model replies', () => {
  it('invalid JSON nested 4,000 deep (a fence before each level) is an unreadable reply, not a RangeError', () => {
    const raw = '```json\n{"a":'.repeat(4000) + '1' + '}'.repeat(4000);
    assert.match(refusedReply(raw), /the JSON envelope nests deeper than 64 levels at line 66, column 1 of the reply/);
  });

  it(`an envelope nested ${DEEP.toLocaleString('en')} deep is refused with where it gets too deep: invalid, valid, objects or arrays`, () => {
    for (const inner of [deepObjects(DEEP), deepArrays(DEEP), `${deepObjects(DEEP).slice(0, -1)},}`]) {
      const error = refusedReply('```json\n' + poaEnvelope(inner) + '\n```');
      assert.match(error, /^the JSON envelope nests deeper than 64 levels at line 2, column \d+ of the reply, near: "…/);
    }
  });

  it('64 levels are read; 65 are not', () => {
    const at = (levels: number) => parseReply('poa', '```json\n' + poaEnvelope(deepObjects(levels - 1)) + '\n```');
    assert.strictEqual(at(64).ok, true);
    assert.strictEqual(at(65).ok, false);
  });

  it('nesting that only a tolerant parser reads as nesting is refused too', () => {
    // jsonc-parser ends a string at a line break, so what JSON reads as the rest of the string it reads as 100,000 arrays
    const jsonc = '```json\n{' + POA_FIELDS + ',"voice":["a\n' + deepArrays(DEEP) + '"],: }\n```';
    assert.match(refusedReply(jsonc), /^the JSON envelope nests deeper than 64 levels/);
    // jsonrepair ends "b, " at its comma (a quote the model forgot to escape), so `{"d": [[…` is an object, not text
    const repaired = '```json\n{' + POA_FIELDS + ',"voice":"b, "c": "x", "output": {"d": ' + deepArrays(4500) + '}}\n```';
    assert.match(refusedReply(repaired), /^the JSON envelope nests deeper than 64 levels/);
  });

  it('a deep second envelope after a good one is ignored: the good one is used', () => {
    const good = poaEnvelope('{"scope":"s"}');
    const r = parseReply('poa', '```json\n' + good + '\n```\n\n```json\n' + poaEnvelope(deepObjects(DEEP)) + '\n```');
    if (!r.ok) assert.fail(r.error);
    assert.deepStrictEqual(r.reply.envelope.output, { scope: 's' });
    assert.ok(JSON.stringify(r.reply).length > 0);
  });

  it('a tool call whose input is nested deep is refused (Anthropic: JSON text; the LM API: an object)', () => {
    const fromText = toolInput(`{"path":${deepObjects(DEEP)}}`, false);
    assert.deepStrictEqual(Object.keys(fromText.input), [], 'the input is {}');
    assert.match(fromText.problem ?? '', /the arguments nest deeper than 64 levels/);

    class Text {
      constructor(readonly value: string) {}
    }
    class Call {
      constructor(readonly callId: string, readonly name: string, readonly input: object) {}
    }
    class Result {
      constructor(readonly callId: string, readonly content: unknown[]) {}
    }
    const api: LmToolApi = { LanguageModelTextPart: Text, LanguageModelToolCallPart: Call, LanguageModelToolResultPart: Result };
    const host = lmToolHost(api, { User: (c: unknown[]) => c, Assistant: (c: unknown[]) => c })!;
    const part = host.readPart(new Call('c1', 'read_file', { path: deepValue(DEEP) }));
    assert.ok(part && 'toolCall' in part);
    const { input, ...call } = part.toolCall;
    assert.deepStrictEqual(Object.keys(input as object), [], 'the input is {}');
    assert.deepStrictEqual(call, { id: 'c1', name: 'read_file', problem: fromText.problem });
    // a call of ordinary depth is passed on as it is
    const plain = host.readPart(new Call('c2', 'read_file', { path: 'src/a.ts' }));
    assert.deepStrictEqual(plain, { toolCall: { id: 'c2', name: 'read_file', input: { path: 'src/a.ts' } } });
  });
});

describe('deep nesting: files CAPE reads', () => {
  it("the store's files read on resume (state/, pair/) are a StoreError naming the file", async () => {
    const file = path.join(tmp('cape-deep-json-'), 'x.json');
    fs.writeFileSync(file, `{"taskId":"t","x":${deepArrays(DEEP)}}`);
    await assert.rejects(readJsonFile(file), (e: Error) => e instanceof StoreError && e.message.includes(file) && /nests deeper than 100 levels \(line 1, column \d+\)/.test(e.message));

    const ws = tmp('cape-deep-store-');
    const store = new SessionStore(ws);
    const record: StepRecord = {
      step: 'poa',
      agent: 'POA',
      n: 2,
      raw: 'raw',
      envelope: { agent: 'POA', role: 'r', task_id: 'task-1', voice: 'v', output: {}, references: [], confidence: null, ass: null },
      files: [],
      summary: null,
      usage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      model: 'm',
      startedAt: 1,
      finishedAt: 2,
    };
    const pair = await store.saveStep('task-1', 'poa', record);
    fs.writeFileSync(pair, fs.readFileSync(pair, 'utf8').replace('"output": {}', `"output": ${deepObjects(DEEP)}`));
    await assert.rejects(store.loadStep('task-1', 'poa'), (e: Error) => e instanceof StoreError && /nests deeper than 100 levels/.test(e.message));
  });

  it('cape/ frontmatter, YAML (flow, block, aliases) or JSON, is malformed with a reason', () => {
    const yamlChain = Array.from({ length: DEEP }, (_, i) => (i === 0 ? 'a0: &a0 [x]' : `a${i}: &a${i} [*a${i - 1}]`)).join('\n');
    const texts = [
      `---\ntype: input\nx: ${deepArrays(DEEP)}\n---\nbody`,
      `---\ntype: input\nx:\n  ${'- '.repeat(DEEP)}x\n---\nbody`,
      `---\ntype: input\n${yamlChain}\n---\nbody`,
      `---json\n{"type":"input","x":${deepObjects(DEEP)}}\n---\nbody`,
    ];
    for (const text of texts) {
      const fm = parseFrontmatter(text);
      assert.strictEqual(fm.ok, false, text.slice(0, 40));
      if (!fm.ok) assert.match(fm.message, /^frontmatter nests deeper than 100 levels/);
    }
    const flow = parseFrontmatter(texts[0]);
    assert.ok(!flow.ok && flow.line === 3 && /^frontmatter nests deeper than 100 levels \(line 3, column 10\d\)$/.test(flow.message), JSON.stringify(flow));
    // the mapping and 99 lists are 100 levels, read; one list more is not, however it is written
    for (const levels of [99, 100]) {
      for (const x of [deepArrays(levels), `\n  ${'- '.repeat(levels)}x`, `\n  ${'- '.repeat(levels - 1)}[]`]) {
        const fm = parseFrontmatter(`---\ntype: input\nx: ${x}\n---\nbody`);
        assert.strictEqual(fm.ok, levels === 99, `${levels}: ${x.slice(0, 10)} ${fm.ok ? '' : fm.message}`);
      }
    }
  });

  it("init's answers file, JSON or YAML, is refused with a reason", () => {
    for (const text of [`{"product":${deepArrays(DEEP)}}`, `product: ${deepArrays(DEEP)}\n`, `product:\n  ${'- '.repeat(DEEP)}x\n`]) {
      assert.throws(() => parseAnswersFile(text), (e: Error) => /^the answers file nests deeper than 100 levels/.test(e.message));
    }
  });

  it("a project's tsconfig is taken for no configuration", () => {
    assert.strictEqual(parseConfig(`{"compilerOptions":{"paths":${deepArrays(DEEP)}}}`), null);
    assert.strictEqual(parseConfig(`// a comment\n{"compilerOptions":${deepObjects(50)}}`)?.compilerOptions !== undefined, true);
  });

  it('the index cache file with a deep header is not used: the index is rebuilt', async () => {
    const root = tmp('cape-deep-index-');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    const cacheFile = path.join(tmp('cape-deep-cache-'), 'index.idx');
    await WorkspaceIndex.open(root, { cacheFile });
    const bytes = fs.readFileSync(cacheFile);
    const head = 16; // the magic, the version and the header's length
    const json = Buffer.from(`{"root":${JSON.stringify(root)},"policy":${deepArrays(DEEP)}}`);
    const lengthAt = bytes.readUInt32LE(12);
    const forged = Buffer.concat([bytes.subarray(0, 12), Buffer.alloc(4), json, bytes.subarray(head + lengthAt)]);
    forged.writeUInt32LE(json.length, 12);
    fs.writeFileSync(cacheFile, forged);
    const again = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(again.fromCache, false);
    assert.deepStrictEqual([...again.index.all()].map((f) => f.path), ['a.ts']);
  });

  it('a webview message with a deep field is checked without walking it', () => {
    assert.strictEqual(isWebviewMessage({ type: 'copy', text: 'x', extra: deepValue(DEEP) }), true);
    assert.strictEqual(isWebviewMessage({ type: 'copy', text: deepValue(DEEP) }), false);
  });
});

// The init generator end to end: the real AnthropicClient (real @anthropic-ai/sdk) talking HTTP to the local fake
// Messages API, writing into a temporary workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { contentText } from '../../src/core/model/types';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES, loadCape } from '../../src/core/cape/assets';
import {
  INIT_QUESTIONS,
  InitAnswers,
  InitOptions,
  InitProgress,
  buildInitRequest,
  finaliseInputFile,
  initCape,
  parseAnswersFile,
  stripWrappingFence,
} from '../../src/core/cape/init';
import { INIT_ANSWER_IDS, PromptAssets, defaultPromptsDir, loadPromptAssets, promptVariables } from '../../src/core/cape/prompts';
import { FakeAnthropic, FakeReply, RecordedRequest, startFakeAnthropic } from '../fake-anthropic';

const KEY = 'sk-ant-test-init';
const MARKER = 'END-OF-GENERATED-FILE';

const ANSWERS: InitAnswers = {
  product: 'A kiosk app for a climbing gym to check members in',
  users: 'Front-desk staff and gym members',
  problem: 'Queues at the desk during evening peaks',
  stack: 'ZIGZAG-STACK: Kotlin and SQLite',
  designFeel: 'ZIGZAG-FEEL: bold, high contrast',
  features: 'QR check-in; day passes; member lookup',
};

function systemText(req: RecordedRequest): string {
  const s = req.body?.system;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}
function userText(req: RecordedRequest): string {
  return (req.body?.messages ?? []).map((m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
/** The cape-relative path the request asks for (from the rendered init prompt). */
function requestedPath(req: RecordedRequest): string {
  const m = /\*\*`cape\/([^`]+)`/.exec(systemText(req));
  assert.ok(m, 'the init prompt names the file');
  return m![1];
}
function goodFile(p: string): string {
  return `---\ntype: input\n---\n\n# ${p}\n\nContent for ${p}.\n\n${MARKER}\n`;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('init: initCape over HTTP (fake Messages API)', function () {
  let fake: FakeAnthropic;
  let prompts: PromptAssets;
  let llm: AnthropicClient;
  const dirs: string[] = [];

  before(async () => {
    fake = await startFakeAnthropic({ apiKey: KEY });
    prompts = loadPromptAssets(defaultPromptsDir());
    llm = new AnthropicClient({ apiKey: KEY, baseURL: fake.url, maxRetries: 0, idleTimeoutMs: 5000 });
  });
  after(async () => {
    await fake.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });
  beforeEach(() => fake.reset());

  function workspace(): string {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-init-'));
    dirs.push(d);
    return d;
  }
  function opts(ws: string, extra: Partial<InitOptions> = {}): InitOptions {
    return {
      workspace: ws,
      answers: ANSWERS,
      llm,
      model: 'claude-test-fast',
      language: 'Klingon',
      mode: 'fail-if-exists',
      prompts,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...extra,
    };
  }
  function listAll(dir: string): string[] {
    return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => p.split(path.sep).join('/'));
  }

  it('writes the templates and every input file, with bounded concurrency, and the result loads cleanly', async () => {
    let active = 0;
    let maxActive = 0;
    fake.setResponder(async (req) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(30);
      active--;
      return { text: goodFile(requestedPath(req)) };
    });
    const ws = workspace();
    const progress: InitProgress[] = [];
    const res = await initCape(opts(ws, { concurrency: 2, onProgress: (p) => progress.push(p) }));

    const all = [...GENERIC_CAPE_FILES, ...INPUT_CAPE_FILES].map((p) => `cape/${p}`);
    assert.deepStrictEqual(res.failed, []);
    assert.deepStrictEqual(res.skipped, []);
    assert.deepStrictEqual([...res.written].sort(), [...all].sort());
    assert.strictEqual(res.cancelled, false);
    assert.strictEqual(fake.requests.length, INPUT_CAPE_FILES.length);
    assert.strictEqual(maxActive, 2, 'two calls in flight, never more');
    assert.strictEqual(progress.length, all.length);
    assert.deepStrictEqual(progress[progress.length - 1], { done: all.length, total: all.length, file: progress[progress.length - 1].file });

    const cape = await loadCape(path.join(ws, 'cape'));
    assert.deepStrictEqual(cape.issues, []);
    for (const p of INPUT_CAPE_FILES) {
      assert.strictEqual(cape.files.get(p)?.type, 'input');
      assert.ok(cape.files.get(p)!.body.includes(MARKER));
    }
    for (const t of prompts.templates) {
      assert.strictEqual(fs.readFileSync(path.join(ws, 'cape', t.relPath), 'utf8'), t.content, 'templates are copied verbatim');
    }
    assert.ok(!listAll(path.join(ws, 'cape')).some((p) => p.endsWith('.tmp')), 'no temporary files left');

    // each request asks for one distinct file, in the session language, with only the answers that feed it
    const asked = fake.requests.map(requestedPath).sort();
    assert.deepStrictEqual(asked, [...INPUT_CAPE_FILES].sort());
    for (const req of fake.requests) {
      const spec = prompts.inputs.find((i) => i.path === requestedPath(req))!;
      assert.strictEqual(req.model, 'claude-test-fast');
      assert.match(systemText(req), /Klingon/);
      assert.deepStrictEqual(promptVariables(systemText(req)), []);
      for (const id of INIT_ANSWER_IDS) {
        const included = userText(req).includes(ANSWERS[id]);
        assert.strictEqual(included, spec.answers.includes(id), `${spec.path}: answer ${id} need-to-know`);
      }
    }
  });

  it('normalises replies: strips a wrapping fence, adds or fixes the type, refuses js frontmatter and unusable replies', async () => {
    const marker = path.join(os.tmpdir(), `cape-init-pwned-${process.pid}`);
    fs.rmSync(marker, { force: true });
    const g = globalThis as Record<string, unknown>;
    delete g.__capeInitPwned;
    const replies: Record<string, FakeReply> = {
      '1_product/1_mvv.md': { text: '```markdown\n# Mission\n\nOurs.\n\n```bash\nnpm test\n```\n' + MARKER + '\n```' },
      '1_product/2_persona.md': { text: '---\ntype: draft\nauthor: model\n---\n# Personas\n' + MARKER + '\n' },
      '1_product/3_milestone.md': {
        text:
          `---js\n{ type: (function () { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); ` +
          "globalThis.__capeInitPwned = true; return 'input'; })() }\n---\n# Milestones\n",
      },
      '1_product/4_backlog.md': { text: '   \n' },
      '2_design/1_principle.md': { text: '---\ntype: input\n---\n# Principles\n(cut', stopReason: 'max_tokens' },
      '2_design/2_brand.md': { text: '---\ntype: input\ncolours: [red\n---\n# Brand\n' },
    };
    fake.setResponder((req) => replies[requestedPath(req)] ?? { text: goodFile(requestedPath(req)) });
    const ws = workspace();
    const res = await initCape(opts(ws));

    const cape = path.join(ws, 'cape');
    const mvv = fs.readFileSync(path.join(cape, '1_product/1_mvv.md'), 'utf8');
    assert.ok(mvv.startsWith('---\ntype: input\n---\n'), mvv);
    assert.ok(mvv.includes('```bash\nnpm test\n```'), 'inner fences are kept');
    assert.ok(!mvv.includes('```markdown'));
    const persona = fs.readFileSync(path.join(cape, '1_product/2_persona.md'), 'utf8');
    assert.match(persona, /^---\ntype: input\nauthor: model\n---\n/);

    const failed = Object.fromEntries(res.failed.map((f) => [f.path, f.error]));
    assert.deepStrictEqual(Object.keys(failed).sort(), [
      'cape/1_product/3_milestone.md',
      'cape/1_product/4_backlog.md',
      'cape/2_design/1_principle.md',
      'cape/2_design/2_brand.md',
    ]);
    assert.match(failed['cape/1_product/3_milestone.md'], /refused/);
    assert.match(failed['cape/1_product/4_backlog.md'], /empty/);
    assert.match(failed['cape/2_design/1_principle.md'], /cut off/);
    assert.match(failed['cape/2_design/2_brand.md'], /invalid frontmatter \(line 4/);
    for (const p of Object.keys(failed)) assert.strictEqual(fs.existsSync(path.join(ws, p)), false, `${p} not written`);
    assert.strictEqual(fs.existsSync(marker), false, 'js frontmatter was not evaluated');
    assert.strictEqual(g.__capeInitPwned, undefined);

    // a second run in missing-only mode generates exactly the failed files
    fake.reset();
    fake.setResponder((req) => ({ text: goodFile(requestedPath(req)) }));
    const again = await initCape(opts(ws, { mode: 'missing-only' }));
    assert.deepStrictEqual([...again.written].sort(), Object.keys(failed).sort());
    assert.strictEqual(fake.requests.length, 4);
    assert.deepStrictEqual((await loadCape(cape)).issues, []);
  });

  it('fail-if-exists refuses an existing cape/ before calling the model', async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, 'cape', '5_sessions'), { recursive: true });
    await assert.rejects(initCape(opts(ws)), /cape\/ already exists[\s\S]*missing-only/);
    assert.strictEqual(fake.requests.length, 0);
    assert.deepStrictEqual(listAll(path.join(ws, 'cape')), ['5_sessions']);
  });

  it('missing-only keeps existing files; overwrite replaces them but never touches sessions', async () => {
    fake.setResponder((req) => ({ text: goodFile(requestedPath(req)) }));
    const ws = workspace();
    const cape = path.join(ws, 'cape');
    fs.mkdirSync(path.join(cape, '1_product'), { recursive: true });
    fs.mkdirSync(path.join(cape, '0_team'), { recursive: true });
    fs.mkdirSync(path.join(cape, '5_sessions', 'retrospective'), { recursive: true });
    fs.writeFileSync(path.join(cape, '1_product', '1_mvv.md'), '---\ntype: input\n---\nMINE\n');
    fs.writeFileSync(path.join(cape, '0_team', '3_dor.md'), '---\ntype: generic\n---\nMY DOR\n');
    fs.writeFileSync(path.join(cape, '5_sessions', 'retrospective', 'kpt_merged.md'), 'HISTORY\n');

    const res = await initCape(opts(ws, { mode: 'missing-only' }));
    assert.deepStrictEqual([...res.skipped].sort(), ['cape/0_team/3_dor.md', 'cape/1_product/1_mvv.md']);
    assert.strictEqual(res.written.length, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length - 2);
    assert.strictEqual(fake.requests.length, INPUT_CAPE_FILES.length - 1);
    assert.match(fs.readFileSync(path.join(cape, '1_product', '1_mvv.md'), 'utf8'), /MINE/);
    assert.match(fs.readFileSync(path.join(cape, '0_team', '3_dor.md'), 'utf8'), /MY DOR/);

    fake.reset();
    fake.setResponder((req) => ({ text: goodFile(requestedPath(req)) }));
    const over = await initCape(opts(ws, { mode: 'overwrite' }));
    assert.deepStrictEqual(over.skipped, []);
    assert.strictEqual(over.written.length, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length);
    assert.ok(fs.readFileSync(path.join(cape, '1_product', '1_mvv.md'), 'utf8').includes(MARKER));
    assert.ok(!fs.readFileSync(path.join(cape, '0_team', '3_dor.md'), 'utf8').includes('MY DOR'));
    assert.strictEqual(fs.readFileSync(path.join(cape, '5_sessions', 'retrospective', 'kpt_merged.md'), 'utf8'), 'HISTORY\n');
  });

  it('cancellation stops further files and leaves only complete files', async () => {
    // slow streams so that several calls are in flight when the user cancels
    fake.setResponder((req) => ({ text: goodFile(requestedPath(req)) + 'x'.repeat(200), chunkSize: 10, chunkDelayMs: 15 }));
    const ws = workspace();
    const ac = new AbortController();
    const res = await initCape(
      opts(ws, {
        concurrency: 3,
        signal: ac.signal,
        onProgress: (p) => {
          if (p.file.endsWith(INPUT_CAPE_FILES[0]) || p.done > GENERIC_CAPE_FILES.length) ac.abort();
        },
      }),
    );
    assert.strictEqual(res.cancelled, true);
    const cape = path.join(ws, 'cape');
    const inputsWritten = INPUT_CAPE_FILES.filter((p) => fs.existsSync(path.join(cape, p)));
    assert.ok(inputsWritten.length >= 1 && inputsWritten.length < INPUT_CAPE_FILES.length, `wrote ${inputsWritten.length}`);
    for (const p of inputsWritten) {
      const text = fs.readFileSync(path.join(cape, p), 'utf8');
      assert.ok(text.includes(MARKER) && text.trimEnd().endsWith('x'.repeat(200)), `${p} is complete`);
      assert.ok(res.written.includes(`cape/${p}`));
    }
    assert.ok(!listAll(cape).some((p) => p.endsWith('.tmp')), 'no temporary files left');
    const notWritten = INPUT_CAPE_FILES.filter((p) => !inputsWritten.includes(p)).map((p) => `cape/${p}`);
    assert.deepStrictEqual(res.failed.map((f) => f.path).sort(), [...notWritten].sort());
    for (const f of res.failed) assert.match(f.error, /cancelled/);
    assert.ok(fake.requests.length < INPUT_CAPE_FILES.length, 'no new calls after the cancel');
  });

  it('retries a reply that fails mid-stream, and leaves no partial file when retries run out', async () => {
    const seen = new Map<string, number>();
    fake.setResponder((req) => {
      const p = requestedPath(req);
      const n = (seen.get(p) ?? 0) + 1;
      seen.set(p, n);
      if (p === '1_product/1_mvv.md' && n === 1) return { fault: 'midstream-error', afterChars: 20, errorType: 'overloaded_error', text: goodFile(p) };
      if (p === '1_product/2_persona.md') return { fault: 'reset', afterChars: 25, text: goodFile(p) };
      return { text: goodFile(p) };
    });
    const ws = workspace();
    const res = await initCape(opts(ws, { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }));
    assert.strictEqual(seen.get('1_product/1_mvv.md'), 2);
    assert.ok(fs.readFileSync(path.join(ws, 'cape/1_product/1_mvv.md'), 'utf8').includes(MARKER));
    assert.deepStrictEqual(res.failed.map((f) => f.path), ['cape/1_product/2_persona.md']);
    assert.strictEqual(seen.get('1_product/2_persona.md'), 2);
    assert.strictEqual(fs.existsSync(path.join(ws, 'cape/1_product/2_persona.md')), false);
  });

  it('stops calling the API after an authentication error', async () => {
    fake.setResponder((req) => ({ text: goodFile(requestedPath(req)) }));
    const ws = workspace();
    const badClient = new AnthropicClient({ apiKey: 'sk-ant-wrong', baseURL: fake.url, maxRetries: 0 });
    const res = await initCape(opts(ws, { llm: badClient, concurrency: 2 }));
    assert.strictEqual(res.failed.length, INPUT_CAPE_FILES.length);
    assert.ok(fake.requests.length <= 2, `made ${fake.requests.length} requests`);
    assert.ok(res.failed.every((f) => /key/i.test(f.error)), res.failed[0].error);
    assert.strictEqual(res.written.length, GENERIC_CAPE_FILES.length, 'templates need no model');
  });

  it('rejects unsafe cape folders and bad options', async () => {
    const ws = workspace();
    for (const capeFolder of ['../outside', '/abs', 'a/../../b', '.git/cape', '']) {
      await assert.rejects(initCape(opts(ws, { capeFolder })), /capeFolder/, capeFolder);
    }
    await assert.rejects(initCape(opts(path.join(ws, 'nope'))), /workspace folder not found/);
    await assert.rejects(initCape(opts(ws, { answers: { ...ANSWERS, users: '' } })), /users: Who are the users/);
    const outside = workspace();
    try {
      fs.symlinkSync(outside, path.join(ws, 'cape'));
    } catch {
      return; // no symlink permission
    }
    await assert.rejects(initCape(opts(ws, { mode: 'missing-only' })), /outside the workspace/);
    assert.deepStrictEqual(fs.readdirSync(outside), []);
    assert.strictEqual(fake.requests.length, 0);
  });
});

describe('init: answers, prompt and reply helpers', () => {
  it('INIT_QUESTIONS covers every answer id with a prompt and placeholder', () => {
    assert.deepStrictEqual(INIT_QUESTIONS.map((q) => q.id), [...INIT_ANSWER_IDS]);
    for (const q of INIT_QUESTIONS) assert.ok(q.prompt.endsWith('?') || q.prompt.endsWith(')'), q.prompt);
    assert.ok(INIT_QUESTIONS.some((q) => !q.required) && INIT_QUESTIONS.some((q) => q.required));
  });

  it('parseAnswersFile reads JSON and YAML (lists, snake/kebab keys) and fills optional answers', () => {
    const fromJson = parseAnswersFile(JSON.stringify({ product: 'P', users: 'U', problem: 'Q', features: ['a', 'b'] }));
    assert.deepStrictEqual(fromJson, { product: 'P', users: 'U', problem: 'Q', stack: '', designFeel: '', features: '- a\n- b' });
    const fromYaml = parseAnswersFile('product: P\nusers: U\nproblem: Q\ndesign_feel: calm\ntech-stack: x\nstack: Go\nfeatures: |\n  one\n  two\n');
    assert.strictEqual(fromYaml.designFeel, 'calm');
    assert.strictEqual(fromYaml.stack, 'Go');
    assert.strictEqual(fromYaml.features, 'one\ntwo');
  });

  it('parseAnswersFile explains what is missing or broken', () => {
    assert.throws(() => parseAnswersFile('product: P\n'), (e: Error) => /users: Who are the users\?/.test(e.message) && /features/.test(e.message) && !/stack/.test(e.message));
    assert.throws(() => parseAnswersFile('product: P\n  users: [\n'), /not valid YAML \(line 2\)/);
    assert.throws(() => parseAnswersFile('{"product": '), /not valid JSON/);
    assert.throws(() => parseAnswersFile(''), /empty/);
    assert.throws(() => parseAnswersFile('- a\n- b\n'), /must be an object/);
    assert.throws(() => parseAnswersFile('product: !!js/function "function () {}"\n'), /not valid YAML/);
    assert.throws(() => parseAnswersFile(JSON.stringify({ product: 'P', users: 'U', problem: 'Q', features: { a: 1 } })), /"features" must be text/);
    assert.throws(() => parseAnswersFile(JSON.stringify({ product: 'x'.repeat(20_001), users: 'U', problem: 'Q', features: 'F' })), /under 20000/);
  });

  it('buildInitRequest renders every placeholder and keeps answers as literal data', () => {
    const prompts = loadPromptAssets(defaultPromptsDir());
    const spec = prompts.inputs.find((i) => i.path === '3_development/1_architecture.md')!;
    const req = buildInitRequest(spec, {
      answers: { ...ANSWERS, stack: 'uses {{language}} literally' },
      language: 'Japanese',
      model: 'm',
      prompts,
    });
    const sys = req.system.map((b) => b.text).join('\n');
    assert.deepStrictEqual(promptVariables(sys), []);
    assert.match(sys, /Japanese/);
    for (const s of spec.sections) assert.ok(sys.includes(s));
    assert.ok(contentText(req.messages[0].content).includes('uses {{language}} literally'));
    assert.ok(req.maxTokens > 1000);
  });

  it('stripWrappingFence only removes a fence around the whole reply', () => {
    assert.strictEqual(stripWrappingFence('```md\n# A\n```'), '# A');
    assert.strictEqual(stripWrappingFence('Here is the file:\n~~~markdown\n# A\n~~~\n'), '# A');
    assert.strictEqual(stripWrappingFence('# A\n```ts\ncode\n```'), '# A\n```ts\ncode\n```');
    assert.strictEqual(stripWrappingFence('---\ntype: input\n---\n```\nx\n```'), '---\ntype: input\n---\n```\nx\n```');
  });

  it('finaliseInputFile adds the input frontmatter when missing', () => {
    assert.strictEqual(finaliseInputFile('# Title\nBody'), '---\ntype: input\n---\n\n# Title\nBody\n');
    assert.throws(() => finaliseInputFile('---javascript\n{}\n---\n# T\n'), /refused/);
  });
});

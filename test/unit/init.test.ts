// The init generator end to end: the real AnthropicClient (real @anthropic-ai/sdk) talking HTTP to the local fake
// Messages API, writing into a temporary workspace. Counts requests: one for the shared decisions, one per input file,
// one more per repaired reply.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { runSession } from '../../src/core/session/runner';
import { SessionStore } from '../../src/core/store';
import { contentText } from '../../src/core/model/types';
import { loadCape } from '../../src/core/cape/assets';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES } from '../../src/core/cape/capeLayout';
import {
  INIT_DECISIONS_FILE,
  INIT_QUESTIONS,
  InitAnswers,
  InitOptions,
  InitProgress,
  buildDecisionsRequest,
  buildInitRequest,
  initCape,
  normaliseAnswers,
  parseAnswersFile,
} from '../../src/core/cape';
import {
  INPUT_FILE_MAX_CHARS,
  checkDecisionsReply,
  checkInputReply,
  formatDecisions,
  inputRepairPrompt,
  stripWrappingFence,
} from '../../src/core/cape/initChecks';
import { INIT_ANSWER_IDS, PromptAssets, defaultPromptsDir, loadPromptAssets, promptVariables } from '../../src/core/cape/prompts';
import { FakeAnthropic, FakeReply, RecordedRequest, startFakeAnthropic } from '../fake-anthropic';
import { demoDecisions, demoInputFile, isDecisionsRequest } from '../helpers/demo';

const KEY = 'sk-ant-test-init';
const MARKER = 'END-OF-GENERATED-FILE';

const ANSWERS: InitAnswers = {
  product: 'A kiosk app for a climbing gym to check members in',
  users: 'Front-desk staff and gym members',
  problem: 'Queues at the desk during evening peaks',
  features: 'QR check-in; day passes; member lookup',
  uiLanguage: 'ZIGZAG-UILANG: German and English',
  stack: 'ZIGZAG-STACK: Kotlin and SQLite',
  hosting: 'ZIGZAG-HOSTING: one Raspberry Pi at the desk',
  testTooling: 'ZIGZAG-TESTS: JUnit 5 and Espresso',
  teamSize: 'ZIGZAG-TEAM: two developers',
  designFeel: 'ZIGZAG-FEEL: bold, high contrast',
};
const REQUIRED_IDS = INIT_QUESTIONS.filter((q) => q.required).map((q) => q.id);
/** A shared decision value the test can find in every file request. */
const DECISION_MARK = (k: string) => `DECIDED-${k}-190KB`;

function systemText(req: RecordedRequest): string {
  const s = req.body?.system;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}
function userText(req: RecordedRequest): string {
  return (req.body?.messages ?? []).map((m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
/** The cape-relative path a file request asks for (from the rendered init prompt); 'decisions' for the first request. */
function requestedPath(req: RecordedRequest): string {
  if (isDecisionsRequest(req.body)) return 'decisions';
  const m = /\*\*`cape\/([^`]+)`/.exec(systemText(req));
  assert.ok(m, 'the init prompt names the file');
  return m![1];
}
function isRepair(req: RecordedRequest): boolean {
  return (req.body?.messages ?? []).length > 1 || /cannot be saved as|cannot be used as/.test(userText(req));
}
/** A file that passes init's checks. */
function goodFile(p: string): string {
  return `${demoInputFile(p, ANSWERS)}\n${MARKER}\n`;
}
/** Answers the decisions request and every file request with valid replies (or `files[path]` when given). */
function responder(files: Record<string, FakeReply | ((req: RecordedRequest) => FakeReply)> = {}) {
  return (req: RecordedRequest): FakeReply => {
    const p = requestedPath(req);
    const r = files[p];
    if (r) return typeof r === 'function' ? r(req) : r;
    return { text: p === 'decisions' ? demoDecisions(DECISION_MARK) : goodFile(p) };
  };
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

  it('fixes the shared decisions first, then writes every input file in parallel with them, and the result loads cleanly', async () => {
    let active = 0;
    let maxActive = 0;
    let decisionsDone = false;
    const order: string[] = [];
    fake.setResponder(async (req) => {
      const p = requestedPath(req);
      order.push(p);
      if (p !== 'decisions') assert.ok(decisionsDone, `${p} was requested before the decisions were fixed`);
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(30);
      active--;
      if (p === 'decisions') decisionsDone = true;
      return responder()(req);
    });
    const ws = workspace();
    const progress: InitProgress[] = [];
    const res = await initCape(opts(ws, { concurrency: 2, onProgress: (p) => progress.push(p) }));

    const all = [...GENERIC_CAPE_FILES, ...INPUT_CAPE_FILES].map((p) => `cape/${p}`);
    assert.deepStrictEqual(res.failed, []);
    assert.deepStrictEqual(res.skipped, []);
    assert.deepStrictEqual(res.repaired, []);
    assert.deepStrictEqual([...res.written].sort(), [...all].sort());
    assert.strictEqual(res.cancelled, false);
    assert.strictEqual(fake.requests.length, 1 + INPUT_CAPE_FILES.length, 'one decisions request, then one per input file');
    assert.strictEqual(order[0], 'decisions');
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
    // the decisions are kept (outside the assets sessions load) and returned
    const stored = fs.readFileSync(path.join(ws, 'cape', INIT_DECISIONS_FILE), 'utf8');
    for (const d of prompts.decisions) assert.ok(stored.includes(`- ${d.key}: ${DECISION_MARK(d.key)}`), d.key);
    assert.strictEqual(res.decisions?.performance_budget, DECISION_MARK('performance_budget'));

    // the decisions request sees every answer and names every decision
    const decisionsReq = fake.requests[0];
    assert.match(systemText(decisionsReq), /Klingon/);
    assert.deepStrictEqual(promptVariables(systemText(decisionsReq)), []);
    for (const id of INIT_ANSWER_IDS) assert.ok(userText(decisionsReq).includes(ANSWERS[id]), `decisions request has answer ${id}`);
    for (const d of prompts.decisions) assert.ok(systemText(decisionsReq).includes(`- ${d.key}: ${d.meaning}`), d.key);
    assert.doesNotMatch(userText(decisionsReq), /<existing_file/, 'a fresh run has no kept files to quote');

    // each file request asks for one distinct file, in the session language, with the answers it needs and the decisions
    const fileReqs = fake.requests.slice(1);
    assert.deepStrictEqual(fileReqs.map(requestedPath).sort(), [...INPUT_CAPE_FILES].sort());
    for (const req of fileReqs) {
      const spec = prompts.inputs.find((i) => i.path === requestedPath(req))!;
      const sys = systemText(req);
      const user = userText(req);
      assert.strictEqual(req.model, 'claude-test-fast');
      assert.match(sys, /Klingon/);
      assert.deepStrictEqual(promptVariables(sys), []);
      for (const id of INIT_ANSWER_IDS) {
        assert.strictEqual(user.includes(ANSWERS[id]), spec.answers.includes(id), `${spec.path}: answer ${id} need-to-know`);
      }
      for (const id of REQUIRED_IDS) assert.ok(spec.answers.includes(id), `${spec.path} gets the required answer ${id}`);
      for (const d of prompts.decisions) assert.ok(user.includes(`- ${d.key}: ${DECISION_MARK(d.key)}`), `${spec.path} gets decision ${d.key}`);
      // the other files: every framework file and every other input file, never itself
      for (const g of GENERIC_CAPE_FILES) assert.ok(sys.includes(`cape/${g} — `), `${spec.path} names ${g}`);
      for (const o of INPUT_CAPE_FILES) assert.strictEqual(sys.includes(`- cape/${o} — `), o !== spec.path, `${spec.path} lists ${o}`);
      assert.match(sys, /Definition of Done \(framework file/);
    }
    // the design files get the product's main point
    for (const p of ['2_design/1_principle.md', '2_design/2_brand.md']) {
      const req = fileReqs.find((r) => requestedPath(r) === p)!;
      for (const id of ['problem', 'features', 'designFeel', 'uiLanguage'] as const) assert.ok(userText(req).includes(ANSWERS[id]), `${p}: ${id}`);
    }
    const arch = fileReqs.find((r) => requestedPath(r) === '3_development/1_architecture.md')!;
    for (const id of ['hosting', 'testTooling', 'stack'] as const) assert.ok(userText(arch).includes(ANSWERS[id]), `architecture: ${id}`);
  });

  it('checks each reply: strips a lone wrapping fence, repairs a bad reply once, writes nothing for a still-bad one', async () => {
    const marker = path.join(os.tmpdir(), `cape-init-pwned-${process.pid}`);
    fs.rmSync(marker, { force: true });
    const g = globalThis as Record<string, unknown>;
    delete g.__capeInitPwned;
    const firstThenGood = (bad: FakeReply) => (req: RecordedRequest): FakeReply => (isRepair(req) ? { text: goodFile(requestedPath(req)) } : bad);
    const fenced = goodFile('1_product/1_mvv.md').replace('## Values', '```bash\nnpm test\n```\n\n## Values');
    const replies: Record<string, FakeReply | ((req: RecordedRequest) => FakeReply)> = {
      // fence only: stripped, no repair
      '1_product/1_mvv.md': { text: '```markdown\n' + fenced + '```' },
      // wrong type, then fixed
      '1_product/2_persona.md': firstThenGood({ text: goodFile('1_product/2_persona.md').replace('type: input', 'type: draft\nauthor: model') }),
      // executable frontmatter every time: refused, never evaluated
      '1_product/3_milestone.md': {
        text:
          `---js\n{ type: (function () { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); ` +
          "globalThis.__capeInitPwned = true; return 'input'; })() }\n---\n# Milestones\n",
      },
      '1_product/4_backlog.md': { text: '   \n' },
      '2_design/1_principle.md': { text: '---\ntype: input\n---\n# Principles\n(cut', stopReason: 'max_tokens' },
      '2_design/2_brand.md': { text: '---\ntype: input\ncolours: [red\n---\n# Brand\n' },
      // far over its length, then a concise one
      '3_development/1_architecture.md': firstThenGood({ text: goodFile('3_development/1_architecture.md') + 'x'.repeat(INPUT_FILE_MAX_CHARS) }),
      // chatter and no frontmatter, then the file
      '3_development/2_guideline.md': firstThenGood({ text: 'Sure! Here is the guideline.\n\n' + goodFile('3_development/2_guideline.md').replace(/^---\ntype: input\n---\n/, '') }),
    };
    fake.setResponder(responder(replies));
    const ws = workspace();
    const res = await initCape(opts(ws));

    const cape = path.join(ws, 'cape');
    const mvv = fs.readFileSync(path.join(cape, '1_product/1_mvv.md'), 'utf8');
    assert.ok(mvv.startsWith('---\ntype: input\n---\n'), mvv);
    assert.ok(mvv.includes('```bash\nnpm test\n```'), 'inner fences are kept');
    assert.ok(!mvv.includes('```markdown'));
    const persona = fs.readFileSync(path.join(cape, '1_product/2_persona.md'), 'utf8');
    assert.match(persona, /^---\ntype: input\n---\n/);
    assert.deepStrictEqual(res.repaired, ['cape/1_product/2_persona.md', 'cape/3_development/1_architecture.md', 'cape/3_development/2_guideline.md']);

    const failed = Object.fromEntries(res.failed.map((f) => [f.path, f.error]));
    assert.deepStrictEqual(Object.keys(failed).sort(), [
      'cape/1_product/3_milestone.md',
      'cape/1_product/4_backlog.md',
      'cape/2_design/1_principle.md',
      'cape/2_design/2_brand.md',
    ]);
    for (const e of Object.values(failed)) assert.match(e, /even after one repair request[\s\S]*nothing was written/);
    assert.match(failed['cape/1_product/3_milestone.md'], /refused/);
    assert.match(failed['cape/1_product/4_backlog.md'], /empty/);
    assert.match(failed['cape/2_design/1_principle.md'], /cut off/);
    assert.match(failed['cape/2_design/2_brand.md'], /not valid YAML \(line 4/);
    for (const p of Object.keys(failed)) assert.strictEqual(fs.existsSync(path.join(ws, p)), false, `${p} not written`);
    assert.strictEqual(fs.existsSync(marker), false, 'js frontmatter was not evaluated');
    assert.strictEqual(g.__capeInitPwned, undefined);

    // requests: 1 decisions + 9 files + one repair for each of the 3 repaired and the 4 failed files, never a second
    const count = (p: string) => fake.requests.filter((r) => requestedPath(r) === p).length;
    assert.strictEqual(fake.requests.length, 1 + INPUT_CAPE_FILES.length + 7);
    assert.strictEqual(count('1_product/1_mvv.md'), 1, 'a fence alone is stripped without a repair');
    for (const p of ['1_product/2_persona.md', '1_product/3_milestone.md', '2_design/2_brand.md', '3_development/1_architecture.md']) assert.strictEqual(count(p), 2, p);
    // the repair request carries the bad reply and quotes the problem
    const personaRepair = fake.requests.find((r) => requestedPath(r) === '1_product/2_persona.md' && isRepair(r))!;
    const msgs = personaRepair.body.messages as { role: string; content: string }[];
    assert.deepStrictEqual(msgs.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.match(msgs[1].content, /type: draft/);
    assert.match(msgs[2].content, /cannot be saved as cape\/1_product\/2_persona\.md:\n\n> its frontmatter says type: "draft"; it must say type: input/);
    const archRepair = fake.requests.find((r) => requestedPath(r) === '3_development/1_architecture.md' && isRepair(r))!;
    assert.match(userText(archRepair), /characters long; it must stay under 8,000 characters[\s\S]*Be more concise/);
    const backlogRepair = fake.requests.find((r) => requestedPath(r) === '1_product/4_backlog.md' && isRepair(r))!;
    assert.strictEqual(backlogRepair.body.messages.length, 1, 'an empty reply is not sent back as an empty assistant turn');
    assert.match(userText(backlogRepair), /Write cape\/1_product\/4_backlog\.md now\.[\s\S]*> the reply was empty/);

    // a second run in missing-only mode generates exactly the failed files, with the decisions already fixed
    fake.reset();
    fake.setResponder(responder());
    const again = await initCape(opts(ws, { mode: 'missing-only' }));
    assert.deepStrictEqual([...again.written].sort(), Object.keys(failed).sort());
    assert.strictEqual(fake.requests.length, 4, 'no new decisions request: the stored ones are reused');
    for (const r of fake.requests) assert.ok(userText(r).includes(`- glossary: ${DECISION_MARK('glossary')}`));
    assert.deepStrictEqual((await loadCape(cape)).issues, []);
  });

  it('a generated file and init_decisions.md keep no terminal control sequence of the reply (text/controls.ts)', async () => {
    const clipboard = '\u001b]52;c;aGk=\u0007';
    const erase = '\u001b[2K';
    fake.setResponder(
      responder({
        decisions: { text: demoDecisions((k) => `${DECISION_MARK(k)}${clipboard}${erase}`) },
        '1_product/1_mvv.md': { text: goodFile('1_product/1_mvv.md').replace('Product:', `Product:${clipboard}${erase}`) },
      }),
    );
    const ws = workspace();
    const res = await initCape(opts(ws));
    assert.deepStrictEqual(res.failed, []);
    const mvv = fs.readFileSync(path.join(ws, 'cape/1_product/1_mvv.md'), 'utf8');
    const decisions = fs.readFileSync(path.join(ws, 'cape', INIT_DECISIONS_FILE), 'utf8');
    // eslint-disable-next-line no-control-regex
    for (const text of [mvv, decisions]) assert.ok(!/[\u0007\u001b]/.test(text), JSON.stringify(text));
    assert.ok(mvv.includes(`Product: ${ANSWERS.product}`), mvv);
    assert.ok(decisions.includes(DECISION_MARK('stack')), decisions);
  });

  it('a refused reply (stop_reason "refusal") fails its file saying so, without a repair of the refused turn', async () => {
    // the API's safety classifier stopped the reply: it is neither "empty" nor something a repair request can fix
    fake.setResponder(responder({ '1_product/2_persona.md': { text: '---\ntype: input\n---\n# Per', stopReason: 'refusal' } }));
    const ws = workspace();
    const res = await initCape(opts(ws));
    assert.deepStrictEqual(res.failed.map((f) => f.path), ['cape/1_product/2_persona.md']);
    assert.match(res.failed[0].error, /^the model refused to write it \(stop_reason "refusal"\): reword the answers it may have declined, then fill the missing files with `cape init --missing-only`/);
    assert.match(res.failed[0].error, /nothing was written$/);
    assert.strictEqual(fake.requests.filter((r) => requestedPath(r) === '1_product/2_persona.md').length, 1, 'no repair request');
    assert.strictEqual(fs.existsSync(path.join(ws, 'cape/1_product/2_persona.md')), false);
    assert.strictEqual(res.written.length, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length - 1);
  });

  it('the decisions reply is checked and repaired once; a still-bad one fails every input file clearly and writes none', async () => {
    const keys = prompts.decisions.map((d) => d.key);
    const partial = keys.slice(0, 3).map((k) => `- ${k}: x`).join('\n');
    fake.setResponder(responder({ decisions: (req) => (isRepair(req) ? { text: '```\n' + demoDecisions(DECISION_MARK) + '\n```' } : { text: partial }) }));
    const ws = workspace();
    const res = await initCape(opts(ws));
    assert.deepStrictEqual(res.failed, []);
    assert.strictEqual(fake.requests.length, 2 + INPUT_CAPE_FILES.length);
    const repair = fake.requests[1];
    assert.ok(isDecisionsRequest(repair.body) && isRepair(repair));
    assert.ok(userText(repair).includes(`these decisions are missing: ${keys.slice(3).join(', ')}`), userText(repair));

    fake.reset();
    fake.setResponder(responder({ decisions: { text: 'I would rather discuss this first.' } }));
    const ws2 = workspace();
    const bad = await initCape(opts(ws2));
    assert.strictEqual(fake.requests.length, 2, 'decisions + one repair, then no file request');
    assert.strictEqual(bad.failed.length, INPUT_CAPE_FILES.length);
    for (const f of bad.failed) assert.match(f.error, /not generated: the shared decisions could not be fixed: .*even after one repair request: these decisions are missing/);
    assert.strictEqual(bad.written.length, GENERIC_CAPE_FILES.length, 'only the templates');
    for (const p of INPUT_CAPE_FILES) assert.ok(!fs.existsSync(path.join(ws2, 'cape', p)));
    assert.ok(!fs.existsSync(path.join(ws2, 'cape', INIT_DECISIONS_FILE)));
  });

  it('fail-if-exists refuses an existing cape/ before calling the model', async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, 'cape', '5_sessions'), { recursive: true });
    await assert.rejects(initCape(opts(ws)), /cape\/ already exists[\s\S]*missing-only/);
    assert.strictEqual(fake.requests.length, 0);
    assert.deepStrictEqual(listAll(path.join(ws, 'cape')), ['5_sessions']);
  });

  it('without answers (or without a model) only templates may be written: a run that would generate an input file names it and writes nothing', async () => {
    const ws = workspace();
    await assert.rejects(initCape(opts(ws, { answers: null })), /cape\/1_product\/1_mvv\.md, .* are to be written from the questionnaire's answers, and none were given; nothing was written/);
    await assert.rejects(initCape(opts(ws, { llm: null })), /by a model, and no model client was given; nothing was written/);
    assert.ok(!fs.existsSync(path.join(ws, 'cape')), 'no cape/ folder created');
    assert.strictEqual(fake.requests.length, 0);
  });

  it('missing-only keeps existing files; overwrite replaces them but never touches sessions', async () => {
    fake.setResponder(responder());
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
    assert.strictEqual(fake.requests.length, 1 + INPUT_CAPE_FILES.length - 1, 'decisions (none stored yet) + the missing files');
    // the decisions request quotes the kept input file, so the new files agree with it; a fresh run quotes none
    const decisionsReq = fake.requests.find((r) => isDecisionsRequest(r.body))!;
    assert.match(userText(decisionsReq), /<existing_file path="cape\/1_product\/1_mvv\.md">\nMINE\n<\/existing_file>/);
    assert.strictEqual((userText(decisionsReq).match(/<existing_file /g) ?? []).length, 1);
    assert.match(fs.readFileSync(path.join(cape, '1_product', '1_mvv.md'), 'utf8'), /MINE/);
    assert.match(fs.readFileSync(path.join(cape, '0_team', '3_dor.md'), 'utf8'), /MY DOR/);

    fake.reset();
    fake.setResponder(responder({ decisions: { text: demoDecisions((k) => `NEW-${k}`) } }));
    const over = await initCape(opts(ws, { mode: 'overwrite' }));
    assert.strictEqual(fake.requests.length, 1 + INPUT_CAPE_FILES.length, 'overwrite fixes the decisions again');
    assert.match(fs.readFileSync(path.join(cape, INIT_DECISIONS_FILE), 'utf8'), /- glossary: NEW-glossary/);
    assert.deepStrictEqual(over.skipped, []);
    assert.strictEqual(over.written.length, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length);
    assert.ok(fs.readFileSync(path.join(cape, '1_product', '1_mvv.md'), 'utf8').includes(MARKER));
    assert.ok(!fs.readFileSync(path.join(cape, '0_team', '3_dor.md'), 'utf8').includes('MY DOR'));
    assert.strictEqual(fs.readFileSync(path.join(cape, '5_sessions', 'retrospective', 'kpt_merged.md'), 'utf8'), 'HISTORY\n');
  });

  it('cancellation stops further files and leaves only complete files', async () => {
    // slow streams so that several calls are in flight when the user cancels
    fake.setResponder((req) => {
      const p = requestedPath(req);
      return { text: p === 'decisions' ? demoDecisions() : goodFile(p) + 'x'.repeat(200), chunkSize: 10, chunkDelayMs: 15 };
    });
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
      return responder()(req);
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
    fake.setResponder(responder());
    const ws = workspace();
    const badClient = new AnthropicClient({ apiKey: 'sk-ant-wrong', baseURL: fake.url, maxRetries: 0 });
    const res = await initCape(opts(ws, { llm: badClient, concurrency: 2 }));
    assert.strictEqual(res.failed.length, INPUT_CAPE_FILES.length);
    assert.ok(fake.requests.length <= 2, `made ${fake.requests.length} requests`);
    assert.ok(res.failed.every((f) => /key/i.test(f.error)), res.failed[0].error);
    assert.strictEqual(res.written.length, GENERIC_CAPE_FILES.length, 'templates need no model');
  });

  it('the cape folder is a single name for init as for the sessions: a nested one is refused by both, as a result by runSession', async () => {
    const ws = workspace();
    for (const capeFolder of ['docs/cape', 'team/', 'docs\\cape']) {
      await assert.rejects(initCape(opts(ws, { capeFolder })), new RegExp(`^Error: Invalid CAPE folder name .*: use a single folder name such as "cape"\\.$`), capeFolder);
      assert.throws(() => new SessionStore(ws, capeFolder), /Invalid CAPE folder name/);
      const res = await runSession({ workspace: ws, capeFolder, objective: 'x', model: 'm', llm, prompts });
      assert.strictEqual(res.ok, false);
      assert.deepStrictEqual(res.error, { step: null, kind: 'config', message: `Invalid CAPE folder name ${JSON.stringify(capeFolder)}: use a single folder name such as "cape".` });
    }
    assert.deepStrictEqual(fs.readdirSync(ws), [], 'nothing written');
    assert.strictEqual(fake.requests.length, 0);
  });

  it('rejects unsafe cape folders and bad options', async () => {
    const ws = workspace();
    for (const capeFolder of ['../outside', '/abs', 'a/../../b', '.git/cape', '', '.git', '.']) {
      await assert.rejects(initCape(opts(ws, { capeFolder })), /Invalid CAPE folder name/, capeFolder);
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
    assert.deepStrictEqual(fromJson, {
      product: 'P',
      users: 'U',
      problem: 'Q',
      features: '- a\n- b',
      uiLanguage: '',
      stack: '',
      hosting: '',
      testTooling: '',
      teamSize: '',
      designFeel: '',
    });
    const fromYaml = parseAnswersFile('product: P\nusers: U\nproblem: Q\ndesign_feel: calm\nstack: Go\nfeatures: |\n  one\n  two\n');
    assert.strictEqual(fromYaml.designFeel, 'calm');
    assert.strictEqual(fromYaml.stack, 'Go');
    assert.strictEqual(fromYaml.features, 'one\ntwo');
    const newKeys = parseAnswersFile('product: P\nusers: U\nproblem: Q\nfeatures: F\nui_language: ja\nhosting: Fly.io\ntest-tooling: Vitest\nteam_size: 2\n');
    assert.deepStrictEqual([newKeys.uiLanguage, newKeys.hosting, newKeys.testTooling, newKeys.teamSize], ['ja', 'Fly.io', 'Vitest', '2']);
  });

  it('an unrecognised key (a misspelt optional answer) is an error naming it and the keys there are, not dropped', () => {
    assert.throws(
      () => parseAnswersFile('product: P\nusers: U\nproblem: Q\nfeatures: F\nhostng: Fly.io\n'),
      (e: Error) => /unrecognised answer key\(s\): "hostng"; nothing was written/.test(e.message) && /hosting/.test(e.message),
    );
    assert.throws(() => normaliseAnswers({ product: 'P', users: 'U', problem: 'Q', features: 'F', 'tech-stack': 'Go' }), /"tech-stack"/);
    // every spelling of a known key still works
    assert.strictEqual(normaliseAnswers({ product: 'P', users: 'U', problem: 'Q', features: 'F', 'Design Feel': 'calm', TEAM_SIZE: 3 }).teamSize, '3');
  });

  it('an answers file from before the new questions (no UI language, hosting, tests, team) still works', () => {
    const old = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../test/demo/answers.json'), 'utf8'));
    assert.deepStrictEqual(Object.keys(old).sort(), ['designFeel', 'features', 'problem', 'product', 'stack', 'users']);
    const a = normaliseAnswers(old);
    assert.strictEqual(a.product, old.product);
    for (const id of ['uiLanguage', 'hosting', 'testTooling', 'teamSize'] as const) assert.strictEqual(a[id], '');
    const prompts = loadPromptAssets(defaultPromptsDir());
    const req = buildInitRequest(prompts.inputs.find((i) => i.path === '3_development/1_architecture.md')!, { answers: a, language: 'English', model: 'm', prompts, decisions: {} });
    assert.match(contentText(req.messages[0].content), /<answer id="hosting"[^>]*>\n\(not answered: use the shared decision on this where there is one; otherwise propose a sensible choice/);
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
      decisions: { product_name: 'uses {{path}} too' },
    });
    const sys = req.system.map((b) => b.text).join('\n');
    assert.deepStrictEqual(promptVariables(sys), []);
    assert.match(sys, /Japanese/);
    for (const s of spec.sections) assert.ok(sys.includes(s));
    assert.ok(contentText(req.messages[0].content).includes('uses {{language}} literally'));
    assert.ok(contentText(req.messages[0].content).includes('<shared_decisions>\n- product_name: uses {{path}} too\n</shared_decisions>'));
    assert.ok(req.maxTokens > 1000);
    assert.match(sys, /under 8,000 characters/);
    // "self-contained" and "do not repeat" are one rule: refer to the owning file by path
    assert.match(sys, /refer to that file by its path/);
    assert.doesNotMatch(sys, /do not repeat their content/);

    const dreq = buildDecisionsRequest({ answers: ANSWERS, language: 'Japanese', model: 'm', prompts });
    const dsys = dreq.system.map((b) => b.text).join('\n');
    assert.deepStrictEqual(promptVariables(dsys), []);
    for (const d of prompts.decisions) assert.ok(dsys.includes(`- ${d.key}: ${d.meaning}`));
    for (const i of prompts.inputs) assert.ok(dsys.includes(`cape/${i.path}`));
    assert.ok(dreq.maxTokens < req.maxTokens, 'the decisions request is small');
  });

  it('stripWrappingFence only removes a fence around the whole reply', () => {
    assert.strictEqual(stripWrappingFence('```md\n# A\n```'), '# A');
    assert.strictEqual(stripWrappingFence('Here is the file:\n~~~markdown\n# A\n~~~\n'), '# A');
    assert.strictEqual(stripWrappingFence('# A\n```ts\ncode\n```'), '# A\n```ts\ncode\n```');
    assert.strictEqual(stripWrappingFence('---\ntype: input\n---\n```\nx\n```'), '---\ntype: input\n---\n```\nx\n```');
    assert.strictEqual(stripWrappingFence('Here it is:\n\n  ```` Markdown \r\n# A\r\n```\r\nb\r\n  ````  '), '# A\r\n```\r\nb');
    assert.strictEqual(stripWrappingFence('```md\n# A\n````'), '```md\n# A\n````', 'closed by another run: not a wrapping fence');
    assert.strictEqual(stripWrappingFence('```js\nx\n```'), '```js\nx\n```', 'code, not a document');
  });

  it('stripWrappingFence reads a fence line followed by a long run of spaces in linear time', () => {
    // A megabyte of spaces: the regex over the whole reply that backtracked quadratically there (1.3 s at 40,000)
    // takes minutes (the suite's timeout fails the test), reading line by line milliseconds. No time is asserted here.
    const run = ' '.repeat(1_000_000);
    for (const reply of ['```' + run + 'x\n# A\n```', 'Here:\n```' + run + 'x']) assert.strictEqual(stripWrappingFence(reply), reply.trim());
  });

  it('checkInputReply: what passes, what is tidied, and each problem it names', () => {
    const prompts = loadPromptAssets(defaultPromptsDir());
    const spec = prompts.inputs.find((i) => i.path === '1_product/1_mvv.md')!;
    const good = demoInputFile(spec.path, ANSWERS);
    const ok = checkInputReply(good, spec, 'end_turn', 8192);
    assert.ok(ok.ok);
    if (ok.ok) assert.strictEqual(ok.value, good.endsWith('\n') ? good : good + '\n');
    // a wrapping fence alone is tidied, not a problem
    const fenced = checkInputReply('Here it is:\n```markdown\n' + good + '\n```', spec, 'end_turn', 8192);
    assert.ok(fenced.ok && fenced.value.startsWith('---\ntype: input\n---') && fenced.notes.length === 1);
    const problems = (text: string, stop: string | null = 'end_turn') => {
      const c = checkInputReply(text, spec, stop, 8192);
      assert.ok(!c.ok, `expected problems for ${JSON.stringify(text.slice(0, 60))}`);
      return c.ok ? '' : c.problems.join('\n');
    };
    assert.match(problems(''), /empty/);
    assert.match(problems(good.replace(/^---\ntype: input\n---\n/, '')), /does not start with the frontmatter \(it starts with "# Mvv"\)/);
    assert.match(problems(good.replace('type: input', 'type: generic')), /type: "generic"; it must say type: input/);
    assert.match(problems(good.replace('type: input', 'title: x')), /type: null/);
    assert.match(problems('---javascript\n{}\n---\n' + good.slice(20)), /refused/);
    assert.match(problems('---\ntype: input\n---\n\n   \n'), /no content after the frontmatter/);
    assert.match(problems('---\ntype: input\n---\n# Mission\nShort.\n'), /only \d+ characters long/);
    assert.match(problems(good + 'y'.repeat(INPUT_FILE_MAX_CHARS)), /characters long; it must stay under 8,000/);
    assert.match(problems(good, 'max_tokens'), /cut off at the output limit \(8192 tokens\)/);
    // headings: each required section needs one; headings inside code blocks do not count
    const noSections = `---\ntype: input\n---\n\n# Mission\n\n${'Text without sections. '.repeat(30)}\n\`\`\`\n## not a heading\n## nor this\n## nor this\n## nor this\n## nor this\n\`\`\`\n`;
    assert.match(problems(noSections), new RegExp(`1 markdown heading\\(s\\), but each of the ${spec.sections.length} required sections`));
    const repair = inputRepairPrompt(spec, ['its frontmatter says type: "generic"; it must say type: input']);
    assert.match(repair, /^Your reply cannot be saved as cape\/1_product\/1_mvv\.md:\n\n> its frontmatter says/);
    assert.match(repair, /Keep your content/);
  });

  it('checkDecisionsReply reads the decision lines, tolerates markdown, and names what is missing', () => {
    const prompts = loadPromptAssets(defaultPromptsDir());
    const specs = prompts.decisions;
    const good = checkDecisionsReply(demoDecisions(), specs, 'end_turn');
    assert.ok(good.ok);
    if (good.ok) {
      assert.deepStrictEqual(Object.keys(good.value), specs.map((d) => d.key));
      assert.strictEqual(formatDecisions(good.value), demoDecisions());
    }
    const styled = specs.map((d, i) => (i % 2 ? `* **${d.key}:** v${i}: with a colon` : `${d.key}: v${i}`)).join('\n');
    const s = checkDecisionsReply('Here are the decisions:\n```\n' + styled + '\n```', specs, 'end_turn');
    assert.ok(s.ok, JSON.stringify(s));
    if (s.ok) assert.strictEqual(s.value[specs[1].key], 'v1: with a colon');
    const bad = checkDecisionsReply(`- ${specs[0].key}:\n- unknown_key: x`, specs, 'max_tokens');
    assert.ok(!bad.ok);
    if (!bad.ok) {
      assert.match(bad.problems.join('\n'), /cut off/);
      assert.match(bad.problems.join('\n'), new RegExp(`missing: ${specs[1].key}`));
      assert.match(bad.problems.join('\n'), new RegExp(`no value: ${specs[0].key}`));
    }
    assert.ok(!checkDecisionsReply('', specs, null).ok);
  });
});

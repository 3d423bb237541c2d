// Context cost (issue 11 §2): each role gets its own domain's project files whole (≤ WHOLE_DOMAIN_LIMIT, else a pack
// keeping every file's opening), the stable parts form cacheable prefixes under 1-hour marks, the client keeps only the
// marks the API honours, and two sessions back to back on the fake's simulated clock read the prefixes from the cache.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadCape } from '../../src/core/cape/assets';
import { buildStepContext, STABLE_CONTEXT_HEADING, WHOLE_DOMAIN_LIMIT, type ContextInputs } from '../../src/core/session/context';
import { minifyMarkdown } from '../../src/core/session/packing';
import { defaultPromptsDir, loadPromptAssets, renderPrompt, templateBodies } from '../../src/core/cape/prompts';
import { parseReply } from '../../src/core/reply/parser';
import { toPromptParams, toSystemParam } from '../../src/core/llm/anthropic/client';
import { billedInputTokens, costUsd, minCacheableTokens } from '../../src/core/llm/pricing';
import { STEP_IDS, type ChatMessage, type Envelope, type StepId } from '../../src/core/model/types';
import { startFakeAnthropic } from '../fake-anthropic';
import { loadRecordedSessions, originalProjectDir } from '../helpers/fixtures';
import { replayRecordedSession } from '../helpers/replay';

const prompts = loadPromptAssets(defaultPromptsDir());
const sessions = loadRecordedSessions()
  .filter((s) => s.complete && s.steps.length === 5)
  .sort((a, b) => a.taskId.localeCompare(b.taskId));

async function originalAssets(): Promise<Map<string, string>> {
  const cape = await loadCape(path.join(originalProjectDir(), 'cape'));
  const assets = new Map<string, string>();
  for (const f of cape.files.values()) assets.set(f.relPath, f.body);
  for (const [rel, body] of templateBodies(prompts)) if (!assets.has(rel)) assets.set(rel, body);
  return assets;
}

function inputs(step: StepId, assets: Map<string, string>, over: Partial<ContextInputs> = {}): ContextInputs {
  const s = sessions[0];
  const envelopes: Partial<Record<StepId, Envelope>> = {};
  for (const st of s.steps) {
    if (st.step === step) break;
    const p = parseReply(st.step, st.raw);
    if (!p.ok) throw new Error(p.error);
    envelopes[st.step] = p.reply.envelope;
  }
  return {
    taskId: s.taskId,
    objective: s.objective ?? 'o',
    language: s.language,
    preamble: prompts.preamble,
    rolePrompt: renderPrompt(prompts.roles[step], { language: s.language }),
    assets,
    kptDigest: 'digest',
    kptFull: '',
    envelopes,
    raws: {},
    devaFiles: [],
    devaSummary: null,
    ...over,
  };
}

const all = (ctx: { system: { text: string }[]; user: string }) => ctx.system.map((b) => b.text).join('\n') + ctx.user;

describe('context cost: whole domain files and cacheable prefixes', () => {
  it('on the original project POA gets milestones, backlog and personas whole, DA the brand guide, DevA the architecture', async () => {
    const assets = await originalAssets();
    const expect: Record<string, string[]> = {
      poa: ['1_product/1_mvv.md', '1_product/2_persona.md', '1_product/3_milestone.md', '1_product/4_backlog.md'],
      da: ['2_design/1_principle.md', '2_design/2_brand.md'],
      deva: ['3_development/1_architecture.md', '3_development/3_standards.md'],
    };
    for (const [step, files] of Object.entries(expect)) {
      const ctx = buildStepContext(step as StepId, inputs(step as StepId, assets));
      const stable = ctx.system[2];
      assert.ok(stable.text.startsWith(STABLE_CONTEXT_HEADING) && stable.cache === '1h', `${step}: one stable block under a 1-hour mark`);
      for (const rel of files) {
        const body = minifyMarkdown(assets.get(rel)!);
        assert.ok(body.length > 1000);
        assert.ok(stable.text.includes(`### cape/${rel}\n${body}`), `${step} gets ${rel} whole`);
      }
      assert.ok(!/Not included, to keep within the context budget/.test(all(ctx)), `${step}: nothing left out`);
      // Other roles' domains stay out (need-to-know).
      for (const [other, theirs] of Object.entries(expect)) if (other !== step) for (const rel of theirs) assert.ok(!all(ctx).includes(`cape/${rel}\n`), `${step} must not get ${rel}`);
    }
    // DA still gets POA's work (in the per-step part), the retrospective no file bodies and no project files.
    const da = buildStepContext('da', inputs('da', assets));
    assert.match(da.user, /## POA's acceptance criteria/);
    const retro = buildStepContext('cm_retro', inputs('cm_retro', assets));
    assert.strictEqual(retro.system.length, 2, 'the retrospective has no project files');
    assert.ok(!all(retro).includes('### cape/'));
  });

  it('the cached prefix is the same in every session: no task id, objective or upstream work before the last mark', async () => {
    const assets = await originalAssets();
    for (const step of STEP_IDS) {
      const a = buildStepContext(step, inputs(step, assets));
      const b = buildStepContext(step, inputs(step, assets, { taskId: 'task-other', objective: 'A completely different objective', envelopes: {} }));
      assert.deepStrictEqual(b.system, a.system, `${step}: system blocks identical across sessions`);
      assert.ok(a.system.every((x) => x.cache === '1h'), `${step}: every system block ends a 1-hour mark`);
      assert.ok(a.user.startsWith(`Task: ${sessions[0].taskId}\n`), step);
      assert.ok(!a.system.some((x) => x.text.includes(sessions[0].taskId)), step);
    }
  });

  it('domain files over the limit are packed within it, each keeping its opening, in the per-step part', async () => {
    const assets = await originalAssets();
    const filler = (title: string, n: number) =>
      `# ${title}\nThe opening paragraph of ${title}.\n\n` + Array.from({ length: n }, (_, i) => `## Section ${i}\n${'Details of the product. '.repeat(40)}`).join('\n\n');
    assets.set('1_product/3_milestone.md', filler('Milestones', 30));
    assets.set('1_product/4_backlog.md', filler('Backlog', 30));
    const ctx = buildStepContext('poa', inputs('poa', assets));
    const part = /## Product context \(cape\/1_product\)\n([\s\S]*)/.exec(ctx.user)?.[1] ?? '';
    assert.ok(part.length > 0 && part.length <= WHOLE_DOMAIN_LIMIT + 200, `${part.length}`);
    for (const t of ['Milestones', 'Backlog']) assert.ok(part.includes(`The opening paragraph of ${t}.`), `${t} keeps its opening`);
    assert.ok(part.includes('Not included, to keep within the context budget'), 'what is left out is named');
    assert.ok(!ctx.system.some((b) => b.text.includes('## Product context')), 'a pack made for this work is not cached');
  });
});

describe('context cost: cache marks the API honours', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('drops a mark below the model\'s minimum, a 5-minute mark before a 1-hour one, and keeps at most four', () => {
    const marks = (blocks: ReturnType<typeof toSystemParam>) => blocks.map((b) => (b.cache_control ? (b.cache_control.ttl ?? '5m') : '-'));
    // 3,000 characters ≈ 750 tokens: below 1,024 alone, above it with 500 tokens of tools before it.
    assert.deepStrictEqual(marks(toSystemParam([{ text: long(3000), cache: '1h' }, { text: long(3000), cache: '1h' }], { minTokens: 1024 })), ['-', '1h']);
    assert.deepStrictEqual(marks(toSystemParam([{ text: long(3000), cache: '1h' }, { text: long(3000), cache: '1h' }], { minTokens: 1024, prefixTokens: 500 })), ['1h', '1h']);
    assert.deepStrictEqual(marks(toSystemParam([{ text: long(3000), cache: '1h' }, { text: long(3000), cache: '1h' }], { minTokens: 4096 })), ['-', '-']);
    assert.deepStrictEqual(marks(toSystemParam([{ text: long(5000), cache: true }, { text: long(5000), cache: '1h' }], { minTokens: 1024 })), ['-', '1h']);
    assert.deepStrictEqual(
      marks(toSystemParam([1, 2, 3, 4, 5].map(() => ({ text: long(5000), cache: '1h' as const })), { minTokens: 1024, maxMarks: 3 })),
      ['-', '-', '1h', '1h', '1h'],
    );
    assert.strictEqual(minCacheableTokens('claude-sonnet-4-6'), 1024);
    assert.strictEqual(minCacheableTokens('claude-haiku-4-5'), 4096);
    assert.strictEqual(minCacheableTokens('claude-opus-4-6'), 4096);
    assert.strictEqual(minCacheableTokens('claude-opus-4-1'), 1024);
    assert.strictEqual(minCacheableTokens('claude-3-5-haiku-latest'), 2048);
    assert.strictEqual(minCacheableTokens('gpt-4o'), null);
  });

  it('counts a Japanese prompt by its characters, not as a quarter of them: its marks are kept where it reaches the minimum', () => {
    const marks = (blocks: ReturnType<typeof toSystemParam>) => blocks.map((b) => (b.cache_control ? (b.cache_control.ttl ?? '5m') : '-'));
    const ja = (n: number) => 'あ'.repeat(n);
    // 2,500 Japanese characters are at least 1,250 tokens (the tokenizer gives about one per 1–1.5 characters): a
    // count of chars / 4 (625) took them for too short to cache on Sonnet
    assert.deepStrictEqual(marks(toSystemParam([{ text: ja(2500), cache: '1h' }], { minTokens: 1024 })), ['1h']);
    assert.deepStrictEqual(marks(toSystemParam([{ text: ja(1500), cache: '1h' }], { minTokens: 1024 })), ['-']);
    // mixed: 2,000 ASCII (500) + 1,100 Japanese (550) ≥ 1,024
    assert.deepStrictEqual(marks(toSystemParam([{ text: long(2000) + ja(1100), cache: true }], { minTokens: 1024 })), ['5m']);
    assert.deepStrictEqual(marks(toSystemParam([{ text: ja(2500), cache: '1h' }], { minTokens: 4096 })), ['-']);
    const p = toPromptParams({ model: 'claude-sonnet-4-6', maxTokens: 10, system: [{ text: ja(600) }], messages: [{ role: 'user', content: ja(1600) }], cacheLastMessage: true });
    assert.deepStrictEqual((p.messages[0].content as any)[0].cache_control, { type: 'ephemeral' }, 'the whole prompt (1,100 tokens at least) reaches the minimum');
  });

  it('marks the last message of a later turn (5 minutes) when the whole prompt reaches the minimum', () => {
    const req = {
      model: 'claude-sonnet-4-6',
      maxTokens: 10,
      system: [{ text: long(6000), cache: '1h' as const }],
      messages: [
        { role: 'user' as const, content: 'first' },
        { role: 'assistant' as const, content: 'reply' },
        { role: 'user' as const, content: 'repair' },
      ],
      cacheLastMessage: true,
    };
    const p = toPromptParams(req);
    assert.deepStrictEqual((p.messages[2].content as any)[0].cache_control, { type: 'ephemeral' });
    assert.strictEqual(typeof p.messages[0].content, 'string');
    const small = toPromptParams({ ...req, system: [{ text: 'tiny', cache: '1h' }] });
    assert.strictEqual(typeof small.messages[2].content, 'string', 'below the minimum: no mark');
  });

  it("a tool loop's turn of ten calls and their results keeps the mark of the turn before, which the API's lookback no longer reaches", async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.setResponder(() => ({ text: 'ok' }));
      const usage = async (params: object) => {
        const res = await fetch(fake.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }, body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, ...params }) });
        return ((await res.json()) as any).usage;
      };
      const tools = [{ name: 'read_file', description: 'Read a file', inputSchema: { properties: { path: { type: 'string' } } } }];
      const system = [{ text: long(5000), cache: '1h' as const }, { text: long(3000), cache: '1h' as const }, { text: long(6000), cache: '1h' as const }];
      const work = { role: 'user' as const, content: long(8000) };
      const turn = (n: number, from: number) => [
        { role: 'assistant' as const, content: Array.from({ length: n }, (_, i) => ({ type: 'tool_use' as const, id: `t${from + i}`, name: 'read_file', input: { path: `f${from + i}.js` } })) },
        { role: 'user' as const, content: Array.from({ length: n }, (_, i) => ({ type: 'tool_result' as const, toolUseId: `t${from + i}`, content: `text of f${from + i}.js`, isError: false })) },
      ];
      const req = (messages: ChatMessage[]) => ({ model: 'claude-sonnet-4-6', maxTokens: 10, system, tools, messages, cacheLastMessage: true });
      const marked = (p: ReturnType<typeof toPromptParams>) => p.messages.map((m) => (typeof m.content !== 'string' && (m.content as any[]).some((b) => b.cache_control) ? 'm' : '-')).join('');
      const first = toPromptParams(req([work]));
      await usage(first);
      // three calls: the lookback from the new mark reaches the turn before's
      const narrow = toPromptParams(req([work, ...turn(3, 0)]));
      assert.strictEqual(marked(narrow), '--m');
      assert.strictEqual((narrow.system as any[]).filter((b) => b.cache_control).length, 3);
      const read = (await usage(narrow)).cache_read_input_tokens;
      // eleven calls and their eleven results: past the lookback, so the message before them keeps its mark, the system one fewer
      const wide = toPromptParams(req([work, ...turn(3, 0), ...turn(11, 3)]));
      assert.strictEqual(marked(wide), '--m-m');
      assert.strictEqual((wide.system as any[]).filter((b) => b.cache_control).length, 2);
      const u = await usage(wide);
      assert.ok(u.cache_read_input_tokens > read, `the whole conversation before the wide turn is read: ${u.cache_read_input_tokens} > ${read}`);
      // without the kept mark the fake (as the API) finds nothing within 20 blocks, and writes it all again
      const unbridged = { ...wide, messages: wide.messages.map((m, i) => (i === 2 ? { ...m, content: (m.content as any[]).map(({ cache_control: _c, ...b }) => b) } : m)) };
      const fresh = await startFakeAnthropic();
      try {
        fresh.setResponder(() => ({ text: 'ok' }));
        for (const p of [first, narrow]) await fetch(fresh.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }, body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, ...p }) });
        const res = await fetch(fresh.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }, body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, ...unbridged }) });
        const v = ((await res.json()) as any).usage;
        assert.ok(v.cache_read_input_tokens < u.cache_read_input_tokens, `unbridged: ${v.cache_read_input_tokens}`);
      } finally {
        await fresh.close();
      }
    } finally {
      await fake.close();
    }
  });

  it('bills 1-hour writes at 2×, 5-minute writes at 1.25× and reads at 0.1×', () => {
    const u = { inputTokens: 100, outputTokens: 0, cacheCreationInputTokens: 300, cacheCreation1hInputTokens: 200, cacheReadInputTokens: 1000 };
    assert.strictEqual(billedInputTokens(u), 100 + 1.25 * 100 + 2 * 200 + 0.1 * 1000);
    assert.ok(Math.abs(costUsd('claude-sonnet-4-6', u)! - (100 * 3 + 100 * 3.75 + 200 * 6 + 1000 * 0.3) / 1e6) < 1e-15);
  });
});

describe('context cost: sessions back to back on the simulated clock', function () {
  this.timeout(120000);

  it('the second session reads each step\'s stable prefix from the 1-hour entries the first one wrote', async () => {
    const fake = await startFakeAnthropic({ chunkSize: 4096, simulatedClock: { msPerRequest: 90_000 } });
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-cost-'));
    try {
      fs.cpSync(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'), { recursive: true });
      const run = async (s: (typeof sessions)[number]) => {
        const replayed = await replayRecordedSession(fake, ws, s, prompts);
        assert.ok(replayed.res.ok, replayed.res.error?.message);
        return replayed;
      };
      const one = await run(sessions[0]);
      const two = await run(sessions[1]);
      assert.strictEqual(one.reqs.length, 5);
      assert.strictEqual(two.reqs.length, 5);
      for (let i = 0; i < 5; i++) {
        const w = one.reqs[i].usage!;
        assert.ok(w.cache_creation!.ephemeral_1h_input_tokens > 1024, `session 1 ${STEP_IDS[i]} writes a 1-hour entry`);
        const r = two.reqs[i].usage!;
        assert.ok(r.cache_read_input_tokens >= w.cache_creation!.ephemeral_1h_input_tokens, `session 2 ${STEP_IDS[i]} reads it`);
      }
      // The engine records the 1-hour writes, and its cost counts them at 2×.
      const poa = one.res.metrics!.perStep.poa!;
      assert.strictEqual(poa.usage.cacheCreation1hInputTokens, one.reqs[1].usage!.cache_creation!.ephemeral_1h_input_tokens);
      const billed = (reqs: typeof one.reqs) =>
        reqs.reduce((n, r) => n + billedInputTokens({ inputTokens: r.usage!.input_tokens, outputTokens: 0, cacheCreationInputTokens: r.usage!.cache_creation_input_tokens, cacheCreation1hInputTokens: r.usage!.cache_creation!.ephemeral_1h_input_tokens, cacheReadInputTokens: r.usage!.cache_read_input_tokens }), 0);
      const raw = (reqs: typeof one.reqs) => reqs.reduce((n, r) => n + r.usage!.input_tokens + r.usage!.cache_creation_input_tokens + r.usage!.cache_read_input_tokens, 0);
      assert.ok(billed(two.reqs) < 0.4 * raw(two.reqs), `session 2 pays ${billed(two.reqs)} of ${raw(two.reqs)} input tokens`);
    } finally {
      await fake.close();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

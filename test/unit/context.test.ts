// The need-to-know matrix on real recorded sessions: each agent gets what its role needs and nothing it does not.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { loadCape } from '../../src/core/cape/assets';
import { buildStepContext, CONTEXT_MATRIX, domainFolderReaders, minifyMarkdown, packAssets, renderSources, type ContextInputs } from '../../src/core/session/context';
import { kptDigest, KPT_DIGEST_CHARS, parseKpt } from '../../src/core/kpt';
import { parseReply } from '../../src/core/reply/parser';
import { defaultPromptsDir, loadPromptAssets, renderPrompt, templateBodies } from '../../src/core/cape/prompts';
import type { Envelope, StepId } from '../../src/core/model/types';
import { loadRecordedSessions, originalProjectDir } from '../helpers/fixtures';
import { watchOutRoles } from '../../src/core/session/watchOuts';

const prompts = loadPromptAssets(defaultPromptsDir());

async function inputsFor(steps: { step: StepId; raw: string }[], upTo: StepId): Promise<ContextInputs> {
  const cape = await loadCape(path.join(originalProjectDir(), 'cape'));
  const assets = new Map<string, string>();
  for (const f of cape.files.values()) assets.set(f.relPath, f.body);
  for (const [rel, body] of templateBodies(prompts)) if (!assets.has(rel)) assets.set(rel, body);
  const kptFull = fs.readFileSync(path.join(originalProjectDir(), 'cape/5_sessions/retrospective/kpt_merged.md'), 'utf8');
  const envelopes: Partial<Record<StepId, Envelope>> = {};
  const raws: Partial<Record<StepId, string>> = {};
  let files: { path: string; content: string }[] = [];
  let summary: string | null = null;
  for (const s of steps) {
    if (s.step === upTo) break;
    const p = parseReply(s.step, s.raw);
    if (!p.ok) throw new Error(`fixture ${s.step} does not parse: ${p.error}`);
    envelopes[s.step] = p.reply.envelope;
    raws[s.step] = s.raw;
    if (s.step === 'deva') {
      files = p.reply.files;
      summary = p.reply.summary;
    }
  }
  return {
    taskId: 'task-x',
    objective: 'objective text',
    language: 'Japanese',
    preamble: prompts.preamble,
    rolePrompt: renderPrompt(prompts.roles[upTo], { language: 'Japanese', task_id: 'task-x' }),
    assets,
    kptDigest: kptDigest(parseKpt(kptFull)),
    kptFull,
    workspace: (step) => (step === 'deva' ? 'src/index.ts' : ''),
    envelopes,
    raws,
    devaFiles: files.map((f) => ({ path: f.path, relPath: f.path, action: 'create' as const, status: 'proposed' as const, content: f.content })),
    devaSummary: summary,
  };
}

function text(ctx: { system: { text: string }[]; user: string }): string {
  return ctx.system.map((b) => b.text).join('\n') + '\n' + ctx.user;
}

describe('context: need-to-know per agent', () => {
  const sessions = loadRecordedSessions().filter((s) => s.complete && s.steps.length === 5);

  it('the matrix keeps file bodies from the retro and the whole KPT history from CM', () => {
    assert.ok(!CONTEXT_MATRIX.cm_retro.some((s) => s.startsWith('assets:') || s.startsWith('workspace:')));
    assert.ok(CONTEXT_MATRIX.cm_open.includes('kptDigest'));
  });

  it("CM's opening says which role receives which cape/ folder, as the matrix gives them", () => {
    assert.deepStrictEqual([...domainFolderReaders()], [
      ['1_product', ['POA']],
      ['2_design', ['DA']],
      ['3_development', ['DevA']],
    ]);
    const files = renderSources('cm_open', ['cape:files'], { envelopes: {}, assets: new Map([['1_product/1_mvv.md', 'x']]) } as unknown as ContextInputs);
    assert.match(files, /Each role receives only its own folder \(POA: cape\/1_product\/; DA: cape\/2_design\/; DevA: cape\/3_development\/\)/);
  });

  it("the workspace sections state the step's tool bounds; DA's with no UI or product source files says where to look when it has tools", () => {
    const base = { envelopes: {}, assets: new Map(), objective: 'x' } as unknown as ContextInputs;
    const bounds = { maxCalls: 5, maxChars: 20000 };
    const daNone = renderSources('da', ['workspace:ui'], { ...base, workspace: () => '', toolBounds: bounds });
    assert.match(daNone, /^## Workspace interface \(UI files; without them, the code users call\)\nYour tools in this step: at most 5 calls and 20,000 characters of results in all; the calls of one turn run together\./);
    assert.match(daNone, /\(no UI or product source files found by name: list or search the workspace for what the user meets\)$/);
    assert.strictEqual(renderSources('da', ['workspace:ui'], { ...base, workspace: () => '' }), '', 'no tools, no UI files: no section');
    const daMap = renderSources('da', ['workspace:ui'], { ...base, workspace: () => 'src/app.css — .btn', toolBounds: { maxCalls: 1, maxChars: 100 } });
    assert.match(daMap, /at most 1 call and 100 characters[^\n]*\n\nsrc\/app\.css — \.btn$/);
    const deva = renderSources('deva', ['workspace:ranked'], { ...base, workspace: () => '### src/a.ts', toolBounds: bounds });
    assert.match(deva, /\nYour tools in this step: at most 5 calls[^\n]*\n\n### src\/a\.ts$/);
    assert.ok(!renderSources('deva', ['workspace:ranked'], { ...base, workspace: () => '### src/a.ts' }).includes('Your tools'), 'without tools nothing is said of them');
  });

  it("DevA receives POA's open questions, named and with DA's answers, as the ones not to raise again; none, no section", () => {
    const poa = { output: { user_stories: [], open_questions: ['Is the limit 1000 for every user?', { question: 'Does the API accept 1000 characters?' }] } };
    const da = { output: { component_specs: [], answered_questions: [{ question: 'POA-Q1', answer: 'Yes: one constant.', evidence: 'src/form.vue:3' }] } };
    const inputs = { envelopes: { poa, da }, assets: new Map(), objective: 'x' } as unknown as ContextInputs;
    assert.ok(CONTEXT_MATRIX.deva.includes('poa:questions') && !CONTEXT_MATRIX.da.includes('poa:questions'), 'DA has them in POA\'s scope');
    assert.strictEqual(
      renderSources('deva', ['poa:questions'], inputs),
      "## POA's open questions (already with the human)\n- POA-Q1: Is the limit 1000 for every user? — answered by DA: Yes: one constant. (src/form.vue:3)\n- POA-Q2: Does the API accept 1000 characters?",
    );
    assert.strictEqual(renderSources('deva', ['poa:questions'], { ...inputs, envelopes: { poa: { output: { user_stories: [] } } } } as unknown as ContextInputs), '');
    assert.strictEqual(renderSources('deva', ['poa:questions'], { ...inputs, envelopes: {} } as unknown as ContextInputs), '');
  });

  it("each role receives the Cape Master's watch-outs that name it, and those for the whole team", () => {
    assert.deepStrictEqual(watchOutRoles('Scope creep (POA, DevA): titles only.'), ['POA', 'DevA']);
    assert.deepStrictEqual(watchOutRoles('Folder disagreement (DevA): the standards ask for `yarn lint`.'), ['DevA']);
    assert.deepStrictEqual(watchOutRoles('Role overlap (DA): naming is DA’s, but DevA must not rename.'), ['DA', 'DevA'], 'named in the text too');
    assert.deepStrictEqual(watchOutRoles('Scope creep (all): no new formatting rules; DevA implements only --check.'), ['POA', 'DA', 'DevA']);
    assert.deepStrictEqual(watchOutRoles('後方互換性：既存の出力はそのまま保つこと（POA は受け入れ基準に、DevA はテストに）'), ['POA', 'DevA']);
    assert.deepStrictEqual(watchOutRoles('The objective names no persona.'), ['POA', 'DA', 'DevA'], 'naming no role: the whole team');
    // role names in the cases people write them
    assert.deepStrictEqual(watchOutRoles('Scope creep (Design Agent): no new colours.'), ['DA']);
    assert.deepStrictEqual(watchOutRoles('Tests first (Development Agent, Product Owner).'), ['POA', 'DevA']);
    assert.deepStrictEqual(watchOutRoles('Naming (designer, DEVELOPER): one word each.'), ['DA', 'DevA']);
    assert.deepStrictEqual(watchOutRoles('A data layer and a dev server: the words are not roles.'), ['POA', 'DA', 'DevA']);
    const watch_out = ['Scope creep (POA, DevA): titles only.', 'Folder disagreement (DevA): yarn or npm.', 'Brand (DA): sentence case.', 'History: back must leave the page.'];
    const inputs = { envelopes: { cm_open: { output: { watch_out } } }, assets: new Map(), objective: 'x' } as unknown as ContextInputs;
    const got = (step: StepId) => renderSources(step, ['cm:watchOuts'], inputs);
    assert.strictEqual(got('poa'), '## Watch out\n- Scope creep (POA, DevA): titles only.\n- History: back must leave the page.');
    assert.strictEqual(got('da'), '## Watch out\n- Brand (DA): sentence case.\n- History: back must leave the page.');
    assert.strictEqual(got('deva'), '## Watch out\n- Scope creep (POA, DevA): titles only.\n- Folder disagreement (DevA): yarn or npm.\n- History: back must leave the page.');
    for (const step of ['da', 'deva'] as const) assert.ok(CONTEXT_MATRIX[step].includes('cm:watchOuts'), `${step} has the source`);
    assert.strictEqual(renderSources('deva', ['cm:watchOuts'], { ...inputs, envelopes: { cm_open: { output: { watch_out: ['Brand (DA): x.'] } } } } as unknown as ContextInputs), '', 'none for DevA: no section');
  });

  for (const s of sessions) {
    const json = (i: number) => {
      const p = parseReply(s.steps[i].step, s.steps[i].raw);
      if (!p.ok) throw new Error(p.error);
      return p.reply;
    };

    it(`${s.taskId}: each agent gets its own coaching note, not the others'`, async () => {
      const cm = json(0).envelope.output as any;
      for (const [step, agent] of [['poa', 'POA'], ['da', 'DA'], ['deva', 'DevA']] as const) {
        const t = text(buildStepContext(step, await inputsFor(s.steps, step)));
        assert.ok(t.includes(cm.coaching_notes[agent]), `${agent} receives its coaching note`);
        for (const other of ['POA', 'DA', 'DevA'].filter((a) => a !== agent)) {
          assert.ok(!t.includes(cm.coaching_notes[other]), `${agent} must not receive ${other}'s note`);
        }
      }
    });

    it(`${s.taskId}: DA and DevA get POA's work but not POA's voice or self-assessment`, async () => {
      const poa = json(1).envelope;
      for (const step of ['da', 'deva'] as const) {
        const t = text(buildStepContext(step, await inputsFor(s.steps, step)));
        assert.ok(!t.includes(poa.voice), `${step} must not receive POA's voice`);
        assert.ok(!t.includes(poa.ass!.improvement), `${step} must not receive POA's ass`);
        // At least one acceptance-criterion string reaches both.
        const ac = JSON.stringify(poa.output).match(/"(?:then|Then|受け入れ[^"]*)":\s*"([^"]{10,})"/);
        if (ac) assert.ok(t.includes(ac[1]), `${step} receives POA's acceptance criteria`);
      }
    });

    it(`${s.taskId}: the retro gets every voice and DevA's file list, never file bodies`, async () => {
      const inputs = await inputsFor(s.steps, 'cm_retro');
      const t = text(buildStepContext('cm_retro', inputs));
      for (const i of [1, 2, 3]) assert.ok(t.includes(JSON.stringify(json(i).envelope.voice).slice(1, -1)), `voice ${i}`);
      const deva = json(3);
      for (const f of deva.files) {
        assert.ok(t.includes(f.path), `file ${f.path} listed`);
        const line = f.content.split('\n').find((l) => l.trim().length > 40);
        if (line) assert.ok(!t.includes(line) && !t.includes(JSON.stringify(line).slice(1, -1)), `body of ${f.path} leaked`);
      }
    });

    it(`${s.taskId}: CM gets a bounded KPT digest, not the whole history`, async () => {
      const inputs = await inputsFor(s.steps, 'cm_open');
      const ctx = buildStepContext('cm_open', inputs);
      assert.ok(inputs.kptDigest.length > 0 && inputs.kptDigest.length <= KPT_DIGEST_CHARS);
      assert.ok(ctx.user.includes(inputs.kptDigest));
      assert.ok(!ctx.user.includes(inputs.kptFull));
      assert.ok(ctx.passedChars < ctx.baselineChars);
    });
  }

  it('packAssets keeps everything when it fits and names what it leaves out otherwise', () => {
    const files: [string, string][] = [
      ['3_development/a.md', '# A\nintro\n\n## Storage\nlocalStorage adapter details\n\n## Animations\n' + 'keyframes and easing; '.repeat(10)],
    ];
    assert.ok(packAssets(files, 10000, 'x').includes('keyframes and easing'));
    const small = packAssets(files, 160, 'localStorage adapter');
    assert.ok(small.length <= 160);
    assert.ok(small.includes('intro'));
    assert.ok(small.includes('localStorage adapter details'), 'the relevant section wins');
    assert.ok(!small.includes('keyframes and easing'));
    assert.match(small, /Not included, to keep within the context budget: Animations\)/);
    assert.ok(!/open_questions/.test(small), 'no promise that someone will fetch the rest');
  });

  it('minifyMarkdown drops only layout noise', () => {
    assert.strictEqual(minifyMarkdown('a  \n\n\n\n---\nb\n| x   |  y |\n|:-----|-----:|'), 'a\n\nb\n| x | y |\n|---|---|');
  });

  it('minifyMarkdown leaves fenced code as written: a YAML document separator, an ASCII diagram drawn with pipes', () => {
    const code = ['```yaml', '---', 'name: app', '---', 'name: worker', '```', '', '```', '|  Presentation   |', '|   +------+      |', '|  Domain         |', '```'].join('\n');
    assert.strictEqual(minifyMarkdown(`# Architecture\n\n${code}\n\n---\n| a  |  b |`), `# Architecture\n\n${code}\n\n| a | b |`);
  });

  it('minifyMarkdown reads a line with a long run of spaces or tabs inside it once: only the trailing ones go (audit: 100 KB took 4 s)', () => {
    for (const run of [' '.repeat(1_000_000), ' \t'.repeat(500_000)]) {
      assert.strictEqual(minifyMarkdown(`# a\na${run}b\n`), `# a\na${run}b`);
      assert.strictEqual(minifyMarkdown(`# a\na${run}b${run}\nc\t \n`), `# a\na${run}b\nc`);
    }
  });
});

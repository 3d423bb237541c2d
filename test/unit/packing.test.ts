// Packing project files into a step's budget: headings travel with their bodies and parents, nothing exceeds its
// budget, code fences are not headings, and the retrospective sees each agent's questions and self-assessment whole.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { buildStepContext, retroAgentDigest, roleSection, WHOLE_DOMAIN_LIMIT, type ContextInputs } from '../../src/core/session/context';
import * as packing from '../../src/core/session/packing';
import { packAssets, splitSections } from '../../src/core/session/packing';
import { clip } from '../../src/core/session/clip';
import { defaultPromptsDir, loadPromptAssets, renderPrompt, templateBodies } from '../../src/core/cape/prompts';
import type { Envelope } from '../../src/core/model/types';
import { validateEnvelope } from '../../src/core/reply/envelope';
import { originalProjectDir } from '../helpers/fixtures';
import { contextInputs } from '../helpers/contextInputs';
import { DOD_FILE, DOR_FILE, GENERIC_CAPE_FILES, PROCESS_FILE } from '../../src/core/cape/capeLayout';
import { renderSource } from '../../src/core/session/sources';
import { fenceTracker } from '../../src/core/text/markdown';
import { watchOutRoles } from '../../src/core/session/watchOuts';

const PERSONAS = `# Personas

Who we build for.

## Primary Persona: Yuki
### Profile
Yuki is a 28-year-old designer who plans her week on Sunday.
### Pain Points
Yuki forgets recurring chores.

## Secondary Persona: Hana
### Profile
Hana is a student juggling lectures and a part-time job.

## Tertiary Persona: Kenji
### Profile
Kenji is a minimalist engineer who wants due dates and keyboard shortcuts.
### Pain Points
Kenji dislikes clutter.`;

const BRAND = `# Brand
Calm and precise.

## Color Palette
### Core Colors
Primary #5B4FE9, accent #FF6B9D.
### Neutral Colors
Grey 100 #F5F5F7.

## Typography
### Font Selection
Inter for UI text, 16px base.

## Development Guideline`;

/** For every heading in the packed text, the nearest shallower heading above it (its parent as the reader sees it). */
function parentsAsRead(packed: string): Map<string, string> {
  const out = new Map<string, string>();
  const stack: { level: number; title: string }[] = [];
  for (const s of splitSections(packed)) {
    if (!s.level) continue;
    while (stack.length && stack[stack.length - 1].level >= s.level) stack.pop();
    out.set(`${s.title}|${s.body.slice(0, 30)}`, stack.length ? stack[stack.length - 1].title : '');
    stack.push({ level: s.level, title: s.title });
  }
  return out;
}

/** Headings that carry nothing: no body and no subsection with a body under them. */
function emptyHeadings(packed: string): string[] {
  const sections = splitSections(packed);
  const carries = sections.map((s) => !!s.body && s.level > 0);
  for (let i = sections.length - 1; i >= 0; i--) {
    if (carries[i] && sections[i].parent >= 0) carries[sections[i].parent] = true;
  }
  return sections.filter((s, i) => s.level > 0 && !carries[i] && !s.title.startsWith('cape/')).map((s) => s.title);
}

describe('section packing', () => {
  it('keeps a section under its own parent heading, never under the previous one', () => {
    for (const budget of [260, 320, 400, 520]) {
      const packed = packAssets([['1_product/2_persona.md', PERSONAS]], budget, 'Kenji due dates keyboard shortcuts');
      assert.ok(packed.length <= budget, `${packed.length} > ${budget}`);
      assert.ok(packed.includes('Kenji is a minimalist engineer'), `budget ${budget}: the relevant profile is kept\n${packed}`);
      const parents = parentsAsRead(packed);
      for (const [key, parent] of parents) {
        if (key.startsWith('Profile|Kenji')) assert.strictEqual(parent, 'Tertiary Persona: Kenji', packed);
        if (key.startsWith('Profile|Hana')) assert.strictEqual(parent, 'Secondary Persona: Hana', packed);
        if (key.startsWith('Profile|Yuki')) assert.strictEqual(parent, 'Primary Persona: Yuki', packed);
      }
    }
  });

  it('never sends a heading without its body, and keeps the heading with the body', () => {
    for (let budget = 150; budget < BRAND.length; budget += 15) {
      const packed = packAssets([['2_design/2_brand.md', BRAND]], budget, 'primary accent colour');
      assert.ok(packed.length <= budget);
      assert.deepStrictEqual(emptyHeadings(packed), [], `budget ${budget}:\n${packed}`);
      if (packed.includes('#5B4FE9')) assert.match(packed, /## Color Palette\n\n### Core Colors\nPrimary #5B4FE9/);
    }
    // A title-only section ("## Development Guideline") is named as left out, not sent empty.
    const packed = packAssets([['2_design/2_brand.md', BRAND]], 200, 'colour');
    assert.ok(!/^## Development Guideline$/m.test(packed));
  });

  it('keeps the original project files well-formed at every budget', () => {
    const dir = path.join(originalProjectDir(), 'cape');
    const files: [string, string][] = ['1_product/2_persona.md', '2_design/2_brand.md', '3_development/3_standards.md'].map((rel) => [
      rel,
      fs.readFileSync(path.join(dir, rel), 'utf8').replace(/^---[\s\S]*?---\n/, ''),
    ]);
    for (const budget of [2000, 5000, 8000, 12000]) {
      const packed = packAssets(files, budget, 'タスクに期限日を設定 due date overdue colour test runner');
      assert.ok(packed.length <= budget, `${packed.length} > ${budget}`);
      assert.deepStrictEqual(emptyHeadings(packed), [], `budget ${budget}`);
      for (const [key, parent] of parentsAsRead(packed)) {
        if (key.startsWith('Profile|')) {
          const who = /Yuki|Hana|Kenji/.exec(key.slice(8))?.[0];
          if (who) assert.ok(parent.includes(who), `budget ${budget}: ${key} under "${parent}"`);
        }
      }
    }
  });

  it('a 28 MB file does not blow a 12 K budget, nor the role\'s 32 K domain limit, and neither does a huge team file', function () {
    this.timeout(60000);
    const huge = '# Huge\n' + 'A generated line of product text that goes on. '.repeat(600000);
    assert.ok(huge.length > 28_000_000);
    const packed = packAssets([['1_product/1_mvv.md', huge], ['1_product/2_persona.md', PERSONAS]], 12000, 'Kenji');
    assert.ok(packed.length <= 12000, `${packed.length}`);
    assert.ok(packed.includes('Kenji is a minimalist engineer'), 'the other file still gets its share');
    assert.match(packed, /cut to fit the context budget/);

    const prompts = loadPromptAssets(defaultPromptsDir());
    const assets = new Map<string, string>(templateBodies(prompts));
    assets.set('1_product/1_mvv.md', huge);
    assets.set('0_team/3_dor.md', '# Definition of Ready\n## POA\n' + '- [ ] an item that never ends. '.repeat(100000));
    const inputs: ContextInputs = {
      taskId: 't',
      objective: 'o',
      language: 'English',
      preamble: prompts.preamble,
      rolePrompt: renderPrompt(prompts.roles.poa, { language: 'English', task_id: 't' }),
      assets,
      kptDigest: '',
      kptFull: '',
      workspace: () => '',
      envelopes: {},
      raws: {},
      devaFiles: [],
      devaSummary: null,
    };
    const ctx = buildStepContext('poa', inputs);
    // The packed product files (within WHOLE_DOMAIN_LIMIT) go in the user message; the team parts are bounded too.
    const sent = ctx.user.length + ctx.system.reduce((n, b) => n + b.text.length, 0) - prompts.preamble.length - inputs.rolePrompt.length;
    assert.ok(sent < WHOLE_DOMAIN_LIMIT + 2 * 4000 + 2000, `POA's context is ${sent} characters`);
    assert.ok(ctx.user.includes('### cape/1_product/1_mvv.md\n# Huge'), 'packed (not whole) product files are per step, in the user message');
  });

  it("a step packs its role's domain files once: for its text and for whether it is the same every session", () => {
    const mutable = packing as unknown as { packAssets: typeof packAssets };
    const real = mutable.packAssets;
    const calls: number[] = [];
    mutable.packAssets = (files, budget, query, focus) => (calls.push(budget), real(files, budget, query, focus));
    try {
      const inputs = contextInputs('poa', {});
      inputs.assets.set('1_product/2_persona.md', PERSONAS.repeat(200)); // too big to send whole
      inputs.assets.set('2_design/1_principle.md', '# Principles\n\nCalm.\n'); // not POA's
      const ctx = buildStepContext('poa', inputs);
      assert.ok(ctx.user.includes('### cape/1_product/2_persona.md'), 'packed for the work, in the user message');
      // the whole text (to see it is too big), then the packing: once each
      assert.deepStrictEqual(calls, [Infinity, WHOLE_DOMAIN_LIMIT]);
      calls.length = 0;
      inputs.assets.set('1_product/2_persona.md', PERSONAS);
      const small = buildStepContext('poa', inputs);
      assert.ok(small.system[2].text.includes('### cape/1_product/2_persona.md'), 'whole: stable, in the system prompt');
      assert.deepStrictEqual(calls, [Infinity]);
    } finally {
      mutable.packAssets = real;
    }
  });

  it('an opening cut inside fenced code closes the fence, so the next file is not read as code', () => {
    const schema = '# Architecture\n\nThe storage schema:\n\n```sql\n' + Array.from({ length: 200 }, (_, i) => `CREATE TABLE t${i} (id INTEGER PRIMARY KEY);`).join('\n') + '\n```\n';
    const files: [string, string][] = [['3_development/1_architecture.md', schema], ['3_development/3_standards.md', '# Standards\n\nRun `npm test` before every commit.\n']];
    for (const budget of [1500, 3000, 6000]) {
      const packed = packAssets(files, budget, 'test');
      assert.ok(packed.length <= budget, `${packed.length} > ${budget}`);
      assert.match(packed, /cut to fit the context budget/);
      // every fence opened is closed before the next file's header
      const beforeNext = packed.slice(0, packed.indexOf('### cape/3_development/3_standards.md'));
      assert.strictEqual((beforeNext.match(/^```/gm) ?? []).length % 2, 0, `budget ${budget}: an open fence swallows the next file\n${beforeNext.slice(-200)}`);
      assert.ok(packed.includes('Run `npm test` before every commit.'));
    }
  });

  it('a file that leaves a fence open is closed at its end, whole or packed, and so is a team part', () => {
    // every line after `marker` is outside fenced code
    const outsideFrom = (text: string, marker: string) => {
      const outside = fenceTracker();
      let seen = false;
      for (const line of text.split('\n')) {
        const out = outside(line);
        if (line.includes(marker)) seen = true;
        if (seen && !out) return false;
      }
      return seen;
    };
    const open = '# Notes\n\nThe config:\n\n~~~~yaml\nname: todo\n\n## Not a heading\nport: 80\n';
    const files: [string, string][] = [['1_product/0_notes.md', open], ['1_product/1_mvv.md', '# Vision\n\nTasks done on time.\n\n## Mission\nHelp busy people.\n']];
    for (const budget of [Infinity, 200, 400]) {
      const packed = packAssets(files, budget, 'mission');
      assert.ok(packed.length <= budget, `${packed.length} > ${budget}`);
      assert.ok(outsideFrom(packed, '### cape/1_product/1_mvv.md'), `budget ${budget}: the fence swallows the next file\n${packed}`);
    }
    // the Definition of Ready's part for a role, then the Definition of Done
    const inputs = contextInputs('poa', {});
    inputs.assets.set(DOR_FILE, '# Definition of Ready\n\n## POA\n- the persona is known\n\n```\nexample');
    inputs.assets.set(DOD_FILE, '# Definition of Done\n\n## POA\n- the criteria are testable\n');
    const ctx = buildStepContext('poa', inputs);
    const system = ctx.system.map((b) => b.text).join('\n');
    assert.ok(outsideFrom(system, '## Definition of Done'), system);
  });

  it('clip cuts at a sentence or line end within the limit', () => {
    assert.strictEqual(clip('short', 10), 'short');
    const c = clip('First sentence. Second sentence that is long. Third one.', 40);
    assert.strictEqual(c, 'First sentence. […]');
    const ja = clip('期限日を設定できる。期限切れは赤で示す。詳細は別途。', 20);
    assert.ok(ja.length <= 20 && ja.endsWith('。 […]'), ja);
    // no boundary at all: the hard cut moves off the middle of an emoji
    const hard = clip('😀'.repeat(30), 25);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(hard) && hard.length <= 25, JSON.stringify(hard));
  });
});

describe('roleSection', () => {
  const DOR = [
    '# Definition of Ready',
    '## POA',
    '- [ ] personas known',
    '```sh',
    '# DevA runs this before starting',
    'npm test',
    '```',
    '- [ ] open decisions listed',
    '## DA',
    '- [ ] criteria have ids',
  ].join('\n');

  it('does not treat a # line inside a code fence as a heading', () => {
    const poa = roleSection(DOR, 'POA');
    assert.ok(poa.includes('- [ ] open decisions listed'), poa);
    assert.ok(poa.includes('# DevA runs this before starting'));
    assert.ok(!poa.includes('criteria have ids'));
    // No DevA heading outside the fence: DevA gets the whole document, not the fenced comment.
    assert.strictEqual(roleSection(DOR, 'DevA'), DOR);
  });

  it('knows the roles by the names the watch-outs know them by, Japanese too (one definition)', () => {
    const ja = ['# 準備完了の定義', '## セッション（CM）', '- 目的が明確', '## プロダクトオーナー', '- ペルソナが特定できる', '## デザイナー', '- デザイン原則がある', '## 開発者', '- アーキテクチャがある'].join('\n');
    assert.strictEqual(roleSection(ja, 'POA'), '## プロダクトオーナー\n- ペルソナが特定できる');
    assert.strictEqual(roleSection(ja, 'DA'), '## デザイナー\n- デザイン原則がある');
    assert.strictEqual(roleSection(ja, 'DevA'), '## 開発者\n- アーキテクチャがある');
    const en = ['## Product Owner', '- a', '## Design agent', '- b', '## DEVELOPER', '- c', '## Da capo', '- d'].join('\n');
    assert.strictEqual(roleSection(en, 'DA'), '## Design agent\n- b');
    assert.strictEqual(roleSection(en, 'DevA'), '## DEVELOPER\n- c');
    // a watch-out is read by the same names
    assert.deepStrictEqual(watchOutRoles('（デザイナー）コントラスト不足に注意'), ['DA']);
    assert.deepStrictEqual(watchOutRoles('Scope creep (Design agent, product owner): …'), ['POA', 'DA']);
  });
});

describe('retrospective inputs', () => {
  const longDecision = 'We keep the repository pattern and add a due-date field to the stored task record. '.repeat(40);
  const questions = [
    'Should overdue tasks sort to the top of the list, or keep the user\'s manual order? POA did not decide this.',
    'The brand guide names no colour for an error or warning state; I used the accent pink with an icon. Please confirm.',
  ];
  const deva: Envelope = {
    agent: 'DevA',
    role: 'Developer Agent',
    task_id: 't',
    voice: 'I added due dates end to end.',
    output: {
      architecture_decisions: Array.from({ length: 8 }, (_, i) => ({ decision: `Decision ${i}`, reason: longDecision })),
      file_list: [{ path: 'src/a.ts', action: 'create', purpose: longDecision, acceptance_criteria: ['AC-1'] }],
      test_strategy: longDecision,
      departures: ['The date picker is a native input, not the custom calendar DA specified, because the project has no date library.'],
      open_questions: questions,
    },
    references: ['POA:AC-1', 'DA:component/DueDateField'],
    confidence: 3,
    ass: {
      score: 3,
      positive: 'The storage change is small and backward compatible.',
      improvement: 'I could not see the existing list component, so the overdue badge is not wired into it. ' + 'More detail. '.repeat(10),
      context_adequate: false,
    },
  };

  it('gets open questions, departures and the self-assessment whole, not a prefix of the output', () => {
    const digest = retroAgentDigest(deva);
    assert.deepStrictEqual(digest.open_questions, questions);
    assert.deepStrictEqual(digest.departures, (deva.output as any).departures);
    assert.deepStrictEqual(digest.ass, deva.ass);
    assert.strictEqual(digest.voice, deva.voice);
    assert.ok(JSON.stringify(digest.delivered).length <= 2000, 'the output outline is bounded');
    assert.ok(JSON.stringify(digest).includes('src/a.ts'));
  });

  it('bounds a huge question without cutting it mid-sentence', () => {
    const huge = 'This is a sentence about the overdue rule. '.repeat(200);
    const digest = retroAgentDigest({ ...deva, output: { open_questions: [huge, 'A short second question?'] } });
    const [first, second] = digest.open_questions as string[];
    assert.ok(first.length <= 600 && first.endsWith('rule. […]'), first.slice(-40));
    assert.strictEqual(second, 'A short second question?');
  });

  it('reaches the retrospective request', () => {
    const prompts = loadPromptAssets(defaultPromptsDir());
    const ctx = buildStepContext('cm_retro', {
      taskId: 't',
      objective: 'o',
      language: 'English',
      preamble: prompts.preamble,
      rolePrompt: renderPrompt(prompts.roles.cm_retro, { language: 'English', task_id: 't' }),
      assets: new Map(),
      kptDigest: '',
      kptFull: '',
      workspace: () => '',
      envelopes: { deva },
      raws: {},
      devaFiles: [],
      devaSummary: null,
    });
    for (const q of questions) assert.ok(ctx.user.includes(JSON.stringify(q).slice(1, -1)), q);
    assert.ok(ctx.user.includes('native input, not the custom calendar'));
    assert.ok(ctx.user.includes('so the overdue badge is not wired into it'));
    assert.ok(!/characters omitted/.test(ctx.user));
  });
});

describe('prompts keep only promises the session can keep (trial findings)', () => {
  const prompts = loadPromptAssets(defaultPromptsDir());
  const all = [prompts.preamble, ...Object.values(prompts.roles), ...[...templateBodies(prompts).values()]].join('\n');

  it('never tells an agent to ask for something in open_questions as if someone would answer', () => {
    assert.ok(!/ask (for it |for them )?in open_questions/i.test(all));
    assert.match(prompts.preamble, /Nobody answers questions during the session/);
  });

  it('the team parts quote the shipped DoR, DoD and process files, named once in cape/assets.ts', () => {
    const prompts = loadPromptAssets(defaultPromptsDir());
    const assets = new Map<string, string>(templateBodies(prompts));
    const inputs: ContextInputs = { taskId: 't', objective: 'o', language: 'English', preamble: '', rolePrompt: '', assets, kptDigest: '', kptFull: '', workspace: () => '', envelopes: {}, raws: {}, devaFiles: [], devaSummary: null };
    for (const [source, file] of [['team:dor', DOR_FILE], ['team:dod', DOD_FILE], ['team:process', PROCESS_FILE]] as const) {
      assert.ok((GENERIC_CAPE_FILES as readonly string[]).includes(file), file);
      const body = assets.get(file) ?? '';
      assert.ok(body.trim(), `${file} is shipped in prompts/templates/`);
      const text = renderSource(source, 'cm_open', inputs);
      assert.ok(text.includes(`cape/${file}`), text.slice(0, 200));
      const heading = body.split('\n').find((l) => l.startsWith('#')) ?? '';
      assert.ok(heading && text.includes(heading), `${source} quotes ${file}`);
    }
  });

  it('gives dor_check.passed one meaning in the Definition of Ready and in the reply format', () => {
    const dor = templateBodies(prompts).get('0_team/3_dor.md')!;
    assert.match(dor, /`dor_check\.passed` is true only when all of them hold/);
    assert.match(prompts.roles.cm_open, /`dor_check\.passed` is true only when every Session item of the Definition of Ready holds/);
    assert.ok(!/too vague to start/.test(all));
  });

  it('cites the team files by one path', () => {
    for (const m of all.matchAll(/`?(?:cape\/)?0_team\/\d_d[oa][rd]\.md/g)) assert.match(m[0], /^`?cape\/0_team\/(3_dor|4_dod)\.md$/, m[0]);
  });

  it("CM's go-ahead is validated, reaches DA, DevA and the retrospective, never POA", () => {
    const v = validateEnvelope('cm_open', {
      agent: 'CM',
      role: 'Cape Master',
      task_id: 't',
      voice: 'v',
      output: {
        session_brief: 'b',
        dor_check: { passed: false, concerns: ['c'] },
        watch_out: [],
        coaching_notes: { POA: 'p', DA: 'd', DevA: 'x' },
        go_ahead: { pre_approved: ['New components for the due date'], needs_approval: ['Changing the stored task shape'] },
      },
      references: [],
      confidence: 4,
      ass: { score: 4, positive: '', improvement: '', context_adequate: true },
    });
    assert.ok(v.ok, v.ok ? '' : v.error);
    const opening = v.ok ? v.envelope : (null as never);
    const inputs = (step: 'poa' | 'da' | 'deva' | 'cm_retro') => contextInputs(step, { cm_open: opening }, 'o');
    const deva = buildStepContext('deva', inputs('deva')).user;
    assert.match(deva, /## Cape Master's go-ahead\nPre-approved[^\n]*\n- New components for the due date\n[\s\S]*- Changing the stored task shape/);
    // DA designs within it too (a React trial's DA had to guess whether the shared colours needed approval)
    assert.match(buildStepContext('da', inputs('da')).user, /## Cape Master's go-ahead\nPre-approved[^\n]*\n- New components for the due date\n[\s\S]*- Changing the stored task shape/);
    assert.doesNotMatch(buildStepContext('poa', inputs('poa')).user, /go-ahead/);
    assert.match(buildStepContext('cm_retro', inputs('cm_retro')).user, /"go_ahead":\{"pre_approved":\["New components/);
    // An opening without a go-ahead (older sessions) still validates and adds nothing.
    const old = validateEnvelope('cm_open', { ...(opening as any), output: { ...(opening.output as any), go_ahead: undefined } });
    assert.ok(old.ok);
  });
});

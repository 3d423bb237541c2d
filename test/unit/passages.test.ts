// The passages of the cape/ files that speak of the objective, in the Cape Master's opening only (session/passages.ts).
import * as assert from 'assert';
import { objectivePassages, OBJECTIVE_PASSAGES_CHARS } from '../../src/core/session/passages';
import { sectionEntries, storyBlocks } from '../../src/core/session/sectionEntries';
import { projectOutline } from '../../src/core/session/outline';
import { CUT } from '../../src/core/session/clip';
import { buildStepContext, CONTEXT_MATRIX, renderSources, type ContextInputs } from '../../src/core/session/context';
import { STEP_IDS, type StepId } from '../../src/core/model/types';
import { contextInputs } from '../helpers/contextInputs';

const HEADER = '## Passages of the cape/ files that speak of this objective (whole sections, or the entries of a list of them, best first)';
const OBJECTIVE = 'Remove the referrer and campaign query fields from shared links';

/** A list of `n` invented items on `topic`, long enough that the outline shows only its start. */
const items = (n: number, topic: string) => Array.from({ length: n }, (_, i) => `- ${topic} note ${i + 1}, written out in enough words to take a line.`).join('\n');

const backlog = [
  '# Backlog',
  '## Current release',
  items(6, 'Parsing'),
  '## Put off',
  items(4, 'Sorting'),
  '- Dropping the referrer and campaign query fields from links waits for the next major release.',
].join('\n\n');
const design = ['# Principles', '## Naming', items(6, 'Naming'), 'Helpers that build links read like verbs.', '## Layout', items(5, 'Layout')].join('\n\n');
const guideline = ['# Guideline', '## Tests', items(6, 'Testing'), '## Compatibility', 'Keep every exported helper as it is.', 'The query fields of a link stay untouched until the next major release.'].join('\n\n');
const FILES: [string, string][] = [
  ['cape/1_product/4_backlog.md', backlog],
  ['cape/2_design/1_principle.md', design],
  ['cape/3_development/2_guideline.md', guideline],
];
const passages = (files: [string, string][], objective: string, budget?: number) => objectivePassages(files, objective, projectOutline(files), budget);
const headings = (text: string) => text.split('\n').filter((l) => l.startsWith('### '));

/** A step's context inputs (the real prompts) with these project files and this objective. */
const inputsWith = (assets: Map<string, string>, objective: string, step: StepId = 'cm_open'): ContextInputs => ({ ...contextInputs(step, {}, objective), assets });

describe("the objective's passages of the cape/ files (CM opening)", () => {
  it('the sections that go against the objective come first, each under its file and heading path (a list by the items that speak of it); an unrelated one sharing a word comes last', () => {
    const out = passages(FILES, OBJECTIVE);
    assert.deepStrictEqual(headings(out), [
      '### cape/1_product/4_backlog.md › Backlog › Put off',
      '### cape/3_development/2_guideline.md › Guideline › Compatibility',
      '### cape/2_design/1_principle.md › Principles › Naming',
    ]);
    assert.ok(out.includes(`### cape/1_product/4_backlog.md › Backlog › Put off\n- Dropping the referrer`), out);
    assert.ok(!out.includes('Parsing note') && !out.includes('Layout note') && !out.includes('Testing note'), 'no section without a word of the objective');
    assert.ok(!out.includes('Sorting note') && !out.includes('Naming note'), "a list's items that do not speak of the objective are left out");
    // with room for one, the one that puts the objective off
    assert.deepStrictEqual(headings(passages(FILES, OBJECTIVE, 160)), ['### cape/1_product/4_backlog.md › Backlog › Put off']);
  });

  it("a section that lists labelled entries (a backlog epic's stories) gives the entries that speak of the objective, under one heading, in its order", () => {
    const story = (id: string, title: string, text: string) => `**${id} — ${title}** · P1\nAs a maintainer, I want ${text}.\n\n- Given an input, when I call it, then ${text}.`;
    const epic = [
      '# Backlog',
      '## Epics',
      '### Epic C — Later',
      'Stories after this release.',
      story('US-007', 'Drop referrer fields', 'the referrer query field dropped from shared links'),
      story('US-008', 'Compare ignoring order', `two versions compared ${'whatever their order '.repeat(30)}`),
      story('US-009', 'Drop campaign fields', 'the campaign query field dropped from shared links'),
    ].join('\n\n');
    assert.deepStrictEqual(storyBlocks(epic.split('### Epic C — Later\n\n')[1]).map((b) => b.slice(0, 12)), ['Stories afte', '**US-007 — D', '**US-008 — C', '**US-009 — D']);
    assert.deepStrictEqual(storyBlocks('No labels here.\n\n- a list\n- of items'), ['No labels here.\n\n- a list\n- of items']);
    // a bold line inside a code fence, or continuing a paragraph, starts no entry
    const fenced = 'Intro.\n\n```md\n\n**US-1 — in a fence**\n```\n\nText\n**not a label**\n\n**US-2 — Real** · P1\nIts text.';
    assert.deepStrictEqual(storyBlocks(fenced), ['Intro.\n\n```md\n\n**US-1 — in a fence**\n```\n\nText\n**not a label**', '**US-2 — Real** · P1\nIts text.']);
    const out = passages([['cape/1_product/4_backlog.md', epic]], OBJECTIVE);
    assert.deepStrictEqual(headings(out), ['### cape/1_product/4_backlog.md › Backlog › Epics › Epic C — Later']);
    assert.ok(out.indexOf('US-007') > 0 && out.indexOf('US-009') > out.indexOf('US-007'), out);
    assert.ok(!out.includes('US-008'), 'the entry that does not speak of the objective is left out');
  });

  it("a table's rows and a list's items are entries of their own: only those that speak of the objective, a table's header once", () => {
    const adr = [
      '# Architecture',
      '## Decisions',
      'What we decided, and why.',
      '',
      '| # | Decision | Reason |',
      '|---|---|---|',
      '| D-1 | One named export per helper | Tree-shaking |',
      '| D-2 | Referrer fields stay in links | Analytics reads them |',
      '| D-3 | Strings in, strings out | Predictable results |',
      '| D-4 | Campaign fields are dropped only in the next major release | No result may change in 1.x |',
      '',
      '- First, a list item about parsing.',
      '  Its second line, indented.',
      '',
      '- A list item about the referrer field,',
      '  continued on an indented line.',
      '- A last item about layout.',
    ].join('\n');
    const out = passages([['cape/3_development/1_architecture.md', adr]], OBJECTIVE);
    assert.strictEqual(
      out,
      [
        '### cape/3_development/1_architecture.md › Architecture › Decisions',
        '| # | Decision | Reason |',
        '|---|---|---|',
        '| D-2 | Referrer fields stay in links | Analytics reads them |',
        '| D-4 | Campaign fields are dropped only in the next major release | No result may change in 1.x |',
        '',
        '- A list item about the referrer field,',
        '  continued on an indented line.',
      ].join('\n'),
    );
    assert.deepStrictEqual(
      sectionEntries(adr.split('## Decisions\n')[1]).map((e) => [e.text.slice(0, 14), e.group ?? null]),
      [
        ['What we decide', null],
        ['| D-1 | One na', 0],
        ['| D-2 | Referr', 0],
        ['| D-3 | String', 0],
        ['| D-4 | Campai', 0],
        ['- First, a lis', 1],
        ['- A list item ', 1],
        ['- A last item ', 1],
      ],
    );
    // a list item that leaves a fence open (its closing fence unindented, so outside the item) has it closed: the
    // next passage's heading is not read as code
    const fenced = passages([['cape/1_product/a.md', '# A\n## Referrer\n- Drop the referrer:\n  ```sh\n  curl x\n```\n\n- Other item.\n## Campaign\nCampaign fields go.\n\nLater.']], OBJECTIVE);
    assert.ok(/- Drop the referrer:\n {2}```sh\n {2}curl x\n```\n/.test(fenced), fenced);
    // a story keeps its criteria list; a table inside a code fence is no table
    assert.strictEqual(sectionEntries('**US-1 — Drop fields** · P1\nAs a user…\n\n- Given a, then b.\n- Given c, then d.').length, 1);
    assert.deepStrictEqual(sectionEntries('```\n| a | b |\n|---|---|\n| 1 | 2 |\n```').map((e) => e.group), [undefined]);
  });

  it('a rare word of the objective weighs more than a common one, and a long entry does not win by bulk', () => {
    const notes = [
      '# Notes',
      ...Array.from({ length: 6 }, (_, i) => `## Area ${i}\nLinks are shared with their query fields.`),
      '## Everything',
      Array.from({ length: 12 }, (_, i) => `Links ${i} are shared by users, and each link keeps its query fields as written by whoever made it.`).join('\n'),
      '## Referrer',
      'The referrer is kept until 2.0.\n\nThe analytics export reads it.',
    ].join('\n\n');
    assert.deepStrictEqual(headings(passages([['cape/1_product/notes.md', notes]], OBJECTIVE))[0], '### cape/1_product/notes.md › Notes › Referrer');
  });

  it('keeps within its budget: whole passages while they fit, then one cut at a line end; a huge heading clipped', () => {
    const many = Array.from({ length: 30 }, (_, i) => `## Links ${i}\n${items(5, `Campaign field ${i}`)}`).join('\n\n');
    const out = passages([['cape/1_product/links.md', many]], OBJECTIVE);
    assert.ok(out.length <= OBJECTIVE_PASSAGES_CHARS && out.length > OBJECTIVE_PASSAGES_CHARS - 600, `${out.length}`);
    const parts = out.split('\n\n');
    for (const p of parts.slice(0, -1)) assert.ok(many.includes(p.replace(/^### cape\/1_product\/links\.md › /, '## ')), `whole: ${p.slice(0, 60)}`);
    // one section far over the budget: a list gives whole items while they fit; a paragraph is cut at a line end, marked
    const list = passages([['cape/1_product/list.md', `## Campaign fields\n${items(400, 'Referrer')}`]], OBJECTIVE);
    assert.ok(list.length <= OBJECTIVE_PASSAGES_CHARS && list.length > OBJECTIVE_PASSAGES_CHARS - 100 && !list.endsWith(CUT), `${list.length}`);
    assert.ok(items(400, 'Referrer').startsWith(list.split('\n').slice(1).join('\n')), 'the first items, whole, in order');
    const huge = `## Campaign fields\n${items(400, 'Referrer').replace(/^- /gm, '')}`;
    const cut = passages([['cape/1_product/huge.md', huge]], OBJECTIVE);
    assert.ok(cut.length <= OBJECTIVE_PASSAGES_CHARS && cut.endsWith(CUT), `${cut.length}`);
    for (const line of cut.slice(0, -CUT.length).split('\n').slice(1)) assert.ok(huge.includes(`${line}\n`), `a whole line: ${line}`);
    const longHeading = passages([['cape/1_product/h.md', `## ${'campaign '.repeat(500)}\n${items(8, 'Referrer')}`]], OBJECTIVE);
    assert.ok(headings(longHeading)[0].length <= 300, `${headings(longHeading)[0].length}`);
    assert.ok(passages(FILES, OBJECTIVE, 200).length <= 200);
  });

  it('no section at all when no section holds a word of the objective', () => {
    assert.strictEqual(passages(FILES, 'Add a dark theme toggle'), '');
    assert.strictEqual(passages(FILES, 'Do it all now'), '', 'stop words alone match nothing');
    const assets = new Map(FILES.map(([rel, text]) => [rel.slice('cape/'.length), text]));
    assert.strictEqual(renderSources('cm_open', ['cape:passages'], inputsWith(assets, 'Add a dark theme toggle')), '');
    assert.strictEqual(renderSources('cm_open', ['cape:passages'], inputsWith(new Map(), OBJECTIVE)), '', 'no files, no section');
  });

  it('leaves out a section the outline already shows whole', () => {
    const short = ['# Notes', '## Query fields', 'Campaign fields stay in links for now.', '## Referrer', 'The referrer field stays.', '', 'It is read by the analytics export, and a later release may drop it.'].join('\n');
    const files: [string, string][] = [['cape/1_product/notes.md', short]];
    assert.match(projectOutline(files), /## Query fields: Campaign fields stay in links for now\./);
    assert.deepStrictEqual(headings(passages(files, OBJECTIVE)), ['### cape/1_product/notes.md › Notes › Referrer'], 'the two-paragraph section only');
  });

  it('matches words in scripts written without spaces by their kanji and katakana', () => {
    const files: [string, string][] = [
      ['cape/1_product/4_backlog.md', ['# バックログ', '## 後回し', items(5, '並べ替え'), 'ダークモードは次のメジャーリリースまで対応しない。'].join('\n\n')],
      ['cape/2_design/2_brand.md', ['# ブランド', '## 書体', items(5, '書体')].join('\n\n')],
    ];
    assert.deepStrictEqual(headings(passages(files, 'ダークモードを追加する')), ['### cape/1_product/4_backlog.md › バックログ › 後回し']);
    assert.strictEqual(passages(files, 'ログイン画面を作る'), '');
  });

  it("only CM's opening receives them, in its user message after the cache mark; the cached prefix does not change with the objective", () => {
    for (const step of STEP_IDS) assert.strictEqual(CONTEXT_MATRIX[step].includes('cape:passages'), step === 'cm_open', step);
    const assets = new Map(FILES.map(([rel, text]) => [rel.slice('cape/'.length), text]));
    const line = 'Dropping the referrer and campaign query fields from links waits for the next major release.';
    const opening = buildStepContext('cm_open', inputsWith(assets, OBJECTIVE));
    assert.ok(opening.user.includes(`${HEADER}\n### cape/1_product/4_backlog.md › Backlog › Put off\n`), opening.user);
    assert.ok(opening.user.includes(line));
    assert.ok(opening.system.every((b) => !b.text.includes(HEADER) && !b.text.includes(line)), 'not in the cached prefix');
    const other = buildStepContext('cm_open', inputsWith(assets, 'Add a dark theme toggle'));
    assert.deepStrictEqual(other.system, opening.system, 'the outline stays cached and unchanged');
    assert.ok(!other.user.includes(HEADER));
    for (const step of STEP_IDS.filter((s) => s !== 'cm_open')) {
      const ctx = buildStepContext(step, inputsWith(assets, OBJECTIVE, step));
      assert.ok(!ctx.user.includes(HEADER) && ctx.system.every((b) => !b.text.includes(HEADER)), step);
    }
  });
});

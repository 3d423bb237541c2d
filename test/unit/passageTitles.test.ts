// The objective's passages (session/passages.ts) send first the entries under the title that names the objective —
// its own epic's heading, its story's label (session/passageWords.ts namingTitles) —, even when the cape/ files speak
// of its topic everywhere in short lines that BM25 ranks higher.
import * as assert from 'assert';
import { objectivePassages, OBJECTIVE_PASSAGES_CHARS } from '../../src/core/session/passages';
import { matchWords, namingTitles, sameRoot } from '../../src/core/session/passageWords';
import { entryLabel } from '../../src/core/session/sectionEntries';
import { projectOutline } from '../../src/core/session/outline';

const passages = (files: [string, string][], objective: string) => objectivePassages(files, objective, projectOutline(files));
const headings = (text: string) => text.split('\n').filter((l) => l.startsWith('### '));

const PIN = 'Pin a note to the top of its notebook so it stays above the other notes';
const EPIC_HEADING = '### cape/1_product/4_backlog.md › Backlog › Must › Epic D — Pinned notes';

const story = (id: string, title: string, want: string, criteria: string[]) =>
  [`**${id} — ${title}** · P1`, `As a writer, I want ${want}.`, '', ...criteria.map((c) => `- ${c}`)].join('\n');
const STORIES = [
  story('US-010', 'Pin from the menu', 'a pin action in the menu of an entry, so that I choose what I keep at hand', [
    'Given an unmarked entry, when I choose Pin, then it shows the pin mark.',
    'Given a marked entry, when I choose Unpin, then the mark goes and it returns to its place.',
  ]),
  story('US-011', 'Marked entries first', 'the marked entries listed before the rest, so that I reach them without scrolling', [
    'Given two marked entries, then they keep the order in which they were marked.',
    'Given a marked entry, when I sort by date, then it still comes before the unmarked ones.',
  ]),
  story('US-012', 'Marks kept on restart', 'the marks kept when the app opens again', ['Given a marked entry, when the app restarts, then the entry is still marked and still first.']),
];

/** A list whose first lines speak of something else (so that the outline does not show it whole), then `lines`. */
const list = (...lines: string[]) =>
  [...Array.from({ length: 5 }, (_, i) => `Remark ${i + 1} on layout, spacing and colours, long enough to fill a line.`), ...lines].map((l) => `- ${l}`).join('\n');
/** A file of one section, its list holding `lines`. */
const file = (rel: string, title: string, section: string, ...lines: string[]): [string, string] => [rel, [`# ${title}`, `## ${section}`, list(...lines)].join('\n\n')];

/**
 * A project whose files speak of pinned notes everywhere, in short lines holding the objective's rarer words (top,
 * above, stays, notebook), and whose backlog holds the objective's epic, titled `epicTitle`, with `stories`.
 */
function project(epicTitle: string, stories = STORIES, backlogTitle = 'Backlog'): [string, string][] {
  const epic = [`### ${epicTitle}`, 'What a writer relies on stays within reach.', ...stories].join('\n\n');
  const wont = list('Notes pinned on top of every notebook at once.', 'Pinned notes that stay above the app.', 'Pinned notes on notebook covers.');
  const decisions = [
    '| # | Decision | Reason |',
    '|---|---|---|',
    '| D-0 | Plain text files, one per page of writing | Any editor opens them, and backups are plain copies |',
    '| D-01 | Markdown is the only markup read or written | Writers already know it, and diffs stay readable |',
    "| D-02 | No server: sync goes through the writer's own cloud folder | Nothing to run, nothing to pay for |",
    '| D-1 | Note pins are stored per notebook | Sync stays simple |',
    '| D-2 | Pin order is stored above the notes | One read on open |',
    '| D-3 | Top-level notes pin only | Flat lists stay fast |',
  ].join('\n');
  return [
    ['cape/1_product/4_backlog.md', [`# ${backlogTitle}`, '## Must', '### Epic A — Search', 'Find any entry by a word.', epic, "## Won't", wont].join('\n\n')],
    file('cape/1_product/1_persona.md', 'Personas', 'Mia, a writer', 'Pins one note per client notebook.', 'Wants the brief note pinned on top.', 'Her pinned notes stay open all day.', 'Reads the newest pinned note above the others.'),
    file('cape/2_design/1_principle.md', 'Principles', 'Order', 'Pinned notes keep the order their writer chose.', 'No note jumps to the top unless pinned.', 'A note the writer pins stays put.', 'Pin menus sit above the note, never over it.'),
    ['cape/3_development/1_architecture.md', ['# Architecture', '## Decisions', decisions].join('\n\n')],
    file('cape/1_product/5_milestone.md', 'Milestones', '1.4', 'Export of pinned notes stays in 1.4.', 'The top bar gets a pin-note button.', 'Pinned notes above ten per notebook wait.'),
    file('cape/3_development/2_guideline.md', 'Guideline', 'Tests', 'Each pinned note case runs against a real notebook.', 'Tests of the top bar stay headless.', 'A test pins notes above the fold.', 'Notebook fixtures stay small and pinned.'),
    file('cape/1_product/3_glossary.md', 'Glossary', 'Terms', 'Pin: a mark that keeps a note on top.', 'Notebook: the notes of one project.', 'Above the fold: what a note shows before scrolling.', 'Sticky: an older name for a pinned note that stays.'),
    file('cape/2_design/3_screens.md', 'Screens', 'Note list', 'Pinned notes sit on top, under a thin rule.', 'A pin glyph shows beside each note that stays.', 'Scrolling keeps the notebook title above.'),
    file('cape/2_design/2_brand.md', 'Brand', 'Icons', 'The note pin icon stays monochrome.', 'Pin icons sit above their notes.', 'A pinned note on top takes the brand colour.'),
  ];
}

describe("the objective's passages: the entries under the title that names it come first", () => {
  it('the epic whose title names the objective is sent first, with its three stories and their criteria; the rest as ranked, none twice', () => {
    const out = passages(project('Epic D — Pinned notes'), PIN);
    for (const id of ['US-010', 'US-011', 'US-012']) assert.ok(out.includes(`**${id} — `), `${id} in:\n${out}`);
    assert.strictEqual(headings(out)[0], EPIC_HEADING, out);
    assert.ok(out.includes('Given a marked entry, when the app restarts, then the entry is still marked and still first.'), 'the criteria come with their story');
    assert.ok(out.length <= OBJECTIVE_PASSAGES_CHARS, `${out.length}`);
    assert.ok(out.includes('No note jumps to the top unless pinned.') && out.includes('| D-2 | Pin order is stored above the notes |'), out);
    const lines = out.split('\n').filter((l) => l.trim() && !/^\|---/.test(l));
    assert.strictEqual(new Set(lines).size, lines.length, 'no line twice');
    assert.ok(!out.includes('Epic A'), 'a sibling epic that does not name the objective stays out');
  });

  it("with no title naming the objective (none of its words, one only, or the whole file's title), nothing is reserved: the ranking is as before", () => {
    const ranked = ['1.4', "Won't", 'Decisions', 'Note list', 'Tests', 'Icons', 'Mia, a writer', 'Terms', 'Order'];
    for (const [epic, backlog] of [['Within reach', 'Backlog'], ['Pinning', 'Backlog'], ['Within reach', 'Pinned notes']]) {
      const out = passages(project(`Epic D — ${epic}`, STORIES, backlog), PIN);
      // the short lines first, the epic last with the one story that holds a word of the objective (pin)
      assert.deepStrictEqual(headings(out).map((h) => h.split(' › ').pop()), [...ranked, `Epic D — ${epic}`], out);
      assert.ok(out.includes('**US-010 — ') && !out.includes('US-011'), out);
      assert.ok(out.length <= OBJECTIVE_PASSAGES_CHARS, `${out.length}`);
    }
  });

  it('an epic longer than half the room gives its best entries within that half; the other half goes to the ranked entries', () => {
    const many = Array.from({ length: 10 }, (_, i) => story(`US-02${i}`, `Marked entry rule ${i}`, `rule ${i} of marked entries kept`, [`Given a marked entry, when rule ${i} applies, then it is kept.`]));
    const out = passages(project('Epic D — Pinned notes', many), PIN);
    assert.ok(out.length <= OBJECTIVE_PASSAGES_CHARS, `${out.length}`);
    const [first, ...rest] = out.split(/\n\n(?=### )/);
    assert.ok(first.startsWith(EPIC_HEADING) && first.includes('US-020'), first);
    assert.ok(first.length <= OBJECTIVE_PASSAGES_CHARS / 2 && first.length > OBJECTIVE_PASSAGES_CHARS / 2 - 200, `${first.length}`);
    assert.ok(rest.length >= 4 && out.includes('Pinned notes above ten per notebook wait.'), out);
  });

  it('in a script written without spaces, the epic whose title names the objective by its kanji and katakana comes first', () => {
    const jaList = (...lines: string[]) => [...Array.from({ length: 12 }, (_, i) => `余白と配色についての覚え書き${i + 1}。一行を埋めるだけの長さがある。`), ...lines].map((l) => `- ${l}`).join('\n');
    const jaStory = (id: string, title: string, text: string) => `**${id} — ${title}** · P1\n書き手として、${text}。\n\n- 設定で切り替えると、すべての画面がすぐに変わる。\n- 再起動しても、選んだ配色が残る。`;
    const backlog = [
      '# バックログ',
      '## 今回',
      '### エピック C — ダークモード',
      '暗い部屋でも読みやすくする。',
      jaStory('US-101', '配色の切り替え', '設定から配色を切り替えたい'),
      jaStory('US-102', '端末の設定に従う', '端末の明暗設定にそのまま従いたい'),
      jaStory('US-103', '文字の濃さ', '暗い背景でも文字がはっきり読めるようにしたい'),
      '## 見送り',
      jaList('ダークモードの追加は次のメジャー版まで。', '夜間のダークモード追加は見送る。'),
    ].join('\n\n');
    const jaFile = (rel: string, title: string, ...lines: string[]): [string, string] => [rel, [`# ${title}`, '## 方針', jaList(...lines)].join('\n\n')];
    const files: [string, string][] = [
      ['cape/1_product/4_backlog.md', backlog],
      jaFile('cape/2_design/1_principle.md', '原則', 'ダークモードの追加で配色を増やさない。', '追加の色はダークモード用だけ。', 'ダークモード追加時も余白は同じ。'),
      jaFile('cape/2_design/2_brand.md', 'ブランド', 'ロゴはダークモードでも追加の版を作らない。', 'ダークモードに追加する色は二つまで。', 'ダークモードの追加見本は一枚。'),
      jaFile('cape/1_product/1_persona.md', 'ペルソナ', '夜に読む人はダークモードの追加を待っている。', 'ダークモード追加の要望は多い。', '追加のダークモード設定は一か所に。'),
      jaFile('cape/3_development/2_guideline.md', '開発指針', 'ダークモード追加の試験は両方の配色で。', 'ダークモードの追加で描画を遅くしない。', 'ダークモード追加の差分は小さく。'),
    ];
    const out = passages(files, 'ダークモードを追加する');
    for (const id of ['US-101', 'US-102', 'US-103']) assert.ok(out.includes(`**${id} — `), `${id} in:\n${out}`);
    assert.strictEqual(headings(out)[0], '### cape/1_product/4_backlog.md › バックログ › 今回 › エピック C — ダークモード', out);
    assert.ok(out.length <= OBJECTIVE_PASSAGES_CHARS && out.includes('ダークモードの追加は次のメジャー版まで。'), out);
  });

  it('a title names the objective when most of its own words are the objective\'s, two at least, forms of a word alike; ids and a generic title do not count', () => {
    assert.ok(sameRoot('deprecat', 'deprecation') && sameRoot('archiv', 'archive') && sameRoot('track', 'tracker'));
    assert.ok(!sameRoot('mark', 'markdown') && !sameRoot('parameter', 'paragraph') && !sameRoot('stri', 'strict'));
    const objective = 'Let a writer archive a project so that it leaves the sidebar';
    const titles = ['Backlog', 'Projects', 'E4: Project archiving', 'US-020 — Archive a project from the sidebar', 'Epic 2: Archive, export and import of projects, members, roles and settings', 'Sidebar'];
    const named = namingTitles(titles.map((t) => ({ t, words: matchWords(t) })), matchWords(objective), () => 1).map((n) => n.t);
    assert.deepStrictEqual(named, ['US-020 — Archive a project from the sidebar', 'E4: Project archiving']);
    assert.deepStrictEqual(namingTitles([{ words: matchWords('Archive') }], matchWords('Archive it'), () => 1).length, 1, 'an objective of one word needs one');
    assert.strictEqual(entryLabel('- **E4: Project archiving** — stories US-020 to US-022'), 'E4: Project archiving');
    assert.strictEqual(entryLabel('**US-020 — Archive a project** · P1\nAs a writer…'), 'US-020 — Archive a project');
    assert.strictEqual(entryLabel('- A plain item, **bold** later'), undefined);
  });
});

// text/markdown.ts: the fence and heading rules that kpt_merged.md, the team files' sections and an init file's
// heading count all read by, and a list written as one text read as its items.
import * as assert from 'assert';
import { closesFence, fenceOpening, fenceTracker, headingOf, listItems } from '../../src/core/text/markdown';
import { splitSections } from '../../src/core/session/packing';
import { parseKpt } from '../../src/core/kpt';
import { scanFile } from '../../src/core/workspace/symbols';

const TRICKY = [
  '# Top',
  '````md',
  '```ts',
  '# not a heading: the inner ``` is text of the 4-backtick fence',
  '```',
  '# still not',
  '````',
  '  ## Indented heading',
  '    ```',
  '## After an indented code line (4 spaces: not a fence)',
  '~~~',
  '# code',
  '~~~ not a closing line',
  '~~~',
  '### Last',
].join('\n');

describe('text: markdown line rules', () => {
  it('opens a fence with 3+ backticks or tildes after at most 3 spaces; closes it with the same character, as long, alone', () => {
    assert.strictEqual(fenceOpening('```ts'), '```');
    assert.strictEqual(fenceOpening('   ~~~~'), '~~~~');
    assert.strictEqual(fenceOpening('    ```'), null);
    assert.strictEqual(fenceOpening('``'), null);
    assert.ok(closesFence('````', '```'));
    assert.ok(!closesFence('```', '````'));
    assert.ok(!closesFence('~~~', '```'));
    assert.ok(!closesFence('```ts', '```'));
  });

  it('reads an ATX heading with its level and title', () => {
    assert.deepStrictEqual(headingOf('## Goals ##'), { level: 2, title: 'Goals' });
    assert.deepStrictEqual(headingOf('   # Top'), { level: 1, title: 'Top' });
    assert.strictEqual(headingOf('#hashtag'), null);
    assert.deepStrictEqual(headingOf('## Using C#'), { level: 2, title: 'Using C#' }, 'a # that ends a word is the title');
    assert.deepStrictEqual(headingOf('### F# and C# ###'), { level: 3, title: 'F# and C#' });
    assert.deepStrictEqual(headingOf('#'), { level: 1, title: '' });
    assert.deepStrictEqual(headingOf('# #'), { level: 1, title: '' });
    assert.strictEqual(headingOf('####### seven'), null);
    assert.deepStrictEqual(headingOf('# # #'), { level: 1, title: '' }, 'a title of #s before a closing run');
    assert.deepStrictEqual(headingOf('## a ## ##\t'), { level: 2, title: 'a ##' }, 'only the last run closes');
    assert.deepStrictEqual(headingOf('#\tTabbed\t#'), { level: 1, title: 'Tabbed' });
    assert.strictEqual(headingOf('# a\rb'), null, 'a line break inside a title: no heading');
    assert.deepStrictEqual(headingOf('# a\r'), { level: 1, title: 'a' });
  });

  it('reads a heading with a long run of spaces inside in one pass (a README or kpt_merged.md is untrusted)', () => {
    // the heading regexp once tried every split of the run between the title and the white space around it:
    // quadratic, 26 s at this size
    const line = `# a${' '.repeat(100_000)}b`;
    assert.deepStrictEqual(headingOf(line), { level: 1, title: `a${' '.repeat(100_000)}b` });
    assert.deepStrictEqual(headingOf(`## a${' '.repeat(100_000)}##`), { level: 2, title: 'a' });
    assert.deepStrictEqual(scanFile('README.md', `${line}\n## Usage\n`).symbols, ['Usage'], 'a title over 80 chars names nothing');
    assert.deepStrictEqual(parseKpt(`## Keep\n- [t1] kept\n${line}\n`).map((i) => i.text), ['kept']);
  });

  it('tells the lines outside fenced code', () => {
    const outside = fenceTracker();
    const headings = TRICKY.split('\n').filter((l) => outside(l) && headingOf(l)).map((l) => headingOf(l)!.title);
    assert.deepStrictEqual(headings, ['Top', 'Indented heading', 'After an indented code line (4 spaces: not a fence)', 'Last']);
  });

  it("is the rule of the team files' sections and of kpt_merged.md", () => {
    assert.deepStrictEqual(
      splitSections(TRICKY).filter((s) => s.level > 0).map((s) => s.title),
      ['Top', 'Indented heading', 'After an indented code line (4 spaces: not a fence)', 'Last'],
    );
    const kpt = ['## Keep', '- [t1] kept', '```', '## Problem', '- [t1] fenced, not a problem', '```', '## Try', '- [t1] a try'].join('\n');
    assert.deepStrictEqual(parseKpt(kpt).map((i) => [i.kind, i.text]), [['keep', 'kept'], ['try', 'a try']]);
  });

  it('reads a list written as one text as its items: markers removed, blank lines dropped, wrapped items joined', () => {
    assert.deepStrictEqual(listItems('- 良かった点A\n- 良かった点B\n\n- 良かった点C\n'), ['良かった点A', '良かった点B', '良かった点C']);
    assert.deepStrictEqual(listItems('1. 問題X\r\n2) 問題Y\n* star\n+ plus'), ['問題X', '問題Y', 'star', 'plus']);
    assert.deepStrictEqual(listItems('・トライP\n• トライQ'), ['トライP', 'トライQ']);
    assert.deepStrictEqual(listItems('トライP\nトライQ'), ['トライP', 'トライQ'], 'no markers: a line per item');
    assert.deepStrictEqual(listItems('- first item,\n  wrapped\n- second'), ['first item,\nwrapped', 'second']);
    assert.deepStrictEqual(listItems('-1 is an offset\n-\n- '), ['-1 is an offset'], 'a dash without a space is text; an empty item is none');
  });
});

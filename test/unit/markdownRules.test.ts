// text/markdown.ts: the fence and heading rules that kpt_merged.md, the team files' sections and an init file's
// heading count all read by.
import * as assert from 'assert';
import { closesFence, fenceOpening, fenceTracker, headingOf } from '../../src/core/text/markdown';
import { splitSections } from '../../src/core/session/packing';
import { parseKpt } from '../../src/core/kpt';

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
});

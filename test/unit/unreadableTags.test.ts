// A block tag in a form the reader does not read (`<file path=a.ts>`, `<File path="a.ts">`, `<edit path=“a.ts”>`) is
// a parse error that says what to write, which goes to the one repair round — never prose silently dropped. Tags
// inside a block's content (HTML, XML, JSX, a page about this format), in the summary or in the envelope are not.
import * as assert from 'assert';
import { extractFiles } from '../../src/core/reply/blocks';
import { parseReply, repairPrompt } from '../../src/core/reply/parser';
import type { ParsedReply } from '../../src/core/model/types';

const ENVELOPE = {
  agent: 'DevA',
  role: 'Developer Agent',
  task_id: 'task-9',
  voice: 'Done.\nThe tags look like <file path=a.ts> or <File path="a.ts"> in prose here.',
  output: { file_list: ['a.ts'], note: 'a "<edit path=“a.ts”>" inside JSON is just text' },
  references: ['POA', 'DA'],
  confidence: 4,
  ass: { score: 4, positive: 'p', improvement: 'i', context_adequate: true },
};

const reply = (blocks: string) => '```json\n' + JSON.stringify(ENVELOPE, null, 2) + '\n```\n\n' + blocks;
/** The line of the reply where the blocks start. */
const FIRST = reply('').split('\n').length;

function fail(raw: string): string {
  const r = parseReply('deva', raw);
  if (r.ok) assert.fail(`expected the reply to fail, got files ${JSON.stringify(r.reply.files.map((f) => f.path))}`);
  return r.error;
}

function ok(raw: string): ParsedReply {
  const r = parseReply('deva', raw);
  if (!r.ok) assert.fail(`expected the reply to parse, got: ${r.error}`);
  return r.reply;
}

const HUNK = '<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE';

describe('reply parser: block tags it cannot read are errors that say what to write (src/core/reply/unreadableTags.ts)', () => {
  it('an unquoted, capitalised, typographically quoted or path-less tag is a parse error naming the tag, its line and the tag to write', () => {
    const cases: [string, RegExp][] = [
      ['<file path=a.ts>\nconst a = 1;\n</file>', /^the <file path=a\.ts> tag on line \d+ was not read as a block: its path is not in quotes; write <file path="a\.ts">$/],
      ['<File path="src/a.ts">\nconst a = 1;\n</File>', /: the tag name must be lower case \(file\); write <file path="src\/a\.ts">$/],
      ['<FILE PATH="a.ts">\nconst a = 1;\n</FILE>', /: the tag name must be lower case \(file\); write <file path="a\.ts">$/],
      ['<file Path="a.ts">\nconst a = 1;\n</file>', /: the attribute name must be lower case \(path\); write <file path="a\.ts">$/],
      [`<edit path=“a.ts”>\n${HUNK}\n</edit>`, /^the <edit path=“a\.ts”> tag on line \d+ was not read as a block: its path is in typographic quotes, not straight double quotes; write <edit path="a\.ts">$/],
      [`<edit path=”src/a b.ts”>\n${HUNK}\n</edit>`, /typographic quotes.*; write <edit path="src\/a b\.ts">$/],
      ['<file name="a.ts">\nconst a = 1;\n</file>', /: it has no path attribute; write <file path="a\.ts">$/],
      [`<edit>\n${HUNK}\n</edit>`, /^the <edit> tag on line \d+ was not read as a block: it has no path attribute; write <edit path="the\/file\/path">$/],
      ['< file path="a.ts">\nconst a = 1;\n</file>', /: it is not in the form <file path="…">; write <file path="a\.ts">$/],
      // after a block that was read, which took it for the rest of its own content (its file would have had the
      // second block in it)
      ['<file path="a.ts">\nconst a = 1;\n</file>\n\n<file path=b.ts>\nconst b = 1;\n</file>', /^the <file path=b\.ts> tag on line \d+ .*; write <file path="b\.ts">$/],
      [`<edit path="a.ts">\n${HUNK}\n</edit>\n<edit path=b.ts>\n${HUNK}\n</edit>`, /^the <edit path=b\.ts> tag on line \d+ .*; write <edit path="b\.ts">$/],
      // between blocks of another kind, and after the summary
      ['<file path="a.ts">\nx\n</file>\n<Edit path="b.ts">\n' + HUNK + '\n</Edit>', /the <Edit path="b\.ts"> tag/],
      ['<summary>s</summary>\n<file path=a.ts>\nx\n</file>', /the <file path=a\.ts> tag/],
      // begun mid-line
      ['Here it is: <File path="src/a.ts">\nconst a = 1;\n</File>', /^the <File path="src\/a\.ts"> tag on line \d+ .*lower case \(file\); write <file path="src\/a\.ts">$/],
      ['<file path="a.ts">\nx\n</file>\nAnd the second one: <edit path=b.ts>\n' + HUNK + '\n</edit>', /^the <edit path=b\.ts> tag on line \d+ .*not in quotes; write <edit path="b\.ts">$/],
    ];
    for (const [blocks, want] of cases) assert.match(fail(reply(blocks)), want, blocks);
    // the line is the reply's
    assert.ok(fail(reply(cases[0][0])).includes(`on line ${FIRST} `));
    assert.ok(fail(reply(cases[9][0])).includes(`on line ${FIRST + 4} `), fail(reply(cases[9][0])));
    assert.ok(fail(reply(cases[10][0])).includes(`on line ${FIRST + 7} `), fail(reply(cases[10][0])));
  });

  it('before the JSON envelope too, and in a repair or fix-round reply (blocks only); the repair prompt carries the fix', () => {
    const before = fail('<File path="a.ts">\nconst a = 1;\n</File>\n' + reply('<summary>s</summary>'));
    assert.match(before, /^the <File path="a\.ts"> tag on line 1, before the JSON envelope, was not read as a block: .*; write <file path="a\.ts">, after the envelope$/);
    const fix = extractFiles('<file path="a.ts">\nx\n</file>\n<file path=b.ts>\ny\n</file>\n');
    assert.ok(!fix.ok && /the <file path=b\.ts> tag on line 4 .*write <file path="b\.ts">/.test(fix.error), JSON.stringify(fix));
    const raw = reply('<file path=a.ts>\nconst a = 1;\n</file>');
    const prompt = repairPrompt('deva', fail(raw), raw);
    assert.match(prompt, /> the <file path=a\.ts> tag on line \d+ was not read as a block: its path is not in quotes; write <file path="a\.ts">/);
  });

  it('single quotes are read as they were', () => {
    assert.deepStrictEqual(ok(reply("<file path='a.ts'>\nconst a = 1;\n</file>")).files, [{ path: 'a.ts', content: 'const a = 1;\n' }]);
  });

  it('tags inside a file (XML, JSX, a page about this format), in the summary, in prose or in the envelope are no blocks and no errors', () => {
    const xml = '<files>\n<file path=a.xml/>\n<File path="b">\n</File>\n<file>\n</file>\n</files>\n';
    const jsx = 'export const T = () => (\n  <File path="a.ts">\n    <Edit path={p}>\n  </File>\n);\n';
    const doc = 'Write a block like this:\n\n<file path=a.ts>\n\nis wrong; write <file path="a.ts"> with quotes.\n';
    const r = ok(
      reply(
        'The <file> blocks follow.\n' +
          `<file path="cfg.xml">\n${xml}</file>\n<file path="src/T.tsx">\n${jsx}</file>\n<file path="docs/format.md">\n${doc}</file>\n` +
          '<summary>\nReplaced the broken\n<file path=a.ts>\ntags.\n</summary>\n',
      ),
    );
    assert.deepStrictEqual(r.files, [
      { path: 'cfg.xml', content: xml },
      { path: 'src/T.tsx', content: jsx },
      { path: 'docs/format.md', content: doc },
    ]);
    assert.strictEqual(r.summary, 'Replaced the broken\n<file path=a.ts>\ntags.');
    // mid-line: without a closing tag after it, or without a path, or inside a file's content, prose
    assert.deepStrictEqual(ok(reply('<file path="a.ts">\nx\n</file>\nI wrote it as <File path="a.ts">\n')).files, [{ path: 'a.ts', content: 'x\n' }]);
    assert.deepStrictEqual(ok(reply('Blocks: <file>\n<file path="a.ts">\nx\n</file>\n')).files, [{ path: 'a.ts', content: 'x\n' }]);
    const tsx = 'const t = <File path="a.ts">\n  x\n</File>;\n';
    assert.deepStrictEqual(ok(reply(`<file path="T.tsx">\n${tsx}</file>\n`)).files, [{ path: 'T.tsx', content: tsx }]);
    // a line that is only <file> with no closing tag after it is prose, not a block
    assert.deepStrictEqual(ok(reply('<file path="a.ts">\nx\n</file>\nSee:\n<file>\n')).files, [{ path: 'a.ts', content: 'x\n' }]);
    // an <edit> whose REPLACE text has such a tag (a file about this format)
    const edit = ok(reply('<edit path="docs/format.md">\n<<<<<<< SEARCH\nold\n=======\n</file>\n<file path=a.ts>\n>>>>>>> REPLACE\n</edit>'));
    assert.deepStrictEqual(edit.edits[0].hunks[0].replace, ['</file>', '<file path=a.ts>']);
  });

  it('a long run of spaces or tabs on a line is read once: the reply parses, and a tag after it is still found (audit: 200 KB of spaces took 26 s)', () => {
    assert.ok(ok(reply(' '.repeat(200_000) + 'x\n')));
    assert.ok(ok(reply('\t'.repeat(200_000) + 'x\n')));
    assert.ok(ok(' \t'.repeat(100_000) + 'x\n' + reply('<summary>s</summary>')));
    assert.ok(ok(reply('<file '.repeat(30_000) + 'x\n')));
    const after = fail(reply(' \t'.repeat(100_000) + 'Here: <File path="a.ts">\r\nx\r\n</file>\r\n'));
    assert.match(after, new RegExp(`^the <File path="a\\.ts"> tag on line ${FIRST} was not read as a block: the tag name must be lower case`));
    const indented = fail(reply(' '.repeat(100_000) + '<file path=b.ts>\ny\n</file>\n'));
    assert.match(indented, /^the <file path=b\.ts> tag on line \d+ was not read as a block: its path is not in quotes; write <file path="b\.ts">/);
    // blocks read from mid-line (a fix round's text after an envelope): the line the scan starts in is not searched
    const mid = extractFiles('ok <File path="a.ts">\n<file path="b.ts">\ny\n</file>\n', 3);
    assert.ok(mid.ok, JSON.stringify(mid));
  });
});

// DevA's <edit> blocks: the reply parser cuts them out, the matcher applies their SEARCH/REPLACE hunks (exact, then
// whitespace-tolerant; none and ambiguous are failures), and propose.ts turns them into proposals with one repair.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { applyTextHunks, changedLinesText, documentHunks, hunkPlace, textHunks } from '../../src/core/edits/hunks';
import { applyHunks } from '../../src/core/edits/match';
import { combineProposals, editProposals, editRepairPrompt, mergeRepaired, resolveEdits, rewritesOf } from '../../src/core/edits/propose';
import { MAX_FILE_BYTES } from '../../src/core/files/pathSafety';
import { applyProposedFiles, proposeFiles } from '../../src/core/files/proposals';
import { WARNING_UNREAD_REWRITE, type Hunk } from '../../src/core/model/types';
import { extractFiles, MAX_HUNK_READINGS, parseHunks } from '../../src/core/reply/blocks';
import { parseReply } from '../../src/core/reply/parser';
import { fileLines, numberedLines, withoutLineNumbers } from '../../src/core/text/lines';
import { ToolRunner } from '../../src/core/tools/executor';

const h = (search: string, replace: string): Hunk => ({ search: search.split('\n'), replace: replace === '' ? [] : replace.split('\n') });

const APP = ['import { a } from "./a";', '', 'export function main() {', '  const x = 1;', '  return x;', '}', ''].join('\n');

describe('edit matcher (src/core/edits/match.ts)', () => {
  it('applies an exact hunk at its one place and keeps the rest byte for byte', () => {
    const r = applyHunks(APP, [h('  const x = 1;', '  const x = 2;')]);
    assert.ok(r.ok);
    assert.strictEqual(r.content, APP.replace('const x = 1;', 'const x = 2;'));
    assert.deepStrictEqual(r.applied, [{ index: 0, start: 3, removed: 1, added: 1, tolerant: false }]);
  });

  it('applies several hunks in order, each against the content the earlier ones left', () => {
    const r = applyHunks(APP, [h('  const x = 1;', '  const x = 1;\n  const y = 2;'), h('  const y = 2;\n  return x;', '  return x + y;')]);
    assert.ok(r.ok);
    assert.strictEqual(r.content, APP.replace('  const x = 1;\n  return x;', '  const x = 1;\n  return x + y;'));
  });

  it('tolerates trailing whitespace and a uniform indentation shift, and shifts the REPLACE lines alike', () => {
    // the model dropped the two-space indentation and added trailing spaces
    const r = applyHunks(APP, [h('const x = 1;   \nreturn x;', 'const x = 3;\nreturn x * 2;')]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.strictEqual(r.content, APP.replace('  const x = 1;\n  return x;', '  const x = 3;\n  return x * 2;'));
    assert.strictEqual(r.applied[0].tolerant, true);
    // the model indented more than the file
    const deeper = applyHunks(APP, [h('      const x = 1;\n      return x;', '      return 1;')]);
    assert.ok(deeper.ok);
    assert.ok(deeper.content.includes('\n  return 1;\n}'));
  });

  it('a tolerant match keeps the lines the REPLACE repeats byte for byte: their trailing whitespace (a Markdown line break) stays', () => {
    // the model dropped the two trailing spaces of "First line  " in both its SEARCH and its REPLACE
    const md = '# Notes\n\nFirst line  \nsecond line\nthird\n';
    const r = applyHunks(md, [h('First line\nsecond line', 'First line\nsecond line, edited')]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.strictEqual(r.content, '# Notes\n\nFirst line  \nsecond line, edited\nthird\n');
    // with an indentation shift too, at the hunk's end as at its start
    const py = 'def f():\n    x = 1\n    y = 2 \n';
    const s = applyHunks(py, [h('x = 1\ny = 2', 'x = 0\ny = 2')]);
    assert.ok(s.ok, JSON.stringify(s));
    assert.strictEqual(s.content, 'def f():\n    x = 0\n    y = 2 \n');
  });

  it('refuses a non-uniform shift (that would be a different text)', () => {
    const r = applyHunks(APP, [h('const x = 1;\n  return x;', 'nope')]);
    assert.ok(!r.ok);
    assert.match(r.failures[0].reason, /matches nowhere/);
  });

  it('a SEARCH indented with spaces where the file has tabs is refused (not re-indented by guess), and the reason says so', () => {
    const go = 'func main() {\n\tif ok {\n\t\treturn\n\t}\n}\n';
    const r = applyHunks(go, [h('    if ok {\n        return\n    }', '    if ok {\n        os.Exit(1)\n    }')]);
    assert.ok(!r.ok);
    assert.match(r.failures[0].reason, /^matches nowhere .*the file indents these lines with tabs where the SEARCH has spaces/);
    const back = applyHunks('x:\n    y: 1\n', [h('x:\n\ty: 1', 'x:\n\ty: 2')]);
    assert.ok(!back.ok);
    assert.match(back.failures[0].reason, /the file indents these lines with spaces where the SEARCH has tabs/);
  });

  it('a hunk overlapping the lines an earlier hunk changed is refused, and the reason says to merge the two', () => {
    const r = applyHunks('one\ntwo\nthree\n', [h('one\ntwo', 'ONE\nTWO'), h('two\nthree', 'x')]);
    assert.ok(!r.ok);
    assert.deepStrictEqual(r.failures.map((f) => f.index), [1]);
    assert.match(r.failures[0].reason, /^matches nowhere .*overlaps lines that hunk 1 already changed; make the two one hunk/);
  });

  it('reports a hunk that matches nowhere, by its SEARCH first line', () => {
    const r = applyHunks(APP, [h('  const x = 1;', '  const x = 5;'), h('\n  const z = 9;', '')]);
    assert.ok(!r.ok);
    assert.deepStrictEqual(r.failures.map((f) => [f.index, f.firstLine]), [[1, 'const z = 9;']]);
    assert.match(r.failures[0].reason, /matches nowhere in the current file/);
  });

  it('reports an ambiguous hunk with the lines it matches', () => {
    const text = 'a\nx = 1\nb\nx = 1\n';
    const r = applyHunks(text, [h('x = 1', 'x = 2')]);
    assert.ok(!r.ok);
    assert.match(r.failures[0].reason, /matches 2 places \(lines 2, 4\)/);
    // more context makes it unique
    const ok = applyHunks(text, [h('b\nx = 1', 'b\nx = 2')]);
    assert.ok(ok.ok);
    assert.strictEqual(ok.content, 'a\nx = 1\nb\nx = 2\n');
  });

  it('an exact match wins over tolerant ones elsewhere (no false ambiguity)', () => {
    const text = 'if (a) {\n  go();\n}\n  go();\n';
    const r = applyHunks(text, [h('  go();', '  stop();')]);
    assert.ok(!r.ok, 'two exact matches are ambiguous');
    const r2 = applyHunks('x\n    go();\ny\n  go();\n', [h('  go();', '  stop();')]);
    assert.ok(r2.ok);
    assert.strictEqual(r2.content, 'x\n    go();\ny\n  stop();\n');
  });

  it('keeps CRLF line endings and a missing final newline; an empty REPLACE deletes', () => {
    const crlf = 'one\r\ntwo\r\nthree';
    const r = applyHunks(crlf, [h('two', '')]);
    assert.ok(r.ok);
    assert.strictEqual(r.content, 'one\r\nthree');
  });

  it('a UTF-8 byte-order mark is not part of the first line (read_file drops it) and stays in front of the file', () => {
    const bom = '\uFEFFimport x from "x";\nrun(x);\n';
    const r = applyHunks(bom, [h('import x from "x";', 'import y from "y";')]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.strictEqual(r.content, '\uFEFFimport y from "y";\nrun(x);\n');
    const deleted = applyHunks(bom, [h('import x from "x";\nrun(x);', '')]);
    assert.ok(deleted.ok);
    assert.strictEqual(deleted.content, '\uFEFF');
    // a mark copied at the start of the SEARCH (and the REPLACE) is no part of the text either: matched, never doubled
    const copied = applyHunks(bom, [h('\uFEFFimport x from "x";', '\uFEFFimport z from "z";')]);
    assert.ok(copied.ok, JSON.stringify(copied));
    assert.strictEqual(copied.content, '\uFEFFimport z from "z";\nrun(x);\n');
  });

  it('mixed line endings: lines outside the hunk keep their own, the changed lines take the ending of the lines they replace', () => {
    const mixed = 'a\r\nb\nc\r\nd\ne';
    const r = applyHunks(mixed, [h('d', 'D\nD2')]);
    assert.ok(r.ok);
    assert.strictEqual(r.content, 'a\r\nb\nc\r\nD\nD2\ne');
    const r2 = applyHunks(mixed, [h('c\nd\ne', 'C\nE')]);
    assert.ok(r2.ok);
    assert.strictEqual(r2.content, 'a\r\nb\nC\r\nE', 'the last line still has no final newline');
    const r3 = applyHunks(mixed, [h('e', '')]);
    assert.ok(r3.ok);
    assert.strictEqual(r3.content, 'a\r\nb\nc\r\nd', 'deleting the last line keeps the file without a final newline');
    const r4 = applyHunks('x\r\ny\r\n', [h('y', 'y\nz')]);
    assert.ok(r4.ok);
    assert.strictEqual(r4.content, 'x\r\ny\r\nz\r\n');
  });

  it('matches whatever the Unicode normalization (NFC against NFD), and keeps the bytes of every line the hunk does not change', () => {
    const nfd = (t: string) => t.normalize('NFD');
    // the file spells its accents decomposed (e + U+0301, as macOS names copied into text are); the model writes them composed
    const file = nfd('// Crème brûlée recipes\nconst title = "Café";\nconst note = "déjà vu";\nexport { title, note };\n');
    assert.notStrictEqual(file, file.normalize('NFC'));
    const r = applyHunks(file, [h('const title = "Café";\nconst note = "déjà vu";', 'const title = "Café au lait";\nconst note = "déjà vu";')]);
    assert.ok(r.ok, JSON.stringify(r));
    // the changed line takes the REPLACE text; the unchanged context line and the lines around keep the file's own form
    assert.strictEqual(r.content, file.replace(nfd('const title = "Café";'), 'const title = "Café au lait";'));
    assert.deepStrictEqual(r.applied, [{ index: 0, start: 1, removed: 2, added: 2, tolerant: false }]);
    // and the other way round: a composed file, a decomposed SEARCH
    const composed = file.normalize('NFC');
    const back = applyHunks(composed, [h(nfd('const note = "déjà vu";'), 'const note = "presque vu";')]);
    assert.ok(back.ok, JSON.stringify(back));
    assert.strictEqual(back.content, composed.replace('const note = "déjà vu";', 'const note = "presque vu";'));
    // two lines that differ only in their normalization are the same text: a SEARCH for one of them is ambiguous
    const twice = applyHunks(`x = "é"\n${nfd('x = "é"')}\n`, [h('x = "é"', 'x = 1')]);
    assert.ok(!twice.ok);
    assert.match(twice.failures[0].reason, /matches 2 places \(lines 1, 2\)/);
  });

  it('names a failing hunk by its first line, shortened without splitting a character', () => {
    const r = applyHunks(APP, [h('x' + '😀'.repeat(60), 'y')]);
    assert.ok(!r.ok);
    assert.strictEqual(r.failures[0].firstLine, 'x' + '😀'.repeat(39) + '…');
  });

  it('refuses more hunks than one block is matched with on a large file (minutes of work), asking for fewer or the file whole', () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const many = Array.from({ length: 100 }, (_, i) => h(`line ${i * 300}`, `LINE ${i * 300}`));
    const r = applyHunks(big, many);
    assert.ok(!r.ok);
    assert.deepStrictEqual(r.failures.map((f) => f.index), [0]);
    assert.match(r.failures[0].reason, /^100 hunks on a file of 40001 lines are more than are matched in one block: send fewer, larger hunks \(at most 74 here\), or the file whole in a <file> block$/);
    const few = applyHunks(big, many.slice(0, 70));
    assert.ok(few.ok && few.content.includes('LINE 20700\n'));
    assert.ok(applyHunks(big, [h('line 5', 'LINE 5')]).ok, 'one hunk is always matched');
  });

  it('refuses an empty SEARCH', () => {
    const r = applyHunks(APP, [h('', 'new line')]);
    assert.ok(!r.ok);
    assert.match(r.failures[0].reason, /SEARCH text is empty/);
  });

  describe('a SEARCH copied with read_file\'s line numbers', () => {
    // the file as read_file shows it (text/lines.ts numberedLines), lines copied from that view with their numbers
    const shown = (from: number, to: number) => numberedLines(fileLines(APP).slice(from - 1, to), from).split('\n');
    const nh = (search: string[], replace: string[]): Hunk => ({ search, replace });

    it('read_file numbers each line, right-aligned, a blank line without a trailing space', () => {
      assert.strictEqual(numberedLines(['a', '', '  b', '\r'], 9), ' 9: a\n10:\n11:   b\n12:\r');
      assert.deepStrictEqual(withoutLineNumbers([' 9: a', '10:', '11:   b', '12: ']), { lines: ['a', '', '  b', ''], first: 9 });
      assert.deepStrictEqual(withoutLineNumbers(['9: a', '10: b']), { lines: ['a', 'b'], first: 9 }, 'the padding dropped');
      assert.strictEqual(withoutLineNumbers(['1: a', '3: b']), null, 'numbers that do not count up by one');
      assert.strictEqual(withoutLineNumbers(['1: a', 'b']), null, 'a line without its number');
      assert.strictEqual(withoutLineNumbers(['1:a']), null, 'no space after the colon');
      assert.strictEqual(withoutLineNumbers([]), null);
    });

    it('is matched without the numbers, and its REPLACE lines lose theirs too', () => {
      const all = applyHunks(APP, [nh(shown(4, 5), ['4:   const x = 2;', '5:   return x * 2;'])]);
      assert.ok(all.ok, JSON.stringify(all));
      assert.strictEqual(all.content, APP.replace('  const x = 1;\n  return x;', '  const x = 2;\n  return x * 2;'));
      // the copied context line keeps its number in the REPLACE, the new line has none: only the copied one loses it
      const mixed = applyHunks(APP, [nh(shown(3, 4), ['3: export function main() {', '  // checked', '4:   const x = 1;'])]);
      assert.ok(mixed.ok, JSON.stringify(mixed));
      assert.strictEqual(mixed.content, APP.replace('main() {\n', 'main() {\n  // checked\n'));
      // a copied line spelled with decomposed accents (e + U+0301) is still the SEARCH's line, and loses its number
      const accents = 'export const title = "café";\n';
      const nfd = applyHunks(accents, [nh(['1: export const title = "cafe\u0301";'], ['1: export const title = "cafe\u0301";', '// new'])]);
      assert.ok(nfd.ok, JSON.stringify(nfd));
      assert.strictEqual(nfd.content, accents + '// new\n');
      // a REPLACE without numbers is taken as written
      const plain = applyHunks(APP, [nh(shown(5, 5), ['  return -x;'])]);
      assert.ok(plain.ok);
      assert.ok(plain.content.includes('\n  return -x;\n'));
    });

    it('of several places, takes the one at the numbers, also after an earlier hunk moved the lines', () => {
      const twice = ['function a() {', '  return 1;', '}', 'function b() {', '  return 1;', '}', ''].join('\n');
      const earlier = h('function a() {', '// a\nfunction a() {');
      const r = applyHunks(twice, [earlier, nh(['5:   return 1;'], ['5:   return 2;'])]);
      assert.ok(r.ok, JSON.stringify(r));
      assert.strictEqual(r.content, ['// a', 'function a() {', '  return 1;', '}', 'function b() {', '  return 2;', '}', ''].join('\n'));
      // numbers that point at neither place: still ambiguous, and said so
      const lost = applyHunks(twice, [nh(['9:   return 1;'], ['9:   return 2;'])]);
      assert.ok(!lost.ok);
      assert.match(lost.failures[0].reason, /matches 2 places in the current file, even without the line numbers/);
    });

    it('that matches nowhere even without the numbers says to copy the text after "N: "', () => {
      const r = applyHunks(APP, [nh(['4:   const x = 7;'], ['4:   const x = 8;'])]);
      assert.ok(!r.ok);
      assert.match(r.failures[0].reason, /matches nowhere in the current file, even without the line numbers its lines start with \(copy the text after "N: " exactly, never the number\)/);
    });

    it('a file whose lines do start with counting numbers is matched as written first', () => {
      const yaml = ['1: one', '2: two', '3: three', ''].join('\n');
      const r = applyHunks(yaml, [h('2: two', '2: TWO')]);
      assert.ok(r.ok);
      assert.strictEqual(r.content, ['1: one', '2: TWO', '3: three', ''].join('\n'));
    });

    it('works on what the read_file tool answers, CRLF file included', async () => {
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-numbered-'));
      try {
        fs.writeFileSync(path.join(ws, 'a.ts'), APP.replace(/\n/g, '\r\n'));
        const [read] = await new ToolRunner({ workspace: ws }).execute([{ id: 'r1', name: 'read_file', input: { path: 'a.ts', start_line: 3, end_line: 6 } }]);
        const copied = read.content.split('\n').slice(1, 4).map((l) => l.replace(/\r$/, '')); // lines 3–5, as a model copies them
        assert.deepStrictEqual(copied, ['3: export function main() {', '4:   const x = 1;', '5:   return x;']);
        const r = applyHunks(fs.readFileSync(path.join(ws, 'a.ts'), 'utf8'), [nh(copied, ['3: export function main(): number {', '4:   const x = 1;', '5:   return x;'])]);
        assert.ok(r.ok, JSON.stringify(r));
        assert.strictEqual(r.content, APP.replace('main() {', 'main(): number {').replace(/\n/g, '\r\n'));
      } finally {
        fs.rmSync(ws, { recursive: true, force: true });
      }
    });
  });
});

describe('reply parser: <edit> blocks', () => {
  const env = '```json\n{"agent":"DevA","role":"Developer","task_id":"t","voice":"v","output":{},"references":[],"confidence":4,"ass":{"score":4,"positive":"p","improvement":"i","context_adequate":true}}\n```\n';

  it('cuts out <edit> and <file> blocks in any order, with several hunks per edit', () => {
    const reply =
      env +
      '<edit path="src/app.ts">\n<<<<<<< SEARCH\n  const x = 1;\n=======\n  const x = 2;\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\n  return x;\n=======\n>>>>>>> REPLACE\n</edit>\n' +
      '<file path="src/new.ts">\nexport const n = 1;\n</file>\n<summary>done</summary>';
    const p = parseReply('deva', reply);
    assert.ok(p.ok, p.ok ? '' : p.error);
    assert.deepStrictEqual(p.reply.files, [{ path: 'src/new.ts', content: 'export const n = 1;\n' }]);
    assert.deepStrictEqual(p.reply.edits, [
      {
        path: 'src/app.ts',
        hunks: [
          { search: ['  const x = 1;'], replace: ['  const x = 2;'] },
          { search: ['  return x;'], replace: [] },
        ],
      },
    ]);
    assert.strictEqual(p.reply.summary, 'done');
  });

  it('hunk markers tolerate 5 to 9 marker characters and any spaces or tabs around the keyword', () => {
    const body = '  <<<<<<<  SEARCH \na\n =====\t\nb\n>>>>>>>>\tREPLACE\n<<<<<<SEARCH\nc\n=======\nd\n>>>>>>>REPLACE';
    assert.deepStrictEqual(parseHunks(body, 'x.ts'), {
      ok: true,
      hunks: [
        { search: ['a'], replace: ['b'] },
        { search: ['c'], replace: ['d'] },
      ],
    });
  });

  it('a divider-like line inside the hunk text (a Markdown heading underline) does not split the hunk', () => {
    // the one line that is exactly ======= is the divider; the 5-character underline is text
    const body = '<<<<<<< SEARCH\nUsage\n=====\nold\n=======\nUsage\n=====\nnew\n>>>>>>> REPLACE';
    assert.deepStrictEqual(parseHunks(body, 'README.md'), { ok: true, hunks: [{ search: ['Usage', '=====', 'old'], replace: ['Usage', '=====', 'new'] }] });
    // several lines that are exactly =======: the reading of the hunk whose SEARCH matches the file is applied
    const readme = 'License\n=======\n\nMIT\n\nSee License\n';
    const twice = 'License\n=======\n\nMIT\n\nLicense\n';
    const parsed = parseHunks('<<<<<<< SEARCH\nLicense\n=======\n\nMIT\n=======\nLicense\n=======\n\nApache-2.0\n>>>>>>> REPLACE', 'README.md');
    assert.ok(parsed.ok);
    const r = applyHunks(twice, parsed.hunks);
    assert.ok(r.ok, JSON.stringify(r));
    assert.strictEqual(r.content, 'License\n=======\n\nApache-2.0\n\nLicense\n');
    // the one split that leaves the heading on both sides is the only reading: a shorter SEARCH ("License" alone)
    // that also matches once is never applied
    const kept = applyHunks(readme, parsed.hunks);
    assert.ok(kept.ok, JSON.stringify(kept));
    assert.strictEqual(kept.content, 'License\n=======\n\nApache-2.0\n\nSee License\n');
    // a stale SEARCH of that shape matches nowhere (a repair round), though its shorter split would match once
    const stale = parseHunks('<<<<<<< SEARCH\nLicense\n=======\n\nGPL\n=======\nLicense\n=======\n\nApache-2.0\n>>>>>>> REPLACE', 'README.md');
    assert.ok(stale.ok);
    const nowhere = applyHunks(readme, stale.hunks);
    assert.ok(!nowhere.ok && /matches nowhere|not found|no place/i.test(nowhere.failures[0].reason), JSON.stringify(nowhere));
    // no such split, and more than one reading matches: the hunk is refused (never guessed), with what to do instead
    const dropped = parseHunks('<<<<<<< SEARCH\nLicense\n=======\n\nMIT\n=======\nMIT\n>>>>>>> REPLACE', 'README.md');
    assert.ok(dropped.ok);
    const both = applyHunks(readme, dropped.hunks);
    assert.ok(!both.ok);
    assert.match(both.failures[0].reason, /several ======= lines.*<file path/);
    // each reading is searched through the whole file: past MAX_HUNK_READINGS, the hunk asks for the file whole
    const hunkWith = (n: number) => ['<<<<<<< SEARCH', ...Array.from({ length: n - 1 }, (_, i) => ['=======', `t${i}`]).flat(), '=======', 'new', '>>>>>>> REPLACE'].join('\n');
    assert.ok(parseHunks(hunkWith(MAX_HUNK_READINGS), 'NOTES.md').ok);
    const many = parseHunks(hunkWith(MAX_HUNK_READINGS + 1), 'NOTES.md');
    assert.ok(!many.ok);
    assert.strictEqual(many.error, `hunk 1 of the <edit path="NOTES.md"> block has ${MAX_HUNK_READINGS + 1} ======= lines, so where its SEARCH text ends cannot be told (at most ${MAX_HUNK_READINGS} are tried); send this file whole in a <file path="NOTES.md"> block instead`);
  });

  it('a malformed hunk or an unclosed block is a parse error that names the block', () => {
    assert.match(String((parseHunks('<<<<<<< SEARCH\na\n>>>>>>> REPLACE', 'x.ts') as { error: string }).error), /no ======= line/);
    assert.match(String((parseHunks('<<<<<<< SEARCH\na\n=======\nb\n', 'x.ts') as { error: string }).error), /not closed with >>>>>>> REPLACE/);
    assert.match(String((parseHunks('just text', 'x.ts') as { error: string }).error), /has no <<<<<<< SEARCH/);
    const r = extractFiles('<edit path="a.ts">\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n');
    assert.ok(!r.ok);
    assert.match(r.error, /<edit path="a.ts"> block is not closed with <\/edit>/);
  });

  it('a first hunk without its <<<<<<< SEARCH line is a parse error, not dropped while the next hunk is applied', () => {
    const r = parseHunks('const a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nconst b = 1;\n=======\nconst b = 2;\n>>>>>>> REPLACE\n', 'x.ts');
    assert.ok(!r.ok, JSON.stringify(r));
    assert.match(r.error, /^the <edit path="x\.ts"> block has a >>>>>>> REPLACE line before any <<<<<<< SEARCH line/);
  });

  it('a </file> named in the prose after the last block (at the end of a line) does not end that block', () => {
    for (const prose of ['<summary>Each block is closed with </file>\nDone.</summary>', '<summary>Files come wrapped in </file></summary>']) {
      const r = extractFiles(`<file path="a.txt">\nhello\n</file>\n\n${prose}\n`);
      assert.ok(r.ok, prose);
      assert.deepStrictEqual(r.scan.files, [{ path: 'a.txt', content: 'hello\n' }], prose);
    }
    // a closing tag at the end of the content's last line still closes when no tag stands alone on its line
    const inline = extractFiles('<file path="a.txt">\nhello</file>\n');
    assert.ok(inline.ok);
    assert.deepStrictEqual(inline.scan.files, [{ path: 'a.txt', content: 'hello' }]);
  });

  it('a REPLACE text with a >>>>>>> REPLACE line of its own (a file about this format) is a parse error, not a hunk cut short', () => {
    // the REPLACE text is meant to be the two lines ">>>>>>> REPLACE" and "done": its first line ends the hunk early,
    // which would delete "old" and drop both lines
    const r = parseHunks('<<<<<<< SEARCH\nold\n=======\n>>>>>>> REPLACE\ndone\n>>>>>>> REPLACE\n', 'docs/format.md');
    assert.ok(!r.ok, JSON.stringify(r));
    assert.match(r.error, /<edit path="docs\/format.md"> block has a >>>>>>> REPLACE line after hunk 1 ends.*<file path/);
    // a hunk not closed before the next one starts: its REPLACE would take the next hunk's markers and lines as text
    const unclosed = parseHunks('<<<<<<< SEARCH\na\n=======\nA\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n', 'x.ts');
    assert.ok(!unclosed.ok, JSON.stringify(unclosed));
    assert.match(unclosed.error, /^hunk 1 of the <edit path="x\.ts"> block is not closed with >>>>>>> REPLACE before the next <<<<<<< SEARCH line/);
    // a blank line or a stray fence between hunks is still ignored
    assert.deepStrictEqual(parseHunks('```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n```', 'x.ts'), { ok: true, hunks: [{ search: ['a'], replace: ['b'] }] });
  });
});

describe('edit proposals and the repair round (src/core/edits/propose.ts)', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-edits-'));
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'app.ts'), APP);
    fs.writeFileSync(path.join(ws, 'src', 'b.ts'), 'b = 1\nb = 1\n');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('resolves good edits, names failing hunks, refuses unsafe paths without a repair, and asks to create missing files with <file>', async () => {
    const res = await resolveEdits(ws, [
      { path: 'src/app.ts', hunks: [h('  const x = 1;', '  const x = 2;')] },
      { path: 'src/b.ts', hunks: [h('b = 1', 'b = 2')] },
      { path: '../outside.ts', hunks: [h('a', 'b')] },
      { path: 'src/missing.ts', hunks: [h('a', 'b')] },
    ]);
    assert.deepStrictEqual(res.map((r) => [r.path, r.ok, r.ok ? null : r.repairable]), [
      ['../outside.ts', false, false],
      ['src/app.ts', true, null],
      ['src/b.ts', false, true],
      ['src/missing.ts', false, true],
    ]);
    const prompt = editRepairPrompt(res.filter((r) => !r.ok && r.repairable));
    assert.match(prompt, /src\/b\.ts:\n {2}- hunk 1 \(SEARCH starting "b = 1"\): matches 2 places/);
    assert.match(prompt, /src\/missing\.ts:\n {2}- src\/missing\.ts does not exist/);
    assert.ok(!prompt.includes('outside'));
  });

  it('the repair fixes one file, leaves another still failing and a third uncorrected: each refused with its reason, the rest go on', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'c.ts'), 'c = 1\n');
    const first = await resolveEdits(ws, [
      { path: 'src/app.ts', hunks: [h('  const x = 1;', '  const x = 2;')] },
      { path: 'src/b.ts', hunks: [h('b = 1', 'b = 2')] },
      { path: 'src/c.ts', hunks: [h('c = 9', 'c = 2')] },
      { path: 'src/missing.ts', hunks: [h('a', 'b')] },
    ]);
    const repairReply = '<edit path="src/b.ts">\n<<<<<<< SEARCH\nb = 1\nb = 1\n=======\nb = 2\nb = 1\n>>>>>>> REPLACE\n</edit>\n<edit path="src/c.ts">\n<<<<<<< SEARCH\nc = 8\n=======\nc = 2\n>>>>>>> REPLACE\n</edit>\n';
    const scan = extractFiles(repairReply);
    assert.ok(scan.ok);
    const fixed = await resolveEdits(ws, scan.scan.edits);
    const merged = mergeRepaired(first, fixed, new Set());
    const by = Object.fromEntries(merged.map((r) => [r.path, r]));
    assert.ok(by['src/app.ts'].ok);
    assert.ok(by['src/b.ts'].ok && by['src/b.ts'].content === 'b = 2\nb = 1\n');
    assert.ok(!by['src/c.ts'].ok && /^still failing after a repair request: hunk 1 \("c = 8"\) matches nowhere/.test(by['src/c.ts'].reason));
    assert.ok(!by['src/missing.ts'].ok && /^not corrected in the repair reply/.test(by['src/missing.ts'].reason));
  });

  it('a whole <file> in the repair reply replaces the failing edit; unread rewrites are flagged', async () => {
    const first = await resolveEdits(ws, [{ path: 'src/b.ts', hunks: [h('b = 1', 'b = 2')] }]);
    const rewrites = rewritesOf(ws, [{ path: './src/b.ts', content: 'b = 3\n' }, { path: 'src/other.ts', content: 'x' }], first.filter((r) => !r.ok));
    assert.deepStrictEqual(rewrites.map((r) => r.path), ['./src/b.ts']);
    const merged = mergeRepaired(first, [], new Set(rewrites.map((r) => r.key)));
    assert.deepStrictEqual(merged, []);
    const files = await proposeFiles(ws, [{ path: 'src/app.ts', content: 'whole\n' }, { path: 'src/b.ts', content: 'b = 3\n' }, { path: 'src/new.ts', content: 'n' }]);
    const combined = combineProposals(files, [], new Set(['src/b.ts']));
    assert.deepStrictEqual(
      combined.map((f) => [f.path, f.action, f.warning ?? null]),
      [
        ['src/app.ts', 'modify', WARNING_UNREAD_REWRITE],
        ['src/b.ts', 'modify', null],
        ['src/new.ts', 'create', null],
      ],
    );
  });

  it('an edit of a file that is not UTF-8 text is refused, not applied to a lossy decoding of it', async () => {
    // Latin-1 "é" bytes: decoding them as UTF-8 and writing back would replace every one with U+FFFD
    fs.writeFileSync(path.join(ws, 'src', 'legacy.c'), Buffer.from('/* caf\xe9 */\nint x;\n', 'latin1'));
    fs.writeFileSync(path.join(ws, 'src', 'blob.bin'), Buffer.from([0x61, 0x0a, 0x00, 0x0a]));
    const res = await resolveEdits(ws, [
      { path: 'src/legacy.c', hunks: [h('int x;', 'int y;')] },
      { path: 'src/blob.bin', hunks: [h('a', 'b')] },
    ]);
    assert.deepStrictEqual(res.map((r) => [r.path, r.ok, r.ok ? null : r.repairable]), [
      ['src/legacy.c', false, false],
      ['src/blob.bin', false, false],
    ]);
    assert.match(res[0].ok ? '' : res[0].reason, /^src\/legacy\.c cannot be edited: it is not valid UTF-8 text .*save it as UTF-8/);
    assert.match(res[1].ok ? '' : res[1].reason, /^src\/blob\.bin cannot be edited: it is a binary file/);
  });

  it('an edit of a secret file (by name, also through a symlinked folder) is refused before it is read: no reason tells of its text', async () => {
    fs.writeFileSync(path.join(ws, '.env'), 'API_KEY=sk-live-123\nDEBUG=0\n');
    fs.mkdirSync(path.join(ws, '.aws'));
    fs.writeFileSync(path.join(ws, '.aws', 'config'), '[default]\nregion = eu-west-1\n');
    fs.symlinkSync(path.join(ws, '.aws'), path.join(ws, 'cloud'));
    const res = await resolveEdits(ws, [
      // a match would copy the whole file, API key included, into the proposal (and DevA's step record)
      { path: '.env', hunks: [h('DEBUG=0', 'DEBUG=1')] },
      // a failure would tell the model whether its guessed line is in the file
      { path: 'cloud/config', hunks: [h('region = us-east-1', 'region = eu-west-1')] },
    ]);
    assert.deepStrictEqual(res.map((r) => [r.path, r.ok, r.ok ? null : r.repairable]), [
      ['.env', false, false],
      ['cloud/config', false, false],
    ]);
    assert.match(res[0].ok ? '' : res[0].reason, /^\.env is a secret file \(name matches "[^"]+"\): it is never read, so an <edit> cannot change it; change it by hand$/);
    assert.match(res[1].ok ? '' : res[1].reason, /^cloud\/config is a secret file \(name matches "\.aws\/"\)/);
  });

  it('an edit of a path that exists only under another case or Unicode normalization names the file that does (not "create it")', async function () {
    fs.mkdirSync(path.join(ws, 'src', 'Components'));
    fs.writeFileSync(path.join(ws, 'src', 'Components', 'Button.tsx'), 'export const Button = 1;\n');
    // the name as macOS writes it (decomposed), the model's path composed
    fs.writeFileSync(path.join(ws, 'src', 'Cafe\u0301.ts'), 'x\n');
    // a file system that folds case or normalization finds the file itself: nothing to name there
    if (fs.existsSync(path.join(ws, 'src', 'components', 'button.tsx')) || fs.existsSync(path.join(ws, 'src', 'Caf\u00e9.ts'))) this.skip();
    const res = await resolveEdits(ws, [
      { path: 'src/components/button.tsx', hunks: [h('export const Button = 1;', 'export const Button = 2;')] },
      { path: 'src/Caf\u00e9.ts', hunks: [h('x', 'y')] },
    ]);
    assert.deepStrictEqual(res.map((r) => [r.ok, r.ok ? null : r.repairable]), [
      [false, true],
      [false, true],
    ]);
    assert.strictEqual(
      res[0].ok ? '' : res[0].reason,
      'src/components/button.tsx does not exist, but src/Components/Button.tsx does (the same name but for case or Unicode normalization): send the <edit> for that path',
    );
    assert.match(res[1].ok ? '' : res[1].reason, /^src\/Caf\u00e9\.ts does not exist, but src\/Cafe\u0301\.ts does/);
  });

  it('an edit of a folder is refused with the words of a <file> over one (pathSafety targetRefusal)', async () => {
    fs.mkdirSync(path.join(ws, 'src', 'lib'), { recursive: true });
    const [r] = await resolveEdits(ws, [{ path: 'src/lib', hunks: [h('a', 'b')] }]);
    assert.ok(!r.ok);
    assert.strictEqual(r.reason, 'src/lib is an existing directory');
    const [p] = await proposeFiles(ws, [{ path: 'src/lib', content: 'x' }]);
    assert.strictEqual(p.reason, r.reason);
  });

  it('an edit of a file over the size limit of a write is refused before the file is read', async () => {
    const big = path.join(ws, 'src', 'huge.log');
    fs.writeFileSync(big, 'line\n'.repeat(Math.ceil((MAX_FILE_BYTES + 1) / 5)));
    const [r] = await resolveEdits(ws, [{ path: 'src/huge.log', hunks: [h('line', 'x')] }]);
    assert.ok(!r.ok);
    assert.strictEqual(r.repairable, false);
    assert.match(r.reason, /^src\/huge\.log is 10\.1 MB, over the 10 MB an edit may change; change it by hand$/);
  });

  it('off Windows, an existing file named like a Windows device (aux.c) is edited; a <file> that would create one is refused', async function () {
    if (process.platform === 'win32') this.skip();
    fs.writeFileSync(path.join(ws, 'src', 'aux.c'), 'int aux = 1;\n');
    const [r] = await resolveEdits(ws, [{ path: 'src/aux.c', hunks: [h('int aux = 1;', 'int aux = 2;')] }]);
    assert.ok(r.ok, JSON.stringify(r));
    const applied = await applyProposedFiles(editProposals([r]), { workspaceRoot: ws });
    assert.deepStrictEqual(applied.map((f) => [f.status, f.reason]), [['applied', undefined]]);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'aux.c'), 'utf8'), 'int aux = 2;\n');
    const [created] = await proposeFiles(ws, [{ path: 'src/con.h', content: 'int con;\n' }]);
    assert.strictEqual(created.status, 'refused');
    assert.match(created.reason!, /"con\.h" is a reserved device name on Windows/);
  });

  it('blocks for one file through a symlinked folder are one file: edits apply in turn, a second <file> is a duplicate', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'ab.ts'), 'const a = 1;\nconst b = 1;\n');
    fs.symlinkSync('src', path.join(ws, 'srclink'), 'dir');
    const edits = await resolveEdits(ws, [
      { path: 'src/ab.ts', hunks: [h('const a = 1;', 'const a = 2;')] },
      { path: 'srclink/ab.ts', hunks: [h('const b = 1;', 'const b = 2;')] },
    ]);
    assert.strictEqual(edits.length, 1, JSON.stringify(edits));
    assert.ok(edits[0].ok && edits[0].content === 'const a = 2;\nconst b = 2;\n', JSON.stringify(edits[0]));
    const files = await proposeFiles(ws, [
      { path: 'src/ab.ts', content: 'FIRST\n' },
      { path: 'srclink/ab.ts', content: 'SECOND\n' },
    ]);
    assert.deepStrictEqual(files.map((f) => f.status), ['refused', 'proposed']);
    assert.match(files[0].reason!, /^duplicate: a later block in the same reply also writes src\/ab\.ts \(as srclink\/ab\.ts, the same file through a symbolic link\)$/);
  });

  it('blocks for one name but for case or Unicode normalization: the duplicate says so, not a symbolic link', async () => {
    const files = await proposeFiles(ws, [
      { path: 'src/caf\u00e9.ts', content: 'NFC\n' },
      { path: 'src/cafe\u0301.ts', content: 'NFD\n' },
      { path: 'src/Readme.md', content: 'one\n' },
      { path: 'src/README.md', content: 'two\n' },
    ]);
    assert.deepStrictEqual(files.map((f) => f.status), ['refused', 'proposed', 'refused', 'proposed']);
    assert.strictEqual(files[0].reason, 'duplicate: a later block in the same reply also writes src/caf\u00e9.ts (as src/cafe\u0301.ts, the same name but for case or Unicode normalization)');
    assert.strictEqual(files[2].reason, 'duplicate: a later block in the same reply also writes src/Readme.md (as src/README.md, the same name but for case or Unicode normalization)');
  });

  it('an edit of a file that a <file> block also rewrites is refused as a duplicate', async () => {
    const edits = await resolveEdits(ws, [{ path: 'src/app.ts', hunks: [h('  const x = 1;', '  const x = 2;')] }]);
    const files = await proposeFiles(ws, [{ path: 'src/app.ts', content: 'whole\n' }]);
    const combined = combineProposals(files, edits, new Set(['src/app.ts']));
    assert.deepStrictEqual(combined.map((f) => [f.status, f.edit ?? false]), [['proposed', false], ['refused', true]]);
    assert.match(combined[1].reason!, /duplicate/);
  });
});

describe('hunks for Review Hunks (src/core/edits/hunks.ts)', () => {
  const current = 'a\nb\nc\nd\ne\nf\n';
  const proposed = 'a\nB\nc\nd\nnew\ne\n';

  it('splits a proposal into independent line hunks (change, insertion, deletion)', () => {
    const hs = textHunks(current, proposed);
    assert.deepStrictEqual(
      hs.map((h) => [h.line, h.removed, h.added, current.slice(h.start, h.end), h.text]),
      [
        [2, 1, 1, 'b\n', 'B\n'],
        [5, 0, 1, '', 'new\n'],
        [6, 1, 0, 'f\n', ''],
      ],
    );
    assert.strictEqual(applyTextHunks(current, hs), proposed);
  });

  it('any subset of hunks gives a consistent file (what ticking some of them in the preview writes)', () => {
    const hs = textHunks(current, proposed);
    assert.strictEqual(applyTextHunks(current, [hs[0], hs[2]]), 'a\nB\nc\nd\ne\n');
    assert.strictEqual(applyTextHunks(current, [hs[1]]), 'a\nb\nc\nd\nnew\ne\nf\n');
    assert.strictEqual(applyTextHunks(current, []), current);
  });

  it('a file without a final newline and CRLF text keep their bytes', () => {
    const hs = textHunks('x\r\ny', 'x\r\nz');
    assert.strictEqual(applyTextHunks('x\r\ny', hs), 'x\r\nz');
    assert.deepStrictEqual(textHunks('same\n', 'same\n'), []);
  });

  it('hunks against a CRLF document of a proposal with LF line breaks (a whole <file>) are the changed lines only, and keep CRLF', () => {
    // VS Code's document of a CRLF file: its text has CRLF, and text inserted into it takes CRLF
    const doc = 'one\r\ntwo\r\nthree\r\nfour\r\n';
    const hs = documentHunks(doc, '\r\n', 'one\nTWO\nthree\nfour\n');
    assert.deepStrictEqual(
      hs.map((x) => [x.line, x.removed, x.added, doc.slice(x.start, x.end), x.text]),
      [[2, 1, 1, 'two\r\n', 'TWO\r\n']],
    );
    assert.strictEqual(applyTextHunks(doc, hs), 'one\r\nTWO\r\nthree\r\nfour\r\n');
  });

  it("a proposal that starts with the file's byte-order mark (an <edit> keeps it) changes nothing on line 1 of the document, which holds no BOM", () => {
    // VS Code keeps a file's BOM outside the document's text and writes it back on save
    const hs = documentHunks('a\nb\nc\n', '\n', '\uFEFFa\nB\nc\n');
    assert.deepStrictEqual(hs.map((x) => [x.line, x.removed, x.added, x.text]), [[2, 1, 1, 'B\n']]);
    assert.ok(!applyTextHunks('a\nb\nc\n', hs).includes('\uFEFF'), 'no BOM inside the text (a second one on save)');
    // a document that does hold one as text keeps it
    assert.deepStrictEqual(documentHunks('\uFEFFa\n', '\n', '\uFEFFa\n'), []);
  });

  it("names each hunk's place for the refactor preview: an insertion at the very start is before line 1, one line is a line", () => {
    const places = textHunks('a\nb\nc\nd\n', 'top\na\nB\nc\n\nend\n').map(hunkPlace);
    assert.deepStrictEqual(places, ['insert before line 1', 'line 2', 'line 4']);
    assert.deepStrictEqual(textHunks('a\nb\n', 'a\nb\nc\n').map(hunkPlace), ['insert after line 2']);
    assert.deepStrictEqual(textHunks('a\nb\nc\n', 'x\ny\nc\n').map(hunkPlace), ['lines 1–2']);
  });

  it('places an insertion that could sit a few lines up or down where it ends with a blank line, as git does: one hunk, no stray `/**`', () => {
    const cur = ['import { a } from "./a";', '', '/**', ' * Old.', ' */', 'export function old() {}', ''].join('\n');
    // a helper and a documented function inserted above the old one's doc comment
    const added = ['function helper() {}', '', '/**', ' * New.', ' */', 'export function added() {}', '', ''].join('\n');
    const at = cur.indexOf('/**');
    const prop = cur.slice(0, at) + added + cur.slice(at);
    const hs = textHunks(cur, prop);
    assert.deepStrictEqual(hs.map((h) => [h.line, h.removed, h.text]), [[3, 0, added]]);
    assert.strictEqual(applyTextHunks(cur, hs), prop);
    // a removed block slides the same way; an insertion with no blank line to end on stays where the diff put it
    assert.deepStrictEqual(textHunks(prop, cur).map((h) => [h.line, h.removed, prop.slice(h.start, h.end)]), [[3, 7, added]]);
    assert.deepStrictEqual(textHunks('x\ny\n', 'x\ny\ny\n').map((h) => [h.line, h.text]), [[3, 'y\n']]);
  });

  it('a file without a final newline: only a real change of the last line is a hunk', () => {
    assert.deepStrictEqual(documentHunks('x\r\ny', '\r\n', 'x\ny'), []);
    assert.deepStrictEqual(documentHunks('x\r\ny', '\r\n', 'x\nz').map((x) => x.text), ['z']);
  });
});

describe('changed lines for a reader (changedLinesText)', () => {
  it('heads each hunk with its line and removed count, shows only the added lines, and counts what the room leaves out', () => {
    const current = 'a\nsecret\nc\n';
    const proposed = 'a\nb1\nb2\nb3\nc\nd\n';
    assert.strictEqual(changedLinesText(current, proposed, 1000), '@@ line 2, 1 line(s) removed\n+b1\n+b2\n+b3\n@@ line 4\n+d');
    assert.strictEqual(changedLinesText(current, proposed, 36), '@@ line 2, 1 line(s) removed\n+b1\n… 3 more added line(s)');
    assert.strictEqual(changedLinesText('x\r\ny\r\n', 'x\ny\n', 1000), '', 'line endings are no change');
    assert.strictEqual(changedLinesText('', 'new\n', 1000), '@@ line 1\n+new');
  });

  it('shows an added blank line as a bare "+", without a trailing space', () => {
    assert.strictEqual(changedLinesText('a\n', 'a\n\nb\n', 1000), '@@ line 2\n+\n+b');
  });

  it('writes an added line right after its "+", as a unified diff does: its indentation reads as it is', () => {
    // a Rust trial's retrospective read `+     ///` (a space, then four) as one space too many
    assert.strictEqual(changedLinesText('a\n', 'a\n    /// doc\n', 1000), '@@ line 2\n+    /// doc');
  });
});

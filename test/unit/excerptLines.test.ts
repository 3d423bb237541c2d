// How the excerpts read a file's lines (core/workspace/excerptLines.ts): here its leading imports (importHeader), the
// lines an excerpt opens with so that an <edit> adding an import can anchor its SEARCH on one.
import * as assert from 'assert';
import { importHeader } from '../../src/core/workspace/excerptLines';
import { fileLines } from '../../src/core/text/lines';

describe('the import header of a file', () => {
  it('reads a CRLF file’s import block with a comment after its bracket as its LF twin’s', () => {
    // lines split on `\n` keep a CRLF file's `\r`: `import {  // the helpers\r` opens its block as well
    const ts = ['import {  // the helpers', '  save, load,', '  type Options,', "} from './helpers';", "import { c } from './c';", '', 'go();'];
    const go = ['package main', '', 'import (  // the standard library', '\t"fmt"', '\t"os"', ')', '', 'func main() {}'];
    for (const [lines, header] of [[ts, { start: 1, end: 5 }], [go, { start: 3, end: 6 }]] as const) {
      for (const eol of ['\n', '\r\n']) assert.deepStrictEqual(importHeader(fileLines(lines.join(eol) + eol)), header, `${lines[0]} ${JSON.stringify(eol)}`);
    }
  });

  it('reads the imports of a file whose first lines hold a long run of spaces or brackets in one pass', () => {
    // a workspace file is untrusted: IMPORT_LINE's `(const|let|var)\s+[\w${},:\s]+=` split a run of spaces every
    // way (13 s at 100,000), and the bracket at the end of a CRLF line was looked for from each `{` up to its `\r`
    const spaces = ' '.repeat(100_000);
    assert.strictEqual(importHeader([`const${spaces}x`]), null);
    assert.deepStrictEqual(importHeader([`const${spaces}{ a }${spaces}= require('a');`, 'go()']), { start: 1, end: 1 });
    const brackets = `import ${'{//'.repeat(100_000)}`;
    assert.deepStrictEqual(importHeader([`${brackets}{\r`, '  a,', "} from './a';\r", 'go()']), { start: 1, end: 3 }, 'a bracket last');
    // a lone `\r` inside the line ends the comment, as `.` stops at it: no bracket last
    assert.deepStrictEqual(importHeader([`${brackets}\r;\r`, 'go()']), { start: 1, end: 1 }, 'a comment cut by a line break');
  });
});

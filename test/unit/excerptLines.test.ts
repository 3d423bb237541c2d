// How the excerpts read a file's lines (core/workspace/excerptLines.ts): here its leading imports (importHeader), the
// lines an excerpt opens with so that an <edit> adding an import can anchor its SEARCH on one.
import * as assert from 'assert';
import { importHeader } from '../../src/core/workspace/excerptLines';

describe('the import header of a file', () => {
  it('reads the imports of a file whose first lines hold a long run of spaces or brackets in one pass', () => {
    // a workspace file is untrusted: IMPORT_LINE's `(const|let|var)\s+[\w${},:\s]+=` split a run of spaces every
    // way (13 s at 100,000), and the bracket at the end of a CRLF line was looked for from each `{` up to its `\r`
    const spaces = ' '.repeat(100_000);
    assert.strictEqual(importHeader([`const${spaces}x`]), null);
    assert.deepStrictEqual(importHeader([`const${spaces}{ a }${spaces}= require('a');`, 'go()']), { start: 1, end: 1 });
    const brackets = `import ${'{//'.repeat(100_000)}`;
    assert.deepStrictEqual(importHeader([`${brackets}{\r`, '  a,', "} from './a';\r", 'go()']), { start: 1, end: 3 }, 'a bracket last');
    assert.deepStrictEqual(importHeader([`${brackets}\r`, 'go()']), { start: 1, end: 1 }, 'a comment cut by a line break: no bracket last');
  });
});

// Where an answer's evidence points (src/core/session/evidence.ts): the places a role cites, cut out of the text for
// the panel to open at their lines, the rest left as text.
import * as assert from 'assert';
import { evidenceParts, MAX_LINE } from '../../src/core/session/evidence';

const places = (e: string) => evidenceParts(e).filter((p) => p.place).map((p) => [p.text, p.place]);

describe('answer evidence (src/core/session/evidence.ts)', () => {
  it('cuts path:line, path:from-to and the further lines of the same file out of the text, which stays whole', () => {
    const e = 'src/list.tsx:22-26, 82-88; src/api/get.ts:13–17 and flag.go:543 (the setter), cli.py#L40-L44';
    assert.deepStrictEqual(places(e), [
      ['src/list.tsx:22-26', { path: 'src/list.tsx', line: 22, endLine: 26 }],
      ['82-88', { path: 'src/list.tsx', line: 82, endLine: 88 }],
      ['src/api/get.ts:13–17', { path: 'src/api/get.ts', line: 13, endLine: 17 }],
      ['flag.go:543', { path: 'flag.go', line: 543 }],
      ['cli.py#L40-L44', { path: 'cli.py', line: 40, endLine: 44 }],
    ]);
    assert.strictEqual(evidenceParts(e).map((p) => p.text).join(''), e);
  });

  it('a path in a folder with an extension is a place without lines; a bare word with a dot is not', () => {
    assert.deepStrictEqual(places('src/delete-discussion.tsx (the Authorization wrapper); .github/workflows/ci.yml'), [
      ['src/delete-discussion.tsx', { path: 'src/delete-discussion.tsx' }],
      ['.github/workflows/ci.yml', { path: '.github/workflows/ci.yml' }],
    ]);
    assert.deepStrictEqual(places('e.g. v1.2 of README.md, 3 places, node.js'), []);
  });

  it('never a place out of the workspace, a link or an impossible line', () => {
    assert.deepStrictEqual(places('../secret.ts:3, src/../../x.ts:4, https://example.com/a.js:5, //host/b.ts:1'), []);
    assert.deepStrictEqual(places('a.ts:0'), []);
    assert.deepStrictEqual(places(`a.ts:${MAX_LINE + 1}`), []);
    // an end before the start is dropped, the start kept
    assert.deepStrictEqual(places('a.ts:40-12'), [['a.ts:40-12', { path: 'a.ts', line: 40 }]]);
  });

  it('a number after a place that is not a line range of it stays text', () => {
    assert.deepStrictEqual(places('a.ts:4, 2.5 times faster; b.ts:7,8x'), [
      ['a.ts:4', { path: 'a.ts', line: 4 }],
      ['b.ts:7', { path: 'b.ts', line: 7 }],
    ]);
    assert.deepStrictEqual(evidenceParts(''), []);
  });
});

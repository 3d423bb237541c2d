// The places DA's reply cites, added to what it read, for DevA's excerpts (session/citations.ts).
import * as assert from 'assert';
import { MAX_CITED_PLACES, withCitations } from '../../src/core/session/citations';

describe("the places an upstream role's reply cites", () => {
  it('adds each cited line range to its file, once; a file cited but not read gets an entry; a path without lines is no place', () => {
    const read = [{ path: 'lib/command.js', lines: [[640, 780]] as [number, number][] }];
    const reply = JSON.stringify({
      handoff_notes_for_deva: ['command-line values arrive through the listener (lib/command.js:710-713); env ones at lib/command.js:716–719', 'see lib/option.js:21, 22'],
      answered_questions: [{ evidence: 'lib/command.js:710-713, ./lib/help.js:325' }],
      references: ['README.md', 'lib/option.js'],
    });
    assert.deepStrictEqual(withCitations(read, reply), [
      { path: 'lib/command.js', lines: [[640, 780]], cited: [[710, 713], [716, 719]] },
      { path: 'lib/option.js', cited: [[21, 21], [22, 22]] },
      { path: 'lib/help.js', cited: [[325, 325]] },
    ]);
    assert.deepStrictEqual(read, [{ path: 'lib/command.js', lines: [[640, 780]] }], 'what was read is left as it was');
    assert.deepStrictEqual(withCitations(read, ''), read);
  });

  it('takes at most MAX_CITED_PLACES places of one reply, a place cited again not counted; ./ before a path dropped', () => {
    const reply = Array.from({ length: 40 }, (_, i) => `src/a.ts:${i + 1}`).join(' ');
    assert.strictEqual(withCitations([], reply)[0].cited!.length, MAX_CITED_PLACES);
    const again = `${'src/a.ts:7 '.repeat(40)}././src/b.ts:3`;
    assert.deepStrictEqual(withCitations([], again), [
      { path: 'src/a.ts', cited: [[7, 7]] },
      { path: 'src/b.ts', cited: [[3, 3]] },
    ]);
  });
});

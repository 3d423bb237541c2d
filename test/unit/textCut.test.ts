// text/cut.ts: the cuts of text for people and for the model (shorten for a budget, lineWithin for a row in a list).
import * as assert from 'assert';
import { lineWithin, oneLine, shorten } from '../../src/core/text/cut';
import { kptDigest } from '../../src/core/kpt/digest';

describe('text: lineWithin', () => {
  it('is one line that fits in max code points, the "…" included; a line that fits is kept whole', () => {
    assert.strictEqual(lineWithin('a\n b\t c', 100), 'a b c');
    assert.strictEqual(lineWithin('abcdef', 6), 'abcdef');
    assert.strictEqual(lineWithin('abcdefg', 6), 'abcde…');
    // an emoji is one character: never half of it, and the count is what a person sees
    assert.strictEqual(lineWithin('😀'.repeat(10), 10), '😀'.repeat(10));
    assert.strictEqual(lineWithin('😀'.repeat(11), 10), '😀'.repeat(9) + '…');
    // the cut does not leave a space before the mark
    assert.strictEqual(lineWithin('word another', 6), 'word…');
    assert.strictEqual(lineWithin('abc', 1), 'a…');
  });

  it('differs from shorten only where it should: shorten adds the mark on top of its budget', () => {
    assert.strictEqual(shorten('abcdefg', 6), 'abcdef…');
    assert.strictEqual(lineWithin(' x  y ', 10), oneLine(' x  y '));
  });

  it('cuts the KPT digest\'s items by the same rule', () => {
    const text = 'Keep the release notes short and to the point. '.repeat(10);
    const digest = kptDigest([{ kind: 'try', taskId: 't1', text }]);
    const line = digest.split('\n').find((l) => l.includes('release notes')) ?? '';
    assert.ok(line.includes(lineWithin(text, 180)), line);
  });
});

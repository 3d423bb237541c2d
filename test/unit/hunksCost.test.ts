// What Review Hunks and the retrospective's changed lines (core/edits/hunks.ts) cost on a large file that changes on
// every line: a whole <file> that re-indents a big module must not freeze the editor while its hunks are computed
// (bench/editMatch.ts times it).
import * as assert from 'assert';
import { applyTextHunks, changedLinesText, textHunks } from '../../src/core/edits/hunks';

function module(lines: number, indent: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${indent}total += values[${i}] * ${i % 7};`);
  return ['export function sum(values: number[]): number {', 'let total = 0;', ...out, 'return total;', '}', ''].join('\n');
}

describe('hunks of a large file changed on every line', () => {
  it('past the diff\'s bound, are one hunk from the first changed line to the last (the bench times it)', () => {
    const current = module(20_000, '  ');
    // every line re-indented but one in the middle: an unbounded diff would keep that line and give two hunks
    const lines = module(20_000, '\t').split('\n');
    lines[10_002] = current.split('\n')[10_002];
    const proposed = lines.join('\n');
    const hs = textHunks(current, proposed);
    assert.strictEqual(applyTextHunks(current, hs), proposed);
    assert.deepStrictEqual(
      hs.map((h) => [h.line, h.removed, h.added]),
      [[3, 20_000, 20_000]],
      'the unchanged lines before and after stay out of the hunk',
    );
    assert.ok(changedLinesText(current, proposed, 2000).startsWith('@@ line 3, 20000 line(s) removed\n+\ttotal += values[0] * 0;'));
  });

  it('still gives a few scattered changes of a large file one hunk each', () => {
    const current = module(20_000, '  ');
    const lines = current.split('\n');
    for (const at of [10, 5000, 19_990]) lines[at] = `${lines[at]} // checked`;
    const proposed = lines.join('\n');
    const hs = textHunks(current, proposed);
    assert.deepStrictEqual(
      hs.map((h) => [h.line, h.removed, h.added]),
      [
        [11, 1, 1],
        [5001, 1, 1],
        [19_991, 1, 1],
      ],
    );
    assert.strictEqual(applyTextHunks(current, hs), proposed);
  });
});

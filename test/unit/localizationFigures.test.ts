// The localization bench's figures (bench/localization.ts): recall, all-files share, the ceiling and the ranking's
// own top-K share, per repository and overall, from case results (no repositories needed).
import { strict as assert } from 'assert';
import { figures, mostThatFit, TOP_K, type CaseResult } from '../../bench/localization';

function result(repo: string, modified: string[], ours: string[], ranks: number[], baseRanks: number[], fittingTogether = modified.length): CaseResult {
  return { id: `${repo}-${modified.join('+')}`, repo, modified, ours, baseline: [], ranks, baseRanks, files: 100, fitting: modified.length, fittingTogether, misses: [] };
}

describe('localization figures', () => {
  it('counts the modified files ranked in the first TOP_K apart from what the budget let through', () => {
    const rs = [
      // both ranked in the first TOP_K, only one sent whole
      result('a', ['x.ts', 'y.ts'], ['x.ts'], [0, TOP_K - 1], [3, -1]),
      // ranked just past TOP_K, and not at all
      result('a', ['z.ts'], [], [TOP_K], [0]),
      result('b', ['w.ts'], [], [-1], [-1]),
    ];
    const [a, b, all] = figures(rs);
    assert.deepStrictEqual([a.repo, b.repo, all.repo], ['a', 'b', 'all']);
    assert.strictEqual(a.recall, 1 / 3);
    assert.strictEqual(a.all, 0);
    assert.strictEqual(a.topK, 2 / 3);
    assert.strictEqual(a.baseTopK, 2 / 3);
    assert.strictEqual(b.topK, 0, 'a file that is not ranked is not in the first TOP_K');
    assert.strictEqual(all.topK, 2 / 4);
    assert.strictEqual(all.recall, 1 / 4);
    assert.strictEqual(all.all, 0);
  });

  it('counts, as the true ceiling, the modified files that fit whole together with the rest of their case', () => {
    assert.strictEqual(mostThatFit([30, 50, 10], 60), 2, 'the two smallest fit together, not all three');
    assert.strictEqual(mostThatFit([70], 60), 0);
    assert.strictEqual(mostThatFit([20, 40], 60), 2);
    assert.strictEqual(mostThatFit([], 60), 0);
    // each file fits alone (ceiling 1), but only one of the first case's two fits with the other
    const [a] = figures([result('a', ['x.ts', 'y.ts'], ['x.ts'], [0, 1], [0, 1], 1), result('a', ['z.ts'], ['z.ts'], [0], [0])]);
    assert.strictEqual(a.ceiling, 1);
    assert.strictEqual(a.jointCeiling, 2 / 3);
    assert.strictEqual(a.jointAll, 1 / 2);
  });
});

// The localization bench's figures (bench/localization.ts): recall, all-files share, the ceiling and the ranking's
// own top-K share, per repository and overall, from case results (no repositories needed).
import { strict as assert } from 'assert';
import { diffHunks, figures, hunksShown, mostThatFit, sourceOnly, TOP_K, type CaseResult } from '../../bench/localization';

function result(repo: string, modified: string[], ours: string[], ranks: number[], baseRanks: number[], fittingTogether = modified.length, excerpted: string[] = []): CaseResult {
  return { id: `${repo}-${modified.join('+')}`, repo, modified, ours, excerpted, baseline: [], ranks, baseRanks, files: 100, fitting: modified.length, fittingTogether, misses: [] };
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

  it('source files alone: the tests a case changed are set apart, and a case of tests only is left out', () => {
    const withBase = (r: CaseResult, baseline: string[]) => ({ ...r, baseline });
    const rs = [
      withBase(result('a', ['src/x.ts', 'test/x.test.ts'], ['src/x.ts'], [0, 20], [0, 1]), ['test/x.test.ts']),
      withBase(result('a', ['src/y.ts', 'src/z.ts'], ['src/y.ts'], [0, 30], [0, 1]), ['src/y.ts', 'src/z.ts']),
      withBase(result('a', ['test/only.test.ts'], [], [40], [2]), []),
    ];
    assert.deepStrictEqual(sourceOnly(rs), { cases: 2, recall: 2 / 3, all: 1 / 2, baseRecall: 2 / 3, baseAll: 1 / 2 });
    assert.strictEqual(figures(rs).at(-1)!.recall, 2 / 5, 'the main figure counts every modified file');
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

  it('counts the changed hunks shown by whole files, and by whole files or excerpts', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '@@ -10,3 +10,4 @@ export function a() {',
      '-x',
      '@@ -40 +41 @@',
      '-y',
      '@@ -70,0 +72,2 @@ function b() {',
      '+z',
      '@@ -0,0 +1 @@',
      '+first',
    ].join('\n');
    const hunks = diffHunks(diff);
    assert.deepStrictEqual(hunks, [[10, 12], [40, 40], [70, 70], [1, 1]], 'changed lines; an insertion is placed by the line it follows');
    assert.strictEqual(hunksShown(hunks, true), 4);
    assert.strictEqual(hunksShown(hunks, false), 0);
    assert.strictEqual(hunksShown(hunks, false, [{ start: 5, end: 11 }, { start: 38, end: 72 }]), 2, 'a hunk only partly inside is not shown');
    const withHunks = (r: CaseResult, h: CaseResult['hunks']) => ({ ...r, hunks: h });
    const [a, all] = figures([
      withHunks(result('a', ['x.ts', 'y.ts'], ['x.ts'], [0, 1], [0, 1]), [
        { path: 'x.ts', hunks: 2, whole: 2, shown: 2 },
        { path: 'y.ts', hunks: 3, whole: 0, shown: 1 },
      ]),
      result('a', ['z.ts'], [], [0], [0]), // its commit is not in the bundle: left out of the hunk figures
    ]);
    assert.strictEqual(a.hunkCases, 1);
    assert.strictEqual(a.hunksWhole, 2 / 5);
    assert.strictEqual(a.hunksShown, 3 / 5);
    assert.strictEqual(all.hunksShown, 3 / 5);
  });

  it('counts the modified files given whole or in excerpts', () => {
    const [a, b, all] = figures([
      result('a', ['x.ts', 'y.ts', 'z.ts'], ['x.ts'], [0, 1, 2], [0, 1, 2], 3, ['y.ts', 'other.ts']),
      result('b', ['w.ts'], [], [0], [0]),
    ]);
    assert.strictEqual(a.filesShown, 2 / 3, 'whole or excerpted; an excerpted file not modified does not count');
    assert.strictEqual(a.recall, 1 / 3, 'recall still counts whole files alone');
    assert.strictEqual(b.filesShown, 0);
    assert.strictEqual(all.filesShown, 2 / 4);
  });
});

// RR's criteria figure (core/metrics/reproducibility.ts) on its own, and against hand-labelled real answers:
// test/fixtures/rr/poa-criteria.json holds POA's criteria from three independent answers to each of three real POA
// requests (koa and got trials), with the pairs a person judged to be the same criterion.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { criteriaSimilarity, jaccard, reproducibility } from '../../src/core/metrics/reproducibility';
import { repoRoot } from '../helpers/fixtures';

interface Labelled {
  objectives: { name: string; runs: string[][]; pairs: { runs: [number, number]; matches: [number, number][] }[] }[];
}

const soft = (matches: number, a: number, b: number) => matches / (a + b - matches);

describe('reproducibility: criteria and files', () => {
  it('is 1 for alike lists and for two empty ones, 0 for unrelated ones, and matches each criterion once', () => {
    const a = ['Given a saved task, When the user reloads, Then the task is still listed', 'Given no tasks, When the list opens, Then it says so'];
    assert.strictEqual(criteriaSimilarity(a, [...a].reverse()), 1);
    assert.strictEqual(criteriaSimilarity([], []), 1);
    assert.strictEqual(criteriaSimilarity(a, ['Given an invoice, When it is paid, Then a receipt is emailed']), 0);
    // one criterion of A like both of B: one match, so 1 / (1 + 2 - 1)
    assert.strictEqual(criteriaSimilarity([a[0]], [a[0], a[0].replace('reloads', 'reloads the page')]), 0.5);
    assert.strictEqual(jaccard(['src/a.ts', 'src/b.ts'], ['src/b.ts', 'src/c.ts']), 1 / 3);
    const rr = reproducibility([
      { taskId: 't1', criteria: a, files: ['src/a.ts'] },
      { taskId: 't2', criteria: a, files: ['src/a.ts', 'src/b.ts'] },
      { taskId: 't3', criteria: null, files: null },
    ]);
    assert.deepStrictEqual([rr.criteria, rr.files, rr.rr], [1, 0.5, 0.75]);
  });

  it('compares the whole criterion: the part after a dash and the bracketed details tell criteria apart', () => {
    const a = ['Login form — shows an error message for a wrong password', 'Login form — locks the account after five failed attempts'];
    const b = ['Login form — redirects to the dashboard after success', 'Login form — remembers the email address when asked'];
    assert.strictEqual(criteriaSimilarity(a, b), 0);
    assert.strictEqual(criteriaSimilarity(['Note search (matches titles by prefix, ignoring case)'], ['Note search (an empty query lists every note)']), 0);
    assert.strictEqual(criteriaSimilarity(a, a.map((x) => x.replace('Login form —', 'Login form:'))), 1, 'punctuation still does not count');
  });

  it('comes within 0.1 of a person’s judgement on real answers, where one objective’s criteria all share its words', () => {
    const data = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'test', 'fixtures', 'rr', 'poa-criteria.json'), 'utf8')) as Labelled;
    const errors: number[] = [];
    for (const o of data.objectives) {
      for (const p of o.pairs) {
        const [a, b] = p.runs.map((r) => o.runs[r - 1]);
        const computed = criteriaSimilarity(a, b);
        const judged = soft(p.matches.length, a.length, b.length);
        errors.push(Math.abs(computed - judged));
        assert.ok(Math.abs(computed - judged) <= 0.2, `${o.name} runs ${p.runs.join('/')}: ${computed.toFixed(2)} against ${judged.toFixed(2)}`);
      }
    }
    assert.strictEqual(errors.length, 9);
    const mean = errors.reduce((s, x) => s + x, 0) / errors.length;
    assert.ok(mean <= 0.1, `mean error ${mean.toFixed(3)}`);
  });
});

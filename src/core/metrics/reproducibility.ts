// RR, the CAPE paper's reproducibility: how alike runs of the same objective on the same inputs are. Computed in code
// from what each run saved (`cape repeat` runs them: core/session/repeat.ts).
//
// The similarity, decided once:
//  - files: the Jaccard index |A ∩ B| / |A ∪ B| of the workspace-relative paths DevA proposed (refused files left out);
//  - acceptance criteria: a soft Jaccard over POA's criterion texts (the ids are always AC-1, AC-2…, so they say
//    nothing): two criteria match when the Dice coefficient of their character bigrams (kpt/similarity.ts
//    diceSimilarity over the whole text: not KPT grouping's core before a dash without bracketed details, which would
//    take "Login form — shows an error" and "Login form — redirects" for one criterion; Given / When / Then removed
//    first, since every criterion has them) is at least CRITERION_MATCH_THRESHOLD; pairs are matched greedily, best first, each criterion at most once; the index is
//    matches / (|A| + |B| − matches). Two empty lists are alike (1);
//  - a run's figures are the mean over every pair of runs (the saved session and its repeats); RR is the mean of the
//    criteria and files figures. A run that failed before DevA has no files and is left out of the files figure
//    (likewise before POA for the criteria); it counts as a run that did not reproduce in `completed`.
import { diceSimilarity } from '../kpt';

/**
 * Two criteria texts are the same criterion from this Dice similarity on. Rewordings of one criterion across runs
 * share most of their words; different criteria of one objective share the objective's vocabulary, so the bar is
 * higher than KPT grouping's 0.35. In English, different criteria of one objective score 0.5–0.8 too: what keeps the
 * figure right is the best-first matching, each criterion matched once. Checked against a person's judgement on real
 * answers (test/fixtures/rr: three independent POA answers to each of three real requests): the figure is within
 * 0.075 of the judged one on average (at most 0.19); content words (KPT grouping's English features) at 0.35 do a
 * little better (0.053), at 0.5 worse (0.109), and bigrams at 0.35 worse (0.138), so the measure stays as it is.
 */
export const CRITERION_MATCH_THRESHOLD = 0.5;

export interface RunSignature {
  taskId: string;
  /** POA's criterion texts; null when the run did not get as far as POA. */
  criteria: string[] | null;
  /** DevA's proposed paths; null when the run did not get as far as DevA. */
  files: string[] | null;
}

export interface PairSimilarity {
  a: string;
  b: string;
  criteria: number | null;
  files: number | null;
}

export interface Reproducibility {
  /** Mean pairwise soft Jaccard of the criteria (null with fewer than two runs that have criteria). */
  criteria: number | null;
  /** Mean pairwise Jaccard of the file lists (null with fewer than two runs that have files). */
  files: number | null;
  /** Mean of the two figures present; null when neither is. */
  rr: number | null;
  pairs: PairSimilarity[];
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (A.size === 0 && B.size === 0) return 1;
  let inter = 0;
  for (const x of B) if (A.has(x)) inter++;
  return inter / (A.size + B.size - inter);
}

function criterionCore(text: string): string {
  return text.replace(/\b(given|when|then|and)\b/gi, ' ');
}

/** Soft Jaccard of two lists of criterion texts (see the header). */
export function criteriaSimilarity(a: readonly string[], b: readonly string[], threshold = CRITERION_MATCH_THRESHOLD): number {
  if (a.length === 0 && b.length === 0) return 1;
  const pairs: { i: number; j: number; s: number }[] = [];
  a.forEach((x, i) =>
    b.forEach((y, j) => {
      const s = diceSimilarity(criterionCore(x), criterionCore(y), { whole: true });
      if (s >= threshold) pairs.push({ i, j, s });
    }),
  );
  pairs.sort((p, q) => q.s - p.s || p.i - q.i || p.j - q.j);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let matches = 0;
  for (const p of pairs) {
    if (usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    matches++;
  }
  return matches / (a.length + b.length - matches);
}

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/** Pairwise similarities of the runs and their means (see the header). */
export function reproducibility(runs: readonly RunSignature[]): Reproducibility {
  const pairs: PairSimilarity[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const a = runs[i];
      const b = runs[j];
      pairs.push({
        a: a.taskId,
        b: b.taskId,
        criteria: a.criteria && b.criteria ? criteriaSimilarity(a.criteria, b.criteria) : null,
        files: a.files && b.files ? jaccard(a.files, b.files) : null,
      });
    }
  }
  const criteria = mean(pairs.flatMap((p) => (p.criteria === null ? [] : [p.criteria])));
  const files = mean(pairs.flatMap((p) => (p.files === null ? [] : [p.files])));
  return { criteria, files, rr: mean([criteria, files].filter((x): x is number => x !== null)), pairs };
}

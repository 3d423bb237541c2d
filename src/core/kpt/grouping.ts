// KPT recurrence grouping: items compared by the Dice coefficient over their features (similarity.ts: character
// bigrams for text in a script written without spaces, content words for the others — character bigrams of two
// unrelated English sentences overlap at 0.38–0.54, above any usable threshold, so a retrospective's distinct items
// merged into one group); similar items form one group with its count.
// Plain Node: nothing in src/core may import 'vscode'.
import type { KptItem, KptKind } from '../model/types';
import { KPT_KINDS } from './kpt';
import { featuresOf, NEGATION, normalised } from './similarity';

export interface KptGroup {
  kind: KptKind;
  /** The text of the group's first (oldest) item. */
  representative: string;
  /** Items in their original order. */
  items: KptItem[];
  /** Distinct task ids, in order of first appearance. */
  taskIds: string[];
  /** Distinct sessions: distinct task ids, each untagged item counting as its own session. */
  count: number;
  /** Task id of the most recent tagged item (null when none is tagged). */
  lastTaskId: string | null;
  /** Index (in the input) of the most recent item: larger = more recent. */
  lastIndex: number;
}

/**
 * Default similarity threshold (Dice over kptFeatures: for Japanese, the character-bigram sets of the normalised core
 * text, see normaliseKptText). Chosen on the real 8-session kpt_merged.md of the original CLI: clearly repeated items (the
 * "DoR not met" Problems, the "keyframes fully specified" and "scope declaration at the start" Keeps, the
 * "TodoContext change without a GO" Problems) score 0.36–1.0 against their nearest repeat, while the nearest
 * unrelated item scores at most ~0.30 (most below 0.25). 0.35 separates the two; the fixture test in
 * test/unit/kpt.test.ts checks it. Over English content words, unrelated items of one retrospective score 0–0.2 and
 * rewordings of one item 0.6–0.9 (the English test there).
 */
export const DEFAULT_GROUP_THRESHOLD = 0.35;

/**
 * Items this short (in features: content words, or bigrams) must agree more to be one: two words that share one
 * ("Tests pass" and "Tests fail") score 0.5 at Dice, above the threshold, and are not the same item. Where either
 * item has at most FEW_FEATURES features, the threshold is at least FEW_FEATURES_THRESHOLD: one word of two shared
 * is not enough, two of three are ("Write tests first" / "Write tests before coding").
 */
const FEW_FEATURES = 3;
const FEW_FEATURES_THRESHOLD = 0.6;

/** The Dice two items of n and m features need to be one item, at the threshold t. */
export function thresholdFor(n: number, m: number, t: number): number {
  return Math.min(n, m) <= FEW_FEATURES ? Math.max(t, FEW_FEATURES_THRESHOLD) : t;
}

function sortedIntersectionSize(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/** Each group is compared through its first few distinct members (its anchors): bounded work, some chaining. */
export const GROUP_ANCHORS = 3;
/**
 * A bigram found in more than this many anchors of one kind is not used to find candidates (it still counts when
 * a candidate is verified). Up to that size grouping is exact; beyond it, two items whose only shared bigrams are
 * such ubiquitous ones may be missed — boilerplate, not a recurrence. This bounds the work per item, so 10,000
 * items take ~100 ms whatever their content.
 */
export const MAX_POSTING = 64;

/** With skipped bigrams, at most this many candidates per item are verified exactly. */
const MAX_VERIFY = 24;

export interface GroupKptOptions {
  /** Dice threshold (default DEFAULT_GROUP_THRESHOLD). */
  threshold?: number;
  /** Override MAX_POSTING (Infinity = exact search, quadratic in the worst case; for tests). */
  maxPosting?: number;
}

/**
 * Groups items that recur across sessions, separately per kind (a group never mixes kinds).
 *
 * Items are taken in order (oldest first). Each one joins the group with the highest Dice (≥ threshold, higher for
 * short items: thresholdFor) against
 * any of the group's anchors (its first GROUP_ANCHORS distinct members; ties → the older group), or starts a new
 * group. Exact repeats (after normalisation) join directly. Instead of comparing all pairs, an inverted index
 * maps each bigram to the anchors containing it; one pass over an item's bigrams counts the shared bigrams of
 * every anchor (ScanCount). A length bound (Dice ≥ t ⇒ t/(2−t) ≤ |y|/|x| ≤ (2−t)/t) and an upper bound on the
 * score prune anchors before any exact comparison, and candidates are verified best-bound first.
 */
export function groupKpt(items: KptItem[], opts: GroupKptOptions = {}): KptGroup[] {
  const t = Math.min(1, Math.max(0.01, opts.threshold ?? DEFAULT_GROUP_THRESHOLD));
  const maxPosting = opts.maxPosting ?? MAX_POSTING;
  const parts = items.map((it) => normalised(it.text));
  const norm = parts.map((p) => p.norm);
  // features (kptFeatures) as small integer ids (interned), each item's as a sorted array of distinct ids
  const intern = new Map<string, number>();
  const gramIds = (i: number): Int32Array => {
    const grams = featuresOf(parts[i]);
    const ids = new Int32Array(grams.length);
    for (let k = 0; k < grams.length; k++) {
      let id = intern.get(grams[k]);
      if (id === undefined) {
        id = intern.size;
        intern.set(grams[k], id);
      }
      ids[k] = id;
    }
    return ids.sort(); // featuresOf() already returns distinct features
  };
  const groups: KptGroup[] = [];
  const groupKeys: Set<string>[] = [];
  const keyOf = (i: number): string => items[i].taskId ?? `\u0000untagged#${i}`;

  // a statement and its negation share their content words ("CI is not green", "CI is green") but are opposite items:
  // they never group (adopting one Try must not adopt "Do not …")
  const negated = parts.map((p) => NEGATION.test(p.core));
  for (const [kind, neg] of KPT_KINDS.flatMap((k) => [[k, false] as const, [k, true] as const])) {
    const index: number[][] = []; // bigram id → anchor ids
    const exact = new Map<string, number>(); // normalised text → group
    const anchorGroup: number[] = [];
    const anchorIds: Int32Array[] = [];
    const anchorsOf: number[] = []; // group → number of anchors
    let counts = new Int32Array(64);
    const touched: number[] = [];
    for (let i = 0; i < items.length; i++) {
      if (items[i].kind !== kind || negated[i] !== neg) continue;
      let gi = exact.get(norm[i]) ?? -1;
      let ids: Int32Array | null = null;
      if (gi < 0) {
        ids = gramIds(i);
        const n = ids.length;
        const lo = (n * t) / (2 - t);
        const hi = (n * (2 - t)) / t;
        let skipped = 0; // bigrams of this item not used for the candidate search
        for (let k = 0; k < n; k++) {
          const posting = index[ids[k]];
          if (!posting) continue;
          if (posting.length > maxPosting) {
            skipped++;
            continue;
          }
          for (let q = 0; q < posting.length; q++) if (counts[posting[q]]++ === 0) touched.push(posting[q]);
        }
        let bestScore = -1;
        // Without skipped bigrams the counts are exact overlaps. With skipped ones, counts only cover the rarer
        // bigrams: keep the MAX_VERIFY candidates sharing the most of those, and verify them exactly.
        const top: number[] = [];
        for (const a of touched) {
          const m = anchorIds[a].length;
          const c = counts[a];
          counts[a] = 0;
          if (m < lo || m > hi) continue;
          if (!skipped) {
            const score = (2 * c) / (n + m);
            const g = anchorGroup[a];
            if (score >= thresholdFor(n, m, t) && (score > bestScore || (score === bestScore && g < gi))) {
              bestScore = score;
              gi = g;
            }
          } else if ((2 * Math.min(c + skipped, m, n)) / (n + m) >= t) {
            counts[a] = -c; // keep the count (negated, so the loop above is not confused) for the ranking below
            top.push(a);
          }
        }
        if (skipped && top.length) {
          if (top.length > MAX_VERIFY) {
            top.sort((x, y) => counts[x] - counts[y] || x - y); // most shared rare bigrams first
            for (let q = MAX_VERIFY; q < top.length; q++) counts[top[q]] = 0;
            top.length = MAX_VERIFY;
          }
          for (const a of top) {
            counts[a] = 0;
            const other = anchorIds[a];
            const score = (2 * sortedIntersectionSize(ids, other)) / (n + other.length);
            const g = anchorGroup[a];
            if (score >= thresholdFor(n, other.length, t) && (score > bestScore || (score === bestScore && g < gi))) {
              bestScore = score;
              gi = g;
            }
          }
        }
        touched.length = 0;
      }
      if (gi >= 0) {
        groups[gi].items.push(items[i]);
        groups[gi].lastIndex = i;
        groupKeys[gi].add(keyOf(i));
      } else {
        gi = groups.length;
        groups.push({ kind, representative: items[i].text, items: [items[i]], taskIds: [], count: 0, lastTaskId: null, lastIndex: i });
        groupKeys.push(new Set([keyOf(i)]));
      }
      if (!exact.has(norm[i])) {
        exact.set(norm[i], gi);
        const have = anchorsOf[gi] ?? 0;
        if (have < GROUP_ANCHORS && ids) {
          const a = anchorGroup.length;
          anchorGroup.push(gi);
          anchorIds.push(ids);
          anchorsOf[gi] = have + 1;
          if (a >= counts.length) {
            const bigger = new Int32Array(counts.length * 2);
            bigger.set(counts);
            counts = bigger;
          }
          for (let k = 0; k < ids.length; k++) (index[ids[k]] ??= []).push(a);
        }
      }
    }
  }
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const ids: string[] = [];
    const seenIds = new Set<string>();
    for (const it of g.items) {
      if (it.taskId && !seenIds.has(it.taskId)) {
        seenIds.add(it.taskId);
        ids.push(it.taskId);
      }
    }
    g.taskIds = ids;
    g.count = groupKeys[gi].size;
    for (let k = g.items.length - 1; k >= 0; k--) {
      if (g.items[k].taskId) {
        g.lastTaskId = g.items[k].taskId;
        break;
      }
    }
  }
  // per kind, in the order of their first items (the two polarities were grouped apart)
  const at = new Map(items.map((it, i) => [it, i] as const));
  const kindAt = (k: KptKind) => KPT_KINDS.indexOf(k);
  return groups.sort((a, b) => kindAt(a.kind) - kindAt(b.kind) || at.get(a.items[0])! - at.get(b.items[0])!);
}

// One file's entry in the text index (termIndex.ts) and its layout, shared by the index and its scoring
// (termScoring.ts); the cache file stores the entries as the index holds them (indexCache.ts).

export type Field = 'path' | 'symbols' | 'content';
export type FieldBoost = Record<Field, number>;

/**
 * A file's entry (Doc) is a run of one typed array, the index's arena, which holds every file's entry back to back
 * (50,000 small arrays would weigh more than their ids, in memory and in garbage collection):
 * [length of the run L, words in the capped content, path terms P, symbol terms S, …P path ids, …S symbol ids,
 * …content ids]. A run of length 1 ([1]) stands for no entry.
 */
export const HEAD = 4;
export const docEnd = (a: Uint32Array, at: number) => at + a[at];
export const docWords = (a: Uint32Array, at: number) => a[at + 1];
export const pathStart = (at: number) => at + HEAD;
export const symStart = (a: Uint32Array, at: number) => at + HEAD + a[at + 2];
export const contentStart = (a: Uint32Array, at: number) => at + HEAD + a[at + 2] + a[at + 3];

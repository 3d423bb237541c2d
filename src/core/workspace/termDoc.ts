// One file's entry in the text index (termIndex.ts) and its layout, shared by the index and its scoring
// (termScoring.ts); the cache file stores the entries as they are (indexCache.ts).

export type Field = 'path' | 'symbols' | 'content';
export type FieldBoost = Record<Field, number>;

/**
 * One file's entry, in one typed array (a few hundred thousand small objects would weigh more than the ids):
 * [words in the capped content, path terms P, symbol terms S, …P path ids, …S symbol ids, …content ids].
 */
export type Doc = Uint32Array;
export const HEAD = 3;
export const symStart = (d: Doc) => HEAD + d[1];
export const contentStart = (d: Doc) => HEAD + d[1] + d[2];

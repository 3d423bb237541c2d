// The workspace domain: what of the user's workspace the model may see. The read policy (policy.ts: path rules,
// .gitignore, secrets, binaries, size), the index (workspaceIndex.ts: files, symbols, imports, BM25, kept up to date
// incrementally; indexCache.ts: its cache file; termIndex.ts: its light text index, over charTables.ts's pooled hash tables; history.ts: git recency), the ranking for a step's work (rank.ts) and the budgeted section DevA and DA receive (pack.ts).
export * from './policy';
export * from './tokens';
export * from './symbols';
export * from './workspaceIndex';
export * from './history';
export * from './rank';
export * from './pack';

// KPT (Keep / Problem / Try): the kpt_merged.md format (read by document.ts, kept line for line by the merge in
// kpt.ts), the lock-protected merge with stale-lock detection, recurrence grouping (grouping.ts, over similarity.ts's
// features) and the bounded digest the Cape
// Master reads at the opening; item statuses and ids (status.ts), housekeeping into kpt_archive.md (housekeeping.ts)
// and the .gitattributes union merge line for teams (gitattributes.ts).
export * from './kpt';
export * from './document';
export * from './items';
export * from './mergeFile';
export { bigrams, diceSimilarity, kptFeatures, kptSimilarity, normaliseKptText } from './similarity';
export * from './grouping';
export * from './digest';
export * from './status';
export * from './housekeeping';
export * from './gitattributes';

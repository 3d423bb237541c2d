// KPT (Keep / Problem / Try): the kpt_merged.md format (kept line for line by the merge), the lock-protected merge
// with stale-lock detection, recurrence grouping and the bounded digest the Cape Master reads at the opening.
export * from './kpt';

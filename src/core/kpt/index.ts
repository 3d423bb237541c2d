// KPT (Keep / Problem / Try): the kpt_merged.md format, the lock-protected merge, recurrence grouping and the
// bounded digest the Cape Master reads at the opening.
export * from './kpt';

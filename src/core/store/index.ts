// Persistence of sessions under <capeFolder>/5_sessions/ in the original CAPE CLI's layout: step records, session
// state for resume, the dated retrospective files. SessionStore (store.ts) is the front; layout.ts owns paths and
// names, stepRecords.ts pair/ and failed/ (stepRecordSchema.ts the fields a record read back must have),
// pendingReplies.ts pending/ (a validated reply whose step has not finished), sessionStates.ts state/,
// retrospectives.ts and retrospectiveMarkdown.ts the retrospectives, taskTraces.ts what a task id left on disk,
// jsonFile.ts the JSON files' format, records.ts the types.
export * from './store';
export { SessionLayout } from './layout';
export * from './records';
export type { PendingReply } from './pendingReplies';
export { renderRetrospective } from './retrospectiveMarkdown';

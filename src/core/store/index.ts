// Persistence of sessions under <capeFolder>/5_sessions/ in the original CAPE CLI's layout: step records, session
// state for resume, the dated retrospective files.
export * from './store';
export * from './records';
export { renderRetrospective } from './retrospectiveMarkdown';

// DevA's changes to existing files: the SEARCH/REPLACE hunks of <edit> blocks matched against the current content
// (match.ts: exact, then whitespace-tolerant; none or several places fail) and turned into proposals with one repair
// round and the unread-rewrite warning (propose.ts). The reply parser only cuts the blocks out of the reply.
export * from './match';
export * from './propose';
export * from './hunks';

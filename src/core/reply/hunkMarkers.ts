// The marker lines of an <edit> block's SEARCH/REPLACE hunks (read by ./blocks.ts, also looked at by
// ./unreadableTags.ts to tell a hunk's text from the lines between hunks): 5 to 9 marker characters, any spaces or tabs
// around the keyword.
export const HUNK_SEARCH = /^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$/;
export const HUNK_DIVIDER = /^[ \t]*={5,9}[ \t]*$/;
export const HUNK_REPLACE = /^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$/;

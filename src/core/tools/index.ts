// What a role may call during its step to look at the workspace (read_file, search_files, list_files): the tool
// definitions and bounds (specs.ts), argument checks (args.ts), execution within the step's bounds (executor.ts) of
// the tools' bodies under the read policy (workspaceCalls.ts) and the lines they answer with (answerLines.ts), the
// one wording of a call for people (describe.ts) and what a step's calls saw, for the next step (reads.ts).
export * from './specs';
export * from './args';
export * from './executor';
export * from './workspaceCalls';
export { listingLines, MAX_LIST_LINES } from './answerLines';
export * from './describe';
export * from './reads';

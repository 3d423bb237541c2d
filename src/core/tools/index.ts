// What a role may call during its step to look at the workspace (read_file, search_files, list_files): the tool
// definitions and bounds (specs.ts), argument checks (args.ts), execution under the read policy (executor.ts) and the
// one wording of a call for people (describe.ts) and what a step's calls read, for the next step (reads.ts).
export * from './specs';
export * from './args';
export * from './executor';
export * from './describe';
export * from './reads';

// The file system rules: path safety of DevA's proposed <file> paths (pathSafety.ts: checkFilePath) and of CAPE's own
// files (checkWorkspaceLocation), proposals and applying the approved ones (proposals.ts: proposeFiles,
// applyProposedFiles, the only way the engine writes workspace files), crash-safe writes, what counts as a text file (notTextReason), and what a proposal was made
// against (proposalBase: the stale check, proposals reloaded from a step record), and the lock files that keep two
// processes from writing the KPT file or running one session at once (lock).
export * from './fsAtomic';
export * from './lock';
export * from './pathSafety';
export * from './proposals';
export * from './proposalBase';
export * from './text';

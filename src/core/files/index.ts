// The file system rules: path safety of DevA's proposed <file> paths (checkFilePath, proposeFiles) and of CAPE's own
// files (checkWorkspaceLocation), applying approved proposals (applyProposedFiles, the only way the engine writes
// workspace files), crash-safe writes, and what counts as a text file (notTextReason).
export * from './fsAtomic';
export * from './pathSafety';
export * from './text';

// The file system rules: path safety of DevA's proposed <file> paths (checkFilePath, proposeFiles), applying
// approved proposals (applyProposedFiles, the only way the engine writes workspace files) and crash-safe writes.
export * from './fsAtomic';
export * from './pathSafety';

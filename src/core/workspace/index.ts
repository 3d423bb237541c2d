// The workspace domain: what of the user's workspace the model may see. The read policy (policy.ts: path rules,
// .gitignore, secrets, binaries, size; gitignoreRules.ts the .gitignore files from above the root down, gitRules.ts the
// repository's rules files as git reads them); the index
// (workspaceIndex.ts: kept up to date incrementally, its queries in indexQueries.ts, over its parts: indexContent.ts
// the file entries, text index and import graph kept in step, treeWalk.ts the walk of the tree with its folder records, disk.ts the stats and reads,
// importGraph.ts the resolved imports (goPackages.ts Go's packages, specPath.ts a relative specifier joined to its folder; reexports.ts whose importers a package's or a barrel's importers count as, from importClauses.ts's statements and their names), moduleAliases.ts the workspace's own module names (tsconfig paths, package
// names; moduleRules.ts their configs' maps as rules), symbols.ts the top-level symbols (importSpecs.ts the specifiers of import and export lines; signatures.ts their signatures, read for the few files a map lists), fileKinds.ts what a file is by its path (a UI file, a source file, a manifest; testFiles.ts a test by each language's naming; languageFiles.ts each language's files by extension), symbolsC.ts C's and C++'s names and signatures, layout.ts the source files per top folder and package (init's workspace facts), members.ts the workspace members the root declares (init's facts, the checks' sub-projects; goDirectives.ts go.mod and go.work read by their directives), history.ts git recency, indexCache.ts the cache file's layout, pathEvents.ts single paths brought in step,
// cacheLocation.ts its place and indexStore.ts its reading and writing); the light text index (termIndex.ts: the term
// sets of each file, termDoc.ts their layout, termIndexData.ts its serialised form, vocabulary.ts the terms,
// termExtract.ts text to term ids, termScoring.ts BM25, over tokens.ts's terms and charTables.ts's pooled hash
// tables); the ranking for a step's work (rank.ts; what a path's kind and the objective's words say before any index:
// rankSignals.ts) and the budgeted section DevA and DA receive (pack.ts, with mapLines.ts's map lines, excerpts.ts's excerpts of large files,
// excerptLines.ts's reading of their lines, and sectionBlocks.ts's rendering of its blocks).
export * from './policy';
export { gitDirOf, gitTopOf, infoExcludeOf } from './gitRules';
export * from './tokens';
export * from './symbols';
export * from './fileKinds';
export * from './testFiles';
export * from './languageFiles';
export * from './workspaceIndex';
export * from './history';
export * from './rank';
export * from './rankSignals';
export * from './pack';
export * from './excerpts';
export { declaredName } from './excerptLines';

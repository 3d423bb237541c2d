// The team's cape/ folder: the asset loader, the one frontmatter codec (gray-matter, never evaluating ---js),
// the shipped prompts and templates, and the init generator that writes cape/ from the questionnaire and what the
// workspace's code shows (with the checks and repair requests for its replies).
export * from './assets';
export * from './capeLayout';
export * from './frontmatter';
export * from './init';
export { checkInitTarget, inputsToGenerate, type InitMode } from './initTarget';
export * from './initAnswers';
export { describeFacts, workspaceHasCode, type WorkspaceFacts } from './initFacts';
export {
  INIT_PROMPT_VARS,
  INIT_DECISIONS_PROMPT_VARS,
  INIT_DECISIONS_FILE,
  readStoredLanguage,
  buildDecisionsRequest,
  buildInitRequest,
  type ExistingInputFile,
} from './initRequests';
export * from './initChecks';
export * from './prompts';

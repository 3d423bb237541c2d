// The public surface of src/core: what the VS Code adapters (src/), the CLI (src/cli/), the tests and the benchmark
// may use. Plain Node: nothing in core imports 'vscode', and only llm/anthropic/ imports the Anthropic SDK.
//
//   model/          shared types and constants: steps, agents, labels, events, envelope, usage, LlmClient
//   llm/            LlmError (kinds), step retry, pricing           llm/anthropic/  the SDK client and its errors
//   reply/          reply parser, envelope schemas, voice stream    session/        runner and context matrix
//   kpt/            KPT merge, grouping, digest                     metrics/        metrics and their history
//   cape/           cape/ assets, frontmatter, prompts, init        store/          5_sessions/ persistence
//   files/          path safety, proposals, atomic writes        edits/          <edit> hunks: matching, one repair
//   tools/          the step's tools (read_file, search_files, list_files) and their bounds
//   workspace/      what of the workspace the model may see: read policy, index, ranking, the budgeted map
//   checks/         the project's checks on DevA's proposal in a scratch copy, and the fix rounds
//   text/           language-neutral text similarity (character bigrams) shared by kpt, metrics and packing; cuts
//                   (shorten, oneLine) and sizes (formatBytes) as messages write them
export * from './model';
export * from './llm';
export * from './llm/anthropic';
export * from './reply';
export * from './session';
export * from './kpt';
export * from './metrics';
export * from './cape';
export * from './store';
export * from './files';
export * from './edits';
export * from './tools';
export * from './workspace';
export * from './checks';
export * from './text';

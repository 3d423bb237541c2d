// Shared types of the CAPE core, one module per concept: steps and agents (steps.ts), the LLM client (llm.ts), DevA's
// proposed files (files.ts), KPT items (kpt.ts), the envelopes (envelope.ts), metrics (metrics.ts), the words of a
// fail-first verdict (failFirstText.ts) and session events (events.ts). Plain TypeScript: nothing in src/core may
// import 'vscode'.
export * from './steps';
export * from './llm';
export * from './files';
export * from './kpt';
export * from './envelope';
export * from './metrics';
export * from './failFirstText';
export * from './events';

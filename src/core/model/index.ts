// The shared vocabulary of core: step ids, agents and labels (STEP_IDS, STEP_AGENT, …), session events, the
// envelope, usage and its totals, the LlmClient interface and the error kinds, an open question's state and its
// words, its id and the id a later session reads it by. Types and small constants only: no I/O, and nothing here imports another core folder.
export * from './types';
export * from './dates';
export * from './questionState';
export * from './questionIds';

// One CAPE session: runner.ts orchestrates CM opening → POA → DA → DevA → CM retrospective (order, pause, Stop,
// failure, resume from the last completed step); step.ts runs one step (context → requests → artifact), its requests
// in conversation.ts (streaming, tools, continuation, repair) and DevA's proposal in devaProposal.ts; record.ts keeps
// what the session knows so far, inputs.ts what the steps draw from, cost.ts the spend, finish.ts the end.
// context.ts decides what each step sees (sources.ts renders each source, assetSources.ts the cape/ files for a role, retroReview.ts the lines of the files DevA
// names for review, outputs.ts cuts agents' outputs down, packing.ts and clip.ts fit text into budgets). blockers.ts: DevA's
// questions to DA during the DevA step (one round by default); repeat.ts reruns a saved session's objective to
// measure reproducibility (`cape repeat`); dorQuestions.ts pauses a session whose CM opening asked the user blocking
// questions and resumes it with the answers (one more opening) or without them. openQuestions.ts gathers the roles'
// open questions for the human, with the answers later roles found in the workspace.
export * from './context';
export { collectOpenQuestions, questionLine } from './openQuestions';
export { DEFAULT_FEEDBACK_ROUNDS } from './options';
export * from './runner';
export * from './objective';
export * from './repeat';
export * from './repeatOf';

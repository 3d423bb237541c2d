// One CAPE session: the runner orchestrates CM opening → POA → DA → DevA → CM retrospective (a step is call →
// parse → repair → persist; resume from the last completed step) and context.ts decides what each step sees.
// blockers.ts: DevA's questions to DA during the DevA step (one round by default); repeat.ts reruns a saved
// session's objective to measure reproducibility (`cape repeat`); dorQuestions.ts pauses a session whose CM opening
// asked the user blocking questions and resumes it with the answers (one more opening) or without them.
export * from './context';
export { DEFAULT_FEEDBACK_ROUNDS } from './blockers';
export * from './runner';
export * from './objective';
export * from './repeat';
export * from './repeatOf';

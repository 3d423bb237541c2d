// One CAPE session: the runner orchestrates CM opening → POA → DA → DevA → CM retrospective (a step is call →
// parse → repair → persist; resume from the last completed step) and context.ts decides what each step sees.
export * from './context';
export * from './runner';
export * from './objective';

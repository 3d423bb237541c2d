// Session metrics computed in code (ASS, SV, ST, XRF, CI, ETT, CR, tokens and cost), their markdown tables, and
// the ASS history read back from earlier retrospectives (history.ts); TSR from the acceptance criteria (tsr.ts; one named test's
// verdict in a set of runs: testStatus.ts; a criterion's fail-first verdict: failFirstVerdict.ts; the runs both are read
// from: checkRuns.ts) and RR, how alike
// reruns of one objective are (reproducibility.ts).
export * from './metrics';
export * from './history';
export * from './tsr';
export * from './reproducibility';

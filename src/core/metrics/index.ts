// Session metrics computed in code (ASS, SV, ST, XRF, CI, ETT, CR, tokens and cost), their markdown tables, and
// the ASS history read back from earlier retrospectives.
export * from './metrics';

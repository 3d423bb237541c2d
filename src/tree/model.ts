// The pure node model behind the CAPE tree views, no `vscode` import: the KPT view's (kptModel.ts), the Retrospectives
// view's (retroModel.ts) and the text helpers both use (text.ts). Tests import them from here.
export * from './text';
export * from './kptModel';
export * from './retroModel';

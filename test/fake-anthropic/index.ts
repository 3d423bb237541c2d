// Entry point of the local fake Anthropic Messages API (see server.ts and README.md).
export * from './server';

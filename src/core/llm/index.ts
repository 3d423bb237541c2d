// Model calls behind the LlmClient interface (model/): LlmError, the one error type with kinds; the step retry
// with backoff; the one pricing table; the session cost cap. SDK-free: the Anthropic implementation lives in anthropic/.
export * from './errors';
export * from './credentials';
export * from './models';
export * from './pricing';
export * from './costCap';
export * from './retry';
export * from './tokens';
export * from './toolLoop';
// anthropic/ is exported from core/index.ts on its own: importing llm/ never loads the SDK.

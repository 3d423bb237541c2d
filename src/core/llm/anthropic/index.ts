// The only place that imports @anthropic-ai/sdk: the streaming AnthropicClient (idle watchdog, cache marks,
// explicit key and base URL), key validation, and the classification of SDK errors into LlmError.
export * from './client';
export * from './errors';

// The only place that imports @anthropic-ai/sdk: the streaming AnthropicClient (idle watchdog, cache marks,
// explicit key and base URL), key validation, and the classification of SDK errors into LlmError. The SDK module is
// loaded on the first request (sdk.ts), in the extension from its own bundle file.
export * from './client';
export * from './errors';

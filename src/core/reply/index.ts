// From a model's text to a validated Envelope: the tolerant reply parser (fenced or bare JSON, DevA's <file> and
// <summary> blocks, truncation check), the zod envelope schemas (envelope.ts for the workers, cmSchemas.ts for the Cape
// Master, lenientSchemas.ts their tolerant building blocks, agentNames.ts), and the streaming voice extractor (voiceStream.ts,
// with its string decoder, value skipper, retrospective turns and outbox).
export * from './envelope';
export * from './parser';
export * from './blocks';
export * from './voiceStream';
export * from './continuation';

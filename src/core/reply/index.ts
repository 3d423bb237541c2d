// From a model's text to a validated Envelope: the tolerant reply parser (parser.ts; locate.ts finds the JSON, fenced or
// bare, with its truncation check; DevA's <file> and <summary> blocks), the zod envelope schemas (envelope.ts for the workers, cmSchemas.ts for the Cape
// Master, lenientSchemas.ts their tolerant building blocks, agentNames.ts), and the streaming voice extractor (voiceStream.ts,
// over envelopeScanner.ts's state machine, with its string decoder, value skipper, retrospective turns and outbox).
export * from './envelope';
export * from './parser';
export { ERROR_MARK, EXCERPT_RADIUS, excerptAround, matchBalanced, NO_ENVELOPE_ERROR, TRUNCATED_ERROR } from './locate';
export * from './blocks';
export * from './voiceStream';
export * from './continuation';

// Model replies for tests: one JSON envelope in a ```json fence, as the role prompts ask, optionally followed by
// DevA's <file>/<edit>/<summary> blocks. Tests build their scripted replies here instead of each spelling out the
// envelope's eight fields.
import { DEFAULT_ROLE, type AgentId } from '../../src/core';

export interface EnvelopeFields {
  taskId: string;
  voice: string;
  output: unknown;
  references?: string[];
  confidence?: number;
  ass?: { score: number; positive: string; improvement: string; context_adequate: boolean };
}

const DEFAULT_ASS = { score: 4, positive: 'Clear inputs.', improvement: 'none', context_adequate: true };

/** The envelope object itself (for tests that garble or nest it). */
export function envelope(agent: AgentId, f: EnvelopeFields): Record<string, unknown> {
  return {
    agent,
    role: DEFAULT_ROLE[agent],
    task_id: f.taskId,
    voice: f.voice,
    output: f.output,
    references: f.references ?? [],
    confidence: f.confidence ?? 4,
    ass: f.ass ?? DEFAULT_ASS,
  };
}

/** A whole reply: the fenced envelope, then `blocks` (DevA's <file>/<edit>/<summary> text) when given. */
export function envelopeReply(agent: AgentId, f: EnvelopeFields, blocks = ''): string {
  return '```json\n' + JSON.stringify(envelope(agent, f), null, 2) + '\n```\n' + blocks;
}

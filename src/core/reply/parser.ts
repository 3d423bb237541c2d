// Tolerant parser of one model reply: the JSON envelope (fenced or bare; found by ./locate.ts), validated (./envelope.ts),
// then DevA's <file path="…">…</file> and <edit path="…">…</edit> blocks and an optional <summary>…</summary> (cut out
// by ./blocks.ts). File blocks are searched only AFTER the envelope ends, so `<file …>` text quoted inside a JSON
// string is never picked up. Failures are reported with a concrete reason (truncation, invalid JSON, schema problems,
// unterminated file block): nothing is silently dropped. A reply with several complete envelopes (a model that
// corrects itself) uses the last one and says so.
import type { ParsedReply, StepId } from '../model/types';
import { envelopeShapeHint, validateEnvelope } from './envelope';
import {
  candidateStarts,
  isPlainJsonObject,
  locateEnvelope,
  looksLikeEnvelope,
  objectEnd,
  skipClosingFence,
  tryParse,
  type Located,
} from './locate';
import { extractFiles, extractSummary, firstBlockTag, looseTag } from './blocks';
import { unreadableTag, unreadableTagError } from './unreadableTags';
import { lineColumn } from '../text/lines';

/**
 * `warnings`: what the parser decided that the user should know (e.g. which of several envelopes it used); each is
 * one sentence, shown with the step and kept in its pair artifact.
 */
export type ParseResult =
  /** `laterEnvelope`: the envelope used is not the reply's first (whose voice a live transcript streamed: voiceStream.ts). */
  | { ok: true; reply: ParsedReply; warnings: string[]; laterEnvelope?: true }
  | { ok: false; error: string; raw: string };

/**
 * Further complete envelopes after `first` and before DevA's first <file>/<edit> block (JSON inside a file is never
 * an envelope): top-level objects that parse and validate as this step's envelope, in reply order.
 */
function laterEnvelopes(step: StepId, text: string, first: Located): { found: (Located & { envelope: ParsedReply['envelope'] })[]; incompleteAt: number | null } {
  const found: (Located & { envelope: ParsedReply['envelope'] })[] = [];
  let incompleteAt: number | null = null;
  const to = firstBlockTag(text, first.end);
  let examinedUpTo = first.end;
  for (const start of [...new Set(candidateStarts(text, first.end, to))].sort((a, b) => a - b)) {
    if (start < examinedUpTo) continue;
    const end = objectEnd(text, start);
    if (end === -1 || end > to) {
      // An object that never closes (before the files): the complete envelopes before it stand; say so if it is one.
      if (ENVELOPE_KEY.test(text.slice(start, Math.min(to, start + 2000)))) incompleteAt = start;
      break;
    }
    examinedUpTo = end;
    const parsed = tryParse(text.slice(start, end));
    if (!parsed.ok || !isPlainJsonObject(parsed.value) || !looksLikeEnvelope(parsed.value)) continue;
    const valid = validateEnvelope(step, parsed.value);
    if (valid.ok) found.push({ json: parsed.value, start, end: skipClosingFence(text, end), envelope: valid.envelope });
  }
  return { found, incompleteAt };
}

/** A key of an envelope (see looksLikeEnvelope), as it starts in JSON text. */
const ENVELOPE_KEY = /^\{\s*"(?:agent|voice|output|conversation|kpt)"\s*:|[{,]\s*"(?:agent|voice)"\s*:/;

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Parses one reply of `step`: finds the JSON envelope, validates it (envelope.ts), then extracts the
 * <file> blocks and <summary> that follow it. Never throws.
 */
export function parseReply(step: StepId, raw: string): ParseResult {
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { ok: false, error: 'the reply is empty: expected a JSON envelope', raw: typeof raw === 'string' ? raw : '' };
  }
  const text = raw.replace(/^\uFEFF/, '');
  const located = locateEnvelope(text);
  if (!located.ok) return { ok: false, error: located.error, raw };

  const warnings: string[] = [];
  let found = located.found;
  let valid = validateEnvelope(step, found.json);
  // A model that corrects itself writes a second envelope: the last complete one is the reply.
  const { found: later, incompleteAt } = isPlainJsonObject(found.json) && looksLikeEnvelope(found.json) ? laterEnvelopes(step, text, found) : { found: [], incompleteAt: null };
  const lineOf = (l: { start: number }) => lineColumn(text, l.start).line;
  if (later.length > 0) {
    const last = later[later.length - 1];
    const ignored = [found, ...later.slice(0, -1)].map(lineOf);
    warnings.push(
      `The reply contains ${later.length + 1} JSON envelopes; the last complete one (line ${lineOf(last)}) was used and ` +
        `the earlier one${ignored.length > 1 ? 's' : ''} (line${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')}) ignored.`,
    );
    found = last;
    valid = { ok: true, envelope: last.envelope };
  }
  if (incompleteAt !== null && valid.ok) {
    warnings.push(
      `The reply starts another JSON envelope at line ${lineOf({ start: incompleteAt })} that is not complete; ` +
        `it was ignored and the complete one (line ${lineOf(found)}) was used.`,
    );
  }
  if (!valid.ok) return { ok: false, error: `the JSON envelope does not match the required format:\n${valid.error}`, raw };

  // blocks follow the envelope (the text before it is not searched: a block there would be dropped unseen)
  const early = looseTag(text, 0, found.start);
  if (early) {
    return { ok: false, error: `the <${early.kind} path="${early.path}"> block comes before the JSON envelope: put every <file> and <edit> block after it`, raw };
  }
  const earlyUnread = unreadableTag(text, 0, found.start);
  if (earlyUnread) return { ok: false, error: `${unreadableTagError(earlyUnread, ', before the JSON envelope,')}, after the envelope`, raw };
  const files = extractFiles(text, found.end);
  if (!files.ok) return { ok: false, error: files.error, raw };
  // The summary normally follows the files; a model may also put it between the JSON and the files
  // (never searched inside a file, where HTML can contain <summary>).
  const summary =
    extractSummary(text, files.scan.end) ??
    (files.scan.files.length + files.scan.edits.length > 0 ? extractSummary(text, found.end, files.scan.firstTag) : null);
  return { ok: true, reply: { envelope: valid.envelope, files: files.scan.files, edits: files.scan.edits, summary }, warnings, ...(later.length ? { laterEnvelope: true as const } : {}) };
}

/**
 * The user message of the single repair request after `parseReply` failed: quotes the problem
 * and asks for the complete corrected reply in the same format, and nothing else.
 */
export function repairPrompt(step: StepId, error: string, raw: string): string {
  const truncated = error.includes('max_tokens') || error.includes('cut off');
  const lines = [
    'Your previous reply could not be used:',
    '',
    ...error.split('\n').map((l) => `> ${l}`),
    '',
    'Send the corrected reply again, complete and in the same format: one ```json block containing the whole envelope',
    step === 'deva'
      ? 'followed by every <file path="…">…</file> and <edit path="…">…</edit> block (each closed) and one <summary>…</summary>.'
      : 'and nothing else.',
    '',
    `The envelope must have this shape: ${envelopeShapeHint(step)}`,
  ];
  if (truncated) {
    lines.push('', 'Your reply was too long and was cut off: keep the same content but be more concise so that it fits.');
  } else if (raw.trim() !== '') {
    lines.push('', 'Keep your content; only fix the problems listed above.');
  }
  lines.push('Do not add any explanation before or after the reply.');
  return lines.join('\n');
}

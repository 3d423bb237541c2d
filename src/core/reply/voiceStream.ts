// Incremental extractor of an agent's "voice" from a reply as it streams from the model.
//
// The model writes a JSON envelope (usually inside a ```json fence, sometimes after a line of prose).
// The SDK's partial-JSON helper drops unfinished strings, so it cannot show the voice character by
// character; this extractor can:
//
//   - the DECODED characters of the top-level "voice" string go to onVoice as they arrive (escapes
//     \n \t \" \\ \/ \b \f \r \uXXXX, surrogate pairs, all possibly split anywhere between pushes);
//   - the raw JSON text of the top-level "output" value goes to onOutput as it arrives;
//   - for the retrospective (no voice key), each conversation turn goes to onVoice as
//     "Speaker: text", turns separated by a blank line (retroTurns.ts).
// Keys named "voice" inside nested objects or inside string values never trigger anything.
//
// This file owns which of the envelope's values are read and where their text goes: the voice, the output's raw
// text, the "conversation" array and the turns in it. envelopeScanner.ts owns the envelope-level state machine
// under it (the envelope's start and end, the stack of containers read, their keys, the strings decoded and the
// values skipped, and its limits); retroTurns.ts assembles the turns; voiceOutbox.ts delivers the text to the
// handlers.

import { EnvelopeScanner, K_ROOT, V_ARRAY, V_OBJECT, V_STRING, type Frame } from './envelopeScanner';
import { RetroTurns } from './retroTurns';
import { VoiceOutbox, type VoiceHandlers } from './voiceOutbox';

export type { VoiceHandlers } from './voiceOutbox';

// Container kinds this file opens (every other container is skipped)
const K_CONV = 2; // the top-level "conversation" array
const K_TURN = 3; // one object of that array

// Where the characters of the string value being decoded go
const T_VOICE = 2;
const T_TURN = 3; // a turn's speaker or text (RetroTurns)

export class VoiceExtractor extends EnvelopeScanner {
  private target = T_VOICE;
  private readonly out: VoiceOutbox;
  private readonly turns: RetroTurns;

  private voiceSeen = false;
  private voiceEnded = false;
  private outputSeen = false;
  private outActive = false;
  private outFrom = 0;
  private ended = false;

  constructor(handlers: VoiceHandlers) {
    super();
    this.out = new VoiceOutbox(handlers);
    this.turns = new RetroTurns(this.out);
  }

  /** True once the top-level "voice" key has started streaming. */
  get foundVoice(): boolean {
    return this.voiceSeen;
  }

  /** True once the voice string has been read to its closing quote. */
  get voiceComplete(): boolean {
    return this.voiceEnded;
  }

  /** Feeds the next text delta. Handlers are called synchronously (at most once each per push). */
  push(chunk: string): void {
    if (this.ended || this.closed || chunk.length === 0) return;
    const n = chunk.length;
    this.outFrom = 0;
    this.scan(chunk);
    if (this.outActive && this.outFrom < n) this.out.output(this.outFrom === 0 ? chunk : chunk.slice(this.outFrom, n));
    this.out.flush(true);
  }

  /** The stream is over: emits anything held back (a buffered turn, a trailing high surrogate). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.turns.finish();
    this.out.flush(false);
  }

  /**
   * A value starts at index i: decides from where it sits what to do with it. True when this file reads it (the
   * voice, the conversation, a turn, a turn's speaker or text), false when it is skipped.
   */
  protected beginValue(f: Frame, i: number, vtype: number): boolean {
    if (f.kind === K_ROOT) {
      const key = f.key;
      if (key === 'output' && !this.outputSeen) {
        this.outputSeen = true;
        this.outActive = true;
        this.outFrom = i;
      } else if (key === 'voice' && !this.voiceSeen && vtype === V_STRING) {
        this.voiceSeen = true;
        this.target = T_VOICE;
        if (this.turns.count > 0) this.out.voice('\n\n');
        return true;
      } else if (key === 'conversation' && vtype === V_ARRAY && !this.voiceSeen) {
        this.open(false, K_CONV);
        return true;
      }
    } else if (f.kind === K_CONV) {
      if (vtype === V_OBJECT) {
        this.turns.begin();
        this.open(true, K_TURN);
        return true;
      }
    } else if (vtype === V_STRING && this.turns.valueStarts(f.key)) {
      this.target = T_TURN;
      return true;
    }
    return false;
  }

  /** Decoded characters of the voice or of a turn's speaker or text. */
  protected valueText(text: string): void {
    if (this.target === T_VOICE) this.out.voice(text);
    else this.turns.write(text);
  }

  protected stringEnds(): void {
    if (this.target === T_VOICE) this.voiceEnded = true;
    else this.turns.valueEnds();
  }

  protected containerClosed(kind: number): void {
    if (kind === K_TURN) this.turns.finish();
  }

  protected rootClosed(s: string, end: number): void {
    if (this.outActive) {
      this.out.output(s.slice(this.outFrom, end - 1));
      this.outActive = false;
    }
  }

  /** A value ended just before `end`; closes the "output" stream when it was that value (a value of the root). */
  protected valueDone(s: string, end: number, depth: number): void {
    if (this.outActive && depth === 1) {
      this.out.output(s.slice(this.outFrom, end));
      this.outActive = false;
    }
  }
}

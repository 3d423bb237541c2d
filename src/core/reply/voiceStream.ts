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
// This file owns the envelope-level state machine: the envelope's start and end, and a small stack of the only
// containers it reads (the envelope, its "conversation" array, the turns in it) with their keys. Its helpers own
// the rest: jsonStringDecoder.ts decodes the strings it reads (keys, voice, a turn's speaker and text);
// jsonValueSkipper.ts skips every other value, nested objects included, lexically; voiceOutbox.ts delivers the
// text to the handlers. Every character is looked at once: runs of plain characters are sliced, never concatenated
// char by char, and nothing re-scans the accumulated text, so the cost is O(total length).
//
// Limits (documented, not silently wrong): before the envelope starts, the first `{` is taken as its
// start; if that object closes without any envelope key (agent/voice/output/conversation/kpt/task_id)
// it was prose and the search resumes. Once the envelope closes, the rest (DevA's files) is ignored.

import { JsonStringDecoder } from './jsonStringDecoder';
import { JsonValueSkipper } from './jsonValueSkipper';
import { RetroTurns } from './retroTurns';
import { VoiceOutbox, type VoiceHandlers } from './voiceOutbox';

export type { VoiceHandlers } from './voiceOutbox';

// Modes
const M_PRE = 0; // looking for the opening `{`
const M_OBJ = 1; // inside the envelope
const M_DONE = 2; // envelope closed (or end() called)

// Lexer states
const L_STRUCT = 0; // between tokens of a container this file reads
const L_STRING = 1; // a string being decoded (the decoder's)
const L_SKIP = 2; // a value being skipped (the skipper's)

// What an object expects next
const EX_KEY = 0;
const EX_COLON = 1;
const EX_VALUE = 2;
const EX_COMMA = 3;

// Value types (beginValue)
const V_STRING = 0;
const V_SCALAR = 1;
const V_OBJECT = 2;
const V_ARRAY = 3;

// Container kinds (every other container is skipped)
const K_ROOT = 0;
const K_CONV = 2; // the top-level "conversation" array
const K_TURN = 3; // one object of that array

// Where the characters of the string being decoded go
const T_KEY = 1;
const T_VOICE = 2;
const T_TURN = 3; // a turn's speaker or text (RetroTurns)

const ENVELOPE_KEYS = new Set(['agent', 'voice', 'output', 'conversation', 'kpt', 'task_id']);
const MAX_KEY = 64;

interface Frame {
  obj: boolean;
  state: number;
  key: string;
  kind: number;
}

export class VoiceExtractor {
  private mode = M_PRE;
  private lex = L_STRUCT;
  private stack: Frame[] = [];
  private target = T_KEY;
  private keyBuf = '';
  private rootIsEnvelope = false;
  private readonly out: VoiceOutbox;
  private readonly decoder = new JsonStringDecoder((text) => this.sink(text));
  private readonly skipper = new JsonValueSkipper();
  private readonly turns: RetroTurns;

  private voiceSeen = false;
  private voiceEnded = false;
  private outputSeen = false;
  private outActive = false;
  private outFrom = 0;
  private ended = false;

  constructor(handlers: VoiceHandlers) {
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
    if (this.ended || this.mode === M_DONE || chunk.length === 0) return;
    const n = chunk.length;
    let i = 0;
    this.outFrom = 0;
    while (i < n && this.mode !== M_DONE) {
      if (this.mode === M_PRE) {
        const j = chunk.indexOf('{', i);
        if (j === -1) break;
        this.openRoot();
        i = j + 1;
        continue;
      }
      switch (this.lex) {
        case L_SKIP:
          i = this.scanSkip(chunk, i);
          break;
        case L_STRING:
          i = this.scanString(chunk, i);
          break;
        default:
          i = this.scanStruct(chunk, i);
      }
    }
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

  // -------------------------------------------------------------------------------------------
  // Scanning

  private openRoot(): void {
    this.mode = M_OBJ;
    this.lex = L_STRUCT;
    this.stack = [{ obj: true, state: EX_KEY, key: '', kind: K_ROOT }];
    this.rootIsEnvelope = false;
  }

  /** Structural characters between tokens; loops until a string/skipped value starts or the chunk ends. */
  private scanStruct(s: string, i: number): number {
    const n = s.length;
    const stack = this.stack;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
        continue;
      }
      const f = stack[stack.length - 1];
      switch (c) {
        case 34: // "
          if (f.obj && f.state === EX_KEY) {
            // Only the envelope's and the turns' objects are read here: their keys matter.
            this.target = T_KEY;
            this.keyBuf = '';
          } else if (!this.beginValue(i, V_STRING)) {
            return this.startSkip(s, i);
          }
          this.decoder.begin();
          this.lex = L_STRING;
          return this.scanString(s, i + 1);
        case 123: // {
        case 91: // [
          if (!this.beginValue(i, c === 123 ? V_OBJECT : V_ARRAY)) return this.startSkip(s, i);
          i++;
          continue;
        case 125: // }
        case 93: // ]
          this.closeContainer(s, i + 1);
          i++;
          if (this.mode !== M_OBJ) return i;
          continue;
        case 58: // :
          if (f.obj) f.state = EX_VALUE;
          i++;
          continue;
        case 44: // ,
          f.state = f.obj ? EX_KEY : EX_VALUE;
          i++;
          continue;
        default:
          // A number or literal (or a stray character, which is skipped as a scalar).
          if (!f.obj || f.state === EX_VALUE) this.beginValue(i, V_SCALAR);
          return this.startSkip(s, i);
      }
    }
    return n;
  }

  /**
   * A value starts at index i: decides from where it sits what to do with it. True when this file reads it (the
   * voice, the conversation, a turn, a turn's speaker or text), false when it is skipped.
   */
  private beginValue(i: number, vtype: number): boolean {
    const f = this.stack[this.stack.length - 1];
    f.state = EX_COMMA;
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
        this.stack.push({ obj: false, state: EX_VALUE, key: '', kind: K_CONV });
        return true;
      }
    } else if (f.kind === K_CONV) {
      if (vtype === V_OBJECT) {
        this.turns.begin();
        this.stack.push({ obj: true, state: EX_KEY, key: '', kind: K_TURN });
        return true;
      }
    } else if (vtype === V_STRING && this.turns.valueStarts(f.key)) {
      this.target = T_TURN;
      return true;
    }
    return false;
  }

  private scanString(s: string, i: number): number {
    i = this.decoder.read(s, i);
    if (this.decoder.closed) this.endString(s, i);
    return i;
  }

  /** The value starting at s[i] is skipped (the skipper reads it to its end). */
  private startSkip(s: string, i: number): number {
    this.skipper.start(s.charCodeAt(i));
    this.lex = L_SKIP;
    return this.scanSkip(s, i + 1);
  }

  private scanSkip(s: string, i: number): number {
    i = this.skipper.skip(s, i);
    if (this.skipper.done) {
      this.lex = L_STRUCT;
      this.valueDone(s, i);
    }
    return i;
  }

  private endString(s: string, end: number): void {
    this.lex = L_STRUCT;
    const f = this.stack[this.stack.length - 1];
    switch (this.target) {
      case T_KEY:
        f.key = this.keyBuf;
        f.state = EX_COLON;
        if (f.kind === K_ROOT && ENVELOPE_KEYS.has(this.keyBuf)) this.rootIsEnvelope = true;
        return;
      case T_VOICE:
        this.voiceEnded = true;
        break;
      case T_TURN:
        this.turns.valueEnds();
        break;
    }
    this.valueDone(s, end);
  }

  private closeContainer(s: string, end: number): void {
    const f = this.stack.pop();
    if (f && f.kind === K_TURN) this.turns.finish();
    if (this.stack.length === 0) {
      if (this.outActive) {
        this.out.output(s.slice(this.outFrom, end - 1));
        this.outActive = false;
      }
      // Without an envelope key it was a brace in prose before the envelope: keep looking.
      this.mode = this.rootIsEnvelope ? M_DONE : M_PRE;
      return;
    }
    this.valueDone(s, end);
  }

  /** A value ended just before `end`; closes the "output" stream when it was that value (a value of the root). */
  private valueDone(s: string, end: number): void {
    if (this.outActive && this.stack.length === 1) {
      this.out.output(s.slice(this.outFrom, end));
      this.outActive = false;
    }
  }

  /** Decoded characters of the string being read. */
  private sink(text: string): void {
    switch (this.target) {
      case T_VOICE:
        this.out.voice(text);
        break;
      case T_TURN:
        this.turns.write(text);
        break;
      default:
        if (this.keyBuf.length < MAX_KEY) this.keyBuf += text;
    }
  }
}

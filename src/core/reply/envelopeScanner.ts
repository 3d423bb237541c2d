// The envelope-level state machine under the streaming voice extractor (voiceStream.ts): the envelope's start and
// end, and a small stack of the only containers it reads (the envelope, and those its subclass opens in it) with
// their keys. It decodes the keys itself and hands every value on: jsonStringDecoder.ts decodes a string its subclass
// reads, jsonValueSkipper.ts skips every other value, nested objects included, lexically. Which values are read and
// where their text goes is the subclass's (beginValue, valueText, stringEnds, containerClosed, rootClosed, valueDone).
// Every character is looked at once: runs of plain characters are sliced, never concatenated char by char, and
// nothing re-scans the accumulated text, so the cost is O(total length).
//
// Limits (documented, not silently wrong): before the envelope starts, the first `{` is taken as its
// start; if that object closes without any envelope key (agent/voice/output/conversation/kpt/task_id)
// it was prose and the search resumes. Once the envelope closes, the rest (DevA's files) is ignored.

import { JsonStringDecoder } from './jsonStringDecoder';
import { JsonValueSkipper } from './jsonValueSkipper';

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
export const V_STRING = 0;
export const V_SCALAR = 1;
export const V_OBJECT = 2;
export const V_ARRAY = 3;

/** The envelope's container kind; a subclass numbers the containers it opens from 1 (every other one is skipped). */
export const K_ROOT = 0;

const ENVELOPE_KEYS = new Set(['agent', 'voice', 'output', 'conversation', 'kpt', 'task_id']);
const MAX_KEY = 64;

/** One container being read: an object or array, what it expects next, its current key and its kind. */
export interface Frame {
  obj: boolean;
  state: number;
  key: string;
  kind: number;
}

export abstract class EnvelopeScanner {
  private mode = M_PRE;
  private lex = L_STRUCT;
  private stack: Frame[] = [];
  /** The string being decoded is a key (else a value the subclass reads). */
  private inKey = true;
  private keyBuf = '';
  private rootIsEnvelope = false;
  private readonly decoder = new JsonStringDecoder((text) => this.sink(text));
  private readonly skipper = new JsonValueSkipper();

  /**
   * A value starts at index i inside the container `f` (its kind and key say where): true when the subclass reads it
   * (a string then goes to valueText; an object or array it opened with `open`), false when it is skipped.
   */
  protected abstract beginValue(f: Frame, i: number, vtype: number): boolean;
  /** Decoded characters of a string value the subclass reads. */
  protected abstract valueText(text: string): void;
  /** A string value the subclass reads reached its closing quote. */
  protected abstract stringEnds(): void;
  /** A container the subclass opened closed. */
  protected abstract containerClosed(kind: number): void;
  /** The envelope (or a brace in prose before it) closed at `end - 1`, the `}` itself. */
  protected abstract rootClosed(s: string, end: number): void;
  /** A value ended just before `end`, with `depth` containers still open. */
  protected abstract valueDone(s: string, end: number, depth: number): void;

  /** The envelope has closed: nothing more is read. */
  protected get closed(): boolean {
    return this.mode === M_DONE;
  }

  /** Opens a container the subclass reads, inside the current one (called from beginValue). */
  protected open(obj: boolean, kind: number): void {
    this.stack.push({ obj, state: obj ? EX_KEY : EX_VALUE, key: '', kind });
  }

  /** Scans one text delta to its end, or to the envelope's end. */
  protected scan(chunk: string): void {
    const n = chunk.length;
    let i = 0;
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
  }

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
            // Only the envelope's and the subclass's objects are read here: their keys matter.
            this.inKey = true;
            this.keyBuf = '';
          } else if (this.valueStarts(i, V_STRING)) {
            this.inKey = false;
          } else {
            return this.startSkip(s, i);
          }
          this.decoder.begin();
          this.lex = L_STRING;
          return this.scanString(s, i + 1);
        case 123: // {
        case 91: // [
          if (!this.valueStarts(i, c === 123 ? V_OBJECT : V_ARRAY)) return this.startSkip(s, i);
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
          if (!f.obj || f.state === EX_VALUE) this.valueStarts(i, V_SCALAR);
          return this.startSkip(s, i);
      }
    }
    return n;
  }

  /** A value starts at index i: the container now expects a comma, and the subclass decides whether it reads it. */
  private valueStarts(i: number, vtype: number): boolean {
    const f = this.stack[this.stack.length - 1];
    f.state = EX_COMMA;
    return this.beginValue(f, i, vtype);
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
      this.valueDone(s, i, this.stack.length);
    }
    return i;
  }

  private endString(s: string, end: number): void {
    this.lex = L_STRUCT;
    if (this.inKey) {
      const f = this.stack[this.stack.length - 1];
      f.key = this.keyBuf;
      f.state = EX_COLON;
      if (f.kind === K_ROOT && ENVELOPE_KEYS.has(this.keyBuf)) this.rootIsEnvelope = true;
      return;
    }
    this.stringEnds();
    this.valueDone(s, end, this.stack.length);
  }

  private closeContainer(s: string, end: number): void {
    const f = this.stack.pop();
    if (f) this.containerClosed(f.kind);
    if (this.stack.length === 0) {
      this.rootClosed(s, end);
      // Without an envelope key it was a brace in prose before the envelope: keep looking.
      this.mode = this.rootIsEnvelope ? M_DONE : M_PRE;
      return;
    }
    this.valueDone(s, end, this.stack.length);
  }

  /** Decoded characters of the string being read. */
  private sink(text: string): void {
    if (!this.inKey) this.valueText(text);
    else if (this.keyBuf.length < MAX_KEY) this.keyBuf += text;
  }
}

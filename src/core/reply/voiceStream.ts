// Incremental extractor of an agent's "voice" from a reply as it streams from the model.
//
// The model writes a JSON envelope (usually inside a ```json fence, sometimes after a line of prose).
// The SDK's partial-JSON helper drops unfinished strings, so it cannot show the voice character by
// character; this extractor can. It is a small string/escape-aware state machine over the top-level
// object with a stack of open containers:
//
//   - the DECODED characters of the top-level "voice" string go to onVoice as they arrive (escapes
//     \n \t \" \\ \/ \b \f \r \uXXXX, surrogate pairs, all possibly split anywhere between pushes);
//   - the raw JSON text of the top-level "output" value goes to onOutput as it arrives;
//   - for the retrospective (no voice key), each conversation turn goes to onVoice as
//     "Speaker: text", turns separated by a blank line (a turn whose text precedes its speaker is
//     emitted when its object closes).
// Keys named "voice" inside nested objects or inside string values never trigger anything.
//
// Every character is looked at once: runs of plain characters are sliced, never concatenated char by
// char, and nothing re-scans the accumulated text, so the cost is O(total length).
//
// Limits (documented, not silently wrong): before the envelope starts, the first `{` is taken as its
// start; if that object closes without any envelope key (agent/voice/output/conversation/kpt/task_id)
// it was prose and the search resumes. Once the envelope closes, the rest (DevA's files) is ignored.

export interface VoiceHandlers {
  /** Decoded voice text (or retrospective turns), in order. */
  onVoice(text: string): void;
  /** Raw JSON text of the top-level "output" value, in order. */
  onOutput?(text: string): void;
}

// Modes
const M_PRE = 0; // looking for the opening `{`
const M_OBJ = 1; // inside the envelope
const M_DONE = 2; // envelope closed (or end() called)

// Lexer states
const L_STRUCT = 0;
const L_STRING = 1;
const L_ESC = 2;
const L_UNI = 3;
const L_SCALAR = 4;

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

// Container kinds
const K_ROOT = 0;
const K_OTHER = 1;
const K_CONV = 2; // the top-level "conversation" array
const K_TURN = 3; // one object of that array

// Where the characters of the current string go
const T_SKIP = 0;
const T_KEY = 1;
const T_VOICE = 2;
const T_TEXT = 3; // a turn's text, streamed
const T_TEXTBUF = 4; // a turn's text seen before its speaker: buffered
const T_SPEAKER = 5;

const ENVELOPE_KEYS = new Set(['agent', 'voice', 'output', 'conversation', 'kpt', 'task_id']);
const TURN_TEXT_KEYS = new Set(['text', 'message', 'content']);
const TURN_SPEAKER_KEYS = new Set(['speaker', 'agent', 'name']);
const MAX_KEY = 64;
const MAX_SPEAKER = 200;

interface Frame {
  obj: boolean;
  state: number;
  key: string;
  kind: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function simpleEscape(c: number): string | null {
  switch (c) {
    case 110: return '\n'; // n
    case 116: return '\t'; // t
    case 114: return '\r'; // r
    case 98: return '\b'; // b
    case 102: return '\f'; // f
    case 34: return '"';
    case 92: return '\\';
    case 47: return '/';
    default: return null;
  }
}

export class VoiceExtractor {
  private mode = M_PRE;
  private lex = L_STRUCT;
  private stack: Frame[] = [];
  private target = T_SKIP;
  private strIsKey = false;
  private keyBuf = '';
  private uniCount = 0;
  private uniVal = 0;
  private rootIsEnvelope = false;

  private voiceSeen = false;
  private voiceEnded = false;
  private outputSeen = false;
  private outActive = false;
  private outDepth = 0;
  private outFrom = 0;

  private turnsEmitted = 0;
  private turnSpeaker = '';
  private turnSpeakerSeen = false;
  private turnTextStarted = false;
  private turnTextBuf: string | null = null;

  private pendingVoice = '';
  private pendingOutput = '';
  private ended = false;

  constructor(private readonly handlers: VoiceHandlers) {}

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
        case L_STRING:
          i = this.scanString(chunk, i);
          break;
        case L_ESC:
          i = this.scanEscape(chunk, i);
          break;
        case L_UNI:
          i = this.scanUnicode(chunk, i);
          break;
        case L_SCALAR:
          i = this.scanScalar(chunk, i);
          break;
        default:
          i = this.scanStruct(chunk, i);
      }
    }
    if (this.outActive && this.outFrom < n) this.emitOutput(this.outFrom === 0 ? chunk : chunk.slice(this.outFrom, n));
    this.flush(true);
  }

  /** The stream is over: emits anything held back (a buffered turn, a trailing high surrogate). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.turnTextBuf !== null) this.finishTurn();
    this.flush(false);
  }

  // -------------------------------------------------------------------------------------------
  // Scanning

  private openRoot(): void {
    this.mode = M_OBJ;
    this.lex = L_STRUCT;
    this.stack = [{ obj: true, state: EX_KEY, key: '', kind: K_ROOT }];
    this.rootIsEnvelope = false;
  }

  /** Structural characters between tokens; loops until a string/scalar starts or the chunk ends. */
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
            this.strIsKey = true;
            this.target = f.kind === K_ROOT || f.kind === K_TURN ? T_KEY : T_SKIP;
            this.keyBuf = '';
          } else {
            this.strIsKey = false;
            this.beginValue(i, V_STRING);
          }
          this.lex = L_STRING;
          return this.scanString(s, i + 1);
        case 123: // {
        case 91: // [
          this.beginValue(i, c === 123 ? V_OBJECT : V_ARRAY);
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
          this.lex = L_SCALAR;
          return this.scanScalar(s, i + 1);
      }
    }
    return n;
  }

  /** A value starts at index i: decides what to do with it from where it sits. */
  private beginValue(i: number, vtype: number): void {
    const f = this.stack[this.stack.length - 1];
    const isString = vtype === V_STRING;
    const container = vtype === V_OBJECT || vtype === V_ARRAY;
    const isObject = vtype === V_OBJECT;
    let kind = K_OTHER;
    this.target = T_SKIP;
    if (f.kind === K_ROOT && f.obj) {
      const key = f.key;
      if (key === 'output' && !this.outputSeen) {
        this.outputSeen = true;
        this.outActive = true;
        this.outDepth = this.stack.length;
        this.outFrom = i;
      } else if (key === 'voice' && !this.voiceSeen && isString) {
        this.voiceSeen = true;
        this.target = T_VOICE;
        if (this.turnsEmitted > 0) this.emitVoice('\n\n');
      } else if (key === 'conversation' && container && !isObject && !this.voiceSeen) {
        kind = K_CONV;
      }
    } else if (f.kind === K_CONV && container && isObject) {
      kind = K_TURN;
      this.turnSpeaker = '';
      this.turnSpeakerSeen = false;
      this.turnTextStarted = false;
      this.turnTextBuf = null;
    } else if (f.kind === K_TURN && isString) {
      if (TURN_SPEAKER_KEYS.has(f.key) && !this.turnSpeakerSeen) {
        this.target = T_SPEAKER;
        this.turnSpeaker = '';
      } else if (TURN_TEXT_KEYS.has(f.key) && !this.turnTextStarted) {
        this.turnTextStarted = true;
        if (this.turnSpeakerSeen) {
          this.emitTurnHeader();
          this.target = T_TEXT;
        } else {
          this.target = T_TEXTBUF;
          this.turnTextBuf = '';
        }
      }
    }
    f.state = EX_COMMA;
    if (container) this.stack.push({ obj: isObject, state: isObject ? EX_KEY : EX_VALUE, key: '', kind });
  }

  private scanString(s: string, i: number): number {
    const n = s.length;
    const t = this.target;
    if (t === T_SKIP) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c === 34) {
          this.endString(s, i + 1);
          return i + 1;
        }
        if (c === 92) {
          if (i + 1 < n) {
            i++;
          } else {
            this.lex = L_ESC;
            return n;
          }
        }
      }
      return n;
    }
    const start = i;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        if (i > start) this.sink(s.slice(start, i));
        this.endString(s, i + 1);
        return i + 1;
      }
      if (c === 92) {
        if (i > start) this.sink(s.slice(start, i));
        this.lex = L_ESC;
        return i + 1;
      }
    }
    if (n > start) this.sink(s.slice(start, n));
    return n;
  }

  private scanEscape(s: string, i: number): number {
    const c = s.charCodeAt(i);
    this.lex = L_STRING;
    if (this.target === T_SKIP) return i + 1;
    if (c === 117 /* u */) {
      this.lex = L_UNI;
      this.uniCount = 0;
      this.uniVal = 0;
      return i + 1;
    }
    // Unknown escapes (not valid JSON) are kept as the escaped character.
    this.sink(simpleEscape(c) ?? s[i]);
    return i + 1;
  }

  private scanUnicode(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      const h = hexValue(s.charCodeAt(i));
      if (h < 0) {
        // Malformed \u escape: show a replacement character and read the rest as string text.
        this.sink('\ufffd');
        this.lex = L_STRING;
        return i;
      }
      this.uniVal = this.uniVal * 16 + h;
      i++;
      if (++this.uniCount === 4) {
        this.sink(String.fromCharCode(this.uniVal));
        this.lex = L_STRING;
        return i;
      }
    }
    return n;
  }

  private scanScalar(s: string, i: number): number {
    const n = s.length;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9 || c === 58) {
        this.lex = L_STRUCT;
        this.valueDone(s, i);
        return i;
      }
    }
    return n;
  }

  private endString(s: string, end: number): void {
    this.lex = L_STRUCT;
    const f = this.stack[this.stack.length - 1];
    if (this.strIsKey) {
      this.strIsKey = false;
      f.key = this.keyBuf;
      f.state = EX_COLON;
      if (f.kind === K_ROOT && ENVELOPE_KEYS.has(this.keyBuf)) this.rootIsEnvelope = true;
      return;
    }
    switch (this.target) {
      case T_VOICE:
        this.voiceEnded = true;
        break;
      case T_SPEAKER:
        this.turnSpeakerSeen = true;
        break;
    }
    this.target = T_SKIP;
    this.valueDone(s, end);
  }

  private closeContainer(s: string, end: number): void {
    const f = this.stack.pop();
    if (f && f.kind === K_TURN) this.finishTurn();
    if (this.stack.length === 0) {
      if (this.outActive) {
        this.emitOutput(s.slice(this.outFrom, end - 1));
        this.outActive = false;
      }
      if (this.rootIsEnvelope) {
        this.mode = M_DONE;
      } else {
        // It was a brace in prose before the envelope: keep looking.
        this.mode = M_PRE;
      }
      return;
    }
    this.valueDone(s, end);
  }

  /** A value ended just before `end`; closes the "output" stream when it was that value. */
  private valueDone(s: string, end: number): void {
    if (this.outActive && this.stack.length === this.outDepth) {
      this.emitOutput(s.slice(this.outFrom, end));
      this.outActive = false;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Sinks and emission

  private sink(text: string): void {
    switch (this.target) {
      case T_VOICE:
      case T_TEXT:
        this.emitVoice(text);
        break;
      case T_KEY:
        if (this.keyBuf.length < MAX_KEY) this.keyBuf += text;
        break;
      case T_SPEAKER:
        if (this.turnSpeaker.length < MAX_SPEAKER) this.turnSpeaker += text;
        break;
      case T_TEXTBUF:
        this.turnTextBuf += text;
        break;
    }
  }

  private emitTurnHeader(): void {
    const sep = this.turnsEmitted++ > 0 ? '\n\n' : '';
    const speaker = this.turnSpeaker.trim();
    this.emitVoice(sep + (speaker ? speaker + ': ' : ''));
  }

  private finishTurn(): void {
    if (this.turnTextBuf !== null) {
      const body = this.turnTextBuf;
      this.turnTextBuf = null;
      this.emitTurnHeader();
      this.emitVoice(body);
    }
  }

  private emitVoice(text: string): void {
    if (this.pendingOutput) this.flushOutput(false);
    this.pendingVoice += text;
  }

  private emitOutput(text: string): void {
    if (!this.handlers.onOutput || text === '') return;
    if (this.pendingVoice) this.flushVoice(false);
    this.pendingOutput += text;
  }

  private flush(holdSurrogate: boolean): void {
    if (this.pendingVoice) this.flushVoice(holdSurrogate);
    if (this.pendingOutput) this.flushOutput(holdSurrogate);
  }

  /** Emits pending voice text, keeping back a trailing high surrogate until its pair arrives. */
  private flushVoice(hold: boolean): void {
    let text = this.pendingVoice;
    this.pendingVoice = '';
    if (hold && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.pendingVoice = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text) this.handlers.onVoice(text);
  }

  private flushOutput(hold: boolean): void {
    let text = this.pendingOutput;
    this.pendingOutput = '';
    if (hold && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.pendingOutput = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text) this.handlers.onOutput?.(text);
  }
}

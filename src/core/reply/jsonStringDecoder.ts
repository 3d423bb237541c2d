// Decodes the characters of one JSON string while it streams, for the voice extractor: the escapes \n \t \r \b \f
// \" \\ \/ and \uXXXX (a surrogate pair arrives as two of them) are decoded even when a chunk boundary falls inside
// them. Runs of plain characters are sliced from the chunk, never concatenated character by character; every decoded
// piece goes to `write` as soon as it is read. Holding back half of a surrogate pair is the emitter's job
// (voiceOutbox.ts), not this one's.
//
// Not JSON, still readable: an unknown escape such as \q gives the escaped character; a \u followed by a character
// that is not hexadecimal gives U+FFFD and that character is read as string text.

const D_TEXT = 0;
const D_ESC = 1; // after a backslash
const D_UNI = 2; // inside \uXXXX

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

export class JsonStringDecoder {
  private state = D_TEXT;
  private uniCount = 0;
  private uniVal = 0;
  /** True once read() has consumed the string's closing quote. */
  closed = false;

  constructor(private readonly write: (text: string) => void) {}

  /** A string starts: its opening quote was consumed. */
  begin(): void {
    this.state = D_TEXT;
    this.closed = false;
  }

  /** Decodes from index i of s; returns the index just after the closing quote (then `closed`) or s.length. */
  read(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      if (this.state === D_ESC) {
        i = this.escape(s, i);
        continue;
      }
      if (this.state === D_UNI) {
        i = this.unicode(s, i);
        continue;
      }
      const start = i;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c === 34) {
          if (i > start) this.write(s.slice(start, i));
          this.closed = true;
          return i + 1;
        }
        if (c === 92) break;
      }
      if (i === n) {
        if (n > start) this.write(start === 0 ? s : s.slice(start, n));
        return n;
      }
      if (i > start) this.write(s.slice(start, i));
      this.state = D_ESC;
      i++;
    }
    return n;
  }

  private escape(s: string, i: number): number {
    const c = s.charCodeAt(i);
    if (c === 117 /* u */) {
      this.state = D_UNI;
      this.uniCount = 0;
      this.uniVal = 0;
      return i + 1;
    }
    this.state = D_TEXT;
    this.write(simpleEscape(c) ?? s[i]);
    return i + 1;
  }

  private unicode(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      const h = hexValue(s.charCodeAt(i));
      if (h < 0) {
        this.write('\ufffd');
        this.state = D_TEXT;
        return i;
      }
      this.uniVal = this.uniVal * 16 + h;
      i++;
      if (++this.uniCount === 4) {
        this.write(String.fromCharCode(this.uniVal));
        this.state = D_TEXT;
        return i;
      }
    }
    return n;
  }
}

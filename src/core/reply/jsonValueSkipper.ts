// Skips one JSON value the voice extractor does not look into (an object or array with everything nested in it, a
// string, a number or literal) while it streams, across any chunk boundary. Only the lexical state is kept: the depth
// of open brackets and whether the scan is inside a string, just after a backslash, or inside a scalar. No keys, no
// frames, nothing decoded: the bulk of a reply (the "output" and every nested object) costs a few comparisons per
// character, each character looked at once.
//
// Lexing rules (the same for valid and invalid JSON as the extractor's own scanner): `{` and `[` open, `}` and `]`
// close whatever is open (a mismatched closer still closes one level); in a string `\` takes the next character,
// whatever it is; any other character outside a string starts a scalar, which runs to the next `,` `:` `}` `]` or
// whitespace (a `"` or `{` inside a scalar belongs to it).

const S_STRUCT = 0; // between tokens, inside a container
const S_STRING = 1;
const S_ESC = 2; // a backslash ended the previous chunk
const S_SCALAR = 3;

export class JsonValueSkipper {
  private state = S_STRUCT;
  private depth = 0;
  /** True once the value has been read to its end (then skip() returned the index of that end). */
  done = true;

  /**
   * A value starts with the character code `c`, already consumed: `"` a string, `{` or `[` a container, anything
   * else a scalar.
   */
  start(c: number): void {
    this.done = false;
    if (c === 34) {
      this.state = S_STRING;
      this.depth = 0;
    } else if (c === 123 || c === 91) {
      this.state = S_STRUCT;
      this.depth = 1;
    } else {
      this.state = S_SCALAR;
      this.depth = 0;
    }
  }

  /**
   * Skips from index i of s. Returns s.length when the value goes on in the next chunk; otherwise sets `done` and
   * returns the value's end: just after its closing quote or bracket, or the delimiter that ends a scalar (not
   * consumed: it belongs to the enclosing container).
   */
  skip(s: string, i: number): number {
    const n = s.length;
    let state = this.state;
    let depth = this.depth;
    scan: while (i < n) {
      switch (state) {
        case S_STRING:
          for (; i < n; i++) {
            const c = s.charCodeAt(i);
            if (c === 34) {
              i++;
              state = S_STRUCT;
              if (depth === 0) return this.finish(i);
              continue scan;
            }
            if (c === 92) {
              if (i + 1 < n) i++;
              else state = S_ESC;
            }
          }
          break;
        case S_ESC:
          i++;
          state = S_STRING;
          break;
        case S_SCALAR:
          for (; i < n; i++) {
            const c = s.charCodeAt(i);
            if (c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9 || c === 58) {
              state = S_STRUCT;
              if (depth === 0) return this.finish(i);
              continue scan;
            }
          }
          break;
        default:
          for (; i < n; i++) {
            const c = s.charCodeAt(i);
            if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 58) continue;
            if (c === 34) {
              i++;
              state = S_STRING;
              continue scan;
            }
            if (c === 123 || c === 91) {
              depth++;
            } else if (c === 125 || c === 93) {
              if (--depth === 0) return this.finish(i + 1);
            } else {
              i++;
              state = S_SCALAR;
              continue scan;
            }
          }
      }
    }
    this.state = state;
    this.depth = depth;
    return n;
  }

  private finish(end: number): number {
    this.state = S_STRUCT;
    this.depth = 0;
    this.done = true;
    return end;
  }
}

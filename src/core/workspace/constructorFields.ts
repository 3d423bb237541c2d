// The fields a TS/JS class's constructor assigns, `this.flags = flags;` (a plain JavaScript class declares its state
// no other way), for the interface lines (jsBodies.ts hands them over as members, signaturesTs.ts names them): the
// assignments among the constructor's own statements — at its body's top level or in its blocks (`if (long) {
// this.required = true }`, `else`, `for`, `try`, `switch`, a bare `{ }`) — not those in code it holds that runs
// another time or as another `this`: a function, an arrow function (`() => { this.d = 2 }`, `() => this.d = 2`), an
// object literal or a class written in it; nor one inside parentheses or brackets (`xs.forEach((x) => (this.d = x))`).
// Read from the code characters jsBodies.ts's walk of a line hands over as it follows the line's strings, comments,
// regular expressions and template literals (openTemplates), each once: no second tokenizer. A `{` opens a block where
// a control keyword's `)`, `else`, `try`, `finally`, `do` or a statement's end comes right before it; any other `{`
// (after an arrow's `=>`, a function's `)`, an `=`, a `:`, a `class X`) opens code that is not the constructor's.

/** What a bracket open in the constructor's body holds: its statements (a block), or other code (any other bracket). */
const BLOCK = 0;
const OTHER = 1;
/** The parentheses after a control keyword (`if (`): other code, and the `{` after their `)` a block. */
const CONTROL = 2;

/** The keywords whose parentheses a block comes after, and those a block comes right after. */
const CONTROL_WORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
const BLOCK_WORDS = new Set(['else', 'try', 'finally', 'do', 'catch']);
/** The characters after which a `{` starts a statement (a bare block): a statement's end, a block's start or end. */
const STATEMENT_END = new Set([...';{}'].map((c) => c.charCodeAt(0)));
/** `this.name =` at a `this` (not `==`, `===`, `=>`), on its line. */
const ASSIGNMENT = /this\.([A-Za-z_$][\w$]*)[ \t]*=(?![=>])/y;

/** Whether a character code may be part of a JS identifier: a letter, a digit, `_`, `$`, any beyond ASCII. */
const identChar = (c: number): boolean => c === 36 || c === 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128;

/**
 * One constructor's assigned fields, read from just after its name (`from`, an index in the text): its parameters'
 * brackets, then its body, from the `{` outside them to the `}` that closes it (`done`); an overload's `;` before any
 * body ends it too. `read` takes the code characters in order, white space left out, and hands each `this.name =` of
 * the constructor's statements to `found`: its name and the index just after it.
 */
export class ConstructorFields {
  /** The brackets open inside the parameters or the body, innermost last (BLOCK, OTHER, CONTROL). */
  private readonly open: number[] = [];
  /** How many of `open` are not blocks: while none is, the statements read are the constructor's own. */
  private others = 0;
  private inBody = false;
  /** Whether the constructor's body has closed, or it has none: nothing more to read. */
  done = false;
  /** The last two code characters read (0: none), where the last was, and where the identifier read last began. */
  private prev = 0;
  private prev2 = 0;
  private prevAt = -1;
  private wordAt = -1;
  /** Whether the last character read was the `)` that closed a control keyword's parentheses. */
  private afterControl = false;

  constructor(
    private readonly text: string,
    private readonly from: number,
    private readonly found: (name: string, end: number) => void,
  ) {}

  /** Reads the code character `c` at text[i]. */
  readonly read = (i: number, c: number): void => {
    if (i < this.from || this.done) return;
    let closedControl = false;
    if (c === 40 || c === 91 || c === 123) this.opens(c);
    else if (c === 41 || c === 93 || c === 125) {
      const kind = this.open.pop();
      if (kind === undefined) this.done = this.inBody && c === 125;
      else if (kind !== BLOCK) this.others--;
      closedControl = kind === CONTROL;
    } else if (c === 59 && !this.inBody && !this.open.length) this.done = true;
    else if (c === 116 && this.inBody && !this.others) this.assignment(i);
    if (identChar(c) && !(identChar(this.prev) && this.prevAt === i - 1)) this.wordAt = i;
    this.prev2 = this.prev;
    this.prev = c;
    this.prevAt = i;
    this.afterControl = closedControl;
  };

  /** A `(`, `[` or `{`: the body's opening `{`, a block, or other code. */
  private opens(c: number): void {
    if (c === 123 && !this.inBody && !this.open.length) {
      this.inBody = true;
      return;
    }
    // the identifier right before it, if any: `if` of `if (`, `else` of `else {`
    const word = identChar(this.prev) ? this.text.slice(this.wordAt, this.prevAt + 1) : '';
    let kind = OTHER;
    if (this.inBody && c === 40 && CONTROL_WORDS.has(word)) kind = CONTROL;
    else if (this.inBody && c === 123 && (this.afterControl || BLOCK_WORDS.has(word) || STATEMENT_END.has(this.prev))) kind = BLOCK;
    this.open.push(kind);
    if (kind !== BLOCK) this.others++;
  }

  /** A `t` among the constructor's statements: a `this.name =` that starts there (not an arrow's body: `=> this.d = 2`). */
  private assignment(i: number): void {
    const before = i > 0 ? this.text.charCodeAt(i - 1) : 0;
    if (identChar(before) || before === 46 || (this.prev2 === 61 && this.prev === 62)) return;
    ASSIGNMENT.lastIndex = i;
    const m = ASSIGNMENT.exec(this.text);
    if (m) this.found(m[1], i + 'this.'.length + m[1].length);
  }
}

// Rust's impl blocks for the symbol lists (symbolsOther.ts scanFallback): the type an `impl` block is of and its
// methods, named `Type.method` (symbolNames.ts). A method is public when it is `pub` in an inherent impl of a type the
// file declares `pub` (or does not declare: its own `pub` then says); a trait impl's methods (`fmt` of `impl Display
// for Version`) are internal — they are the trait's API, not the crate's, yet they say where a type's formatting or
// ordering lives. By lines and their indentation as rustfmt lays them out (a block's body ends at its unindented `}`;
// its methods sit at its first line's indentation): no parser, and no brace counting that strings or comments upset.

import { methodSymbol } from './symbolNames';

/** A Rust item's line that is public: `pub`, not `pub(crate)` nor `pub(super)`. */
export const RUST_PUB = /^pub\s/;

/** An unindented type declaration: its name (`pub struct Version`, `pub(crate) enum Op`, `trait Show`). */
const TYPE_DECL = /^(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|union|type|trait)\s+([A-Za-z_]\w*)/;
/** The line that starts an impl block (unindented: a block of a module or a function is not the file's). */
const IMPL_START = /^(?:unsafe\s+)?(?:default\s+)?impl\b/;
/** An impl's own generic parameters follow the keyword: `impl<T>`. */
const IMPL_GENERICS = /^(?:unsafe\s+)?(?:default\s+)?impl\s*</;
/** The type an impl is of, its brackets dropped: `&'a mut Foo`, `dyn Trait`, `crate::error::Error` (the last name). */
const IMPL_TYPE = /^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)?(?:dyn\s+)?([A-Za-z_][\w:]*)/;
/** A method's line in an impl's body, after its indentation: `pub fn`, `pub(crate) const async unsafe fn`, … */
export const RUST_METHOD = /^(?:pub(?:\([^)]*\))?\s+)?(?:(?:default|const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+([A-Za-z_]\w*)/;
/** The most lines an impl's header (its generics, its `where` clause) is read over until its `{`. */
const MAX_HEADER_LINES = 12;

/** What an impl block is of: the type's name, and whether it implements a trait for it. */
interface ImplTarget {
  type: string;
  trait: boolean;
}

/**
 * The type of an impl block, from its header (the text before its `{`): `impl<T: Into<String>> Foo<T>` → Foo;
 * `impl<'a, T> From<&'a T> for Wrapper<T> where …` → Wrapper, a trait impl. Null when the type is no name (a tuple, a
 * slice) or is one of the impl's own parameters (`impl<T: Display> Show for T`: a blanket impl, of no type).
 */
function implTarget(header: string): ImplTarget | null {
  // the header without its <…> (nested; the `>` of `->` closes none), and the impl's own parameters' list
  let flat = '';
  let params = '';
  let depth = 0;
  let own = IMPL_GENERICS.test(header);
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === '<') depth++;
    else if (c === '>' && depth && header[i - 1] !== '-') {
      if (--depth === 0) (flat += ' '), (own = false);
    } else if (!depth) flat += c;
    else if (depth === 1 && own) params += c;
  }
  const words = flat.split(/\s+/).filter(Boolean);
  const where = words.indexOf('where');
  const head = where < 0 ? words : words.slice(0, where);
  const forAt = head.indexOf('for');
  const m = IMPL_TYPE.exec(head.slice(forAt < 0 ? head.indexOf('impl') + 1 : forAt + 1).join(' '));
  if (!m) return null;
  const type = m[1].split('::').pop()!;
  const ownParams = [...params.matchAll(/(?:^|,)\s*(?:const\s+)?([A-Za-z_]\w*)/g)].map((p) => p[1]);
  return type && !ownParams.includes(type) ? { type, trait: forAt >= 0 } : null;
}

/**
 * Reads a Rust file's lines in order (read()) and names the methods of its unindented impl blocks. The visibility of
 * the types the file declares is read from all its lines, once a method of an impl needs it: an impl may come before
 * its type.
 */
export class RustImpls {
  /** The types the file declares, each public or not: read at the first method of an impl (most files have none). */
  private declared: Map<string, boolean> | undefined;
  /** An impl's header read so far, until its `{` (null outside one). */
  private header: string | null = null;
  private headerLines = 0;
  /** The impl whose body the lines are in: its target (null: of no type), or undefined outside a body. */
  private target: ImplTarget | null | undefined;
  /** The indentation of the body's members, once its first line is seen. */
  private indent: string | null = null;

  /** `lines`: the whole file's, the same read() is handed one by one. */
  constructor(private readonly lines: readonly string[]) {}

  /** The types the file declares, each public or not. */
  private types(): Map<string, boolean> {
    if (this.declared) return this.declared;
    this.declared = new Map();
    for (const line of this.lines) {
      const m = TYPE_DECL.exec(line);
      if (m) this.declared.set(m[1], RUST_PUB.test(line));
    }
    return this.declared;
  }

  /**
   * Reads the next line: false when it is no impl's (its header or body); a method of the body is handed to `add`,
   * named and public or not.
   */
  read(line: string, add: (symbol: string, isPublic: boolean) => void): boolean {
    if (this.header !== null) {
      this.header += `\n${line}`;
      this.opened();
      return true;
    }
    if (this.target !== undefined) {
      if (line.startsWith('}')) this.target = undefined;
      else this.member(line, add);
      return true;
    }
    if (!IMPL_START.test(line)) return false;
    this.header = line;
    this.headerLines = 0;
    this.opened();
    return true;
  }

  /** Once the header has its `{`: the block's target, and its body to read unless it closes on that line. */
  private opened(): void {
    const header = this.header!;
    const open = header.indexOf('{');
    if (open < 0) {
      if (++this.headerLines >= MAX_HEADER_LINES) this.header = null;
      return;
    }
    this.header = null;
    if (/\}\s*$/.test(header.slice(open + 1))) return;
    this.target = implTarget(header.slice(0, open));
    this.indent = null;
  }

  /** A line of an impl's body: a method when it is at the members' indentation. */
  private member(line: string, add: (symbol: string, isPublic: boolean) => void): void {
    const indent = /^[ \t]*/.exec(line)![0];
    if (!line.slice(indent.length).trim()) return;
    this.indent ??= indent;
    if (indent !== this.indent || !this.target) return;
    const item = line.slice(indent.length);
    const m = RUST_METHOD.exec(item);
    if (!m) return;
    const { type, trait } = this.target;
    add(methodSymbol(type, m[1]), !trait && RUST_PUB.test(item) && this.types().get(type) !== false);
  }
}

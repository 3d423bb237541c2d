// The import specifiers written on one TS/JS line (symbols.ts scanJs reads a file's lines through it): `import … from
// '…'`, `export … from '…'`, `import '…'`, `import('…')`, `require('…')`, each after a keyword that no word, `$` or
// `.` stands against, left to right, a specifier's clause never overlapping the next. Not one global regexp: its
// `import\s[^'"`;]*?from` was tried again from every `import` up to the same quote, so a line of `import import …`
// (a minified bundle, or an adversarial file) was quadratic: 73 s for 1 MB. Here each keyword costs its own
// characters, and the one `from` clause a quote closes is read once for all the keywords before it.
import { trimmedEnd } from '../text/blanks';

/** A keyword that may start an import, with the character before it (none at the line's start). */
const KEYWORD = /(?:^|[^\w$.])(import|export|require)/g;
/** `import` or `export` and the white space a `… from '…'` clause starts with. */
const CLAUSE_START = /(?:import|export)\s/y;
/** `import '…'`: a side effect's import. */
const BARE = /import\s*['"]([^'"]+)['"]/y;
/** `import('…')`, `require('…')`. */
const CALL = /(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/y;
/** The quoted specifier after `from`. */
const QUOTED = /['"]([^'"]+)['"]/y;
/** What ends a `… from` clause: its quote, or a backtick or `;` (no specifier then). */
const CLAUSE_END = /['"`;]/g;

/** The `from '…'` that the quote at `quote` may close: where its `from` starts, its specifier and its end. */
interface FromClause {
  quote: number;
  from: number;
  spec: string;
  end: number;
}

/** The import specifiers on `line`, in order (as written; the index resolves the relative ones). */
export function importSpecifiers(line: string): string[] {
  const out: string[] = [];
  // the first end of a clause at or after the start it was last looked for from (line.length when none), and the
  // clause it closes, once read. It stands for every later start up to it: the starts only grow (each keyword is
  // looked for past the one before), and no end lies between a later start and it.
  let end = -1;
  let clause: FromClause | null = null;
  const clauseAfter = (start: number): FromClause | null => {
    if (end < start) {
      CLAUSE_END.lastIndex = start;
      end = CLAUSE_END.exec(line)?.index ?? line.length;
    }
    if (clause?.quote !== end) clause = fromClause(line, end);
    return clause.spec && clause.from >= start ? clause : null;
  };
  for (let pos = 0; pos < line.length; ) {
    KEYWORD.lastIndex = pos;
    const k = KEYWORD.exec(line);
    if (!k) break;
    const at = k.index + k[0].length - k[1].length;
    let spec: string | undefined;
    let next = -1;
    CLAUSE_START.lastIndex = at;
    const c = CLAUSE_START.test(line) ? clauseAfter(CLAUSE_START.lastIndex) : null;
    if (c) [spec, next] = [c.spec, c.end];
    else {
      for (const re of [BARE, CALL]) {
        re.lastIndex = at;
        const m = re.exec(line);
        if (m) {
          [spec, next] = [m[1], re.lastIndex];
          break;
        }
      }
    }
    if (spec === undefined) pos = k.index + 1;
    else {
      out.push(spec);
      pos = next;
    }
  }
  return out;
}

/**
 * The clause a `'` or `"` at `quote` closes: `from`, white space, then the quoted specifier (spec '' when the
 * character there is no such quote, or no `from` stands just before it, or the quote is not closed).
 */
function fromClause(line: string, quote: number): FromClause {
  const none = { quote, from: -1, spec: '', end: -1 };
  const q = line.charCodeAt(quote);
  if (q !== 34 && q !== 39) return none;
  const t = trimmedEnd(line, quote);
  if (!line.startsWith('from', t - 4)) return none;
  QUOTED.lastIndex = quote;
  const m = QUOTED.exec(line);
  return m ? { quote, from: t - 4, spec: m[1], end: QUOTED.lastIndex } : none;
}

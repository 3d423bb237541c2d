// The import and re-export statements of a TS/JS or Python file with the names each takes (the re-export rule reads
// them: reexports.ts). TS/JS: `import … from '…'` and `export … from '…'` at a line's start (a default, `{ a, b as c }`,
// `* as ns`, `*`, `type` imports alike), read over the whole text so that a brace list over lines (as prettier writes
// it) is one statement, each character read once. Python's `from … import …` and `import …` are symbolsOther.ts's
// (pythonImportClauses). Specifiers as written: the index resolves them. No parser: a statement inside a string or
// a comment that starts a line reads as one; `require()` and `import()` take no names and are not read here.
import { PYTHON_FILE } from './languageFiles';
import { JS_EXT } from './symbols';
import { pythonImportClauses } from './symbolsOther';

/**
 * A name a statement takes from its module: `name` there, bound (or re-exported) as `as`. A Python name also has the
 * specifier it would have as a submodule (`from app import views`: `py:app/views`), which the graph may resolve.
 */
export interface ImportedName {
  name: string;
  as: string;
  module?: string;
}

/**
 * One statement: `import` (TS/JS `import … from`, Python `import m`), `from` (Python `from m import …`) or `export`
 * (TS/JS `export … from`); its module's specifier; the names it takes, null for all of them (`import * as ns`,
 * `export * from`, Python's `import m` and `from m import *`). A default import is the name `default`; a namespace
 * re-exported (`export * as ns from`) the name `*` as `ns`.
 */
export interface ImportClause {
  kind: 'import' | 'from' | 'export';
  spec: string;
  names: ImportedName[] | null;
}

/** `import` or `export` at a line's start, and `type` after it (an import of types takes its names alike). */
const HEAD = /^[ \t]*(import|export)(?=[ \t{*])[ \t]*(?:type[ \t]+(?=[\w${*]))?/gm;
/** A default import's name, and the comma before a brace list or a namespace. */
const DEFAULT = /([A-Za-z_$][\w$]*)[ \t]*(,[ \t]*)?/y;
/** `*`, `* as ns`. */
const STAR = /\*[ \t]*(?:as[ \t]+([A-Za-z_$][\w$]*))?/y;
/** The quoted specifier after `from`. */
const FROM = /\s*from\s*['"]([^'"\n]+)['"]/y;
/** One item of a brace list: `a`, `type a`, `a as b`, `'a-b' as c`. */
const ITEM = /^(?:type\s+)?([\w$]+|'[^']*'|"[^"]*")(?:\s+as\s+([\w$]+|'[^']*'|"[^"]*"))?$/;

const unquote = (s: string): string => s.replace(/^['"]|['"]$/g, '');

/** A brace list's names (`{ a, type b, c as d }`), its line comments left out. */
function listNames(list: string): ImportedName[] {
  const out: ImportedName[] = [];
  for (const item of list.replace(/\/\/[^\n]*/g, ' ').split(',')) {
    const m = ITEM.exec(item.trim());
    if (m) out.push({ name: unquote(m[1]), as: unquote(m[2] ?? m[1]) });
  }
  return out;
}

/** A TS/JS text's `import … from` and `export … from` statements, in order. */
export function jsImportClauses(text: string): ImportClause[] {
  const out: ImportClause[] = [];
  const head = new RegExp(HEAD);
  // the first `}` at or after the last brace list's start (text.length when none): the starts only grow
  let close = -1;
  for (let h = head.exec(text); h; h = head.exec(text)) {
    const kind = h[1] as 'import' | 'export';
    let p = head.lastIndex;
    let names: ImportedName[] | null = [];
    let more = true;
    if (kind === 'import' && text[p] !== '{' && text[p] !== '*') {
      DEFAULT.lastIndex = p;
      const d = DEFAULT.exec(text);
      if (!d) continue;
      names.push({ name: 'default', as: d[1] });
      p = DEFAULT.lastIndex;
      more = d[2] !== undefined;
    }
    if (more && text[p] === '*') {
      STAR.lastIndex = p;
      const s = STAR.exec(text)!;
      p = STAR.lastIndex;
      names = kind === 'export' && s[1] ? [{ name: '*', as: s[1] }] : null;
    } else if (more && text[p] === '{') {
      if (close < p) {
        close = text.indexOf('}', p);
        if (close < 0) close = text.length;
      }
      if (close === text.length) break;
      names.push(...listNames(text.slice(p + 1, close)));
      // the next statement is looked for after the list: each character is read once
      p = head.lastIndex = close + 1;
    } else if (more) continue;
    FROM.lastIndex = p;
    const f = FROM.exec(text);
    if (!f) continue;
    out.push({ kind, spec: f[1], names });
    head.lastIndex = FROM.lastIndex;
  }
  return out;
}

/** A file's import and re-export statements by its language: TS/JS or Python; none for the others. */
export function importClauses(relPath: string, text: string): ImportClause[] {
  if (JS_EXT.test(relPath)) return jsImportClauses(text);
  if (PYTHON_FILE.test(relPath)) return pythonImportClauses(text);
  return [];
}

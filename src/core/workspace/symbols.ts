// Top-level symbols and import specifiers of a source file, by a light line scanner (no parser).
//
// Why not the TypeScript compiler API: `typescript` would add ~9 MB to the extension, and on the bench's 50,000-file
// workspace a full parse per file is several times slower than this scanner (the bench prints both on a sample);
// the map only needs names and relative imports, which top-level lines give reliably.
//
// TS/JS: exported and top-level functions, classes, interfaces, types, enums, namespaces, constants; `export { a, b }`,
// CommonJS `module.exports = { … }` / `exports.x =`; imports from `import … from`, `export … from`, `import()`,
// `require()`; apart from them (scanMembers for the ranking, jsMembers for the interface lines: signaturesTs.ts),
// the members of classes and of top-level object literals (jsBodies.ts). CSS/SCSS/Less: `@import`/`@use` and
// top-level class selectors. Markdown: headings. Other languages: the plain fallback takes unindented declarations
// (`def`, `class`, `func`, `fun`, `fn`, `struct`, `trait`, `interface`, …), Go's methods and those of Rust's impl
// blocks named with their type (`Router.HandleFunc`), a block namespace's declarations, and Go's and Rust's public
// constants, the public ones first where the language's names or keywords say which are (Go, Python, Rust); Python's
// imports (symbolsOther.ts).

import { fenceTracker, headingOf } from '../text/markdown';
import { oneLine } from '../text/cut';
import { importSpecifiers } from './importSpecs';
import { MARKDOWN_FILE, STYLE_EXT } from './fileKinds';
import { C_FAMILY_FILE, C_HEADER_FILE, GO_FILE } from './languageFiles';
import { goImports, pythonImports, scanFallback } from './symbolsOther';
import { cIncludes, scanC } from './symbolsC';
import { JsBodies, nextOf, type MemberLine } from './jsBodies';

/** Words the fallback's `struct x` rule reads as a C type's name that are an attribute or a specifier. */
const C_NOT_A_TYPE = /^(?:__attribute__|__declspec|alignas|__packed|final)$/;

export interface ScanResult {
  /** Top-level symbol names, exported ones first, each once, MAX_SYMBOLS at most. */
  symbols: string[];
  /**
   * How many of `symbols`, the last ones, the language says are internal: TS/JS's not exported (in a file that
   * exports some), Go's, Python's and Rust's not public (symbolsOther.ts PUBLIC_RULES); 0 where it does not say
   * (every name then stands as the API). The index keeps no count: init's code map scans the few files it lists again
   * for it (initFactsCode.ts).
   */
  internal: number;
  /** Import specifiers as written (relative ones are resolved to files by the index). */
  imports: string[];
}

/** A file's symbols are this many at most (a generated file's thousands would fill the index). */
export const MAX_SYMBOLS = 200;

/** TS/JS and the component files that hold them. */
export const JS_EXT = /\.(m|c)?(t|j)sx?$|\.(vue|svelte|astro)$/i;

// In both: a generator's star may stand against its name (`function *gen`); an anonymous class's heritage
// (`export default class extends Vue {`) is no name. A top-level constant is a symbol when exported or ambient
// (`declare const __DEV__: boolean`: a global that a declaration file names).
export const EXPORT_DECL =
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*\s*|(?:function|class|interface|type|enum|namespace|module|const\s+enum|const|let|var)\s+)(?!(?:extends|implements)\b)([A-Za-z_$][\w$]*)/;
export const TOP_DECL =
  /^(?:declare\s+(?:const\s+enum|const|let|var)\s+|(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*\s*|(?:function|class|interface|type|enum|namespace|module)\s+))(?!(?:extends|implements)\b)([A-Za-z_$][\w$]*)/;
const EXPORT_LIST = /^export\s+(?:type\s+)?\{([^}]*)\}/;
const EXPORT_DEFAULT_NAME = /^export\s+default\s+([A-Za-z_$][\w$]*)\s*(?:;\s*)?$/;
const CJS_EXPORT = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/;
const CJS_OBJECT = /^module\.exports\s*=\s*\{([^}]*)\}?/;
const STYLE_IMPORT = /@(?:import|use|forward)\s+(?:url\()?['"]([^'"\r\n]+)['"]/g;
/** Markdown headings down to this level name a document's parts in the map. */
const MD_HEADING_LEVELS = 3;

/**
 * Per char code below 128: 1 where a line may start a declaration (the first letters of EXPORT_DECL, EXPORT_LIST,
 * EXPORT_DEFAULT_NAME, CJS_EXPORT, CJS_OBJECT and TOP_DECL: `export`, `exports`, `module`, `declare`, `abstract`,
 * `async`, `function`, `class`, `interface`, `type`, `enum`, `namespace`). Any other first character matches none.
 */
const DECL_START = new Uint8Array(128);
for (const c of 'acdefimnt') DECL_START[c.charCodeAt(0)] = 1;

function names(list: string): string[] {
  return list
    .split(',')
    .map((s) => oneLine(s).split(' as ').pop()!.replace(/^type\s+/, '').trim())
    .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s) && s !== 'default');
}

/** Scans one file's text. `relPath` decides the language by its extension. */
export function scanFile(relPath: string, text: string): ScanResult {
  const exported: string[] = [];
  const local: string[] = [];
  const imports: string[] = [];
  // whether `local` holds the names the language calls internal (else the names of a language that does not tell)
  let tells = false;
  if (JS_EXT.test(relPath)) {
    scanJs(text, { exported, local, imports }, null);
    // a file that exports nothing is a script (or declares globals): its top-level names are what it offers
    tells = exported.length > 0;
  } else if (STYLE_EXT.test(relPath)) {
    for (const im of text.matchAll(STYLE_IMPORT)) imports.push(im[1]);
    for (const line of text.split('\n')) {
      const m = /^\.([A-Za-z_-][\w-]*)[\s,{:.]/.exec(line);
      if (m) local.push(m[1]);
    }
  } else if (MARKDOWN_FILE.test(relPath)) {
    // the Markdown line rules every reader of CAPE uses (text/markdown.ts): headings up to level 3, outside code
    const outside = fenceTracker();
    for (const line of text.split('\n')) {
      const h = outside(line) ? headingOf(line) : null;
      if (h && h.level <= MD_HEADING_LEVELS && h.title.length >= 2 && h.title.length <= 80) local.push(h.title);
    }
  } else if (C_FAMILY_FILE.test(relPath)) {
    scanC(relPath, text, local, exported);
    imports.push(...cIncludes(text));
    // C++'s classes and namespaces' types by the fallback's rules, as the file's own (a header's, its API); an
    // attribute where a tag's name goes (`struct __attribute__ ((packed)) x {`) is none
    const types: string[] = [];
    scanFallback(relPath, text, types, types);
    const own = types.filter((n) => !C_NOT_A_TYPE.test(n));
    (C_HEADER_FILE.test(relPath) ? exported : local).push(...own);
    tells = true;
  } else {
    tells = scanFallback(relPath, text, local, exported);
    if (/\.pyi?$/i.test(relPath)) imports.push(...pythonImports(text));
    else if (GO_FILE.test(relPath)) imports.push(...goImports(text));
  }
  const seen = new Set<string>();
  const symbols: string[] = [];
  let internal = 0;
  const all = [...exported, ...local];
  for (let i = 0; i < all.length; i++) {
    const s = all[i];
    if (!seen.has(s) && symbols.length < MAX_SYMBOLS) {
      seen.add(s);
      symbols.push(s);
      if (tells && i >= exported.length) internal++;
    }
  }
  return { symbols, internal, imports: [...new Set(imports.filter(Boolean))] };
}

/**
 * The members of a TS/JS file's classes (methods, accessors, fields; `constructor` left out) and of its top-level
 * object literals (`const api = {`, `module.exports = {`, `export default {`: methods and properties), each once,
 * in file order; [] for other languages. Not part of ScanResult: the index and the map keep top-level symbols (a
 * big class's hundred methods would crowd its map line and, boosted as symbols, match every objective's common
 * words — on the localization bench that cost 0.006–0.009 of all-files); the ranking looks members up only in the
 * few files it reads.
 */
export function scanMembers(relPath: string, text: string): string[] {
  if (!JS_EXT.test(relPath)) return [];
  const members: string[] = [];
  scanJs(text, null, new JsBodies(text, (m) => m.name !== 'constructor' && members.push(m.name.replace('#', '')), 'ranking'));
  return [...new Set(members)];
}

/**
 * The members of a TS/JS text's class and object literal bodies, in file order, read as the interface lines read them
 * (scanMembers's walk, with a heading over lines and template literals read too: jsBodies.ts BodyRules).
 */
export function jsMembers(text: string, visit: (m: MemberLine) => void): void {
  scanJs(text, null, new JsBodies(text, visit, 'interface'));
}

/** A line that starts (after white space) a block comment: /^\s*\/\*​/ without a string per line where it is ASCII. */
function opensComment(text: string, from: number, to: number): boolean {
  let i = from;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c >= 128) return /^\s*\/\*/.test(text.slice(i, to));
    break;
  }
  return i + 1 < to && text.charCodeAt(i) === 47 && text.charCodeAt(i + 1) === 42;
}

/** The `} from '…'` that ends a multi-line import or export, where a line starts with `}`. */
const FROM_AFTER_BRACE = /\}\s*from\s*['"]([^'"\r\n]+)['"]/y;

/** Where scanJs puts a file's top-level declarations and import specifiers. */
interface Declarations {
  exported: string[];
  local: string[];
  imports: string[];
}

/**
 * TS/JS, line by line (lines end at '\n', a '\r' before it dropped), without a string per line: only the lines that
 * may declare something (their first letter) or import something (`import`, `from`, `require` in them) are cut out
 * and matched, and the places of `*\/` and of those words are searched once for the whole text. Collects the
 * declarations and imports into `decls` and hands the lines to `bodies` (the class and object members: jsBodies.ts),
 * each when given (the ranking and the interface lines ask for members only, the index for declarations only).
 */
function scanJs(text: string, decls: Declarations | null, bodies: JsBodies | null): void {
  const n = text.length;
  let comment = false;
  let close = -1;
  let imp = -1;
  let from = -1;
  let req = -1;
  for (let pos = 0, row = 0; pos <= n; row++) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    const next = end + 1;
    const stop = end > pos && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (comment) {
      if (close < pos) close = nextOf(text, '*/', pos);
      if (close + 2 <= stop) comment = false;
      pos = next;
      continue;
    }
    const c0 = pos < stop ? text.charCodeAt(pos) : NaN;
    bodies?.line(pos, stop, row);
    // only a line starting with `/`, white space (ASCII ≤ 32 or beyond ASCII) or nothing can open a comment
    if (!(c0 > 32 && c0 < 128 && c0 !== 47) && opensComment(text, pos, stop)) {
      if (close < pos) close = nextOf(text, '*/', pos);
      if (!(close + 2 <= stop)) {
        comment = true;
        pos = next;
        continue;
      }
    }
    if (!decls) {
      pos = next;
      continue;
    }
    const { exported, local, imports } = decls;
    if (imp < pos) imp = nextOf(text, 'import', pos);
    if (from < pos) from = nextOf(text, 'from', pos);
    if (req < pos) req = nextOf(text, 'require', pos);
    const importing = imp < stop || from < stop || req < stop;
    // every declaration pattern starts with one of a few letters at the line's start: indented lines (bodies)
    // skip the six regexes
    if (DECL_START[c0] || importing) {
      const line = text.slice(pos, stop);
      let m: RegExpExecArray | null;
      if (!DECL_START[c0]) {
        /* not a top-level declaration */
      } else if ((m = EXPORT_DECL.exec(line))) exported.push(m[1]);
      else if ((m = EXPORT_LIST.exec(line))) exported.push(...names(m[1]));
      else if ((m = EXPORT_DEFAULT_NAME.exec(line))) exported.push(m[1]);
      else if ((m = CJS_EXPORT.exec(line))) exported.push(m[1]);
      else if ((m = CJS_OBJECT.exec(line))) exported.push(...names(m[1].replace(/:[^,]*/g, '')));
      else if ((m = TOP_DECL.exec(line))) local.push(m[1]);
      if (importing) imports.push(...importSpecifiers(line));
    }
    pos = next;
  }
  if (!decls) return;
  // multi-line `import {\n a,\n b\n} from './x'` — the `from` line carries the specifier (a `}` at a line's start,
  // as /^\}\s*from…/m finds it: after any line terminator)
  for (let at = text.indexOf('}'); at >= 0; at = text.indexOf('}', at + 1)) {
    const before = at ? text.charCodeAt(at - 1) : 10;
    if (before !== 10 && before !== 13 && before !== 0x2028 && before !== 0x2029) continue;
    FROM_AFTER_BRACE.lastIndex = at;
    const m = FROM_AFTER_BRACE.exec(text);
    if (m) decls.imports.push(m[1]);
  }
}

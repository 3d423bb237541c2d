// Top-level symbols and import specifiers of a source file, by a light line scanner (no parser).
//
// Why not the TypeScript compiler API: `typescript` would add ~9 MB to the extension, and on the bench's 50,000-file
// workspace a full parse per file is several times slower than this scanner (the bench prints both on a sample);
// the map only needs names and relative imports, which top-level lines give reliably.
//
// TS/JS: exported and top-level functions, classes, interfaces, types, enums, namespaces, constants; `export { a, b }`,
// CommonJS `module.exports = { … }` / `exports.x =`; imports from `import … from`, `export … from`, `import()`,
// `require()`. CSS/SCSS/Less: `@import`/`@use` and top-level class selectors. Other languages: the plain fallback
// takes unindented declarations (`def`, `class`, `func`, `fn`, `struct`, `trait`, `interface`, …) and markdown headings.

export interface ScanResult {
  /** Top-level symbol names, exported ones first, each once. */
  symbols: string[];
  /** Import specifiers as written (relative ones are resolved to files by the index). */
  imports: string[];
}

const JS_EXT = /\.(m|c)?(t|j)sx?$|\.(vue|svelte|astro)$/i;
const STYLE_EXT = /\.(css|scss|sass|less|styl)$/i;

const EXPORT_DECL =
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|interface|type|enum|namespace|const\s+enum|const|let|var)\s+([A-Za-z_$][\w$]*)/;
const TOP_DECL = /^(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/;
const EXPORT_LIST = /^export\s+(?:type\s+)?\{([^}]*)\}/;
const EXPORT_DEFAULT_NAME = /^export\s+default\s+([A-Za-z_$][\w$]*)\s*;?\s*$/;
const CJS_EXPORT = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/;
const CJS_OBJECT = /^module\.exports\s*=\s*\{([^}]*)\}?/;
const IMPORT_SPEC = /(?:^|[^\w$.])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w$.])import\s*['"]([^'"]+)['"]|(?:^|[^\w$.])(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const STYLE_IMPORT = /@(?:import|use|forward)\s+(?:url\()?['"]([^'"\r\n]+)['"]/g;
const FALLBACK_DECL =
  /^(?:pub(?:\([^)]*\))?\s+|export\s+|public\s+|internal\s+|private\s+|protected\s+|static\s+|final\s+|abstract\s+|sealed\s+|data\s+|async\s+|open\s+)*(?:def|class|func|fn|struct|trait|interface|enum|type|module|object|record|protocol|impl|macro_rules!|sub|proc)\s+([A-Za-z_][\w]*)/;
const GO_METHOD = /^func\s+\([^)]*\)\s+([A-Za-z_]\w*)/;
const MD_HEADING = /^#{1,3}\s+(.{2,80}?)\s*#*\s*$/;

/**
 * Per char code below 128: 1 where a line may start a declaration (the first letters of EXPORT_DECL, EXPORT_LIST,
 * EXPORT_DEFAULT_NAME, CJS_EXPORT, CJS_OBJECT and TOP_DECL: `export`, `exports`, `module`, `declare`, `abstract`,
 * `async`, `function`, `class`, `interface`, `type`, `enum`). Any other first character matches none of them.
 */
const DECL_START = new Uint8Array(128);
for (const c of 'acdefimt') DECL_START[c.charCodeAt(0)] = 1;

function names(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim().split(/\s+as\s+/).pop()!.replace(/^type\s+/, '').trim())
    .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s) && s !== 'default');
}

/** Scans one file's text. `relPath` decides the language by its extension. */
export function scanFile(relPath: string, text: string): ScanResult {
  const exported: string[] = [];
  const local: string[] = [];
  const imports: string[] = [];
  const lines = text.split('\n');
  if (JS_EXT.test(relPath)) {
    let comment = false;
    for (const raw of lines) {
      const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
      if (comment) {
        if (line.includes('*/')) comment = false;
        continue;
      }
      const c0 = line.charCodeAt(0);
      // only a line starting with `/`, white space (ASCII ≤ 32 or beyond ASCII) or nothing can open a comment
      if (!(c0 > 32 && c0 < 128 && c0 !== 47) && /^\s*\/\*/.test(line) && !line.includes('*/')) {
        comment = true;
        continue;
      }
      let m: RegExpExecArray | null;
      // every declaration pattern starts with one of a few letters at the line's start: indented lines (bodies)
      // skip the six regexes
      if (!DECL_START[c0]) {
        /* not a top-level declaration */
      } else if ((m = EXPORT_DECL.exec(line))) exported.push(m[1]);
      else if ((m = EXPORT_LIST.exec(line))) exported.push(...names(m[1]));
      else if ((m = EXPORT_DEFAULT_NAME.exec(line))) exported.push(m[1]);
      else if ((m = CJS_EXPORT.exec(line))) exported.push(m[1]);
      else if ((m = CJS_OBJECT.exec(line))) exported.push(...names(m[1].replace(/:[^,]*/g, '')));
      else if ((m = TOP_DECL.exec(line))) local.push(m[1]);
      if (line.includes('import') || line.includes('from') || line.includes('require')) {
        for (const im of line.matchAll(IMPORT_SPEC)) imports.push(im[1] ?? im[2] ?? im[3]);
      }
    }
    // multi-line `import {\n a,\n b\n} from './x'` — the `from` line carries the specifier
    for (const im of text.matchAll(/^\}\s*from\s*['"]([^'"\r\n]+)['"]/gm)) imports.push(im[1]);
  } else if (STYLE_EXT.test(relPath)) {
    for (const im of text.matchAll(STYLE_IMPORT)) imports.push(im[1]);
    for (const line of lines) {
      const m = /^\.([A-Za-z_-][\w-]*)[\s,{:.]/.exec(line);
      if (m) local.push(m[1]);
    }
  } else if (/\.(md|mdx|markdown)$/i.test(relPath)) {
    let fence = false;
    for (const line of lines) {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      const m = !fence && MD_HEADING.exec(line);
      if (m) local.push(m[1]);
    }
  } else {
    for (const line of lines) {
      const m = GO_METHOD.exec(line) ?? FALLBACK_DECL.exec(line);
      if (m) local.push(m[1]);
    }
  }
  const seen = new Set<string>();
  const symbols: string[] = [];
  for (const s of [...exported, ...local]) {
    if (!seen.has(s) && symbols.length < 200) {
      seen.add(s);
      symbols.push(s);
    }
  }
  return { symbols, imports: [...new Set(imports.filter(Boolean))] };
}

/** True for files a designer works on: components and styles. */
export function isUiFile(relPath: string): boolean {
  return (
    STYLE_EXT.test(relPath) ||
    /\.(tsx|jsx|vue|svelte|astro|html)$/i.test(relPath) ||
    /(^|\/)(components?|views?|pages?|ui|widgets?|layouts?|styles?|theme)\//i.test(relPath)
  );
}

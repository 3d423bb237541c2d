// The one frontmatter codec of CAPE: every markdown frontmatter core reads or writes (cape/ assets, prompts and
// templates, init's generated files, the retrospective files) goes through here.
//  - Reading splits the frontmatter off as gray-matter does, here, and hands it to one of two parsers: YAML with
//    js-yaml's safe schema (gray-matter's yaml engine: no code, no `!!js/*` tags) or JSON.parse. gray-matter's own
//    reader is not used: it evaluates `---js` / `---javascript` frontmatter with eval(), and it strips comment lines
//    with a regex that retries a run of blank lines from each of them (a 100,000-line frontmatter took 6 s). Any
//    language but YAML/JSON is refused, and so is frontmatter nested deeper than a file may (text/nesting.ts).
//  - Writing is gray-matter's stringify, given a fresh options object (without options gray-matter returns a shared,
//    cached object) whose js/javascript/coffee engines throw (defence in depth).
import matter from 'gray-matter';
import { isPlainObject } from '../model/types';
import { withOneFinalNewline } from '../text/blanks';
import { shorten } from '../text/cut';
import { lineColumn } from '../text/lines';
import { FILE_DEPTH, parseJsonWithin, TooDeepError, valueDepthBeyond } from '../text/nesting';

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; hasFrontmatter: boolean }
  | { ok: false; kind: 'malformed' | 'refused'; line?: number; message: string; unclosed?: true };

function refuseEngine(): never {
  throw new Error('executable frontmatter is refused');
}

/** A fresh options object on every call: passing options makes gray-matter skip its shared cache. */
function safeMatterOptions() {
  return {
    language: 'yaml',
    delimiters: '---',
    engines: {
      js: refuseEngine,
      javascript: refuseEngine,
      coffee: refuseEngine,
      coffeescript: refuseEngine,
      cson: refuseEngine,
    },
  };
}

const ALLOWED_LANGUAGES = new Set(['', 'yaml', 'yml', 'json']);

/**
 * Parses markdown frontmatter without ever evaluating code. Only YAML (the default) and JSON frontmatter are
 * accepted; `---js`, `---javascript` (any case, any spacing) and every other language are refused.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // gray-matter only sees frontmatter when the text starts with '---' not followed by a fourth '-'.
  if (!src.startsWith('---') || src.charAt(3) === '-') {
    return { ok: true, data: {}, body: src, hasFrontmatter: false };
  }
  const eol = src.search(/\r?\n/);
  const firstLine = eol === -1 ? src.slice(3) : src.slice(3, eol);
  const language = firstLine.trim().toLowerCase();
  if (!ALLOWED_LANGUAGES.has(language)) {
    const executable = ['js', 'javascript', 'coffee', 'coffeescript', 'cson'].includes(language);
    return {
      ok: false,
      kind: 'refused',
      line: 1,
      message: executable
        ? `executable frontmatter ('---${firstLine.trim()}') is refused and was not evaluated; use YAML frontmatter ('---' then 'type: input')`
        : `unsupported frontmatter language '${firstLine.trim()}'; use YAML frontmatter ('---' then key: value lines)`,
    };
  }
  // as gray-matter splits it: the frontmatter up to the first line that starts with '---', the body after that
  // line's '---' (one line break dropped)
  const close = eol === -1 ? -1 : src.indexOf('\n---', eol);
  if (close === -1) {
    return {
      ok: false,
      kind: 'malformed',
      line: 1,
      message: "frontmatter opened with '---' on line 1 is never closed; add a '---' line after it",
      // a reader that cut the text (assets.ts) knows the closing line may lie beyond the cut
      unclosed: true,
    };
  }
  let body = src.slice(close + 4);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  const block = src.slice(eol, close);
  let data: unknown;
  try {
    data = onlyComments(block) ? {} : language === 'json' ? parseJsonWithin(block, FILE_DEPTH) : parseYaml(block);
  } catch (err) {
    // the block starts with the rest of line 1, so its line numbers are the file's
    if (err instanceof TooDeepError) return { ok: false, kind: 'malformed', line: err.where?.line, message: `frontmatter ${err.message}` };
    const e = err as { mark?: { line?: number }; reason?: string; message?: string };
    // js-yaml marks are 0-based and relative to the text after the opening '---'; that text starts with the rest
    // of line 1, so mark.line 0 is file line 1.
    const line = typeof e.mark?.line === 'number' ? e.mark.line + 1 : undefined;
    const reason = (e.reason || e.message || String(err)).split('\n')[0];
    return { ok: false, kind: 'malformed', line, message: `invalid YAML frontmatter: ${reason}` };
  }
  if (data === null || data === undefined) {
    return { ok: true, data: {}, body, hasFrontmatter: true };
  }
  if (!isPlainObject(data)) {
    return {
      ok: false,
      kind: 'malformed',
      line: 2,
      message: 'frontmatter must be a mapping of "key: value" lines (e.g. "type: input")',
    };
  }
  return { ok: true, data: { ...data }, body, hasFrontmatter: true };
}

/**
 * A frontmatter value as a message quotes it (`found "draft"`): a string cut to 80 characters, or a number, boolean or
 * date, in JSON form; a list or mapping only named. Never JSON.stringify a value of a model's reply or a cape/ file
 * whole: YAML aliases make one list stand for itself many times over, so 450 characters of `&a`/`*a` (a "billion
 * laughs") expand to gigabytes.
 */
export function quoteFrontmatterValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(shorten(v, 80));
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v ?? null);
  if (v instanceof Date) return JSON.stringify(v);
  return Array.isArray(v) ? 'a list' : 'a mapping';
}

/**
 * Whether a frontmatter holds only blank lines and `#` comments (no data, even in JSON): gray-matter's test (a
 * `^\s*#[^\n]+` match removed, the rest blank), read line by line.
 */
function onlyComments(block: string): boolean {
  return block.split('\n').every((line) => {
    const t = line.trimStart();
    return t === '' || (t.startsWith('#') && t.length > 1);
  });
}

/** Serialises a frontmatter mapping + body back to markdown (YAML frontmatter). */
export function stringifyFrontmatter(data: Record<string, unknown>, body: string): string {
  return matter.stringify(body, data, safeMatterOptions());
}

/**
 * The frontmatter mapping of a text, or null when it has none or it is unusable (refused, malformed). For
 * machine-read metadata such as the retrospective files' task_id / date / ass_average: a YAML timestamp written
 * without quotes (`date: 2026-05-01`) is returned as its ISO string.
 */
export function readFrontmatter(text: string): Record<string, unknown> | null {
  const fm = parseFrontmatter(text);
  if (!fm.ok || !fm.hasFrontmatter) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fm.data)) out[k] = v instanceof Date ? (isNaN(v.getTime()) ? null : v.toISOString()) : v;
  return out;
}

/** Frontmatter block alone (`---\n…\n---\n`) for `fields`, readable by readFrontmatter. */
export function writeFrontmatter(fields: Record<string, string | number | boolean | null>): string {
  return withOneFinalNewline(stringifyFrontmatter(fields, ''));
}

type YamlListener = (event: 'open' | 'close', state: { position: number }) => void;

/**
 * Parses a YAML document (not frontmatter: a whole file, e.g. init's answers file) with the same safe engine.
 * Throws js-yaml's error (with `mark.line`, 0-based) on invalid syntax, and a TooDeepError for a document nested deeper
 * than FILE_DEPTH: js-yaml recurses once per level (a RangeError some 2,000 deep), so its listener stops it there, and
 * the value is walked for the nesting its aliases add without any (each `b: &b [*a]` line one more level).
 */
export function parseYaml(text: string): unknown {
  let depth = 0;
  const listener: YamlListener = (event, state) => {
    if (event === 'close') depth--;
    // every node opens a level, and the document and a key's lookahead one more: FILE_DEPTH levels of lists and
    // mappings open up to FILE_DEPTH + 2 (the walk below is exact; this only stops the recursion near the spot)
    else if (++depth > FILE_DEPTH + 2) throw new TooDeepError(FILE_DEPTH, lineColumn(text, state.position));
  };
  const engine = (matter as unknown as { engines: { yaml: { parse(s: string, options: { listener: YamlListener }): unknown } } }).engines.yaml;
  const data = engine.parse(text, { listener });
  if (valueDepthBeyond(data, FILE_DEPTH)) throw new TooDeepError(FILE_DEPTH);
  return data;
}

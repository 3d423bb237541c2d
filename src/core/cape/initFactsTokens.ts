// Init's workspace facts (initFacts.ts), the design tokens of the style part (initFactsStyle.ts): what a style sheet
// declares for the design — the custom properties of its `:root`, `@theme`, `.dark` and `[data-theme]` blocks (at any
// depth: shadcn puts `:root` in `@layer base`), the Sass (`$name`) and Less (`@name`) variables at its top level —, how
// often each is used across the style sources read (`var(--name)`, `$name`, `@name`), and the fonts it names
// (`font-family` declarations, `@font-face`, an `@import` of a font service); and the token line that quotes them, the
// most used first. Each sheet's head (SHEET_CHARS) is read by one linear scan: statements end at `;`, `{` or `}` outside
// strings, comments and parentheses; no backtracking pattern.
import { oneLine, shorten } from '../text/cut';
import { isFontUrl } from './initFactsPage';
import { listWithin } from './initFactsText';

/** The syntaxes a style sheet is scanned in: by its extension, or a component's `<style lang>`. */
export type Syntax = 'css' | 'scss' | 'sass' | 'less' | 'styl';

/** One token declaration: its name (`--primary`, `$primary`, `@primary`), its value, and the block that declares it (`:root`, `.dark`, `Sass variables`). */
export interface Token {
  name: string;
  value: string;
  block: string;
}

/** What a sheet declares and names. */
export interface SheetFacts {
  tokens: Token[];
  fonts: string[];
}

/** A sheet's head scanned at most, the text of one statement kept, the tokens taken from one sheet. */
const SHEET_CHARS = 100_000;
const STATEMENT_CHARS = 2_000;
const MAX_TOKENS = 500;
/** One token's value, and a block's label, at most. */
const VALUE_CHARS = 60;
const BLOCK_CHARS = 50;
/** The block label of a sheet's top-level variables, by syntax. */
const VARIABLES: Partial<Record<Syntax, string>> = { scss: 'Sass variables', sass: 'Sass variables', less: 'Less variables' };
/** Font-family values that name no font. */
const NOT_A_FONT = /^(?:var\(|[$@]|inherit$|initial$|unset$|revert$)/i;

/** The syntax of a style file by its extension. */
export function syntaxOf(rel: string): Syntax {
  const ext = rel.slice(rel.lastIndexOf('.') + 1).toLowerCase();
  return ext === 'scss' || ext === 'sass' || ext === 'less' || ext === 'styl' ? ext : 'css';
}

/** A block whose custom properties are design tokens: `:root`, `@theme` (Tailwind v4), `.dark`, `[data-theme=…]`. */
function isTokenBlock(prelude: string): boolean {
  const p = prelude.toLowerCase();
  return p.startsWith('@theme') || p.includes(':root') || p.includes('.dark') || p.includes('[data-theme');
}

const isIdentChar = (c: string | undefined) => c !== undefined && /[\w-]/.test(c);

/** The identifier that starts at `at` (`primary-foreground`), or ''. */
function identAt(text: string, at: number): string {
  let end = at;
  while (isIdentChar(text[end])) end++;
  return text.slice(at, end);
}

/**
 * Adds to `uses` how often `text` uses each name: `var(--name)`, and a Sass or Less variable anywhere but where it
 * is declared (`$name:`). One pass per sigil.
 */
export function countUses(text: string, uses: Map<string, number>): void {
  const add = (name: string) => uses.set(name, (uses.get(name) ?? 0) + 1);
  const src = text.slice(0, SHEET_CHARS);
  for (let at = src.indexOf('var('); at >= 0; at = src.indexOf('var(', at + 4)) {
    let i = at + 4;
    while (src[i] === ' ') i++;
    if (src.startsWith('--', i)) add(`--${identAt(src, i + 2)}`);
  }
  for (const sigil of ['$', '@']) {
    for (let at = src.indexOf(sigil); at >= 0; at = src.indexOf(sigil, at + 1)) {
      const name = identAt(src, at + 1);
      let i = at + 1 + name.length;
      while (src[i] === ' ' || src[i] === '\t') i++;
      if (name && src[i] !== ':') add(sigil + name);
    }
  }
}

/** The URL an `@import` statement names (`@import url("…") screen`, `@import '…'`). */
function importUrl(statement: string): string {
  let s = statement.slice('@import'.length).trim();
  if (s.toLowerCase().startsWith('url(')) s = s.slice(4);
  const quote = s[0] === '"' || s[0] === "'" ? s[0] : '';
  if (quote) return s.slice(1, Math.max(1, s.indexOf(quote, 1)));
  const end = s.search(/[\s)]/);
  return end < 0 ? s : s.slice(0, end);
}

/** The scan's state: the open blocks' preludes, and what it found. */
class SheetScan {
  readonly facts: SheetFacts = { tokens: [], fonts: [] };
  readonly blocks: string[] = [];

  constructor(readonly syntax: Syntax) {}

  /** One statement (a declaration, an at-rule without a block) in the innermost open block. */
  statement(raw: string): void {
    const s = oneLine(raw);
    if (!s) return;
    if (s.toLowerCase().startsWith('@import')) {
      const url = importUrl(s);
      if (isFontUrl(url)) this.facts.fonts.push(`@import ${shorten(url, 100)}`);
      return;
    }
    const colon = s.indexOf(':');
    if (colon <= 0) return;
    const prop = s.slice(0, colon).trim();
    const value = shorten(s.slice(colon + 1).trim(), VALUE_CHARS);
    const top = this.blocks[this.blocks.length - 1];
    if (prop.toLowerCase() === 'font-family') {
      if (value && !NOT_A_FONT.test(value)) this.facts.fonts.push(top?.toLowerCase().startsWith('@font-face') ? `@font-face ${value}` : value);
      return;
    }
    if (!value || this.facts.tokens.length >= MAX_TOKENS || /\s/.test(prop)) return;
    if (prop.startsWith('--') && top !== undefined && isTokenBlock(top)) this.token(prop, value, this.label());
    else if (!this.blocks.length && VARIABLES[this.syntax] && prop[0] === (this.syntax === 'less' ? '@' : '$')) this.token(prop, value, VARIABLES[this.syntax]!);
  }

  private token(name: string, value: string, block: string): void {
    this.facts.tokens.push({ name, value, block });
  }

  /** The innermost block's label, with the two around it that say when it applies (`@media (…) :root`), not `@layer`. */
  private label(): string {
    return shorten(this.blocks.slice(-3).filter((b) => !b.toLowerCase().startsWith('@layer')).join(' '), BLOCK_CHARS);
  }
}

/** The end of a quoted string that starts at `at` (its closing quote, or the line's end), escapes skipped. */
function stringEnd(src: string, at: number): number {
  let i = at + 1;
  while (i < src.length && src[i] !== src[at] && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
  return Math.min(i, src.length - 1);
}

/** The tokens and fonts of a sheet in one of the brace syntaxes (CSS, SCSS, Less). */
function scanBraces(src: string, scan: SheetScan): void {
  const lineComments = scan.syntax !== 'css';
  let buf = '';
  let parens = 0;
  const keep = (s: string) => {
    if (buf.length < STATEMENT_CHARS) buf += s;
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 1;
    } else if (lineComments && c === '/' && src[i + 1] === '/' && (i === 0 || /[\s;{}]/.test(src[i - 1]))) {
      const end = src.indexOf('\n', i);
      i = end < 0 ? src.length : end;
    } else if (c === '"' || c === "'") {
      const end = stringEnd(src, i);
      keep(src.slice(i, end + 1));
      i = end;
    } else if (c === '(' || c === ')') {
      parens = Math.max(0, parens + (c === '(' ? 1 : -1));
      keep(c);
    } else if (c === '{' && (src[i - 1] === '#' || src[i - 1] === '@')) {
      // Sass's #{…} and Less's @{…} interpolation: part of the statement
      const end = src.indexOf('}', i);
      keep(src.slice(i, end < 0 ? src.length : end + 1));
      i = end < 0 ? src.length : end;
    } else if (c === '{') {
      scan.blocks.push(oneLine(buf));
      buf = '';
      parens = 0;
    } else if (c === '}' || (c === ';' && !parens)) {
      scan.statement(buf);
      buf = '';
      if (c === '}') {
        scan.blocks.pop();
        parens = 0;
      }
    } else keep(c);
  }
  scan.statement(buf);
}

/** What a sheet declares (its tokens) and names (its fonts), from its head. */
export function scanSheet(text: string, syntax: Syntax): SheetFacts {
  const src = text.slice(0, SHEET_CHARS);
  const scan = new SheetScan(syntax);
  if (syntax === 'css' || syntax === 'scss' || syntax === 'less') scanBraces(src, scan);
  else {
    // the indented syntaxes (Sass's, Stylus's): a line is a statement, the top level is the lines not indented
    for (const line of src.split('\n')) {
      if (/^\s/.test(line)) scan.blocks.push('');
      scan.statement(line);
      scan.blocks.length = 0;
    }
  }
  return scan.facts;
}

/**
 * A sheet's token line within `max` characters: its blocks with their declarations, then each token once with its
 * value and those other blocks give it (`--primary: oklch(0.2 0 0) [.dark: oklch(0.9 0 0)]`), the most used first
 * (`uses`: countUses over every source read), then as declared; null without tokens.
 */
export function tokensLine(label: string, tokens: readonly Token[], uses: ReadonlyMap<string, number>, max: number): string | null {
  if (!tokens.length) return null;
  const perBlock = new Map<string, number>();
  const byName = new Map<string, { first: Token; others: string[]; order: number }>();
  for (const t of tokens) {
    perBlock.set(t.block, (perBlock.get(t.block) ?? 0) + 1);
    const seen = byName.get(t.name);
    if (!seen) byName.set(t.name, { first: t, others: [], order: byName.size });
    else if (t.value !== seen.first.value) seen.others.push(` [${t.block}: ${t.value}]`);
  }
  const entries = [...byName.values()].sort((a, b) => (uses.get(b.first.name) ?? 0) - (uses.get(a.first.name) ?? 0) || a.order - b.order);
  const blocks = [...perBlock].map(([block, n]) => `${block} ${n}`).join(', ');
  const head = `- ${label}: tokens (${blocks})${entries.length > 1 ? ', most used first' : ''}: `;
  return head + listWithin(entries.map((e) => `${e.first.name}: ${e.first.value}${e.others.join('')}`), max - head.length);
}

/** The fonts the style sources name, each once: `- fonts (style sources): "Inter", sans-serif; @font-face "Geist"`; null without any. */
export function fontsLine(fonts: readonly string[], max: number): string | null {
  const head = '- fonts (style sources): ';
  return fonts.length ? head + listWithin([...new Set(fonts)], max - head.length) : null;
}

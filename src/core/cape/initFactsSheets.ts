// Init's workspace facts (initFacts.ts), what the style part (initFactsStyle.ts) reads of the style sources: the style
// files in the order it gives (those most likely to hold the theme first), MAX_SHEET_READS of them at most, scanned for their tokens and fonts (initFactsTokens.ts); and the
// single-file components (.vue, .svelte), the app's root component first, MAX_COMPONENT_READS at most, for their
// `<style>` blocks (initFactsPage.ts) — the root component's scanned like a style file, the others counted (how many
// have their own, scoped or not, in which language). Every block and sheet read counts the tokens' uses. Each file is
// read with the style part's reader (the read policy's: a secret, an ignored or a binary file is never read).
import * as path from 'path';
import { byDepth } from '../workspace/layout';
import { styleBlocks } from './initFactsPage';
import { countUses, scanSheet, syntaxOf, type SheetFacts, type Syntax } from './initFactsTokens';
import type { ReadText } from './initFactsText';

/** A single-file component: its `<style>` blocks are style sources. */
export const COMPONENT_FILE = /\.(?:vue|svelte)$/i;
/** Style files read at most, and components. */
const MAX_SHEET_READS = 12;
const MAX_COMPONENT_READS = 40;

/** A style source read: a style file, or the root component's style blocks (`src/App.vue <style>`). */
export interface ReadSheet {
  rel: string;
  label: string;
  facts: SheetFacts;
}

/** How the components read style themselves: how many have their own `<style>`, scoped, in which languages. */
export interface ComponentStyles {
  read: number;
  total: number;
  /** The components' extensions (`.vue`), those read. */
  kinds: string[];
  withStyle: number;
  scoped: number;
  langs: Map<string, number>;
}

export interface StyleReads {
  sheets: ReadSheet[];
  /** How often each token is used across every sheet and block read (countUses). */
  uses: Map<string, number>;
  components: ComponentStyles | null;
}

/** A component's `<style lang>` as a sheet's syntax. */
const syntaxOfLang = (lang: string): Syntax => (lang === 'stylus' ? 'styl' : syntaxOf(`.${lang}`));

/**
 * Reads the style files `styles` (in their order: the theme's likely ones first) and the components `components`
 * (`root` first, then the shallowest), within their bounds, for the style part.
 */
export function readStyleSources(read: ReadText, styles: readonly string[], components: readonly string[], root: string | undefined): StyleReads {
  const uses = new Map<string, number>();
  const sheets: ReadSheet[] = [];
  for (const rel of styles.slice(0, MAX_SHEET_READS)) {
    const text = read(rel);
    if (text === null) continue;
    countUses(text, uses);
    sheets.push({ rel, label: rel, facts: scanSheet(text, syntaxOf(rel)) });
  }
  if (!components.length) return { sheets, uses, components: null };
  const counted: ComponentStyles = { read: 0, total: components.length, kinds: [], withStyle: 0, scoped: 0, langs: new Map() };
  const order = [...components].sort((a, b) => Number(b === root) - Number(a === root) || byDepth(a, b));
  for (const rel of order.slice(0, MAX_COMPONENT_READS)) {
    const text = read(rel);
    if (text === null) continue;
    counted.read++;
    const kind = path.posix.extname(rel).toLowerCase();
    if (!counted.kinds.includes(kind)) counted.kinds.push(kind);
    const blocks = styleBlocks(text, kind === '.svelte');
    if (blocks.length) counted.withStyle++;
    if (blocks.some((b) => b.scoped)) counted.scoped++;
    for (const lang of new Set(blocks.map((b) => b.lang))) counted.langs.set(lang, (counted.langs.get(lang) ?? 0) + 1);
    for (const b of blocks) countUses(b.text, uses);
    if (rel === root && blocks.length) {
      const facts: SheetFacts = { tokens: [], fonts: [] };
      for (const b of blocks) {
        const one = scanSheet(b.text, syntaxOfLang(b.lang));
        facts.tokens.push(...one.tokens);
        facts.fonts.push(...one.fonts);
      }
      sheets.push({ rel, label: `${rel} <style>`, facts });
    }
  }
  return { sheets, uses, components: counted };
}

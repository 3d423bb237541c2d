// Init's workspace facts (initFacts.ts), the style part's markup (initFactsStyle.ts): what a web app's entry page's head
// loads — its title and language, its stylesheets and fonts, its theme colour —, and the `<style>` blocks of a
// single-file component (.vue, .svelte) with their language and scope. Tags are found by a linear scan from '<' to
// '>', never a backtracking pattern.
import { oneLine, shorten } from '../text/cut';
import { itemsWithin } from './initManifests';
import { scaled, type FactBounds } from './initFactsText';

/** The page's head read at most, and one value (a title, a link) at most. */
const HEAD_CHARS = 20_000;
const VALUE_CHARS = 100;
/**
 * One kind of link (stylesheets, fonts) at most: with the title, the page's line and the style part's other lines fit
 * in the part's bound together (initFacts.ts). Taken at the facts' scale, as the part's bound is.
 */
const LINKS_CHARS = 200;

/** A single-file component's text read at most for its style blocks. */
const COMPONENT_CHARS = 200_000;

/** True for the URL of a font or a font service's stylesheet (Google Fonts, Typekit, a .woff2 file…). */
export const isFontUrl = (href: string): boolean => /fonts?\.|typekit|\.(?:woff2?|ttf|otf)(?:$|[?#])/i.test(href);

/** The value of an attribute in a tag (`<link rel="stylesheet" href="…">`), lower-cased name, quotes or none. */
function attribute(tag: string, name: string): string | null {
  const lower = tag.toLowerCase();
  for (let at = lower.indexOf(name); at > 0; at = lower.indexOf(name, at + 1)) {
    if (!/\s/.test(tag[at - 1])) continue;
    let i = at + name.length;
    while (/\s/.test(tag[i] ?? '')) i++;
    if (tag[i] !== '=') continue;
    i++;
    while (/\s/.test(tag[i] ?? '')) i++;
    const quote = tag[i] === '"' || tag[i] === "'" ? tag[i] : '';
    const start = quote ? i + 1 : i;
    let end = quote ? tag.indexOf(quote, start) : start;
    if (!quote) while (end < tag.length && !/[\s>]/.test(tag[end])) end++;
    if (end < 0) return null;
    return tag.slice(start, end);
  }
  return null;
}

/** The tags of a page's head in order (`<link …>`, `<title>`), found by a scan from '<' to '>'. */
function headTags(html: string): { tag: string; end: number }[] {
  const tags: { tag: string; end: number }[] = [];
  for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) {
    const end = html.indexOf('>', i);
    if (end < 0) break;
    const tag = html.slice(i, end + 1);
    if (/^<\/head\b/i.test(tag) || /^<body\b/i.test(tag)) break;
    tags.push({ tag, end: end + 1 });
    i = end;
  }
  return tags;
}

/** What an entry page's head says about its look: `title "…"; lang en; stylesheets: …; fonts: …; theme-color #…`. */
export function entryPageFacts(html: string, bounds: FactBounds): string {
  const head = html.slice(0, HEAD_CHARS);
  const value = (v: string) => shorten(oneLine(v), VALUE_CHARS);
  const facts: string[] = [];
  const stylesheets: string[] = [];
  const fonts: string[] = [];
  let title: string | null = null;
  let lang: string | null = null;
  let themeColor: string | null = null;
  for (const { tag, end } of headTags(head)) {
    const name = /^<([a-z]+)/i.exec(tag)?.[1].toLowerCase();
    if (name === 'html') lang = attribute(tag, 'lang');
    else if (name === 'title' && title === null) {
      const close = head.toLowerCase().indexOf('</title', end);
      title = close > end ? head.slice(end, close) : null;
    } else if (name === 'meta' && attribute(tag, 'name')?.toLowerCase() === 'theme-color') themeColor = attribute(tag, 'content');
    else if (name === 'link') {
      const rel = (attribute(tag, 'rel') ?? '').toLowerCase();
      const href = attribute(tag, 'href');
      if (!href || !/stylesheet|preload|preconnect/.test(rel)) continue;
      const isFont = attribute(tag, 'as') === 'font' || isFontUrl(href);
      if (isFont && !rel.includes('preconnect')) fonts.push(value(href));
      else if (rel.includes('stylesheet')) stylesheets.push(value(href));
    }
  }
  if (title?.trim()) facts.push(`title "${value(title)}"`);
  if (lang?.trim()) facts.push(`lang ${value(lang)}`);
  if (stylesheets.length) facts.push(`stylesheets: ${itemsWithin(stylesheets, scaled(LINKS_CHARS, bounds))}`);
  if (fonts.length) facts.push(`fonts: ${itemsWithin(fonts, scaled(LINKS_CHARS, bounds))}`);
  if (themeColor?.trim()) facts.push(`theme-color ${value(themeColor)}`);
  return facts.length ? facts.join('; ') : 'no title, stylesheet or font in its head';
}

/** A boolean attribute in a tag (`<style scoped>`): a word of the tag, alone or with a value. */
function hasAttribute(tag: string, name: string): boolean {
  return tag
    .slice(1)
    .toLowerCase()
    .split(/[\s/>]+/)
    .some((w) => w === name || w.startsWith(`${name}=`));
}

/** One `<style>` block of a component: its language (`lang`, css by default), whether it is scoped, its text. */
export interface StyleBlock {
  lang: string;
  scoped: boolean;
  text: string;
}

/**
 * The `<style>` blocks of a single-file component, in order. A Vue block is scoped with `scoped` or `module`; a
 * Svelte one always is, unless `global`.
 */
export function styleBlocks(component: string, svelte: boolean): StyleBlock[] {
  const src = component.slice(0, COMPONENT_CHARS);
  const lower = src.toLowerCase();
  const blocks: StyleBlock[] = [];
  for (let at = lower.indexOf('<style'); at >= 0; at = lower.indexOf('<style', at + 1)) {
    if (!/[\s>/]/.test(lower[at + 6] ?? '')) continue;
    const open = lower.indexOf('>', at);
    if (open < 0) break;
    const close = lower.indexOf('</style', open);
    const tag = src.slice(at, open + 1);
    const scoped = svelte ? !hasAttribute(tag, 'global') : hasAttribute(tag, 'scoped') || hasAttribute(tag, 'module');
    blocks.push({ lang: (attribute(tag, 'lang') ?? 'css').toLowerCase(), scoped, text: src.slice(open + 1, close < 0 ? src.length : close) });
    if (close < 0) break;
    at = close;
  }
  return blocks;
}

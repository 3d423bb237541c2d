// Init's workspace facts (initFacts.ts), the style part, for a workspace with a user interface: what the entry page's
// head loads (its title and language, its stylesheets and fonts, its theme colour), the product's style files by name
// with their count per kind, and the head of its theme or design-token configuration (tailwind.config.*, a theme
// file) — what the design files start from. None for a workspace without an entry page, style files or a theme file.
// Read through the read policy; the page's tags are found by a linear scan, never a backtracking pattern.
import * as path from 'path';
import type { WorkspacePolicy } from '../workspace/policy';
import { byDepth } from '../workspace/layout';
import { isProductFile, STYLE_EXT } from '../workspace/fileKinds';
import { oneLine, shorten } from '../text/cut';
import { itemsWithin } from './initManifests';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources } from './initFactsText';

/** The page a web app's user interface starts from, in the order they are looked for (Vite's, Create React App's, SvelteKit's…). */
const ENTRY_PAGES: readonly string[] = ['index.html', 'public/index.html', 'src/index.html', 'app.html', 'src/app.html'];
/** A utility-CSS or theme configuration at the root: Tailwind, UnoCSS, Windi, Panda. */
const STYLE_CONFIG = /^(?:tailwind|uno|unocss|windi|panda)\.config\.[cm]?[jt]s$/;
/**
 * A theme or design-token file anywhere in the product: `theme.ts`, `theme/index.ts`, `design-tokens.json`, and
 * tokens or variables as data or style sheets (`tokens.json`, `_variables.scss`) — not a `tokens.ts`, which is as often
 * a lexer's or an auth module.
 */
const THEME_FILE =
  /(?:^|\/)(?:(?:theme|design-tokens)\.(?:[cm]?[jt]s|json|css|scss|sass|less)|(?:tokens|_?variables)\.(?:json|css|scss|sass|less)|theme\/index\.[cm]?[jt]s)$/i;

/** The page's head read at most, and one value (a title, a link) at most. */
const HEAD_CHARS = 20_000;
const VALUE_CHARS = 100;
/**
 * One kind of link (stylesheets, fonts) at most, and the style files' names: with the title, the page's line and the
 * style files' line fit in the part's bound together (initFacts.ts), and the theme's head in what they leave. These
 * three are taken at the facts' scale, as the part's bound is.
 */
const LINKS_CHARS = 200;
const STYLE_NAMES_CHARS = 300;
/** The head of the theme configuration at most. */
const THEME_CHARS = 500;

/** True for a path the style part looks at: an entry page, a style file or a theme configuration of the product. */
export function isStyleSource(rel: string): boolean {
  return ENTRY_PAGES.includes(rel) || STYLE_CONFIG.test(rel) || ((STYLE_EXT.test(rel) || THEME_FILE.test(rel)) && isProductFile(rel));
}

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
function entryPageFacts(html: string, bounds: FactBounds): string {
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
      const isFont = attribute(tag, 'as') === 'font' || /fonts?\.|typekit|\.(?:woff2?|ttf|otf)(?:$|[?#])/i.test(href);
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

/** `- style files (12: 9 .scss, 3 .css): src/styles/main.scss, …` */
function styleFilesLine(styles: string[], bounds: FactBounds): string {
  const kinds = new Map<string, number>();
  for (const s of styles) {
    const ext = path.posix.extname(s).toLowerCase();
    kinds.set(ext, (kinds.get(ext) ?? 0) + 1);
  }
  const perKind = [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([ext, n]) => `${n} ${ext}`);
  return `- style files (${styles.length}: ${perKind.join(', ')}): ${itemsWithin([...styles].sort(byDepth), scaled(STYLE_NAMES_CHARS, bounds))}`;
}

/**
 * The style part within `max` characters from the style sources among `paths` (the layout's kept paths: isStyleSource),
 * or null when there are none. The files read, and the style files' names when it lists them, are added to `sources`.
 */
export function stylePart(policy: WorkspacePolicy, paths: readonly string[], sources: FactSources, max: number, bounds: FactBounds): string | null {
  const head = '## Style sources (the entry page, style files, theme configuration)\n';
  const lines: string[] = [];
  const page = ENTRY_PAGES.find((p) => paths.includes(p));
  const html = page ? policy.readSync(page) : null;
  if (page && html?.ok) lines.push(`- ${page}: ${entryPageFacts(html.text, bounds)}`);
  const styles = paths.filter((p) => STYLE_EXT.test(p) && isProductFile(p));
  if (styles.length) lines.push(styleFilesLine(styles, bounds));
  const theme = paths.filter((p) => STYLE_CONFIG.test(p)).sort()[0] ?? paths.filter((p) => THEME_FILE.test(p) && isProductFile(p)).sort(byDepth)[0];
  const listed = lines.length ? head + linesWithin(lines, max - head.length) : head.trimEnd();
  const themeText = theme ? policy.readSync(theme) : null;
  const themeBlock = themeText?.ok ? quoted(`${theme} (its head)`, themeText.text, Math.min(scaled(THEME_CHARS, bounds), max - listed.length - 2)) : null;
  if (!lines.length && !themeBlock) return null;
  if (page && html?.ok) sources.files.push(page);
  if (styles.length) sources.listed.push("the style files' names");
  if (themeBlock) sources.files.push(theme!);
  return themeBlock ? `${listed}\n\n${themeBlock}` : listed;
}

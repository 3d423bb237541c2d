// Init's workspace facts (initFacts.ts), the style part, for a workspace with a user interface: what the entry page's
// head loads (its title and language, its stylesheets and fonts, its theme colour), shadcn's components.json, the
// design tokens the style sources declare (custom properties, Sass and Less variables: quoted, the most used first)
// and the fonts they name, how the components style themselves (their own `<style>` blocks), the product's style files
// by name with their count per kind, and the head of its theme or design-token configuration (tailwind.config.*, a
// theme file) — what the design files start from. The entry page, components.json and the theme configuration are the
// root app's, else those of an app in a folder one level down (`frontend/index.html`). None for a workspace without
// any of these. Read through the read policy, within bounds: the page's head by initFactsPage.ts, the style files and
// components by initFactsSheets.ts, scanned once per walk (ParsedInputs).
import * as path from 'path';
import type { WorkspacePolicy } from '../workspace/policy';
import { byDepth } from '../workspace/layout';
import { isProductFile, STYLE_EXT } from '../workspace/fileKinds';
import { isPlainObject } from '../model/types';
import { oneLine, shorten } from '../text/cut';
import { itemsWithin } from './initManifests';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources, type ReadText, type WalkFiles } from './initFactsText';
import { entryPageFacts } from './initFactsPage';
import { COMPONENT_FILE, readStyleSources, type ComponentStyles, type StyleReads } from './initFactsSheets';
import { fontsLine, tokensLine } from './initFactsTokens';

/**
 * The page a web app's user interface starts from, in its app folder (appFile), in the order they are looked for
 * (Vite's, Create React App's, SvelteKit's…).
 */
const ENTRY_PAGES: readonly string[] = ['index.html', 'public/index.html', 'src/index.html', 'app.html', 'src/app.html'];
/** An app's root component (appFile: Vue's, Svelte's, SvelteKit's root layout): its style blocks are its global styles. */
const ROOT_COMPONENTS: readonly string[] = ['App.vue', 'src/App.vue', 'App.svelte', 'src/App.svelte', '+layout.svelte', 'src/routes/+layout.svelte'];
/** shadcn/ui's configuration, in an app folder (appFile): its style, base colour and icon library. */
const COMPONENTS_JSON = 'components.json';
/** A utility-CSS or theme configuration in an app folder (appFile): Tailwind, UnoCSS, Windi, Panda. */
const STYLE_CONFIG = /^(?:tailwind|uno|unocss|windi|panda)\.config\.[cm]?[jt]s$/;
/**
 * A theme or design-token file anywhere in the product: `theme.ts`, `theme/index.ts`, `design-tokens.json`, and
 * tokens or variables as data or style sheets (`tokens.json`, `_variables.scss`) — not a `tokens.ts`, which is as often
 * a lexer's or an auth module; but in a styles, theme or design folder a script module of colours, a palette, tokens,
 * variables or typography is the theme of CSS-in-JS (emotion, styled-components: `src/styles/colors.js` exporting
 * `indigo = '#3f51b5'`), which no style sheet declares.
 */
const THEME_FILE =
  /(?:^|\/)(?:(?:theme|design-tokens)\.(?:[cm]?[jt]s|json|css|scss|sass|less)|(?:tokens|_?variables)\.(?:json|css|scss|sass|less)|theme\/index\.[cm]?[jt]s|(?:styles?|themes?|design)\/(?:colou?rs|palette|tokens|variables|typography)\.[cm]?[jt]sx?)$/i;
/**
 * The names (without a leading `_` and the extension) of the style files that hold an app's global styles as often as
 * not (`index.css`, `globals.css`, `_base.scss`): their tokens are read first, with the theme files'.
 */
const GLOBAL_SHEET_NAMES = new Set(['index', 'global', 'globals', 'app', 'main', 'style', 'styles', 'base', 'root', 'vars', 'colors', 'typography', 'fonts']);
const isThemeSheet = (rel: string) => THEME_FILE.test(rel) || GLOBAL_SHEET_NAMES.has(path.posix.parse(rel).name.replace(/^_/, '').toLowerCase());

/**
 * Bounds at the facts' scale, as the part's bound is: the style files' names, the fonts, the token lines together and
 * one of them (none is begun in less room than MIN_TOKEN_LINE_CHARS). With the entry page's line (initFactsPage.ts)
 * and the others they fit in the part's bound (initFacts.ts), cut from the end; the theme's head takes what they leave.
 */
const STYLE_NAMES_CHARS = 300;
const FONTS_CHARS = 200;
const TOKENS_CHARS = 600;
const TOKEN_LINE_CHARS = 400;
const MIN_TOKEN_LINE_CHARS = 120;
/** A value of components.json at most. */
const VALUE_CHARS = 60;
/** The head of the theme configuration at most. */
const THEME_CHARS = 500;

/**
 * The path below its app folder of a file `is` names there, or null: an app is at the root, or in a folder one level
 * down (`frontend/index.html`, `web/public/index.html`: a sub-folder app's, when the folder is an app: isAppFolder) —
 * there, a file of the product only (not a docs site's or an example's).
 */
function appFile(rel: string, is: (below: string) => boolean): string | null {
  if (is(rel)) return rel;
  const slash = rel.indexOf('/');
  const below = rel.slice(slash + 1);
  return slash > 0 && is(below) && isProductFile(rel) ? below : null;
}

/** An entry page's app folder ('' at the root) and its path below it, or null for a path that is none. */
function entryPageOf(rel: string): { dir: string; below: string } | null {
  const below = appFile(rel, (b) => ENTRY_PAGES.includes(b));
  return below === null ? null : { dir: below === rel ? '' : rel.slice(0, rel.length - below.length - 1), below };
}

const isStyleConfig = (rel: string) => appFile(rel, (below) => STYLE_CONFIG.test(below)) !== null;
const isComponentsJson = (rel: string) => appFile(rel, (below) => below === COMPONENTS_JSON) !== null;
/** The root component of an app: its style blocks are read like a style file. */
const isRootComponent = (rel: string) => appFile(rel, (below) => ROOT_COMPONENTS.includes(below)) !== null;

/** A folder one level down is an app when it holds an index.html or a package.json (found by name, through the policy). */
const isAppFolder = (policy: WorkspacePolicy, paths: readonly string[], dir: string) => paths.includes(`${dir}/index.html`) || policy.check(`${dir}/package.json`).ok;

/** The entry page: the root's, else the first of an app folder one level down (by the folders' names), or undefined. */
function entryPage(policy: WorkspacePolicy, paths: readonly string[]): string | undefined {
  const pages = paths.flatMap((rel) => {
    const page = entryPageOf(rel);
    return page && (!page.dir || isAppFolder(policy, paths, page.dir)) ? [{ rel, ...page }] : [];
  });
  pages.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0) || ENTRY_PAGES.indexOf(a.below) - ENTRY_PAGES.indexOf(b.below));
  return pages[0]?.rel;
}

/**
 * True for a path the style part looks at: an entry page, a theme configuration or components.json of an app, a style
 * file, a theme file or a single-file component of the product.
 */
export function isStyleSource(rel: string): boolean {
  return (
    entryPageOf(rel) !== null ||
    isStyleConfig(rel) ||
    isComponentsJson(rel) ||
    ((STYLE_EXT.test(rel) || THEME_FILE.test(rel) || COMPONENT_FILE.test(rel)) && isProductFile(rel))
  );
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

/** One line of the part: the files it quotes or sums up, what it shows from names alone, the file whose tokens it quotes. */
interface StyleLine {
  text: string;
  files?: string[];
  listed?: string;
  tokensOf?: string;
}

/**
 * shadcn/ui's `components.json` (the root app's, else a sub-folder app's): its style, base colour, CSS variables, icon
 * library and the style sheet it themes, on one line; null without one or without those fields.
 */
function componentsJsonLine(read: ReadText, paths: readonly string[]): StyleLine | null {
  const rel = paths.filter(isComponentsJson).sort(byDepth)[0];
  const text = rel ? read(rel) : null;
  if (text === null) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(doc)) return null;
  const tw = isPlainObject(doc.tailwind) ? doc.tailwind : {};
  const fields = Object.entries({ style: doc.style, baseColor: tw.baseColor, cssVariables: tw.cssVariables, iconLibrary: doc.iconLibrary, css: tw.css, config: tw.config })
    .filter(([, v]) => (typeof v === 'string' && v.trim()) || typeof v === 'boolean')
    .map(([k, v]) => `${k} ${shorten(oneLine(String(v)), VALUE_CHARS)}`);
  if (!fields.length) return null;
  const shadcn = typeof doc.$schema === 'string' && doc.$schema.includes('shadcn') ? ' (shadcn/ui)' : '';
  return { text: `- ${rel}${shadcn}: ${fields.join('; ')}`, files: [rel] };
}

/** A line per style source that declares tokens, within TOKENS_CHARS together; those past it counted on a line. */
function tokenLines(reads: StyleReads, bounds: FactBounds): StyleLine[] {
  const lines: StyleLine[] = [];
  let room = scaled(TOKENS_CHARS, bounds);
  let left = 0;
  for (const { rel, label, facts } of reads.sheets) {
    if (!facts.tokens.length) continue;
    if (room < MIN_TOKEN_LINE_CHARS) left++;
    else {
      const text = tokensLine(label, facts.tokens, reads.uses, Math.min(scaled(TOKEN_LINE_CHARS, bounds), room))!;
      lines.push({ text, files: [rel], tokensOf: rel });
      room -= text.length + 1;
    }
  }
  if (left) lines.push({ text: `- … ${left} more style source${left === 1 ? '' : 's'} with tokens` });
  return lines;
}

/** `- components with their own <style>: 3 of 21 .vue files (3 scoped; lang scss 2, css 1)`; null when none was read. */
function componentsLine(c: ComponentStyles): StyleLine | null {
  if (!c.read) return null;
  const langs = [...c.langs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([lang, n]) => `${lang} ${n}`);
  const details = [...(c.read < c.total ? [`${c.total} in all`] : []), ...(c.withStyle ? [`${c.scoped} scoped`, `lang ${langs.join(', ')}`] : [])];
  const files = `${c.kinds.join('/')} files${c.read < c.total ? ' read' : ''}`;
  return { text: `- components with their own <style>: ${c.withStyle} of ${c.read} ${files}${details.length ? ` (${details.join('; ')})` : ''}`, listed: "the components' style blocks" };
}

/** A style file of the product: its tokens and fonts are read, its name is listed. */
const isStyleFile = (rel: string) => STYLE_EXT.test(rel) && isProductFile(rel);

/** What the style part takes from a walk, found and scanned once (styleReads). */
interface StyleWalk {
  /** The entry page (entryPage), if any. */
  page: string | undefined;
  /** The style files among the kept paths, in their order: their names are listed. */
  styles: string[];
  reads: StyleReads;
}

/**
 * The entry page among the walk's kept paths, its style files, and those (the theme's likely ones first) and the
 * components (the root one first) read with its reader and scanned.
 */
function styleReads({ read, policy, layout: { kept: paths } }: WalkFiles): StyleWalk {
  const components = paths.filter((p) => COMPONENT_FILE.test(p) && isProductFile(p));
  const styles = paths.filter(isStyleFile);
  const sheets = [...styles].sort((a, b) => Number(isThemeSheet(b)) - Number(isThemeSheet(a)) || byDepth(a, b));
  return { page: entryPage(policy, paths), styles, reads: readStyleSources(read, sheets, components, components.filter(isRootComponent).sort(byDepth)[0]) };
}

/**
 * The style part within `max` characters from the style sources among the walk's kept paths (isStyleSource), or null
 * when there are none: the entry page, components.json, the tokens of the style sources (the most used first), their
 * fonts, the components' style blocks, the style files' names — cut from the end — then the theme configuration's head
 * in the room left, unless a token line already quotes it. What the shown lines were made from is added to `sources`.
 */
export function stylePart(walk: WalkFiles, sources: FactSources, max: number, bounds: FactBounds): string | null {
  const head = '## Style sources (the entry page, style files, theme configuration)\n';
  const { read, layout } = walk;
  const paths = layout.kept;
  const lines: StyleLine[] = [];
  // found and scanned once per walk, whatever the facts' scale and set of parts
  const { page, styles, reads } = walk.parsed.of(styleReads);
  const html = page ? read(page) : null;
  if (page && html !== null) lines.push({ text: `- ${page}: ${entryPageFacts(html, bounds)}`, files: [page] });
  const config = componentsJsonLine(read, paths);
  if (config) lines.push(config);
  lines.push(...tokenLines(reads, bounds));
  const fonts = reads.sheets.filter((s) => s.facts.fonts.length);
  const fontsText = fontsLine(fonts.flatMap((s) => s.facts.fonts), scaled(FONTS_CHARS, bounds));
  if (fontsText) lines.push({ text: fontsText, files: fonts.map((s) => s.rel) });
  const componentStyles = reads.components && componentsLine(reads.components);
  if (componentStyles) lines.push(componentStyles);
  if (styles.length) lines.push({ text: styleFilesLine(styles, bounds), listed: "the style files' names" });
  const all = lines.map((l) => l.text);
  const text = all.length ? linesWithin(all, max - head.length) : '';
  // linesWithin keeps the first lines, and counts the others on a line of its own
  const shown = lines.slice(0, text === all.join('\n') ? all.length : text.split('\n').length - 1);
  const listed = text ? head + text : head.trimEnd();
  const theme = paths.filter(isStyleConfig).sort(byDepth)[0] ?? paths.filter((p) => THEME_FILE.test(p) && isProductFile(p)).sort(byDepth)[0];
  const themeText = theme && !shown.some((l) => l.tokensOf === theme) ? read(theme) : null;
  const themeBlock = themeText !== null ? quoted(`${theme} (its head)`, themeText, Math.min(scaled(THEME_CHARS, bounds), max - listed.length - 2)) : null;
  if (!text && !themeBlock) return null;
  for (const l of shown) {
    for (const f of l.files ?? []) if (!sources.files.includes(f)) sources.files.push(f);
    if (l.listed) sources.listed.push(l.listed);
  }
  if (themeBlock) sources.files.push(theme!);
  return themeBlock ? `${listed}\n\n${themeBlock}` : listed;
}

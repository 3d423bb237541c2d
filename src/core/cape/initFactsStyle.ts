// Init's workspace facts (initFacts.ts), the style part, for a workspace with a user interface: what the entry page's
// head loads (its title and language, its stylesheets and fonts, its theme colour), the product's style files by name
// with their count per kind, and the head of its theme or design-token configuration (tailwind.config.*, a theme
// file) — what the design files start from. The entry page and the theme configuration are the root app's, else those
// of an app in a folder one level down (`frontend/index.html`). None for a workspace without an entry page, style
// files or a theme file. Read through the read policy; the page's head is read by initFactsPage.ts.
import * as path from 'path';
import type { WorkspacePolicy } from '../workspace/policy';
import { byDepth } from '../workspace/layout';
import { isProductFile, STYLE_EXT } from '../workspace/fileKinds';
import { itemsWithin } from './initManifests';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources } from './initFactsText';
import { entryPageFacts } from './initFactsPage';

/**
 * The page a web app's user interface starts from, in its app folder (appFile), in the order they are looked for
 * (Vite's, Create React App's, SvelteKit's…).
 */
const ENTRY_PAGES: readonly string[] = ['index.html', 'public/index.html', 'src/index.html', 'app.html', 'src/app.html'];
/** A utility-CSS or theme configuration in an app folder (appFile): Tailwind, UnoCSS, Windi, Panda. */
const STYLE_CONFIG = /^(?:tailwind|uno|unocss|windi|panda)\.config\.[cm]?[jt]s$/;
/**
 * A theme or design-token file anywhere in the product: `theme.ts`, `theme/index.ts`, `design-tokens.json`, and
 * tokens or variables as data or style sheets (`tokens.json`, `_variables.scss`) — not a `tokens.ts`, which is as often
 * a lexer's or an auth module.
 */
const THEME_FILE =
  /(?:^|\/)(?:(?:theme|design-tokens)\.(?:[cm]?[jt]s|json|css|scss|sass|less)|(?:tokens|_?variables)\.(?:json|css|scss|sass|less)|theme\/index\.[cm]?[jt]s)$/i;

/**
 * The style files' names at most: with the entry page's line (initFactsPage.ts) they fit in the part's bound together
 * (initFacts.ts), and the theme's head in what they leave. Taken at the facts' scale, as the part's bound is.
 */
const STYLE_NAMES_CHARS = 300;
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

/** True for a path the style part looks at: an entry page, a style file or a theme configuration of the product. */
export function isStyleSource(rel: string): boolean {
  return entryPageOf(rel) !== null || isStyleConfig(rel) || ((STYLE_EXT.test(rel) || THEME_FILE.test(rel)) && isProductFile(rel));
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
  const page = entryPage(policy, paths);
  const html = page ? policy.readSync(page) : null;
  if (page && html?.ok) lines.push(`- ${page}: ${entryPageFacts(html.text, bounds)}`);
  const styles = paths.filter((p) => STYLE_EXT.test(p) && isProductFile(p));
  if (styles.length) lines.push(styleFilesLine(styles, bounds));
  const theme = paths.filter(isStyleConfig).sort(byDepth)[0] ?? paths.filter((p) => THEME_FILE.test(p) && isProductFile(p)).sort(byDepth)[0];
  const listed = lines.length ? head + linesWithin(lines, max - head.length) : head.trimEnd();
  const themeText = theme ? policy.readSync(theme) : null;
  const themeBlock = themeText?.ok ? quoted(`${theme} (its head)`, themeText.text, Math.min(scaled(THEME_CHARS, bounds), max - listed.length - 2)) : null;
  if (!lines.length && !themeBlock) return null;
  if (page && html?.ok) sources.files.push(page);
  if (styles.length) sources.listed.push("the style files' names");
  if (themeBlock) sources.files.push(theme!);
  return themeBlock ? `${listed}\n\n${themeBlock}` : listed;
}

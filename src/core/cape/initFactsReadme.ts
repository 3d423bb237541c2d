// Init's workspace facts (initFacts.ts), the README part: the README's opening (which README at the root is read:
// workspace/fileKinds.ts readmeOf) — the title and first paragraphs, without the badges, images and HTML around them.

/**
 * An image: markdown's, inline or by reference (`![alt](src)`, `![alt][ref]`), or HTML's `<img …>` (`<source …>` in a
 * `<picture>`). No bracket inside a bracket: a try stops at the next one, so a block of `![` or `[](` is read in one pass.
 * The status notes' sentences drop them too (initFactsStatus.ts).
 */
export const IMAGE = /!\[[^[\]]*\](?:\([^()]*\)|\[[^[\]]*\])|<(?:img|source)\b[^<>]*>/gi;
/** A link its images left empty: markdown's `[](href)` or `[][ref]`, HTML's `<a …></a>`. */
const EMPTY_LINK = /\[\s*\](?:\([^()]*\)|\[[^[\]]*\])|<a\b[^<>]*>\s*<\/a>/gi;
/** An HTML tag, and a character reference (`&nbsp;`, `&#8203;`): no text of the README's, nor of a status note's. */
export const TAG = /<[^<>]*>|&(?:#\d+|[a-z]+);/gi;
/** A link reference definition's line (`[npm-img]: https://…`). */
const LINK_DEFINITION = /^\s*\[[^\]\n]*\]:/;
/** A setext heading's underline (`======` under the title). */
const SETEXT_UNDERLINE = /^(?:=+|-+)\s*$/;

/** A match's line breaks alone: what is cut from a block leaves its lines where they were. */
const cut = (match: string): string => match.replace(/[^\n]/g, '');

/**
 * A README block's lines without their link definitions, images and the links they leave empty, line for line (a
 * badge's text wrapped onto a line of its own, `[![GitHub Workflow` / `Status][gh-actions-img]][github-actions]` in
 * tinyhttp's, leaves both lines empty).
 */
const withoutImages = (block: string): string[] =>
  block
    .split('\n')
    .map((line) => (LINK_DEFINITION.test(line) ? '' : line))
    .join('\n')
    .replace(IMAGE, cut)
    .replace(EMPTY_LINK, cut)
    .split('\n');

/** Whether a line says something once its tags are gone: a line of badges, of `<p align="center">` or `</a>` does not. */
const saysSomething = (line: string): boolean => /[\p{L}\p{N}]/u.test(line.replace(TAG, ''));

/**
 * The opening of a README: its first paragraphs (headings kept), each line without its images and the links they
 * leave empty, and without the lines of markup that then say nothing (badges: `[![..](..)](..)`, `[<img …>](…)`,
 * `<a …><img …></a>`, and the HTML that only wraps them: on dtolnay/semver a line of four badges took 1 KB of the
 * facts) — a block that says nothing left out whole — three of prose at most, ending with the one that reaches `max`
 * characters (the caller cuts it to its room).
 */
export function readmeOpening(text: string, max: number): string {
  const kept: string[] = [];
  let prose = 0;
  let size = 0;
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    const raw = block.split('\n');
    const all = withoutImages(block).map((l) => l.trimEnd());
    if (!all.some(saysSomething)) continue;
    // a line of code or a title's underline stays; one whose markup is all it held goes
    const lines = all.filter((l, i) => l && (saysSomething(l) || (l === raw[i].trimEnd() && l.replace(TAG, '') === l)));
    kept.push(lines.join('\n'));
    size += kept[kept.length - 1].length + 2;
    const heading = /^#/.test(lines[0]) || SETEXT_UNDERLINE.test(lines[1] ?? '');
    if (!heading && ++prose >= 3) break;
    if (size >= max) break;
  }
  return kept.join('\n\n');
}

// Init's workspace facts (initFacts.ts), the README part: which README at the root is read (README.md preferred), and
// its opening — the title and first paragraphs, without the badges, images and HTML around them.

/** A README at the root, by its name (README.md preferred). */
const README_NAME = /^readme(?:\.(?:md|markdown|rst|txt|adoc))?$/i;

/** A README block without its images (inline or by reference), the links left empty by them, and its HTML tags. */
function withoutDecoration(block: string): string {
  return block
    .split('\n')
    .filter((line) => !/^\s*\[[^\]\n]*\]:/.test(line))
    .join('\n')
    .replace(/!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?/g, '')
    .replace(/\[\s*\](?:\([^)]*\)|\[[^\]]*\])?/g, '')
    .replace(/<[^<>]*>/g, '');
}

/**
 * The opening of a README: its first paragraphs (headings kept, badge, image and HTML lines dropped), three of prose
 * at most, ending with the one that reaches `max` characters (the caller cuts it to its room).
 */
export function readmeOpening(text: string, max: number): string {
  const decoration = /^\s*(?:\[!\[|!\[|<\/?[a-z!]|\[[^\]\n]*\]:)/i;
  const kept: string[] = [];
  let prose = 0;
  let size = 0;
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    // a block of badges says nothing once its images, the links around them and its tags are gone — a badge's
    // text wrapped onto a line of its own ("Status][ci-img]][ci]") included
    if (!/[\p{L}\p{N}]/u.test(withoutDecoration(block))) continue;
    const lines = block
      .split('\n')
      .filter((l) => l.trim() && !decoration.test(l))
      .map((l) => l.trimEnd());
    if (!lines.length) continue;
    kept.push(lines.join('\n'));
    size += kept[kept.length - 1].length + 2;
    if (!/^#/.test(lines[0]) && ++prose >= 3) break;
    if (size >= max) break;
  }
  return kept.join('\n\n');
}

/** The README among the root's files (`rootFiles`, names only), the one the part quotes; undefined without one. */
export function readmeOf(rootFiles: readonly string[]): string | undefined {
  return rootFiles.filter((n) => README_NAME.test(n)).sort((a, b) => Number(!/\.md$/i.test(a)) - Number(!/\.md$/i.test(b)) || (a < b ? -1 : 1))[0];
}

// Packing project files into a prompt budget by markdown section (the sections split here, splitSections, are also
// how outputs.ts reads a markdown output); a fence a file leaves open is closed at its end (it must not swallow the
// files after it). Single parts cut at a line or sentence end are clip.ts's. Everything here returns at most the
// budget it is given.
//
// Section packing rules (what a trial with a real model showed it needs):
//  - a heading always travels with its body, and a kept section is preceded by its parent headings (the heading
//    path), so "### Profile" is never read as belonging to the persona above it;
//  - a heading with no body of its own is never sent alone (only as the path of a kept subsection);
//  - `#` lines inside code fences are code, not headings;
//  - the sections that do not fit are named (bounded), without promising that anyone can fetch them.

import { charBigrams, fenceTracker, headingOf, withFenceClosed, withoutTrailingSpaces } from '../text';
import { clip, clipMarkdown, CUT } from './clip';

/**
 * Light markdown minification that changes no meaning: trailing spaces, rules, runs of blank lines, table padding.
 * Fenced code keeps its lines (a YAML `---`, an ASCII diagram drawn with `|`): only its trailing spaces go.
 */
export function minifyMarkdown(text: string): string {
  const outside = fenceTracker();
  return text
    .split(/\r?\n/)
    .map((raw) => {
      const line = withoutTrailingSpaces(raw);
      if (!outside(line)) return line;
      if (/^(-{3,}|\*{3,}|_{3,})$/.test(line)) return '';
      return /^\|.*\|$/.test(line) ? line.replace(/ {2,}/g, ' ').replace(/\|\s*:?-{3,}:?\s*(?=\|)/g, '|---') : line;
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** One heading and the text up to the next heading (of any level). The text before the first heading has level 0. */
export interface MdSection {
  level: number;
  /** The heading line as written ('' for the text before the first heading). */
  headingLine: string;
  title: string;
  body: string;
  /** Index of the enclosing section (nearest earlier heading of a lower level), -1 at the top. */
  parent: number;
}

/** Splits markdown into sections, ignoring `#` lines inside fenced code. */
export function splitSections(markdown: string): MdSection[] {
  const out: MdSection[] = [];
  let cur: MdSection = { level: 0, headingLine: '', title: '', body: '', parent: -1 };
  let lines: string[] = [];
  const outside = fenceTracker();
  const stack: number[] = [];
  const flush = () => {
    cur.body = lines.join('\n').trim();
    if (cur.level > 0 || cur.body) out.push(cur);
    lines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const h = outside(line) ? headingOf(line) : null;
    if (!h?.title) {
      lines.push(line);
      continue;
    }
    flush();
    const level = h.level;
    while (stack.length && out[stack[stack.length - 1]].level >= level) stack.pop();
    cur = { level, headingLine: line.trim(), title: h.title.trim(), body: '', parent: stack.length ? stack[stack.length - 1] : -1 };
    stack.push(out.length);
  }
  flush();
  // `stack` holds indexes into `out` of sections already flushed; the current one is pushed at its flush position.
  return out;
}

const ONLY_SPACE_OR_PUNCTUATION = /^[\s\p{P}\p{S}]+$/u;

/** The section's bigrams for scoring (its first 6,000 characters, punctuation-only bigrams left out). */
function bigramSet(text: string): Set<string> {
  const t = text.slice(0, 6000).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  return charBigrams(t, (g) => Array.from(g).length === 2 && !ONLY_SPACE_OR_PUNCTUATION.test(g));
}

/**
 * How a section is ranked for a work (`query`: relevance(query) gives the scorer): the character bigrams its title and
 * body share with the query (bigrams work for Japanese as well as English), over the square root of its own, so long
 * sections do not win by bulk. packAssets ranks by it, and so do the objective's passages (passages.ts).
 */
export function relevance(query: string): (section: MdSection) => number {
  const q = bigramSet(query);
  return (section) => {
    const b = bigramSet(section.title + '\n' + section.body);
    let shared = 0;
    for (const g of b) if (q.has(g)) shared++;
    return b.size ? shared / Math.sqrt(b.size) : 0;
  };
}

interface Unit {
  file: number;
  index: number;
  section: MdSection;
  score: number;
  opening: boolean;
  /** The text sent for this section (heading + body, possibly clipped). */
  text: string;
}

const OMITTED_LIST_MAX = 400;
/** Room kept for each file's note, so left-out sections are named, not just counted. */
const NOTE_RESERVE = 260;
/** Sections of one file that are ranked at most (a generated 28 MB file must not cost seconds); the rest are not. */
export const MAX_RANKED = 2000;

const NOTE_HEAD = '(Not included, to keep within the context budget: ';

/** Names the left-out sections in at most `max` characters (titles first, then a count). */
function omittedNote(titles: string[], total: number, max: number): string {
  if (!total) return '';
  const tail = (more: number, shown: number) => (more ? `${shown ? '; ' : ''}and ${more} more section${more > 1 ? 's' : ''}` : '') + ')';
  let list = '';
  let shown = 0;
  for (const t of titles) {
    const next = (shown ? '; ' : '') + clip(t, 80, '…');
    if (NOTE_HEAD.length + list.length + next.length + tail(total - shown - 1, shown + 1).length > Math.min(max, OMITTED_LIST_MAX)) break;
    list += next;
    shown++;
  }
  return NOTE_HEAD + list + tail(total - shown, shown);
}

/**
 * Packs the files into `budget` characters. When everything fits it goes in whole. Otherwise each file keeps its
 * opening (title and introduction, clipped to a fair share when it is huge); the other sections are ranked by their
 * relevance to `query`, the step's work (sections under a heading matching `focus`, what the role always needs, come
 * first), and kept while they fit. Kept sections stay in document order, each preceded by its heading path; the rest
 * are named in a bounded note.
 */
export function packAssets(files: [string, string][], budget: number, query: string, focus?: RegExp): string {
  const minified = files.map(([rel, text]) => [rel, minifyMarkdown(text)] as [string, string]);
  const whole = minified.map(([rel, text]) => `### cape/${rel}\n${withFenceClosed(text)}`).join('\n\n');
  if (whole.length <= budget) return whole;
  if (!minified.length || budget <= 0) return '';

  const score = relevance(query);
  const perFile = minified.map(([, text]) => splitSections(text));
  const units: Unit[][] = perFile.map((sections, file) =>
    sections.map((section, index) => ({
      file,
      index,
      section,
      score: 0,
      opening: false,
      text: section.headingLine ? (section.body ? `${section.headingLine}\n${section.body}` : section.headingLine) : section.body,
    })),
  );
  // Fixed costs: each file's header line and separators, and a short omitted-sections note (the render is checked
  // against the budget afterwards and the least related sections dropped when the notes came out longer).
  const noteReserve = Math.min(NOTE_RESERVE, Math.floor(budget / (4 * minified.length)));
  const fixed = minified.reduce((n, [rel]) => n + `### cape/${rel}\n`.length + noteReserve + 4, 0);
  let room = budget - fixed;
  const kept = units.map(() => new Set<number>());
  /** The parent headings of kept sections (shown as their path). */
  const pathOf = (f: number): Set<number> => {
    const shown = new Set<number>();
    for (const i of kept[f]) for (let p = perFile[f][i].parent; p >= 0; p = perFile[f][p].parent) shown.add(p);
    return shown;
  };
  const shownPaths = units.map(() => new Set<number>());

  /** Characters that keeping unit u adds: its text plus the parent headings not yet shown. */
  const cost = (u: Unit): number => {
    let n = u.text.length + 2;
    for (let p = u.section.parent; p >= 0; p = perFile[u.file][p].parent) {
      if (!kept[u.file].has(p) && !shownPaths[u.file].has(p)) n += perFile[u.file][p].headingLine.length + 2;
    }
    return n;
  };
  const keep = (u: Unit) => {
    kept[u.file].add(u.index);
    for (let p = u.section.parent; p >= 0; p = perFile[u.file][p].parent) shownPaths[u.file].add(p);
  };

  // 1. Openings: the file's text before its first subsection (the level-0 intro and/or the first heading with a body).
  const share = Math.max(200, Math.floor(Math.max(room, 0) / (2 * minified.length)));
  for (const fileUnits of units) {
    const first = fileUnits.find((u) => u.section.body);
    if (!first || first.index > 1) continue;
    first.opening = true;
    if (first.text.length + 2 > share) first.text = clipMarkdown(first.text, share);
    const c = cost(first);
    if (c <= room) {
      keep(first);
      room -= c;
    }
  }
  // 2. The rest by relevance to the step's work; headings without a body only travel as a kept section's path.
  // Only a file's first MAX_RANKED sections compete; the rest are named.
  const rest = units.flatMap((fileUnits) => fileUnits.slice(0, MAX_RANKED).filter((u) => !u.opening && u.section.body));
  for (const u of rest) {
    u.score = score(u.section);
    // A section the role always needs (its heading or a parent's matches `focus`) ranks before any other.
    for (let i = u.index; focus && i >= 0; i = perFile[u.file][i].parent) {
      if (focus.test(perFile[u.file][i].title)) {
        u.score += 1000;
        break;
      }
    }
  }
  rest.sort((a, b) => b.score - a.score || a.file - b.file || a.index - b.index);
  for (const u of rest) {
    const c = cost(u);
    if (c > room) continue;
    keep(u);
    room -= c;
  }

  // 3. Room left (few sections, or none that fit): give it to openings that were cut.
  for (const fileUnits of units) {
    const first = fileUnits.find((u) => u.opening);
    if (!first || !first.text.endsWith(CUT) || room <= 0) continue;
    const full = first.section.headingLine ? `${first.section.headingLine}\n${first.section.body}` : first.section.body;
    const wasKept = kept[first.file].has(first.index);
    const before = wasKept ? first.text.length : 0;
    first.text = clipMarkdown(full, before + room - (wasKept ? 0 : cost(first) - first.text.length));
    if (!wasKept && cost(first) <= room) keep(first);
    room -= first.text.length - before;
  }

  /** Each file's kept text (with heading paths) and the titles of what it leaves out. */
  const layout = () =>
    units.map((fileUnits, f) => {
      const paths = pathOf(f);
      const parts: string[] = [];
      const hasChild = new Set(fileUnits.map((u) => u.section.parent));
      const omitted: string[] = [];
      let total = 0;
      // Named with their parent (e.g. "Secondary Persona: Hana › Profile"), so same-named sections stay distinct.
      const omit = (u: Unit, title: string) => {
        const parent = u.section.parent >= 0 ? perFile[f][u.section.parent].title : '';
        if (omitted.length < 100) omitted.push(parent && u.section.level > 2 ? `${clip(parent, 40, '…')} › ${title}` : title);
        total++;
      };
      for (const u of fileUnits) {
        if (kept[f].has(u.index)) parts.push(u.text);
        else if (paths.has(u.index)) {
          parts.push(u.section.headingLine);
          if (u.section.body) omit(u, u.section.title);
        } else if (u.section.body) omit(u, u.section.title || '(introduction)');
        else if (!hasChild.has(u.index)) omit(u, u.section.title);
      }
      return { head: `### cape/${minified[f][0]}\n${withFenceClosed(parts.join('\n\n'))}`, omitted, total };
    });
  /** Content first; the notes share what is left (each at least a count of what was left out). */
  const render = () => {
    const files = layout();
    const content = files.reduce((n, x) => n + x.head.length + 2, 0);
    const noted = files.filter((x) => x.total).length;
    const noteMax = Math.max(NOTE_HEAD.length + 30, Math.floor((budget - content) / Math.max(1, noted)) - 2, noteReserve);
    return files.map((x) => [x.head, omittedNote(x.omitted, x.total, noteMax)].filter(Boolean).join('\n\n')).join('\n\n');
  };
  // Should even the shortest notes not fit, the least related sections make room.
  let out = render();
  const droppable = [...rest].reverse().filter((u) => kept[u.file].has(u.index));
  while (out.length > budget && droppable.length) {
    let excess = out.length - budget;
    while (excess > 0 && droppable.length) {
      const u = droppable.shift()!;
      kept[u.file].delete(u.index);
      excess -= u.text.length;
    }
    out = render();
  }
  return clipMarkdown(out, budget);
}

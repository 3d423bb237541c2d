// The outline of the project's cape/ files that the Cape Master's opening receives: per file, its headings and the
// start of each section, within a budget. CM checks the Definition of Ready and coaches every role, but each role
// receives only its own folder (matrix.ts); with the files' names alone, two trials' CM raised DoR concerns the
// persona and backlog files answered, and could not see that the milestone file asked for a changelog entry the
// development guideline forbids. The outline is the same in every session until the files change, so it is cached
// with the other stable sources (context.ts). Each section's line is built by ./outlineSections.ts; here they are fitted
// to a file's room and the files to the total.
import { sectionLines, type SectionLine } from './outlineSections';

/** Characters of one file's outline. */
export const OUTLINE_FILE_CHARS = 900;
/** Characters of the whole outline (6,000 before a file listing stories got twice a file's room: STORIES_ROOM). */
export const OUTLINE_TOTAL_CHARS = 6800;

/**
 * One file's outline: a line per section, `## Title: its opening words`, clipped at a sentence end; the sections that
 * do not fit in `max` are counted.
 */
export function outlineMarkdown(markdown: string, max = OUTLINE_FILE_CHARS): string {
  return fitLines(sectionLines(markdown), max);
}

/**
 * The section lines that fit in `max`. When they do not all fit but their headings would, the longest openings give
 * way to their bare headings first (a section that puts work off or lists stories last: outlineSections.ts PUT_OFF,
 * storyItems), until every section is shown: the headings are the file's map — a trial's CM, given a backlog's title,
 * its priority table, "## Epics" and "(+4 more section(s))", could not see the epic the objective was on; a React
 * trial's CM saw "### Later (P3 Won't for 1.1.0)" without its table and could not tell whether the objective was put
 * off. Otherwise (too many sections even as headings) the lines are kept whole and the rest counted.
 */
function fitLines(sections: readonly SectionLine[], max: number): string {
  const lines = sections.map((s) => s.line);
  const size = (ls: readonly string[]) => ls.reduce((n, l) => n + l.length + 1, 0);
  let used = size(lines);
  if (used > max && size(sections.map((s) => s.head || s.line)) <= max) {
    // the longest first; a section that puts work off or lists stories gives way last
    const longest = sections
      .map((s, i) => [i, s.line.length - (s.head ? s.head.length : s.line.length), s.putOff || s.stories] as const)
      .sort((a, b) => Number(a[2]) - Number(b[2]) || b[1] - a[1] || a[0] - b[0]);
    for (const [i, saved] of longest) {
      if (used <= max) break;
      // a bare heading saves nothing; the sections that give way last come after it
      if (saved <= 0) continue;
      lines[i] = sections[i].head;
      used -= saved;
    }
  }
  return countedWithin(lines, max);
}

/** The lines that fit in `max`, in order, the rest counted. */
function countedWithin(lines: readonly string[], max: number): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const more = lines.length - i - 1;
    const note = more ? `(+${more} more section(s))`.length + 1 : 0;
    if (used + lines[i].length + 1 + note > max) {
      out.push(`(+${lines.length - i} more section(s))`);
      break;
    }
    out.push(lines[i]);
    used += lines[i].length + 1;
  }
  return out.join('\n');
}

/** Characters of the line naming the files left out of the outline (a project may add hundreds). */
const LEFT_OUT_CHARS = 400;

/** Names the files left out, as many as fit in LEFT_OUT_CHARS, then how many more. */
function leftOut(paths: readonly string[]): string {
  const head = '(No room to outline: ';
  let names = '';
  let shown = 0;
  for (const p of paths) {
    const more = paths.length - shown - 1;
    const tail = more ? `, and ${more} more file${more > 1 ? 's' : ''})` : ')';
    const next = (shown ? ', ' : '') + p;
    if (head.length + names.length + next.length + tail.length > LEFT_OUT_CHARS) break;
    names += next;
    shown++;
  }
  const more = paths.length - shown;
  return `${head}${names}${more ? `${shown ? ', and ' : ''}${more} more file${more > 1 ? 's' : ''}` : ''})`;
}

/**
 * The outline of the given files (path → text, in the order given), each headed by its path, within `total`
 * characters; the files that do not fit are named. When the files' outlines together pass the total, each file gets
 * the same room — the most that keeps the whole within the total — rather than the first ones all of theirs: a Vue
 * trial's CM, given nine files, saw the development standards as one line and "(+6 more section(s))", the files
 * before having taken the budget.
 */
export function projectOutline(files: readonly [string, string][], total = OUTLINE_TOTAL_CHARS): string {
  // each file's section lines once, and its share of the room; only their fitting depends on the room
  const lined = files.map(([rel, text]) => {
    const lines = sectionLines(text);
    return [rel, lines, lines.some((l) => l.stories) ? STORIES_ROOM : 1] as const;
  });
  // the length of every file's outline in `room`, were there no total
  const need = (room: number) => lined.reduce((n, [rel, lines, share]) => n + rel.length + 3 + fitLines(lines, room * share - rel.length - 2).length, 0);
  let room = OUTLINE_FILE_CHARS;
  if (need(room) > total) {
    // the largest room per file whose outlines all fit (lines are whole, so the length grows in steps: a search on it)
    let lo = MIN_FILE_ROOM;
    let hi = OUTLINE_FILE_CHARS;
    while (hi - lo > 8) {
      const mid = Math.floor((lo + hi) / 2);
      if (need(mid) <= total - LEFT_OUT_ROOM) lo = mid;
      else hi = mid;
    }
    room = lo;
  }
  return outlineWithin(lined, total, room);
}

/** Room kept for the line naming the files left out, while any remain. */
const LEFT_OUT_ROOM = 60;

/** The least room a file's outline is given: its path and a heading line or two. */
const MIN_FILE_ROOM = 160;

/**
 * The share of the room a file gets whose sections list a backlog's stories (outlineSections.ts storyItems): the
 * Definition of Ready checks the objective against them, and thirteen stories do not fit one file's room — a cJSON
 * trial's CM saw an epic's ids alone and could not tell whether the objective was on the backlog.
 */
const STORIES_ROOM = 2;

/**
 * The files' outlines (their section lines), each in at most `room` characters (times its share), in order while
 * the total has room; the rest named.
 */
function outlineWithin(files: readonly (readonly [string, readonly SectionLine[], number])[], total: number, room: number): string {
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; i < files.length; i++) {
    const [rel, lines, share] = files[i];
    // room kept for the line naming the files left out, while any remain
    const max = Math.min(room * share, total - used - (i + 1 < files.length ? LEFT_OUT_ROOM : 0));
    const body = max > 80 ? fitLines(lines, max - rel.length - 2) : '';
    if (!body) {
      parts.push(leftOut(files.slice(i).map(([r]) => r)));
      break;
    }
    const part = `${rel}\n${body}`;
    parts.push(part);
    used += part.length + 2;
  }
  return parts.join('\n\n');
}

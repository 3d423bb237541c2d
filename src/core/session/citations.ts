// The places the upstream role (DA, for DevA) cites in its reply, and the functions and methods its handoff notes name
// in code (handoffNames: DevA's excerpts show where a file declares them), — `lib/command.js:710-713` in its handoff notes, an
// answer's evidence or a spec, read as evidence.ts reads evidence — added to what it saw with its tools (tools/reads.ts),
// so DevA's excerpts of a large file show those lines first (workspace/sectionBlocks.ts) and a file cited ranks as one it
// read (workspace/rank.ts). In a commander trial DA read
// lines 640–780 of the 2,789-line command.js and pointed DevA at the listener on lines 710–713; the range it read was
// too long to show as read, and DevA's excerpts, picked by the work's words, showed an old comment twenty lines below.
import { evidenceParts } from './evidence';
import type { FileRead } from '../tools/reads';

/**
 * Places of one reply taken at most (a reply that cites every line of a file points nowhere in particular); a place
 * inside one taken before is not another.
 */
export const MAX_CITED_PLACES = 16;

/** `read` with the line ranges `reply` cites added to each file's `cited` (a file cited but not read gets an entry). */
export function withCitations(read: readonly FileRead[], reply: string): FileRead[] {
  const out = read.map((f) => ({ ...f }));
  const byPath = new Map(out.map((f) => [f.path, f]));
  let taken = 0;
  for (const { place } of evidenceParts(reply)) {
    if (!place?.line) continue;
    const path = place.path.replace(/^(?:\.\/)+/, '');
    const range: [number, number] = [place.line, place.endLine ?? place.line];
    // a place cited again, or inside one cited before, takes no more of the bound
    if (byPath.get(path)?.cited?.some(([a, b]) => a <= range[0] && b >= range[1])) continue;
    if (taken++ >= MAX_CITED_PLACES) break;
    let f = byPath.get(path);
    if (!f) byPath.set(path, (f = { path })), out.push(f);
    (f.cited ??= []).push(range);
  }
  return out;
}

/** Names taken of one handoff at most. */
export const MAX_HANDOFF_NAMES = 12;

/**
 * The functions and methods the handoff notes name in code spans: a call's name (`subcommandDescription(cmd)`), a
 * member's (`Help.subcommandDescription`), in the order written, each once, three characters long at least. In a
 * commander trial DA wrote "through `Help.subcommandDescription(cmd)`", the one method to change, without a line
 * number, and DevA's excerpts of help.js left it out.
 */
export function handoffNames(notes: unknown): string[] {
  const out = new Set<string>();
  for (const note of Array.isArray(notes) ? notes : []) {
    if (typeof note !== 'string') continue;
    for (const [, span] of note.matchAll(/`([^`\n]+)`/g)) {
      for (const m of span.matchAll(/(?<![\w$])[A-Za-z_$][\w$]*/g)) {
        // the characters either side of it, blanks aside (each run of blanks looked at twice at most)
        let before = m.index - 1;
        while (before >= 0 && /\s/.test(span[before])) before--;
        let after = m.index + m[0].length;
        while (after < span.length && /\s/.test(span[after])) after++;
        if (m[0].length >= 3 && (span[before] === '.' || span[after] === '(')) out.add(m[0]);
      }
    }
  }
  return [...out].slice(0, MAX_HANDOFF_NAMES);
}

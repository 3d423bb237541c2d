// Go's module files, go.mod and go.work, read line by line (their format needs no library): their directives, a
// block's (`require ( … )`, `use ( … )`) each with the block's verb, comments after `//` kept apart — the one reader
// of that format, for init's go.mod fact lines (cape/initManifestsGo.ts) and go.work's members (members.ts).

/** One directive of a go.mod: its verb (`require`), its arguments and its line's comment (`indirect`). */
export interface Directive {
  verb: string;
  args: string;
  comment: string;
}

/** The directives of a go.mod or go.work, a block's (`require ( … )`) each with the block's verb. */
export function directives(text: string): Directive[] {
  const out: Directive[] = [];
  let block: string | null = null;
  for (const raw of text.split('\n')) {
    const at = raw.indexOf('//');
    const line = (at < 0 ? raw : raw.slice(0, at)).trim();
    const comment = at < 0 ? '' : raw.slice(at + 2).trim();
    if (!line) continue;
    if (block !== null) {
      if (line === ')') block = null;
      else out.push({ verb: block, args: line, comment });
      continue;
    }
    if (line.endsWith('(')) {
      block = line.slice(0, -1).trim();
      continue;
    }
    const space = line.search(/\s/);
    if (space > 0) out.push({ verb: line.slice(0, space), args: line.slice(space).trim(), comment });
  }
  return out;
}

/** A path as written, without the quotes Go allows around it. */
export const unquoted = (s: string): string => s.replace(/^["`]|["`]$/g, '');

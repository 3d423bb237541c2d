// A relative import specifier joined to its file's folder (joinRelative), the one path arithmetic of the import graph
// (importGraph.ts: TypeScript/JavaScript and Python relative imports), and whether the result climbs above the root.

/**
 * path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) for a workspace file `from` (normalised,
 * relative) and a relative specifier, without a trailing slash: a build resolves one or two specifiers per file, and
 * the general functions cost more than the rest of the resolution.
 */
export function joinRelative(from: string, spec: string): string {
  // the usual case: leading `./` and `../` segments, then names only
  let dir = from.slice(0, Math.max(0, from.lastIndexOf('/')));
  let i = 0;
  for (;;) {
    if (spec.startsWith('./', i)) i += 2;
    else if (spec.startsWith('../', i) && dir) {
      dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')));
      i += 3;
    } else break;
  }
  const rest = spec.slice(i);
  if (rest && !DOT_OR_EMPTY_SEGMENT.test(rest)) return dir ? `${dir}/${rest}` : rest;
  const out = from.split('/');
  out.pop();
  let up = 0;
  for (const seg of spec.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > up) out.pop();
    else (out.push('..'), up++);
  }
  return out.length ? out.join('/') : '.';
}

/** Whether a joined path (joinRelative) climbs above the workspace root; `..cache` is a name, not a climb. */
export const aboveRoot = (base: string): boolean => base === '..' || base.startsWith('../');

/** A path with an empty, `.` or `..` segment (or a trailing slash). */
const DOT_OR_EMPTY_SEGMENT = /(^|\/)\.{0,2}(\/|$)/;

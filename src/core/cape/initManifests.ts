// Init's workspace facts (initFacts.ts), what package.json says: its name and description, module type, package
// manager, entry points (main, module, types, bin, exports), workspaces, engines, scripts, and the names and versions
// of its dependencies and development dependencies — as fact lines, each value on one line and shortened, each list
// cut to a bound with how many more there are. Parsed fields rather than the file's head: a package.json's head is
// mostly its name and metadata.

import { joinWithin, oneLine, shorten } from '../text/cut';
import { isPlainObject } from '../model/types';

/** A name, a description, a script's command at most. */
const FIELD_CHARS = 160;
/** A list (scripts, dependencies) at most, its "… N more" included. */
const LIST_CHARS = 800;
/** The commands of `bin` or the entries of `exports` at most. */
const ENTRY_CHARS = 300;

/** Items joined by ', ' within `max` characters, then `… N more` (joinWithin). */
export const itemsWithin = (items: readonly string[], max: number): string => joinWithin(items, max, ', ', (n) => `, … ${n} more`);

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? shorten(oneLine(v), FIELD_CHARS) : null);

/** `name value` for each string entry of an object field (dependencies, engines). */
function entries(v: unknown, sep: string): string[] {
  if (!isPlainObject(v)) return [];
  return Object.entries(v).flatMap(([k, val]) => (typeof val === 'string' ? [`${shorten(oneLine(k), FIELD_CHARS)}${sep}${text(val) ?? '""'}`] : []));
}

/** npm's and Yarn's `workspaces` (a list of globs, or `{ packages: [...] }`). */
function workspaceGlobs(v: unknown): string[] {
  const list = isPlainObject(v) ? v.packages : v;
  return Array.isArray(list) ? list.flatMap((g) => (typeof g === 'string' ? [shorten(oneLine(g), FIELD_CHARS)] : [])) : [];
}

/**
 * Where the package is entered, which tells a CLI or a library from an app: `main`, `module`, `types` (or `typings`),
 * `bin` (each command and its file) and `exports` (its subpaths or conditions, a file where one is given).
 */
function entryLines(pkg: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const field of ['main', 'module', 'types', 'typings'] as const) {
    const v = text(pkg[field]);
    if (v) lines.push(`- ${field}: ${v}`);
  }
  const bin = typeof pkg.bin === 'string' ? text(pkg.bin) : itemsWithin(entries(pkg.bin, ' → '), ENTRY_CHARS);
  if (bin) lines.push(`- bin: ${bin}`);
  const exp = pkg.exports;
  const exported =
    typeof exp === 'string'
      ? text(exp)
      : isPlainObject(exp)
        ? itemsWithin(Object.entries(exp).map(([k, v]) => (typeof v === 'string' ? `${shorten(oneLine(k), FIELD_CHARS)} → ${text(v) ?? '""'}` : shorten(oneLine(k), FIELD_CHARS))), ENTRY_CHARS)
        : '';
  if (exported) lines.push(`- exports: ${exported}`);
  return lines;
}

/** The fact lines of a parsed package.json (a `- field: value` line per field it has). */
export function packageJsonLines(pkg: unknown): string[] {
  if (!isPlainObject(pkg)) return ['- (not a JSON object)'];
  const lines: string[] = [];
  const name = text(pkg.name);
  const description = text(pkg.description);
  if (name || description) lines.push(`- name: ${name ?? '(none)'}${description ? ` — ${description}` : ''}`);
  for (const field of ['type', 'packageManager'] as const) {
    const v = text(pkg[field]);
    if (v) lines.push(`- ${field}: ${v}`);
  }
  lines.push(...entryLines(pkg));
  const globs = workspaceGlobs(pkg.workspaces);
  if (globs.length) lines.push(`- workspaces: ${itemsWithin(globs, LIST_CHARS)}`);
  const engines = entries(pkg.engines, ' ');
  if (engines.length) lines.push(`- engines: ${itemsWithin(engines, LIST_CHARS)}`);
  const scripts = entries(pkg.scripts, ': ');
  if (scripts.length) lines.push(`- scripts: ${itemsWithin(scripts, LIST_CHARS)}`);
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const deps = entries(pkg[field], ' ');
    if (deps.length) lines.push(`- ${field} (${deps.length}): ${itemsWithin(deps, LIST_CHARS)}`);
  }
  return lines.length ? lines : ['- (no name, scripts or dependencies)'];
}

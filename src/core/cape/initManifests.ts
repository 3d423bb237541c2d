// Init's workspace facts (initFacts.ts), what package.json says: its name and description, module type, package
// manager, entry points (main, module, types, bin, exports), workspaces, engines, scripts, and the names and versions
// of its dependencies and development dependencies — as fact lines, each value on one line and shortened, each list
// cut to a bound with how many more there are. Parsed fields rather than the file's head: a package.json's head is
// mostly its name and metadata. And what every manifest's lines share (initManifestsToml.ts, initManifestsGo.ts): the
// name line, a list cut to its bound, dependencies said as none where there are none, a field's value on one line.

import { joinWithin, oneLine, shorten } from '../text/cut';
import { isPlainObject } from '../model/types';
import { packageWorkspaces, stringsIn } from '../workspace/members';

/** A name, a description, a script's command at most. */
const FIELD_CHARS = 160;
/** A list (scripts, dependencies) at most, its "… N more" included: a root manifest's (a sub-project's get less). */
export const LIST_CHARS = 800;
/** The commands of `bin` or the entries of `exports` at most. */
const ENTRY_CHARS = 300;

/** A manifest's fact lines. */
export interface ManifestFacts {
  lines: string[];
}

/** Items joined by ', ' within `max` characters, then `… N more` (joinWithin). */
export const itemsWithin = (items: readonly string[], max: number): string => joinWithin(items, max, ', ', (n) => `, … ${n} more`);

/** A string field's value on one line, shortened; null when it is not a string or blank. */
export const textField = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? shorten(oneLine(v), FIELD_CHARS) : null);

/** A name (a key, a dependency's) on one line, shortened. */
export const nameOf = (k: string): string => shorten(oneLine(k), FIELD_CHARS);

/**
 * `- name: N — description`, when the manifest has either, then `- version: V` when it gives one (`version`, as the
 * manifest's kind reads it): a manifest's first lines, whatever its kind. Without the version a trial's init guessed the
 * current release's number and wrote the guess into every file.
 */
export function nameLine(name: unknown, description: unknown, version: string | null = null): string[] {
  const n = textField(name);
  const d = textField(description);
  return [...(n || d ? [`- name: ${n ?? '(none)'}${d ? ` — ${d}` : ''}`] : []), ...(version ? [`- version: ${version}`] : [])];
}

/**
 * `- label (N): a, b, … 3 more` within `max` characters, N the items' count when `counted` is true, or the number it
 * gives (a list whose items group several: dependencyItems); none for an empty list.
 */
export const listLine = (label: string, items: readonly string[], max: number, counted: boolean | number = false): string[] =>
  items.length ? [`- ${label}${counted === false ? '' : ` (${counted === true ? items.length : counted})`}: ${itemsWithin(items, max)}`] : [];

/**
 * `- label: none (why)`: a manifest that declares no dependencies says so, or a model cannot tell "none" from a list
 * left out (on dtolnay/semver, whose Cargo.toml has no [dependencies], the model could not say the crate has none).
 * The one wording of it, every manifest's (go.mod's `require: none` too).
 */
export const noneLine = (label: string, why = ''): string => `- ${label}: none${why ? ` (${why})` : ''}`;

/**
 * A manifest's dependencies: listLine, or where there are none and the manifest declares a package (`declared`: not
 * a workspace root, a file of tool settings or one whose dependencies come from elsewhere), noneLine.
 */
export const dependencyLine = (label: string, items: readonly string[], max: number, counted: boolean | number, declared: boolean): string[] =>
  items.length ? listLine(label, items, max, counted) : declared ? [noneLine(label)] : [];

/** `name value` for each string entry of an object field (dependencies, engines), the value by `value`. */
function entries(v: unknown, sep: string, value: (val: string) => string | null = textField): string[] {
  if (!isPlainObject(v)) return [];
  return Object.entries(v).flatMap(([k, val]) => (typeof val === 'string' ? [`${nameOf(k)}${sep}${value(val) ?? '""'}`] : []));
}

/** What parts a script's chain (`a && b && c`) on one line (oneLine: each run of blanks one space) into its steps. */
const CHAIN = ' && ';

/**
 * A script's command on one line within FIELD_CHARS; a chain too long for it keeps its first step and as many of its
 * last as fit, and says how many it left out between them: Day.js's `test` runs jest in four time zones, then the whole
 * suite with a 100% coverage threshold, and a cut at its end showed only the first runs.
 */
export function scriptCommand(command: string): string | null {
  if (textField(command) === null) return null;
  const line = oneLine(command);
  if (line.length <= FIELD_CHARS) return line;
  const steps = line.split(CHAIN);
  // the first step, `… N more steps …`, then the last `k` steps
  const said = (k: number) => {
    const left = steps.length - 1 - k;
    return `${steps[0]} && … ${left} more step${left === 1 ? '' : 's'} … && ${steps.slice(-k).join(' && ')}`;
  };
  if (steps.length < 3 || said(1).length > FIELD_CHARS) return shorten(line, FIELD_CHARS);
  let k = 1;
  while (k + 2 < steps.length && said(k + 1).length <= FIELD_CHARS) k++;
  return said(k);
}

/** A scope with at least this many packages in one dependency list is named once, with its count (`@radix-ui/* ×13`). */
const SCOPE_GROUP = 6;

/**
 * A dependency list as fact items, the telling ones first: unscoped packages (the frameworks: react, vite, fastify),
 * then scoped ones, and a scope of SCOPE_GROUP or more packages as one item — in an init trial, a React app's 13
 * `@radix-ui/react-*` packages came first and pushed React, Vite and TanStack into "… 19 more".
 */
function dependencyItems(v: unknown): { items: string[]; count: number } {
  const all = entries(v, ' ');
  const scopeOf = (item: string) => (item.startsWith('@') ? item.slice(0, item.indexOf('/') + 1 || undefined) : '');
  const counts = new Map<string, number>();
  for (const item of all) {
    const scope = scopeOf(item);
    if (scope) counts.set(scope, (counts.get(scope) ?? 0) + 1);
  }
  const grouped = [...counts].filter(([, n]) => n >= SCOPE_GROUP);
  const big = new Set(grouped.map(([scope]) => scope));
  const items = [...all.filter((i) => !scopeOf(i)), ...all.filter((i) => scopeOf(i) && !big.has(scopeOf(i))), ...grouped.map(([scope, n]) => `${scope}* ×${n}`)];
  return { items, count: all.length };
}

/** The strings of a list field (a TOML manifest's requirements), each on one line, shortened. */
export const stringsOf = (list: unknown): string[] => stringsIn(list).map(nameOf);

/**
 * Where the package is entered, which tells a CLI or a library from an app: `main`, `module`, `types` (or `typings`),
 * `bin` (each command and its file) and `exports` (its subpaths or conditions, a file where one is given).
 */
function entryLines(pkg: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const field of ['main', 'module', 'types', 'typings'] as const) {
    const v = textField(pkg[field]);
    if (v) lines.push(`- ${field}: ${v}`);
  }
  const bin = typeof pkg.bin === 'string' ? textField(pkg.bin) : itemsWithin(entries(pkg.bin, ' → '), ENTRY_CHARS);
  if (bin) lines.push(`- bin: ${bin}`);
  const exp = pkg.exports;
  const exported =
    typeof exp === 'string'
      ? textField(exp)
      : isPlainObject(exp)
        ? itemsWithin(Object.entries(exp).map(([k, v]) => (typeof v === 'string' ? `${nameOf(k)} → ${textField(v) ?? '""'}` : nameOf(k))), ENTRY_CHARS)
        : '';
  if (exported) lines.push(`- exports: ${exported}`);
  return lines;
}

/**
 * The fact lines of a parsed package.json (a `- field: value` line per field it has), each list within `list`
 * characters.
 */
export function packageJsonLines(pkg: unknown, list = LIST_CHARS): string[] {
  if (!isPlainObject(pkg)) return ['- (not a JSON object)'];
  const lines: string[] = [];
  lines.push(...nameLine(pkg.name, pkg.description, textField(pkg.version)));
  for (const field of ['type', 'packageManager'] as const) {
    const v = textField(pkg[field]);
    if (v) lines.push(`- ${field}: ${v}`);
  }
  lines.push(...entryLines(pkg));
  const globs = packageWorkspaces(pkg.workspaces).map(nameOf);
  if (globs.length) lines.push(`- workspaces: ${itemsWithin(globs, list)}`);
  const engines = entries(pkg.engines, ' ');
  if (engines.length) lines.push(`- engines: ${itemsWithin(engines, list)}`);
  const scripts = entries(pkg.scripts, ': ', scriptCommand);
  if (scripts.length) lines.push(`- scripts: ${itemsWithin(scripts, list)}`);
  // no dependencies said as none, unless the package needs its peers or optional ones (not listed)
  const others = ['peerDependencies', 'optionalDependencies'].some((f) => entries(pkg[f], ' ').length);
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const { items, count } = dependencyItems(pkg[field]);
    lines.push(...dependencyLine(field, items, list, count, field === 'dependencies' && !others));
  }
  return lines.length ? lines : ['- (no name, scripts or dependencies)'];
}

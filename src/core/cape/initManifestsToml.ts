// Init's workspace facts (initFacts.ts), what a TOML manifest says, parsed (smol-toml) rather than quoted by its
// head: a pyproject.toml's head is its name and version, or another tool's settings, and its tools come after any
// cut. As package.json's (initManifests.ts), fact lines, each value on one line and each list cut to a bound:
//  - pyproject.toml: the project (PEP 621: name, description, requires-python, dependencies with their version specs,
//    optional dependencies and dependency groups by name, scripts), the build backend, Poetry's name, dependencies,
//    groups and scripts, PDM's development groups, the workspace members of uv, PDM or Hatch, and the names of the
//    tools it configures (`[tool.*]`: ruff, mypy, pytest…, which tell the tooling);
//  - Cargo.toml: the package (name, edition, rust-version), dependencies, dev- and build-dependencies, features by
//    name, the workspace's members and shared dependencies, the binaries.
// A project or package that declares no dependencies says so (`- dependencies: none`, initManifests.ts dependencyLine).
// A file that is not valid TOML (text/toml.ts) has no lines (null): the caller quotes its head instead. Which folders
// the workspace members name is workspace/members.ts's, which reads the same tables.
import { isPlainObject } from '../model/types';
import { parseToml, tableAt, type TomlTable } from '../text/toml';
import { cargoWorkspace, pythonWorkspaces, stringsIn } from '../workspace/members';
import { dependencyLine, listLine, nameLine, nameOf, stringsOf, textField, type ManifestFacts } from './initManifests';

type Table = TomlTable;

/** A PEP 508 requirement (`fastapi[standard] >= 0.1, <1 ; python_version < "3.11"`) split into its name and the rest. */
function requirement(req: string): { name: string; text: string } {
  const [main, ...marker] = req.split(';');
  const spec = main.trim();
  const name = /^[A-Za-z0-9][\w.-]*/.exec(spec)?.[0] ?? spec;
  let rest = spec.slice(name.length).trim();
  let extras = '';
  if (rest.startsWith('[') && rest.includes(']')) {
    extras = rest.slice(0, rest.indexOf(']') + 1).replace(/\s+/g, '');
    rest = rest.slice(extras.length).trim();
  }
  // the version spec without its spaces, so the list's ", " parts requirements only
  const version = rest.replace(/\s+/g, '');
  const when = marker.join(';').trim();
  return { name: nameOf(name), text: nameOf(`${name}${extras}${version ? ` ${version}` : ''}${when ? ` (${when})` : ''}`) };
}

/** The strings of a list of PEP 508 requirements, as `name spec` or names only. */
const requirements = (list: unknown, namesOnly: boolean): string[] => stringsOf(list).map((r) => (namesOnly ? requirement(r).name : requirement(r).text));

/**
 * `- label: group: a, b; other: c` — each group of a table of requirement lists (optional dependencies, PEP 735
 * dependency groups, PDM's development groups) with its names; a dependency group that includes another says so.
 */
function groupsLine(label: string, groups: Table, max: number): string[] {
  const items = Object.entries(groups).map(([group, list]) => {
    const names = Array.isArray(list)
      ? list.map((r) => (typeof r === 'string' ? requirement(r).name : isPlainObject(r) && typeof r['include-group'] === 'string' ? `(${nameOf(r['include-group'])})` : '?'))
      : [];
    return `${nameOf(group)}: ${names.join(' ')}`;
  });
  return listLine(label, items, max);
}

/**
 * A table of dependencies as Poetry and Cargo write them: `name = "spec"`, or a table with a `version`, a `path`, a
 * `git` source or `workspace = true` — as `name spec`, `name (path ../x)`, `name (git)`, `name (workspace)`.
 */
function tableDeps(deps: Table): string[] {
  return Object.entries(deps).map(([name, v]) => {
    const spec = (d: unknown): string =>
      typeof d === 'string'
        ? d.replace(/\s+/g, '')
        : isPlainObject(d)
          ? typeof d.version === 'string'
            ? spec(d.version)
            : typeof d.path === 'string'
              ? `(path ${d.path})`
              : d.git !== undefined
                ? '(git)'
                : d.workspace === true
                  ? '(workspace)'
                  : ''
          : Array.isArray(d)
            ? `(${d.length} constraints)`
            : '';
    const s = spec(v);
    return nameOf(s ? `${name} ${s}` : name);
  });
}

/** `- label: a → x, b → y` for a table of string entries (scripts), within `max` characters. */
const entryLine = (label: string, t: Table, max: number): string[] =>
  listLine(label, Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [`${nameOf(k)} → ${nameOf(v)}`] : [])), max);

/** The fact lines of a pyproject.toml, its lists within `list` characters; null when it is not valid TOML. */
export function pyprojectFacts(text: string, list: number): ManifestFacts | null {
  const doc = parseToml(text);
  if (!doc) return null;
  const project = tableAt(doc, 'project');
  const tool = tableAt(doc, 'tool');
  const poetry = tableAt(tool, 'poetry');
  // a version the build computes (`dynamic = ["version"]`) is none written here: Poetry's then is a placeholder
  const dynamicVersion = Array.isArray(project.dynamic) && project.dynamic.includes('version');
  const lines = [...nameLine(project.name ?? poetry.name, project.description ?? poetry.description, dynamicVersion ? null : textField(project.version ?? poetry.version))];
  const python = textField(project['requires-python']);
  if (python) lines.push(`- requires-python: ${python}`);
  // none said where the project declares them here: a [project] table, its dependencies not dynamic nor Poetry's
  const declared = isPlainObject(doc.project) && !stringsIn(project.dynamic).includes('dependencies') && !Object.keys(tableAt(poetry, 'dependencies')).length;
  lines.push(...dependencyLine('dependencies', requirements(project.dependencies, false), list, true, declared));
  lines.push(...groupsLine('optional-dependencies', tableAt(project, 'optional-dependencies'), list));
  lines.push(...groupsLine('dependency-groups', tableAt(doc, 'dependency-groups'), list));
  lines.push(...entryLine('scripts', tableAt(project, 'scripts'), list));
  lines.push(...listLine('Poetry dependencies', tableDeps(tableAt(poetry, 'dependencies')), list, true));
  const poetryGroups = Object.entries(tableAt(poetry, 'group')).map(([g, t]) => [g, Object.keys(tableAt(t as Table, 'dependencies'))] as const);
  const legacyDev = Object.keys(tableAt(poetry, 'dev-dependencies'));
  if (legacyDev.length) poetryGroups.push(['dev-dependencies', legacyDev]);
  lines.push(...listLine('Poetry groups', poetryGroups.map(([g, names]) => `${nameOf(g)}: ${names.map(nameOf).join(' ')}`), list));
  lines.push(...entryLine('Poetry scripts', tableAt(poetry, 'scripts'), list));
  lines.push(...groupsLine('PDM dev-dependencies', tableAt(tool, 'pdm', 'dev-dependencies'), list));
  const system = tableAt(doc, 'build-system');
  const backend = textField(system['build-backend']);
  const requires = stringsOf(system.requires);
  if (backend || requires.length) lines.push(`- build backend: ${backend ?? `(none named; requires ${requires.join(', ')})`}`);
  lines.push(...listLine('workspace members', pythonWorkspaces(doc).flatMap((w) => w.members.map(nameOf)), list));
  lines.push(...listLine('tool settings', Object.keys(tool).map(nameOf), list));
  return { lines: lines.length ? lines : ['- (no project, dependencies or tool settings)'] };
}

/** A package field that Cargo lets a member take from its workspace (`edition.workspace = true`). */
const cargoField = (v: unknown): string | null => (isPlainObject(v) && v.workspace === true ? "(the workspace's)" : textField(v));

/** The fact lines of a Cargo.toml, its lists within `list` characters; null when it is not valid TOML. */
export function cargoFacts(text: string, list: number): ManifestFacts | null {
  const doc = parseToml(text);
  if (!doc) return null;
  const pkg = tableAt(doc, 'package');
  // a version inherited from the workspace is read where this file declares it (`[workspace.package]`, the root's);
  // a virtual root has that one alone
  const shared = textField(tableAt(tableAt(doc, 'workspace'), 'package').version);
  const inherited = isPlainObject(pkg.version) && pkg.version.workspace === true;
  const lines = [...nameLine(pkg.name, pkg.description, (inherited && shared) || cargoField(pkg.version) || shared)];
  for (const key of ['edition', 'rust-version'] as const) {
    const v = cargoField(pkg[key]);
    if (v) lines.push(`- ${key}: ${v}`);
  }
  // none said for a package (not a virtual workspace) with no dependencies, for every platform or for some
  const perTarget = Object.values(tableAt(doc, 'target')).some((t) => isPlainObject(t) && Object.keys(tableAt(t, 'dependencies')).length > 0);
  const declared = isPlainObject(doc.package) && !perTarget;
  for (const key of ['dependencies', 'dev-dependencies', 'build-dependencies'] as const) {
    lines.push(...dependencyLine(key, tableDeps(tableAt(doc, key)), list, true, key === 'dependencies' && declared));
  }
  lines.push(...listLine('features', Object.keys(tableAt(doc, 'features')).map(nameOf), list, true));
  const bins = Array.isArray(doc.bin) ? doc.bin.flatMap((b) => (isPlainObject(b) && typeof b.name === 'string' ? [nameOf(b.name)] : [])) : [];
  lines.push(...listLine('bin', bins, list));
  const workspace = tableAt(doc, 'workspace');
  lines.push(...listLine('workspace members', cargoWorkspace(doc).members.map(nameOf), list));
  lines.push(...listLine('workspace dependencies', tableDeps(tableAt(workspace, 'dependencies')), list, true));
  return { lines: lines.length ? lines : ['- (no package, dependencies or workspace)'] };
}

// Which formatter is the project's own, found from its configuration and installation, as the command lines that run
// it on some files (format.ts runs them in the scratch copy). A formatter counts only where the project both
// configures it and has it installed: a formatter nobody asked for would rewrite DevA's files in a style that is not
// the project's. First that holds:
//  - Prettier: a Prettier config file or package.json's `prettier` key, in the workspace or a folder above it up to
//    its repository's root; installed in its node_modules or one above (as the type checker is found: detect.ts);
//  - Biome: biome.json(c) in the same folders; installed the same way;
//  - Black: pyproject.toml's `[tool.black]`, or a `black` hook in .pre-commit-config.yaml; the project's virtual
//    environment's black, else one on PATH (as the Python checks are found: detect.ts);
//  - Ruff's formatter: pyproject.toml's `[tool.ruff.format]`, ruff.toml's `[format]`, or a `ruff-format` hook; its ruff
//    the same way (`ruff check` alone lints: that is a check, detect.ts);
//  - gofmt, for a Go module (go.mod) when gofmt is on PATH (Go code is gofmt's by convention).
// A formatter of a language the workspace's root has none of is looked for in its sub-projects, as their checks are
// (detectSubprojects.ts pickSubprojects, by the same rule), and formats the files under its folder, run there
// (detectFormatters: `Ruff in backend/`).
// Left out: dprint, whose plugins are downloaded on first use, which a check must not depend on; rustfmt, which also
// lays out the files of the modules a file declares, one of which may be a link in the copy into the user's tree.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { shellWord } from '../text/shell';
import { isPrettierConfig } from '../workspace/fileKinds';
import { GO_FILE, PYTHON_FILE } from '../workspace/languageFiles';
import { DEFAULT_CAPE_FOLDER } from '../model/types';
import { foldersUpToRepoRoot } from './scratchAncestors';
import { exists, levelsUpTo, nodeModulesUp, onPath, pythonTool, readJson, readText } from './projectProbes';
import { pickSubprojects } from './detectSubprojects';
import { inFolder } from './runFolder';

export interface Formatter {
  /** As the user knows it: "Prettier", "gofmt". */
  name: string;
  /** The files it formats, by name. */
  handles(relPath: string): boolean;
  /** The command that formats `files` (relative to the workspace) in place. */
  writeCommand(files: string[]): string;
  /**
   * The command that prints, one a line, those of `files` it would change, exiting 0 or 1; without one, format.ts
   * formats a file and puts it back to tell.
   */
  listCommand?(files: string[]): string;
}

/** The files Prettier formats without a plugin. */
const PRETTIER_FILES = /\.(?:[cm]?[jt]sx?|json5?|css|scss|less|html|vue|md|mdx|ya?ml|graphql|gql|hbs|handlebars)$/i;
/** The files Biome formats (2.x). */
const BIOME_FILES = /\.(?:[cm]?[jt]sx?|jsonc?|css|graphql|gql)$/i;

const words = (files: string[]) => files.map((f) => shellWord(f)).join(' ');

/** Whether `dir` configures Prettier: a config file, or a `prettier` key in its package.json. */
async function configuresPrettier(dir: string, names: readonly string[]): Promise<boolean> {
  if (names.some(isPrettierConfig)) return true;
  if (!names.includes('package.json')) return false;
  try {
    const pkg = (await readJson(path.join(dir, 'package.json'))) as Record<string, unknown>;
    return pkg !== null && typeof pkg === 'object' && pkg.prettier !== undefined;
  } catch {
    return false;
  }
}

/**
 * An installed package's program as a script for `node`, relative to the workspace (nodeModulesUp: its node_modules
 * or one above), or null: `bin` names the entry of package.json's `bin`.
 */
async function localBin(workspace: string, pkgName: string, bin: string): Promise<string | null> {
  for (const modules of await nodeModulesUp(workspace)) {
    const dir = [...modules, ...pkgName.split('/')];
    try {
      const pkg = (await readJson(path.join(workspace, ...dir, 'package.json'))) as { bin?: unknown };
      const entry = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin && typeof pkg.bin === 'object' ? (pkg.bin as Record<string, unknown>)[bin] : undefined;
      if (typeof entry === 'string' && (await exists(path.join(workspace, ...dir, entry)))) return [...dir, ...entry.split('/').filter((s) => s && s !== '.')].join('/');
    } catch {
      /* not installed at this level */
    }
  }
  return null;
}

/** The folders above a project's `dir` up to the workspace's `root`, nearest first (none for the root itself). */
function foldersUpTo(dir: string, root: string): string[] {
  return levelsUpTo(dir, root)
    .slice(1)
    .map((up) => path.join(dir, ...up));
}

/**
 * Prettier or Biome, configured in the project's folder or one above it up to the workspace's root and on to the
 * repository's, and installed.
 */
async function nodeFormatter(workspace: string, root: string): Promise<Formatter | null> {
  let prettier = false;
  let biome = false;
  for (const dir of [workspace, ...foldersUpTo(workspace, root), ...(await foldersUpToRepoRoot(root))]) {
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    prettier ||= await configuresPrettier(dir, names);
    biome ||= names.includes('biome.json') || names.includes('biome.jsonc');
  }
  const prettierBin = prettier ? await localBin(workspace, 'prettier', 'prettier') : null;
  if (prettierBin) {
    const run = `node ${shellWord(prettierBin)}`;
    return {
      name: 'Prettier',
      handles: (p) => PRETTIER_FILES.test(p),
      listCommand: (files) => `${run} --list-different ${words(files)}`,
      writeCommand: (files) => `${run} --write ${words(files)}`,
    };
  }
  const biomeBin = biome ? await localBin(workspace, '@biomejs/biome', 'biome') : null;
  if (biomeBin) {
    return {
      name: 'Biome',
      handles: (p) => BIOME_FILES.test(p),
      // a file the configuration leaves out (`files.includes`) is not an error, and stays as it is
      writeCommand: (files) => `node ${shellWord(biomeBin)} format --write --no-errors-on-unmatched ${words(files)}`,
    };
  }
  return null;
}

/**
 * Black or Ruff's formatter where a Python project configures it and has it (see the header); a sub-project's hooks
 * may be the workspace root's (pre-commit's configuration is the repository's).
 */
async function pythonFormatter(workspace: string, root: string): Promise<Formatter | null> {
  const pyproject = await readText(path.join(workspace, 'pyproject.toml'));
  const hooksOf = (dir: string) => readText(path.join(dir, '.pre-commit-config.yaml'));
  const hooks = (await hooksOf(workspace)) || (workspace === root ? '' : await hooksOf(root));
  const ruffToml = (await readText(path.join(workspace, 'ruff.toml'))) || (await readText(path.join(workspace, '.ruff.toml')));
  const hook = (id: string) => new RegExp(`^[ \\t]*(?:-[ \\t]*)?id:[ \\t]*["']?${id}["']?[ \\t]*$`, 'm').test(hooks);
  if (/^\[tool\.black\]/m.test(pyproject) || hook('black')) {
    const black = await pythonTool(workspace, ['black'], root);
    if (black) return { name: 'Black', handles: (p) => PYTHON_FILE.test(p), writeCommand: (files) => `${black} --quiet ${words(files)}` };
  }
  if (/^\[tool\.ruff\.format\]/m.test(pyproject) || /^\[format\]/m.test(ruffToml) || hook('ruff-format')) {
    const ruff = await pythonTool(workspace, ['ruff'], root);
    if (ruff) return { name: 'Ruff', handles: (p) => PYTHON_FILE.test(p), writeCommand: (files) => `${ruff} format --quiet ${words(files)}` };
  }
  return null;
}

/** gofmt for a Go module (go.mod) when it is on PATH. */
async function goFormatter(workspace: string): Promise<Formatter | null> {
  if (!(await exists(path.join(workspace, 'go.mod'))) || !(await onPath(['gofmt']))) return null;
  return {
    name: 'gofmt',
    handles: (p) => GO_FILE.test(p),
    listCommand: (files) => `gofmt -l ${words(files)}`,
    writeCommand: (files) => `gofmt -w ${words(files)}`,
  };
}

/** The languages' formatters, in the order one is taken for a project (see the header). */
const FORMATTER_FAMILIES: readonly ((dir: string, root: string) => Promise<Formatter | null>)[] = [nodeFormatter, pythonFormatter, goFormatter];

/** Each language's formatter of the project in `dir` (null where it has none), `root` the workspace it belongs to. */
const familyFormatters = (dir: string, root: string): Promise<(Formatter | null)[]> => Promise.all(FORMATTER_FAMILIES.map((family) => family(dir, root)));

/** The formatter of the project in `workspace` (see the header): the first language's found, or null. */
export async function detectFormatter(workspace: string): Promise<Formatter | null> {
  return (await familyFormatters(workspace, workspace)).find((f) => f !== null) ?? null;
}

/**
 * A sub-project's formatter for the files under its folder, run there with their paths from it. It lists no files:
 * its list would name them from the folder, and formatting then comparing (format.ts) reads no names.
 */
function inSubproject(folder: string, f: Formatter): Formatter {
  const fromFolder = (p: string) => p.slice(folder.length + 1);
  return {
    name: `${f.name} in ${folder}/`,
    handles: (p) => p.startsWith(`${folder}/`) && f.handles(fromFolder(p)),
    writeCommand: (files) => inFolder(folder, f.writeCommand(files.map(fromFolder))),
  };
}

/**
 * The formatters that lay out DevA's files (format.ts runs each on those it handles): the workspace root's
 * (detectFormatter), and for each language the root has none of, those of its sub-projects, picked by the checks' one
 * rule (detectSubprojects.ts pickSubprojects: at most MAX_SUBPROJECTS folders, none inside or around another).
 */
export async function detectFormatters(workspace: string, capeFolder: string = DEFAULT_CAPE_FOLDER): Promise<Formatter[]> {
  const own = await familyFormatters(workspace, workspace);
  const formatters = own.filter((f) => f !== null).slice(0, 1); // detectFormatter's
  const missing = FORMATTER_FAMILIES.filter((_, i) => !own[i]);
  const { taken } = await pickSubprojects(workspace, capeFolder, missing, (f) => f !== null);
  for (const { folder, found } of taken) formatters.push(...found.filter((f) => f !== null).map((f) => inSubproject(folder, f)));
  return formatters;
}

/** How the checks' announcement names the formatters that lay out DevA's files: "the project's formatter (Prettier) lays out". */
export function formattersLayOut(formatters: readonly Formatter[]): string {
  const names = formatters.map((f) => f.name).join(', ');
  return formatters.length === 1 ? `the project's formatter (${names}) lays out` : `the project's formatters (${names}) lay out`;
}

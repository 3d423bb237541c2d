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
// Left out: dprint, whose plugins are downloaded on first use, which a check must not depend on; rustfmt, which also
// lays out the files of the modules a file declares, one of which may be a link in the copy into the user's tree.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { shellWord } from '../text/shell';
import { GO_FILE, isPrettierConfig, PYTHON_FILE } from '../workspace/fileKinds';
import { foldersUpToRepoRoot } from './scratchAncestors';
import { exists, nodeModulesUp, onPath, pythonTool, readJson, readText } from './projectProbes';

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

/** Prettier or Biome, configured in the workspace or a folder above it up to the repository's root, and installed. */
async function nodeFormatter(workspace: string): Promise<Formatter | null> {
  let prettier = false;
  let biome = false;
  for (const dir of [workspace, ...(await foldersUpToRepoRoot(workspace))]) {
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

/** Black or Ruff's formatter where a Python project configures it and has it (see the header). */
async function pythonFormatter(workspace: string): Promise<Formatter | null> {
  const pyproject = await readText(path.join(workspace, 'pyproject.toml'));
  const hooks = await readText(path.join(workspace, '.pre-commit-config.yaml'));
  const ruffToml = (await readText(path.join(workspace, 'ruff.toml'))) || (await readText(path.join(workspace, '.ruff.toml')));
  const hook = (id: string) => new RegExp(`^[ \\t]*(?:-[ \\t]*)?id:[ \\t]*["']?${id}["']?[ \\t]*$`, 'm').test(hooks);
  if (/^\[tool\.black\]/m.test(pyproject) || hook('black')) {
    const black = await pythonTool(workspace, ['black']);
    if (black) return { name: 'Black', handles: (p) => PYTHON_FILE.test(p), writeCommand: (files) => `${black} --quiet ${words(files)}` };
  }
  if (/^\[tool\.ruff\.format\]/m.test(pyproject) || /^\[format\]/m.test(ruffToml) || hook('ruff-format')) {
    const ruff = await pythonTool(workspace, ['ruff']);
    if (ruff) return { name: 'Ruff', handles: (p) => PYTHON_FILE.test(p), writeCommand: (files) => `${ruff} format --quiet ${words(files)}` };
  }
  return null;
}

/** The project's formatter (see the header), or null when it has none this knows. */
export async function detectFormatter(workspace: string): Promise<Formatter | null> {
  const node = await nodeFormatter(workspace);
  if (node) return node;
  const python = await pythonFormatter(workspace);
  if (python) return python;
  if ((await exists(path.join(workspace, 'go.mod'))) && (await onPath(['gofmt']))) {
    return {
      name: 'gofmt',
      handles: (p) => GO_FILE.test(p),
      listCommand: (files) => `gofmt -l ${words(files)}`,
      writeCommand: (files) => `gofmt -w ${words(files)}`,
    };
  }
  return null;
}

// The workspace index's import graph: each indexed file's import specifiers resolved to the workspace files they
// name (TypeScript/JavaScript resolution: extensions, index files, `./x.js` naming `x.ts`; bare specifiers through the
// workspace's own module names, moduleAliases.ts: tsconfig `paths` and `baseUrl`, package names and `imports`; else
// the `@/` and `~/` aliases of `src/`; Python's: a relative import from the file's folder, an absolute one from a folder
// above the file or `src/`, each as a module `x.py` or a package `x/__init__.py`; Go's: an import path under a go.mod's
// module path, as every non-test file of that package's folder; C's and C++'s `#include "…"`: from the including
// file's folder, the root, else the nearest file of that path, as a build's `-I` folders would find it), kept up to
// date incrementally as files come and go, and the reverse edges (importersOf).
import type { FileEntry } from './indexEntry';
import { dirOf, isModuleConfig, ModuleAliases } from './moduleAliases';
import { GO_SPEC, PY_SPEC } from './symbolsOther';
import { C_SPEC } from './symbolsC';
import { GO_FILE } from './languageFiles';
import { GO_MOD, GoPackages } from './goPackages';
import { aboveRoot, joinRelative } from './specPath';

const RESOLVE_EXT = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.d.ts', '.vue', '.svelte', '.json', '.css', '.scss'];
const INDEX_FILES = RESOLVE_EXT.filter(Boolean).map((e) => '/index' + e);

/** A specifier whose last segment is `.`, `..`, empty, `@` or `~` (one per line of a file's specifier text). */
const NAMELESS_SPEC = /(^|\/)(\.\.?|[@~])?\/?$/m;

/** The index's entries as the graph reads them (fileTable.ts's FileTable). */
export interface GraphFiles {
  readonly size: number;
  get(rel: string): FileEntry | undefined;
  has(rel: string): boolean;
  keys(): Iterable<string>;
  values(): Iterable<FileEntry>;
  /** The entries that import any workspace file. */
  importing(): Iterable<FileEntry>;
}

export class ImportGraph {
  private importers: Map<string, string[]> | null = null;
  /** Files (re)indexed whose specifiers are not resolved yet. */
  private readonly toResolve = new Set<string>();
  /** Paths added to or removed from the index since imports were last resolved. */
  private setChanges: string[] = [];
  /** False until every file's imports were resolved once (a restored cache's were). */
  private resolvedOnce = false;
  /** Every file path without its extension, and every folder (rebuilt by resolveImports). */
  private stems: Set<string> | null = null;

  /** The files by their name (`str.h` → `src/util/str.h`, …), for C's includes; rebuilt when files come or go. */
  private byName: Map<string, string[]> | null = null;

  /** Go's modules and packages (goPackages.ts). */
  private readonly go: GoPackages;

  /** The workspace's module names, read from its configuration files when a bare specifier is first resolved. */
  private aliases: ModuleAliases | null = null;
  /** A configuration file (package.json, tsconfig) changed since the aliases were read: every file is resolved again. */
  private configChanged = false;
  /**
   * The files that resolved a bare specifier through the aliases, by the folder of each base they tried: a file
   * added or removed under that folder may change their resolution. Known only after a resolution of every file in
   * this process (a restored cache's edges came without it).
   */
  private aliasUsers: Map<string, Set<FileEntry>> | null = null;

  /**
   * `files`: the index's entries by path (the graph reads them and writes their `imports`); `read`: an indexed
   * file's text, for the configuration files.
   */
  constructor(
    private readonly files: GraphFiles,
    private readonly read: (rel: string) => string | null = () => null,
  ) {
    this.go = new GoPackages(() => this.files.keys(), read);
  }

  /** A file was (re)indexed: its specifiers are resolved by the next resolveImports(); `added` when it is new. */
  indexed(rel: string, added: boolean): void {
    if (added) this.setChanges.push(rel);
    this.toResolve.add(rel);
    if (isModuleConfig(rel) || GO_MOD.test(rel)) this.configChanged = true;
  }

  /** A file left the index. */
  dropped(rel: string): void {
    this.toResolve.delete(rel);
    this.setChanges.push(rel);
    if (isModuleConfig(rel) || GO_MOD.test(rel)) this.configChanged = true;
  }

  /** The files' imports as restored from a cache were resolved against the same file set. */
  restored(): void {
    this.resolvedOnce = true;
  }

  /**
   * Resolves the import specifiers of the files (re)indexed since the last call, and of the files whose resolution
   * the files added or removed since may change (affectedBy); every file's on the first call (or after many changes).
   */
  resolveImports(): void {
    if (!this.toResolve.size && !this.setChanges.length) return;
    let todo: Iterable<FileEntry>;
    // a config read through `extends` under a name of its own (configs/base.json): known to the aliases that read it
    // (those of before the change, or, new in this process, of after it: the same configs extend it)
    if (this.resolvedOnce && !this.configChanged) {
      const aliases = this.moduleAliases();
      for (const p of [...this.toResolve, ...this.setChanges]) if (aliases.readsConfig(p)) this.configChanged = true;
    }
    if (this.configChanged) this.aliases = null;
    if (this.setChanges.length) this.byName = null;
    this.go.forget(this.configChanged);
    const aliasesUnknown = this.setChanges.length > 0 && !this.aliasUsers && this.hasAliases();
    if (!this.resolvedOnce || this.configChanged || aliasesUnknown || this.setChanges.length > this.files.size / 4) {
      // every file: first the stems that settle most specifiers naming no file in one look-up
      this.stems = new Set();
      for (const p of this.files.keys()) this.addStems(p);
      this.aliasUsers = new Map();
      todo = this.files.values();
    } else {
      for (const p of this.setChanges) if (this.stems && this.files.has(p)) this.addStems(p);
      const affected = this.affectedBy(this.setChanges);
      for (const rel of this.toResolve) affected.add(this.files.get(rel)!);
      todo = affected;
    }
    for (const f of todo) {
      const out: string[] = [];
      for (const spec of f.specs) {
        const targets = spec.startsWith(GO_SPEC) ? this.go.files(spec.slice(GO_SPEC.length)) : [this.resolve(f.path, spec, f)];
        for (const target of targets) if (target && target !== f.path && !out.includes(target)) out.push(target);
      }
      f.imports = out;
    }
    this.toResolve.clear();
    this.setChanges = [];
    this.configChanged = false;
    this.resolvedOnce = true;
    this.importers = null;
  }

  /** Adds a file's path without extension and its folders to `stems` (kept a superset: removals leave theirs). */
  private addStems(p: string): void {
    this.stems!.add(p.replace(/(\.d)?\.[^./]+$/, ''));
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) this.stems!.add(p.slice(0, i));
  }

  /**
   * The files whose specifiers may resolve differently now that these paths were added or removed (a superset).
   * A specifier reaches a file X through the base it names: X itself, X without its extension, X's `.js` twin, or
   * X's folder for an index file; so it holds X's name without extension, or its folder's name for an index file —
   * unless its last segment is `.`, `..`, empty, `@` or `~` (its base is a folder named elsewhere): files with such a
   * specifier are always included, and so are the files under an index file's folder.
   */
  private affectedBy(changed: readonly string[]): Set<FileEntry> {
    const out = new Set<FileEntry>();
    if (!changed.length) return out;
    const names = new Set<string>();
    const under: string[] = [];
    // files that resolved a bare specifier through a folder where a file came or went (aliasUsers): a base names a
    // file of its folder (itself, with an extension, its `.ts` twin) or, as a folder, the index file of one — the
    // changed file's folder, and its parent for an index file (not every folder above: with a baseUrl at the root
    // every `react` looks in the root, and any file added would resolve them all again); each folder once per batch
    const dirs = new Set<string>();
    // a Go import names its package's folder: a .go file that came or went changes what its importers resolve to (the
    // folder's name is in their import path; a module's root folder may have any name: every Go importer then)
    let everyGoImporter = false;
    for (const p of changed) {
      const base = p.slice(p.lastIndexOf('/') + 1);
      const stem = base.replace(/(\.d)?\.[^./]+$/, '');
      const dir = dirOf(p);
      names.add(stem || base);
      dirs.add(dir);
      if (GO_FILE.test(p)) {
        if (!dir || this.files.has(`${dir}/go.mod`)) everyGoImporter = true; // a module's root folder
        else names.add(dir.slice(dir.lastIndexOf('/') + 1));
      }
      if (stem === 'index' || stem === '__init__') {
        names.add(dir.slice(dir.lastIndexOf('/') + 1));
        under.push(dir ? dir + '/' : '');
        dirs.add(dirOf(dir));
      }
    }
    if (this.aliasUsers?.size) for (const d of dirs) for (const f of this.aliasUsers.get(d) ?? []) if (this.files.get(f.path) === f) out.add(f);
    const nameList = [...names].filter(Boolean);
    for (const f of this.files.values()) {
      const specs = f.specText();
      if (!specs) continue;
      if (NAMELESS_SPEC.test(specs) || nameList.some((n) => specs.includes(n)) || under.some((d) => f.path.startsWith(d))) out.add(f);
      else if (everyGoImporter && specs.includes(GO_SPEC)) out.add(f);
    }
    return out;
  }

  private moduleAliases(): ModuleAliases {
    if (!this.aliases) this.aliases = new ModuleAliases(this.files.keys(), this.read);
    return this.aliases;
  }

  /**
   * The indexed file a specifier names, or null (a package outside the workspace is no workspace file). `user`: the
   * file being resolved, remembered under the folders a bare specifier's bases lie in (affectedBy).
   */
  resolve(from: string, spec: string, user?: FileEntry): string | null {
    if (spec.startsWith(PY_SPEC)) return this.resolvePython(from, spec.slice(PY_SPEC.length));
    if (spec.startsWith(C_SPEC)) return this.resolveInclude(from, spec.slice(C_SPEC.length));
    let base: string;
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
      base = joinRelative(from, spec);
    } else {
      if (spec && !spec.startsWith('/') && this.hasAliases()) {
        const hit = this.resolveAliased(from, spec, user);
        if (hit) return hit;
      }
      if (spec.startsWith('@/') || spec.startsWith('~/')) {
        base = spec.slice(2);
        const inSrc = this.resolveBase('src/' + base);
        if (inSrc) return inSrc;
      } else if (spec.startsWith('/')) {
        base = spec.slice(1);
      } else return null;
    }
    if (aboveRoot(base)) return null;
    return this.resolveBase(base);
  }

  /**
   * A Python import (symbolsOther.ts pythonImports): relative, from the file's folder; absolute, from the file's
   * folder or one above it (`src/app/db.py`'s `app.models` is `src/app/models.py`), else from `src/`.
   */
  private resolvePython(from: string, spec: string): string | null {
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const base = joinRelative(from, spec);
      return aboveRoot(base) ? null : this.pythonModule(base);
    }
    for (let dir = dirOf(from); ; dir = dirOf(dir)) {
      const hit = this.pythonModule(dir ? `${dir}/${spec}` : spec);
      if (hit) return hit;
      if (!dir) break;
    }
    return this.pythonModule(`src/${spec}`);
  }

  /**
   * A C/C++ `#include "…"`: from the including file's folder (the compiler's first look), else from the root, else
   * the file of that path under any folder (a build's `-I` folders: `include/`, `src/`), the nearest to the includer
   * (most folders in common, then the first by path) when several are.
   */
  private resolveInclude(from: string, spec: string): string | null {
    const near = joinRelative(from, spec.startsWith('.') ? spec : './' + spec);
    if (!aboveRoot(near) && this.files.has(near)) return near;
    const clean = spec.replace(/^(\.\/)+/, '');
    if (this.files.has(clean)) return clean;
    if (clean.startsWith('../')) return null;
    const name = clean.slice(clean.lastIndexOf('/') + 1);
    let best: string | null = null;
    let bestShared = -1;
    for (const p of this.filesNamed(name)) {
      if (p !== clean && !p.endsWith('/' + clean)) continue;
      const shared = sharedFolders(from, p);
      if (shared > bestShared || (shared === bestShared && p < best!)) [best, bestShared] = [p, shared];
    }
    return best;
  }

  private filesNamed(name: string): readonly string[] {
    if (!this.byName) {
      this.byName = new Map();
      for (const p of this.files.keys()) {
        const n = p.slice(p.lastIndexOf('/') + 1);
        const list = this.byName.get(n);
        if (list) list.push(p);
        else this.byName.set(n, [p]);
      }
    }
    return this.byName.get(name) ?? [];
  }

  /** The module file or package of a module path: `a/b.py`, `a/b.pyi`, `a/b/__init__.py`. */
  private pythonModule(base: string): string | null {
    for (const p of [`${base}.py`, `${base}/__init__.py`, `${base}.pyi`]) if (this.files.has(p)) return p;
    return null;
  }

  /** A bare specifier through the workspace's module names; `user` is remembered under each base's folder. */
  private resolveAliased(from: string, spec: string, user?: FileEntry): string | null {
    for (const b of this.moduleAliases().bases(from, spec)) {
      if (user && this.aliasUsers) {
        // the folder of the base as resolveBase takes it (without a trailing slash)
        const d = dirOf(b.endsWith('/') ? b.slice(0, -1) : b);
        const set = this.aliasUsers.get(d);
        if (set) set.add(user);
        else this.aliasUsers.set(d, new Set([user]));
      }
      const hit = this.resolveBase(b);
      if (hit) return hit;
    }
    return null;
  }

  /** False when the workspace names no modules of its own (the aliases are then not consulted). */
  private hasAliases(): boolean {
    return !this.moduleAliases().empty;
  }

  private resolveBase(base: string): string | null {
    const clean = base.replace(/\/$/, '');
    // most specifiers that name no file are settled by one look-up (no file, folder or stem of that name)
    if (this.stems && !this.files.has(clean) && !this.stems.has(clean) && !this.stems.has(clean.replace(/\.[^./]+$/, ''))) return null;
    for (const ext of RESOLVE_EXT) if (this.files.has(clean + ext)) return clean + ext;
    // TypeScript's ESM style: `./x.js` names `x.ts`
    const js = /\.(m|c)?jsx?$/.exec(clean);
    if (js) {
      const stemPath = clean.slice(0, -js[0].length);
      for (const ext of ['.ts', '.tsx', '.mts', '.cts']) if (this.files.has(stemPath + ext)) return stemPath + ext;
    }
    for (const idx of INDEX_FILES) if (this.files.has(clean + idx)) return clean + idx;
    return null;
  }

  /** Files that import the given file. */
  importersOf(relPath: string): string[] {
    if (!this.importers) {
      this.importers = new Map();
      for (const f of this.files.importing()) {
        for (const t of f.imports) {
          const list = this.importers.get(t);
          if (list) list.push(f.path);
          else this.importers.set(t, [f.path]);
        }
      }
    }
    return this.importers.get(relPath) ?? [];
  }
}

/** How many leading folders two paths share. */
function sharedFolders(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

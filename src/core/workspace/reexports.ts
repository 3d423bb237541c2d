// The re-export rule: whose importers an importer of a re-exporting module (a barrel) is. A barrel is a TS/JS file
// with `export … from '…'` statements (an `index.ts` of `export * from './core'`, `export { Foo } from './foo'`), or a
// Python package's `__init__.py`, whose every `from … import …` binds names in the package for its importers (the
// names its `__all__` lists, when it has one, are what `import pkg` offers). Go has none (a package is its folder's
// files, every one reached by an import); Rust's `pub use` is not read (the graph resolves no Rust imports).
//
// An importer that takes names from a barrel (`import { Foo } from './lib'`, `from pkg import Foo`, `from .. import
// Foo`) counts toward the modules that define them, and not toward the barrel unless it defines one of them itself:
// a name the barrel re-exports by name is its source's (through further barrels too); one it defines (the index's
// symbols say) its own; one a star re-export brings the star source's whose symbols hold it, else every star
// source's. A Python name that is a submodule (`from pkg import views`) is that module's. An importer that takes a
// barrel whole (`import * as lib`, Python's `import pkg`) counts toward the barrel and every module it re-exports
// (those defining its `__all__`'s names when it has one). A Python `from . import X`, which the import graph resolves
// to no file unless X is a submodule, counts toward the package here. A barrel is no importer of the modules it only
// forwards (a TS/JS `export … from`; the imports of a package `__init__` that defines nothing itself, whereas one
// with code of its own may use them): the importers it forwards count instead.
//
// Read for a count of importers (importersByDefinition: init's code map, initFactsCode.ts, finds a package's central
// module through its `__init__` this way), each barrel's and importer's text read once. The DevA ranking (rank.ts)
// follows the graph's own edges: the rule is not measured on the localization bench.
import { JS_EXT } from './symbols';
import { PYTHON_FILE } from './languageFiles';
import { pythonAll, PY_SPEC } from './symbolsOther';
import { importClauses, type ImportClause } from './importClauses';
import type { IndexedFile } from './indexEntry';

/** A package's `__init__.py` (or its stub): every `from … import …` in it re-exports. */
const PACKAGE_INIT = /(^|\/)__init__\.pyi?$/;

/** Whether a statement of `rel` re-exports: TS/JS `export … from`, a package `__init__`'s `from … import …`. */
const isReexport = (rel: string, c: ImportClause): boolean => c.kind === 'export' || (c.kind === 'from' && PACKAGE_INIT.test(rel));

/** What the rule reads of the workspace index (WorkspaceIndex is one). */
export interface ReexportIndex {
  paths(): Iterable<string>;
  get(rel: string): Pick<IndexedFile, 'symbols' | 'specs' | 'imports'> | undefined;
  importersOf(rel: string): string[];
  resolve(from: string, spec: string): string | null;
  readIndexed(rel: string): string | null;
}

/** One barrel's re-exports. */
interface Barrel {
  /** By the name its importers take: the module it comes from and its name there (`*`: the module whole). */
  named: Map<string, { file: string; name: string }>;
  /** The modules re-exported whole (`export * from`, Python's `from .x import *`). */
  stars: string[];
  /** Python's `__all__`, when the package has one. */
  all: string[] | null;
  /** The modules it only re-exports (no statement of its own imports them): it is no importer of theirs. */
  forwards: Set<string>;
}

/** The files whose importers a barrel's importers count toward, and whether the barrel keeps them too. */
interface Credit {
  files: Set<string>;
  keeps: boolean;
}

class Reexports {
  readonly barrels = new Map<string, Barrel>();
  private readonly clauses = new Map<string, ImportClause[]>();
  private readonly found = new Map<string, string[] | null>();
  /** The lookups under way (a cycle of barrels ends where it began). */
  private readonly open = new Set<string>();

  constructor(private readonly index: ReexportIndex) {}

  /** A file's statements (read once). */
  clausesOf(rel: string): ImportClause[] {
    let c = this.clauses.get(rel);
    if (!c) this.clauses.set(rel, (c = importClauses(rel, this.index.readIndexed(rel) ?? '')));
    return c;
  }

  /** Reads `rel` as a barrel: kept when it re-exports something, or is a Python package (whose own names count too). */
  addBarrel(rel: string): void {
    const init = PACKAGE_INIT.test(rel);
    const b: Barrel = { named: new Map(), stars: [], all: init ? pythonAll(this.index.readIndexed(rel) ?? '') : null, forwards: new Set() };
    const uses = new Set<string>();
    for (const c of this.clausesOf(rel)) {
      const src = this.index.resolve(rel, c.spec);
      if (src && !this.forwardsOnly(rel, c)) uses.add(src);
      if (!isReexport(rel, c)) continue;
      if (c.names === null) {
        if (src && src !== rel) b.stars.push(src);
        continue;
      }
      for (const n of c.names) {
        const sub = n.module ? this.index.resolve(rel, n.module) : null;
        if (sub && sub !== rel) b.named.set(n.as, { file: sub, name: '*' });
        else if (src && src !== rel) b.named.set(n.as, { file: src, name: n.name });
      }
    }
    for (const e of b.named.values()) if (!uses.has(e.file)) b.forwards.add(e.file);
    for (const f of b.stars) if (!uses.has(f)) b.forwards.add(f);
    if (init || b.named.size || b.stars.length) this.barrels.set(rel, b);
  }

  /**
   * Whether a statement of `rel` only forwards names to its importers: a TS/JS `export … from`; a package `__init__`'s
   * `from … import …` when the package defines nothing of its own (else its code may use them too).
   */
  private forwardsOnly(rel: string, c: ImportClause): boolean {
    return c.kind === 'export' || (isReexport(rel, c) && !this.index.get(rel)?.symbols.length);
  }

  private defines(rel: string, name: string): boolean {
    return this.index.get(rel)?.symbols.includes(name) ?? false;
  }

  /** The modules defining `name` as `file` offers it, or null when neither the barrels nor the symbols tell. */
  private lookup(file: string, name: string): string[] | null {
    const key = `${file}\0${name}`;
    if (this.found.has(key)) return this.found.get(key)!;
    if (this.open.has(key)) return null;
    this.open.add(key);
    const b = this.barrels.get(file);
    let out: string[] | null;
    const e = b?.named.get(name);
    if (!b) out = this.defines(file, name) ? [file] : null;
    else if (e) out = e.name === '*' ? this.whole(e.file) : (this.lookup(e.file, e.name) ?? [e.file]);
    else if (this.defines(file, name)) out = [file];
    else {
      const hits = b.stars.flatMap((s) => this.lookup(s, name) ?? []);
      out = hits.length ? hits : null;
    }
    this.open.delete(key);
    this.found.set(key, out);
    return out;
  }

  /** The modules a name taken from `file` comes from: lookup, else every star source whole, else `file` itself. */
  definers(file: string, name: string): string[] {
    const stars = this.barrels.get(file)?.stars ?? [];
    return this.lookup(file, name) ?? (stars.length ? stars.flatMap((s) => this.whole(s)) : [file]);
  }

  /** The modules `file` taken whole offers: itself, and what a barrel re-exports (its `__all__`'s definers when it has one). */
  whole(file: string): string[] {
    const key = `${file}\0*`;
    if (this.found.has(key)) return this.found.get(key)!;
    const b = this.barrels.get(file);
    if (!b || this.open.has(key)) return [file];
    this.open.add(key);
    const out = new Set([file]);
    const add = (files: readonly string[]) => files.forEach((f) => out.add(f));
    if (b.all) for (const n of b.all) add(this.lookup(file, n) ?? []);
    else {
      for (const e of b.named.values()) add(e.name === '*' ? this.whole(e.file) : (this.lookup(e.file, e.name) ?? [e.file]));
      for (const s of b.stars) add(this.whole(s));
    }
    this.open.delete(key);
    this.found.set(key, [...out]);
    return [...out];
  }

  /**
   * What `importer`'s statements that take from `barrel` credit (those that only forward take nothing); null when none
   * of them is read (a `require()`).
   */
  credit(importer: string, barrel: string): Credit | null {
    let credit: Credit | null = null;
    for (const c of this.clausesOf(importer)) {
      if (this.forwardsOnly(importer, c) || this.index.resolve(importer, c.spec) !== barrel) continue;
      credit ??= { files: new Set(), keeps: false };
      const files =
        c.names === null
          ? this.whole(barrel)
          : c.names.flatMap((n) => {
              const sub = n.module ? this.index.resolve(importer, n.module) : null;
              return sub ? [sub] : this.definers(barrel, n.name);
            });
      for (const f of files) {
        if (f === barrel) credit.keeps = true;
        else if (f !== importer) credit.files.add(f);
      }
    }
    return credit;
  }
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/**
 * Every file's importers with the re-export rule applied (the header's): the graph's (importersOf) that `counts`
 * keeps, less those that take from a barrel only names other modules define, with those that take names it defines
 * through a barrel. A barrel's importers (and, for a Python package, the files under it that import relatively) are
 * read once here; only those `counts` keeps are read.
 */
export function importersByDefinition(index: ReexportIndex, counts: (importer: string) => boolean = () => true): (rel: string) => readonly string[] {
  const r = new Reexports(index);
  const relative: string[] = [];
  for (const rel of index.paths()) {
    const f = index.get(rel);
    if (!f) continue;
    if (PACKAGE_INIT.test(rel) || (JS_EXT.test(rel) && f.imports.length && index.importersOf(rel).some(counts))) r.addBarrel(rel);
    if (PYTHON_FILE.test(rel) && counts(rel) && f.specs.some((s) => s.startsWith(PY_SPEC + '.'))) relative.push(rel);
  }
  const added = new Map<string, Set<string>>();
  const dropped = new Map<string, Set<string>>();
  for (const [barrel, { forwards }] of r.barrels) {
    for (const f of forwards) addTo(dropped, f, barrel);
    const candidates = new Set(index.importersOf(barrel).filter(counts));
    if (PACKAGE_INIT.test(barrel)) {
      const dir = barrel.slice(0, barrel.lastIndexOf('/') + 1);
      for (const p of relative) if (p.startsWith(dir)) candidates.add(p);
    }
    for (const importer of candidates) {
      const credit = importer === barrel ? null : r.credit(importer, barrel);
      if (!credit) continue;
      for (const f of credit.files) addTo(added, f, importer);
      addTo(credit.keeps ? added : dropped, barrel, importer);
    }
  }
  return (rel) => {
    const out = new Set(index.importersOf(rel).filter(counts));
    for (const p of dropped.get(rel) ?? []) out.delete(p);
    for (const p of added.get(rel) ?? []) out.add(p);
    return [...out];
  };
}

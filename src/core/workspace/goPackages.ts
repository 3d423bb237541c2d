// Go's packages for the import graph (importGraph.ts): an import path names a package — a folder — under the go.mod
// whose module path prefixes it, and reaches every non-test .go file of that folder. Reads each go.mod's `module`
// line once (again after a go.mod changed) and lists the folders' files once per resolution pass.
import { dirOf } from './moduleAliases';
import { GO_FILE } from './languageFiles';
import { isGoTestFile } from './testFiles';

/** A Go module's file. */
export const GO_MOD = /(^|\/)go\.mod$/;
/** `module example.com/app` in a go.mod. */
const GO_MODULE_LINE = /^module[ \t]+"?([^\s"]+)"?/m;

export class GoPackages {
  /** Each go.mod's module path with its folder, longest first (a nested module owns its folders). */
  private modules: { module: string; dir: string }[] | null = null;
  /** Each folder's non-test .go files. */
  private folders: Map<string, string[]> | null = null;

  constructor(
    private readonly paths: () => Iterable<string>,
    private readonly read: (rel: string) => string | null,
  ) {}

  /** Files came or went (the folders are listed again); `modules`: a go.mod changed too. */
  forget(modules: boolean): void {
    this.folders = null;
    if (modules) this.modules = null;
  }

  /** The workspace files of the package an import path names; none for the standard library's and other modules'. */
  files(importPath: string): string[] {
    if (!this.modules) {
      this.modules = [];
      for (const p of this.paths()) {
        if (!GO_MOD.test(p)) continue;
        const m = GO_MODULE_LINE.exec(this.read(p) ?? '');
        if (m) this.modules.push({ module: m[1], dir: dirOf(p) });
      }
      this.modules.sort((a, b) => b.module.length - a.module.length);
    }
    const mod = this.modules.find((m) => importPath === m.module || importPath.startsWith(m.module + '/'));
    if (!mod) return [];
    if (!this.folders) {
      this.folders = new Map();
      for (const p of this.paths()) {
        if (!GO_FILE.test(p) || isGoTestFile(p)) continue;
        const d = dirOf(p);
        const list = this.folders.get(d);
        if (list) list.push(p);
        else this.folders.set(d, [p]);
      }
    }
    const rest = importPath.slice(mod.module.length + 1);
    return this.folders.get([mod.dir, rest].filter(Boolean).join('/')) ?? [];
  }
}

// The workspace's own module names: the workspace files a bare import specifier (one not starting with `.` or `/`)
// names, as TypeScript and Node resolve it, read from the workspace's configuration files:
//  - tsconfig/jsconfig `compilerOptions.paths` (`"@app/*": ["src/app/*"]`: exact or one `*`, the longest matching
//    prefix first, relative to `baseUrl` or else to the config that sets them) and `baseUrl` itself (`components/x`
//    under it), from the nearest config above the importing file, `extends` followed inside the workspace (a
//    relative path, or a workspace package's name: `@repo/typescript-config/base.json`, as a monorepo shares them);
//  - package.json `imports` of the nearest package (Node's subpath imports, `#internal/x`);
//  - package.json `name` of every package in the workspace (a monorepo's `@acme/core`, or a package's tests importing
//    it by its own name): its entry (`source`, `exports`, `module`, `main`, `types`, then `src/index` and `index`) and
//    its subpaths (`@acme/core/utils` → the package's `utils`, then `src/utils`).
// An entry that names built output (`dist/index.js`, usually not in the workspace) also tries its source twin
// (`src/index.*`). What a specifier resolves to is left to importGraph.ts: this module only lists, in order, the bases
// to try. Configurations outside the workspace (`extends: "@tsconfig/node20"`, a package the workspace does not
// hold) and the `exports` conditions' finer
// rules (patterns, `null` targets) are not followed: the graph feeds a ranking, where a missed edge costs little and a
// wrong one a little more. The configs' values read as rules (paths and imports maps, exports targets) are
// moduleRules.ts's.
import { applyRules, exportTargets, fileBases, joinWorkspace, parseConfig, pathRules, type PathRules } from './moduleRules';

/** Configuration files this module reads; a change to one of them changes what bare specifiers resolve to. */
export function isModuleConfig(relPath: string): boolean {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  return base === 'package.json' || /^(tsconfig|jsconfig)(\.[\w.-]+)?\.json$/.test(base);
}

interface CompilerScope {
  rules: PathRules;
  /** The `baseUrl` folder as a workspace path ('' = the root), or null. */
  baseUrl: string | null;
}

/** A config's effective `paths` (as written) with the config that sets them, and its `baseUrl`. */
interface RawScope {
  paths: unknown;
  pathsFile: string;
  baseUrl: string | null;
}

interface PackageInfo {
  dir: string;
  name: string | null;
  /** The entry bases, in the order to try. */
  entry: string[];
  /** `exports` subpaths with a plain string target (`./utils` → bases), without the leading `./`. */
  subpaths: Map<string, string>;
  /** `imports` (`#x` or `#x/*` → a target relative to the package's folder). */
  imports: PathRules;
}

/** The folder of a workspace path ('' for one at the root). */
export const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

export class ModuleAliases {
  private readonly packages = new Map<string, PackageInfo>();
  private readonly byName = new Map<string, PackageInfo>();
  private readonly scopes = new Map<string, CompilerScope>();
  /** The nearest config folder (tsconfig/jsconfig, package.json) of each folder asked about. */
  private readonly nearestScope = new Map<string, CompilerScope | null>();
  private readonly nearestPackage = new Map<string, PackageInfo | null>();
  /** The configs named by an `extends` (whether or not they exist): a change to one changes what resolves. */
  private readonly extended = new Set<string>();
  /** Configs read (null: unreadable), and the rules of each config's paths by the base they resolve against. */
  private readonly parsed = new Map<string, Record<string, unknown> | null>();
  private readonly rulesByBase = new Map<string, PathRules>();

  /** `paths`: every workspace file; `read`: a file's text (null when it cannot be read). */
  constructor(paths: Iterable<string>, private readonly read: (rel: string) => string | null) {
    const configs = new Map<string, string[]>();
    for (const p of paths) {
      if (!isModuleConfig(p) || p.split('/').includes('node_modules')) continue;
      const base = p.slice(p.lastIndexOf('/') + 1);
      if (base === 'package.json') this.addPackage(p);
      else if (/^(tsconfig|jsconfig)\.json$/.test(base)) configs.set(dirOf(p), [...(configs.get(dirOf(p)) ?? []), p]);
    }
    let named = 0;
    for (const [dir, files] of configs) {
      // tsconfig.json before jsconfig.json, as TypeScript looks for them
      const file = files.sort().reverse()[0];
      const raw = this.compilerScope(file, new Set());
      // TypeScript: paths are relative to the final baseUrl, wherever it is set, else to the config that sets them
      const scope: CompilerScope | null = raw && { rules: this.pathRulesOf(raw), baseUrl: raw.baseUrl };
      if (!scope) continue;
      const names = scope.rules.exact.size || scope.rules.patterns.length || scope.baseUrl !== null;
      // a config without paths or baseUrl still owns its folder (TypeScript takes the nearest one: an outer config's
      // paths do not apply under it), unless it is a solution config, which lists projects and owns no file
      if (names) named++;
      if (names || !this.isSolution(file)) this.scopes.set(dir, scope);
    }
    this.empty = !this.byName.size && !named && ![...this.packages.values()].some((p) => p.imports.exact.size || p.imports.patterns.length);
  }

  /** True when the workspace has nothing for bare specifiers (no package names, paths, baseUrl or imports). */
  readonly empty: boolean;

  /** A solution config: `references` to projects, and `files: []` or `include: []` (it compiles no file itself). */
  private isSolution(file: string): boolean {
    const cfg = this.parsed.get(file);
    const none = (v: unknown) => Array.isArray(v) && v.length === 0;
    return !!cfg && Array.isArray(cfg.references) && (none(cfg.files) || none(cfg.include));
  }

  /** True for a file these names were read from that isModuleConfig does not know (`extends: "./configs/base.json"`). */
  readsConfig(rel: string): boolean {
    return this.extended.has(rel);
  }

  private addPackage(file: string): void {
    const pkg = parseConfig(this.read(file));
    if (!pkg) return;
    const dir = dirOf(file);
    const entry: string[] = [];
    const exp = pkg.exports;
    const subpaths = new Map<string, string>();
    let main: unknown = exp;
    if (exp && typeof exp === 'object' && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'))) {
      const o = exp as Record<string, unknown>;
      main = o['.'];
      for (const [k, v] of Object.entries(o)) {
        const t = k.startsWith('./') && !k.includes('*') ? exportTargets(v)[0] : undefined;
        if (t) subpaths.set(k.slice(2), t);
      }
    }
    for (const t of [pkg.source, ...exportTargets(main), pkg.module, pkg.main, pkg.types, pkg.typings]) if (typeof t === 'string') entry.push(...fileBases(dir, t));
    for (const t of ['src/index', 'index']) entry.push(joinWorkspace(dir, t)!);
    const info: PackageInfo = { dir, name: typeof pkg.name === 'string' && pkg.name ? pkg.name : null, entry: [...new Set(entry)], subpaths, imports: pathRules(pkg.imports, '', true) };
    this.packages.set(dir, info);
    // two packages of one name (a fixture, a copy): the one nearer the root
    const had = info.name ? this.byName.get(info.name) : undefined;
    if (info.name && (!had || had.dir.split('/').length > dir.split('/').length)) this.byName.set(info.name, info);
  }

  /** A config's paths and baseUrl, with those it extends inside the workspace under its own. */
  private compilerScope(file: string, seen: Set<string>): RawScope | null {
    if (seen.has(file) || seen.size > 8) return null;
    seen.add(file);
    // a base config extended by every project of a large monorepo is read once
    let cfg = this.parsed.get(file);
    if (cfg === undefined) this.parsed.set(file, (cfg = parseConfig(this.read(file))));
    if (!cfg) return null;
    const dir = dirOf(file);
    let inherited: RawScope = { paths: undefined, pathsFile: file, baseUrl: null };
    for (const ext of Array.isArray(cfg.extends) ? cfg.extends : [cfg.extends]) {
      if (typeof ext !== 'string' || !ext) continue;
      // relative as TypeScript takes it, Windows separators too (`..\tsconfig.base.json`), or a workspace package's
      const target = /^\.\.?[\\/]/.test(ext) ? joinWorkspace(dir, ext.endsWith('.json') ? ext : ext + '.json') : this.packageConfig(ext);
      if (target !== null) this.extended.add(target);
      const parent = target === null ? null : this.compilerScope(target, seen);
      if (parent) inherited = { ...(parent.paths ? parent : inherited), baseUrl: parent.baseUrl ?? inherited.baseUrl };
    }
    const opts = (cfg.compilerOptions && typeof cfg.compilerOptions === 'object' ? cfg.compilerOptions : {}) as Record<string, unknown>;
    const baseUrl = typeof opts.baseUrl === 'string' ? joinWorkspace(dir, opts.baseUrl) : inherited.baseUrl;
    return opts.paths ? { paths: opts.paths, pathsFile: file, baseUrl } : { ...inherited, baseUrl };
  }

  /**
   * The config an `extends` names through a workspace package (TypeScript resolves it like a module): the file it
   * names in the package (`@repo/tsconfig/nextjs.json`, `.json` added when left out), or the package's `tsconfig`
   * field or else its `tsconfig.json` for the bare name; null when no package of the workspace has that name.
   */
  private packageConfig(spec: string): string | null {
    const parts = spec.replace(/\\/g, '/').split('/');
    const nameParts = spec.startsWith('@') ? 2 : 1;
    const pkg = this.byName.get(parts.slice(0, nameParts).join('/'));
    if (!pkg) return null;
    const rest = parts.slice(nameParts).join('/');
    if (rest) return joinWorkspace(pkg.dir, rest.endsWith('.json') ? rest : rest + '.json');
    const own = parseConfig(this.read(joinWorkspace(pkg.dir, 'package.json')!))?.tsconfig;
    return joinWorkspace(pkg.dir, typeof own === 'string' && own ? own : 'tsconfig.json');
  }

  /** The rules of a scope's paths, one object for the scopes that inherit the same paths against the same base. */
  private pathRulesOf(raw: RawScope): PathRules {
    const base = raw.baseUrl ?? dirOf(raw.pathsFile);
    const key = raw.pathsFile + '\0' + base;
    let rules = this.rulesByBase.get(key);
    if (!rules) this.rulesByBase.set(key, (rules = pathRules(raw.paths, base)));
    return rules;
  }

  private nearest<T>(dir: string, own: Map<string, T>, memo: Map<string, T | null>): T | null {
    const hit = memo.get(dir);
    if (hit !== undefined) return hit;
    const found = own.get(dir) ?? (dir ? this.nearest(dirOf(dir), own, memo) : null);
    memo.set(dir, found);
    return found;
  }

  /**
   * The workspace bases a bare specifier written in `from` may name, in the order to try (each a path to complete
   * with an extension or an index file); empty when the workspace does not claim it (`react`, `node:fs`).
   */
  bases(from: string, spec: string): string[] {
    const dir = dirOf(from);
    if (spec.startsWith('#')) {
      const pkg = this.nearest(dir, this.packages, this.nearestPackage);
      return (pkg && [...new Set(applyRules(pkg.imports, spec)?.flatMap((t) => fileBases(pkg.dir, t)))]) || [];
    }
    const out: string[] = [];
    const scope = this.nearest(dir, this.scopes, this.nearestScope);
    if (scope) {
      const mapped = applyRules(scope.rules, spec);
      if (mapped) out.push(...mapped);
      // TypeScript: paths, then baseUrl, then node_modules (where a workspace's packages are linked)
      if (scope.baseUrl !== null) {
        const b = joinWorkspace(scope.baseUrl, spec);
        if (b !== null) out.push(b);
      }
    }
    // a package name is the specifier's first segment, or its first two for a scoped name
    const slash = spec.indexOf('/', spec.startsWith('@') ? spec.indexOf('/') + 1 : 0);
    const p = this.byName.get(slash < 0 ? spec : spec.slice(0, slash));
    if (p && slash < 0) out.push(...p.entry);
    else if (p) {
      const sub = spec.slice(slash + 1);
      const exported = p.subpaths.get(sub);
      if (exported) out.push(...fileBases(p.dir, exported));
      for (const t of [sub, 'src/' + sub]) {
        const b = joinWorkspace(p.dir, t);
        if (b !== null) out.push(b);
      }
    }
    return [...new Set(out)];
  }
}

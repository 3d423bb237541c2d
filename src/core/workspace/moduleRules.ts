// The values of the module configuration files as the workspace's module names (moduleAliases.ts) use them: a config
// parsed (JSONC, tolerant), a path joined inside the workspace, an `exports` value's targets (most source-like
// condition first), a package file's bases (built output's source twin first), and a `paths` or `imports` map as the
// rules TypeScript and Node apply (pathRules: exact names, then the longest prefix; applyRules), bounded against a
// generated or hostile config.
import { parse as parseJsonc } from 'jsonc-parser';

interface PathRule {
  /** The pattern's text before and after its `*`. */
  prefix: string;
  suffix: string;
  /** Targets as workspace paths with their `*` (normalised). */
  targets: string[];
}

/** A `paths` or `imports` map: its exact names, and its patterns in the order to try. */
export interface PathRules {
  exact: Map<string, string[]>;
  patterns: PathRule[];
}

/** Folders whose files are built output: their source twin lives under `src/`. */
const BUILT_DIR = /^(dist|build|lib|out|esm|cjs|es|umd|types)\//;
/** Conditions of `exports`, most source-like first; other keys follow in their own order. */
const CONDITIONS = ['source', 'development', 'import', 'module', 'default', 'require', 'node', 'browser', 'types'];

/** A configuration file's text as an object (JSONC: comments and trailing commas allowed), or null. */
export function parseConfig(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  let v: unknown;
  try {
    v = parseJsonc(text, [], { allowTrailingComma: true, disallowComments: false });
  } catch {
    // the parser recurses per nesting level: a file of `[[[[…` exhausts the stack
    return null;
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** `a/b` + `../c/./d` → `a/c/d` ('' = the root); null when it leaves the workspace. */
export function joinWorkspace(dir: string, rel: string): string | null {
  const out = dir ? dir.split('/') : [];
  for (const seg of rel.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** The string leaves of an `exports` value, most source-like condition first. */
export function exportTargets(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 4) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) exportTargets(x, out, depth + 1);
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = [...CONDITIONS.filter((k) => k in o), ...Object.keys(o).filter((k) => !CONDITIONS.includes(k))];
    for (const k of keys) exportTargets(o[k], out, depth + 1);
  }
  return out;
}

/** A package file's bases: the file itself, and for built output its twin under `src/` (extension left to the graph). */
export function fileBases(dir: string, target: string): string[] {
  const rel = joinWorkspace('', target);
  if (rel === null || rel.includes('*')) return [];
  const out: string[] = [];
  const built = BUILT_DIR.exec(rel);
  if (built) {
    const twin = joinWorkspace(dir, 'src/' + rel.slice(built[0].length).replace(/(\.d)?\.[cm]?[jt]sx?$/, ''));
    if (twin !== null) out.push(twin);
  }
  const own = joinWorkspace(dir, rel);
  if (own !== null) out.push(own);
  return out;
}

/**
 * Patterns read from one `paths` or `imports` map, and targets per pattern: every bare specifier of every file is
 * matched against them, so a generated or hostile config cannot make each resolution scan thousands (real ones hold
 * a few dozen). Exact names cost one look-up, and an Nx workspace's generated map lists one per library: far more
 * of them are read.
 */
export const MAX_PATH_RULES = 256;
const MAX_EXACT_NAMES = 20_000;
const MAX_TARGETS = 8;

const NO_RULES: PathRules = { exact: new Map(), patterns: [] };

/** `relativeOnly`: package.json imports, whose targets not starting with `./` name packages (Node), not files. */
export function pathRules(map: unknown, base: string, relativeOnly = false): PathRules {
  if (!map || typeof map !== 'object' || Array.isArray(map)) return NO_RULES;
  const rules: PathRule[] = [];
  const exact = new Map<string, string[]>();
  for (const pattern of Object.keys(map)) {
    const raw = (map as Record<string, unknown>)[pattern];
    const star = pattern.indexOf('*');
    if (star !== pattern.lastIndexOf('*')) continue;
    if (star < 0 ? exact.size >= MAX_EXACT_NAMES : rules.length >= MAX_PATH_RULES) {
      if (exact.size >= MAX_EXACT_NAMES && rules.length >= MAX_PATH_RULES) break;
      continue;
    }
    // tsconfig paths: an array of strings; package.json imports: a string, an array or conditions (`{ node, default }`)
    const list = exportTargets(raw).filter((t) => t.split('*').length <= 2 && (!relativeOnly || t.startsWith('./'))).slice(0, MAX_TARGETS);
    const targets = list.map((t) => joinWorkspace(base, t)).filter((t): t is string => t !== null);
    if (!targets.length) continue;
    if (star < 0) exact.set(pattern, targets);
    else rules.push({ prefix: pattern.slice(0, star), suffix: pattern.slice(star + 1), targets });
  }
  // TypeScript takes an exact name before any pattern, then the pattern with the longest prefix before its `*`
  return { exact, patterns: rules.sort((a, b) => b.prefix.length - a.prefix.length) };
}

/** The targets of the first rule matching `spec`, with its `*` filled in; null when none matches. */
export function applyRules(rules: PathRules, spec: string): string[] | null {
  const exact = rules.exact.get(spec);
  if (exact) return exact;
  for (const r of rules.patterns) {
    if (spec.length >= r.prefix.length + r.suffix.length && spec.startsWith(r.prefix) && spec.endsWith(r.suffix)) {
      const star = spec.slice(r.prefix.length, spec.length - r.suffix.length);
      if (!star.includes('.') && !star.includes('\\')) return r.targets.map((t) => t.replace('*', star));
      // `@/../test/x`: normalised as TypeScript does, never leaving the workspace
      return r.targets.map((t) => joinWorkspace('', t.replace('*', star))).filter((t): t is string => t !== null);
    }
  }
  return null;
}

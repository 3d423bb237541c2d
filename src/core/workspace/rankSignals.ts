// The signals the ranking (rank.ts) reads off the objective and a file's path alone, before any index: the kind prior
// of a path (kindPrior: built output, lock files, changelogs, docs, configuration, type declarations), whether the
// objective asks about types or about the tests (which moves that prior), and the identifiers it writes as code.
//
// Declarations are damped only a little (0.65): in a JavaScript package they are the hand-written types, changed
// with the API they describe; on the localization bench (480 commits of 12 repositories) 0.5 → 0.65 raised recall 0.546 → 0.551
// and all-files 0.419 → 0.427, on the eight repositories the weights were tuned on and on the four added later
// alike. What the objective asks about moves the kind prior: an objective about types ("fix the return type",
// "export the `Options` type"; a content or MIME type does not count) leaves declarations undamped, and one about
// the tests ("add tests for …", "fix flaky test") halves every file that is not a test — on the bench, 84% of the
// files such commits change are tests, against 35% for the rest. Type tests (`test-d/`, `*.test-d.ts`) count as
// tests and pair with the declarations they check. On the localization bench (520 commits of 13 repositories): types
// 0.558 → 0.564 recall, 0.425 → 0.439 all-files; type tests → 0.567 / 0.440; tests → 0.572 / 0.446 (koa and got lose
// one case each, h3, execa, express and fastify gain).
import { DECLARATION_FILE } from './fileKinds';

/**
 * How likely a kind of file is to be what a development step changes, whatever its text says: built and minified
 * output, source maps, test snapshots (`__snapshots__/*.snap`: the test runner rewrites them) and lock files almost never; changelogs and other docs match every request's words but are
 * rarely the change; type declaration files restate the whole API's names, so they match too often; configuration
 * and data sometimes. Exported for the bench's record; not settings.
 */
export const KIND_PRIOR = { built: 0.05, changelog: 0.1, docs: 0.35, config: 0.5, declarations: 0.65, declarationsAsked: 1, nonTestWhenTestsAsked: 0.5 };

/**
 * True when the objective asks about the TypeScript types ("fix the return type", "export the `Options` type",
 * "typings for …"), not about a content or MIME type.
 */
export function asksForTypes(objective: string): boolean {
  return /\b(types?|typings?|typescript|typed|generics?|d\.ts)\b/i.test(objective.replace(/\b(content|mime|media|response)[- ]types?\b/gi, ' '));
}

/**
 * True when the objective is about the tests themselves ("add tests for …", "fix flaky test"); a name in backticks
 * (a `test()` method) does not count.
 */
export function asksForTests(objective: string): boolean {
  return /\b(tests?|testing|flaky)\b/i.test(objective.replace(/`[^`]*`/g, ' '));
}

/** The kind prior of a path (KIND_PRIOR), 1 for ordinary source files; declarations weigh more when the objective asks for types. */
export function kindPrior(relPath: string, typesAsked = false): number {
  const k = KIND_PRIOR;
  const p = relPath.toLowerCase();
  if (/(^|\/)(dist|build|out|coverage|vendor|\.next|\.nuxt|target|generated|__snapshots__)\//.test(p) || /\.min\.(js|css)$|\.map$|\.snap$|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json)$/.test(p)) return k.built;
  if (/(^|\/)(changelog|history|changes|license|licence|authors|contributors|code_of_conduct)[^/]*$/.test(p)) return k.changelog;
  if (/\.(md|mdx|markdown|txt|rst|adoc)$/.test(p)) return k.docs;
  if (DECLARATION_FILE.test(p)) return typesAsked ? k.declarationsAsked : k.declarations;
  if (/\.(json|ya?ml|toml|ini|lock|xml|csv|svg)$|(^|\/)\.[^/]+$/.test(p)) return k.config;
  return 1;
}

/**
 * The identifiers an objective writes as code, 4+ characters: camelCase or snake_case words, and every identifier
 * inside backticks (`allow`, `got.extend()` → extend). Plain words outside backticks are not code.
 */
export function codeIdentifiers(objective: string): string[] {
  const out = new Set<string>();
  for (const m of objective.matchAll(/`([^`]+)`/g)) for (const id of m[1].matchAll(/[A-Za-z_$][\w$]{3,}/g)) out.add(id[0]);
  for (const m of objective.matchAll(/[A-Za-z_$][\w$]{3,}/g)) if (/[a-z][A-Z]|[A-Za-z]_[A-Za-z]/.test(m[0])) out.add(m[0]);
  return [...out];
}

// What a workspace file is by its path alone: a UI file a designer works on (components, styles), a style sheet, the
// project's formatter settings, a source file, a project manifest, a Markdown document, the root's README, a
// Makefile, a type declaration file (DevA's excerpts of a shown file's companions: companions.ts), the product's own
// code as against examples, fixtures and tests. DA's map keeps the UI files (or, where there are none, the product's
// sources), DevA's shows the formatter's settings, init's workspace facts count the source files and find the
// packages, the code map keeps the product's own code (isProductFile, isProductSource), and init's README part and
// the interface lines' member order read the same README (readmeOf), and init's status notes read the documentation
// pages other than a release's notes (isDocPage, isReleaseNotes); one rule each, here. A test by its name is
// testFiles.ts; each language's source files by extension languageFiles.ts.
import * as path from 'path';
import { isTestFile } from './testFiles';

/** Style sheets. */
export const STYLE_EXT = /\.(css|scss|sass|less|styl)$/i;

/**
 * A source file of a programming language, markup or style sheet, by its extension (tests included): what init's
 * workspace facts count per folder, and whether a workspace holds code at all.
 */
export const SOURCE_FILE =
  /\.(?:[cm]?[jt]sx?|vue|svelte|astro|html?|css|scss|sass|less|styl|pyi?|go|rs|rb|java|kts?|scala|groovy|cs|fs|vb|swift|mm?|c|h|cc|cpp|cxx|hh|hpp|php|ex|exs|erl|hs|clj[sc]?|dart|lua|r|jl|sh|sql|zig|elm|ml|sol)$/i;

/**
 * The files that make a folder a project or a package by their names: each names the package and its dependencies
 * (and for npm, its scripts). Init's workspace facts quote the root's and count a folder that holds one, one level
 * below a top folder (`packages/api/package.json`), as a package of a monorepo.
 */
export const MANIFEST_NAMES: readonly string[] = ['package.json', 'pyproject.toml', 'setup.py', 'go.mod', 'Cargo.toml', 'Gemfile', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'composer.json'];

/** A Makefile by its name (GNU make's three): init's facts read its targets, the checks' detection its recipes' commands. */
export const MAKEFILE_NAME = /^(?:GNU)?[Mm]akefile$/;

/** A Markdown document, by its extension: the index names its headings, the interface lines count its calls. */
export const MARKDOWN_FILE = /\.(?:md|mdx|markdown)$/i;

/**
 * A project's record of releases by its name, a document or a plain file (CHANGELOG.md, docs/changelog.md, HISTORY.rst,
 * CHANGES, NEWS.md; not `src/history.ts`), any case: DevA's excerpts of it open with its head, where the next entry
 * goes, and name no headings (sectionBlocks.ts). The ranking's kind prior (rankSignals.ts) has its own, looser rule
 * for the files it weighs low, licences and authors among them.
 */
export const CHANGELOG_FILE = /(^|\/)(changelog|history|changes|news)(\.(md|markdown|rst|txt|adoc))?$/i;

/**
 * A release's notes kept as a documentation page: a changelog (CHANGELOG_FILE: `HISTORY.md`, `NEWS.md`,
 * `docs/changelog.md`), a page under a folder of them (`docs/change_log/release-2.4.md`, `docs/releases/v3.md`,
 * `docs/release-notes/`, `docs/whatsnew/`) or one named for them (`release-2.4.md`, `RELEASE_NOTES.md`,
 * `whats-new.md`; not `release.md`, a maintainer's how-to). What it says of a feature was true of one release: init's
 * status notes (initFactsStatus.ts) quote none of it, or a note of 2.0's deprecations would read as today's policy.
 */
const RELEASE_NOTES_PAGE =
  /(?:^|\/)(?:(?:change[-_]?logs?|changes|releases|release[-_]?notes|history|news|whats[-_]?new)\/|(?:release[-_]?notes?|whats[-_]?new|releases?[-_]?v?\d)[^/]*$)/i;

/** True for a release's notes (RELEASE_NOTES_PAGE), a changelog among them. */
export function isReleaseNotes(relPath: string): boolean {
  return CHANGELOG_FILE.test(relPath) || RELEASE_NOTES_PAGE.test(relPath);
}

/**
 * A project's notices by their names, a document or a plain file (LICENSE.md, LICENCE, COPYING, AUTHORS,
 * CONTRIBUTORS, CONTRIBUTING.md, CODE_OF_CONDUCT.md), any case: they tell who may use and change the project and how,
 * not how its code is used.
 */
const NOTICE_FILE = /(^|\/)(licen[cs]e|copying|authors|contributors|contributing|code_of_conduct)([.-][^/]*)?$/i;

/**
 * True for a project's record rather than its documentation: a changelog (CHANGELOG_FILE) or a notice (NOTICE_FILE).
 * No documentation page (isDocPage), no document of a file's names (companions.ts).
 */
export function isProjectRecord(relPath: string): boolean {
  return CHANGELOG_FILE.test(relPath) || NOTICE_FILE.test(relPath);
}

/** A TypeScript declaration file (`index.d.ts`, `index.d.cts`): the ranking damps it, DevA's companions pair it with its JavaScript. */
export const DECLARATION_FILE = /\.d\.[cm]?ts$/i;

/** A JavaScript source file, by its extension: the one whose public names a declaration file may declare. */
export const JS_FILE = /\.[cm]?jsx?$/i;

/** A README's name, in any case (README.md preferred: readmeOf). */
const README_NAME = /^readme(?:\.(?:md|markdown|rst|txt|adoc))?$/i;

/**
 * The README among the root's files (`rootFiles`, names only): README.md (any case) first, else the first by name;
 * undefined without one. The one the facts quote (initFactsReadme.ts) and whose calls order a type's members in an
 * interface line (docCalls.ts).
 */
export function readmeOf(rootFiles: Iterable<string>): string | undefined {
  return [...rootFiles].filter((n) => README_NAME.test(n)).sort((a, b) => Number(!/\.md$/i.test(a)) - Number(!/\.md$/i.test(b)) || (a < b ? -1 : 1))[0];
}
/**
 * Folders whose files are not the product's own code or interface, though they may be HTML, components or source:
 * examples, demos, samples, fixtures, documentation (DOCS_FOLDER), coverage reports, benchmarks (`bench/`, `benches/`,
 * `benchmarks/`), fuzz targets (`fuzz/`), test support (`src/testing/test-utils.tsx`, mock servers), Storybook's
 * configuration. A library's `example/index.html` is no screen of the product (a trial's DA was handed yargs' example
 * page as its "UI files"), and dtolnay/semver's `fuzz/sort_version.rs` no file of the product and its next release
 * (init's code map named it so); tests are set apart by isTestFile.
 */
const NOT_PRODUCT = /(^|\/)(examples?|demos?|samples?|fixtures?|__fixtures__|coverage|benchmarks?|bench(?:es)?|fuzz|testing|__mocks__|mocks?|\.storybook)\//i;
/** A docs folder (`docs/`, `doc/`) at any depth: not the product's code (isProductFile), but its documentation's (isDocPage). */
const DOCS_FOLDER = /(?:^|\/)docs?\//i;
/**
 * Storybook stories (`button.stories.tsx`) restate a component's variants beside it: in a React app's map they took a
 * map line for every component DA's map already names.
 */
const STORY = /\.stor(?:y|ies)\.[^/]+$/i;
/** A benchmark by its name beside the code it measures: `parse_bench.rs`, vitest's `parse.bench.ts`. */
const BENCH_NAME = /[._]bench\.[^/]+$/i;
/**
 * A tool's configuration or a build script written as code: `eslint.config.mjs`, `vite.config.ts`, `jest.config.js`,
 * `.eslintrc.cjs`, `gulpfile.js`, `karma.conf.js`; cargo's `build.rs`, Python's `setup.py` and `noxfile.py`. It sets
 * up the build, lint or tests, not the product: a trial's DA, designing a URL library's next calls, got
 * `eslint.config.mjs` among its "source files" (the library's interface), and on a Rust crate `build.rs — main`.
 */
/**
 * Under a `src/` folder a TOOL_CONFIG name is the product's own code: Angular's `src/app/app.config.ts`, a crate's
 * `src/build.rs` module (cargo's build script sits beside Cargo.toml).
 */
const IN_SRC = /(?:^|\/)src\//;
const TOOL_CONFIG =
  /(?:^|\/)(?:(?:[\w-]+(?:\.[\w-]+)*\.config|\.[\w-]+rc|gulpfile|gruntfile|jakefile|karma\.conf)\.[cm]?[jt]s|build\.rs|setup\.py|noxfile\.py)$/i;

/**
 * True for a file of the product itself: not a test, a story, a benchmark or a file of its examples, docs, fuzz targets
 * or test support (NOT_PRODUCT, DOCS_FOLDER, BENCH_NAME). The one rule of "the product's code": the UI files DA's map keeps, the
 * style part's sources, and init's code map — the files it lists and the importers it counts. Not the ranking's: it
 * tells tests from the rest by isTestFile alone.
 */
export function isProductFile(relPath: string): boolean {
  return productOrDocs(relPath) && !DOCS_FOLDER.test(relPath);
}

/** True for a file of the product or of its docs: not a test, a story or a benchmark, nor under a folder of NOT_PRODUCT. */
function productOrDocs(relPath: string): boolean {
  return !NOT_PRODUCT.test(relPath) && !STORY.test(relPath) && !BENCH_NAME.test(relPath) && !isTestFile(relPath);
}

/** GitHub's own folder: its Markdown files are the repository's templates and policies. */
const GITHUB_FOLDER = /(^|\/)\.github\//i;

/**
 * True for a page of the product's documentation: a Markdown file at the root (README.md), under a docs folder or
 * beside the product's code; not a project's record (isProjectRecord: a changelog, a licence, a contribution guide),
 * GitHub's (`.github/`), a test's or an example's, even under a docs folder (`tests/docs/`, `examples/docs/`). DA's
 * map of a workspace without UI files names the pages nearest its work (pack.ts): two trials' DA on a Python library,
 * writing the docs of a new option, had to search for the page.
 */
export function isDocPage(relPath: string): boolean {
  return MARKDOWN_FILE.test(relPath) && !isProjectRecord(relPath) && !GITHUB_FOLDER.test(relPath) && productOrDocs(relPath);
}

/**
 * True for a source file of the product (SOURCE_FILE, isProductFile), not a tool's configuration (TOOL_CONFIG): DA's
 * map in a workspace without UI files (its interface is its code: a trial's DA on a Rust library got an empty UI
 * section and spent six tool calls finding what its main type offers), and the files init's code map may list.
 */
export function isProductSource(relPath: string): boolean {
  return SOURCE_FILE.test(relPath) && isProductFile(relPath) && (!TOOL_CONFIG.test(relPath) || IN_SRC.test(relPath));
}

/** True for files a designer works on: components and styles of the product (not its tests, examples or docs). */
export function isUiFile(relPath: string): boolean {
  if (!isProductFile(relPath)) return false;
  return (
    STYLE_EXT.test(relPath) ||
    /\.(tsx|jsx|vue|svelte|astro|html)$/i.test(relPath) ||
    /(^|\/)(components?|views?|pages?|ui|widgets?|layouts?|styles?|theme)\//i.test(relPath)
  );
}

/**
 * The formatter settings that decide how new code must look: Prettier's (`.prettierrc*`,
 * `prettier.config.*`), EditorConfig, Biome, dprint, rustfmt, clang-format. A project whose lint runs its formatter
 * (eslint-plugin-prettier, `biome check`) fails code laid out any other way: in a React app's trial, DevA guessed
 * Prettier's line breaks of two JSX lines wrong and spent a fix round on them.
 */
const FORMATTER_CONFIG = /^(?:\.editorconfig|biome\.jsonc?|\.?dprint\.jsonc?|\.?rustfmt\.toml|\.clang-format)$/;
/** Prettier's configuration files (besides the `prettier` key of package.json). */
const PRETTIER_CONFIG = /^(?:\.prettierrc(?:\.(?:json5?|ya?ml|toml|[cm]?js|[cm]?ts))?|prettier\.config\.(?:[cm]?js|[cm]?ts))$/;

/**
 * True for a formatter settings file (FORMATTER_CONFIG, PRETTIER_CONFIG) at any depth: one in a sub-project's folder
 * (`frontend/biome.json`) governs the files below it, as the formatter reads it.
 */
export function isFormatterConfig(relPath: string): boolean {
  const name = path.posix.basename(relPath);
  return FORMATTER_CONFIG.test(name) || PRETTIER_CONFIG.test(name);
}

/** True when the formatter settings at `config` apply to `file`: the settings' folder is the root or holds the file. */
export function formatterGoverns(config: string, file: string): boolean {
  const dir = path.posix.dirname(config);
  return dir === '.' || file.startsWith(`${dir}/`);
}

/** True for the name of a Prettier configuration file. */
export function isPrettierConfig(name: string): boolean {
  return PRETTIER_CONFIG.test(name);
}

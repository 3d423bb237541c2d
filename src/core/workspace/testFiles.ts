// Tests by their names: how each language names a test file (`parser.test.ts`, `test_parser.py`, `parser_test.go`,
// `parser_spec.rb`, a tsd type test), the name stem a test shares with its subject, and the pattern a folder's tests
// follow. The ranking pairs a test with its subject by it, fail-first applies the tests alone, init's facts say how
// tests are named; what a file is otherwise by its path is fileKinds.ts.
import * as path from 'path';
import { escapeRegExp } from '../text/regexp';
import { C_FAMILY_FILE, GO_FILE, PYTHON_FILE, RUST_FILE } from './languageFiles';

/** Go's test files' name stem (`parser_test.go`): `go build` leaves them out of their package. */
const GO_TEST_AFFIX = /(?<=.)_test$/;

/**
 * How Python, Go, Ruby, Rust, C and C++ name a module's test: per file extension, the affix of the name (without its
 * extension) that marks it (`test_parser.py` or `parser_test.py`, `parser_test.go`, RSpec's `parser_spec.rb` or
 * minitest's `parser_test.rb`, `tests/test_version.rs` or `version_tests.rs`, `test_parser.c`, a C suite's `tests.c`). isTestFile recognises tests by it, and nameStem strips it so a test pairs with its subject.
 */
const TEST_NAME_AFFIX: readonly (readonly [ext: RegExp, affix: RegExp])[] = [
  [PYTHON_FILE, /^test_(?=.)|(?<=.)_test$/],
  [GO_FILE, GO_TEST_AFFIX],
  [/\.rb$/, /(?<=.)_(spec|test)$/],
  // Rust's integration tests (tests/test_version.rs, tests/version_test.rs or _tests.rs) and test modules
  [RUST_FILE, /^test_(?=.)|(?<=.)_tests?$/],
  // C's and C++'s (`test_parser.c`, `parser_test.cpp`, `parser_tests.cc`) and a suite named for what it is (`tests.c`)
  [C_FAMILY_FILE, /^test_(?=.)|(?<=.)_tests?$|^tests?$/],
];

/** A file name's test affix by its language (TEST_NAME_AFFIX), or undefined where names mark no tests. */
const testAffixOf = (base: string): RegExp | undefined => TEST_NAME_AFFIX.find(([ext]) => ext.test(base))?.[1];

/**
 * The name stem a source file and its test share (`lib/adapters/fetch.js` and `test/unit/adapters/fetch.spec.js`;
 * `parser.py` and `tests/test_parser.py`, and the other languages' TEST_NAME_AFFIX).
 */
export function nameStem(relPath: string): string {
  const base = path.posix.basename(relPath).toLowerCase();
  const stem = base.replace(/\.[^.]+$/, '').replace(/\.(test|spec|d|test-d|spec-d)$/, '');
  const affix = testAffixOf(base);
  // a suite named for what it is (`tests.c`) keeps its name: it is no subject's twin
  return (affix && stem.replace(affix, '')) || stem;
}

/** A path of ASCII characters only (lower-casing one changes no length and maps each letter alone). */
const ASCII_PATH = /^[\0-\x7f]*$/;

/**
 * The paths whose nameStem is one of `stems`, by stem, each list in the order of `paths`. A stem is a part of the
 * lower-cased file name (nameStem cuts only its ends), so a name that holds none of them is passed over without
 * working out its own: the ranking looks for a few seeds' twins among tens of thousands of files. An ASCII path is
 * searched for the stems ignoring case, the whole path at once (no string made per file; a folder that holds one
 * only costs that file's stem); another path's lower-cased name is.
 */
export function filesByStem(paths: Iterable<string>, stems: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!stems.size) return out;
  const wanted = [...stems];
  const anyStem = new RegExp(wanted.map(escapeRegExp).join('|'), 'i');
  for (const p of paths) {
    if (ASCII_PATH.test(p) ? !anyStem.test(p) : !wanted.some((s) => path.posix.basename(p).toLowerCase().includes(s))) continue;
    const k = nameStem(p);
    if (!stems.has(k)) continue;
    const list = out.get(k);
    if (list) list.push(p);
    else out.set(k, [p]);
  }
  return out;
}

/** A Go test file (`x_test.go`) by its name alone, wherever it is: not part of the package its folder builds. */
export function isGoTestFile(relPath: string): boolean {
  return GO_FILE.test(relPath) && GO_TEST_AFFIX.test(path.posix.basename(relPath).slice(0, -'.go'.length));
}

/**
 * True for a type test, as tsd names them: under a `test-d/` folder, or named `*.test-d.*`, `*.spec-d.*`. It checks the
 * declared types of the names its stem shares (nameStem: `index.test-d.ts` those of `index.d.ts`).
 */
export function isTypeTest(relPath: string): boolean {
  return /(^|\/)tests?-d\//i.test(relPath) || /\.(test|spec)-d\.[^/]+$/i.test(relPath);
}

/**
 * True for a test file: under a test folder, or named `*.test.*`, `*.spec.*`, a type test (isTypeTest), or by Python's,
 * Go's and Ruby's conventions (TEST_NAME_AFFIX: `test_*.py`, `*_test.py`, `*_test.go`, `*_spec.rb`, `*_test.rb`). The
 * ranking pairs tests with their sources by it; fail-first (checks/failFirst.ts) applies these files alone.
 */
export function isTestFile(relPath: string): boolean {
  const base = path.posix.basename(relPath);
  return (
    /(^|\/)(__tests__|__test__|tests?|specs?|e2e)\//i.test(relPath) ||
    /\.(test|spec)\.[^/]+$/i.test(relPath) ||
    isTypeTest(relPath) ||
    !!testAffixOf(base)?.test(base.replace(/\.[^.]+$/, ''))
  );
}

/**
 * How a test file is named, as a pattern of its file name: the name with its subject's stem (nameStem) as `*`
 * (`ArticleList.spec.ts` → `*.spec.ts`, `test_core.py` → `test_*.py`, `parser_test.go` → `*_test.go`); a test known by
 * its folder alone keeps the extensions after the stem's first dot (`e2e/article.cy.ts` → `*.cy.ts`), and has none
 * (null) when that leaves its extension alone (`test/helpers.ts` → `*.ts` says nothing of a test's name). Init's
 * workspace facts say how a folder's tests are named by it.
 */
export function testNamePattern(relPath: string): string | null {
  const base = path.posix.basename(relPath);
  const stem = nameStem(relPath);
  const at = base.toLowerCase().indexOf(stem);
  const bare = base.replace(/\.[^.]+$/, '').toLowerCase();
  if (stem && at >= 0 && stem !== bare) return `${base.slice(0, at)}*${base.slice(at + stem.length)}`;
  const dot = base.indexOf('.', 1);
  if (dot < 0) return base;
  return base.indexOf('.', dot + 1) < 0 ? null : `*${base.slice(dot)}`;
}

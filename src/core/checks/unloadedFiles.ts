// The test files a run's runner reported failed before any test of theirs ran, so they did not load (a syntax error, a
// module or export they import that does not exist, a throw at their top level): what the test case reader
// (./testCases.ts testCaseReader) keeps of them as it reads the output's lines, instead of failing test cases —
// node:test's rule (its point for a whole file right after Node's crash footer) and the files, within a limit; and
// unittest's test modules that did not import (failedImports), whose stand-in tests are no cases either, and pytest's
// collection errors (PYTEST_UNCOLLECTED). The reader matches the runners' lines; run.ts passes the files on as
// CheckRun.unbuiltTestFiles.

/**
 * The last line Node writes when an uncaught error ends a process (`Node.js v20.20.2`; `# ` before it in node:test's
 * TAP): a test file whose process ends so before node:test's point for it never got to run a test — it did not load.
 * A test's own error is caught by the runner, and ends no process.
 */
const NODE_CRASHED = /^(?:#\s*)?Node\.js v\d+\.\d+\.\d+\s*$/;
/** A JavaScript or TypeScript file, as node:test names its point for a whole file (`test/a.test.mjs`). */
const SCRIPT_FILE = /^\S+\.[cm]?[jt]sx?$/;

/**
 * pytest's short summary line for a test file it could not collect (`ERROR tests/test_x.py - ImportError: cannot
 * import name 'spoil'`): named by the file alone, no `::` case — its module did not import, none of its tests ran. An
 * error of a case (`ERROR tests/test_x.py::test_db - fixture 'db' not found`) is that case's.
 */
export const PYTEST_UNCOLLECTED = /^ERROR (\S+?\.py)(?: - .*)?$/;

/** Files kept: an output of any length is read within it (a run naming more lacks the later ones). */
const MAX_FILES = 10_000;

/** The test files that did not load, gathered line by line by the test case reader (unloadedFiles). */
export interface UnloadedFiles {
  /** Whether the line is Node's crash footer (NODE_CRASHED), which names no test case: the next test point may be a crashed file's. */
  footer: (line: string) => boolean;
  /**
   * A test point the reader read (TAP's `ok` / `not ok`, a spec reporter's ✓ / ✖), with the name of the point when it
   * failed: whether it is node:test's report of a file that did not load — the point right after the crash footer,
   * failed, named by a script file — and so is kept here, no test case. Any point ends what the footer told.
   */
  point: (failedName: string | undefined) => boolean;
  /** A file its runner's own words say did not load (jest's `● Test suite failed to run` under its `FAIL` line, vitest's `❯ file (0 test)`). */
  add: (file: string) => void;
  /** Whether a case's name is a file that did not load (node:test's spec reporter names its point again under `✖ failing tests:`). */
  has: (name: string) => boolean;
  /** The files, as the output names them, in the order it first did. */
  files: () => string[];
}

/** An empty list of the test files that did not load, and node:test's crash state (see UnloadedFiles). */
export function unloadedFiles(): UnloadedFiles {
  let crashed = false; // Node's crash footer came after the last test point
  const files = new Set<string>();
  const add = (file: string) => {
    if (files.size < MAX_FILES) files.add(file);
  };
  return {
    footer: (line) => {
      if (!NODE_CRASHED.test(line)) return false;
      crashed = true;
      return true;
    },
    point: (failedName) => {
      const wasCrashed = crashed;
      crashed = false;
      if (!wasCrashed || failedName === undefined || !SCRIPT_FILE.test(failedName)) return false;
      add(failedName);
      return true;
    },
    add,
    has: (name) => files.has(name),
    files: () => [...files],
  };
}

/**
 * unittest's report of a test module it could not import (a module or name the module imports that does not exist, a
 * syntax error): `ImportError: Failed to import test module: tests.test_b` under an `ERROR:` header whose test is
 * `unittest.loader._FailedTest.tests.test_b`; the other modules' tests still run. The module's file: its traceback's
 * frame whose path ends with the module's own (`-s tests` names the module `test_b`, its frame `tests/test_b.py` — the
 * scratch copy's prefix is cut from the lines before they are read), else its dotted name as a path.
 */
const FAILED_IMPORT = /^ImportError: Failed to import test module: ([\w.]+)\s*$/;
/** A traceback frame's file, as Python prints it. */
const FRAME_FILE = /^\s*File "([^"]+)", line \d+/;
/** The ruled lines around unittest's failure blocks: one ends what a failed import's traceback may still tell. */
const BLOCK_RULE = /^(?:={20,}|-{20,})\s*$/;
/** unittest's stand-in test for a module it could not import: `test_b (unittest.loader._FailedTest.test_b)`. */
const FAILED_TEST = /\(unittest\.loader\._FailedTest\.([\w.]+)\)$/;

/** The test modules unittest could not import, read line by line (failedImports). */
export interface FailedImports {
  line: (line: string) => void;
  /** Their files, relative to where the run ran, in the order reported. */
  files: () => string[];
  /** Whether a case's name is the stand-in test of one of them (FAILED_TEST), no test case of the project. */
  isStandIn: (name: string) => boolean;
}

export function failedImports(): FailedImports {
  const modules = new Map<string, string>(); // module → its file
  let pending: { module: string; suffix: string } | null = null;
  return {
    line: (line) => {
      let m = FAILED_IMPORT.exec(line);
      if (m) {
        if (modules.size >= MAX_FILES) return;
        const asPath = m[1].replace(/\./g, '/');
        modules.set(m[1], `${asPath}.py`);
        pending = { module: m[1], suffix: asPath };
        return;
      }
      if (!pending) return;
      if (BLOCK_RULE.test(line)) pending = null;
      else if ((m = FRAME_FILE.exec(line))) {
        const file = m[1].replace(/\\/g, '/').replace(/^\.\//, '');
        const own = [`${pending.suffix}.py`, `${pending.suffix}/__init__.py`].find((s) => file === s || file.endsWith(`/${s}`));
        // a relative path inside the run's folder only: an absolute one is outside the scratch copy
        if (own && !file.startsWith('/') && !/^[A-Za-z]:/.test(file) && !file.split('/').includes('..')) {
          modules.set(pending.module, file);
          pending = null;
        }
      }
    },
    files: () => [...new Set(modules.values())],
    isStandIn: (name) => {
      const m = FAILED_TEST.exec(name);
      return !!m && modules.has(m[1]);
    },
  };
}

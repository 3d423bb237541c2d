// The JavaScript test files a run's runner reported failed before any test of theirs ran, so they did not load (a
// syntax error, a module or export they import that does not exist, a throw at their top level): what the test case
// reader (./testCases.ts testCaseReader) keeps of them as it reads the output's lines, instead of failing test cases —
// node:test's rule (its point for a whole file right after Node's crash footer) and the files, within a limit. The
// reader matches the runners' lines; run.ts passes the files on as CheckRun.unbuiltTestFiles.

/**
 * The last line Node writes when an uncaught error ends a process (`Node.js v20.20.2`; `# ` before it in node:test's
 * TAP): a test file whose process ends so before node:test's point for it never got to run a test — it did not load.
 * A test's own error is caught by the runner, and ends no process.
 */
const NODE_CRASHED = /^(?:#\s*)?Node\.js v\d+\.\d+\.\d+\s*$/;
/** A JavaScript or TypeScript file, as node:test names its point for a whole file (`test/a.test.mjs`). */
const SCRIPT_FILE = /^\S+\.[cm]?[jt]sx?$/;

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

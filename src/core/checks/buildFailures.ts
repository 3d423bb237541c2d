// What a check's output says when code or a test did not build or load, so none of its tests ran: the toolchains'
// words (BUILD_FAILURES), for `go test` which packages and folders they were, for `cargo test` which integration-test
// targets, each with its crate's folder (cargo's `Compiling` line for its package), read line by line as the whole
// output arrives (buildFailureReader: run.ts; CheckRun.unbuilt, .unbuiltGoPackages, .unbuiltGoFolders,
// .unbuiltCargoTests), and the JavaScript test files that did not load (CheckRun.unbuiltTestFiles), which the test case
// reader reads (./testCases.ts, ./unloadedFiles.ts). The baseline (a build failure new with the proposal is not a
// failure as before) and TSR read them.
import type { CheckRun } from './types';
import type { CargoTarget } from './cargoTargetMatch';
import { readAllLines } from '../text/lines';
import { runFolder, workspacePath } from './runFolder';
import { testCaseReader, type TestCaseReader } from './testCases';

/** go test's line for a package it could not build: `FAIL example.com/calc [build failed]`. */
const GO_UNBUILT = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/m;

/** The compiler naming a Go file at a line's start (`calc/sq_test.go:6:5: undefined: Sq`, `./x.go:1:2: …`): its folder. */
const GO_FILE_LINE = /^(?:\.\/)?((?:[\w@.-]+\/)*)[\w@.-]+\.go:\d+(?::\d+)?: /;

/** cargo's line for an integration-test target it could not compile: ``error: could not compile `calc` (test "test_mul") …``: its package, its name. */
const CARGO_UNBUILT_TEST = /^error: could not compile `([^`]*)` \(test "([^"]+)"\)/;

/**
 * cargo's line for a package of a path it compiles (the crate, a workspace member): `   Compiling calc v0.1.0 (core)`,
 * the folder workspace-relative as output.ts cleanOutput leaves it (`.` for the workspace's own); a registry crate has
 * no folder.
 */
const CARGO_COMPILING = /^\s*Compiling (\S+) v\S+ \((.+)\)\s*$/;

/** Names of each kind a reader keeps (Go packages and folders, cargo packages and targets): an output of any length is read within it. */
const MAX_NAMES = 10_000;

/**
 * A C or C++ compiler's error at a line's start, as GCC and Clang write it (`tests.c:880:5: error: unknown type name
 * 'JSON_Parse_Error'`, `fatal error: x.h: No such file or directory`) or MSVC (`parson.c(12): error C2065: …`): the
 * program a Makefile's test target builds did not build, so none of its tests ran (a parson trial's fail-first run read
 * as tests failing).
 */
const C_COMPILE_ERROR = /^[\w./\\-]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm)(?::\d+){1,2}: (?:fatal )?error: |^[\w./\\-]+\.(?:c|cc|cpp|cxx|h|hpp)\(\d+\): (?:fatal )?error C\d{4}:/m;

/**
 * What a run's output says when code or a test did not build or load, so no test of it ran: Go's `FAIL pkg [build
 * failed]`, cargo's `error: could not compile`, pytest's collection errors, unittest's `Failed to import test module`,
 * Maven's `COMPILATION ERROR`, Gradle's failed compile task, .NET's `error CS…` with `Build FAILED` (a list: each found
 * anywhere — one pattern spanning both, `[\s\S]*` between them, took time quadratic in the output from every `error
 * CS`), jest's `Test suite failed to run`, vitest's `Failed to load url` / `Failed to resolve import`, mocha's
 * `Exception during run:` (a test file it could not load stops the run before any test), a C or C++ compiler's or
 * linker's error (C_COMPILE_ERROR; `undefined reference to`, `ld returned 1 exit status`), CMake's (`CMake Error at
 * CMakeLists.txt:12 (add_executable):` — a build that did not configure ran no test), and a Node module that
 * cannot be found. A JavaScript test file that did not load beside others that ran is one too (failedToBuild).
 */
const BUILD_FAILURES: readonly (RegExp | readonly RegExp[])[] = [
  GO_UNBUILT,
  /^error: could not compile `/m,
  /^_+ ERROR collecting |\b[1-9]\d* errors? during collection\b|^ImportError: Failed to import test module/m,
  /\bCOMPILATION ERROR\b/,
  /^> Task :\S*compile\w*(?:Java|Kotlin|Groovy|Scala) FAILED$/m,
  [/\berror CS\d{4}:/, /\bBuild FAILED\b/],
  /\bTest suite failed to run\b/,
  /\bFailed to (?:load url|resolve import)\b/,
  /^[ \t]*Exception during run: /,
  C_COMPILE_ERROR,
  /\bundefined reference to [`']|\bld returned \d+ exit status\b|^Undefined symbols for architecture |\berror: linker command failed\b/m,
  /^CMake Error\b/m,
];

/**
 * A Node module that cannot be found (MISSING_MODULE) — unless Node's main-module frame (`run_main_module`) or an empty
 * `requireStack: []` follows it within MAIN_MODULE_LINES lines (a runner may quote the code between): then it is the
 * script Node was asked to run, not a module a test or the code requires — a test that spawns
 * `node examples/summary.js`, an example the change adds, fails there as a test case, its child's error in the output,
 * and a fail-first trial on commander.js read the whole run as "did not build or load".
 */
const MISSING_MODULE = /\bError: Cannot find module\b|\bERR_MODULE_NOT_FOUND\b/;
const MAIN_MODULE = /^\s*requireStack: \[\]|\bnode:internal\/main\/run_main_module\b/;
const MAIN_MODULE_LINES = 24;

/** What a run's output says of its build, read line by line (buildFailureReader). */
export interface BuildFailureReader {
  line: (line: string) => void;
  /** Whether the lines show code or a test did not build or load in the toolchains' words (BUILD_FAILURES). */
  failed: () => boolean;
  /** The Go packages `go test` could not build (GO_UNBUILT), by import path. */
  goPackages: () => string[];
  /**
   * The folders of the Go packages `go test` could not build: of each Go file the compiler named (GO_FILE_LINE), when
   * a package did not build (none otherwise). None of such a package's tests ran, whichever of its files the error names.
   */
  goFolders: () => string[];
  /**
   * The integration-test targets cargo could not compile (CARGO_UNBUILT_TEST), each with its crate's folder where a
   * `Compiling` line (CARGO_COMPILING) named its package's: a member's `tests/api.rs` is not another member's.
   */
  cargoTests: () => CargoTarget[];
}

/**
 * Reads an output's lines as they arrive (`line`; run.ts feeds it the whole stream, as it feeds the test case reader),
 * and tells at the end what they show of the build: BUILD_FAILURES, each pattern tried on one line (a list's patterns
 * each on a line of its own), in a few flags; the Go packages and folders, at most MAX_NAMES of each (a run naming
 * more lacks the later ones).
 */
export function buildFailureReader(): BuildFailureReader {
  let failed = false;
  const found = BUILD_FAILURES.map((r) => (r instanceof RegExp ? [false] : r.map(() => false)));
  const packages = new Set<string>();
  const folders = new Set<string>();
  // a cargo package's folder by its name; the targets not compiled as `package\ttarget`
  const crates = new Map<string, string>();
  const cargoTests = new Set<string>();
  // the lines since a missing module not yet known to be a load failure (MISSING_MODULE), -1 for none
  let sinceModule = -1;
  const keep = (names: Set<string>, name: string | undefined) => {
    if (name !== undefined && names.size < MAX_NAMES) names.add(name);
  };
  return {
    line: (line) => {
      keep(packages, GO_UNBUILT.exec(line)?.[1]);
      keep(folders, GO_FILE_LINE.exec(line)?.[1].replace(/\/$/, ''));
      const unbuiltTest = CARGO_UNBUILT_TEST.exec(line);
      keep(cargoTests, unbuiltTest ? `${unbuiltTest[1]}\t${unbuiltTest[2]}` : undefined);
      const compiling = CARGO_COMPILING.exec(line);
      if (compiling && crates.size < MAX_NAMES) crates.set(compiling[1], crateFolder(compiling[2]));
      if (failed) return;
      if (sinceModule >= 0 && MAIN_MODULE.test(line)) sinceModule = -1;
      else if (sinceModule >= 0 && ++sinceModule > MAIN_MODULE_LINES) failed = true;
      if (sinceModule < 0 && MISSING_MODULE.test(line)) sinceModule = 0;
      BUILD_FAILURES.forEach((r, i) => {
        const patterns = r instanceof RegExp ? [r] : r;
        patterns.forEach((p, j) => (found[i][j] ||= p.test(line)));
      });
      failed ||= found.some((f) => f.every(Boolean));
    },
    failed: () => failed || sinceModule >= 0,
    goPackages: () => [...packages],
    goFolders: () => (packages.size ? [...folders] : []),
    cargoTests: () =>
      [...cargoTests].map((key) => {
        const [pkg, name] = key.split('\t');
        const crate = crates.get(pkg);
        return crate === undefined ? { name } : { crate, name };
      }),
  };
}

/** A `Compiling` line's folder as a CargoTarget's crate: `/`-separated, '' for the workspace's own (`.`). */
function crateFolder(written: string): string {
  const folder = written.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '');
  return folder === '.' ? '' : folder;
}

/**
 * Whether a run's lines show code or a test did not build or load: the toolchains' words (`build`), or a JavaScript test
 * file its runner reported did not load (`tests`, the test case reader of the same lines).
 */
export function failedToBuild(build: BuildFailureReader, tests: TestCaseReader): boolean {
  return build.failed() || tests.unloadedFiles().length > 0;
}

/** Whether a whole output shows code or a test did not build or load (failedToBuild, its readers over its lines). */
export function buildFailed(output: string): boolean {
  return failedToBuild(readAllLines(buildFailureReader(), output), readAllLines(testCaseReader(), output));
}

/** The Go packages a whole `go test` output says it could not build, by import path (buildFailureReader over its lines). */
export function unbuiltGoPackages(output: string): Set<string> {
  return new Set(readAllLines(buildFailureReader(), output).goPackages());
}

/** The folders of the Go packages a whole `go test` output says it could not build (buildFailureReader over its lines). */
export function unbuiltGoFolders(output: string): Set<string> {
  return new Set(readAllLines(buildFailureReader(), output).goFolders());
}

/**
 * The Go packages a run could not build, by import path: read from its whole output as it arrived
 * (CheckRun.unbuiltGoPackages), or, for a run that passed or was recorded before, from its kept `output`.
 */
export function runUnbuiltGoPackages(run: Pick<CheckRun, 'output' | 'unbuiltGoPackages'>): Set<string> {
  return run.unbuiltGoPackages ? new Set(run.unbuiltGoPackages) : unbuiltGoPackages(run.output);
}

/**
 * The cargo integration-test targets a run could not compile, with their crates: read from its whole output as it
 * arrived (CheckRun.unbuiltCargoTests), or, for a run that passed or was recorded before, from its kept `output`. A
 * run saved before targets had crates kept their bare names: each is read as a target of that name in any crate.
 */
export function runUnbuiltCargoTests(run: Pick<CheckRun, 'output' | 'unbuiltCargoTests'>): CargoTarget[] {
  const kept: readonly (CargoTarget | string)[] | undefined = run.unbuiltCargoTests;
  return kept ? kept.map((u) => (typeof u === 'string' ? { name: u } : u)) : readAllLines(buildFailureReader(), run.output).cargoTests();
}

/**
 * The test files a run reported did not load, workspace-relative: read from its whole output as it arrived
 * (CheckRun.unbuiltTestFiles), or, for a run that passed or was recorded before, from its kept `output` (a run in a
 * sub-project's folder names them from there: runFolder.ts).
 */
export function runUnbuiltTestFiles(run: Pick<CheckRun, 'command' | 'output' | 'unbuiltTestFiles'>): Set<string> {
  if (run.unbuiltTestFiles) return new Set(run.unbuiltTestFiles);
  const folder = runFolder(run.command);
  return new Set(readAllLines(testCaseReader(), run.output).unloadedFiles().map((f) => workspacePath(folder, f)));
}

/**
 * Their folders, workspace-relative, as runUnbuiltGoPackages reads them (CheckRun.unbuiltGoFolders, or the kept
 * `output`, whose paths a run in a sub-project's folder writes from there: runFolder.ts).
 */
export function runUnbuiltGoFolders(run: Pick<CheckRun, 'command' | 'output' | 'unbuiltGoFolders'>): Set<string> {
  if (run.unbuiltGoFolders) return new Set(run.unbuiltGoFolders);
  const folder = runFolder(run.command);
  return new Set([...unbuiltGoFolders(run.output)].map((f) => workspacePath(folder, f)));
}

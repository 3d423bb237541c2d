// What a check's output says when code or a test did not build or load, so none of its tests ran: the toolchains'
// words (BUILD_FAILURES), read line by line as the whole output arrives (buildFailureReader: run.ts, CheckRun.unbuilt),
// and for `go test` which packages and folders they were. The baseline (a build failure new with the proposal is not a
// failure as before) and TSR read them; the test cases a run names are ./testCases.ts's.

/** go test's line for a package it could not build: `FAIL example.com/calc [build failed]`. */
const GO_UNBUILT = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/m;

/** The Go packages a `go test` run could not build (GO_UNBUILT), by import path. */
export function unbuiltGoPackages(output: string): Set<string> {
  return new Set([...output.matchAll(new RegExp(GO_UNBUILT.source, 'gm'))].map((m) => m[1]));
}

/**
 * What a run's output says when code or a test did not build or load, so no test of it ran: Go's `FAIL pkg [build
 * failed]`, cargo's `error: could not compile`, pytest's collection errors, unittest's `Failed to import test module`,
 * Maven's `COMPILATION ERROR`, Gradle's failed compile task, .NET's `error CS…` with `Build FAILED` (a list: each found
 * anywhere — one pattern spanning both, `[\s\S]*` between them, took time quadratic in the output from every `error
 * CS`), jest's `Test suite failed to run`, vitest's `Failed to load url` / `Failed to resolve import`, and a Node
 * module that cannot be found.
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
  /\bError: Cannot find module\b|\bERR_MODULE_NOT_FOUND\b/,
];

/**
 * Reads an output's lines as they arrive (`line`; run.ts feeds it the whole stream, as it feeds the test case reader),
 * and tells at the end whether they show code or a test did not build or load (`failed`: BUILD_FAILURES, each pattern
 * tried on one line; a list's patterns each on a line of its own). A few flags of memory, whatever the output's length.
 */
export function buildFailureReader(): { line: (line: string) => void; failed: () => boolean } {
  let failed = false;
  const found = BUILD_FAILURES.map((r) => (r instanceof RegExp ? [false] : r.map(() => false)));
  return {
    line: (line) => {
      if (failed) return;
      BUILD_FAILURES.forEach((r, i) => {
        const patterns = r instanceof RegExp ? [r] : r;
        patterns.forEach((p, j) => (found[i][j] ||= p.test(line)));
      });
      failed = found.some((f) => f.every(Boolean));
    },
    failed: () => failed,
  };
}

/** Whether a whole output shows code or a test did not build or load (buildFailureReader over its lines). */
export function buildFailed(output: string): boolean {
  const reader = buildFailureReader();
  for (const line of output.split('\n')) reader.line(line);
  return reader.failed();
}

/**
 * The folder of the Go package a `go test` run could not build (`FAIL example.com/calc [build failed]`, the compiler
 * naming `calc/sq_test.go:6:5`): none of the package's tests ran, whichever of its files the error names.
 */
export function unbuiltGoFolders(output: string): Set<string> {
  const out = new Set<string>();
  if (!GO_UNBUILT.test(output)) return out;
  for (const m of output.matchAll(/^(?:\.\/)?((?:[\w@.-]+\/)*)[\w@.-]+\.go:\d+(?::\d+)?: /gm)) out.add(m[1].replace(/\/$/, ''));
  return out;
}

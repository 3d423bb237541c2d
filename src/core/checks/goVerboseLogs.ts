// A failed Go test's message under `go test -v`, where a test's log comes before its verdict: each `=== RUN`, `=== CONT`
// or `=== NAME` line says whose log the lines after it are (t.Parallel's tests resume with `=== CONT`), and the first
// log line (`    calc_test.go:7: Add(2, 3) = 6, want 5`) seen for a test is its message when the test case reader reads its
// `--- FAIL:` line (testLineFormats.ts). Without -v no such line is written and the log follows the verdict
// (failureMessages.ts reads it there).
/** `=== RUN   TestTable/one`, `=== CONT  TestPar1`, `=== NAME  TestPar1` (Go 1.20+): the test whose lines follow. */
const GO_TEST_START = /^=== (RUN|CONT|NAME)\s+(\S+)\s*$/;
/** A test's log line: `    calc_test.go:7: message`. */
export const GO_TEST_LOG = /^\s*[\w.-]+_test\.go:\d+: \S/;
/** A package's end (`ok  \tpkg\t0.1s`, `FAIL\tpkg\t0.1s`, or `PASS` / `FAIL` alone): its tests' names are free again. */
const GO_PACKAGE_END = /^(?:ok|FAIL)\s+\S+\s|^(?:PASS|FAIL)$/;
/** Tests whose first log line is kept at once; past it, none more (an output of thousands of tests logging). */
const MAX_TESTS = 10_000;

export interface GoVerboseLogs {
  /** Each line of the output, in order. */
  line: (line: string) => void;
  /** The first log line the test of that name wrote before its verdict, if -v showed one. */
  logOf: (name: string) => string | undefined;
}

export function goVerboseLogs(): GoVerboseLogs {
  const logs = new Map<string, string | null>(); // a test's first log line (null: none yet), by its name
  let current: string | undefined; // the test the next log lines are of
  return {
    line: (line) => {
      let m: RegExpExecArray | null;
      if ((m = GO_TEST_START.exec(line))) {
        current = m[2];
        // a RUN starts the test: a log kept under its name is another package's test of the same name
        if (m[1] === 'RUN' || !logs.has(current)) {
          logs.delete(current);
          if (logs.size < MAX_TESTS) logs.set(current, null);
        }
      } else if (current !== undefined && GO_TEST_LOG.test(line)) {
        if (logs.get(current) === null) logs.set(current, line.trim());
      } else if (GO_PACKAGE_END.test(line)) {
        logs.clear();
        current = undefined;
      }
    },
    logOf: (name) => logs.get(name) ?? undefined,
  };
}

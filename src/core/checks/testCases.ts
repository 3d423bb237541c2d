// The test cases a check's run names, recognised as passed or failed, whatever the project's language: the spec
// reporters of mocha, jest, vitest and node:test (and the failure headers of jest's and vitest's default ones), TAP,
// pytest, Python's unittest, `go test`, `cargo test`, RSpec, Gradle, Maven Surefire and `dotnet test`. What reads them:
// the baseline (a failure already there names the same failing cases), the fix request (which cases fail), TSR (DevA's
// named tests) and fail-first; ./testNames.ts tells which of them a test DevA named is.
//
// Some runs name every case (spec reporters, `pytest -v`, `go test -v`, `cargo test`); others only the failing ones
// (pytest's and RSpec's summaries, `go test` without -v, mocha's dot reporter). `listsPassed` tells them apart: where
// only failures are named, a case the output does not name did not fail. The runners whose lines name a case plainly
// are listed in ./testLineFormats.ts, the lines of the reporters that mark each case in ./reporterLines.ts. A
// JavaScript test file its runner reported failed before any test of it ran did not load: it is no failing case, but
// one of the reader's unloadedFiles (./unloadedFiles.ts). A failed case whose own message says only that a name the
// test uses was missing (./failureMessages.ts) keeps that name (TestCaseResult.missing).
import type { CheckRun, TestCaseResult } from './types';
import { GO_PACKAGE, LINE_FORMATS, goCaseName } from './testLineFormats';
import { DURATION, ESLINT_SUMMARY, FAIL, JEST_FAILURE, JEST_FILE, JEST_SUITE_FAILED, NO_TEST_COLLECTED, NUMBERED_FAIL, PASS, POSITIONED_DIAGNOSTIC, SPEC_FAILURES_HEADING, SPEC_SUITE, TAP, TAP_SUITE, VITEST_FAILED_FILE, VITEST_FILE, VITEST_FILE_PREFIX, VITEST_PASSED } from './reporterLines';
import { sliceWhole } from '../text/cut';
import { readAllLines } from '../text/lines';
import { runFolder, workspacePath } from './runFolder';
import { failedImports, PYTEST_UNCOLLECTED, unloadedFiles } from './unloadedFiles';
import { failureMessageReader, messageSays, missingNames, recordWhy, type FailureRecord, type Follows } from './failureMessages';
import type { MissingName } from '../model/types';

/**
 * A longer line is read by its first and last MAX_LINE / 2 characters, a '…' between them: a case's name (at most
 * 500) lies in its beginning, its verdict at its end (unittest's `... ok` after a subTest's long parameters), what
 * lies between (a failure's message on pytest's summary line) names nothing, and the mark keeps a name from running
 * across the cut. Nothing in a line of megabytes is tried again and again.
 */
const MAX_LINE = 2000;

/** A line of a run's output as it is read: past MAX_LINE characters, by its two ends (see MAX_LINE), trailing blanks aside. */
export function cutLine(line: string): string {
  if (line.length <= MAX_LINE) return line;
  const l = line.trimEnd();
  return l.length > MAX_LINE ? `${sliceWhole(l, 0, MAX_LINE / 2)}…${sliceWhole(l, l.length - MAX_LINE / 2)}` : l;
}

/** The longest name of a test case, or of a test file, a run keeps: a longer one is no name, but a line's text. */
const MAX_NAME = 500;

/** Test files a run keeps of those it reports passed as a whole (passedFileReader): an output of any length is read within it. */
const MAX_PASSED_FILES = 10_000;

/** The test file a line reports passed as a whole (see passedFileReader), `./` left out; undefined when it reports none. */
function passedTestFile(whole: string): string | undefined {
  const line = cutLine(whole);
  const jest = JEST_FILE.exec(line);
  const vitest = jest ? null : VITEST_PASSED.exec(line);
  const file = jest?.[1] === 'PASS' ? jest[2] : vitest ? VITEST_FILE.exec(vitest[1])?.[1] : undefined;
  return file?.replace(/^\.\//, '');
}

/**
 * Reads the test files a run reports passed as a whole, without naming their cases, line by line as the output
 * arrives (run.ts feeds it the whole stream: CheckRun.passedTestFiles): jest's `PASS tests/a.test.js` (its default
 * reporter over several files) and vitest's `✓ test/a.test.ts (3 tests) 5ms`. A named test in such a file passed,
 * though the run failed elsewhere and the output names the file. At most MAX_PASSED_FILES files, each of at most
 * MAX_NAME characters, are kept: a run reporting more lacks the later ones.
 */
export function passedFileReader(): { line: (line: string) => void; files: () => string[] } {
  const files = new Set<string>();
  return {
    line: (line) => {
      if (files.size >= MAX_PASSED_FILES) return;
      const file = passedTestFile(line);
      if (file && file.length <= MAX_NAME) files.add(file);
    },
    files: () => [...files],
  };
}

/** The test files a whole output reports passed as a whole (passedFileReader over its lines). */
export function passedTestFiles(output: string): Set<string> {
  return new Set(readAllLines(passedFileReader(), output).files());
}

/**
 * The test files a run reports passed as a whole, workspace-relative: read from its whole output as it arrived
 * (CheckRun.passedTestFiles), or, for a run that passed or was recorded before, from its kept `output` (a run in a
 * sub-project's folder names them from there: runFolder.ts).
 */
export function runPassedFiles(run: Pick<CheckRun, 'command' | 'output' | 'passedTestFiles'>): Set<string> {
  if (run.passedTestFiles) return new Set(run.passedTestFiles);
  const folder = runFolder(run.command);
  return new Set([...passedTestFiles(run.output)].map((f) => workspacePath(folder, f)));
}

export interface TestCases {
  cases: TestCaseResult[];
  /** Whether the output names passing cases too (else a case it does not name did not fail). */
  listsPassed: boolean;
  /** The output named more than MAX_NAMED cases and suites: those after them were not read. */
  incomplete?: true;
}

/** Cases (each time a line names one) and suites a reader keeps: an output of any length is read within it. */
const MAX_NAMED = 200_000;

/**
 * Reads a run's test cases line by line as the output arrives (run.ts: the whole stream, not only the part of it
 * kept): `line` for each line, `result` and `unloadedFiles` once at the end.
 */
export interface TestCaseReader {
  line: (line: string) => void;
  result: () => TestCases | undefined;
  /** The test files the runner reported failed before any test of theirs ran, as the output names them: they did not load (./unloadedFiles.ts), no case of `result`. */
  unloadedFiles: () => string[];
}

/** Test cases named in a run's output (see the header), read at once. */
export function readTestCases(text: string): TestCases | undefined {
  return readAllLines(testCaseReader(), text).result();
}

/**
 * The reader of the test cases named in a run's output (see the header). Skips and todos are left out; a TAP point
 * whose YAML block says `type: 'suite'` (node:test's describe()) is a group, not a test case, as is a `▶` block of its
 * spec reporter; after mocha's "N failing" the numbered items repeat failures with their suites. A name reported both
 * ways counts as failed. Its result is undefined when nothing was recognised.
 */
export function testCaseReader(): TestCaseReader {
  const order: string[] = [];
  const state = new Map<string, boolean>();
  const whys = new Map<string, FailureRecord>(); // what a failed case's messages said (failureMessages.ts), by its name
  const unloaded = unloadedFiles();
  const imports = failedImports(); // unittest's test modules that did not import: files that did not load
  const messages = failureMessageReader();
  const note = (raw: string, passed: boolean, why?: MissingName | null, said?: string) => {
    const name = raw.replace(DURATION, '').replace(/:$/, '').trim();
    // a failure named by a file that did not load is its point again (node:test's `✖ failing tests:`), no case
    if (!name || name.length > MAX_NAME || (!passed && unloaded.has(name))) return;
    if (!state.has(name)) order.push(name);
    state.set(name, passed && state.get(name) !== false);
    if (why === undefined) return;
    if (!whys.has(name)) whys.set(name, {});
    recordWhy(whys.get(name)!, why, said);
  };
  const found: ({ name: string; passed: boolean; suite?: boolean } & FailureRecord)[] = [];
  // a failed case just named: its message may follow (failureMessages.ts)
  const failedCase = (f: (typeof found)[number], follows?: Follows) => {
    found.push(f);
    messages.failed(f, follows, f.name);
  };
  let lastTap: (typeof found)[number] | null = null; // the TAP point whose YAML block the lines may still be in
  let mochaSummary = false; // after mocha's "N failing" the numbered items name suites, then the test (NUMBERED_FAIL)
  const mochaNumbered = new Map<string, (typeof found)[number]>(); // a spec reporter's `N) title` line, by its number
  let mochaTitle: { n: string; parts: string[] } | null = null; // the failure list's title being read
  const titled = (t: { n: string; parts: string[] }) => {
    const name = t.parts.join(' ').replace(/:$/, '');
    const f = mochaNumbered.get(t.n);
    if (f) {
      f.name = name;
      messages.failed(f);
    } else failedCase({ name, passed: false });
  };
  let listsPassed = false;
  let jestFile = ''; // the file of jest's last `FAIL` line ('' after a `PASS` one)
  const specSuites = new Set<string>(); // node:test's describe() blocks (SPEC_SUITE)
  const goCases = new Map<(typeof found)[number], string>(); // a Go case and its package (GO_PACKAGE)
  let goPending: (typeof found)[number][] = []; // Go cases whose package line is still to come
  let incomplete = false;
  const read = (whole: string): void => {
    if (found.length + specSuites.size >= MAX_NAMED) {
      incomplete = true;
      return;
    }
    const line = cutLine(whole);
    messages.line(line);
    imports.line(line);
    let m: RegExpExecArray | null;
    const part = line.trim();
    if (!part) {
      mochaTitle = null; // a blank line ends mocha's failure title, and names nothing
      return;
    }
    if (/^\s*\d+ failing\b/.test(line)) mochaSummary = true;
    if (mochaTitle) {
      if (mochaTitle.parts.length >= 20) mochaTitle = null;
      else {
        mochaTitle.parts.push(part);
        if (part.endsWith(':')) {
          titled(mochaTitle);
          mochaTitle = null;
        }
        return;
      }
    }
    if (unloaded.footer(line)) return;
    if ((m = GO_PACKAGE.exec(line))) {
      for (const f of goPending) goCases.set(f, m[1]);
      goPending = [];
    }
    if ((m = JEST_FILE.exec(line))) jestFile = m[1] === 'FAIL' ? m[2] : '';
    if ((m = JEST_FAILURE.exec(line))) {
      if (m[1] === 'Console') return;
      if (m[1] !== JEST_SUITE_FAILED) failedCase({ name: m[1], passed: false });
      // the file of the `FAIL` line before it did not load; with no such line, no file to name: a failed case still
      else if (jestFile) unloaded.add(jestFile);
      else found.push({ name: `a test file › ${JEST_SUITE_FAILED}`, passed: false });
      return;
    }
    if ((m = TAP.exec(line))) {
      lastTap = null;
      const fileUnloaded = unloaded.point(m[1] ? m[2] : undefined);
      if (/#\s*(skip|todo)\b/i.test(m[2])) return;
      listsPassed = true; // TAP names every point, though this one may be a file that did not load
      if (fileUnloaded) return;
      // eslint-disable-next-line regexp/no-super-linear-move -- a TAP line, cut to 2,000 characters (cutLine) before it is read
      lastTap = { name: m[2].replace(/\s+#.*$/, ''), passed: !m[1] };
      if (m[1]) failedCase(lastTap, 'tap');
      else found.push(lastTap);
      return;
    }
    if (lastTap && TAP_SUITE.test(line)) {
      lastTap.suite = true;
      return;
    }
    if (/^\s*# Subtest:/.test(line)) {
      lastTap = null;
      return;
    }
    // a test file pytest could not collect did not load: no case
    if ((m = PYTEST_UNCOLLECTED.exec(line))) return unloaded.add(m[1]);
    for (const f of LINE_FORMATS) {
      if (!(m = f.re.exec(line))) continue;
      const verdict = f.verdict ? m[f.verdict] : '';
      if (f.skipped?.test(verdict)) return;
      const passed = f.verdict !== undefined && !f.failed?.test(verdict);
      const c = { name: f.label ? f.label(m) : m[f.name], passed };
      if (passed) found.push(c);
      // pytest's summary gives the message on the case's line
      else if (f.message && m[f.message]) found.push({ ...c, ...messageSays(m[f.message]) });
      else failedCase(c, f.traceback ? 'traceback' : f.panic ? 'panic' : f.goPackaged ? 'go' : undefined);
      if (f.goPackaged) goPending.push(found[found.length - 1]);
      if (passed || f.listsPassed) listsPassed = true;
      return;
    }
    if ((m = SPEC_SUITE.exec(line))) specSuites.add(m[1].replace(DURATION, ''));
    else if (SPEC_FAILURES_HEADING.test(line) || ESLINT_SUMMARY.test(line) || POSITIONED_DIAGNOSTIC.test(line)) return;
    else if ((m = VITEST_FAILED_FILE.exec(line)) && NO_TEST_COLLECTED.test(m[1]) && (m = VITEST_FILE.exec(m[1]))) unloaded.add(m[1]);
    else if ((m = PASS.exec(line))) {
      unloaded.point(undefined);
      if (VITEST_FILE.test(m[1])) return;
      found.push({ name: m[1], passed: true, suite: specSuites.has(m[1].replace(DURATION, '')) });
      listsPassed = true;
    } else if ((m = FAIL.exec(line))) {
      const name = m[1].replace(DURATION, '');
      if (!unloaded.point(name)) failedCase({ name: m[1], passed: false, suite: specSuites.has(name) });
    } else if ((m = NUMBERED_FAIL.exec(line))) {
      if (!mochaSummary) {
        failedCase({ name: m[2], passed: false });
        mochaNumbered.set(m[1], found[found.length - 1]);
      } else if (m[2].endsWith(':')) titled({ n: m[1], parts: [m[2]] });
      else mochaTitle = { n: m[1], parts: [m[2]] };
    }
  };
  const result = (): TestCases | undefined => {
    for (const [f, pkg] of goCases) f.name = goCaseName(pkg, f.name);
    // a case vitest named by its spec line and again with its file (`FAIL  test/calc.test.ts > calc > multiplies`)
    // counts once: vitest 3's spec line names its suites (`× calc > multiplies`), vitest 4's only the case, indented
    // under them (`× multiplies`), so any tail of the file line's path after a ` > ` may be the spec line's name
    const failed = new Set(found.filter((f) => !f.passed).map((f) => f.name.replace(DURATION, '').trim()));
    const specName = (f: (typeof found)[number]) => {
      if (!VITEST_FILE_PREFIX.test(f.name)) return undefined;
      const parts = f.name.replace(VITEST_FILE_PREFIX, '').split(' > ');
      return parts.map((_, i) => parts.slice(i).join(' > ')).find((tail) => failed.has(tail));
    };
    const fileLines: [string, FailureRecord][] = []; // what the file line's message said is the spec line's case's
    for (const f of found) {
      // unittest's stand-in test for a module it could not import is that file's failure to load, no case
      if (f.suite || imports.isStandIn(f.name)) continue;
      const spec = specName(f);
      if (spec === undefined) note(f.name, f.passed, f.why, f.said);
      else if (f.why !== undefined) fileLines.push([spec, f]);
    }
    for (const [name, f] of fileLines) if (state.has(name)) note(name, false, f.why, f.said);
    if (!order.length) return undefined;
    const why = missingNames(order, state, whys);
    const said = (name: string) => (state.get(name) === false ? whys.get(name)?.said : undefined);
    return {
      cases: order.map((name) => ({ name, passed: state.get(name)!, ...(why.has(name) ? { missing: why.get(name) } : {}), ...(said(name) ? { message: said(name) } : {}) })),
      listsPassed,
      ...(incomplete ? { incomplete: true as const } : {}),
    };
  };
  return { line: read, result, unloadedFiles: () => [...new Set([...unloaded.files(), ...imports.files()])] };
}

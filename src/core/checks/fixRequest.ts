// The user message of a fix round (fixRequest): what DevA reads when the project's checks fail on its proposal —
// each failing command with how it ended, what its runner reported of the test cases (and of the tests DevA named
// for the criteria), how it fared on the unchanged workspace (baseline.ts), its trimmed output, and what the project's
// formatter or a check that fixes as it runs changed in its files (a fixing check's text shown whole: the output
// speaks of it). Split from loop.ts, which sends it.
import type { CheckRun, TakenChange } from './types';
import type { ProposedFile } from '../model/types';
import { lineWithin } from '../text';
import { wholeFileBlock } from '../workspace/sectionBlocks';
import { runPassedFiles } from './testCases';
import { casesOfTest } from './testNames';
import { reachesFile, runFolder } from './runFolder';
import { baselineLines, failingBefore } from './baseline';
import { DID_NOT_LOAD, runStatusWord, takenSaying, unloadedSaying } from './verdict';
import { endedBeforeSummary } from './testSummary';

/** A test DevA named: its name, and the file it is in when known (a runner may report the file passed as a whole). */
export type NamedTestRef = string | { name: string; file?: string };

/** Failing test cases a fix request names before the output. */
const FIX_FAILING_TESTS = 10;
/** Characters of the files a check fixed as it ran that a fix request shows whole; a file past them is named only. */
const FIXED_TEXT_CHARS = 40_000;

/** What a fix request says of a run that ended before its test runner's summary line (testSummary.ts endedBeforeSummary). */
const ENDED_BEFORE_SUMMARY =
  "The run ended before its test runner's summary line (mocha's \"N passing\", pytest's \"N passed in …\", a Go test binary's PASS/FAIL…), which it writes on the unchanged workspace: a step before the tests failed, or the run was killed, crashed, or the code under test ended the process (process.exit, os._exit, os.Exit, a panic). The test cases after the last one named never ran, so a failure of theirs is not in the output.";

/**
 * What the runner reported of the run's test cases, over the whole output (the output below is trimmed): the test
 * files that did not load (no assertion failed in them), how many cases passed and failed, and which failed — so DevA
 * can tell whether its own tests are among them; those the unchanged workspace's run (`base`) did not fail first (on
 * a suite that already fails, the first ten named were old failures and DevA's own came among "and 354 more").
 */
function testCasesLine(r: CheckRun, allNamed: readonly NamedTestRef[], base?: CheckRun): string[] {
  if (!r.tests?.length && !r.unbuiltTestFiles?.length) return [];
  const tests = r.tests ?? [];
  // a run in a sub-project's folder runs none of the tests outside it (runFolder.ts)
  const named = allNamed.filter((n) => typeof n === 'string' || !n.file || reachesFile(r.command, n.file));
  const before = failingBefore(base);
  const failed = tests.filter((t) => !t.passed).sort((a, b) => Number(before.has(a.name)) - Number(before.has(b.name)));
  // a runner that names only failures (pytest's summary, go test without -v) gives no count of the passing ones
  const counts = r.onlyFailuresNamed
    ? `Test cases the runner reported: ${failed.length} failed (it names only failing ones)`
    : `Test cases the runner reported: ${tests.length - failed.length} passed, ${failed.length} failed`;
  const unloaded = r.unbuiltTestFiles ?? [];
  const out = unloaded.length ? [`${unloadedSaying(unloaded)}: the runner reported ${unloaded.length === 1 ? 'it' : 'each'} failed before any test of it ran (a syntax error, a module or export it imports that does not exist, a throw at its top level: see the output below). No assertion failed there; none of ${unloaded.length === 1 ? 'its' : 'their'} tests ran.`] : [];
  // a run that reported no case (only test files that did not load) has none to count
  if (tests.length && !failed.length) out.push(`${counts}${r.status === 'timeout' ? ' (the run did not finish: a test that never ends, or a slow suite)' : ''}.`);
  else if (failed.length) {
    // each with its own message line, which the trimmed output below may have left out
    out.push(`${counts}:`, ...failed.slice(0, FIX_FAILING_TESTS).map((t) => `- ${lineWithin(t.name, 160)}${t.message ? ` — ${t.message}` : ''}`));
    if (failed.length > FIX_FAILING_TESTS) out.push(`- and ${failed.length - FIX_FAILING_TESTS} more`);
  }
  if (named.length) {
    let passed = 0;
    let failedNamed = 0;
    let notLoaded = 0;
    const passedFiles = runPassedFiles(r);
    for (const n of named) {
      const [name, file] = typeof n === 'string' ? [n, undefined] : [n.name, n.file?.replace(/^\.\//, '')];
      const cases = casesOfTest(tests, name);
      if (cases.some((t) => !t.passed)) failedNamed++;
      else if (file && unloaded.includes(file)) notLoaded++;
      // its file reported passed as a whole (vitest's `✓ file (3 tests)`, jest's `PASS file`) names none of its cases
      else if (cases.length || r.onlyFailuresNamed || (file && passedFiles.has(file))) passed++;
    }
    const missing = named.length - passed - failedNamed - notLoaded;
    const ok = r.onlyFailuresNamed ? 'did not fail' : 'passed';
    const inUnloaded = notLoaded ? `, ${notLoaded} in a file that ${DID_NOT_LOAD}` : '';
    out.push(`Of the ${named.length} test(s) you named in criteria_tests: ${passed} ${ok}, ${failedNamed} failed${inUnloaded}${missing ? `, ${missing} not in the output` : ''}.`);
  }
  return out;
}

/**
 * What the formatter and the checks that fix as they run changed in DevA's files in the round (`taken`), and the text
 * of each file a check fixed (from `proposal`, as the checks after it ran on it), within FIXED_TEXT_CHARS.
 */
function takenLines(taken: readonly TakenChange[], proposal: readonly ProposedFile[]): string[] {
  const lines: string[] = [];
  for (const t of taken.filter((x) => !x.check)) {
    lines.push(`The project's formatter (${t.by}) laid out ${t.files.join(', ')} before the checks ran, as the user will see them; a SEARCH may quote your own version or the formatted one.`, '');
  }
  const fixes = taken.filter((x) => x.check);
  if (!fixes.length) return lines;
  lines.push(`${fixes.map(takenSaying).join('; ')}: the checks ran on the fixed text, which is your proposal now, as the user will see it; a SEARCH may quote it or your own version.`);
  let room = FIXED_TEXT_CHARS;
  for (const p of new Set(fixes.flatMap((t) => t.files))) {
    const text = proposal.find((f) => f.relPath === p)?.content;
    if (text === undefined) continue;
    if (text.length > room) {
      lines.push(`(${p} as fixed: ${text.length.toLocaleString('en-US')} characters, too long to show here.)`);
      continue;
    }
    lines.push(wholeFileBlock(p, text));
    room -= text.length;
  }
  return [...lines, ''];
}

/** For a run in a sub-project's folder (runFolder.ts): that its output's paths are from there, not the workspace's. */
function folderLine(r: CheckRun): string[] {
  const folder = runFolder(r.command);
  return folder ? [`It runs in ${folder}/: the relative paths in its output are from there (a file's path in your blocks starts with ${folder}/).`] : [];
}

/**
 * The user message of a fix round: each failing command with its exit code, what the runner reported of its test
 * cases (each failed one with its message line, and of the tests DevA named), its trimmed output, and what the formatter or a fixing check changed (takenLines).
 */
export function fixRequest(
  failing: CheckRun[],
  round: number,
  max: number,
  problems: string[] = [],
  named: readonly NamedTestRef[] = [],
  unchanged: (r: CheckRun) => CheckRun | undefined = () => undefined,
  taken: readonly TakenChange[] = [],
  proposal: readonly ProposedFile[] = [],
): string {
  const lines = [`The project's checks failed on your proposed files (fix round ${round} of ${max}).`, ''];
  for (const r of failing) {
    const how = r.status !== 'failed' ? runStatusWord(r.status) : r.exitCode === null ? 'was ended by a signal' : `exited with code ${r.exitCode}`;
    const base = unchanged(r);
    const ended = endedBeforeSummary(r, base) ? [ENDED_BEFORE_SUMMARY] : [];
    lines.push(`$ ${r.command}`, `(${how})`, ...folderLine(r), ...ended, ...testCasesLine(r, named, base), ...baselineLines(r, base), '```text', r.output.replace(/```/g, "'''") || '(no output)', '```', '');
  }
  if (problems.length) lines.push('Blocks of your last fix that could not be used:', ...problems.map((p) => `- ${p}`), '');
  lines.push(...takenLines(taken, proposal));
  lines.push(
    'Fix the cause in your proposed files. Reply with the changed files only, no JSON: <edit path="…"> hunks whose',
    'SEARCH matches your proposed version of the file, or a whole <file path="…">. A file you do not send stays as',
    'proposed. If the failure is not caused by your files, reply with no blocks and one line saying why.',
  );
  return lines.join('\n');
}

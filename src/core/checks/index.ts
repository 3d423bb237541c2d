// The checks domain (src/core/checks/) owns the project's own checks on DevA's proposal, before anything is applied:
// which commands run (commands.ts: the configured list, `auto`, static or tests; detect.ts: the obvious ones detected,
// run only with consent (consent.ts: as a workspace remembers it), per language — detectPython.ts (pythonUnittest.ts: a unittest suite; toxIni.ts: tox.ini as tox runs it), detectToolchains.ts — at the root and in its sub-projects:
// detectSubprojects.ts, run in their folder by runFolder.ts's rule; projectProbes.ts: where a project's files and programs are, for detect.ts and formatters.ts),
// the scratch copy of the workspace with the proposal written over it (scratch.ts, in the OS temp dir, removed afterwards;
// scratchCopy.ts: dependencies linked, .git and cape/ left out; scratchOverlay.ts: DevA's files written over it, and
// those it could not take; scratchAncestors.ts: a monorepo package keeps the
// folders above and beside it; copyLimit.ts: a workspace too large to copy is not, and its checks say why), one
// command's run (run.ts: own process group, time limit, output cap, Stop; checkEnv.ts: its environment, without the
// Anthropic credentials, and the secrets hidden in its output; processEnd.ts: the checks and copies a
// process ending by a signal or an exit leaves none of), the output made useful (output.ts: file:line lines first, a linter's problems named; trimMarks.ts: the marks it writes when it cuts; testCases.ts: the
// test cases of many runners recognised; testSummary.ts: whether a runner's summary line came; buildFailures.ts: code or a test that did not build or load; unloadedFiles.ts: a JavaScript test file that did not load, kept by the test case reader; testNames.ts: which of them a test DevA named is), the loop of fix rounds with DevA (loop.ts), a first failure compared with
// the unchanged workspace (baseline.ts; sameOutput.ts: by the whole output when it names no test case nor problem), the fix round's request to DevA (fixRequest.ts), DevA's test files alone on the unchanged workspace when asked
// (failFirst.ts; notReached.ts: a run that failed before it ran them; cargoTargets.ts: a cargo test run once per test target; cargoTargetMatch.ts: which target a file or a result is; ctestPrograms.ts: a CMake build that keeps going past a test program that does not build, and what CTest said of each program; cmakeTests.ts: which files each CTest test runs, read from the CMake files as cmakeScript.ts reads their language), the project's formatter laying out DevA's files before the checks (format.ts; which formatter is the
// project's: formatters.ts), what a check that fixes as it runs changed in DevA's files taken into the proposal (checkFixes.ts), and what the
// retrospective hears of it all (retroText.ts; how the end of the checks is told, the same everywhere: verdict.ts). Its result types (types.ts: CheckRun per
// command and round, ChecksOutcome, CheckSummary; storedOutcome.ts: one read back checked) are what the runner persists, the retrospective and --json report
// and metrics (TSR) read. Plain Node: nothing in src/core may import 'vscode'.
export * from './types';
export * from './storedOutcome';
export * from './detect';
export * from './detectSubprojects';
export * from './runFolder';
export * from './projectProbes';
export * from './commands';
export * from './consent';
export * from './output';
export * from './trimMarks';
export * from './testCases';
export * from './testSummary';
export * from './buildFailures';
export * from './testNames';
export * from './run';
export * from './scratch';
export * from './copyLimit';
export { isBuildFolder } from './scratchCopy';
export * from './loop';
export * from './format';
export * from './failFirst';
export * from './cargoTargets';
export * from './cargoTargetMatch';
export * from './ctestPrograms';
export * from './baseline';
export * from './sameOutput';
export * from './notReached';
export * from './retroText';
export * from './verdict';

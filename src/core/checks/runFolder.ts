// A check command that runs in a sub-folder of the workspace — a sub-project's detected check (detectSubprojects.ts),
// `cd backend && .venv/bin/python -m pytest` — written (inFolder) and read back (runFolder) by one rule, and what its
// run reports made workspace-relative, as DevA's criteria name test files: its runner writes paths from its folder
// (pytest's `tests/api/test_items.py::test_x` is `backend/tests/api/test_items.py::test_x`). run.ts names the run's
// test cases, the test files it passed and the Go folders it could not build so (workspaceCaseName, workspacePath);
// the readers of a kept output (testCases.ts runPassedFiles, buildFailures.ts runUnbuiltGoFolders) do the same, and
// a test outside the folder is none of the run's (reachesFile: metrics/testStatus.ts, fixRequest.ts).
import * as path from 'path';
import { shellWord } from '../text/shell';
import { isTestFile } from '../workspace/testFiles';

/** `command` run in the workspace's folder `folder` (workspace-relative, `/`-separated): `cd backend && command`. */
export function inFolder(folder: string, command: string): string {
  return `cd ${shellWord(process.platform === 'win32' ? folder.replace(/\//g, '\\') : folder)} && ${command}`;
}

/** `cd <folder> &&` at a command's start, the folder bare or in quotes (as inFolder writes it). */
const CD_FOLDER = /^\s*cd\s+(?:'([^']*)'|"([^"]*)"|([^\s'"&|;]+))\s*&&/;

/** The command after its leading `cd folder &&` (runFolder's), or the whole command when it has none. */
export function afterFolder(command: string): string {
  const m = CD_FOLDER.exec(command);
  return m ? command.slice(m[0].length) : command;
}

/**
 * The workspace folder a check command runs in, `/`-separated: the folder of its leading `cd folder &&`; '' for the
 * workspace itself, and for a folder that is not inside it (absolute, or climbing out with `..`).
 */
export function runFolder(command: string): string {
  const m = CD_FOLDER.exec(command);
  const folder = path.posix.normalize((m?.[1] ?? m?.[2] ?? m?.[3] ?? '.').replace(/\\/g, '/'));
  const segments = folder.split('/').filter((s) => s !== '');
  if (folder === '.' || path.posix.isAbsolute(folder) || /^[A-Za-z]:/.test(folder) || segments.includes('..')) return '';
  return segments.join('/');
}

/** The workspace folders `commands` run in (runFolder), each once in their order; the workspace itself is none of them. */
export function runFolders(commands: readonly string[]): string[] {
  return [...new Set(commands.map(runFolder).filter((f) => f !== ''))];
}

/** A path a run in `folder` (runFolder) reported, relative to that folder, as workspace-relative (`./` left out). */
export function workspacePath(folder: string, reported: string): string {
  const p = reported.replace(/^\.\//, '');
  if (!folder) return p;
  return p ? `${folder}/${p}` : folder;
}

/** Where a reported case's test file ends in its name: pytest's `::`, vitest's ` > `, jest's ` › `. */
const AFTER_FILE = ['::', ' > ', ' › '];

/**
 * A test case's name as a run in `folder` reported it, its test file made workspace-relative: `tests/test_a.py::test_x`
 * (or pytest's `tests/test_a.py` for a file that did not load), `src/a.test.ts > suite > case`, `tests/a.test.js ›
 * Test suite failed to run`. A name that does not start with a test file's relative path (isTestFile) is left as it is.
 */
export function workspaceCaseName(folder: string, name: string): string {
  if (!folder) return name;
  const ends = AFTER_FILE.map((s) => name.indexOf(s)).filter((i) => i > 0);
  const end = ends.length ? Math.min(...ends) : name.length;
  const file = name.slice(0, end);
  const relative = !/\s/.test(file) && !file.startsWith('/') && !file.split('/').includes('..') && isTestFile(file);
  return relative ? workspacePath(folder, file) + name.slice(end) : name;
}

/** Whether a run of `command` can have run the workspace file `file`: it runs in the workspace, or in a folder holding it. */
export function reachesFile(command: string, file: string): boolean {
  const folder = runFolder(command);
  return !folder || file.replace(/^\.\//, '').startsWith(`${folder}/`);
}

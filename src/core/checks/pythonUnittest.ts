// A Python project's unittest suite (detectPython.ts, where pytest is not configured): the command the project's own
// tox.ini (toxIni.ts: `[testenv]`'s commands first) or Makefile (its recipes' lines) runs — `coverage run -m unittest
// discover {toxinidir}/tests` read as `-m unittest discover tests`, run by the project's Python rather than coverage,
// which the checks need not have — else, with no such command, its test folder (`tests/`, `test/`) when a test module
// there (unittest's own `test*.py`) defines a TestCase: `-m unittest discover -s tests` (`-t .` added for a folder that
// is a package, so its modules import as `tests.…` and their relative imports resolve). And the project's own
// commands, read once, where flake8's arguments come from too.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { joinContinued } from '../text/lines';
import { commandParts } from '../text/shell';
import { exists, makefileIn, readText } from './projectProbes';
import { asCheck, toxConfig } from './toxIni';

/** A command of the project's own, found in `file`: the arguments it gives its tool, as the checks can run them. */
export interface ProjectRun {
  file: string;
  args: string;
}

/** The commands the project's own tox.ini and Makefile run (projectRuns), asked for a tool's. */
export interface ProjectRuns {
  /**
   * The first command `runs` matches whose arguments (its first group) the checks can run from the project's folder
   * (not after a `cd`); null when none is.
   */
  argsOf(runs: RegExp): ProjectRun | null;
}

/** A command that runs unittest (`python -m unittest discover tests`, `coverage run -m unittest …`): what follows `-m unittest`. */
const RUNS_UNITTEST = /(?:^|\s)-m\s+unittest(?=\s|$)(.*)$/;
/** unittest's own name for a test module (its discovery's default pattern). */
const TEST_MODULE = /^test.*\.py$/;
/** A module that defines unittest's test cases: `unittest.TestCase` named, or TestCase imported from unittest. */
const DEFINES_TEST_CASE = /\bunittest\.(?:IsolatedAsyncio)?TestCase\b|^[ \t]*from[ \t]+unittest[ \t]+import\b[^\n]*\bTestCase\b/m;
/** The folders a project keeps its tests in, and the test modules read in one at most. */
const TEST_FOLDERS: readonly string[] = ['tests', 'test'];
const MAX_MODULES_READ = 20;

/**
 * A command's arguments as the checks run them, or null when they hold what only tox or make fills in: tox's
 * `{posargs}` is none given, `{posargs:discover tests}` its default; another `{…}`, a `$` variable, a backquote or a
 * redirection is not run.
 */
function runnableArgs(args: string): string | null {
  const a = args
    .replace(/\{posargs(?::([^{}]*))?\}/g, (_, given?: string) => given ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return /[{}$`<>]/.test(a) ? null : a;
}

/**
 * The commands of the project's tox.ini (a `-` before one off, one led by `!` left out) and of its Makefile's recipes
 * (`\`-continued lines joined, `@`, `-`, `+` off), by file.
 */
export async function projectRuns(dir: string, text: (file: string) => Promise<string>): Promise<ProjectRuns> {
  const sources: { file: string; commands: string[] }[] = [];
  const tox = await text('tox.ini');
  // a command tox runs expecting it to fail is none of the project's checks; one whose exit it ignores runs as any
  if (tox) sources.push({ file: 'tox.ini', commands: toxConfig(tox).envs.flatMap((e) => e.commands.map(asCheck).filter((c) => c !== null)) });
  const makefile = await makefileIn(dir);
  const make = makefile ? await text(makefile) : '';
  if (makefile && make) {
    const recipes = joinContinued(make).split(/\r?\n/).filter((l) => l.startsWith('\t'));
    sources.push({ file: makefile, commands: recipes.map((l) => l.replace(/^[\s@+-]+/, '')) });
  }
  return {
    argsOf(runs) {
      for (const { file, commands } of sources) {
        for (const command of commands) {
          for (const part of commandParts(command)) {
            // what follows a `cd` runs in another folder than the project's
            if (/^(?:cd|pushd)\s/.test(part)) break;
            const m = runs.exec(part);
            const args = m ? runnableArgs(m[1] ?? '') : null;
            if (args !== null) return { file, args };
          }
        }
      }
      return null;
    },
  };
}

/** A test folder of the project with a module that defines unittest's test cases: its name and that module's path; null when none has one. */
async function unittestFolder(dir: string): Promise<{ folder: string; module: string } | null> {
  for (const folder of TEST_FOLDERS) {
    const modules = (await fsp.readdir(path.join(dir, folder)).catch(() => [] as string[])).filter((n) => TEST_MODULE.test(n)).sort();
    for (const name of modules.slice(0, MAX_MODULES_READ)) {
      const module = `${folder}/${name}`;
      if (DEFINES_TEST_CASE.test(await readText(path.join(dir, module)))) return { folder, module };
    }
  }
  return null;
}

/**
 * The unittest suite of the project in `dir` (see the header): the arguments after `-m unittest` and the reason; null
 * when the project shows none.
 */
export async function unittestCommand(dir: string, runs: ProjectRuns): Promise<{ args: string; why: string } | null> {
  const own = runs.argsOf(RUNS_UNITTEST);
  if (own) return { args: own.args, why: `${own.file} runs unittest` };
  const found = await unittestFolder(dir);
  if (!found) return null;
  const topLevel = (await exists(path.join(dir, found.folder, '__init__.py'))) ? ' -t .' : '';
  return { args: `discover -s ${found.folder}${topLevel}`, why: `${found.module} defines unittest test cases` };
}

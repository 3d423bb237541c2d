// A Python project's obvious checks (detect.ts): pytest where the project configures it (pytest.ini, conftest.py,
// `[tool.pytest…]` in pyproject.toml, `[tool:pytest]` in setup.cfg, `[pytest]` in tox.ini) or keeps
// `tests/conftest.py`, or lists pytest among its development requirements (pyproject.toml, requirements-dev.txt and
// the like); else its unittest suite (pythonUnittest.ts: the command its own tox.ini or Makefile runs, or its `tests/`
// folder's TestCase modules) — pytest runs unittest's tests too, and stays first where it is configured; ruff, mypy
// and flake8 where it configures them (flake8 in `.flake8`, setup.cfg or tox.ini, run as its tox.ini or Makefile runs
// it) — each run by the project's virtual environment (.venv/, venv/) when it has one, else by one in a folder above it
// up to the workspace's root (a uv workspace keeps one `.venv/` for its members there) or its repository's root (a
// package of a monorepo), else by the program on PATH; a tool configured but installed nowhere is no check.
import * as path from 'path';
import type { CheckCommand, FoundChecks } from './types';
import { exists, onPath, pythonTool, readText, venvProgram } from './projectProbes';
import { projectRuns, unittestCommand } from './pythonUnittest';

/**
 * Where a Python project configures a tool: a file of its own, or a section of a shared configuration file (`section`
 * at the start of a line). The first that holds is the reason given; a reason starts with the file's name, so a
 * sub-project's reads with its folder before it (`backend/pyproject.toml [tool.ruff]`: detectSubprojects.ts).
 */
interface ConfigMarker {
  file: string;
  section?: RegExp;
  why: string;
}

/**
 * pytest as a requirement of pyproject.toml: a quoted requirement string (`"pytest>=8"` in `[dependency-groups]`,
 * `[project.optional-dependencies]`, PDM's dev dependencies) or a Poetry dependency key (`pytest = "^8"`).
 */
const PYTEST_REQUIREMENT = /^[ \t]*["']pytest(?![\w-])|^[ \t]*pytest[ \t]*=/m;

const PYTEST_MARKERS: ConfigMarker[] = [
  { file: 'pytest.ini', why: 'pytest.ini' },
  { file: 'conftest.py', why: 'conftest.py' },
  { file: 'pyproject.toml', section: /^\[tool\.pytest/m, why: 'pyproject.toml [tool.pytest]' },
  { file: 'setup.cfg', section: /^\[tool:pytest\]/m, why: 'setup.cfg [tool:pytest]' },
  { file: 'tox.ini', section: /^\[pytest\]/m, why: 'tox.ini [pytest]' },
  // a project that configures nothing for pytest but keeps its fixtures beside its tests, or lists pytest among its
  // development requirements (sqlparse: `tests/conftest.py`, pytest in `[dependency-groups] dev`)
  { file: 'tests/conftest.py', why: 'tests/conftest.py' },
  { file: 'test/conftest.py', why: 'test/conftest.py' },
  { file: 'pyproject.toml', section: PYTEST_REQUIREMENT, why: 'pyproject.toml lists pytest among its requirements' },
  ...['requirements-dev.txt', 'dev-requirements.txt', 'requirements-test.txt', 'test-requirements.txt', 'requirements/dev.txt', 'requirements/test.txt'].map(
    (file) => ({ file, section: /^pytest\b/m, why: `${file} lists pytest` }),
  ),
];
const RUFF_MARKERS: ConfigMarker[] = [
  { file: 'pyproject.toml', section: /^\[tool\.ruff/m, why: 'pyproject.toml [tool.ruff]' },
  { file: 'ruff.toml', why: 'ruff.toml' },
  { file: '.ruff.toml', why: 'ruff.toml' },
];
const MYPY_MARKERS: ConfigMarker[] = [
  { file: 'pyproject.toml', section: /^\[tool\.mypy/m, why: 'pyproject.toml [tool.mypy]' },
  { file: 'mypy.ini', why: 'mypy.ini' },
];
/**
 * The INI files a Python project keeps its lint tools' settings in, each tool in a section of its name (`[flake8]`,
 * flake8's own .flake8 too): flake8 is configured by one; init's facts show their lint sections (cape/initFactsLint.ts).
 */
export const PYTHON_LINT_INI_FILES: readonly string[] = ['tox.ini', 'setup.cfg', '.flake8'];
const FLAKE8_MARKERS: ConfigMarker[] = PYTHON_LINT_INI_FILES.map((file) => ({ file, section: /^\[flake8\]/m, why: `${file} [flake8]` }));
/** A command that runs flake8 (`flake8 src tests`, `python -m flake8 src`): its arguments, the project's own files to lint. */
const RUNS_FLAKE8 = /^(?:\S*python[\d.]*\s+-m\s+)?flake8(?=\s|$)(.*)$/;

/** pytest or unittest, ruff, mypy and flake8 where the Python project in `dir` configures them (see the header): [static checks, tests]. */
export async function pythonChecks(dir: string, root: string): Promise<FoundChecks> {
  const texts = new Map<string, Promise<string>>(); // each configuration file read once
  const text = (file: string): Promise<string> => {
    let t = texts.get(file);
    if (!t) texts.set(file, (t = readText(path.join(dir, file))));
    return t;
  };
  const configured = async (markers: readonly ConfigMarker[]): Promise<string | null> => {
    for (const m of markers) {
      if (m.section ? m.section.test(await text(m.file)) : await exists(path.join(dir, m.file))) return m.why;
    }
    return null;
  };
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  const ruffWhy = await configured(RUFF_MARKERS);
  const ruff = ruffWhy && (await pythonTool(dir, ['ruff'], root));
  if (ruff) statics.push({ command: `${ruff} check .`, source: 'detected', reason: ruffWhy! });
  const mypyWhy = await configured(MYPY_MARKERS);
  const mypy = mypyWhy && (await pythonTool(dir, ['mypy'], root));
  if (mypy) statics.push({ command: `${mypy} .`, source: 'detected', reason: mypyWhy! });
  const runs = await projectRuns(dir, text);
  const flake8Why = await configured(FLAKE8_MARKERS);
  const flake8 = flake8Why && (await pythonTool(dir, ['flake8'], root));
  // the files the project's own tox.ini or Makefile lints, else its folder
  if (flake8) statics.push({ command: `${flake8} ${runs.argsOf(RUNS_FLAKE8)?.args || '.'}`, source: 'detected', reason: flake8Why! });
  const pytestWhy = await configured(PYTEST_MARKERS);
  const unittest = pytestWhy ? null : await unittestCommand(dir, runs);
  // on PATH, python3 first: a bare `python` is Python 2 on older systems
  const python = (pytestWhy || unittest) && ((await venvProgram(dir, ['python', 'python3'], root)) ?? (await onPath(['python3', 'python'])));
  if (python && pytestWhy) tests.push({ command: `${python} -m pytest`, source: 'detected', reason: pytestWhy });
  if (python && unittest) tests.push({ command: `${python} -m unittest${unittest.args ? ` ${unittest.args}` : ''}`, source: 'detected', reason: unittest.why });
  return [statics, tests];
}

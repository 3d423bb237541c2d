// The obvious check commands of a workspace, run only when none is configured (or `auto` asks for them: commands.ts):
//  - JavaScript/TypeScript: package.json's type check script (`typecheck`, or a name projects give it: TYPECHECK_SCRIPTS),
//    `lint` and `test` scripts (through the package manager its lockfile or `packageManager` field names when that is
//    on PATH, else npm), and `tsc --noEmit` when there is a tsconfig.json and a local TypeScript but no type check
//    script (a Vue or Svelte project's `vue-tsc`/`svelte-check` script checks what tsc cannot read). A `test` script
//    that runs the end-to-end suite too (it names e2e, Cypress or Playwright: a build, a server and a browser) gives way
//    to the `test:unit` script when there is one — the unit tests are what checks DevA's code — and `test:unit` stands
//    for a missing `test`;
//  - Python: pytest where the project configures it (pytest.ini, conftest.py, `[tool.pytest…]` in pyproject.toml,
//    `[tool:pytest]` in setup.cfg, `[pytest]` in tox.ini) or keeps `tests/conftest.py`, or lists pytest among its
//    development requirements (pyproject.toml, requirements-dev.txt and the like), ruff and mypy where it configures them — each run by the
//    project's virtual environment (.venv/, venv/) when it has one, or by one at its repository's root for a package
//    of a monorepo;
//  - Go (go.mod): `go vet ./...` and `go test ./...`; Rust (Cargo.toml): `cargo clippy --tests` (when clippy is
//    installed) and `cargo test`;
//  - Ruby: RSpec (`.rspec`, `spec/spec_helper.rb`) or minitest through rake, and RuboCop (`.rubocop.yml`), by Bundler
//    when there is a Gemfile;
//  - Maven (pom.xml), Gradle (build.gradle[.kts]) and .NET (a .sln or project file): their test task, through the
//    project's wrapper (mvnw, gradlew) when it has one;
// each only when its program is there (the virtual environment, the wrapper, or PATH: projectProbes.ts finds them).
// Static checks come first (cheap), then the tests. Detected commands are never run without the user's consent (the
// caller asks; the CLI needs `--check auto`).
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { CheckCommand } from './types';
import { exists, firstIn, nodeModulesUp, onPath, pythonTool, readJson, readText, venvProgram } from './projectProbes';

/** The names a project gives its type check script, the first one present taken. */
export const TYPECHECK_SCRIPTS = ['typecheck', 'type-check', 'check-types', 'types:check', 'check:types', 'typecheck:all'] as const;

/** The unit tests' own script, run instead of a `test` that runs the end-to-end suite too (or of no `test`). */
const UNIT_TEST_SCRIPT = 'test:unit';

/** A `test` script that runs an end-to-end suite as well: it names one (`test:e2e`, `e2e`) or its runner. */
const RUNS_E2E = /(?:^|[^a-z])(?:e2e|cypress|playwright)(?:[^a-z]|$)/i;

/** npm's placeholder test script ("Error: no test specified") is not a test. */
const NPM_PLACEHOLDER = /no test specified/i;

/** The package manager each lockfile names, in the order they are looked for (npm's last: it is the default anyway). */
const LOCKFILES: readonly [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
];

/** The workspace's lockfile and the package manager it names (LOCKFILES), or null when it has none. */
export async function lockfileOf(workspace: string): Promise<{ file: string; manager: string } | null> {
  const file = await firstIn(workspace, LOCKFILES.map(([f]) => f));
  return file ? { file, manager: LOCKFILES.find(([f]) => f === file)![1] } : null;
}

/**
 * The package manager that runs the scripts: the one the lockfile names, else package.json's `packageManager` field
 * (`pnpm@9.1.0`, corepack's) — when it is on PATH; else npm, which comes with Node and runs any script from the
 * installed node_modules (a missing pnpm would fail every check, on the unchanged code too, and cost DevA fix rounds).
 */
async function packageManager(workspace: string, field: unknown): Promise<string> {
  // npm's own lockfile names no other manager: the field still decides then
  const lock = await lockfileOf(workspace);
  const named = lock && lock.manager !== 'npm' ? lock.manager : typeof field === 'string' ? /^(pnpm|yarn|bun)@/.exec(field)?.[1] : undefined;
  return named && (await onPath([named])) ? named : 'npm';
}

/** The command that runs a package.json script with the package manager. */
function scriptCommand(manager: string, script: string): string {
  return manager === 'npm' && script === 'test' ? 'npm test' : `${manager} run ${script}`;
}

/** The project's TypeScript compiler, as a path relative to the workspace (nodeModulesUp: its own, or one hoisted). */
async function localTsc(workspace: string): Promise<string | null> {
  for (const dir of await nodeModulesUp(workspace)) {
    const rel = [...dir, 'typescript', 'bin', 'tsc'];
    if (await exists(path.join(workspace, ...rel))) return rel.join('/');
  }
  return null;
}

/** package.json's scripts, and tsc for a TypeScript project without a typecheck script: [static checks, tests]. */
async function nodeChecks(workspace: string): Promise<[CheckCommand[], CheckCommand[]]> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  let scripts: Record<string, unknown> = {};
  let managerField: unknown;
  try {
    const pkg = (await readJson(path.join(workspace, 'package.json'))) as { scripts?: unknown; packageManager?: unknown };
    if (pkg && typeof pkg.scripts === 'object' && pkg.scripts !== null && !Array.isArray(pkg.scripts)) scripts = pkg.scripts as Record<string, unknown>;
    managerField = pkg?.packageManager;
  } catch {
    /* no package.json, or not JSON: no scripts */
  }
  const has = (s: string) => typeof scripts[s] === 'string' && (scripts[s] as string).trim() !== '' && !(s === 'test' && NPM_PLACEHOLDER.test(scripts[s] as string));
  const typecheck = TYPECHECK_SCRIPTS.find(has);
  const test = has('test') && !(has(UNIT_TEST_SCRIPT) && RUNS_E2E.test(scripts.test as string)) ? 'test' : has(UNIT_TEST_SCRIPT) ? UNIT_TEST_SCRIPT : undefined;
  const picked = [typecheck, has('lint') ? 'lint' : undefined].filter((s) => s !== undefined);
  const tsc = !typecheck && (await exists(path.join(workspace, 'tsconfig.json'))) ? await localTsc(workspace) : null;
  if (tsc) statics.push({ command: `node ${tsc} --noEmit`, source: 'detected', reason: 'tsconfig.json and a local TypeScript' });
  const manager = picked.length || test ? await packageManager(workspace, managerField) : 'npm';
  const script = (s: string): CheckCommand => ({ command: scriptCommand(manager, s), source: 'detected', reason: `package.json script "${s}"` });
  statics.push(...picked.map(script));
  if (test) tests.push(script(test));
  return [statics, tests];
}

/**
 * Where a Python project configures a tool: a file of its own, or a section of a shared configuration file (`section`
 * at the start of a line). The first that holds is the reason given.
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
  { file: 'pyproject.toml', section: PYTEST_REQUIREMENT, why: 'pytest among pyproject.toml\'s requirements' },
  ...['requirements-dev.txt', 'dev-requirements.txt', 'requirements-test.txt', 'test-requirements.txt', 'requirements/dev.txt', 'requirements/test.txt'].map(
    (file) => ({ file, section: /^pytest\b/m, why: `pytest in ${file}` }),
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

/** pytest, ruff and mypy where a Python project configures them: [static checks, tests]. */
async function pythonChecks(workspace: string): Promise<[CheckCommand[], CheckCommand[]]> {
  const texts = new Map<string, Promise<string>>(); // each configuration file read once
  const text = (file: string): Promise<string> => {
    let t = texts.get(file);
    if (!t) texts.set(file, (t = readText(path.join(workspace, file))));
    return t;
  };
  const configured = async (markers: readonly ConfigMarker[]): Promise<string | null> => {
    for (const m of markers) {
      if (m.section ? m.section.test(await text(m.file)) : await exists(path.join(workspace, m.file))) return m.why;
    }
    return null;
  };
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  const ruffWhy = await configured(RUFF_MARKERS);
  const ruff = ruffWhy && (await pythonTool(workspace, ['ruff']));
  if (ruff) statics.push({ command: `${ruff} check .`, source: 'detected', reason: ruffWhy! });
  const mypyWhy = await configured(MYPY_MARKERS);
  const mypy = mypyWhy && (await pythonTool(workspace, ['mypy']));
  if (mypy) statics.push({ command: `${mypy} .`, source: 'detected', reason: mypyWhy! });
  const pytestWhy = await configured(PYTEST_MARKERS);
  // on PATH, python3 first: a bare `python` is Python 2 on older systems
  const python = pytestWhy && ((await venvProgram(workspace, ['python', 'python3'])) ?? (await onPath(['python3', 'python'])));
  if (python) tests.push({ command: `${python} -m pytest`, source: 'detected', reason: pytestWhy! });
  return [statics, tests];
}

/** Go (go.mod) and Rust (Cargo.toml) projects, when their toolchain is on PATH: [static checks, tests]. */
async function goRustChecks(workspace: string): Promise<[CheckCommand[], CheckCommand[]]> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  if ((await exists(path.join(workspace, 'go.mod'))) && (await onPath(['go']))) {
    statics.push({ command: 'go vet ./...', source: 'detected', reason: 'go.mod' });
    tests.push({ command: 'go test ./...', source: 'detected', reason: 'go.mod' });
  }
  if ((await exists(path.join(workspace, 'Cargo.toml'))) && (await onPath(['cargo']))) {
    // clippy where it is installed (rustup's `cargo-clippy`), as `go vet` for Go: plain, it fails on errors and on
    // its deny-by-default lints (code that is outright wrong), never on the warnings a project may already have; over
    // what `cargo test` builds (`--tests`), not benches, which often need a nightly compiler (semver's do)
    if (await onPath(['cargo-clippy'])) statics.push({ command: 'cargo clippy --tests', source: 'detected', reason: 'Cargo.toml, cargo-clippy installed' });
    tests.push({ command: 'cargo test', source: 'detected', reason: 'Cargo.toml' });
  }
  return [statics, tests];
}

/**
 * A Ruby project: RSpec where it is set up (`.rspec`, `spec/spec_helper.rb`), else minitest through rake (a Rakefile
 * and `test/test_helper.rb`), RuboCop where it is configured (`.rubocop.yml`) — through Bundler when the project has
 * a Gemfile (`bundle exec`, bundle on PATH), else the programs on PATH: [static checks, tests].
 */
async function rubyChecks(workspace: string): Promise<[CheckCommand[], CheckCommand[]]> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  const at = (rel: string) => exists(path.join(workspace, rel));
  const gemfile = await at('Gemfile');
  if (gemfile && !(await onPath(['bundle']))) return [statics, tests];
  const program = async (name: string) => (gemfile ? `bundle exec ${name}` : await onPath([name]));
  const rspecWhy = await firstIn(workspace, ['.rspec', 'spec/spec_helper.rb']);
  const minitestWhy = !rspecWhy && (await at('Rakefile')) && (await at('test/test_helper.rb')) ? 'Rakefile and test/test_helper.rb' : null;
  if (await at('.rubocop.yml')) {
    const rubocop = await program('rubocop');
    if (rubocop) statics.push({ command: rubocop, source: 'detected', reason: '.rubocop.yml' });
  }
  if (rspecWhy) {
    const rspec = await program('rspec');
    if (rspec) tests.push({ command: rspec, source: 'detected', reason: rspecWhy });
  } else if (minitestWhy) {
    const rake = await program('rake');
    if (rake) tests.push({ command: `${rake} test`, source: 'detected', reason: minitestWhy });
  }
  return [statics, tests];
}

/**
 * Maven (pom.xml), Gradle (build.gradle, build.gradle.kts) and .NET (a solution or project file at the root) projects:
 * their test task, through the project's wrapper (`./mvnw`, `./gradlew`) when it has one, else the program on PATH.
 */
async function jvmDotnetChecks(workspace: string): Promise<[CheckCommand[], CheckCommand[]]> {
  const tests: CheckCommand[] = [];
  const at = (rel: string) => exists(path.join(workspace, rel));
  const win = process.platform === 'win32';
  const wrapper = async (unix: string, windows: string) => ((await at(win ? windows : unix)) ? (win ? windows : `./${unix}`) : null);
  if (await at('pom.xml')) {
    const mvn = (await wrapper('mvnw', 'mvnw.cmd')) ?? (await onPath(['mvn']));
    if (mvn) tests.push({ command: `${mvn} test`, source: 'detected', reason: 'pom.xml' });
  }
  const gradleWhy = await firstIn(workspace, ['build.gradle', 'build.gradle.kts']);
  if (gradleWhy) {
    const gradle = (await wrapper('gradlew', 'gradlew.bat')) ?? (await onPath(['gradle']));
    if (gradle) tests.push({ command: `${gradle} test`, source: 'detected', reason: gradleWhy });
  }
  const entries = await fsp.readdir(workspace).catch(() => [] as string[]);
  const dotnetWhy = entries.find((e) => /\.sln$/i.test(e)) ?? entries.find((e) => /\.(cs|fs|vb)proj$/i.test(e));
  if (dotnetWhy && (await onPath(['dotnet']))) tests.push({ command: 'dotnet test', source: 'detected', reason: dotnetWhy });
  return [[], tests];
}

/** What detectChecks looks for, in a message that says none was found. */
export const DETECTED_CHECKS_SAYING =
  "package.json's typecheck (or type-check, check-types …), lint and test (or test:unit) scripts, tsconfig.json with a local TypeScript, pytest, ruff and mypy where a Python project configures or requires them, go.mod, Cargo.toml, RSpec, minitest and RuboCop, Maven, Gradle and .NET projects — each when its program is installed";

/** The obvious check commands of a workspace (none when nothing is recognised): static checks first, then tests. Reads, never runs anything. */
export async function detectChecks(workspace: string): Promise<CheckCommand[]> {
  const found = await Promise.all([nodeChecks(workspace), pythonChecks(workspace), goRustChecks(workspace), rubyChecks(workspace), jvmDotnetChecks(workspace)]);
  return [...found.flatMap(([statics]) => statics), ...found.flatMap(([, tests]) => tests)];
}

// Init's workspace facts (initFacts.ts), the CI part's order (initFactsCi.ts): how much a CI file says about how a
// change is checked. First the files whose steps run a test runner, a linter or type check, or a build — a package
// script by its name and its own command (the root package.json's scripts) — or that are named for checking (`Test`,
// `CI`, `lint.yml`), most checking commands first; then the others with commands; then those that keep the
// repository or ship it (labels, releases, deploys, issues, dependency bumps, project boards), by their name; last
// those whose steps run no tool. And which lines of a step's script are shell plumbing (echo, set, if/fi, assignments,
// `git config`): shown after the lines that run tools; which only set up the job (isSetup: package installs, writes to
// $GITHUB_ENV…): left out, and no tool run for the rank; which actions a step uses check something (checksSomething:
// not checking out, setting up, caching, uploading): named with the commands. Words, not patterns: a command is split
// into words once.
import { isPlainObject } from '../model/types';
import { commandParts } from '../text/shell';

/** Words of a command that name a test runner or tests. */
const TEST_WORDS = new Set([
  'test', 'tests', 'pytest', 'unittest', 'tox', 'nox', 'jest', 'vitest', 'mocha', 'ava', 'jasmine', 'karma', 'playwright',
  'cypress', 'e2e', 'phpunit', 'rspec', 'ctest', 'coverage',
]);
/**
 * Words of a command that name a linter, a formatter's check, a type checker or a security scanner (`precommit` is
 * `pre-commit` joined).
 */
const LINT_WORDS = new Set([
  'lint', 'eslint', 'stylelint', 'ruff', 'flake8', 'pylint', 'mypy', 'pyright', 'tsc', 'typecheck', 'check', 'clippy',
  'vet', 'rubocop', 'shellcheck', 'precommit', 'prek', 'biome', 'gosec', 'govulncheck', 'codeql', 'semgrep', 'bandit',
]);
const BUILD_WORDS = new Set(['build', 'compile', 'assemble']);
/** Words of a workflow's name (or its file's) that say it checks a change. */
const CHECK_NAME_WORDS = new Set(['test', 'tests', 'testing', 'ci', 'lint', 'linting', 'check', 'checks', 'build', 'verify', 'validate', 'typecheck']);
/** Words of a name that say the workflow keeps the repository or ships it, unless the name also says it checks. */
const BOOKKEEPING_WORDS = new Set([
  'label', 'labels', 'labeler', 'release', 'releases', 'issue', 'issues', 'dependabot', 'renovate', 'project', 'projects',
  'stale', 'triage', 'bump', 'conflict', 'conflicts', 'changelog', 'greetings', 'welcome', 'backport', 'deploy',
  'deployment', 'publish', 'sponsors', 'lock', 'milestone',
]);
/**
 * Words of an action's name (`actions/setup-go`, `Swatinem/rust-cache`) that say it prepares the job or keeps its files
 * rather than checking anything: checking out, setting up a toolchain, installing, caching, artifacts, uploading
 * coverage, signing in, publishing pages, a script of the workflow's own. The one list of them (checksSomething).
 */
const SETUP_ACTION_WORDS = new Set([
  'checkout', 'setup', 'toolchain', 'install', 'cache', 'artifact', 'artifacts', 'codecov', 'coveralls', 'login', 'pages',
  'script',
]);
/** The package managers whose commands run the package's scripts by name (`npm run verify`, `pnpm lint`). */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** A script line's first word that runs no tool: the shell's keywords and builtins. */
const SHELL_WORDS = new Set([
  'echo', 'printf', 'set', 'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac',
  'export', 'unset', 'cd', 'pushd', 'popd', 'exit', 'return', 'true', 'false', 'shift', 'local', 'declare', 'read',
  ':', '[', '[[', '{', '}', ';;',
]);

/**
 * Package managers and installers: a command of one is setup when its sub-command installs (INSTALL_VERBS: `npm ci`,
 * `pip install`, `cargo install`, `go mod download`, `npx playwright install`); `yarn` alone installs too.
 */
const INSTALLERS = new Set([
  'npm', 'pnpm', 'yarn', 'bun', 'deno', 'npx', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'pdm', 'pipenv', 'conda', 'mamba',
  'micromamba', 'cargo', 'go', 'gem', 'bundle', 'composer', 'dotnet', 'brew', 'choco', 'winget',
]);
const INSTALL_VERBS = new Set(['install', 'i', 'ci', 'add', 'sync', 'restore', 'download', 'fetch', 'get', 'binstall']);
/** Sub-commands an installer's install verb follows (`uv pip install`, `uv tool install`, `go mod download`, `yarn global add`). */
const NESTING_WORDS = new Set(['pip', 'tool', 'mod', 'global', 'python', 'playwright']);
/** Commands that only set up the system or toolchain, whatever follows: system package managers, rustup, corepack. */
const SYSTEM_SETUP = new Set(['apt-get', 'apt', 'yum', 'dnf', 'apk', 'zypper', 'pacman', 'rustup', 'corepack']);
/** A write to the files a GitHub Actions step sets the job's environment, PATH or outputs by (`>> $GITHUB_ENV`, pwsh's `$env:GITHUB_ENV`). */
const JOB_FILE = /\$(?:\{|env:)?GITHUB_(?:ENV|PATH|OUTPUT)\b/;

/** One command that only prepares the job: an install (INSTALLERS, SYSTEM_SETUP; after `sudo`, `python -m`) or a write to a job file. */
function setsUp(command: string): boolean {
  if (JOB_FILE.test(command)) return true;
  let words = command.split(/\s+/);
  // `sudo` and the variables set for the command (`DEBIAN_FRONTEND=noninteractive apt-get …`) before it
  while (words.length > 1 && (words[0] === 'sudo' || /^[A-Za-z_]\w*=/.test(words[0]))) words = words.slice(1);
  if (/^python[\d.]*$/.test(words[0] ?? '') && words[1] === '-m') words = words.slice(2);
  const [tool = '', ...rest] = words;
  if (SYSTEM_SETUP.has(tool)) return true;
  if (!INSTALLERS.has(tool)) return false;
  const args = rest.filter((w) => !w.startsWith('-'));
  if (!args.length) return tool === 'yarn';
  return INSTALL_VERBS.has(args[0]) || (NESTING_WORDS.has(args[0]) && INSTALL_VERBS.has(args[1] ?? ''));
}

/**
 * A command that only prepares the job, not a check: its chained commands install packages or tools (`npm ci`,
 * `pip install -e .[dev]`, `sudo apt-get install`, `cargo install`, `rustup component add`, `go install`,
 * `bundle install`) or write to $GITHUB_ENV, $GITHUB_PATH or $GITHUB_OUTPUT, the rest being shell plumbing
 * (`cd web && npm ci`). The CI part leaves these out, and its rank counts them as no tool run: on dtolnay/semver the
 * model read `npm install semver` and `echo RUSTFLAGS=… >> $GITHUB_ENV` as checks. The one rule of it.
 */
export function isSetup(command: string): boolean {
  const parts = commandParts(command, { pipes: false });
  return parts.some(setsUp) && parts.every((c) => setsUp(c) || isPlumbing(c));
}

/** The lower-case words of a text (letters and digits), with each pair joined too (`pre-commit`: `precommit`). */
function wordsOf(text: string): string[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return [...words, ...words.slice(1).map((w, i) => words[i] + w)];
}

/** A line of a step's script that runs no tool: a shell keyword or builtin, a variable assignment, `git config`. */
export function isPlumbing(command: string): boolean {
  const [first = '', second] = command.split(/\s+/);
  return SHELL_WORDS.has(first) || /^[A-Za-z_]\w*=/.test(first) || (first === 'git' && second === 'config');
}

/** The root package.json's scripts by name (none when it is not valid JSON or has none). */
export function scriptsOf(packageJson: string | null): ReadonlyMap<string, string> {
  let doc: unknown;
  try {
    doc = packageJson === null ? null : JSON.parse(packageJson);
  } catch {
    return new Map();
  }
  const scripts = isPlainObject(doc) && isPlainObject(doc.scripts) ? doc.scripts : {};
  return new Map(Object.entries(scripts).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as const] : [])));
}

/** What a command runs, as words: its own, and the command of a package script it runs by name. */
function commandWords(command: string, scripts: ReadonlyMap<string, string>): Set<string> {
  const parts = command.split(/\s+/);
  const own = SCRIPT_RUNNERS.has(parts[0]) ? parts.slice(1).flatMap((p) => scripts.get(p) ?? []) : [];
  return new Set(wordsOf([command, ...own].join(' ')));
}

const some = (words: Iterable<string>, set: ReadonlySet<string>): boolean => [...words].some((w) => set.has(w));

/**
 * Whether the action a step uses (`securego/gosec`, its ref left out) checks something: its name says it neither
 * prepares the job (SETUP_ACTION_WORDS) nor keeps the repository or ships it (BOOKKEEPING_WORDS: a project board, labels, a release).
 */
export function checksSomething(action: string): boolean {
  const words = wordsOf(action);
  return !some(words, SETUP_ACTION_WORDS) && !some(words, BOOKKEEPING_WORDS);
}

/** Where a CI file comes in the part: by `tier` (0 checks, 1 other commands, 2 bookkeeping, 3 no tool run), then `score` down. */
export interface CiRank {
  tier: number;
  score: number;
}

/** A CI file's commands, split once per walk: those that run a tool (its rank's), and those its line shows. */
export interface SplitCommands {
  /** Neither setup (isSetup) nor shell plumbing (isPlumbing), in order. */
  tools: string[];
  /**
   * The tools, then the plumbing — the plumbing alone only where there was no setup (a `cd web` before `npm ci` says
   * nothing on its own); none when the commands only set up the job.
   */
  shown: string[];
}

/** A CI file's (or a task target's) commands split into its tools and the lines shown (SplitCommands). */
export function splitCommands(commands: readonly string[]): SplitCommands {
  const kept = commands.filter((c) => !isSetup(c));
  const tools = kept.filter((c) => !isPlumbing(c));
  return { tools, shown: tools.length || kept.length === commands.length ? [...tools, ...kept.filter(isPlumbing)] : [] };
}

/**
 * A CI file's rank from its name (a workflow's `name:` and its file name) and the commands its steps run that run a
 * tool (splitCommands' `tools`; none for a file not read).
 */
export function ciRank(names: readonly string[], tools: readonly string[], scripts: ReadonlyMap<string, string>): CiRank {
  const named = new Set(names.flatMap(wordsOf));
  const checkName = some(named, CHECK_NAME_WORDS);
  let checks = 0;
  let builds = 0;
  for (const c of tools) {
    const words = commandWords(c, scripts);
    if (some(words, TEST_WORDS) || some(words, LINT_WORDS)) checks++;
    else if (some(words, BUILD_WORDS)) builds++;
  }
  if (!tools.length) return { tier: 3, score: 0 };
  if (!checkName && some(named, BOOKKEEPING_WORDS)) return { tier: 2, score: 0 };
  if (!checkName && !checks && !builds) return { tier: 1, score: 0 };
  return { tier: 0, score: 2 * checks + builds + (checkName ? 2 : 0) };
}

/** The order of two ranked files: the lower tier first, then the higher score, then by path. */
export const byRank = (a: { rank: CiRank; rel: string }, b: { rank: CiRank; rel: string }): number =>
  a.rank.tier - b.rank.tier || b.rank.score - a.rank.score || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

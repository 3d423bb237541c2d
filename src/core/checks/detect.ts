// The obvious check commands of a workspace, run only when none is configured (or `auto` asks for them: commands.ts),
// each only when its program is there (the virtual environment, the wrapper, or PATH: projectProbes.ts finds them):
//  - JavaScript/TypeScript (here): package.json's type check script (`typecheck`, or a name projects give it:
//    TYPECHECK_SCRIPTS), `lint` and `test` scripts (through the package manager its lockfile — or the workspace's — or
//    `packageManager` field names when that is on PATH, else npm), and `tsc --noEmit` when there is a tsconfig.json
//    and a local TypeScript but no type check script (a Vue or Svelte project's `vue-tsc`/`svelte-check` script
//    checks what tsc cannot read). A `test` script that runs the end-to-end suite too (it names e2e, Cypress or
//    Playwright: a build, a server and a browser) gives way to the `test:unit` script when there is one — the unit
//    tests are what checks DevA's code — and `test:unit` stands for a missing `test`;
//  - Python: pytest where the project configures or requires it, else its unittest suite (the command its tox.ini or
//    Makefile runs, or its tests/ folder's TestCase modules), and ruff, mypy and flake8 where it configures them
//    (detectPython.ts);
//  - Go, Rust, Ruby, Maven, Gradle and .NET (detectToolchains.ts);
//  - where none of those found a test command, at the root or in a sub-project, a C or C++ project's: the tests its
//    CMake build declares, run by CTest (detectCMake.ts), else the root Makefile's `test` (or `check`) target
//    (detectMake.ts).
// Each language (FAMILIES) the workspace's root has no check of is looked for in its sub-projects, the folders one
// level down and the members the root declares (detectSubprojects.ts: `cd backend && …`; those past its limit are
// counted, for the caller to say: detectedChecks' `leftOut`). Static checks come first (cheap), then the tests.
// Detected commands are never run without the user's consent (the caller asks; the CLI needs `--check auto`).
import * as path from 'path';
import type { CheckCommand, DetectFamily, FoundChecks } from './types';
import { DEFAULT_CAPE_FOLDER } from '../model/types';
import { exists, firstIn, nodeModulesUp, onPath, readJson } from './projectProbes';
import { pythonChecks } from './detectPython';
import { dotnetChecks, goChecks, jvmChecks, rubyChecks, rustChecks } from './detectToolchains';
import { subprojectChecks } from './detectSubprojects';
import { makeTestCheck } from './detectMake';
import { cmakeTestCheck } from './detectCMake';

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
 * The package manager that runs the scripts: the one the lockfile names (the project's, else the workspace's: a
 * package of a JavaScript workspace has none of its own), else package.json's `packageManager` field (`pnpm@9.1.0`,
 * corepack's) — when it is on PATH; else npm, which comes with Node and runs any script from the installed
 * node_modules (a missing pnpm would fail every check, on the unchanged code too, and cost DevA fix rounds).
 */
async function packageManager(dir: string, root: string, field: unknown): Promise<string> {
  // npm's own lockfile names no other manager: the field still decides then
  const lock = (await lockfileOf(dir)) ?? (await lockfileOf(root));
  const named = lock && lock.manager !== 'npm' ? lock.manager : typeof field === 'string' ? /^(pnpm|yarn|bun)@/.exec(field)?.[1] : undefined;
  return named && (await onPath([named])) ? named : 'npm';
}

/** The command that runs a package.json script with the package manager. */
function scriptCommand(manager: string, script: string): string {
  return manager === 'npm' && script === 'test' ? 'npm test' : `${manager} run ${script}`;
}

/** The project's TypeScript compiler, as a path relative to its folder (nodeModulesUp: its own, or one hoisted). */
async function localTsc(dir: string): Promise<string | null> {
  for (const modules of await nodeModulesUp(dir)) {
    const rel = [...modules, 'typescript', 'bin', 'tsc'];
    if (await exists(path.join(dir, ...rel))) return rel.join('/');
  }
  return null;
}

/** package.json's scripts, and tsc for a TypeScript project without a typecheck script, in `dir`: [static checks, tests]. */
async function nodeChecks(dir: string, root: string): Promise<FoundChecks> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  let scripts: Record<string, unknown> = {};
  let managerField: unknown;
  try {
    const pkg = (await readJson(path.join(dir, 'package.json'))) as { scripts?: unknown; packageManager?: unknown };
    if (pkg && typeof pkg.scripts === 'object' && pkg.scripts !== null && !Array.isArray(pkg.scripts)) scripts = pkg.scripts as Record<string, unknown>;
    managerField = pkg?.packageManager;
  } catch {
    /* no package.json, or not JSON: no scripts */
  }
  const has = (s: string) => typeof scripts[s] === 'string' && (scripts[s] as string).trim() !== '' && !(s === 'test' && NPM_PLACEHOLDER.test(scripts[s] as string));
  const typecheck = TYPECHECK_SCRIPTS.find(has);
  const test = has('test') && !(has(UNIT_TEST_SCRIPT) && RUNS_E2E.test(scripts.test as string)) ? 'test' : has(UNIT_TEST_SCRIPT) ? UNIT_TEST_SCRIPT : undefined;
  const picked = [typecheck, has('lint') ? 'lint' : undefined].filter((s) => s !== undefined);
  const tsc = !typecheck && (await exists(path.join(dir, 'tsconfig.json'))) ? await localTsc(dir) : null;
  if (tsc) statics.push({ command: `node ${tsc} --noEmit`, source: 'detected', reason: 'tsconfig.json and a local TypeScript' });
  const manager = picked.length || test ? await packageManager(dir, root, managerField) : 'npm';
  const script = (s: string): CheckCommand => ({ command: scriptCommand(manager, s), source: 'detected', reason: `package.json script "${s}"` });
  statics.push(...picked.map(script));
  if (test) tests.push(script(test));
  return [statics, tests];
}

/** The languages whose checks are detected, each by its own rules, in the order their commands are given. */
const FAMILIES: readonly DetectFamily[] = [nodeChecks, pythonChecks, goChecks, rustChecks, rubyChecks, jvmChecks, dotnetChecks];

/** What detectedChecks looks for, in a message that says none was found. */
export const DETECTED_CHECKS_SAYING =
  "package.json's typecheck (or type-check, check-types …), lint and test (or test:unit) scripts, tsconfig.json with a local TypeScript, pytest, ruff, mypy and flake8 where a Python project configures or requires them, its unittest suite (the command its tox.ini or Makefile runs, or its tests/ folder's TestCase modules), go.mod, Cargo.toml, RSpec, minitest and RuboCop, Maven, Gradle and .NET projects, else a Makefile's test or check target — each when its program is installed; at the workspace's root, and for a language the root has none of, in its sub-projects (folders one level down, members its manifests declare)";

/** What detection found: the commands, and the sub-projects with checks left out past MAX_SUBPROJECTS. */
export interface DetectedChecks {
  commands: CheckCommand[];
  /** Their folders, in order (pickSubprojects' `left`): the announcement says them (leftOutSubprojectsSaying). */
  leftOut: string[];
}

/**
 * The obvious check commands of a workspace (none when nothing is recognised): static checks first, then tests — the
 * root's, then its sub-projects' for each language the root has none of (detectSubprojects.ts; `capeFolder` is none) —
 * and the sub-projects left out, for its callers to say (the CLI's announcement, the consent, init's facts). Reads,
 * never runs anything.
 */
export async function detectedChecks(workspace: string, capeFolder: string = DEFAULT_CAPE_FOLDER): Promise<DetectedChecks> {
  const found = await Promise.all(FAMILIES.map((detect) => detect(workspace, workspace)));
  const missing = FAMILIES.filter((_, i) => !found[i][0].length && !found[i][1].length);
  // with no language missing, pickSubprojects reads no folder
  const subprojects = await subprojectChecks(workspace, missing, capeFolder);
  found.push(subprojects.found);
  // a C or C++ build's tests only where no language's own rules found a test command, nor in a sub-project: the ones
  // its CMake build declares, else its Makefile's target
  if (!found.some(([, tests]) => tests.length)) {
    const cmake = await cmakeTestCheck(workspace);
    found.push([[], cmake.length ? cmake : await makeTestCheck(workspace)]);
  }
  return { commands: [...found.flatMap(([statics]) => statics), ...found.flatMap(([, tests]) => tests)], leftOut: subprojects.left };
}

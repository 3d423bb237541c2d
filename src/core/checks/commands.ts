// The check commands a session runs, as configured: the list cleaned (the `cape.checks` setting, the CLI's `--check`),
// `auto` standing for the detected ones (detect.ts), and what kind of check each command is — a static check (lint,
// types) or one that runs tests, which is what its passing run proves (metrics/tsr.ts, fail-first).
import type { CheckCommand } from './types';
import { detectedChecks, TYPECHECK_SCRIPTS } from './detect';
import { escapeRegExp } from '../text/regexp';
import { commandParts } from '../text/shell';

/** The `--check` value (and setting entry) that stands for "the detected commands". */
export const AUTO_CHECK = 'auto';

/**
 * A command that checks the code without running its tests: a linter, formatter or type checker (`npm run lint`,
 * `npx standard`, `tsc --noEmit`, `npm run typecheck`, `ruff check .`, `mypy .`, `go vet ./...`, `cargo clippy`),
 * a project's type check script by any of its names (detect.ts TYPECHECK_SCRIPTS), and nothing that runs tests
 * besides (runsTests: `npm run lint && npm test`, `make lint test`). Its passing run proves no test (metrics/tsr.ts).
 */
const STATIC_CHECK = new RegExp(
  String.raw`(^|[\s/:\\])(lint|eslint|standard|prettier|biome|stylelint|xo|tsc|${TYPECHECK_SCRIPTS.map(escapeRegExp).join('|')}|ruff|flake8|mypy|pyright|pylint|black|isort|golangci-lint|staticcheck|rubocop|go\s+vet|cargo\s+(?:check|clippy|fmt))(\s|$|:|\.)`,
  'i',
);

/** A test runner, as the program a command runs (`npx vitest run`, `python -m pytest`, `bundle exec rspec`). */
const TEST_RUNNER = /^(jest|vitest|mocha|ava|karma|jasmine|playwright|cypress|pytest|py\.test|nose2|unittest|tox|nox|rspec|phpunit|ctest)$/i;
/** A program that runs a project's named scripts, tasks or targets (`npm test`, `make lint test`, `go test`). */
const TASK_RUNNER = /^(npm|yarn|pnpm|bun|deno|make|just|task|go|cargo|gradle|gradlew|mvn|mvnw|dotnet|rake|mix|sbt|swift)$/i;
/** A test script, task or target's name: `test`, `tests`, `test:unit`, `test-e2e`. */
const TEST_TASK = /^tests?(?:[:_-][\w:.-]*)?$/i;
/** A test script run by its path: `scripts/test.sh`, `run-tests.sh`. */
const TEST_SCRIPT = /(?:^|[-_.])tests?\.(?:sh|[cm]?js|py)$/i;
/** Words that run the program after them: package runners, environments, an interpreter and its `-m`. */
const WRAPPER = /^(npx|bunx|pnpx|exec|dlx|run|cross-env|env|time|nice|bundle|poetry|uv|pipenv|hatch|pdm|rye|python[\d.]*|node|-m)$/i;

/**
 * Whether a command runs tests, whatever else it runs: in one of its `&&`, `||`, `;` or `|` parts, a test task of a
 * task runner (`npm test`, `yarn test:unit`, `make lint test`, `go test`, `./gradlew test`), a test runner as the
 * program (`npx jest`, `python -m pytest`), a test script (`./scripts/test.sh`), or node's `--test`. A folder named
 * `test` given to a linter (`mypy src tests`, `eslint src test`) runs none.
 */
function runsTests(command: string): boolean {
  return commandParts(command).some((part) => {
    const words = part.split(/\s+/).filter((w) => !/^\w+=/.test(w));
    if (words.includes('--test')) return true;
    for (let i = 0; i < words.length; i++) {
      const w = words[i].slice(words[i].lastIndexOf('/') + 1);
      if (TASK_RUNNER.test(w)) return words.slice(i + 1).some((t) => !t.startsWith('-') && (TEST_TASK.test(t) || TEST_RUNNER.test(t)));
      if (WRAPPER.test(w) || w.startsWith('-')) continue;
      return TEST_RUNNER.test(w) || TEST_SCRIPT.test(w);
    }
    return false;
  });
}

export function isStaticCheck(command: string): boolean {
  return STATIC_CHECK.test(command) && !runsTests(command);
}

/** A configured list cleaned: trimmed, empty entries and repeats dropped (order kept). */
export function cleanCommandList(list: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of list) {
    if (typeof x !== 'string') continue;
    const c = x.trim();
    if (c && !seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  }
  return out;
}

export interface ResolvedChecks {
  /** The commands to run (configured ones, plus the detected ones when `auto` was asked for). */
  commands: CheckCommand[];
  /** Detected commands that are not run because nobody asked for them (the caller says which, or asks). */
  detectedNotRun: CheckCommand[];
  /** The sub-projects with checks detection left out (DetectedChecks.leftOut); none when it did not run or left none. */
  leftOut: string[];
}

/**
 * The commands to run for a configured list (setting or flags; `auto` in it stands for the detected ones). An empty
 * configured list runs nothing and reports what detection found, for the caller to mention or ask about. `capeFolder`
 * is no sub-project (detectedChecks).
 */
export async function resolveChecks(workspace: string, configured: readonly string[], source: 'setting' | 'flag', capeFolder?: string): Promise<ResolvedChecks> {
  const list = cleanCommandList(configured);
  const wantsAuto = list.some((c) => c.toLowerCase() === AUTO_CHECK);
  const explicit = list.filter((c) => c.toLowerCase() !== AUTO_CHECK).map((command): CheckCommand => ({ command, source }));
  if (explicit.length && !wantsAuto) return { commands: explicit, detectedNotRun: [], leftOut: [] };
  const { commands: found, leftOut } = await detectedChecks(workspace, capeFolder);
  const detected = found.filter((d) => !explicit.some((e) => e.command === d.command));
  if (wantsAuto) return { commands: [...explicit, ...detected], detectedNotRun: [], leftOut };
  return { commands: [], detectedNotRun: detected, leftOut };
}

// The check commands a session runs, as configured: the list cleaned (the `cape.checks` setting, the CLI's `--check`),
// `auto` standing for the detected ones (detect.ts), and what kind of check each command is — a static check (lint,
// types) or one that runs tests, which is what its passing run proves (metrics/tsr.ts, fail-first).
import type { CheckCommand } from './types';
import { detectChecks } from './detect';

/** The `--check` value (and setting entry) that stands for "the detected commands". */
export const AUTO_CHECK = 'auto';

/**
 * A command that checks the code without running its tests: a linter, formatter or type checker (`npm run lint`,
 * `npx standard`, `tsc --noEmit`, `npm run typecheck`, `ruff check .`, `mypy .`, `go vet ./...`, `cargo clippy`),
 * and nothing that runs tests besides (RUNS_TESTS: `npm run lint && npm test`, `make lint test`). Its passing run
 * proves no test (metrics/tsr.ts).
 */
const STATIC_CHECK =
  /(^|[\s/:\\])(lint|eslint|standard|prettier|biome|stylelint|xo|tsc|typecheck|type-check|check-types|ruff|flake8|mypy|pyright|pylint|black|isort|golangci-lint|staticcheck|rubocop|go\s+vet|cargo\s+(?:check|clippy|fmt))(\s|$|:|\.)/i;

/**
 * A command that runs tests, whatever else it runs: a `test` script, task or target word (`npm test`, `yarn
 * test:unit`, `make lint test`, `go test`, `./gradlew test`, `scripts/test.sh`), node's `--test`, or a test runner
 * by name.
 */
const RUNS_TESTS =
  /(^|[\s/:\\])(tests?|jest|vitest|mocha|ava|karma|jasmine|playwright|cypress|pytest|nose2|unittest|tox|rspec|phpunit|ctest)(\s|$|:|\.(?:sh|[cm]?js)\b)|\s--test\b/i;

export function isStaticCheck(command: string): boolean {
  return STATIC_CHECK.test(command) && !RUNS_TESTS.test(command);
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
}

/**
 * The commands to run for a configured list (setting or flags; `auto` in it stands for the detected ones). An empty
 * configured list runs nothing and reports what detection found, for the caller to mention or ask about.
 */
export async function resolveChecks(workspace: string, configured: readonly string[], source: 'setting' | 'flag'): Promise<ResolvedChecks> {
  const list = cleanCommandList(configured);
  const wantsAuto = list.some((c) => c.toLowerCase() === AUTO_CHECK);
  const explicit = list.filter((c) => c.toLowerCase() !== AUTO_CHECK).map((command): CheckCommand => ({ command, source }));
  if (explicit.length && !wantsAuto) return { commands: explicit, detectedNotRun: [] };
  const detected = (await detectChecks(workspace)).filter((d) => !explicit.some((e) => e.command === d.command));
  if (wantsAuto) return { commands: [...explicit, ...detected], detectedNotRun: [] };
  return { commands: [], detectedNotRun: detected };
}

// Which check commands run: the ones the user configured (the `cape.checks` setting, the CLI's `--check CMD`), or —
// only when none is configured — the obvious ones detected in the workspace: package.json's `typecheck`, `lint` and
// `test` scripts (through the package manager its lockfile names), and `tsc --noEmit` when there is a tsconfig.json
// and a local TypeScript but no typecheck script. Detected commands are never run without the user's consent (the
// caller asks; the CLI needs `--check auto`).
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { CheckCommand } from './types';

/** The `--check` value (and setting entry) that stands for "the detected commands". */
export const AUTO_CHECK = 'auto';

/** The package.json scripts a check may run, in the order they run (cheap first). */
const SCRIPTS = ['typecheck', 'lint', 'test'] as const;

/** npm's placeholder test script ("Error: no test specified") is not a test. */
const NPM_PLACEHOLDER = /no test specified/i;

async function exists(p: string): Promise<boolean> {
  return fsp.access(p).then(
    () => true,
    () => false,
  );
}

/** The command that runs a package.json script with the package manager the lockfile names (npm by default). */
async function scriptCommand(workspace: string, script: string): Promise<string> {
  if (await exists(path.join(workspace, 'pnpm-lock.yaml'))) return `pnpm run ${script}`;
  if (await exists(path.join(workspace, 'yarn.lock'))) return `yarn run ${script}`;
  if ((await exists(path.join(workspace, 'bun.lockb'))) || (await exists(path.join(workspace, 'bun.lock')))) return `bun run ${script}`;
  return script === 'test' ? 'npm test' : `npm run ${script}`;
}

/** The obvious check commands of a workspace (none when nothing is recognised). Reads, never runs anything. */
export async function detectChecks(workspace: string): Promise<CheckCommand[]> {
  const out: CheckCommand[] = [];
  let scripts: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse(await fsp.readFile(path.join(workspace, 'package.json'), 'utf8')) as { scripts?: unknown };
    if (pkg && typeof pkg.scripts === 'object' && pkg.scripts !== null && !Array.isArray(pkg.scripts)) scripts = pkg.scripts as Record<string, unknown>;
  } catch {
    /* no package.json, or not JSON: no scripts */
  }
  const has = (s: string) => typeof scripts[s] === 'string' && (scripts[s] as string).trim() !== '' && !(s === 'test' && NPM_PLACEHOLDER.test(scripts[s] as string));
  if (!has('typecheck') && (await exists(path.join(workspace, 'tsconfig.json'))) && (await exists(path.join(workspace, 'node_modules', 'typescript', 'bin', 'tsc')))) {
    out.push({ command: 'node node_modules/typescript/bin/tsc --noEmit', source: 'detected', reason: 'tsconfig.json and a local TypeScript' });
  }
  for (const s of SCRIPTS) {
    if (has(s)) out.push({ command: await scriptCommand(workspace, s), source: 'detected', reason: `package.json script "${s}"` });
  }
  return out;
}

/**
 * A command that checks the code without running its tests: a linter, formatter or type checker (`npm run lint`,
 * `npx standard`, `tsc --noEmit`, `npm run typecheck`). Its passing run proves no test (metrics/tsr.ts).
 */
const STATIC_CHECK = /(^|[\s/:])(lint|eslint|standard|prettier|biome|stylelint|xo|tsc|typecheck|type-check|check-types)(\s|$|:|\.)/i;

export function isStaticCheck(command: string): boolean {
  return STATIC_CHECK.test(command);
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

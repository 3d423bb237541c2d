// The flag → setting conversions of the session commands (`cape init/start/resume/repeat`): the base URL and the
// client, the task id, whole numbers, seconds, tool bounds, checks, the cost cap. Part of the CLI's session bundle
// (bundles.ts): `cape context` and `cape kpt` never load it.
import {
  AnthropicClient,
  LOOPBACK_PLACEHOLDER_KEY,
  baseUrlProblem,
  isLoopbackBaseUrl,
  normalizeBaseURL,
  type ToolBounds,
  toolsOn,
  DEFAULT_FIX_ROUNDS,
  resolveChecks,
  detectChecks,
  detectFormatter,
  DETECTED_CHECKS_SAYING,
  failFirstCommands,
  type ChecksConfig,
  costCapProblem,
  copyLimitOfMb,
  assertTaskId,
  API_KEY_VARIABLE,
} from '../core';
import { type Parsed, UsageError } from './flags';

/** The base URL from --base-url or ANTHROPIC_BASE_URL, checked before anything is written or sent. */
function baseUrlFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv): string {
  const fromFlag = typeof flags['base-url'] === 'string';
  const raw = String(fromFlag ? flags['base-url'] : (env.ANTHROPIC_BASE_URL ?? ''));
  if (!fromFlag && !raw.trim()) return normalizeBaseURL('');
  const problem = baseUrlProblem(raw);
  if (problem) throw new UsageError(`${fromFlag ? '--base-url' : 'ANTHROPIC_BASE_URL'} "${raw}" cannot be used: ${problem}.`);
  return normalizeBaseURL(raw);
}

export function clientFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv) {
  const baseURL = baseUrlFrom(flags, env);
  let apiKey = (flags['api-key'] as string | undefined) ?? env[API_KEY_VARIABLE];
  if (!apiKey) {
    // Local gateways and the test server need no key.
    if (isLoopbackBaseUrl(baseURL)) apiKey = LOOPBACK_PLACEHOLDER_KEY;
    else throw new UsageError(`No API key: pass --api-key KEY or set ${API_KEY_VARIABLE}.`);
  }
  const idleTimeoutMs = secondsAsMs(flags['idle-timeout'] ?? env.CAPE_IDLE_TIMEOUT_SECONDS, 'idle-timeout');
  return { client: new AnthropicClient({ apiKey, baseURL, idleTimeoutMs }), baseURL };
}

/**
 * --task ID, checked as the store checks a task id (assertTaskId: it becomes file names) before anything runs: a bad
 * one is a usage error. `required`: the message when it is missing (undefined returned otherwise).
 */
export function taskIdFrom(flags: Parsed['flags'], required?: string): string | undefined {
  const id = flags.task;
  if (id === undefined) {
    if (required) throw new UsageError(required);
    return undefined;
  }
  try {
    assertTaskId(id as string);
  } catch (e) {
    throw new UsageError(`--task: ${(e as Error).message}`);
  }
  return id as string;
}

/** A flag taking a whole number ≥ 0, or undefined when not given. */
export function wholeNumber(flags: Parsed['flags'], name: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isInteger(n) || n < 0) throw new UsageError(`--${name} takes a whole number ≥ 0 (got "${String(v)}").`);
  return n;
}

/** A flag (or its environment variable) taking a number of seconds > 0, as milliseconds; undefined when not given. */
function secondsAsMs(v: Parsed['flags'][string] | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a number of seconds > 0 (got "${String(v)}").`);
  if (n < 0.001) throw new UsageError(`--${name} ${v} is shorter than a millisecond: give at least 0.001 seconds.`);
  return Math.round(n * 1000);
}

/** --max-tool-calls / --max-tool-chars: whole numbers ≥ 0 (either 0 turns the tools off: core/tools toolsOn). */
export function toolBoundsFrom(flags: Parsed['flags']): Partial<ToolBounds> | false {
  const maxCalls = wholeNumber(flags, 'max-tool-calls');
  const maxChars = wholeNumber(flags, 'max-tool-chars');
  const bounds = { ...(maxCalls !== undefined ? { maxCalls } : {}), ...(maxChars !== undefined ? { maxChars } : {}) };
  return toolsOn(bounds) ? bounds : false;
}

/** --check-copy-limit MB: a number of MB > 0, as the copy limit (copyLimitOfMb raises one under its minimum); undefined when not given. */
function copyLimitFrom(flags: Parsed['flags']): ChecksConfig['copyLimit'] {
  const v = flags['check-copy-limit'];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--check-copy-limit takes a number of MB > 0 (got "${String(v)}").`);
  return copyLimitOfMb(n);
}

/**
 * The checks of `cape start/resume`: `--check CMD` (repeatable; `auto` = the detected ones), `--fix-rounds N`,
 * `--check-timeout S`, `--check-copy-limit MB`, `--fail-first`, `--no-format`. Without --check, the detected commands
 * are named and not run (`notRun`: the agents are told).
 */
export async function checksFrom(
  flags: Parsed['flags'],
  workspace: string,
  out: NodeJS.WritableStream,
): Promise<{ config?: ChecksConfig; notRun?: string[] }> {
  const fixRounds = wholeNumber(flags, 'fix-rounds');
  const timeoutMs = secondsAsMs(flags['check-timeout'], 'check-timeout');
  const copyLimit = copyLimitFrom(flags);
  const given = flags.check as string[] | undefined;
  if (!given) {
    if (fixRounds !== undefined || timeoutMs !== undefined || copyLimit || flags['fail-first'] || flags['no-format']) {
      throw new UsageError('--fix-rounds, --check-timeout, --check-copy-limit, --fail-first and --no-format go with --check CMD (or --check auto).');
    }
    const detected = await detectChecks(workspace);
    if (detected.length) {
      out.write(`Checks detected but not run (pass --check auto to run them on DevA's proposal): ${detected.map((d) => `${d.command} (${d.reason})`).join(', ')}\n`);
      return { notRun: detected.map((d) => d.command) };
    }
    return {};
  }
  const resolved = await resolveChecks(workspace, given, 'flag');
  if (!resolved.commands.length) {
    out.write(`--check auto: no check command detected (looked for ${DETECTED_CHECKS_SAYING}); name one with --check CMD. No checks run.\n`);
    return {};
  }
  const rounds = fixRounds ?? DEFAULT_FIX_ROUNDS;
  const failFirst = flags['fail-first'] === true;
  const testCommands = failFirstCommands(resolved.commands.map((c) => c.command)).run.map((c) => `\`${c}\``);
  const failFirstSaying = !failFirst
    ? ''
    : testCommands.length
      ? `; then ${testCommands.join(', ')} once more with only DevA's test files, on the unchanged workspace`
      : '; fail-first runs nothing: every check is a static one (lint, types), which runs no test';
  out.write(`Checks on DevA's proposal: ${resolved.commands.map((c) => c.command).join(', ')} (up to ${rounds} fix round${rounds === 1 ? '' : 's'}${failFirstSaying})\n`);
  const formatter = flags['no-format'] ? null : await detectFormatter(workspace);
  if (formatter) out.write(`Before they run, the project's formatter (${formatter.name}) lays out DevA's files, as on save (--no-format to leave them as DevA wrote them)\n`);
  return { config: { commands: resolved.commands.map((c) => c.command), fixRounds, timeoutMs, ...(copyLimit ? { copyLimit } : {}), ...(failFirst ? { failFirst } : {}), ...(flags['no-format'] ? { format: false } : {}) } };
}

/** --max-cost USD: an amount greater than 0. */
export function maxCostFrom(flags: Parsed['flags']): number | undefined {
  const v = flags['max-cost'];
  if (v === undefined) return undefined;
  const n = Number(String(v).replace(/^\$/, ''));
  const problem = costCapProblem(n);
  if (problem || !String(v).trim()) throw new UsageError(`--max-cost takes an amount in USD greater than 0, e.g. --max-cost 0.50 (got "${v}").`);
  return n;
}

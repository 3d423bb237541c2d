// The flag → setting conversions of the session commands (`cape init/start/resume/repeat`): the base URL and the
// client (its key from a file, stdin, the environment or the command line), the text a file flag names, the task id,
// whole numbers, seconds, tool bounds, checks, the cost cap. Part of the CLI's session bundle (bundles.ts): `cape
// context` and `cape kpt` never load it.
import * as path from 'path';
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
  detectedChecks,
  leftOutSubprojectsSaying,
  detectFormatters,
  formattersLayOut,
  DETECTED_CHECKS_SAYING,
  failFirstPlan,
  type ChecksConfig,
  costCapProblem,
  copyLimitOfMb,
  assertTaskId,
  API_KEY_VARIABLE,
  CLI_KEY_WAYS,
  notTextReason,
  readTextFile,
} from '../core';
import { type Parsed, UsageError, capeFolderFlag } from './flags';

/** The base URL from --base-url or ANTHROPIC_BASE_URL, checked before anything is written or sent. */
function baseUrlFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv): string {
  const fromFlag = typeof flags['base-url'] === 'string';
  const raw = String(fromFlag ? flags['base-url'] : (env.ANTHROPIC_BASE_URL ?? ''));
  if (!fromFlag && !raw.trim()) return normalizeBaseURL('');
  const problem = baseUrlProblem(raw);
  if (problem) throw new UsageError(`${fromFlag ? '--base-url' : 'ANTHROPIC_BASE_URL'} "${raw}" cannot be used: ${problem}.`);
  return normalizeBaseURL(raw);
}

/** The text without a leading byte-order mark. */
const withoutBom = (text: string): string => text.replace(/^\uFEFF/, '');

/**
 * The text of the file a flag names (`--objective-file PATH`, `--api-key-file PATH`), or of stdin for `-` (piped: never
 * a terminal's); input that is not text (binary, not UTF-8) is a usage error, never decoded lossily. `what` names it
 * in messages ("the objective"); `source` says where it was read, for the caller's own. A leading byte-order mark (what
 * an editor on Windows may write) is left out.
 */
export async function fileFlagText(flag: string, file: string, what: string): Promise<{ text: string; source: string }> {
  if (file === '-') {
    if (process.stdin.isTTY) throw new UsageError(`--${flag} - reads ${what} from stdin, but stdin is a terminal: pipe it in, or pass a file.`);
    const parts: Buffer[] = [];
    for await (const c of process.stdin) parts.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
    const bytes = Buffer.concat(parts);
    const notText = notTextReason(bytes);
    if (notText) throw new UsageError(`--${flag} -: ${what} read from stdin cannot be used: ${notText}.`);
    return { text: withoutBom(bytes.toString('utf8')), source: `${what[0].toUpperCase()}${what.slice(1)} read from stdin` };
  }
  const abs = path.resolve(file);
  try {
    return { text: withoutBom(await readTextFile(abs)), source: `${what[0].toUpperCase()}${what.slice(1)} in ${abs}` };
  } catch (e) {
    throw new UsageError(`--${flag}: ${(e as Error).message}`);
  }
}

/**
 * What `--api-key` prints: a command line is no place for a secret. Any process can read it (`ps`, /proc/PID/cmdline)
 * until maskInCommandLine writes it over, and a platform may not let it (checks/checkEnv.ts hides the key in their output, not in
 * what they can read).
 */
const API_KEY_FLAG_WARNING = `warning: --api-key puts the key on the command line, where other processes can read it (ps, /proc) until cape writes it over; give it with ${CLI_KEY_WAYS} (- for stdin) instead.`;

/**
 * The command line written over with `key` as `***` (process.title: on Linux and macOS Node writes it over the memory
 * /proc/PID/cmdline and ps read), so what starts after the key is read — the project's checks — no longer finds it
 * there; the moments before are the flag's risk, which the warning names. Where a platform cannot, the line stays.
 */
function maskInCommandLine(key: string): void {
  if (!process.argv.some((a) => a.includes(key))) return;
  try {
    process.title = process.argv.map((a) => a.split(key).join('***')).join(' ');
  } catch {
    // the warning stands
  }
}

/** The API key: --api-key-file PATH (`-`: stdin), --api-key KEY (with API_KEY_FLAG_WARNING), or ANTHROPIC_API_KEY. */
async function apiKeyFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): Promise<string | undefined> {
  const file = flags['api-key-file'];
  if (typeof file === 'string') {
    if (flags['api-key'] !== undefined) throw new UsageError('Give the API key once: --api-key-file PATH or --api-key KEY, not both.');
    const { text, source } = await fileFlagText('api-key-file', file, 'the API key');
    const key = text.trim();
    if (!key || /\s/.test(key)) throw new UsageError(`${source} must be the key alone, on one line (${key ? 'it holds blanks' : 'it is empty'}).`);
    return key;
  }
  if (typeof flags['api-key'] === 'string') {
    stderr.write(`cape: ${API_KEY_FLAG_WARNING}\n`);
    maskInCommandLine(flags['api-key']);
    return flags['api-key'];
  }
  return env[API_KEY_VARIABLE];
}

export async function clientFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream) {
  const baseURL = baseUrlFrom(flags, env);
  let apiKey = await apiKeyFrom(flags, env, stderr);
  if (!apiKey) {
    // Local gateways and the test server need no key.
    if (isLoopbackBaseUrl(baseURL)) apiKey = LOOPBACK_PLACEHOLDER_KEY;
    else throw new UsageError(`No API key: give it with ${CLI_KEY_WAYS} (- for stdin).`);
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

/** The sub-projects with checks that detection left out (leftOutSubprojectsSaying), on a line of their own. */
function sayLeftOut(out: NodeJS.WritableStream, leftOut: readonly string[]): void {
  if (leftOut.length) out.write(`${leftOutSubprojectsSaying(leftOut, (example) => `name theirs with --check "${example}"`)}\n`);
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
  const capeFolder = capeFolderFlag(flags['cape-folder']);
  if (!given) {
    if (fixRounds !== undefined || timeoutMs !== undefined || copyLimit || flags['fail-first'] || flags['no-format']) {
      throw new UsageError('--fix-rounds, --check-timeout, --check-copy-limit, --fail-first and --no-format go with --check CMD (or --check auto).');
    }
    const { commands: detected, leftOut } = await detectedChecks(workspace, capeFolder);
    if (detected.length) {
      out.write(`Checks detected but not run (pass --check auto to run them on DevA's proposal): ${detected.map((d) => `${d.command} (${d.reason})`).join(', ')}\n`);
      sayLeftOut(out, leftOut);
      return { notRun: detected.map((d) => d.command) };
    }
    return {};
  }
  const resolved = await resolveChecks(workspace, given, 'flag', capeFolder);
  if (!resolved.commands.length) {
    out.write(`--check auto: no check command detected (looked for ${DETECTED_CHECKS_SAYING}); name one with --check CMD. No checks run.\n`);
    return {};
  }
  const rounds = fixRounds ?? DEFAULT_FIX_ROUNDS;
  const failFirst = flags['fail-first'] === true;
  const testCommands = failFirstPlan(resolved.commands.map((c) => c.command), (c) => `\`${c}\``);
  const failFirstSaying = !failFirst
    ? ''
    : testCommands.length
      ? `; then ${testCommands.join(', ')} once more with only DevA's test files, on the unchanged workspace`
      : '; fail-first runs nothing: every check is a static one (lint, types), which runs no test';
  out.write(`Checks on DevA's proposal: ${resolved.commands.map((c) => c.command).join(', ')} (up to ${rounds} fix round${rounds === 1 ? '' : 's'}${failFirstSaying})\n`);
  sayLeftOut(out, resolved.leftOut);
  const formatters = flags['no-format'] ? [] : await detectFormatters(workspace, capeFolder);
  if (formatters.length) out.write(`Before they run, ${formattersLayOut(formatters)} DevA's files, as on save (--no-format to leave them as DevA wrote them)\n`);
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

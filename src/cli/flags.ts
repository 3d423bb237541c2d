// The CLI's arguments: the flags each command takes (node:util parseArgs), usage errors, and the flag → setting
// conversions every command shares (base URL and client, whole numbers, seconds, tool bounds, checks, cost cap).
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'util';
import {
  AnthropicClient,
  LOOPBACK_PLACEHOLDER_KEY,
  baseUrlProblem,
  isLoopbackBaseUrl,
  normalizeBaseURL,
  type ToolBounds,
  DEFAULT_FIX_ROUNDS,
  resolveChecks,
  detectChecks,
  type ChecksConfig,
  costCapProblem,
} from '../core';

export interface Parsed {
  command: string;
  /** A repeatable flag (REPEATABLE) holds every value given, in order. */
  flags: Record<string, string | boolean | string[]>;
}

/** Every flag of every command (util.parseArgs's option table): booleans are switches, strings take a value. */
const OPTIONS = {
  apply: { type: 'boolean' },
  json: { type: 'boolean' },
  force: { type: 'boolean' },
  'missing-only': { type: 'boolean' },
  help: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'max-tool-calls': { type: 'string' },
  'max-tool-chars': { type: 'string' },
  'feedback-rounds': { type: 'string' },
  'max-cost': { type: 'string' },
  times: { type: 'string' },
  'idle-timeout': { type: 'string' },
  workspace: { type: 'string' },
  objective: { type: 'string' },
  'objective-file': { type: 'string' },
  'from-step': { type: 'string' },
  lang: { type: 'string' },
  task: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  model: { type: 'string' },
  answers: { type: 'string' },
  'init-model': { type: 'string' },
  'cape-folder': { type: 'string' },
  check: { type: 'string' },
  'fix-rounds': { type: 'string' },
  'check-timeout': { type: 'string' },
  answer: { type: 'string' },
  'skip-questions': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * Text flags whose empty value (`--model ""`, `--check=`) would silently stand for a default, for `auto` or for the
 * current folder. Numbers, the objective, the answers, the workspace and the base URL explain an empty value in
 * their own checks.
 */
const NOT_EMPTY = new Set(['check', 'model', 'init-model', 'lang', 'task', 'api-key', 'objective-file', 'answers', 'cape-folder']);

/** Flags that may be given several times; every value is kept (other flags: the last occurrence wins). */
const REPEATABLE = new Set(['check', 'answer']);

export class UsageError extends Error {}

/** The exit code of a session or rerun stopped with Ctrl-C (128 + SIGINT, what a shell reports); it is resumable. */
export const EXIT_INTERRUPTED = 130;

/**
 * `cape <command> --flag value --flag=value --switch`. Node's util.parseArgs tokenizes (`=` values, the value in
 * the next argument even when it starts with a dash, `--` as a terminator); the checks below keep CAPE's own
 * messages: a positional or short option is "Unexpected argument", an unknown flag names itself, a value flag
 * without a value says so. A switch given `=value` is simply on. The last occurrence of a flag wins, except for a
 * repeatable flag (`--check`), which collects its values.
 */
export function parseArgs(argv: string[]): Parsed {
  const [command = 'help', ...rest] = argv;
  const { tokens } = nodeParseArgs({ args: rest, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const flags: Parsed['flags'] = {};
  for (const t of tokens) {
    if (t.kind === 'positional') throw new UsageError(`Unexpected argument "${t.value}". Flags start with --; see \`cape help\`.`);
    if (t.kind === 'option-terminator') throw new UsageError('Unexpected argument "--". Flags start with --; see `cape help`.');
    if (!t.rawName.startsWith('--')) {
      throw new UsageError(`Unexpected argument "${rest[t.index]}". Flags start with --; see \`cape help\`.`);
    }
    const spec = (OPTIONS as Record<string, { type: 'boolean' | 'string' }>)[t.name];
    if (!spec || !Object.hasOwn(OPTIONS, t.name)) throw new UsageError(`Unknown flag --${t.name}; see \`cape help\`.`);
    if (spec.type === 'boolean') flags[t.name] = true;
    else if (t.value === undefined) throw new UsageError(`--${t.name} needs a value.`);
    else if (!t.value.trim() && NOT_EMPTY.has(t.name)) throw new UsageError(`--${t.name} needs a value, not an empty one.`);
    else if (REPEATABLE.has(t.name)) flags[t.name] = [...((flags[t.name] as string[] | undefined) ?? []), t.value];
    else flags[t.name] = t.value;
  }
  return { command, flags };
}

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
  let apiKey = (flags['api-key'] as string | undefined) ?? env.ANTHROPIC_API_KEY;
  if (!apiKey) {
    // Local gateways and the test server need no key.
    if (isLoopbackBaseUrl(baseURL)) apiKey = LOOPBACK_PLACEHOLDER_KEY;
    else throw new UsageError('No API key: pass --api-key KEY or set ANTHROPIC_API_KEY.');
  }
  const idleTimeoutMs = secondsAsMs(flags['idle-timeout'] ?? env.CAPE_IDLE_TIMEOUT_SECONDS, 'idle-timeout');
  return { client: new AnthropicClient({ apiKey, baseURL, idleTimeoutMs }), baseURL };
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

/** --max-tool-calls / --max-tool-chars: whole numbers ≥ 0 (0 calls turns the tools off). */
export function toolBoundsFrom(flags: Parsed['flags']): Partial<ToolBounds> | false {
  const maxCalls = wholeNumber(flags, 'max-tool-calls');
  const maxChars = wholeNumber(flags, 'max-tool-chars');
  if (maxCalls === 0) return false;
  return { ...(maxCalls !== undefined ? { maxCalls } : {}), ...(maxChars !== undefined ? { maxChars } : {}) };
}

/**
 * The checks of `cape start/resume`: `--check CMD` (repeatable; `auto` = the detected ones), `--fix-rounds N`,
 * `--check-timeout S`. Without --check, the detected commands are named and not run.
 */
export async function checksFrom(flags: Parsed['flags'], workspace: string, out: NodeJS.WritableStream): Promise<ChecksConfig | undefined> {
  const fixRounds = wholeNumber(flags, 'fix-rounds');
  const timeoutMs = secondsAsMs(flags['check-timeout'], 'check-timeout');
  const given = flags.check as string[] | undefined;
  if (!given) {
    if ((fixRounds !== undefined || timeoutMs !== undefined)) throw new UsageError('--fix-rounds and --check-timeout go with --check CMD (or --check auto).');
    const detected = await detectChecks(workspace);
    if (detected.length) {
      out.write(`Checks detected but not run (pass --check auto to run them on DevA's proposal): ${detected.map((d) => `${d.command} (${d.reason})`).join(', ')}\n`);
    }
    return undefined;
  }
  const resolved = await resolveChecks(workspace, given, 'flag');
  if (!resolved.commands.length) {
    out.write('--check auto: no check command detected (no typecheck, lint or test script in package.json, no tsconfig.json with a local TypeScript); no checks run.\n');
    return undefined;
  }
  const rounds = fixRounds ?? DEFAULT_FIX_ROUNDS;
  out.write(`Checks on DevA's proposal: ${resolved.commands.map((c) => c.command).join(', ')} (up to ${rounds} fix round${rounds === 1 ? '' : 's'})\n`);
  return { commands: resolved.commands.map((c) => c.command), fixRounds, timeoutMs };
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

export function requireWorkspace(flags: Parsed['flags']): string {
  const ws = flags.workspace;
  if (typeof ws !== 'string' || !ws) throw new UsageError('--workspace DIR is required.');
  const abs = path.resolve(ws);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new UsageError(`The workspace ${abs} is not a folder.`);
  return abs;
}

// The CLI's arguments: the flags each command takes (node:util parseArgs; COMMAND_FLAGS, which `cape help`'s usage
// lines are written from: flagUsages), usage errors, the workspace flag, and how an error becomes an exit code. The dispatcher (main.ts) and every command use this module, so it stays light: the
// flag → setting conversions of the session commands (client, numbers, checks, cost cap) are in settings.ts, part of
// the CLI's session bundle (bundles.ts).
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'util';
import { ENDING_SIGNALS } from '../core/checks/processEnd';
import { capeFolderKey, DEFAULT_CAPE_FOLDER } from '../core/model/types';

export interface Parsed {
  command: string;
  /** A repeatable flag (REPEATABLE) holds every value given, in order. */
  flags: Record<string, string | boolean | string[]>;
}

/** Every flag of every session command (util.parseArgs's option table): booleans are switches, strings take a value. */
const OPTIONS = {
  apply: { type: 'boolean' },
  json: { type: 'boolean' },
  force: { type: 'boolean' },
  'missing-only': { type: 'boolean' },
  help: { type: 'boolean' },
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
  'api-key-file': { type: 'string' },
  model: { type: 'string' },
  answers: { type: 'string' },
  'init-model': { type: 'string' },
  'cape-folder': { type: 'string' },
  check: { type: 'string' },
  'fix-rounds': { type: 'string' },
  'check-timeout': { type: 'string' },
  'check-copy-limit': { type: 'string' },
  'fail-first': { type: 'boolean' },
  'no-format': { type: 'boolean' },
  answer: { type: 'string' },
  'skip-questions': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type Flag = keyof typeof OPTIONS;

/** The client's flags: the API's address and key (from a file or stdin, or given), how long a silent stream is waited for. */
const CLIENT_FLAGS: readonly Flag[] = ['base-url', 'api-key-file', 'api-key', 'idle-timeout'];
/** The flags of every command that runs sessions: the model, the cape folder, JSON, tool bounds, cost cap, the client. */
const SESSION_FLAGS: readonly Flag[] = ['model', 'cape-folder', 'json', 'max-tool-calls', 'max-tool-chars', 'max-cost', ...CLIENT_FLAGS];
/** `cape start`'s and `cape resume`'s besides: the task, --apply, the checks and DevA's questions to DA. */
const RUN_FLAGS: readonly Flag[] = ['task', 'apply', 'check', 'fix-rounds', 'check-timeout', 'check-copy-limit', 'fail-first', 'no-format', 'feedback-rounds', ...SESSION_FLAGS];

/**
 * The flags each command takes besides --workspace and --help (every command's), its own first: `cape help`'s usage
 * lines list them in this order (flagUsages). A flag of another command is a usage error naming both, not silently
 * ignored (`cape repeat --check auto` runs no check). `cape context`, `cape kpt` and `cape housekeeping` parse their
 * own flags (context.ts, kpt.ts).
 */
const COMMAND_FLAGS: Readonly<Record<string, readonly Flag[]>> = {
  init: ['answers', 'force', 'missing-only', 'lang', 'init-model', 'cape-folder', 'json', ...CLIENT_FLAGS],
  start: ['objective', 'objective-file', 'lang', ...RUN_FLAGS],
  resume: ['from-step', 'answer', 'skip-questions', ...RUN_FLAGS],
  repeat: ['task', 'times', ...SESSION_FLAGS],
};

type ValueFlag = { [K in Flag]: (typeof OPTIONS)[K]['type'] extends 'string' ? K : never }[Flag];

/** What each flag that takes a value calls it in `cape help`'s usage lines (`--times N`). */
const VALUE_NAMES: Record<ValueFlag, string> = {
  'max-tool-calls': 'N',
  'max-tool-chars': 'N',
  'feedback-rounds': 'N',
  'max-cost': 'USD',
  times: 'N',
  'idle-timeout': 'S',
  workspace: 'DIR',
  objective: 'TEXT',
  'objective-file': 'PATH',
  'from-step': 'STEP',
  lang: 'LANG',
  task: 'ID',
  'base-url': 'URL',
  'api-key': 'KEY',
  'api-key-file': 'PATH',
  model: 'MODEL',
  answers: 'FILE',
  'init-model': 'M',
  'cape-folder': 'NAME',
  check: 'CMD|auto',
  'fix-rounds': 'N',
  'check-timeout': 'S',
  'check-copy-limit': 'MB',
  answer: 'TEXT',
};

/** The commands with a flag list (COMMAND_FLAGS): init, start, resume, repeat. */
export const FLAGGED_COMMANDS: readonly string[] = Object.keys(COMMAND_FLAGS);

/**
 * `command`'s flags as its usage line writes them, optional: `[--times N]`, `[--apply]`, `[--check CMD|auto]…`
 * (repeatable), in COMMAND_FLAGS's order, leaving out those `written` names already (what its line puts first).
 */
export function flagUsages(command: string, written = ''): string[] {
  return (COMMAND_FLAGS[command] ?? [])
    .filter((f) => !new RegExp(`--${f}(?![\\w-])`).test(written))
    .map((f) => `[--${f}${f in VALUE_NAMES ? ` ${VALUE_NAMES[f as ValueFlag]}` : ''}]${REPEATABLE.has(f) ? '…' : ''}`);
}

/** Every flag a command of COMMAND_FLAGS may take (--workspace and --help are every command's). */
export function knownFlags(): string[] {
  return Object.keys(OPTIONS);
}

/** Why `command` refuses the known flag `name` (a flag of other commands), or null when it takes it. */
function otherCommandsFlag(command: string, name: Flag): string | null {
  if (!Object.hasOwn(COMMAND_FLAGS, command) || name === 'workspace' || name === 'help' || COMMAND_FLAGS[command].includes(name)) return null;
  const takers = Object.keys(COMMAND_FLAGS).filter((c) => COMMAND_FLAGS[c].includes(name)).map((c) => `\`cape ${c}\``);
  const of = takers.length > 1 ? `${takers.slice(0, -1).join(', ')} and ${takers[takers.length - 1]}` : takers[0];
  return `--${name} is not a flag of \`cape ${command}\` (only of ${of}); see \`cape help\`.`;
}

/**
 * Text flags whose empty value (`--model ""`, `--check=`) would silently stand for a default, for `auto` or for the
 * current folder. Numbers, the objective, the answers, the workspace and the base URL explain an empty value in
 * their own checks.
 */
const NOT_EMPTY = new Set(['check', 'model', 'init-model', 'lang', 'task', 'api-key', 'api-key-file', 'objective-file', 'answers', 'cape-folder']);

/** Flags whose value `-` reads stdin: one input, so at most one of them takes it. */
const STDIN_FLAGS = ['objective-file', 'api-key-file'];

/** Flags that may be given several times; every value is kept (other flags: the last occurrence wins). */
const REPEATABLE = new Set(['check', 'answer']);

export class UsageError extends Error {}

/**
 * The --cape-folder flag in the normal form the setting has too (capeFolderKey: `cape/`, `./cape` and `cape` are one
 * folder), DEFAULT_CAPE_FOLDER without the flag. A blank value stays blank, for capeFolderRefusal to refuse.
 */
export function capeFolderFlag(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_CAPE_FOLDER;
  const trimmed = value.trim();
  return trimmed ? capeFolderKey(trimmed) : trimmed;
}

/** The exit code of a session or rerun stopped with Ctrl-C (128 + SIGINT, what a shell reports); it is resumable. */
export const EXIT_INTERRUPTED = 130;

/**
 * The signals that stop a session or rerun as Stop does: those that end a process (Ctrl-C, the terminal closed, `kill`:
 * processEnd.ts ENDING_SIGNALS). Without a handler the process would die at once, leaving a check's process group
 * running (it is detached) and the scratch copy behind.
 */
const STOP_SIGNALS = ENDING_SIGNALS;

/** Aborts `controller` on the first of STOP_SIGNALS (a second one ends the process as usual); returns what removes the handlers. */
export function abortOnStopSignals(controller: AbortController): () => void {
  const remove = () => {
    for (const s of STOP_SIGNALS) process.removeListener(s, onSignal);
  };
  const onSignal = () => {
    remove();
    controller.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  return remove;
}

/**
 * The exit code when the reader of the CLI's output closed it (`cape kpt list | head -1`): 128 + SIGPIPE, what a
 * shell reports for git or seq stopped the same way. The command stops at once, without a message.
 */
export const EXIT_OUTPUT_CLOSED = 141;

/**
 * `cape <command> --flag value --flag=value --switch`. Node's util.parseArgs tokenizes (`=` values, the value in
 * the next argument even when it starts with a dash, `--` as a terminator); the checks below keep CAPE's own
 * messages: a positional or short option is "Unexpected argument", an unknown flag names itself, another command's
 * flag names both (COMMAND_FLAGS), a value flag without a value says so. A switch given `=value` is simply on. The last occurrence of a flag wins, except for a
 * repeatable flag (`--check`), which collects its values. Two flags that would both read stdin (`-`) are refused.
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
    const elsewhere = otherCommandsFlag(command, t.name as Flag);
    if (elsewhere) throw new UsageError(elsewhere);
    if (spec.type === 'boolean') flags[t.name] = true;
    else if (t.value === undefined) throw new UsageError(`--${t.name} needs a value.`);
    else if (!t.value.trim() && NOT_EMPTY.has(t.name)) throw new UsageError(`--${t.name} needs a value, not an empty one.`);
    else if (REPEATABLE.has(t.name)) flags[t.name] = [...((flags[t.name] as string[] | undefined) ?? []), t.value];
    else flags[t.name] = t.value;
  }
  const fromStdin = STDIN_FLAGS.filter((f) => flags[f] === '-');
  if (fromStdin.length > 1) throw new UsageError(`${fromStdin.map((f) => `--${f} -`).join(' and ')} would both read stdin: give one of them a file.`);
  return { command, flags };
}

/** --workspace DIR, resolved: an existing folder. */
export function requireWorkspace(flags: Parsed['flags']): string {
  const ws = flags.workspace;
  if (typeof ws !== 'string' || !ws) throw new UsageError('--workspace DIR is required.');
  const abs = path.resolve(ws);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new UsageError(`The workspace ${abs} is not a folder.`);
  return abs;
}

/**
 * The exit code of a command that threw, its message written to stderr: 2 for a usage error, 1 otherwise. The
 * dispatcher and the session bundle's entry (sessionCommands.ts) each use their own copy of this module, so each
 * checks its own UsageError class.
 */
export function exitCodeOf(e: unknown, stderr: NodeJS.WritableStream): number {
  if (e instanceof UsageError) {
    stderr.write(`cape: ${e.message}\n`);
    return 2;
  }
  stderr.write(`cape: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
}

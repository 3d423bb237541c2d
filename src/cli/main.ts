// `cape` — the headless CLI over the same core engine the VS Code extension uses.
//
//   cape init   --workspace DIR [--answers FILE] [--force] [--missing-only] [--lang LANG] [--model M]
//   cape start  --workspace DIR --objective TEXT [--lang LANG] [--task ID] [--apply] [--json]
//   cape start  --workspace DIR --objective-file PATH|- …   (the objective from a file, or stdin)
//   cape resume --workspace DIR --task ID [--from-step STEP] [--answer TEXT]… [--skip-questions] [--apply] [--json]
//   cape context --workspace DIR --objective TEXT [--step deva|da] [--budget CHARS] [--json]   (src/cli/context.ts)
//   cape kpt list|mark …, cape housekeeping …   KPT statuses and the archive (src/cli/kpt.ts)
//   cape repeat --workspace DIR --task ID --times N [--json]   (reruns a saved session's objective: RR)
//   common: --base-url URL (without /v1) --api-key KEY --model MODEL  (or ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY)
//
// It never waits for input when stdin is not a terminal (a session paused for the Cape Master's questions then ends
// with exit code 2, resumable with --answer), and writes nothing outside cape/ without --apply.

import * as fs from 'fs';
import * as path from 'path';
import * as readline from 'readline';
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'util';
import {
  AnthropicClient,
  DEFAULT_BASE_URL,
  DEFAULT_IDLE_TIMEOUT_MS,
  LOOPBACK_PLACEHOLDER_KEY,
  MAX_OBJECTIVE_CHARS,
  baseUrlProblem,
  isLoopbackBaseUrl,
  objectiveProblem,
  readTextFile,
  normalizeBaseURL,
  INIT_QUESTIONS,
  initCape,
  parseAnswersFile,
  type InitAnswers,
  applyProposedFiles,
  defaultPromptsDir,
  loadPromptAssets,
  runSession,
  type SessionResult,
  STEP_AGENT,
  formatUsd,
  STEP_IDS,
  stepTitle,
  DEFAULT_SESSION_MODEL,
  DEFAULT_INIT_MODEL,
  type ProposedFile,
  type SessionEvent,
  type StepId,
  DEFAULT_MAX_TOOL_CALLS,
  DEFAULT_MAX_TOOL_CHARS,
  type ToolBounds,
  describeToolCall,
  DEFAULT_CAPE_FOLDER,
  DEFAULT_FIX_ROUNDS,
  DEFAULT_CHECK_TIMEOUT_MS,
  resolveChecks,
  detectChecks,
  summarizeChecks,
  type ChecksConfig,
  type CheckEvent,
  DEFAULT_FEEDBACK_ROUNDS,
  costCapProblem,
  repeatSession,
  MAX_REPEATS,
  type RepeatResult,
} from '../core';
import { cmdContext } from './context';
import { cmdKpt } from './kpt';

interface Parsed {
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

/** Flags that may be given several times; every value is kept (other flags: the last occurrence wins). */
const REPEATABLE = new Set(['check', 'answer']);

class UsageError extends Error {}

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
    else if (REPEATABLE.has(t.name)) flags[t.name] = [...((flags[t.name] as string[] | undefined) ?? []), t.value];
    else flags[t.name] = t.value;
  }
  return { command, flags };
}

const HELP = `cape — run a CAPE AI product team session headlessly

Usage:
  cape init   --workspace DIR [--answers FILE] [--force | --missing-only] [--lang LANG] [--init-model M]
  cape start  --workspace DIR (--objective TEXT | --objective-file PATH) [--lang LANG] [--task ID] [--apply] [--json]
              [--check CMD|auto]… [--fix-rounds N] [--check-timeout S]
  cape resume --workspace DIR --task ID [--from-step STEP] [--answer TEXT]… [--skip-questions] [--apply] [--json] [--check …]
  cape context --workspace DIR --objective TEXT [--step deva|da] [--budget CHARS] [--json]
                   (what DevA or DA would receive of the workspace, in rank order; nothing is sent)
  cape kpt list --workspace DIR [--json]          KPT items with their ids, status and recurrence
  cape kpt mark --workspace DIR <id> <status>     Tries: open | adopted | dropped; Problems: open | resolved
  cape housekeeping --workspace DIR [--older-than N] [--json]
                   (move adopted, dropped and resolved items older than N sessions, default 20, to kpt_archive.md)
  cape repeat --workspace DIR --task ID --times N [--json]
                   (reruns a saved session's objective N times on the same inputs and reports how alike the
                   runs are: acceptance criteria and proposed files, pairwise Jaccard; each rerun is a paid session)

Options:
  --objective-file PATH  read the objective from a file (- for stdin); at most ${MAX_OBJECTIVE_CHARS} characters
  --task ID        the new session's id (must not be used yet; default task-<epoch ms>)
  --from-step STEP (resume) run STEP and every later step again: ${STEP_IDS.join(', ')}
  --answer TEXT    (resume) an answer to the Cape Master's blocking questions, once per question in their order; the
                   opening runs once more with them, then POA. In a terminal the questions are asked instead; without
                   one (or with --json) a session that asks them stops with exit code 2 and {"status":"needs_answers"}
  --skip-questions (resume) go on without answering them: POA starts from the opening as it is
  --base-url URL   Anthropic API base URL without /v1 (default: ANTHROPIC_BASE_URL or ${DEFAULT_BASE_URL})
  --api-key KEY    API key (default: ANTHROPIC_API_KEY; not needed for a loopback base URL)
  --model MODEL    session model (default: ${DEFAULT_SESSION_MODEL})
  --idle-timeout S give up on a stream that sends nothing for S seconds (default ${DEFAULT_IDLE_TIMEOUT_MS / 1000}; CAPE_IDLE_TIMEOUT_SECONDS)
  --max-tool-calls N   tool calls (read_file, search_files, list_files) per DevA/DA step (default ${DEFAULT_MAX_TOOL_CALLS})
  --max-tool-chars N   characters of tool results per step (default ${DEFAULT_MAX_TOOL_CHARS}); 0 calls = no tools
  --check CMD      run CMD (a shell command) on DevA's proposal in a scratch copy of the workspace before anything
                   is applied; repeatable; \`--check auto\` runs the detected ones (package.json typecheck / lint /
                   test scripts, tsc --noEmit); without --check the detected commands are only named
  --fix-rounds N   fix rounds after a failing check: DevA gets the output and fixes its files (default ${DEFAULT_FIX_ROUNDS})
  --check-timeout S  time limit of one check command in seconds (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000}); it is killed after
  --feedback-rounds N  times DevA may ask DA about its specs per session, DA answering once each (default ${DEFAULT_FEEDBACK_ROUNDS}; 0 = never)
  --max-cost USD   the session's cost cap: stop (resumable) before a request whose worst case (estimated input +
                   max_tokens output at the model's list price) could take the session over it
  --apply          write DevA's proposed files (after the path safety check); without it nothing is written
                   outside cape/
  --json           end with one JSON line (taskId, steps, files, checks, kpt, metrics); progress goes to stderr
`;

/** The base URL from --base-url or ANTHROPIC_BASE_URL, checked before anything is written or sent. */
function baseUrlFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv): string {
  const fromFlag = typeof flags['base-url'] === 'string';
  const raw = String(fromFlag ? flags['base-url'] : (env.ANTHROPIC_BASE_URL ?? ''));
  if (!fromFlag && !raw.trim()) return normalizeBaseURL('');
  const problem = baseUrlProblem(raw);
  if (problem) throw new UsageError(`${fromFlag ? '--base-url' : 'ANTHROPIC_BASE_URL'} "${raw}" cannot be used: ${problem}.`);
  return normalizeBaseURL(raw);
}

function clientFrom(flags: Parsed['flags'], env: NodeJS.ProcessEnv) {
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
function wholeNumber(flags: Parsed['flags'], name: string): number | undefined {
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
  return Math.round(n * 1000);
}

/** --max-tool-calls / --max-tool-chars: whole numbers ≥ 0 (0 calls turns the tools off). */
function toolBoundsFrom(flags: Parsed['flags']): Partial<ToolBounds> | false {
  const maxCalls = wholeNumber(flags, 'max-tool-calls');
  const maxChars = wholeNumber(flags, 'max-tool-chars');
  if (maxCalls === 0) return false;
  return { ...(maxCalls !== undefined ? { maxCalls } : {}), ...(maxChars !== undefined ? { maxChars } : {}) };
}

/**
 * The checks of `cape start/resume`: `--check CMD` (repeatable; `auto` = the detected ones), `--fix-rounds N`,
 * `--check-timeout S`. Without --check, the detected commands are named and not run.
 */
async function checksFrom(flags: Parsed['flags'], workspace: string, out: NodeJS.WritableStream): Promise<ChecksConfig | undefined> {
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

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One check event as transcript lines. */
function printCheck(out: NodeJS.WritableStream, e: CheckEvent): void {
  switch (e.type) {
    case 'check-started':
      out.write(`  ▷ check${e.round ? ` (after fix round ${e.round})` : ''}: ${e.command}\n`);
      break;
    case 'check-finished': {
      const r = e.run;
      const how = r.passed ? 'passed' : r.status === 'timeout' ? 'killed at the time limit' : r.status === 'cancelled' ? 'stopped' : r.status === 'error' ? 'could not start' : `failed (exit ${r.exitCode ?? 'signal'})`;
      out.write(`  ${r.passed ? '✓' : '✗'} ${r.command} ${how} · ${seconds(r.durationMs)}\n`);
      if (!r.passed) {
        const lines = r.output.split('\n');
        for (const l of lines.slice(0, 12)) out.write(`      ${l}\n`);
        if (lines.length > 12) out.write(`      … ${lines.length - 12} more line(s) in the pair artifact\n`);
      }
      break;
    }
    case 'fix-round':
      out.write(`  ↻ fix round ${e.round} of ${e.max}: DevA gets the output of ${e.failing.join(', ')}\n`);
      break;
    case 'fix-applied':
      out.write(`  ~ DevA's fix changed ${e.files.length ? e.files.join(', ') : 'no file'}\n`);
      for (const p of e.problems) out.write(`  ⚠ ${p}\n`);
      break;
    case 'checks-finished':
      if (e.passed) out.write(`  ✓ every check passes${e.fixRounds ? ` after ${e.fixRounds} fix round${e.fixRounds === 1 ? '' : 's'}` : ''}\n`);
      else {
        const failing = e.summary.filter((c) => !c.passed).map((c) => `${c.command} (${c.status === 'timeout' ? 'timed out' : `exit ${c.exitCode ?? 'none'}`})`);
        out.write(`  ✗ checks still failing after ${e.fixRounds} fix round${e.fixRounds === 1 ? '' : 's'}: ${failing.join(', ')}; DevA's last proposal is kept for review\n`);
      }
      break;
  }
}

/** --max-cost USD: an amount greater than 0. */
function maxCostFrom(flags: Parsed['flags']): number | undefined {
  const v = flags['max-cost'];
  if (v === undefined) return undefined;
  const n = Number(String(v).replace(/^\$/, ''));
  const problem = costCapProblem(n);
  if (problem || !String(v).trim()) throw new UsageError(`--max-cost takes an amount in USD greater than 0, e.g. --max-cost 0.50 (got "${v}").`);
  return n;
}

function requireWorkspace(flags: Parsed['flags']): string {
  const ws = flags.workspace;
  if (typeof ws !== 'string' || !ws) throw new UsageError('--workspace DIR is required.');
  const abs = path.resolve(ws);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new UsageError(`The workspace ${abs} is not a folder.`);
  return abs;
}

function fmt(n: number | null): string {
  return n === null || n === undefined ? 'n/a' : String(Math.round(n * 100) / 100);
}

/** Prints session events as a readable live transcript. */
function printer(out: NodeJS.WritableStream) {
  let midLine = false;
  const nl = () => {
    if (midLine) out.write('\n');
    midLine = false;
  };
  return (e: SessionEvent) => {
    switch (e.type) {
      case 'session-started':
        out.write(`${e.resumed ? 'Resuming' : 'Starting'} ${e.taskId}: ${e.objective}\n`);
        break;
      case 'step-started':
        nl();
        out.write(`\n▶ ${stepTitle(e.step)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}\n`);
        break;
      case 'voice-delta':
        out.write(e.text);
        midLine = !e.text.endsWith('\n');
        break;
      case 'tool-call':
        nl();
        out.write(`  ${e.call.refused || e.call.limited ? '⚠' : '·'} ${describeToolCall(STEP_AGENT[e.step], e.call).text}\n`);
        break;
      case 'retry':
        nl();
        out.write(`  ↻ ${e.reason} — retrying in ${Math.round(e.delayMs / 100) / 10}s\n`);
        break;
      case 'continued':
        nl();
        out.write(`  ⤷ the reply reached the output limit; asking the model to continue it (${e.continuation} of at most ${e.max})\n`);
        break;
      case 'repair':
        nl();
        out.write(`  ⚠ reply did not validate (${e.error}); asking once for a corrected reply\n`);
        break;
      case 'warning':
        nl();
        out.write(`  ⚠ ${e.message}\n`);
        break;
      case 'envelope': {
        nl();
        const env = e.envelope;
        if (e.step === 'cm_open') {
          const o = env.output as { dor_check?: { passed: boolean; concerns: string[] }; watch_out?: string[] };
          out.write(`  DoR: ${o.dor_check?.passed ? 'passed' : 'concerns'}\n`);
          for (const c of o.dor_check?.concerns ?? []) out.write(`    · ${c}\n`);
          for (const w of o.watch_out ?? []) out.write(`  ⚑ ${w}\n`);
        } else if (e.step === 'cm_retro') {
          for (const t of env.conversation ?? []) out.write(`  ${t.speaker}: ${t.text}\n`);
        } else if (env.ass) {
          out.write(`  ASS ${env.ass.score ?? '–'}/5 · confidence ${env.confidence ?? '–'} · references ${env.references.length}\n`);
        }
        break;
      }
      case 'blocker':
        nl();
        out.write(`  ? ${e.from} asks ${e.to} (round ${e.round}):\n${e.questions.map((q) => `    · ${q}`).join('\n')}\n`);
        break;
      case 'blocker-answer':
        nl();
        out.write(`  ↳ ${e.from} answers: ${e.voice || e.answer || '(no usable answer: DevA decides alone)'}\n`);
        break;
      case 'file-proposed':
        nl();
        out.write(`  ${e.file.status === 'refused' ? '✗ refused' : e.file.action === 'create' ? '+ create ' : e.file.edit ? '~ edit   ' : '~ modify '} ${e.file.path}${e.file.reason ? ` — ${e.file.reason}` : ''}${e.file.warning ? ` ⚠ ${e.file.warning}` : ''}\n`);
        break;
      case 'step-finished':
        nl();
        out.write(`  ✓ saved ${e.artifactPath}\n`);
        break;
      case 'check':
        nl();
        printCheck(out, e.event);
        break;
      case 'error':
        nl();
        out.write(`\n✗ ${e.step ? stepTitle(e.step) + ': ' : ''}${e.message}\n`);
        break;
      case 'session-finished': {
        nl();
        const m = e.metrics;
        out.write(`\nRetrospective: ${e.retrospectivePath}\n`);
        for (const k of ['keep', 'problem', 'try'] as const) {
          out.write(`${k[0].toUpperCase() + k.slice(1)}:\n${e.kpt[k].map((t) => `  - ${t}`).join('\n') || '  (none)'}\n`);
        }
        out.write(
          `ASS avg ${fmt(m.assAverage)} · SV ${fmt(m.satisfactionVariance)} · ST ${fmt(m.satisfactionTrend)} · XRF ${m.crossReferenceFrequency} · CI ${m.conversationIndex} · ` +
            `tokens in ${m.totalUsage.inputTokens} out ${m.totalUsage.outputTokens} · ${m.totalCostUsd === null ? 'cost unknown' : formatUsd(m.totalCostUsd)}` +
            (m.criteria.length ? ` · TSR ${m.tsr === null ? '—' : `${Math.round(m.tsr * 100)}%`} (judged ${m.tsrJudged === null ? '—' : `${Math.round(m.tsrJudged * 100)}%`}) of ${m.criteria.length} criteria` : '') +
            '\n',
        );
        break;
      }
    }
  };
}

/**
 * The Cape Master's blocking questions asked on the terminal, one by one; an empty answer lets the team assume (all
 * empty = go on without answers). Exported for tests.
 */
export async function askDorQuestions(questions: readonly string[], input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<string[]> {
  const rl = readline.createInterface({ input, output, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const answers: string[] = [];
  try {
    output.write(`\nThe Cape Master asks before the team starts (press Enter to leave one to the team's judgement):\n`);
    for (const [i, q] of questions.entries()) {
      output.write(`${i + 1}. ${q}\n> `);
      const next = await lines.next();
      if (next.done) break;
      answers.push(next.value.trim());
    }
  } finally {
    rl.close();
  }
  return answers;
}

async function askQuestions(): Promise<InitAnswers> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  const ask = (q: string) => new Promise<string>((resolve) => rl.question(q, resolve));
  const answers: Record<string, string> = {};
  try {
    for (const q of INIT_QUESTIONS) {
      let a = '';
      do {
        a = (await ask(`${q.prompt}${q.required ? '' : ' (optional)'}: `)).trim();
      } while (q.required && !a);
      answers[q.id] = a;
    }
  } finally {
    rl.close();
  }
  return answers as unknown as InitAnswers;
}

async function cmdInit(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  let answers: InitAnswers;
  if (typeof flags.answers === 'string') {
    const file = path.resolve(flags.answers);
    const text = await readTextFile(file);
    try {
      answers = parseAnswersFile(text);
    } catch (e) {
      throw new UsageError(`--answers ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else if (process.stdin.isTTY) {
    answers = await askQuestions();
  } else {
    throw new UsageError('stdin is not a terminal: pass the questionnaire answers with --answers FILE (JSON or YAML).');
  }
  const { client } = clientFrom(flags, env);
  const mode = flags.force ? 'overwrite' : flags['missing-only'] ? 'missing-only' : 'fail-if-exists';
  const res = await initCape({
    workspace,
    capeFolder: (flags['cape-folder'] as string) ?? DEFAULT_CAPE_FOLDER,
    answers,
    llm: client,
    model: (flags['init-model'] as string) ?? DEFAULT_INIT_MODEL,
    language: (flags.lang as string) ?? 'English',
    mode,
    prompts: loadPromptAssets(defaultPromptsDir()),
    onProgress: (p) => stderr.write(`  [${p.done}/${p.total}] ${p.file}\n`),
  });
  for (const f of res.repaired) stderr.write(`↻ ${f}: the first reply failed its check; repaired by one more request\n`);
  for (const f of res.failed) stderr.write(`✗ ${f.path}: ${f.error}\n`);
  if (flags.json) stdout.write(JSON.stringify(res) + '\n');
  else stdout.write(`cape/ ready: ${res.written.length} written, ${res.skipped.length} kept, ${res.failed.length} failed.\n`);
  return res.failed.length ? 1 : 0;
}

/** A path as a shell word (quoted only when needed), for commands the user copies. */
function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of process.stdin) parts.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

/** The objective of `cape start`: --objective TEXT or --objective-file PATH (- = stdin), checked against the cap. */
async function objectiveFrom(flags: Parsed['flags']): Promise<string> {
  const text = flags.objective;
  const file = flags['objective-file'];
  if (text !== undefined && file !== undefined) throw new UsageError('Give the objective once: --objective TEXT or --objective-file PATH, not both.');
  let objective: string;
  let source: string;
  if (typeof file === 'string') {
    if (file === '-') {
      if (process.stdin.isTTY) throw new UsageError('--objective-file - reads the objective from stdin, but stdin is a terminal: pipe the text in, or pass a file.');
      objective = await readStdin();
      source = 'The objective read from stdin';
    } else {
      const abs = path.resolve(file);
      try {
        objective = await readTextFile(abs);
      } catch (e) {
        throw new UsageError(`--objective-file: ${(e as Error).message}`);
      }
      source = `The objective in ${abs}`;
    }
    objective = objective.replace(/^\uFEFF/, '');
  } else if (typeof text === 'string') {
    objective = text;
    source = 'The objective (--objective)';
  } else {
    throw new UsageError('--objective TEXT (or --objective-file PATH) is required.');
  }
  const problem = objectiveProblem(objective, source);
  if (problem) throw new UsageError(problem);
  return objective.trim();
}

async function cmdSession(resume: boolean, flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  const objective = resume ? undefined : await objectiveFrom(flags);
  if (resume && typeof flags.task !== 'string') throw new UsageError('--task ID is required to resume a session.');
  const fromStep = flags['from-step'];
  if (fromStep !== undefined) {
    if (!resume) throw new UsageError('--from-step is for `cape resume` (a new session runs every step).');
    if (typeof fromStep !== 'string' || !(STEP_IDS as readonly string[]).includes(fromStep)) {
      throw new UsageError(`--from-step takes one of ${STEP_IDS.join(', ')} (got "${String(fromStep)}").`);
    }
  }
  const givenAnswers = (flags.answer as string[] | undefined) ?? [];
  if (!resume && (givenAnswers.length || flags['skip-questions'])) {
    throw new UsageError('--answer and --skip-questions are for `cape resume` of a session paused for the Cape Master\'s questions.');
  }
  if (givenAnswers.length && !givenAnswers.some((a) => a.trim())) throw new UsageError('--answer needs a non-empty answer (or use --skip-questions).');
  if (givenAnswers.length && flags['skip-questions']) throw new UsageError('Give --answer or --skip-questions, not both.');
  const { client } = clientFrom(flags, env);
  const tools = toolBoundsFrom(flags);
  const feedbackRounds = wholeNumber(flags, 'feedback-rounds');
  const maxCostUsd = maxCostFrom(flags);
  const human = flags.json ? stderr : stdout;
  const checks = await checksFrom(flags, workspace, human);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let result: SessionResult;
  /** Every warning of the run (the cape/ loader's, the KPT merge's, a step's), for --json. */
  const warnings: string[] = [];
  const print = printer(human);
  /** Questions are asked on the terminal only when both ends are one and no JSON is expected. */
  const interactive = !flags.json && !!process.stdin.isTTY && !!(stderr as NodeJS.WriteStream).isTTY;
  let answers: { answers?: string[]; skipQuestions?: boolean } = givenAnswers.length
    ? { answers: givenAnswers }
    : flags['skip-questions']
      ? { skipQuestions: true }
      : {};
  try {
    for (let run = 0; ; run++) {
      result = await runSession({
        workspace,
        capeFolder: (flags['cape-folder'] as string) ?? DEFAULT_CAPE_FOLDER,
        objective,
        language: (flags.lang as string) ?? 'English',
        taskId: run ? result!.taskId : (flags.task as string | undefined),
        resume: resume || run > 0,
        ...answers,
        fromStep: run ? undefined : (fromStep as StepId | undefined),
        model: (flags.model as string) ?? DEFAULT_SESSION_MODEL,
        llm: client,
        prompts: loadPromptAssets(defaultPromptsDir()),
        tools,
        checks,
        ...(feedbackRounds !== undefined ? { feedbackRounds } : {}),
        ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
        onEvent: (e) => {
          if (e.type === 'warning') warnings.push(`${stepTitle(e.step)}: ${e.message}`);
          print(e);
        },
        onWarning: (w) => {
          warnings.push(w);
          stderr.write(`⚠ ${w}\n`);
        },
        signal: controller.signal,
      });
      // The Cape Master asked blocking questions: a terminal answers them here (once), else the session stays paused.
      if (!result.needsAnswers || !interactive || run > 0 || controller.signal.aborted) break;
      const typed = await askDorQuestions(result.needsAnswers, process.stdin, stderr);
      answers = typed.some((a) => a.trim()) ? { answers: typed } : { skipQuestions: true };
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
  }

  if (result.needsAnswers) {
    const q = result.needsAnswers;
    const ws = shellQuote(workspace);
    stderr.write(
      `\nSession ${result.taskId} is paused: the Cape Master needs ${q.length === 1 ? 'an answer' : `${q.length} answers`} before the team starts.\n` +
        q.map((x, i) => `  ${i + 1}. ${x}\n`).join('') +
        `Answer with: cape resume --workspace ${ws} --task ${result.taskId} ${q.map(() => '--answer "…"').join(' ')}\n` +
        `(answers in the order of the questions), or go on without: cape resume --workspace ${ws} --task ${result.taskId} --skip-questions\n`,
    );
    if (flags.json) stdout.write(JSON.stringify({ taskId: result.taskId, status: 'needs_answers', questions: q }) + '\n');
    return 2;
  }

  let files: ProposedFile[] = result.files;
  if (result.ok && flags.apply) {
    files = await applyProposedFiles(files, { workspaceRoot: workspace, capeFolder: (flags["cape-folder"] as string) ?? "cape" });
    for (const f of files) if (f.status === 'applied') human.write(`  ✓ wrote ${f.relPath}\n`);
  } else if (result.ok && files.some((f) => f.status === 'proposed')) {
    human.write(`\n${files.filter((f) => f.status === 'proposed').length} file(s) proposed, nothing written. Re-run with --apply to write them.\n`);
  }
  if (!result.ok && result.resumable) {
    const first = result.error?.kind === 'auth' ? 'Once the key is fixed, resume' : 'Completed steps are saved. Resume';
    human.write(`\n${first} with: cape resume --workspace ${shellQuote(workspace)} --task ${result.taskId}\n`);
  }
  if (flags.json) {
    stdout.write(
      JSON.stringify({
        taskId: result.taskId,
        ok: result.ok,
        error: result.error,
        costUsd: result.costUsd,
        ...(result.ok ? {} : { resumable: result.resumable }),
        steps: result.steps.map((s) => ({ step: s.step, agent: s.envelope?.agent ?? STEP_AGENT[s.step], ok: s.ok, usage: s.usage, ...(s.continuations ? { continued: s.continuations } : {}) })),
        files: files.map((f) => ({
          path: f.path,
          action: f.action,
          status: f.status,
          ...(f.edit ? { edit: true } : {}),
          ...(f.reason ? { reason: f.reason } : {}),
          ...(f.warning ? { warning: f.warning } : {}),
        })),
        checks: result.checks ? summarizeChecks(result.checks).map((c) => ({ command: c.command, passed: c.passed, exitCode: c.exitCode, rounds: c.rounds })) : [],
        ...(result.feedback ? { feedback: result.feedback.map((f) => ({ round: f.round, from: f.from, to: f.to, questions: f.questions, answered: !!f.answer, answer: f.answerText })) } : {}),
        kpt: result.kpt,
        metrics: result.metrics,
        retrospectivePath: result.retrospectivePath,
        warnings,
      }) + '\n',
    );
  }
  return result.ok ? 0 : 1;
}

/** A similarity for people: 0.67, or — */
function sim(x: number | null): string {
  return x === null ? '—' : x.toFixed(2);
}

async function cmdRepeat(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  if (typeof flags.task !== 'string' || !flags.task) throw new UsageError('--task ID is required: the saved session whose objective is rerun.');
  const times = Number(flags.times);
  if (flags.times === undefined || !Number.isInteger(times) || times < 1 || times > MAX_REPEATS) {
    throw new UsageError(`--times N is required: how many reruns, a whole number from 1 to ${MAX_REPEATS} (got "${flags.times ?? ''}").`);
  }
  const { client } = clientFrom(flags, env);
  const tools = toolBoundsFrom(flags);
  const maxCostUsd = maxCostFrom(flags);
  const human = flags.json ? stderr : stdout;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let result: RepeatResult;
  try {
    result = await repeatSession({
      workspace,
      capeFolder: (flags['cape-folder'] as string) ?? DEFAULT_CAPE_FOLDER,
      taskId: flags.task,
      times,
      ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
      llm: client,
      prompts: loadPromptAssets(defaultPromptsDir()),
      tools,
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
      onEvent: printer(human),
      onWarning: (w) => stderr.write(`⚠ ${w}\n`),
      onRun: (k, id) => human.write(`\n═══ Rerun ${k} of ${times}: ${id}\n`),
      signal: controller.signal,
    });
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  human.write(`\nReproducibility of ${result.taskId} over ${result.runs.length} runs (pairwise Jaccard, mean):\n`);
  for (const r of result.runs) {
    human.write(`  ${r.ok ? '✓' : '✗'} ${r.taskId}: ${r.criteria ? `${r.criteria.length} criteria` : 'no criteria'}, ${r.files ? `${r.files.length} files` : 'no files'}${r.error ? ` — ${r.error}` : ''}\n`);
  }
  human.write(`  criteria ${sim(result.criteria)} · files ${sim(result.files)} · RR ${sim(result.rr)}\n`);
  if (flags.json) stdout.write(JSON.stringify(result) + '\n');
  return result.runs.every((r) => r.ok) ? 0 : 1;
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  try {
    if (argv[0] === 'context') return await cmdContext(argv.slice(1), stdout, stderr);
    if (argv[0] === 'kpt' || argv[0] === 'housekeeping') return await cmdKpt(argv[0], argv.slice(1), stdout, stderr);
    const { command, flags } = parseArgs(argv);
    if (flags.help || command === 'help' || command === '--help' || command === '-h') {
      stdout.write(HELP);
      return 0;
    }
    switch (command) {
      case 'init':
        return await cmdInit(flags, env, stdout, stderr);
      case 'start':
        return await cmdSession(false, flags, env, stdout, stderr);
      case 'resume':
        return await cmdSession(true, flags, env, stdout, stderr);
      case 'repeat':
        return await cmdRepeat(flags, env, stdout, stderr);
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      stderr.write(`cape: ${e.message}\n`);
      return 2;
    }
    stderr.write(`cape: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

// `cape` — the headless CLI over the same core engine the VS Code extension uses.
//
//   cape init   --workspace DIR [--answers FILE] [--force] [--missing-only] [--lang LANG] [--init-model M]
//   cape start  --workspace DIR --objective TEXT [--lang LANG] [--task ID] [--apply] [--json]
//   cape start  --workspace DIR --objective-file PATH|- …   (the objective from a file, or stdin)
//   cape resume --workspace DIR --task ID [--from-step STEP] [--answer TEXT]… [--skip-questions] [--apply] [--json]
//   cape context …   (src/cli/context.ts: CONTEXT_USAGE)
//   cape kpt list|mark …, cape housekeeping …   KPT statuses and the archive (src/cli/kpt.ts)
//   cape repeat --workspace DIR --task ID --times N [--json]   (reruns a saved session's objective: RR)
//   common: --base-url URL (without /v1) --api-key-file PATH|- --model MODEL  (or ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY;
//           --api-key KEY works, with a warning: a command line is readable by other processes)
//   each command takes only its own flags (flags.ts COMMAND_FLAGS): another command's is a usage error
//
// One file per command (init.ts, session.ts for start/resume, repeat.ts, context.ts, kpt.ts); flags.ts parses the
// arguments, settings.ts turns the session commands' flags into settings, printer.ts prints the live transcript;
// this file dispatches. Three bundles: dist/cli.js (this file, flags, context), dist/cli-kpt.js (kpt, housekeeping)
// and dist/cli-session.js (init, start/resume, repeat: sessionCommands.ts), each required when one of its commands
// runs (bundles.ts).
//
// Exit codes: 0 done, 1 failed (completed steps are saved), 2 a usage error or a session paused for the Cape Master's
// questions, 130 stopped with Ctrl-C (resumable), 141 its output closed by the reader (`cape … | head`): it stops
// at once and quietly, as git does (stopOnClosedOutput below, for every command).
//
// It never waits for input when stdin is not a terminal (a session paused for the Cape Master's questions then ends
// with exit code 2, resumable with --answer), and writes nothing outside cape/ without --apply.

// Only light modules here: the HELP constants come from their own core modules, not the '../core' barrel (which
// is everything); kpt and the session commands are required from their own bundles when one runs (bundles.ts).
import { DEFAULT_BASE_URL, DEFAULT_IDLE_TIMEOUT_MS } from '../core/llm/anthropic/client';
import { DEFAULT_SESSION_MODEL } from '../core/llm/models';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../core/checks/run';
import { copyLimitOfMb, DEFAULT_COPY_LIMIT_MB } from '../core/checks/copyLimit';
import { DEFAULT_FIX_ROUNDS } from '../core/checks/types';
import { DEFAULT_FEEDBACK_ROUNDS } from '../core/session/options';
import { MAX_OBJECTIVE_CHARS } from '../core/session/objective';
import { DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_TOOL_CHARS, TOOL_NAMES } from '../core/tools/specs';
import { STEP_IDS } from '../core/model/types';
import { EXIT_OUTPUT_CLOSED, UsageError, exitCodeOf, flagUsages, parseArgs } from './flags';
import { isSessionCommand, loadKpt, loadSessionCommands } from './bundles';
import { cmdContext, CONTEXT_USAGE } from './context';

/** Where a usage line breaks: its next flags go on a line of their own, under the first. */
const USAGE_WIDTH = 118;

/**
 * `cape <command>`'s usage lines: `lead` (what it requires, the flags it takes one of), then every other flag it takes
 * (flags.ts COMMAND_FLAGS, the table the parser holds it to), wrapped.
 */
function usage(command: string, lead: string): string {
  const indent = `  cape ${command.padEnd(6)} `;
  const lines = [`${indent}${lead}`];
  for (const f of flagUsages(command, lead)) {
    if (lines[lines.length - 1].length + 1 + f.length > USAGE_WIDTH) lines.push(' '.repeat(indent.length) + f);
    else lines[lines.length - 1] += ` ${f}`;
  }
  return lines.join('\n');
}

const HELP = `cape — run a CAPE AI product team session headlessly

Usage:
${usage('init', '--workspace DIR [--force | --missing-only]')}
${usage('start', '--workspace DIR (--objective TEXT | --objective-file PATH)')}
${usage('resume', '--workspace DIR --task ID')}
  ${CONTEXT_USAGE}
                   (what DevA or DA would receive of the workspace, in rank order; nothing is sent)
  cape kpt list --workspace DIR [--json]          KPT items with their ids, status and recurrence
  cape kpt mark --workspace DIR <id> <status>     Tries: open | adopted | dropped; Problems: open | resolved
  cape housekeeping --workspace DIR [--older-than N] [--json]
                   (move adopted, dropped and resolved items older than N sessions, default 20, to kpt_archive.md)
${usage('repeat', '--workspace DIR --task ID --times N')}
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
  --api-key-file PATH  read the API key from a file (- for stdin) (default: ANTHROPIC_API_KEY; none is needed for a
                   loopback base URL)
  --api-key KEY    the API key on the command line, where other processes can read it (ps, /proc) until cape writes
                   it over with ***: it warns so; prefer ANTHROPIC_API_KEY or --api-key-file
  --model MODEL    session model (default: ${DEFAULT_SESSION_MODEL})
  --idle-timeout S give up on a stream that sends nothing for S seconds (default ${DEFAULT_IDLE_TIMEOUT_MS / 1000}; CAPE_IDLE_TIMEOUT_SECONDS)
  --max-tool-calls N   tool calls (${TOOL_NAMES.join(', ')}) per DevA/DA step (default ${DEFAULT_MAX_TOOL_CALLS})
  --max-tool-chars N   characters of tool results per step (default ${DEFAULT_MAX_TOOL_CHARS}); either 0 = no tools
  --check CMD      run CMD (a shell command) on DevA's proposal in a scratch copy of the workspace before anything
                   is applied; repeatable; \`--check auto\` runs the detected ones (package.json typecheck / lint /
                   test scripts, tsc --noEmit, pytest, go test … at the root, or in a sub-project's folder for a
                   language the root has none of); without --check the detected commands are only named
  --fix-rounds N   fix rounds after a failing check: DevA gets the output and fixes its files (default ${DEFAULT_FIX_ROUNDS})
  --check-timeout S  time limit of one check command in seconds (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000}); it is killed after
  --check-copy-limit MB  the most of the workspace the checks copy (default ${DEFAULT_COPY_LIMIT_MB}; ${copyLimitOfMb(1).files} files per MB):
                   a larger workspace is not copied and its checks do not run, each saying so
  --fail-first     after the checks, run the test commands (not lint or type checks) once more on the unchanged
                   workspace with only DevA's test files applied: a test of the change should fail there (the
                   retrospective says, per criterion); one run in a sub-folder (cd backend && …) only when one
                   of DevA's test files is under it
  --no-format      leave DevA's files as it wrote them; by default the project's formatter (Prettier, Biome, Black
                   or Ruff where the project configures and installs it, gofmt for a Go module) lays them out before
                   the checks run
  --feedback-rounds N  times DevA may ask DA about its specs per session, DA answering once each (default ${DEFAULT_FEEDBACK_ROUNDS}; 0 = never)
  --max-cost USD   the session's cost cap: stop (resumable) before a request whose worst case (estimated input +
                   max_tokens output at the model's list price) could take the session over it
  --apply          write DevA's proposed files (after the path safety check; never over a file changed since
                   DevA proposed it); without it nothing is written outside cape/
  --json           end with one JSON line (taskId, steps, files, checks, kpt, metrics); progress goes to stderr

Exit codes: 0 done · 1 failed (completed steps are saved; resume) · 2 usage error, or paused for the Cape Master's
questions · 130 stopped with Ctrl-C (completed steps are saved; resume) · 141 the output was closed by its reader
(\`cape … | head\`): stopped quietly, as git does
`;

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  try {
    if (argv[0] === 'context') return await cmdContext(argv.slice(1), stdout, stderr);
    if (argv[0] === 'kpt' || argv[0] === 'housekeeping') return await loadKpt().cmdKpt(argv[0], argv.slice(1), stdout, stderr);
    const { command, flags } = parseArgs(argv);
    if (flags.help || command === 'help' || command === '--help' || command === '-h') {
      stdout.write(HELP);
      return 0;
    }
    if (isSessionCommand(command)) return await loadSessionCommands().runSessionCommand(command, flags, env, stdout, stderr);
    throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
  } catch (e) {
    return exitCodeOf(e, stderr);
  }
}

/**
 * Makes a write to `stream` whose reader has gone (EPIPE: `cape context --json | head -c 10`) end the process
 * quietly with EXIT_OUTPUT_CLOSED, as a program killed by SIGPIPE does, instead of an unhandled 'error' event's stack
 * trace. Node ignores SIGPIPE, so the failed write surfaces here; any other stream error is thrown as before.
 */
function stopOnClosedOutput(stream: NodeJS.WritableStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(EXIT_OUTPUT_CLOSED);
  });
}

if (require.main === module) {
  stopOnClosedOutput(process.stdout);
  stopOnClosedOutput(process.stderr);
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

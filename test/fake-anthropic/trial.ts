#!/usr/bin/env node
// `npm run trial -- --workspace DIR --objective TEXT [--lang LANG]`: a CAPE session whose model is whoever answers the
// request files (a person, or a helper model acting as the model). The fake Messages API runs in relay mode (relay.ts);
// the bundled CLI runs against it with a long idle timeout. When the session ends, the steps' raw replies are written to
// `<trial dir>/transcript.json` in the recorded-session shape ({taskId, objective, language, model, complete,
// steps: [{step, raw}]}) plus `replies` (every reply served, tool-use turns included), ready to be kept as a replay
// fixture. With `--init --answers FILE` it runs `cape init` instead: the real init requests (the shared decisions,
// then the project files, up to four at a time) are answered the same way, and transcript.json holds the init's
// result and every reply served. See README.md ("Trial sessions").
//
//   --workspace DIR    the workspace (must hold cape/; with --init, must not, unless --force or --missing-only)
//   --objective TEXT   the session's objective
//   --init             run `cape init` instead of a session (no --objective)
//   --answers FILE     with --init: the questionnaire's answers (JSON or YAML, as for `cape init --answers`)
//   --force, --missing-only   with --init: the CLI's flags (regenerate every file, or only the missing ones)
//   --lang LANG        session language (default English)
//   --dir DIR          the trial folder (default: a new folder under the system temp dir)
//   --task ID          task id (default: the CLI's)
//   --model M          the model name sent in requests (default: the CLI's; with --init, its --init-model)
//   --idle-timeout S   the CLI's idle timeout (default 3600: a person needs time to answer)
//   --check CMD        a check command on DevA's proposal (the CLI's --check; repeatable)
//   --fail-first       then DevA's test files alone on the unchanged workspace (the CLI's --fail-first)
//   --max-tool-calls N, --max-tool-chars N   the steps' tool bounds (the CLI's flags; default theirs)
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startFakeAnthropic, type FakeReply } from './server';
import { readReplyFile, relayResponder } from './relay';
import { readFlags } from './flags';

const USAGE =
  'usage: npm run trial -- --workspace DIR --objective TEXT [--lang LANG] [--dir DIR] [--task ID] [--model M] [--idle-timeout S] [--check CMD]… [--fail-first] [--max-tool-calls N] [--max-tool-chars N]\n' +
  '       npm run trial -- --init --workspace DIR --answers FILE [--force | --missing-only] [--lang LANG] [--dir DIR] [--model M] [--idle-timeout S]';

function fail(message: string): never {
  process.stderr.write(`trial: ${message}\n${USAGE}\n`);
  process.exit(2);
}

interface TrialArgs {
  workspace: string;
  objective?: string;
  init: boolean;
  answers?: string;
  force: boolean;
  'missing-only': boolean;
  lang?: string;
  dir?: string;
  task?: string;
  model?: string;
  'idle-timeout'?: string;
  check: string[];
  'fail-first': boolean;
  'max-tool-calls'?: string;
  'max-tool-chars'?: string;
}

function parse(argv: string[]): TrialArgs {
  const values = readFlags(
    argv,
    {
      workspace: { type: 'string' },
      objective: { type: 'string' },
      init: { type: 'boolean' },
      answers: { type: 'string' },
      force: { type: 'boolean' },
      'missing-only': { type: 'boolean' },
      lang: { type: 'string' },
      dir: { type: 'string' },
      task: { type: 'string' },
      model: { type: 'string' },
      'idle-timeout': { type: 'string' },
      check: { type: 'string', multiple: true },
      'fail-first': { type: 'boolean' },
      'max-tool-calls': { type: 'string' },
      'max-tool-chars': { type: 'string' },
    },
    USAGE,
    fail,
  );
  if (!values.workspace) fail('--workspace DIR is required');
  const init = !!values.init;
  if (init) {
    if (!values.answers) fail('--init needs --answers FILE (the questionnaire is not asked in a trial)');
    const sessionOnly = (['objective', 'task', 'check', 'fail-first', 'max-tool-calls', 'max-tool-chars'] as const).filter((f) => values[f] !== undefined);
    if (sessionOnly.length) fail(`--init takes no ${sessionOnly.map((f) => `--${f}`).join(', ')} (a session's flags)`);
  } else {
    if (!values.objective) fail('--objective TEXT is required');
    const initOnly = (['answers', 'force', 'missing-only'] as const).filter((f) => values[f] !== undefined);
    if (initOnly.length) fail(`${initOnly.map((f) => `--${f}`).join(', ')} go with --init`);
  }
  return {
    ...values,
    workspace: values.workspace,
    init,
    force: !!values.force,
    'missing-only': !!values['missing-only'],
    check: values.check ?? [],
    'fail-first': !!values['fail-first'],
  };
}

/** The CLI's arguments for the trial: `cape init` with the answers, or `cape start` with the objective. */
function cliArgsOf(args: TrialArgs, workspace: string): string[] {
  const lang = ['--lang', args.lang ?? 'English'];
  if (args.init) {
    const out = ['init', '--workspace', workspace, '--answers', path.resolve(args.answers!), ...lang, '--json'];
    if (args.model) out.push('--init-model', args.model);
    if (args.force) out.push('--force');
    if (args['missing-only']) out.push('--missing-only');
    return out;
  }
  const out = ['start', '--workspace', workspace, '--objective', args.objective!, ...lang, '--json'];
  if (args.task) out.push('--task', args.task);
  if (args.model) out.push('--model', args.model);
  for (const c of args.check) out.push('--check', c);
  if (args['fail-first']) out.push('--fail-first');
  for (const flag of ['max-tool-calls', 'max-tool-chars'] as const) if (args[flag] !== undefined) out.push(`--${flag}`, args[flag]!);
  return out;
}

function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) fail('cannot find the repository root');
    dir = up;
  }
  return dir;
}

/** The steps' raw replies from the session's pair files, in step order. */
export function transcriptFrom(workspace: string, taskId: string): { step: string; raw: string; model: string }[] {
  const pair = path.join(workspace, 'cape', '5_sessions', 'pair');
  if (!fs.existsSync(pair)) return [];
  return fs
    .readdirSync(pair)
    .filter((f) => f.startsWith(`${taskId}_`) && f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(pair, f), 'utf8')))
    .sort((a, b) => a.n - b.n)
    .map((r) => ({ step: r.step, raw: r.raw, model: r.model }));
}

/** The reply files of a trial folder, in request order, as the reply objects the fake server serves. */
export function repliesIn(dir: string): FakeReply[] {
  const out: FakeReply[] = [];
  for (let n = 1; ; n++) {
    const base = path.join(dir, `${String(n).padStart(2, '0')}.reply`);
    const file = ['.md', '.json'].map((ext) => base + ext).find((f) => fs.existsSync(f));
    if (!file) return out;
    out.push(readReplyFile(file));
  }
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const workspace = path.resolve(args.workspace);
  if (!args.init && !fs.existsSync(path.join(workspace, 'cape'))) fail(`${workspace} has no cape/ folder (run cape init first, or a trial with --init)`);
  const dir = path.resolve(args.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cape-trial-')));
  fs.mkdirSync(dir, { recursive: true });
  const cli = path.join(repoRoot(), 'dist', 'cli.js');
  if (!fs.existsSync(cli)) fail('dist/cli.js is missing: run `npm run build` first');

  const say = (line: string) => process.stderr.write(`[trial] ${line}\n`);
  const fake = await startFakeAnthropic({
    waitPingMs: 5000,
    chunkSize: 64,
  });
  fake.setResponder(
    relayResponder({
      dir,
      onRequest: (req, replies) => say(`${path.basename(req)} written — answer in ${replies.map((r) => path.basename(r)).join(' or ')}`),
      onReply: (file) => say(`${path.basename(file)} read, streaming it back`),
      onProblem: (message) => say(message),
    }),
  );
  say(`trial folder: ${dir}`);

  const cliArgs = [...cliArgsOf(args, workspace), '--base-url', fake.url, '--idle-timeout', args['idle-timeout'] ?? '3600'];
  const log = fs.createWriteStream(path.join(dir, 'cli.log'));
  const child = spawn(process.execPath, [cli, ...cliArgs], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  let stdout = '';
  child.stdout.on('data', (d) => {
    stdout += d;
    log.write(d);
  });
  child.stderr.on('data', (d) => {
    process.stderr.write(d);
    log.write(d);
  });
  const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  log.end();
  await fake.close();

  let result: any = null;
  try {
    result = JSON.parse(stdout.trim().split('\n').pop() ?? '');
  } catch {
    /* the CLI failed before its JSON line */
  }
  if (args.init) {
    // the init's result (files written, kept, failed, repaired; the decisions and the workspace facts) and every reply
    const transcript = { init: true, language: args.lang ?? 'English', complete: code === 0, result, replies: repliesIn(dir) };
    fs.writeFileSync(path.join(dir, 'transcript.json'), JSON.stringify(transcript, null, 2) + '\n');
    say(`transcript: ${path.join(dir, 'transcript.json')} (${transcript.replies.length} replies)`);
    say(code === 0 ? 'init complete' : `the CLI exited with ${code} (see ${path.join(dir, 'cli.log')})`);
    process.exit(code);
  }
  const taskId: string | undefined = result?.taskId ?? args.task;
  if (taskId) {
    const steps = transcriptFrom(workspace, taskId);
    const transcript = {
      taskId,
      objective: args.objective,
      language: args.lang ?? 'English',
      model: steps[0]?.model ?? args.model ?? 'unknown',
      complete: code === 0 && steps.length === 5,
      steps: steps.map(({ step, raw }) => ({ step, raw })),
      // Every reply in the order it was served (tool-use turns and repairs included): what a replay must serve.
      replies: repliesIn(dir),
    };
    fs.writeFileSync(path.join(dir, 'transcript.json'), JSON.stringify(transcript, null, 2) + '\n');
    say(`transcript: ${path.join(dir, 'transcript.json')} (${steps.length} steps)`);
  }
  say(code === 0 ? 'session complete' : `the CLI exited with ${code} (see ${path.join(dir, 'cli.log')})`);
  process.exit(code);
}

main().catch((e) => fail((e as Error).message));

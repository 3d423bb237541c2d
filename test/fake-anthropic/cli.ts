#!/usr/bin/env node
// Standalone fake Anthropic Messages API, for the README demo, benchmarks and the VS Code e2e tests.
//
//   node out/test/fake-anthropic/cli.js [--port N] (--script file.json | --replay session.json ...) [--loop]
//        [--chunk-size N] [--chunk-delay-ms N] [--api-key KEY] [--log requests.jsonl]
//
// --script   a JSON array whose items are reply texts or FakeReply objects ({text} or {fault: ...}).
// --replay   a recorded CAPE session ({steps: [{step, raw}]}); its raw replies are served in order.
//            May be given several times: the sessions are concatenated.
// --loop     start the script again from the top when it is exhausted (otherwise: a clear 500).
// --log      append one JSON line per request answered from the script (the key is redacted).
//
// Prints `FAKE_ANTHROPIC_URL=http://127.0.0.1:PORT` on stdout once listening; stops on SIGINT/SIGTERM.
import * as fs from 'fs';
import { FakeReply, isFakeReply, replayResponder, startFakeAnthropic } from './server';
import { readFlags } from './flags';

interface CliArgs {
  port: number;
  scripts: string[];
  replays: string[];
  loop: boolean;
  chunkSize?: number;
  chunkDelayMs?: number;
  apiKey?: string;
  log?: string;
}

const USAGE =
  'usage: node out/test/fake-anthropic/cli.js [--port N] (--script file.json | --replay session.json) [--loop]\n' +
  '       [--chunk-size N] [--chunk-delay-ms N] [--api-key KEY] [--log requests.jsonl]';

function fail(message: string): never {
  process.stderr.write(`fake-anthropic: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseCliArgs(argv: string[]): CliArgs {
  const values = readFlags(
    argv,
    {
      port: { type: 'string' },
      script: { type: 'string', multiple: true },
      replay: { type: 'string', multiple: true },
      loop: { type: 'boolean' },
      'chunk-size': { type: 'string' },
      'chunk-delay-ms': { type: 'string' },
      'api-key': { type: 'string' },
      log: { type: 'string' },
    },
    USAGE,
    fail,
  );
  const num = (flag: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0) fail(`--${flag} needs a non-negative number (got ${v})`);
    return n;
  };
  const chunkSize = num('chunk-size', values['chunk-size']);
  const args: CliArgs = {
    port: num('port', values.port) ?? 0,
    scripts: values.script ?? [],
    replays: values.replay ?? [],
    loop: !!values.loop,
    chunkSize: chunkSize === undefined ? undefined : Math.max(1, chunkSize),
    chunkDelayMs: num('chunk-delay-ms', values['chunk-delay-ms']),
    apiKey: values['api-key'],
    log: values.log,
  };
  if (args.scripts.length === 0 && args.replays.length === 0) fail('give --script or --replay');
  return args;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    fail(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(`${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function loadScript(file: string): FakeReply[] {
  const data = readJson(file);
  if (!Array.isArray(data)) fail(`${file}: a script must be a JSON array of reply texts or FakeReply objects`);
  return data.map((item, i) => {
    if (typeof item === 'string') return { text: item };
    if (isFakeReply(item)) return item;
    fail(`${file}: item ${i} is neither a string nor a FakeReply ({text} or {fault, ...})`);
  });
}

function loadReplay(file: string): FakeReply[] {
  const data = readJson(file) as { steps?: unknown };
  if (!data || !Array.isArray(data.steps)) fail(`${file}: a recorded session needs a "steps" array`);
  return data.steps.map((s: any, i: number) => {
    if (!s || typeof s.raw !== 'string') fail(`${file}: steps[${i}] has no "raw" text`);
    return { text: s.raw };
  });
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  const replies = [...args.scripts.flatMap(loadScript), ...args.replays.flatMap(loadReplay)];
  const fake = await startFakeAnthropic({
    port: args.port,
    chunkSize: args.chunkSize,
    chunkDelayMs: args.chunkDelayMs,
    apiKey: args.apiKey,
  });
  const respond = replayResponder(replies, { loop: args.loop });
  fake.setResponder((req, index) => {
    if (args.log) {
      // Never write the key to disk.
      const headers = { ...req.headers };
      delete headers['authorization'];
      delete headers['x-api-key'];
      fs.appendFileSync(args.log, JSON.stringify({ ...req, headers, apiKey: req.apiKey ? '(redacted)' : null }) + '\n');
    }
    return respond(req, index);
  });
  process.stdout.write(`FAKE_ANTHROPIC_URL=${fake.url}\n`);
  const stop = () => {
    fake.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => fail((e as Error).message));

#!/usr/bin/env node
// Headless demo: a whole CAPE session in the terminal against the local fake Anthropic server (no key, no network).
// It initialises cape/ in a throwaway copy of a tiny notes app, runs a session, and applies DevA's files.
// usage: node scripts/demo.mjs   (after `npm run build && npx tsc -p .`; `npm run demo` does both)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { startDemoServer } = require(path.join(root, 'out/test/helpers/demoServer.js'));

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-demo-'));
fs.cpSync(path.join(root, 'test/demo/workspace'), ws, { recursive: true });
const fake = await startDemoServer({ chunkSize: 6, chunkDelayMs: 4 });
const env = { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'demo' };
const cli = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/cli.js'), ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
  });

console.log(`Demo workspace: ${ws}\nFake Anthropic API: ${fake.url}\n`);
let code = await cli(['init', '--workspace', ws, '--answers', path.join(root, 'test/demo/answers.json')]);
if (code === 0) code = await cli(['start', '--workspace', ws, '--objective', 'Add a dark mode that follows the OS and can be toggled', '--apply']);
await fake.close();
if (code === 0) {
  console.log(`\nDone. Look at ${path.join(ws, 'cape/5_sessions')} and the applied files in ${ws}.`);
}
process.exit(code);

#!/usr/bin/env node
// The whole CAPE flow in a real VS Code in your browser, with no key and no network:
// code-server on 127.0.0.1 with this extension installed, talking to the local fake Anthropic server that plays the
// English demo session. Open the printed URL, then run "CAPE: Initialize Project" and "CAPE: Start Session".
// usage: npm start   (builds, installs code-server into .vscode-test/ once, then runs this)
//        PORT=8080 npm start  to choose the port; Ctrl+C stops everything.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { startDemoServer } = require(path.join(root, 'out/test/helpers/demoServer.js'));
const { startCodeServer } = require(path.join(root, 'out/test/vscode/codeServer.js'));

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-demo-'));
fs.cpSync(path.join(root, 'test/demo/workspace'), ws, { recursive: true });
const fake = await startDemoServer({ chunkSize: 6, chunkDelayMs: 8 });
const cs = await startCodeServer({
  workspace: ws,
  port: process.env.PORT ? Number(process.env.PORT) : undefined,
  userSettings: { 'cape.baseUrl': fake.url, 'workbench.startupEditor': 'none' },
  extensions: [{ path: root }],
});
const url = `${cs.url}/?folder=${encodeURIComponent(ws)}`;
console.log(`
CAPE demo is running.
  VS Code (code-server): ${url}
  Fake Anthropic API:    ${fake.url}  (plays the English demo session; no key needed)
  Demo workspace:        ${ws}

In the browser: Command Palette (F1) → "CAPE: Initialize Project" (answer the questionnaire; optional questions can be skipped; the fake server
writes the project files), then "CAPE: Start Session" with any objective. Press Ctrl+C here to stop.
`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cs.stop();
  await fake.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);

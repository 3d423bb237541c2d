// Test harness for the chat panel webview: builds the bundle, serves the page produced by renderPanelHtml on a
// loopback HTTP server (so the real CSP applies), and opens it in Debian's Chromium through playwright-core with
// a stubbed acquireVsCodeApi that records posted messages and persists state in sessionStorage.
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../src/panel/html';
import type { HostMessage } from '../../src/panel/protocol';
import { repoRoot } from '../helpers/fixtures';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Builds dist/webview.js, dist/webview-style.css and dist/codicons with the project's esbuild script. */
export function buildWebview(): void {
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--only', 'webview'], { cwd: repoRoot(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`webview build failed (node esbuild.mjs --only webview):\n${r.stderr}${r.stdout}`);
}

/** A subset of the variables VS Code injects, with the values of the default Dark/Light Modern themes. */
const THEMES: Record<'dark' | 'light', Record<string, string>> = {
  dark: {
    'font-family': '-apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", "Noto Sans CJK JP", Ubuntu, sans-serif',
    'font-size': '13px',
    'editor-font-family': '"DejaVu Sans Mono", monospace',
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    errorForeground: '#f85149',
    focusBorder: '#0078d4',
    'editor-background': '#1f1f1f',
    'sideBar-background': '#181818',
    'editorWidget-background': '#202020',
    'panel-border': '#2b2b2b',
    'widget-border': '#313131',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#026ec1',
    'button-border': '#ffffff12',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'button-secondaryHoverBackground': '#3c3c3c',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    'input-background': '#313131',
    'input-foreground': '#cccccc',
    'input-border': '#3c3c3c',
    'input-placeholderForeground': '#989898',
    'textLink-foreground': '#4daafc',
    'textLink-activeForeground': '#4daafc',
    'textCodeBlock-background': '#2b2b2b',
    'textBlockQuote-background': '#2b2b2b',
    'textBlockQuote-border': '#616161',
    'toolbar-hoverBackground': '#5a5d5e50',
    'icon-foreground': '#cccccc',
    'progressBar-background': '#0078d4',
    'testing-iconPassed': '#73c991',
    'editorWarning-foreground': '#cca700',
    'inputValidation-errorBackground': '#5a1d1d',
    'inputValidation-errorBorder': '#be1100',
    'inputValidation-infoBackground': '#063b49',
    'inputValidation-infoBorder': '#007acc',
    'gitDecoration-addedResourceForeground': '#81b88b',
    'gitDecoration-modifiedResourceForeground': '#e2c08d',
    'charts-green': '#89d185',
    'charts-blue': '#3794ff',
    'charts-purple': '#b180d7',
    'charts-orange': '#d18616',
    'charts-red': '#f14c4c',
    'charts-yellow': '#cca700',
  },
  light: {
    'font-family': '-apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", "Noto Sans CJK JP", Ubuntu, sans-serif',
    'font-size': '13px',
    'editor-font-family': '"DejaVu Sans Mono", monospace',
    foreground: '#3b3b3b',
    descriptionForeground: '#6f6f6f',
    errorForeground: '#f85149',
    focusBorder: '#005fb8',
    'editor-background': '#ffffff',
    'sideBar-background': '#f8f8f8',
    'editorWidget-background': '#f8f8f8',
    'panel-border': '#e5e5e5',
    'widget-border': '#e5e5e5',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#0258a8',
    'button-border': '#0000001a',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'button-secondaryHoverBackground': '#cccccc',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    'input-background': '#ffffff',
    'input-foreground': '#3b3b3b',
    'input-border': '#cecece',
    'input-placeholderForeground': '#767676',
    'textLink-foreground': '#005fb8',
    'textLink-activeForeground': '#005fb8',
    'textCodeBlock-background': '#f0f0f0',
    'textBlockQuote-background': '#f8f8f8',
    'textBlockQuote-border': '#e5e5e5',
    'toolbar-hoverBackground': '#b8b8b850',
    'icon-foreground': '#3b3b3b',
    'progressBar-background': '#005fb8',
    'testing-iconPassed': '#388a34',
    'editorWarning-foreground': '#bf8803',
    'inputValidation-errorBackground': '#f2dede',
    'inputValidation-errorBorder': '#be1100',
    'inputValidation-infoBackground': '#d6ecf2',
    'inputValidation-infoBorder': '#007acc',
    'gitDecoration-addedResourceForeground': '#587c0c',
    'gitDecoration-modifiedResourceForeground': '#895503',
    'charts-green': '#388a34',
    'charts-blue': '#1a85ff',
    'charts-purple': '#652d90',
    'charts-orange': '#d18616',
    'charts-red': '#e51400',
    'charts-yellow': '#bf8803',
  },
};

function themeCss(theme: 'dark' | 'light'): string {
  const vars = Object.entries(THEMES[theme]).map(([k, v]) => `  --vscode-${k}: ${v};`);
  return `html {\n${vars.join('\n')}\n  color-scheme: ${theme};\n}\n`;
}

export interface PanelServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `/?theme=dark|light` (the panel page) and the built files under /dist. */
export async function startServer(): Promise<PanelServer> {
  const dist = path.join(repoRoot(), 'dist');
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/') {
      const theme = url.searchParams.get('theme') === 'light' ? 'light' : 'dark';
      const html = renderPanelHtml({
        cspSource: origin,
        nonce: crypto.randomBytes(16).toString('base64'),
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/dist/webview-style.css`,
        codiconsUri: `${origin}/dist/codicons/codicon.css`,
      }).replace('</head>', `  <link rel="stylesheet" href="${origin}/theme-${theme}.css">\n</head>`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    const theme = /^\/theme-(dark|light)\.css$/.exec(url.pathname);
    if (theme) {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(themeCss(theme[1] as 'dark' | 'light'));
      return;
    }
    if (url.pathname.startsWith('/dist/')) {
      const file = path.resolve(dist, '.' + decodeURIComponent(url.pathname.slice('/dist'.length)));
      if (file.startsWith(dist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.ttf') ? 'font/ttf' : 'application/octet-stream';
        res.writeHead(200, { 'content-type': type });
        res.end(fs.readFileSync(file));
        return;
      }
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(404);
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Stub of VS Code's webview API, installed before the app script runs. */
const VSCODE_STUB = `(() => {
  const posted = [];
  window.__posted = posted;
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => { const s = sessionStorage.getItem('__vscodeState'); return s ? JSON.parse(s) : undefined; },
    setState: (s) => sessionStorage.setItem('__vscodeState', JSON.stringify(s)),
  });
})();`;

export interface PanelPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  send(...msgs: HostMessage[] | unknown[]): Promise<void>;
  posted(): Promise<{ type: string; [k: string]: unknown }[]>;
  clearPosted(): Promise<void>;
}

export async function openPanel(browser: Browser, server: PanelServer, theme: 'dark' | 'light' = 'dark', viewport = { width: 900, height: 900 }): Promise<PanelPage> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  await page.addInitScript(VSCODE_STUB);
  await page.goto(`${server.origin}/?theme=${theme}`);
  await page.waitForSelector('.panel-header');
  let seq = 0;
  return {
    page,
    problems,
    async send(...msgs: unknown[]) {
      const id = `sync-${++seq}`;
      // Messages posted from the page are delivered in order; the sentinel resolves after all of them.
      await page.evaluate(
        ({ msgs, id }) =>
          new Promise<void>((resolve) => {
            const done = (e: MessageEvent) => {
              if (e.data && e.data.__sync === id) {
                window.removeEventListener('message', done);
                resolve();
              }
            };
            window.addEventListener('message', done);
            for (const m of msgs) window.postMessage(m, '*');
            window.postMessage({ __sync: id }, '*');
          }),
        { msgs, id },
      );
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted.slice()),
    clearPosted: () => page.evaluate(() => void ((window as unknown as { __posted: unknown[] }).__posted.length = 0)),
  };
}

export function screenshotPath(name: string): string {
  const dir = path.join(repoRoot(), 'test-output', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `webview-${name}.png`);
}

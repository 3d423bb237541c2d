// Shared plumbing of the end-to-end tests: a temp workspace, code-server with the extension under development
// (extensionDevelopmentPath = repo root) pointed at a local fake Anthropic server through the user setting
// `cape.baseUrl` (a loopback URL needs no API key), Chromium on the workbench, and helpers for the chat panel
// webview. Every scenario owns its own code-server, browser and workspace, so the files can run in any order.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import type { AddressInfo } from 'net';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import * as ui from '../vscode/browser';
import { repoRoot } from '../helpers/fixtures';
import { runCli } from '../helpers/cli';
import { demoDir } from '../helpers/demo';
import { startDemoServer } from '../helpers/demoServer';

export const REPO = repoRoot();
export const PANEL_TITLE = 'CAPE Session';

/** A fresh temp workspace, optionally filled from a template folder. Removed by {@link E2eEnv.close}. */
export function makeWorkspace(template?: string): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-e2e-'));
  if (template) fs.cpSync(template, ws, { recursive: true });
  return ws;
}

export interface E2eEnv {
  workspace: string;
  cs: CodeServer;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The e2e tests drive the bundles (dist/extension.js, dist/session.js, dist/webview.js), not the TypeScript sources: rebuild it with
 * `node esbuild.mjs` when it is missing or older than src/ or media/app/ (others may have edited them since).
 */
export function ensureBundleFresh(): void {
  const bundles = ['extension.js', 'session.js', 'webview.js'].map((f) => path.join(REPO, 'dist', f));
  const built = bundles.every((f) => fs.existsSync(f)) ? Math.min(...bundles.map((f) => fs.statSync(f).mtimeMs)) : 0;
  const newest = newestMtime([path.join(REPO, 'src'), path.join(REPO, 'media', 'app'), path.join(REPO, 'prompts')]);
  if (newest.mtime <= built) return;
  try {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'pipe', timeout: 120_000 });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`dist/ is stale (${path.relative(REPO, newest.file)} is newer) and \`node esbuild.mjs\` failed: ${e.stderr?.toString() || e.message}`);
  }
}

function newestMtime(dirs: string[]): { file: string; mtime: number } {
  let best = { file: '', mtime: 0 };
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|css|md|json)$/.test(e.name)) {
        const m = fs.statSync(p).mtimeMs;
        if (m > best.mtime) best = { file: p, mtime: m };
      }
    }
  };
  dirs.forEach((d) => fs.existsSync(d) && walk(d));
  return best;
}

/** Starts code-server on `workspace` with `cape.baseUrl` = the fake server and opens the workbench in Chromium. */
export async function openCape(workspace: string, baseUrl: string, settings: Record<string, unknown> = {}): Promise<E2eEnv> {
  ensureBundleFresh();
  const cs = await startCodeServer({
    workspace,
    userSettings: { 'cape.baseUrl': baseUrl, 'cape.language': 'English', ...(readmeShotsDir() ? README_SHOT_SETTINGS : {}), ...settings },
  });
  let browser: Browser | undefined;
  try {
    browser = await ui.launchBrowser({ runDir: cs.runDir });
    const page = await ui.openWorkbench(browser, cs, { folder: workspace, extensionDevelopmentPath: REPO, viewport: readmeShotsDir() ? README_SHOT_VIEWPORT : undefined });
    const b = browser;
    let closed = false;
    return {
      workspace,
      cs,
      browser: b,
      page,
      async close() {
        if (closed) return;
        closed = true;
        await b.close().catch(() => undefined);
        await cs.stop();
        fs.rmSync(workspace, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await cs.stop();
    throw err;
  }
}

/** Polls `fn` until it returns a truthy value; throws `what` (plus the last value) after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      last = await fn();
      if (last) return last as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last instanceof Error ? last.message : JSON.stringify(last))?.slice(0, 500)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The chat panel's content frame (a locator root). */
export function panel(page: Page, timeoutMs = 60_000): Promise<FrameLocator> {
  return ui.webviewFrame(page, PANEL_TITLE, { timeoutMs });
}

/** The Playwright Frame of the chat panel content (for evaluate()): the webview frame holding #cape-root. */
export async function panelContentFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  return waitFor(
    'the chat panel content frame (#cape-root)',
    async () => {
      for (const f of ui.webviewContentFrames(page)) {
        if (await f.evaluate(() => !!document.getElementById('cape-root')).catch(() => false)) return f;
      }
      return undefined;
    },
    timeoutMs,
    200,
  );
}

/** Text of the live voice of a step in the panel ('' while absent). */
export async function voiceText(wv: FrameLocator, step: string): Promise<string> {
  const loc = wv.locator(`.session[data-current="true"] .turn[data-step="${step}"] .voice`);
  if ((await loc.count()) === 0) return '';
  return (await loc.first().textContent()) ?? '';
}

/** data-status of a step in the panel's stepper ('pending' | 'running' | 'done' | 'failed' | 'skipped'). */
export async function stepStatus(wv: FrameLocator, step: string): Promise<string | null> {
  const loc = wv.locator(`.stepper .step[data-step="${step}"]`);
  if ((await loc.count()) === 0) return null;
  return loc.first().getAttribute('data-status');
}

/** Waits until every step of the stepper is done (fails fast with the panel's error text if one failed). */
export async function waitForSessionDone(wv: FrameLocator, timeoutMs = 120_000): Promise<void> {
  await waitFor(
    'all five steps done in the panel',
    async () => {
      const st = await Promise.all(['cm_open', 'poa', 'da', 'deva', 'cm_retro'].map((s) => stepStatus(wv, s)));
      if (st.includes('failed')) {
        const err = await wv.locator('.error-box').allTextContents();
        throw new Error(`a step failed in the panel: ${st.join(',')} — ${err.join(' | ')}`);
      }
      return st.every((s) => s === 'done') && (await wv.locator('.retro-results').count()) > 0;
    },
    timeoutMs,
    250,
  ).catch((err) => {
    // A failed step is not worth waiting for: rethrow the first error as is.
    throw err;
  });
}

/** Runs "CAPE: Start Session" and types the objective into the input box. */
export async function startSession(page: Page, objective: string): Promise<void> {
  await runPaletteCommand(page, 'CAPE: Start Session');
  await waitFor('the objective input box', async () => (await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '')).includes('CAPE: Start Session'), 30_000);
  await ui.typeInQuickInput(page, objective);
}

/** Files under `dir` (relative, forward slashes), recursively. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

/** Reads the YAML-less `type:` of a markdown file's frontmatter ('' when there is none). */
export function frontmatterType(file: string): string {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(fs.readFileSync(file, 'utf8'));
  const t = m ? /^type:\s*(\S+)/m.exec(m[1]) : null;
  return t ? t[1] : '';
}

/** Saves a screenshot; failures to screenshot never fail a test (the assertion that follows is what counts). */
export async function shot(page: Page, stage: string): Promise<void> {
  await ui.screenshot(page, `e2e-${stage}`).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// README screenshots (docs/images): taken by the e2e tests at the moment a test has asserted what they show, and
// written only when CAPE_SCREENSHOTS names a folder (`npm run screenshots`), so ordinary runs leave the tree clean.
// In that mode every window has the same size and theme, so the images look alike.

const README_SHOT_VIEWPORT = { width: 1280, height: 960 };
const README_SHOT_SETTINGS: Record<string, unknown> = { 'workbench.colorTheme': 'Default Dark Modern', 'editor.wordWrap': 'on' };

/** The folder README screenshots go to (CAPE_SCREENSHOTS, relative to the repository), or undefined. */
export function readmeShotsDir(): string | undefined {
  const dir = process.env.CAPE_SCREENSHOTS?.trim();
  return dir ? path.resolve(REPO, dir) : undefined;
}

/**
 * Writes `<CAPE_SCREENSHOTS>/<name>.png` when screenshots are asked for (else does nothing): the window below its title
 * bar (activity bar, side bar, editors, status bar — the title only names the temp folder). Unlike {@link shot}, a
 * failure here fails the run: a screenshot run that silently produced no image would leave the README pointing at a
 * stale one.
 */
export async function readmeShot(page: Page, name: string): Promise<void> {
  const dir = readmeShotsDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  // Let tooltips, hovers and the last repaint settle: the test has already asserted the state itself.
  await page.mouse.move(README_SHOT_VIEWPORT.width / 2, 8); // the window title: no hover there
  await page.waitForTimeout(500);
  const title = (await page.locator('.part.titlebar').boundingBox())?.height ?? 0;
  const { width, height } = README_SHOT_VIEWPORT;
  await page.screenshot({ path: path.join(dir, `${name}.png`), clip: { x: 0, y: title, width, height: height - title } });
}

/** Drags the side bar's edge so that the side bar is `width` pixels wide (long KPT items stay readable). */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const bar = await page.locator('.part.sidebar').boundingBox();
  assert.ok(bar, 'the side bar is open');
  const y = bar.y + bar.height / 2;
  await page.mouse.move(bar.x + bar.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(bar.x + width, y, { steps: 8 });
  await page.mouse.up();
  await waitFor(`the side bar ${width} px wide`, async () => Math.abs(((await page.locator('.part.sidebar').boundingBox())?.width ?? 0) - width) < 24);
}

/** Opens a workspace file by name with Go to File (the first match) and waits for its editor tab. */
export async function openFileQuickly(page: Page, name: string): Promise<void> {
  await runPaletteCommand(page, 'Go to File...');
  await ui.typeInQuickInput(page, name, { submit: false });
  await ui.pickQuickItem(page, name, { timeoutMs: 30_000 });
  await waitFor(`the editor tab of ${name}`, async () => (await ui.editorTabs(page)).includes(name));
}

/** Drags the top edge of a side-bar view (by title) up to `top` px, so the view gets the room above it. */
export async function growPane(page: Page, viewTitle: string, top: number): Promise<void> {
  const header = page.locator('.part.sidebar .pane-header', { hasText: new RegExp(`^\\s*${viewTitle}`, 'i') }).first();
  const box = await header.boundingBox();
  assert.ok(box, `the ${viewTitle} view is shown`);
  await page.mouse.move(box.x + box.width / 2, box.y + 1);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, top, { steps: 8 });
  await page.mouse.up();
  await waitFor(`the ${viewTitle} view grown`, async () => ((await header.boundingBox())?.y ?? box.y) < box.y - 24);
}

/** Scrolls the chat panel so that the first element matching `selector` starts just below the sticky header. */
export async function scrollPanelTo(page: Page, selector: string): Promise<void> {
  const frame = await panelContentFrame(page);
  const found = await frame.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const header = document.querySelector('.panel-header');
    const top = el.getBoundingClientRect().top + window.scrollY - (header ? header.getBoundingClientRect().height : 0) - 12;
    (document.scrollingElement ?? document.documentElement).scrollTop = Math.max(0, top);
    return true;
  }, selector);
  assert.ok(found, `the panel shows ${selector}`);
}

export function assertIncludes(haystack: string, needle: string, what: string): void {
  assert.ok(haystack.includes(needle), `${what} should contain ${JSON.stringify(needle.slice(0, 200))} but is ${JSON.stringify(haystack.slice(0, 600))}`);
}

// ---------------------------------------------------------------------------------------------------------------
// A transparent HTTP proxy in front of the fake server that records, per request, whether the client went away
// before the upstream response ended (the fake server itself does not expose its sockets). The proxy forwards the
// disconnect upstream, so the fake server sees it too.

export interface ProxiedRequest {
  index: number;
  method: string;
  url: string;
  /** Bytes of the upstream response relayed to the client. */
  bytes: number;
  /** The upstream response ended normally. */
  finished: boolean;
  /** The client disconnected before the response ended. */
  clientAborted: boolean;
  abortedAt?: number;
  startedAt: number;
}

export interface AbortProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startAbortProxy(upstream: string): Promise<AbortProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const rec: ProxiedRequest = { index: requests.length, method: req.method ?? '', url: req.url ?? '', bytes: 0, finished: false, clientAborted: false, startedAt: Date.now() };
    requests.push(rec);
    const up = http.request(
      { host: target.hostname, port: Number(target.port), method: req.method, path: req.url, headers: req.headers },
      (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        res.flushHeaders();
        ur.on('data', (c: Buffer) => {
          rec.bytes += c.length;
          res.write(c);
        });
        ur.on('end', () => {
          rec.finished = true;
          res.end();
        });
        ur.on('error', () => res.destroy());
      },
    );
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(up);
    res.on('close', () => {
      if (!rec.finished) {
        rec.clientAborted = true;
        rec.abortedAt = Date.now();
        up.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Tree views (label + description + depth; ui.treeItems gives labels only)

export interface TreeRow {
  label: string;
  description: string;
  level: number;
  expanded: boolean | null;
}

/** The visible rows of a view (found by its pane title, case-insensitive), with descriptions such as "×3". */
export async function treeRows(page: Page, viewTitle: string): Promise<TreeRow[]> {
  await ui.treeItems(page, viewTitle); // finds the pane, expands it and waits for a first row
  return page.evaluate((title) => {
    const clean = (s: string | null | undefined) => (s ?? '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
    const pane = Array.from(document.querySelectorAll('.part.sidebar .pane')).find((p) => {
      const h = p.querySelector('.pane-header');
      return clean(h?.querySelector('.title')?.textContent).toLowerCase() === title.toLowerCase() || clean(h?.getAttribute('aria-label')).toLowerCase().startsWith(title.toLowerCase());
    });
    if (!pane) return [];
    return Array.from(pane.querySelectorAll('.pane-body .monaco-list-row')).map((r) => ({
      label: clean(r.querySelector('.label-name')?.textContent),
      description: clean(r.querySelector('.label-description')?.textContent),
      level: Number(r.getAttribute('aria-level') ?? '1'),
      expanded: r.hasAttribute('aria-expanded') ? r.getAttribute('aria-expanded') === 'true' : null,
    }));
  }, viewTitle);
}

/**
 * Expands (or collapses) the collapsible row of a view whose label is exactly `label`, by clicking it, and waits until
 * the row shows that state. A click can be lost when the view re-renders the row as it lands (a refresh after a file
 * change): the click is repeated only while the row verifiably kept its old state (checked right before each click, so
 * a late first click is never undone), up to three clicks.
 */
export async function setTreeRowExpanded(page: Page, viewTitle: string, label: string, expanded: boolean): Promise<void> {
  const pane = page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${viewTitle}`, 'i') }) });
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = pane.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
  const want = String(expanded);
  const state = () => row.getAttribute('aria-expanded', { timeout: 30_000 });
  for (let click = 1; ; click++) {
    const before = await state();
    if (before === want) return;
    if (before === null) throw new Error(`the ${viewTitle} row "${label}" cannot be expanded or collapsed`);
    await row.click();
    const done = await waitFor(`the ${viewTitle} row "${label}" ${expanded ? 'expanded' : 'collapsed'}`, async () => (await state()) === want, 10_000).catch(() => undefined);
    if (done) return;
    if (click === 3) throw new Error(`three clicks did not ${expanded ? 'expand' : 'collapse'} the ${viewTitle} row "${label}" (aria-expanded: ${await state()})`);
    console.log(`      (click ${click} on the ${viewTitle} row "${label}" changed nothing; clicking again)`);
  }
}

/**
 * Creates cape/ in `workspace` with the real init (the bundled CLI) against a throwaway demo server, for scenarios
 * that are not about init. The demo answers are used.
 */
export async function initCapeWithCli(workspace: string): Promise<void> {
  const fake = await startDemoServer();
  try {
    const run = await runCli(['init', '--workspace', workspace, '--answers', path.join(demoDir(), 'answers.json')], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    if (run.code !== 0) throw new Error(`cape init failed (exit ${run.code}): ${run.stderr}`);
  } finally {
    await fake.close();
  }
}

/**
 * The teardown every e2e suite needs, registered inside its describe(): after a failed test a screenshot and the
 * last extension-host lines (reportFailure), and after the suite the window, then each other resource, closed in order.
 */
export function closeAfterSuite(env: () => E2eEnv | undefined, ...others: Array<() => { close(): Promise<void> } | undefined>): void {
  afterEach(async function () {
    await reportFailure(this, env());
  });
  after(async () => {
    await env()?.close();
    for (const o of others) await o()?.close();
  });
}

/**
 * mocha hook body: after a failed test, save a screenshot `e2e-FAILED-<title>` and print the last extension-host
 * lines and page errors, so a failure in CI can be diagnosed without re-running it.
 */
export async function reportFailure(ctx: Mocha.Context, env: E2eEnv | undefined): Promise<void> {
  const t = ctx.currentTest;
  if (!t || t.state !== 'failed' || !env) return;
  await shot(env.page, `FAILED-${t.title.slice(0, 60)}`);
  const lines = ui.extensionHostLog(env.page).slice(-25);
  const errors = ui.pageErrors(env.page).slice(-10);
  console.log(`\n--- extension host (last ${lines.length} lines) ---\n${lines.join('\n')}\n--- page errors ---\n${errors.join('\n')}\n`);
}

/**
 * Runs a command from the Command Palette by its exact title. Unlike clicking a row (which can hit a different
 * command when the filtered list re-renders between finding and clicking), this waits until the palette's
 * *focused* row is exactly `title` in two consecutive polls and then presses Enter.
 */
export async function runPaletteCommand(page: Page, title: string, timeoutMs = 60_000): Promise<void> {
  await ui.runCommand(page, title, { timeoutMs });
}

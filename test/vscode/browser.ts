/**
 * Drive the code-server workbench with Playwright (playwright-core + Debian's /usr/bin/chromium; never
 * `npx playwright install`). Selectors below were checked against code-server 4.100.3 (VS Code 1.100.3);
 * see test/vscode/README.md for what each one matches and the pitfalls.
 */
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import { chromium, Browser, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { CodeServer, REPO_ROOT, RUNS_DIR, removeRunDir, shortTempDir } from './codeServer';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots');

/** Flags that work headless as root in a container without GPU, network or /dev/shm room. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LaunchOptions {
  /** Where Chromium's config/crashpad/tmp dirs go; default a fresh dir under .vscode-test/runs/. Pass cs.runDir. */
  runDir?: string;
  /** Default true; HEADED=1 in the environment (with a display) turns it off. */
  headless?: boolean;
}

/** Launch headless Chromium with its profile dirs kept under the run dir (not in the real HOME). */
export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}. Run: bash scripts/install-chromium.sh (or set CHROMIUM_PATH)`);
  }
  let runDir = opts.runDir;
  if (!runDir) {
    // A browser-only run dir, owned by this process so reapLeftoverRuns() leaves it alone while we live.
    runDir = fs.mkdtempSync(path.join(ensureDir(RUNS_DIR), 'browser-'));
    fs.writeFileSync(path.join(runDir, 'owner.pid'), String(process.pid));
  }
  const config = ensureDir(path.join(runDir, 'chromium-config'));
  // Not under runDir: Chromium puts its SingletonSocket in TMPDIR and dies on long socket paths.
  const tmp = shortTempDir(runDir, 'chr-');
  // Playwright creates the throwaway profile (--user-data-dir) in os.tmpdir(), which reads TMPDIR on each call:
  // point it at our temp dir for the launch, so the profile is removed with the run even if we crash.
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: opts.headless ?? process.env.HEADED !== '1',
      args: CHROMIUM_ARGS,
      // XDG_CONFIG_HOME keeps Chromium's crashpad dir (~/.config/chromium) out of the real HOME.
      env: { ...process.env, XDG_CONFIG_HOME: config, TMPDIR: tmp } as Record<string, string>,
    });
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  if (!opts.runDir) {
    const own = runDir;
    // Playwright deletes its profile dir itself right after close; let that finish before removing ours.
    browser.on('disconnected', () => setTimeout(() => removeRunDir(own), 1000));
  }
  return browser;
}

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export interface OpenWorkbenchOptions {
  /** Absolute folder to open. */
  folder: string;
  /** Absolute path of the extension under development (loaded like F5, not installed). */
  extensionDevelopmentPath?: string;
  /** Absolute path of a module exporting run(): Promise<void> (runs inside the extension host, then reports exit). */
  extensionTestsPath?: string;
  /** Default 1400x900. */
  viewport?: { width: number; height: number };
  /** Workbench-ready timeout; default 120 s. */
  timeoutMs?: number;
  /** Called for every extension-host console line (already cleaned of %c styling). */
  onExtensionHostLine?: (line: string) => void;
  /** Called with every codeAutomationLog message (the test run's output when extensionTestsPath is set). */
  onAutomationLog?: (type: string, args: unknown[]) => void;
}

interface PageState {
  extHostLines: string[];
  consoleErrors: string[];
  exitCode: Promise<number>;
}
const pageState = new WeakMap<Page, PageState>();

/** The workbench URL with folder and payload (extensionDevelopmentPath / extensionTestsPath) for this server. */
export function workbenchUrl(cs: CodeServer, opts: Pick<OpenWorkbenchOptions, 'folder' | 'extensionDevelopmentPath' | 'extensionTestsPath'>): string {
  const payload: [string, string][] = [];
  if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', cs.remoteUri(opts.extensionDevelopmentPath)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', cs.remoteUri(opts.extensionTestsPath)]);
  let url = `${cs.url}/?folder=${encodeURIComponent(opts.folder)}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** Extension-host console lines look like "%c[Extension Host] %cmessage color: blue color: ..." in the page console. */
export function cleanExtensionHostLine(text: string): string | undefined {
  if (!text.includes('[Extension Host]')) return undefined;
  return text
    .replace(/%c/g, '')
    .replace(/\s*(?:color|font-weight|background)\s*:\s*[^;\s]*;?/g, ' ')
    .replace(/^\s*\[Extension Host\]\s*/, '')
    .trimEnd();
}

/**
 * Open a new page on the workbench and wait until it is on screen. Extension-host console lines are collected from
 * the start (see {@link extensionHostLog}); with extensionTestsPath, {@link waitForTestsExit} gives the exit code.
 */
export async function openWorkbench(browser: Browser, cs: CodeServer, opts: OpenWorkbenchOptions): Promise<Page> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
  const page = await context.newPage();
  let resolveExit!: (code: number) => void;
  const state: PageState = {
    extHostLines: [],
    consoleErrors: [],
    exitCode: new Promise<number>((r) => (resolveExit = r)),
  };
  pageState.set(page, state);
  // Where extension-host output shows up differs by mode (checked on code-server 4.100.3):
  // - normal window: page console lines "%c[Extension Host] %c<message> color: ..." (console.log in the extension);
  // - extensionTestsPath window: NOT on the console with that prefix; the workbench hands every log entry of the
  //   window (extension host included, printf-style args) to window.codeAutomationLog(level, args).
  const testsMode = !!opts.extensionTestsPath;
  const record = (line: string): void => {
    state.extHostLines.push(line);
    opts.onExtensionHostLine?.(line);
  };
  page.on('console', (msg) => {
    const line = cleanExtensionHostLine(msg.text());
    if (line !== undefined && !testsMode) record(line);
    else if (msg.type() === 'error' && !isWorkbenchNoise(msg.text().replace(/^%c\s*ERR\s*color:\s*\S+\s*/, ''))) {
      state.consoleErrors.push(msg.text());
    }
  });
  page.on('pageerror', (e) => state.consoleErrors.push(`pageerror: ${String(e)}`));
  // The workbench calls these (like @vscode/test-web) when an extensionTestsPath run logs and when it ends.
  // They must be exposed before the page loads.
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
    opts.onAutomationLog?.(type, args);
    if (!testsMode || !Array.isArray(args)) return;
    const line = format(...(args as [unknown, ...unknown[]]));
    if (!isWorkbenchNoise(line)) record(type === 'error' ? `ERROR ${line}` : line);
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => resolveExit(Number(code)));

  await page.goto(workbenchUrl(cs, opts));
  const timeout = opts.timeoutMs ?? 120_000;
  await page.locator('.monaco-workbench').waitFor({ timeout });
  await page.locator('.monaco-workbench .part.activitybar, .monaco-workbench .part.statusbar').first().waitFor({ timeout });
  return page;
}

/** Workbench log lines that are expected on an offline machine and say nothing about the extension. */
const WORKBENCH_NOISE = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket \(/,
  /^Updating additional builtin extensions cache/,
  /ENOTFOUND open-vsx\.org/,
  /^Failed to load resource: net::ERR_NAME_NOT_RESOLVED/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
];
function isWorkbenchNoise(line: string): boolean {
  return WORKBENCH_NOISE.some((r) => r.test(line));
}

/** Extension-host console lines seen so far on this page (live array: it keeps growing). */
export function extensionHostLog(page: Page): string[] {
  return stateOf(page).extHostLines;
}

/** Browser-side console errors and page errors (useful when a UI step fails). */
export function pageErrors(page: Page): string[] {
  return stateOf(page).consoleErrors;
}

/** Wait for the extension tests (extensionTestsPath) to finish: their exit code, or 'timeout'. */
export function waitForTestsExit(page: Page, timeoutMs: number): Promise<number | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  return Promise.race([stateOf(page).exitCode, t]).finally(() => clearTimeout(timer));
}

function stateOf(page: Page): PageState {
  const s = pageState.get(page);
  if (!s) throw new Error('this page was not opened with openWorkbench()');
  return s;
}

/** Wait until some extension-host console line matches. Throws with the lines seen so far on timeout. */
export async function waitForExtensionHostLine(page: Page, pattern: RegExp | string, timeoutMs = 30_000): Promise<string> {
  const lines = extensionHostLog(page);
  const test = (l: string) => (typeof pattern === 'string' ? l.includes(pattern) : pattern.test(l));
  const end = Date.now() + timeoutMs;
  for (;;) {
    const hit = lines.find(test);
    if (hit !== undefined) return hit;
    if (Date.now() > end) {
      throw new Error(`no extension-host line matched ${pattern} within ${timeoutMs} ms; last lines:\n${lines.slice(-20).join('\n')}`);
    }
    await page.waitForTimeout(100);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Quick input (command palette, quick picks, input boxes)
// ---------------------------------------------------------------------------------------------------------------

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
const QUICK_ROW = '.quick-input-widget .monaco-list-row';

export async function quickInputVisible(page: Page): Promise<boolean> {
  return page.locator(QUICK_INPUT).isVisible();
}

function norm(s: string): string {
  return s.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The quick-input row whose label is exactly `label` (preferred), else the first row containing it. Rows also hold
 * descriptions, details and keybindings, so exact matching is done on the label element only.
 */
async function findQuickRow(page: Page, label: string): Promise<Locator | undefined> {
  const rows = page.locator(QUICK_ROW);
  const n = await rows.count();
  let partial: Locator | undefined;
  for (let i = 0; i < n; i++) {
    const row = rows.nth(i);
    const labelEl = row.locator('.label-name').first();
    const text = norm((await labelEl.count()) ? await labelEl.innerText().catch(() => '') : await row.innerText().catch(() => ''));
    if (text === norm(label)) return row;
    if (!partial && text.includes(norm(label))) partial = row;
  }
  return partial;
}

async function openCommandPalette(page: Page): Promise<void> {
  const input = page.locator(QUICK_INPUT_BOX);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('F1');
    if (await input.isVisible().catch(() => false)) return;
    try {
      await input.waitFor({ state: 'visible', timeout: 2000 });
      return;
    } catch {
      // Focus may be somewhere that swallows F1 (e.g. inside a webview being created): focus the status bar, retry.
      await page.locator('.monaco-workbench .part.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => undefined);
    }
  }
  await input.waitFor({ state: 'visible', timeout: 5000 });
}

/**
 * Run a command by its palette title ("Category: Title"). Retries until the extension host has registered it
 * (the palette only lists commands of activated extensions or ones contributed in package.json).
 */
export async function runCommand(page: Page, title: string, opts: { timeoutMs?: number } = {}): Promise<void> {
  const end = Date.now() + (opts.timeoutMs ?? 60_000);
  let attempts = 0;
  for (;;) {
    attempts++;
    if (await quickInputVisible(page)) await page.keyboard.press('Escape');
    await openCommandPalette(page);
    await page.locator(QUICK_INPUT_BOX).fill(`>${title}`);
    // Press Enter only once the FOCUSED row is exactly the title, twice in a row: clicking a row found a moment earlier
    // can hit another command when the filtered list re-renders in between.
    const focused = page.locator(`${QUICK_INPUT} .monaco-list-row.focused .label-name`).first();
    const rowEnd = Date.now() + 4000;
    let stable = 0;
    while (Date.now() < rowEnd) {
      const text = norm((await focused.textContent({ timeout: 500 }).catch(() => '')) ?? '');
      stable = text === title ? stable + 1 : 0;
      if (stable >= 2) {
        await page.locator(QUICK_INPUT_BOX).press('Enter');
        return;
      }
      await page.waitForTimeout(120);
    }
    await page.keyboard.press('Escape');
    if (Date.now() > end) {
      throw new Error(`command "${title}" did not appear in the command palette after ${attempts} attempts; ` +
        `is the extension activated and the title exact? Last extension-host lines:\n${(pageState.get(page)?.extHostLines ?? []).slice(-10).join('\n')}`);
    }
    await page.waitForTimeout(500);
  }
}

/** Visible quick-pick row labels (e.g. to assert the choices offered). */
export async function quickPickItems(page: Page): Promise<string[]> {
  await page.locator(QUICK_INPUT).waitFor({ state: 'visible', timeout: 10_000 });
  const rows = page.locator(QUICK_ROW);
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const labelEl = rows.nth(i).locator('.label-name').first();
    out.push(norm(await ((await labelEl.count()) ? labelEl : rows.nth(i)).innerText()));
  }
  return out;
}

/** Wait for a quick pick showing `label` and click that item (exact label match preferred). */
export async function pickQuickItem(page: Page, label: string, opts: { timeoutMs?: number } = {}): Promise<void> {
  const end = Date.now() + (opts.timeoutMs ?? 15_000);
  await page.locator(QUICK_INPUT).waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 15_000 });
  for (;;) {
    const row = await findQuickRow(page, label);
    if (row) {
      await row.click();
      return;
    }
    if (Date.now() > end) {
      throw new Error(`quick pick has no item "${label}"; items: ${JSON.stringify(await quickPickItems(page).catch(() => []))}`);
    }
    await page.waitForTimeout(150);
  }
}

/** Type into the visible quick input (input box or quick pick filter); submit (Enter) by default. */
export async function typeInQuickInput(page: Page, text: string, opts: { submit?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const input = page.locator(QUICK_INPUT_BOX);
  await input.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 15_000 });
  await input.fill(text);
  if (opts.submit ?? true) await input.press('Enter');
}

// ---------------------------------------------------------------------------------------------------------------
// Webviews
// ---------------------------------------------------------------------------------------------------------------

/**
 * The content frame of a webview: outer `iframe.webview.ready` → inner `#active-frame` → the extension's HTML.
 * - no argument / a number: the n-th ready webview in DOM order (0 = first).
 * - a string: the webview whose editor tab (panel) or view pane (WebviewView) has that title; resolved by finding
 *   the visible outer iframe whose on-screen box lies inside the active tab's editor group or that view's pane.
 */
export async function webviewFrame(page: Page, titleOrIndex: string | number = 0, opts: { timeoutMs?: number } = {}): Promise<FrameLocator> {
  const timeout = opts.timeoutMs ?? 30_000;
  const outer = page.locator('iframe.webview.ready');
  await outer.first().waitFor({ state: 'attached', timeout });
  if (typeof titleOrIndex === 'number') {
    return page.frameLocator('iframe.webview.ready').nth(titleOrIndex).frameLocator('#active-frame');
  }
  const end = Date.now() + timeout;
  for (;;) {
    const idx = await webviewIndexByTitle(page, titleOrIndex);
    if (idx >= 0) return page.frameLocator('iframe.webview.ready').nth(idx).frameLocator('#active-frame');
    if (Date.now() > end) throw new Error(`no visible webview titled "${titleOrIndex}" (tabs: ${JSON.stringify(await editorTabs(page))})`);
    await page.waitForTimeout(200);
  }
}

/**
 * Webview iframes are not inside the editor/pane DOM: VS Code positions them absolutely over their owner. So match
 * geometry: find the owner's box (editor group whose active tab has the title, or pane whose header has it) and the
 * ready iframe overlapping it most.
 */
async function webviewIndexByTitle(page: Page, title: string): Promise<number> {
  return page.evaluate((t) => {
    const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
    const owners: Element[] = [];
    document.querySelectorAll('.editor-group-container').forEach((g) => {
      const active = g.querySelector('.tab.active .label-name') ?? g.querySelector('.title-label .label-name');
      if (clean(active?.textContent) === t) {
        const content = g.querySelector('.editor-container');
        if (content) owners.push(content);
      }
    });
    document.querySelectorAll('.pane').forEach((p) => {
      const header = p.querySelector('.pane-header');
      const titleText = clean(header?.querySelector('.title')?.textContent) || clean(header?.getAttribute('aria-label'));
      if (titleText.toLowerCase() === t.toLowerCase()) {
        const body = p.querySelector('.pane-body');
        if (body) owners.push(body);
      }
    });
    const frames = Array.from(document.querySelectorAll('iframe.webview.ready'));
    let best = -1;
    let bestArea = 0;
    for (const owner of owners) {
      const o = owner.getBoundingClientRect();
      frames.forEach((f, i) => {
        const r = f.getBoundingClientRect();
        const w = Math.min(o.right, r.right) - Math.max(o.left, r.left);
        const h = Math.min(o.bottom, r.bottom) - Math.max(o.top, r.top);
        const area = w > 0 && h > 0 ? w * h : 0;
        if (area > bestArea) {
          bestArea = area;
          best = i;
        }
      });
    }
    return best;
  }, title);
}

/** The Playwright Frame objects of all webview contents (for evaluate(); prefer webviewFrame() for locators). */
export function webviewContentFrames(page: Page): Frame[] {
  return page.frames().filter((f) => f.name() === 'active-frame' || /\/fake\.html/.test(f.url()));
}

// ---------------------------------------------------------------------------------------------------------------
// Editors, notifications, views
// ---------------------------------------------------------------------------------------------------------------

/** Labels of the open editor tabs, in order. */
export async function editorTabs(page: Page): Promise<string[]> {
  return (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).map(norm);
}

/**
 * The status bar's cursor and selection of the active editor ("Ln 7, Col 13 (118 selected)"); '' when none shows.
 * The item comes and goes as editors take the focus: one counted a moment ago may be gone when its text is read, and
 * Playwright would wait its whole default timeout for it (a CI run's wait of 30 s spent in one read, never polled
 * again); read briefly, '' when it went.
 */
export async function editorSelectionStatus(page: Page): Promise<string> {
  const item = page.locator('.statusbar [id="status.editor.selection"]').first();
  if (!(await item.count())) return '';
  return norm(await item.innerText({ timeout: 1000 }).catch(() => ''));
}

/**
 * Text of one side of the (first) diff editor. Monaco renders only the lines on screen, so this is the visible
 * part of a long document. In inline mode (narrow window) the original side does not exist: '' is returned.
 */
export async function diffEditorText(page: Page, side: 'original' | 'modified', opts: { timeoutMs?: number } = {}): Promise<string> {
  const timeout = opts.timeoutMs ?? 30_000;
  const diff = page.locator('.monaco-diff-editor').first();
  await diff.waitFor({ timeout });
  const sel = (s: string) => diff.locator(`.editor.${s} .view-lines:not([monaco-view-zone])`).first();
  // The modified side always exists; wait for it, so the original side (if any) has been laid out too.
  await sel('modified').waitFor({ timeout });
  if (side === 'original' && (await diff.locator('.editor.original').count()) === 0) return '';
  return (await sel(side).innerText()).replace(/\u00a0/g, ' ');
}

/** Messages of the notification toasts currently on screen (first line of each). */
export async function notifications(page: Page): Promise<string[]> {
  const items = page.locator('.notifications-toasts .notification-list-item .notification-list-item-message');
  return (await items.allInnerTexts()).map(norm);
}

/** Wait for a toast containing `text`; returns its message. */
export async function waitForNotification(page: Page, text: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const item = page.locator('.notifications-toasts .notification-list-item .notification-list-item-message', { hasText: text }).first();
  await item.waitFor({ timeout: timeoutMs });
  return norm(await item.innerText());
}

/** Click an activity-bar entry (view container) by its title, e.g. the extension's "CAPE" container. */
export async function openViewContainer(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
  const item = page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${cssString(title)}"]`).first();
  await item.waitFor({ timeout: timeoutMs });
  const li = item.locator('xpath=..');
  if (!/\bchecked\b/.test((await li.getAttribute('class')) ?? '')) await item.click();
}

function cssString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/**
 * Row labels of a tree view, found by the view's title (case-insensitive; the pane header shows it upper-case).
 * The view must be visible (see {@link openViewContainer}); a collapsed pane is expanded. Waits until at least one
 * row exists. Like the editor, the tree renders only rows on screen.
 */
export async function treeItems(page: Page, viewTitle: string, opts: { timeoutMs?: number } = {}): Promise<string[]> {
  const timeout = opts.timeoutMs ?? 15_000;
  const pane = await findPane(page, viewTitle, timeout);
  const header = pane.locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  const rows = pane.locator('.pane-body .monaco-list-row');
  await rows.first().waitFor({ timeout });
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const label = rows.nth(i).locator('.label-name').first();
    out.push(norm(await ((await label.count()) ? label : rows.nth(i)).innerText()));
  }
  return out;
}

/** The `.pane` of a view by title. A container with a single view hides the pane header but keeps it in the DOM. */
async function findPane(page: Page, viewTitle: string, timeoutMs: number): Promise<Locator> {
  const end = Date.now() + timeoutMs;
  const want = norm(viewTitle).toLowerCase();
  for (;;) {
    const panes = page.locator('.part.sidebar .pane, .part.panel .pane, .part.auxiliarybar .pane');
    for (let i = 0; i < (await panes.count()); i++) {
      const p = panes.nth(i);
      const h = p.locator('.pane-header').first();
      const title = norm((await h.locator('.title').first().textContent().catch(() => '')) ?? '').toLowerCase();
      const aria = norm((await h.getAttribute('aria-label').catch(() => '')) ?? '').toLowerCase();
      if (title === want || aria === want || aria.startsWith(`${want} `)) return p;
    }
    if (Date.now() > end) {
      throw new Error(`no view titled "${viewTitle}" is visible; open its container first (openViewContainer)`);
    }
    await page.waitForTimeout(200);
  }
}

/** Save a PNG to test-output/screenshots/<name>.png and return the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '') || 'screenshot';
  const file = path.join(ensureDir(SCREENSHOT_DIR), `${safe}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Reload the window (Developer: Reload Window): restarts the extension host, keeps the server and run dir. */
export async function reloadWindow(page: Page, opts: { timeoutMs?: number } = {}): Promise<void> {
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: opts.timeoutMs ?? 120_000 });
}

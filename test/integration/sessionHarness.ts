// Shared setup of the session/edits integration tests (runs inside the real extension host).
//
//  - a fake Anthropic Messages API on 127.0.0.1 (test/fake-anthropic) that answers each request with the English
//    demo session's reply for the step it recognises in the request (or what the test planned for that step);
//  - the opened workspace folder filled with the demo workspace + the original project's cape/ (copied at test
//    time from ../shared, never stored in the project);
//  - the SessionController: the activated extension's own (when its exports carry `services`), else one built
//    here over the same compiled sources with a provider that talks to the fake server. The CAPE commands are the
//    extension's when it registered them, else registered here from src/commands.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { SessionStore, type SessionSummary } from '../../src/core/store';
import type { StepId } from '../../src/core/model/types';
import type { ProposedFilesService } from '../../src/edits/proposedFiles';
import type { CapeSettings, Services, SessionControllerApi } from '../../src/services';
import { SessionController } from '../../src/session/SessionController';
import { WorkspaceFileWatcher } from '../../src/workspace/fileWatcher';
import { register as registerStart } from '../../src/commands/startSession';
import { register as registerResume } from '../../src/commands/resumeSession';
import { register as registerCancel } from '../../src/commands/cancelSession';
import { register as registerShow } from '../../src/commands/showPanel';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from '../fake-anthropic/server';
import { demoDir, demoReplies, taskIdOf } from '../helpers/demo';
import { originalProjectDir, repoRoot } from '../helpers/fixtures';

export const EXTENSION_ID = 'cape-team.cape-vscode';
export const MODEL = 'claude-sonnet-4-6';

/** What the tests need from the controller beyond SessionControllerApi: its proposed files (SessionController.files). */
export type TestController = SessionControllerApi & { files: ProposedFilesService };

function isTestController(x: unknown): x is TestController {
  const files = (x as { files?: Record<string, unknown> } | undefined)?.files;
  return (
    !!x &&
    ['start', 'resume', 'cancel'].every((m) => typeof (x as Record<string, unknown>)[m] === 'function') &&
    !!files &&
    ['views', 'decide', 'openDiff', 'apply', 'discard'].every((m) => typeof files[m] === 'function')
  );
}

const ROLE_HEADINGS: [StepId, RegExp][] = [
  ['cm_open', /# Role: Cape Master — session opening/],
  ['cm_retro', /# Role: Cape Master — retrospective/],
  ['poa', /# Role: Product Owner agent/],
  ['da', /# Role: Designer agent/],
  ['deva', /# Role: Developer agent/],
];

/** Which step a request belongs to, from the role prompt it carries. */
export function stepOf(req: RecordedRequest): StepId | undefined {
  const text = JSON.stringify(req.body ?? {});
  return ROLE_HEADINGS.find(([, re]) => re.test(text))?.[0];
}

const STEP_INDEX: Record<StepId, number> = { cm_open: 0, poa: 1, da: 2, deva: 3, cm_retro: 4 };

/** Per step override: a reply (text gets the task id filled in by the function form). */
export type Plan = Partial<Record<StepId, (taskId: string, demo: string) => FakeReply>>;

export interface Harness {
  fake: FakeAnthropic;
  root: string;
  controller: TestController;
  services: Services | undefined;
  /** true when the controller is the activated extension's own. */
  realController: boolean;
  /** true when the cape.* commands drive `controller` (false: the extension's commands drive its own controller). */
  commandsDriveController: boolean;
  /** Replaces the plan for the following requests ({} = the plain demo session). */
  setPlan(plan: Plan): void;
  /** Forgets the recorded requests (keeps the responder, unlike fake.reset()). */
  resetRequests(): void;
  sessions(): Promise<SessionSummary[]>;
  dispose(): Promise<void>;
}

/** Every file of `dir`, as paths relative to it. */
function templateFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...templateFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** Removes what `keep` does not list under `root/rel` (symlinks unlinked, never followed); keeps folders in place. */
function prune(root: string, rel: string, keep: Set<string>, keepDirs: Set<string>): void {
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (r === '.vscode') continue;
    const abs = path.join(root, r);
    if (e.isDirectory() && keepDirs.has(r)) prune(root, r, keep, keepDirs);
    else if (e.isDirectory() || !keep.has(r)) fs.rmSync(abs, { recursive: true, force: true });
  }
}

/**
 * Puts the demo workspace and the original project's cape/ into `root` (replacing what the tests changed). Files are
 * rewritten in place and folders kept, so VS Code's file watcher sees each change and reloads open documents (a
 * deleted and re-created folder is missed by code-server's watcher, leaving a document with the previous test's text).
 */
export function resetWorkspace(root: string): void {
  const sources: [string, string][] = [
    [path.join(demoDir(), 'workspace'), ''],
    [path.join(originalProjectDir(), 'cape'), 'cape'],
  ];
  const files = new Map<string, string>();
  for (const [dir, prefix] of sources) for (const f of templateFiles(dir)) files.set(path.join(prefix, f), path.join(dir, f));
  const keepDirs = new Set<string>();
  for (const f of files.keys()) for (let d = path.dirname(f); d !== '.'; d = path.dirname(d)) keepDirs.add(d);
  prune(root, '', new Set(files.keys()), keepDirs);
  for (const [rel, from] of files) {
    const to = path.join(root, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const want = fs.readFileSync(from);
    const have = fs.existsSync(to) ? fs.readFileSync(to) : null;
    if (!have || !have.equals(want)) fs.writeFileSync(to, want);
  }
}

/**
 * Runs one step of a test and says on the console where it waits: every 15 s while it runs (with what the code under
 * test says it is doing, `doing`), and its time when it took over 5 s. A test that hits mocha's timeout then shows
 * which step it was in (CI keeps the console).
 */
export async function step<T>(label: string, run: () => Thenable<T> | Promise<T>, doing?: () => string | undefined): Promise<T> {
  const t0 = Date.now();
  const seconds = () => Math.round((Date.now() - t0) / 1000);
  const now = () => {
    const d = doing?.();
    return d ? ` (now: ${d})` : '';
  };
  const timer = setInterval(() => console.warn(`    [still waiting after ${seconds()} s] ${label}${now()}`), 15_000);
  try {
    return await run();
  } finally {
    clearInterval(timer);
    if (Date.now() - t0 > 5000) console.warn(`    [slow: ${seconds()} s] ${label}`);
  }
}

/**
 * resetWorkspace, then waits until VS Code has reloaded every clean open document of the workspace from the disk.
 * The reset changes files behind VS Code's back; on a busy machine its file watcher can take longer to notice than
 * Apply waits for a document to catch up (applyEdits.ts), and a test would then apply against the previous test's
 * text. This is the tests' own setup catching up, not the behaviour under test.
 */
export async function resetWorkspaceSettled(root: string, timeoutMs = 90_000): Promise<void> {
  return step('reset the workspace and wait for VS Code to reload its files', () => settle(root, timeoutMs));
}

async function settle(root: string, timeoutMs: number): Promise<void> {
  resetWorkspace(root);
  const norm = (s: string) => s.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lagging = (): string[] =>
    vscode.workspace.textDocuments
      .filter((d) => d.uri.scheme === 'file' && !d.isDirty && d.uri.fsPath.startsWith(root + path.sep))
      .filter((d) => {
        let disk: string;
        try {
          disk = fs.readFileSync(d.uri.fsPath, 'utf8');
        } catch {
          return false; // deleted: Apply creates it anew, whatever the old document says
        }
        return norm(disk) !== norm(d.getText());
      })
      .map((d) => path.relative(root, d.uri.fsPath));
  await waitFor(() => lagging().length === 0, `VS Code to reload the reset files (${lagging().join(', ')})`, timeoutMs);
}

export async function setupHarness(): Promise<Harness> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests need an opened folder (runIntegration opens a temp workspace)');
  const root = folder.uri.fsPath;
  resetWorkspace(root);

  let plan: Plan = {};
  const fake = await startFakeAnthropic({ chunkSize: 48 });
  const responder = (req: RecordedRequest): FakeReply => {
    const step = stepOf(req);
    if (!step) return { fault: 'http', status: 400, message: 'the test server did not recognise the step of this request' };
    const taskId = taskIdOf(req.body);
    const demo = demoReplies(taskId)[STEP_INDEX[step]];
    return plan[step]?.(taskId, demo) ?? { text: demo };
  };
  fake.setResponder(responder);
  await vscode.workspace.getConfiguration('cape').update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);

  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  let exported: unknown;
  try {
    exported = ext ? await ext.activate() : undefined;
  } catch (err) {
    console.log(`extension activation failed (the tests use their own controller): ${(err as Error).message}`);
  }
  const exportedServices = (exported as { services?: Services } | undefined)?.services;
  const disposables: vscode.Disposable[] = [];
  let controller: TestController;
  let services: Services | undefined;
  let realController = false;
  let commandsDriveController = true;
  if (exportedServices && isTestController(exportedServices.controller)) {
    controller = exportedServices.controller;
    services = exportedServices;
    realController = true;
  } else {
    const output = vscode.window.createOutputChannel('CAPE session tests', { log: true });
    const settings = (): CapeSettings => ({
      provider: 'anthropic',
      language: 'English',
      model: MODEL,
      initModel: 'claude-haiku-4-5',
      baseUrl: fake.url,
      capeFolder: 'cape',
    });
    const changed = new vscode.EventEmitter<void>();
    const fileWatcher = new WorkspaceFileWatcher();
    const own: Services = {
      context: { extensionUri: ext?.extensionUri ?? vscode.Uri.file(repoRoot()) } as vscode.ExtensionContext,
      settings,
      workspaceRoot: () => root,
      prompts: loadPromptAssets(defaultPromptsDir()),
      provider: {
        getClient: async () => ({ client: new AnthropicClient({ apiKey: 'local', baseURL: fake.url }), model: MODEL, label: 'fake' }),
        describe: () => ({ provider: 'Anthropic API (fake)', model: MODEL }),
      },
      controller: undefined as unknown as SessionControllerApi,
      output,
      onDidChangeSessions: changed.event,
      refreshTrees: () => changed.fire(),
      fileWatcher,
    };
    const c = new SessionController(own);
    own.controller = c;
    controller = c;
    services = own;
    disposables.push(c, output, changed, fileWatcher);
    const have = new Set(await vscode.commands.getCommands(true));
    if (!have.has('cape.startSession')) {
      disposables.push(registerStart(own), registerResume(own), registerCancel(own), registerShow(own));
    } else {
      commandsDriveController = false;
      console.log('the extension registered the CAPE commands but exports no services: command tests use its controller');
    }
  }

  return {
    fake,
    root,
    controller,
    services,
    realController,
    commandsDriveController,
    setPlan: (p) => {
      plan = p;
    },
    resetRequests: () => {
      fake.reset();
      fake.setResponder(responder);
    },
    sessions: () => new SessionStore(root, 'cape').listSessions(),
    dispose: async () => {
      for (const d of disposables.splice(0)) d.dispose();
      await vscode.workspace.getConfiguration('cape').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await fake.close();
    },
  };
}

/** Waits until `cond` holds (polling), or fails with `what`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Every tab of the chat panel (webview viewType contains cape.chat). */
export function chatPanelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('cape.chat'));
}

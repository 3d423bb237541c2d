// "CAPE: Show Context for Objective" in a real extension host: the ranked list DevA / DA would receive, opening a
// file from the quick pick, and the watched index picking up a file created after it was built.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ShowContextResult } from '../../src/commands/showContext';
import { driveUntilSettled, runShowContext as run } from './poll';
import { resetWorkspace } from './sessionHarness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CAPE: Show Context for Objective (real extension host)', function () {
  this.timeout(180_000);
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const created = path.join(root, 'src', 'archiveStore.js');
  const large = path.join(root, 'src', 'noteHistory.js');

  // Earlier suites apply DevA's proposals (e.g. a new src/theme.js): start from the demo workspace as shipped. The
  // list never names a file that is gone, whether or not the file watcher reported the deletion (pack.ts confirms
  // each file it lists).
  before(async () => {
    resetWorkspace(root);
    const res = await run({ objective: 'Show the saved notes from localStorage' }, false);
    assert.ok(res, 'the command returns its list');
    const gone = res.context.files.filter((f) => !fs.existsSync(path.join(root, f.path))).map((f) => f.path);
    assert.deepStrictEqual(gone, [], 'files removed from the workspace are not listed');
  });
  after(() => {
    fs.rmSync(created, { force: true });
    fs.rmSync(large, { force: true });
  });

  it('lists the ranked files DevA would receive and opens the picked one', async () => {
    const res = await run({ objective: 'Show the saved notes from localStorage' }, true);
    assert.ok(res, 'the command returns its selection');
    const paths = res.context.files.map((f) => f.path);
    assert.strictEqual(paths[0], 'src/app.js', paths.join(', '));
    assert.ok(res.context.files[0].whole);
    assert.ok(res.context.totalChars <= res.context.budget);
    assert.ok(paths.every((p) => !p.startsWith('cape/') && !p.startsWith('.git/')), paths.join(', '));
    assert.strictEqual(res.opened, 'src/app.js');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document.uri.fsPath === path.join(root, 'src', 'app.js'), editor?.document.uri.fsPath);
  });

  it('raises a budget below the setting\'s minimum to it (0.5 is not "nothing")', async () => {
    const c = vscode.workspace.getConfiguration('cape');
    await c.update('context.devBudget', 0.5, vscode.ConfigurationTarget.Global);
    try {
      const res = await run({ objective: 'Show the saved notes from localStorage' }, false);
      assert.ok(res);
      assert.strictEqual(res.context.budget, 1000);
      assert.ok(res.context.files.length > 0, 'DevA still gets some of the workspace');
    } finally {
      await c.update('context.devBudget', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('keeps one index: a replaced one is disposed, not kept in the extension\'s subscriptions', async () => {
    const { workspaceIndex } = await import('../../src/workspace/indexService');
    const subscriptions: { dispose(): unknown }[] = [];
    let watching = 0;
    const services = {
      context: { subscriptions },
      settings: () => ({ capeFolder }),
      fileWatcher: { subscribe: () => (watching++, { dispose: () => void watching-- }) },
      output: { warn: () => undefined, info: () => undefined },
    };
    let capeFolder = 'cape';
    for (const folder of ['cape', 'team', 'cape', 'team']) {
      capeFolder = folder;
      await workspaceIndex(services as never, root);
    }
    assert.strictEqual(subscriptions.length, 1, 'one disposable for the current index');
    assert.strictEqual(watching, 1, 'only the current index watches');
    for (const s of subscriptions) s.dispose();
    assert.strictEqual(watching, 0);
  });

  it('gives DA a map of the UI files only', async () => {
    const res = await run({ objective: 'Make the notes list easier to read', step: 'da' }, false);
    assert.ok(res && res.context.files.length > 0);
    assert.ok(res.context.files.every((f) => !f.whole && /\.(css|html)$/.test(f.path)), JSON.stringify(res.context.files));
  });

  it('keeps the index current through the file watcher', async () => {
    fs.writeFileSync(created, 'export function archiveNote(note) { note.archived = true; }\nexport function listArchivedNotes(notes) { return notes.filter((n) => n.archived); }\n');
    let first: string | undefined;
    // The watcher's event, the index's debounce and update: generous, a loaded machine delivers events late.
    for (const until = Date.now() + 60_000; first !== 'src/archiveStore.js' && Date.now() < until; ) {
      await sleep(500);
      const res = await run({ objective: 'Archive a note with archiveNote' }, false);
      first = res?.context.files[0]?.path;
    }
    assert.strictEqual(first, 'src/archiveStore.js', 'the new file is indexed without a rebuild');
  });

  it('lists a large well-ranked file as excerpts and opens it at its first excerpt', async () => {
    // ~110,000 characters: never whole within DevA's 60,000; the function the objective names is deep inside
    const helpers = Array.from({ length: 3000 }, (_, i) => `export function step${i}(n) {\n  return n + ${i};\n}`);
    helpers.splice(2400, 0, 'export function compactNoteHistory(history) {\n  return history.slice(-50);\n}');
    fs.writeFileSync(large, `${helpers.join('\n')}\n`);
    const objective = 'compactNoteHistory should keep the newest entry';
    let listed: ShowContextResult['context']['files'][number] | undefined;
    for (const until = Date.now() + 60_000; !listed && Date.now() < until; ) {
      await sleep(500);
      listed = (await run({ objective }, false))?.context.files.find((f) => f.path === 'src/noteHistory.js' && f.excerpts);
    }
    assert.ok(listed?.excerpts && !listed.whole, 'the large file is listed with excerpts');
    const lines = fs.readFileSync(large, 'utf8').split('\n');
    const at = lines.indexOf('export function compactNoteHistory(history) {') + 1;
    assert.ok(listed.excerpts.some((r) => r.start <= at && r.end >= at + 2), JSON.stringify(listed.excerpts));
    // pick it in the list (below the whole files): the editor opens on its first excerpt. The gesture waits a turn
    // for the list to open; a navigation sent while it was still opening is lost, so the gesture is tried again then.
    let res: ShowContextResult | undefined;
    for (let attempt = 0; attempt < 3 && res?.opened !== 'src/noteHistory.js'; attempt++) {
      const k = (await run({ objective }, false))!.context.files.findIndex((f) => f.path === 'src/noteHistory.js');
      let turns = 0;
      res = await driveUntilSettled(
        vscode.commands.executeCommand<ShowContextResult | undefined>('cape.showContext', { objective }),
        async () => {
          if (turns++ === 0) return;
          for (let i = 0; i < k; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        },
        'CAPE: Show Context, picking the excerpted file',
        500,
      );
    }
    assert.strictEqual(res?.opened, 'src/noteHistory.js');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document.uri.fsPath === large, editor?.document.uri.fsPath);
    assert.strictEqual(editor.selection.active.line + 1, listed.excerpts[0].start);
  });
});

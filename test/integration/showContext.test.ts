// "CAPE: Show Context for Objective" in a real extension host: the ranked list DevA / DA would receive, opening a
// file from the quick pick, and the watched index picking up a file created after it was built.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { runShowContext as run } from './poll';
import { resetWorkspace } from './sessionHarness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CAPE: Show Context for Objective (real extension host)', function () {
  this.timeout(180_000);
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const created = path.join(root, 'src', 'archiveStore.js');

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
  after(() => fs.rmSync(created, { force: true }));

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
});

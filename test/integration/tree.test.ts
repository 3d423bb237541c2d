// The CAPE tree views inside a real extension host: the original CLI's cape/ folder is copied into the workspace
// (under its own cape.capeFolder, restored afterwards), and the providers registered by the extension must show
// the same KPT groups as the pure model, sessions newest first, and refresh by themselves when files change.
// The providers are reached through the extension's exports: `exports.services.trees` (set by registerTrees).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { parseKpt } from '../../src/core/kpt';
import { buildKptModel } from '../../src/tree/model';
import type { CapeTrees } from '../../src/tree/index';
import type { KptElement } from '../../src/tree/kptProvider';
import type { RetroElement } from '../../src/tree/retrospectivesProvider';
import { originalProjectDir } from '../helpers/fixtures';
import { treeLabel, waitForValue } from './poll';

const EXTENSION_ID = 'cape-team.cape-vscode';
const FOLDER = 'cape-tree-it';

// Generous: the views follow file-watcher events (debounced), which a loaded machine delivers late.
const waitFor = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitForValue(what, probe, 60_000, 100);


function iconId(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

describe('CAPE tree views (real extension host)', function () {
  this.timeout(180_000);
  let trees: CapeTrees;
  let root: string;
  let capeDir: string;
  let kptFile: string;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded (is --ext the repository root?)`);
    const api = (await ext.activate()) as { services?: { trees?: CapeTrees } } | undefined;
    const t = api?.services?.trees;
    assert.ok(t, 'activate() must return { services } with services.trees (set by registerTrees in src/tree/index.ts)');
    trees = t;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration run needs a workspace folder');
    root = folder.uri.fsPath;
    capeDir = path.join(root, FOLDER);
    fs.rmSync(capeDir, { recursive: true, force: true });
    fs.cpSync(path.join(originalProjectDir(), 'cape'), capeDir, { recursive: true });
    kptFile = path.join(capeDir, '5_sessions', 'retrospective', 'kpt_merged.md');
    // a retrospective named as the original CLI names them, and a failed session state of ours
    const retroDir = path.dirname(kptFile);
    fs.writeFileSync(path.join(retroDir, '2026-01-10_09-15_task-it-retro.md'), '# Retrospective\n\nno frontmatter (original CLI)\n');
    fs.mkdirSync(path.join(capeDir, '5_sessions', 'state'), { recursive: true });
    fs.writeFileSync(
      path.join(capeDir, '5_sessions', 'state', 'task-it-failed.json'),
      JSON.stringify({
        taskId: 'task-it-failed', objective: 'Integration objective', language: 'English', model: 'm',
        createdAt: Date.UTC(2026, 1, 1, 8, 0), updatedAt: Date.UTC(2026, 1, 1, 8, 5), status: 'failed',
        completedSteps: ['cm_open'], stepFiles: {}, error: { step: 'poa', kind: 'network', message: 'connection reset' },
      }),
    );
    await vscode.workspace.getConfiguration('cape').update('capeFolder', FOLDER, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('cape').update('capeFolder', undefined, vscode.ConfigurationTarget.Workspace);
    if (capeDir) fs.rmSync(capeDir, { recursive: true, force: true });
  });

  it('KPT: Keep / Problem / Try roots and groups equal the pure model of the same file, sorted and counted', async () => {
    const expected = buildKptModel(parseKpt(fs.readFileSync(kptFile, 'utf8')));
    // the setting change alone (no explicit refresh) must move the views to the copied folder
    const roots = await waitFor('the KPT roots of the copied history', async () => {
      await trees.whenIdle();
      const r = await trees.kpt.getChildren();
      return r.length === 3 && trees.kpt.current?.itemCount === expected.itemCount ? r : undefined;
    });
    const rootItems = roots.map((n) => trees.kpt.getTreeItem(n));
    assert.deepEqual(rootItems.map(treeLabel), ['Keep', 'Problem', 'Try']);
    assert.deepEqual(rootItems.map(iconId), ['pass', 'warning', 'lightbulb']);
    assert.deepEqual(rootItems.map((i) => i.description), expected.sections.map((s) => String(s.groups.length)));

    for (let s = 0; s < 3; s++) {
      const groups = await trees.kpt.getChildren(roots[s]);
      assert.deepEqual(groups.map((g) => trees.kpt.getTreeItem(g).id), expected.sections[s].groups.map((g) => g.id));
    }
    const keepGroups = await trees.kpt.getChildren(roots[0]);
    const first = trees.kpt.getTreeItem(keepGroups[0]);
    const n = Number(String(first.description).replace('×', ''));
    assert.ok(n >= 2, `the first Keep recurs (description ${String(first.description)})`);
    assert.equal(first.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(iconId(first), 'history', 'a recurring group is marked even when its description is cut off');
    const single = keepGroups.map((g) => trees.kpt.getTreeItem(g)).find((i) => !i.description);
    if (single) assert.equal(iconId(single), 'circle-small');
    const tip = first.tooltip as vscode.MarkdownString;
    assert.ok(tip instanceof vscode.MarkdownString);
    assert.equal(tip.isTrusted, false);
    assert.equal(tip.supportHtml, false);
    const occ = await trees.kpt.getChildren(keepGroups[0]);
    assert.ok(occ.length >= 2);
    const ids = new Set<string>();
    for (const o of occ) {
      const item = trees.kpt.getTreeItem(o);
      assert.match(treeLabel(item), /^\[task-[^\]]+\] \S/);
      ids.add(treeLabel(item).slice(1, treeLabel(item).indexOf(']')));
      assert.equal(trees.kpt.getParent(o), keepGroups[0]);
    }
    assert.equal(ids.size, n, '×N = distinct task ids of the occurrences');
  });

  it('Retrospectives: one row per session, newest first; click opens the retrospective; failed rows resume', async () => {
    const rows = await waitFor('both sessions', async () => {
      await trees.whenIdle();
      const r = await trees.retrospectives.getChildren();
      return r.length === 2 ? r : undefined;
    });
    const items = rows.map((r) => trees.retrospectives.getTreeItem(r));
    const failed = items[0];
    const retro = items[1];
    assert.equal(failed.description, 'Integration objective');
    assert.equal(iconId(failed), 'error');
    assert.equal(failed.contextValue, 'cape.resumableSession');
    assert.equal(failed.command, undefined, 'a click must not start a paid resume');
    assert.equal(treeLabel(retro), '2026-01-10 09:15');
    assert.equal(retro.description, 'task-it-retro');
    assert.equal(iconId(retro), 'book');
    assert.equal(retro.command?.command, 'cape.openRetrospective');
    const arg = retro.command?.arguments?.[0] as vscode.Uri;
    assert.equal(arg.fsPath, path.join(path.dirname(kptFile), '2026-01-10_09-15_task-it-retro.md'));
    const all = await vscode.commands.getCommands(true);
    for (const c of ['cape.refreshTree', 'cape.resumeFromTree']) assert.ok(all.includes(c), `${c} is registered`);
    assert.equal((rows[0] as RetroElement & { taskId: string }).taskId, 'task-it-failed');
  });

  it('writing a new kpt_merged.md item and a new retrospective refreshes the views by themselves', async () => {
    let fired = 0;
    const sub = trees.kpt.onDidChangeTreeData(() => fired++);
    try {
      const unique = `Integration marker ${Date.now()} keeps the tree honest`;
      const md = fs.readFileSync(kptFile, 'utf8').replace(/\n## Try[^\n]*\n/, (h) => `${h}\n- [task-it-new] ${unique}\n`);
      assert.ok(md.includes(unique), 'the fixture has a Try section to add to');
      fs.writeFileSync(kptFile, md);
      fs.writeFileSync(path.join(path.dirname(kptFile), '2027-03-04_05-06_task-it-new.md'), '# Retrospective\n');
      const found = await waitFor('the new Try item in the KPT view', async () => {
        const roots = await trees.kpt.getChildren();
        const tries = roots.length === 3 ? await trees.kpt.getChildren(roots[2]) : [];
        return tries.find((g: KptElement) => treeLabel(trees.kpt.getTreeItem(g)) === unique);
      });
      assert.equal(trees.kpt.getTreeItem(found).description, '');
      assert.ok(fired >= 1, 'onDidChangeTreeData fired');
      const rows = await waitFor('the new retrospective row', async () => {
        const r = await trees.retrospectives.getChildren();
        return r.length === 3 ? r : undefined;
      });
      assert.equal(treeLabel(trees.retrospectives.getTreeItem(rows[0])), '2027-03-04 05:06', 'newest first');
    } finally {
      sub.dispose();
    }
  });

  it('KPT: Japanese and level-1 headings are read; a binary or outside-the-workspace kpt_merged.md is named, not shown', async () => {
    fs.writeFileSync(kptFile, '# Notes by hand\n\n## 問題\n- [task-j1] テストが遅い\n\n# Try\n- [task-j1] 早く始める\n');
    await vscode.commands.executeCommand('cape.refreshTree');
    const roots = await waitFor('the Japanese KPT', async () => {
      await trees.whenIdle();
      return trees.kpt.current?.itemCount === 2 ? trees.kpt.getChildren() : undefined;
    });
    assert.equal(String(trees.kpt.getTreeItem(roots[1]).description), '1', 'one Problem from ## 問題');

    fs.writeFileSync(kptFile, Buffer.from([0x23, 0x20, 0x00, 0xff, 0x0a]));
    await vscode.commands.executeCommand('cape.refreshTree');
    const [binary] = await waitFor('the binary file message', async () => {
      await trees.whenIdle();
      const r = await trees.kpt.getChildren();
      return r.length === 1 && r[0].type === 'message' ? r : undefined;
    });
    assert.equal(treeLabel(trees.kpt.getTreeItem(binary)), 'kpt_merged.md was not read');
    assert.match(String(trees.kpt.getTreeItem(binary).tooltip), /binary file/);

    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tree-outside-'));
    fs.writeFileSync(path.join(outside, 'kpt.md'), '## Problem\n- [task-x] OUTSIDE\n');
    fs.rmSync(kptFile);
    fs.symlinkSync(path.join(outside, 'kpt.md'), kptFile);
    await vscode.commands.executeCommand('cape.refreshTree');
    const [refused] = await waitFor('the outside file message', async () => {
      await trees.whenIdle();
      const r = await trees.kpt.getChildren();
      return r.length === 1 && r[0].type === 'message' && /outside/.test(String(trees.kpt.getTreeItem(r[0]).tooltip)) ? r : undefined;
    });
    assert.match(String(trees.kpt.getTreeItem(refused).tooltip), /outside the workspace/);
    fs.rmSync(kptFile);
    fs.writeFileSync(kptFile, '## Keep\n- [task-z] back\n');
  });

  it('cape.refreshTree reloads at once; a missing history empties the KPT view (welcome text)', async () => {
    fs.rmSync(kptFile);
    await vscode.commands.executeCommand('cape.refreshTree');
    assert.deepEqual(await trees.kpt.getChildren(), []);
  });

  it('a cape/ folder created after activation (as Initialize Project does) is picked up without a refresh', async () => {
    const later = `${FOLDER}-later`;
    const laterDir = path.join(root, later);
    fs.rmSync(laterDir, { recursive: true, force: true });
    try {
      await vscode.workspace.getConfiguration('cape').update('capeFolder', later, vscode.ConfigurationTarget.Workspace);
      await waitFor('the empty views of a missing folder', async () => {
        await trees.whenIdle();
        return (await trees.kpt.getChildren()).length === 0 && (await trees.retrospectives.getChildren()).length === 0 ? true : undefined;
      });
      fs.mkdirSync(laterDir);
      await new Promise((r) => setTimeout(r, 400)); // the folder chain appears step by step, as a real init writes it
      const retroDir = path.join(laterDir, '5_sessions', 'retrospective');
      fs.mkdirSync(retroDir, { recursive: true });
      await new Promise((r) => setTimeout(r, 400));
      fs.writeFileSync(path.join(retroDir, 'kpt_merged.md'), '## Problem\n\n- [task-a] Tests came late\n- [task-b] Tests came late\n');
      const groups = await waitFor('the KPT of the new folder', async () => {
        const roots = await trees.kpt.getChildren();
        const problems = roots.length === 3 ? await trees.kpt.getChildren(roots[1]) : [];
        return problems.length === 1 ? problems : undefined;
      });
      assert.equal(trees.kpt.getTreeItem(groups[0]).description, '×2');
    } finally {
      await vscode.workspace.getConfiguration('cape').update('capeFolder', FOLDER, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(laterDir, { recursive: true, force: true });
    }
  });

  it('KPT status: the context menu commands mark items in kpt_merged.md, icons follow, the open/all filter hides closed groups, housekeeping archives', async () => {
    fs.mkdirSync(path.dirname(kptFile), { recursive: true });
    fs.writeFileSync(
      kptFile,
      '## Keep\n\n- [task-s1] pair early\n\n## Problem\n\n- [task-s1] the CI build is slow\n- [task-s2] flaky end-to-end tests\n\n' +
        '## Try\n\n- [task-s1] review the colour tokens together\n- [task-s2] review the colour tokens together again\n- [task-s2] write release notes first\n',
    );
    await vscode.commands.executeCommand('cape.refreshTree');
    const sections = await waitFor('the status fixture', async () => {
      await trees.whenIdle();
      return trees.kpt.current?.itemCount === 6 ? trees.kpt.getChildren() : undefined;
    });
    const findGroup = async (sec: number, text: RegExp): Promise<KptElement> => {
      const roots = await trees.kpt.getChildren();
      const groups = await trees.kpt.getChildren(roots[sec]);
      const g = groups.find((x) => text.test(treeLabel(trees.kpt.getTreeItem(x))));
      assert.ok(g, `a group matching ${text}`);
      return g;
    };
    assert.equal(sections.length, 3);
    const tokens = await findGroup(2, /colour tokens/);
    assert.equal(trees.kpt.getTreeItem(tokens).contextValue, 'cape.kptItem.try.open');

    // Mark Adopted on a recurring Try group: both occurrences get the marker, the row shows the adopted icon
    const changed = (await vscode.commands.executeCommand('cape.kptMarkAdopted', tokens)) as string[];
    assert.equal(changed.length, 2);
    const text = fs.readFileSync(kptFile, 'utf8');
    assert.equal((text.match(/colour tokens together(?: again)? <!-- cape-kpt: adopted -->/g) ?? []).length, 2, text);
    const adopted = await findGroup(2, /colour tokens/);
    const adoptedItem = trees.kpt.getTreeItem(adopted);
    assert.equal(adoptedItem.contextValue, 'cape.kptItem.try.adopted');
    assert.equal(iconId(adoptedItem), 'check');
    assert.match(String(adoptedItem.description), /adopted/);
    for (const o of await trees.kpt.getChildren(adopted)) assert.equal(trees.kpt.getTreeItem(o).contextValue, 'cape.kptItem.try.adopted');

    // Mark Resolved on a Problem, Mark Dropped on the other Try
    await vscode.commands.executeCommand('cape.kptMarkResolved', await findGroup(1, /CI build/));
    await vscode.commands.executeCommand('cape.kptMarkDropped', await findGroup(2, /release notes/));
    assert.equal(iconId(trees.kpt.getTreeItem(await findGroup(1, /CI build/))), 'pass-filled');
    assert.equal(iconId(trees.kpt.getTreeItem(await findGroup(2, /release notes/))), 'circle-slash');
    assert.match(fs.readFileSync(kptFile, 'utf8'), /- \[task-s1\] the CI build is slow <!-- cape-kpt: resolved -->/);

    // the open/all filter (view title toggle): closed groups hide, Keeps stay, and come back
    await vscode.commands.executeCommand('cape.kptShowOpen');
    assert.equal(trees.kpt.filter, 'open');
    let roots = await trees.kpt.getChildren();
    assert.deepEqual(roots.map((r) => trees.kpt.getTreeItem(r).description), ['1', '1', '0']);
    await vscode.commands.executeCommand('cape.kptShowAll');
    roots = await trees.kpt.getChildren();
    assert.deepEqual(roots.map((r) => trees.kpt.getTreeItem(r).description), ['1', '2', '2']);

    // Reopen puts the line back as it was
    await vscode.commands.executeCommand('cape.kptReopen', await findGroup(2, /release notes/));
    assert.match(fs.readFileSync(kptFile, 'utf8'), /- \[task-s2\] write release notes first\n/);
    assert.equal(trees.kpt.getTreeItem(await findGroup(2, /release notes/)).contextValue, 'cape.kptItem.try.open');

    // CAPE: KPT Housekeeping (0 sessions: every closed item) moves them to kpt_archive.md; the tree keeps the rest
    const before = parseKpt(fs.readFileSync(kptFile, 'utf8')).length;
    const res = (await vscode.commands.executeCommand('cape.kptHousekeeping', 0)) as { moved: unknown[]; archivePath: string };
    assert.equal(res.moved.length, 3, 'the two adopted Tries of the group and the resolved Problem');
    const archive = parseKpt(fs.readFileSync(res.archivePath, 'utf8'));
    const kept = parseKpt(fs.readFileSync(kptFile, 'utf8'));
    assert.equal(archive.length + kept.length, before, 'merged + archive = before');
    await trees.whenIdle();
    assert.equal(trees.kpt.current?.itemCount, kept.length);
  });
});

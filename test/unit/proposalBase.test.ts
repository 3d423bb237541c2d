// What a proposal was made against (src/core/files/proposalBase.ts): the stale check before Apply, also for proposals
// reloaded from DevA's step record (a resumed session, a window reload), whose files are read again from the disk.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { changedSinceProposal, refuseChangedSinceProposal, reloadProposals, storedFiles } from '../../src/core/files/proposalBase';
import { proposeFiles } from '../../src/core/files/proposals';
import { WARNING_UNREAD_REWRITE, type ProposedFile } from '../../src/core/model/types';

describe('proposal base: what Apply checks the disk against', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-base-'));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  const write = (rel: string, text: string) => fs.writeFileSync(path.join(ws, rel), text);
  const disk = (f: ProposedFile): string | null => {
    try {
      return fs.readFileSync(f.absPath!, 'utf8');
    } catch {
      return null;
    }
  };
  const changes = (files: ProposedFile[]) => files.map((f) => [f.relPath, changedSinceProposal(f, disk(f))]);

  it('a file edited, created or deleted since the proposal is stale; an untouched one is not', async () => {
    write('edited.ts', 'v1\n');
    write('same.ts', 'same\n');
    write('gone.ts', 'old\n');
    const files = await proposeFiles(ws, [
      { path: 'edited.ts', content: 'v2\n' },
      { path: 'same.ts', content: 'new\n' },
      { path: 'gone.ts', content: 'x\n' },
      { path: 'created.ts', content: 'c\n' },
    ]);
    write('edited.ts', "the user's newer text\n");
    fs.rmSync(path.join(ws, 'gone.ts'));
    write('created.ts', 'made by the user\n');
    assert.deepStrictEqual(changes(files), [
      ['edited.ts', 'changed on disk since DevA read it'],
      ['same.ts', null],
      ['gone.ts', 'was deleted after DevA proposed a change to it'],
      ['created.ts', 'was created on disk after DevA proposed it'],
    ]);
  });

  it('proposals reloaded from the step record (resume, window reload) still see what changed since DevA proposed them', async () => {
    write('edited.ts', 'v1\n');
    write('same.ts', 'same\n');
    write('gone.ts', 'old\n');
    const proposed = await proposeFiles(ws, [
      { path: 'edited.ts', content: 'v2\n' },
      { path: 'same.ts', content: 'new\n' },
      { path: 'gone.ts', content: 'x\n' },
      { path: 'created.ts', content: 'c\n' },
    ]);
    // the record is JSON on disk
    const stored = JSON.parse(JSON.stringify(storedFiles(proposed)));
    write('edited.ts', "the user's newer text\n");
    fs.rmSync(path.join(ws, 'gone.ts'));
    write('created.ts', 'made by the user\n');
    const reloaded = await reloadProposals(ws, stored);
    assert.deepStrictEqual(changes(reloaded), [
      ['edited.ts', 'changed on disk since DevA read it'],
      ['same.ts', null],
      ['gone.ts', 'was deleted after DevA proposed a change to it'],
      ['created.ts', 'was created on disk after DevA proposed it'],
    ]);
    assert.deepStrictEqual(reloaded.map((f) => f.content), ['v2\n', 'new\n', 'x\n', 'c\n']);
    // the base's text comes back only where the disk still holds it (the retrospective shows what changes there)
    assert.deepStrictEqual(
      reloaded.map((f) => [f.relPath, f.currentContent]),
      [
        ['edited.ts', undefined],
        ['same.ts', 'same\n'],
        ['gone.ts', undefined],
        ['created.ts', undefined],
      ],
    );
  });

  it('an <edit> proposal (its base read with the BOM and CRLF) reloaded from the record is not stale while the file is unchanged', async () => {
    write('win.ts', '\uFEFFa\r\nb\r\n');
    const proposed: ProposedFile[] = [
      { path: 'win.ts', relPath: 'win.ts', absPath: path.join(ws, 'win.ts'), action: 'modify', status: 'proposed', content: '\uFEFFa\r\nB\r\n', currentContent: '\uFEFFa\r\nb\r\n', edit: true },
    ];
    const reloaded = await reloadProposals(ws, JSON.parse(JSON.stringify(storedFiles(proposed))));
    assert.deepStrictEqual(changes(reloaded), [['win.ts', null]]);
    write('win.ts', '\uFEFFa\r\nb\r\nc\r\n');
    assert.deepStrictEqual(changes(reloaded), [['win.ts', 'changed on disk since DevA read it']]);
  });

  it('a headless Apply refuses what changed since the proposal, with the reason; a file that already holds the proposal is no change', async () => {
    write('edited.ts', 'v1\n');
    write('same.ts', 'same\n');
    write('applied.ts', 'old\n');
    const files = await proposeFiles(ws, [
      { path: 'edited.ts', content: 'v2\n' },
      { path: 'same.ts', content: 'new\n' },
      { path: 'applied.ts', content: 'done\n' },
      { path: 'created.ts', content: 'c\n' },
    ]);
    write('edited.ts', "the user's newer text\n");
    write('applied.ts', 'done\n');
    write('created.ts', 'made by the user\n');
    assert.deepStrictEqual(
      refuseChangedSinceProposal(files, ws).map((f) => [f.relPath, f.status, f.reason ?? null]),
      [
        ['edited.ts', 'refused', 'edited.ts changed on disk since DevA read it; not written over that change (let DevA propose again)'],
        ['same.ts', 'proposed', null],
        ['applied.ts', 'proposed', null],
        ['created.ts', 'refused', 'created.ts was created on disk after DevA proposed it; not written over that change (let DevA propose again)'],
      ],
    );
  });

  it("a reloaded proposal keeps what the review shows of it: that it is an <edit>, and the unread-rewrite warning", async () => {
    write('edited.ts', 'a\n');
    write('blind.ts', 'old\n');
    const proposed: ProposedFile[] = [
      { path: 'edited.ts', relPath: 'edited.ts', absPath: path.join(ws, 'edited.ts'), action: 'modify', status: 'proposed', content: 'b\n', currentContent: 'a\n', edit: true },
      { path: 'blind.ts', relPath: 'blind.ts', absPath: path.join(ws, 'blind.ts'), action: 'modify', status: 'proposed', content: 'new\n', currentContent: 'old\n', warning: WARNING_UNREAD_REWRITE },
    ];
    const reloaded = await reloadProposals(ws, JSON.parse(JSON.stringify(storedFiles(proposed))));
    assert.deepStrictEqual(
      reloaded.map((f) => [f.relPath, f.edit ?? false, f.warning ?? null]),
      [
        ['edited.ts', true, null],
        ['blind.ts', false, WARNING_UNREAD_REWRITE],
      ],
    );
  });

  it('a refused file of the record is not reloaded', async () => {
    const stored = storedFiles([{ path: '../x', action: 'create', status: 'refused', reason: 'outside', content: '' }]);
    assert.deepStrictEqual(await reloadProposals(ws, stored), []);
  });
});

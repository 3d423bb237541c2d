// The host's proposal set (src/edits/proposals.ts): DevA's files and the user's per-file decisions between the
// proposal and Apply. Plain Node: no vscode.
import * as assert from 'assert';
import type { ProposedFile } from '../../src/core/model/types';
import { confirmStale, openDocumentOf, ProposalSet, saveStep, type StaleFile } from '../../src/edits/proposals';

const file = (relPath: string, over: Partial<ProposedFile> = {}): ProposedFile => ({
  path: `./${relPath}`,
  relPath,
  absPath: `/ws/${relPath}`,
  action: 'create',
  status: 'proposed',
  content: `content of ${relPath}`,
  ...over,
});
const refused = (p: string, reason = 'unsafe'): ProposedFile => ({ path: p, action: 'create', status: 'refused', reason, content: 'x' });

describe('edits/proposals: ProposalSet', () => {
  it('keys files by relPath (else the raw path) and lists them as view rows without contents', () => {
    const s = new ProposalSet();
    s.reset('task-1');
    assert.ok(s.add(file('src/a.ts')));
    assert.ok(s.add(refused('../outside.txt', 'leaves the workspace')));
    assert.strictEqual(s.size, 2);
    assert.strictEqual(s.taskId, 'task-1');
    assert.strictEqual(s.get('src/a.ts')?.file.content, 'content of src/a.ts');
    assert.strictEqual(s.get('./src/a.ts'), undefined, 'the raw path of a safe file is not a key');
    assert.deepStrictEqual(s.views(), [
      { path: 'src/a.ts', action: 'create', status: 'proposed' },
      { path: '../outside.txt', action: 'create', status: 'refused', reason: 'leaves the workspace' },
    ]);
    assert.ok(!JSON.stringify(s.views()).includes('content of'), 'no file body in the views');
    assert.ok(!JSON.stringify(s.views()).includes('/ws/'), 'no absolute path in the views');
  });

  it("Apply's outcome settles the entry that was applied, never a newer proposal of the same path", () => {
    const s = new ProposalSet();
    s.reset('task-1');
    s.add(file('src/a.ts'));
    s.decide('src/a.ts', 'accept');
    const [applying] = s.accepted();
    // the refactor preview is open; another session proposes src/a.ts again
    s.reset('task-2');
    s.add(file('src/a.ts', { content: 'session 2' }));
    assert.strictEqual(s.settle(applying, 'applied'), false);
    assert.deepStrictEqual(s.views(), [{ path: 'src/a.ts', action: 'create', status: 'proposed' }]);
    assert.ok(s.decide('src/a.ts', 'accept'), 'the new proposal can still be accepted');
    // the same session re-announcing other content replaces the entry too
    const [second] = s.accepted();
    s.add(file('src/a.ts', { content: 'fixed' }));
    assert.strictEqual(s.settle(second, 'applied'), false);
    const [third] = s.pending();
    assert.strictEqual(s.settle(third, 'applied'), true);
    assert.strictEqual(s.get('src/a.ts')?.status, 'applied');
  });

  it('a file without any path is not added', () => {
    const s = new ProposalSet();
    assert.strictEqual(s.add({ path: '', action: 'create', status: 'refused', reason: 'empty', content: '' }), false);
    assert.strictEqual(s.size, 0);
  });

  it('accept / reject only pending files; refused, applied and unknown keys answer false', () => {
    const s = new ProposalSet();
    s.add(file('a.ts'));
    s.add(file('b.ts'));
    s.add(refused('/etc/passwd'));
    s.add(file('c.ts', { status: 'applied' }));
    assert.strictEqual(s.decide('a.ts', 'accept'), true);
    assert.strictEqual(s.decide('b.ts', 'reject'), true);
    assert.strictEqual(s.decide('/etc/passwd', 'accept'), false);
    assert.strictEqual(s.decide('c.ts', 'reject'), false);
    assert.strictEqual(s.decide('nope.ts', 'accept'), false);
    assert.deepStrictEqual(s.accepted().map((e) => e.key), ['a.ts']);
    assert.deepStrictEqual(s.views().map((v) => v.status), ['accepted', 'rejected', 'refused', 'applied']);
    // a decision can be changed while not applied
    assert.strictEqual(s.decide('b.ts', 'accept'), true);
    assert.deepStrictEqual(s.accepted().map((e) => e.key), ['a.ts', 'b.ts']);
  });

  it('pending() is the proposed and accepted files', () => {
    const s = new ProposalSet();
    for (const k of ['p.ts', 'a.ts', 'r.ts']) s.add(file(k));
    s.add(refused('/x'));
    s.decide('a.ts', 'accept');
    s.decide('r.ts', 'reject');
    assert.deepStrictEqual(s.pending().map((e) => e.key), ['p.ts', 'a.ts']);
  });

  it('setStatus records an apply outcome and its reason; a new decision clears a failure reason', () => {
    const s = new ProposalSet();
    s.add(file('a.ts'));
    s.decide('a.ts', 'accept');
    s.setStatus('a.ts', 'accepted', 'the edit failed');
    assert.deepStrictEqual(s.views()[0], { path: 'a.ts', action: 'create', status: 'accepted', reason: 'the edit failed' });
    s.decide('a.ts', 'reject');
    assert.deepStrictEqual(s.views()[0], { path: 'a.ts', action: 'create', status: 'rejected' });
    s.setStatus('a.ts', 'applied');
    assert.strictEqual(s.views()[0].status, 'applied');
    assert.strictEqual(s.views()[0].reason, undefined);
    s.setStatus('unknown.ts', 'applied'); // no throw, no entry
    assert.strictEqual(s.size, 1);
  });

  it('a refused file keeps its reason after a decision attempt', () => {
    const s = new ProposalSet();
    s.add(refused('bad:name', 'contains ":"'));
    s.decide('bad:name', 'accept');
    assert.deepStrictEqual(s.views(), [{ path: 'bad:name', action: 'create', status: 'refused', reason: 'contains ":"' }]);
  });

  it('the same path twice: a live file replaces a refused duplicate, never the other way round', () => {
    const s = new ProposalSet();
    s.add(file('a.ts', { status: 'refused', reason: 'duplicate: a later block also writes a.ts' }));
    assert.strictEqual(s.add(file('a.ts', { content: 'v2' })), true);
    assert.strictEqual(s.get('a.ts')?.status, 'proposed');
    assert.strictEqual(s.add(file('a.ts', { status: 'refused', reason: 'duplicate' })), false);
    assert.strictEqual(s.get('a.ts')?.file.content, 'v2');
    assert.strictEqual(s.size, 1);
  });

  it('a repeated announcement of the same content keeps the decision; new content replaces it', () => {
    const s = new ProposalSet();
    s.add(file('a.ts'));
    s.decide('a.ts', 'accept');
    assert.strictEqual(s.add(file('a.ts')), false, 'same content again (resume, session-finished)');
    assert.strictEqual(s.get('a.ts')?.status, 'accepted');
    assert.strictEqual(s.add(file('a.ts', { content: 'changed' })), true);
    assert.strictEqual(s.get('a.ts')?.status, 'proposed');
  });

  it('discard drops everything not applied and says how many', () => {
    const s = new ProposalSet();
    s.add(file('a.ts'));
    s.add(file('b.ts'));
    s.add(refused('/x'));
    s.setStatus('b.ts', 'applied');
    assert.strictEqual(s.discard(), 2);
    assert.deepStrictEqual(s.views().map((v) => v.path), ['b.ts']);
  });

  it('reset starts a new proposal with a newer generation (never reused, also across sets)', () => {
    const s = new ProposalSet();
    s.add(file('a.ts'));
    s.reset('t1');
    const g1 = s.generation;
    assert.strictEqual(s.size, 0);
    s.reset('t2');
    assert.ok(s.generation > g1);
    assert.strictEqual(s.taskId, 't2');
    const other = new ProposalSet();
    other.reset(null);
    assert.ok(other.generation >= g1, 'a second set (an extension restart) starts from the clock, not from 1');
    assert.strictEqual(other.taskId, null);
  });
});

describe('edits/proposals: confirmStale (asking before Apply overwrites files that changed since the proposal)', () => {
  it('nothing changed: Apply goes on without asking', async () => {
    let asked = 0;
    assert.strictEqual(await confirmStale(() => [], async () => (asked++, true)), true);
    assert.strictEqual(asked, 0);
  });

  it('the answer decides; the question names each file and how it changed', async () => {
    const asked: string[][] = [];
    const stale = [{ key: 'a.ts', why: 'changed on disk since DevA read it' }];
    assert.strictEqual(await confirmStale(() => stale, async (l) => (asked.push(l), false)), false);
    assert.strictEqual(await confirmStale(() => stale, async (l) => (asked.push(l), true)), true);
    assert.deepStrictEqual(asked, [['a.ts changed on disk since DevA read it'], ['a.ts changed on disk since DevA read it']]);
  });

  it('a file that changed while the question was open is asked about again (the answer covered only the files it named)', async () => {
    let now: StaleFile[] = [{ key: 'a.ts', why: 'changed on disk since DevA read it' }];
    const asked: string[][] = [];
    const answers = [true, false];
    const ok = await confirmStale(
      () => now,
      async (lines) => {
        asked.push(lines);
        // while the modal dialog is open, another program saves b.ts
        now = [...now, { key: 'b.ts', why: 'changed on disk since DevA read it' }];
        return answers.shift()!;
      },
    );
    assert.strictEqual(ok, false, 'b.ts was not approved: nothing is applied');
    assert.deepStrictEqual(asked, [['a.ts changed on disk since DevA read it'], ['b.ts changed on disk since DevA read it']]);
  });
});

describe('edits/proposals: saveStep (what Apply does with a document after its edit)', () => {
  const writable = () => ({ ok: true as const });
  it('Apply saves a document its edit changed', () => {
    assert.strictEqual(saveStep({ isDirty: true, text: 'new' }, 'old', false, writable), 'save');
    assert.strictEqual(saveStep({ isDirty: true, text: 'new' }, 'old', true, writable), 'save', 'Review Hunks: some hunks ticked');
    assert.strictEqual(saveStep({ isDirty: false, text: 'new' }, 'old', false, writable), 'saved', 'already saved (a new file, auto save)');
  });

  it("Review Hunks with none of a file's hunks ticked: the user's unsaved changes in its editor are not saved for them", () => {
    // the document had unsaved changes before Apply, and the edit changed nothing in it
    assert.strictEqual(saveStep({ isDirty: true, text: "the user's unsaved text" }, "the user's unsaved text", true, writable), 'unticked');
  });

  it('the pre-write check runs again right before the save (the refactor preview may stay open for minutes): a path that became unsafe meanwhile is not saved', () => {
    let checked = 0;
    const now = () => (checked++, { ok: false as const, reason: 'build/out.txt resolves through a symbolic link to /elsewhere, outside the workspace' });
    assert.deepStrictEqual(saveStep({ isDirty: true, text: 'new' }, 'old', true, now), { refused: 'build/out.txt resolves through a symbolic link to /elsewhere, outside the workspace' });
    assert.strictEqual(checked, 1);
    // nothing to save: nothing to check
    assert.strictEqual(saveStep({ isDirty: true, text: 'same' }, 'same', true, now), 'unticked');
    assert.strictEqual(checked, 1);
  });
});

describe('edits/proposals: openDocumentOf (the editor of a proposed file, for the unsaved-changes check)', () => {
  const doc = (fsPath: string, scheme = 'file') => ({ uri: { scheme, fsPath }, isDirty: true });

  it('finds the document of the file, and no other', () => {
    const docs = [doc('/ws/src/a.ts'), doc('/ws/src/b.ts')];
    assert.strictEqual(openDocumentOf(docs, { scheme: 'file', fsPath: '/ws/src/b.ts' }), docs[1]);
    assert.strictEqual(openDocumentOf(docs, { scheme: 'file', fsPath: '/ws/src/c.ts' }), undefined);
    assert.strictEqual(openDocumentOf([doc('/ws/src/a.ts', 'git')], { scheme: 'file', fsPath: '/ws/src/a.ts' }), undefined, 'not a diff side of another scheme');
  });

  it('an editor showing the file under another case or Unicode normalization than DevA wrote (a case-insensitive file system) is its document', () => {
    // macOS and Windows: src/App.ts and src/app.ts are one file; the user's unsaved changes there must be seen
    const open = [doc('/ws/src/App.ts')];
    assert.strictEqual(openDocumentOf(open, { scheme: 'file', fsPath: '/ws/src/app.ts' }), open[0]);
    const nfd = [doc('/ws/docs/re\u0301sume\u0301.md')];
    assert.strictEqual(openDocumentOf(nfd, { scheme: 'file', fsPath: '/ws/docs/r\u00e9sum\u00e9.md' }), nfd[0]);
  });

  it('the exact name wins when both are open (a case-sensitive file system has two files)', () => {
    const open = [doc('/ws/A.ts'), doc('/ws/a.ts')];
    assert.strictEqual(openDocumentOf(open, { scheme: 'file', fsPath: '/ws/a.ts' }), open[1]);
  });
});

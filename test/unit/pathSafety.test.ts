import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkBeforeWrite, checkFilePath, MAX_FILE_BYTES, MAX_PATH_CHARS } from '../../src/core/files/pathSafety';
import { applyProposedFiles, proposeFiles } from '../../src/core/files/proposals';
import { nameRefusal } from '../../src/core/files/pathNames';

function workspace(): { root: string; outside: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-paths-'));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return { root, outside };
}

describe('pathSafety: checkFilePath', () => {
  const { root, outside } = workspace();
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'old');
  fs.symlinkSync(outside, path.join(root, 'escape'), 'dir');
  fs.symlinkSync(path.join(root, 'src'), path.join(root, 'inner-link'), 'dir');
  fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'file-link'));
  fs.symlinkSync(path.join(outside, 'nothing-here'), path.join(root, 'dangling'));
  fs.mkdirSync(path.join(root, '.git'));
  fs.symlinkSync(path.join(root, '.git'), path.join(root, 'gitlink'), 'dir');

  const hostile: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['../etc/passwd', /"\.\."/],
    ['src/../../x', /"\.\."/],
    ['a/../b', /"\.\."/],
    ['..\\..\\windows\\system32', /"\.\."/],
    ['/etc/passwd', /absolute/],
    ['C:\\Windows\\win.ini', /drive/],
    ['c:foo.txt', /drive/],
    ['C:/x', /drive/],
    ['\\\\server\\share\\x', /UNC/],
    ['//server/share/x', /UNC/],
    ['\\\\?\\C:\\x', /device/],
    ['\\\\.\\PhysicalDrive0', /device/],
    ['~/.ssh/authorized_keys', /home/],
    ['~root/x', /home/],
    ['a\u0000b', /NUL/],
    ['a\nb', /control/],
    ['a\u001bb', /control/],
    ['a\u200bb/.git/x', /invisible/],
    ['\u202Egnp.exe', /invisible/],
    // text keeps joiners and variation selectors (emoji need them); a name refuses them with the rest
    ['a\u200Db.ts', /invisible/],
    ['a\uFE0F.ts', /invisible/],
    ['a\uFEFF.ts', /invisible/],
    ['.git/config', /\.git/],
    ['.GIT/hooks/pre-commit', /\.git/],
    ['sub/.Git/HEAD', /\.git/],
    ['.git /config', /ends with a dot or a space/],
    ['.git./config', /^segment "\.git\." ends with a dot or a space \(Windows would strip it\)$/],
    [' src/a.ts', /^segment " src" starts with a space \(it would make a file or folder whose name begins with one\); write "src"$/],
    ['src/ a.ts', /^segment " a\.ts" starts with a space .*; write "a\.ts"$/],
    ['src /a.ts', /^segment "src " ends with a dot or a space \(Windows would strip it\); write "src"$/],
    ['src/a.ts. ', /^segment "a\.ts\. " ends with a dot or a space .*; write "a\.ts"$/],
    ['\u00a0src/a.ts', /^segment "\u00a0src" starts with a space .*; write "src"$/],
    ['src/a.ts\u3000', /^segment "a\.ts\u3000" ends with a space \(it would make a file or folder whose name ends with one\); write "a\.ts"$/],
    ['src/ /a.ts', /^segment " " starts with a space \(it would make a file or folder whose name begins with one\)$/],
    ['GIT~1/config', /\.git/],
    ['file.txt::$DATA', /":"/],
    ['.git::$INDEX_ALLOCATION/config', /":"/],
    ['cape/5_sessions/x.json', /5_sessions/],
    ['CAPE/5_Sessions/retrospective/kpt_merged.md', /5_sessions/],
    ['docs/cape/5_sessions', /5_sessions/],
    ['CON', /reserved/],
    ['lib/nul.txt', /reserved/],
    ['a/b?.txt', /invalid in Windows/],
    ['.', /workspace root/],
    ['./', /workspace root/],
    ['x'.repeat(MAX_PATH_CHARS + 1), /too long/],
    ['escape/pwned.txt', /outside the workspace/],
    ['escape/new/dir/pwned.txt', /outside the workspace/],
    ['file-link', /symbolic link/],
    ['dangling', /symbolic link/],
    ['gitlink/config', /\.git/],
  ];
  for (const [p, re] of hostile) {
    it(`refuses ${JSON.stringify(p.length > 40 ? p.slice(0, 40) + '…' : p)}`, () => {
      const r = checkFilePath(root, p);
      assert.strictEqual(r.ok, false, `accepted ${JSON.stringify(p)}`);
      if (!r.ok) assert.match(r.reason, re);
    });
  }

  const fine: [string, string][] = [
    ['src/a.ts', 'src/a.ts'],
    ['./src//b.ts', 'src/b.ts'],
    ['src\\win\\style.css', 'src/win/style.css'],
    ['%2e%2e/literal.txt', '%2e%2e/literal.txt'],
    ['．．/fullwidth-dots.txt', '．．/fullwidth-dots.txt'],
    ['.gitignore', '.gitignore'],
    ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
    ['cape/1_product/4_backlog.md', 'cape/1_product/4_backlog.md'],
    ['inner-link/c.ts', 'inner-link/c.ts'],
    ['日本語/ファイル.md', '日本語/ファイル.md'],
    ['gіt/cyrillic-i.txt', 'gіt/cyrillic-i.txt'],
  ];
  for (const [p, rel] of fine) {
    it(`accepts ${JSON.stringify(p)} as ${rel}`, () => {
      const r = checkFilePath(root, p);
      assert.ok(r.ok, r.ok ? '' : r.reason);
      if (r.ok) {
        assert.strictEqual(r.relPath, rel);
        assert.strictEqual(r.absPath, path.join(root, ...rel.split('/')));
      }
    });
  }

  it('respects a custom cape folder name', () => {
    assert.strictEqual(checkFilePath(root, 'team/5_sessions/x', { capeFolder: 'team' }).ok, false);
    assert.strictEqual(checkFilePath(root, 'cape/5_sessions/x', { capeFolder: 'team' }).ok, true);
  });

  it('nameRefusal refuses a listed name exactly when checkFilePath refuses it as a path of its own (or it is no name there), under Windows rules', () => {
    const pieces = ['a', 'A', '.', ' ', '\u00a0', '-', '#', '!', 'é', 'e\u0301', 'git', '.git', 'GIT~1', 'con', 'Aux', 'lpt1', 'com²', 'ts', ':', '\\', '?', '*', '"', '<', '|', '\n', '\t', '\u007f', '\u0085', '\u200b', '\u202e', '\ufeff', '~', '$', '%2e', '5_sessions'];
    const names = new Set<string>();
    for (const x of pieces) for (const y of pieces) for (const z of ['', '.ts', '.', ' ', 'x']) names.add(x + y + z);
    names.add('x'.repeat(255));
    names.add('x'.repeat(256));
    for (const name of names) {
      if (name.trim() === '' || name === '.' || name === '..' || name.includes('/')) continue;
      // a name checkFilePath would read as something else (a backslash splits it) is refused whatever it reads as
      // (Windows rules: there a device name is refused whether it exists or not, see below)
      const readable = (p: string) => !name.includes('\\') && checkFilePath(root, p, { platform: 'win32' }).ok;
      assert.strictEqual(nameRefusal(name, true, 'win32') === null, readable(name), JSON.stringify(name));
      assert.strictEqual(nameRefusal(name, false, 'win32') === null, readable(`src/${name}`), `src/${JSON.stringify(name)}`);
    }
  });

  it('Windows device names: an existing file or folder so named is read and written off Windows, a new one is refused everywhere', () => {
    const ws = workspace().root;
    fs.writeFileSync(path.join(ws, 'aux.c'), 'int aux;\n');
    fs.mkdirSync(path.join(ws, 'con'));
    fs.writeFileSync(path.join(ws, 'con', 'io.h'), '');
    const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : (r.reason ?? ''));
    for (const platform of ['linux', 'darwin'] as const) {
      for (const p of ['aux.c', 'con/io.h', 'con/new.h', './con//io.h']) assert.strictEqual(reason(checkFilePath(ws, p, { platform })), 'ok', `${platform}: ${p}`);
      // a listed name exists: the index lists it (a read accepts it)
      for (const name of ['aux.c', 'con', 'NUL', 'com1.txt']) assert.strictEqual(nameRefusal(name, true, platform), null, `${platform}: ${name}`);
      for (const p of ['nul', 'lib/com1.txt', 'con/aux.h', 'prn.md', 'Lpt1/x.ts']) {
        assert.match(reason(checkFilePath(ws, p, { platform })), /is a reserved device name on Windows, and no file or folder of that name exists here: .*choose another name/, `${platform}: ${p}`);
      }
      assert.deepStrictEqual(checkBeforeWrite(ws, 'aux.c', 'int aux2;\n', { platform }), { ok: true, relPath: 'aux.c', absPath: path.join(ws, 'aux.c'), exists: true });
      assert.match(reason(checkBeforeWrite(ws, 'nul.txt', 'x', { platform })), /reserved device name/);
    }
    // on Windows such a name is a device, existing or not
    for (const p of ['aux.c', 'con/io.h', 'nul']) assert.match(reason(checkFilePath(ws, p, { platform: 'win32' })), /^segment "(aux\.c|con|nul)" is a reserved device name on Windows$/, p);
    assert.match(nameRefusal('aux.c', false, 'win32') ?? '', /reserved device name on Windows/);
    // this process's platform is the default
    if (process.platform !== 'win32') assert.ok(checkFilePath(ws, 'aux.c').ok && nameRefusal('aux.c') === null);
  });

  it('refuses everything when the workspace does not exist', () => {
    const r = checkFilePath(path.join(root, 'missing-ws'), 'a.txt');
    assert.ok(!r.ok && /does not exist/.test(r.reason));
  });
});

describe('pathSafety: checkBeforeWrite (the one pre-write check of CLI --apply and VS Code Apply)', () => {
  const { root, outside } = workspace();
  fs.mkdirSync(path.join(root, 'dir'));
  fs.writeFileSync(path.join(root, 'old.txt'), 'x');
  fs.symlinkSync(outside, path.join(root, 'escape'), 'dir');

  it('passes a new file and an existing regular file (telling which)', () => {
    assert.deepStrictEqual(checkBeforeWrite(root, 'new/file.ts', 'c'), { ok: true, relPath: 'new/file.ts', absPath: path.join(root, 'new', 'file.ts'), exists: false });
    assert.deepStrictEqual(checkBeforeWrite(root, './old.txt', 'c'), { ok: true, relPath: 'old.txt', absPath: path.join(root, 'old.txt'), exists: true });
  });

  it('refuses an unsafe path, non-text content, oversize content and a target that is not a regular file', () => {
    const reason = (r: ReturnType<typeof checkBeforeWrite>) => (r.ok ? 'ok' : r.reason);
    assert.match(reason(checkBeforeWrite(root, '../x', 'c')), /"\.\." segments/);
    assert.match(reason(checkBeforeWrite(root, 'escape/x', 'c')), /outside the workspace/);
    assert.match(reason(checkBeforeWrite(root, 'cape/5_sessions/x', 'c')), /5_sessions/);
    assert.match(reason(checkBeforeWrite(root, 'a.ts', undefined)), /no text content/);
    assert.match(reason(checkBeforeWrite(root, 'a.ts', 'x'.repeat(MAX_FILE_BYTES + 1))), /content is larger than 10 MB$/);
    assert.match(reason(checkBeforeWrite(root, 'dir', 'c')), /^dir is an existing directory$/);
  });

  it('refuses oversize content and a folder in the way with the same words when proposing and right before the write', async () => {
    const big = 'x'.repeat(MAX_FILE_BYTES + 1);
    const proposed = await proposeFiles(root, [{ path: 'a.ts', content: big }, { path: 'dir', content: 'c' }]);
    const before = [checkBeforeWrite(root, 'a.ts', big), checkBeforeWrite(root, 'dir', 'c')];
    assert.deepStrictEqual(proposed.map((p) => p.reason), before.map((r) => (r.ok ? 'ok' : r.reason)));
    assert.deepStrictEqual(proposed.map((p) => p.reason), ['content is larger than 10 MB', 'dir is an existing directory']);
  });
});

describe('pathSafety: proposeFiles / applyProposedFiles', () => {
  it('classifies create/modify/directory/refused and lets the last duplicate win', async () => {
    const { root } = workspace();
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'old a');
    const files = await proposeFiles(root, [
      { path: 'src/a.ts', content: 'first a' },
      { path: 'src/new.ts', content: 'new' },
      { path: 'src', content: 'dir!' },
      { path: '../x', content: 'evil' },
      { path: 'SRC/A.ts', content: 'second a' },
    ]);
    assert.deepStrictEqual(
      files.map((f) => [f.path, f.action, f.status]),
      [
        ['src/a.ts', 'create', 'refused'],
        ['src/new.ts', 'create', 'proposed'],
        ['src', 'modify', 'refused'],
        ['../x', 'create', 'refused'],
        ['SRC/A.ts', process.platform === 'linux' ? 'create' : 'modify', 'proposed'],
      ],
    );
    assert.match(files[0].reason!, /duplicate/);
    assert.match(files[2].reason!, /directory/);

    const modify = (await proposeFiles(root, [{ path: 'src/a.ts', content: 'new a' }]))[0];
    assert.strictEqual(modify.action, 'modify');
    assert.strictEqual(modify.currentContent, 'old a');
  });

  it("a whole new text for an existing file takes the file's usual line break and byte-order mark; a new file is as proposed", async () => {
    const { root } = workspace();
    const files: Record<string, string> = { 'crlf.txt': 'a\r\nb\r\nc\n', 'lf.txt': 'a\nb\n', 'bom.txt': '\uFEFFa\n', 'one.txt': 'no break', 'mixed.txt': 'a\r\nb\r\nc\n' };
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
    const proposed = await proposeFiles(root, [
      { path: 'crlf.txt', content: 'x\ny\n' },
      { path: 'lf.txt', content: 'x\r\ny' },
      { path: 'bom.txt', content: 'x\n' },
      { path: 'one.txt', content: 'x\r\ny\n' },
      { path: 'new.txt', content: '\uFEFFx\r\n' },
      // mixed line breaks: an <edit>'s proposal (reloaded from the record) keeps each line's own
      { path: 'mixed.txt', content: 'a\r\nB\r\nc\n' },
    ]);
    assert.deepStrictEqual(
      proposed.map((f) => [f.path, f.content]),
      [
        ['crlf.txt', 'x\r\ny\r\n'],
        ['lf.txt', 'x\ny'],
        ['bom.txt', '\uFEFFx\n'],
        ['one.txt', 'x\r\ny\n'],
        ['new.txt', '\uFEFFx\r\n'],
        ['mixed.txt', 'a\r\nB\r\nc\n'],
      ],
    );
  });

  it('applies accepted files atomically, creating directories, honouring `only`', async () => {
    const { root } = workspace();
    const proposed = await proposeFiles(root, [
      { path: 'deep/er/one.txt', content: 'one' },
      { path: 'two.txt', content: 'two' },
      { path: '.git/config', content: 'x' },
    ]);
    const first = await applyProposedFiles(proposed, { only: new Set(['deep/er/one.txt']) });
    assert.deepStrictEqual(first.map((f) => f.status), ['applied', 'proposed', 'refused']);
    assert.strictEqual(fs.readFileSync(path.join(root, 'deep', 'er', 'one.txt'), 'utf8'), 'one');
    assert.ok(!fs.existsSync(path.join(root, 'two.txt')));
    const second = await applyProposedFiles(first, { workspaceRoot: root });
    assert.deepStrictEqual(second.map((f) => f.status), ['applied', 'applied', 'refused']);
    assert.strictEqual(fs.readFileSync(path.join(root, 'two.txt'), 'utf8'), 'two');
    assert.ok(!fs.existsSync(path.join(root, '.git')));
    assert.deepStrictEqual(fs.readdirSync(root).sort(), ['deep', 'two.txt'], 'no temporary files left');
  });

  it('TOCTOU: a symlink created after the proposal is caught at write time', async () => {
    const { root, outside } = workspace();
    const proposed = await proposeFiles(root, [
      { path: 'build/out.txt', content: 'pwned' },
      { path: 'later/file.txt', content: 'pwned' },
    ]);
    assert.deepStrictEqual(proposed.map((f) => f.status), ['proposed', 'proposed']);
    fs.symlinkSync(outside, path.join(root, 'build'), 'dir'); // the attacker's move after the review
    fs.mkdirSync(path.join(root, 'later'));
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(root, 'later', 'file.txt'));
    const applied = await applyProposedFiles(proposed);
    assert.deepStrictEqual(applied.map((f) => f.status), ['refused', 'refused']);
    assert.match(applied[0].reason!, /outside the workspace/);
    assert.match(applied[1].reason!, /symbolic link/);
    assert.deepStrictEqual(fs.readdirSync(outside), []);
  });

  it('does not trust a tampered proposal when the workspace root is given', async () => {
    const { root, outside } = workspace();
    const tampered = [{ path: 'x', relPath: '../outside/x', absPath: path.join(outside, 'x'), action: 'create' as const, status: 'proposed' as const, content: 'x' }];
    const r = await applyProposedFiles(tampered, { workspaceRoot: root });
    assert.strictEqual(r[0].status, 'refused');
    assert.deepStrictEqual(fs.readdirSync(outside), []);
  });

  it('a proposal made against one workspace folder is refused in another (multi-root): nothing is written there', async () => {
    const a = workspace().root;
    const b = workspace().root;
    fs.writeFileSync(path.join(a, 'shared.txt'), "folder A's own file");
    fs.writeFileSync(path.join(b, 'shared.txt'), 'old b');
    const proposed = await proposeFiles(b, [
      { path: 'shared.txt', content: 'new b' },
      { path: 'src/new.ts', content: 'b only' },
    ]);
    const r = await applyProposedFiles(proposed, { workspaceRoot: a });
    assert.deepStrictEqual(r.map((f) => f.status), ['refused', 'refused']);
    assert.match(r[0].reason!, /proposed for another folder/);
    assert.strictEqual(fs.readFileSync(path.join(a, 'shared.txt'), 'utf8'), "folder A's own file");
    assert.ok(!fs.existsSync(path.join(a, 'src')));
    assert.strictEqual(fs.readFileSync(path.join(b, 'shared.txt'), 'utf8'), 'old b');
    // against its own folder it applies
    assert.deepStrictEqual((await applyProposedFiles(proposed, { workspaceRoot: b })).map((f) => f.status), ['applied', 'applied']);
  });

  it('refuses (not throws) when a write fails, e.g. a parent path is a file', async () => {
    const { root } = workspace();
    const proposed = await proposeFiles(root, [{ path: 'p/child.txt', content: 'c' }]);
    fs.writeFileSync(path.join(root, 'p'), 'i am a file');
    const [r] = await applyProposedFiles(proposed);
    assert.strictEqual(r.status, 'refused');
    assert.ok(r.reason && r.reason.length > 0);
    assert.strictEqual(fs.readFileSync(path.join(root, 'p'), 'utf8'), 'i am a file');
  });
});

// Inputs under control (issue 7 items 9, 11 and 15): binary or non-UTF-8 files in cape/, folders nested too deep,
// cape/ and 5_sessions/ symlinked outside the workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MAX_ASSET_BYTES, MAX_DEPTH, loadCape } from '../../src/core/cape/assets';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES } from '../../src/core/cape/capeLayout';
import { notTextReason } from '../../src/core/files/text';
import { checkWorkspaceLocation } from '../../src/core/files/pathSafety';
import { capeWarnings } from '../../src/core/session/runner';
import { unsentFilesWarning } from '../../src/core/session/inputs';
import { SessionStore } from '../../src/core/store';

function tmpDir(prefix = 'cape-inputs-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function write(root: string, rel: string, data: string | Buffer): void {
  const p = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
}

function completeCape(): string {
  const root = tmpDir();
  for (const rel of GENERIC_CAPE_FILES) write(root, rel, `---\ntype: generic\n---\n# ${rel}\n`);
  for (const rel of INPUT_CAPE_FILES) write(root, rel, `---\ntype: input\n---\n# ${rel}\n`);
  return root;
}

/** 200 KB that looks like an ELF executable. */
function fakeElf(): Buffer {
  const buf = Buffer.alloc(200 * 1024, 0x41);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]).copy(buf);
  for (let i = 64; i < buf.length; i += 97) buf[i] = 0;
  return buf;
}

describe('cape inputs: binaries and invalid UTF-8 are skipped with a warning naming the file', () => {
  it('notTextReason: NUL bytes and invalid UTF-8 are not text; UTF-8 (Japanese, emoji, BOM) is', () => {
    assert.match(notTextReason(Buffer.from('ab\u0000c'))!, /binary file \(NUL byte at offset 2\)/);
    assert.match(notTextReason(Buffer.from([0x61, 0x62, 0xff, 0x63]))!, /not valid UTF-8.*offset 2/);
    assert.match(notTextReason(Buffer.from([0xe3, 0x81]))!, /not valid UTF-8/, 'a cut multi-byte character');
    assert.strictEqual(notTextReason(Buffer.from('\uFEFF# 日本語 🎉\n', 'utf8')), null);
    assert.strictEqual(notTextReason(Buffer.alloc(0)), null);
  });

  it('a 200 KB ELF renamed .md, a NUL-bearing file and a Latin-1 file are skipped; the rest loads', async () => {
    const root = completeCape();
    write(root, '3_development/tool.md', fakeElf());
    write(root, '1_product/5_notes.md', Buffer.concat([Buffer.from('---\ntype: input\n---\n# Notes\n'), Buffer.from([0, 1, 2])]));
    write(root, '2_design/3_latin1.md', Buffer.from('---\ntype: input\n---\n# Caf\xe9\n', 'latin1'));
    const cape = await loadCape(root);
    for (const rel of ['3_development/tool.md', '1_product/5_notes.md', '2_design/3_latin1.md']) {
      assert.ok(!cape.files.has(rel), `${rel} is not loaded`);
      assert.strictEqual(cape.issues.find((i) => i.path === rel)?.kind, 'binary', rel);
    }
    assert.strictEqual(cape.files.size, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length, 'every other file loads');
    for (const f of cape.files.values()) assert.ok(!f.body.includes('\u0000') && !f.body.includes('\uFFFD'), f.relPath);
    const warnings = capeWarnings(cape.issues, 'cape', new Set());
    assert.ok(warnings.some((w) => /^cape\/3_development\/tool\.md was skipped: it is a binary file/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /^cape\/2_design\/3_latin1\.md was skipped: it is not valid UTF-8/.test(w)), warnings.join('\n'));
  });

  it('a file over the size limit is checked on the part that is used', async () => {
    const root = completeCape();
    write(root, '3_development/big.md', Buffer.concat([Buffer.from('# Big\n'), Buffer.alloc(MAX_ASSET_BYTES, 0x61), Buffer.from([0, 0])]));
    write(root, '3_development/big-bad.md', Buffer.concat([Buffer.from('# Big\n'), Buffer.from([0xff]), Buffer.alloc(MAX_ASSET_BYTES, 0x61)]));
    const cape = await loadCape(root);
    assert.ok(cape.files.get('3_development/big.md')?.truncated, 'NUL bytes after the cut are never read');
    assert.strictEqual(cape.issues.find((i) => i.path === '3_development/big-bad.md')?.kind, 'binary');
  });
});

describe('cape inputs: files no role receives are named, not ignored silently', () => {
  it('a file the project added to 0_team/, 4_orchestration/ or another folder is named; domain files, framework files and top-level notes are not', async () => {
    const root = completeCape();
    write(root, '0_team/5_glossary.md', '---\ntype: input\n---\n# Glossary\n');
    write(root, '4_orchestration/3_release.md', '# Release checklist\n');
    write(root, '6_research/interviews.md', '# Interviews\n');
    write(root, '1_product/5_research.md', '# Research\n');
    write(root, '0_team/0_overview.md', '---\ntype: generic\n---\n# Overview\n');
    write(root, 'README.md', '# About this folder\n');
    const cape = await loadCape(root);
    const warning = unsentFilesWarning(cape.files.values(), 'cape');
    assert.ok(warning, 'a warning');
    assert.match(warning!, /^cape\/0_team\/5_glossary\.md, cape\/4_orchestration\/3_release\.md, cape\/6_research\/interviews\.md are sent to no role/);
    assert.match(warning!, /POA: cape\/1_product\//);
    assert.ok(!/5_research|0_overview|README|3_dor/.test(warning!), warning!);
    assert.strictEqual(unsentFilesWarning((await loadCape(completeCape())).files.values(), 'cape'), null);
  });
});

describe('cape inputs: folders nested too deep are named, not skipped silently', () => {
  it('reports the skipped .md files of a folder deeper than MAX_DEPTH', async () => {
    const root = completeCape();
    const deep = ['1_product', ...Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `d${i}`)].join('/');
    write(root, `${deep}/lost.md`, '# Lost\n');
    write(root, `${deep}/sub/also-lost.md`, '# Also lost\n');
    write(root, `${deep}/not-markdown.txt`, 'x');
    const ok = ['1_product', ...Array.from({ length: MAX_DEPTH - 1 }, (_, i) => `d${i}`)].join('/');
    write(root, `${ok}/found.md`, '# Found\n');
    const cape = await loadCape(root);
    assert.ok(cape.files.has(`${ok}/found.md`), 'files up to the limit load');
    const issue = cape.issues.find((i) => i.kind === 'too-deep');
    assert.ok(issue, JSON.stringify(cape.issues));
    assert.ok(issue!.message.includes(`${deep}/lost.md`) && issue!.message.includes(`${deep}/sub/also-lost.md`), issue!.message);
    assert.ok(!issue!.message.includes('not-markdown'));
    const [warning] = capeWarnings([issue!], 'cape', new Set());
    assert.match(warning, /^cape\/1_product\/.*\/ is nested more than 8 folder levels deep, so its files were not loaded: .*lost\.md/);
  });

  it('a too-deep folder without markdown files is not reported', async () => {
    const root = completeCape();
    write(root, ['1_product', ...Array.from({ length: MAX_DEPTH + 2 }, (_, i) => `d${i}`)].join('/') + '/x.txt', 'x');
    const cape = await loadCape(root);
    assert.strictEqual(cape.issues.filter((i) => i.kind === 'too-deep').length, 0);
  });
});

describe('cape inputs: CAPE folders symlinked outside the workspace', () => {
  const link = (target: string, at: string, ctx: Mocha.Context) => {
    try {
      fs.symlinkSync(target, at, 'dir');
    } catch {
      ctx.skip();
    }
  };

  it('checkWorkspaceLocation: inside, through an inner link, and out through a link', function () {
    const ws = tmpDir();
    const outside = tmpDir();
    fs.mkdirSync(path.join(ws, 'real'));
    link(path.join(ws, 'real'), path.join(ws, 'inner'), this);
    link(outside, path.join(ws, 'out'), this);
    assert.ok(checkWorkspaceLocation(ws, 'cape/5_sessions/x.md').ok, 'not existing yet is fine');
    assert.ok(checkWorkspaceLocation(ws, 'inner/x.md').ok);
    const out = checkWorkspaceLocation(ws, 'out/kpt_merged.md');
    assert.ok(!out.ok && /outside the workspace/.test(out.reason));
    assert.ok(!checkWorkspaceLocation(ws, '../x').ok);
  });

  it('store.locationProblem names cape/ or 5_sessions/ when they lead outside, null otherwise', function () {
    const ws = tmpDir();
    const outside = tmpDir();
    const store = new SessionStore(ws, 'cape');
    fs.mkdirSync(path.join(ws, 'cape'));
    assert.strictEqual(store.locationProblem(), null);
    link(outside, path.join(ws, 'cape', '5_sessions'), this);
    assert.match(store.locationProblem()!, /cape\/5_sessions resolves through a symbolic link to .*outside the workspace.*replace cape\/5_sessions with a real folder/);
    fs.rmSync(path.join(ws, 'cape'), { recursive: true });
    link(outside, path.join(ws, 'cape'), this);
    assert.match(store.locationProblem()!, /^cape resolves through a symbolic link/);
    // every folder the store writes in: a model's unusable raw reply (failed/) must not land outside either
    fs.rmSync(path.join(ws, 'cape'));
    for (const dir of ['pair', 'state', 'retrospective', 'pending', 'failed']) {
      fs.mkdirSync(path.join(ws, 'cape', '5_sessions'), { recursive: true });
      link(outside, path.join(ws, 'cape', '5_sessions', dir), this);
      assert.match(store.locationProblem() ?? '', new RegExp(`^cape/5_sessions/${dir} resolves through a symbolic link`), dir);
      fs.rmSync(path.join(ws, 'cape'), { recursive: true });
    }
  });
});

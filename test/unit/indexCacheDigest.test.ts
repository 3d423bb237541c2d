// The workspace index's cache file carries the SHA-256 of its bytes (src/core/workspace/cacheDigest.ts): a byte flipped
// anywhere — the header, a section, a padding byte, the digest itself — and the file is not used; the index is rebuilt
// from the workspace with the same content as before, and the rebuilt file is good again.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A few files that import each other, with symbols and prose: every section of the cache file has bytes. */
function workspace(): string {
  const root = tmp('cape-digest-');
  write(root, 'src/theme/themeStore.ts', "import { readSetting } from '../settings/storage';\nexport function getTheme() { return readSetting('theme') ?? 'light'; }\nexport function setTheme(name: string) { /* dark mode */ }\n");
  write(root, 'src/settings/storage.ts', 'export function readSetting(key: string) { return localStorage.getItem(key); }\n');
  write(root, 'src/pages/SettingsPage.tsx', "import { getTheme, setTheme } from '../theme/themeStore';\nexport default function SettingsPage() { return setTheme(getTheme()); }\n");
  write(root, 'src/utils/math.ts', 'export function clamp(x: number, lo: number, hi: number) { return Math.min(hi, Math.max(lo, x)); }\n');
  write(root, 'README.md', '# Demo\n\nA user account page with a dark theme switch.\n');
  return root;
}

/** Everything a ranking uses of the index: each file's stamp, size in characters, symbols, imports; text scores. */
function content(index: WorkspaceIndex): unknown {
  const files = [...index.all()]
    .map((f) => [f.path, f.size, f.chars, f.symbols, f.specs, f.imports, index.importersOf(f.path)])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const scores = ['theme dark mode', 'clamp', 'user account', 'readSetting storage'].map((q) => [...index.textScores(q)].sort());
  return { files, scores };
}

describe('workspace index cache: integrity (SHA-256 of the file)', function () {
  this.timeout(180000); // ~25 s alone; past 60 s on a loaded 2-core machine (seen twice)
  // the index runs a minute after the files were written: none is read within a clock step of its stamp, which
  // would have it read again on the next open (fileRead.ts racyStamp) whatever the cache holds
  const realNow = Date.now;
  before(() => (Date.now = () => realNow() + 60_000));
  after(() => (Date.now = realNow));

  it('a byte flipped anywhere in the cache file: not used, the index rebuilt with the same content', async () => {
    const root = workspace();
    const cacheFile = path.join(tmp('cape-digest-cache-'), 'index.idx');
    const built = await WorkspaceIndex.open(root, { cacheFile });
    const expected = content(built.index);
    const bytes = fs.readFileSync(cacheFile);
    const warm = await WorkspaceIndex.open(root, { cacheFile });
    assert.ok(warm.fromCache && warm.stats.read === 0, 'the file as written is used');
    assert.deepStrictEqual(content(warm.index), expected);

    // every 7th byte after the magic and version (a flip there is refused already), and the file's last byte
    const positions: number[] = [];
    for (let at = 12; at < bytes.length; at += 7) positions.push(at);
    positions.push(bytes.length - 1);
    assert.ok(positions.length > 100, `${positions.length} positions`);
    for (const [i, at] of positions.entries()) {
      const damaged = Buffer.from(bytes);
      damaged[at] ^= 1 << i % 8;
      fs.writeFileSync(cacheFile, damaged);
      // a full open and a one-off query's (its Docs and postings left in the file)
      const lazy = i % 2 === 1;
      const r = await WorkspaceIndex.open(root, { cacheFile, lazy });
      assert.strictEqual(r.fromCache, false, `byte ${at} of ${bytes.length} flipped${lazy ? ' (lazy)' : ''}: the cache is not used`);
      assert.strictEqual(r.stats.read, built.stats.read, `byte ${at}: every file read again`);
      assert.deepStrictEqual(content(r.index), expected, `byte ${at}: the rebuilt index`);
      assert.ok(fs.readFileSync(cacheFile).equals(bytes) || (await WorkspaceIndex.open(root, { cacheFile })).fromCache, `byte ${at}: the rewritten file is good`);
    }
  });

  it('says when the cache file was damaged, not when there was none', async () => {
    const root = workspace();
    const cacheFile = path.join(tmp('cape-digest-cache-'), 'index.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(first.cacheDamaged, false, 'no cache file yet');
    const bytes = fs.readFileSync(cacheFile);
    bytes[bytes.length - 100] ^= 0x10;
    fs.writeFileSync(cacheFile, bytes);
    const second = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(second.fromCache, false);
    assert.strictEqual(second.cacheDamaged, true);
    const third = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(third.fromCache, true);
    assert.strictEqual(third.cacheDamaged, false);
  });
});

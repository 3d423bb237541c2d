// The index's files by path (src/core/workspace/fileTable.ts): restored from a cache file's numbers and path table,
// they behave as a Map of FileEntry by path does — order, sizes, look-ups, a path deleted and set again coming last —
// and a walk's marks (a recorded file taken unchanged by its slot, or met by its path) tell the files it did not meet.
import * as assert from 'assert';
import { FileTable, pathTable, validPathTable, type RestoredFiles } from '../../src/core/workspace/fileTable';
import { FileEntry, StoredPieces } from '../../src/core/workspace/indexEntry';

/** A cache file's files: `count` paths (some sharing a hash bucket's run), file i of size i, mtime 1000 + i, ctime 2000 + i. */
function restored(count: number): RestoredFiles {
  const paths = Array.from({ length: count }, (_, i) => (i % 7 === 3 ? `src/é/m${i}.ts` : `src/m${i}.ts`));
  const numbers = new Float64Array(4 * count);
  for (let i = 0; i < count; i++) [numbers[i], numbers[count + i], numbers[2 * count + i], numbers[3 * count + i]] = [i, 1000 + i, 10 * i, 2000 + i];
  // file 5 imports files 1 and 2; no other file imports anything
  const importLens = new Uint32Array(count);
  importLens[5] = 2;
  const empty = () => new StoredPieces(Buffer.from('\0'.repeat(Math.max(0, count - 1))), Uint32Array.from({ length: count }, (_, i) => i));
  return { paths, numbers, ctimes: numbers.subarray(3 * count), importLens, targets: Uint32Array.from([1, 2]), symbols: empty(), specs: empty(), table: pathTable(paths) };
}

const stat = (size: number, mtimeMs: number, ctimeMs: number) => ({ isFile: () => true, isDirectory: () => false, size, mtimeMs, ctimeMs });

describe('file table (the index\'s files by path, restored ones kept as the cache file\'s numbers)', () => {
  it('behaves as a Map of FileEntry by path under any sequence of sets, deletes and look-ups', () => {
    const base = restored(40);
    const table = new FileTable();
    table.restore(base);
    const map = new Map<string, FileEntry>();
    for (const p of base.paths) map.set(p, table.get(p)!);
    const universe = [...base.paths, 'src/new0.ts', 'src/new1.ts', 'src/é/new2.ts', 'src/m4.ts/x'];
    let seed = 5;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let step = 0; step < 2000; step++) {
      const p = universe[next(universe.length)];
      const op = next(3);
      if (op === 0) {
        const e = new FileEntry(p, step, step, step, step, [], []);
        table.set(p, e);
        map.set(p, e);
      } else if (op === 1) assert.strictEqual(table.delete(p), map.delete(p), `delete ${p} at step ${step}`);
      else assert.strictEqual(table.get(p), map.get(p), `get ${p} at step ${step}`);
      assert.strictEqual(table.size, map.size, `size at step ${step}`);
      assert.strictEqual(table.has(p), map.has(p), `has ${p} at step ${step}`);
      if (step % 50 === 0) {
        assert.deepStrictEqual([...table.keys()], [...map.keys()], `order at step ${step}`);
        assert.deepStrictEqual([...table.values()], [...map.values()], `entries at step ${step}`);
      }
    }
  });

  it('makes a restored file\'s entry from its numbers when it is asked for, and lists only the files that import', () => {
    const base = restored(10);
    const table = new FileTable();
    table.restore(base);
    const f = table.get('src/m5.ts')!;
    assert.deepStrictEqual([f.path, f.size, f.mtimeMs, f.chars, f.ctimeMs, f.imports], ['src/m5.ts', 5, 1005, 50, 2005, ['src/m1.ts', 'src/m2.ts']]);
    assert.strictEqual(table.get('src/m5.ts'), f, 'made once');
    assert.deepStrictEqual([...table.importing()].map((e) => e.path), ['src/m5.ts']);
    table.set('src/m7.ts', new FileEntry('src/m7.ts', 1, 1, 1, 1, [], []));
    table.get('src/m7.ts')!.imports = ['src/m5.ts'];
    table.delete('src/m5.ts');
    assert.deepStrictEqual([...table.importing()].map((e) => e.path), ['src/m7.ts']);
    assert.strictEqual(table.get('src/nothing.ts'), undefined);
  });

  it('tells the files a walk did not meet: taken unchanged by slot only when the stat is the one recorded', () => {
    const base = restored(6);
    const table = new FileTable();
    table.restore(base);
    const gen = 3;
    assert.strictEqual(table.meetUnchanged(0, gen, stat(0, 1000, 2000)), true);
    assert.strictEqual(table.meetUnchanged(1, gen, stat(1, 1001, 2999)), false, 'the ctime moved');
    assert.strictEqual(table.meetUnchanged(2, gen, stat(9, 1002, 2002)), false, 'the size changed');
    assert.strictEqual(table.meetUnchanged(3, gen, null), false, 'gone');
    assert.strictEqual(table.meetUnchanged(4, gen, { ...stat(4, 1004, 2004), isFile: () => false }), false, 'no regular file now');
    table.get('src/m5.ts')!.racy = true;
    assert.strictEqual(table.meetUnchanged(5, gen, stat(5, 1005, 2005)), false, 'read too soon after a change: read again');
    table.see('src/m1.ts', gen);
    table.delete('src/m2.ts');
    assert.strictEqual(table.meetUnchanged(2, gen, stat(2, 1002, 2002)), false, 'deleted');
    table.set('src/added.ts', new FileEntry('src/added.ts', 1, 1, 1, 1, [], []));
    assert.deepStrictEqual(table.unseen(gen), ['src/é/m3.ts', 'src/m4.ts', 'src/m5.ts', 'src/added.ts']);
    table.see('src/added.ts', gen);
    assert.deepStrictEqual(table.unseen(gen), ['src/é/m3.ts', 'src/m4.ts', 'src/m5.ts']);
  });

  it('finds a path with a lone surrogate as the cache file gives it back (UTF-8: U+FFFD in its place)', () => {
    const written = ['src/a.ts', 'src/b\uD800.ts', 'src/c\uDC00\uD800x.ts'];
    const base = restored(3);
    const table = new FileTable();
    table.restore({ ...base, paths: written.map((p) => Buffer.from(p, 'utf8').toString('utf8')), table: pathTable(written) });
    assert.deepStrictEqual([...table.keys()].map((p) => table.get(p)?.path), ['src/a.ts', 'src/b\uFFFD.ts', 'src/c\uFFFD\uFFFDx.ts']);
  });

  it('refuses a stored path table that cannot serve its paths', () => {
    const paths = ['a', 'b', 'c'];
    const good = pathTable(paths);
    assert.ok(validPathTable(good, 3));
    assert.ok(validPathTable(pathTable([]), 0));
    assert.ok(!validPathTable(good.subarray(0, 4), 3), 'too small');
    assert.ok(!validPathTable(new Int32Array(24), 3), 'not a power of two');
    const full = Int32Array.from(good);
    full[full.indexOf(0)] = 2;
    assert.ok(!validPathTable(full, 3), 'a slot twice');
    const past = Int32Array.from(good);
    past[past.indexOf(1)] = 4;
    assert.ok(!validPathTable(past, 3), 'a slot past the paths');
  });
});

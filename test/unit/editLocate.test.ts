// Where the edit matcher finds a SEARCH text (src/core/edits/locate.ts): the same places as comparing the SEARCH at
// every line of the file (the reference below, which is what the matcher did before), for a number of line looks that
// grows with the file's lines plus the SEARCH's, not their product. Counted, never timed (the time is in `npm run bench`).
import * as assert from 'assert';
import { rng } from '../../bench/rng';
import { applyHunks } from '../../src/core/edits/match';
import { indentationHint, locate, locateWork, type Located, type Shift } from '../../src/core/edits/locate';
import type { Hunk } from '../../src/core/model/types';

// ---- the reference: the SEARCH compared at every place, line by line (lines × SEARCH lines)

const leading = (s: string) => /^[ \t]*/.exec(s)![0];

function shiftAt(file: string[], at: number, search: string[]): Shift | null {
  let shift: Shift | null = null;
  for (let k = 0; k < search.length; k++) {
    const f = file[at + k].trimEnd();
    const s = search[k].trimEnd();
    if (s === '' || f === '') {
      if (s !== f) return null;
      continue;
    }
    let here: Shift;
    const fl = leading(f);
    const sl = leading(s);
    if (fl.length >= sl.length && fl.endsWith(sl) && f.slice(fl.length - sl.length) === s) here = { add: fl.slice(0, fl.length - sl.length), remove: '' };
    else if (sl.length > fl.length && sl.endsWith(fl) && s.slice(sl.length - fl.length) === f) here = { add: '', remove: sl.slice(0, sl.length - fl.length) };
    else return null;
    if (shift && (shift.add !== here.add || shift.remove !== here.remove)) return null;
    shift = here;
  }
  return shift ?? { add: '', remove: '' };
}

function referenceLocate(file: string[], search: string[]): Located {
  const last = file.length - search.length;
  const exact: { at: number }[] = [];
  for (let i = 0; i <= last; i++) if (search.every((l, k) => file[i + k] === l)) exact.push({ at: i });
  if (exact.length > 0) return { level: 'exact', places: exact };
  const tolerant: { at: number; shift: Shift }[] = [];
  for (let i = 0; i <= last; i++) {
    const s = shiftAt(file, i, search);
    if (s) tolerant.push({ at: i, shift: s });
  }
  return { level: 'tolerant', places: tolerant };
}

function referenceHintAt(file: string[], search: string[]): number | null {
  for (let i = 0; i <= file.length - search.length; i++) if (search.every((l, k) => file[i + k].trim() === l.trim())) return i;
  return null;
}

// ----

const h = (search: string[], replace: string[]): Hunk => ({ search, replace });

describe('edit matcher: where a SEARCH stands (src/core/edits/locate.ts)', () => {
  it('finds the places comparing line by line finds, at the same level and with the same shift (random files and SEARCH texts)', () => {
    const r = rng(7);
    const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
    // few distinct lines, so that places agree for a long while and shifts of every kind occur
    const LINES = ['', ' ', '\t', '}', ' }', '  }', '\t}', '\t }', 'a', 'a ', '  a', '    a', '\ta', '  \ta', ' b  ', 'b', '\t\tb', '\u00a0c', '  \u00a0c'];
    const INDENTS = ['', ' ', '  ', '\t', ' \t'];
    let compared = 0;
    let tolerantFound = 0;
    for (let round = 0; round < 3000; round++) {
      const file = Array.from({ length: 1 + Math.floor(r() * 14) }, () => pick(LINES));
      let search: string[];
      if (r() < 0.6) {
        // a piece of the file, maybe shifted and with trailing spaces, maybe with a line changed
        const from = Math.floor(r() * file.length);
        search = file.slice(from, from + 1 + Math.floor(r() * 5));
        const add = pick(INDENTS);
        if (r() < 0.4) search = search.map((l) => (l.trim() === '' ? l : add + l));
        if (r() < 0.3) search = search.map((l) => (l.startsWith(add) && l.trim() !== '' ? l.slice(add.length) : l));
        if (r() < 0.3) search = search.map((l) => l + pick(['', ' ', '\t']));
        if (r() < 0.2) search[Math.floor(r() * search.length)] = pick(LINES);
      } else search = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(LINES));
      const want = referenceLocate(file, search);
      const got = locate(file, search);
      const what = JSON.stringify({ file, search });
      assert.deepStrictEqual(got.places, want.places, what);
      if (want.places.length > 0) assert.strictEqual(got.level, want.level, what);
      if (search.some((l) => l.trim() !== '')) {
        const at = referenceHintAt(file, search);
        assert.strictEqual(indentationHint(file, search) !== null, at !== null, what);
      }
      compared++;
      if (want.level === 'tolerant' && want.places.length > 0) tolerantFound++;
    }
    // not vacuous: many of the cases are found only by the tolerant level
    assert.ok(tolerantFound > 200, `${tolerantFound} of ${compared} cases found by the tolerant level`);
  });

  it('looks at a number of lines that grows with file + SEARCH lines, not with their product (a file of `}` against a SEARCH of `}`)', () => {
    const N = 20_000;
    const M = 500;
    const bound = 20 * (N + M);
    const file = `${Array(N).fill('}').join('\n')}\n`;
    const cases: { name: string; search: string[]; reason: RegExp }[] = [
      // 499 lines agree at every place before the last one does not: the worst case of comparing at every place
      { name: 'matches nowhere', search: [...Array(M - 1).fill('}'), 'x'], reason: /matches nowhere in the current file \(copy/ },
      // no exact place; the indentation shift fits everywhere
      { name: 'matches everywhere shifted', search: Array(M).fill('  }'), reason: /matches 19501 places \(lines 1, 2, 3, 4, 5, …\)/ },
      // matches nowhere, but would with indentation ignored: the hint is looked for too
      { name: 'matches nowhere with mixed indentation', search: [...Array(M - 1).fill('  }'), '\t}'], reason: /not by one uniform shift/ },
    ];
    for (const c of cases) {
      locateWork.steps = 0;
      const res = applyHunks(file, [h(c.search, ['y'])]);
      assert.ok(!res.ok, c.name);
      assert.match(res.failures[0].reason, c.reason, c.name);
      assert.ok(locateWork.steps <= bound, `${c.name}: ${locateWork.steps} line looks, bound ${bound} (line by line compares up to ${N * M})`);
      assert.ok(locateWork.steps >= N, `${c.name}: the counter counts (${locateWork.steps})`);
    }
  });

  it('a later hunk that overlaps an earlier one is still named, at a cost linear in the lines', () => {
    const N = 20_000;
    const file = `${Array(N).fill('}').join('\n')}\nstart\nmiddle\nend\n`;
    locateWork.steps = 0;
    const res = applyHunks(file, [h(['start', 'middle'], ['begin', 'middle']), h(['}', 'start', 'middle', 'end'], ['x'])]);
    assert.ok(!res.ok);
    assert.match(res.failures[0].reason, /overlaps lines that hunk 1 already changed/);
    assert.ok(locateWork.steps <= 40 * N, `${locateWork.steps} line looks`);
  });
});

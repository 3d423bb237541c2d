// How init's workspace facts share their room (src/core/cape/initFactsRoom.ts): facts that fit whole give the room
// they leave of WORKSPACE_FACTS_MAX_CHARS to the code map where its own bound cut it, up to what its public names and
// their signatures need — so the requests with every part show the same map as those with a few — and never past the
// total; facts that fill the total keep every bound as written.
import * as assert from 'assert';
import { readWorkspaceFacts, WORKSPACE_FACTS_MAX_CHARS, factsText } from '../../src/core/cape/initFacts';
import { codeLines, codeMapsLaidOut, codePart } from '../../src/core/cape/initFactsCode';
import { noSources, type FactPart } from '../../src/core/cape/initFactsText';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { tempDir } from '../helpers/cli';
import { putFile as put } from '../helpers/codebase';

/** A small TS library: eight modules of eight exported functions with long parameter lists, and a manifest. */
function library(): string {
  const ws = tempDir('cape-facts-room-');
  put(ws, 'package.json', JSON.stringify({ name: 'shapes', version: '1.0.0', scripts: { test: 'vitest run' } }));
  put(ws, 'README.md', '# shapes\n\nGeometry helpers for areas and perimeters.\n');
  for (const shape of ['circle', 'square', 'triangle', 'polygon', 'ellipse', 'rhombus', 'hexagon', 'trapezoid']) {
    const fns = Array.from({ length: 8 }, (_, i) => `export function ${shape}Measure${i}(firstLength: number, secondLength: number, options?: MeasureOptions): number {\n  return firstLength;\n}\n`);
    put(ws, `src/${shape}.ts`, fns.join(''));
  }
  return ws;
}

/** The code map of facts' text. */
const mapOf = (text: string): string => {
  const at = text.indexOf('## Code map');
  const end = text.indexOf('\n\n## ', at);
  return at < 0 ? '' : text.slice(at, end < 0 ? text.length : end);
};

describe("init's facts: how the parts share the room", function () {
  this.timeout(30000);
  const query = 'shapes: geometry helpers\nNext release: measure a polygon';
  const some: FactPart[] = ['code', 'readme'];

  it('gives the code map of a small library the room the facts leave: every public signature in the requests with every part, as in those with a few', async () => {
    const ws = library();
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const needed = codePart(codeLines(index, query), noSources(), Infinity)!;
    assert.ok(needed.length > 3000, `the map needs more than twice its bound: ${needed.length}`);
    const facts = (await readWorkspaceFacts(ws, 'cape', { index, query }, [some]))!;
    assert.ok(facts.text.length <= WORKSPACE_FACTS_MAX_CHARS, `${facts.text.length}`);
    const all = mapOf(facts.text);
    assert.strictEqual(all, needed, 'every part: the whole map');
    assert.strictEqual(mapOf(factsText(facts, some)), needed, 'a few parts: the same map');
    for (const shape of ['circle', 'trapezoid']) assert.ok(all.includes(`${shape}Measure7(firstLength: number, secondLength: number, options?: MeasureOptions): number`), shape);
  });

  it('gives it no more than the total leaves, and keeps every bound as written when the facts fill the total', async () => {
    const ws = library();
    // guidance that takes most of the room at twice the bounds: the map gets what is left, the total is kept
    put(ws, 'CLAUDE.md', '- Keep each helper pure and total.\n'.repeat(300));
    put(ws, 'AGENTS.md', '- Run the tests before a change.\n'.repeat(300));
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const tight = (await readWorkspaceFacts(ws, 'cape', { index, query }))!.text;
    assert.ok(tight.length <= WORKSPACE_FACTS_MAX_CHARS && tight.length > WORKSPACE_FACTS_MAX_CHARS - 200, `${tight.length}`);
    const map = mapOf(tight);
    assert.ok(map.length > 3000 && map.length < codePart(codeLines(index, query), noSources(), Infinity)!.length, `${map.length}`);
    // more guidance: no larger scale fits, each part keeps its bound (the map 1,500) within the total
    for (const name of ['CONTRIBUTING.md', '.cursorrules']) put(ws, name, '- Write the changelog entry first.\n'.repeat(300));
    const full = (await readWorkspaceFacts(ws, 'cape', { index, query }))!.text;
    assert.ok(full.length <= WORKSPACE_FACTS_MAX_CHARS, `${full.length}`);
    assert.ok(mapOf(full).length <= 1500, `${mapOf(full).length}`);
  });
});

describe("init's facts: each code map laid out once per room (counted, not timed)", function () {
  this.timeout(30000);
  const query = 'shapes: geometry helpers\nNext release: measure a polygon';
  /** How many code maps were laid out while `run` ran. */
  const laidOutBy = async (run: () => Promise<unknown>): Promise<number> => {
    const before = codeMapsLaidOut.count;
    await run();
    return codeMapsLaidOut.count - before;
  };

  it('lays the map out at its bound, at what it needs and in the room given, once each, however many sets of parts ask', async () => {
    const ws = library();
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    // every part: the map at twice its bound, the whole map its public names need (more than that bound gives), then
    // the map in the room the facts leave; the map at the bound was laid out a second time before, to measure it
    const all = await laidOutBy(() => readWorkspaceFacts(ws, 'cape', { index, query }));
    assert.strictEqual(all, 3);
    // a set of two parts too: only its map at the set's larger bound is new (whole there); what the map needs is the
    // same for every set, laid out once
    const withSet = await laidOutBy(() => readWorkspaceFacts(ws, 'cape', { index, query }, [['code', 'readme']]));
    assert.strictEqual(withSet, all + 1);
  });

  it('gives a room asked again the map laid out before, its sources listed each time, and lays out a new room', async () => {
    const { index } = await WorkspaceIndex.open(library(), { cacheFile: null });
    const lines = codeLines(index, query);
    const before = codeMapsLaidOut.count;
    const first = codePart(lines, noSources(), 900);
    const from = noSources();
    const again = codePart(lines, from, 900);
    assert.strictEqual(codeMapsLaidOut.count - before, 1);
    assert.ok(first && first.length <= 900, `${first?.length}`);
    assert.strictEqual(again, first);
    assert.deepStrictEqual(from.listed, ['the code map (file names and their top-level symbols)'], 'what it was made from, each time');
    const wider = codePart(lines, noSources(), 1800);
    assert.strictEqual(codeMapsLaidOut.count - before, 2);
    assert.ok(wider && wider.length > first.length && wider.length <= 1800, `${wider?.length}`);
    // lines found anew (each init finds its own) are laid out anew, the same map
    assert.strictEqual(codePart(codeLines(index, query), noSources(), 900), first);
    assert.strictEqual(codeMapsLaidOut.count - before, 3);
  });
});

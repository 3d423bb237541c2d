// DevA's excerpts of a large file the upstream role cites in many places (workspace/sectionBlocks.ts): every place's own
// lines are shown before any place's lines around it, so the last place cited is not crowded out by the context of
// the first ones (a commander trial: DA cited eight places in help.js, and the method it named as the one to change
// was left out); a place inside one cited before is no other place (session/citations.ts); and the methods DA's
// handoff names in code are shown where the file declares them, cited by line or not.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { packWorkspace } from '../../src/core/workspace/pack';
import type { RankQuery } from '../../src/core/workspace/rank';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { handoffNames, MAX_HANDOFF_NAMES, withCitations } from '../../src/core/session/citations';
import { tempDir } from '../helpers/cli';
import { putFile } from '../helpers/codebase';

describe('DevA’s excerpts of the places DA cites', () => {
  it('shows every cited place of a large file, the places before their surroundings', async () => {
    const root = tempDir('cape-excerpts-places-');
    // the work's words every 500th line; the six places DA points at hold none of them
    const places = [400, 1300, 2200, 3100, 4000, 4900];
    const lines = Array.from({ length: 6000 }, (_, i) =>
      i % 500 === 250 ? `  queue.flushQueue(${i});` : places.includes(i) ? `  this.on('place${i}', listener); // the place ${i}` : `  step(${i}); // keeps the order`,
    );
    putFile(root, 'src/queue.ts', `export function run() {\n${lines.join('\n')}\n}\n`);
    putFile(root, 'src/other.ts', 'export const other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const read = (rel: string) => fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');
    // DA's reply cites each place (its line in the file: one more than its index, after the function's first line)
    const reply = `{"handoff_notes_for_deva":[${places.map((p) => `"see src/queue.ts:${p + 2}-${p + 3}"`).join(',')}]}`;
    const daRead: RankQuery['read'] = { by: 'DA', files: withCitations([], reply) };
    const ctx = packWorkspace(index, { objective: 'flushQueue', read: daRead }, { step: 'deva', budget: 3400, readText: read });
    const shown = ctx.files.find((f) => f.path === 'src/queue.ts')?.excerpts ?? [];
    const has = (line: number) => shown.some((r) => r.start <= line && r.end >= line);
    assert.deepStrictEqual(
      places.filter((p) => !has(p + 2)),
      [],
      `every place cited is shown: ${JSON.stringify(shown)}`,
    );
  });

  it('counts a place inside one cited before as none', () => {
    const reply = '{"notes":["lib/help.js:382-402", "lib/help.js:387-388", "lib/help.js:385", "lib/help.js:212-215", "lib/help.js:212-215"]}';
    assert.deepStrictEqual(withCitations([], reply), [{ path: 'lib/help.js', cited: [[382, 402], [212, 215]] }]);
  });

  it("shows where a large file declares the methods DA's handoff names in code", async () => {
    const root = tempDir('cape-excerpts-named-');
    // the work's words every 200th line; the method DA names is declared once, far from them, under another name's words
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 2100 ? '  subcommandDescription(cmd) {' : i === 2101 ? '    return cmd.summary() || cmd.description();' : i % 200 === 50 ? `  helpText(${i}); // the help of a subcommand` : `  step(${i}); // keeps the order`,
    );
    putFile(root, 'lib/help.js', `class Help {\n${lines.join('\n')}\n}\n`);
    putFile(root, 'lib/other.js', 'exports.other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const read = (rel: string) => fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');
    const excerpts = (names?: string[]) =>
      packWorkspace(index, { objective: 'subcommand help', ...(names ? { read: { by: 'DA', files: [], names } } : {}) }, { step: 'deva', budget: 3400, readText: read })
        .files.find((f) => f.path === 'lib/help.js')?.excerpts ?? [];
    const has = (rs: { start: number; end: number }[], line: number) => rs.some((r) => r.start <= line && r.end >= line);
    assert.ok(!has(excerpts(), 2102), `not named: not shown ${JSON.stringify(excerpts())}`);
    const named = excerpts(handoffNames(['Apply it through `Help.subcommandDescription(cmd)`, nowhere else.']));
    assert.ok(has(named, 2102) && has(named, 2103), JSON.stringify(named));
  });

  it('reads the names of calls and members in the handoff notes’ code spans, each once, at most MAX_HANDOFF_NAMES', () => {
    assert.deepStrictEqual(
      handoffNames(['Mirror `.description(str)` in `Command`; read it with `cmd.summary()`.', 42, 'Through `Help.subcommandDescription(cmd)` and `.summary(str)`; not `x(`', 'plain summary(str) is prose']),
      ['description', 'summary', 'subcommandDescription'],
    );
    assert.deepStrictEqual(handoffNames('`a.b()`'), []);
    const many = [Array.from({ length: 20 }, (_, i) => `\`fn${i}Name()\``).join(' ')];
    assert.strictEqual(handoffNames(many).length, MAX_HANDOFF_NAMES);
  });
});

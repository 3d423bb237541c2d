// A space around a name in a path (`<file path=" src/a.ts">`) is refused by the one path rule (pathSafety's
// segmentRefusal), with the name meant, by every reader and writer of the model's paths: a <file> block, an <edit>
// block, read_file, list_files and search_files. Nothing is written to a folder " src".
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveEdits } from '../../src/core/edits/propose';
import { applyProposedFiles, proposeFiles } from '../../src/core/files/proposals';
import { ToolRunner } from '../../src/core/tools/executor';
import { extractFiles } from '../../src/core/reply/blocks';

const WHY = /^segment " src" starts with a space \(it would make a file or folder whose name begins with one\); write "src"$/;

describe('paths with a space around a name (pathSafety: one rule for every reader and writer)', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-spaces-'));
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('a <file path=" src/a.ts"> block is refused with the name meant, and nothing is written to a folder " src"', async () => {
    const scan = extractFiles('<file path=" src/a.ts">\nexport const a = 2;\n</file>\n');
    assert.ok(scan.ok);
    // the parser keeps the path as written: the rule is pathSafety's, not the parser's
    const blocks = scan.scan.files;
    assert.deepStrictEqual(
      blocks.map((b) => b.path),
      [' src/a.ts'],
    );
    const proposed = await proposeFiles(ws, blocks);
    assert.strictEqual(proposed[0].status, 'refused');
    assert.match(proposed[0].reason ?? '', WHY);
    const applied = await applyProposedFiles(proposed, { workspaceRoot: ws });
    assert.strictEqual(applied[0].status, 'refused');
    assert.deepStrictEqual(fs.readdirSync(ws), ['src']);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n');
  });

  it('an <edit path=" src/a.ts"> block is refused with the same reason', async () => {
    const [res] = await resolveEdits(ws, [{ path: ' src/a.ts', hunks: [{ search: ['export const a = 1;'], replace: ['export const a = 2;'] }] }]);
    assert.ok(!res.ok);
    assert.match(res.reason, WHY);
  });

  it('read_file, list_files and search_files refuse " src" with the same reason (not trimmed into src/ by one and refused by another)', async () => {
    let n = 0;
    const call = (name: string, input: unknown) => ({ id: `t${++n}`, name, input });
    const answers = await new ToolRunner({ workspace: ws }).execute([
      call('read_file', { path: ' src/a.ts' }),
      call('list_files', { path: ' src' }),
      call('search_files', { query: 'a', path: ' src/' }),
    ]);
    for (const a of answers) {
      assert.ok(a.isError, a.content);
      assert.match(a.content, /segment " src" starts with a space .*; write "src"/);
    }
    // the root is still the root however it is written
    const [root] = await new ToolRunner({ workspace: ws }).execute([call('list_files', { path: ' ./ ' })]);
    assert.ok(!root.isError && root.content.includes('src/a.ts'), root.content);
  });
});

// The re-export rule (src/core/workspace/reexports.ts): which modules an importer of a barrel counts toward — through
// chains and cycles of barrels, by the index's symbols behind a star, every star source when none tells — and, where
// nothing is re-exported, the import graph's importers unchanged.
import * as assert from 'assert';
import { importersByDefinition } from '../../src/core/workspace/reexports';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { tempDir, writeFiles } from '../helpers/cli';

describe('importers counted through re-exports (reexports.ts importersByDefinition)', function () {
  this.timeout(30000);

  /** The index of a workspace of these files, and its importers by the rule (sorted). */
  async function importersIn(files: Record<string, string>): Promise<{ index: WorkspaceIndex; importers: (rel: string) => string[] }> {
    const ws = tempDir('cape-reexports-');
    writeFiles(ws, files);
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const by = importersByDefinition(index);
    return { index, importers: (rel) => [...by(rel)].sort() };
  }

  it('follows a chain and a cycle of barrels to the defining module, by the symbols behind a star, else every star source', async () => {
    const { importers } = await importersIn({
      'src/index.ts': "export * from './lib';\nexport { parse } from './parse';\n",
      'src/lib/index.ts': "export * from './a';\nexport * from './b';\nexport * from '../index';\n",
      'src/lib/a.ts': 'export class Alpha {}\n',
      'src/lib/b.ts': 'export function beta() {}\n',
      'src/parse.ts': 'export function parse() {}\n',
      'src/use1.ts': "import { Alpha, parse } from './index';\nexport const one = 1;\n",
      'src/use2.ts': "import { beta } from '.';\nexport const two = 2;\n",
      'src/use3.ts': "import { Alpha } from './lib/a';\nexport const three = 3;\n",
      'src/more/index.ts': "export * from './c';\nexport * from './d';\n",
      'src/more/c.ts': 'export const C = 1;\n',
      'src/more/d.ts': 'export const D = 1;\n',
      // a name no symbol shows (an export the scanner does not read): every module a star brings
      'src/use4.ts': "import { unseen } from './more';\nexport const four = 4;\n",
    });
    const expected = {
      'src/lib/a.ts': ['src/use1.ts', 'src/use3.ts'],
      'src/lib/b.ts': ['src/use2.ts'],
      'src/parse.ts': ['src/use1.ts'],
      'src/more/c.ts': ['src/use4.ts'],
      'src/more/d.ts': ['src/use4.ts'],
      // the barrels: their importers took names others define, and a barrel re-exporting a module is no importer of it
      'src/index.ts': [],
      'src/lib/index.ts': [],
      'src/more/index.ts': [],
    };
    assert.deepStrictEqual(Object.fromEntries(Object.keys(expected).map((f) => [f, importers(f)])), expected);
  });

  it('gives every file the import graph\'s importers where nothing is re-exported', async () => {
    const { index, importers } = await importersIn({
      'src/models.ts': 'export class Item {}\n',
      'src/api.ts': "import { Item } from './models';\nexport function list(): Item[] { return []; }\n",
      'src/view.ts': "import * as models from './models';\nimport { list } from './api';\nexport function render() { return [models, list]; }\n",
      'app/util.py': 'def today():\n    pass\n',
      'app/core.py': 'from . import util\nfrom .util import today\n',
    });
    for (const rel of index.paths()) assert.deepStrictEqual(importers(rel), [...index.importersOf(rel)].sort(), rel);
    assert.deepStrictEqual(importers('app/util.py'), ['app/core.py']);
  });
});

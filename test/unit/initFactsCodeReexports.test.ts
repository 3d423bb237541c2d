// Init's code map (src/core/cape/initFactsCode.ts) counts a module's importers through re-exports
// (src/core/workspace/reexports.ts): the files importing a Python package's names, which its `__init__.py` takes from
// the module defining them, or a TypeScript barrel's (`index.ts` of `export … from`), count toward that module, so a
// package's central module is a core module although its importers name the package (a workspace without re-exports
// counts as the import graph does: initFactsCode.test.ts, reexports.test.ts).
import * as assert from 'assert';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { noSources } from '../../src/core/cape/initFactsText';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { tempDir, writeFiles } from '../helpers/cli';

/** The core modules' lines of the code map (no answers) of a workspace of these files. */
async function coreLines(files: Record<string, string>): Promise<string[]> {
  const ws = tempDir('cape-code-map-reexports-');
  writeFiles(ws, files);
  const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
  return codePart(codeLines(index, ''), noSources(), 4000)!.split('\n').slice(1);
}

/** The path and the count of each core module's line, in order. */
const counted = (lines: string[]): string[] => lines.filter((l) => l.includes('(imported by')).map((l) => `${l.split(' — ')[0]} ${/\(imported by (\d+)\)/.exec(l)![1]}`);

describe("init's code map: importers counted through re-exports", function () {
  this.timeout(30000);

  it("counts a Python package's importers toward the module its __init__ re-exports their names from", async () => {
    // the package's API is defined in core.py; every other module imports it from the package, in each form Python has
    const importing = {
      // its names from the package, absolutely (under TYPE_CHECKING too, over lines too)
      readers: 'from ledger import Ledger',
      writers: 'from ledger import Ledger, open_ledger',
      report: 'from typing import TYPE_CHECKING\nif TYPE_CHECKING:  # pragma: no cover\n    from ledger import Ledger',
      sync: 'from ledger import (\n    Ledger,\n)',
      // the package whole
      cli: 'import ledger\nfrom . import util',
      server: 'import ledger as lg',
      // its names from the package, relatively (the import graph resolves `from . import Ledger` to no file)
      audit: 'from . import Ledger\nfrom .util import today',
      'plugins/base': 'from .. import Ledger',
      'plugins/tax': 'from .. import Ledger as L\nfrom .base import Plugin',
      // and a module of a subpackage, absolutely
      'plugins/fx': 'from ledger import open_ledger\nfrom .base import Plugin',
    };
    const modules = Object.fromEntries(Object.entries(importing).map(([m, imports], i) => [`ledger/${m}.py`, `${imports}\n\ndef use${i}():\n    pass\n`]));
    modules['ledger/plugins/base.py'] += '\nclass Plugin:\n    pass\n';
    const lines = await coreLines({
      'pyproject.toml': '[project]\nname = "ledger"\n',
      'ledger/__init__.py': '"""The ledger package."""\nfrom .core import Ledger, open_ledger\nfrom .__meta__ import __version__\n\n__all__ = ["Ledger", "open_ledger"]\n',
      'ledger/__meta__.py': '__version__ = "1.0"\n\ndef version_tuple():\n    return (1, 0)\n',
      'ledger/core.py': 'from . import util\n\nclass Ledger:\n    def add(self, entry):\n        pass\n\ndef open_ledger(path):\n    return Ledger()\n',
      'ledger/util.py': 'def today():\n    pass\n',
      // a package with code of its own: its import is a use too
      'ledger/plugins/__init__.py': 'from ..util import today\n\ndef registered():\n    return today()\n',
      'tests/test_core.py': 'from ledger import Ledger\n\ndef test_add():\n    Ledger().add(1)\n',
      ...modules,
    });
    // every module but core.py names the package: all ten count toward core.py (the test does not, nor does the
    // package, which only re-exports); util.py's four importers are its own, the plugins' package among them;
    // __meta__.py is not in __all__, so `import ledger` does not reach it
    assert.deepStrictEqual(counted(lines), ['ledger/core.py 10', 'ledger/util.py 4', 'ledger/plugins/base.py 2'], lines.join('\n'));
    assert.strictEqual(lines[1], 'ledger/core.py — class Ledger, open_ledger(path), Ledger.add(entry) (imported by 10)', lines.join('\n'));
  });

  it("counts a TypeScript barrel's importers toward the modules defining the names they take, not toward the barrel", async () => {
    const lines = await coreLines({
      'package.json': '{"name":"shop"}\n',
      'src/model/index.ts': "export * from './cart';\nexport { formatPrice as price } from './money';\nexport * as taxes from './taxes';\n",
      'src/model/cart.ts': 'export class Cart {}\nexport function emptyCart(): Cart { return new Cart(); }\n',
      'src/model/money.ts': 'export function formatPrice(cents: number): string { return String(cents); }\n',
      'src/model/taxes.ts': 'export const VAT = 0.2;\n',
      'src/checkout.ts': "import { Cart, price } from './model';\nexport function checkout(c: Cart) { return price(1); }\n",
      'src/basket.ts': "import {\n  emptyCart,\n  // the cart's type too\n  type Cart,\n} from './model/index';\nexport function basket(): Cart { return emptyCart(); }\n",
      'src/invoice.ts': "import { price } from './model';\nexport function invoice() { return price(2); }\n",
      'src/admin.ts': "import * as model from './model';\nexport function admin() { return model.taxes.VAT; }\n",
      'src/api.ts': "import { taxes } from './model';\nexport function api() { return taxes.VAT; }\n",
    });
    // cart.ts: checkout, basket, admin (the barrel whole); money.ts: checkout, invoice, admin; taxes.ts: api, admin;
    // the barrel keeps admin alone
    assert.deepStrictEqual(counted(lines), ['src/model/cart.ts 3', 'src/model/money.ts 3', 'src/model/taxes.ts 2'], lines.join('\n'));
  });
});

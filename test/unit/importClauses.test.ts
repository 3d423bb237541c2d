// The import and re-export statements of a file with the names each takes (src/core/workspace/importClauses.ts; Python's
// in symbolsOther.ts, with a module's `__all__`), read in one pass over an adversarial text too.
import * as assert from 'assert';
import { importClauses, jsImportClauses } from '../../src/core/workspace/importClauses';
import { pythonAll, pythonImportClauses } from '../../src/core/workspace/symbolsOther';

/** `spec: name as alias, …` per statement (`*` for all names), kind first. */
const shown = (clauses: ReturnType<typeof jsImportClauses>): string[] =>
  clauses.map((c) => `${c.kind} ${c.spec}: ${c.names === null ? '*' : c.names.map((n) => (n.as === n.name ? n.name : `${n.name} as ${n.as}`)).join(', ')}`);

describe('import statements with their names (importClauses.ts)', () => {
  it("reads a TS/JS file's import and export … from statements, a brace list over lines as one", () => {
    const ts = [
      "import React, { useState as useS, type FC } from 'react';",
      "import * as path from 'path';",
      "import type { Options } from './options';",
      "import Default, * as all from './both';",
      "import {",
      '  alpha,',
      '  // the second one',
      '  beta as b,',
      "} from './greek';",
      "export * from './core';",
      "export * as helpers from './helpers';",
      "export { default as Button, 'odd-name' as odd } from './button';",
      "export type { Props } from './props';",
      "import './side-effect';",
      "import x = require('./legacy');",
      'export const local = 1;',
      'export { local as renamed };',
      "const lazy = await import('./lazy');",
    ].join('\n');
    assert.deepStrictEqual(shown(jsImportClauses(ts)), [
      'import react: default as React, useState as useS, FC',
      'import path: *',
      'import ./options: Options',
      'import ./both: *',
      'import ./greek: alpha, beta as b',
      'export ./core: *',
      'export ./helpers: * as helpers',
      'export ./button: default as Button, odd-name as odd',
      'export ./props: Props',
    ]);
    assert.deepStrictEqual(importClauses('src/a.go', "import { a } from './b'\n"), [], 'not TS/JS or Python');
  });

  it('reads each character once: unclosed brace lists, long runs of spaces and keywords', () => {
    const SPACES = ' '.repeat(100_000);
    assert.deepStrictEqual(jsImportClauses('import {\n'.repeat(100_000)), []);
    assert.deepStrictEqual(shown(jsImportClauses(`${'import {\n'.repeat(50_000)}}\nimport { a } from './a'\n`)), ['import ./a: a']);
    assert.deepStrictEqual(shown(jsImportClauses(`import {${SPACES}a${SPACES}as${SPACES}b${SPACES}} from${SPACES}'./x'\nimport a${SPACES}!\n`)), ['import ./x: a as b']);
    assert.deepStrictEqual(jsImportClauses(`${'import '.repeat(150_000)}\n${'export * as '.repeat(100_000)}\n`), []);
    assert.deepStrictEqual(pythonAll(`${'__all__ = [\n'.repeat(50_000)}`), null);
  });

  it("reads a Python file's statements: the package a relative `from` names, each name's submodule specifier, `*` and `import` as every name", () => {
    const py = 'from . import Widget, util as u\nfrom ..core import *\nfrom app.models import (\n    User,\n)\nimport app.db as db\n';
    const clauses = pythonImportClauses(py);
    assert.deepStrictEqual(shown(clauses), ['from py:./: Widget, util as u', 'from py:../core: *', 'from py:app/models: User', 'import py:app/db: *']);
    assert.deepStrictEqual(clauses[0].names!.map((n) => n.module), ['py:./Widget', 'py:./util']);
    assert.deepStrictEqual(pythonAll('__all__ = ["A", \'b\']\n__all__ += (\n    "C",\n)\n'), ['A', 'b', 'C']);
    assert.deepStrictEqual(pythonAll('__all__: list[str] = []\n'), []);
    assert.strictEqual(pythonAll('ALL = ["A"]\n'), null);
  });

  it('reads a Python file of many unclosed `from m import (` lines once each, within its bound, and the statements after them', () => {
    // each unclosed `(` was read to the end of the file: 20,000 such lines took minutes; now each reads 4,000 characters at most
    const py = `${'from a import (\n'.repeat(20_000)}from b import (\n    C,\n)\n`;
    const clauses = pythonImportClauses(py);
    // those within 4,000 characters of the last `)` read up to it, as one statement each
    assert.ok(clauses.length > 19_000 && clauses.length <= 20_001, String(clauses.length));
    assert.ok(clauses.every((c) => c.spec === 'py:a' || c.spec === 'py:b'));
    // a long list still reads whole within the bound
    const names = Array.from({ length: 300 }, (_, i) => `Name${i}`).join(',\n    ');
    assert.strictEqual(pythonImportClauses(`from m import (\n    ${names},\n)\n`)[0].names!.length, 300);
  });
});

// Init's workspace facts, the lint settings block of the manifests part (src/core/cape/initFactsLint.ts): the Python
// lint tools' sections of the root's tox.ini, setup.cfg and .flake8, one line each with its settings, within a bound.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { lintSettingsBlock } from '../../src/core/cape/initFactsLint';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';

describe("init: the facts give the Python lint tools' settings of the root's INI files", function () {
  this.timeout(20000);

  it("tox.ini's [flake8], setup.cfg's [isort] and .flake8's sections, each on a line; other sections are none of them", async () => {
    const ws = tempDir('cape-facts-lint-');
    putFile(ws, 'pyproject.toml', '[project]\nname = "calc"\n');
    putFile(ws, 'calc.py', 'def add(a, b):\n    return a + b\n');
    putFile(ws, 'tox.ini', '[tox]\nenvlist = py311\n\n[testenv]\ncommands = python -m unittest\n\n[flake8]\nmax-line-length = 119\n');
    putFile(ws, 'setup.cfg', '[metadata]\nname = calc\n\n[isort]\nprofile = black\n\n[tool:pytest]\ntestpaths = tests\n');
    putFile(ws, '.flake8', '[flake8]\nextend-ignore = E203\nexclude =\n    .git,\n    build\n');
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'Lint settings'),
      [
        "## Lint settings (the lint tools' sections of the root's INI files)",
        '- tox.ini [flake8]: max-line-length = 119',
        '- setup.cfg [isort]: profile = black',
        '- .flake8 [flake8]: extend-ignore = E203; exclude = .git, build',
      ].join('\n'),
    );
    assert.ok(facts.text.indexOf('## Lint settings') > facts.text.indexOf('## pyproject.toml'), 'in the manifests part, after the manifests');
    for (const file of ['tox.ini', 'setup.cfg', '.flake8']) assert.ok(facts.files.includes(file), file);
  });

  it('stays within its bound, counting the sections left out; none without a lint section', () => {
    const sections = ['flake8', 'pycodestyle', 'pydocstyle', 'isort', 'mypy', 'pylint'].map((s) => `[${s}]\nsetting = ${'x'.repeat(60)}\n`).join('\n');
    const read = (rel: string) => (rel === 'setup.cfg' || rel === 'tox.ini' ? sections : null);
    const lint = lintSettingsBlock(read, 400, { scale: 1 })!;
    assert.ok(lint.block.length <= 400, `${lint.block.length}`);
    assert.match(lint.block, /\n- … \d+ more lint sections$/);
    assert.deepStrictEqual(lint.files, ['tox.ini'], 'the files of the lines shown');
    assert.strictEqual(lintSettingsBlock((rel) => (rel === 'tox.ini' ? '[tox]\nenvlist = py311\n[flake8]\n' : null), 400, { scale: 1 }), null, 'a section without settings says nothing');
  });
});

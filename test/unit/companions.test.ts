// The companions of the files DevA is shown (core/workspace/companions.ts): a JavaScript file's type declarations, its
// type tests and the project's documentation get excerpts at the names the work touches, from the room the whole
// files leave, within their bound; a file shown already is no companion.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { COMPANION_CHARS, COMPANION_FILES, companionsOf, touchedNames } from '../../src/core/workspace/companions';
import { NO_CALLS } from '../../src/core/workspace/docCalls';
import { packWorkspace, type WorkspaceContext } from '../../src/core/workspace/pack';
import { workExcerptQuery } from '../../src/core/workspace/sectionBlocks';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { putFile } from '../helpers/codebase';

const read = (root: string) => (rel: string) => fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');

/** An option's methods, as the JavaScript class, its declarations and its type tests name them. */
const METHODS = ['default', 'preset', 'conflicts', 'env', 'argParser', 'makeOptionMandatory', 'hideHelp', 'choices', 'attributeName', 'isBoolean'];

/** A JavaScript class with its methods, each with a doc comment. */
function optionJs(): string {
  const out = ['class Option {', '  constructor(flags, description) {', '    this.flags = flags;', '    this.description = description || "";', '  }', ''];
  for (const m of METHODS) out.push('  /**', `   * Sets ${m} for the option.`, '   * @return {Option}', '   */', `  ${m}(value) {`, `    this._${m} = value;`, '    return this;', '  }', '');
  out.push('}', '', 'exports.Option = Option;', '');
  return out.join('\n');
}

/** A declaration file of many classes (larger than the budget), the option's among them, deep inside. */
function indexDts(): string {
  const out = ['// Type definitions for a command-line library', ''];
  for (let i = 0; i < 200; i++) {
    if (i === 120) {
      out.push('export class Option {', '  constructor(flags: string, description?: string);', '');
      for (const m of METHODS) out.push('  /**', `   * Sets ${m} for the option.`, '   */', `  ${m}(value?: unknown): this;`, '');
      out.push('}', '');
    }
    out.push(`export class Widget${i} {`, `  /** Draws widget ${i} on the screen, at its place. */`, `  draw${i}(x: number, y: number): void;`, `  resize${i}(width: number): this;`, '}', '');
  }
  return out.join('\n');
}

/** Type tests of those declarations, the option's among many others. */
function indexTestDts(): string {
  const out = ["import { expectType } from 'tsd';", "import * as lib from './index';", ''];
  for (let i = 0; i < 200; i++) {
    if (i === 90) {
      out.push('const baseOption = new lib.Option("-f, --foo");');
      for (const m of METHODS) out.push(`// ${m}`, `expectType<lib.Option>(baseOption.${m}());`, `expectType<lib.Option>(baseOption.${m}(true));`, '');
    }
    out.push(`// widget ${i}`, `expectType<void>(new lib.Widget${i}().draw${i}(1, 2));`, `expectType<lib.Widget${i}>(new lib.Widget${i}().resize${i}(3));`, '');
  }
  return out.join('\n');
}

/** A README whose paragraphs call the methods, among many of other matters. */
function readme(): string {
  const out = ['# cmdr', '', 'A library for command-line programs.', ''];
  for (let i = 0; i < 400; i++) {
    if (i === 270) out.push('## Hidden options', '', 'An option that is only for scripts can be left out of the help:', '', '```js', "program.addOption(new Option('-s, --secret').hideHelp());", '```', '');
    out.push(`## Widget ${i}`, '', `Widget ${i} draws itself where it is placed, and keeps its size when the terminal is resized.`, '');
  }
  return out.join('\n');
}

/** A large command class whose methods take options and write the help: ranked above the companions, and excerpted. */
function commandJs(): string {
  const out = ["const { Option } = require('./option.js');", '', 'class Command {'];
  for (let i = 0; i < 300; i++) {
    out.push(`  /** Adds option ${i} and shows it in the help, with its default value. */`, `  option${i}(flags, description, defaultValue) {`);
    out.push(`    const option = new Option(flags, description).default(defaultValue);`, `    this.options.push(option);`, `    return this.helpInformation(option);`, '  }', '');
  }
  out.push('}', '', 'exports.Command = Command;', '');
  return out.join('\n');
}

function workspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-companions-'));
  putFile(root, 'package.json', JSON.stringify({ name: 'cmdr', main: 'index.js', types: 'typings/index.d.ts' }, null, 2));
  putFile(root, 'index.js', "const { Option } = require('./lib/option.js');\nexports.Option = Option;\n");
  putFile(root, 'lib/option.js', optionJs());
  putFile(root, 'typings/index.d.ts', indexDts());
  putFile(root, 'typings/index.test-d.ts', indexTestDts());
  putFile(root, 'README.md', readme());
  putFile(root, 'docs/CHANGELOG.md', '# Changes\n\n## 1.2.0\n\n- `.hideHelp()` hides an option from the help.\n');
  putFile(root, 'lib/command.js', commandJs());
  putFile(root, 'lib/help.js', "// The help of a command: each option with its default value, unless it is hidden.\nclass Help {\n  optionDescription(option) {\n    return option.hidden ? '' : `${option.description} (default: ${option.defaultValue})`;\n  }\n}\nexports.Help = Help;\n");
  putFile(root, 'tests/option.hideHelp.test.js', "const { Option } = require('../lib/option.js');\ntest('hideHelp hides the option in the help', () => {\n  expect(new Option('-f').hideHelp().hidden).toBe(true);\n});\n");
  for (let i = 0; i < 12; i++) putFile(root, `lib/widget${i}.js`, `exports.draw${i} = function draw${i}(x, y) { return [x, y]; };\n`);
  return root;
}

const OBJECTIVE = "Add an option method that hides the option's default value in the help, as hide help hides the whole option";
const BUDGET = 20_000;

/** The 1-based line of `text` that holds `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

/** Whether the context shows `file` in excerpts whose ranges hold `line`. */
const excerptHolds = (ctx: WorkspaceContext, file: string, line: number) => !!ctx.files.find((f) => f.path === file)?.excerpts?.some((r) => r.start <= line && r.end >= line);

describe("DevA's excerpts of a shown file's companions", () => {
  it("shows a JavaScript file's declarations, type tests and docs at the sibling the work names", async () => {
    const root = workspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: OBJECTIVE }, { step: 'deva', budget: BUDGET, readText: read(root) });
    assert.ok(ctx.files.find((f) => f.path === 'lib/option.js')?.whole, JSON.stringify(ctx.files.slice(0, 6)));
    const dts = read(root)('typings/index.d.ts');
    assert.ok(dts.length > BUDGET, 'the declarations cannot go whole');
    assert.ok(excerptHolds(ctx, 'typings/index.d.ts', lineOf(dts, 'hideHelp(value?: unknown): this;')), JSON.stringify(ctx.files.filter((f) => f.excerpts)));
    assert.ok(excerptHolds(ctx, 'typings/index.test-d.ts', lineOf(read(root)('typings/index.test-d.ts'), 'baseOption.hideHelp()')));
    assert.ok(excerptHolds(ctx, 'README.md', lineOf(read(root)('README.md'), '.hideHelp()')));
    assert.ok(!ctx.files.find((f) => f.path === 'docs/CHANGELOG.md')?.excerpts, 'a changelog tells the names’ history, not their use');
    // each under a heading that says whose names it holds, its ranges the file's own lines
    assert.match(ctx.text, /\n### typings\/index\.d\.ts \(excerpts of \d+ lines; declares names of lib\/option\.js, [^)]+\)\nlines /);
    assert.match(ctx.text, /\n### typings\/index\.test-d\.ts \(excerpts of \d+ lines; type tests of names of lib\/option\.js, [^)]+\)\nlines /);
    assert.match(ctx.text, /\n### README\.md \(excerpts of \d+ lines; documents names of lib\/option\.js, [^)]+\)\nlines /);
    assert.match(ctx.text, /\nlines \d+–\d+ \(mentions hideHelp[^)]*\):\n```ts\n(.*\n)*  hideHelp\(value\?: unknown\): this;\n/);
    assert.ok(ctx.totalChars <= BUDGET && ctx.totalChars === ctx.text.length);
  });

  it('finds the names the work touches: those it names, and those a shown excerpt declares', () => {
    const text = optionJs();
    const named = touchedNames('lib/option.js', text, [], undefined, workExcerptQuery({ objective: OBJECTIVE }).terms, NO_CALLS);
    assert.deepStrictEqual([...named.keys()].sort(), ['Option', 'hideHelp'], 'all of its words said, or written whole');
    const at = lineOf(text, '  choices(value) {');
    const siblings = touchedNames('lib/option.js', text, [], [{ start: at - 9, end: at + 3 }], new Map(), NO_CALLS);
    assert.deepStrictEqual([...siblings], [['hideHelp', 0.5], ['choices', 0.5]], 'the members its ranges declare, weighing less');
  });

  it('gives nothing to a workspace whose shown files have no companion, or whose work touches none of their names', async () => {
    const root = workspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const untouched = packWorkspace(index, { objective: 'Draw the widgets faster on a slow terminal' }, { step: 'deva', budget: BUDGET, readText: read(root) });
    assert.doesNotMatch(untouched.text, /\n### \S+ \(excerpts of \d+ lines; (declares|type tests|documents) names of /);
    // a JavaScript file of no package and no declarations, no type test, no docs
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-companions-bare-'));
    putFile(bare, 'lib/option.js', optionJs());
    const { index: bareIndex } = await WorkspaceIndex.open(bare, { cacheFile: null });
    const shown = [{ path: 'lib/option.js', chars: 1, whole: true }];
    assert.deepStrictEqual(companionsOf(bareIndex, shown, read(bare), workExcerptQuery({ objective: OBJECTIVE }).terms, NO_CALLS), []);
  });

  it('pairs a file with the declarations and type tests of its own package, or of its own folder out of any', async () => {
    const terms = workExcerptQuery({ objective: OBJECTIVE }).terms;
    const companions = async (root: string, file: string) => {
      const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
      return companionsOf(index, [{ path: file, chars: 1, whole: true }], read(root), terms, NO_CALLS).map((c) => c.path);
    };
    const mono = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-companions-mono-'));
    putFile(mono, 'package.json', JSON.stringify({ name: 'mono', private: true }));
    putFile(mono, 'packages/a/package.json', JSON.stringify({ name: 'a', main: 'lib/index.js' }));
    putFile(mono, 'packages/a/lib/index.js', optionJs());
    putFile(mono, 'packages/a/index.d.ts', indexDts());
    putFile(mono, 'packages/b/package.json', JSON.stringify({ name: 'b', main: 'index.js' }));
    putFile(mono, 'packages/b/index.d.ts', indexDts());
    putFile(mono, 'packages/b/test/index.test-d.ts', indexTestDts());
    putFile(mono, 'docs/NEWS.md', '# News\n\n- `.hideHelp()` hides an option from the help.\n');
    putFile(mono, 'docs/options.md', "# Options\n\n`new Option('-s').hideHelp()` hides it.\n");
    assert.deepStrictEqual(await companions(mono, 'packages/a/lib/index.js'), ['packages/a/index.d.ts', 'docs/options.md'], 'not b’s, nor the news');
    // a file of the root's package pairs with no file of a package nested in it
    putFile(mono, 'index.js', optionJs());
    assert.deepStrictEqual(await companions(mono, 'index.js'), ['docs/options.md'], 'not packages/*/index.d.ts');
    // out of any package: the declarations under its own folder, not those of another folder
    const loose = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-companions-loose-'));
    putFile(loose, 'a/index.js', optionJs());
    putFile(loose, 'a/types/index.d.ts', indexDts());
    putFile(loose, 'b/index.d.ts', indexDts());
    assert.deepStrictEqual(await companions(loose, 'a/index.js'), ['a/types/index.d.ts']);
  });

  it('takes its room from what the whole files leave, within its bound, never past the budget; a shown file is no companion', async function () {
    this.timeout(60_000); // many budgets, each a full pack
    const root = workspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const q = { objective: OBJECTIVE };
    // the companions' texts without the work's names: nothing to excerpt there
    const blank = (rel: string) => (/typings|README/.test(rel) ? read(root)(rel).replace(/hideHelp|Option/g, 'other') : read(root)(rel));
    const whole = (ctx: WorkspaceContext) => ctx.files.filter((f) => f.whole).map((f) => f.path);
    let shown = 0;
    for (let budget = 1000; budget <= 30_000; budget += 997) {
      const ctx = packWorkspace(index, q, { step: 'deva', budget, readText: read(root) });
      assert.ok(ctx.totalChars <= budget, `budget ${budget}: ${ctx.totalChars}`);
      assert.deepStrictEqual(whole(ctx), whole(packWorkspace(index, q, { step: 'deva', budget, readText: blank })), `budget ${budget}`);
      const blocks = ctx.text.split(/\n\n(?=### )/).filter((b) => /^### \S+ \(excerpts of \d+ lines; (declares|type tests|documents) names of /.test(b));
      assert.ok(blocks.length <= COMPANION_FILES);
      assert.ok(blocks.reduce((n, b) => n + b.length + 2, 0) <= COMPANION_CHARS, `budget ${budget}`);
      if (blocks.length) shown++;
    }
    assert.ok(shown > 5, String(shown));
    // the declarations shown whole are no companion: the type tests and the docs still are
    const ctx = packWorkspace(index, q, { step: 'deva', budget: 80_000, readText: read(root) });
    assert.ok(ctx.files.find((f) => f.path === 'typings/index.d.ts')?.whole);
    assert.strictEqual(ctx.text.split('### typings/index.d.ts').length, 2, 'once');
  });
});

// Top-level symbols of tricky declarations (core/workspace/symbols.ts): what a map line names, and what the ranking
// counts as a symbol hit, must be the names the file declares — never a keyword, never nothing for a plain declaration.
import * as assert from 'assert';
import { jsMembers, scanFile, scanMembers } from '../../src/core/workspace/symbols';
import { templatesScanned } from '../../src/core/workspace/jsBodies';
import { declaredName } from '../../src/core/workspace/excerptLines';

describe('symbol extraction: tricky declarations', () => {
  it('an anonymous default class that extends or implements another names no symbol "extends" / "implements"', () => {
    const vue = ['<script lang="ts">', "import { Vue } from 'vue-property-decorator';", 'export default class extends Vue {', '  count = 0;', '}'].join('\n');
    assert.deepStrictEqual(scanFile('src/Counter.vue', vue).symbols, []);
    assert.deepStrictEqual(scanFile('src/a.ts', 'export default class implements Runnable {\n}\nexport class Named extends Base {}\n').symbols, ['Named']);
    // nor does an excerpt's heading say the line declares one
    assert.strictEqual(declaredName('export default class extends Vue {'), null);
    assert.strictEqual(declaredName('export default class implements Runnable {'), null);
    assert.strictEqual(declaredName('export default class Counter extends Vue {'), 'Counter');
  });

  it('a generator written `function *name` (the star against the name) is a symbol, like `function* name`', () => {
    const text = ['export function *watchSaga() {}', 'export default async function *stream() {}', 'function *local() {}', 'export function* other() {}', 'function * spaced() {}'].join('\n');
    assert.deepStrictEqual(scanFile('src/sagas.js', text).symbols, ['watchSaga', 'stream', 'other', 'local', 'spaced']);
  });

  it('a scoped enum (C++ `enum class`, `enum struct`; Kotlin `enum class`) names the enum, not the keyword after `enum`', () => {
    assert.deepStrictEqual(scanFile('src/color.hpp', 'enum class Color : int { Red };\nenum struct Mode { A };\nenum Plain { X };\nstruct Node {};\n').symbols, ['Color', 'Mode', 'Plain', 'Node']);
    assert.deepStrictEqual(scanFile('app/Status.kt', 'enum class Status { OK }\nclass Holder\n').symbols, ['Status', 'Holder']);
  });

  it("Kotlin's top-level functions (`fun`, with modifiers, type parameters or a receiver type) are symbols", () => {
    const text = [
      'package app.ui',
      '@Composable',
      'fun Greeting(name: String) {}',
      'private fun helper() = 1',
      'suspend fun load(): Data = TODO()',
      'inline fun <reified T> cast(x: Any): T = x as T',
      'fun String.slug(): String = lowercase()',
      'fun <T> List<T>.second(): T = this[1]',
      'internal fun Map<String, Int>?.total() = 0',
      'data class Data(val n: Int)',
    ].join('\n');
    assert.deepStrictEqual(scanFile('app/ui/Greeting.kt', text).symbols, ['Greeting', 'helper', 'load', 'cast', 'slug', 'second', 'total', 'Data']);
  });

  it("Scala's case classes and case objects are symbols", () => {
    const text = 'sealed trait Shape\ncase class Circle(r: Double) extends Shape\nfinal case class Square(s: Double) extends Shape\ncase object Empty extends Shape\n';
    assert.deepStrictEqual(scanFile('src/main/scala/Shape.scala', text).symbols, ['Shape', 'Circle', 'Square', 'Empty']);
  });

  it("a declaration file's ambient names (`declare namespace`, `declare const`/`var`/`let`) and a top-level namespace are symbols", () => {
    const text = [
      'declare namespace NodeJS {',
      '  interface ProcessEnv { API_URL: string }',
      '}',
      'declare const __VERSION__: string;',
      'declare var __DEV__: boolean;',
      'declare let current: number;',
      'declare const enum Level { Low }',
      "declare module '*.svg' {}",
      'declare module Legacy {}',
      'declare global {}',
      'namespace Internal {}',
      'const local = 1;',
    ].join('\n');
    assert.deepStrictEqual(scanFile('src/env.d.ts', text).symbols, ['NodeJS', '__VERSION__', '__DEV__', 'current', 'Level', 'Legacy', 'Internal']);
  });

  it('declarations behind C# and Rust modifiers (`partial`, `readonly`; `const fn`, `unsafe`, `extern "C"`) are symbols', () => {
    const cs = 'namespace App.Models;\npublic partial class Order {}\npublic sealed partial class Line {}\npublic readonly struct Money {}\ninternal static partial class Ext {}\n';
    assert.deepStrictEqual(scanFile('Models/Order.cs', cs).symbols, ['Order', 'Line', 'Money', 'Ext']);
    const rs = 'pub const fn max() {}\npub unsafe fn raw() {}\nunsafe trait Zeroed {}\npub extern "C" fn ffi() {}\npub async unsafe fn both() {}\nconst LIMIT: u8 = 1;\n';
    assert.deepStrictEqual(scanFile('src/raw.rs', rs).symbols, ['max', 'raw', 'ffi', 'both', 'Zeroed'], 'the `pub` ones first');
  });

  it("a block namespace's types (C#, C++), not their members; Go's and Rust's public constants and variables", () => {
    const cs = [
      'using System;',
      'namespace Acme.Billing',
      '{',
      '    public interface IInvoiceStore { }',
      '    public sealed class InvoiceService',
      '    {',
      '        public decimal Total(Invoice i) => 0;',
      '        private class Cache { }',
      '    }',
      '    internal enum State { Open }',
      '}',
    ].join('\n');
    assert.deepStrictEqual(scanFile('src/Billing/InvoiceService.cs', cs).symbols, ['IInvoiceStore', 'InvoiceService', 'State']);
    const cpp = 'namespace acme {\n\nclass Parser {\n  int depth;\n};\n\nstruct Token {};\n}\n';
    assert.deepStrictEqual(scanFile('src/parser.hpp', cpp).symbols, ['Parser', 'Token']);
    const go = [
      'package chi',
      'const Version = "5"',
      'const local = 1',
      'var ErrNotFound = errors.New("not found")',
      'var (',
      '\tErrTimeout = errors.New("timeout")',
      '\tdefaultMux *Mux',
      '\tMaxDepth, MinDepth = 8, 1',
      ')',
      'func NewMux() *Mux { return nil }',
    ].join('\n');
    assert.deepStrictEqual(scanFile('mux.go', go).symbols, ['Version', 'ErrNotFound', 'ErrTimeout', 'MaxDepth', 'NewMux']);
    const rs = 'pub const MAX_LEN: usize = 8;\npub(crate) static mut COUNT: u32 = 0;\nconst PRIVATE: u8 = 1;\npub const fn new() {}\n';
    assert.deepStrictEqual(scanFile('src/lib.rs', rs).symbols, ['MAX_LEN', 'new', 'COUNT'], 'the `pub` ones first');
  });

  it("lists a file's public symbols first where the language says which are (Go: capitalised; Python: no underscore; Rust: `pub`)", () => {
    // a Go file whose unexported helpers come first: the map line's twelve names went to them, the API was cut
    const helpers = Array.from({ length: 12 }, (_, i) => `func helper${i}() {}`);
    const go = ['package mux', ...helpers, 'type routeConf struct {}', 'type Router struct {}', 'func (r *Router) HandleFunc() {}', 'func (r *routeRegexp) Match() bool { return false }', 'func Vars() {}', 'var ErrNotFound = errors.New("x")'].join('\n');
    const symbols = scanFile('mux.go', go).symbols;
    assert.deepStrictEqual(symbols.slice(0, 4), ['Router', 'Router.HandleFunc', 'Vars', 'ErrNotFound'], symbols.join(', '));
    assert.deepStrictEqual(symbols.slice(4, 6), ['helper0', 'helper1'], 'the others after them, in file order');
    assert.ok(symbols.includes('routeConf') && symbols.indexOf('routeRegexp.Match') > symbols.indexOf('Vars'), "a method of an unexported type is not the package's API");
    const py = 'def _cache():\n    pass\nclass _Base:\n    pass\nclass Store(_Base):\n    pass\ndef main():\n    pass\n';
    assert.deepStrictEqual(scanFile('app/store.py', py).symbols, ['Store', 'main', '_cache', '_Base']);
    const rs = 'fn helper() {}\npub(crate) struct Node;\npub fn parse() {}\npub struct Tree;\n';
    assert.deepStrictEqual(scanFile('src/tree.rs', rs).symbols, ['parse', 'Tree', 'helper', 'Node']);
    // C, whose names say nothing of it: file order
    assert.deepStrictEqual(scanFile('src/x.c', 'struct b {};\nstruct A {};\n').symbols, ['b', 'A']);
  });

  it('counts the names the language calls internal, the last ones (none where it does not tell)', () => {
    const internal = (rel: string, text: string) => scanFile(rel, text).internal;
    const go = 'package mux\nfunc helper() {}\ntype routeRegexp struct {}\nfunc (r *routeRegexp) Match() {}\nfunc Vars() {}\n';
    assert.strictEqual(internal('mux.go', go), 3, "helper, routeRegexp and its Match: not the package's API");
    assert.strictEqual(internal('app/store.py', 'def _cache():\n    pass\nclass Store:\n    pass\n'), 1);
    assert.strictEqual(internal('src/tree.rs', 'fn helper() {}\npub(crate) struct Node;\npub fn parse() {}\n'), 2);
    // TS/JS: the top-level names not exported, once each (a name exported by a list is not internal)
    assert.strictEqual(internal('src/a.ts', 'export function load() {}\nexport { helper as run, other };\nfunction helper() {}\nfunction other() {}\n'), 1);
    assert.strictEqual(internal('src/b.ts', 'export interface Item {}\nexport class ItemStore {}\n'), 0);
    // a script exports nothing: its top-level names are what it offers
    assert.strictEqual(internal('public/app.js', 'function start() {}\nfunction stop() {}\n'), 0);
    assert.strictEqual(internal('src/X.java', 'class b {}\nclass A {}\n'), 0);
    // C tells: a source file's own types and static functions are internal, a header's names are not (symbolsC.ts)
    assert.strictEqual(internal('src/x.c', 'struct b {};\nstruct A {};\nstatic int f(void) { return 0; }\nint g(void) { return 1; }\n'), 3);
    assert.strictEqual(internal('src/x.h', 'struct b {};\nint g(void);\n'), 0);
    assert.strictEqual(internal('src/site.css', '.btn {}\n'), 0);
  });
});

describe('Go imports (symbolsOther.ts goImports; resolved by importGraph.ts)', () => {
  it('reads single imports, named ones and the lines of an import group', () => {
    const go = ['package main', '', 'import "fmt"', 'import j "encoding/json"', 'import (', '\t"os"', '\tst "example.com/app/store" // the store', '\t_ "embed"', '\t. "example.com/app/dsl"', ')', 'func main() {}'].join('\n');
    assert.deepStrictEqual(scanFile('cmd/main.go', go).imports, ['go:fmt', 'go:encoding/json', 'go:os', 'go:example.com/app/store', 'go:embed', 'go:example.com/app/dsl']);
    assert.deepStrictEqual(scanFile('src/a.ts', 'import "fmt"\n').imports, ['fmt'], 'TypeScript reads its own way');
    const commented = 'package a\n\nimport (\n\t"fmt" // fmt.Println()\n\t"example.com/app/store"\n)\n';
    assert.deepStrictEqual(scanFile('a.go', commented).imports, ['go:fmt', 'go:example.com/app/store'], 'a ) in a comment ends no group');
  });
});

describe("Python imports (symbolsOther.ts pythonImports; resolved by importGraph.ts)", () => {
  it('names relative imports from the file\'s folder, absolute ones as module paths, and the names a `from` imports as possible submodules', () => {
    const py = [
      'from __future__ import annotations',
      'import os, app.db as db',
      'from . import views, models as m',
      'from .utils import (',
      '    slugify,',
      '    Timer,',
      ')',
      'from ..core.config import Settings  # a comment',
      'from app.services import mail',
      'def f():',
      '    from .lazy import thing',
    ].join('\n');
    assert.deepStrictEqual(scanFile('src/app/web/routes.py', py).imports, [
      'py:./views',
      'py:./models',
      'py:./utils',
      'py:./utils/slugify',
      'py:./utils/Timer',
      'py:../core/config',
      'py:../core/config/Settings',
      'py:app/services',
      'py:app/services/mail',
      'py:./lazy',
      'py:./lazy/thing',
      'py:os',
      'py:app/db',
    ]);
    assert.deepStrictEqual(scanFile('src/app/a.ts', 'from . import x\n').imports, [], 'not Python');
  });
});

describe('symbol extraction: a long run of spaces or keywords on a line', () => {
  // a workspace file (up to 1 MB) is untrusted: a long run of spaces or of keywords on one line once made a regexp
  // try every split of it (8–73 s at these sizes); each answer below comes in one pass
  const SPACES = ' '.repeat(100_000);

  it('reads a class or object member line with a long run of spaces inside', () => {
    assert.deepStrictEqual(scanMembers('a.ts', `class A {\n  a${SPACES}x\n  b${SPACES}?: string;\n}\n`), ['b']);
    assert.deepStrictEqual(scanMembers('a.ts', `class A {\n  readonly${SPACES}x\n  static${SPACES}*gen() {}\n}\n`), ['gen']);
    assert.deepStrictEqual(scanMembers('a.ts', `const a = {\n  get${SPACES}!\n  async${SPACES}load() {},\n}\n`), ['load']);
  });

  it('reads an object literal opening with a long run of spaces inside', () => {
    assert.deepStrictEqual(scanMembers('a.ts', `const a:${SPACES}x {\n  b: 1\n}\n`), []);
    assert.deepStrictEqual(scanMembers('a.ts', `const a${SPACES}: T${SPACES}= {\n  b: 1\n}\n`), ['b']);
  });

  it('reads an export line with a long run of spaces inside', () => {
    assert.deepStrictEqual(scanFile('a.ts', `export {a${SPACES}!}\nexport { b${SPACES}as${SPACES}c }\n`).symbols, ['c']);
    assert.deepStrictEqual(scanFile('a.ts', `export default a${SPACES}x\nexport default b${SPACES};${SPACES}\n`).symbols, ['b']);
    assert.deepStrictEqual(scanFile('a.js', `module.exports = {${SPACES}a${SPACES}as b }\n`).symbols, ['b']);
  });

  it('reads the imports of a 1 MB line of `import` keywords', () => {
    const keywords = 'import '.repeat(150_000);
    assert.deepStrictEqual(scanFile('a.ts', `${keywords}\n`).imports, []);
    assert.deepStrictEqual(scanFile('a.ts', `${keywords}from${SPACES}'./x'; import '${'y'.repeat(100_000)}\n`).imports, ['./x']);
    assert.deepStrictEqual(scanFile('a.ts', `${keywords}from './x' export * from "./y" ${'require('.repeat(100_000)}'./z')\n`).imports, ['./x', './y', './z']);
  });

  it('reads a 200k-character line of `/` that may start a regular expression, each after an unclosed `[`, about once', () => {
    // each `/` after `=` may open a regular expression, and its `[` is never closed: read as one, each searched the
    // line to its end (counted as characters scanned by jsBodies.ts openTemplates, never timed)
    const hostile = 'x=/['.repeat(50_000);
    const ts = `class A {\n  a = ${hostile}\n  b(): void {}\n  c = \`\n  fake() {\n\`;\n  d = 1;\n}\n`;
    const names: string[] = [];
    const before = templatesScanned.chars;
    jsMembers(ts, (m) => names.push(m.name));
    const scanned = templatesScanned.chars - before;
    assert.deepStrictEqual(names, ['a', 'b', 'c', 'd']);
    assert.ok(scanned <= 2 * ts.length, `${scanned} characters scanned for a text of ${ts.length}`);
  });

  it('reads Python imports with a long run of spaces inside', () => {
    assert.deepStrictEqual(scanFile('a.py', `from${SPACES}x\nfrom .${SPACES}import${SPACES}a${SPACES}as${SPACES}b\n`).imports, ['py:./a']);
    assert.deepStrictEqual(scanFile('a.py', `import a${SPACES}as${SPACES}b, c\n`).imports, ['py:a', 'py:c']);
  });
});

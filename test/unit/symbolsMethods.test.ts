// Methods in the symbol lists, named with their type (core/workspace/symbolsOther.ts for Go, symbolsRust.ts for Rust's
// impl blocks, symbolNames.ts for the `Type.method` format): a map line tells `Router.HandleFunc` from a function
// `HandleFunc` and from route.go's `Route.Name`, public first where the language says; the ranking still finds a
// method by its own name.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { scanFile } from '../../src/core/workspace/symbols';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { rankFiles } from '../../src/core/workspace/rank';
import { tempDir } from '../helpers/cli';

/** The file's symbols: the public ones, then the internal ones. */
function split(rel: string, text: string): { pub: string[]; internal: string[] } {
  const { symbols, internal } = scanFile(rel, text);
  return { pub: symbols.slice(0, symbols.length - internal), internal: symbols.slice(symbols.length - internal) };
}

describe('symbol extraction: Go methods named with their receiver type', () => {
  it('names a method `Type.Method` whatever the receiver form (pointer, value, generic, unnamed)', () => {
    const go = [
      'package mux',
      'func (r *Router) HandleFunc(path string) *Route { return nil }',
      'func (r Route) GetName() string { return "" }',
      'func (l *List[T]) Len() int { return 0 }',
      'func (m Map[K, V]) Keys() []K { return nil }',
      'func (*Router) ServeHTTP() {}',
      'func (Route) String() string { return "" }',
      'func (r * Spaced) Odd() {}',
      'func HandleFunc() {}',
    ].join('\n');
    assert.deepStrictEqual(scanFile('mux.go', go).symbols, [
      'Router.HandleFunc',
      'Route.GetName',
      'List.Len',
      'Map.Keys',
      'Router.ServeHTTP',
      'Route.String',
      'Spaced.Odd',
      'HandleFunc',
    ]);
  });

  it('keeps a method public only when its name and its receiver type are exported', () => {
    const go = 'package mux\nfunc (r *routeRegexp) Match() bool { return false }\nfunc (r *Router) match() {}\nfunc (r *Router) Name() {}\nfunc Vars() {}\n';
    assert.deepStrictEqual(split('regexp.go', go), { pub: ['Router.Name', 'Vars'], internal: ['routeRegexp.Match', 'Router.match'] });
  });
});

describe('symbol extraction: Rust methods of impl blocks', () => {
  it('names the `pub` methods of an inherent impl `Type.method`, its other methods internal; the impl line names no trait', () => {
    const rs = [
      'use std::fmt;',
      'pub struct Version {',
      '    pub major: u64,',
      '}',
      '',
      'impl Version {',
      '    /// Parses a version.',
      '    pub fn parse(text: &str) -> Result<Self, Error> {',
      '        if text.is_empty() {',
      '            fn nested() {}',
      '            return Err(Error::Empty);',
      '        }',
      '        let s = format!("{}", text);',
      '        Ok(Version { major: 0 })',
      '    }',
      '',
      '    pub(crate) fn check(&self) -> bool {',
      '        true',
      '    }',
      '',
      '    pub const fn new(major: u64) -> Self {',
      '        Version { major }',
      '    }',
      '    fn helper(&self) {}',
      '}',
      '',
      'impl fmt::Display for Version {',
      '    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {',
      '        write!(f, "{}", self.major)',
      '    }',
      '}',
      '',
      'impl Eq for Version {}',
      'pub fn parse_all() {}',
    ].join('\n');
    assert.deepStrictEqual(split('src/lib.rs', rs), {
      pub: ['Version', 'Version.parse', 'Version.new', 'parse_all'],
      // a trait impl's methods are the trait's API (`fmt` of `Display`), not the crate's: named, as internal
      internal: ['Version.check', 'Version.helper', 'Version.fmt'],
    });
  });

  it('reads generic impls (`impl<T> Foo<T>`, nested brackets, `where` on the next lines) and a type the file does not declare', () => {
    const rs = [
      'pub struct Wrapper<T> { inner: T }',
      'struct Inner;',
      'impl<T: Into<Vec<u8>>> Wrapper<T> {',
      '    pub fn get(&self) -> &T { &self.inner }',
      '}',
      "impl<'a, T> From<&'a T> for Wrapper<T>",
      'where',
      '    T: Clone,',
      '{',
      '    fn from(t: &T) -> Self { Wrapper { inner: t.clone() } }',
      '}',
      'impl Inner {',
      '    pub fn touch(&self) {}',
      '}',
      'impl crate::error::Error {',
      '    pub async fn report(&self) {}',
      '}',
      'impl<F: Fn() -> u8> Runner<F> {',
      '    pub fn run(&self) {}',
      '}',
      'impl<T: fmt::Display> Show for T {',
      '    fn show(&self) {}',
      '}',
    ].join('\n');
    assert.deepStrictEqual(split('src/wrap.rs', rs), {
      // Error and Runner are declared elsewhere: the method's own `pub` says
      pub: ['Wrapper', 'Wrapper.get', 'Error.report', 'Runner.run'],
      // Inner is not `pub`: its `pub fn` is no API of the crate; `impl … for T` (a blanket impl) is of no type
      internal: ['Inner', 'Wrapper.from', 'Inner.touch'],
    });
  });
});

describe('ranking: a method named with its type is still found by its own name', () => {
  async function goIndex(): Promise<WorkspaceIndex> {
    const ws = tempDir('cape-go-methods-');
    const put = (rel: string, text: string) => fs.writeFileSync(path.join(ws, rel), text);
    put('go.mod', 'module example.com/mux\n\ngo 1.20\n');
    put('mux.go', 'package mux\n\ntype Router struct{}\n\nfunc (r *Router) HandleFunc(path string) {}\n');
    put('regexp.go', 'package mux\n\ntype routeRegexp struct{}\n\nfunc (r *routeRegexp) Match(host string) bool { return false }\n');
    put('doc.go', '// Package mux routes requests to handlers.\npackage mux\n');
    return (await WorkspaceIndex.open(ws, { cacheFile: null })).index;
  }

  it('indexes `Router.HandleFunc` under the words `handlefunc` and `router`, the symbols a query word meets', async () => {
    const index = await goIndex();
    assert.deepStrictEqual(index.get('mux.go')!.symbols, ['Router', 'Router.HandleFunc']);
    const best = [...index.textScores('handlefunc')].sort((a, b) => b[1] - a[1]);
    assert.strictEqual(best[0]?.[0], 'mux.go', JSON.stringify(best));
  });

  it("counts a method named in the request as the file's symbol (its own name, not its type's)", async () => {
    const index = await goIndex();
    const score = (objective: string) => rankFiles(index, { objective }).find((r) => r.path === 'regexp.go')?.score ?? 0;
    // the same words but the written name: only the symbol hit differs
    assert.ok(score('Match fails on hosts with a port') > score('match fails on hosts with a port'), 'Match is a symbol of regexp.go');
  });
});

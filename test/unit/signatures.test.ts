// Signatures of a file's declarations (src/core/workspace/signatures.ts, signaturesOther.ts, signatureDecls.ts,
// signatureText.ts): per language, keyed by the symbols scanFile gives (`Type.method` for Go's and Rust's methods),
// parameters joined over lines, own type parameters and Rust's lifetimes dropped, defaults with commas and
// parentheses kept whole, public fields only, and every signature within SIGNATURE_CHARS — on hostile text too.
import * as assert from 'assert';
import { signaturesOf } from '../../src/core/workspace/signatures';
import { SIGNATURE_CHARS } from '../../src/core/workspace/signatureText';
import { scanFile } from '../../src/core/workspace/symbols';

/** The file's signatures as an object, symbol → signature. */
const sigs = (rel: string, text: string): Record<string, string> => Object.fromEntries(signaturesOf(rel, text));

describe('signatures: TS/JS', () => {
  it('gives functions their parameters and return type, multi-line lists joined, own type parameters and comments dropped', () => {
    const ts = [
      'export function parse(text: string, opts?: Options): Version {',
      '  return new Version(text);',
      '}',
      'export async function load<T extends object = {}>(',
      '  path: string, // where it is (read once)',
      "  sep = ',', /* a default with a comma */",
      '  retry = backoff(1, 2),',
      '): Promise<Map<string, T>> {',
      '}',
      'function local(a: number): { ok: boolean } {}',
      'export { local };',
    ].join('\n');
    assert.deepStrictEqual(sigs('src/semver.ts', ts), {
      parse: 'parse(text: string, opts?: Options): Version',
      load: "load(path: string, sep = ',', retry = backoff(1, 2)): Promise<Map<string, T>>",
      local: 'local(a: number): { ok: boolean }',
    });
  });

  it('gives classes their heritage, interfaces and object types their member names, enums their members, arrow constants their parameters', () => {
    const ts = [
      'export default class Range<T> extends Base<T> implements Api {',
      '  private set = 1;',
      '}',
      'export interface Options extends Shared<X> {',
      '  loose?: boolean;',
      '  readonly includePrerelease?: boolean;',
      '  compare(a: string): number;',
      '  [key: string]: unknown;',
      '}',
      'export type Flags = { a: string; b?: number, c(): void };',
      "export type Op =\n  | 'eq'\n  | 'gt';",
      "export const enum Color { Red = 'red', Green }",
      'export const add = (a, b) => a + b;',
      'export const id = async <T,>(x: T): Promise<T> => x;',
      "export const named = function inner(a = ')', b = f(1, 2)) { return a; };",
      'export const one = x => x;',
      'export const made = make(1, 2);',
      'export const conf: Config = { a: 1 };',
      'export const plain = 3;',
    ].join('\n');
    assert.deepStrictEqual(sigs('lib/index.ts', ts), {
      Range: 'class Range extends Base implements Api',
      Options: 'Options extends Shared { loose?, includePrerelease?, compare() }',
      Flags: 'Flags { a, b?, c() }',
      Op: "type Op = 'eq' | 'gt'",
      Color: 'enum Color { Red, Green }',
      add: 'add(a, b)',
      id: 'id(x: T): Promise<T>',
      named: "named(a = ')', b = f(1, 2))",
      one: 'one(x)',
      conf: 'conf: Config',
    });
  });
});

describe('signatures: Rust', () => {
  const lib = [
    'pub struct Version {',
    '    /// The major number.',
    '    pub major: u64,',
    '    pub minor: u64,',
    '    #[serde(skip)]',
    '    pub pre: Prerelease,',
    '    cache: HashMap<String, u64>,',
    '    pub(crate) raw: String,',
    '}',
    'pub struct Prerelease {',
    '    identifier: Identifier,',
    '}',
    'pub struct Wrapper<\'a>(pub &\'a str);',
    'pub struct Unit;',
    '#[non_exhaustive]',
    'pub enum Op {',
    '    Exact,',
    '    /// doc',
    '    Greater = 2,',
    '    Range { from: u64, to: u64 },',
    '}',
    'pub trait Show {',
    '    fn show(&self) -> String;',
    '    fn twice(&self) -> String {',
    '        self.show()',
    '    }',
    '}',
    'pub type Result<T> = std::result::Result<T, Error>;',
    'pub const MAX_LEN: usize = 64;',
    'impl Version {',
    '    pub fn matches_all(',
    '        &self,',
    '        requirements: &[VersionReq], // each in turn',
    '    ) -> Vec<bool> {',
    '        Vec::new()',
    '    }',
    "    pub fn parse<'a, S: AsRef<str>>(text: &'a S) -> Result<Cow<'a, str>, Error>",
    '    where',
    '        S: Debug,',
    '    {',
    '    }',
    '}',
    'impl fmt::Display for Version {',
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {}",
    '}',
    'fn helper() {}',
  ].join('\n');

  it('names methods `Type.method` with their parameters over lines (trailing comma gone), drops generics, lifetimes and where clauses', () => {
    const s = sigs('src/lib.rs', lib);
    assert.strictEqual(s['Version.matches_all'], 'Version.matches_all(&self, requirements: &[VersionReq]) -> Vec<bool>');
    assert.strictEqual(s['Version.parse'], 'Version.parse(text: &S) -> Result<Cow<str>, Error>');
    assert.strictEqual(s['Version.fmt'], 'Version.fmt(&self, f: &mut fmt::Formatter) -> fmt::Result');
    assert.strictEqual(s.helper, 'helper()');
    // every method a signature has is one scanFile names
    for (const symbol of Object.keys(s)) assert.ok(scanFile('src/lib.rs', lib).symbols.includes(symbol), symbol);
  });

  it('gives a struct its public fields only (`..` for private ones), enums their variants, traits their methods, aliases and constants their types', () => {
    const s = sigs('src/lib.rs', lib);
    assert.strictEqual(s.Version, 'struct Version { major, minor, pre, .. }');
    assert.strictEqual(s.Prerelease, 'struct Prerelease { .. }');
    assert.strictEqual(s.Wrapper, 'struct Wrapper(&str)');
    assert.strictEqual(s.Unit, 'struct Unit');
    assert.strictEqual(s.Op, 'enum Op { Exact, Greater, Range }');
    assert.strictEqual(s.Show, 'trait Show { show, twice }');
    assert.strictEqual(s.Result, 'type Result = std::result::Result<T, Error>');
    assert.strictEqual(s.MAX_LEN, 'MAX_LEN: usize');
  });
});

describe('signatures: Go and Python', () => {
  it('Go: methods as `Type.Method` over lines, type parameters dropped, structs and interfaces with their exported members', () => {
    const go = [
      'package mux',
      'type Router struct {',
      '\t// NotFoundHandler is called when no route matches.',
      '\tNotFoundHandler http.Handler',
      '\troutes []*Route',
      '\tA, b, C int `json:"a,omitempty"`',
      '\t*http.Server',
      '}',
      'type Handler interface {',
      '\tServeHTTP(ResponseWriter, *Request)',
      '\tio.Reader',
      '\tprivate()',
      '}',
      'type HandlerFunc func(http.ResponseWriter, *http.Request)',
      'func (r *Router) HandleFunc(path string, f func(http.ResponseWriter,',
      '\t*http.Request)) *Route {',
      '}',
      'func Map[T any, U any](xs []T, f func(T) U) []U {}',
      'func Decode() (map[string]interface{}, error) {}',
    ].join('\n');
    assert.deepStrictEqual(sigs('mux.go', go), {
      Router: 'struct Router { NotFoundHandler, A, C, Server }',
      Handler: 'interface Handler { ServeHTTP, Reader }',
      HandlerFunc: 'type HandlerFunc func(http.ResponseWriter, *http.Request)',
      'Router.HandleFunc': 'Router.HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route',
      Map: 'Map(xs []T, f func(T) U) []U',
      Decode: 'Decode() (map[string]interface{}, error)',
    });
  });

  it('Python: keyword-only markers and defaults with commas, parentheses and quotes kept, classes with their bases and annotated public fields', () => {
    const py = [
      'def parse(text: str, *, strict: bool = False) -> Version:',
      '    pass',
      'async def fetch(url, opts=dict(a=1, b=(2, 3)), sep: str = ")"):',
      '    pass',
      'def multi(',
      '    a: int,',
      '    b: str = "x,y",  # a comment (with a parenthesis',
      ') -> Dict[str, int]:',
      '    pass',
      '@dataclass',
      'class User(BaseModel, metaclass=Meta):',
      '    """A user.',
      '',
      '    Note: not a field',
      '    """',
      '    id: int',
      '    name: str = ""',
      '    _secret: str',
      '',
      '    def method(self):',
      '        local: int = 1',
      'class Plain:',
      '    pass',
    ].join('\n');
    assert.deepStrictEqual(sigs('app/models.py', py), {
      parse: 'parse(text: str, *, strict: bool = False) -> Version',
      fetch: 'fetch(url, opts=dict(a=1, b=(2, 3)), sep: str = ")")',
      multi: 'multi(a: int, b: str = "x,y") -> Dict[str, int]',
      User: 'class User(BaseModel, metaclass=Meta) { id, name }',
      Plain: 'class Plain',
    });
  });

  it('gives other languages none: their map shows names alone', () => {
    assert.deepStrictEqual(sigs('src/App.java', 'public class App {\n  public static void main(String[] args) {}\n}\n'), {});
  });
});

describe('signatures: bounds and hostile text', () => {
  it('cuts a long signature inside its brackets with `…`, after its last whole parameter, keeping the return type', () => {
    const params = Array.from({ length: 12 }, (_, i) => `parameter${i}: number`).join(', ');
    const s = sigs('a.ts', `export function long(${params}): Promise<void> {}\nexport interface Wide { ${Array.from({ length: 30 }, (_, i) => `field${i}: string;`).join(' ')} }\n`);
    assert.ok(s.long.length <= SIGNATURE_CHARS, s.long);
    assert.match(s.long, /^long\(parameter0: number, .*parameter\d+: number, …\): Promise<void>$/);
    assert.ok(s.Wide.length <= SIGNATURE_CHARS && /^Wide \{ field0, field1, .*, … \}$/.test(s.Wide), s.Wide);
  });

  it('reads an unbalanced parenthesis on its line only, a minified line and a huge or unclosed text within the bound, never throwing', () => {
    const unbalanced = sigs('a.ts', 'export function broken(a: string, b: (number\nexport function next(c: string) {}\n');
    assert.strictEqual(unbalanced.broken, 'broken(a: string, b: (number, …)');
    assert.strictEqual(unbalanced.next, 'next(c: string)');
    const minified = sigs('dist/app.min.js', 'export function a(b,c){return b(c)}export function d(){}' + 'x(y,{z:[1,2]});'.repeat(20000));
    assert.strictEqual(minified.a, 'a(b,c)');
    const hostile: Record<string, string> = {
      'parens.ts': 'export function deep' + '('.repeat(200000),
      'angles.rs': 'pub fn f' + '<'.repeat(200000),
      'comment.go': 'func F(/*' + '*'.repeat(200000),
      'string.py': 'def f(a="' + 'x'.repeat(200000) + '"):\n',
      'fields.rs': 'pub struct S {\n' + '    pub a: u8,\n'.repeat(20000),
      'quotes.go': 'type S struct {\n' + '`'.repeat(100000) + '\n',
    };
    for (const [rel, text] of Object.entries(hostile)) {
      const found = signaturesOf(rel, text);
      // type parameters that never close leave no parameter list to read: the name alone
      assert.strictEqual(found.size, rel === 'angles.rs' ? 0 : 1, rel);
      for (const signature of found.values()) assert.ok(signature.length <= SIGNATURE_CHARS, `${rel}: ${signature.length}`);
    }
  });

  it('reads only the symbols asked for, each once: the first declaration of a name gives it', () => {
    const ts = 'export function f(a: string): void;\nexport function f(a: number): void;\nexport function g(b) {}\n';
    assert.deepStrictEqual(Object.fromEntries(signaturesOf('a.ts', ts, ['f'])), { f: 'f(a: string): void' });
    assert.deepStrictEqual(Object.fromEntries(signaturesOf('a.ts', ts, [])), {});
  });
});

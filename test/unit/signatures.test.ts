// Signatures of a file's declarations (src/core/workspace/signatures.ts, signaturesTs.ts, signaturesOther.ts,
// signatureDecls.ts, signatureText.ts): per language, keyed by the symbols scanFile gives (`Type.method` for Go's and
// Rust's methods) and by the members interface lines name after their type (a Rust trait's, a Go interface's methods),
// parameters joined over lines, own type parameters and Rust's lifetimes dropped, defaults with commas and
// parentheses kept whole, public fields only with their types, and every signature within its cap (SIGNATURE_CHARS,
// a type's with its members TYPE_SIGNATURE_CHARS) — on hostile text too.
import * as assert from 'assert';
import { signaturesOf } from '../../src/core/workspace/signatures';
import { SIGNATURE_CHARS, TYPE_SIGNATURE_CHARS } from '../../src/core/workspace/signatureText';
import { fileNames, publicSignatures, workWords } from '../../src/core/workspace/mapLines';

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

  it('gives classes their heritage, interfaces and object types their fields with their types and their methods by name, enums their members, arrow constants their parameters', () => {
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
      Options: 'Options extends Shared { loose?: boolean, readonly includePrerelease?: boolean, compare() }',
      Flags: 'Flags { a: string, b?: number, c() }',
      Op: "type Op = 'eq' | 'gt'",
      Color: 'enum Color { Red, Green }',
      add: 'add(a, b)',
      id: 'id(x: T): Promise<T>',
      named: "named(a = ')', b = f(1, 2))",
      one: 'one(x)',
      conf: 'conf: Config',
      plain: 'plain = 3',
    });
  });

  it('quotes a constant\'s short literal value (a page size, a colour), never a secret-looking name\'s nor a long or built one', () => {
    const js = [
      "export const indigo = '#3f51b5'",
      'export const limit = 10 // per page',
      'export const ratio: number = -1.5e3;',
      'export const big = 10n, small = 0x1F',
      'export const flag = true',
      "export const apiKey = 'abc123'",
      "export const AUTH_TOKEN = 'x'",
      `export const long = '${'x'.repeat(41)}'`,
      'export const tpl = `a${b}`',
      "export const joined = 'a' + b",
      'export const product = 10    * 60',
      'export const typed = 5 as const',
      "export const escaped = 'it\\'s'",
    ].join('\n');
    assert.deepStrictEqual(sigs('src/styles/colors.js', js), {
      indigo: "indigo = '#3f51b5'",
      limit: 'limit = 10',
      ratio: 'ratio: number = -1.5e3',
      big: 'big = 10n',
      flag: 'flag = true',
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
    // every method a signature has is one the interface lines name: scanFile's, or a trait's method after its trait
    for (const symbol of Object.keys(s)) assert.ok(fileNames('src/lib.rs', lib, []).names.includes(symbol), symbol);
  });

  it('gives a struct its public fields only, with their types (`..` for private ones), enums their variants, a trait its methods apart, aliases and constants their types', () => {
    const s = sigs('src/lib.rs', lib);
    assert.strictEqual(s.Version, 'struct Version { major: u64, minor: u64, pre: Prerelease, .. }');
    assert.strictEqual(s.Prerelease, 'struct Prerelease { .. }');
    assert.strictEqual(s.Wrapper, 'struct Wrapper(&str)');
    assert.strictEqual(s.Unit, 'struct Unit');
    assert.strictEqual(s.Op, 'enum Op { Exact, Greater, Range }');
    // a trait's methods are names of their own (`Show.show`), each with its signature, a default body left out
    assert.strictEqual(s.Show, 'trait Show');
    assert.strictEqual(s['Show.show'], 'Show.show(&self) -> String');
    assert.strictEqual(s['Show.twice'], 'Show.twice(&self) -> String');
    assert.strictEqual(s.Result, 'type Result = std::result::Result<T, Error>');
    assert.strictEqual(s.MAX_LEN, 'MAX_LEN: usize');
  });
});

describe('signatures: Go and Python', () => {
  it('Go: methods as `Type.Method` over lines, type parameters dropped, structs with their exported fields and types (tags dropped), interfaces with their embedded ones and their exported methods apart', () => {
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
      Router: 'struct Router { NotFoundHandler http.Handler, A, C int, Server }',
      Handler: 'interface Handler { Reader }',
      'Handler.ServeHTTP': 'Handler.ServeHTTP(ResponseWriter, *Request)',
      HandlerFunc: 'type HandlerFunc func(http.ResponseWriter, *http.Request)',
      'Router.HandleFunc': 'Router.HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route',
      Map: 'Map(xs []T, f func(T) U) []U',
      Decode: 'Decode() (map[string]interface{}, error)',
    });
  });

  it('Python: keyword-only markers and defaults with commas, parentheses and quotes kept, classes with their bases and annotated public fields with their types', () => {
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
      User: 'class User(BaseModel, metaclass=Meta) { id: int, name: str }',
      'User.method': 'User.method()',
      Plain: 'class Plain',
    });
  });

  it('gives other languages none: their map shows names alone', () => {
    assert.deepStrictEqual(sigs('src/App.java', 'public class App {\n  public static void main(String[] args) {}\n}\n'), {});
  });
});

describe('signatures: fields with their types', () => {
  it('Rust: nested generics, fn pointers, references and tuples whole; lifetimes and attributes dropped; a private field `..`', () => {
    const rs = [
      'pub struct Registry<\'a> {',
      '    pub by_name: HashMap<String, Vec<u8>>,',
      '    #[serde(with = "a, b")]',
      '    pub on_change: fn(&str, u32) -> bool,',
      '    pub callback: Box<dyn Fn(&str) -> Result<(), Error> + Send>,',
      '    pub name: &\'a str,',
      '    pub pair: (u8, Option<u16>),',
      '    secret: [u8; 32],',
      '}',
    ].join('\n');
    assert.strictEqual(
      sigs('src/registry.rs', rs).Registry,
      'struct Registry { by_name: HashMap<String, Vec<u8>>, on_change: fn(&str, u32) -> bool, callback: Box<dyn Fn(&str) -> Result<(), Error> + Send>, name: &str, pair: (u8, Option<u16>), .. }',
    );
  });

  it('TS: optional and readonly fields, function-typed fields, a type over lines; methods by name', () => {
    const ts = [
      'export interface Hooks {',
      '  readonly id: string',
      '  retries?: Map<string, Array<number>>',
      '  onError?: (err: Error, attempt: number) => void;',
      '  kind:',
      "    | 'a'",
      "    | 'b'",
      '  run(): Promise<void>',
      '}',
    ].join('\n');
    assert.strictEqual(
      sigs('src/hooks.ts', ts).Hooks,
      "Hooks { readonly id: string, retries?: Map<string, Array<number>>, onError?: (err: Error, attempt: number) => void, kind: 'a' | 'b', run() }",
    );
  });

  it('Go: func-typed and map fields with their tags dropped; Python: a default and a comment dropped from the annotation', () => {
    const go = 'package mux\ntype Route struct {\n\tName string `json:"name"`\n\tHandler func(w http.ResponseWriter, r *http.Request) error\n\tVars map[string][]string\n\tregexp *routeRegexp\n}\n';
    assert.strictEqual(sigs('route.go', go).Route, 'struct Route { Name string, Handler func(w http.ResponseWriter, r *http.Request) error, Vars map[string][]string }');
    const py = '@dataclass\nclass Job:\n    tags: dict[str, list[int]] = field(default_factory=dict)  # by name\n    on_done: Callable[[int], None]\n';
    assert.strictEqual(sigs('jobs.py', py).Job, 'class Job { tags: dict[str, list[int]], on_done: Callable[[int], None] }');
  });

  it('cuts a type with many fields within TYPE_SIGNATURE_CHARS after its last whole field, never inside a generic', () => {
    const rs = `pub struct Big {\n${Array.from({ length: 20 }, (_, i) => `    pub field${i}: HashMap<String, Vec<u${i}>>,`).join('\n')}\n}\n`;
    const big = sigs('src/big.rs', rs).Big;
    assert.ok(big.length <= TYPE_SIGNATURE_CHARS, big);
    assert.match(big, /^struct Big \{ field0: HashMap<String, Vec<u0>>, .*field\d+: HashMap<String, Vec<u\d+>>, … \}$/);
  });
});

describe('signatures: a cut type shows the members the work names first', () => {
  // an h3 trial: DA's map cut `H3CorsOptions` just before the `maxAge` its work was about
  const cors = [
    'export interface H3CorsOptions {',
    '  origin?: "*" | "null" | (string | RegExp)[] | ((origin: string) => boolean);',
    '  methods?: "*" | HTTPMethod[];',
    '  allowHeaders?: "*" | string[];',
    '  exposeHeaders?: "*" | string[];',
    '  credentials?: boolean;',
    '  readonly maxAge?: string | false;',
    '}',
    'export interface Small { maxAge?: string; origin?: string }',
  ].join('\n');
  const work = workWords('append `access-control-max-age` header to preflight response');

  it("TS: the members holding the work's words first, the most first, where the type is cut; file order where all fit or none holds one", () => {
    const [opts, small] = publicSignatures('src/types/cors.ts', cors, ['H3CorsOptions', 'Small'], work, []).signatures;
    assert.ok(opts.length <= TYPE_SIGNATURE_CHARS, opts);
    assert.match(opts, /^H3CorsOptions \{ readonly maxAge\?: string \| false, allowHeaders\?: "\*" \| string\[\], exposeHeaders\?: "\*" \| string\[\], origin\?: .*… \}$/);
    assert.strictEqual(small, 'Small { maxAge?: string, origin?: string }', 'whole: in file order');
    const plain = publicSignatures('src/types/cors.ts', cors, ['H3CorsOptions'], workWords('make credentials optional'), []).signatures[0];
    assert.match(plain, /^H3CorsOptions \{ credentials\?: boolean, origin\?: /);
    const none = publicSignatures('src/types/cors.ts', cors, ['H3CorsOptions'], workWords(''), []).signatures[0];
    assert.strictEqual(none, sigs('src/types/cors.ts', cors).H3CorsOptions, 'no work: as without one');
    assert.match(none, /^H3CorsOptions \{ origin\?: /);
  });

  it('Rust and Go structs and Python classes too; an enum keeps its order', () => {
    const long = (n: string) => `${n}: HashMap<String, Vec<Option<u64>>>`;
    const rs = `pub struct Config {\n${['alpha', 'beta', 'gamma', 'delta', 'max_age'].map((f) => `    pub ${long(f)},`).join('\n')}\n}\n`;
    assert.match(publicSignatures('src/config.rs', rs, ['Config'], work, []).signatures[0], /^struct Config \{ max_age: HashMap/);
    const go = `type Config struct {\n${['Alpha', 'Beta', 'Gamma', 'Delta', 'MaxAge'].map((f) => `\t${f} map[string][]map[string]int64`).join('\n')}\n}\n`;
    assert.match(publicSignatures('config.go', go, ['Config'], work, []).signatures[0], /^struct Config \{ MaxAge map/);
    const py = `class Config:\n${['alpha', 'beta', 'gamma', 'delta', 'max_age'].map((f) => `    ${f}: dict[str, list[tuple[int, int, int]]]`).join('\n')}\n`;
    assert.match(publicSignatures('config.py', py, ['Config'], work, []).signatures[0], /^class Config \{ max_age: dict/);
    const en = `export enum Header {\n${['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Omicron', 'Sigma', 'Upsilon', 'Omega', 'Psi', 'Chi', 'Phi', 'Tau', 'Rho', 'MaxAge'].map((f) => `  ${f}LongerName,`).join('\n')}\n}\n`;
    assert.match(publicSignatures('src/h.ts', en, ['Header'], work, []).signatures[0], /^enum Header \{ AlphaLongerName, /);
  });
});

describe('signatures: bounds and hostile text', () => {
  it('cuts a long signature inside its brackets with `…`, after its last whole parameter, keeping the return type', () => {
    const params = Array.from({ length: 12 }, (_, i) => `parameter${i}: number`).join(', ');
    const s = sigs('a.ts', `export function long(${params}): Promise<void> {}\nexport interface Wide { ${Array.from({ length: 30 }, (_, i) => `field${i}: string;`).join(' ')} }\n`);
    assert.ok(s.long.length <= SIGNATURE_CHARS, s.long);
    assert.match(s.long, /^long\(parameter0: number, .*parameter\d+: number, …\): Promise<void>$/);
    assert.ok(s.Wide.length <= TYPE_SIGNATURE_CHARS && /^Wide \{ field0: string, field1: string, .*: string, … \}$/.test(s.Wide), s.Wide);
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
      const cap = /struct/.test(text) ? TYPE_SIGNATURE_CHARS : SIGNATURE_CHARS;
      for (const signature of found.values()) assert.ok(signature.length <= cap, `${rel}: ${signature.length}`);
    }
  });

  it('reads only the symbols asked for, each once: the first declaration of a name gives it', () => {
    const ts = 'export function f(a: string): void;\nexport function f(a: number): void;\nexport function g(b) {}\n';
    assert.deepStrictEqual(Object.fromEntries(signaturesOf('a.ts', ts, ['f'])), { f: 'f(a: string): void' });
    assert.deepStrictEqual(Object.fromEntries(signaturesOf('a.ts', ts, [])), {});
  });
});

// The class members interface lines name after their class in the forms the first rules missed (src/core/workspace
// signaturesTs.ts, jsBodies.ts, signaturesPy.ts): a TS/JS class whose heading spans lines (Prettier's `extends` and
// `implements` lines, a `{` on its own line, type parameters over lines or holding a `{}`), never a member written
// inside a template literal or a comment; the public fields a TypeScript constructor's parameters declare, and those a
// constructor's own statements assign (constructorFields.ts); a Python class's public methods, its `__init__` as its
// call and its properties by their type. Read through the line DA's and init's maps render (mapLines.ts
// interfaceLine) and in those maps; the index's symbols and the ranking's members stay as they were.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fileNames, interfaceLine, workWords } from '../../src/core/workspace/mapLines';
import { scanFile, scanMembers } from '../../src/core/workspace/symbols';
import { packWorkspace } from '../../src/core/workspace/pack';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { noSources } from '../../src/core/cape/initFactsText';
import { tempDir } from '../helpers/cli';

const none = workWords('');
/** The interface line of a file, with room for all its names and signatures. */
const lineOf = (rel: string, text: string) => interfaceLine(rel, text, [], 40, 4000, none);

describe('interface lines: a TS/JS class whose heading spans lines', () => {
  it('names the members of a class whose heritage and `{` stand on lines of their own, as for a heading on one line', () => {
    const split = [
      'export class HttpClient',
      '  extends Base<Options>',
      '  implements Closeable',
      '{',
      '  constructor(base: string) {',
      '    super();',
      '  }',
      '  get(url: string): Promise<Response> {',
      '    return fetch(url);',
      '  }',
      '}',
    ].join('\n');
    const oneLine = split.replace('\n  extends', ' extends').replace('\n  implements', ' implements').replace('\n{', ' {');
    const members = 'new HttpClient(base: string), HttpClient.get(url: string): Promise<Response>';
    assert.strictEqual(lineOf('src/http.ts', split), `src/http.ts — class HttpClient extends Base implements Closeable, ${members}`);
    assert.strictEqual(lineOf('src/http.ts', oneLine), lineOf('src/http.ts', split));
    // the index's symbols and the ranking's members as they were
    assert.deepStrictEqual(scanFile('src/http.ts', split).symbols, ['HttpClient']);
    assert.deepStrictEqual(scanMembers('src/http.ts', split), []);
  });

  it('names the members of a class whose type parameters hold a `{` or go over lines', () => {
    const ts = [
      'export abstract class Store<T extends Record<string, unknown> = {}> {',
      '  abstract load(id: string): Promise<T>;',
      '}',
      'export class Cache<',
      '  K extends { id: string },',
      '  V = () => void,',
      '> extends Map<K, V> {',
      '  evict(key: K): boolean {',
      '    return true;',
      '  }',
      '}',
      'export default class Runner',
      '  extends Base /* { */ // {',
      '{',
      '  run(): void {}',
      '}',
    ].join('\n');
    const { names } = fileNames('src/store.ts', ts, []);
    assert.deepStrictEqual(names, ['Store', 'Cache', 'Runner', 'Store.load', 'Cache.evict', 'Runner.run']);
    assert.strictEqual(
      lineOf('src/store.ts', ts),
      'src/store.ts — class Store, class Cache extends Map, class Runner extends Base, Store.load(id: string): Promise<T>, Cache.evict(key: K): boolean, Runner.run(): void',
    );
  });

  it('opens no body for a class declared without one, or written whole on one line, and reads the class after it', () => {
    const ts = [
      'export declare class Ambient',
      '  extends Base;',
      'export class Inline { run() {} }',
      'export class Next',
      '  extends Base {',
      '  go(): void {}',
      '}',
    ].join('\n');
    assert.deepStrictEqual(fileNames('src/a.ts', ts, []).names, ['Ambient', 'Inline', 'Next', 'Next.go']);
  });

  it('finds no member inside a template literal, a string or a comment of a class body, and reads the members after them (a regular expression’s backtick opens none)', () => {
    const ts = [
      'export class Page',
      '  extends View',
      '{',
      '  html = `',
      '  fake(x: number) {',
      '`;',
      '  sql = `select ${`',
      '  nested(y) {`} from t',
      '  alsoFake() {',
      '  `;',
      "  label = 'it`s';",
      "  escape(s: string): string { return s.replace(/[`'\"]/g, (c) => `\\${c}`) / 1; }",
      '  /*',
      '  inComment(z: string) {',
      '  */',
      '  // commented(a: number) {',
      '  render(): string {',
      '    return this.html;',
      '  }',
      '}',
    ].join('\n');
    assert.deepStrictEqual(fileNames('src/page.ts', ts, []).names, ['Page', 'Page.html', 'Page.sql', 'Page.label', 'Page.escape', 'Page.render']);
    assert.match(lineOf('src/page.ts', ts), /Page\.render\(\): string$/);
  });
});

describe('interface lines: a TypeScript constructor’s parameter properties', () => {
  it('names the public fields a constructor’s parameters declare after it, with their types; not the private or protected ones', () => {
    const ts = [
      'export class User {',
      '  constructor(',
      '    public readonly name: string,',
      '    private x: number,',
      '    protected y = 1,',
      '    @Inject(TOKEN) readonly db: Map<string, (a: number) => void> = new Map(),',
      '    public label?: string,',
      '    public _cache: string[],',
      '    protected readonly z: string,',
      '    override count = 0,',
      '  ) {}',
      '  greet(): string {',
      "    return '';",
      '  }',
      '}',
      'export class Token {',
      '  private constructor(public readonly id: string, plain: number) {}',
      '}',
    ].join('\n');
    assert.deepStrictEqual(fileNames('src/user.ts', ts, []).names, ['User', 'Token', 'new User', 'User.name', 'User.db', 'User.label', 'User.count', 'User.greet', 'Token.id']);
    assert.strictEqual(
      lineOf('src/user.ts', ts),
      'src/user.ts — class User, class Token, new User(…), User.name: string, User.db: Map<string, (a: number) => void>, User.label?: string, User.count, User.greet(): string, Token.id: string',
    );
    // a JavaScript constructor's parameters declare nothing
    assert.deepStrictEqual(fileNames('src/user.js', 'class User {\n  constructor(name, age) {}\n}\n', []).names, ['User', 'new User']);
  });
});

describe('interface lines: the fields a class’s constructor assigns', () => {
  it('names the fields a JavaScript constructor’s own statements assign, after the class’s methods; not those of the code it holds, nor an `_internal` one, nor one a method names', () => {
    const js = [
      'class Option {',
      '  constructor(flags, description) {',
      '    this.flags = flags;',
      '    this._negate = false;',
      '    if (flags) { this.mandatory = true }',
      "    if (flags.includes('<')) {",
      '      this.required = true;',
      '    } else this.optional = false;',
      '    this.parse = (value, previous) => { this.seen = value };',
      '    this.reset = () => this.cleared = true;',
      '    [1].forEach((x) => (this.each = x));',
      '    this.helpers = { add() { this.added = 1 } };',
      '    this.render = function (out) {',
      '      this.rendered = out;',
      '    };',
      "    this.hint = 'a { this.quoted = 1';",
      '    this.template = `${flags} {`;',
      '    // this.commented = 1;',
      '    this.name = flags;',
      '    this.count == 2;',
      '    this.flags.trim = 3;',
      '    for (const k of [1]) this.last = k;',
      '  }',
      '  name() {',
      '    return this.flags;',
      '  }',
      '  is(arg) {',
      '    this.matched = arg;',
      '  }',
      '}',
      'exports.Option = Option;',
    ].join('\n');
    const fields = ['flags', 'mandatory', 'required', 'optional', 'parse', 'reset', 'helpers', 'render', 'hint', 'template', 'last'];
    assert.deepStrictEqual(fileNames('lib/option.js', js, []).names, ['Option', 'new Option', 'Option.name', 'Option.is', ...fields.map((f) => `Option.${f}`)]);
    assert.strictEqual(
      lineOf('lib/option.js', js),
      'lib/option.js — class Option, new Option(flags, description), Option.name(), Option.is(arg), Option.flags, Option.mandatory, Option.required, ' +
        'Option.optional, Option.parse(value, previous), Option.reset(), Option.helpers, Option.render(out), Option.hint, Option.template, Option.last',
    );
    // the index's symbols and the ranking's members as they were
    assert.deepStrictEqual(scanFile('lib/option.js', js).symbols, ['Option']);
    assert.deepStrictEqual(scanMembers('lib/option.js', js), ['name', 'is']);
  });
});

describe('interface lines: a Python class’s methods', () => {
  const py = [
    'class Client(Base):',
    '    """A client.',
    '',
    'Note: a line at the first column.',
    '    """',
    '    timeout: int = 3',
    '',
    '    def __init__(self, url: str, *, retries: int = 3) -> None:',
    '        def inner(x):',
    '            pass',
    '        class Local:',
    '            def hidden(self): pass',
    '# a comment at the first column',
    '    @property',
    '    def size(self) -> int:',
    '        return 0',
    '',
    '    @size.setter',
    '    def size(self, value: int) -> None:',
    '        pass',
    '',
    '    async def fetch(',
    '        self,',
    '        path: str,',
    '        params: dict[str, str] | None = None,',
    '    ) -> Response:',
    '        pass',
    '',
    '    @classmethod',
    '    def from_env(cls) -> "Client":',
    '        pass',
    '',
    '    @staticmethod',
    '    def parse(text: str) -> "Client": ...',
    '    def _retry(self): pass',
    '    def __repr__(self): return ""',
    '    class Meta:',
    '        def nested(self): pass',
    '',
    'class _Hidden:',
    '    def run(self): pass',
    'class Empty: pass',
    'def top(a: int) -> int:',
    '    pass',
    'class Spread(',
    '    Base,',
    '    metaclass=Meta,',
    '):',
    '    def go(self) -> None: ...',
  ].join('\n');

  it('names a public class’s public methods `Class.method` after the file’s top-level names, `__init__` read as the class’s call, a property by its type', () => {
    const { names, internal } = fileNames('app/client.py', py, []);
    assert.deepStrictEqual(
      { names, internal },
      { names: ['Client', 'Empty', 'top', 'Spread', 'Client.__init__', 'Client.size', 'Client.fetch', 'Client.from_env', 'Client.parse', 'Spread.go', '_Hidden'], internal: 1 },
    );
    assert.strictEqual(
      lineOf('app/client.py', py),
      'app/client.py — class Client(Base) { timeout: int }, class Empty, top(a: int) -> int, class Spread(Base, metaclass=Meta), ' +
        'Client(url: str, *, retries: int = 3), Client.size: int, Client.fetch(path: str, params: dict[str, str] | None = None) -> Response, ' +
        'Client.from_env() -> "Client", Client.parse(text: str) -> "Client", Spread.go() -> None, _Hidden',
    );
    // the index keeps the top-level names
    assert.deepStrictEqual(scanFile('app/client.py', py).symbols, ['Client', 'Empty', 'top', 'Spread', '_Hidden']);
  });

  it('reads a class’s fields from the same body: past a heading over lines and a comment at the first column; none for a class on one line', () => {
    const fields = 'class Empty: pass\nTIMEOUT: int = 3\nclass Job(\n    Base,\n):\n# a note\n    retries: int\n';
    assert.strictEqual(lineOf('jobs.py', fields), 'jobs.py — class Empty, class Job(Base) { retries: int }');
  });

  it('reads a stub’s methods and a property without a type by its name', () => {
    const pyi = 'class Queue(Generic[T]):\n    def put(self, item: T, block: bool = ...) -> None: ...\n    @functools.cached_property\n    def size(self): ...\n';
    assert.strictEqual(lineOf('q.pyi', pyi), 'q.pyi — class Queue(Generic[T]), Queue.put(item: T, block: bool = ...) -> None, Queue.size');
  });
});

describe('interface lines: these members in the maps', () => {
  it("shows them with their signatures in DA's map of a workspace without UI files and in init's code map", async () => {
    const ws = tempDir('cape-class-members-more-');
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), text);
    };
    put('package.json', '{ "name": "fetcher" }\n');
    put('src/client.ts', 'export class HttpClient\n  extends Base\n{\n  constructor(public readonly baseUrl: string) {\n    super();\n  }\n  request(path: string): Promise<Response> {\n    return fetch(path);\n  }\n}\n');
    put('tools/retry.py', 'class Retry:\n    def __init__(self, attempts: int) -> None:\n        pass\n\n    def delay(self, attempt: int) -> float:\n        return 1.0\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const readText = (rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');
    const da = packWorkspace(index, { objective: 'retry a failed request' }, { step: 'da', readText }).text;
    for (const sig of ['HttpClient.request(path: string): Promise<Response>', 'HttpClient.baseUrl: string', 'Retry.delay(attempt: int) -> float']) assert.ok(da.includes(sig), `${sig}\n${da}`);
    const init = codePart(codeLines(index, 'retry requests', readText), noSources(), 2000)!;
    for (const sig of ['HttpClient.request(path: string): Promise<Response>', 'Retry(attempts: int)']) assert.ok(init.includes(sig), `${sig}\n${init}`);
  });
});

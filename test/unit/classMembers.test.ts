// The class members interface lines name after their class in the forms the first rules missed (src/core/workspace
// signaturesTs.ts, jsBodies.ts): a TS/JS class whose heading spans lines (Prettier's `extends` and `implements` lines,
// a `{` on its own line, type parameters over lines or holding a `{}`), never a member written inside a template
// literal or a comment; the public fields a TypeScript constructor's parameters declare. Read through the line DA's
// and init's maps render (mapLines.ts interfaceLine); the index's symbols and the ranking's members stay as they were.
import * as assert from 'assert';
import { fileNames, interfaceLine, workWords } from '../../src/core/workspace/mapLines';
import { scanFile, scanMembers } from '../../src/core/workspace/symbols';

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

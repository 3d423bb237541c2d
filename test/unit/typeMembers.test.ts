// The members an interface line names after their type though the index does not (src/core/workspace/signatures.ts
// typeMembers, mapLines.ts fileNames): a TS/JS class's public members (signaturesTs.ts: `Command.option(…)`, a static
// one alike, a getter or a field by its type, the constructor `new Command(…)`, a field its constructor assigns), a
// Rust trait's methods and a Go interface's exported ones (signaturesOther.ts) — of a public type only, after all the
// file's public top-level names, within the names' and the signatures' caps, and in DA's map of a workspace without UI
// files; the index's symbols stay top-level.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fileNames, interfaceLine, MAP_SYMBOLS, workWords } from '../../src/core/workspace/mapLines';
import { signaturesOf } from '../../src/core/workspace/signatures';
import { SIGNATURE_CHARS } from '../../src/core/workspace/signatureText';
import { MAX_SYMBOLS, scanFile, scanMembers } from '../../src/core/workspace/symbols';
import { packWorkspace } from '../../src/core/workspace/pack';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { noSources } from '../../src/core/cape/initFactsText';
import { tempDir } from '../helpers/cli';

/** A TypeScript class with members of every kind and visibility. */
const COMMAND_TS = [
  "import { EventEmitter } from 'events';",
  'export class Command extends EventEmitter {',
  "  private _name = '';",
  '  constructor(name?: string) {',
  '    super();',
  '  }',
  '  option(flags: string, description?: string): this {',
  '    return this;',
  '  }',
  '  async parseAsync(argv?: readonly string[]): Promise<this> {',
  '    return this;',
  '  }',
  '  get name(): string {',
  '    return this._name;',
  '  }',
  '  static create(name: string): Command {',
  '    return new Command(name);',
  '  }',
  '  #secret() {}',
  '  protected hook(): void {}',
  '  _internal() {}',
  '}',
].join('\n');

const none = workWords('');
/** The file's names and, for the public ones, their signatures (the name itself where it has none). */
function signed(rel: string, text: string): { names: readonly string[]; internal: number; signatures: string[] } {
  const { names, internal } = fileNames(rel, text, []);
  const found = signaturesOf(rel, text, names.slice(0, names.length - internal));
  return { names, internal, signatures: names.slice(0, names.length - internal).map((n) => found.get(n) ?? n) };
}

describe('interface lines: a class’s public members after it', () => {
  it('names a TS class’s public methods, getter, static method and constructor after it, with their signatures; not its private, protected, # or _ ones', () => {
    const { names, signatures } = signed('src/command.ts', COMMAND_TS);
    assert.deepStrictEqual(names, ['Command', 'new Command', 'Command.option', 'Command.parseAsync', 'Command.name', 'Command.create']);
    assert.deepStrictEqual(signatures, [
      'class Command extends EventEmitter',
      'new Command(name?: string)',
      'Command.option(flags: string, description?: string): this',
      'Command.parseAsync(argv?: readonly string[]): Promise<this>',
      'Command.name: string',
      'Command.create(name: string): Command',
    ]);
    assert.strictEqual(
      interfaceLine('src/command.ts', COMMAND_TS, [], 40, 1000, none),
      `src/command.ts — ${signatures.join(', ')}`,
    );
    // the index's symbols stay top-level, the ranking's members as they were
    assert.deepStrictEqual(scanFile('src/command.ts', COMMAND_TS).symbols, ['Command']);
    assert.deepStrictEqual(scanMembers('src/command.ts', COMMAND_TS), ['_name', 'option', 'parseAsync', 'name', 'create', 'secret', 'hook', '_internal']);
  });

  it('gives a JavaScript class’s members their parameters (no types), a CommonJS export making the class public', () => {
    const js = [
      'class Command extends EventEmitter {',
      '  /**',
      '   * @param {string} [name]',
      '   */',
      '  constructor(name) {',
      '    super();',
      '    this.commands = [];',
      '  }',
      '',
      '  option(flags, description, fn, defaultValue) {',
      '    return this._optionEx({}, flags, description, fn, defaultValue);',
      '  }',
      '  _optionEx(config, flags) {}',
      '}',
      'exports.Command = Command;',
    ].join('\n');
    assert.deepStrictEqual(signed('lib/command.js', js).signatures, [
      'class Command extends EventEmitter',
      'new Command(name)',
      'Command.option(flags, description, fn, defaultValue)',
      // the field its constructor assigns, after the methods, by its name (a JavaScript field has no type)
      'Command.commands',
    ]);
  });

  it('lists a TypeScript field its constructor assigns once, as the class declares it, wherever it stands; not a private one, nor a private parameter’s', () => {
    const ts = [
      'export class Store {',
      '  name: string;',
      '  private cache: Map<string, number>;',
      '  constructor(name: string, private db: Db, public readonly id: number) {',
      '    this.name = name;',
      '    this.cache = new Map();',
      '    this.db = db;',
      '    this.id = id;',
      '    this.opened = true;',
      '    this.size = 0;',
      '  }',
      '  opened: boolean = false;',
      '  set size(value: number) {}',
      '}',
    ].join('\n');
    assert.strictEqual(
      interfaceLine('src/store.ts', ts, [], 40, 1000, none),
      'src/store.ts — class Store, new Store(name: string, private db: Db, public readonly id: number), Store.id: number, Store.name: string, Store.opened: boolean, Store.size: number',
    );
  });

  it('names a class with no public member alone', () => {
    const ts = 'export class Store {\n  private items: string[] = [];\n  #count = 0;\n  protected load(): void {}\n}\n';
    assert.deepStrictEqual(fileNames('src/store.ts', ts, []).names, ['Store']);
    assert.strictEqual(interfaceLine('src/store.ts', ts, [], 40, 1000, none), 'src/store.ts — class Store');
  });

  it('names the members of a public class only: an exported one, or any in a file that exports nothing; a module’s other classes are internal, their members left out', () => {
    const module = 'export class Client {\n  get(url: string): Response {}\n}\nclass Pool {\n  take(): Socket {}\n}\n';
    const { names, internal, read } = fileNames('src/client.ts', module, []);
    assert.deepStrictEqual({ names, internal, read }, { names: ['Client', 'Client.get', 'Pool'], internal: 1, read: true });
    assert.strictEqual(interfaceLine('src/client.ts', module, [], 40, 1000, none), 'src/client.ts — class Client, Client.get(url: string): Response, Pool');
    // `export { Pool }` makes it public: its members follow it
    assert.deepStrictEqual(fileNames('src/client.ts', `${module}export { Pool };\n`, []).names, ['Client', 'Pool', 'Client.get', 'Pool.take']);
    // a script exports nothing: every top-level name is what it offers
    const script = module.replace('export class', 'class');
    const fromScript = fileNames('src/client.js', script, []);
    assert.deepStrictEqual([fromScript.names, fromScript.internal], [['Client', 'Pool', 'Client.get', 'Pool.take'], 0]);
  });

  it('keeps each signature within SIGNATURE_CHARS, counts the members a line has no room for, and names no more than a scan gives', () => {
    const params = Array.from({ length: 12 }, (_, i) => `parameter${i}: number`).join(', ');
    const wide = `export class Wide {\n  compute(${params}): Promise<void> {}\n${Array.from({ length: 30 }, (_, i) => `  method${i}(): void {}`).join('\n')}\n}\n`;
    const { signatures } = signed('src/wide.ts', wide);
    assert.ok(signatures[1].length <= SIGNATURE_CHARS, signatures[1]);
    assert.match(signatures[1], /^Wide\.compute\(parameter0: number, .*, …\): Promise<void>$/);
    // three names shown, the other members counted as a line counts names
    assert.strictEqual(interfaceLine('src/wide.ts', wide, [], 3, 1000, none), `src/wide.ts — class Wide, ${signatures[1]}, Wide.method0(): void, … (+29)`);
    // a generated class of thousands of members: the names stop where a scan's do
    const huge = `export class Huge {\n${Array.from({ length: 5000 }, (_, i) => `  m${i}(): void {}`).join('\n')}\n}\n`;
    const names = fileNames('src/huge.ts', huge, []).names;
    assert.strictEqual(names.length, MAX_SYMBOLS);
    assert.deepStrictEqual(names.slice(0, 3), ['Huge', 'Huge.m0', 'Huge.m1']);
  });

  it('reads a member whose parameter list never closes within SIGNATURE_CHARS, never throwing; a class’s next member is still read on its line', () => {
    const hostile: Record<string, string> = {
      'a.ts': `export class A {\n  m${'('.repeat(100_000)}\n  n(b: string): void {}\n}\n`,
      'a.rs': `pub trait A {\n    fn m${'('.repeat(100_000)}\n    fn n(&self);\n}\n`,
      'a.go': `package a\ntype A interface {\n\tM${'('.repeat(100_000)}\n\tN() error\n}\n`,
    };
    for (const [rel, text] of Object.entries(hostile)) {
      const { signatures } = signed(rel, text);
      assert.ok(signatures.length >= 2, `${rel}: ${signatures.join(', ')}`);
      for (const s of signatures) assert.ok(s.length <= SIGNATURE_CHARS, `${rel}: ${s.length}`);
    }
    assert.strictEqual(signed('a.ts', hostile['a.ts']).signatures[2], 'A.n(b: string): void');
  });

  it('lists every public top-level name before any member, so a class of many methods leaves a line room for the file’s functions', () => {
    const ts = [
      'export class Client {',
      ...Array.from({ length: 15 }, (_, i) => `  get${i}(path: string): Response {}`),
      '}',
      'export function parseUrl(text: string): URL {}',
      'export function formatUrl(url: URL): string {}',
    ].join('\n');
    const gets = Array.from({ length: 9 }, (_, i) => `Client.get${i}(path: string): Response`);
    // DevA's map: MAP_SYMBOLS names, the functions among them, the members in the room they leave
    assert.strictEqual(
      interfaceLine('src/client.ts', ts, [], MAP_SYMBOLS, 2000, workWords('parse a url')),
      `src/client.ts — class Client, parseUrl(text: string): URL, formatUrl(url: URL): string, ${gets.join(', ')}, … (+6)`,
    );
    // DA's 40 names: a class of more members than that still leaves the functions named, its members after them in their class's order
    const wide = `export class Client {\n${Array.from({ length: 45 }, (_, i) => `  m${i}(): void {}`).join('\n')}\n}\nexport class Pool {\n  take(): void {}\n}\nexport function parseUrl(text: string): URL {}\nfunction helper() {}\n`;
    const { names, internal } = fileNames('src/wide.ts', wide, []);
    assert.deepStrictEqual(names.slice(0, 5), ['Client', 'Pool', 'parseUrl', 'Client.m0', 'Client.m1']);
    assert.deepStrictEqual([names[names.length - 1], internal], ['helper', 1]);
    assert.match(interfaceLine('src/wide.ts', wide, [], 40, 4000, none), /^src\/wide\.ts — class Client, class Pool, parseUrl\(text: string\): URL, Client\.m0\(\): void, /);
  });

  it('gives the members whose words the work writes their signatures first', () => {
    const bare = 'src/command.ts — Command, new Command, Command.option, Command.parseAsync, Command.name, Command.create';
    assert.strictEqual(
      interfaceLine('src/command.ts', COMMAND_TS, [], 40, bare.length + 60, workWords('parse the arguments asynchronously with parseAsync')),
      'src/command.ts — Command, new Command, Command.option, Command.parseAsync(argv?: readonly string[]): Promise<this>, Command.name, Command.create',
    );
  });
});

describe('interface lines: a Rust trait’s and a Go interface’s methods after it', () => {
  it('names a public trait’s methods `Trait.method` with their signatures, past a long doc comment; a private trait’s not', () => {
    const docs = Array.from({ length: 200 }, (_, i) => `    /// Line ${i} of the documentation.`).join('\n');
    const rs = [
      'pub trait Visitor: Sized {',
      '    type Value;',
      docs,
      '    fn visit_str(self, value: &str) -> Result<Self::Value, Error>;',
      '    #[inline]',
      '    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E>',
      '    where',
      '        E: Error,',
      '    {',
      '        fn nested() {}',
      '        Err(E::custom(v))',
      '    }',
      '}',
      'trait Sealed {',
      '    fn seal(&self);',
      '}',
    ].join('\n');
    const { names, internal, signatures } = signed('src/de.rs', rs);
    assert.deepStrictEqual({ names, internal }, { names: ['Visitor', 'Visitor.visit_str', 'Visitor.visit_bool', 'Sealed'], internal: 1 });
    assert.deepStrictEqual(signatures, ['trait Visitor', 'Visitor.visit_str(self, value: &str) -> Result<Self::Value, Error>', 'Visitor.visit_bool(self, v: bool) -> Result<Self::Value, E>']);
    assert.deepStrictEqual(scanFile('src/de.rs', rs).symbols, ['Visitor', 'Sealed'], 'the index keeps the trait alone');
  });

  it('names an exported Go interface’s exported methods `Interface.Method`, one-line interfaces too; embedded ones stay in its signature', () => {
    const go = [
      'package store',
      'type Store interface {',
      '\t// Get returns the value.',
      '\tGet(ctx context.Context, key string) ([]byte, error)',
      '\tio.Closer',
      '\tflush() error',
      '}',
      'type Stringer interface { String() string }',
      'type cache interface {',
      '\tEvict(key string)',
      '}',
    ].join('\n');
    const { names, signatures } = signed('store.go', go);
    assert.deepStrictEqual(names, ['Store', 'Stringer', 'Store.Get', 'Stringer.String', 'cache']);
    assert.deepStrictEqual(signatures, ['interface Store { Closer }', 'interface Stringer', 'Store.Get(ctx context.Context, key string) ([]byte, error)', 'Stringer.String() string']);
  });
});

describe('interface lines: class members in the maps', () => {
  const put = (ws: string, rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };

  it("shows a class's methods with their signatures in DA's map of a workspace without UI files, and in init's code map", async () => {
    const ws = tempDir('cape-class-members-');
    put(ws, 'package.json', '{ "name": "cli-kit" }\n');
    put(ws, 'src/command.ts', COMMAND_TS);
    put(ws, 'src/help.ts', 'export function formatHelp(cmd: Command): string {\n  return "";\n}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const readText = (rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');
    const da = packWorkspace(index, { objective: 'add an option to a command' }, { step: 'da', readText });
    const line = da.text.split('\n').find((l) => l.startsWith('src/command.ts — '));
    assert.ok(line?.includes('Command.option(flags: string, description?: string): this'), da.text);
    assert.ok(!line!.includes('hook') && !line!.includes('_internal'), line);
    const init = codePart(codeLines(index, 'commands with options', readText), noSources(), 2000)!;
    assert.ok(init.includes('Command.parseAsync(argv?: readonly string[]): Promise<this>'), init);
  });
});

// The work behind the members an interface line names after their type (src/core/workspace/signatures.ts
// typeMembers, signaturesOther.ts interfaceMethods, signaturesTs.ts, signaturesPy.ts): each Rust trait's or Go
// interface's body is read over its own lines only (signatureDecls.ts declarationSpan), a Go type's kind seen from its
// header before any body is read, a TS class's heading over lines and its constructor's parameters, a Python class's
// heading read once each, a constructor's assigned fields read in the walk of its lines, and the members found once
// per line (mapLines.ts fileNames hands them to publicSignatures). Counted as characters cleaned
// (signatureText.ts codeCleaned) or read (jsBodies.ts templatesScanned), never timed.
import * as assert from 'assert';
import { fileNames, interfaceLine, workWords } from '../../src/core/workspace/mapLines';
import { typeMembers } from '../../src/core/workspace/signatures';
import { declarationSpan } from '../../src/core/workspace/signatureDecls';
import { codeCleaned } from '../../src/core/workspace/signatureText';
import { templatesScanned } from '../../src/core/workspace/jsBodies';

/** The characters codeOf cleaned while `run` ran. */
function cleanedBy(run: () => void): number {
  const before = codeCleaned.chars;
  run();
  return codeCleaned.chars - before;
}

const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');

describe('interface lines: bounded work for the members of a file’s types', () => {
  it('reads a generated Go file of a thousand structs about once, not once for each struct', () => {
    const go = `package gen\n${many(1000, (i) => `type Record${i} struct {\n\tID${i} int\n}`)}\ntype Store interface {\n\tGet(key string) ([]byte, error)\n}\n`;
    let members: string[] = [];
    const cleaned = cleanedBy(() => (members = typeMembers('gen.go', go).map((m) => m.symbol)));
    assert.deepStrictEqual(members, ['Store.Get']);
    assert.ok(cleaned <= go.length, `${cleaned} characters cleaned for a file of ${go.length}`);
  });

  it('reads a generated Rust file of a thousand traits about once, each trait up to its closing brace', () => {
    const rs = many(1000, (i) => `pub trait Show${i} {\n    fn show(&self) -> String;\n}`);
    let members: string[] = [];
    const cleaned = cleanedBy(() => (members = typeMembers('src/gen.rs', rs).map((m) => m.symbol)));
    assert.strictEqual(members.length, 1000);
    assert.deepStrictEqual(members.slice(0, 2), ['Show0.show', 'Show1.show']);
    assert.ok(cleaned <= rs.length, `${cleaned} characters cleaned for a file of ${rs.length}`);
  });

  it('stops a trait’s or an interface’s read at its body’s end, not at the reach’s cap', () => {
    const trait = 'pub trait Show {\n    fn show(&self) -> String;\n}\n';
    const rest = many(3000, (i) => `pub fn f${i}(x: u32) -> u32 {\n    x\n}`);
    assert.ok(cleanedBy(() => typeMembers('src/lib.rs', trait + rest)) <= trait.length);
    const iface = 'type Handler interface { ServeHTTP(w ResponseWriter, r *Request) }\n';
    const goRest = many(3000, (i) => `func F${i}(x int) int {\n\treturn x\n}`);
    let members: string[] = [];
    const cleaned = cleanedBy(() => (members = typeMembers('h.go', `package h\n${iface}${goRest}`).map((m) => m.symbol)));
    assert.deepStrictEqual(members, ['Handler.ServeHTTP']);
    assert.ok(cleaned <= 2 * iface.length, `${cleaned}`);
  });

  it('finds a declaration’s lines: to its unindented closing brace, or to the next declaration', () => {
    const lines = ['pub trait Show<T>', 'where', '    T: Clone,', '{', '    fn show(&self);', '}', 'pub fn f() {}'];
    const declares = (l: string) => /^pub fn /.test(l);
    assert.strictEqual(declarationSpan(lines, 0, declares), 6);
    // a body closed on its own line: the next declaration ends it
    assert.strictEqual(declarationSpan(['type A interface { M() }', '', 'pub fn g() {}', '}'], 0, declares), 2);
    // no end: the file's
    assert.strictEqual(declarationSpan(['pub trait T {', '    fn a();'], 0, declares), 2);
  });

  it('reads a TS class’s heading over lines and its constructor’s parameters once: a file of a thousand such classes about once', () => {
    const ts = many(1000, (i) => `export class Client${i}\n  extends Base<Options>\n{\n  constructor(\n    public readonly name${i}: string,\n    private x: number,\n  ) {\n    super();\n  }\n  get${i}(url: string): string {\n    return \`\n\${url}\`;\n  }\n}`);
    let members: string[] = [];
    const cleaned = cleanedBy(() => (members = typeMembers('src/gen.ts', ts).map((m) => m.symbol)));
    assert.strictEqual(members.length, 3000);
    assert.deepStrictEqual(members.slice(0, 3), ['new Client0', 'Client0.name0', 'Client0.get0']);
    assert.ok(cleaned <= ts.length, `${cleaned} characters cleaned for a file of ${ts.length}`);
    // headings that never open a body: each line read once
    const open = many(5000, (i) => `class Open${i}`);
    assert.ok(cleanedBy(() => typeMembers('src/open.ts', open)) <= open.length);
  });

  it('reads the fields a thousand JavaScript constructors assign with each line’s one walk: each character once', () => {
    const js = many(1000, (i) => `class Option${i} {\n  constructor(flags) {\n    this.flags${i} = flags;\n    this.parse = (v) => { this.seen = v; };\n    if (flags) {\n      this.label = \`{\${flags}\`;\n    }\n  }\n  is(arg) {\n    return arg === this.flags${i};\n  }\n}`);
    const before = templatesScanned.chars;
    const members = typeMembers('lib/options.js', js).map((m) => m.symbol);
    assert.strictEqual(members.length, 5000);
    assert.deepStrictEqual([...members.slice(0, 2), ...members.slice(2000, 2003)], ['new Option0', 'Option0.is', 'Option0.flags0', 'Option0.parse', 'Option0.label']);
    assert.ok(templatesScanned.chars - before <= js.length, `${templatesScanned.chars - before} characters read for a file of ${js.length}`);
  });

  it('reads a Python file of a thousand classes about once, each class’s heading once and its methods’ signatures not at all', () => {
    const py = many(1000, (i) => `class Model${i}(\n    Base,\n):\n    def __init__(self, a: int) -> None:\n        pass\n\n    def save${i}(self) -> None:\n        pass`);
    let members: string[] = [];
    const cleaned = cleanedBy(() => (members = typeMembers('app/models.py', py).map((m) => m.symbol)));
    assert.strictEqual(members.length, 2000);
    assert.deepStrictEqual(members.slice(0, 2), ['Model0.__init__', 'Model0.save0']);
    assert.ok(cleaned <= py.length / 2, `${cleaned} characters cleaned for a file of ${py.length}`);
  });

  it('finds a file’s members once for a line’s names and their signatures', () => {
    const go = `package big\ntype Big interface {\n${many(1500, (i) => `\tMethod${i}(ctx context.Context, key${i} string) (Value${i}, error)`)}\n}\n`;
    assert.strictEqual(fileNames('big.go', go, []).members.length, 1500);
    const once = cleanedBy(() => typeMembers('big.go', go));
    const line = cleanedBy(() => interfaceLine('big.go', go, [], 40, 2000, workWords('')));
    // the interface's body once, and the few shown names' signatures: not the body twice
    assert.ok(line < once * 1.5, `${line} characters cleaned for a line, ${once} for the members`);
  });
});

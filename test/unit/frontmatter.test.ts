// The one frontmatter codec (core/cape/frontmatter.ts) and the shared helpers it relies on.
import * as assert from 'assert';
import * as path from 'path';
import { parseFrontmatter, parseYaml, readFrontmatter, writeFrontmatter } from '../../src/core/cape/frontmatter';
import { isInside } from '../../src/core/files/pathSafety';
import { isPlainObject } from '../../src/core/model/types';

describe('frontmatter codec', () => {
  it('round-trips the retrospective fields, including text that looks like YAML or a delimiter', () => {
    const fields = { task_id: 't-1', objective: 'a "b"\n---\nc: d #e', date: '2026-05-01T09:00:00.000Z', ass_average: 4.25, none: null, ok: true };
    const fm = writeFrontmatter(fields);
    assert.match(fm, /^---\n[\s\S]*\n---\n$/);
    assert.deepStrictEqual(readFrontmatter(fm + '# body\n'), fields);
  });

  it('never evaluates ---js and treats refused or malformed frontmatter as none', () => {
    (globalThis as any).__capeFmEvaluated = false;
    assert.strictEqual(readFrontmatter('---js\n{ task_id: (globalThis.__capeFmEvaluated = true, "x") }\n---\n'), null);
    assert.strictEqual((globalThis as any).__capeFmEvaluated, false);
    assert.strictEqual(readFrontmatter('---\ntask_id: !!js/function "function () {}"\n---\n'), null);
    assert.strictEqual(readFrontmatter('---\ntask_id: [\n---\n'), null);
    assert.strictEqual(readFrontmatter('# no frontmatter'), null);
  });

  it('reads the language named in any case (---JSON, --- YAML); ---JS in any case is still refused, never evaluated', () => {
    for (const text of ['---JSON\n{"type": "input"}\n---\nbody', '--- Json \r\n{"type": "input"}\r\n---\r\nbody', '---YAML\ntype: input\n---\nbody', '---\ntype: input\n---\nbody']) {
      const fm = parseFrontmatter(text);
      assert.ok(fm.ok && fm.data.type === 'input' && fm.body.trim() === 'body', `${JSON.stringify(text)}: ${JSON.stringify(fm)}`);
    }
    (globalThis as any).__capeFmEvaluated = false;
    for (const text of ['---JS\n{ type: (globalThis.__capeFmEvaluated = true, "input") }\n---\n', '---JavaScript\n({ type: (globalThis.__capeFmEvaluated = true, "input") })\n---\n']) {
      const fm = parseFrontmatter(text);
      assert.ok(!fm.ok && fm.kind === 'refused', JSON.stringify(fm));
    }
    assert.strictEqual((globalThis as any).__capeFmEvaluated, false);
  });

  it('reads and writes a frontmatter with a long run of blank lines once (audit: 100,000 lines took 6 s to read)', () => {
    // a cape/ file of a cloned repository: up to 256 KB are read
    const blank = '\n'.repeat(250_000);
    const fm = parseFrontmatter(`---${blank}type: input\n# note\n---\n# Body\n`);
    assert.ok(fm.ok && fm.data.type === 'input' && fm.body === '# Body\n', JSON.stringify(fm).slice(0, 200));
    const comments = parseFrontmatter(`---${' \t\n'.repeat(100_000)}# only a comment\n---\nbody`);
    assert.ok(comments.ok && comments.hasFrontmatter && Object.keys(comments.data).length === 0 && comments.body === 'body');
    // blank lines and comments only are no data in JSON either; a lone '#' is not a comment there
    assert.deepStrictEqual(parseFrontmatter('---json\n\n  # c\r\n---\r\nbody'), { ok: true, data: {}, body: 'body', hasFrontmatter: true });
    assert.ok(!parseFrontmatter('---json\n#\n---\nbody').ok);
    // a retrospective's objective with many blank lines in it, written and read back
    const fields = { objective: `a${blank}b`, task_id: 't-1' };
    const written = writeFrontmatter(fields);
    assert.ok(written.endsWith('\n---\n') && !written.endsWith('\n\n---\n'));
    assert.deepStrictEqual(readFrontmatter(written), fields);
  });

  it('reads a hand-written unquoted date as an ISO string', () => {
    assert.deepStrictEqual(readFrontmatter('---\ndate: 2026-05-01\n---\n'), { date: '2026-05-01T00:00:00.000Z' });
  });

  it('parses whole YAML documents with the same safe engine', () => {
    assert.deepStrictEqual(parseYaml('product: x\nusers: [a, b]\n'), { product: 'x', users: ['a', 'b'] });
    assert.throws(() => parseYaml('a: !!js/function "function () {}"\n'));
  });
});

describe('one truth: isInside and isPlainObject', () => {
  const root = path.resolve('/ws');
  it('isInside: the folder itself unless strict, children, never siblings or parents', () => {
    assert.strictEqual(isInside(root, root), true);
    assert.strictEqual(isInside(root, root, { strict: true }), false);
    assert.strictEqual(isInside(root, path.join(root, 'a', 'b')), true);
    assert.strictEqual(isInside(root, path.join(root, '..cache')), true, 'a name starting with two dots is inside');
    assert.strictEqual(isInside(root, path.resolve('/ws2')), false);
    assert.strictEqual(isInside(root, path.resolve('/')), false);
    assert.strictEqual(isInside(path.join(root, 'a'), path.join(root, 'b')), false);
  });
  it('isPlainObject', () => {
    assert.strictEqual(isPlainObject({}), true);
    for (const v of [null, [], 'x', 1, undefined]) assert.strictEqual(isPlainObject(v), false);
  });
});

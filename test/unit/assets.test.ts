import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import matter from 'gray-matter';
import {
  MAX_ASSET_BYTES,
  MAX_CAPE_BYTES,
  capeBodies,
  loadCape,
} from '../../src/core/cape/assets';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES } from '../../src/core/cape/capeLayout';
import { parseFrontmatter } from '../../src/core/cape/frontmatter';
import { originalProjectDir } from '../helpers/fixtures';
import { capeWarnings } from '../../src/core/session/inputs';

function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function write(root: string, rel: string, text: string): string {
  const p = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

/** A complete cape/ folder with minimal generic and input files. */
function completeCape(): string {
  const root = tmpDir('cape-assets-');
  for (const rel of GENERIC_CAPE_FILES) write(root, rel, `---\ntype: generic\n---\n# ${rel}\n`);
  for (const rel of INPUT_CAPE_FILES) write(root, rel, `---\ntype: input\n---\n# ${rel}\n`);
  return root;
}

describe('assets: loadCape', () => {
  const cleanup: string[] = [];
  after(() => cleanup.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('a file that goes away while the folder is read is reported, never thrown', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-gone-'));
    cleanup.push(root);
    fs.mkdirSync(path.join(root, '1_product'), { recursive: true });
    fs.writeFileSync(path.join(root, '1_product', 'gone.md'), '# Gone\n');
    fs.writeFileSync(path.join(root, '1_product', 'kept.md'), '# Kept\n');
    const stat = fs.promises.stat;
    // the file is removed between the folder's listing and its stat
    fs.promises.stat = (async (p: fs.PathLike, o?: fs.StatOptions) => {
      if (String(p).endsWith('gone.md')) fs.rmSync(String(p), { force: true });
      return stat(p, o as never);
    }) as typeof fs.promises.stat;
    try {
      const cape = await loadCape(root);
      assert.ok(cape.files.has('1_product/kept.md'));
      assert.ok(!cape.files.has('1_product/gone.md'));
      assert.ok(cape.issues.some((i) => i.path === '1_product/gone.md'), JSON.stringify(cape.issues));
    } finally {
      fs.promises.stat = stat;
    }
  });

  it('loads the original CLI cape/ as-is, with only "missing" issues', async () => {
    const capeDir = path.join(originalProjectDir(), 'cape');
    const onDisk = fs
      .readdirSync(capeDir, { recursive: true, encoding: 'utf8' })
      .map((p) => p.split(path.sep).join('/'))
      .filter((p) => p.endsWith('.md') && !p.startsWith('5_sessions/'));
    assert.ok(onDisk.length > 0, 'the fixture has input files');

    const cape = await loadCape(capeDir);
    assert.deepStrictEqual([...cape.files.keys()].sort(), onDisk.sort());
    for (const f of cape.files.values()) {
      assert.strictEqual(f.type, 'input', `${f.relPath} is an input file`);
      assert.ok(f.body.trim().length > 0);
      assert.ok(!f.body.startsWith('---'), 'frontmatter is stripped from the body');
    }
    assert.ok(cape.issues.length > 0);
    for (const issue of cape.issues) assert.strictEqual(issue.kind, 'missing', JSON.stringify(issue));
    const missing = cape.issues.map((i) => i.path);
    for (const g of GENERIC_CAPE_FILES) assert.ok(missing.includes(g), `${g} reported missing`);
    for (const p of onDisk) assert.ok(!missing.includes(p), `${p} is present, not missing`);
    assert.ok(![...cape.files.keys()].some((k) => k.startsWith('5_sessions')), '5_sessions/ is not loaded');
    assert.deepStrictEqual(
      cape.byFolder('1_product').map((f) => f.relPath),
      onDisk.filter((p) => p.startsWith('1_product/')).sort(),
    );
    assert.deepStrictEqual(cape.byFolder('0_team'), []);
  });

  it('classifies generic / input / unknown and reports no issue for a complete folder', async () => {
    const root = completeCape();
    cleanup.push(root);
    write(root, '2_design/9_extra.md', '# no frontmatter\n');
    write(root, '2_design/8_other.md', '---\ntype: Something\n---\nx\n');
    write(root, '5_sessions/pair/x.md', '---\n: broken [\n---\n'); // never read
    write(root, '1_product/.hidden.md', '---\n: broken [\n---\n'); // hidden: skipped
    write(root, '1_product/notes.txt', 'not markdown');
    const cape = await loadCape(root);
    assert.deepStrictEqual(cape.issues, []);
    for (const g of GENERIC_CAPE_FILES) assert.strictEqual(cape.files.get(g)?.type, 'generic');
    for (const i of INPUT_CAPE_FILES) assert.strictEqual(cape.files.get(i)?.type, 'input');
    assert.strictEqual(cape.files.get('2_design/9_extra.md')?.type, 'unknown');
    assert.strictEqual(cape.files.get('2_design/8_other.md')?.type, 'unknown');
    assert.strictEqual(cape.files.size, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length + 2);
    assert.deepStrictEqual(
      cape.byFolder('2_design').map((f) => f.relPath),
      ['2_design/0_role.md', '2_design/1_principle.md', '2_design/2_brand.md', '2_design/8_other.md', '2_design/9_extra.md'],
    );
    const bodies = capeBodies(cape);
    assert.strictEqual(bodies.get('1_product/1_mvv.md'), '# 1_product/1_mvv.md\n');
  });

  it('refuses ---js / ---javascript frontmatter without evaluating it', async () => {
    const root = completeCape();
    cleanup.push(root);
    const marker = path.join(root, 'PWNED');
    const g = globalThis as Record<string, unknown>;
    delete g.__capePwned;
    const payload = (tag: string) =>
      `---${tag}\n{ type: (function () { require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); ` +
      `globalThis.__capePwned = true; return 'input'; })() }\n---\n# body\n`;
    const variants = ['js', 'javascript', 'JS', ' JavaScript ', ' js'];
    variants.forEach((tag, i) => write(root, `1_product/evil_${i}.md`, payload(tag)));

    const cape = await loadCape(root);
    assert.strictEqual(fs.existsSync(marker), false, 'the frontmatter code must not run (file written)');
    assert.strictEqual(g.__capePwned, undefined, 'the frontmatter code must not run (global set)');
    variants.forEach((_tag, i) => {
      const rel = `1_product/evil_${i}.md`;
      assert.strictEqual(cape.files.has(rel), false, `${rel} must be skipped`);
      const issue = cape.issues.find((x) => x.path === rel);
      assert.ok(issue, `${rel} reported`);
      assert.strictEqual(issue!.kind, 'refused');
      assert.match(issue!.message, /refused/);
    });
    // the other files are unaffected
    assert.strictEqual(cape.files.get('1_product/1_mvv.md')?.type, 'input');

    // Control: the same payload DOES run under gray-matter's defaults, so the assertions above are meaningful.
    const control = matter(payload('js'), {});
    assert.strictEqual(control.data.type, 'input');
    assert.strictEqual(fs.existsSync(marker), true);
    delete g.__capePwned;
  });

  it('reports malformed YAML with the file path and line, and still loads the other files', async () => {
    const root = completeCape();
    cleanup.push(root);
    write(root, '2_design/2_brand.md', '---\ntype: input\ntitle: ok\n  bad: indentation\n---\n# Brand\n');
    write(root, '3_development/1_architecture.md', '---\ntype: input\n# never closed\n');
    write(root, '1_product/2_persona.md', '---\n- a\n- b\n---\n# Not a mapping\n');

    const cape = await loadCape(root);
    const brand = cape.issues.find((i) => i.path === '2_design/2_brand.md');
    assert.ok(brand);
    assert.strictEqual(brand!.kind, 'malformed');
    assert.strictEqual(brand!.line, 4);
    assert.match(brand!.message, /2_design\/2_brand\.md:4/);
    const arch = cape.issues.find((i) => i.path === '3_development/1_architecture.md');
    assert.strictEqual(arch?.kind, 'malformed');
    assert.match(arch!.message, /never closed/);
    assert.strictEqual(cape.issues.find((i) => i.path === '1_product/2_persona.md')?.kind, 'malformed');
    // skipped files are not also reported as missing
    assert.strictEqual(cape.issues.filter((i) => i.kind === 'missing').length, 0);
    assert.strictEqual(cape.files.has('2_design/2_brand.md'), false);
    assert.strictEqual(cape.files.get('2_design/1_principle.md')?.type, 'input');
    assert.strictEqual(cape.files.size, GENERIC_CAPE_FILES.length + INPUT_CAPE_FILES.length - 3);
  });

  it('reports every expected file as missing when cape/ does not exist', async () => {
    const root = tmpDir('cape-none-');
    cleanup.push(root);
    const cape = await loadCape(path.join(root, 'cape'));
    assert.strictEqual(cape.files.size, 0);
    assert.strictEqual(cape.issues[0].path, '.');
    assert.match(cape.issues[0].message, /not found/);
    const missing = cape.issues.filter((i) => i.kind === 'missing').map((i) => i.path);
    for (const p of [...GENERIC_CAPE_FILES, ...INPUT_CAPE_FILES]) assert.ok(missing.includes(p), p);
  });

  it('reports a deleted expected file as missing', async () => {
    const root = completeCape();
    cleanup.push(root);
    fs.rmSync(path.join(root, '0_team', '3_dor.md'));
    const cape = await loadCape(root);
    assert.deepStrictEqual(
      cape.issues.map((i) => [i.path, i.kind]),
      [['0_team/3_dor.md', 'missing']],
    );
  });

  it('never returns gray-matter\'s shared cache', async () => {
    const root = completeCape();
    cleanup.push(root);
    const text = '---\ntype: input\n---\n# cached\n';
    write(root, '1_product/1_mvv.md', text);
    // Another caller uses gray-matter without options (which caches) and mutates the result.
    const poisoned = matter(text);
    poisoned.data.type = 'generic';
    const cape = await loadCape(root);
    assert.strictEqual(cape.files.get('1_product/1_mvv.md')?.type, 'input');
  });

  it('truncates files over the size limit with an issue', async () => {
    const root = completeCape();
    cleanup.push(root);
    const big = '---\ntype: input\n---\n' + 'é'.repeat(MAX_ASSET_BYTES); // 2 bytes per char: well over the limit
    write(root, '3_development/3_standards.md', big);
    const cape = await loadCape(root);
    const f = cape.files.get('3_development/3_standards.md');
    assert.ok(f);
    assert.strictEqual(f!.truncated, true);
    assert.ok(Buffer.byteLength(f!.body) <= MAX_ASSET_BYTES);
    assert.ok(!f!.body.includes('\uFFFD'), 'no broken character at the cut');
    assert.deepStrictEqual(cape.issues.map((i) => [i.path, i.kind]), [['3_development/3_standards.md', 'truncated']]);
    // 20 + 2 × 262,144 bytes
    assert.strictEqual(cape.issues[0].message, '3_development/3_standards.md is 512.1 KB; only the first 256 KB are used');
  });

  it('a frontmatter longer than the size limit is said to be too long, not "never closed"', async () => {
    const root = completeCape();
    cleanup.push(root);
    // the closing '---' is there, after the first MAX_ASSET_BYTES: adding another one (what "never closed" asks) cannot help
    const notes = '  a line of notes\n'.repeat(Math.ceil(MAX_ASSET_BYTES / 17));
    write(root, '1_product/1_mvv.md', `---\ntype: input\nnotes: |\n${notes}---\n# Vision\n`);
    const cape = await loadCape(root);
    assert.ok(!cape.files.has('1_product/1_mvv.md'));
    assert.deepStrictEqual(cape.issues.map((i) => [i.path, i.kind]), [['1_product/1_mvv.md', 'malformed']]);
    assert.match(
      cape.issues[0].message,
      /^1_product\/1_mvv\.md:1: its frontmatter does not end within the first 256 KB, all that is read of this 271\.\d KB file; shorten the frontmatter; the file was skipped$/,
    );
  });

  it('does not follow symlinks that point outside cape/, but follows those inside', async function () {
    const root = completeCape();
    const outside = tmpDir('cape-outside-');
    cleanup.push(root, outside);
    write(outside, 'secret.md', '---\ntype: input\n---\nSECRET\n');
    write(outside, 'dir/inner.md', '---\ntype: input\n---\nSECRET DIR\n');
    try {
      fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, '1_product', 'leak.md'));
      fs.symlinkSync(path.join(outside, 'dir'), path.join(root, '2_design', 'leakdir'));
      fs.symlinkSync(path.join(root, '1_product', '1_mvv.md'), path.join(root, '2_design', 'alias.md'));
      fs.symlinkSync(root, path.join(root, '3_development', 'loop'));
    } catch {
      this.skip(); // no symlink permission (e.g. Windows without developer mode)
    }
    const cape = await loadCape(root);
    assert.strictEqual(cape.files.has('1_product/leak.md'), false);
    assert.ok(![...cape.files.values()].some((f) => f.body.includes('SECRET')));
    assert.strictEqual(cape.issues.find((i) => i.path === '1_product/leak.md')?.kind, 'refused');
    assert.strictEqual(cape.issues.find((i) => i.path === '2_design/leakdir')?.kind, 'refused');
    assert.strictEqual(cape.files.get('2_design/alias.md')?.type, 'input');
    assert.ok(![...cape.files.keys()].some((k) => k.startsWith('3_development/loop/')), 'a loop is not walked');
  });

  it('loads at most MAX_CAPE_BYTES in all: the files past it are skipped, named in one issue', async () => {
    const root = completeCape();
    cleanup.push(root);
    const big = '---\ntype: input\n---\n' + 'x'.repeat(MAX_ASSET_BYTES - 30) + '\n';
    const fit = Math.floor(MAX_CAPE_BYTES / MAX_ASSET_BYTES) - 1; // room is left for the small files walked before
    for (let i = 0; i < fit + 8; i++) write(root, `1_product/notes/${String(i).padStart(2, '0')}.md`, big);
    const cape = await loadCape(root);
    const bytes = [...cape.files.values()].reduce((n, f) => n + Buffer.byteLength(f.body), 0);
    assert.ok(bytes <= MAX_CAPE_BYTES, `${bytes} bytes loaded`);
    const notes = [...cape.files.keys()].filter((k) => k.startsWith('1_product/notes/'));
    assert.ok(notes.length >= fit - 1 && notes.length <= fit, `${notes.length} notes loaded`);
    // the files after them in folder order (1_product/… after notes/, then 2_design/, 3_development/, 4_orchestration/)
    const skipped = [...GENERIC_CAPE_FILES, ...INPUT_CAPE_FILES].filter((f) => !cape.files.has(f));
    assert.ok(skipped.includes('4_orchestration/1_process.md'));
    assert.ok(!cape.issues.some((i) => i.kind === 'missing'), 'a skipped file is not said to be missing');
    const over = cape.issues.filter((i) => i.kind === 'too-much');
    assert.strictEqual(over.length, 1);
    assert.strictEqual(over[0].path, '.');
    const total = fit + 8 - notes.length + skipped.length;
    assert.match(over[0].message, new RegExp(`^holds more markdown than the 2 MB CAPE loads: ${total} files past it \\(in folder order\\) were not loaded: 1_product/notes/\\d+\\.md, .*, and ${total - 5} more\\. Move what`));
    assert.deepStrictEqual(capeWarnings(over, 'cape', new Set()), [`cape/ ${over[0].message}`]);
  });

  it('never reads a file named like a secret, nor one that links to such a file (workspace read policy)', async function () {
    const root = completeCape();
    cleanup.push(root);
    write(root, '1_product/credentials.md', '---\ntype: input\n---\nCREDS\n');
    write(root, '1_product/secrets.md', 'SECRETS\n');
    write(root, '3_development/id_rsa.md', 'KEY\n');
    write(root, '.env', 'API_KEY=SECRET_ENV\n');
    write(root, '2_design/.ssh-keys/x.md', 'hidden\n');
    try {
      fs.symlinkSync('../.env', path.join(root, '1_product', 'env.md')); // stays inside cape/
      fs.symlinkSync('../3_development/id_rsa.md', path.join(root, '2_design', 'keynotes.md'));
    } catch {
      this.skip(); // no symlink permission (e.g. Windows without developer mode)
    }
    const cape = await loadCape(root);
    const refused = ['1_product/credentials.md', '1_product/env.md', '1_product/secrets.md', '2_design/keynotes.md', '3_development/id_rsa.md'];
    for (const rel of refused) assert.strictEqual(cape.files.has(rel), false, rel);
    assert.ok(![...cape.files.values()].some((f) => /CREDS|SECRETS|KEY|SECRET_ENV/.test(f.body)));
    assert.deepStrictEqual(
      cape.issues.filter((i) => i.kind === 'refused').map((i) => i.path).sort(),
      refused,
    );
    const byPath = new Map(cape.issues.map((i) => [i.path, i.message]));
    assert.match(byPath.get('1_product/credentials.md')!, /secret-file pattern "credentials\*".*rename it \(e\.g\. to 1_product\/notes\.md\)/);
    assert.match(byPath.get('1_product/env.md')!, /links to \.env, whose name matches the secret-file pattern ".*not followed/);
    // the project's files are still loaded
    assert.ok(cape.files.has('1_product/1_mvv.md'));
  });
});

describe('assets: parseFrontmatter', () => {
  it('parses YAML frontmatter and strips it from the body', () => {
    const r = parseFrontmatter('\uFEFF---\r\ntype: generic\r\ntitle: "T"\r\n---\r\n# Body\r\n');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepStrictEqual(r.data, { type: 'generic', title: 'T' });
    assert.strictEqual(r.body, '# Body\r\n');
    assert.strictEqual(r.hasFrontmatter, true);
  });

  it('treats text without frontmatter (or a horizontal rule) as body', () => {
    for (const text of ['# Title\n', '----\nrule', '']) {
      const r = parseFrontmatter(text);
      assert.ok(r.ok && !r.hasFrontmatter && r.body === text, JSON.stringify(text));
    }
  });

  it('refuses unknown frontmatter languages and YAML code tags', () => {
    const coffee = parseFrontmatter('---coffee\ntype: "input"\n---\n');
    assert.ok(!coffee.ok && coffee.kind === 'refused');
    const tag = parseFrontmatter('---\ntype: !!js/function "function () { return 1 }"\n---\n');
    assert.ok(!tag.ok && tag.kind === 'malformed', 'js-yaml safe schema rejects code tags');
  });
});

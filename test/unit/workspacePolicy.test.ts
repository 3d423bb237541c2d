// What of the workspace the model may read: path rules, .git and cape/, .gitignore (nested, negation), secrets by
// name, size and binaries — each refusal with its reason, and no content returned for a refused file.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import ignore from 'ignore';
import { isBinaryContent, WorkspacePolicy, type ReadCheck } from '../../src/core/workspace/policy';
import { secretPattern, SECRET_NAME_PATTERNS, SECRET_FAST_PATH, simplePatternsRegExp } from '../../src/core/workspace/secretNames';

function write(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

function workspace(): { root: string; outside: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-'));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  write(root, 'src/app.ts', 'export const app = 1;\n');
  write(root, '.gitignore', 'dist/\n*.log\n!keep.log\n/generated.ts\n');
  write(root, 'dist/bundle.js', 'x');
  write(root, 'debug.log', 'x');
  write(root, 'keep.log', 'kept');
  write(root, 'generated.ts', 'x');
  write(root, 'src/generated.ts', 'anchored rule only matches at the root');
  write(root, 'pkg/.gitignore', 'local.ts\n!debug.log\n');
  write(root, 'pkg/local.ts', 'x');
  write(root, 'pkg/debug.log', 're-included by the deeper .gitignore');
  write(root, 'pkg/sub/local.ts', 'x');
  write(root, 'dist/.gitignore', '!bundle.js\n');
  write(root, '.git/config', '[core]');
  write(root, 'cape/1_product/1_mvv.md', '# MVV');
  write(root, 'node_modules/lib/index.js', 'x');
  write(root, 'big.txt', 'a'.repeat(2048));
  write(root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  write(root, 'latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  write(root, 'utf8.txt', '\ufeffcafé ✓');
  write(root, '.env', 'API_KEY=sk-live-secret');
  write(root, 'config/.env.production', 'SECRET=1');
  write(root, 'certs/server.pem', 'x');
  write(root, '.ssh/config', 'x');
  write(root, 'home/id_ed25519.pub', 'x');
  write(root, 'aws/Credentials.json', 'x');
  write(outside, 'secret.ts', 'outside');
  fs.symlinkSync(outside, path.join(root, 'escape'), 'dir');
  fs.symlinkSync(path.join(root, 'src', 'app.ts'), path.join(root, 'app-link.ts'));
  return { root, outside };
}

describe('workspace policy', () => {
  const { root } = workspace();
  const policy = new WorkspacePolicy(root, { maxBytes: 1024 });

  it('reads an ordinary source file and returns its text', async () => {
    const r = await policy.read('src/app.ts');
    assert.ok(r.ok, JSON.stringify(r));
    assert.strictEqual(r.text, 'export const app = 1;\n');
    assert.strictEqual(r.relPath, 'src/app.ts');
  });

  it('applies the path rules of writing (one truth: pathSafety)', () => {
    for (const [p, why] of [
      ['../outside/secret.ts', /"\.\."/],
      ['/etc/passwd', /absolute/],
      ['escape/secret.ts', /outside the workspace/],
      ['app-link.ts', /symbolic link/],
      ['.git/config', /\.git/],
      ['', /empty/],
    ] as [string, RegExp][]) {
      const c = policy.check(p);
      assert.ok(!c.ok, p);
      assert.match(c.reason, why, p);
    }
  });

  it('skips the cape folder, dependency folders and .git', () => {
    const cape = policy.check('cape/1_product/1_mvv.md');
    assert.ok(!cape.ok && /need-to-know/.test(cape.reason), JSON.stringify(cape));
    const nm = policy.check('node_modules/lib/index.js');
    assert.ok(!nm.ok && /dependency/.test(nm.reason));
    assert.match(policy.skipDir('.git') ?? '', /repository/);
    assert.strictEqual(policy.skipDir('src'), null);
    const custom = new WorkspacePolicy(root, { capeFolder: 'team' });
    assert.ok(custom.check('cape/1_product/1_mvv.md').ok, 'another cape folder leaves cape/ readable');
    const folders = ['./team/', '/team//', '.\\team\\', '/', './', `team${'/'.repeat(100_000)}x/`].map((f) => new WorkspacePolicy(root, { capeFolder: f }).capeFolder);
    assert.deepStrictEqual(folders, ['team', 'team', 'team', 'cape', 'cape', `team${'/'.repeat(100_000)}x`], 'the setting without its slashes');
  });

  it('follows .gitignore like git: directories, globs, negation, anchoring, nested files overriding', () => {
    const refused = (p: string) => {
      const c = policy.check(p);
      return c.ok ? null : c.reason;
    };
    assert.match(refused('dist/bundle.js') ?? '', /ignored by \.gitignore: dist\//, 'a folder rule wins over a negation inside it');
    assert.match(refused('debug.log') ?? '', /\*\.log/);
    assert.strictEqual(refused('keep.log'), null, '!keep.log re-includes');
    assert.match(refused('generated.ts') ?? '', /\/generated\.ts/);
    assert.strictEqual(refused('src/generated.ts'), null, '/generated.ts is anchored to the root');
    assert.match(refused('pkg/local.ts') ?? '', /pkg\/\.gitignore: local\.ts/);
    assert.match(refused('pkg/sub/local.ts') ?? '', /pkg\/\.gitignore/, 'a nested rule applies below its folder');
    assert.strictEqual(refused('pkg/debug.log'), null, 'the deeper .gitignore re-includes');
  });

  it('matches .gitignore patterns with the case rule git uses by default on this platform', () => {
    const { root: ws } = workspace();
    write(ws, 'sub/.gitignore', 'build/\n*.TRACE\n');
    write(ws, 'sub/Build/a.ts', 'x');
    write(ws, 'sub/run.trace', 'x');
    const p = new WorkspacePolicy(ws);
    // git init sets core.ignorecase only on a case-insensitive file system (macOS, Windows); elsewhere `build/` is not `Build/`
    const folds = process.platform === 'darwin' || process.platform === 'win32';
    assert.strictEqual(p.check('sub/Build/a.ts').ok, !folds);
    assert.strictEqual(p.check('sub/run.trace').ok, !folds);
    assert.match(p.excluded('sub/build/a.ts') ?? '', /build\//, 'same case: ignored everywhere');
  });

  it('does not follow a .gitignore that is a symbolic link, as git does not (the root one included)', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-gilink-'));
    write(ws, 'rules.txt', 'a.js\n');
    fs.symlinkSync('rules.txt', path.join(ws, '.gitignore'));
    write(ws, 'sub/x.txt', 'b.js\n');
    fs.symlinkSync('x.txt', path.join(ws, 'sub', '.gitignore'));
    write(ws, 'a.js', 'x');
    write(ws, 'sub/b.js', 'x');
    const p = new WorkspacePolicy(ws);
    assert.strictEqual(p.excluded('a.js'), null);
    assert.strictEqual(p.excluded('sub/b.js'), null);
  });

  it('reads a .gitignore saved with a byte-order mark as git does: its first rule applies, also after info/exclude', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-bom-'));
    write(ws, '.gitignore', '\uFEFFprivate.txt\n');
    write(ws, 'sub/.gitignore', '\uFEFFlocal.txt\n');
    write(ws, 'private.txt', 'x');
    write(ws, 'sub/local.txt', 'x');
    write(ws, 'app.ts', 'x');
    execFileSync('git', ['init', '-q'], { cwd: ws }); // writes .git/info/exclude, read before .gitignore
    const p = new WorkspacePolicy(ws);
    assert.match(p.excluded('private.txt') ?? '', /ignored by \.gitignore/);
    assert.match(p.excluded('sub/local.txt') ?? '', /ignored by sub\/\.gitignore/);
    assert.strictEqual(p.excluded('app.ts'), null);
  });

  it('a .gitignore line too long for a RegExp is skipped, the other rules still apply (at the root, below it and above it)', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-long-'));
    const huge = 'x'.repeat(60_000);
    fs.mkdirSync(path.join(base, '.git'));
    write(base, '.gitignore', `${huge}\nabove.ts\n`);
    const ws = path.join(base, 'pkg');
    write(ws, '.gitignore', `dist/\n${huge}\n*.log\n`);
    write(ws, 'sub/.gitignore', `${huge}\nlocal.ts\n`);
    for (const f of ['src/app.ts', 'dist/out.js', 'debug.log', 'sub/local.ts', 'sub/kept.ts', 'above.ts']) write(ws, f, 'x');
    const p = new WorkspacePolicy(ws);
    assert.ok(p.check('src/app.ts').ok, JSON.stringify(p.check('src/app.ts')));
    assert.ok(p.check('sub/kept.ts').ok);
    for (const [rel, rule] of [['dist/out.js', 'dist/'], ['debug.log', '*.log'], ['sub/local.ts', 'local.ts'], ['above.ts', 'above.ts']]) {
      const c = p.check(rel);
      assert.ok(!c.ok && c.reason.endsWith(`: ${rule}`), `${rel}: ${JSON.stringify(c)}`);
    }
  });

  it('a .gitignore rule of many `**` segments is dropped (or its runs of them made one), not matched for seconds', () => {
    // `ignore` makes each `**` a nested `(?:\/[^\/]+)*`: 12 of them took 6 s for each path 32 folders deep
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-globstars-'));
    write(base, '.gitignore', `${'a/**/'.repeat(12)}x\n${'a/**/'.repeat(2)}b/**/**/**/**/**/c\n*.log\n`);
    const deep = `${'a/'.repeat(32)}file.txt`;
    for (const f of [deep, 'a/q/a/b/r/s/c', 'a/a/b/c.ts', 'debug.log']) write(base, f, 'x');
    const p = new WorkspacePolicy(base);
    assert.ok(p.check(deep).ok, JSON.stringify(p.check(deep)));
    assert.ok(p.check('a/a/b/c.ts').ok);
    for (const rel of ['a/q/a/b/r/s/c', 'debug.log']) assert.ok(!p.check(rel).ok, rel);
  });

  it('re-reads a .gitignore after forget()', () => {
    const p = new WorkspacePolicy(root);
    assert.ok(p.check('src/app.ts').ok);
    write(root, 'src/.gitignore', 'app.ts\n');
    assert.ok(p.check('src/app.ts').ok, 'cached rules');
    p.forget('src/.gitignore');
    assert.ok(!p.check('src/app.ts').ok);
    fs.unlinkSync(path.join(root, 'src/.gitignore'));
    p.forget('src/.gitignore');
    assert.ok(p.check('src/app.ts').ok);
  });

  it('never reads secrets by name, at any depth and in any case', async () => {
    for (const p of ['.env', 'config/.env.production', 'certs/server.pem', '.ssh/config', 'home/id_ed25519.pub', 'aws/Credentials.json']) {
      const r = await policy.read(p);
      assert.ok(!r.ok, p);
      assert.match(r.reason, /secret|credentials/, p);
      assert.ok(!('text' in r));
    }
    for (const name of ['.ENV', 'a/b/.env.local', 'key.PEM', 'x.p12', 'x.pfx', 'id_rsa', 'id_rsa.pub', '.npmrc', '.netrc', 'credentials', 'credentials.json', 'prod.env', 'deploy/secrets.yaml', 'deploy/.docker/config.json', '.docker/config.json', 'keys/server.ppk', 'ops/.kube/config', '.envrc']) {
      assert.ok(secretPattern(name), name);
    }
    for (const name of ['src/env.ts', 'environment.ts', 'keyboard.ts', 'src/keys.ts', 'docs/readme.md', 'src/pem.ts']) {
      assert.strictEqual(secretPattern(name), null, name);
    }
    assert.ok(SECRET_NAME_PATTERNS.includes('.env*') && SECRET_NAME_PATTERNS.includes('id_rsa*'));
  });

  it('answers secret names with one RegExp that agrees with the `ignore` library on every generated path', () => {
    assert.ok(SECRET_FAST_PATH, 'the documented secret list is all simple patterns (else `ignore` alone decides)');
    // segments near every pattern: exact names, other case, prefixes, suffixes, look-alikes, non-ASCII, dots
    const names = [
      '.env', '.ENV', '.env.local', '.Env.Production', 'x.env', 'env', '.envrc', '.env.', 'a.env.bak', 'id_rsa', 'ID_RSA.pub', 'xid_rsa', 'id_ed25519_sk',
      'id_ecdsa', 'id_dsa.old', '.ssh', '.SSH', 'ssh', '.ssh2', '.aws', '.gnupg', '.docker', 'config.json', 'CONFIG.JSON', 'credentials', 'Credentials.json',
      'my-credentials', 'secrets.yaml', 'secrets', 'Secrets.', 'secret.yaml', '.npmrc', 'npmrc', '.NETRC', '_netrc', '.git-credentials', '.htpasswd', '.pgpass',
      '.pypirc', '.yarnrc', '.yarnrc.yml', 'a.pem', 'pem', '.pem', 'x.key', 'key', 'keys', 'x.keyx', 'store.jks', 'app.keystore', 'db.kdbx', 'c.p12', 'c.pfx',
      'src', 'lib', 'index.ts', 'é.env', 'ü', 'a b', '日本.key', '..', '.', 'x..pem',
      'terraform.tfstate', 'a.TFSTATE.backup', 'tfstate', 'x.tfvars', 'x.tfvars.json', 'x.tfvars.example', 'main.tf', '.terraformrc', 'terraform.rc',
      'service-account.json', 'Service_Account-key.json', 'serviceAccountKey.json', 'service-account.ts', 'p-firebase-adminsdk-x1-ff.json',
      'application_default_credentials.json', 'client_secret_1.json', 'client_secret.ts', '.my.cnf', 'my.cnf', '.vault-token', '.dockercfg', '.s3cfg',
      'credentials.key', 'secrets.env', 'Credentials.d', 'secrets.pem',
    ];
    let seed = 11;
    const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const matcher = ignore({ ignorecase: true }).add(SECRET_NAME_PATTERNS as string[]);
    const re = simplePatternsRegExp(SECRET_NAME_PATTERNS)!;
    let secrets = 0;
    for (let i = 0; i < 20_000; i++) {
      const depth = 1 + next(4);
      const neutral = ['src', 'lib', 'index.ts', 'app', 'ü', 'a b', 'keys'];
      const segs = Array.from({ length: depth }, () => (next(3) ? neutral[next(neutral.length)] : names[next(names.length)])).filter((x) => x !== '.' && x !== '..');
      if (!segs.length) continue;
      const p = segs.join('/');
      const want = matcher.ignores(p);
      assert.strictEqual(re.test(p), want, p);
      assert.strictEqual(secretPattern(p) !== null, want, p);
      assert.strictEqual(re.test(p + '/'), matcher.ignores(p + '/'), p + '/');
      if (want) secrets++;
    }
    assert.ok(secrets > 2000 && secrets < 15_000, `both kinds of paths were tried (${secrets} secret)`);
  });

  it('translates other simple pattern lists exactly as `ignore` reads them, and leaves other syntax to `ignore`', () => {
    let seed = 5;
    const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const parts = ['a', 'B', 'ab', '.x', 'x.y', '-', '_', 'conf'];
    const glob = () => Array.from({ length: 1 + next(3) }, () => (next(3) ? parts[next(parts.length)] : '*')).join('');
    for (let round = 0; round < 60; round++) {
      const patterns = Array.from({ length: 1 + next(5) }, () => {
        const kind = next(4);
        const g = glob();
        return kind === 0 ? g + '/' : kind === 1 ? `${glob()}/${g}` : g;
      }).filter((p) => !p.includes('**'));
      if (!patterns.length) continue;
      // half the lists without anchored patterns end with re-included folder names
      if (round % 2 && !patterns.some((p) => p.replace(/\/$/, '').includes('/'))) patterns.push(...Array.from({ length: 1 + next(2) }, () => `!${glob()}/`));
      const re = simplePatternsRegExp(patterns);
      assert.ok(re, patterns.join(' '));
      const matcher = ignore({ ignorecase: true }).add(patterns);
      for (let i = 0; i < 300; i++) {
        const p = Array.from({ length: 1 + next(3) }, () => glob().replace(/\*/g, parts[next(parts.length)])).join('/');
        assert.strictEqual(re.test(p), matcher.ignores(p), `${patterns.join(' ')} ~ ${p}`);
      }
    }
    for (const odd of [['a?'], ['[ab]c'], ['**/x'], ['!x'], ['!x/', 'y'], ['a/b', '!b/'], ['!a/b/'], ['\\#x'], ['/root'], ['a b'], ['x/y/']]) assert.strictEqual(simplePatternsRegExp(odd), null, odd[0]);
  });

  it('skips the installed packages and build caches of other ecosystems too, when no .gitignore names them', () => {
    const p = new WorkspacePolicy(fs.mkdtempSync(path.join(os.tmpdir(), 'cape-policy-deps-')));
    for (const dir of ['.venv', 'api/.venv', '__pycache__', 'pkg/__pycache__', '.tox', '.mypy_cache', '.pytest_cache', '.gradle', '.next', 'web/.next', '.nuxt', '.svelte-kit', '.turbo', '.parcel-cache', '.angular']) {
      assert.match(p.skipDir(dir) ?? '', /dependency or tool folder/, dir);
    }
    for (const dir of ['venv-tools', 'src/next', 'gradle', 'python', 'cache']) assert.strictEqual(p.skipDir(dir), null, dir);
  });

  it('still refuses secrets and dependency folders after forget() and after many one-off checks (matchers renewed)', () => {
    const p = new WorkspacePolicy(root);
    for (let round = 0; round < 2; round++) {
      assert.match(p.skipFileName('config/.env.production') ?? '', /secret/);
      assert.match(p.skipDir('a/.ssh') ?? '', /credentials/);
      assert.match(p.skipDir('web/node_modules') ?? '', /dependency/);
      assert.strictEqual(p.skipFileName('src/env.ts'), null);
      p.forget();
    }
    // more one-off checks than the shared matcher keeps answers for: it is renewed and answers the same
    for (let i = 0; i < 25_000; i++) assert.strictEqual(secretPattern(`src/m${i}/x${i}.ts`), null);
    assert.strictEqual(secretPattern('deep/dir/.env.local'), '.env*');
    assert.strictEqual(secretPattern('keys/server.PEM'), '*.pem');
  });

  it('refuses files over the size limit and binaries, keeps valid UTF-8 (BOM dropped)', async () => {
    const big = policy.check('big.txt');
    assert.ok(!big.ok && /^big\.txt is 2 KB, over the 1 KB limit$/.test(big.reason), JSON.stringify(big));
    const png = await policy.read('image.png');
    assert.ok(!png.ok && /binary/.test(png.reason));
    const latin1 = await policy.read('latin1.txt');
    assert.ok(!latin1.ok && /binary/.test(latin1.reason), 'invalid UTF-8 is not text');
    const u = await policy.read('utf8.txt');
    assert.ok(u.ok && u.text === 'café ✓');
    assert.ok(isBinaryContent(Buffer.from('a\0b')));
    assert.ok(!isBinaryContent(Buffer.from('日本語')));
  });

  it('reads the file it checked: one swapped after the check for a symlink out, a FIFO or a larger file is refused, never followed, waited on or sent', async () => {
    const { root: ws, outside } = workspace();
    const swaps: Record<string, (abs: string) => void> = {
      'src/link.ts': (abs) => fs.symlinkSync(path.join(outside, 'secret.ts'), abs),
      'src/grown.ts': (abs) => fs.writeFileSync(abs, 'x'.repeat(4096)),
    };
    if (process.platform !== 'win32') swaps['src/fifo.ts'] = (abs) => execFileSync('mkfifo', [abs]);
    /** Swaps each file right after the read's check passed, as another process could. */
    class SwappedAfterCheck extends WorkspacePolicy {
      override check(p: string): ReadCheck {
        const c = super.check(p);
        const swap = swaps[p];
        if (c.ok && swap) {
          fs.rmSync(c.absPath);
          swap(c.absPath);
        }
        return c;
      }
    }
    for (const sync of [false, true]) {
      for (const [rel, why] of [
        ['src/link.ts', /src\/link\.ts is a symbolic link/],
        ['src/grown.ts', /src\/grown\.ts is 4 KB, over the 1 KB limit/],
        ['src/fifo.ts', /src\/fifo\.ts is not a regular file/],
      ] as const) {
        if (!swaps[rel]) continue;
        fs.rmSync(path.join(ws, ...rel.split('/')), { force: true });
        write(ws, rel, 'export const checked = 1;\n');
        const p = new SwappedAfterCheck(ws, { maxBytes: 1024 });
        const r = sync ? p.readSync(rel) : await p.read(rel);
        assert.ok(!r.ok, `${rel} (${sync ? 'readSync' : 'read'}): ${JSON.stringify(r)}`);
        assert.match(r.reason, why);
      }
    }
  });

  it('says what is missing or not a file', () => {
    const missing = policy.check('src/nope.ts');
    assert.ok(!missing.ok && /does not exist/.test(missing.reason));
    const dir = policy.check('src');
    assert.ok(!dir.ok && /folder/.test(dir.reason));
  });
});

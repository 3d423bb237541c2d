// The CLI's lazy bundles (src/cli/bundles.ts): `cape context` and `cape help` load dist/cli.js alone, `cape kpt` and
// `cape housekeeping` add dist/cli-kpt.js, and what they load holds none of the session machinery; `cape start` (like
// init, resume, repeat) loads dist/cli-session.js, and its usage errors still end with exit code 2. Which files a run
// loaded is read from the require cache at exit, through a module preloaded with NODE_OPTIONS; what a bundle holds,
// from its source map (the development build that the CLI tests run has them).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir } from '../helpers/cli';
import { repoRoot } from '../helpers/fixtures';

const DIST = path.join(repoRoot(), 'dist');
/** Modules of the session commands and of the session runner: none may be in what the light commands load. */
const SESSION_SOURCES = ['src/cli/sessionCommands.ts', 'src/cli/session.ts', 'src/cli/init.ts', 'src/cli/repeat.ts', 'src/cli/settings.ts', 'src/core/session/runner.ts'];

const PROBE = `'use strict';
// Writes the files the main thread loaded to CAPE_TEST_LOADED_OUT at exit (worker threads keep their own cache).
if (require('worker_threads').isMainThread) {
  process.on('exit', () => require('fs').writeFileSync(process.env.CAPE_TEST_LOADED_OUT, JSON.stringify(Object.keys(require.cache))));
}
`;

describe('CLI: each command loads its own bundles', function () {
  this.timeout(60000);
  const dir = tempDir('cape-bundles-');
  const probe = path.join(dir, 'probe.js');
  fs.writeFileSync(probe, PROBE);
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'invoice.ts'), 'export function invoiceTotal(lines: { price: number }[]): number { return lines.reduce((a, l) => a + l.price, 0); }\n');
  let runs = 0;
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the CLI and returns its result with the files of dist/ it loaded (base names, sorted). */
  async function run(args: string[]) {
    const out = path.join(dir, `loaded-${++runs}.json`);
    const res = await runCli(args, { NODE_OPTIONS: `--require ${JSON.stringify(probe)}`, CAPE_TEST_LOADED_OUT: out, CAPE_CACHE_DIR: path.join(dir, 'cache') });
    const loaded = (JSON.parse(fs.readFileSync(out, 'utf8')) as string[]).filter((f) => path.dirname(f) === DIST).map((f) => path.basename(f)).sort();
    return { ...res, loaded };
  }

  /** The sources of a bundle, from its source map, relative to the repository. */
  function sourcesOf(file: string): string[] {
    const map = path.join(DIST, `${file}.map`);
    assert.ok(fs.existsSync(map), `${map} is missing: the CLI tests run the development build (npm run build)`);
    const { sources } = JSON.parse(fs.readFileSync(map, 'utf8')) as { sources: string[] };
    return sources.map((s) => path.relative(repoRoot(), path.resolve(DIST, s)).split(path.sep).join('/'));
  }

  for (const [args, bundles] of [
    [['context', '--workspace', ws, '--objective', 'Total of an invoice', '--json'], ['cli.js']],
    [['--help'], ['cli.js']],
    [['kpt', 'list', '--workspace', ws, '--json'], ['cli-kpt.js', 'cli.js']],
    [['housekeeping', '--workspace', ws, '--json'], ['cli-kpt.js', 'cli.js']],
  ]) {
    it(`cape ${args[0]} loads ${bundles.join(' + ')} and no session module`, async () => {
      const r = await run(args);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.deepStrictEqual(r.loaded, bundles);
      for (const bundle of bundles) {
        const held = sourcesOf(bundle);
        assert.ok(held.some((s) => s.startsWith('src/cli/')), `the source map of ${bundle} names its modules (${held.slice(0, 5).join(', ')}…)`);
        assert.deepStrictEqual(SESSION_SOURCES.filter((s) => held.includes(s)), [], bundle);
      }
    });
  }

  it('cape start loads dist/cli-session.js, and its usage errors still end with exit code 2', async () => {
    const r = await run(['start', '--workspace', ws]);
    assert.strictEqual(r.code, 2, r.stderr);
    assert.match(r.stderr, /^cape: --objective TEXT \(or --objective-file PATH\) is required\.\n$/);
    assert.deepStrictEqual(r.loaded, ['cli-session.js', 'cli.js']);
    assert.ok(sourcesOf('cli-session.js').includes('src/core/session/runner.ts'));
  });

  it('dist/cli.js holds no module of `cape kpt`', () => {
    assert.deepStrictEqual(sourcesOf('cli.js').filter((s) => s === 'src/cli/kpt.ts' || s === 'src/core/store/store.ts'), []);
  });
});

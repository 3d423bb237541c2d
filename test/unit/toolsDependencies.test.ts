// Installed dependencies read by their path (workspace/policy.ts, the header's one exception): read_file and
// list_files (and search_files given such a path) reach node_modules/ at any depth, pnpm's symlinked layout too, while
// every other rule holds — secret names, symlinks out of the workspace, other ignored paths — and no walk from above
// (search_files or list_files without a path, the index) enters it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ToolRunner } from '../../src/core/tools/executor';
import { WorkspacePolicy } from '../../src/core/workspace/policy';
import { TOOL_SPECS } from '../../src/core/tools/specs';
import { writeFiles } from '../helpers/cli';
import type { ToolCall } from '../../src/core/model/types';

let n = 0;
const call = (name: string, input: unknown): ToolCall => ({ id: `d${++n}`, name, input });

/** A workspace whose .gitignore names node_modules/ and dist/, with npm's and pnpm's layouts of installed packages. */
function workspace(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-deps-'));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  writeFiles(ws, {
    '.gitignore': 'node_modules/\ndist/\n.env.local\n',
    'src/app.js': "const cookie = require('cookie');\n",
    'dist/bundle.js': 'sameSite in a bundle',
    // npm: a package folder, with a nested one
    'node_modules/cookie/index.js': "exports.serialize = function (name, val, opt) {\n  if (opt.sameSite) return 'sameSite';\n};\n",
    'node_modules/cookie/package.json': '{ "name": "cookie" }\n',
    'node_modules/cookie/.env': 'TOKEN=dep-secret',
    'node_modules/cookie/node_modules/dep/index.js': 'module.exports = 1;\n',
    // pnpm: node_modules/ms is a link into node_modules/.pnpm
    'node_modules/.pnpm/ms@2.1.3/node_modules/ms/index.js': 'module.exports = function ms(val) { return sameSite(val); };\n',
  });
  fs.symlinkSync(path.join('.pnpm', 'ms@2.1.3', 'node_modules', 'ms'), path.join(ws, 'node_modules', 'ms'), 'dir');
  // a link out of the workspace, and one into another ignored folder
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'index.js'), 'OUTSIDE-BYTES sameSite');
  fs.symlinkSync(outside, path.join(ws, 'node_modules', 'escape'), 'dir');
  fs.symlinkSync(path.join(ws, 'dist'), path.join(ws, 'node_modules', 'built'), 'dir');
  return ws;
}

describe('tools: installed dependencies (node_modules/) read by their path', () => {
  let ws: string;
  beforeEach(() => (ws = workspace()));
  afterEach(() => fs.rmSync(path.dirname(ws), { recursive: true, force: true }));
  const run = (...calls: ToolCall[]) => new ToolRunner({ workspace: ws, bounds: { maxCalls: 50 } }).execute(calls);

  it('read_file reads a package file (npm and pnpm layouts, nested node_modules), list_files lists a package folder', async () => {
    const [npm, pnpm, nested, listed] = await run(
      call('read_file', { path: 'node_modules/cookie/index.js' }),
      call('read_file', { path: 'node_modules/ms/index.js' }),
      call('read_file', { path: 'node_modules/cookie/node_modules/dep/index.js' }),
      call('list_files', { path: 'node_modules/cookie' }),
    );
    assert.ok(!npm.isError && npm.content.startsWith('node_modules/cookie/index.js, 3 line(s):\n1: exports.serialize'), npm.content);
    assert.ok(!pnpm.isError && pnpm.content.startsWith('node_modules/ms/index.js, 1 line(s):\n1: module.exports = function ms'), pnpm.content);
    assert.ok(!nested.isError, nested.content);
    assert.strictEqual(listed.content, ['node_modules/cookie/index.js', 'node_modules/cookie/package.json', 'node_modules/cookie/node_modules/dep/index.js'].join('\n'));
    // a pnpm package folder is a link: listing it is refused with the path it leads to, which lists
    const [link] = await run(call('list_files', { path: 'node_modules/ms' }));
    assert.strictEqual(link.content, 'refused: node_modules/ms is a symbolic link (which file it means is unclear); use the path it leads to, node_modules/.pnpm/ms@2.1.3/node_modules/ms');
    const [target] = await run(call('list_files', { path: 'node_modules/.pnpm/ms@2.1.3/node_modules/ms' }));
    assert.strictEqual(target.content, 'node_modules/.pnpm/ms@2.1.3/node_modules/ms/index.js');
  });

  it('keeps every other rule: a secret name, a link out of the workspace or into another ignored folder, another ignored file', async () => {
    const [secret, escaped, built, ignored, escapedList] = await run(
      call('read_file', { path: 'node_modules/cookie/.env' }),
      call('read_file', { path: 'node_modules/escape/index.js' }),
      call('read_file', { path: 'node_modules/built/bundle.js' }),
      call('read_file', { path: 'dist/bundle.js' }),
      call('list_files', { path: 'node_modules/escape' }),
    );
    assert.match(secret.content, /^refused: node_modules\/cookie\/\.env: secret file/);
    assert.match(escaped.content, /^refused: .*outside the workspace/);
    assert.match(built.content, /^refused: node_modules\/built\/bundle\.js leads through a symbolic link to dist\/bundle\.js: ignored by \.gitignore: dist\//);
    assert.match(ignored.content, /^refused: dist\/bundle\.js: ignored by \.gitignore: dist\/; of ignored paths only installed dependencies \(node_modules\/…\) can be read, by their explicit path$/);
    assert.match(escapedList.content, /^refused: node_modules\/escape is a symbolic link \(which file it means is unclear\); use the path of the file it points to$/);
    for (const a of [secret, escaped, built, ignored, escapedList]) assert.ok(a.isError && !/dep-secret|OUTSIDE-BYTES|in a bundle/.test(a.content), a.content);
  });

  it('no walk from above enters it: search_files and list_files without a path; the walk the index makes', async () => {
    const [search, list, inside] = await run(
      call('search_files', { query: 'sameSite' }),
      call('list_files', {}),
      call('search_files', { query: 'sameSite', path: 'node_modules/cookie' }),
    );
    assert.strictEqual(search.content, 'no matches for "sameSite"');
    assert.strictEqual(list.content, ['.gitignore', 'src/app.js'].join('\n'));
    assert.strictEqual(inside.content, "node_modules/cookie/index.js:2:   if (opt.sameSite) return 'sameSite';");
    // the policy's walk answers: a folder found from above is skipped, a named one is not
    const policy = new WorkspacePolicy(ws);
    assert.match(policy.skipDir('node_modules') ?? '', /dependency or tool folder/);
    assert.strictEqual(policy.skipDir('node_modules', true), null);
    assert.match(policy.skipDir('dist', true) ?? '', /ignored by \.gitignore/);
    assert.ok(!policy.check('node_modules/cookie/index.js').ok, 'not named: refused as before');
  });

  it('the read_file description tells the model, in one clause', () => {
    const read = TOOL_SPECS.find((t) => t.name === 'read_file')!;
    assert.match(read.description, /installed dependencies under node_modules\/ too/);
  });
});

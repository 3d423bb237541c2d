// src/core/checks/formatters.ts detectFormatters: a formatter of a language the workspace's root has none of is found
// in its sub-projects, as their checks are, and lays out the files under its folder from there (loop.ts runs each).
// With the real Prettier (a development dependency of ours, linked into the sub-project as its own) and a stand-in
// for ruff (not packaged for this Debian) that does what `ruff format` does to spacing, to the files it is given.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { detectFormatter, detectFormatters, formattersLayOut, runCheckLoop, type ProposedFile } from '../../src/core';

const PRETTIER = path.dirname(require.resolve('prettier/package.json'));

function write(root: string, rel: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text, mode ? { mode } : undefined);
}

/** backend/ configures Ruff's formatter (its ruff in the uv workspace's root environment); frontend/ configures and installs Prettier. */
function fullStack(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-sub-'));
  write(ws, 'backend/pyproject.toml', '[project]\nname = "app"\n\n[tool.ruff.format]\nquote-style = "double"\n');
  // `ruff format --quiet FILE…`: runs of blanks made one, in the files named (from the folder it runs in)
  write(ws, '.venv/bin/ruff', '#!/bin/sh\nshift 2\nfor f in "$@"; do sed -i "s/  */ /g" "$f" || exit 2; done\n', 0o755);
  write(ws, 'frontend/package.json', '{"name":"web","private":true}\n');
  write(ws, 'frontend/.prettierrc', '{ "singleQuote": true }\n');
  fs.mkdirSync(path.join(ws, 'frontend', 'node_modules'));
  fs.symlinkSync(PRETTIER, path.join(ws, 'frontend', 'node_modules', 'prettier'), 'dir');
  return ws;
}

const file = (relPath: string, content: string): ProposedFile => ({ path: relPath, relPath, content, status: 'proposed', action: 'create' });

describe("checks: the formatters of sub-projects (formatters.ts detectFormatters)", function () {
  this.timeout(60_000);
  before(function () {
    if (process.platform === 'win32') this.skip(); // the stand-in ruff is a shell script
  });

  it('each sub-project\'s formatter, for the files under its folder, run there; a language the root formats is not looked for below', async () => {
    const ws = fullStack();
    assert.strictEqual(await detectFormatter(ws), null, "the root's own: none");
    const [ruff, prettier, ...more] = await detectFormatters(ws);
    assert.deepStrictEqual([ruff?.name, prettier?.name, more.length], ['Ruff in backend/', 'Prettier in frontend/', 0]);
    assert.strictEqual(ruff.writeCommand(['backend/app/a.py', 'backend/x y.py']), "cd backend && ../.venv/bin/ruff format --quiet app/a.py 'x y.py'");
    assert.deepStrictEqual(['backend/app/a.py', 'frontend/a.py', 'a.py', 'backend/a.ts'].map((p) => ruff.handles(p)), [true, false, false, false]);
    assert.strictEqual(prettier.writeCommand(['frontend/src/a.ts']), 'cd frontend && node node_modules/prettier/bin/prettier.cjs --write src/a.ts');
    assert.strictEqual(prettier.listCommand, undefined, 'its list would name the files from its folder');
    assert.strictEqual(formattersLayOut([ruff, prettier]), "the project's formatters (Ruff in backend/, Prettier in frontend/) lay out");
    // the root formats JavaScript itself: the frontend's Prettier is not looked for, the backend's Ruff still is
    write(ws, 'package.json', '{"name":"root","private":true}\n');
    write(ws, '.prettierrc', '{}\n');
    fs.mkdirSync(path.join(ws, 'node_modules'));
    fs.symlinkSync(PRETTIER, path.join(ws, 'node_modules', 'prettier'), 'dir');
    const both = await detectFormatters(ws);
    assert.deepStrictEqual(both.map((f) => f.name), ['Prettier', 'Ruff in backend/']);
    assert.strictEqual(formattersLayOut(both.slice(0, 1)), "the project's formatter (Prettier) lays out");
  });

  it("lays out DevA's files of each sub-project in the scratch copy, each by its own formatter from its folder", async () => {
    const ws = fullStack();
    const proposed = { 'backend/app/a.py': 'x  =  1\n', 'frontend/src/a.ts': 'export const n = {m:"x"}\n', 'notes.py': 'y  =  2\n' };
    const loop = await runCheckLoop({
      commands: ['node -e "process.exit(0)"'],
      workspace: ws,
      capeFolder: 'cape',
      files: Object.entries(proposed).map(([rel, content]) => file(rel, content)),
      askFix: async () => assert.fail('no fix round'),
    });
    // notes.py lies outside every sub-project's folder: no formatter's
    assert.deepStrictEqual(Object.fromEntries(loop.files.map((f) => [f.relPath, f.content])), {
      'backend/app/a.py': 'x = 1\n',
      'frontend/src/a.ts': "export const n = { m: 'x' };\n",
      'notes.py': 'y  =  2\n',
    });
    assert.deepStrictEqual([loop.outcome.passed, loop.outcome.formatted], [
      true,
      [
        { round: 0, by: 'Ruff in backend/', files: ['backend/app/a.py'] },
        { round: 0, by: 'Prettier in frontend/', files: ['frontend/src/a.ts'] },
      ],
    ]);
  });
});

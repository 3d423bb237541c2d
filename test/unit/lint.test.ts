// The architecture's guard rails (eslint.config.mjs): vscode never in src/core, the Anthropic SDK only under
// src/core/llm/anthropic/ (and there its types only: sdk.ts requires it lazily), zod only as zod/mini through
// src/core/model/schema.ts, no Node or vscode in the webview. Each case lints planted code at a path inside the
// real tree with the project's own config, so a rule that stops matching (a moved folder, a broken glob) fails here.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { ESLint } from 'eslint';
import { repoRoot } from '../helpers/fixtures';

const root = repoRoot();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [res] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return res.messages.filter((m) => /(^|\/)no-restricted-/.test(m.ruleId ?? '')).map((m) => m.message);
}

describe('lint guard rails', function () {
  this.timeout(60_000);

  it("a planted `import * as vscode from 'vscode'` in core fails `eslint` (non-zero exit, rule named)", () => {
    const planted = "import * as vscode from 'vscode';\nexport const uri = vscode.Uri.file('/x');\n";
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', 'src/core/model/planted.ts'], {
      cwd: root,
      input: planted,
      encoding: 'utf8',
    });
    assert.strictEqual(r.status, 1, `eslint exit ${r.status}\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /no-restricted-imports/);
    assert.match(r.stdout, /never imports 'vscode'/);
  });

  it('vscode is refused in every core folder and in every form (type import, import(), import type, require)', async () => {
    for (const file of ['src/core/session/x.ts', 'src/core/llm/anthropic/x.ts', 'src/core/index.ts']) {
      assert.strictEqual((await restricted(file, "import type { Uri } from 'vscode';\nexport type U = Uri;\n")).length, 1, file);
    }
    const forms = [
      "export type U = import('vscode').Uri;\n",
      "export const load = () => import('vscode');\n",
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const v = require('vscode');\n",
    ];
    for (const code of forms) assert.strictEqual((await restricted('src/core/kpt/x.ts', code)).length, 1, code);
  });

  it('the adapters may import vscode', async () => {
    assert.deepStrictEqual(await restricted('src/commands/x.ts', "import * as vscode from 'vscode';\nexport const w = vscode.window;\n"), []);
  });

  it('the Anthropic SDK is allowed only under src/core/llm/anthropic/, and there only its types and the lazy require of sdk.ts', async () => {
    const sdk = "import Anthropic from '@anthropic-ai/sdk';\nexport const A = Anthropic;\n";
    const inFolder = await restricted('src/core/llm/anthropic/x.ts', sdk);
    assert.strictEqual(inFolder.length, 1);
    assert.match(inFolder[0], /loadSdk\(\)/);
    assert.deepStrictEqual(await restricted('src/core/llm/anthropic/x.ts', "import type Anthropic from '@anthropic-ai/sdk';\nexport type A = Anthropic;\n"), []);
    assert.deepStrictEqual(await restricted('src/core/llm/anthropic/x.ts', "import { type APIError } from '@anthropic-ai/sdk';\nexport type E = APIError;\n"), []);
    for (const file of ['src/core/llm/x.ts', 'src/core/session/x.ts', 'src/providers/x.ts', 'src/cli/x.ts', 'media/app/x.ts', 'bench/x.ts']) {
      const msgs = await restricted(file, sdk);
      assert.strictEqual(msgs.length, 1, file);
      assert.match(msgs[0], /only under src\/core\/llm\/anthropic/);
    }
    assert.strictEqual((await restricted('src/core/reply/x.ts', "import { APIError } from '@anthropic-ai/sdk/core/error';\nexport const E = APIError;\n")).length, 1);
  });

  it('zod is imported as zod/mini through src/core/model/schema.ts only', async () => {
    for (const [file, code] of [
      ['src/core/reply/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
      ['src/core/tools/x.ts', "import * as z from 'zod/mini';\nexport const s = z.string();\n"],
      ['src/core/llm/anthropic/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
      ['src/panel/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    ]) {
      const msgs = await restricted(file, code);
      assert.strictEqual(msgs.length, 1, file);
      assert.match(msgs[0], /zod\/mini through src\/core\/model\/schema\.ts/);
    }
    assert.deepStrictEqual(await restricted('src/core/reply/x.ts', "import * as z from '../model/schema';\nexport const s = z.string();\n"), []);
  });

  it('createFileSystemWatcher only in the shared watcher (src/workspace/fileWatcher.ts); the SDK rule still holds there', async () => {
    const create = "import * as vscode from 'vscode';\nexport const w = vscode.workspace.createFileSystemWatcher('**/*');\n";
    for (const file of ['src/tree/x.ts', 'src/workspace/indexService.ts', 'src/commands/x.ts']) {
      const msgs = await restricted(file, create);
      assert.strictEqual(msgs.length, 1, file);
      assert.match(msgs[0], /shared watcher/);
    }
    assert.deepStrictEqual(await restricted('src/workspace/fileWatcher.ts', create), []);
    assert.strictEqual((await restricted('src/workspace/fileWatcher.ts', "export const load = () => import('@anthropic-ai/sdk');\n")).length, 1);
  });

  it('the webview app may not import vscode or Node built-ins', async () => {
    assert.strictEqual((await restricted('media/app/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1);
    assert.strictEqual((await restricted('media/app/x.ts', "import * as fs from 'node:fs';\nexport const f = fs;\n")).length, 1);
  });
});

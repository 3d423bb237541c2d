// src/core/checks/scratch.ts: what the scratch copy keeps of the workspace so the checks run there as they would on
// the user's tree once the proposal is applied.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createScratch, type ProposedFile } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-scratch-'));
}

function write(root: string, rel: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
  if (mode !== undefined) fs.chmodSync(path.join(root, rel), mode);
}

const proposed = (relPath: string, content: string, action: ProposedFile['action'] = 'modify'): ProposedFile => ({ path: relPath, relPath, action, status: 'proposed', content });

describe('checks: scratch copy keeps what the checks need', () => {
  it('a proposed change to an executable script keeps it executable (applying it keeps the mode too)', async function () {
    if (process.platform === 'win32') this.skip();
    const ws = tmp();
    write(ws, 'scripts/test.sh', '#!/bin/sh\necho old\n', 0o755);
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.strictEqual(fs.statSync(path.join(s.dir, 'scripts', 'test.sh')).mode & 0o777, 0o755, 'the copy keeps the mode');
      assert.deepStrictEqual(await s.overlay([proposed('scripts/test.sh', '#!/bin/sh\necho new\n')]), []);
      assert.strictEqual(fs.readFileSync(path.join(s.dir, 'scripts', 'test.sh'), 'utf8'), '#!/bin/sh\necho new\n');
      assert.strictEqual(fs.statSync(path.join(s.dir, 'scripts', 'test.sh')).mode & 0o777, 0o755, 'the proposed version keeps it too');
    } finally {
      await s.dispose();
    }
  });
});

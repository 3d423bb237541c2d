// What the project's formatter changed in DevA's files is read back by checkFixes.ts's rules (src/core/checks/format.ts
// formatProposed): a formatter killed at its time limit takes nothing and its half-written file is written back as
// DevA proposed it; bytes that are not UTF-8 text are not taken; a file it deletes is written back to the copy. The
// formatter here is a node one-liner standing in for the project's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createScratch, disposeScratch, type ProposedFile } from '../../src/core';
import { formatProposed, type Formatter } from '../../src/core/checks/format';

const DEVA = 'module.exports = 1;\n';
const file = (relPath: string, content: string): ProposedFile => ({ path: relPath, relPath, content, status: 'proposed', action: 'create' });
/** A formatter whose write command runs `script` (node, in the copy) whatever files it is given. */
const fake = (script: string): Formatter => ({ name: 'Fake', handles: () => true, writeCommand: () => `node -e "${script}"` });

/** formatProposed of DevA's src/a.js with `formatter`; what it returns and what the copy holds afterwards. */
async function formatted(formatter: Formatter, timeoutMs?: number) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-taken-'));
  fs.mkdirSync(path.join(ws, 'src'));
  const scratch = await createScratch(ws, { capeFolder: 'cape' });
  try {
    const files = [file('src/a.js', DEVA)];
    await scratch.overlay(files);
    const done = await formatProposed(files, ['src/a.js'], { formatter, scratch, timeoutMs });
    const inCopy = fs.existsSync(path.join(scratch.dir, 'src', 'a.js')) ? fs.readFileSync(path.join(scratch.dir, 'src', 'a.js'), 'utf8') : null;
    return { content: done.files[0].content, formatted: done.formatted, inCopy };
  } finally {
    await disposeScratch(scratch);
  }
}

describe("checks: what the project's formatter changed is taken by the check fixes' rules (format.ts)", function () {
  this.timeout(60_000);

  it('a formatter killed at its time limit takes nothing: the file it half wrote holds DevA\'s text again', async () => {
    const got = await formatted(fake(`require('fs').writeFileSync('src/a.js', 'module.ex'); setTimeout(() => {}, 60000)`), 1500);
    assert.deepStrictEqual(got, { content: DEVA, formatted: [], inCopy: DEVA });
  });

  it('bytes that are not UTF-8 text are not taken; a file it deletes is written back to the copy', async () => {
    const notText = await formatted(fake(`require('fs').writeFileSync('src/a.js', Buffer.from([0x61, 0xff, 0x0a]))`));
    assert.deepStrictEqual(notText, { content: DEVA, formatted: [], inCopy: DEVA });
    const deleted = await formatted(fake(`require('fs').rmSync('src/a.js')`));
    assert.deepStrictEqual(deleted, { content: DEVA, formatted: [], inCopy: DEVA });
  });

  it('the control: a formatter that ends and writes text has its layout taken', async () => {
    const got = await formatted(fake(`require('fs').writeFileSync('src/a.js', 'module.exports = 2;\\n')`));
    assert.deepStrictEqual(got, { content: 'module.exports = 2;\n', formatted: ['src/a.js'], inCopy: 'module.exports = 2;\n' });
  });
});

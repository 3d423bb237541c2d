// Loaded by mocha (`require` in .mocharc.json) before any test: the run's temporary files go into one folder of
// its own, removed when the run ends. os.tmpdir() reads TMPDIR on each call and every child process (the CLI, the
// project checks) inherits it, so the hundreds of folders the tests create, and any a test forgets to remove, go
// with it rather than piling up in the machine's /tmp from run to run.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-test-run-'));
for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = root;

process.on('exit', () => {
  try {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  } catch (e) {
    // a child process still writing there: say where the rest is rather than fail the run at its very end
    process.stderr.write(`could not remove the test run's temporary folder ${root}: ${(e as Error).message}\n`);
  }
});

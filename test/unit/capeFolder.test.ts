// The CAPE folder option's normal form (capeFolderKey, src/core/model/steps.ts) and the readers that use it: the read
// policy, the scratch copy's skip, the settings and Initialize Project's progress message.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { capeFolderKey, capeFolderRefusal, DEFAULT_CAPE_FOLDER, WorkspacePolicy } from '../../src/core';
import { workspaceSkip } from '../../src/core/checks/scratchCopy';
import { progressMessage } from '../../src/commands/questionnaire';
import { settingsFrom } from '../../src/providers/settingValues';

describe('the CAPE folder option: its normal form (capeFolderKey)', () => {
  it('turns `\\` into `/`, cuts a leading `./` or `/`s and the trailing `/`s, and is the default when nothing is left', () => {
    const normal: Record<string, string> = {
      cape: 'cape',
      'cape/': 'cape',
      'cape//': 'cape',
      './cape': 'cape',
      '/cape': 'cape',
      './/cape/': 'cape',
      'a\\b': 'a/b',
      'team\\': 'team',
      '': DEFAULT_CAPE_FOLDER,
      '///': DEFAULT_CAPE_FOLDER,
      './': DEFAULT_CAPE_FOLDER,
      '.': '.',
      '../cape': '../cape',
      ' cape ': ' cape ',
    };
    for (const [option, key] of Object.entries(normal)) assert.strictEqual(capeFolderKey(option), key, JSON.stringify(option));
  });

  it('checks nothing: a path or a parent folder stays one, for capeFolderRefusal to refuse', () => {
    for (const option of ['a\\b', '../cape', '.', 'a/b/']) assert.ok(capeFolderRefusal(capeFolderKey(option)), option);
    for (const option of ['cape/', '/team', '.\\team\\']) assert.strictEqual(capeFolderRefusal(capeFolderKey(option)), null, option);
  });

  it('cuts a long run of slashes by index, whatever is around it', () => {
    const run = '/'.repeat(1 << 20);
    assert.strictEqual(capeFolderKey(`${run}team${run}`), 'team');
    assert.strictEqual(capeFolderKey(`team${run}x${run}`), `team${run}x`);
  });
});

describe('the CAPE folder option: each reader uses its normal form', () => {
  const spellings = ['./team/', '/team//', '.\\team\\', '\\team'];

  it('the read policy refuses the files of the folder however the option spells it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-folder-'));
    try {
      for (const f of spellings) {
        const policy = new WorkspacePolicy(root, { capeFolder: f });
        assert.strictEqual(policy.capeFolder, 'team', f);
        assert.match(policy.skipDir('team') ?? '', /team\/ is the team's context/, f);
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the scratch copy leaves the folder out however the option spells it, and the default's folder for an empty one", () => {
    for (const f of spellings) {
      const skip = workspaceSkip(f);
      assert.ok(skip('team', 'team'), f);
      assert.ok(!skip('src', 'src'), f);
    }
    assert.ok(workspaceSkip('')('cape', 'cape'), 'an empty option is the default folder');
  });

  it('the settings give the normal form of cape.capeFolder (trimmed, as every setting)', () => {
    const folder = (capeFolder: unknown) => settingsFrom((key) => (key === 'capeFolder' ? capeFolder : undefined)).capeFolder;
    assert.deepStrictEqual(spellings.map(folder), ['team', 'team', 'team', 'team']);
    assert.deepStrictEqual([' team/ ', '', '  ', '///', 'a\\b', 42].map(folder), ['team', 'cape', 'cape', 'cape', 'a/b', 'cape']);
  });

  it("Initialize Project's progress names a file relative to the folder however the option spells it", () => {
    for (const f of [...spellings, 'team']) assert.strictEqual(progressMessage({ done: 1, total: 2, file: 'team/0_team/a.md' }, f), '1/2 · 0_team/a.md', f);
    assert.strictEqual(progressMessage({ done: 1, total: 2, file: 'cape/0_team/a.md' }, ''), '1/2 · 0_team/a.md');
  });
});

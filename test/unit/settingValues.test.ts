// The `cape.*` settings' values as the extension uses them (src/providers/settingValues.ts, no vscode import): trimmed,
// defaults for empty or ill-typed values.
import * as assert from 'assert';
import { DEFAULT_CAPE_FOLDER, DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_FEEDBACK_ROUNDS, DEFAULT_SESSION_MODEL, MIN_CHECK_TIMEOUT_MS } from '../../src/core';
import { settingsFrom } from '../../src/providers/settingValues';

const settings = (values: Record<string, unknown>) => settingsFrom((key) => values[key]);

describe('settings values (settingValues.ts)', () => {
  it('trims strings and gives the defaults for empty or ill-typed values', () => {
    const s = settings({ model: '  claude-x  ', language: '   ', provider: 'other', feedbackRounds: -1, checkTimeout: 0.001, checks: 'npm test' });
    assert.strictEqual(s.model, 'claude-x');
    assert.strictEqual(s.language, 'English');
    assert.strictEqual(s.provider, 'anthropic');
    assert.strictEqual(s.capeFolder, DEFAULT_CAPE_FOLDER);
    assert.strictEqual(s.feedbackRounds, DEFAULT_FEEDBACK_ROUNDS);
    assert.deepStrictEqual(s.checks?.commands, []);
    assert.strictEqual(s.checks?.timeoutMs, MIN_CHECK_TIMEOUT_MS);
    assert.strictEqual(settings({}).model, DEFAULT_SESSION_MODEL);
    assert.strictEqual(settings({}).checks?.timeoutMs, DEFAULT_CHECK_TIMEOUT_MS);
    assert.strictEqual(settings({ maxSessionCostUsd: 2 }).maxSessionCostUsd, 2);
    assert.ok(!('maxSessionCostUsd' in settings({ maxSessionCostUsd: -2 })));
  });

  it('the CAPE folder without its trailing separators', () => {
    assert.strictEqual(settings({ capeFolder: ' team/ ' }).capeFolder, 'team');
    assert.strictEqual(settings({ capeFolder: 'team\\\\' }).capeFolder, 'team');
    assert.strictEqual(settings({ capeFolder: '//' }).capeFolder, DEFAULT_CAPE_FOLDER);
  });
});

// src/core/checks/consent.ts: the consent to run the detected checks as a workspace remembers it (VS Code's
// session/checksConsent.ts keeps it), and the log line that says it when no prompt shows.
import * as assert from 'assert';
import { rememberedConsent, rememberedConsentLine } from '../../src/core';

describe('checks: the remembered consent (consent.ts)', () => {
  it('applies only to the commands it was given for, in their order; anything else stored is no answer', () => {
    const stored = { decision: 'always', commands: ['npm run lint', 'npm test'] };
    assert.deepStrictEqual(rememberedConsent(stored, ['npm run lint', 'npm test']), stored);
    assert.strictEqual(rememberedConsent(stored, ['npm test', 'npm run lint']), undefined, 'another order: ask again');
    assert.strictEqual(rememberedConsent(stored, ['npm run lint', 'npm test', 'cd api && pytest']), undefined, 'a changed detection: ask again');
    assert.deepStrictEqual(rememberedConsent({ decision: 'skip', commands: ['npm test'] }, ['npm test'])?.decision, 'skip');
    for (const bad of [undefined, null, 'always', { decision: 'run', commands: ['npm test'] }, { decision: 'always', commands: 'npm test' }, { decision: 'always', commands: [1] }]) {
      assert.strictEqual(rememberedConsent(bad, ['npm test']), undefined, JSON.stringify(bad));
    }
  });

  it('the log line says what runs, or is skipped, and why no prompt asked', () => {
    assert.strictEqual(rememberedConsentLine({ decision: 'always', commands: ['npm run lint', 'npm test'] }), 'checks: running npm run lint, npm test (always for this workspace)');
    assert.strictEqual(rememberedConsentLine({ decision: 'skip', commands: ['npm test'] }), 'checks: skipping npm test (skipped for this workspace)');
  });
});

// src/core/checks/consent.ts: the consent to run the detected checks as a workspace remembers it (VS Code's
// session/checksConsent.ts keeps it), and the log line that says it when no prompt shows.
import * as assert from 'assert';
import { leftOutSubprojectsSaying, rememberedConsent, rememberedConsentLine } from '../../src/core';

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
    assert.strictEqual(rememberedConsentLine({ decision: 'always', commands: ['npm run lint', 'npm test'] }, ''), 'checks: running npm run lint, npm test (always for this workspace)');
    assert.strictEqual(rememberedConsentLine({ decision: 'skip', commands: ['npm test'] }, ''), 'checks: skipping npm test (skipped for this workspace)');
  });

  it('the log line names the sub-projects left out: no prompt said them this time', () => {
    const leftOut = leftOutSubprojectsSaying(['services', 'tools'], (ex) => `add theirs to the cape.checks setting ("${ex}")`);
    assert.strictEqual(
      rememberedConsentLine({ decision: 'always', commands: ['cd api && pytest'] }, leftOut),
      'checks: running cd api && pytest (always for this workspace). 2 more sub-projects with checks are left out (at most 4 are detected): services/, tools/; add theirs to the cape.checks setting ("cd services && …")',
    );
    assert.match(rememberedConsentLine({ decision: 'skip', commands: ['cd api && pytest'] }, leftOut), /^checks: skipping cd api && pytest \(skipped for this workspace\)\. 2 more sub-projects/);
    assert.strictEqual(rememberedConsentLine({ decision: 'always', commands: ['npm test'] }, ''), 'checks: running npm test (always for this workspace)', 'none left out: nothing more');
  });
});

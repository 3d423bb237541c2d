// init's checks of a model reply (core/cape/initChecks.ts) on hostile shapes: a reply is untrusted text, read in the
// extension host, so neither a YAML alias bomb in its frontmatter nor a long run of spaces may stall it, and each
// still gets the problem it has.
import * as assert from 'assert';
import { checkDecisionsReply, checkInputReply } from '../../src/core/cape/initChecks';
import { quoteFrontmatterValue } from '../../src/core/cape/frontmatter';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { aliasBomb } from '../helpers/hostileInput';

describe('init: reply checks on hostile input (src/core/cape/initChecks.ts)', () => {
  const spec = () => loadPromptAssets(defaultPromptsDir()).inputs.find((i) => i.path === '1_product/1_mvv.md')!;

  it('a frontmatter type that is a YAML alias bomb is named, not expanded (audit: 9 levels took 112 s, 8 threw "Invalid string length")', () => {
    const reply = aliasBomb(9) + '# Mission\n' + 'Text. '.repeat(60) + '\n';
    assert.ok(reply.length < 1_000);
    const c = checkInputReply(reply, spec(), 'end_turn', 8192);
    assert.ok(!c.ok);
    if (!c.ok) assert.ok(c.problems.includes('its frontmatter says type: a list; it must say type: input'), c.problems.join('\n'));
  });

  it('quoteFrontmatterValue quotes a scalar (a long one cut) and names a list or mapping', () => {
    assert.strictEqual(quoteFrontmatterValue('draft'), '"draft"');
    assert.strictEqual(quoteFrontmatterValue('x'.repeat(500)), JSON.stringify('x'.repeat(80) + '…'));
    assert.strictEqual(quoteFrontmatterValue(3), '3');
    assert.strictEqual(quoteFrontmatterValue(false), 'false');
    assert.strictEqual(quoteFrontmatterValue(undefined), 'null');
    assert.strictEqual(quoteFrontmatterValue(new Date('2026-05-01T00:00:00Z')), '"2026-05-01T00:00:00.000Z"');
    assert.strictEqual(quoteFrontmatterValue(['a']), 'a list');
    assert.strictEqual(quoteFrontmatterValue({ a: 1 }), 'a mapping');
  });

  it('a decisions reply with a long run of spaces after a word is read once and names what is missing (audit: 100 KB took 10 s)', () => {
    const specs = loadPromptAssets(defaultPromptsDir()).decisions;
    const lines = specs.slice(1).map((d) => `- ${d.key}: v`);
    for (const run of [' '.repeat(200_000), '\t'.repeat(200_000), ' \t'.repeat(100_000)]) {
      const c = checkDecisionsReply(['a' + run + '!', `- **${specs[0].key}` + run + '**', ...lines].join('\n'), specs, null);
      assert.ok(!c.ok);
      if (!c.ok) assert.ok(c.problems.includes(`these decisions are missing: ${specs[0].key}`), c.problems.join('\n'));
    }
    // spaces before the colon are allowed: that key is read (only the length is a problem)
    const spaced = [`- ${specs[0].key}` + ' '.repeat(200_000) + ': the value', ...lines].join('\n');
    assert.deepStrictEqual(checkDecisionsReply(spaced, specs, null), { ok: false, problems: [`the reply is ${spaced.length} characters long; keep it under 5000`] });
  });
});

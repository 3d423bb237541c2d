// One truth for default model names and step/agent names: core's constants agree with the manifest and the CLI.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_INIT_MODEL, DEFAULT_SESSION_MODEL, MOST_CAPABLE_MODEL } from '../../src/core/llm/models';
import { priceFor } from '../../src/core/llm/pricing';
import { AGENT_NAME, STEP_IDS, STEP_LABEL, stepTitle } from '../../src/core/model/types';
import { MIN_WORKSPACE_BUDGET } from '../../src/core/workspace/pack';
import { MIN_CHECK_TIMEOUT_MS } from '../../src/core/checks/run';
import { copyLimitOfMb, MIN_COPY_LIMIT_MB, WORKSPACE_COPY_LIMIT } from '../../src/core/checks/copyLimit';
import { repoRoot } from '../helpers/fixtures';

describe('one truth: model and step names', () => {
  it("package.json's setting defaults are core's default models", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties;
    assert.strictEqual(props['cape.model'].default, DEFAULT_SESSION_MODEL);
    assert.strictEqual(props['cape.initModel'].default, DEFAULT_INIT_MODEL);
  });

  it("package.json's minimums of the budget, the check time limit and the copy limit are core's", () => {
    const props = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')).contributes.configuration.properties;
    assert.strictEqual(props['cape.context.devBudget'].minimum, MIN_WORKSPACE_BUDGET);
    assert.strictEqual(props['cape.checkTimeout'].minimum * 1000, MIN_CHECK_TIMEOUT_MS);
    assert.strictEqual(props['cape.checkCopyLimit'].minimum, MIN_COPY_LIMIT_MB);
  });

  it("package.json's default copy limit of the checks is core's, and its files per MB the description's", () => {
    const props = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')).contributes.configuration.properties;
    assert.deepStrictEqual(copyLimitOfMb(props['cape.checkCopyLimit'].default), WORKSPACE_COPY_LIMIT);
    assert.match(props['cape.checkCopyLimit'].markdownDescription, new RegExp(`over ${copyLimitOfMb(1).files} files per MB`));
  });

  it('every default model has a list price', () => {
    for (const m of [DEFAULT_SESSION_MODEL, DEFAULT_INIT_MODEL, MOST_CAPABLE_MODEL]) assert.ok(priceFor(m), m);
  });

  it('step titles come from the agent names', () => {
    assert.deepStrictEqual(STEP_IDS.map(stepTitle), ['Cape Master — opening', 'Product Owner', 'Designer', 'Developer', 'Cape Master — retrospective']);
    assert.strictEqual(AGENT_NAME.DevA, 'Developer');
    assert.deepStrictEqual(Object.keys(STEP_LABEL), [...STEP_IDS]);
  });
});

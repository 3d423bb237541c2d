// A retrospective whose frontmatter is as long as an objective may make it (MAX_OBJECTIVE_CHARS characters, in a
// script of several bytes per character) is still listed and still a point of the satisfaction trend.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SessionStore } from '../../src/core/store';
import { computeMetrics } from '../../src/core/metrics/metrics';
import { historyFromRetrospectives } from '../../src/core/metrics/history';
import { MAX_OBJECTIVE_CHARS, objectiveProblem } from '../../src/core/session/objective';
import type { Envelope } from '../../src/core/model/types';
import { withoutControls } from '../../src/core/text/controls';
import { tempDir } from '../helpers/cli';

describe('retrospective frontmatter at the objective limit', () => {
  const retro: Envelope = { agent: 'CM', task_id: 't', phase: 'retrospective', voice: 'done', output: {} } as unknown as Envelope;
  const metrics = { ...computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {} }), assAverage: 4 };

  for (const [script, unit] of [['Japanese', '日本語の目標'], ['emoji', '🚀✨'], ['control characters', 'a\u0001']] as const) {
    it(`a ${MAX_OBJECTIVE_CHARS}-character objective in ${script} keeps its retrospective listed and in the trend`, async () => {
      const ws = tempDir('cape-retro-head-');
      fs.mkdirSync(path.join(ws, 'cape'));
      const store = new SessionStore(ws);
      const chars = Array.from(unit.repeat(MAX_OBJECTIVE_CHARS)).slice(0, MAX_OBJECTIVE_CHARS - 1);
      const objective = 'x' + chars.join('');
      assert.strictEqual(objectiveProblem(objective), null, 'an objective CAPE accepts');
      await store.saveRetrospective('task-long', objective, retro, metrics, [], new Date(2026, 0, 5, 10, 0));
      const list = await store.listRetrospectives();
      // the file keeps no control character of the objective (text/controls.ts): the listing gives it without them
      assert.deepStrictEqual(list.map((r) => [r.taskId, r.objective === withoutControls(objective), r.assAverage]), [['task-long', true, 4]]);
      assert.deepStrictEqual(await historyFromRetrospectives(store.retrospectiveDir), [4]);
    });
  }
});

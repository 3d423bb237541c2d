// A new session's id (session/prepare.ts createSession): when another process takes the id between the check and
// the write, a given id is refused, and a default one (the start time) goes on to the next free one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SessionStore, type SessionState } from '../../src/core/store';
import { createSession } from '../../src/core/session/prepare';
import { StepFailure } from '../../src/core/session/failure';
import { tempDir } from '../helpers/cli';

/** A store where another process creates the state of the id checked first, right after the check. */
class RacedStore extends SessionStore {
  raced = false;
  override async traces(taskId: string): Promise<string[]> {
    const found = await super.traces(taskId);
    if (!this.raced) {
      this.raced = true;
      const other: SessionState = { taskId, objective: 'other', language: 'English', model: 'm', createdAt: 1, status: 'running', completedSteps: [], stepFiles: {} };
      await new SessionStore(this.workspace).createSessionState(other);
    }
    return found;
  }
}

describe('createSession: an id taken by another process at the same moment', () => {
  const workspace = () => {
    const ws = tempDir('cape-create-');
    fs.mkdirSync(path.join(ws, 'cape'));
    return ws;
  };

  it('a default id goes on to the next free one, leaving the other session alone', async () => {
    const store = new RacedStore(workspace());
    const state = await createSession(store, { objective: 'Add a dark mode', language: 'English', model: 'm', now: () => 1000 });
    assert.strictEqual(state.taskId, 'task-1001');
    assert.strictEqual((await store.loadSessionState('task-1000'))?.objective, 'other');
    assert.strictEqual((await store.loadSessionState('task-1001'))?.objective, 'Add a dark mode');
  });

  it('a given id is refused as used', async () => {
    const store = new RacedStore(workspace());
    await assert.rejects(
      createSession(store, { objective: 'Add a dark mode', language: 'English', model: 'm', taskId: 'mine', now: () => 1000 }),
      (e: unknown) => e instanceof StepFailure && /Task id mine is already used/.test(e.message) && e.resumable === false,
    );
    assert.strictEqual((await store.loadSessionState('mine'))?.objective, 'other');
  });
});

// The panel transcript (src/session/transcript.ts): what a chat panel opened mid-session is replayed.
import * as assert from 'assert';
import type { PanelEvent } from '../../src/panel/protocol';
import { Transcript } from '../../src/session/transcript';

const started = (taskId: string, resumed = false): PanelEvent => ({
  type: 'session-started',
  taskId,
  objective: 'o',
  language: 'English',
  steps: ['cm_open', 'poa', 'da', 'deva', 'cm_retro'],
  resumed,
});

describe('session/transcript: Transcript', () => {
  it('merges consecutive deltas of the same kind and step, and keeps everything else in order', () => {
    const t = new Transcript();
    t.push(started('t1'));
    t.push({ type: 'step-started', step: 'cm_open', agent: 'CM', attempt: 1 });
    for (const text of ['Hel', 'lo', ' team']) t.push({ type: 'voice-delta', step: 'cm_open', text });
    t.push({ type: 'output-delta', step: 'cm_open', chars: 4 });
    t.push({ type: 'output-delta', step: 'cm_open', chars: 3 });
    t.push({ type: 'voice-delta', step: 'cm_open', text: 'again' });
    t.push({ type: 'voice-delta', step: 'poa', text: 'other step' });
    assert.deepStrictEqual(
      t.list().map((e) => (e.type === 'voice-delta' ? `${e.type}:${e.step}:${e.text}` : e.type === 'output-delta' ? `${e.type}:${e.step}:${e.chars}` : e.type)),
      ['session-started', 'step-started', 'voice-delta:cm_open:Hello team', 'output-delta:cm_open:7', 'voice-delta:cm_open:again', 'voice-delta:poa:other step'],
    );
  });

  it('does not change the events it was given (merging makes new objects)', () => {
    const t = new Transcript();
    const first: PanelEvent = { type: 'voice-delta', step: 'poa', text: 'a' };
    t.push(first);
    t.push({ type: 'voice-delta', step: 'poa', text: 'b' });
    assert.deepStrictEqual(first, { type: 'voice-delta', step: 'poa', text: 'a' });
    assert.strictEqual((t.list()[0] as { text: string }).text, 'ab');
  });

  it('a new session starts a new transcript; a resume of the same task continues it', () => {
    const t = new Transcript();
    assert.strictEqual(t.currentTaskId, null);
    t.push(started('t1'));
    t.push({ type: 'voice-delta', step: 'cm_open', text: 'one' });
    t.push({ type: 'error', step: 'poa', kind: 'network', message: 'reset' });
    t.push(started('t1', true));
    assert.strictEqual(t.list().length, 4, 'the resumed session continues the same transcript');
    assert.strictEqual(t.currentTaskId, 't1');
    t.push(started('t2', true));
    assert.deepStrictEqual(t.list().map((e) => e.type), ['session-started'], 'a resume of another task starts over');
    assert.strictEqual(t.currentTaskId, 't2');
    t.push(started('t2'));
    assert.strictEqual(t.list().length, 1, 'a new (not resumed) session starts over even for the same id');
  });

  it('stays about as large as the text however finely the stream was chunked', () => {
    const t = new Transcript();
    t.push(started('t1'));
    for (let i = 0; i < 10_000; i++) t.push({ type: 'voice-delta', step: 'da', text: 'x' });
    assert.strictEqual(t.list().length, 2);
    assert.strictEqual((t.list()[1] as { text: string }).text.length, 10_000);
  });
});

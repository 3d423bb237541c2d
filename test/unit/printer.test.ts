// The CLI transcript (src/cli/printer.ts) on a model's text of hostile shape: printed as it is, without stalling.
import * as assert from 'assert';
import { Writable } from 'stream';
import { printer } from '../../src/cli/printer';
import type { Envelope } from '../../src/core/model/types';

describe('CLI printer: model text of hostile shape', () => {
  it('a voice nothing streamed with a long run of blank lines inside is printed whole, once (100,000 took 5 s)', () => {
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    const voice = `a${'\n'.repeat(200_000)}b`;
    const envelope = { agent: 'DevA', role: 'r', task_id: 't', voice: `${voice}\n\n\n`, output: {}, references: [], confidence: 4, ass: null } as Envelope;
    print({ type: 'envelope', step: 'deva', voiceNotStreamed: true, envelope } as Parameters<typeof print>[0]);
    assert.ok(shown.includes(`  The voice of the envelope used:\n${voice}\n`) && !shown.includes(`${voice}\n\n`));
  });
});

// The fake Anthropic server playing the English demo: answers init's decisions request with demo decisions, its file
// requests with a generated input file, and session requests with the demo session (in order, per task). Used by
// `npm run demo`, the VS Code demo and the e2e tests.
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from '../fake-anthropic/server';
import { demoAnswers, demoDecisions, demoInputFile, demoReplies, isDecisionsRequest, taskIdOf } from './demo';

export interface DemoServerOptions {
  port?: number;
  /** Characters per streamed delta and the pause between deltas: small values make the streaming visible. */
  chunkSize?: number;
  chunkDelayMs?: number;
  /** Override replies for a session step (index 0..4) — e.g. to inject hostile content in a test. */
  replies?: (taskId: string) => string[];
}

function systemText(req: RecordedRequest): string {
  const s = req.body?.system;
  return Array.isArray(s) ? s.map((b: any) => b.text ?? '').join('\n') : String(s ?? '');
}

export async function startDemoServer(opts: DemoServerOptions = {}): Promise<FakeAnthropic> {
  const fake = await startFakeAnthropic({ port: opts.port, chunkSize: opts.chunkSize ?? 12, chunkDelayMs: opts.chunkDelayMs ?? 0 });
  const answers = demoAnswers();
  const served = new Map<string, number>();
  fake.setResponder((req): FakeReply => {
    if (!req.stream && req.maxTokens !== undefined && req.maxTokens <= 16) return { text: 'ok' }; // key validation
    if (isDecisionsRequest(req.body)) return { text: demoDecisions() };
    const text = JSON.stringify(req.body?.messages ?? '');
    const init = /write one CAPE project file|project input\s+file/i.test(systemText(req) + text);
    if (init) {
      const m = /cape\/(\d_[a-z]+\/\d_[a-z_]+\.md)/.exec(systemText(req) + text);
      return { text: demoInputFile(m ? m[1] : '1_product/1_mvv.md', answers) };
    }
    const taskId = taskIdOf(req.body);
    const n = served.get(taskId) ?? 0;
    const replies = (opts.replies ?? demoReplies)(taskId);
    served.set(taskId, n + 1);
    // A session replays the five demo replies in order; a repeated task (resume, retry) continues where it stopped.
    return { text: replies[Math.min(n, replies.length - 1)] };
  });
  return fake;
}

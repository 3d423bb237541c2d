// One recorded session of the original CLI replayed through the engine against a fake Messages API, in a workspace
// the caller prepared: shared by the context-cost test and `npm run bench`, which replay sessions back to back.
import type { PromptAssets } from '../../src/core/cape/prompts';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { runSession } from '../../src/core/session/runner';
import type { FakeAnthropic, RecordedRequest } from '../fake-anthropic/server';
import type { RecordedSession } from './fixtures';

export async function replayRecordedSession(
  fake: FakeAnthropic,
  workspace: string,
  s: RecordedSession,
  prompts: PromptAssets,
): Promise<{ res: Awaited<ReturnType<typeof runSession>>; reqs: RecordedRequest[] }> {
  const first = fake.requests.length;
  for (const st of s.steps) fake.enqueue({ text: st.raw });
  const res = await runSession({
    workspace,
    objective: s.objective ?? 'replay',
    language: s.language,
    taskId: s.taskId,
    model: s.model,
    llm: new AnthropicClient({ apiKey: 'replay', baseURL: fake.url }),
    prompts,
  });
  return { res, reqs: fake.requests.slice(first) };
}

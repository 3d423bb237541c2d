// Mocha hooks for a suite that talks to one fake Messages API: started before the suite, reset before each test
// (queued replies, recorded requests, faults), closed after it. `use` receives the server once it listens, so the
// suite keeps its own `fake` variable for its calls.
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from '../fake-anthropic/server';

export function useFakeAnthropic(options: FakeAnthropicOptions, use: (fake: FakeAnthropic) => void): void {
  let fake: FakeAnthropic | undefined;
  before(async () => {
    fake = await startFakeAnthropic(options);
    use(fake);
  });
  after(async () => fake?.close());
  beforeEach(() => fake?.reset());
}

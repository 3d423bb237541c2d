// Mocha hooks for a suite that talks to one fake Messages API: started before the suite, reset before each test
// (queued replies, recorded requests, faults), closed after it. `use` receives the server once it listens, so the
// suite keeps its own `fake` variable for its calls. useToolchain: the same for a suite that needs a real toolchain.
import { execFileSync } from 'child_process';
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

/**
 * A suite that runs a project's real toolchain (`go`, `rspec`, `mvn`): skipped, saying which script
 * installs it, where `program args` does not run (`npm test` installs it first); else useFakeAnthropic.
 */
export function useToolchain(program: string, args: readonly string[], installScript: string, options: FakeAnthropicOptions, use: (fake: FakeAnthropic) => void): void {
  before(function () {
    try {
      execFileSync(program, args, { stdio: 'ignore' });
    } catch {
      console.warn(`    ${[program, ...args].join(' ')} does not run here: run ${installScript}`);
      this.skip();
    }
  });
  useFakeAnthropic(options, use);
}

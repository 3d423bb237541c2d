// Mocha hooks for a suite that talks to one fake Messages API: started before the suite, reset before each test
// (queued replies, recorded requests, faults), closed after it. `use` receives the server once it listens, so the
// suite keeps its own `fake` variable for its calls. useToolchain: the same for a suite that needs a real toolchain;
// usePytest, for one that needs the real pytest.
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

/**
 * The python3 that runs pytest: the first on PATH, or Debian's (where scripts/install-pytest.sh installs it when
 * PATH's python3 is another, a pyenv one); CAPE_TEST_PYTHON picks one.
 */
export function pythonWithPytest(): string | null {
  const candidates = process.env.CAPE_TEST_PYTHON ? [process.env.CAPE_TEST_PYTHON] : ['python3', '/usr/bin/python3'];
  for (const py of candidates) {
    try {
      execFileSync(py, ['-m', 'pytest', '--version'], { stdio: 'ignore' });
      return py;
    } catch {
      /* not this one */
    }
  }
  return null;
}

/** useToolchain for the real pytest: `use` receives the server and the python3 that runs pytest (pythonWithPytest). */
export function usePytest(use: (fake: FakeAnthropic, python: string) => void): void {
  let python = '';
  before(function () {
    const found = pythonWithPytest();
    if (!found) {
      console.warn('    python3 -m pytest is not available: run scripts/install-pytest.sh');
      this.skip();
    }
    python = found;
  });
  useFakeAnthropic({ chunkSize: 256 }, (fake) => use(fake, python));
}

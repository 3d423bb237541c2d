// The CLI's session bundle (dist/cli-session.js): the commands that run or prepare sessions — `cape init`,
// `cape start`, `cape resume`, `cape repeat` — with everything they import (the session runner, the Anthropic
// client, prompts, checks, the live transcript). main.ts requires it through bundles.ts only when one of these
// commands runs, so `cape context`, `cape kpt`, `cape housekeeping` and `cape help` never load nor compile it.
import { exitCodeOf, type Parsed } from './flags';
import { cmdInit } from './init';
import { cmdSession } from './session';
import { cmdRepeat } from './repeat';
import type { SessionCommand } from './bundles';

/**
 * Runs one session command to its exit code. Its errors are turned into exit codes here, not in main.ts: this bundle
 * has its own copy of flags.ts, so only its own UsageError class recognises the usage errors it throws.
 */
export async function runSessionCommand(
  command: SessionCommand,
  flags: Parsed['flags'],
  env: NodeJS.ProcessEnv,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  try {
    switch (command) {
      case 'init':
        return await cmdInit(flags, env, stdout, stderr);
      case 'start':
        return await cmdSession(false, flags, env, stdout, stderr);
      case 'resume':
        return await cmdSession(true, flags, env, stdout, stderr);
      case 'repeat':
        return await cmdRepeat(flags, env, stdout, stderr);
    }
  } catch (e) {
    return exitCodeOf(e, stderr);
  }
}

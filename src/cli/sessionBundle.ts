// The CLI's second bundle, loaded on first need: dist/cli-session.js holds src/cli/sessionCommands.ts and everything it
// imports (`cape init/start/resume/repeat`, the session runner, the Anthropic client, prompts, checks). dist/cli.js
// holds the dispatcher, the flags, `cape context` and `cape kpt`/`housekeeping`, so those commands neither load nor
// compile the session machinery. esbuild.mjs maps the require below to `./cli-session.js` (next to cli.js) and fails
// the build when a module of the light part imports a session command's module statically; the compiled out/ tree
// resolves it as usual. The same split as the extension's (src/sessionBundle.ts).
import type * as SessionCommands from './sessionCommands';

/** The commands the session bundle runs (main.ts dispatches them without loading it). */
export const SESSION_COMMANDS = ['init', 'start', 'resume', 'repeat'] as const;
export type SessionCommand = (typeof SESSION_COMMANDS)[number];

export function isSessionCommand(command: string): command is SessionCommand {
  return (SESSION_COMMANDS as readonly string[]).includes(command);
}

let loaded: typeof SessionCommands | undefined;

/** The session bundle's module, required on the first call (throws when the file is missing or broken). */
export function loadSessionCommands(): typeof SessionCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point (see above)
  loaded ??= require('./sessionCommands') as typeof SessionCommands;
  return loaded;
}

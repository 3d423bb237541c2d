// The CLI's lazy bundles, each required on first need, so a command loads and compiles only what it runs:
//   dist/cli.js          the dispatcher (main.ts), its flags, `cape help` and `cape context` — the command run most
//   dist/cli-kpt.js      `cape kpt` and `cape housekeeping` (kpt.ts: the session store, KPT files, YAML front matter)
//   dist/cli-session.js  `cape init/start/resume/repeat` (sessionCommands.ts: the session runner, the Anthropic
//                        client, prompts, checks, the live transcript)
// esbuild.mjs maps the two requires below to `./cli-kpt.js` and `./cli-session.js` (next to cli.js) and fails the
// build when another module imports a lazy bundle's modules statically; the compiled out/ tree resolves them as usual.
// The same split as the extension's (src/sessionBundle.ts).
import type * as Kpt from './kpt';
import type * as SessionCommands from './sessionCommands';

/** The commands the session bundle runs (main.ts dispatches them without loading it). */
export const SESSION_COMMANDS = ['init', 'start', 'resume', 'repeat'] as const;
export type SessionCommand = (typeof SESSION_COMMANDS)[number];

export function isSessionCommand(command: string): command is SessionCommand {
  return (SESSION_COMMANDS as readonly string[]).includes(command);
}

let sessionCommands: typeof SessionCommands | undefined;
let kpt: typeof Kpt | undefined;

/** The session bundle's module, required on the first call (throws when the file is missing or broken). */
export function loadSessionCommands(): typeof SessionCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point (see above)
  sessionCommands ??= require('./sessionCommands') as typeof SessionCommands;
  return sessionCommands;
}

/** The KPT bundle's module, required on the first call (throws when the file is missing or broken). */
export function loadKpt(): typeof Kpt {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point (see above)
  kpt ??= require('./kpt') as typeof Kpt;
  return kpt;
}

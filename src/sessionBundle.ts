// The extension's second bundle, loaded on first need: dist/session.js holds src/activation.ts and everything it
// imports (services, commands, views, panel, session runner, core). dist/extension.js, the module VS Code loads at
// activation, holds only src/extension.ts and this loader, so activation costs a few kilobytes instead of the whole
// extension. esbuild.mjs maps the require below to `./session.js` (next to extension.js) and fails the build when
// anything in the entry imports src/activation.ts statically; the compiled out/ tree resolves it as usual. Only
// the code below calls require; src/extension.ts imports the module's types only.
import type * as Activation from './activation';

export type SessionBundle = typeof Activation;

let loaded: SessionBundle | undefined;

/** The session bundle's module, required on the first call (throws when the file is missing or broken). */
export function loadSessionBundle(): SessionBundle {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point (see above)
  loaded ??= require('./activation') as SessionBundle;
  return loaded;
}

/** Whether loadSessionBundle() has run (without loading it). */
export function sessionBundleLoaded(): boolean {
  return loaded !== undefined;
}

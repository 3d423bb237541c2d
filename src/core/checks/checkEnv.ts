// The environment a check command runs with, and the secrets of that environment kept out of what its output becomes
// (DevA's fix request, the step's record under cape/, the panel, the CLI's transcript).
//
// The choice: a check gets the developer's environment — PATH, HOME, a DATABASE_URL or a service's address its tests
// need, the toolchains' own variables — less the Anthropic credentials (llm/credentials.ts CREDENTIAL_VARIABLES: CAPE's
// own key has no business in the project's tests), and less ELECTRON_RUN_AS_NODE; with CI=1. The other secrets stay
// (a test may need its registry token or its cloud credentials), but their values never leave the run: in the kept
// output, the value of every variable whose name looks secret (SECRET_VARIABLE_NAME) is replaced by a mark naming the
// variable. A value shorter than MIN_SECRET_CHARS is left ("1", "true", "no" would blank the output, and hide
// nothing). Only the value as it is is found: a test that prints it encoded (base64, URL-escaped) or cut across the
// kept head and tail of a long output is beyond this.
import { CREDENTIAL_VARIABLES } from '../llm/credentials';

/**
 * A variable name that looks like a secret's, case-insensitively: one ending in (or with a `_` after) TOKEN, SECRET,
 * KEY, PASSWD or PASSPHRASE (GITHUB_TOKEN, NODE_AUTH_TOKEN, npm's `…:_authToken`, AWS_SECRET_ACCESS_KEY,
 * ANTHROPIC_API_KEY, STRIPE_KEY_LIVE), one holding PASSWORD anywhere (PGPASSWORD), and `_auth` at its end (npm's basic
 * credentials). SSH_AUTH_SOCK, TOKENIZERS_PARALLELISM, KEYBOARD… do not match.
 */
export const SECRET_VARIABLE_NAME = /(?:TOKEN|SECRET|KEY|PASSWD|PASSPHRASE)(?:_|$)|PASSWORD|_AUTH$/i;

/** Values shorter than this are not hidden: too short to be a secret, too common not to blank the output. */
export const MIN_SECRET_CHARS = 8;

/**
 * The environment a check runs with (see the header): the developer's, with CI=1, without the Anthropic credentials,
 * and without ELECTRON_RUN_AS_NODE — set in VS Code's extension host (Electron run as Node), it would start every
 * Electron app a check launches (an extension's tests through @vscode/test-electron) as plain Node; no terminal of the
 * developer's has it.
 */
export function checkEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, CI: '1' };
  delete out.ELECTRON_RUN_AS_NODE;
  for (const name of CREDENTIAL_VARIABLES) delete out[name];
  return out;
}

/** The values to hide in a check's output: those of `env`'s secret-looking variables (see the header), longest first. */
export function secretValues(env: NodeJS.ProcessEnv): { name: string; value: string }[] {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && value.trim().length >= MIN_SECRET_CHARS && SECRET_VARIABLE_NAME.test(name) && !out.has(value)) out.set(value, name);
  }
  // a longer value first: one that holds a shorter one is hidden whole
  return [...out].map(([value, name]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length);
}

/** `text` with every secret value replaced by `[hidden: the value of NAME]`. */
export function hideSecrets(text: string, secrets: readonly { name: string; value: string }[]): string {
  for (const s of secrets) if (text.includes(s.value)) text = text.split(s.value).join(`[hidden: the value of ${s.name}]`);
  return text;
}

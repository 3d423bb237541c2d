// The environment a check command runs with, and the secrets of that environment kept out of what its output becomes
// (DevA's fix request, the step's record under cape/, the panel, the CLI's transcript).
//
// The choice: a check gets the developer's environment — PATH, HOME, a DATABASE_URL or a service's address its tests
// need, the toolchains' own variables — less the Anthropic credentials (llm/credentials.ts CREDENTIAL_VARIABLES: CAPE's
// own key has no business in the project's tests), and less ELECTRON_RUN_AS_NODE; with CI=1. The other secrets stay
// (a test may need its registry token or its cloud credentials), but their values never leave the run: in the kept
// output, the value of every variable whose name looks secret (SECRET_VARIABLE_NAME) is replaced by a mark naming the
// variable, and the API key the session uses — whatever gave it (the CLI's --api-key-file, ANTHROPIC_API_KEY or
// --api-key, VS Code's secret storage), which no variable of the check's holds — by `[hidden: the API key]`: a check
// may still come by it (a project's .env holding the same key, the CLI's command line under /proc). A value shorter
// than MIN_SECRET_CHARS is left ("1", "true", "no" would blank the output, and hide nothing). A value is found as it
// is and in the encodings a test prints it in (encodedForms: base64, base64url, percent-encoding, JSON string
// escaping), all of them in one pass over the output (text/needles.ts); a value cut
// across the kept head and tail of a long output, or encoded otherwise (hex, encrypted), is beyond this.
import { CREDENTIAL_VARIABLES } from '../llm/credentials';
import { needleReplacer } from '../text/needles';
import { SECRET_VARIABLE_NAME } from '../workspace/secretNames';


/** Values shorter than this are not hidden: too short to be a secret, too common not to blank the output. */
export const MIN_SECRET_CHARS = 8;

/** A value kept out of a check's output, and what the mark in its place says it was ("the value of GITHUB_TOKEN"). */
export interface SecretValue {
  value: string;
  what: string;
}

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

/**
 * The values to hide in a check's output (see the header), longest first: the session's API key, when it has one, and
 * those of `env`'s secret-looking variables (one holding the key is named as the key).
 */
export function secretValues(env: NodeJS.ProcessEnv, apiKey?: string): SecretValue[] {
  const out = new Map<string, string>();
  if (apiKey && apiKey.trim().length >= MIN_SECRET_CHARS) out.set(apiKey, 'the API key');
  for (const [name, value] of Object.entries(env)) {
    if (value && value.trim().length >= MIN_SECRET_CHARS && SECRET_VARIABLE_NAME.test(name) && !out.has(value)) out.set(value, `the value of ${name}`);
  }
  // a longer value first: one that holds a shorter one is hidden whole
  return [...out].map(([value, what]) => ({ value, what })).sort((a, b) => b.value.length - a.value.length);
}

/**
 * `value` as a test may print it: as it is; base64 and base64url, unpadded, and the whole 4-character groups of its
 * encoding inside a longer text at each of the 3 places it may start in a group (a Basic auth header encodes
 * `user:value`, `echo $TOKEN | base64` the value and a newline: all but the 1 to 3 characters at each end that also
 * encode their neighbours); percent-encoded (encodeURIComponent's, with lower-case hex, `+` for a space as in a form,
 * and encodeURI's, which leaves `/`, `+`, `@`… as they are); JSON-escaped (inside a string's quotes; with every
 * character past ASCII as `\uXXXX` too, as Python writes it). Each form once.
 */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set([value]);
  for (const alphabet of ['base64', 'base64url'] as const) {
    forms.add(bytes.toString(alphabet).replace(/={1,2}$/, ''));
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
      // the characters that encode the value's bytes alone: past the ones shared with the bytes before it, up to the
      // last whole group (its last group may share one with the bytes after it)
      forms.add(encoded.slice(offset ? offset + 1 : 0, Math.floor((offset + bytes.length) / 3) * 4));
    }
  }
  const uri = encodeURIComponent(value);
  forms.add(uri).add(uri.replace(/%[\dA-F]{2}/g, (h) => h.toLowerCase())).add(uri.replace(/%20/g, '+')).add(encodeURI(value));
  const json = JSON.stringify(value).slice(1, -1);
  forms.add(json).add(json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return [...forms];
}

/**
 * What hides `secrets` in a text: each value, and each of its encodings (encodedForms), replaced by `[hidden: WHAT]`,
 * all of them found in one pass over the text. A form two values share is the first's (the longest value first).
 */
export function secretHider(secrets: readonly SecretValue[]): (text: string) => string {
  const forms: string[] = [];
  const marks: string[] = [];
  for (const s of secrets) {
    for (const f of encodedForms(s.value)) {
      forms.push(f);
      marks.push(`[hidden: ${s.what}]`);
    }
  }
  const replace = needleReplacer(forms);
  return (text) => replace(text, (i) => marks[i]);
}

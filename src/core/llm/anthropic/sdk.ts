// The @anthropic-ai/sdk module, loaded on first use rather than when core is loaded: the SDK is the largest
// dependency, and neither the extension's activation nor a CLI command that sends no request needs it. The
// extension's bundle leaves it out (esbuild.mjs maps this require to dist/anthropic-sdk.js, its own bundle file);
// the CLI bundle and the compiled out/ tree resolve it as usual. Only the code below calls require; the other
// files of this folder import the SDK's types only.
import type * as AnthropicSdk from '@anthropic-ai/sdk';

export type Sdk = typeof AnthropicSdk;

let loaded: Sdk | undefined;

/** The SDK module, required on the first call. */
export function loadSdk(): Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point (see above)
  loaded ??= require('@anthropic-ai/sdk') as Sdk;
  return loaded;
}


// The one zod entry point of core: zod's tree-shakable `zod/mini` API with English error messages. The full `zod`
// build (~440 KB minified, every locale included) would be most of the extension bundle; zod/mini bundles only the
// schemas and checks actually used. Every schema in core does `import * as z from '../model/schema'` (a namespace
// import, so the bundler keeps only what is used — never re-export zod as one object), which also guarantees the
// locale below is configured before the first parse.
import { array, config, pipe, string, transform, type ZodMiniArray, type ZodMiniPipe, type ZodMiniString, type ZodMiniTransform, type ZodMiniType } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';

/** zod's `preprocess` (which zod/mini lacks): `fn` reshapes the raw value, then `schema` validates the result. */
export function preprocess<U extends ZodMiniType>(fn: (value: unknown) => unknown, schema: U): ZodMiniPipe<ZodMiniTransform<unknown, unknown>, U> {
  return pipe(transform(fn), schema);
}

/** A list of strings, as CAPE's stored records keep paths, names and lines (store/stepRecordSchema.ts, checks/storedOutcome.ts). */
export function strings(): ZodMiniArray<ZodMiniString<string>> {
  return array(string());
}

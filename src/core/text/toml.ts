// A TOML document parsed (smol-toml) and its tables looked up: the one way the manifests (pyproject.toml, Cargo.toml)
// are read — init's fact lines (cape/initManifestsToml.ts) and the workspace members the root declares
// (workspace/members.ts). A file that is not valid TOML is no document (null), never an error.
import { parse } from 'smol-toml';
import { isPlainObject } from '../model/types';

/** A TOML table: its keys and their values. */
export type TomlTable = Record<string, unknown>;

/** The document, or null when the text is not valid TOML. */
export function parseToml(text: string): TomlTable | null {
  try {
    return parse(text, { unsafeKeyBehaviour: 'drop' });
  } catch {
    // a syntax error, or nesting deeper than the parser's bound: either way not a manifest to read
    return null;
  }
}

/** A table of the document (`a.b.c`), or an empty one when it has none there. */
export function tableAt(doc: TomlTable, ...keys: string[]): TomlTable {
  let t: unknown = doc;
  for (const k of keys) t = isPlainObject(t) ? t[k] : undefined;
  return isPlainObject(t) ? t : {};
}

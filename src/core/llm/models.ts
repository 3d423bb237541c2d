// The default model names, in one place: the CLI's defaults, the extension's setting fallbacks (which match
// package.json's contributes.configuration defaults; test/unit/models.test.ts checks that they agree) and the
// model picker's list.

/** Sessions: balanced quality and speed. */
export const DEFAULT_SESSION_MODEL = 'claude-sonnet-4-6';
/** Initialize Project: the fast, cheap model that writes the cape/ input files. */
export const DEFAULT_INIT_MODEL = 'claude-haiku-4-5';
/** The most capable model offered by name in the picker. */
export const MOST_CAPABLE_MODEL = 'claude-opus-4-6';

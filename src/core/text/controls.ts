// Text safe to show or store as text: without terminal control sequences, control characters and bidi controls. A
// model's reply (a voice, a KPT item, a question) or a user's typed answer may hold an ESC sequence that a terminal
// obeys (OSC 52 writes the clipboard, CSI erases the lines above, OSC 8 plants a link) or a text-direction override
// that shows the words in another order. The one rule of what is removed: the CLI's transcript, kpt_merged.md's items,
// the dated retrospective file, the files init generates and the Cape Master's answers all go through it. And the one
// list of invisible characters (INVISIBLE_CHARS), which a path name refuses too (files/pathNames.ts).

/**
 * An ESC sequence whole: CSI (`ESC [ … final`), OSC / DCS / SOS / PM / APC up to BEL or ST (or the end of the line:
 * what is left once the ESC is gone is plain text), or a two-character escape.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|[ -~]?)/g;

/**
 * The invisible characters no text needs, as a character class's contents (regexp source): the zero-width space, the
 * word joiner and the invisible operators (U+2060–2064), the BOM / zero-width no-break space, and the bidi controls
 * (marks, embeddings, overrides, isolates, the deprecated format controls U+206A–206F). Joiners (U+200C, U+200D) and
 * variation selectors are not among them: emoji and scripts need them. A path name refuses these and more
 * (files/pathNames.ts INVISIBLE).
 */
export const INVISIBLE_CHARS = String.raw`\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u206F\uFEFF`;

/** Control characters but tab and line feed (C0, DEL, C1: U+009B is a CSI of its own), and INVISIBLE_CHARS. */
const CONTROL = new RegExp(String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f${INVISIBLE_CHARS}]`, 'g');

/**
 * The text without escape sequences (removed whole, so no `[2J` is left behind), control characters other than
 * `\n` and `\t`, and invisible characters (INVISIBLE_CHARS); line breaks written `\r\n` or `\r` become `\n` (a lone
 * `\r` would go back to the start of the line and write over it).
 */
export function withoutControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * Text for a VS Code notification: its message renders `[label](https://…)`, `[label](command:…)` and
 * `[label](file:…)` as links, and a command link runs the command when clicked. Model text quoted in an error (a
 * proposed path, a reply's first words) or a server's error must not plant one: a space between `]` and `(` keeps the
 * words and makes no link. Controls go too (withoutControls).
 */
export function inertLinks(text: string): string {
  return withoutControls(text).replace(/\]\(/g, '] (');
}

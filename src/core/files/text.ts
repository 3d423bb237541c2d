// Is a file's content text? The one rule for every input CAPE reads as text (cape/ files, kpt_merged.md, the
// objective file or stdin, the init answers file): binary data or bytes that are not UTF-8 would reach prompts as NUL
// bytes and U+FFFD, or be rewritten lossily. And a text file's form: its line break and byte-order mark.
// Plain Node: nothing in src/core may import 'vscode'.

/**
 * Why `bytes` is not text, or null when it is: a NUL byte (binary formats have them, text never does) or a byte
 * sequence that is not valid UTF-8 (decoding would turn it into U+FFFD and lose the original bytes). Offsets are
 * byte offsets, for the message.
 */
export function notTextReason(bytes: Uint8Array): string | null {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `it is a binary file (NUL byte at offset ${nul}), not text`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return null;
  } catch {
    // where, for the message (only on the failure path)
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const at = text.indexOf('\uFFFD');
    const offset = at < 0 ? 0 : Buffer.byteLength(text.slice(0, at), 'utf8');
    return `it is not valid UTF-8 text (invalid bytes at offset ${offset}); save it as UTF-8`;
  }
}

/** A text's more frequent line break ('\n' on a tie, or when it has none). */
export function usualLineBreak(text: string): '\n' | '\r\n' {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * A whole new text for an existing file (a <file> block over it) in the file's own form: its usual line break and its
 * UTF-8 byte-order mark. The model writes LF and no BOM; an <edit> keeps the file's (edits/match.ts), and so does the
 * editor the extension applies through (edits/hunks.ts inDocumentForm): the CLI's --apply must not turn a CRLF file
 * into an LF one. Only a text of one kind of line break is converted: one that mixes them is an <edit>'s of a file that
 * mixes them (reloaded from the record), each line keeping its own. A file without a line break tells none.
 */
export function inFileForm(proposed: string, current: string): string {
  const bom = current.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = proposed.startsWith('\uFEFF') ? proposed.slice(1) : proposed;
  const crlf = body.includes('\r\n');
  const lf = /(?:^|[^\r])\n/.test(body);
  if (!/\n/.test(current) || crlf === lf) return bom + body;
  const usual = usualLineBreak(current);
  if (usual === '\r\n' && lf) return bom + body.replace(/\n/g, '\r\n');
  if (usual === '\n' && crlf) return bom + body.replace(/\r\n/g, '\n');
  return bom + body;
}

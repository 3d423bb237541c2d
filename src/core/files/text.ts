// Is a file's content text? The one rule for every input CAPE reads as text (cape/ files, kpt_merged.md, the
// objective file or stdin, the init answers file): binary data or bytes that are not UTF-8 would reach prompts as NUL
// bytes and U+FFFD, or be rewritten lossily.
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

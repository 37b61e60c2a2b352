/**
 * How large one message the server writes may be (docs/protocol.md, "Message sizes"), and the
 * measure: UTF-8 bytes, as the stdio stream carries them. Claude Code closes its connection on a
 * stdio message of 8 MiB or more and Codex drops one of 16 MiB or more, so every answer stays
 * under 6 MiB: tool pages stop at an entry boundary and say so, resources/read refuses files
 * whose encoded content would not fit.
 */

export const MESSAGE_CAP_BYTES = 6 * 1024 * 1024;

const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 length of `text` (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Bytes that the UTF-8 text `bytes` takes inside a JSON string: each byte once, plus the
 * escapes (`\"`, `\\`, `\n`-style controls: one more byte; other controls `\u00XX`: five more).
 */
export function jsonEscapedLength(bytes: Uint8Array): number {
  let extra = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x22 || b === 0x5c) extra += 1;
    else if (b < 0x20) {
      extra += b === 0x08 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d ? 1 : 5;
    }
  }
  return bytes.length + extra;
}

/** `bytes` in MiB for a sentence: "6", "7.3". */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}

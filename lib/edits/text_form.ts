/**
 * The form of a text file that an edit keeps (docs/tools.md "edit_file"): its byte-order mark,
 * its line ending (CRLF when every line ends so, else LF; a mixed file is edited as it is) and
 * whether it ends with a newline (an edit changes that only when it asks to). Edits work on the plain text (no BOM, LF line ends) and the
 * result is written back in the file's own form.
 */

export interface TextForm {
  bom: boolean;
  crlf: boolean;
  finalNewline: boolean;
}

/** Why bytes are not editable text, or null. */
export type NotText = "binary" | "not-utf8";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The text of `bytes`, or why it is not text: a NUL byte anywhere, or invalid UTF-8. */
export function decodeText(bytes: Uint8Array): string | NotText {
  if (bytes.indexOf(0) >= 0) return "binary";
  try {
    return fatal.decode(bytes);
  } catch {
    return "not-utf8";
  }
}

/** Splits raw file text into its form and the plain text edits work on. */
export function toPlain(raw: string): { form: TextForm; plain: string } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  let text = bom ? raw.slice(1) : raw;
  const crlf = isAllCrlf(text);
  if (crlf) text = text.replaceAll("\r\n", "\n");
  return { form: { bom, crlf, finalNewline: text.endsWith("\n") }, plain: text };
}

/** True when the text has line ends and every one of them is CRLF. */
function isAllCrlf(text: string): boolean {
  let at = text.indexOf("\n");
  if (at < 0) return false;
  while (at >= 0) {
    if (at === 0 || text.charCodeAt(at - 1) !== 13) return false;
    at = text.indexOf("\n", at + 1);
  }
  return true;
}

/** Text given by the model (read_file shows LF) in the plain form: CRLF becomes LF. */
export function plainInput(text: string, form: TextForm): string {
  return form.crlf ? text.replaceAll("\r\n", "\n") : text;
}

/** Plain text back in the file's form: LF becomes CRLF in a CRLF file, the BOM is put back. */
export function fromPlain(plain: string, form: TextForm): string {
  const text = form.crlf ? plain.replaceAll("\n", "\r\n") : plain;
  return form.bom ? `\uFEFF${text}` : text;
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

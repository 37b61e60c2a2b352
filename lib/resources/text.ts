/** Text or binary: text is valid UTF-8 without NUL bytes, checked over the whole file. */

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The decoded text, or null when the bytes are binary (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.indexOf(0) !== -1) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

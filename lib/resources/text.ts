/** Text or binary: text is valid UTF-8 without NUL bytes, checked over the whole file. */

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const loose = new TextDecoder("utf-8", { ignoreBOM: true });

/** The decoded text, or null when the bytes are binary (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.indexOf(0) !== -1) return null;
  // The replacing decoder is several times faster; without a U+FFFD in its output the bytes
  // were valid. A U+FFFD may also be genuine text: only then the strict decoder decides.
  const text = loose.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return fatal.decode(bytes);
  } catch {
    return null;
  }
}

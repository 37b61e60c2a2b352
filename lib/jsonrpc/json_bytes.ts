/**
 * JSON text as UTF-8 bytes, in pieces as they were read: what a relay passes on from its daemon.
 * Written out as it is, never decoded and encoded again on the way (docs/architecture.md, "The
 * shared daemon").
 */
export class JsonBytes {
  /** The bytes, in order; nobody writes into them once they are here. */
  readonly parts: readonly Uint8Array[];
  /** Their total length in bytes. */
  readonly length: number;

  constructor(parts: readonly Uint8Array[]) {
    this.parts = parts;
    let length = 0;
    for (const part of parts) length += part.length;
    this.length = length;
  }

  /** The text (invalid UTF-8 becomes U+FFFD), for the rare reader that needs it as a string. */
  text(): string {
    const decoder = new TextDecoder();
    let text = "";
    for (const part of this.parts) text += decoder.decode(part, { stream: true });
    return text + decoder.decode();
  }
}

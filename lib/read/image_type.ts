/**
 * Image sniffing for read_file: png, jpeg, gif and webp are recognised by their magic bytes
 * (never by the file name), and sent as base64 in an MCP image block.
 */

/** Leading bytes needed to recognise every type below. */
export const IMAGE_HEAD_BYTES = 16;

const IMAGE_MAGIC: [string, (b: Uint8Array) => boolean][] = [
  ["image/png", (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ["image/jpeg", (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  [
    "image/gif",
    (b) =>
      startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  ],
  [
    "image/webp",
    (b) =>
      startsWith(b, [0x52, 0x49, 0x46, 0x46]) &&
      startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  ],
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** The image MIME type of these leading bytes, or null. */
export function imageType(head: Uint8Array): string | null {
  for (const [mime, test] of IMAGE_MAGIC) if (test(head)) return mime;
  return null;
}

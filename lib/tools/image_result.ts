/**
 * The answer for an image file (read_file, git_show with path): one image block and
 * `{path, mimeType, size}`. Line windows do not apply to an image: when the call gave `offset` or
 * `limit`, the answer says the whole image is shown (a text block and `note`), never silently.
 */
import type { ToolResult } from "./tool.ts";

export function imageResult(
  image: { rel: string; mime: string; bytes: Uint8Array },
  window: { readonly offset?: number; readonly limit?: number },
): ToolResult {
  const { rel, mime, bytes } = image;
  const structured: Record<string, unknown> = { path: rel, mimeType: mime, size: bytes.length };
  const result: ToolResult = {
    content: [{ type: "image", data: bytes.toBase64(), mimeType: mime }],
    structuredContent: structured,
  };
  const given = [
    ...(window.offset === undefined ? [] : ["offset"]),
    ...(window.limit === undefined ? [] : ["limit"]),
  ];
  if (given.length > 0) {
    const note = `${given.join(" and ")} ${
      given.length > 1 ? "do" : "does"
    } not apply to an image: the whole ${mime} image is shown`;
    structured.note = note;
    result.content.push({ type: "text", text: `[${note}]` });
  }
  return result;
}

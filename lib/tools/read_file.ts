/** read_file: numbered lines of a text file, or an image block (TOOLS.md "read_file"). */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./tool_support.ts";
import { WorkspaceError } from "../workspace/workspace.ts";
import { HARD_CAP_CHARS } from "../search/paging.ts";
import { MAX_LINE_CHARS } from "../search/content_lines.ts";

const DEFAULT_LIMIT = 2000;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CHUNK = 256 * 1024;
/** Bytes of one line kept for display: enough for MAX_LINE_CHARS characters of any UTF-8. */
const KEEP_BYTES = MAX_LINE_CHARS * 4 + 4;
const RESERVE = 400;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to read (workspace-relative, absolute or file://)" },
    file_path: { type: "string", description: "Same as path (give exactly one of the two)" },
    offset: {
      type: "integer",
      description: "First line, 1-based; negative counts from the end (-10 = last 10 lines)",
    },
    limit: { type: "integer", minimum: 1, description: "Max lines (default 2000)" },
  },
  required: [],
  additionalProperties: false,
};

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    start_line: { type: "integer", description: "First line shown (1-based)" },
    end_line: { type: "integer", description: "Last line shown" },
    total_lines: { type: "integer", description: "Lines in the file" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More lines follow" },
    text: { type: "string", description: "The lines, each as %6d<TAB>text" },
    mimeType: { type: "string", description: "Image type (images only)" },
    size: { type: "integer", description: "Image size in bytes (images only)" },
  },
  required: ["path"],
  additionalProperties: false,
};

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

function base64(bytes: Uint8Array): string {
  let out = "";
  const step = 0x6000; // multiple of 3, so chunks concatenate
  for (let i = 0; i < bytes.length; i += step) {
    out += btoa(String.fromCharCode(...bytes.subarray(i, i + step)));
  }
  return out;
}

/** UTF-16 length of UTF-8 bytes (continuation bytes add nothing, 4-byte leads add two). */
function utf16Length(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One display line: text cut at MAX_LINE_CHARS with `... [+N chars]`. */
function displayLine(kept: Uint8Array, extraUnits: number, first: boolean): string {
  let bytes = kept;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 13 && extraUnits === 0) {
    bytes = bytes.subarray(0, bytes.length - 1);
  }
  let text = decoder.decode(bytes);
  if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let extra = extraUnits;
  if (text.length > MAX_LINE_CHARS || extra > 0) {
    let end = Math.min(MAX_LINE_CHARS, text.length);
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    extra += text.length - end;
    if (extra > 0) return `${text.slice(0, end)}... [+${extra} chars]`;
  }
  return text;
}

interface Window {
  /** 1-based first line to show. */
  start: number;
  /** Max lines to show. */
  count: number;
  /** Character budget of the page (Infinity when off). */
  budget: number;
}

interface Pass {
  total: number;
  shown: string[];
  /** Last line shown (start - 1 when none). */
  end: number;
  binary: boolean;
}

/** One streaming pass: counts every line and formats those in the window. */
async function scan(file: Deno.FsFile, window: Window, signal: AbortSignal): Promise<Pass> {
  const buffer = new Uint8Array(CHUNK);
  let line = 1; // number of the line being read
  let started = false; // the current line has bytes
  let kept: Uint8Array[] = [];
  let keptBytes = 0;
  let extraUnits = 0;
  let textSize = 0;
  let jsonSize = 0;
  let full = false; // the window is closed: only counting now
  const shown: string[] = [];
  let end = window.start - 1;
  let total = 0;
  let binary = false;
  let first = true;
  const inWindow = () => !full && line >= window.start;
  const finishLine = () => {
    if (inWindow()) {
      const joined = kept.length === 1 ? kept[0] : concat(kept, keptBytes);
      const text = `${String(line).padStart(6)}\t${displayLine(joined, extraUnits, line === 1)}`;
      const t = textSize + text.length + 1;
      const j = jsonSize + JSON.stringify(text).length - 1;
      if (shown.length > 0 && Math.max(t, j) + RESERVE > window.budget) full = true;
      else {
        shown.push(text);
        textSize = t;
        jsonSize = j;
        end = line;
        if (shown.length >= window.count) full = true;
      }
    }
    kept = [];
    keptBytes = 0;
    extraUnits = 0;
    started = false;
    total = line;
    line++;
  };
  const take = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    started = true;
    if (!inWindow()) return;
    const room = KEEP_BYTES - keptBytes;
    if (room > 0) {
      const part = bytes.subarray(0, room);
      kept.push(part.slice());
      keptBytes += part.length;
    }
    if (bytes.length > room) extraUnits += utf16Length(bytes.subarray(Math.max(room, 0)));
  };
  for (;;) {
    if (signal.aborted) throw new DOMException("The read was cancelled", "AbortError");
    const n = await file.read(buffer);
    if (n === null) break;
    const chunk = buffer.subarray(0, n);
    if (first) {
      first = false;
      if (chunk.subarray(0, 8192).indexOf(0) >= 0) {
        binary = true;
        break;
      }
    }
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl < 0) {
        take(chunk.subarray(from));
        break;
      }
      take(chunk.subarray(from, nl));
      finishLine();
      from = nl + 1;
    }
  }
  if (started) finishLine();
  return { total, shown, end, binary };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const hasPath = typeof args.path === "string";
  const hasFilePath = typeof args.file_path === "string";
  if (hasPath === hasFilePath) {
    throw new ToolError(
      hasPath
        ? "Give only one of path and file_path, not both"
        : "Missing file: give path (or file_path) of the file to read",
    );
  }
  const input = (hasPath ? args.path : args.file_path) as string;
  let rel: string;
  let opened: { file: Deno.FsFile; size: number };
  try {
    rel = ws.resolve(input).rel;
    opened = await ws.openFile(rel);
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") {
      throw new ToolError(`Cannot read "${input}": it is a folder; use list_dir`);
    }
    throw error;
  }
  const { file, size } = opened;
  try {
    const head = new Uint8Array(Math.min(16, size));
    let got = 0;
    while (got < head.length) {
      const n = await file.read(head.subarray(got));
      if (n === null) break;
      got += n;
    }
    const mime = imageType(head.subarray(0, got));
    if (mime !== null) {
      if (size > MAX_IMAGE_BYTES) {
        throw new ToolError(
          `Cannot read "${rel}": the ${mime} image is ${size} bytes, over the 5 MiB image limit`,
        );
      }
      file.close();
      const bytes = await ws.readFile(rel, { maxBytes: MAX_IMAGE_BYTES });
      return {
        content: [{ type: "image", data: base64(bytes), mimeType: mime }],
        structuredContent: { path: rel, mimeType: mime, size: bytes.length },
      };
    }
    await file.seek(0, Deno.SeekMode.Start);
    const explicit = typeof args.limit === "number";
    const count = explicit ? args.limit as number : DEFAULT_LIMIT;
    const budget = explicit || ctx.config.maxOutputChars === 0
      ? HARD_CAP_CHARS
      : Math.min(ctx.config.maxOutputChars, HARD_CAP_CHARS);
    let offset = typeof args.offset === "number" ? args.offset : 1;
    if (offset < 0) {
      const counted = await scan(file, { start: Infinity, count: 0, budget: 0 }, ctx.signal);
      if (counted.binary) throw binaryError(rel, size);
      offset = Math.max(1, counted.total + 1 + offset);
      await file.seek(0, Deno.SeekMode.Start);
    }
    if (offset === 0) offset = 1;
    const pass = await scan(file, { start: offset, count, budget }, ctx.signal);
    if (pass.binary) throw binaryError(rel, size);
    if (offset > Math.max(pass.total, 1)) {
      throw new ToolError(
        `Cannot read "${rel}" from line ${offset}: the file has ${pass.total} line${
          pass.total === 1 ? "" : "s"
        }`,
      );
    }
    const more = pass.end < pass.total;
    const lines = [...pass.shown];
    if (more) {
      const note = budget === HARD_CAP_CHARS && explicit && pass.shown.length < count
        ? " (stopped at the 8 MiB safety cap)"
        : "";
      lines.push(
        `[... ${pass.total - pass.end} more lines${note}; call again with offset=${pass.end + 1}]`,
      );
    }
    if (pass.total === 0) lines.push("(empty file)");
    const structured: Record<string, unknown> = {
      path: rel,
      start_line: offset,
      end_line: pass.end,
      total_lines: pass.total,
    };
    if (more) structured.next_offset = pass.end + 1;
    structured.truncated = more;
    structured.text = pass.shown.join("\n");
    return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
  } finally {
    try {
      file.close();
    } catch {
      // already closed (image path)
    }
  }
}

function binaryError(rel: string, size: number): ToolError {
  return new ToolError(
    `Cannot read "${rel}": it is a binary file (${size} bytes) and not a png, jpeg, gif or webp image`,
  );
}

export const readFileTool: Tool = {
  name: "read_file",
  title: "Read a file",
  description: "Read a text file as numbered lines (cat -n style: line number, tab, text), " +
    "from offset (1-based; negative counts from the end) for limit lines (default 2000). " +
    "Lines longer than 2000 characters are cut. Without limit the result is kept small and " +
    "ends with the offset to continue from. png, jpeg, gif and webp images up to 5 MiB come " +
    "back as an image. Give path or file_path (absolute paths inside the workspace work).",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Read a file"),
  run,
};

/**
 * read_file: numbered lines of a text file, or an image block (docs/tools.md "read_file").
 * The line pass is lib/read/line_scan.ts, image sniffing lib/read/image_type.ts.
 */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { fileArgument } from "./path_arguments.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { CAP_NOTE, MESSAGE_CAP_BYTES } from "./paging.ts";
import { WorkspaceError } from "../workspace/workspace.ts";
import { recordFileRead } from "../edits/record_read.ts";
import { type LineReader, type LineScan, scanLines } from "../read/line_scan.ts";
import { IMAGE_HEAD_BYTES, imageType } from "../read/image_type.ts";
import { imageResult } from "./image_result.ts";

const DEFAULT_LIMIT = 2000;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File (relative, absolute or file://)" },
    file_path: { type: "string", description: "Same as path (give one)" },
    offset: {
      type: "integer",
      description: "First line, 1-based; negative from the end",
    },
    limit: { type: "integer", minimum: 1, description: "Max lines (default 2000)" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type ReadFileInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    start_line: { type: "integer", description: "First line shown (1-based)" },
    end_line: { type: "integer", description: "Last line shown" },
    total_lines: { type: "integer", description: "Lines in the file" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More lines follow" },
    text: { type: "string", description: "The lines, each as %6d<TAB>text" },
    mimeType: { type: "string", description: "Image type (images only)" },
    size: { type: "integer", description: "Image size in bytes (images only)" },
    note: { type: "string", description: "Images: offset/limit do not apply" },
  },
  required: ["path"],
  additionalProperties: false,
};

async function run(input: ReadFileInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const named = fileArgument(input, "read");
  let rel: string;
  let opened: { file: Deno.FsFile; size: number; mtimeMs: number; abs: string };
  try {
    rel = ws.resolve(named).rel;
    opened = await ws.openFile(rel);
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") {
      throw new ToolError(`Cannot read "${named}": it is a folder; use list_dir`);
    }
    throw error;
  }
  const { file, size } = opened;
  try {
    const head = new Uint8Array(Math.min(IMAGE_HEAD_BYTES, size));
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
      return imageResult({ rel, mime, bytes }, input);
    }
    await file.seek(0, Deno.SeekMode.Start);
    const source = { read: (p: Uint8Array) => file.read(p), rewind: () => file.seek(0, 0) };
    const page = await numberedPage(source, { rel, size }, input, ctx);
    // With --write the session remembers what was read (read before write, docs/tools.md).
    const edits = ctx.session.edits;
    if (edits !== null) {
      const shown = page.structuredContent!;
      await recordFileRead(edits, ws, rel, {
        ...opened,
        maxBytes: ctx.config.maxReadBytes,
        range: { start: shown.start_line as number, end: shown.end_line as number },
      });
    }
    return page;
  } finally {
    try {
      file.close();
    } catch {
      // already closed (image path)
    }
  }
}

/** Bytes read front to back, and back to the front (a file, or a blob in memory). */
export interface LineSource extends LineReader {
  rewind(): Promise<unknown>;
}

/**
 * The read_file page of a text source: numbered lines from `window.offset` (negative counts
 * from the end) for `window.limit` lines under the read budget, the next-offset hint, and ToolError for
 * a binary source or an offset past the end. git_show shows file content at a revision with it.
 */
export async function numberedPage(
  source: LineSource,
  file: { rel: string; size: number },
  window: { readonly offset?: number; readonly limit?: number },
  ctx: ToolContext,
): Promise<ToolResult> {
  const { rel, size } = file;
  const explicit = window.limit !== undefined;
  const count = window.limit ?? DEFAULT_LIMIT;
  const budget = explicit || ctx.config.maxReadChars === 0 ? Infinity : ctx.config.maxReadChars;
  let offset = window.offset ?? 1;
  if (offset < 0) {
    const counted = await scanLines(source, { start: Infinity, count: 0, budget: 0 }, ctx.signal);
    if (counted.firstNul >= 0) throw binaryError(rel, size, counted);
    offset = Math.max(1, counted.total + 1 + offset);
    await source.rewind();
  }
  if (offset === 0) offset = 1;
  // One pass to the end whatever the window: it counts the lines and finds a NUL anywhere.
  const pass = await scanLines(
    source,
    { start: offset, count, budget, capBytes: MESSAGE_CAP_BYTES },
    ctx.signal,
  );
  if (pass.firstNul >= 0) throw binaryError(rel, size, pass);
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
    const note = pass.capped ? CAP_NOTE : "";
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
}

function binaryError(rel: string, size: number, scan: LineScan): ToolError {
  return new ToolError(
    `Cannot read "${rel}": it is a binary file (${size} bytes, a NUL byte at byte ${scan.firstNul}) ` +
      `and not a png, jpeg, gif or webp image; read_file shows only text files and images`,
  );
}

export const readFileTool: Tool<ReadFileInput> = {
  name: "read_file",
  title: "Read a file",
  description:
    "Read a text file as numbered lines (cat -n) from offset (1-based; negative from the " +
    "end), limit lines (default 2000); long lines are cut. Without limit a page stops near " +
    "60,000 chars and names the next offset. png/jpeg/gif/webp up to 5 MiB come back as " +
    "images; other binary files are refused. path or file_path.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Read a file"),
  budget: "read",
  run,
};

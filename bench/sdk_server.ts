// deno-lint-ignore-file no-console
/**
 * The peer: the official TypeScript SDK (`McpServer` + `StdioServerTransport`) serving what the
 * protocol bench asks of every server: `ping` (built in), `resources/read` of one text file
 * (--text FILE, registered at --uri URI and read from disk on every call, as ours does), and four
 * tools whose definitions match ours (grep, glob, read_file, list_dir; zod shapes, titles,
 * annotations, output schemas). The tool handlers are stubs: only tools/list is measured.
 *
 *   deno run --allow-read --allow-env bench/sdk_server.ts --text FILE --uri URI
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const textPath = flag("--text");
const uri = flag("--uri") ?? "file:///sdk.txt";

const server = new McpServer({ name: "shipcode-mcp", version: "1.0.0" }, {
  capabilities: { tools: {}, resources: {} },
});

if (textPath) {
  server.registerResource("big.txt", uri, { mimeType: "text/plain" }, async () => ({
    contents: [{ uri, mimeType: "text/plain", text: await Deno.readTextFile(textPath) }],
  }));
}

const annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const headLimit = z.number().int().min(0).optional();
const offset = z.number().int().min(0).optional();

server.registerTool("grep", {
  title: "Search file contents",
  description: "Search file contents with a regular expression (ripgrep dialect: per line, " +
    "JavaScript regex syntax). Output modes: files_with_matches (default), content, count. " +
    "Skips binary, ignored and secret files. Results are budgeted; use head_limit and offset to page.",
  inputSchema: {
    pattern: z.string().describe("The regular expression to search for"),
    path: z.string().optional().describe("File or folder to search, relative to the root"),
    glob: z.string().optional().describe('Glob filter like "*.ts" or "src/**/*.{ts,tsx}"'),
    type: z.string().optional().describe("File type filter (rg type names: ts, js, py, rust, ...)"),
    output_mode: z.enum(["files_with_matches", "content", "count"]).optional()
      .describe("files_with_matches (default), content, or count"),
    "-i": z.boolean().optional().describe("Case insensitive"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode, default true)"),
    "-A": z.number().int().min(0).optional().describe("Lines of context after each match"),
    "-B": z.number().int().min(0).optional().describe("Lines of context before each match"),
    "-C": z.number().int().min(0).optional().describe("Lines of context around each match"),
    multiline: z.boolean().optional().describe("Let . and patterns span lines (rg -U)"),
    fixed_strings: z.boolean().optional().describe("Match the pattern literally"),
    head_limit: headLimit.describe("Return at most this many entries (0 = unlimited)"),
    offset: offset.describe("Skip this many entries first"),
  },
  outputSchema: {
    mode: z.string().describe("The output mode"),
    files: z.array(z.string()).optional().describe("Matching files"),
    lines: z.array(z.string()).optional().describe("Output lines"),
    counts: z.array(z.string()).optional().describe("path:N entries"),
    total_files: z.number().int().describe("Files with matches"),
    total_matches: z.number().int().describe("Matching lines"),
    offset: z.number().int().describe("Offset of this page"),
    next_offset: z.number().int().optional().describe("Offset of the next page"),
    truncated: z.boolean().describe("True when more entries exist"),
  },
  annotations,
}, () => ({ content: [{ type: "text", text: "" }] }));

server.registerTool("glob", {
  title: "Find files by name",
  description: "Find files whose path matches a glob (ripgrep -g semantics), most recently " +
    "modified first. Skips ignored and secret files.",
  inputSchema: {
    pattern: z.string().describe('Glob like "**/*.ts"'),
    path: z.string().optional().describe("Folder to search, relative to the root"),
    head_limit: headLimit.describe("Return at most this many files (default 100, 0 = unlimited)"),
    offset: offset.describe("Skip this many files first"),
  },
  outputSchema: {
    files: z.array(z.string()).describe("Matching files"),
    total: z.number().int().describe("All matches"),
    offset: z.number().int().describe("Offset of this page"),
    next_offset: z.number().int().optional().describe("Offset of the next page"),
    truncated: z.boolean().describe("True when more files exist"),
  },
  annotations,
}, () => ({ content: [{ type: "text", text: "" }] }));

server.registerTool("read_file", {
  title: "Read a file",
  description: "Read a text file with line numbers (cat -n style), or an image. Use offset and " +
    "limit for large files.",
  inputSchema: {
    path: z.string().optional().describe("File to read, relative to the root"),
    file_path: z.string().optional().describe("Absolute path of the file to read"),
    offset: z.number().int().optional().describe(
      "First line, 1-based; negative counts from the end",
    ),
    limit: z.number().int().min(1).optional().describe("Number of lines (default 2000)"),
  },
  outputSchema: {
    path: z.string().describe("The file"),
    start_line: z.number().int().optional().describe("First line shown"),
    end_line: z.number().int().optional().describe("Last line shown"),
    total_lines: z.number().int().optional().describe("Lines in the file"),
    next_offset: z.number().int().optional().describe("Offset of the next page"),
    truncated: z.boolean().optional().describe("True when more lines exist"),
    text: z.string().optional().describe("The numbered lines"),
    mimeType: z.string().optional().describe("Image MIME type"),
    size: z.number().int().optional().describe("Image size in bytes"),
  },
  annotations,
}, () => ({ content: [{ type: "text", text: "" }] }));

server.registerTool("list_dir", {
  title: "List a folder",
  description: "List a folder as a tree: folders first, then files with sizes.",
  inputSchema: {
    path: z.string().optional().describe("Folder to list, relative to the root"),
    depth: z.number().int().min(1).optional().describe("Depth (default 2)"),
    head_limit: headLimit.describe("Return at most this many entries (default 400)"),
    offset: offset.describe("Skip this many entries first"),
  },
  outputSchema: {
    entries: z.array(z.string()).describe("Entries"),
    total: z.number().int().describe("All entries"),
    offset: z.number().int().describe("Offset of this page"),
    next_offset: z.number().int().optional().describe("Offset of the next page"),
    truncated: z.boolean().describe("True when more entries exist"),
  },
  annotations,
}, () => ({ content: [{ type: "text", text: "" }] }));

try {
  await server.connect(new StdioServerTransport());
} catch (e) {
  console.error(e);
  Deno.exit(1);
}

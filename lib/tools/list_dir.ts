/** list_dir: a folder's tree down to a depth (TOOLS.md "list_dir"). */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import {
  isFile,
  listPage,
  readOnlyAnnotations,
  resolvePath,
  searchFailure,
} from "./tool_support.ts";
import { runList } from "../search/walk_jobs.ts";
import type { ListEntry } from "../search/protocol.ts";

const DEFAULT_LIMIT = 400;
const MAX_DEPTH = 20;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Folder to list (default: workspace root)" },
    depth: {
      type: "integer",
      minimum: 1,
      maximum: MAX_DEPTH,
      default: 2,
      description: "Levels to descend (1 = direct children)",
    },
    head_limit: {
      type: "integer",
      minimum: 0,
      description: "Max entries (default 400; 0 = all)",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Entries to skip" },
  },
  required: [],
  additionalProperties: false,
};

const outputSchema = {
  type: "object",
  properties: {
    entries: {
      type: "array",
      items: { type: "string" },
      description: 'Folders "dir/" (or "dir/ (N entries)" when cut by depth), files "path (size)"',
    },
    total: { type: "integer", description: "All entries down to depth" },
    offset: { type: "integer", description: "First entry shown" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More entries remain" },
  },
  required: ["entries", "total", "offset", "truncated"],
  additionalProperties: false,
};

/** 1234 -> "1.2 KB"; bytes below 1 KiB stay exact. */
export function formatSize(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf("/");
  return slash < 0 ? "" : rel.slice(0, slash);
}

/** Folders first, then files, each sorted by name, depth first. */
export function renderTree(base: string, entries: readonly ListEntry[]): string[] {
  const children = new Map<string, ListEntry[]>();
  for (const e of entries) {
    const parent = parentOf(e[0]);
    let list = children.get(parent);
    if (list === undefined) children.set(parent, list = []);
    list.push(e);
  }
  const out: string[] = [];
  const visit = (folder: string) => {
    const list = children.get(folder) ?? [];
    for (const e of list) {
      if (!e[1]) continue;
      const count = e[3];
      out.push(
        count >= 0 ? `${e[0]}/ (${count} ${count === 1 ? "entry" : "entries"})` : `${e[0]}/`,
      );
      visit(e[0]);
    }
    for (const e of list) if (!e[1]) out.push(`${e[0]} (${formatSize(e[2])})`);
  };
  visit(base);
  return out;
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const base = resolvePath(ws, args.path);
  if (base !== "") {
    if (await isFile(ws, base)) {
      throw new ToolError(`Cannot list "${args.path}": it is a file; use read_file`);
    }
  }
  const depth = typeof args.depth === "number" ? args.depth : 2;
  let listed: ListEntry[];
  try {
    listed = await runList(ctx.session.pool, { ws: ws.options, base, depth }, {
      signal: ctx.signal,
      progress: (n) => ctx.progress(n),
      timeoutMs: ctx.config.regexTimeoutMs,
    });
  } catch (error) {
    throw searchFailure(error, "", ctx.config.regexTimeoutMs);
  }
  const entries = renderTree(base, listed);
  return listPage(entries, args, {
    ctx,
    key: "entries",
    noun: "entries",
    empty: "(empty folder)",
    defaultLimit: DEFAULT_LIMIT,
  });
}

export const listDirTool: Tool = {
  name: "list_dir",
  title: "List a folder",
  description: "List a folder as a tree down to depth (default 2): folders first, then files, " +
    "each sorted by name; paths are workspace-relative, folders end with /, files show their " +
    "size, a folder cut by depth shows its entry count. Ignored, .git and secret entries are " +
    "left out. Pages with head_limit (default 400) and offset.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("List a folder"),
  run,
};

/**
 * list_dir: a folder's tree down to a depth (docs/tools.md "list_dir"). Without `depth`, the
 * default depth is lowered (never below 1) until the first page holds the whole listing, so the
 * top level is always seen whole; the text says so.
 */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { resolvePath } from "./path_arguments.ts";
import { budgetOf, listPage } from "./list_page.ts";
import { lineSize, pageRequest, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { searchFailure } from "./search_support.ts";
import { runList } from "../search/walk_jobs.ts";
import { shortSize } from "../byte_sizes.ts";
import type { ListEntry } from "../search/protocol.ts";

const DEFAULT_LIMIT = 400;
const DEFAULT_DEPTH = 2;
const MAX_DEPTH = 20;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Folder (default: root)" },
    depth: {
      type: "integer",
      minimum: 1,
      maximum: MAX_DEPTH,
      default: DEFAULT_DEPTH,
      description: "Levels (1 = children); default 2, lowered to fit a page",
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
} as const;

export type ListDirInput = InputOf<typeof inputSchema>;

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
    next_offset: { type: "integer", description: "Next page's offset" },
    depth: { type: "integer", description: "The depth listed" },
    truncated: { type: "boolean", description: "More entries remain" },
  },
  required: ["entries", "total", "offset", "depth", "truncated"],
  additionalProperties: false,
};

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf("/");
  return slash < 0 ? "" : rel.slice(0, slash);
}

/** Folders first, then files, each sorted by name, depth first. */
export function renderTree(base: string, entries: readonly ListEntry[]): string[] {
  const children = new Map<string, ListEntry[]>();
  for (const e of entries) {
    const parent = parentOf(e.rel);
    let list = children.get(parent);
    if (list === undefined) children.set(parent, list = []);
    list.push(e);
  }
  const out: string[] = [];
  const visit = (folder: string) => {
    const list = children.get(folder) ?? [];
    for (const e of list) {
      if (!e.isDir) continue;
      const count = e.children;
      out.push(
        count >= 0 ? `${e.rel}/ (${count} ${count === 1 ? "entry" : "entries"})` : `${e.rel}/`,
      );
      visit(e.rel);
    }
    for (const e of list) if (!e.isDir) out.push(`${e.rel} (${shortSize(e.size)})`);
  };
  visit(base);
  return out;
}

async function run(input: ListDirInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const base = resolvePath(ws, input.path);
  if (base !== "") {
    if (ws.kind(base) === "file") {
      throw new ToolError(`Cannot list "${input.path}": it is a file; use read_file`);
    }
  }
  // The depth is lowered to fit one page only when the caller left it to the schema's default.
  const lowerable = !ctx.given.has("depth");
  let listed: ListEntry[];
  try {
    listed = await runList(ctx.session.pool, {
      ws: ws.options,
      base,
      depth: input.depth,
    }, {
      signal: ctx.signal,
      progress: (n) => ctx.progress(n),
      timeoutMs: ctx.config.regexTimeoutMs,
    });
  } catch (error) {
    throw searchFailure(error, "", ctx.config.regexTimeoutMs);
  }
  const options = { ctx, defaultLimit: DEFAULT_LIMIT };
  let depth = input.depth;
  let entries = renderTree(base, listed);
  let kept = listed;
  // Lowered from the one walk (the entry counts of the cut folders are the entries below them).
  while (
    lowerable && depth > 1 &&
    takePage(entries, pageRequest(0, input, budgetOf(options)), lineSize).nextOffset !== undefined
  ) {
    depth--;
    kept = cutToDepth(listed, base, depth);
    entries = renderTree(base, kept);
  }
  const below = listed.length - kept.length;
  return listPage(entries, input, {
    ...options,
    key: "entries",
    noun: "entries",
    empty: "(empty folder)",
    note: below > 0
      ? `[depth ${depth} shown: ${below.toLocaleString("en-US")} ${
        below === 1 ? "entry" : "entries"
      } below; list a subfolder for more]`
      : undefined,
    extra: { depth },
  });
}

/** Depth of `rel` below `base` (1 = a direct child). */
function depthBelow(base: string, rel: string): number {
  return (base === "" ? rel : rel.slice(base.length + 1)).split("/").length;
}

/**
 * The listing down to `depth` only, from one made deeper: folders at `depth` get the count of
 * their entries (those listed directly inside them, or the count they already carried).
 */
export function cutToDepth(listed: readonly ListEntry[], base: string, depth: number): ListEntry[] {
  const inside = new Map<string, number>();
  for (const e of listed) {
    const parent = parentOf(e.rel);
    inside.set(parent, (inside.get(parent) ?? 0) + 1);
  }
  const out: ListEntry[] = [];
  for (const e of listed) {
    const d = depthBelow(base, e.rel);
    if (d > depth) continue;
    if (d === depth && e.isDir && e.children < 0) {
      out.push({ ...e, children: inside.get(e.rel) ?? 0 });
    } else out.push(e);
  }
  return out;
}

export const listDirTool: Tool<ListDirInput> = {
  name: "list_dir",
  title: "List a folder",
  description:
    "A folder as a tree to depth (default 2, lowered so the first page holds it all): folders " +
    "first (ending in /; cut ones show entry counts), then files with sizes, by name. " +
    "Ignored, .git and secret entries left out. head_limit (default 400) and offset page.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("List a folder"),
  run,
};

/** git_show: a commit (header, message, diff) or a file at a revision (docs/tools.md "git_show"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { linesPage, withGit } from "./git_support.ts";
import { numberedPage } from "./read_file.ts";
import { DIFF_OPTIONS, diffOutputLines } from "./git_diff.ts";
import { gitPath } from "../git/pathspec.ts";
import { isSecretPath, SECRET_WITHHELD } from "../git/names.ts";
import { resolveRevision } from "../git/revision.ts";
import { IMAGE_HEAD_BYTES, imageType } from "../read/image_type.ts";

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Commit fields before the diff, NUL-separated: id, parents, author, email, date, message. */
const SHOW_FORMAT = "--format=%H%x00%P%x00%an%x00%ae%x00%aI%x00%B%x00";

const inputSchema = {
  type: "object",
  properties: {
    revision: { type: "string", description: "Commit to show: branch, tag, commit id, HEAD~2" },
    path: { type: "string", description: "Show this file's content at that revision instead" },
    offset: {
      type: "integer",
      description: "Diff: lines to skip; file: first line, 1-based (negative counts from the end)",
    },
    limit: { type: "integer", minimum: 1, description: "File: max lines (default 2000)" },
    head_limit: { type: "integer", minimum: 0, description: "Diff: max lines (0 = all)" },
  },
  required: ["revision"],
  additionalProperties: false,
} as const;

export type GitShowInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    commit: { type: "string", description: "Full commit id" },
    parents: { type: "array", items: { type: "string" }, description: "Parent commit ids" },
    author: { type: "string", description: "Author name" },
    email: { type: "string", description: "Author email" },
    date: { type: "string", description: "Author date, ISO 8601" },
    message: { type: "string", description: "Full commit message" },
    lines: { type: "array", items: { type: "string" }, description: "Diff lines of this page" },
    total: { type: "integer", description: "All diff lines" },
    offset: { type: "integer", description: "First diff line shown" },
    path: { type: "string", description: "File shown (with path)" },
    start_line: { type: "integer", description: "File: first line shown" },
    end_line: { type: "integer", description: "File: last line shown" },
    total_lines: { type: "integer", description: "File: lines in the file" },
    text: { type: "string", description: "File: the lines, each as %6d<TAB>text" },
    mimeType: { type: "string", description: "File: image type (images only)" },
    size: { type: "integer", description: "File: image size in bytes (images only)" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More follows" },
  },
  required: [],
  additionalProperties: false,
};

async function showCommit(
  input: GitShowInput,
  ctx: ToolContext,
  revision: string,
): Promise<ToolResult> {
  const { head, lines } = await withGit(ctx, async (git) => {
    const oid = (await resolveRevision(git, revision, { signal: ctx.signal }))!;
    const out = await git.run(["show", ...DIFF_OPTIONS, SHOW_FORMAT, oid], { signal: ctx.signal });
    const bytes = out.stdout;
    // Six NUL-ended fields, then git's blank line(s), then the diff.
    let at = -1;
    for (let i = 0; i < 6; i++) {
      at = bytes.indexOf(0, at + 1);
      if (at < 0) throw new ToolError(`git show printed no commit for "${revision}"`);
    }
    const fields = new TextDecoder().decode(bytes.subarray(0, at)).split("\0");
    let rest = at + 1;
    while (rest < bytes.length && bytes[rest] === 10 && rest < at + 3) rest++;
    return {
      head: fields,
      lines: diffOutputLines(bytes.subarray(rest), out.capped, ctx),
    };
  });
  const [commit, parents, author, email, date, message] = head;
  const parentList = parents === "" ? [] : parents.split(" ");
  const prefix = [`commit ${commit}`];
  if (parentList.length > 1) {
    prefix.push(`Merge: ${parentList.map((p) => p.slice(0, 7)).join(" ")}`);
  }
  prefix.push(`Author: ${author} <${email}>`, `Date:   ${date}`, "");
  for (const line of message.replace(/\n+$/, "").split("\n")) prefix.push(`    ${line}`);
  prefix.push("");
  return linesPage(lines, { offset: input.offset ?? 0, head_limit: input.head_limit }, ctx, {
    empty: "(no changes)",
    prefix,
    extra: { commit, parents: parentList, author, email, date, message },
  });
}

async function showFile(
  input: GitShowInput,
  ctx: ToolContext,
  revision: string,
  path: string,
): Promise<ToolResult> {
  const rel = gitPath(ctx.workspace, path);
  if (rel === "") throw new ToolError("Give the path of a file, not the root");
  const blob = await withGit(ctx, async (git) => {
    const oid = (await resolveRevision(git, revision, { signal: ctx.signal }))!;
    const out = await git.run(["cat-file", "--batch"], {
      signal: ctx.signal,
      stdin: new TextEncoder().encode(`${oid}:${rel}\n`),
    });
    return out;
  });
  const bytes = blob.stdout;
  const nl = bytes.indexOf(10);
  const header = new TextDecoder().decode(bytes.subarray(0, nl < 0 ? bytes.length : nl));
  const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
  if (m === null) {
    throw new ToolError(`No file "${rel}" at revision "${revision}"; list it with git_log path`);
  }
  if (m[1] === "tree") {
    throw new ToolError(`"${rel}" is a folder at revision "${revision}", not a file`);
  }
  if (m[1] !== "blob") throw new ToolError(`"${rel}" at revision "${revision}" is a ${m[1]}`);
  const size = Number(m[2]);
  if (blob.capped) {
    throw new ToolError(
      `"${rel}" at revision "${revision}" is ${size} bytes, over the 8 MiB limit of git_show`,
    );
  }
  if (isSecretPath(rel) && !ctx.config.allowSecrets) {
    return {
      content: [{ type: "text", text: SECRET_WITHHELD }],
      structuredContent: { path: rel, text: SECRET_WITHHELD },
    };
  }
  const content = bytes.subarray(nl + 1, nl + 1 + size);
  const mime = imageType(content.subarray(0, IMAGE_HEAD_BYTES));
  if (mime !== null) {
    if (size > MAX_IMAGE_BYTES) {
      throw new ToolError(
        `Cannot show "${rel}": the ${mime} image is ${size} bytes, over the 5 MiB image limit`,
      );
    }
    return {
      content: [{ type: "image", data: content.toBase64(), mimeType: mime }],
      structuredContent: { path: rel, mimeType: mime, size },
    };
  }
  let at = 0;
  const source = {
    read(buffer: Uint8Array): Promise<number | null> {
      if (at >= content.length) return Promise.resolve(null);
      const n = Math.min(buffer.length, content.length - at);
      buffer.set(content.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    rewind(): Promise<void> {
      at = 0;
      return Promise.resolve();
    },
  };
  return await numberedPage(source, { rel, size }, input, ctx);
}

async function run(input: GitShowInput, ctx: ToolContext): Promise<ToolResult> {
  const { revision, path, offset } = input;
  if (path !== undefined) return await showFile(input, ctx, revision, path);
  if (offset !== undefined && offset < 0) {
    throw new ToolError("offset must be >= 0 for a commit's diff (negative offsets are for files)");
  }
  return await showCommit(input, ctx, revision);
}

export const gitShowTool: Tool<GitShowInput> = {
  name: "git_show",
  title: "Git show",
  description: "Show a commit: its id, author, date, full message and its diff (paged by whole " +
    "lines with offset and head_limit), like git show. With path: that file's content at the " +
    "revision instead, numbered like read_file (offset, limit; images come back as images). " +
    "revision: branch, tag, commit id or HEAD~N. Secret files show no content.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git show"),
  run,
};

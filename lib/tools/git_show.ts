/** git_show: a commit (header, message, diff) or a file at a revision (docs/tools.md "git_show"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { linesPage, withGit } from "./git_support.ts";
import { numberedPage } from "./read_file.ts";
import { DIFF_OPTIONS, diffOutputLines } from "./git_diff.ts";
import { gitPath } from "../git/pathspec.ts";
import { isSecretPath, SECRET_WITHHELD } from "../git/names.ts";
import { resolveRevision } from "../git/revision.ts";
import { movedHint } from "../git/moved_path.ts";
import { HARD_CAP_CHARS, MESSAGE_CAP_BYTES } from "./paging.ts";
import { utf8Length } from "../message_size.ts";
import { IMAGE_HEAD_BYTES, imageType } from "../read/image_type.ts";
import { imageResult } from "./image_result.ts";

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Room a raw page leaves in its budget for the other fields and the hint line. */
const RAW_RESERVE = 400;
/** Room a raw page leaves in the message cap for the envelope and the other fields. */
const RAW_CAP_RESERVE = 16 * 1024;
/** Commit fields before the diff, NUL-separated: id, parents, author, email, date, message. */
const SHOW_FORMAT = "--format=%H%x00%P%x00%an%x00%ae%x00%aI%x00%B%x00";

const inputSchema = {
  type: "object",
  properties: {
    revision: { type: "string", description: "Commit: branch, tag, id, HEAD~2" },
    path: { type: "string", description: "This file at that revision instead" },
    offset: {
      type: "integer",
      description:
        "Diff: lines to skip; file: first line (1-based, negative from the end); raw: first char",
    },
    limit: {
      type: "integer",
      minimum: 1,
      description: "File: max lines; raw: max characters",
    },
    head_limit: { type: "integer", minimum: 0, description: "Diff: max lines (0 = all)" },
    raw: {
      type: "boolean",
      description: "With path: exact text, no line numbers, paged by characters",
    },
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
    text: {
      type: "string",
      description: "File: %6d<TAB>text lines; raw: the text",
    },
    total_chars: { type: "integer", description: "Raw: characters in the file" },
    mimeType: { type: "string", description: "File: image type (images only)" },
    size: { type: "integer", description: "File: image size in bytes (images only)" },
    note: { type: "string", description: "File: offset/limit do not apply to an image" },
    next_offset: { type: "integer", description: "Next page's offset" },
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
  const { blob, missing } = await withGit(ctx, async (git) => {
    const oid = (await resolveRevision(git, revision, { signal: ctx.signal }))!;
    const out = await git.run(["cat-file", "--batch"], {
      signal: ctx.signal,
      stdin: new TextEncoder().encode(`${oid}:${rel}\n`),
    });
    const found = /^[0-9a-f]+ \w+ \d+\n/.test(
      new TextDecoder().decode(out.stdout.subarray(0, 200)),
    );
    return {
      blob: out,
      missing: found ? null : await movedHint(git, { oid, rel, tool: "git_show" }, ctx.signal),
    };
  });
  const bytes = blob.stdout;
  const nl = bytes.indexOf(10);
  const header = new TextDecoder().decode(bytes.subarray(0, nl < 0 ? bytes.length : nl));
  const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
  if (m === null) {
    throw new ToolError(
      `No file "${rel}" at revision "${revision}"${
        missing ?? "; git_log with this path and follow: true lists the revisions that have it"
      }`,
    );
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
    return imageResult({ rel, mime, bytes: content }, input);
  }
  if (input.raw === true) return rawPage(content, rel, input, ctx);
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

/** The exact text of a file at a revision, paged by characters under read_file's budget. */
function rawPage(
  content: Uint8Array,
  rel: string,
  input: GitShowInput,
  ctx: ToolContext,
): ToolResult {
  const nul = content.indexOf(0);
  if (nul >= 0) {
    throw new ToolError(
      `Cannot show "${rel}" raw: it is a binary file (a NUL byte at byte ${nul}); raw shows text files only`,
    );
  }
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(content);
  const offset = input.offset ?? 0;
  if (offset < 0) throw new ToolError("offset counts characters from 0 with raw: true");
  if (offset > text.length) {
    throw new ToolError(`offset ${offset} is past the end: "${rel}" has ${text.length} characters`);
  }
  let end: number;
  if (input.limit !== undefined) {
    // An explicit limit is honoured exactly (up to the hard cap).
    end = Math.min(text.length, offset + Math.min(input.limit, HARD_CAP_CHARS));
  } else {
    const budget = ctx.config.maxReadChars === 0
      ? HARD_CAP_CHARS
      : Math.min(ctx.config.maxReadChars, HARD_CAP_CHARS);
    // The page fits the budget as text and as JSON (escapes count), never splitting a pair.
    end = Math.min(text.length, offset + Math.max(1, budget - RAW_RESERVE));
    while (
      end > offset + 1 && JSON.stringify(text.slice(offset, end)).length > budget - RAW_RESERVE
    ) {
      end = offset + Math.floor((end - offset) * 0.9);
    }
  }
  // The page is in the message twice (text block and structuredContent.text), JSON-escaped, in
  // UTF-8: shrunk until both copies fit the message cap.
  while (
    end > offset + 1 &&
    2 * utf8Length(JSON.stringify(text.slice(offset, end))) + RAW_CAP_RESERVE > MESSAGE_CAP_BYTES
  ) {
    end = offset + Math.floor((end - offset) * 0.9);
  }
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
  const page = text.slice(offset, end);
  const more = end < text.length;
  const structured: Record<string, unknown> = {
    path: rel,
    text: page,
    offset,
    total_chars: text.length,
  };
  if (more) structured.next_offset = end;
  structured.truncated = more;
  const shown = more
    ? `${page}\n[... ${text.length - end} more characters; call again with offset=${end}]`
    : page;
  return { content: [{ type: "text", text: shown }], structuredContent: structured };
}

/** Refuses parameters the chosen mode does not use, in one sentence. */
function checkMode(input: GitShowInput): void {
  if (input.path !== undefined && input.head_limit !== undefined) {
    throw new ToolError(
      "head_limit pages a commit's diff; with path, page the file with offset and limit",
    );
  }
  if (input.path === undefined && input.limit !== undefined) {
    throw new ToolError("limit pages a file (with path); page a commit's diff with head_limit");
  }
  if (input.path === undefined && input.raw !== undefined) {
    throw new ToolError("raw shows a file's exact text: give path too");
  }
}

async function run(input: GitShowInput, ctx: ToolContext): Promise<ToolResult> {
  checkMode(input);
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
  description:
    "A commit like git show: id, author, date, message, diff (paged: offset, head_limit). " +
    "With path: the file at that revision, numbered like read_file (offset, limit); raw: true " +
    "gives its exact text, paged by characters, to restore with write_file. Secret files show " +
    "no content.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git show"),
  budget: "read",
  run,
};

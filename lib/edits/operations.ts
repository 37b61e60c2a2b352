/**
 * edit_file and write_file without the tool dressing (docs/tools.md "edit_file", "write_file"):
 * resolve the target for writing, take its lock, load and check it (text, size, read before
 * write), compute the new content in the file's own form, write it atomically, remember it as
 * read and tell the caches. Refusals throw EditRefusal (or the workspace's WorkspaceError).
 */
import {
  createFolders,
  forgetAfterWrite,
  resolveForWrite,
  type WriteTarget,
} from "../workspace/write_target.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { writeAtomic } from "./atomic_write.ts";
import { unifiedDiff } from "./diff.ts";
import type { EditSession } from "./edit_session.ts";
import { sha256Hex } from "./read_tracker.ts";
import { replaceText } from "./replace.ts";
import {
  decodeText,
  encodeText,
  fromPlain,
  keepFinalNewline,
  plainInput,
  type TextForm,
  toPlain,
} from "./text_form.ts";

/** Something the model must fix: one sentence saying what happened and what to do. */
export class EditRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditRefusal";
  }
}

export interface EditLimits {
  /** --max-read-bytes: the largest file that may be edited or written. */
  maxBytes: number;
}

export interface EditRequest {
  input: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
  dryRun: boolean;
}

export interface EditOutcome {
  path: string;
  replacements: number;
  /** Unified diff (3 lines of context) of the plain text, LF line ends. */
  diff: string;
  sha256: string;
  created: boolean;
  written: boolean;
}

export interface WriteOutcome {
  path: string;
  created: boolean;
  bytes: number;
  sha256: string;
  diff?: string;
}

interface Loaded {
  bytes: Uint8Array;
  plain: string;
  form: TextForm;
  dev: number;
  ino: number;
  mode: number;
}

function q(text: string): string {
  return JSON.stringify(text);
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${bytes} bytes`;
}

function tooLarge(verb: string, rel: string, size: number, limits: EditLimits, what: string) {
  return new EditRefusal(
    `Cannot ${verb} ${q(rel)}: ${what} ${size} bytes, over the ${
      sizeText(limits.maxBytes)
    } limit (the server's --max-read-bytes flag)`,
  );
}

/** Reads the existing target through the workspace's guards and checks it is editable text. */
async function load(
  ws: Workspace,
  target: WriteTarget,
  verb: string,
  limits: EditLimits,
): Promise<Loaded> {
  const opened = await ws.openFile(target.rel);
  let bytes: Uint8Array;
  let info: Deno.FileInfo;
  try {
    info = await opened.file.stat();
    if (info.size > limits.maxBytes) {
      throw tooLarge(verb, target.rel, info.size, limits, "the file is");
    }
    bytes = new Uint8Array(info.size);
    let done = 0;
    while (done < bytes.length) {
      const n = await opened.file.read(bytes.subarray(done));
      if (n === null) break;
      done += n;
    }
    if (done !== bytes.length) {
      throw new EditRefusal(`${target.rel} changed while it was being read; read it again`);
    }
  } finally {
    opened.file.close();
  }
  const text = decodeText(bytes);
  if (text === "binary") {
    throw new EditRefusal(
      `Cannot ${verb} ${
        q(target.rel)
      }: it is a binary file (it holds NUL bytes); only text files can be edited`,
    );
  }
  if (text === "not-utf8") {
    throw new EditRefusal(
      `Cannot ${verb} ${q(target.rel)}: it is not valid UTF-8 text; only UTF-8 files can be edited`,
    );
  }
  const { form, plain } = toPlain(text);
  return {
    bytes,
    plain,
    form,
    dev: info.dev,
    ino: info.ino ?? 0,
    mode: (info.mode ?? 0o644) & 0o7777,
  };
}

/** Read before write: the file must have been read in this session, and be unchanged since. */
async function checkRead(edits: EditSession, target: WriteTarget, loaded: Loaded): Promise<string> {
  const state = edits.reads.get(target.abs);
  if (state === undefined) {
    throw new EditRefusal(
      `Read ${target.rel} first: files are only changed after read_file has shown them in this session`,
    );
  }
  const sha = await sha256Hex(loaded.bytes);
  if (sha !== state.sha256) {
    throw new EditRefusal(`${target.rel} changed since it was read; read it again`);
  }
  return sha;
}

/** Right before the rename: the target is still the file that was checked (or still absent). */
function stillThere(target: WriteTarget, loaded: Loaded | null): () => void {
  return () => {
    let now: Deno.FileInfo | null;
    try {
      now = Deno.lstatSync(target.abs);
    } catch {
      now = null;
    }
    if (loaded === null) {
      if (now !== null) {
        throw new EditRefusal(`${target.rel} was created meanwhile; read it, then edit it`);
      }
    } else if (now === null || now.dev !== loaded.dev || (now.ino ?? 0) !== loaded.ino) {
      throw new EditRefusal(`${target.rel} changed since it was read; read it again`);
    }
  };
}

async function commit(
  ws: Workspace,
  edits: EditSession,
  target: WriteTarget,
  bytes: Uint8Array,
  loaded: Loaded | null,
  verb: string,
): Promise<string> {
  if (loaded === null) await createFolders(target, verb);
  const written = await writeAtomic(target.dir, target.name, bytes, {
    mode: loaded === null ? null : loaded.mode,
    beforeRename: stillThere(target, loaded),
  });
  const state = await edits.reads.recordBytes(target.abs, bytes, written);
  // Every cache sees the write at once: this thread's, then the session's listeners (workers).
  const file = { rel: target.rel, abs: target.abs, created: loaded === null };
  forgetAfterWrite(ws, file);
  edits.written(file);
  return state.sha256;
}

/** edit_file: replace `oldString` by `newString` (see the module comment). */
export async function editFile(
  ws: Workspace,
  edits: EditSession,
  request: EditRequest,
  limits: EditLimits,
): Promise<EditOutcome> {
  if (request.oldString === request.newString) {
    throw new EditRefusal("old_string and new_string are the same: there is nothing to change");
  }
  const first = resolveForWrite(ws, request.input, "edit");
  return await edits.locks.run(first.abs, async () => {
    // Resolved again under the lock: an edit that ran meanwhile may have created the file.
    const target = resolveForWrite(ws, request.input, "edit");
    if (target.info === null) {
      if (request.oldString !== "") {
        throw new EditRefusal(
          `Cannot edit ${
            q(target.rel)
          }: no such file in the workspace; to create it, give an empty old_string or use write_file`,
        );
      }
      const bytes = encodeText(request.newString);
      if (bytes.length > limits.maxBytes) {
        throw tooLarge("write", target.rel, bytes.length, limits, "the new file would be");
      }
      const diff = await unifiedDiff(target.rel, null, request.newString);
      const sha256 = request.dryRun
        ? await sha256Hex(bytes)
        : await commit(ws, edits, target, bytes, null, "edit");
      return {
        path: target.rel,
        replacements: 1,
        diff,
        sha256,
        created: true,
        written: !request.dryRun,
      };
    }
    const loaded = await load(ws, target, "edit", limits);
    await checkRead(edits, target, loaded);
    let plain: string;
    let replacements: number;
    if (request.oldString === "") {
      if (loaded.plain !== "") {
        throw new EditRefusal(
          `Cannot edit ${
            q(target.rel)
          }: old_string is empty but the file is not; give the text to replace, or use write_file to replace the whole file`,
        );
      }
      plain = plainInput(request.newString, loaded.form);
      replacements = 1;
    } else {
      const outcome = replaceText(
        loaded.plain,
        plainInput(request.oldString, loaded.form),
        plainInput(request.newString, loaded.form),
        request.replaceAll,
      );
      if (outcome.kind === "missing") {
        throw new EditRefusal(
          `old_string was not found in ${target.rel} (it must match exactly, whitespace and indentation included); ${outcome.closest}`,
        );
      }
      if (outcome.kind === "ambiguous") {
        const more = outcome.count > outcome.lines.length ? ", ..." : "";
        throw new EditRefusal(
          `old_string occurs ${outcome.count} times in ${target.rel} (lines ${
            outcome.lines.join(", ")
          }${more}); add surrounding lines to make it unique, or set replace_all to change every one`,
        );
      }
      plain = keepFinalNewline(outcome.text, loaded.form, loaded.plain);
      replacements = outcome.replacements;
    }
    const bytes = encodeText(fromPlain(plain, loaded.form));
    if (bytes.length > limits.maxBytes) {
      throw tooLarge("edit", target.rel, bytes.length, limits, "the result would be");
    }
    const diff = await unifiedDiff(target.rel, loaded.plain, plain);
    const sha256 = request.dryRun
      ? await sha256Hex(bytes)
      : await commit(ws, edits, target, bytes, loaded, "edit");
    return {
      path: target.rel,
      replacements,
      diff,
      sha256,
      created: false,
      written: !request.dryRun,
    };
  });
}

/**
 * write_file: create the file (and its missing folders inside the root) or replace an existing
 * one (read before write applies; a CRLF file stays CRLF, a BOM stays).
 */
export async function writeFile(
  ws: Workspace,
  edits: EditSession,
  request: { input: string; content: string },
  limits: EditLimits,
): Promise<WriteOutcome> {
  const first = resolveForWrite(ws, request.input, "write");
  return await edits.locks.run(first.abs, async () => {
    // Resolved again under the lock: an edit that ran meanwhile may have created the file.
    const target = resolveForWrite(ws, request.input, "write");
    if (target.info === null) {
      const bytes = encodeText(request.content);
      if (bytes.length > limits.maxBytes) {
        throw tooLarge("write", target.rel, bytes.length, limits, "the content is");
      }
      const sha256 = await commit(ws, edits, target, bytes, null, "write");
      return { path: target.rel, created: true, bytes: bytes.length, sha256 };
    }
    const loaded = await load(ws, target, "write", limits);
    await checkRead(edits, target, loaded);
    // A BOM is kept from the old file, never doubled.
    const given = loaded.form.bom && request.content.charCodeAt(0) === 0xfeff
      ? request.content.slice(1)
      : request.content;
    const plain = plainInput(given, loaded.form);
    const bytes = encodeText(fromPlain(plain, loaded.form));
    if (bytes.length > limits.maxBytes) {
      throw tooLarge("write", target.rel, bytes.length, limits, "the content is");
    }
    const diff = await unifiedDiff(target.rel, loaded.plain, plain);
    const sha256 = await commit(ws, edits, target, bytes, loaded, "write");
    return { path: target.rel, created: false, bytes: bytes.length, sha256, diff };
  });
}

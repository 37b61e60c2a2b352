/**
 * edit_file and write_file without the tool dressing (docs/tools.md "edit_file", "write_file"):
 * resolve the target for writing, take its lock, load and check it (text, size, read before
 * write), compute the new content in the file's own form, write it atomically, remember it as
 * read and tell the caches. Refusals throw EditRefusal (or the workspace's WorkspaceError).
 */
import { limitText } from "../byte_sizes.ts";
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
import { explainMiss } from "./miss.ts";
import { type LineRange, sha256Hex } from "./read_tracker.ts";
import { lineNumbers, replaceText } from "./replace.ts";
import {
  decodeText,
  encodeText,
  fromPlain,
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

export interface Loaded {
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

function tooLarge(verb: string, rel: string, size: number, limits: EditLimits, what: string) {
  return new EditRefusal(
    `Cannot ${verb} ${q(rel)}: ${what} ${size} bytes, over the ${
      limitText(limits.maxBytes)
    } limit for edits (the user can raise it by restarting the server with --max-read-bytes)`,
  );
}

/** Reads the existing target through the workspace's guards and checks it is editable text. */
export async function load(
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

/**
 * Read before write: the current version of the file must have been shown in this session, and
 * unchanged since (its SHA-256 is what was shown). Returns that hash.
 */
export async function checkCurrent(
  edits: EditSession,
  target: WriteTarget,
  loaded: Loaded,
  why: string,
): Promise<string> {
  const state = edits.reads.get(target.abs);
  if (state === undefined) throw new EditRefusal(`Read ${target.rel} first: ${why}`);
  const sha = await sha256Hex(loaded.bytes);
  if (sha !== state.sha256) {
    throw new EditRefusal(`${target.rel} changed since it was read; read it again`);
  }
  return sha;
}

/** "3", "3-7", "3-7, 12, 40-41, ..." */
function rangesText(ranges: readonly LineRange[]): string {
  const shown = ranges.slice(0, 4).map((r) =>
    r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`
  );
  return ranges.length > 4 ? `${shown.join(", ")}, ...` : shown.join(", ");
}

/** Refuses when some of `spans` (the lines an edit changes) was not shown for this version. */
function checkShown(
  edits: EditSession,
  target: WriteTarget,
  spans: readonly LineRange[],
  why: string,
): void {
  let missing: LineRange[] = [];
  for (const span of spans) {
    for (const gap of edits.reads.missing(target.abs, span)) {
      const last = missing[missing.length - 1];
      if (last !== undefined && last.end + 1 >= gap.start) last.end = Math.max(last.end, gap.end);
      else missing.push({ ...gap });
    }
    if (missing.length > 50) break;
  }
  missing = missing.filter((r) => r.end >= r.start);
  if (missing.length === 0) return;
  const one = missing.length === 1 && missing[0].start === missing[0].end;
  const first = missing[0];
  const hint = missing.length === 1
    ? ` (read_file with offset=${first.start} and limit=${first.end - first.start + 1})`
    : "";
  throw new EditRefusal(
    `Read line${one ? "" : "s"} ${rangesText(missing)} of ${target.rel} first${hint}: ${why}`,
  );
}

/** The lines (1-based, inclusive) each occurrence of `length` characters at `offsets` spans. */
function spansOf(text: string, offsets: readonly number[], length: number): LineRange[] {
  const ends = offsets.map((o) => o + Math.max(length, 1) - 1);
  const all = [...offsets, ...ends].map((o, i) => ({ o, i })).sort((a, b) => a.o - b.o);
  const numbers = lineNumbers(text, all.map((x) => x.o));
  const line = new Array<number>(all.length);
  all.forEach((x, k) => (line[x.i] = numbers[k]));
  return offsets.map((_, k) => ({ start: line[k], end: line[offsets.length + k] }));
}

/** Text of file bytes as the diff shows it: no BOM, CRLF as LF in a file that is all CRLF. */
function diffText(bytes: Uint8Array, form: TextForm): string {
  let text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return form.crlf ? text.replaceAll("\r\n", "\n") : text;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const SHOWN_WHY =
  "an edit may change only lines this session was shown since the file last changed";
const WHOLE_WHY =
  "write_file replaces the whole file, so every line of it must have been shown in this session";

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
    if (target.info === null) return await createByEdit(ws, edits, target, request, limits);
    const loaded = await load(ws, target, "edit", limits);
    const { plain, replacements } = await editedText(edits, target, loaded, request);
    return await finishEdit(ws, edits, { target, loaded, plain, replacements }, request, limits);
  });
}

/** edit_file on a path with no file: an empty old_string creates it with new_string. */
async function createByEdit(
  ws: Workspace,
  edits: EditSession,
  target: WriteTarget,
  request: EditRequest,
  limits: EditLimits,
): Promise<EditOutcome> {
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

/**
 * The file's text after the edit, in its plain form. A file this session was never shown is
 * refused once the lines the edit changes are known (checkShown), so the refusal names the lines
 * to read.
 */
async function editedText(
  edits: EditSession,
  target: WriteTarget,
  loaded: Loaded,
  request: EditRequest,
): Promise<{ plain: string; replacements: number }> {
  const seen = edits.reads.get(target.abs) !== undefined;
  if (seen) await checkCurrent(edits, target, loaded, SHOWN_WHY);
  if (request.oldString === "") {
    if (!seen) await checkCurrent(edits, target, loaded, SHOWN_WHY);
    if (loaded.plain !== "") {
      throw new EditRefusal(
        `Cannot edit ${
          q(target.rel)
        }: old_string is empty but the file is not; give the text to replace, or use write_file to replace the whole file`,
      );
    }
    return { plain: plainInput(request.newString, loaded.form), replacements: 1 };
  }
  const old = plainInput(request.oldString, loaded.form);
  const outcome = replaceText(
    loaded.plain,
    old,
    plainInput(request.newString, loaded.form),
    request.replaceAll,
  );
  if (outcome.kind === "missing") {
    const why = explainMiss(loaded.plain, old, target.rel);
    throw new EditRefusal(
      why ??
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
  checkShown(edits, target, spansOf(loaded.plain, outcome.offsets, old.length), SHOWN_WHY);
  // The text is exactly the replacement: an old_string that ends the file decides how the new
  // one ends (a final newline added or removed when new_string says so).
  return { plain: outcome.text, replacements: outcome.replacements };
}

/** The edited text checked (size, a change at all), its diff, and the write unless a dry run. */
async function finishEdit(
  ws: Workspace,
  edits: EditSession,
  edited: { target: WriteTarget; loaded: Loaded; plain: string; replacements: number },
  request: EditRequest,
  limits: EditLimits,
): Promise<EditOutcome> {
  const { target, loaded } = edited;
  const bytes = encodeText(fromPlain(edited.plain, loaded.form));
  if (bytes.length > limits.maxBytes) {
    throw tooLarge("edit", target.rel, bytes.length, limits, "the result would be");
  }
  if (sameBytes(bytes, loaded.bytes)) {
    throw new EditRefusal(
      `Editing ${target.rel} would change nothing on disk: ${
        loaded.form.crlf
          ? "old_string and new_string differ only in line endings, and the file keeps its CRLF"
          : "the result is byte for byte the file as it is"
      }; nothing was written`,
    );
  }
  // What the answer says is computed from the bytes written.
  const diff = await unifiedDiff(
    target.rel,
    diffText(loaded.bytes, loaded.form),
    diffText(bytes, loaded.form),
  );
  const sha256 = request.dryRun
    ? await sha256Hex(bytes)
    : await commit(ws, edits, target, bytes, loaded, "edit");
  return {
    path: target.rel,
    replacements: edited.replacements,
    diff,
    sha256,
    created: false,
    written: !request.dryRun,
  };
}

/**
 * write_file: create the file (and its missing folders inside the root) or replace an existing
 * one (every line of its current version must have been shown; a CRLF file stays CRLF, a BOM
 * stays).
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
    await checkCurrent(edits, target, loaded, WHOLE_WHY);
    const lines = edits.reads.get(target.abs)!.lines;
    if (lines > 0) checkShown(edits, target, [{ start: 1, end: lines }], WHOLE_WHY);
    // A BOM is kept from the old file, never doubled.
    const given = loaded.form.bom && request.content.charCodeAt(0) === 0xfeff
      ? request.content.slice(1)
      : request.content;
    const plain = plainInput(given, loaded.form);
    const bytes = encodeText(fromPlain(plain, loaded.form));
    if (bytes.length > limits.maxBytes) {
      throw tooLarge("write", target.rel, bytes.length, limits, "the content is");
    }
    if (sameBytes(bytes, loaded.bytes)) {
      throw new EditRefusal(
        `Writing ${target.rel} would change nothing on disk: its content is already exactly this; nothing was written`,
      );
    }
    const diff = await unifiedDiff(
      target.rel,
      diffText(loaded.bytes, loaded.form),
      diffText(bytes, loaded.form),
    );
    const sha256 = await commit(ws, edits, target, bytes, loaded, "write");
    return { path: target.rel, created: false, bytes: bytes.length, sha256, diff };
  });
}

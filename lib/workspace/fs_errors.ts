/**
 * The one mapping from file-system failures to sentences for the model (docs/tools.md, "Errors
 * from the file system"): every errno a tool can meet while it reads, searches, lists, edits or
 * runs git becomes one sentence saying what happened and what to do, never a JSON-RPC error.
 */
import { relativeUnder } from "./names.ts";
import { isTempName } from "./temp_names.ts";

/** The errno codes mapped here, and what each tells the model. */
const REASONS: Readonly<Record<string, string>> = {
  ENAMETOOLONG:
    "a name in the path is longer than the file system allows (ENAMETOOLONG); use a shorter name",
  ELOOP:
    "the path goes through too many symbolic links, likely a link loop (ELOOP); name the file by its real path",
  EROFS: "the file system is read-only (EROFS); nothing can be written there",
  ENOSPC: "no space is left on the device (ENOSPC); free some space, then try again",
  EDQUOT: "the disk quota is used up (EDQUOT); free some space, then try again",
  EACCES: "the file system denied access (EACCES); check the file's permissions",
  EPERM: "the file system does not permit this (EPERM); check the file's permissions and flags",
  EISDIR: "it is a folder, not a file (EISDIR); name a file inside it",
  ENOTDIR: "a part of the path is a file, not a folder (ENOTDIR); check the path",
  EXDEV:
    "the source and the destination are on different file systems (EXDEV), so it cannot be moved atomically; move it within one file system",
  EMFILE: "the server has too many files open right now (EMFILE); try again in a moment",
  ENFILE: "the system has too many files open right now (ENFILE); try again in a moment",
  EEXIST: "something already exists at that path (EEXIST); choose another name or remove it first",
  ENOENT: "no such file or folder (ENOENT); it may have been removed meanwhile",
  ENOTEMPTY: "the folder is not empty (ENOTEMPTY)",
  EBUSY: "the file or folder is busy (EBUSY); try again in a moment",
  ETXTBSY: "the file is a program that is running (ETXTBSY); try again once it has stopped",
  EIO: "the device reported an input/output error (EIO); the disk may be failing",
  EFBIG: "the file would be larger than the file system allows (EFBIG)",
};

/** The errno code of a file-system error (Deno's errors carry it in `code`), or null. */
export function fsErrorCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code in REASONS ? code : null;
}

/** Why the file system refused, as the end of a sentence (`<reason>; <what to do>`), or null. */
export function fsErrorReason(error: unknown): string | null {
  const code = fsErrorCode(error);
  return code === null ? null : REASONS[code];
}

/** The codes this module maps (for tests and docs). */
export function mappedCodes(): string[] {
  return Object.keys(REASONS);
}

/**
 * The paths a Deno file-system error names (`open '/a'`, `rename '/a' -> '/b'`), last first:
 * the last is the one the failing call was making (a rename's destination).
 */
export function pathsInError(error: Error): string[] {
  const out: string[] = [];
  for (const m of error.message.matchAll(/'((?:[^'\\]|\\.)*)'/g)) out.unshift(m[1]);
  return out;
}

/** What each tool was doing, for "Cannot <verb> ...". */
const VERBS: Readonly<Record<string, string>> = {
  write_file: "write",
  edit_file: "edit",
  delete_file: "delete",
  move_file: "move",
  rename_symbol: "rename in",
  read_file: "read",
  grep: "search",
  glob: "search",
  list_dir: "list",
};

/**
 * The one sentence for a file-system failure of tool `tool`: `Cannot <verb> "<path>": <reason>`.
 * The path is the one the failing call named when it lies inside the root (root-relative, never a
 * temp file's name), else the tool's own path argument; nothing outside the root is named.
 */
export function fsFailureSentence(
  tool: string,
  error: Error,
  where: { root: string; args: Record<string, unknown> },
): string | null {
  const reason = fsErrorReason(error);
  if (reason === null) return null;
  const verb = VERBS[tool] ?? "access";
  let named: string | undefined;
  for (const path of pathsInError(error)) {
    const rel = relativeUnder(path, where.root);
    if (rel !== null && rel !== "" && !rel.split("/").some(isTempName)) {
      named = rel;
      break;
    }
  }
  if (named === undefined) {
    for (const key of ["destination", "path", "file_path", "source"]) {
      const value = where.args[key];
      if (typeof value === "string" && value !== "") {
        named = value;
        break;
      }
    }
  }
  if (named === undefined) return `Cannot ${verb}: ${reason}`;
  const shown = named.length > 200 ? `${named.slice(0, 200)}…` : named;
  return `Cannot ${verb} ${JSON.stringify(shown)}: ${reason}`;
}

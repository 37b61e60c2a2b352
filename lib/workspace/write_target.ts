/**
 * Which paths the edit tools may write (docs/workspace.md "Writes"): exactly the files read_file
 * may read, plus new files inside the root that would be served once created. All three guards
 * apply; the target must not be a symlink (the file it points to is edited by its own path), a
 * folder or any non-regular file; never `.git/`, a secret (without --allow-secrets), an ignored
 * path or a name of the temp-file pattern.
 */
import { hasControlChar, isGitName, isSecretName, joinRoot, relativeUnder } from "./names.ts";
import { isTempName } from "./temp_names.ts";
import { WorkspaceError } from "./errors.ts";
import type { Workspace } from "./workspace.ts";
import { forgetListing } from "./walk.ts";
import { lstatOrNull } from "./lstat.ts";

export interface WriteTarget {
  /** Root-relative path as named. */
  rel: string;
  /** Real path of the target (its folder's real path plus its name). */
  abs: string;
  /** Real path of the folder the target is (or will be) in. */
  dir: string;
  /** Its name in that folder. */
  name: string;
  /** The lstat of the existing target, or null for a new file. */
  info: Deno.FileInfo | null;
  /** Real paths of the folders to create first (outermost first); empty when the folder exists. */
  createDirs: string[];
}

function quote(input: string): string {
  return JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
}

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** The refusal of a path by its names alone (`.git`, secret, temp file), or null. */
function namedRule(
  ws: Workspace,
  segments: readonly string[],
  input: string,
  verb: string,
): WorkspaceError | null {
  for (const s of segments) {
    if (isGitName(s)) {
      return new WorkspaceError(
        "git",
        input,
        `Cannot ${verb} ${quote(input)}: the .git folder is never written`,
      );
    }
  }
  if (!ws.options.allowSecrets) {
    for (const s of segments) {
      if (isSecretName(s)) {
        return new WorkspaceError(
          "secret",
          input,
          `Cannot ${verb} ${quote(input)}: secret files are not served or written ` +
            `(only the user can allow them, by restarting the server with --allow-secrets)`,
        );
      }
    }
  }
  for (const s of segments) {
    if (hasControlChar(s)) {
      return new WorkspaceError(
        "invalid-path",
        input,
        `Cannot ${verb} ${quote(input)}: a name with a control character would never be served`,
      );
    }
    if (isTempName(s)) {
      return new WorkspaceError(
        "invalid-path",
        input,
        `Cannot ${verb} ${
          quote(input)
        }: names starting with ".shipcode-write-" are the server's temporary files`,
      );
    }
  }
  return null;
}

/**
 * Resolves `input` for writing, or throws a WorkspaceError whose message says why not.
 * `verb` words the message ("edit", "write").
 */
export function resolveForWrite(ws: Workspace, input: string, verb: string): WriteTarget {
  const rel = ws.relativePath(input, verb);
  const fail = (reason: WorkspaceError["reason"], why: string) =>
    new WorkspaceError(reason, input, `Cannot ${verb} ${quote(input)}: ${why}`);
  if (rel === "") throw fail("is-a-directory", "it is the workspace folder, not a file");
  const segments = rel.split("/");
  const named = namedRule(ws, segments, input, verb);
  if (named !== null) throw named;
  const root = ws.root;
  const name = segments[segments.length - 1];
  const here = lstatOrNull(joinRoot(root, rel));

  if (here !== null) {
    if (here.isSymlink) {
      throw fail("not-a-file", "it is a symbolic link; edit the file it points to by its own path");
    }
    // Guards 2 and 3's inputs, secret/.git/ignore rules on the real path too.
    const resolved = ws.resolve(rel);
    const info = lstatOrNull(resolved.abs);
    if (info === null) throw fail("missing", "no such file in the workspace");
    if (info.isDirectory) throw fail("is-a-directory", "it is a folder, not a file");
    if (!info.isFile) throw fail("not-a-file", "not a regular file");
    const slash = resolved.abs.lastIndexOf("/");
    return {
      rel,
      abs: resolved.abs,
      dir: slash === 0 ? "/" : resolved.abs.slice(0, slash),
      name: resolved.abs.slice(slash + 1),
      info,
      createDirs: [],
    };
  }

  // A new file: the deepest existing folder on its way decides where it really goes.
  let k = segments.length - 1;
  while (k > 0 && lstatOrNull(joinRoot(root, segments.slice(0, k).join("/"))) === null) k--;
  const parentRel = segments.slice(0, k).join("/");
  const parentReal = realOrNull(joinRoot(root, parentRel));
  const parentRealRel = parentReal === null ? null : relativeUnder(parentReal, root);
  if (parentReal === null || parentRealRel === null) {
    // A dangling symlink or one that leads out: the same answer either way.
    throw fail("outside", "the path leads outside the workspace");
  }
  const parentInfo = lstatOrNull(parentReal);
  if (parentInfo === null || !parentInfo.isDirectory) {
    throw fail("not-a-file", `"${parentRel}" is a file, not a folder`);
  }
  const missing = segments.slice(k);
  const realRel = parentRealRel === ""
    ? missing.join("/")
    : `${parentRealRel}/${missing.join("/")}`;
  if (realRel !== rel) {
    const onReal = namedRule(ws, realRel.split("/"), input, verb);
    if (onReal !== null) throw onReal;
  }
  if (ws.isIgnored(rel, false) || ws.isIgnored(realRel, false)) {
    throw fail(
      "ignored",
      "the path is excluded by ignore rules, so it would not be served (only the user can lift them, by restarting the server with --no-ignore)",
    );
  }
  const createDirs: string[] = [];
  let dir = parentReal;
  for (const segment of missing.slice(0, -1)) {
    dir = dir === "/" ? `/${segment}` : `${dir}/${segment}`;
    createDirs.push(dir);
  }
  return {
    rel,
    abs: dir === "/" ? `/${name}` : `${dir}/${name}`,
    dir,
    name,
    info: null,
    createDirs,
  };
}

/**
 * Creates the target's missing folders, then checks the folder is still where it was resolved
 * (no component swapped for a symlink meanwhile).
 */
export async function createFolders(target: WriteTarget, verb: string): Promise<void> {
  for (const dir of target.createDirs) {
    try {
      await Deno.mkdir(dir);
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
  if (realOrNull(target.dir) !== target.dir) {
    throw new WorkspaceError(
      "missing",
      target.rel,
      `Cannot ${verb} ${
        quote(target.rel)
      }: its folder changed while it was being created; try again`,
    );
  }
}

const IGNORE_FILES = new Set([".gitignore", ".ignore", ".rgignore"]);

/**
 * What this thread caches about a file just written: the folder's sorted listing (a new name) and
 * the ignore rules when the file is an ignore file. (Workers are told by the search pool.)
 */
export function forgetAfterWrite(ws: Workspace, written: { abs: string; created: boolean }): void {
  const slash = written.abs.lastIndexOf("/");
  if (written.created) forgetListing(slash === 0 ? "/" : written.abs.slice(0, slash));
  if (IGNORE_FILES.has(written.abs.slice(slash + 1).toLowerCase())) ws.forgetIgnoreRules();
}

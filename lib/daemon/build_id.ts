/**
 * The program's build, part of the workspace key: a daemon started from other code is never
 * used. A compiled binary is its executable (size, mtime, inode); from source it is every file
 * of the program (main.ts, deno.json, lib/) with its size and mtime, so an edit or a checkout
 * of another commit means another daemon.
 */

/** True when this process is a `deno compile` binary (its modules live in the binary). */
export function isCompiled(mainModule: string = Deno.mainModule): boolean {
  return mainModule.includes("/deno-compile-");
}

export async function buildId(mainModule: string = Deno.mainModule): Promise<string> {
  const parts: string[] = [Deno.version.deno];
  if (isCompiled(mainModule)) {
    parts.push(fileStamp(Deno.execPath()));
  } else {
    const main = new URL(mainModule);
    const top = new URL(".", main).pathname;
    parts.push(fileStamp(main.pathname), fileStamp(`${top}deno.json`));
    parts.push(...treeStamps(`${top}lib`));
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\n")));
  return [...new Uint8Array(digest).subarray(0, 12)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

function fileStamp(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${path} ${info.size} ${info.mtime?.getTime() ?? 0} ${info.ino ?? 0}`;
  } catch {
    return `${path} -`;
  }
}

/** Every file below `dir` with its stamp, in a fixed order. */
function treeStamps(dir: string): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [`${dir} -`];
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...treeStamps(path));
    else out.push(fileStamp(path));
  }
  return out;
}

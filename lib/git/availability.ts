/**
 * Whether this session offers the git tools (docs/tools.md, "Git tools"): a git binary exists
 * (resolved once to an absolute path outside the root) and the root is the top of a git work tree
 * whose whole object store lies inside the root. Decided at start with a few stats and no process.
 */
import { log } from "../log.ts";
import { relativeUnder } from "../workspace/names.ts";
import type { GitTarget } from "./target.ts";

export type GitAvailability = { ok: true; target: GitTarget } | { ok: false; reason: string };

const NOT_A_WORK_TREE = "the root is not a git work tree";

/** Where git is looked for when PATH cannot be read (the server may not read the environment). */
const FALLBACK_DIRS = ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin"];

function real(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function readText(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > 64 * 1024) return null;
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function inside(path: string, root: string): boolean {
  return relativeUnder(path, root) !== null;
}

function searchDirs(): string[] {
  try {
    const path = Deno.env.get("PATH");
    if (path !== undefined) return path.split(":").filter((dir) => dir.startsWith("/"));
  } catch {
    // no permission to read PATH
  }
  return FALLBACK_DIRS;
}

function mayRun(command: string): boolean {
  return Deno.permissions.querySync({ name: "run", command }).state === "granted";
}

/**
 * The absolute path of an executable `git` outside `root` that we may run, or null: its real
 * path when that is what the permission names, else the PATH entry itself. `--allow-run=git`
 * grants the path found on PATH, which is often a link (Homebrew's /opt/homebrew/bin/git leads
 * into its Cellar); that entry is used only when its folder, too, lies outside the root, so
 * nothing the repository holds can change what it leads to.
 */
export function findGit(root: string): string | null {
  for (const dir of searchDirs()) {
    const entry = `${dir}/git`;
    const candidate = real(entry);
    if (candidate === null || inside(candidate, root)) continue;
    try {
      const info = Deno.statSync(candidate);
      if (!info.isFile || ((info.mode ?? 0o111) & 0o111) === 0) continue;
      if (mayRun(candidate)) return candidate;
      const folder = real(dir);
      if (folder !== null && !inside(folder, root) && mayRun(entry)) return entry;
    } catch {
      continue;
    }
  }
  return null;
}

/**
 * The repository folders of `root` when it is the top of a work tree whose object store lies
 * inside it, else why not (one sentence).
 */
export function inspectRoot(root: string): { gitDir: string; commonDir: string } | string {
  const outside = "history or objects from outside the root would show";
  let dotGit: Deno.FileInfo;
  try {
    dotGit = Deno.lstatSync(`${root}/.git`);
  } catch {
    for (let dir = root; dir !== "/";) {
      dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
      try {
        Deno.lstatSync(`${dir}/.git`);
        return `the root is a subfolder of the git work tree at "${dir}" (${outside}); ` +
          "serve its top folder to get git tools";
      } catch {
        // keep looking up
      }
    }
    if (readText(`${root}/HEAD`) !== null && real(`${root}/objects`) !== null) {
      return "the root is a bare repository, not a work tree";
    }
    return NOT_A_WORK_TREE;
  }
  let gitDir: string | null;
  if (dotGit.isFile) {
    const text = readText(`${root}/.git`);
    const match = text === null ? null : /^gitdir: (.+?)\r?\n?$/.exec(text);
    if (match === null) return 'the root\'s ".git" file is not a gitfile';
    const to = match[1];
    gitDir = real(to.startsWith("/") ? to : `${root}/${to}`);
    if (gitDir === null) return `the root's ".git" file points to a missing folder`;
  } else {
    gitDir = real(`${root}/.git`);
    if (gitDir === null) return 'the root\'s ".git" cannot be read';
  }
  if (!inside(gitDir, root)) return `the root's git folder is outside the root (${outside})`;
  let commonDir = gitDir;
  const common = readText(`${gitDir}/commondir`);
  if (common !== null) {
    const to = common.trim();
    const resolved = real(to.startsWith("/") ? to : `${gitDir}/${to}`);
    if (resolved === null) return "the repository's common folder is missing";
    if (!inside(resolved, root)) {
      return `the repository's common folder (a linked work tree) is outside the root (${outside})`;
    }
    commonDir = resolved;
  }
  if (readText(`${gitDir}/HEAD`) === null) return "the root's git folder has no HEAD";
  const objects = `${commonDir}/objects`;
  if (readText(`${objects}/info/http-alternates`) !== null) {
    return `the repository borrows objects over http-alternates (${outside})`;
  }
  const alternates = readText(`${objects}/info/alternates`);
  if (alternates !== null) {
    for (const raw of alternates.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      const path = line.startsWith('"')
        ? null
        : real(line.startsWith("/") ? line : `${objects}/${line}`);
      if (path === null || !inside(path, root)) {
        return `the repository borrows objects from an alternate store outside the root (${outside})`;
      }
    }
  }
  return { gitDir, commonDir };
}

/**
 * Decides once whether the git tools are offered for `root` (null: no workspace). Logs why not
 * (once, on stderr) and, at debug level, the git binary found.
 */
export function detectGit(root: string | null, options: { enabled: boolean }): GitAvailability {
  const no = (reason: string, level: "info" | "debug" = "info"): GitAvailability => {
    log[level](`No git tools: ${reason}`);
    return { ok: false, reason };
  };
  if (!options.enabled) return no("--no-git was given", "debug");
  if (root === null) return no("no workspace", "debug");
  const realRoot = real(root);
  if (realRoot === null) return no(`the root "${root}" cannot be read`);
  const git = findGit(realRoot);
  if (git === null) return no("no git binary was found (or the permission to run it is missing)");
  log.debug(`git binary: ${git}`);
  const repo = inspectRoot(realRoot);
  // A folder that is no repository at all is nothing to explain; a refused repository is.
  if (typeof repo === "string") return no(repo, repo === NOT_A_WORK_TREE ? "debug" : "info");
  return { ok: true, target: { git, root: realRoot, ...repo } };
}

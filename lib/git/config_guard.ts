/**
 * The config guard (docs/tools.md, "Git tools: the security model"): before the first git call,
 * and again whenever the repository's config (or a file it includes) changes, read the config
 * with `git config --list` (which runs nothing) and switch off every filter driver it defines.
 *
 * `-c` splits its argument at the first `=`, so a filter named `x=y` would survive
 * `-c filter.x=y.clean=`; `--config-env=<key>=<VAR>` splits at the last `=`, so every filter is
 * switched off through it, with variables the runner sets (empty, and `false`).
 */
import type { GitTarget } from "./target.ts";

/** Names of the variables the guard's `--config-env` options read (the runner sets them). */
export const EMPTY_VAR = "SHIPCODE_GIT_EMPTY";
export const FALSE_VAR = "SHIPCODE_GIT_FALSE";

export interface GuardState {
  /** Global options placed before every subcommand. */
  args: string[];
  /** Values of `blame.ignoreRevsFile` as configured (blame checks them). */
  ignoreRevsFiles: string[];
}

/** Runs `git <args>` with the forced prefix (but without the guard's options). */
export type GuardCall = (args: readonly string[]) => Promise<{ stdout: Uint8Array }>;

const LIST_ARGS = ["config", "--list", "-z", "--show-scope", "--show-origin"];

interface Entry {
  scope: string;
  origin: string;
  key: string;
  value: string | null;
}

/** Parses `git config --list -z --show-scope --show-origin`: scope NUL origin NUL key[LF value] NUL. */
export function parseConfigList(bytes: Uint8Array): Entry[] {
  const fields = new TextDecoder().decode(bytes).split("\0");
  const out: Entry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const pair = fields[i + 2];
    const nl = pair.indexOf("\n");
    out.push({
      scope: fields[i],
      origin: fields[i + 1],
      key: nl < 0 ? pair : pair.slice(0, nl),
      value: nl < 0 ? null : pair.slice(nl + 1),
    });
  }
  return out;
}

/** The guard's decisions for these config entries. */
export function guardState(entries: readonly Entry[]): GuardState {
  const filters = new Set<string>();
  const ignoreRevsFiles: string[] = [];
  for (const entry of entries) {
    if (entry.scope === "command") continue; // our own forced options
    const first = entry.key.indexOf(".");
    const last = entry.key.lastIndexOf(".");
    const section = entry.key.slice(0, first).toLowerCase();
    if (section === "filter" && last > first) filters.add(entry.key.slice(first + 1, last));
    if (entry.key.toLowerCase() === "blame.ignorerevsfile" && entry.value !== null) {
      ignoreRevsFiles.push(entry.value);
    }
  }
  const args: string[] = [];
  for (const name of [...filters].sort()) {
    if (/[\0\n]/.test(name)) {
      throw new TypeError(`git reported a filter name git cannot hold: ${JSON.stringify(name)}`);
    }
    for (const command of ["clean", "smudge", "process"]) {
      args.push(`--config-env=filter.${name}.${command}=${EMPTY_VAR}`);
    }
    args.push(`--config-env=filter.${name}.required=${FALSE_VAR}`);
  }
  return { args, ignoreRevsFiles };
}

/** Files whose change means the guard must run again: the config files and what they include. */
function watchedFiles(target: GitTarget, entries: readonly Entry[]): string[] {
  const files = new Set([
    `${target.gitDir}/config`,
    `${target.commonDir}/config`,
    `${target.gitDir}/config.worktree`,
    `${target.commonDir}/config.worktree`,
  ]);
  for (const entry of entries) {
    if (entry.scope === "command" || !entry.origin.startsWith("file:")) continue;
    const origin = absolute(target.root, entry.origin.slice(5));
    files.add(origin);
    const key = entry.key.toLowerCase();
    const isInclude = key === "include.path" ||
      (key.startsWith("includeif.") && key.endsWith(".path"));
    if (isInclude && entry.value !== null && entry.value !== "") {
      // An include that does not exist yet is watched too: creating it changes the config.
      const base = origin.slice(0, origin.lastIndexOf("/")) || "/";
      files.add(entry.value.startsWith("~") ? "/nonexistent" : absolute(base, entry.value));
    }
  }
  return [...files].sort();
}

function absolute(base: string, path: string): string {
  return path.startsWith("/") ? path : `${base}/${path}`;
}

function stampOf(files: readonly string[]): string {
  let out = "";
  for (const file of files) {
    try {
      const info = Deno.statSync(file);
      out +=
        `${file}\0${info.mtime?.getTime()}:${info.ctime?.getTime()}:${info.size}:${info.ino}\n`;
    } catch {
      out += `${file}\0-\n`;
    }
  }
  return out;
}

export class ConfigGuard {
  readonly #target: GitTarget;
  #watched: string[];
  #stamp: string | null = null;
  #state: GuardState | null = null;
  #pending: Promise<GuardState> | null = null;

  constructor(target: GitTarget) {
    this.#target = target;
    this.#watched = watchedFiles(target, []);
  }

  /** The current state: cached while no watched file changed, else read again through `call`. */
  check(call: GuardCall): Promise<GuardState> {
    if (this.#state !== null && stampOf(this.#watched) === this.#stamp) {
      return Promise.resolve(this.#state);
    }
    this.#pending ??= this.#load(call).finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  async #load(call: GuardCall): Promise<GuardState> {
    // The stamp is taken before git reads the files, so a change during the read is seen next
    // time. When the read names files not watched yet (includes), read again with them watched.
    for (let round = 0;; round++) {
      const stamp = stampOf(this.#watched);
      const entries = parseConfigList((await call(LIST_ARGS)).stdout);
      const watched = watchedFiles(this.#target, entries);
      const known = new Set(this.#watched);
      const grew = watched.some((file) => !known.has(file));
      this.#watched = [...new Set([...this.#watched, ...watched])].sort();
      if (!grew || round >= 3) {
        const state = guardState(entries);
        if (!grew) {
          this.#stamp = stamp;
          this.#state = state;
        } else {
          this.#stamp = null; // includes keep appearing: never cache, check every call
          this.#state = null;
        }
        return state;
      }
    }
  }
}

/**
 * The git runner: the only code in shipcode-mcp that starts a process (docs/tools.md, "Git
 * tools: the security model"). Every call gets the same argv prefix, a cleared environment and
 * forced command-line config that beats whatever the repository's own config asks for, after the
 * config guard has switched off the repository's filters. Output is read as bytes under a cap;
 * cancellation and the cap kill the process.
 */
import { ConfigGuard, EMPTY_VAR, FALSE_VAR } from "./config_guard.ts";
import type { GitTarget } from "./target.ts";

export type { GitTarget };

/** Largest output read from one git call; past it the process is killed. */
export const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;
const STDERR_CAP_BYTES = 64 * 1024;
/** The config guard's own call reads only config files: it gets a wall-clock limit. */
const GUARD_TIMEOUT_MS = 10_000;

/** git failed: the message is git's first stderr line (no argv, no stack). */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** stdout cap in bytes (default OUTPUT_CAP_BYTES); past it the process is killed. */
  capBytes?: number;
  /** Bytes written to git's stdin (else stdin is /dev/null). */
  stdin?: Uint8Array;
  /** Exit codes that are answers rather than failures (e.g. 1 for `rev-parse --verify -q`). */
  okCodes?: readonly number[];
}

export interface RunResult {
  stdout: Uint8Array;
  /** stdout reached the cap: the process was killed and `stdout` is its first capBytes bytes. */
  capped: boolean;
  code: number;
}

/** The environment of every call: nothing inherited (no GIT_* variable of ours reaches git). */
export function gitEnvironment(root: string): Record<string, string> {
  return {
    PATH: "/usr/bin:/bin",
    HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_CEILING_DIRECTORIES: parentOf(root),
    LC_ALL: "C",
    [EMPTY_VAR]: "",
    [FALSE_VAR]: "false",
  };
}

const FORCED_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.untrackedCache=false",
  "core.sshCommand=false",
  "core.excludesFile=",
  "core.attributesFile=",
  "credential.helper=",
  "protocol.allow=never",
  "protocol.file.allow=never",
  "protocol.git.allow=never",
  "protocol.http.allow=never",
  "protocol.https.allow=never",
  "protocol.ssh.allow=never",
  "protocol.ext.allow=never",
  "diff.external=",
  "diff.ignoreSubmodules=all",
  "log.showSignature=false",
  "gpg.program=false",
  "gpg.ssh.program=false",
  "gpg.x509.program=false",
  "mailmap.file=",
  "mailmap.blob=",
  "log.mailmap=false",
  "color.ui=false",
  "core.quotePath=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "submodule.recurse=false",
  "status.submoduleSummary=false",
  "gc.auto=0",
  "maintenance.auto=false",
];

/** The argv prefix of every call (before the guard's options and the subcommand). */
export function forcedArgs(root: string): string[] {
  const out: string[] = [];
  for (const entry of FORCED_CONFIG) out.push("-c", entry);
  out.push("--no-pager", "--no-replace-objects", "--literal-pathspecs", `--work-tree=${root}`);
  return out;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** git's first non-empty stderr line, or a fallback naming the exit code. */
export function firstLine(stderr: Uint8Array, code: number): string {
  const text = new TextDecoder().decode(stderr);
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed !== "") return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
  }
  return `git failed with exit code ${code}`;
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  onCap: () => void,
): Promise<{ bytes: Uint8Array; capped: boolean }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let capped = false;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (capped) continue; // drain what the killed process still had in the pipe
      const room = cap - size;
      if (value.length > room) {
        if (room > 0) parts.push(value.subarray(0, room));
        size = cap;
        capped = true;
        onCap();
        continue;
      }
      parts.push(value);
      size += value.length;
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, capped };
}

/** An AbortError for a cancelled call (the tools feature never answers a cancelled request). */
function cancelled(): DOMException {
  return new DOMException("The git command was cancelled", "AbortError");
}

export class GitRunner {
  readonly target: GitTarget;
  readonly #guard: ConfigGuard;

  constructor(target: GitTarget) {
    this.target = target;
    this.#guard = new ConfigGuard(target);
  }

  /** The paths named by `blame.ignoreRevsFile` in the repository's config (after the guard ran). */
  async ignoreRevsFiles(signal?: AbortSignal): Promise<readonly string[]> {
    return (await this.#guard.check((args) => this.#guardCall(args, signal))).ignoreRevsFiles;
  }

  /**
   * Runs `git <forced prefix> <guard options> <args>` in the root. A non-zero exit not in
   * `okCodes` throws GitError with git's first stderr line; cancellation throws an AbortError.
   */
  async run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const state = await this.#guard.check((a) => this.#guardCall(a, options.signal));
    return await this.#spawn([...state.args, ...args], options);
  }

  #guardCall(args: readonly string[], signal?: AbortSignal): Promise<RunResult> {
    const timeout = AbortSignal.timeout(GUARD_TIMEOUT_MS);
    const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    return this.#spawn(args, { signal: both }).catch((error) => {
      if (timeout.aborted && !(signal?.aborted ?? false)) {
        throw new GitError(
          `Reading the repository's git config took over ${GUARD_TIMEOUT_MS / 1000} s ` +
            "(does an include.path name a pipe or device?); git tools are unavailable",
        );
      }
      throw error;
    });
  }

  async #spawn(args: readonly string[], options: RunOptions): Promise<RunResult> {
    const { signal } = options;
    if (signal?.aborted) throw cancelled();
    const cap = options.capBytes ?? OUTPUT_CAP_BYTES;
    const child = new Deno.Command(this.target.git, {
      args: [...forcedArgs(this.target.root), ...args],
      cwd: this.target.root,
      clearEnv: true,
      env: gitEnvironment(this.target.root),
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
    };
    signal?.addEventListener("abort", kill);
    try {
      if (options.stdin !== undefined) {
        const writer = child.stdin.getWriter();
        writer.write(options.stdin).then(() => writer.close()).catch(() => {});
      }
      const [out, err, status] = await Promise.all([
        readCapped(child.stdout, cap, kill),
        readCapped(child.stderr, STDERR_CAP_BYTES, () => {}),
        child.status,
      ]);
      if (signal?.aborted) throw cancelled();
      if (out.capped) return { stdout: out.bytes, capped: true, code: status.code };
      if (status.code !== 0 && !(options.okCodes ?? []).includes(status.code)) {
        throw new GitError(firstLine(err.bytes, status.code));
      }
      return { stdout: out.bytes, capped: false, code: status.code };
    } finally {
      signal?.removeEventListener("abort", kill);
    }
  }
}

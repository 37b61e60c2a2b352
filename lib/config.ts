import type { LogLevel } from "./log.ts";

/** Everything the server is told at start, parsed from the command line by lib/cli/args.ts. */
export interface Config {
  /** The folder served, as given (made real by the workspace at start); null: no workspace. */
  root: string | null;
  /** True when --root was given (a missing root is then fatal, exit 2). */
  rootExplicit: boolean;
  /** The line cap of the JSON-RPC reader (--max-message-bytes, default 64 MiB). */
  maxMessageBytes: number;
  /** resources/read size cap (--max-read-bytes, default 10 MiB). */
  maxReadBytes: number;
  /** Tool result budget in characters when the caller gives no limit (--max-output-chars; 0 = off). */
  maxOutputChars: number;
  /** read_file's own budget in characters when no limit is given (--max-read-chars; 0 = off). */
  maxReadChars: number;
  /** Per-file regex scan limit (--regex-timeout-ms, default 2000). */
  regexTimeoutMs: number;
  /** --no-ignore: .gitignore/.ignore/.rgignore rules are not applied. */
  noIgnore: boolean;
  /** --allow-secrets: secret files (.env, keys, ...) are served. */
  allowSecrets: boolean;
  /** --write: the edit tools are offered and the process keeps its write permission. */
  write: boolean;
  /** False with --no-git: no git tools, and the process gives up its permission to run git. */
  git: boolean;
  logLevel: LogLevel;
  /** --tools: the tool names this session may offer (null: every tool). */
  tools: ReadonlySet<string> | null;
  /** --no-index: grep always scans every file (no trigram index). */
  noIndex: boolean;
  /** --index-max-mib: memory cap of the trigram index (default 256 MiB). */
  indexMaxMib: number;
  /** --semantic-max-mib: memory budget of the type engines' programs (default 1536 MiB). */
  semanticMaxMib: number;
  /** --cache-dir: where the index is stored between sessions (null: the platform's default). */
  cacheDir: string | null;
  /** --no-cache: the index stays in memory and nothing is written anywhere. */
  noCache: boolean;
  /**
   * The work runs in the shared daemon of the workspace key and this process relays to it
   * (lib/daemon/); false with --no-daemon: everything runs in this one process.
   */
  daemon: boolean;
  /** --daemon-idle-s: seconds a daemon waits after its last session before it ends (0: none). */
  daemonIdleS: number;
  /** --serve-daemon: this process is the daemon a relay started (not for hosts). */
  serveDaemon: boolean;
}

/**
 * Whether sessions use the shared daemon unless told (--daemon / --no-daemon); where Unix
 * sockets cannot be used (Windows) it is off whatever is said.
 */
export const DAEMON_BY_DEFAULT = true;

export const MIB = 1024 * 1024;

export function defaultConfig(): Config {
  return {
    root: null,
    rootExplicit: false,
    maxMessageBytes: 64 * MIB,
    maxReadBytes: 10 * MIB,
    maxOutputChars: 20_000,
    maxReadChars: 60_000,
    regexTimeoutMs: 2_000,
    noIgnore: false,
    allowSecrets: false,
    write: false,
    git: true,
    logLevel: "info",
    tools: null,
    noIndex: false,
    indexMaxMib: 256,
    semanticMaxMib: 1536,
    cacheDir: null,
    noCache: false,
    daemon: DAEMON_BY_DEFAULT && Deno.build.os !== "windows",
    daemonIdleS: 600,
    serveDaemon: false,
  };
}

/**
 * The workspace key (docs/architecture.md, "The shared daemon"): who may share a daemon. Two
 * sessions share one only when the user, the root (as given, and its identity: real path,
 * device, inode), every flag that changes what is served or permitted, and the program's own
 * version and build are the same. The socket's name is a short hash of the key; the handshake
 * carries the whole key, so a daemon of another key is never used.
 */

import type { Config } from "../config.ts";

/** Flags whose difference means another daemon (the rest are the session's own, below). */
export const KEYED_FLAGS = [
  "noIgnore",
  "allowSecrets",
  "write",
  "git",
  "noIndex",
  "indexMaxMib",
  "semanticMaxMib",
  "cacheDir",
  "noCache",
  "maxReadBytes",
  "regexTimeoutMs",
] as const satisfies readonly (keyof Config)[];

export interface WorkspaceKey {
  /** The whole key, canonical JSON: compared in the handshake. */
  text: string;
  /** SHA-256 of `text`, hex: names the socket and the lock. */
  hash: string;
}

/** A root's identity: the key of a folder reached through another path is another key. */
export function rootIdentity(root: string): { real: string; dev: number; ino: number } {
  const real = Deno.realPathSync(root);
  const info = Deno.statSync(real);
  return { real, dev: info.dev ?? 0, ino: info.ino ?? 0 };
}

/** `cacheDir` made absolute against this process's folder (the daemon runs elsewhere). */
export function absoluteCacheDir(config: Config): string | null {
  const dir = config.cacheDir;
  if (dir === null || dir.startsWith("/")) return dir;
  return `${Deno.cwd()}/${dir}`;
}

export async function workspaceKey(
  user: number,
  root: string,
  config: Config,
  program: { version: string; build: string },
): Promise<WorkspaceKey> {
  const flags: Record<string, unknown> = {};
  for (const name of KEYED_FLAGS) flags[name] = config[name];
  flags.cacheDir = absoluteCacheDir(config);
  const text = JSON.stringify({
    user,
    root,
    ...rootIdentity(root),
    flags,
    version: program.version,
    build: program.build,
  });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { text, hash };
}

/** The daemon's own command-line flags: the key's flags, as `--help` spells them. */
export function daemonArgs(root: string, config: Config): string[] {
  const args = ["--serve-daemon", "--root", root, "--daemon-idle-s", String(config.daemonIdleS)];
  if (config.noIgnore) args.push("--no-ignore");
  if (config.allowSecrets) args.push("--allow-secrets");
  if (config.write) args.push("--write");
  if (!config.git) args.push("--no-git");
  if (config.noIndex) args.push("--no-index");
  if (config.noCache) args.push("--no-cache");
  const cacheDir = absoluteCacheDir(config);
  if (cacheDir !== null) args.push("--cache-dir", cacheDir);
  args.push("--index-max-mib", String(config.indexMaxMib));
  args.push("--semantic-max-mib", String(config.semanticMaxMib));
  args.push("--max-read-bytes", String(config.maxReadBytes));
  args.push("--regex-timeout-ms", String(config.regexTimeoutMs));
  return args;
}

/** The session's own flags, carried by the handshake (they never change the key). */
export function sessionArgs(config: Config): string[] {
  const args = [
    "--max-message-bytes",
    String(config.maxMessageBytes),
    "--max-output-chars",
    String(config.maxOutputChars),
    "--max-read-chars",
    String(config.maxReadChars),
    "--log-level",
    config.logLevel,
  ];
  if (config.tools !== null) args.push("--tools", [...config.tools].join(","));
  return args;
}

/** Flags a handshake may carry: anything else in it is refused. */
export const SESSION_FLAGS: ReadonlySet<string> = new Set([
  "--max-message-bytes",
  "--max-output-chars",
  "--max-read-chars",
  "--log-level",
  "--tools",
]);

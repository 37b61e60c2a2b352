/**
 * Command-line flags -> Config (or help, version, or a usage error). Pure: no I/O. One table of
 * flags drives both the parser and the --help text, so they cannot disagree.
 */

import { type Config, defaultConfig, MIB } from "../config.ts";
import { LOG_LEVELS, type LogLevel } from "../log.ts";
import { selectTools, TOOL_GROUPS, TOOL_NAMES } from "./tool_selection.ts";

export type Parsed =
  | { kind: "run"; config: Config }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

type NumberKey = {
  [K in keyof Config]: Config[K] extends number ? K : never;
}[keyof Config];
type SwitchKey = {
  [K in keyof Config]: Config[K] extends boolean ? K : never;
}[keyof Config];

/** One flag: its spelling, what it sets, and its line of help. */
type Flag =
  | { name: string; help: string; kind: "switch"; key: SwitchKey; value: boolean }
  | {
    name: string;
    help: string;
    kind: "number";
    key: NumberKey;
    min: number;
    max?: number;
    arg: "N";
  }
  | { name: "--root"; help: string; kind: "root"; arg: "DIR" }
  | { name: "--cache-dir"; help: string; kind: "cache-dir"; arg: "DIR" }
  | { name: "--log-level"; help: string; kind: "log-level"; arg: "LEVEL" }
  | { name: "--tools"; help: string; kind: "tools"; arg: "LIST" };

const defaults = defaultConfig();

/** Every flag, in the order --help lists them. */
export const FLAGS: readonly Flag[] = [
  {
    name: "--root",
    kind: "root",
    arg: "DIR",
    help: "folder to serve (default: the current directory; / and the home folder are never " +
      "served by default)",
  },
  {
    name: "--no-ignore",
    kind: "switch",
    key: "noIgnore",
    value: true,
    help: "do not apply .gitignore, .ignore and .rgignore rules",
  },
  {
    name: "--allow-secrets",
    kind: "switch",
    key: "allowSecrets",
    value: true,
    help: "serve secret files (.env, *.pem, *.key, id_rsa*, ...)",
  },
  {
    name: "--write",
    kind: "switch",
    key: "write",
    value: true,
    help: "offer the edit tools (edit_file, write_file); without it nothing can be written",
  },
  {
    name: "--no-git",
    kind: "switch",
    key: "git",
    value: false,
    help: "do not offer the git tools (and hold no permission to run programs)",
  },
  {
    name: "--max-message-bytes",
    kind: "number",
    key: "maxMessageBytes",
    min: 1,
    arg: "N",
    help: `longest accepted input line in bytes (default ${defaults.maxMessageBytes}, 64 MiB)`,
  },
  {
    name: "--max-read-bytes",
    kind: "number",
    key: "maxReadBytes",
    min: 1,
    arg: "N",
    help: `largest file resources/read returns (default ${defaults.maxReadBytes}, ${
      defaults.maxReadBytes / MIB
    } MiB)`,
  },
  {
    name: "--max-output-chars",
    kind: "number",
    key: "maxOutputChars",
    min: 0,
    arg: "N",
    help: `tool result budget when no limit is given (default ${defaults.maxOutputChars}, 0 = off)`,
  },
  {
    name: "--max-read-chars",
    kind: "number",
    key: "maxReadChars",
    min: 0,
    arg: "N",
    help: `read_file's budget when no limit is given (default ${defaults.maxReadChars}, 0 = off)`,
  },
  {
    name: "--regex-timeout-ms",
    kind: "number",
    key: "regexTimeoutMs",
    min: 1,
    arg: "N",
    help:
      `longest regex scan of one file before grep gives up (default ${defaults.regexTimeoutMs})`,
  },
  {
    name: "--no-index",
    kind: "switch",
    key: "noIndex",
    value: true,
    help: "no trigram index: every grep reads every file in its scope",
  },
  {
    name: "--index-max-mib",
    kind: "number",
    key: "indexMaxMib",
    min: 1,
    arg: "N",
    help: `memory cap of the trigram index in MiB (default ${defaults.indexMaxMib}); the largest ` +
      "files beyond it are left out and always read",
  },
  {
    name: "--semantic-max-mib",
    kind: "number",
    key: "semanticMaxMib",
    min: 1,
    arg: "N",
    help:
      `memory budget of the type engines' programs in MiB (default ${defaults.semanticMaxMib}); ` +
      "past it the projects used longest ago are released",
  },
  {
    name: "--cache-dir",
    kind: "cache-dir",
    arg: "DIR",
    help: "where the index is kept between sessions (default: $XDG_CACHE_HOME/shipcode-mcp or " +
      "~/.cache/shipcode-mcp; macOS ~/Library/Caches/shipcode-mcp; Windows " +
      "%LOCALAPPDATA%\\shipcode-mcp)",
  },
  {
    name: "--no-cache",
    kind: "switch",
    key: "noCache",
    value: true,
    help: "keep the index in memory only: nothing is written anywhere",
  },
  {
    name: "--daemon",
    kind: "switch",
    key: "daemon",
    value: true,
    help: "serve through the shared daemon of this workspace (the default on Linux and macOS): " +
      "this process relays stdio to one warm server that every session with the same root and " +
      "flags shares",
  },
  {
    name: "--no-daemon",
    kind: "switch",
    key: "daemon",
    value: false,
    help: "serve in this one process (no shared daemon; the default on Windows)",
  },
  {
    name: "--daemon-idle-s",
    kind: "number",
    key: "daemonIdleS",
    min: 0,
    max: 86_400,
    arg: "N",
    help:
      `seconds the shared daemon stays after its last session ends (default ${defaults.daemonIdleS}, ` +
      "0 = it ends with its last session)",
  },
  {
    name: "--serve-daemon",
    kind: "switch",
    key: "serveDaemon",
    value: true,
    help: "run as the shared daemon (started by the relay itself; not for hosts)",
  },
  {
    name: "--tools",
    kind: "tools",
    arg: "LIST",
    help: "offer only these tools (default: all): comma-separated names or groups " +
      Object.entries(TOOL_GROUPS).map(([group, names]) => `${group} (${names.join(", ")})`)
        .join(", "),
  },
  {
    name: "--log-level",
    kind: "log-level",
    arg: "LEVEL",
    help: `${LOG_LEVELS.slice(0, -1).join(", ")} or ${
      LOG_LEVELS.at(-1)
    } (default ${defaults.logLevel})`,
  },
];

const BY_NAME = new Map<string, Flag>(FLAGS.map((flag) => [flag.name, flag]));

export function usage(version: string): string {
  const rows = FLAGS.map((
    flag,
  ) => ["arg" in flag ? `${flag.name} ${flag.arg}` : flag.name, flag.help]);
  rows.push(["-h, --help", "print this help and exit"], [
    "-V, --version",
    "print the version and exit",
  ]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = rows.map(([left, help]) =>
    `  ${left.padEnd(width)}${wrap(help, 98 - width - 2, width + 2)}`
  );
  return `shipcode-mcp ${version}: a Model Context Protocol server (stdio) for a code workspace

Usage: shipcode-mcp [options]
  (from source: deno task start [options])

Speaks JSON-RPC 2.0 on stdin/stdout, one message per line; logs go to stderr.
Serves the current directory unless --root is given.

Options:
${lines.join("\n")}
`;
}

/** Wraps `text` at `width` columns; continuation lines are indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  out.push(line);
  return out.join(`\n${" ".repeat(indent)}`);
}

export function parseArgs(args: readonly string[]): Parsed {
  const config = defaultConfig();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name === "-h" || name === "--help") return { kind: "help" };
    if (name === "-V" || name === "--version") return { kind: "version" };
    const flag = BY_NAME.get(name);
    if (flag === undefined) return { kind: "error", message: `unknown option "${arg}"` };
    if (flag.kind === "switch") {
      if (eq !== -1) return { kind: "error", message: `${name} takes no value` };
      config[flag.key] = flag.value;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else value = ++i < args.length ? args[i] : undefined;
    if (flag.kind === "root") {
      if (value === undefined || value === "") {
        return { kind: "error", message: "--root needs a folder" };
      }
      config.root = value;
      config.rootExplicit = true;
    } else if (flag.kind === "cache-dir") {
      if (value === undefined || value === "") {
        return { kind: "error", message: "--cache-dir needs a folder" };
      }
      config.cacheDir = value;
    } else if (flag.kind === "tools") {
      const chosen = selectTools(value ?? "");
      if ("unknown" in chosen) {
        return {
          kind: "error",
          message: `--tools: unknown tool or group "${chosen.unknown}"; use names (${
            TOOL_NAMES.join(", ")
          }) or groups (${Object.keys(TOOL_GROUPS).join(", ")})`,
        };
      }
      if (chosen.names.size === 0) return { kind: "error", message: "--tools needs a list" };
      config.tools = chosen.names;
    } else if (flag.kind === "log-level") {
      if (!LOG_LEVELS.includes(value as LogLevel)) {
        return {
          kind: "error",
          message: `--log-level must be one of ${LOG_LEVELS.join(", ")}, got "${value ?? ""}"`,
        };
      }
      config.logLevel = value as LogLevel;
    } else {
      const n = value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n) || n < flag.min || (flag.max !== undefined && n > flag.max)) {
        const range = flag.max === undefined ? `>= ${flag.min}` : `${flag.min}-${flag.max}`;
        return {
          kind: "error",
          message: `${name} needs a whole number ${range}, got "${value ?? ""}"`,
        };
      }
      config[flag.key] = n;
    }
  }
  return { kind: "run", config };
}

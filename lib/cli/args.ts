/** Command-line flags -> Config (or help, version, or a usage error). Pure: no I/O. */

import { type Config, defaultConfig, MIB } from "../config.ts";
import { LOG_LEVELS, type LogLevel } from "../log.ts";

export type Parsed =
  | { kind: "run"; config: Config }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

export function usage(version: string): string {
  return `shipcode-mcp ${version}: a Model Context Protocol server (stdio) for a code workspace

Usage: shipcode-mcp [options]
  (from source: deno task start -- [options])

Speaks JSON-RPC 2.0 on stdin/stdout, one message per line; logs go to stderr.

Options:
  --root DIR                 folder to serve (default: the current directory; / and the home
                             folder are never served by default)
  --no-ignore                do not apply .gitignore, .ignore and .rgignore rules
  --allow-secrets            serve secret files (.env, *.pem, *.key, id_rsa*, ...)
  --max-message-bytes N      longest accepted input line in bytes (default ${64 * MIB}, 64 MiB)
  --max-read-bytes N         largest file resources/read returns (default ${10 * MIB}, 10 MiB)
  --max-output-chars N       tool result budget when no limit is given (default 20000, 0 = off)
  --regex-timeout-ms N       longest regex scan of one file before grep gives up (default 2000)
  --log-level LEVEL          debug, info, warn, error or off (default info)
  -h, --help                 print this help and exit
  -V, --version              print the version and exit
`;
}

interface NumberFlag {
  key: "maxMessageBytes" | "maxReadBytes" | "maxOutputChars" | "regexTimeoutMs";
  min: number;
}

const NUMBER_FLAGS: Record<string, NumberFlag> = {
  "--max-message-bytes": { key: "maxMessageBytes", min: 1 },
  "--max-read-bytes": { key: "maxReadBytes", min: 1 },
  "--max-output-chars": { key: "maxOutputChars", min: 0 },
  "--regex-timeout-ms": { key: "regexTimeoutMs", min: 1 },
};

export function parseArgs(args: readonly string[]): Parsed {
  const config = defaultConfig();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const takeValue = (): string | undefined => {
      if (eq !== -1) return arg.slice(eq + 1);
      i++;
      return i < args.length ? args[i] : undefined;
    };
    if (flag === "-h" || flag === "--help") return { kind: "help" };
    if (flag === "-V" || flag === "--version") return { kind: "version" };
    if (flag === "--no-ignore" || flag === "--allow-secrets") {
      if (eq !== -1) return { kind: "error", message: `${flag} takes no value` };
      if (flag === "--no-ignore") config.noIgnore = true;
      else config.allowSecrets = true;
      continue;
    }
    if (flag === "--root") {
      const value = takeValue();
      if (value === undefined || value === "") {
        return { kind: "error", message: "--root needs a folder" };
      }
      config.root = value;
      config.rootExplicit = true;
      continue;
    }
    if (flag === "--log-level") {
      const value = takeValue();
      if (!LOG_LEVELS.includes(value as LogLevel)) {
        return {
          kind: "error",
          message: `--log-level must be one of ${LOG_LEVELS.join(", ")}, got "${value ?? ""}"`,
        };
      }
      config.logLevel = value as LogLevel;
      continue;
    }
    const numeric = NUMBER_FLAGS[flag];
    if (numeric !== undefined && Object.hasOwn(NUMBER_FLAGS, flag)) {
      const value = takeValue();
      const n = value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n) || n < numeric.min) {
        return {
          kind: "error",
          message: `${flag} needs a whole number >= ${numeric.min}, got "${value ?? ""}"`,
        };
      }
      config[numeric.key] = n;
      continue;
    }
    return { kind: "error", message: `unknown option "${arg}"` };
  }
  return { kind: "run", config };
}

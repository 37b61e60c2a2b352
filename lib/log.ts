/** The stderr-only logger: stdout belongs to the protocol alone. */

export type LogLevel = "debug" | "info" | "warn" | "error" | "off";
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };
const encoder = new TextEncoder();
let threshold = RANK.info;

export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level];
}

function write(level: LogLevel, message: string): void {
  if (RANK[level] < threshold) return;
  try {
    const bytes = encoder.encode(`shipcode-mcp: ${level}: ${message}\n`);
    let done = 0;
    while (done < bytes.length) done += Deno.stderr.writeSync(bytes.subarray(done));
  } catch {
    // stderr is gone too: nothing left to tell.
  }
}

export const log = {
  debug: (message: string): void => write("debug", message),
  info: (message: string): void => write("info", message),
  warn: (message: string): void => write("warn", message),
  error: (message: string): void => write("error", message),
};

// deno-lint-ignore-file no-console
/**
 * The command lines of the servers the benchmarks spawn: ours (the flags of the `start` task in
 * deno.json), the floor (bench/floor_server.ts) and the SDK peer (bench/sdk_server.ts), plus where
 * the corpus lives.
 */

export const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/**
 * The checkout whose main.ts is "ours" (default: this one). Point BENCH_SERVER_DIR at an export of
 * a commit (`git archive HEAD | tar -x -C DIR`) to measure exactly that commit.
 */
export const SERVER_DIR = Deno.env.get("BENCH_SERVER_DIR") ?? REPO;

/** "DIR (commit abc1234[, with uncommitted changes])" when SERVER_DIR is a git work tree. */
export function serverLabel(): string {
  try {
    const git = (args: string[]) =>
      new TextDecoder().decode(
        new Deno.Command("git", {
          args: ["-C", SERVER_DIR, ...args],
          stdout: "piped",
          stderr: "null",
        })
          .outputSync().stdout,
      ).trim();
    const head = git(["rev-parse", "--short", "HEAD"]);
    if (head === "" || git(["rev-parse", "--show-toplevel"]) !== SERVER_DIR) return SERVER_DIR;
    const dirty = git(["status", "--porcelain", "--", "main.ts", "lib", "deno.json"]) !== "";
    return `${SERVER_DIR} (commit ${head}${dirty ? ", with uncommitted changes" : ""})`;
  } catch {
    return SERVER_DIR;
  }
}
export const CORPUS = Deno.env.get("BENCH_CORPUS") ??
  `${Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench"}/linux-source-6.1`;

/** The words between `deno run` and `main.ts` in tasks.start.command. */
export function startFlags(dir = SERVER_DIR): string[] {
  const json = JSON.parse(Deno.readTextFileSync(`${dir}/deno.json`));
  const start = json.tasks.start;
  const command: string = typeof start === "string" ? start : start.command;
  const words = command.trim().split(/\s+/);
  const run = words.indexOf("run");
  const main = words.indexOf("main.ts");
  if (words[0] !== "deno" || run !== 1 || main < 0) {
    throw new Error(`Cannot read the server flags from tasks.start: "${command}"`);
  }
  return words.slice(run + 1, main);
}

/**
 * Our server on `root`; `dir` is the checkout to run (default SERVER_DIR). Without a cache flag
 * in `extra`, a checkout that knows `--no-cache` gets it: benchmarks never write the user's cache.
 * Without `--daemon` or `--no-daemon` in `extra`, a checkout that knows `--no-daemon` gets it: a
 * bench measures the process it starts (bench/daemon.ts asks for the daemon itself).
 */
export function oursCommand(root: string, extra: string[] = [], dir = SERVER_DIR): string[] {
  if (!extra.includes("--daemon") && !extra.includes("--no-daemon") && knowsNoDaemon(dir)) {
    extra = [...extra, "--no-daemon"];
  }
  const own = extra.some((a) => a === "--no-cache" || a.startsWith("--cache-dir"));
  return [
    Deno.execPath(),
    "run",
    ...startFlags(dir),
    `${dir}/main.ts`,
    "--root",
    root,
    ...extra,
    ...(own || !knowsNoCache(dir) ? [] : ["--no-cache"]),
  ];
}

function knowsNoDaemon(dir: string): boolean {
  try {
    return Deno.readTextFileSync(`${dir}/lib/cli/args.ts`).includes('"--no-daemon"');
  } catch {
    return false;
  }
}

function knowsNoCache(dir: string): boolean {
  try {
    return Deno.readTextFileSync(`${dir}/lib/cli/args.ts`).includes('"--no-cache"');
  } catch {
    return false;
  }
}

/** Exits with a hint unless the corpus is unpacked and our server is there to measure. */
export function requireCorpusAndServer(): void {
  try {
    Deno.statSync(CORPUS);
  } catch {
    console.error(`No corpus at ${CORPUS}: run sh bench/corpus.sh first`);
    Deno.exit(1);
  }
  if (!oursLanded()) {
    console.error(`No server at ${SERVER_DIR}/main.ts: nothing to measure`);
    Deno.exit(1);
  }
}

export function oursLanded(): boolean {
  try {
    return Deno.statSync(`${SERVER_DIR}/main.ts`).isFile;
  } catch {
    return false;
  }
}

export function floorCommand(options: { toolsList?: string; text?: string; uri?: string }) {
  const args = [
    Deno.execPath(),
    "run",
    "--allow-read",
    "--no-prompt",
    `${REPO}/bench/floor_server.ts`,
  ];
  if (options.toolsList) args.push("--tools-list", options.toolsList);
  if (options.text) args.push("--text", options.text);
  if (options.uri) args.push("--uri", options.uri);
  return args;
}

export function sdkCommand(options: { text?: string; uri?: string }) {
  const args = [
    Deno.execPath(),
    "run",
    "--allow-read",
    "--allow-env",
    "--no-prompt",
    `${REPO}/bench/sdk_server.ts`,
  ];
  if (options.text) args.push("--text", options.text);
  if (options.uri) args.push("--uri", options.uri);
  return args;
}

/** file:// URL of an absolute path, percent-encoded like node's pathToFileURL. */
export function fileUri(path: string): string {
  return new URL(`file://${path.split("/").map(encodeURIComponent).join("/")}`).href;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs a command in `cwd`, returns wall ms and stdout. */
export async function timed(
  cmd: string[],
  cwd?: string,
): Promise<{ ms: number; stdout: string; code: number }> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  return { ms, stdout: new TextDecoder().decode(out.stdout), code: out.code };
}

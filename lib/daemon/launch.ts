/**
 * Starting the daemon: the one place besides lib/git/runner.ts that starts a process, and it
 * starts only this program itself. From source the daemon is `deno run <the start task's flags>
 * main.ts --serve-daemon ...`; a compiled binary starts itself. The program is named as the
 * launch line's `--allow-run` grants it (`deno` or `shipcode-mcp`, found on PATH), and only when
 * that name is this very executable; otherwise there is no daemon (the launch line lacks it).
 */

import { isCompiled } from "./build_id.ts";

export interface Launch {
  /** The program as the run permission names it. */
  command: string;
  /** What comes before the daemon's own flags. */
  prefix: string[];
}

/** The runtime flags of a `deno run ... main.ts` command line: the words between the two. */
export function runFlags(command: string): string[] {
  const words = command.split(" ").filter((word) => word !== "");
  return words.slice(words.indexOf("run") + 1, words.indexOf("main.ts"));
}

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function pathDirs(): string[] {
  try {
    return (Deno.env.get("PATH") ?? "").split(":").filter((dir) => dir.startsWith("/"));
  } catch {
    return [];
  }
}

function mayRun(command: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * How to start this program again (from source, with `flags`: the start task's), or why it
 * cannot be.
 */
export function daemonLaunch(
  flags: readonly string[],
  mainModule: string = Deno.mainModule,
): Launch | { why: string } {
  const exec = Deno.execPath();
  const real = realOrNull(exec);
  const name = exec.slice(exec.lastIndexOf("/") + 1);
  const candidates = [exec, ...pathDirs().map((dir) => `${dir}/${name}`)];
  const command = candidates.find((path) => mayRun(path) && realOrNull(path) === real);
  if (command === undefined) {
    const other = candidates.find((path) => mayRun(path) && realOrNull(path) !== null);
    if (other !== undefined) {
      // npm's wrapper script (bin.cjs) stands where Deno's installer did not put the binary.
      return {
        why: `the ${name} that the launch line allows (${other}) is another file than this ` +
          `executable (${exec}): npm installed Deno without its install script, which puts the ` +
          `binary itself on PATH (npm install -g --allow-scripts=deno deno), or pass --no-daemon`,
      };
    }
    return { why: `the launch line does not allow running ${name} (--allow-run=...,${name})` };
  }
  if (isCompiled(mainModule)) return { command, prefix: [] };
  const main = new URL(mainModule);
  if (main.protocol !== "file:") return { why: `the program is not a local file (${mainModule})` };
  return { command, prefix: ["run", ...flags, main.pathname] };
}

/**
 * Starts the daemon, detached: it outlives this process and gets no signal meant for the host's
 * process group. Its log lines go to this process's stderr while this process runs (then its
 * writes fail, and its logger drops them); its exit is reaped by whoever is its parent then.
 */
export function startDaemon(launch: Launch, args: string[], cwd: string): Deno.ChildProcess {
  const child = new Deno.Command(launch.command, {
    args: [...launch.prefix, ...args],
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    detached: true,
  }).spawn();
  passLogLines(child.stderr);
  child.unref();
  return child;
}

/** Copies the daemon's stderr to this process's, chunk by chunk, until either ends. */
async function passLogLines(stderr: ReadableStream<Uint8Array>): Promise<void> {
  try {
    for await (const chunk of stderr) {
      let done = 0;
      while (done < chunk.length) done += Deno.stderr.writeSync(chunk.subarray(done));
    }
  } catch {
    // Either end is gone: the daemon's later lines are dropped.
  }
}

/**
 * What the shared-daemon benches (daemon.ts, daemon_ab.ts, daemon_kernel.ts, daemon_semantic.ts,
 * relay.ts) share: finding the daemons a bench started (by words of their command lines, such as
 * its own temp folder) and killing them when it ends.
 */

/** The pids of the `--serve-daemon` processes whose command line holds every one of `words`. */
export function daemonPids(...words: string[]): number[] {
  const out = new Deno.Command("ps", { args: ["-ax", "-ww", "-o", "pid=,command="] })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((l) => l.includes("--serve-daemon") && words.every((w) => l.includes(w)))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Kills (SIGKILL) the daemons `daemonPids(...words)` finds; those gone meanwhile are skipped. */
export function killDaemons(...words: string[]): void {
  for (const pid of daemonPids(...words)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
}

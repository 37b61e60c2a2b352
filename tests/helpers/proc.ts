/**
 * Memory of another process, measured from outside: the resident set from `ps` (any POSIX
 * system), the peak (VmHWM) from /proc on Linux. Deno asks for --allow-all to read /proc/PID/*
 * directly, so it is read through `cat`.
 */

/** Resident set size of `pid` in KiB. */
export async function rssKiB(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  const kib = Number(new TextDecoder().decode(out.stdout).trim());
  if (!out.success || !Number.isFinite(kib)) throw new Error(`Cannot read the RSS of ${pid}`);
  return kib;
}

/** Peak resident set size (VmHWM) of `pid` in KiB, or null where there is no /proc (macOS). */
export async function peakKiB(pid: number): Promise<number | null> {
  const out = await new Deno.Command("cat", {
    args: [`/proc/${pid}/status`],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) return null;
  const m = /^VmHWM:\s+(\d+) kB/m.exec(new TextDecoder().decode(out.stdout));
  return m ? Number(m[1]) : null;
}

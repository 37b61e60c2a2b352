/**
 * Preloaded into the real server by permissions_test.ts (`deno run --preload`): when the process
 * ends it tries to write a file in the served root, to run git and to load native code, and
 * reports on stderr what the process could do. It is never part of the server.
 */

globalThis.addEventListener("unload", () => {
  const root = Deno.args[Deno.args.indexOf("--root") + 1];
  const attempt = (fn: () => void): string => {
    try {
      fn();
      return "done";
    } catch (error) {
      return error instanceof Error ? error.name : String(error);
    }
  };
  const at = Deno.args.indexOf("--cache-dir");
  const cache = at >= 0 ? Deno.args[at + 1] : null;
  const report = {
    write: attempt(() => Deno.writeTextFileSync(`${root}/probe-wrote-this.txt`, "x")),
    // Only the index cache's writer (a worker) may write there: the main thread may not.
    cacheWrite: cache === null
      ? "no cache"
      : attempt(() => Deno.writeTextFileSync(`${cache}/probe-wrote-this.txt`, "x")),
    run: attempt(() =>
      new Deno.Command("git", { args: ["--version"], stdout: "null" }).outputSync()
    ),
    // The launch line's network permission is only for the shared daemon's Unix socket.
    net: attempt(() => Deno.listen({ hostname: "127.0.0.1", port: 0 }).close()),
    // No such library: with the permission held this fails to open it (an Error); without it,
    // the permission check refuses first (NotCapable).
    ffi: attempt(() => {
      Deno.dlopen("/nonexistent/shipcode-probe.so", {}).close();
    }),
  };
  Deno.stderr.writeSync(new TextEncoder().encode(`probe: ${JSON.stringify(report)}\n`));
});

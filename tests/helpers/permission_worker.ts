/**
 * A worker for tests/worker_start_test.ts: on any message it tries to read, write, run git and
 * read an environment variable, and posts what each attempt did. It is never part of the server.
 */
/// <reference lib="deno.worker" />

function attempt(fn: () => void): string {
  try {
    fn();
    return "done";
  } catch (error) {
    return error instanceof Error ? error.name : String(error);
  }
}

self.onmessage = (event: MessageEvent<{ dir: string }>) => {
  const dir = event.data.dir;
  self.postMessage({
    read: attempt(() => Deno.readTextFileSync(`${dir}/there.txt`)),
    write: attempt(() => Deno.writeTextFileSync(`${dir}/written.txt`, "x")),
    run: attempt(() =>
      new Deno.Command("git", { args: ["--version"], stdout: "null" }).outputSync()
    ),
    env: attempt(() => Deno.env.get("PATH")),
  });
};

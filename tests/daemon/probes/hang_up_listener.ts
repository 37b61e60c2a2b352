// deno-lint-ignore-file no-console
/**
 * Run by faults_test.ts in a process of its own (Unix sockets need net permission): stands on a
 * daemon's socket path in place of a daemon and hangs up every connection as soon as it is
 * accepted, before any welcome, as a daemon dying while it accepts does. Prints "ready" once it
 * listens; runs until killed.
 *
 *   deno run --allow-net --allow-read --allow-write hang_up_listener.ts SOCKET
 */

const [socket] = Deno.args;
try {
  Deno.removeSync(socket);
} catch {
  // None there.
}
const listener = Deno.listen({ transport: "unix", path: socket });
console.log("ready");
for await (const conn of listener) conn.close();

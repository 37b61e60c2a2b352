// deno-lint-ignore-file no-console
/**
 * Run by daemon_link_test.ts in a process of its own (the test runner has no net permission,
 * which Unix sockets need): plays a daemon that misbehaves on a socket in a temp folder, opens
 * the relay's link to it and prints what the open came to, as one JSON line.
 *
 *   deno run --allow-net --allow-read --allow-write link_probe.ts mute|hang-up WELCOME_MS
 */

import { DaemonLink } from "../../../lib/daemon/daemon_link.ts";
import { WIRE_VERSION } from "../../../lib/daemon/frames.ts";

const [mode, welcomeMs] = Deno.args;
const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "scl-" });
const socket = `${dir}/d.sock`;
const listener = Deno.listen({ transport: "unix", path: socket });
const held: Deno.Conn[] = [];
const accepting = (async () => {
  for await (const conn of listener) {
    if (mode === "mute") held.push(conn);
    else conn.close();
  }
})();
let outcome: Record<string, unknown>;
try {
  const link = await DaemonLink.open(
    socket,
    { wire: WIRE_VERSION, version: "0", build: "b", key: "k", session: [] },
    () => {},
    Number(welcomeMs),
  );
  outcome = { opened: !("refused" in link) };
} catch (error) {
  outcome = {
    error: error instanceof Error ? error.name : String(error),
    message: error instanceof Error ? error.message : "",
  };
}
listener.close();
await accepting.catch(() => {});
for (const conn of held) conn.close();
await Deno.remove(dir, { recursive: true });
console.log(JSON.stringify({ ...outcome, accepted: held.length }));

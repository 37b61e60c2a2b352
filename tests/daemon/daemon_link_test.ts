/**
 * The relay's link to a daemon never waits forever on the handshake: a process that accepts the
 * connection and never answers the hello (stuck, or stopped with SIGSTOP) makes the link give
 * up at its deadline, so the relay's call ends in an error instead of a hang. The socket side
 * runs in a process of its own (probes/link_probe.ts): Unix sockets need net permission.
 */

import assert from "node:assert/strict";

const PROBE = new URL("./probes/link_probe.ts", import.meta.url).pathname;

async function probe(mode: "mute" | "hang-up", welcomeMs: number) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      PROBE,
      mode,
      String(welcomeMs),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("daemon link: a daemon that accepts and never answers the hello is given up at the deadline", async () => {
  const outcome = await probe("mute", 300);
  assert.equal(outcome.error, "TimedOut");
  assert.match(outcome.message, /did not answer the handshake within 300 ms/);
  assert.equal(outcome.accepted, 1);
});

Deno.test("daemon link: a daemon that hangs up before its welcome is a reset, not a wait", async () => {
  const outcome = await probe("hang-up", 60_000);
  assert.equal(outcome.error, "ConnectionReset");
});
